"""All-pairs LOS (``Obstacles.los_matrix``, angular sweep + side lookup fast path) against a
plain per-pair reference: blocked when the distance is ``<= eps``; blocker by the documented tie
rule of ``los_matrix``: each blocking obstacle is placed at ``t`` = projection of its edge
midpoint / circle centre on the sight line (a zero-length wall is its point; no special case
for obstacles touching the viewer; a polygon at its first blocking edge, at -1 if it contains
the viewer, at most 2 if it contains the target), clipped to [-2, 4]; the obstacles with
``t <= t_min + TIE`` (``TIE = 1e-9``) are tied and the smallest id among them is reported.
Contacts whose distance is within float rounding of the threshold may count or not."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from simulator.geometry.hexgrid import HexGrid
from simulator.geometry.hexlos import HexObstacleMap
from simulator.geometry.segments import (
    EPS, LOS_TIE, Obstacles, point_segment_distance, points_in_polygon, segment_segment_distance,
)

TIE = 1e-9  # the rule's tie tolerance on t, stated here independently of the implementation
U = 2.0 ** -52  # float64 machine epsilon (twice the unit roundoff)


def _proj(p: NDArray[np.float64], q: NDArray[np.float64], m: NDArray[np.float64]
          ) -> tuple[float, float]:
    """``t`` of the projection of ``m`` on ``p -> q`` and a bound on how far another float
    evaluation of the same real number (other operand order, ``1 - t`` of the reverse line) can
    be from it: a few roundoffs of the terms, ``|m - p| |r| / |r|**2``, not of the result."""
    r = q - p
    ll = float(r @ r)
    if ll == 0:
        return 0.0, 0.0
    lr = float(np.sqrt(ll))
    slack = 64 * U * (1.0 + (float(np.hypot(*(m - p))) + float(np.hypot(*(m - q)))) / lr)
    return float((m - p) @ r) / ll, slack


Hits = dict[int, tuple[float, float]]
# one contact of a sight line: (obstacle id, t, slack of t, certain); certain=False when the
# distance is within float rounding of the threshold (eps, or r + eps for a circle)
Contact = tuple[int, float, float, bool]


def _within(d: float, thr: float, *pts: NDArray[np.float64]) -> bool | None:
    """``d <= thr`` as decided by float64: True/False, or None when ``d`` is so close to ``thr``
    that the rounding of a float evaluation (ours, or the implementation's, in another operand
    order) can decide it either way: a few roundoffs of the coordinates' magnitude."""
    band = 64 * U * (1.0 + max(float(np.abs(x).max()) for x in pts))
    if d <= thr - band:
        return True
    if d > thr + band:
        return False
    return None


def reference(obs: Obstacles, X: NDArray[np.float64], ignore_containing: bool
              ) -> list[list[list[Contact]]]:
    """Per ordered pair, every contact of the sight line (walls, polygon edges, circles) and the
    polygon containment entries (``t = -1`` at the viewer, ``2`` at the target)."""
    N = len(X)
    out: list[list[list[Contact]]] = [[[] for _ in range(N)] for _ in range(N)]
    S, P = obs.n_segments, obs.n_polygons
    for a in range(N):
        for b in range(N):
            if a == b:
                continue
            p, q = X[a], X[b]
            h = out[a][b]
            for k, (s0, s1) in enumerate(obs.segments):
                w = _within(float(segment_segment_distance(p, q, s0, s1)), EPS, p, q, s0, s1)
                if w is not False:
                    h.append((k, *_proj(p, q, (s0 + s1) / 2), bool(w)))
            for k, poly in enumerate(obs.polygons):
                ins = points_in_polygon(np.stack([p, q]), poly, EPS)
                if ignore_containing and ins.any():
                    continue
                if ins[0]:
                    h.append((S + k, -1.0, 0.0, True))
                    continue
                if ins[1]:  # with its blocking edges, if any: t = min(2, their t)
                    h.append((S + k, 2.0, 0.0, True))
                for m in range(len(poly)):
                    e0, e1 = poly[m], poly[(m + 1) % len(poly)]
                    w = _within(float(segment_segment_distance(p, q, e0, e1)), EPS, p, q, e0, e1)
                    if w is not False:
                        h.append((S + k, *_proj(p, q, (e0 + e1) / 2), bool(w)))
            for k, (cx, cy, r) in enumerate(obs.circles):
                c = np.array([cx, cy])
                if ignore_containing and (np.hypot(*(p - c)) <= r + EPS or np.hypot(*(q - c)) <= r + EPS):
                    continue
                w = _within(float(point_segment_distance(c, p, q)), r + EPS, p, q, c, np.array([r]))
                if w is not False:
                    h.append((S + P + k, *_proj(p, q, c), bool(w)))
    return out


