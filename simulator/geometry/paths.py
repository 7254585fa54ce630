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
           "path_entry", "nearest_point", "gap_points", "inside_convex", "ConvexSet", "PathSearch"]

F = NDArray[np.float64]
Edges = NDArray[np.bool_] | NDArray[np.uint64]   # ConvexSet.outside_edges: booleans, or bits of one integer
TOUCH = 1e-7          # distance within which a segment only touches an obstacle's outline

#: The speed-ups (issue #24): grown obstacles remembered by their inputs, each node's depth
#: outside the obstacles' edges computed once per search. Off: the reference code path, kept for
#: the benchmark (bench/bench_saga_legal.py) and the test that both give the same answers.
SHORTCUTS = True
_GROWN: dict[tuple[bytes, bytes, float, int], F] = {}
_GROWN_MAX = 4096      # remembered obstacles (a few hundred per table position; cleared when full)


def remembered() -> dict[tuple[bytes, bytes, float, int], F]:
    """A copy of the remembered grown obstacles (for :func:`clear_caches`)."""
    return dict(_GROWN)


def clear_caches(keep: dict[tuple[bytes, bytes, float, int], F] | None = None) -> None:
    """Forget the remembered grown obstacles but ``keep`` (to time the work they save)."""
    _GROWN.clear()
    _GROWN.update(keep or {})


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
    if not SHORTCUTS:
        return _grown(p, off, radius, sides)
    # the same terrain grown by the same formation recurs across a unit's worlds and moves:
    # the hulls (pure Python) are the cost, so a result is remembered, read-only, by its inputs
    key = (p.tobytes(), off.tobytes(), float(radius), sides)
    hit = _GROWN.get(key)
    if hit is None:
        if len(_GROWN) >= _GROWN_MAX:
            _GROWN.clear()
        hit = _GROWN[key] = _grown(p, off, radius, sides)
        hit.flags.writeable = False
    return hit


def _grown(p: F, off: F, radius: float, sides: int) -> F:
    """:func:`configuration_obstacle`, computed."""
    p = convex_hull(p) if len(p) > 2 else p
    off = convex_hull(off) if len(off) > 2 else off
    grown = _sum_candidates(p, -off, p[:, None, :] - off[None, :, :])
    grown = convex_hull(grown) if len(grown) > 2 else grown
    if radius > 0:
        a = np.linspace(0.0, 2 * math.pi, sides, endpoint=False) + math.pi / sides
        ring = np.column_stack([np.cos(a), np.sin(a)]) * (radius / math.cos(math.pi / sides))
        grown = _sum_candidates(grown, ring, grown[:, None, :] + ring[None, :, :])
    return convex_hull(grown)


def _cones(poly: F) -> tuple[F, F]:
    """Each vertex's normal cone of a convex counter-clockwise polygon (no repeated points): its
    start angle (the outward normal of the edge before it) and width, in radians."""
    e = np.concatenate([poly[1:], poly[:1]]) - poly
    normal = np.arctan2(-e[:, 0], e[:, 1])             # of the edge from vertex k to k + 1
    start = np.concatenate([normal[-1:], normal[:-1]])
    return start, (normal - start) % (2 * math.pi)


def _sum_candidates(a: F, b: F, sums: F) -> F:
    """The points ``sums[i, j]`` (= a[i] + b[j]) that may be corners of the Minkowski sum of the
    convex counter-clockwise polygons ``a`` and ``b``: those whose vertices' normal cones meet
    (with a margin, so that no corner is lost); all of them, flattened, when the shortcuts are off
    or either is no polygon. The hull of the kept points is the hull of all of them."""
    if not SHORTCUTS or len(a) < 3 or len(b) < 3:
        return sums.reshape(-1, 2)
    (sa, wa), (sb, wb) = _cones(a), _cones(b)
    gap = (sb[None, :] - sa[:, None]) % (2 * math.pi)  # from a cone's start to b's, counter-clockwise
    slack = 1e-6
    meet = (gap <= wa[:, None] + slack) | (2 * math.pi - gap <= wb[None, :] + slack)
    return sums[meet]


