"""simulator/geometry/paths.py: configuration obstacles, shortest paths among convex obstacles,
cutting paths, gaps; checked on hand-made cases and against shapely on random ones."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.geometry.paths import (ConvexSet, configuration_obstacle, cut_path, gap_points, inside_convex,
                                      nearest_point, path_entry, path_length, segments_clear_of_convex,
                                      shortest_path)
from simulator.geometry.table import convex_hull, segments_polygon_distance, segment_polygon_distance
from tests.geometry.test_table import coord, poly

SET = settings(max_examples=40, deadline=None)
convex = st.lists(st.tuples(coord, coord), min_size=3, max_size=8).map(convex_hull).filter(lambda p: len(p) >= 3)


def test_path_goes_round_a_rectangle_by_the_nearer_corners() -> None:
    box = [[4, -1], [6, -1], [6, 3], [4, 3]]
    path = shortest_path([0, 0], [10, 0], [box])
    assert path is not None
    assert path.round(6).tolist() == [[0, 0], [4, -1], [6, -1], [10, 0]]
    assert math.isclose(path_length(path), 2 * math.hypot(4, 1) + 2)


def test_path_through_a_gap_between_two_pieces() -> None:
    # a river from x=0 to x=20 at y 8-12 with a gap (a ford) at x 9-11
    west, east = [[0, 8], [9, 8], [9, 12], [0, 12]], [[11, 8], [20, 8], [20, 12], [11, 12]]
    path = shortest_path([2, 2], [2, 18], [west, east], bounds=(0.5, 0, 19.5, 20))   # not round the ends
    assert path is not None
    assert [9.0, 8.0] in path.round(6).tolist() and [9.0, 12.0] in path.round(6).tolist()
    # grown by a radius wider than half the gap, no path is left
    grown = [configuration_obstacle(p, 1.1) for p in (west, east)]
    assert shortest_path([2, 2], [2, 18], grown, bounds=(0.5, 0, 19.5, 20)) is None
    assert shortest_path([2, 2], [2, 18], [configuration_obstacle(p, 0.9) for p in (west, east)],
                         bounds=(0.5, 0, 19.5, 20)) is not None


def test_path_refused_beyond_its_length_limit_and_out_of_bounds() -> None:
    wall = [[-1, 1], [2, 1], [2, 2], [-1, 2]]
    shortest = shortest_path([0, 0], [0, 3], [wall], max_length=3.9)              # 1.41 + 1 + 1.41
    assert shortest is not None and shortest.round(6).tolist()[1] == [-1, 1]
    assert shortest_path([0, 0], [0, 3], [wall], max_length=3.8) is None
    # the way round the left end is out of bounds: round the right end, longer
    right = shortest_path([0, 0], [0, 3], [wall], bounds=(-0.5, -5, 5, 5))
    assert right is not None and right.round(6).tolist()[1] == [2, 1]
    assert shortest_path([0, 0], [0, 30], [wall], bounds=(-5, -5, 5, 5)) is None


def test_an_obstacle_holding_the_start_is_ignored_one_holding_the_goal_blocks() -> None:
    box = [[-1, -1], [1, -1], [1, 1], [-1, 1]]
    assert shortest_path([0, 0], [5, 0], [box]).tolist() == [[0, 0], [5, 0]]
    assert shortest_path([5, 0], [0, 0], [box]) is None


def test_configuration_obstacle_of_a_formation() -> None:
    # two bases side by side (offsets -1 and +1 in x) round a unit square: the square grows by
    # the formation's width on each side and by the radius
    grown = configuration_obstacle([[0, 0], [1, 0], [1, 1], [0, 1]], 0.5, [[-1, 0], [1, 0]])
    xs, ys = grown[:, 0], grown[:, 1]
    assert math.isclose(xs.min(), -1.5) and math.isclose(xs.max(), 2.5)
    assert math.isclose(ys.min(), -0.5) and math.isclose(ys.max(), 1.5)
    # the circumscribed octagon never under-grows a disc
    for a in np.linspace(0, 2 * math.pi, 50):
        p = np.array([0.5, 0.5]) + np.array([math.cos(a), math.sin(a)]) * 0.4
        assert inside_convex(p, [configuration_obstacle([[0.5, 0.5]], 0.41)])[0, 0]


def test_cut_path_and_path_entry() -> None:
    path = [[0, 0], [3, 0], [3, 4]]
    assert cut_path(path, 100).tolist() == path
    assert cut_path(path, 0).tolist() == [[0, 0]]
    assert cut_path(path, 3).tolist() == [[0, 0], [3, 0]]
    assert path_entry(path, [[2, 1], [4, 1], [4, 2], [2, 2]]) == 4.0
    assert path_entry(path, [[10, 10], [11, 10], [11, 11]]) is None
    assert path_entry(path, [[-1, -1], [1, -1], [1, 1], [-1, 1]]) == 0.0


def test_gap_points_and_nearest_point() -> None:
    pieces = [[[0, 16], [10, 16], [10, 20], [0, 20]], [[14, 16], [34, 16], [34, 20], [14, 20]],
              [[38, 16], [48, 16], [48, 20], [38, 20]]]
    assert gap_points(pieces, 12.0) == [(12.0, 18.0), (36.0, 18.0)]
    assert gap_points(pieces, 3.0) == []
    assert nearest_point([24, 0], pieces[1]).tolist() == [24, 16]
    assert nearest_point([24, 17], pieces[1]).tolist() == [24, 17]


@SET
@given(coord, coord, coord, coord, convex)
def test_segments_clear_of_convex_vs_shapely(ax, ay, bx, by, c) -> None:  # type: ignore[no-untyped-def]
    clear = bool(segments_clear_of_convex([[ax, ay]], [[bx, by]], c)[0])
    seg = shapely.LineString([(ax, ay), (bx, by)]) if (ax, ay) != (bx, by) else shapely.Point(ax, ay)
    area = shapely.Polygon(c)
    if area.buffer(-1e-5).intersects(seg):          # enters the interior
        assert not clear
    if not area.buffer(-1e-8).intersects(seg):      # stays out (or only touches the outline)
        assert clear


@SET
@given(st.lists(st.tuples(coord, coord), min_size=1, max_size=6), st.lists(convex, min_size=1, max_size=3))
def test_inside_convex_and_convex_set_vs_shapely(points, polys) -> None:  # type: ignore[no-untyped-def]
    got = inside_convex(points, polys)
    for i, p in enumerate(points):
        for j, c in enumerate(polys):
            area = shapely.Polygon(c)
            if area.buffer(-1e-6).contains(shapely.Point(p)):
                assert got[i, j]
            elif not area.contains(shapely.Point(p)):
                assert not got[i, j]
    keep = np.array([k % 2 == 0 for k in range(len(polys))])
    sub = ConvexSet(polys).subset(keep)
    assert (sub.inside(np.array(points, dtype=float)) == got[:, keep]).all()


@SET
@given(st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=5), poly)
def test_segments_polygon_distance_is_the_single_one_batched(segs, p) -> None:  # type: ignore[no-untyped-def]
    segs = np.array(segs, dtype=float)
    got = segments_polygon_distance(segs[:, :2], segs[:, 2:], p)
    for k, s in enumerate(segs):
        assert abs(got[k] - segment_polygon_distance(s[:2], s[2:], p)) < 1e-12


@SET
@given(coord, coord, coord, coord, st.lists(convex, min_size=1, max_size=3))
def test_shortest_path_never_enters_an_obstacle(sx, sy, gx, gy, polys) -> None:  # type: ignore[no-untyped-def]
    path = shortest_path([sx, sy], [gx, gy], polys)
    areas = [shapely.Polygon(c) for c in polys]
    if path is None:
        # no path: the goal is inside an obstacle (the random obstacles never wall the start in)
        assert any(a.buffer(1e-6).contains(shapely.Point(gx, gy)) for a in areas)
        return
    assert path[0].tolist() == [sx, sy] and path[-1].tolist() == [gx, gy]
    line = shapely.LineString(path) if len(path) > 1 and path_length(path) > 0 else shapely.Point(sx, sy)
    assert path_length(path) >= math.dist((sx, sy), (gx, gy)) - 1e-9
    for a in areas:
        if a.buffer(1e-6).contains(shapely.Point(sx, sy)):
            continue                      # an obstacle the piece stands in is ignored
        assert line.intersection(a.buffer(-1e-5)).length < 1e-6
