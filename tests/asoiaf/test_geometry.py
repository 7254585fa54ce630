"""Arcs, majority rule, LOS blocking and the flush alignment used by charges (digest §5, §6.6, §19),
as the game uses them from simulator.geometry.table (inches, y up, facing counter-clockwise
from +x). The geometry itself is checked against shapely in tests/geometry/test_table_asoiaf.py."""

import numpy as np
import pytest

from simulator.games.asoiaf import moves, space
from simulator.geometry.table import rect_corners


def unit(x, y, facing, w=6.3, d=4.72):
    return {"x": x, "y": y, "facing": facing, "width": w, "depth": d}


def tray(x, y, facing, w=2.0, d=2.0):
    return rect_corners([[x, y, w, d, facing]])[0]


def test_arcs_around_a_tray_facing_north():
    target = unit(24, 24, 90)
    cases = {"front": (24, 32), "rear": (24, 16), "right": (34, 24), "left": (14, 24)}
    for arc, (x, y) in cases.items():
        assert space.arc_of(target, tray(x, y, 90)) == (arc, [arc])


def test_majority_rule_straddling_front_and_flank():
    target = unit(24, 24, 90)
    # a tray mostly beyond the right edge, a little in front: the flank holds the larger part
    other = tray(30.5, 27.5, 90, 6.3, 4.72)
    assert space.arc_of(target, other) == ("right", ["right"])


def test_45_degree_rays_not_diagonals():
    # a wide, shallow tray: beyond the front-right corner, 1.5" up and 2" out, the diagonal model
    # would say front; the 45-degree rays from the corner say right flank
    target = unit(0, 0, 90, 6.0, 2.0)
    other = tray(5.0, 2.5, 90, 0.5, 0.5)
    assert space.arc_of(target, other)[0] == "right"


def test_exact_tie_lists_both_arcs():
    target = unit(24, 24, 90, 4, 4)
    other = tray(28, 28, 90)                 # centred on the front-right 45 degree ray
    _, tied = space.arc_of(target, other)
    assert set(tied) == {"front", "right"}


def test_overlap_and_near():
    a, b = tray(0, 0, 90), tray(5, 0, 90)
    assert space.near(a, b, 3.0) and not space.near(a, b, 2.99)
    assert not space.overlap(a, tray(2, 0, 90))          # touching is not overlapping
    assert space.overlap(a, tray(1.5, 0, 45))


def test_flush_pose_front_and_flank_and_half_alignment():
    target = {"x": 24.0, "y": 28.0, "facing": 270.0, "width": 6.3, "depth": 4.72}   # faces south
    charger = {"width": 6.3, "depth": 4.72}
    x, y, f = moves.flush_pose(charger, target, "front", "centre")
    assert (x, y, f) == pytest.approx((24.0, 23.28, 90.0))
    x, y, f = moves.flush_pose(charger, target, "right", "centre")   # facing south, its right is west
    assert (x, y, f) == pytest.approx((20.85 - 2.36, 28.0, 0.0))
    x, y, f = moves.flush_pose(charger, target, "front", "left")
    # 50%: half of the shorter edge (3.15") overlaps, so the centres are 3.15" apart along the edge
    assert abs(x - 24.0) == pytest.approx(3.15) and y == pytest.approx(23.28)


def test_sight_lines_blocked_through_a_tray_but_not_by_grazing_it():
    poly = tray(10, 10, 90, 4, 4)
    through = np.array([[0.0, 10.0], [20.0, 10.0]])
    along = np.array([[0.0, 8.0], [20.0, 8.0]])           # runs along the bottom edge
    assert space.overlap(through, poly)
    assert not space.overlap(along, poly)
    assert not space.overlap(np.array([[0.0, 0.0], [20.0, 0.0]]), poly)
