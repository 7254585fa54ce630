"""Rules that act on their own, through Session with forced dice: elementals out of control
(DR 2.8.9, 2.11.4), berserk monsters (DR 2.12.1.7.1), lightning added to a melee (DR 2.8.8)
and sea serpents breaching Nurkott's wooden walls (DR 2.11.2.2)."""

from __future__ import annotations

import pytest

from simulator.core import IllegalAction
from tests.dragon_rage.helpers import kinds, session, to_phase


def _units(s):
    return s.state["units"]


# ------------------------------------------------------------------------------ elementals
def _summoned(extra_invaders=(), tape=None):
    """Defender wizard in 0404 summons elm1 into 0406 on turn 1 (no dice)."""
    s = session({"invader": [{"type": "orcs", "at": ["2208"]}, *extra_invaders],
                 "defender": [{"type": "wizard", "at": ["0404"]}]}, tape=tape)
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "0406", "element": "earth"})
    return s


def test_elemental_out_of_control_beyond_five_hexes() -> None:
    s = _summoned()
    to_phase(s, "defender_move")
    with pytest.raises(IllegalAction, match="turn it is summoned"):
        s.apply({"type": "move", "unit": "elm1", "to": "0407"})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "elm1", "to": "0409"})            # 5 hexes from 0404: still held
    assert _units(s)["elm1"]["controlled"] is True
    ev = s.apply({"type": "move", "unit": "wizard1", "to": "0403"})     # now 6 hexes apart
    assert "elemental_free" in kinds(ev) and _units(s)["elm1"]["controlled"] is False
    assert next(e for e in ev if e.kind == "elemental_free").rule == "DR 2.8.9"
    with pytest.raises(IllegalAction, match="out of control") as exc:
        s.apply({"type": "move", "unit": "elm1", "to": "0410"})
    assert exc.value.rule == "DR 2.8.9"
    assert not [a for a in s.legal_actions() if a.get("unit") == "elm1"]
    to_phase(s, "defender_melee")
    with pytest.raises(IllegalAction, match="takes no orders") as exc:
        s.apply({"type": "melee", "units": ["elm1"], "target": "0410"})
    assert exc.value.rule == "DR 2.8.9"


def test_wild_elemental_hunts_the_nearest_unit_in_both_turns() -> None:
    # turn 2: the invader wizard's lightning (power 2 vs 2: needs 6, rolls 1) frees elm1; at the
    # start of the invader move elm1 picks the invader wizard (1 hex) and the invader must move it
    # into the wizard's hex; it attacks him at the start of the invader melee (4 vs 2 needs 5:
    # rolls 6); in the defender's turn the defender must move it onto its own summoner.
    s = _summoned([{"type": "invader_wizard", "at": ["0407"]}], tape=[1, 6, 6])
    inv_wiz = next(u["id"] for u in _units(s).values() if u["type"] == "invader_wizard")
    to_phase(s, "invader_spell")
    ev = s.apply({"type": "cast", "unit": inv_wiz, "spell": "lightning", "target": "0404",
                  "target_unit": "wizard1"})
    assert "elemental_free" in kinds(ev) and _units(s)["wizard1"]["alive"]
    ev = s.apply({"type": "end_phase"})                                   # -> invader move
    target = next(e for e in ev if e.kind == "elemental_target")
    assert target.data["target"] == inv_wiz and target.rule == "DR 2.8.9"
    assert [a for a in s.legal_actions() if a["type"] in ("move", "end_phase") and a.get("unit", "elm1") == "elm1"] \
        == [{"type": "move", "unit": "elm1", "to": "0407"}]
    with pytest.raises(IllegalAction, match="out of control: move it toward") as exc:
        s.apply({"type": "end_phase"})
    assert exc.value.rule == "DR 2.8.9"
    ev = s.apply({"type": "move", "unit": "elm1", "to": "0407"})         # the invader moves it
    wild = [e for e in ev if e.kind == "elemental_wild"]
    assert wild and _units(s)["elm1"]["hex"] == "0407" and inv_wiz in wild[0].data["pieces"]
    with pytest.raises(IllegalAction, match="made its move"):
        s.apply({"type": "move", "unit": "elm1", "to": "0406"})
    s.apply({"type": "end_phase"})
    ev = s.apply({"type": "end_phase"})                                   # fire -> melee: elm1 attacks
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.rule.startswith("DR 2.8.9") and attack.data["success"]
    assert not _units(s)[inv_wiz]["alive"]
    to_phase(s, "defender_move")
    assert {"type": "end_phase"} not in s.legal_actions()
    ev = s.apply({"type": "move", "unit": "elm1", "to": "0404"})         # onto its own summoner
    assert _units(s)["elm1"]["hex"] == "0404" and "wizard1" in ev[0].data["pieces"]
    to_phase(s, "defender_melee")
    assert not _units(s)["wizard1"]["alive"]


