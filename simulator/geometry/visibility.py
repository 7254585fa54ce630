"""Exact visibility from a segment (a tray's front edge) to a polygon among convex blockers.

Question: is there a straight segment from some point of the source segment ``a-b`` to some point
of the target polygon that keeps at least ``clearance`` away from every blocker?  With
``clearance = 0`` a line may touch blockers (graze a corner, run along an edge) but not enter
them; with ``clearance > 0`` touching blocks too, and two blockers closer than ``2 * clearance``
leave no gap to see through.  Each blocker is grown by ``clearance`` (its edges pushed outwards,
mitred corners) and a line is blocked when it goes into a grown blocker (deeper than ``EPS``).

Method (exact, not sampled): if a clear segment exists, one exists whose supporting line passes
through two *critical points*: the source's endpoints, the target's vertices, the grown blockers'
vertices, and the points where a grown blocker's edge crosses the source segment or a target edge
(slide a clear segment sideways until it touches one critical point, then turn it about that point
until it touches a second; it stays clear throughout because touching a grown blocker is allowed).
So the candidates are the lines through every pair of critical points, each clipped to run from
where it crosses the source to the nearest point where it reaches the target, and all of them are
tested against all blocker edges at once (numpy).  Only blockers reaching into the convex hull of
source and target can matter, and only critical points inside that hull, so both are pruned first.

>>> wall = [[[-1, 1], [4, 1], [4, 3], [-1, 3]], [[4.5, 1], [7, 1], [7, 3], [4.5, 3]]]
>>> w = segment_to_polygon_visible([0, 0], [6, 0], [[0, 5], [6, 5], [6, 6], [0, 6]], wall)
>>> w is not None and not segments_blocked(w[:1], w[1:], wall).any()   # through the 0.5" gap
True
>>> segment_to_polygon_visible([0, 0], [6, 0], [[3, 5], [4, 5], [4, 6], [3, 6]],
...                            [[[-1, 2], [8, 2], [8, 3], [-1, 3]]]) is None
True
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .segments import points_in_polygon
from .table import convex_hull, overlap_depth

__all__ = ["segment_to_polygon_visible", "blockers_between", "segments_blocked"]

F = NDArray[np.float64]
#: How far (inches) a line may go into a grown blocker and still count as touching it (rounding).
EPS = 1e-9
_CHUNK = 2_000_000          # candidate segments x blocker edges tested per numpy batch


def _as_poly(p: ArrayLike) -> F:
    return np.asarray(p, dtype=np.float64).reshape(-1, 2)


def blockers_between(src_a: ArrayLike, src_b: ArrayLike, target: ArrayLike,
                     blockers: Sequence[ArrayLike], depth: float = 0.0) -> list[int]:
    """Indices of the blockers that reach more than ``depth`` into the convex hull of the source
    segment and the target (a negative ``depth``: that come within ``-depth`` of it): the only ones
    a sight line between them can meet.

    >>> blockers_between([0, 0], [2, 0], [[0, 4], [2, 4], [2, 5], [0, 5]],
    ...                  [[[0, 2], [1, 2], [1, 3], [0, 3]], [[5, 2], [6, 2], [6, 3], [5, 3]]])
    [0]
    """
    hull = convex_hull(np.concatenate([_as_poly([src_a, src_b]), _as_poly(target)]))
    lo, hi = hull.min(axis=0), hull.max(axis=0)
    out = []
    for i, b in enumerate(blockers):
        poly = _as_poly(b)
        if np.any(poly.min(axis=0) > hi - depth) or np.any(poly.max(axis=0) < lo + depth):
            continue
        if overlap_depth(poly, hull) > depth:
            out.append(i)
    return out


class _Grown:
    """Convex blockers grown by ``clearance``: inward unit normals ``n`` and offsets ``c`` of every
    edge (a point is inside iff ``n @ x >= c`` for all the blocker's edges), the start index of each
    blocker's edges, the blockers kept (those with an interior) and their grown vertices."""

    def __init__(self, polys: list[F], clearance: float) -> None:
        normals: list[F] = []
        offsets: list[F] = []
        verts: list[F] = []
        starts: list[int] = []
        self.kept: list[int] = []
        count = 0
        for i, v in enumerate(polys):
            e = np.roll(v, -1, axis=0) - v
            area2 = float(np.sum(v[:, 0] * np.roll(v[:, 1], -1) - v[:, 1] * np.roll(v[:, 0], -1)))
            ln = np.hypot(e[:, 0], e[:, 1])
            ok = ln > 1e-12
            if abs(area2) <= 1e-12 or ok.sum() < 3:
                continue
            n = np.stack([-e[ok, 1], e[ok, 0]], axis=1) / ln[ok, None] * np.sign(area2)
            corner = v[ok]                   # the start of each kept edge: between it and the previous
            prev = np.roll(n, 1, axis=0)
            verts.append(corner - clearance * (n + prev) / (1.0 + np.einsum("ij,ij->i", n, prev))[:, None])
            normals.append(n)
            offsets.append(np.einsum("ij,ij->i", n, corner) - clearance)
            starts.append(count)
            self.kept.append(i)
            count += len(n)
        self.count = len(polys)
        self.n = np.concatenate(normals) if normals else np.zeros((0, 2))
        self.c = np.concatenate(offsets) if offsets else np.zeros(0)
        self.starts = np.array(starts, dtype=np.int64)
        self.verts = verts

    def blocked(self, a: F, b: F, first_free: bool = False) -> NDArray[np.bool_]:
        """``(M, B)`` as :func:`segments_blocked`; with ``first_free`` it stops after the first
        batch holding a clear segment (later rows are marked blocked: read only up to that one)."""
        out = np.zeros((len(a), self.count), dtype=bool)
        if not self.kept or not len(a):
            return out
        step = max(1, _CHUNK // len(self.n))
        for s in range(0, len(a), step):
            lo, hi = _clip(a[s:s + step], b[s:s + step], self.n, self.c + EPS, self.starts)
            hit = lo < hi
            out[s:s + step, self.kept] = hit
            if first_free and not hit.any(axis=1).all():
                out[s + step:] = True
                break
        return out


def segments_blocked(p0: ArrayLike, p1: ArrayLike, blockers: Sequence[ArrayLike],
                     clearance: float = 0.0) -> NDArray[np.bool_]:
    """``(M, B)``: whether segment ``p0[m]-p1[m]`` comes closer than ``clearance`` to convex blocker
    ``b`` (with clearance 0: goes into it; touching is allowed).  Vectorised clipping of every
    segment against every blocker edge at once.

    >>> sq = [[0, 0], [2, 0], [2, 2], [0, 2]]
    >>> segments_blocked([[-1, 1], [-1, 0], [-1, 1]], [[3, 1], [3, 0], [1, 3]], [sq]).ravel().tolist()
    [True, False, False]
    >>> segments_blocked([[-1, 0], [-1, 1]], [[3, 0], [1, 3]], [sq], clearance=0.01).ravel().tolist()
    [True, True]
    """
    return _Grown([_as_poly(p) for p in blockers], clearance).blocked(_as_poly(p0), _as_poly(p1))


def _clip(a: F, b: F, n: F, c: F, starts: NDArray[np.int64]) -> tuple[F, F]:
    """Cyrus-Beck: the parameter interval ``[lo, hi]`` of each segment ``a-b`` (within [0, 1])
    inside each convex region ``n @ x >= c`` (edges grouped by ``starts``); empty when lo >= hi."""
    f0 = a @ n.T - c               # (M, E): >= 0 means inside that half-plane
    df = b @ n.T - c - f0
    flat = np.abs(df) <= 1e-15
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(flat, 0.0, -f0 / np.where(flat, 1.0, df))
    lo = np.where(df > 0, t, -np.inf)
    hi = np.where(df < 0, t, np.inf)
    lo = np.where(flat & (f0 < 0), np.inf, np.where(flat, -np.inf, lo))
    lo = np.maximum(np.maximum.reduceat(lo, starts, axis=1), 0.0)
    hi = np.minimum(np.minimum.reduceat(hi, starts, axis=1), 1.0)
    return lo, hi


def _cross(u: F, v: F) -> F:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def _crossings(p: F, q: F, u: F, v: F) -> F:
    """Points where the segments ``p[i]-q[i]`` cross the segments ``u[j]-v[j]`` (touching
    included; parallel pairs give none)."""
    d, e = q - p, v - u
    den = _cross(d[:, None, :], e[None])
    ok = np.abs(den) > 1e-15
    safe = np.where(ok, den, 1.0)
    rel = u[None] - p[:, None, :]
    t = _cross(rel, e[None]) / safe
    r = _cross(rel, d[:, None, :]) / safe
    ok &= (t >= -1e-12) & (t <= 1 + 1e-12) & (r >= -1e-12) & (r <= 1 + 1e-12)
    i, _ = np.nonzero(ok)
    return p[i] + t[ok][:, None] * d[i]


def _critical_points(a: F, b: F, target: F, grown: _Grown, hull: F) -> F:
    """Source ends, target vertices, grown blocker vertices within the hull, and the crossings of
    grown blocker edges with the source and the target's edges."""
    verts = np.concatenate(grown.verts)
    nxt = np.concatenate([np.roll(v, -1, axis=0) for v in grown.verts])
    p = np.concatenate([a[None], target])
    q = np.concatenate([b[None], np.roll(target, -1, axis=0)])
    allp = np.concatenate([a[None], b[None], target, verts[points_in_polygon(verts, hull, eps=1e-9)],
                           _crossings(p, q, verts, nxt)])
    return np.unique(np.round(allp, 12), axis=0)


def _candidates(a: F, b: F, target: F, pts: F) -> tuple[F, F]:
    """Segments on the lines through every pair of ``pts``: from where the line crosses the source
    segment to the nearest point (each way along the line) where it reaches the target's boundary."""
    i, j = np.triu_indices(len(pts), k=1)
    c, d = pts[i], pts[j] - pts[i]
    e = b - a
    den = _cross(e[None], d)
    ok = np.abs(den) > 1e-12 * np.maximum(1.0, np.hypot(d[:, 0], d[:, 1]))
    c, d, den = c[ok], d[ok], den[ok]
    s = _cross(c - a, d) / den
    on = (s >= -1e-9) & (s <= 1 + 1e-9)
    c, d, s = c[on], d[on], np.clip(s[on], 0.0, 1.0)
    p = a + s[:, None] * e                               # where each line crosses the source
    qa, g = target, np.roll(target, -1, axis=0) - target  # target edges
    den2 = _cross(d[:, None, :], g[None])                # (L, K)
    flat = np.abs(den2) <= 1e-15
    safe = np.where(flat, 1.0, den2)
    rel = qa[None] - p[:, None, :]
    t = _cross(rel, g[None]) / safe                      # along the line (units of d)
    r = _cross(rel, d[:, None, :]) / safe                # along the target edge
    hit = ~flat & (r >= -1e-9) & (r <= 1 + 1e-9)
    fwd = np.where(hit & (t >= -1e-12), t, np.inf).min(axis=1)
    back = np.where(hit & (t <= 1e-12), t, -np.inf).max(axis=1)
    starts, ends = [], []
    for tt in (fwd, back):
        k = np.isfinite(tt)
        starts.append(p[k])
        ends.append(p[k] + tt[k, None] * d[k])
    return np.concatenate(starts), np.concatenate(ends)


def _first_free(p0: F, p1: F, grown: _Grown) -> F | None:
    if not len(p0):
        return None
    free = ~grown.blocked(p0, p1, first_free=True).any(axis=1)
    k = np.flatnonzero(free)
    return np.stack([p0[k[0]], p1[k[0]]]) if len(k) else None


def segment_to_polygon_visible(src_a: ArrayLike, src_b: ArrayLike, target: ArrayLike,
                               blockers: Sequence[ArrayLike], clearance: float = 0.0) -> F | None:
    """A witness sight line ``[[x0, y0], [x1, y1]]`` from a point of segment ``src_a-src_b`` to a
    point of the ``target`` polygon (convex or not) that keeps ``clearance`` away from every convex
    blocker (see :func:`segments_blocked`), or None when there is none.  Exact (module doc).

    The witness is the line from the source's centre to the target's centre when that one is
    clear, otherwise a clear line from a few points of the source to the target's vertices,
    otherwise a critical line (it may touch grown blockers)."""
    a, b = _as_poly(src_a)[0], _as_poly(src_b)[0]
    tgt = _as_poly(target)
    keep = blockers_between(a, b, tgt, blockers, -clearance - EPS)
    grown = _Grown([_as_poly(blockers[i]) for i in keep], clearance)
    mid, centre = (a + b) / 2, tgt.mean(axis=0)
    if not points_in_polygon(centre[None], tgt)[0]:      # a non-convex target: use a vertex
        centre = tgt[0]
    if not grown.kept:
        return np.stack([mid, centre])
    starts = [a + (b - a) * s for s in (0.5, 0.05, 0.95, 0.0, 1.0)]
    ends = [centre, *tgt]
    easy = _first_free(np.array([s for s in starts for _ in ends]), np.array([e for _ in starts for e in ends]), grown)
    if easy is not None:
        return easy
    hull = convex_hull(np.concatenate([np.stack([a, b]), tgt]))
    p0, p1 = _candidates(a, b, tgt, _critical_points(a, b, tgt, grown, hull))
    return _first_free(p0, p1, grown)
