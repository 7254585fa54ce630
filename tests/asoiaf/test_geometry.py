"""Arcs, majority rule, distances and the flush alignment used by charges (digest §5, §6.6, §19)."""

import numpy as np
import pytest

from simulator.games.asoiaf import geom, moves, space


def unit(x, y, facing, w=6.3, d=4.72):
    return {"x": x, "y": y, "facing": facing, "width": w, "depth": d}


def test_arcs_tile_around_a_tray():
    target = (24.0, 24.0, 0.0, 6.3, 4.72)           # facing north (y decreasing)
    cases = {"front": (24, 16), "rear": (24, 32), "right_flank": (34, 24), "left_flank": (14, 24)}
    for arc, (x, y) in cases.items():
        areas = geom.arc_areas(target, geom.rect(x, y, 0, 2, 2))
        assert max(areas, key=areas.get) == arc
        assert areas[arc] == pytest.approx(4.0)


def test_majority_rule_straddling_front_and_flank():
    target = unit(24, 24, 0)
    # a tray mostly beyond the right edge, a little in front: the flank holds the larger part
    other = geom.rect(30.5, 20.5, 0, 6.3, 4.72)
    arc, tied = space.arc_of(target, other)
    assert arc == "right_flank" and tied == ["right_flank"]


def test_exact_tie_lists_both_arcs():
    target = unit(24, 24, 0, 4, 4)
    other = geom.rect(28, 20, 0, 2, 2)               # centred on the front-right 45 degree ray
    _, tied = space.arc_of(target, other)
    assert set(tied) == {"front", "right_flank"}


def test_distance_edge_to_edge_and_overlap():
    a, b = geom.rect(0, 0, 0, 2, 2), geom.rect(5, 0, 0, 2, 2)
    assert geom.distance(a, b) == pytest.approx(3.0)
    assert not geom.overlap(a, geom.rect(2, 0, 0, 2, 2))      # touching is not overlapping
    assert geom.overlap(a, geom.rect(1.5, 0, 45, 2, 2))
    assert geom.within(a, b, 3.0) and not geom.within(a, b, 2.99)


def test_flush_pose_front_and_flank_and_half_alignment():
    target = {"x": 24.0, "y": 20.0, "facing": 180.0, "width": 6.3, "depth": 4.72}
    charger = {"width": 6.3, "depth": 4.72}
    x, y, f = moves.flush_pose(charger, target, "front", "centre")
    assert (x, y, f) == pytest.approx((24.0, 24.72, 0.0))
    x, y, f = moves.flush_pose(charger, target, "right_flank", "centre")   # target faces south: right is west
    assert (x, y, f) == pytest.approx((20.85 - 2.36, 20.0, 90.0))
    x, y, f = moves.flush_pose(charger, target, "front", "left")
    # 50%: half of the shorter edge (3.15") overlaps, so the centres are 3.15" apart along the edge
    assert abs(x - 24.0) == pytest.approx(3.15) and y == pytest.approx(24.72)


def test_segment_blocked_by_a_tray_but_not_by_grazing():
    poly = geom.rect(10, 10, 0, 4, 4)
    assert geom.segment_blocked(np.array([0.0, 10.0]), np.array([20.0, 10.0]), poly)
    assert not geom.segment_blocked(np.array([0.0, 8.0]), np.array([20.0, 8.0]), poly)   # along the edge
    assert not geom.segment_blocked(np.array([0.0, 0.0]), np.array([20.0, 0.0]), poly)
