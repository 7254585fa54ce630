"""Exact line of sight (digest §5, §19.4 item 9): a line from ANY point of the front edge to the
target's part in the Front arc, through a narrow gap the old 3-point sampling missed; a line must
keep 0.005" from every tray (docs/asoiaf.md "Decisions"), so trays in contact (closer than 0.01")
leave no gap and a line only touching a tray is blocked; the presentation returns the line found."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from simulator.games.asoiaf import GAME, space
from simulator.games.asoiaf.presentation import to_table
from simulator.games.asoiaf.units import polygon
from tests.asoiaf.helpers import guards, scenario, session, sworn

# S1 (Sworn Swords, 6.30" x 4.72") at (24, 10) facing north: front edge x 20.85-27.15 at y 12.36.
# L1 at (24, 40) facing south: x 20.85-27.15, y 37.64-42.36.  Two Stark trays at y 25 leave a
# vertical gap at x 25.5..25.5+gap: only nearly vertical lines pass, from about x 25.6 of the front
# edge, which is none of the sampled points (5%, 50%, 95% of the edge).


def state_with_gap(gap: float, row: float = 25, l1: tuple[float, float] = (24, 40)) -> dict:
    left = 25.5 - 3.15
    right = 25.5 + gap + 3.15
    sc = scenario([sworn("S1", (24, 10), 90), sworn("S2", (left, row), 90, robb=False),
                   sworn("S3", (right, row), 90, robb=False)], [guards("L1", l1, 270)])
    return session(sc).state_data()


def sight(state: dict, ranged: bool = True) -> space.Sight:
    return space.line_of_sight(state, state["units"]["S1"], polygon(state["units"]["L1"]), "L1", ranged)


def old_sampled_line_of_sight():
    """The previous implementation (3 sample points of the front edge), kept here only to show the
    case it got wrong."""
    def clear(state: dict) -> bool:
        a, t = state["units"]["S1"], polygon(state["units"]["L1"])
        me = polygon(a)
        obstacles = [p for _, p in space.blockers(state, ("S1", "L1"))]
        starts = [me[0] + (me[1] - me[0]) * s for s in (0.05, 0.5, 0.95)]
        part = space.arc_part(space.pose(a), t, "front")
        return any(not any(space.overlap(np.array([p, q]), o) for o in obstacles)
                   for p in starts for q in list(part) + [part.mean(axis=0)])
    return clear


@pytest.mark.parametrize("gap", [0.2, 0.02])
def test_narrow_gap_between_two_trays_is_seen_through(gap):
    state = state_with_gap(gap)
    assert not old_sampled_line_of_sight()(state)          # the sampling refused it
    s = sight(state)
    assert s.clear and s.blockers == []
    (x0, y0), (x1, y1) = s.line
    assert y0 == pytest.approx(12.36) and 20.85 - 1e-9 <= x0 <= 27.15 + 1e-9
    assert 37.64 - 1e-9 <= y1 <= 42.36 + 1e-9
    x_at_gap = np.interp([22.64, 27.36], [y0, y1], [x0, x1])
    assert np.all(x_at_gap >= 25.5 + 0.005 - 1e-6) and np.all(x_at_gap <= 25.5 + gap - 0.005 + 1e-6)


@pytest.mark.parametrize("gap", [0.0, 0.005, 0.0099])
def test_trays_in_contact_leave_no_gap(gap):
    s = sight(state_with_gap(gap))
    assert not s.clear and s.line is None
    assert s.blockers == ["S2", "S3"]
    assert "blocked" in s.why


def test_a_tray_right_behind_another_of_the_same_width_is_hidden():
    """Only lines touching the middle tray's sides would reach L1: touching blocks."""
    sc = scenario([sworn("S1", (24, 15), 90)], [guards("L2", (24, 30), jaime=False), guards("L1", (24, 40))])
    state = session(sc).state_data()
    s = sight(state)
    assert not s.clear and s.blockers == ["L2"]
    state["units"]["L2"]["x"] = 24.02                 # 0.02" aside: a line passes by its west side
    assert sight(state).clear


def test_the_attack_follows_the_exact_rule():
    """The ranged-attack options (legal_actions) and the check use the same exact test."""
    from simulator.games.asoiaf.options import ranged_options
    state = state_with_gap(0.2, row=17, l1=(25.6, 26.5))   # L1 11.78" from S1's front arrow
    u = state["units"]["S1"]
    u["attacks"] = [{"name": "Bow", "range": "long", "dice": [5, 4, 3], "hit": 4}]
    assert not old_sampled_line_of_sight()(state) and sight(state).clear
    assert [o["target"] for o in ranged_options(state, u, []) if "card" not in o] == ["L1"]


def test_presentation_draws_the_line_found():
    state = state_with_gap(0.2)
    los = GAME.presentation().line_of_sight(state, "S1", "L1")
    assert los.clear and los.points is not None
    p0, p1 = (to_table(state, p) for p in los.points)
    assert p0 == pytest.approx(tuple(sight(state).line[0])) and p1 == pytest.approx(tuple(sight(state).line[1]))
    blocked = GAME.presentation().line_of_sight(state_with_gap(0.0), "S1", "L1")
    assert not blocked.clear and blocked.points is None and blocked.blockers == ("S2", "S3")
