"""Reactions that act inside the enemy's activation (Hit and Run) and Side by Side, with forced dice."""

import pytest

from simulator.core import IllegalAction
from tests.saga.helpers import give_dice, session, take_defaults, to_activation


def _hit_and_run_session(**kw: object):
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 16], "columns": 4},
                 {"id": "far", "class": "warriors", "figures": 4, "at": [30, 30], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], faction_b="welsh", **kw)
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s._state["sides"]["B"]["dice"][0] = {"face": "R", "box": "hit_and_run"}
    return s


def test_hit_and_run_moves_a_unit_before_the_enemy_activation_resolves() -> None:
    s = _hit_and_run_session()
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    assert s.state["active"] == "B" and s.state["pending"]["kind"] == "reaction"
    assert {"type": "use_ability", "box": "hit_and_run", "unit": "hg", "order": "move"} in s.legal_actions()
    with pytest.raises(IllegalAction, match="not within M"):
        s.apply({"type": "use_ability", "box": "hit_and_run", "unit": "far", "order": "move"})
    s.apply({"type": "use_ability", "box": "hit_and_run", "unit": "hg", "order": "move"})
    # B's Hearthguard now moves (A may react to it first: A has nothing, so B moves at once)
    assert s.state["active"] == "B" and s.state["pending"]["kind"] == "move"
    assert s.state["pending"]["unit"] == "hg" and s.state["interrupted"]
    assert all(a["type"] != "engage" for a in s.legal_actions())       # it may not engage
    with pytest.raises(IllegalAction, match="may not engage"):
        s.apply({"type": "engage", "target": "w"})
    s.apply({"type": "move", "dx": 0, "dy": 5})
    # back in the reaction window of A's activation: B has no other reaction (the die is spent),
    # so A's unit moves now
    assert not s.state["interrupted"] and s.state["sides"]["B"]["dice"][0]["box"] is None
    assert s.state["active"] == "A" and s.state["pending"]["kind"] == "move" and s.state["pending"]["unit"] == "w"
    s.apply({"type": "move", "dx": 0, "dy": 6})                           # room where hg stood
    assert s.state["figures"]["w.1"]["y"] == pytest.approx(16)
    assert s.state["units"]["hg"]["moves"] == 1 and s.state["units"]["hg"]["fatigue"] == 0


def test_hit_and_run_can_shoot_and_kill_the_activated_unit_first() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "lev", "class": "levies", "figures": 12, "at": [10, 15], "columns": 6},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], faction_b="welsh",
                tape=[6] * 6 + [1] * 6)              # 6 shooting dice all hit; the defence dice fail
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s._state["sides"]["B"]["dice"][0] = {"face": "R", "box": "hit_and_run"}
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    s.apply({"type": "use_ability", "box": "hit_and_run", "unit": "lev", "order": "shoot"})
    s.apply({"type": "shoot", "target": "w"})
    while s.state["shooting"] is not None:
        s.apply({"type": "ready"})
    assert s.state["units"]["w"]["figures"] == []
    # the interrupted activation is dropped: its unit is gone; A plays on
    assert s.state["pending"] is None and s.state["active"] == "A"
    assert any(a["type"] == "end_turn" for a in s.legal_actions())



def test_hit_and_run_taking_the_only_target_away_cancels_the_shot() -> None:
    """A unit activated to shoot whose one target rides out of range in a Hit and Run has no
    shot left: its activation is spent (a computer game stopped here with no legal action)."""
    s = session([{"id": "lev", "class": "levies", "figures": 12, "weapon": "bow", "at": [10, 10], "columns": 6},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 17], "columns": 4, "mounted": True},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], faction_b="welsh")
    to_activation(s)
    give_dice(s, "A", [("U", "thralls")])
    s._state["sides"]["B"]["dice"][0] = {"face": "R", "box": "hit_and_run"}
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s.apply({"type": "use_ability", "box": "hit_and_run", "unit": "hg", "order": "move"})
    s.apply({"type": "move", "dx": 0, "dy": 12})                       # out of the bows' L
    assert s.state["pending"] is None and s.state["active"] == "A"
    assert any(a["type"] == "end_turn" for a in s.legal_actions())
    lev = s.state["units"]["lev"]
    assert lev["shots"] == 0 and lev["fatigue"] == 0 and lev["activations"] == 1
    assert any(e.rule == "SAGA p.15" and "nothing to shoot at" in e.text and "cancelled" in e.text for e in s.log)

