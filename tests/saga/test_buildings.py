"""Buildings (SAGA p.27): engaging a building as a whole, the VS rule around an occupied
building, no leaving a building the turn it was entered, no passing through one."""

import pytest

from simulator.core import IllegalAction
from simulator.core.errors import DataError
from tests.saga.helpers import give_dice, session, take_defaults, to_activation

HALL = {"id": "hall", "type": "building", "polygon": [[8, 16], [14, 16], [14, 20], [8, 20]]}
BARN = {"id": "barn", "type": "building", "polygon": [[28, 6], [34, 6], [34, 10], [28, 10]]}


def _held_hall(tape=None):
    return session([{"id": "hg", "class": "hearthguard", "figures": 4, "at": [11, 10], "columns": 4},
                    {"id": "w", "class": "warriors", "figures": 4, "at": [20, 18], "columns": 4},
                    {"id": "lord", "class": "warlord", "at": [40, 3]}],
                   [{"id": "war", "class": "warriors", "figures": 4, "at": [11, 18], "columns": 2},
                    {"id": "el", "class": "warlord", "at": [40, 33]}],
                   terrain=[HALL, BARN], faction_b="vikings", tape=tape)


def test_no_figure_moves_within_vs_of_an_occupied_building() -> None:
    s = _held_hall()
    assert s.state["units"]["war"]["building"] == "hall"
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    with pytest.raises(IllegalAction, match="within VS of Building"):
        s.apply({"type": "move", "dx": -2, "dy": 0})
    s.apply({"type": "move", "dx": 2, "dy": 0})                 # away from it is fine
    assert s.state["figures"]["w.1"]["x"] == pytest.approx(19.75)


def test_engaging_the_building_fights_its_occupants_with_heavy_cover() -> None:
    s = _held_hall(tape=[6, 6, 1, 1, 1, 1, 1, 1,     # Hearthguard: 8 dice, 2 hits on armour 4
                         1, 1, 1, 1,                 # the occupants' 4 dice miss
                         4, 3])                      # heavy cover: the 4 saves one hit, the 3 does not
    to_activation(s)
    give_dice(s, "A", [("C", "hirdmen")])
    s.apply({"type": "activate", "unit": "hg", "source": "hirdmen", "order": "move"})
    assert {"type": "engage", "target": "war"} in s.legal_actions()
    s.apply({"type": "engage", "target": "war"})
    figs = s.state["figures"]
    # nobody entered the hall: the front figures touch its wall, the occupants stay inside
    assert all(figs[f]["y"] + figs[f]["r"] <= 16.0 + 1e-6 for f in s.state["units"]["hg"]["figures"])
    m = s.state["melee"]
    assert m["defender"] == "war" and m["sides"]["hg"]["fighting"] == 4 and m["sides"]["war"]["fighting"] == 4
    s.apply({"type": "melee_trade", "trade": False})
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})
    assert any(e.kind == "melee_defence" and "needing 4+" in e.text for e in s.log)
    take_defaults(s)
    assert len(s.state["units"]["war"]["figures"]) == 3 and len(s.state["units"]["hg"]["figures"]) == 4
    # the attacker won on casualties but the hall is still held: the attacker disengages
    assert any(e.kind == "disengage" and "still occupied" in e.text and "(hg)" in e.text for e in s.log)
    assert s.state["units"]["war"]["building"] == "hall"


def test_a_unit_cannot_leave_a_building_the_turn_it_entered_it() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [31, 4], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [44, 3]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], terrain=[BARN])
    to_activation(s)
    give_dice(s, "A", [("C", "bondi"), ("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    s.apply({"type": "move", "to": {"w.1": [29.5, 7.5], "w.2": [30.8, 7.5], "w.3": [32.1, 7.5], "w.4": [33.4, 7.5]}})
    assert s.state["units"]["w"]["building"] == "barn" and s.state["units"]["w"]["entered_building"] == "barn"
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    with pytest.raises(IllegalAction, match="cannot leave"):
        s.apply({"type": "move", "dx": 0, "dy": 3.5})
    s.apply({"type": "hold"})
    s.apply({"type": "end_turn"})
    assert s.state["units"]["w"]["entered_building"] is None


def test_no_path_passes_through_a_building() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [31, 4], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [44, 3]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}],
                terrain=[{"id": "hut", "type": "building", "polygon": [[28, 6], [34, 6], [34, 7], [28, 7]]}])
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    with pytest.raises(IllegalAction, match="pass through"):
        s.apply({"type": "move", "dx": 0, "dy": 3.9})


