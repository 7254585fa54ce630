"""Free-form predicates checked against shapely 2 on random cases (hypothesis)."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.geometry.segments import Obstacles, points_in_polygon, segment_segment_distance
from simulator.geometry.table import (
    Shapes, arc_codes, arc_fractions, check_move, cohesion, contacts, distance_matrix, los,
    path_length_inside, rect_corners, rotate_rects,
)

coord = st.floats(-10, 10, allow_nan=False).map(lambda x: round(x, 6))
rad = st.floats(0.2, 2.0)
circle = st.tuples(coord, coord, rad)
rect = st.tuples(coord, coord, st.floats(0.5, 5), st.floats(0.5, 4), st.floats(0, 360))
SET = settings(max_examples=40, deadline=None)


def _poly(draw_pts: list[tuple[float, float]]) -> np.ndarray:
    """A simple (star-shaped) polygon from random radii around a centre."""
    cx, cy = draw_pts[0]
    rs = [abs(p[0]) % 3 + 0.5 for p in draw_pts[1:]]
    a = np.linspace(0, 2 * np.pi, len(rs), endpoint=False)
    return np.stack([cx + np.array(rs) * np.cos(a), cy + np.array(rs) * np.sin(a)], -1)


poly = st.lists(st.tuples(coord, coord), min_size=4, max_size=9).map(_poly)


def _line(seg):  # type: ignore[no-untyped-def]
    """shapely gives distance inf for zero-length LineStrings: use a Point then."""
    seg = np.asarray(seg)
    if np.allclose(seg[0], seg[-1], rtol=0, atol=0):
        return shapely.Point(seg[0])
    return shapely.LineString(seg)


def _geom(shapes: Shapes, i: int):  # type: ignore[no-untyped-def]
    if shapes.kind[i] == 0:
        x, y, r = shapes.circle[i]
        return shapely.Point(x, y), r
    return shapely.Polygon(shapes.polygon(i)), 0.0


def _oracle(a: Shapes, b: Shapes) -> np.ndarray:
    out = np.zeros((len(a), len(b)))
    for i in range(len(a)):
        gi, ri = _geom(a, i)
        for j in range(len(b)):
            gj, rj = _geom(b, j)
            out[i, j] = max(gi.distance(gj) - ri - rj, 0.0)
    return out


@SET
@given(st.lists(circle, min_size=1, max_size=5), st.lists(rect, min_size=1, max_size=5),
       st.lists(poly, min_size=1, max_size=3))
def test_distance_matrix_all_kinds(cs, rs, ps) -> None:  # type: ignore[no-untyped-def]
    s = Shapes.concat([Shapes.circles(cs), Shapes.rects(rs), Shapes.polygons(ps)])
    d = distance_matrix(s)
    assert np.allclose(d, _oracle(s, s), atol=1e-7)
    assert np.allclose(d, d.T, atol=1e-9)
    pairs = contacts(s, tol=0.05)
    o = _oracle(s, s)
    expect = {(i, j) for i in range(len(s)) for j in range(i + 1, len(s)) if o[i, j] <= 0.05}
    # allow disagreement only within float noise of the tolerance
    got = {tuple(p) for p in pairs.tolist()}
    assert all(abs(o[i, j] - 0.05) < 1e-7 for i, j in got ^ expect)


@SET
@given(st.lists(st.tuples(coord, coord), min_size=1, max_size=20), poly)
def test_polygon_containment(pts, pg) -> None:  # type: ignore[no-untyped-def]
    P = shapely.Polygon(pg)
    got = points_in_polygon(pts, pg)
    for p, g in zip(pts, got):
        d = P.distance(shapely.Point(p))
        if d > 1e-7 or P.contains(shapely.Point(p)):
            assert g == (P.covers(shapely.Point(p)))


@SET
@given(st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=10),
       st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=10))
def test_segment_intersection(a, b) -> None:  # type: ignore[no-untyped-def]
    A, B = np.array(a).reshape(-1, 2, 2), np.array(b).reshape(-1, 2, 2)
    d = segment_segment_distance(A[:, None, 0], A[:, None, 1], B[None, :, 0], B[None, :, 1])
    for i in range(len(A)):
        for j in range(len(B)):
            assert abs(d[i, j] - _line(A[i]).distance(_line(B[j]))) < 1e-7


@SET
@given(st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=12),
       st.lists(poly, max_size=3), st.lists(circle, max_size=3),
       st.lists(st.tuples(coord, coord, coord, coord), max_size=4), st.booleans())
def test_los_blocking_vs_shapely(q, ps, cs, walls, ic) -> None:  # type: ignore[no-untyped-def]
    Q = np.array(q).reshape(-1, 2, 2)
    W = np.array(walls).reshape(-1, 2, 2)
    obs = Obstacles(W, ps, np.array(cs).reshape(-1, 3))
    bl, who = obs.segments_blocked(Q[:, 0], Q[:, 1], ignore_containing=ic)
    geoms = ([(_line(w), 0.0) for w in W] + [(shapely.Polygon(p), 0.0) for p in ps]
             + [(shapely.Point(c[0], c[1]), c[2]) for c in cs])
    for k, seg in enumerate(Q):
        ln = _line(seg)
        hits, near = set(), False
        for o, (g, r) in enumerate(geoms):
            if ic and o >= len(W) and (g.distance(shapely.Point(seg[0])) <= r + 1e-9
                                       or g.distance(shapely.Point(seg[1])) <= r + 1e-9):
                continue
            dd = g.distance(ln) - r
            near |= abs(dd) < 1e-7
            if dd <= 1e-9:
                hits.add(o)
        if not near:
            assert bl[k] == bool(hits)
            if hits:
                assert who[k] in hits


@SET
@given(st.lists(circle, min_size=2, max_size=8), st.lists(poly, min_size=1, max_size=3))
def test_table_los_with_bases(cs, ps) -> None:  # type: ignore[no-untyped-def]
    bases = Shapes.circles(cs)
    c = bases.circle
    i, j = np.nonzero(~np.eye(len(c), dtype=bool))
    bl, who = los(c[i, :2], c[j, :2], terrain=ps, bases=bases)
    for k in range(len(i)):
        ln = _line([c[i[k], :2], c[j[k], :2]])
        hits, near = set(), False
        for o, p in enumerate(ps):
            P = shapely.Polygon(p)
            if P.covers(shapely.Point(c[i[k], :2])) or P.covers(shapely.Point(c[j[k], :2])):
                continue
            near |= abs(P.distance(ln)) < 1e-7
            if P.distance(ln) <= 1e-9:
                hits.add(o)
        for b in range(len(c)):
            pb = shapely.Point(c[b, :2])
            if pb.distance(shapely.Point(c[i[k], :2])) <= c[b, 2] + 1e-9 or \
                    pb.distance(shapely.Point(c[j[k], :2])) <= c[b, 2] + 1e-9:
                continue
            dd = pb.distance(ln) - c[b, 2]
            near |= abs(dd) < 1e-7
            if dd <= 1e-9:
                hits.add(len(ps) + b)
        if not near:
            assert bl[k] == bool(hits) and (not hits or who[k] in hits)


@SET
@given(circle, st.lists(st.tuples(coord, coord), min_size=1, max_size=4), poly, st.lists(circle, max_size=4))
def test_swept_circle_path(base, pts, pg, others) -> None:  # type: ignore[no-untyped-def]
    path = np.array([base[:2], *pts])
    r = base[2]
    line = shapely.LineString(path) if len(path) > 1 else shapely.Point(path[0])
    cap = line.buffer(r - 0.01, 64)
    res = check_move(base, path, 1e9, impassable=[pg])
    P = shapely.Polygon(pg)
    dd = P.distance(line) - (r - 0.01)
    if abs(dd) > 1e-6:
        assert res.ok == (dd > 0), (res, dd)
    inside = path_length_inside(path, pg) if len(path) > 1 else 0.0
    if len(path) > 1:
        # per segment (a path that doubles back pays twice; shapely would merge the overlap)
        want = sum(_line(path[k:k + 2]).intersection(P).length for k in range(len(path) - 1))
        assert abs(inside - want) < 1e-6
    ob = Shapes.circles(others)
    res2 = check_move(base, path, 1e9, others=ob)
    dmin = min((shapely.Point(o[:2]).distance(line) - o[2] - (r - 0.01) for o in others), default=1.0)
    if abs(dmin) > 1e-6:
        assert res2.ok == (dmin > 0)
    _ = cap


def test_swept_rect_and_costs() -> None:
    tray = [0, 0, 2, 1, 90]
    wood = [[[-1, 3], [1, 3], [1, 5], [-1, 5]]]
    r = check_move(tray, [[0, 0], [0, 8]], 10, slow=wood)
    assert r.ok and abs(r.cost - 10.0) < 1e-9 and r.slow_touched == [0]
    assert not check_move(tray, [[0, 0], [0, 8]], 9.9, slow=wood).ok
    assert "impassable" in check_move(tray, [[0, 0], [0, 8]], 99, impassable=wood).reason
    # a tray passing beside a base with its corner clipping it is refused
    other = Shapes.circles([[1.3, 4, 0.5]])
    assert not check_move(tray, [[0, 0], [0, 8]], 99, others=other).ok
    assert check_move(tray, [[0, 0], [0, 8]], 99, others=Shapes.circles([[2.6, 4, 0.5]])).ok
    # oracle: swept rectangle == hull of start and end rectangles
    rng = np.random.default_rng(2)
    for _ in range(50):
        t = [0, 0, rng.uniform(1, 3), rng.uniform(0.5, 2), rng.uniform(0, 360)]
        end = rng.uniform(-6, 6, 2)
        pg = rng.uniform(-6, 6, 2) + np.array([[0, 0], [1, 0], [1, 1], [0, 1]]) * rng.uniform(0.2, 2)
        t2 = [t[0], t[1], t[2] - 0.02, t[3] - 0.02, t[4]]
        e2 = [end[0], end[1], *t2[2:]]
        hull = shapely.MultiPolygon([shapely.Polygon(rect_corners([t2])[0]),
                                     shapely.Polygon(rect_corners([e2])[0])]).convex_hull
        d = hull.distance(shapely.Polygon(pg))
        if d > 1e-7 or hull.intersection(shapely.Polygon(pg)).area > 1e-7:
            assert check_move(t, [[0, 0], end], 99, impassable=[pg]).ok == (d > 0)


def test_arcs_and_rotation() -> None:
    tray = [[0, 0, 4, 2, 90]]  # facing +y, front edge y=1, 45-degree rays from (+-2, +-1)
    codes = arc_codes(tray, [[0, 3], [3, 1], [3, 1.6], [-3, 0], [0, -9], [2, 1], [3, 2.1]])
    assert codes.tolist() == [[0, 1, 1, 3, 2, 0, 0]]
    # rotating the tray and the points together keeps the arcs
    rng = np.random.default_rng(0)
    pts = rng.uniform(-8, 8, (200, 2))
    from simulator.geometry.table import rotate_points
    for ang in (30, 90, 217):
        t2 = rotate_rects(tray, [1, 1], ang)
        p2 = rotate_points(pts, [1, 1], ang)
        assert (arc_codes(t2, p2) == arc_codes(rotate_rects(tray, [1, 1], 0), pts)).all()
    # majority: a target straddling front and right flank
    target = rect_corners([[2.5, 2.5, 2, 1, 0]])[0]
    f = arc_fractions(tray[0], target)
    assert abs(sum(f.values()) - 1) < 1e-9
    # oracle for fractions with shapely: the front arc between the rays from (-2, 1) and (2, 1)
    big = 100
    front = shapely.Polygon([(-2, 1), (2, 1), (2 + big, 1 + big), (-2 - big, 1 + big)])
    assert abs(f["front"] - front.intersection(shapely.Polygon(target)).area / 2.0) < 1e-9


def test_cohesion() -> None:
    ok, comps = cohesion(Shapes.circles([[0, 0, 0.5], [2.9, 0, 0.5], [5.8, 0, 0.5]]), 2.0)
    assert ok and comps == [[0, 1, 2]]
    ok, comps = cohesion(Shapes.circles([[0, 0, 0.5], [3.1, 0, 0.5]]), 2.0)
    assert not ok and comps == [[0], [1]]
