"""The table.py additions SAGA uses (signed base gaps, table edges, segments against terrain),
checked against shapely 2 on random cases (hypothesis)."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.geometry.table import (circle_gaps, circles_inside_rect, segment_crosses_polyline,
                                      segment_polygon_distance, segment_through_polygon)
from tests.geometry.test_table import _line, circle, coord, poly

SET = settings(max_examples=40, deadline=None)
segment = st.tuples(coord, coord, coord, coord)


@SET
@given(st.lists(circle, min_size=1, max_size=6), st.lists(circle, min_size=1, max_size=6))
def test_circle_gaps_vs_shapely(a, b) -> None:  # type: ignore[no-untyped-def]
    g = circle_gaps(a, b)
    for i, (x, y, r) in enumerate(a):
        for j, (u, v, s) in enumerate(b):
            d = shapely.Point(x, y).distance(shapely.Point(u, v)) - r - s
            assert abs(g[i, j] - d) < 1e-9
            # apart, touching or overlapping as shapely's buffered discs say (away from the boundary)
            da, db = shapely.Point(x, y).buffer(r, 256), shapely.Point(u, v).buffer(s, 256)
            if g[i, j] > 1e-3:
                assert not da.intersects(db)
            elif g[i, j] < -1e-3:
                assert da.intersection(db).area > 0


@SET
@given(st.lists(circle, min_size=1, max_size=8), st.floats(5, 20), st.floats(5, 20))
def test_circles_inside_rect_vs_shapely(cs, w, h) -> None:  # type: ignore[no-untyped-def]
    table = shapely.box(0, 0, w, h)
    got = circles_inside_rect(cs, w, h)
    for (x, y, r), ok in zip(cs, got):
        disc = shapely.Point(x, y).buffer(r, 256)
        margin = min(x - r, y - r, w - x - r, h - y - r)
        if abs(margin) > 1e-3:
            assert ok == table.contains(disc)


@SET
@given(st.lists(segment, min_size=1, max_size=8), poly)
def test_segment_polygon_distance_and_through(segs, pg) -> None:  # type: ignore[no-untyped-def]
    P = shapely.Polygon(pg)
    for s in segs:
        seg = np.array(s).reshape(2, 2)
        ln = _line(seg)
        assert abs(segment_polygon_distance(seg[0], seg[1], pg) - P.distance(ln)) < 1e-7
        ends_outside = min(P.distance(shapely.Point(p)) for p in seg) > 1e-7
        d = P.distance(ln)
        if ends_outside and (d > 1e-7 or d == 0):          # away from float noise at the boundary
            assert segment_through_polygon(seg[0], seg[1], pg) == (P.distance(ln) <= 1e-9)
        if P.contains(shapely.Point(seg[0])) and P.exterior.distance(shapely.Point(seg[0])) > 1e-7:
            assert not segment_through_polygon(seg[0], seg[1], pg)


@SET
@given(st.lists(segment, min_size=1, max_size=8), st.lists(st.tuples(coord, coord), min_size=2, max_size=6))
def test_segment_crosses_polyline_vs_shapely(segs, line) -> None:  # type: ignore[no-untyped-def]
    L = shapely.LineString(line) if len({tuple(p) for p in line}) > 1 else shapely.Point(line[0])
    S = np.array(segs, dtype=float).reshape(-1, 2, 2)
    got = segment_crosses_polyline(S[:, 0], S[:, 1], line)
    for k, seg in enumerate(S):
        d = L.distance(_line(seg))
        if abs(d) > 1e-7 or d == 0:
            assert got[k] == (d <= 1e-9)