def test_wild_elemental_must_take_a_shortest_way_as_far_as_its_mp_go() -> None:
    # elm1 (MP 3) breaks free in 0409 and goes for the orc in 0414 (5 hexes; its summoner is 6
    # away): only the hexes 3 hexes nearer are offered, a shorter or sideways move is refused; the
    # client's move range shows the same hexes.
    s = _summoned([{"type": "orcs", "at": ["0414"]}])
    orc = next(u["id"] for u in _units(s).values() if u["hex"] == "0414")
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "elm1", "to": "0409"})
    ev = s.apply({"type": "move", "unit": "wizard1", "to": "0403"})       # 6 hexes: it breaks free
    assert "elemental_free" in kinds(ev)
    with pytest.raises(IllegalAction, match="next movement phase"):      # freed mid-phase: no move now
        s.apply({"type": "move", "unit": "elm1", "to": "0410"})
    to_phase(s, "invader_move")
    assert _units(s)["elm1"]["wild_target"] == orc
    owed = sorted(a["to"] for a in s.legal_actions() if a.get("unit") == "elm1")
    from simulator.games.dragon_rage.board import board_for
    board = board_for(s.state["map"])
    assert owed and all(board.distance(h, "0414") == 2 for h in owed) and "0412" in owed
    view = s.game.presentation().move_range(s.state_data(), "elm1")
    assert view is not None and sorted(view.hexes) == owed
    for bad in ("0410", "0309"):
        with pytest.raises(IllegalAction, match="shortest way") as exc:
            s.apply({"type": "move", "unit": "elm1", "to": bad})
        assert exc.value.rule == "DR 2.8.9"
    s.apply({"type": "move", "unit": "elm1", "to": "0412"})
    s.apply({"type": "end_phase"})


def test_the_phasing_player_chooses_among_equally_short_ways() -> None:
    # elm1 breaks free in 0409; the orc in 0513 is 4 hexes away: 0412 and 0512 both leave it one
    # hex to go, and three equally short ways lead to 0512; the player picks one with 'path'.
    s = _summoned([{"type": "orcs", "at": ["0513"]}])
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "elm1", "to": "0409"})
    s.apply({"type": "move", "unit": "wizard1", "to": "0403"})
    to_phase(s, "invader_move")
    assert sorted(a["to"] for a in s.legal_actions() if a.get("unit") == "elm1") == ["0412", "0512"]
    for bad in (["0410", "0510", "0511", "0512"], ["0510", "0610", "0512"], ["0410", "0411", "0412"]):
        with pytest.raises(IllegalAction, match="not one of its shortest ways") as exc:
            s.apply({"type": "move", "unit": "elm1", "to": "0512", "path": bad})
        assert exc.value.rule == "DR 2.8.9"
    ev = s.apply({"type": "move", "unit": "elm1", "to": "0512", "path": ["0410", "0511", "0512"]})
    wild = next(e for e in ev if e.kind == "elemental_wild")
    assert wild.data["path"] == ["0409", "0410", "0511", "0512"] and _units(s)["elm1"]["hex"] == "0512"


def test_controlled_elemental_must_attack_the_enemy_it_stops_on() -> None:
    s = session({"invader": [{"type": "orcs", "at": ["0408"]}, {"type": "orcs", "at": ["0506"]},
                             {"type": "orcs", "at": ["2208"]}],
                 "defender": [{"type": "wizard", "at": ["0404"]}]}, tape=[6])
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "0406"})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "elm1", "to": "0408"})             # stops on orc1
    to_phase(s, "defender_fire")
    s.apply({"type": "end_phase"})
    assert {"type": "end_phase"} not in s.legal_actions()
    with pytest.raises(IllegalAction, match="must attack") as exc:
        s.apply({"type": "end_phase"})
    assert exc.value.rule == "DR 2.8.9"
    with pytest.raises(IllegalAction, match="own hex"):
        s.apply({"type": "melee", "units": ["elm1"], "target": "0506"})
    ev = s.apply({"type": "melee", "units": ["elm1"], "target": "0408"})
    assert not _units(s)["orc1"]["alive"] and "destroyed" in kinds(ev)
    s.apply({"type": "end_phase"})


# --------------------------------------------------------------------------------- berserk
def _berserk_young_dragon(tape):
    """Turn 1 (defender first): cav1 destroys the young dragon's head (3 points): it goes berserk."""
    s = session({"invader": [{"type": "young_dragon", "at": ["0404"], "facing": "S"},
                             {"type": "orcs", "at": ["2208"]}],
                 "defender": [{"type": "cavalry", "at": ["0405"]}]}, tape=tape, first="defender")
    young = next(u["id"] for u in _units(s).values() if u["type"] == "young_dragon")
    to_phase(s, "defender_melee")
    s.apply({"type": "attack_monster", "unit": "cav1", "monster": young, "area": "head"})
    assert _units(s)[young]["berserk"]
    return s, young


