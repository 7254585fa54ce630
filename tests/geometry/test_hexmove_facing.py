"""reachable_with_facing: Dijkstra over (hex, facing) for pieces whose step cost depends on
the way they face (Dragon Rage walking monsters: one free 60-degree turn per hex)."""

from __future__ import annotations

import pytest

from simulator.geometry.hexgrid import HexGrid
from simulator.geometry.hexmove import HexMap, reachable_with_facing

GRID = HexGrid.dragon_rage()
MAP = HexMap(GRID, GRID.all_labels(8, 8))


def turns(a: int, b: int) -> int:
    d = (a - b) % 6
    return min(d, 6 - d)


def walk(a: str, f: int, b: str, d: int) -> float:
    """1 per hex, one free 60-degree turn before each hex, 1 per further 60 degrees."""
    return 1 + max(0, turns(f, d) - 1)


def test_cost_depends_on_facing() -> None:
    r = reachable_with_facing(MAP, "0404", 3, step=walk, budget=3)
    behind = GRID.neighbour("0404", 0)
    assert r.cost["0405"] == 1                     # straight ahead
    assert r.cost[behind] == 3                     # 180 degrees: 1 + 2 extra turns
    r2 = reachable_with_facing(MAP, "0404", 0, step=walk, budget=3)
    assert r2.cost[behind] == 1 and r2.cost["0405"] == 3


def test_in_place_turns_and_paths() -> None:
    turn_cost = lambda h, f, nf: 1.0  # noqa: E731
    r = reachable_with_facing(MAP, "0404", 3, step=walk, turn=turn_cost, budget=2)
    assert r.state_cost[("0404", 2)] == 1 and r.state_cost[("0404", 4)] == 1
    assert ("0404", 0) not in r.state_cost          # three turns cost 3 > budget 2
    path = r.path_to("0406")
    assert path == ["0404", "0405", "0406"] and r.best_facing("0406") == 3
    states = r.states_to("0406")
    assert states[0] == ("0404", 3) and states[-1] == ("0406", 3)


def test_blocked_no_stop_and_forbidden_steps() -> None:
    forbid = lambda a, f, b, d: None if b == "0405" else walk(a, f, b, d)  # noqa: E731
    r = reachable_with_facing(MAP, "0404", 3, step=forbid, budget=2)
    assert "0405" not in r and "0406" not in r        # the way round costs more than 2
    r = reachable_with_facing(MAP, "0404", 3, step=walk, blocked={"0405"}, no_stop={"0504"}, budget=2)
    assert "0405" not in r and "0504" in r.cost and "0504" not in r.endable
    with pytest.raises(ValueError):
        r.path_to("0808")
    with pytest.raises(ValueError):
        reachable_with_facing(MAP, "9999", 0, step=walk)
