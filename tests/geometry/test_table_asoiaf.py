"""The table.py functions ASOIAF uses (45-degree tray arcs, overlap depth, clipping, hulls,
straight sweeps, first contact along a move), checked against shapely 2 (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from simulator.geometry.table import (ARCS, arc_codes, arc_fractions, arc_part, convex_clip, convex_hull,
                                      first_contact, overlap_depth, point_polygon_distance, polygon_area,
                                      polygon_distance, rect_corners, swept_polygon, tray_axes)
from tests.geometry.test_table import coord, rect

SET = settings(max_examples=40, deadline=None)
BIG = 500.0


def arc_wedges(tray: tuple[float, ...]) -> dict[str, shapely.Polygon]:
    """The four arcs built independently from their definition: between the tray edge and the two
    rays leaving its corners at 45 degrees outward (clipped to a large square)."""
    fl, fr, rr, rl = rect_corners([tray])[0]
    f, r = tray_axes(tray[4])
    out = {}
    for name, a, b, da, db in (("front", fl, fr, f - r, f + r), ("right", fr, rr, r + f, r - f),
                               ("rear", rr, rl, -f + r, -f - r), ("left", rl, fl, -r - f, -r + f)):
        out[name] = shapely.Polygon([a, b, b + db * BIG, a + da * BIG])
    return out


@SET
@given(rect, st.lists(st.tuples(coord, coord), min_size=1, max_size=20))
def test_arc_codes_match_the_corner_rays(tray, pts) -> None:  # type: ignore[no-untyped-def]
    wedges = arc_wedges(tray)
    body = shapely.Polygon(rect_corners([tray])[0])
    codes = arc_codes([tray], pts)[0]
    for p, code in zip(pts, codes):
        pt = shapely.Point(p)
        if body.distance(pt) < 1e-6 and body.covers(pt):
            continue                     # inside the tray: no arc by the rules
        inside = [n for n, w in wedges.items() if w.buffer(-1e-7).contains(pt)]
        if inside:                       # away from a ray: exactly one wedge holds it
            assert inside == [ARCS[code]]


@SET
@given(rect, rect)
def test_arc_fractions_and_parts_vs_shapely(tray, other) -> None:  # type: ignore[no-untyped-def]
    target = rect_corners([other])[0]
    body = shapely.Polygon(rect_corners([tray])[0])
    tp = shapely.Polygon(target)
    assume(not body.intersects(tp))     # trays never overlap in play
    fr = arc_fractions(tray, target)
    assert abs(sum(fr.values()) - 1) < 1e-9
    for name, wedge in arc_wedges(tray).items():
        expected = wedge.intersection(tp).area / tp.area
        assert abs(fr[name] - expected) < 1e-7
        part = arc_part(tray, target, name)
        got = polygon_area(part) if len(part) >= 3 else 0.0
        assert abs(got - wedge.intersection(tp).area) < 1e-7


@SET
@given(rect, rect)
def test_overlap_depth_vs_shapely(a, b) -> None:  # type: ignore[no-untyped-def]
    pa, pb = rect_corners([a])[0], rect_corners([b])[0]
    d = overlap_depth(pa, pb)
    ga, gb = shapely.Polygon(pa), shapely.Polygon(pb)
    if d > 1e-6:
        assert ga.intersection(gb).area > 0
    elif d < -1e-6:
        assert ga.distance(gb) > 0 and ga.distance(gb) >= -d - 1e-9   # a separating gap bounds the distance
    assert abs(polygon_distance(pa, pb) - ga.distance(gb)) < 1e-7


@SET
@given(rect, rect)
def test_convex_clip_hull_and_sweep_vs_shapely(a, b) -> None:  # type: ignore[no-untyped-def]
    pa, pb = rect_corners([a])[0], rect_corners([b])[0]
    ga, gb = shapely.Polygon(pa), shapely.Polygon(pb)
    clipped = convex_clip(pa, pb)
    area = polygon_area(clipped) if len(clipped) >= 3 else 0.0
    assert abs(area - ga.intersection(gb).area) < 1e-7
    pts = np.concatenate([pa, pb])
    assert abs(polygon_area(convex_hull(pts)) - shapely.MultiPoint(pts).convex_hull.area) < 1e-7
    offset = np.array(b[:2]) - np.array(a[:2])
    moved = shapely.Polygon(pa + offset)
    swept = swept_polygon(pa, offset)
    assert abs(polygon_area(swept) - shapely.union(ga, moved).convex_hull.area) < 1e-7


@SET
@given(rect, coord, coord)
def test_point_polygon_distance_vs_shapely(a, x, y) -> None:  # type: ignore[no-untyped-def]
    pa = rect_corners([a])[0]
    assert abs(point_polygon_distance([x, y], pa) - shapely.Polygon(pa).distance(shapely.Point(x, y))) < 1e-7


@SET
@given(rect, st.lists(rect, min_size=1, max_size=4), st.floats(0, 360), st.floats(0, 30),
       st.sampled_from([0.0, 0.5, 1.0]))
def test_first_contact_vs_shapely(moving, others, heading, length, gap) -> None:  # type: ignore[no-untyped-def]
    pm = rect_corners([moving])[0]
    v = np.array([math.cos(math.radians(heading)), math.sin(math.radians(heading))])
    polys = [rect_corners([o])[0] for o in others]
    got = first_contact(pm, v, length, polys, gap=gap)
    gm = shapely.Polygon(pm)
    samples = np.linspace(0, length, 301)
    for t, q in zip(got, polys):
        gq = shapely.Polygon(q)
        dist = [shapely.affinity.translate(gm, *(v * s)).distance(gq) for s in samples]
        if math.isinf(t):
            assert min(dist) > gap - 1e-7           # never within gap on the whole move
            continue
        assert 0 <= t <= length + 1e-9
        at = shapely.affinity.translate(gm, *(v * t)).distance(gq)
        if t > 0:
            assert abs(at - gap) < 1e-6             # it arrives exactly at the gap
        else:
            assert at <= gap + 1e-9
        before = [d for s, d in zip(samples, dist) if s < t - 1e-6]
        assert all(d > gap - 1e-7 for d in before)  # and not earlier
