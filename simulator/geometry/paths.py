"""Shortest paths of a point among convex polygonal obstacles (free-form tables).

A piece that translates without turning (a round base, a formation of bases moving together)
is reduced to its reference point: :func:`configuration_obstacle` grows an obstacle by the
piece's shape (the Minkowski sum of the obstacle, a disc and the reflected offsets of the
piece's parts, as one convex polygon: a conservative hull), and :func:`shortest_path` finds the
shortest polyline of the point from a start to a goal that enters no obstacle's interior (the
visibility graph of the obstacles' vertices, searched with A*). Touching an obstacle's outline
is allowed (the path runs along grown outlines). :func:`cut_path` shortens a path to a length
and :func:`path_entry` says how far along a path it first enters a convex polygon. Places worth
heading for: :func:`nearest_point` of an area, :func:`gap_points` (the middles of the narrow gaps
between obstacles, such as fords between stretches of a river).

>>> box = configuration_obstacle([[4, -2], [6, -2], [6, 2], [4, 2]], radius=0.0)
>>> [tuple(map(float, p)) for p in shortest_path([0, 0], [10, 0], [box])]
[(0.0, 0.0), (4.0, -2.0), (6.0, -2.0), (10.0, 0.0)]
"""

from __future__ import annotations

import heapq
import math
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .segments import points_in_polygon
from .table import convex_hull

__all__ = ["configuration_obstacle", "segments_clear_of_convex", "shortest_path", "path_length", "cut_path",
           "path_entry", "nearest_point", "gap_points", "inside_convex", "ConvexSet"]

F = NDArray[np.float64]
TOUCH = 1e-7          # distance within which a segment only touches an obstacle's outline


def configuration_obstacle(poly: ArrayLike, radius: float, offsets: ArrayLike | None = None, sides: int = 8) -> F:
    """The convex region (counter-clockwise) where a piece's reference point may not go: the
    hull of ``poly`` (a polygon, a segment or a point) grown by a disc of ``radius`` (a regular
    ``sides``-gon circumscribing it, so the growth is never less than ``radius``) and by the
    reflected ``offsets`` of the piece's parts from its reference point.

    >>> configuration_obstacle([[0, 0], [1, 0]], radius=0.0, offsets=[[0, 0], [0, 2]]).tolist()
    [[0.0, -2.0], [1.0, -2.0], [1.0, 0.0], [0.0, 0.0]]
    """
    p = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    off = np.zeros((1, 2)) if offsets is None else np.asarray(offsets, dtype=np.float64).reshape(-1, 2)
    p = convex_hull(p) if len(p) > 2 else p
    off = convex_hull(off) if len(off) > 2 else off
    grown = (p[:, None, :] - off[None, :, :]).reshape(-1, 2)
    grown = convex_hull(grown) if len(grown) > 2 else grown
    if radius > 0:
        a = np.linspace(0.0, 2 * math.pi, sides, endpoint=False) + math.pi / sides
        ring = np.column_stack([np.cos(a), np.sin(a)]) * (radius / math.cos(math.pi / sides))
        grown = (grown[:, None, :] + ring[None, :, :]).reshape(-1, 2)
    return convex_hull(grown)


def _edges(poly: F) -> tuple[F, F]:
    """Outward unit normals of a counter-clockwise convex polygon's edges and their offsets."""
    e = np.roll(poly, -1, axis=0) - poly
    n = np.column_stack([e[:, 1], -e[:, 0]])
    ln = np.hypot(n[:, 0], n[:, 1])
    keep = ln > 1e-12
    n = n[keep] / ln[keep, None]
    return n, np.einsum("ij,ij->i", n, poly[keep])


