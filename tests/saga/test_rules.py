"""Movement, shooting, melee, fatigue and abilities with forced dice."""

import pytest

from simulator.core import IllegalAction
from simulator.games.saga.units import cohesive, figure_array
from tests.saga.helpers import engage_from, give_dice, session, take_defaults, to_activation

WOOD = {"id": "wood", "type": "wood", "polygon": [[8, 8], [14, 8], [14, 14], [8, 14]]}


def _fig(s, fid):
    f = s.state["figures"][fid]
    return f["x"], f["y"]


def test_move_m_in_open_s_in_uneven_terrain() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 4], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "e", "class": "warlord", "at": [40, 33]}], terrain=[WOOD])
    to_activation(s)
    give_dice(s, "A", [("C", "bondi"), ("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    with pytest.raises(IllegalAction, match="may move only 6"):
        s.apply({"type": "move", "dx": 6.5, "dy": 0})
    # into the wood: the whole unit moves S (SAGA p.13)
    with pytest.raises(IllegalAction, match="uneven"):
        s.apply({"type": "move", "dx": 0, "dy": 5})
    s.apply({"type": "move", "dx": 0, "dy": 3.9})
    assert s.state["units"]["w"]["fatigue"] == 0
    # a second move in the turn costs one fatigue (SAGA p.24)
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    s.apply({"type": "move", "dx": 3.9, "dy": 0})
    assert s.state["units"]["w"]["fatigue"] == 1


def test_coming_within_vs_forces_contact() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "e", "class": "warriors", "figures": 4, "at": [10, 17], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    with pytest.raises(IllegalAction, match="within VS"):
        s.apply({"type": "move", "dx": 0, "dy": 4})
    s.apply({"type": "engage", "target": "e"})
    assert s.state["melee"] is not None and s.state["melee"]["defender"] == "e"


def test_formation_and_passing_through_figures() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [10, 12]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    with pytest.raises(IllegalAction, match="formation"):
        s.apply({"type": "move", "to": {"w.1": [4, 10]}})
    with pytest.raises(IllegalAction, match="pass through"):
        s.apply({"type": "move", "to": {"w.2": [9.25, 14], "w.3": [10.75, 14]}})



@pytest.mark.parametrize("straggler_x", [17.0, 20.0])
def test_a_unit_out_of_formation_may_hold_or_regroup(straggler_x: float) -> None:
    """Casualties can leave a unit out of formation (the engine's pick keeps it when it can).
    It may stand where it is, and the legal list offers a move that regroups it (at 17 the
    straggler closes in alone; at 20 it is too far, and the rest meet it half way); a move
    that leaves it out of formation stays illegal (a computer game found no legal action here)."""
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s._state["figures"]["w.4"]["x"] = straggler_x
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    legal = s.legal_actions()
    assert {"type": "hold"} in legal
    regroup = [a for a in legal if a["type"] == "move" and "to" in a]
    assert len(regroup) == 1 and ("w.1" in regroup[0]["to"]) == (straggler_x == 20.0)
    with pytest.raises(IllegalAction, match="formation"):
        s.apply({"type": "move", "dx": 0, "dy": 3})
    s.apply(regroup[0])
    assert cohesive(figure_array(s.state, s.state["units"]["w"]["figures"]))


def test_a_unit_touching_two_enemy_units_may_stay_and_engages_neither() -> None:
    """After melees that neither side could disengage from, a Warlord can be left touching two
    enemy units. Standing still he engages neither (engine decision; before, holding was
    refused and a Warlord boxed in by them had no legal action); a move still engages one."""
    s = session([{"id": "lord", "class": "warlord", "at": [19.25, 10]}],
                [{"id": "e1", "class": "warriors", "figures": 4, "at": [20, 11.1], "columns": 4},
                 {"id": "e2", "class": "warriors", "figures": 4, "at": [20, 8.9], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    legal = s.legal_actions()
    assert {"type": "hold"} in legal and {"type": "engage", "target": "e1"} in legal
    s.apply({"type": "hold"})
    assert s.state["melee"] is None and s.state["pending"] is None


def test_a_unit_with_no_legal_move_loses_its_activation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last guard against a game stuck with no legal action: when no move, engagement or
    hold is legal, holding spends the activation and says why. Set up by hand: a Warlord become
    mounted inside a hall (set-ups and moves refuse that) with no sampled way out."""
    hall = {"id": "hall", "type": "building", "polygon": [[8, 16], [14, 16], [14, 20], [8, 20]]}
    s = session([{"id": "lord", "class": "warlord", "at": [11, 18]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], terrain=[hall], faction_a="normans")
    to_activation(s)
    s._state["units"]["lord"]["mounted"] = True
    monkeypatch.setattr("simulator.games.saga.movement.sample_moves", lambda *a, **k: [])
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    assert s.legal_actions() == [{"type": "hold"}]
    s.apply({"type": "hold"})
    assert s.state["pending"] is None and s.state["active"] == "A"
    assert s.log[-1].rule == "SAGA p.38, p.56" and "no legal move" in s.log[-1].text
    assert "activation is cancelled" in s.log[-1].text

def test_exhausted_unit_may_only_rest() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [30, 3]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    s._state["units"]["w"]["fatigue"] = 3
    give_dice(s, "A", [("C", "bondi"), ("C", "bondi")])
    with pytest.raises(IllegalAction, match="exhausted"):
        s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "rest"})
    assert s.state["units"]["w"]["fatigue"] == 2
    with pytest.raises(IllegalAction, match="first activation"):
        s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "rest"})


def test_enemy_fatigue_shortens_a_move() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [30, 3]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    s._state["units"]["w"]["fatigue"] = 1
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    assert s.state["active"] == "B"                   # reaction window
    s.apply({"type": "slow_with_fatigue"})
    assert s.state["active"] == "A"
    with pytest.raises(IllegalAction, match="may move only 4"):
        s.apply({"type": "move", "dx": 5, "dy": 0})
    s.apply({"type": "move", "dx": 4, "dy": 0})


def test_levies_shoot_with_cover() -> None:
    brush = {"id": "brush", "type": "brush", "polygon": [[6, 16], [16, 16], [16, 22], [6, 22]]}
    # 6 levies: 3 dice; target warriors fully inside light cover -> cancel on 3+
    s = session([{"id": "lev", "class": "levies", "figures": 6, "at": [10, 8], "columns": 6},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 4, "at": [11, 19], "columns": 2},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], terrain=[brush],
                tape=[4, 4, 6, 3, 2, 1])
    to_activation(s)
    give_dice(s, "A", [("U", "thralls")])
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s.apply({"type": "shoot", "target": "war"})
    assert s.state["shooting"]["cover"] == "light"
    assert s.state["shooting"]["attack"] == 3
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})
    # attacks 4, 4, 6 against armour 4: 3 hits; defence 3, 2, 1 cancelling on 3+: 2 casualties
    assert take_defaults(s) == 1                          # the owner's pick of the two (engine's default)
    assert s.state["shooting"] is None
    assert len(s.state["units"]["war"]["figures"]) == 2
    assert s.state["units"]["lev"]["fatigue"] == 0


def test_full_melee_with_fatigue_and_withdrawal() -> None:
    # 4 hearthguard (8 dice) engage 4 warriors (4 dice, defender trades: 2 attack, +1 defence)
    s = session([{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 4, "at": [10, 14], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}],
                faction_b="vikings",
                tape=[4, 4, 4, 1, 1, 1, 1, 1,      # attacker's 8 dice vs armour 4: 3 hits
                      5, 1,                        # defender's 2 dice vs armour 5: 1 hit
                      6, 1, 1, 1,                  # defender: 3 hits + 1 traded die = 4 dice, one 5+
                      2, 2])                       # attacker: 1 hit -> 2 defence dice (capped 2x)
    to_activation(s)
    give_dice(s, "A", [("C", "hirdmen")])
    s.apply({"type": "activate", "unit": "hg", "source": "hirdmen", "order": "move"})
    s.apply({"type": "engage", "target": "war"})
    m = s.state["melee"]
    assert m["sides"]["hg"]["attack"] == 8 and m["sides"]["war"]["attack"] == 4
    s.apply({"type": "melee_trade", "trade": True})
    assert s.state["melee"]["sides"]["war"]["attack"] == 2
    assert s.state["melee"]["sides"]["war"]["defence"] == 1
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})
    assert take_defaults(s) == 3                  # casualties of each side, then the warriors' withdrawal
    assert s.state["melee"] is None
    assert len(s.state["units"]["war"]["figures"]) == 2      # 3 hits - 1 saved
    assert len(s.state["units"]["hg"]["figures"]) == 3
    assert s.state["units"]["hg"]["fatigue"] == 1 and s.state["units"]["war"]["fatigue"] == 1
    # the warriors inflicted fewer casualties: they disengage, ending beyond VS of the enemy
    from simulator.games.saga.units import unit_gap
    assert unit_gap(s.state_data(), "hg", "war") > 2
    assert any(e.kind == "disengage" for e in s.log)


def test_heimdall_and_ullr() -> None:
    s = session([{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 8, "at": [10, 14.5], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}],
                tape=["U"] + [1] * 11 + [4] * 11 + [1] * 8 + [6] * 16)
    to_activation(s)
    give_dice(s, "A", [("C", "hirdmen"), ("C", "heimdall"), ("U", "ullr")])
    engage_from(s, "hg", "hirdmen", "war")
    base = s.state["melee"]["sides"]["hg"]["attack"]
    s.apply({"type": "use_ability", "box": "heimdall"})
    s.apply({"type": "use_ability", "box": "ullr"})
    side = s.state["melee"]["sides"]["hg"]
    assert side["attack"] == base + 3 and side["own_armour"] == -1 and side["reroll_attack"]


def test_trapped_puts_fatigue_on_three_units() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "a", "class": "warriors", "figures": 4, "at": [5, 30], "columns": 4},
                 {"id": "b", "class": "warriors", "figures": 4, "at": [15, 30], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="anglo_danes", faction_b="vikings")
    s._state["orders_rolled"] = True
    give_dice(s, "A", [("R", "trapped"), ("R", "trapped")])
    s.apply({"type": "use_ability", "box": "trapped", "targets": ["a", "b", "el"]})
    assert [s.state["units"][u]["fatigue"] for u in ("a", "b", "el")] == [1, 1, 1]


def test_intimidation_cancels_activation() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], faction_b="anglo_danes")
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    give_dice(s, "B", [("U", "intimidation")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    assert s.state["active"] == "B"
    s.apply({"type": "use_ability", "box": "intimidation"})
    assert s.state["pending"] is None and s.state["active"] == "A"
    assert s.state["figures"]["w.1"]["x"] == pytest.approx(7.75)


def test_we_obey_moves_a_second_unit() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [10, 13]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move", "we_obey": "w"})
    s.apply({"type": "move", "dx": 5, "dy": 0})
    assert s.state["pending"]["unit"] == "w"
    s.apply({"type": "move", "dx": 5, "dy": 0})
    assert s.state["pending"] is None
    with pytest.raises(IllegalAction, match="once per turn"):
        s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})


def test_warlords_pride() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [10, 10]}],
                [{"id": "el", "class": "warlord", "at": [10, 15]}])
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    with pytest.raises(IllegalAction, match="Pride"):
        s.apply({"type": "move", "dx": -5, "dy": 0})
    s.apply({"type": "engage", "target": "el"})
    assert s.state["melee"] is not None


def test_warlords_pride_with_two_enemy_warlords_in_reach_engages_either() -> None:
    """A second enemy Warlord (SAGA p.58) in reach too: the pride is kept by engaging one of
    them (the engine asked for both at once, and offered no legal action)."""
    s = session([{"id": "lord", "class": "warlord", "at": [20, 10]}],
                [{"id": "el", "class": "warlord", "at": [17, 14]},
                 {"id": "el2", "class": "warlord", "at": [23, 14]}])
    to_activation(s)
    assert s.state["units"]["el2"]["lesser"]
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    legal = s.legal_actions()
    assert {"type": "engage", "target": "el"} in legal and {"type": "engage", "target": "el2"} in legal
    assert {"type": "hold"} not in legal
    with pytest.raises(IllegalAction, match="Pride.*el or el2"):
        s.apply({"type": "hold"})
    s.apply({"type": "engage", "target": "el2"})
    assert s.state["melee"] is not None