def test_berserk_monster_facing_an_enemy_stays_and_attacks_it() -> None:
    # invader turn 1: it faces cav1 and stays; its melee (wings 1+1, legs 1+1 = 4 vs 3) rolls 1;
    # the berserk death roll after the invader melee is 1.
    s, young = _berserk_young_dragon([6, 1, 1])
    to_phase(s, "invader_move")
    assert _units(s)[young]["hex"] == "0404"
    assert not [a for a in s.legal_actions() if a.get("unit") == young]
    with pytest.raises(IllegalAction, match="berserk") as exc:
        s.apply({"type": "rotate", "unit": young, "facing": 4})
    assert exc.value.rule == "DR 2.12.1.7.1"
    ev = s.apply({"type": "end_phase"})
    ev = s.apply({"type": "end_phase"})                                  # start of the invader melee
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["attack"] == 4 and attack.data["defence"] == 3 and "cav1" in attack.data["pieces"]
    ev = s.apply({"type": "end_phase"})
    assert any(e.kind == "berserk" and e.rule == "DR 2.12.1.7.1" for e in ev) and _units(s)[young]["alive"]


def test_berserk_monster_charges_the_nearest_enemy() -> None:
    s, young = _berserk_young_dragon([6, 1, 1, 1, 1])
    to_phase(s, "defender_move")                                         # turn 2: cav1 backs off
    s.apply({"type": "move", "unit": "cav1", "to": "0407"})
    to_phase(s, "invader_spell")
    ev = s.apply({"type": "end_phase"})                                  # invader move: the charge
    assert _units(s)[young]["hex"] == "0406" and _units(s)[young]["facing"] == 3
    assert any(e.kind == "berserk" and "charges" in e.text for e in ev)
    s.apply({"type": "end_phase"})
    ev = s.apply({"type": "end_phase"})
    assert any(e.kind == "attack" and "cav1" in e.data["pieces"] for e in ev)


# ------------------------------------------------------------------ lightning in a melee
def _lightning_session(tape):
    s = session({"invader": [{"type": "orcs", "at": ["0406"]}, {"type": "orcs", "at": ["2208"]}],
                 "defender": [{"type": "wizard", "at": ["0404"]}, {"type": "infantry", "at": ["0407"]}]}, tape=tape)
    to_phase(s, "defender_spell")
    hold = {"type": "cast", "unit": "wizard1", "spell": "lightning", "target": "0406", "target_unit": "orc1",
            "add_to_melee": True}
    assert hold in s.legal_actions()
    ev = s.apply(hold)                                                     # power 5 - 2 = 3, no roll
    assert "lightning_held" in kinds(ev) and not [e for e in ev if e.kind == "attack"]
    return s


def test_lightning_joins_the_melee_on_its_target() -> None:
    s = _lightning_session([5])
    to_phase(s, "defender_melee")
    ev = s.apply({"type": "melee", "units": ["inf1"], "target": "0406"})   # 2 + 3 = 5 vs 2: needs 5
    joins = next(e for e in ev if e.kind == "lightning_joins")
    attack = next(e for e in ev if e.kind == "attack")
    assert joins.rule == "DR 2.8.8" and attack.data["attack"] == 5 and attack.data["success"]
    assert not _units(s)["orc1"]["alive"] and s.state["held_lightning"] == []


def test_held_lightning_is_lost_without_a_melee() -> None:
    s = _lightning_session([])
    to_phase(s, "defender_melee")
    ev = s.apply({"type": "end_phase"})
    assert "lightning_lost" in kinds(ev) and s.state["held_lightning"] == [] and _units(s)["orc1"]["alive"]


# --------------------------------------------------------- sea serpents and wooden walls
def test_sea_serpent_breaches_a_guarded_nurkott_wall_and_attacks_through_it() -> None:
    s = session({"invader": [{"type": "sea_serpent", "at": ["1210"]}],
                 "defender": [{"type": "orcs", "at": ["1211"]}]}, map_="dragon_rage/nurkott", tape=[5, 4, 6])
    serpent = next(u["id"] for u in _units(s).values() if u["type"] == "sea_serpent")
    to_phase(s, "invader_move")
    smash = {"type": "smash", "unit": serpent, "toward": "1211"}
    assert smash in s.legal_actions()
    ev = s.apply(smash)                                                     # 2d6 = 9, needing 9
    assert "wall_breached" in kinds(ev) and s.state["broken_walls"] == ["1210/1211"]
    assert next(e for e in ev if e.kind == "wall_breached").rule == "DR 2.11.2.2"
    style = s.game.presentation().surface(s.state_data()).hexside_overrides
    assert style[("1210", "1211")] == "wall_breached"
    to_phase(s, "invader_melee")
    ev = s.apply({"type": "melee", "units": [serpent], "target": "1211"})
    assert not _units(s)["orc1"]["alive"]