def segments_clear_of_convex(a: ArrayLike, b: ArrayLike, poly: ArrayLike, eps: float = TOUCH) -> NDArray[np.bool_]:
    """For segments ``a[k]-b[k]``: True where the segment does not enter the interior of the
    convex polygon ``poly`` (separating axes; touching within ``eps`` is clear). A polygon of
    fewer than three points has no interior: every segment is clear of it.

    >>> segments_clear_of_convex([[0, 0], [0, 0], [0, 1]], [[3, 0], [3, 0.5], [3, 1]],
    ...                          [[1, 0], [2, 0], [2, 1], [1, 1]]).tolist()
    [True, False, True]
    """
    v = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    return ConvexSet([v]).clear(np.asarray(a, dtype=np.float64).reshape(-1, 2),
                                np.asarray(b, dtype=np.float64).reshape(-1, 2), eps)


def inside_convex(points: ArrayLike, polys: Sequence[ArrayLike], eps: float = TOUCH) -> NDArray[np.bool_]:
    """(points, polygons): each point strictly inside each convex counter-clockwise polygon
    (deeper than ``eps``; a polygon of fewer than three points holds nothing).

    >>> inside_convex([[1, 1], [2, 1], [3, 1]], [[[0, 0], [2, 0], [2, 2], [0, 2]]]).tolist()
    [[True], [False], [False]]
    """
    shapes = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in polys]
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    out = np.zeros((len(pts), len(shapes)), dtype=bool)
    solid = [i for i, p in enumerate(shapes) if len(p) >= 3]
    if solid:
        out[:, solid] = ConvexSet([shapes[i] for i in solid]).inside(pts, eps)
    return out


class ConvexSet:
    """Convex counter-clockwise polygons padded to common sizes, for batched separating-axis tests
    (build it once to search several paths among the same obstacles)."""

    def __init__(self, polys: Sequence[ArrayLike]) -> None:
        polys = [p for p in (np.asarray(o, dtype=np.float64).reshape(-1, 2) for o in polys) if len(p) >= 3]
        self.polys = polys
        self.count = len(polys)
        if not polys:
            return
        edges = [_edges(p) for p in polys]
        e_max = max(len(n) for n, _ in edges)
        v_max = max(len(p) for p in polys)
        self.normals = np.stack([np.concatenate([n, np.repeat(n[:1], e_max - len(n), axis=0)]) for n, _ in edges])
        self.offsets = np.stack([np.concatenate([c, np.repeat(c[:1], e_max - len(c))]) for _, c in edges])
        self.vertices = np.stack([np.concatenate([p, np.repeat(p[:1], v_max - len(p), axis=0)]) for p in polys])

    def _depth(self, points: F) -> F:
        """(points, polygons, edges): how far outside each edge's line each point lies."""
        return np.einsum("kd,med->kme", points, self.normals) - self.offsets[None]

    def subset(self, keep: NDArray[np.bool_]) -> "ConvexSet":
        """The polygons where ``keep`` is True (no recomputation)."""
        out = ConvexSet([])
        out.polys = [p for p, k in zip(self.polys, keep) if k]
        out.count = len(out.polys)
        if out.count:
            out.normals, out.offsets, out.vertices = self.normals[keep], self.offsets[keep], self.vertices[keep]
        return out

    def inside(self, points: F, eps: float = TOUCH) -> NDArray[np.bool_]:
        """(points, polygons): the point lies in the polygon deeper than ``eps``."""
        if not self.count:
            return np.zeros((len(points), 0), dtype=bool)
        return (self._depth(points) < -eps).all(axis=2)

    def inside_any(self, points: F, eps: float = TOUCH) -> NDArray[np.bool_]:
        return self.inside(points, eps).any(axis=1)

    def clear(self, a: F, b: F, eps: float = TOUCH) -> NDArray[np.bool_]:
        """Segments ``a[k]-b[k]`` entering no polygon's interior."""
        if not self.count or not len(a):
            return np.ones(len(a), dtype=bool)
        by_edge = ((self._depth(a) >= -eps) & (self._depth(b) >= -eps)).any(axis=2)
        d = b - a
        m = np.column_stack([-d[:, 1], d[:, 0]])
        ln = np.hypot(m[:, 0], m[:, 1])
        ok = ln > 1e-12
        m[ok] /= ln[ok, None]
        side = np.einsum("mvd,kd->kmv", self.vertices, m) - np.einsum("kd,kd->k", m, a)[:, None, None]
        by_own = ok[:, None] & ((side >= -eps).all(axis=2) | (side <= eps).all(axis=2))
        return (by_edge | by_own).all(axis=1)