def expected_blockers(h: Hits) -> set[int]:
    """Ids the tie rule allows for one pair's hits ``{id: (t, slack of t)}``.  Exactly
    ``{min id of the tied set}`` unless a gap ``t_k - t_min`` lies within float rounding of
    ``TIE`` (then that obstacle may or may not be tied, and each outcome is allowed); a blocker
    that is clearly later, or not the smallest tied id, is never allowed."""
    ts = {k: (min(max(t, -2.0), 4.0), e) for k, (t, e) in h.items()}  # t clipped to [-2, 4]
    tmin = min(t for t, _ in ts.values())
    emax = max(e for _, e in ts.values())  # rounding of t_min itself
    sure = {k for k, (t, e) in ts.items() if t - tmin <= TIE - e - emax}
    maybe = {k for k, (t, e) in ts.items() if k not in sure and t - tmin <= TIE + e + emax}
    if not sure:  # only when the slack is >= TIE / 2 (sight lines ~1e-7 of the scene size)
        return maybe
    first = min(sure)
    return {first} | {k for k in maybe if k < first}


def allowed(contacts: list[Contact]) -> set[tuple[bool, int]]:
    """``(blocked, blocker)`` outcomes of the rule for one ordered pair: the certain contacts
    plus any subset of the uncertain ones (almost always none)."""
    unsure = [c for c in contacts if not c[3]]
    assert len(unsure) <= 12, contacts  # float scenes have at most 6 walls + 6 triangle edges
    res: set[tuple[bool, int]] = set()
    for mask in range(1 << len(unsure)):
        use = [c for c in contacts if c[3]] + [c for i, c in enumerate(unsure) if mask >> i & 1]
        h: Hits = {}
        for k, t, e, _ in use:  # an obstacle is at its first contact (a polygon's first edge)
            t0, e0 = h.get(k, (np.inf, 0.0))
            h[k] = (min(t0, t), max(e0, e))
        res |= {(True, k) for k in expected_blockers(h)} if h else {(False, -1)}
    return res


def check(obs: Obstacles, X: NDArray[np.float64], ignore_containing: bool = True) -> None:
    assert LOS_TIE == TIE
    bl, who = obs.los_matrix(X, ignore_containing=ignore_containing)
    ref = reference(obs, X, ignore_containing)
    for a in range(len(X)):
        for b in range(len(X)):
            got = (bool(bl[a, b]), int(who[a, b]))
            assert got in allowed(ref[a][b]), (a, b, got, ref[a][b])


def test_rule_examples() -> None:
    # a wall touching the viewer almost perpendicularly (midpoint at t = 1e-10 from (0, 0))
    # ties with a zero-length wall at (0, 0) (t = 0); from the other end they are met at
    # t = 1 - 1e-10 and t = 1: tied too -> the smaller id, 0, both ways
    X = np.array([[0.0, 0.0], [1e-10, 1.0]])
    for segs, want in (([[0, 0, 0, 0], [0, 0, 2, 0]], 0), ([[0, 0, 2, 0], [0, 0, 0, 0]], 0)):
        obs = Obstacles(segments=np.array(segs, dtype=float).reshape(-1, 2, 2))
        assert obs.los_matrix(X)[1].tolist() == [[-1, want], [want, -1]]
    # gaps clearly above the tolerance are not ties: midpoint at t = 1e-8 -> the zero-length
    # wall (t = 0) is first from (0, 0), the other wall (t = 1 - 1e-8 < 1) from the far end
    X = np.array([[0.0, 0.0], [1e-8, 1.0]])
    obs = Obstacles(segments=np.array([[0, 0, 0, 0], [0, 0, 2, 0]], dtype=float).reshape(-1, 2, 2))
    assert obs.los_matrix(X)[1].tolist() == [[-1, 0], [1, -1]]
    # a wall ending exactly eps from a point, along the sight line: distance == EPS -> blocked
    # both ways (the reference accepts either there: it is within float rounding of EPS)
    X = np.array([[0.0, 2.0], [0.0, 1e-9]])
    obs = Obstacles(segments=np.array([[0, -1, 0, 0]], dtype=float).reshape(-1, 2, 2))
    assert obs.los_matrix(X)[1].tolist() == [[-1, 0], [0, -1]]
    assert allowed(reference(obs, X, True)[0][1]) == {(True, 0), (False, -1)}
    # clearly inside / outside eps
    for y, want in ((0.75e-9, [[-1, 0], [0, -1]]), (1.5e-9, [[-1, -1], [-1, -1]])):
        assert obs.los_matrix(np.array([[0.0, 2.0], [0.0, y]]))[1].tolist() == want
    # the reference's allowed set: a clear winner, a tie, and a gap at the tolerance's edge
    assert expected_blockers({3: (0.5, 0.0), 1: (0.6, 0.0)}) == {3}
    assert expected_blockers({3: (0.5, 0.0), 1: (0.5 + 0.5e-9, 0.0)}) == {1}
    assert expected_blockers({3: (0.5, 1e-15), 1: (0.5 + 1e-9, 1e-15)}) == {1, 3}