def _edges(poly: F) -> tuple[F, F]:
    """Outward unit normals of a counter-clockwise convex polygon's edges and their offsets."""
    e = (np.concatenate([poly[1:], poly[:1]]) if SHORTCUTS else np.roll(poly, -1, axis=0)) - poly
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

    def outside_edges(self, points: F, eps: float = TOUCH) -> "Edges":
        """For :meth:`clear_from_each`: of each point and polygon, the edges whose line the point
        lies on or outside (within ``eps``): as bits of one integer (up to 64 edges), else
        (points, polygons, edges) booleans."""
        if not self.count:
            return np.zeros((len(points), 0), dtype=np.uint64)
        out = self._depth(points) >= -eps
        if out.shape[2] > 64:
            return out
        return (out.astype(np.uint64) << np.arange(out.shape[2], dtype=np.uint64)).sum(axis=2, dtype=np.uint64)

    @staticmethod
    def _apart(a: "Edges", b: "Edges") -> NDArray[np.bool_]:
        """Whether some edge's line has both points (of :meth:`outside_edges`) outside it."""
        both = a & b
        return both != 0 if both.dtype == np.uint64 else both.any(axis=-1)

    def clear_from_each(self, points: F, u: int, todo: NDArray[np.intp], outside: "Edges",
                        eps: float = TOUCH) -> NDArray[np.bool_]:
        """(todo, polygons): whether the segment from ``points[u]`` to each ``points[todo]``
        enters the polygon's interior (:meth:`clear`'s tests, polygon by polygon), given
        :meth:`outside_edges` of ``points``: the points' depths computed once for a whole
        search, the segment's own axis tried only where no edge separates."""
        if not self.count or not len(todo):
            return np.ones((len(todo), self.count), dtype=bool)
        ok = self._apart(outside[u][None], outside[todo])
        k, m = np.nonzero(~ok)
        if not len(k):
            return ok
        a = points[u]
        d = points[todo[k]] - a
        n = np.column_stack([-d[:, 1], d[:, 0]])
        ln = np.hypot(n[:, 0], n[:, 1])
        long = ln > 1e-12
        n[long] /= ln[long, None]
        at = np.einsum("pd,pd->p", n, np.broadcast_to(a, n.shape))
        side = np.einsum("pvd,pd->pv", self.vertices[m], n) - at[:, None]
        ok[k, m] = long & ((side >= -eps).all(axis=1) | (side <= eps).all(axis=1))
        return ok

    def clear_to_each(self, points: F, outside: "Edges", goal: F, eps: float = TOUCH) -> NDArray[np.bool_]:
        """(points, polygons): :meth:`clear` of the segments from each of ``points`` to ``goal``,
        polygon by polygon, given :meth:`outside_edges` of ``points`` (as :meth:`clear_from_each`)."""
        if not self.count or not len(points):
            return np.ones((len(points), self.count), dtype=bool)
        ok = self._apart(outside, self.outside_edges(goal[None], eps))
        k, m = np.nonzero(~ok)
        if not len(k):
            return ok
        a = points[k]
        d = goal - a
        n = np.column_stack([-d[:, 1], d[:, 0]])
        ln = np.hypot(n[:, 0], n[:, 1])
        long = ln > 1e-12
        n[long] /= ln[long, None]
        side = np.einsum("pvd,pd->pv", self.vertices[m], n) - np.einsum("pd,pd->p", n, a)[:, None]
        ok[k, m] = long & ((side >= -eps).all(axis=1) | (side <= eps).all(axis=1))
        return ok

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