def shortest_path(start: ArrayLike, goal: ArrayLike, obstacles: "Sequence[ArrayLike] | ConvexSet",
                  bounds: tuple[float, float, float, float] | None = None,
                  max_length: float = math.inf) -> F | None:
    """The shortest polyline (``start`` first, ``goal`` last) that enters the interior of none of
    the convex, counter-clockwise ``obstacles`` and whose corners stay inside ``bounds``
    (xmin, ymin, xmax, ymax); None if there is none of at most ``max_length``. An obstacle holding
    ``start`` is ignored (the piece is already there); a ``goal`` inside an obstacle or out of
    bounds has no path.

    >>> wall = [[-1, 1], [2, 1], [2, 2], [-1, 2]]
    >>> shortest_path([0, 0], [0, 3], [wall]).round(3).tolist()
    [[0.0, 0.0], [-1.0, 1.0], [-1.0, 2.0], [0.0, 3.0]]
    >>> shortest_path([0, 0], [0, 3], [wall], max_length=3.0) is None
    True
    """
    s = np.asarray(start, dtype=np.float64).reshape(2)
    g = np.asarray(goal, dtype=np.float64).reshape(2)
    shapes = obstacles if isinstance(obstacles, ConvexSet) else ConvexSet(obstacles)
    shapes = shapes.subset(~shapes.inside(s[None])[0])
    polys = shapes.polys
    if shapes.inside_any(g[None])[0]:
        return None
    corners = np.concatenate(polys) if polys else np.zeros((0, 2))
    if bounds is not None:
        lo, hi = np.array(bounds[:2]), np.array(bounds[2:])
        if ((g < lo - TOUCH) | (g > hi + TOUCH)).any():
            return None
        corners = corners[((corners >= lo - TOUCH) & (corners <= hi + TOUCH)).all(axis=1)]
    corners = corners[~shapes.inside_any(corners)]
    nodes = np.concatenate([s[None], g[None], corners])
    heuristic = np.hypot(*(nodes - g).T)
    best = np.full(len(nodes), math.inf)
    best[0] = 0.0
    came = np.full(len(nodes), -1)
    done = np.zeros(len(nodes), dtype=bool)
    heap = [(heuristic[0], 0)]
    while heap:
        f, u = heapq.heappop(heap)
        if done[u]:
            continue
        if f > max_length + 1e-9:
            return None
        done[u] = True
        if u == 1:
            order = [1]
            while order[-1] != 0:
                order.append(int(came[order[-1]]))
            return nodes[order[::-1]]
        todo = np.nonzero(~done)[0]
        todo = todo[shapes.clear(np.broadcast_to(nodes[u], (len(todo), 2)), nodes[todo])]
        cost = best[u] + np.hypot(*(nodes[todo] - nodes[u]).T)
        better = cost < best[todo] - 1e-12
        for v, c in zip(todo[better], cost[better]):
            best[v] = c
            came[v] = u
            heapq.heappush(heap, (c + heuristic[v], int(v)))
    return None


def path_length(path: ArrayLike) -> float:
    p = np.asarray(path, dtype=np.float64).reshape(-1, 2)
    return float(np.hypot(*(p[1:] - p[:-1]).T).sum())