small = st.integers(0, 8)
pt = st.tuples(small, small)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(pt, min_size=2, max_size=10),
       segs=st.lists(st.tuples(pt, pt), max_size=6),
       rects=st.lists(st.tuples(pt, st.integers(1, 3), st.integers(1, 3)), max_size=3),
       circles=st.lists(st.tuples(small, small, st.sampled_from([0.5, 1.0])), max_size=2),
       ignore_containing=st.booleans())
def test_los_matrix_integer_scenes(points, segs, rects, circles, ignore_containing) -> None:  # type: ignore[no-untyped-def]
    # integer coordinates: many exact touches (lines through corners, along edges) and exact ties
    polys = [[[x, y], [x + w, y], [x + w, y + h], [x, y + h]] for (x, y), w, h in rects]
    obs = Obstacles(segments=np.array(segs, dtype=float).reshape(-1, 2, 2), polygons=polys,
                    circles=np.array(circles, dtype=float).reshape(-1, 3))
    check(obs, np.array(points, dtype=float), ignore_containing)


coord = st.floats(-5, 5, allow_nan=False, allow_infinity=False)


@settings(max_examples=40, deadline=None)
# a zero-length wall at the viewer and a wall touching the viewer: tied both ways (id 0)
@example(points=[(0.0, 0.0), (6.55951571574642e-10, 1.0)],
         segs=[(0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 2.0, 0.0)], tris=[])
# a wall ending exactly eps (1e-9) from a point, along the sight line: blocked both ways
# (point_segment_distance gives exactly 1e-9 from one end, 1.00000008e-9 from the other)
@example(points=[(0.0, 2.0), (0.0, 1e-09)], segs=[(0.0, -1.0, 0.0, 0.0)], tris=[])
@given(points=st.lists(st.tuples(coord, coord), min_size=2, max_size=10),
       segs=st.lists(st.tuples(coord, coord, coord, coord), max_size=6),
       tris=st.lists(st.tuples(coord, coord, st.floats(0.3, 2)), max_size=2))
def test_los_matrix_float_scenes(points, segs, tris) -> None:  # type: ignore[no-untyped-def]
    polys = [[[x, y], [x + s, y], [x, y + s]] for x, y, s in tris]
    obs = Obstacles(segments=np.array(segs, dtype=float).reshape(-1, 2, 2), polygons=polys)
    check(obs, np.array(points, dtype=float))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_hex_obstacle_map_los_matrix(seed: int) -> None:
    # hex centres and hexside walls: lines through hex corners and along hexsides are frequent
    g = HexGrid.dragon_rage()
    labels = g.all_labels(7, 6)
    rng = np.random.default_rng(seed)
    walls = {g.hexside(h, n) for h in rng.choice(labels, 12)
             for n in list(g.neighbours(str(h)).values())[:1] if n in labels}
    towers = [str(t) for t in rng.choice(labels, 2, replace=False)]
    m = HexObstacleMap(g, sorted(walls, key=str), towers)
    sel = [str(x) for x in rng.choice(labels, 14, replace=False)]
    check(m.obstacles, m.centres(sel))
