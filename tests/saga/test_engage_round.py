"""The engaging move round what is in the way (SAGA p.12-13, p.20, p.27): when the straight
engagement is barred, the engine's ``engage`` goes along the shortest path round the obstacle
(``movement.engage_move``), every figure's waypoints checked by ``validate_move``."""

from __future__ import annotations

import pytest

from simulator.core import IllegalAction, Session
from simulator.games.saga import movement
from simulator.geometry.paths import path_length
from tests.saga.helpers import give_dice, session, to_activation

POND = {"id": "pond", "type": "pond", "polygon": [[22.5, 7], [25.5, 7], [25.5, 8], [22.5, 8]]}


def _pond_between(enemy_y: float) -> Session:
    """The Warlord (1.2" base, M) below a narrow pond (impassable, SAGA p.13), the enemy
    Warlord straight beyond it at height ``enemy_y``; the Warlord activated to move."""
    s = session([{"id": "lord", "class": "warlord", "at": [24, 5]}],
                [{"id": "el", "class": "warlord", "at": [24, enemy_y]}], terrain=[POND])
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    return s


def test_the_engage_goes_round_the_pond() -> None:
    s = _pond_between(9.8)
    st = s.state_data()
    straight = movement.plan_engage(st, "lord", "el", movement.MoveRules())
    assert movement.validate_move(st, "lord", straight, movement.MoveRules()).engaged is None   # stops at the pond
    dest, via = movement.engage_move(st, "lord", "el", movement.MoveRules())
    assert via["lord"] and path_length([(24, 5), *via["lord"], dest["lord"]]) <= 6 + 1e-6
    assert {"type": "engage", "target": "el"} in s.legal_actions()
    s.apply({"type": "engage", "target": "el"})
    assert s.state["melee"] is not None and s.state["melee"]["defender"] == "el"
    lord = s.state["figures"]["lord"]
    assert lord["y"] > 8 and any(not 22.5 <= x <= 25.5 for x, _ in via["lord"])   # round one end of the pond
    assert any(e.kind == "move" and "engages" in e.text and e.rule == "SAGA p.20" for e in s.log)


def test_no_engage_when_the_way_round_is_too_long() -> None:
    s = _pond_between(11.5)
    assert {"type": "engage", "target": "el"} not in s.legal_actions()
    with pytest.raises(IllegalAction, match="cannot reach") as e:
        s.apply({"type": "engage", "target": "el"})          # the straight plan's refusal
    assert e.value.rule == "SAGA p.20"


HALL = {"id": "hall", "type": "building", "polygon": [[8, 16], [14, 16], [14, 20], [8, 20]]}
MOAT = {"id": "moat", "type": "pond", "polygon": [[9.5, 12.5], [12.5, 12.5], [12.5, 13.5], [9.5, 13.5]]}


def test_engaging_a_building_goes_round_the_pond_in_front_of_it() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [11, 10.8]}],
                [{"id": "war", "class": "warriors", "figures": 4, "at": [11, 18], "columns": 2},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], terrain=[HALL, MOAT], faction_b="vikings")
    assert s.state["units"]["war"]["building"] == "hall"
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    assert {"type": "engage", "target": "war"} in s.legal_actions()
    s.apply({"type": "engage", "target": "war"})
    lord = s.state["figures"]["lord"]
    assert lord["y"] + lord["r"] == pytest.approx(16.0, abs=0.06)       # against the hall's wall
    assert s.state["melee"]["defender"] == "war"
    assert any(e.kind == "move" and "engages" in e.text for e in s.log)


def test_the_warlord_engages_round_his_own_warriors() -> None:
    # a 2x2 block of his Warriors stands between the Warlord and the enemy Warriors
    s = session([{"id": "lord", "class": "warlord", "at": [20, 5]},
                 {"id": "w", "class": "warriors", "figures": 4, "at": [20, 7.3], "columns": 2}],
                [{"id": "foe", "class": "warriors", "figures": 4, "at": [20, 10.5], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    st = s.state_data()
    rules = movement.MoveRules()
    straight = movement.plan_engage(st, "lord", "foe", rules)
    assert movement.validate_move(st, "lord", straight, rules).engaged is None     # stops behind them
    dest, via = movement.engage_move(st, "lord", "foe", rules)
    assert via and movement.validate_move(st, "lord", dest, rules, via=via).engaged == "foe"
    s.apply({"type": "engage", "target": "foe"})
    assert s.state["melee"]["defender"] == "foe" and s.state["melee"]["attacker"] == "lord"