class PathSearch:
    """:func:`shortest_path` from one ``start`` among the same obstacles and bounds toward several
    goals (a unit's moves toward each of its goals), each search free to leave out some of the
    obstacles (those holding its goal): what each point sees past each obstacle, once found,
    serves every later search, and so does a search that found no path (it saw all it could
    reach). The same A* over the same nodes in the same order as :func:`shortest_path`'s
    reference code: the same paths, to the last bit."""

    def __init__(self, start: ArrayLike, obstacles: "Sequence[ArrayLike] | ConvexSet",
                 bounds: tuple[float, float, float, float] | None = None) -> None:
        self.start = np.asarray(start, dtype=np.float64).reshape(2)
        self.shapes = obstacles if isinstance(obstacles, ConvexSet) else ConvexSet(obstacles)
        self.holding = self.shapes.inside(self.start[None])[0]      # ignored: the piece is already there
        self.bounds = bounds
        self.ready = False

    def _prepare(self) -> None:
        """The corners and what is known of them, at the first search that looks past its start."""
        self.ready = True
        bounds = self.bounds
        polys = self.shapes.polys
        corners = np.concatenate(polys) if polys else np.zeros((0, 2))
        self.owner = np.repeat(np.arange(len(polys)), [len(p) for p in polys])
        self.in_bounds = np.ones(len(corners), dtype=bool)
        if bounds is not None:
            lo, hi = np.array(bounds[:2]), np.array(bounds[2:])
            self.in_bounds = ((corners >= lo - TOUCH) & (corners <= hi + TOUCH)).all(axis=1)
        self.corners = corners
        self.buried = self.shapes.inside(corners)                   # (corners, polygons)
        self.points = np.concatenate([self.start[None], corners])   # the nodes but the goal, of any search
        self.outside = self.shapes.outside_edges(self.points)
        n = len(self.points)
        self.known = np.zeros((n, n), dtype=bool)                   # segments already tested...
        self.clear = np.zeros((n, n, self.shapes.count), dtype=bool)  # ...and clear of each polygon
        self.reachable: dict[bytes, NDArray[np.intp]] = {}          # by the polygons kept: what the start reaches

    def _sees(self, k: int, others: NDArray[np.intp], keep: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Whether the segments from point ``k`` to each of the points ``others`` are clear of
        the polygons ``keep``; each segment tested once for all searches."""
        new = others[~self.known[k, others]]
        if len(new):
            self.clear[k, new] = self.shapes.clear_from_each(self.points, k, new, self.outside)
            self.known[k, new] = True
        return self.clear[k, others][:, keep].all(axis=1)

    def path(self, goal: ArrayLike, max_length: float = math.inf,
             leave_out: NDArray[np.bool_] | None = None) -> F | None:
        """The shortest path to ``goal`` (:func:`shortest_path`) among the obstacles but those
        where ``leave_out`` is True."""
        g = np.asarray(goal, dtype=np.float64).reshape(2)
        keep = ~self.holding if leave_out is None else ~self.holding & ~leave_out
        if self.shapes.count and self.shapes.inside(g[None])[0][keep].any():
            return None
        if self.bounds is not None:
            lo, hi = np.array(self.bounds[:2]), np.array(self.bounds[2:])
            if ((g < lo - TOUCH) | (g > hi + TOUCH)).any():
                return None
        if float(np.hypot(*(self.start - g))) > max_length + 1e-9:
            return None                    # A*'s first step: even as the crow flies it is too far
        if not self.ready:
            self._prepare()
        # the reference's corners: the kept polygons' (in order) in bounds and in none of them
        chosen = keep[self.owner] & self.in_bounds & ~self.buried[:, keep].any(axis=1) if len(self.corners) \
            else np.zeros(0, dtype=bool)
        mine = np.concatenate([[0], 1 + np.nonzero(chosen)[0]])     # the points of this search
        # node 0 the start, 1 the goal, 2... the chosen corners (point mine[k] is node k or k + 1)
        nodes = np.concatenate([self.start[None], g[None], self.points[mine[1:]]])
        point = np.concatenate([[0, -1], np.arange(1, len(mine))])
        to_goal = self.shapes.clear_to_each(self.points[mine], self.outside[mine], g)[:, keep].all(axis=1)
        key = keep.tobytes()
        reach = self.reachable.get(key)
        if reach is not None and not to_goal[reach].any():
            return None                    # A* would expand every reachable point and find no way
        heuristic = np.hypot(*(nodes - g).T)
        bounded = max_length < math.inf
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
            # only the nodes this step would improve (and, under a finite length, could still
            # reach the goal in it: the rest would never be taken) need their sight tested
            todo = np.nonzero(~done)[0]
            cost = best[u] + np.hypot(*(nodes[todo] - nodes[u]).T)
            better = cost < best[todo] - 1e-12
            if bounded:
                better &= cost + heuristic[todo] <= max_length + 1e-9
            todo, cost = todo[better], cost[better]
            k = int(point[u])
            at_goal = todo == 1
            sight = np.empty(len(todo), dtype=bool)
            sight[at_goal] = to_goal[k]
            sight[~at_goal] = self._sees(int(mine[k]), mine[point[todo[~at_goal]]], keep)
            for v, c in zip(todo[sight], cost[sight]):
                best[v] = c
                came[v] = u
                heapq.heappush(heap, (c + heuristic[v], int(v)))
        if not bounded:       # the heap ran dry: every point the start reaches was expanded, none seeing the goal
            self.reachable[key] = point[np.nonzero(done)[0]]
        return None


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
    if SHORTCUTS:
        return PathSearch(start, obstacles, bounds).path(goal, max_length)
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
