"""All-pairs LOS (``Obstacles.los_matrix``, angular sweep + side lookup fast path) against a
plain per-pair reference: blocked when the distance is ``<= eps``, blocker = smallest projection
of the edge midpoint / circle centre on the sight line, ties to the smaller id."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from simulator.geometry.hexgrid import HexGrid
from simulator.geometry.hexlos import HexObstacleMap
from simulator.geometry.segments import (
    EPS, Obstacles, point_segment_distance, points_in_polygon, segment_segment_distance,
)


def _proj(p: NDArray[np.float64], q: NDArray[np.float64], m: NDArray[np.float64]) -> float:
    r = q - p
    ll = float(r @ r)
    return 0.0 if ll == 0 else float((m - p) @ r) / ll


def reference(obs: Obstacles, X: NDArray[np.float64], ignore_containing: bool
              ) -> tuple[NDArray[np.bool_], list[list[dict[int, float]]]]:
    """Per ordered pair: blocked, and ``{obstacle id: t of its first contact}`` for every hit."""
    N = len(X)
    hits: list[list[dict[int, float]]] = [[{} for _ in range(N)] for _ in range(N)]
    S, P = obs.n_segments, obs.n_polygons
    for a in range(N):
        for b in range(N):
            if a == b:
                continue
            p, q = X[a], X[b]
            h = hits[a][b]
            for k, (s0, s1) in enumerate(obs.segments):
                if segment_segment_distance(p, q, s0, s1) <= EPS:
                    h[k] = _proj(p, q, (s0 + s1) / 2)
            for k, poly in enumerate(obs.polygons):
                ins = points_in_polygon(np.stack([p, q]), poly, EPS)
                if ignore_containing and ins.any():
                    continue
                if ins[0]:
                    h[S + k] = -1.0
                    continue
                ts = [_proj(p, q, (poly[m] + poly[(m + 1) % len(poly)]) / 2)
                      for m in range(len(poly))
                      if segment_segment_distance(p, q, poly[m], poly[(m + 1) % len(poly)]) <= EPS]
                if ts:
                    h[S + k] = min(ts)
                elif ins[1]:
                    h[S + k] = 2.0
            for k, (cx, cy, r) in enumerate(obs.circles):
                c = np.array([cx, cy])
                if ignore_containing and (np.hypot(*(p - c)) <= r + EPS or np.hypot(*(q - c)) <= r + EPS):
                    continue
                if point_segment_distance(c, p, q) <= r + EPS:
                    h[S + P + k] = _proj(p, q, c)
    blocked = np.array([[bool(hits[a][b]) for b in range(N)] for a in range(N)])
    return blocked, hits


def check(obs: Obstacles, X: NDArray[np.float64], ignore_containing: bool = True) -> None:
    bl, who = obs.los_matrix(X, ignore_containing=ignore_containing)
    rb, hits = reference(obs, X, ignore_containing)
    assert (bl == rb).all(), np.argwhere(bl != rb)
    for a in range(len(X)):
        for b in range(len(X)):
            h = hits[a][b]
            if not h:
                assert who[a, b] == -1
                continue
            h = {k: min(max(t, -2.0), 4.0) for k, t in h.items()}  # los_matrix clips t to [-2, 4]
            tmin = min(h.values())
            # exact ties (rational inputs) go to the smaller id
            assert who[a, b] == min(k for k, t in h.items() if t <= tmin + 1e-7), (a, b, h, who[a, b])


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
