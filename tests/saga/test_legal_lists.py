"""The legal_actions speed-up (issue #24) changes no legal list: three seeded random playouts
recorded before it (tests/saga/data, written by ``bench/bench_saga_legal.py --record``: s2-ford,
s1-warlords-fury, the quick-start) are replayed and the slowest lists of each (moves pending, the
path searches round the river) compared; the reference code path gives the same lists; the
shared path search and the remembered grown obstacles give what the reference computes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from simulator.core.session import Session
from simulator.games.saga import movement
from simulator.geometry import paths

DATA = Path(__file__).resolve().parent / "data" / "legal_lists_playouts.json"


def _playouts() -> list[dict[str, Any]]:
    return json.loads(DATA.read_text(encoding="utf-8"))["playouts"]


def _replay(play: dict[str, Any], check: set[int]) -> None:
    s = Session.new(play["scenario"], seed=play["seed"])
    for step, (expected, action) in enumerate(zip(play["lists"], play["taken"])):
        if step in check:
            assert s.legal_actions() == expected, f"{play['scenario']}: legal list {step} differs"
        s.apply(action)


def _slowest(play: dict[str, Any], n: int) -> set[int]:
    """The ``n`` steps whose list took longest when recorded (before the speed-up)."""
    return set(sorted(range(len(play["times"])), key=lambda k: -play["times"][k])[:n])


def test_the_recording_holds_pending_moves():
    plays = _playouts()
    assert [p["scenario"] for p in plays] == ["saga/s2-ford", "saga/s1-warlords-fury", "saga/quickstart"]
    for p in plays:
        assert len(p["lists"]) == len(p["taken"]) == len(p["times"]) >= 50
        assert sum(p["move_pending"]) >= 5
        assert all(p["move_pending"][k] for k in _slowest(p, 3))


@pytest.mark.parametrize("index,n", [(0, 6), (1, 3), (2, 3)])
def test_recorded_playouts_give_the_same_legal_lists(index, n):
    play = _playouts()[index]
    _replay(play, _slowest(play, n) | {len(play["lists"]) - 1})


def test_the_reference_path_gives_the_same_lists(monkeypatch):
    monkeypatch.setattr(paths, "SHORTCUTS", False)
    monkeypatch.setattr(movement, "SHORTCUTS", False)
    play = _playouts()[0]
    _replay(play, _slowest(play, 2))


def _reference_path(start, goal, shapes, bounds, limit, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(paths, "SHORTCUTS", False)
        return paths.shortest_path(start, goal, shapes, bounds, limit)


def test_one_search_for_many_goals_finds_the_reference_paths(monkeypatch):
    """Random boxes and discs: each goal's path from one PathSearch (obstacles left out or not,
    bounded or not, after searches that found nothing) is the reference's, bit for bit."""
    rng = np.random.default_rng(24)
    for _ in range(12):
        obstacles = [paths.configuration_obstacle(rng.uniform(0, 20, (int(rng.integers(1, 5)), 2)),
                                                  float(rng.uniform(0.2, 1.5))) for _ in range(int(rng.integers(3, 9)))]
        shapes = paths.ConvexSet(obstacles)
        start = rng.uniform(0, 20, 2)
        bounds = (0.5, 0.5, 19.5, 19.5)
        search = paths.PathSearch(start, shapes, bounds)
        for _ in range(8):
            goal = rng.uniform(0, 20, 2)
            held = shapes.inside(goal[None])[0] if rng.random() < 0.5 else np.zeros(shapes.count, dtype=bool)
            limit = math.inf if rng.random() < 0.5 else float(rng.uniform(5, 30))
            ours = search.path(goal, limit, held)
            ref = _reference_path(start, goal, shapes.subset(~held), bounds, limit, monkeypatch)
            assert (ours is None) == (ref is None)
            if ref is not None:
                assert np.array_equal(ours, ref)


def test_remembered_grown_obstacles_are_the_computed_ones(monkeypatch):
    rng = np.random.default_rng(7)
    for _ in range(200):
        poly = rng.uniform(0, 10, (int(rng.integers(1, 8)), 2))
        off = np.round(rng.uniform(-3, 3, (int(rng.integers(1, 12)), 2)), int(rng.integers(0, 3)))
        radius = float(rng.choice([0.0, 0.05, 1.3]))
        paths.clear_caches()
        ours = paths.configuration_obstacle(poly, radius, off)
        assert paths.configuration_obstacle(poly, radius, off) is ours
        with pytest.raises(ValueError):
            ours[0, 0] = 0.0
        with monkeypatch.context() as m:
            m.setattr(paths, "SHORTCUTS", False)
            assert np.array_equal(paths.configuration_obstacle(poly, radius, off), ours)


def test_sure_answers_of_the_terrain_test_are_the_exact_ones():
    """movement._surely's answers (legs surely clear of a piece, surely into it) agree with the
    exact distance on rectangles, convex polygons and arbitrary (even self-crossing) ones, and
    leave few legs to the exact test."""
    rng = np.random.default_rng(5)
    sure = total = 0
    for k in range(600):
        if k % 3 == 0:
            x, y, w, h = *rng.uniform(0, 10, 2), *rng.uniform(0.5, 5, 2)
            poly = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
        elif k % 3 == 1:
            a = np.sort(rng.uniform(0, 2 * math.pi, int(rng.integers(3, 8))))
            poly = (rng.uniform(2, 8, 2) + rng.uniform(0.5, 4) * np.column_stack([np.cos(a), np.sin(a)])).tolist()
        else:
            poly = rng.uniform(0, 10, (int(rng.integers(3, 7)), 2)).tolist()
        p0 = rng.uniform(-2, 12, (20, 2))
        p1 = p0 if k % 7 == 0 else p0 + rng.uniform(-4, 4, (20, 2))
        reach = np.full(20, float(rng.choice([1e-6, 0.25, 0.5])))
        far, into = movement._surely(p0, p1, poly, reach)
        exact = movement.segments_polygon_distance(p0, p1, poly) < reach
        assert not (far & exact).any() and not (into & ~exact).any()
        sure += int((far | into).sum())
        total += 20
    assert sure > 0.8 * total