def test_a_wall_holds_until_breached_and_then_lets_giants_through() -> None:
    s = session({"invader": [{"type": "sea_serpent", "at": ["1210"]}, {"type": "giant", "at": ["1310"]}],
                 "defender": [{"type": "orcs", "at": ["1211"]}, {"type": "orcs", "at": ["0402"]}],
                 }, map_="dragon_rage/nurkott", tape=[1, 2])
    serpent = next(u["id"] for u in _units(s).values() if u["type"] == "sea_serpent")
    giant = next(u["id"] for u in _units(s).values() if u["type"] == "giant")
    to_phase(s, "invader_move")
    ev = s.apply({"type": "smash", "unit": serpent, "toward": "1211"})      # 3: the wall holds
    assert "wall_breached" not in kinds(ev) and s.state["broken_walls"] == []
    to_phase(s, "invader_melee")
    with pytest.raises(IllegalAction) as exc:
        s.apply({"type": "melee", "units": [serpent], "target": "1211"})
    assert exc.value.rule == "DR 2.7.1.3"
    # an unguarded stretch breaks for 1 MP, and a giant may then walk in from the river
    s2 = session({"invader": [{"type": "sea_serpent", "at": ["1210"]}, {"type": "giant", "at": ["1310"]}],
                  "defender": [{"type": "orcs", "at": ["0402"]}]}, map_="dragon_rage/nurkott")
    to_phase(s2, "invader_move")
    assert {"type": "move", "unit": giant, "to": "1211"} not in s2.legal_actions()
    s2.apply({"type": "smash", "unit": serpent, "toward": "1211"})
    assert s2.state["broken_walls"] == ["1210/1211"] and _units(s2)[serpent]["mp_used"] == 1
    s2.apply({"type": "move", "unit": serpent, "to": "1110"})
    s2.apply({"type": "move", "unit": giant, "to": "1211"})
    assert _units(s2)[giant]["hex"] == "1211"


def test_sea_serpent_swims_under_an_occupied_bridge() -> None:
    s = session({"invader": [{"type": "sea_serpent", "at": ["1414"]}],
                 "defender": [{"type": "infantry", "at": ["1413"]}]})
    serpent = next(u["id"] for u in _units(s).values() if u["type"] == "sea_serpent")
    to_phase(s, "invader_move")
    assert {"type": "move", "unit": serpent, "to": "1413"} in s.legal_actions()
    s.apply({"type": "move", "unit": serpent, "to": "1413"})
    from simulator.games.dragon_rage.stacking import stack_ok
    assert _units(s)[serpent]["hex"] == "1413" and stack_ok(s.state_data(), "1413")


def test_the_ways_that_matter_are_offered_and_labelled() -> None:
    # elm1 breaks free in 1105 (its summoner walks 6 hexes away) and goes for the orc in 0807
    # (4 hexes). Two ends leave it one hex to go: 0806 (only by the 3-VP hex 1005) and 0907, by
    # 1106-1006 (the default) or by 1005-1006. The legal list offers each way that enters
    # different VP hexes, and the piece menu names the way and the VP hex it destroys.
    s = session({"invader": [{"type": "orcs", "at": ["2208"]}, {"type": "orcs", "at": ["0807"]}],
                 "defender": [{"type": "wizard", "at": ["1107"]}]})
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "1106", "element": "earth"})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "elm1", "to": "1105"})
    s.apply({"type": "move", "unit": "wizard1", "to": "1310"})
    to_phase(s, "invader_move")
    owed = [a for a in s.legal_actions() if a.get("unit") == "elm1"]
    assert owed == [{"type": "move", "unit": "elm1", "to": "0806"}, {"type": "move", "unit": "elm1", "to": "0907"},
                    {"type": "move", "unit": "elm1", "to": "0907", "path": ["1005", "1006", "0907"]}]
    menu = s.game.presentation().piece_actions(s.state, s.legal_actions(), "elm1")
    assert [label for label, _ in menu] == ["move to 0806 by 1005-0906 (enters 1005: VP 3)",
                                            "move to 0907 by 1106-1006",
                                            "move to 0907 by 1005-1006 (enters 1005: VP 3)"]
    before = s.state["vp"]["score"]
    s.apply(menu[2][1])
    assert "1005" in s.state["vp"]["destroyed"] and s.state["vp"]["score"] == before + 3
    s.undo()
    s.apply(menu[1][1])                                          # the default way spares 1005
    assert "1005" not in s.state["vp"]["destroyed"] and s.state["units"]["elm1"]["hex"] == "0907"