def _side_by_side(tape: list[int]):
    s = session([{"id": "lord", "class": "warlord", "at": [20, 10]},
                 {"id": "w", "class": "warriors", "figures": 4, "at": [24, 11], "columns": 4}],
                [{"id": "e", "class": "warriors", "figures": 8, "at": [20, 15], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], tape=tape)
    to_activation(s)
    return s


def test_side_by_side_warlord_and_we_obey_unit_fight_one_enemy_unit() -> None:
    s = _side_by_side([6, 6, 1, 1, 1,          # the Warlord's 5 dice: 2 hits (armour 4)
                       4, 4, 4, 1,             # the Warriors' 4 dice: 3 hits
                       5, 5, 5, 1,             # 4 enemy dice at the Warlord: 3 hits (armour 5)
                       1, 1, 1, 1,             # 4 enemy dice at the Warriors: none
                       1, 1, 1, 1, 1,          # the enemy's 5 defence dice fail
                       1, 1, 1])               # the Warlord's 3 defence dice fail
    act = {"type": "activate", "unit": "lord", "source": "determination", "order": "move", "we_obey": "w",
           "side_by_side": True}
    assert act in s.legal_actions()
    s.apply(act)
    s.apply({"type": "engage", "target": "e"})
    # the Warlord moved first and waits; the We Obey unit may only join his fight
    assert s.state["melee"] is None and s.state["pending"]["unit"] == "w" and s.state["pending"]["join"] == "e"
    s.apply({"type": "engage", "target": "e"})
    m = s.state["melee"]
    assert m["partner"] == "w" and m["sides"]["lord"]["attack"] == 5 and m["sides"]["w"]["attack"] == 4
    assert m["sides"]["e"]["attack"] == 8
    s.apply({"type": "melee_trade", "trade": False})
    s.apply({"type": "ready"})
    assert {"type": "ready", "at_warlord": 0} in s.legal_actions()
    with pytest.raises(IllegalAction, match="at most 4"):      # no more than half at the Warlord
        s.apply({"type": "ready", "at_warlord": 5})
    s.apply({"type": "ready", "at_warlord": 4})
    take_defaults(s)
    assert any(e.kind == "melee" and "puts 4 attack dice on" in e.text for e in s.log)
    # 5 enemy casualties; the Warlord ignores one hit and two of his Warriors die for him
    assert len(s.state["units"]["e"]["figures"]) == 3
    assert s.state["units"]["lord"]["figures"] and len(s.state["units"]["w"]["figures"]) == 2
    assert s.state["melee"] is None and s.state["units"]["lord"]["fatigue"] == 1
    assert s.state["units"]["w"]["fatigue"] == 1 and s.state["units"]["e"]["fatigue"] == 1
    assert any(e.kind == "disengage" and "A warriors" not in e.text and "B warriors" in e.text for e in s.log)


def _side_by_side_beside_a_second_foe(e2_at: list[float]):
    """A Warlord with a warrior unit beside him; the enemy warriors ``e`` in front of him and a
    second enemy unit ``e2`` at ``e2_at``, in the reach of the warriors."""
    s = session([{"id": "lord", "class": "warlord", "at": [20, 10]},
                 {"id": "w", "class": "warriors", "figures": 4, "at": [26, 11], "columns": 4}],
                [{"id": "e", "class": "warriors", "figures": 8, "at": [20, 15], "columns": 4},
                 {"id": "e2", "class": "warriors", "figures": 4, "at": e2_at, "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    return s


def test_side_by_side_partner_is_offered_only_his_warlords_foe() -> None:
    """SAGA p.34: while the Warlord waits, his partner engages the Warlord's foe or nobody; a
    second enemy unit in the partner's reach is not offered (found by a computer game in which
    the random player picked that charge from the legal list and the engine refused it)."""
    s = _side_by_side_beside_a_second_foe([29, 15])
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move", "we_obey": "w",
             "side_by_side": True})
    s.apply({"type": "engage", "target": "e"})
    assert s.state["pending"]["unit"] == "w" and s.state["pending"]["join"] == "e"
    with pytest.raises(IllegalAction, match="may engage only"):
        s.apply({"type": "engage", "target": "e2"})
    offered = s.legal_actions()
    assert {"type": "engage", "target": "e2"} not in offered
    for action in offered:
        assert s.check(action) is None, action


def test_side_by_side_partner_forced_by_a_second_move_to_engage_another_unit_stays_put() -> None:
    """SAGA p.14 makes a unit's second move engage the nearest enemy within S; SAGA p.34 lets the
    Warlord's partner engage only his foe. When they disagree the partner cannot move: its
    activation is cancelled and the Warlord fights alone (a computer game stopped here with no
    legal action at all)."""
    s = _side_by_side_beside_a_second_foe([28, 14])       # e2 nearer the partner than e
    s._state["units"]["w"]["moves"] = 1                # the partner has moved once this turn
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move", "we_obey": "w",
             "side_by_side": True})
    s.apply({"type": "engage", "target": "e"})
    assert any(e.rule == "SAGA p.14" and "cancelled" in e.text and "may engage only" in e.text for e in s.log)
    m = s.state["melee"]
    assert m is not None and m["attacker"] == "lord" and m["defender"] == "e" and m["partner"] is None
    assert s.legal_actions()


def test_side_by_side_partner_that_does_not_join_leaves_the_warlord_alone() -> None:
    s = _side_by_side([1] * 5 + [1] * 8)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move", "we_obey": "w",
             "side_by_side": True})
    s.apply({"type": "engage", "target": "e"})
    s.apply({"type": "hold"})
    m = s.state["melee"]
    assert m is not None and m["attacker"] == "lord" and m["partner"] is None
    with pytest.raises(IllegalAction, match="We Obey"):
        s2 = _side_by_side([])
        s2.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move",
                  "side_by_side": True})
