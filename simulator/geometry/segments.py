"""Vectorised 2-D segment primitives and geometric line of sight against obstacles.

Semantics: **touching counts** (the Dragon Rage rule "crosses any part of a tower or wall").  A
segment is blocked by an obstacle when its distance to the obstacle is ``<= eps`` (default
``1e-9``), which is exactly shapely's ``dwithin(line, obstacle, eps)`` and, for non-degenerate
input, shapely's ``intersects``.  All arithmetic is float64.

Obstacles are numbered in one id space: wall segments ``0..S-1``, then polygons, then circles.

>>> obs = Obstacles(segments=[[[1, -1], [1, 1]]], polygons=[[[3, -1], [4, -1], [4, 1], [3, 1]]])
>>> blocked, who = obs.segments_blocked([[0, 0], [0, 0], [0, 5]], [[2, 0], [5, 0], [5, 5]])
>>> blocked.tolist(), who.tolist()
([True, True, False], [0, 0, -1])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "point_segment_distance",
    "segment_segment_distance",
    "segments_intersect",
    "points_in_polygon",
    "Obstacles",
]

F = NDArray[np.float64]
EPS = 1e-9
# los_matrix blocker rule: hits whose sight-line parameter t (clipped to [-2, 4]) is within
# LOS_TIE of the pair's smallest t are tied; the smallest id among them is reported.
LOS_TIE = 1e-9


def _cross(ax: F, ay: F, bx: F, by: F) -> F:
    return ax * by - ay * bx


def _point_distance(apx: F, apy: F, abx: F, aby: F) -> F:
    """Distance from points to segments given as components: ``ap`` from each segment's start
    to the point, ``ab`` along the segment (a zero ``ab`` is a point)."""
    ll = abx * abx + aby * aby
    # the quotient is only kept where ll > 0, and its divisor is never 0
    t = np.where(ll > 0, (apx * abx + apy * aby) / np.where(ll > 0, ll, 1.0), 0.0)
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    dx, dy = apx - t * abx, apy - t * aby
    return np.sqrt(dx * dx + dy * dy)


def point_segment_distance(p: ArrayLike, a: ArrayLike, b: ArrayLike) -> F:
    """Distance from points to segments ``a-b`` (broadcasting over leading axes).

    >>> float(point_segment_distance([0, 1], [-1, 0], [1, 0]))
    1.0
    """
    p, a, b = np.asarray(p, dtype=np.float64), np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return _point_distance(p[..., 0] - a[..., 0], p[..., 1] - a[..., 1], b[..., 0] - a[..., 0], b[..., 1] - a[..., 1])


def segment_segment_distance(p1: ArrayLike, p2: ArrayLike, q1: ArrayLike, q2: ArrayLike) -> F:
    """Distance between segments ``p1-p2`` and ``q1-q2`` (0 when they cross), broadcasting.

    >>> float(segment_segment_distance([0, 0], [2, 2], [0, 2], [2, 0]))
    0.0
    >>> float(segment_segment_distance([0, 0], [1, 0], [0, 1], [1, 1]))
    1.0
    """
    p1, p2 = np.asarray(p1, dtype=np.float64), np.asarray(p2, dtype=np.float64)
    q1, q2 = np.asarray(q1, dtype=np.float64), np.asarray(q2, dtype=np.float64)
    p1x, p1y, p2x, p2y = p1[..., 0], p1[..., 1], p2[..., 0], p2[..., 1]
    q1x, q1y, q2x, q2y = q1[..., 0], q1[..., 1], q2[..., 0], q2[..., 1]
    rx, ry = p2x - p1x, p2y - p1y
    sx, sy = q2x - q1x, q2y - q1y
    # each end point's offset from the other segment's start serves the orientation tests
    # and the end-to-segment distances alike
    q1px, q1py, q2px, q2py = q1x - p1x, q1y - p1y, q2x - p1x, q2y - p1y
    p1qx, p1qy, p2qx, p2qy = p1x - q1x, p1y - q1y, p2x - q1x, p2y - q1y
    o1 = _cross(rx, ry, q1px, q1py)
    o2 = _cross(rx, ry, q2px, q2py)
    o3 = _cross(sx, sy, p1qx, p1qy)
    o4 = _cross(sx, sy, p2qx, p2qy)
    proper = (o1 * o2 < 0) & (o3 * o4 < 0)
    d = np.minimum(
        np.minimum(_point_distance(q1px, q1py, rx, ry), _point_distance(q2px, q2py, rx, ry)),
        np.minimum(_point_distance(p1qx, p1qy, sx, sy), _point_distance(p2qx, p2qy, sx, sy)),
    )
    return np.where(proper, 0.0, d)


def segments_intersect(p1: ArrayLike, p2: ArrayLike, q1: ArrayLike, q2: ArrayLike,
                       eps: float = EPS) -> NDArray[np.bool_]:
    """True where the segments touch or cross (distance ``<= eps``), broadcasting.

    >>> segments_intersect([0, 0], [1, 0], [1, 0], [2, 5]).item()   # touching at an end
    True
    """
    return segment_segment_distance(p1, p2, q1, q2) <= eps


def _proj_t(p1: F, p2: F, m: F) -> F:
    """Parameter of the projection of points ``m`` on the lines ``p1 -> p2``."""
    r = p2 - p1
    ll = (r * r).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ll > 0, ((m - p1) * r).sum(-1) / np.where(ll > 0, ll, 1.0), 0.0)


def _seg_hits(p1: F, p2: F, a: F, b: F, eps: float, where: bool = True) -> tuple[NDArray[np.bool_], F]:
    """Touch-or-cross test (distance <= eps) with a cheap orientation shortcut, plus the
    position of the contact along ``p1 -> p2`` (projection of the edge midpoint; not computed,
    an empty array, with ``where=False``)."""
    rx, ry = p2[:, 0] - p1[:, 0], p2[:, 1] - p1[:, 1]
    sx, sy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    o1 = _cross(rx, ry, a[:, 0] - p1[:, 0], a[:, 1] - p1[:, 1])
    o2 = _cross(rx, ry, b[:, 0] - p1[:, 0], b[:, 1] - p1[:, 1])
    o3 = _cross(sx, sy, p1[:, 0] - a[:, 0], p1[:, 1] - a[:, 1])
    o4 = _cross(sx, sy, p2[:, 0] - a[:, 0], p2[:, 1] - a[:, 1])
    lr = np.hypot(rx, ry)
    ls = np.hypot(sx, sy)
    far12 = (o1 * o2 > 0) & (np.minimum(np.abs(o1), np.abs(o2)) > 2 * eps * lr)
    far34 = (o3 * o4 > 0) & (np.minimum(np.abs(o3), np.abs(o4)) > 2 * eps * ls)
    proper = (o1 * o2 < 0) & (o3 * o4 < 0)
    hit = proper.copy()
    und = ~(far12 | far34 | proper)
    if und.any():
        hit[und] = segment_segment_distance(p1[und], p2[und], a[und], b[und]) <= eps
    t = _proj_t(p1, p2, (a + b) * 0.5) if where else np.zeros(0)
    return hit, t


def points_in_polygon(points: ArrayLike, poly: ArrayLike, eps: float = EPS) -> NDArray[np.bool_]:
    """Points inside or within ``eps`` of a simple polygon ``(k, 2)`` (vectorised even-odd rule).

    >>> points_in_polygon([[0.5, 0.5], [2, 2], [1, 0.5]], [[0, 0], [1, 0], [1, 1], [0, 1]]).tolist()
    [True, False, True]
    """
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    v = np.asarray(poly, dtype=np.float64)
    a, b = v, np.roll(v, -1, axis=0)
    px, py = p[:, 0:1], p[:, 1:2]
    ax, ay, bx, by = a[None, :, 0], a[None, :, 1], b[None, :, 0], b[None, :, 1]
    cond = (ay > py) != (by > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = ax + (py - ay) * (bx - ax) / (by - ay)
    inside = (cond & (px < xint)).sum(axis=1) % 2 == 1
    if eps > 0:
        near = (point_segment_distance(p[:, None, :], a[None], b[None]) <= eps).any(axis=1)
        inside |= near
    return inside


def _points_in_polygons(p: F, polys: F, eps: float) -> NDArray[np.bool_]:
    """``(N, P)``: :func:`points_in_polygon` of every point for ``P`` polygons of ``k``
    vertices each (``polys (P, k, 2)``), in one vectorised pass; the same arithmetic."""
    a, b = polys, np.roll(polys, -1, axis=1)
    px, py = p[:, None, None, 0], p[:, None, None, 1]
    ax, ay, bx, by = a[None, :, :, 0], a[None, :, :, 1], b[None, :, :, 0], b[None, :, :, 1]
    cond = (ay > py) != (by > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = ax + (py - ay) * (bx - ax) / (by - ay)
    inside = (cond & (px < xint)).sum(axis=2) % 2 == 1
    if eps > 0:
        near = (point_segment_distance(p[:, None, None, :], a[None], b[None]) <= eps).any(axis=2)
        inside |= near
    return inside


def _polygon_area(v: F) -> float:
    x, y = v[:, 0], v[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


class Obstacles:
    """A set of LOS obstacles: wall segments ``(S, 2, 2)``, polygons (list of ``(k, 2)``),
    circles ``(C, 3)`` as ``(x, y, radius)``.  Ids: segments, then polygons, then circles.

    >>> Obstacles(segments=[[[0, 0], [1, 0]]], circles=[[5, 5, 1]]).n
    2
    """

    def __init__(self, segments: ArrayLike | None = None,
                 polygons: Sequence[ArrayLike] = (), circles: ArrayLike | None = None) -> None:
        seg = np.zeros((0, 2, 2)) if segments is None else np.asarray(segments, np.float64)
        self.segments: F = seg.reshape(-1, 2, 2)
        self.polygons: list[F] = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in polygons]
        circ = np.zeros((0, 3)) if circles is None else np.asarray(circles, np.float64)
        self.circles: F = circ.reshape(-1, 3)
        S, P = len(self.segments), len(self.polygons)
        self.n_segments, self.n_polygons, self.n_circles = S, P, len(self.circles)
        self.n = S + P + len(self.circles)
        # flatten walls + polygon edges into one edge list with owner ids
        edges = [self.segments]
        owner = [np.arange(S)]
        for k, poly in enumerate(self.polygons):
            edges.append(np.stack([poly, np.roll(poly, -1, axis=0)], axis=1))
            owner.append(np.full(len(poly), S + k))
        self.edges: F = np.concatenate(edges, axis=0) if edges else np.zeros((0, 2, 2))
        self.edge_owner: NDArray[np.int64] = np.concatenate(owner).astype(np.int64)
        lo = self.edges.min(axis=1)
        hi = self.edges.max(axis=1)
        c = self.circles
        self._lo: F = np.concatenate([lo, c[:, :2] - c[:, 2:3]], axis=0)
        self._hi: F = np.concatenate([hi, c[:, :2] + c[:, 2:3]], axis=0)
        self._item_owner = np.concatenate([self.edge_owner, S + P + np.arange(len(c))])
        same = P > 0 and len({len(q) for q in self.polygons}) == 1
        self._poly_stack: F | None = np.stack(self.polygons) if same else None

    def kind(self, oid: int) -> str:
        """``"segment"``, ``"polygon"`` or ``"circle"`` for an obstacle id."""
        if oid < self.n_segments:
            return "segment"
        if oid < self.n_segments + self.n_polygons:
            return "polygon"
        if oid < self.n:
            return "circle"
        raise IndexError(oid)

    # ------------------------------------------------------------------ containment
    def containing(self, points: ArrayLike, eps: float = EPS) -> NDArray[np.bool_]:
        """``(N, n)`` mask: point inside/touching polygon or circle obstacle (walls: False)."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        out = np.zeros((len(p), self.n), dtype=bool)
        S = self.n_segments
        if self._poly_stack is not None:            # all polygons alike (hex towers): one pass
            out[:, S:S + self.n_polygons] = _points_in_polygons(p, self._poly_stack, eps)
        else:
            for k, poly in enumerate(self.polygons):
                out[:, S + k] = points_in_polygon(p, poly, eps)
        if self.n_circles:
            c = self.circles
            d = np.hypot(p[:, None, 0] - c[None, :, 0], p[:, None, 1] - c[None, :, 1])
            out[:, S + self.n_polygons:] = d <= c[None, :, 2] + eps
        return out

    # ------------------------------------------------------------------ generic queries
    def _ignore_rows(self, ignore: ArrayLike | None, n: int) -> NDArray[np.bool_] | None:
        if ignore is None:
            return None
        ig = np.asarray(ignore)
        if ig.dtype != bool:  # a list of ids to ignore for every query
            m = np.zeros(self.n, dtype=bool)
            m[ig.astype(np.int64).ravel()] = True
            ig = m
        if ig.ndim == 1:
            ig = np.broadcast_to(ig, (n, self.n))
        return ig

    def segments_blocked(
        self,
        starts: ArrayLike,
        ends: ArrayLike,
        *,
        ignore: ArrayLike | None = None,
        ignore_containing: bool = False,
        eps: float = EPS,
        chunk: int = 2_000_000,
    ) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        """Which segments ``starts[i]-ends[i]`` touch an obstacle, and which one (or -1).

        ``ignore``: obstacle ids (ints), a ``(n,)`` bool mask, or a per-segment ``(N, n)`` mask.
        ``ignore_containing``: ignore polygons/circles containing either endpoint (the firer's
        own tower, a base's own circle; SAGA "may enter area terrain but not cross it").
        The blocker reported is the one met first from the start (smallest projection of the
        obstacle edge's midpoint / circle centre on the sight line; -1 inside a polygon).  Bounding boxes
        prefilter candidate pairs in chunks of about ``chunk`` pairs.
        """
        P0 = np.asarray(starts, dtype=np.float64).reshape(-1, 2)
        P1 = np.asarray(ends, dtype=np.float64).reshape(-1, 2)
        N = len(P0)
        blocked = np.zeros(N, dtype=bool)
        who = np.full(N, -1, dtype=np.int64)
        if N == 0 or self.n == 0:
            return blocked, who
        ig = self._ignore_rows(ignore, N)
        cont0 = cont1 = None
        if ignore_containing and (self.n_polygons or self.n_circles):
            cont0, cont1 = self.containing(P0, eps), self.containing(P1, eps)
        qlo, qhi = np.minimum(P0, P1) - eps, np.maximum(P0, P1) + eps
        n_items = len(self._lo)
        step = max(1, chunk // max(1, n_items))
        best = np.full(N, np.inf)
        for s in range(0, N, step):
            e = min(N, s + step)
            ov = ((qlo[s:e, None, 0] <= self._hi[None, :, 0]) & (qhi[s:e, None, 0] >= self._lo[None, :, 0])
                  & (qlo[s:e, None, 1] <= self._hi[None, :, 1]) & (qhi[s:e, None, 1] >= self._lo[None, :, 1]))
            qi, it = np.nonzero(ov)
            if len(qi) == 0:
                continue
            qi = qi + s
            oid = self._item_owner[it]
            keep = np.ones(len(qi), dtype=bool)
            if ig is not None:
                keep &= ~ig[qi, oid]
            if cont0 is not None:
                keep &= ~(cont0[qi, oid] | cont1[qi, oid])
            qi, it, oid = qi[keep], it[keep], oid[keep]
            n_e = len(self.edges)
            is_edge = it < n_e
            hit = np.zeros(len(qi), dtype=bool)
            dist0 = np.zeros(len(qi))
            if is_edge.any():
                ei = it[is_edge]
                a, b = self.edges[ei, 0], self.edges[ei, 1]
                q0, q1 = P0[qi[is_edge]], P1[qi[is_edge]]
                hit[is_edge], dist0[is_edge] = _seg_hits(q0, q1, a, b, eps)
            if (~is_edge).any():
                ci = it[~is_edge] - n_e
                c = self.circles[ci]
                q0, q1 = P0[qi[~is_edge]], P1[qi[~is_edge]]
                d = point_segment_distance(c[:, :2], q0, q1)
                hit[~is_edge] = d <= c[:, 2] + eps
                dist0[~is_edge] = _proj_t(q0, q1, c[:, :2])
            if cont0 is None and self.n_polygons:
                # a segment lying wholly inside a polygon touches no edge
                # (and a start inside a polygon is at distance 0 from it)
                pm = (oid >= self.n_segments) & (oid < self.n_segments + self.n_polygons)
                if pm.any():
                    for k in np.unique(oid[pm]):
                        sel = np.nonzero(pm & (oid == k))[0]
                        ins = points_in_polygon(P0[qi[sel]], self.polygons[k - self.n_segments], eps)
                        hit[sel[ins]] = True
                        dist0[sel[ins]] = -1.0
            qi, oid, dist0 = qi[hit], oid[hit], dist0[hit]
            if len(qi) == 0:
                continue
            order = np.lexsort((oid, dist0, qi))
            qi, oid, dist0 = qi[order], oid[order], dist0[order]
            first = np.ones(len(qi), dtype=bool)
            first[1:] = qi[1:] != qi[:-1]
            qf, of, df = qi[first], oid[first], dist0[first]
            better = (df < best[qf]) | ((df == best[qf]) & ((who[qf] < 0) | (of < who[qf])))
            best[qf[better]] = df[better]
            who[qf[better]] = of[better]
            blocked[qf] = True
        return blocked, who

    def los_from(self, viewer: ArrayLike, targets: ArrayLike, *, ignore: ArrayLike | None = None,
                 ignore_containing: bool = False, eps: float = EPS,
                 prepared: "PreparedPoints | None" = None
                 ) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        """One viewer to many targets: ``(blocked (N,), blocker (N,))``.

        Walls and polygons only, with ``ignore_containing`` (the hex maps' case): the angular
        sweep of :meth:`los_matrix` from this one viewer, so the answers and the blocker's tie
        rule are those of the matrix row. ``prepared``: :meth:`prepare` of ``targets``, kept by
        a caller that asks from many viewers to the same targets (its side-of-edge table and
        containment need not be computed again). Otherwise: :meth:`segments_blocked`."""
        t = np.asarray(targets, dtype=np.float64).reshape(-1, 2)
        ig = None if ignore is None else np.asarray(ignore)
        sweep = (ignore_containing and not self.n_circles and len(self.edges) > 0
                 and (ig is None or ig.dtype != bool or ig.ndim == 1))
        if not sweep:
            v = np.broadcast_to(np.asarray(viewer, dtype=np.float64).reshape(1, 2), t.shape)
            return self.segments_blocked(v, t, ignore=ignore, ignore_containing=ignore_containing, eps=eps)
        if prepared is None or prepared.eps != eps or not np.array_equal(prepared.points, t):
            prepared = self.prepare(t, eps)
        vp = np.asarray(viewer, dtype=np.float64).reshape(1, 2)
        X = np.concatenate([vp, t])
        v_side, v_on = self.edge_sides(vp, eps)
        owner = self.edge_owner
        if self.n_polygons:                        # the viewer's own polygon does not block
            v_side[0, self.containing(vp, eps)[0, owner]] = 2
        side = np.concatenate([v_side, prepared.side_skip])
        if ig is not None:                         # ids ignored for every pair: whole columns
            mask = np.zeros(self.n, dtype=bool)
            if ig.dtype == bool:
                mask |= ig
            else:
                mask[ig.astype(np.int64).ravel()] = True
            side[:, mask[owner]] = 2
        sides = (side, np.concatenate([v_on, prepared.on_edge]))
        n_t = len(t)
        found: list[tuple[NDArray[np.int64], F, NDArray[np.int64]]] = []

        def push(vi: NDArray[np.int64], tj: NDArray[np.int64], tt: F, t_rev: F,
                 oid: NDArray[np.int64]) -> None:
            found.append((np.asarray(tj, dtype=np.int64) - 1, np.clip(tt, -2.0, 4.0), oid))

        self._los_edges(X, None, None, eps, 1, push, viewers=np.zeros(1, dtype=np.int64), sides=sides)
        blocked = np.zeros(n_t, dtype=bool)
        who = np.full(n_t, -1, dtype=np.int64)
        if not found:
            return blocked, who
        tj = np.concatenate([f[0] for f in found])
        tt = np.concatenate([f[1] for f in found])
        od = np.concatenate([f[2] for f in found])
        # first blocker, as los_matrix: the smallest id within LOS_TIE of the smallest t
        tmin = np.full(n_t, np.inf)
        np.minimum.at(tmin, tj, tt)
        tied = tt <= tmin[tj] + LOS_TIE
        best = np.full(n_t, self.n, dtype=np.int64)
        np.minimum.at(best, tj[tied], od[tied])
        blocked = best < self.n
        return blocked, np.where(blocked, best, -1)

    def prepare(self, points: ArrayLike, eps: float = EPS) -> "PreparedPoints":
        """What :meth:`los_from` computes about its targets, to keep for the next viewer."""
        X = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        side, on_edge = self.edge_sides(X, eps)
        if self.n_polygons:                        # a target's own polygon does not block
            side[self.containing(X, eps)[:, self.edge_owner]] = 2
        return PreparedPoints(X.copy(), eps, side, on_edge)

    # ------------------------------------------------------------------ all pairs
    def los_matrix(
        self,
        points: ArrayLike,
        *,
        ignore_containing: bool = True,
        ignore: ArrayLike | None = None,
        eps: float = EPS,
        viewer_chunk: int = 64,
    ) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        """All-pairs LOS between ``points`` ``(N, 2)``: ``(blocked (N, N), blocker (N, N))``.

        Each unordered pair is computed once (LOS is symmetric): viewer ``i`` takes the targets
        ``(i + k) mod N`` for ``k = 1..N//2``.  Angular sweep: for each viewer the targets are
        sorted by bearing, each wall/polygon edge's bearing interval selects candidate targets
        with ``searchsorted``.  Targets strictly inside the interval (by an angular margin) are
        decided by the precomputed side of the edge's line they lie on (blocked iff the viewer is
        on the other side); targets near the interval's ends or near the edge's line get the
        exact touch-or-cross test.  Circles use the bounding-box path.
        ``blocker[i, j]`` is the obstacle met first going from ``i`` to ``j``.  Tie rule (the
        order of :meth:`segments_blocked`, with an explicit tolerance):

        * each blocking obstacle ``k`` is placed at ``t_k``, the parameter along ``i -> j`` of
          the projection of its edge midpoint (a polygon: the smallest over its blocking edges;
          a circle: its centre), ``(m - X_i) . (X_j - X_i) / |X_j - X_i|**2``, ``0`` if
          ``X_i == X_j``, clipped to ``[-2, 4]``.  A zero-length wall is its point, so one at
          the viewer has ``t = 0`` and one at the target ``t = 1``; an obstacle touching the
          viewer gets no special case (a wall through the viewer is placed by its midpoint).
          With ``ignore_containing=False`` a polygon containing the viewer has ``t = -1`` and
          one containing the target (not the viewer) ``min(2, t of its blocking edges)``;
        * with ``t_min`` the smallest ``t_k`` of the pair, the obstacles with
          ``t_k <= t_min + LOS_TIE`` (``1e-9``) are tied and the smallest id among them is
          reported, in both directions.  E.g. a wall touching the viewer almost perpendicularly
          to the sight line (midpoint at ``t = 1e-10``) ties with a zero-length wall at the
          viewer (``t = 0``), and the pair also ties seen from the target (``t = 1 - 1e-10``
          and ``1``).  The tolerance is on ``t`` (a fraction of the sight line's length), so
          rounding of ``t`` can only matter for gaps within rounding of ``LOS_TIE`` itself.

        ``ignore``: ids ignored for every pair or a per-viewer ``(N, n)`` mask (applied to both
        ends of a pair).  The diagonal is clear.

        >>> obs = Obstacles(segments=[[[1, -1], [1, 1]], [[2, -1], [2, 1]]])
        >>> bl, who = obs.los_matrix([[0, 0], [3, 0], [1.5, 0]])
        >>> bl.astype(int).tolist(), who.tolist()
        ([[0, 1, 1], [1, 0, 1], [1, 1, 0]], [[-1, 0, 0], [1, -1, 1], [0, 1, -1]])
        """
        X = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        N = len(X)
        blocked = np.zeros((N, N), dtype=bool)
        who = np.full((N, N), -1, dtype=np.int64)
        if N < 2 or self.n == 0:
            return blocked, who
        ig = self._ignore_rows(ignore, N)
        cont = self.containing(X, eps) if (self.n_polygons or self.n_circles) else None
        n_obs = self.n
        # every hit of an ordered pair: (a * N + b, t along a -> b, obstacle id)
        hit_pair: list[NDArray[np.int64]] = []
        hit_t: list[F] = []
        hit_id: list[NDArray[np.int64]] = []

        def push(vi: NDArray[np.int64], tj: NDArray[np.int64], t: F, t_rev: F,
                 oid: NDArray[np.int64]) -> None:
            """Record hits of obstacles ``oid`` at parameter ``t`` along ``vi -> tj`` and
            ``t_rev`` along ``tj -> vi`` (``1 - t`` unless the sight line has length 0)."""
            for a, b, tt in ((vi, tj, t), (tj, vi, t_rev)):
                hit_pair.append(np.asarray(a, dtype=np.int64) * N + b)
                hit_t.append(np.clip(np.asarray(tt, dtype=np.float64), -2.0, 4.0))
                hit_id.append(np.asarray(oid, dtype=np.int64))

        if len(self.edges):
            self._los_edges(X, ig, cont if ignore_containing else None, eps, viewer_chunk, push)
        iu, ju = np.triu_indices(N, 1)
        if cont is not None and not ignore_containing and self.n_polygons:
            S = self.n_segments
            for k in range(self.n_polygons):
                ci, cj = cont[iu, S + k], cont[ju, S + k]
                m = ci | cj
                if ig is not None:
                    m &= ~(ig[iu, S + k] | ig[ju, S + k])
                # inside at the i end -> met first (t=-1); only at the j end -> t=2
                push(iu[m], ju[m], np.where(ci[m], -1.0, 2.0), np.where(cj[m], -1.0, 2.0),
                     np.full(int(m.sum()), S + k, dtype=np.int64))
        if self.n_circles:
            C0 = self.n_segments + self.n_polygons
            sub = Obstacles(circles=self.circles)
            cig = None
            if ig is not None:
                cig = (ig[iu] | ig[ju])[:, C0:]
            b2, _ = sub.segments_blocked(X[iu], X[ju], ignore=cig,
                                         ignore_containing=ignore_containing, eps=eps)
            # all circles hit, to know the first from either end
            for c in range(self.n_circles):
                sel = b2.copy()
                if not sel.any():
                    break
                cc = self.circles[c]
                d = point_segment_distance(cc[None, :2], X[iu[sel]], X[ju[sel]])
                h = d <= cc[2] + eps
                if ignore_containing:
                    assert cont is not None
                    h &= ~(cont[iu[sel], C0 + c] | cont[ju[sel], C0 + c])
                if cig is not None:
                    h &= ~cig[sel, c]
                pi = np.nonzero(sel)[0][h]
                t = _proj_t(X[iu[pi]], X[ju[pi]], np.broadcast_to(cc[:2], (len(pi), 2)))
                same = (X[iu[pi]] == X[ju[pi]]).all(axis=1)
                push(iu[pi], ju[pi], t, np.where(same, t, 1.0 - t),
                     np.full(len(pi), C0 + c, dtype=np.int64))
        if not hit_pair:
            return blocked, who
        pr = np.concatenate(hit_pair)
        tt = np.concatenate(hit_t)
        od = np.concatenate(hit_id)
        # first blocker: smallest id among the hits within LOS_TIE of the pair's smallest t
        tmin = np.full(N * N, np.inf)
        np.minimum.at(tmin, pr, tt)
        tied = tt <= tmin[pr] + LOS_TIE
        best = np.full(N * N, n_obs, dtype=np.int64)
        np.minimum.at(best, pr[tied], od[tied])
        hit = best < n_obs
        blocked = hit.reshape(N, N)
        who = np.where(hit, best, -1).reshape(N, N)
        return blocked, who

    def edge_sides(self, X: F, eps: float = EPS) -> tuple[NDArray[np.int8], NDArray[np.bool_]]:
        """For points ``X (N, 2)`` and every wall/polygon edge: the side of the edge's line
        (``+1``/``-1`` clearly, more than ``2 eps`` away; ``0`` too close to decide by sign) and
        whether the point is (almost) on the edge. They depend on the points and the obstacles
        only: a caller asking again for the same points (every hex of a map) may keep them."""
        E = self.edges
        ax_, ay_, bx_, by_ = E[:, 0, 0], E[:, 0, 1], E[:, 1, 0], E[:, 1, 1]
        o = _cross(bx_ - ax_, by_ - ay_, X[:, None, 0] - ax_, X[:, None, 1] - ay_)  # (N, n_e)
        length = np.hypot(bx_ - ax_, by_ - ay_)
        tol = 2.0 * eps * length
        side = np.where(o > tol, 1, np.where(o < -tol, -1, 0)).astype(np.int8)
        on_edge = np.abs(o) <= 4.0 * eps * length
        pi, pe = np.nonzero(on_edge)
        on_edge[pi, pe] = point_segment_distance(X[pi], E[pe, 0], E[pe, 1]) <= 4.0 * eps
        return side, on_edge

    def _los_edges(self, X: F, ig: NDArray[np.bool_] | None, cont: NDArray[np.bool_] | None,
                   eps: float, viewer_chunk: int,
                   push: Callable[[NDArray[np.int64], NDArray[np.int64], F, F, NDArray[np.int64]], None],
                   viewers: NDArray[np.int64] | None = None,
                   sides: tuple[NDArray[np.int8], NDArray[np.bool_]] | None = None) -> None:
        """Angular sweep of :meth:`los_matrix` over the wall and polygon edges.

        ``cont``: ``(N, n)`` containment mask whose obstacles are ignored for pairs with a
        contained end (None: ignore nothing for containment). ``viewers``: only these viewers,
        each to every other point (:meth:`los_from`); None: every unordered pair once.
        ``sides``: :meth:`edge_sides` of ``X`` when the caller has them.
        """
        N = len(X)
        E = self.edges
        n_e = len(E)
        owner = self.edge_owner
        TWO_PI = 2.0 * np.pi
        ax_, ay_, bx_, by_ = E[:, 0, 0], E[:, 0, 1], E[:, 1, 0], E[:, 1, 1]
        # side of each edge's line for every point: +1/-1 clearly (> 2 eps away), 0 too close
        # to decide by sign, 2 = obstacle ignored for this point (containment / ignore mask).
        side, on_edge = sides if sides is not None else self.edge_sides(X, eps)
        skip = np.zeros((N, n_e), dtype=bool)
        if ig is not None:
            skip |= ig[:, owner]
        if cont is not None:
            skip |= cont[:, owner]
        if skip.any():
            side = side.copy()
            side[skip] = 2
        side_flat = side.ravel()
        mx, my = (ax_ + bx_) * 0.5, (ay_ + by_) * 0.5
        xs, ys = X[:, 0].copy(), X[:, 1].copy()
        # viewer i takes targets (i + k) % N, k = 1..W: every pair once (or twice); or, for
        # chosen viewers, every other point
        W = N // 2 if viewers is None else N - 1
        ks = np.arange(1, W + 1)
        e_idx = np.arange(n_e)
        all_viewers = np.arange(N) if viewers is None else np.asarray(viewers, dtype=np.int64)
        for c0 in range(0, len(all_viewers), viewer_chunk):
            vid = all_viewers[c0:c0 + viewer_chunk]
            nv = len(vid)
            T = (vid[:, None] + ks[None, :]) % N  # (nv, W)
            ang = np.mod(np.arctan2(ys[T] - ys[vid, None], xs[T] - xs[vid, None]), TWO_PI)
            ang[ang >= TWO_PI] = 0.0
            srt = np.argsort(ang, axis=1)
            sang = np.take_along_axis(ang, srt, axis=1)
            stgt = np.take_along_axis(T, srt, axis=1)
            rows16 = np.arange(nv)[:, None] * 16.0
            # bearings doubled (+2 pi) so that no edge interval wraps; row stride 16 > 4 pi
            skey = (rows16 + np.concatenate([sang, sang + TWO_PI], axis=1)).ravel()
            s_tgt = np.concatenate([stgt, stgt], axis=1).ravel()
            Vx, Vy = xs[vid, None], ys[vid, None]
            pax, pay, pbx, pby = ax_[None] - Vx, ay_[None] - Vy, bx_[None] - Vx, by_[None] - Vy
            ta = np.mod(np.arctan2(pay, pax), TWO_PI)
            tb = np.mod(np.arctan2(pby, pbx), TWO_PI)
            span = np.mod(tb - ta, TWO_PI)
            lo = np.where(span > np.pi, tb, ta)
            span = np.where(span > np.pi, TWO_PI - span, span)
            dmin = np.sqrt(np.minimum(pax * pax + pay * pay, pbx * pbx + pby * pby))
            delta = np.arcsin(np.clip(eps * 4 / np.maximum(dmin, 1e-300), 0, 1)) + 1e-12
            full = on_edge[vid]
            lo = np.where(lo - delta < 0.0, lo + TWO_PI, lo)
            hi = lo + span
            sv = side[vid]  # (nv, n_e) viewer side codes
            # [a0, a1) and [b0, b1): near the interval ends -> exact test; [a1, b0): by sides
            a0 = np.searchsorted(skey, (rows16 + lo - delta).ravel(), "left")
            a1 = _search_on(skey, a0, (rows16 + lo + delta).ravel())
            b0 = np.searchsorted(skey, (rows16 + hi - delta).ravel(), "left")
            b1 = _search_on(skey, b0, (rows16 + hi + delta).ravel())
            full_f = full.ravel()
            if full_f.any():  # all W targets once: [row start, row start + W)
                rs = np.repeat(np.arange(nv) * (2 * W), n_e)
                a0 = np.where(full_f, rs, a0)
                b1 = np.where(full_f, rs + W, b1)
            sv_f = sv.ravel()
            interior = (a1 < b0) & ~full_f & ((sv_f == 1) | (sv_f == -1))
            a1 = np.where(interior, a1, b1)  # no interior: the whole range [a0, b1) is exact
            b0 = np.where(interior, b0, b1)
            dead = sv_f == 2
            row_e = np.repeat(vid, n_e)
            col_e = np.tile(e_idx, nv)
            # interior candidates: blocked iff the target is on the other side of the edge line
            vi, tj, ei = _expand(a1, np.where(dead, a1, b0), row_e, col_e, s_tgt)
            code = side_flat[tj * n_e + ei]
            want = -side_flat[vi * n_e + ei]
            hit = code == want
            und = code == 0
            # exact test for the ends of intervals and undecided sides
            vb, tb_, eb = (np.concatenate(z) for z in zip(
                _expand(a0, np.where(dead, a0, a1), row_e, col_e, s_tgt),
                _expand(b0, np.where(dead, b0, b1), row_e, col_e, s_tgt),
                (vi[und], tj[und], ei[und])))
            # a target clearly on the viewer's side of the edge's line cannot reach the edge:
            # the exact test would say so too (its ``far34`` is these same two side codes)
            code_b = side_flat[tb_ * n_e + eb]
            code_v = side_flat[vb * n_e + eb]
            ok = (code_b != 2) & ((code_b != code_v) | (code_v == 0))
            vb, tb_, eb = vb[ok], tb_[ok], eb[ok]
            hb, _ = _seg_hits(X[vb], X[tb_], E[eb, 0], E[eb, 1], eps, where=False)
            vi = np.concatenate([vi[hit], vb[hb]])
            tj = np.concatenate([tj[hit], tb_[hb]])
            ei = np.concatenate([ei[hit], eb[hb]])
            rx, ry = xs[tj] - xs[vi], ys[tj] - ys[vi]
            ll = rx * rx + ry * ry
            with np.errstate(invalid="ignore", divide="ignore"):
                t = ((mx[ei] - xs[vi]) * rx + (my[ei] - ys[vi]) * ry) / ll
            t[ll == 0] = 0.0
            push(vi, tj, t, np.where(ll == 0, 0.0, 1.0 - t), owner[ei])


@dataclass(frozen=True)
class PreparedPoints:
    """Targets of :meth:`Obstacles.los_from` with their side of every edge's line (``2`` for
    the edges of a polygon containing the target, which it ignores) and whether they lie on an
    edge (:meth:`Obstacles.prepare`)."""

    points: F
    eps: float
    side_skip: NDArray[np.int8]
    on_edge: NDArray[np.bool_]


def _search_on(keys: F, start: NDArray[np.int64], queries: F) -> NDArray[np.int64]:
    """``np.searchsorted(keys, queries, "right")`` for queries known to lie at or just after
    ``keys[start]`` (an interval end plus its tiny angular margin): step over the few keys
    ``<= query`` from ``start`` instead of a binary search over all of them."""
    out = start.copy()
    n = len(keys)
    live = np.nonzero(out < n)[0]
    while len(live):
        step = keys[out[live]] <= queries[live]
        live = live[step]
        out[live] += 1
        live = live[out[live] < n]
    return out


def _expand(start: NDArray[np.int64], stop: NDArray[np.int64], row: NDArray[np.int64],
            col: NDArray[np.int64], items: NDArray[np.int64]
            ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Concatenate the ranges ``items[start[k]:stop[k]]``: ``(row, items, col)`` per element."""
    cnt = np.maximum(stop - start, 0)
    tot = int(cnt.sum())
    pos = np.arange(tot) + np.repeat(start - (np.cumsum(cnt) - cnt), cnt)
    return np.repeat(row, cnt), items[pos], np.repeat(col, cnt)
