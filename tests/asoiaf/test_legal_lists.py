"""The legal_actions speed-up (issue #24) changes no legal list: a seeded playout recorded before
it (tests/asoiaf/data) is replayed and every list compared; the per-tray reference path (polygon
cache and quick rejection off) gives the same answers."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from simulator.core.session import Session
from simulator.games.asoiaf import space, units
from simulator.geometry.table import rect_corners
from tests.asoiaf.test_playout import small

DATA = Path(__file__).resolve().parent / "data" / "legal_lists_storm_of_swords_108.json"


def _replay(check_every: int = 1) -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    s = Session.new(small(data["mode"]), seed=data["seed"])
    rng = random.Random(data["seed"])
    for step, expected in enumerate(data["lists"]):
        acts = s.legal_actions()
        if step % check_every == 0:
            assert acts == expected, f"legal list {step} differs"
        fighting = [a for a in acts if a["type"] in ("charge", "attack")]
        s.apply(rng.choice(fighting) if fighting and rng.random() < 0.6 else rng.choice(acts))
    assert s.outcome() is not None


def test_recorded_playout_gives_the_same_legal_lists():
    _replay()


def test_the_reference_path_gives_the_same_lists(monkeypatch):
    monkeypatch.setattr(units, "POLYGON_CACHE", False)
    monkeypatch.setattr(space, "SHORTCUTS", False)
    _replay(check_every=5)


def test_cached_polygons_are_the_computed_ones_and_read_only():
    u = {"x": 12.5, "y": 7.25, "width": 6.3, "depth": 4.72, "facing": 33.0}
    p = units.polygon(u)
    assert np.array_equal(p, rect_corners([[12.5, 7.25, 6.3, 4.72, 33.0]])[0])
    assert units.polygon(u) is p
    assert np.array_equal(units.polygon(u, x=1.0), rect_corners([[1.0, 7.25, 6.3, 4.72, 33.0]])[0])
    with pytest.raises(ValueError):
        p[0, 0] = 0.0


def test_quick_rejection_never_hides_an_overlap():
    rng = np.random.default_rng(3)
    for _ in range(300):
        a = rect_corners([[*rng.uniform(0, 10, 2), 6.3, 4.72, rng.uniform(0, 360)]])[0]
        b = rect_corners([[*rng.uniform(0, 10, 2), 3.94, 7.87, rng.uniform(0, 360)]])[0]
        assert space.overlap(a, b) == (space.overlap_depth(a, b) > space.OVERLAP)