def cut_path(path: ArrayLike, length: float) -> F:
    """The first ``length`` of a polyline (the whole of it if shorter).

    >>> cut_path([[0, 0], [3, 0], [3, 4]], 5.0).tolist()
    [[0.0, 0.0], [3.0, 0.0], [3.0, 2.0]]
    """
    p = np.asarray(path, dtype=np.float64).reshape(-1, 2)
    out = [p[0]]
    left = max(length, 0.0)
    for a, b in zip(p[:-1], p[1:]):
        d = float(np.hypot(*(b - a)))
        if d >= left:
            if left > 1e-12:
                out.append(a + (b - a) * (left / d))
            break
        out.append(b)
        left -= d
    return np.array(out)


def path_entry(path: ArrayLike, poly: ArrayLike) -> float | None:
    """How far along a polyline it first enters the interior of a convex counter-clockwise
    polygon (0 if it starts inside), None if it never does.

    >>> path_entry([[0, 0], [2, 0], [2, 5]], [[1, 2], [3, 2], [3, 3], [1, 3]])
    4.0
    """
    p = np.asarray(path, dtype=np.float64).reshape(-1, 2)
    v = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    if len(v) < 3:
        return None
    n, c = _edges(v)
    done = 0.0
    for a, b in zip(p[:-1], p[1:]):
        d = b - a
        seg = float(np.hypot(*d))
        lo, hi = 0.0, 1.0                        # Cyrus-Beck clipping of a + t d against the half-planes
        for nj, cj in zip(n, c):
            num = cj - float(nj @ a)
            den = float(nj @ d)
            if abs(den) < 1e-15:
                if num < 0:
                    lo, hi = 1.0, 0.0
                    break
                continue
            t = num / den
            if den < 0:
                lo = max(lo, t)
            else:
                hi = min(hi, t)
        if hi - lo > TOUCH / max(seg, 1e-12):
            return float(done + lo * seg)
        done += seg
    return None


def nearest_point(point: ArrayLike, poly: ArrayLike) -> F:
    """The point of a polygon's area (outline included) nearest ``point`` (itself if inside).

    >>> nearest_point([5, 0.5], [[0, 0], [2, 0], [2, 2], [0, 2]]).tolist()
    [2.0, 0.5]
    """
    p = np.asarray(point, dtype=np.float64).reshape(2)
    v = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    if len(v) >= 3 and points_in_polygon(p[None], v, eps=0.0)[0]:
        return p.copy()
    a, b = (v, np.roll(v, -1, axis=0)) if len(v) >= 3 else (v[:-1], v[1:]) if len(v) > 1 else (v, v)
    d = b - a
    ll = np.einsum("ij,ij->i", d, d)
    t = np.clip(np.einsum("ij,ij->i", p - a, d) / np.where(ll > 0, ll, 1.0), 0.0, 1.0)
    q = a + d * t[:, None]
    return q[int(np.argmin(np.hypot(*(q - p).T)))]


def gap_points(polys: Sequence[ArrayLike], widest: float) -> list[tuple[float, float]]:
    """The middle of each gap between two of ``polys`` that do not touch and are at most ``widest``
    apart: the mean of the midpoints of their closest vertex-to-outline pairs (for two facing
    edges, the middle of the gap between them).

    >>> gap_points([[[0, 0], [10, 0], [10, 4], [0, 4]], [[14, 0], [30, 0], [30, 4], [14, 4]]], 6.0)
    [(12.0, 2.0)]
    """
    shapes = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in polys]
    out: list[tuple[float, float]] = []
    for i in range(len(shapes)):
        for j in range(i + 1, len(shapes)):
            pairs = [(v, nearest_point(v, shapes[j])) for v in shapes[i]]
            pairs += [(v, nearest_point(v, shapes[i])) for v in shapes[j]]
            dist = np.array([float(np.hypot(*(a - b))) for a, b in pairs])
            low = float(dist.min())
            if low <= TOUCH or low > widest:
                continue
            mids = np.array([(a + b) / 2 for (a, b), d in zip(pairs, dist) if d <= low + 1e-6])
            m = mids.mean(axis=0)
            out.append((float(m[0]), float(m[1])))
    return out