def test_a_bending_path_goes_around_what_a_straight_one_cannot_cross() -> None:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [12, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [10.5, 12.5]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    starts = {f: (s.state["figures"][f]["x"], s.state["figures"][f]["y"]) for f in s.state["units"]["w"]["figures"]}
    ends = {f: [x + 1.9, y + 4] for f, (x, y) in starts.items()}
    with pytest.raises(IllegalAction, match="w.1 would pass through lord"):
        s.apply({"type": "move", "to": ends})                      # straight: through the Warlord's base
    too_long = {f: [[x + 3, y], ends[f]] for f, (x, y) in starts.items()}
    with pytest.raises(IllegalAction, match="may move only 6"):      # 3 + 4.15: the legs add up
        s.apply({"type": "move", "path": too_long})
    bent = {f: [[x + 1.9, y], ends[f]] for f, (x, y) in starts.items()}
    s.apply({"type": "move", "path": bent})                         # 1.9 then 4: round him
    f = s.state["figures"]["w.1"]
    assert (f["x"], f["y"]) == pytest.approx((9.75 + 1.9, 14.0))


def _two_hold_the_hall():
    return session([{"id": "hg", "class": "hearthguard", "figures": 4, "at": [11, 10], "columns": 4},
                    {"id": "lord", "class": "warlord", "at": [40, 3]}],
                   [{"id": "war", "class": "warriors", "figures": 4, "at": [9.5, 18], "columns": 2},
                    {"id": "bhg", "class": "hearthguard", "figures": 4, "at": [12.5, 18], "columns": 2},
                    {"id": "el", "class": "warlord", "at": [40, 33]}],
                   terrain=[HALL], faction_b="vikings")


def test_the_owner_picks_which_unit_defends_a_building() -> None:
    s = _two_hold_the_hall()
    assert s.state["units"]["war"]["building"] == "hall" and s.state["units"]["bhg"]["building"] == "hall"
    to_activation(s)
    give_dice(s, "A", [("C", "hirdmen")])
    s.apply({"type": "activate", "unit": "hg", "source": "hirdmen", "order": "move"})
    s.apply({"type": "engage", "target": "war"})
    m = s.state["melee"]
    assert m["step"] == "building" and s.state["active"] == "B"
    assert s.legal_actions() == [{"type": "defend_building", "unit": "war"}, {"type": "defend_building", "unit": "bhg"}]
    with pytest.raises(IllegalAction, match="units holding the building"):
        s.apply({"type": "defend_building", "unit": "el"})
    with pytest.raises(IllegalAction, match="melee step 2"):
        s.apply({"type": "melee_trade", "trade": False})
    with pytest.raises(IllegalAction, match="step 2 first"):
        s.apply({"type": "ready"})
    s.apply({"type": "defend_building", "unit": "bhg"})
    m = s.state["melee"]
    assert m["defender"] == "bhg" and m["step"] == "trade" and set(m["players"]) == {"hg", "bhg"}
    assert set(m["sides"]) == {"hg", "bhg"} and set(m["inflicted"]) == {"hg", "bhg"}
    assert any(e.kind == "melee" and "defends the building" in e.text and e.rule == "SAGA p.27" for e in s.log)


def test_no_choice_without_player_choices() -> None:
    s = _two_hold_the_hall()
    s._state["rules"]["player_choices"] = False
    to_activation(s)
    give_dice(s, "A", [("C", "hirdmen")])
    s.apply({"type": "activate", "unit": "hg", "source": "hirdmen", "order": "move"})
    s.apply({"type": "engage", "target": "war"})
    assert s.state["melee"]["step"] == "trade" and s.state["melee"]["defender"] == "war"   # the engine's pick
    with pytest.raises(IllegalAction, match="no building's defender"):
        s.apply({"type": "defend_building", "unit": "bhg"})


def test_a_warlord_engages_the_enemy_warlord_at_the_walls_of_his_building() -> None:
    """Warlord's Pride (SAGA p.34) with the enemy Warlord deep in a building: the walls are in
    reach though his figure is not, so the engagement is offered, and is the only move (a quick
    figure-to-figure reach test dropped it, and the legal list was empty)."""
    long_hall = {"id": "hall", "type": "building", "polygon": [[8, 16], [24, 16], [24, 22], [8, 22]]}
    s = session([{"id": "lord", "class": "warlord", "at": [16, 10.5]}],
                [{"id": "el", "class": "warlord", "at": [16, 21]},
                 {"id": "w", "class": "warriors", "figures": 4, "at": [40, 33], "columns": 4}],
                terrain=[long_hall], faction_b="vikings")
    assert s.state["units"]["el"]["building"] == "hall"
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    assert s.legal_actions() == [{"type": "engage", "target": "el"}]
    s.apply({"type": "engage", "target": "el"})
    assert s.state["melee"] is not None


def test_a_scenario_placing_a_mounted_unit_in_a_building_is_refused_naming_the_field() -> None:
    with pytest.raises(DataError, match=r"units\[0\]\.at: mounted units and baggage cannot occupy buildings"):
        session([{"id": "lord", "class": "warlord", "at": [11, 18], "mounted": True}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], terrain=[HALL], faction_a="normans")
