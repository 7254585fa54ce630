"""Free-form table geometry SAGA needs: round bases, polygons, segments (inches, numpy).

These functions belong in ``simulator/geometry/table.py``, which did not exist when
SAGA was written; they are pure numpy, game-agnostic, and should move there
unchanged (the SAGA modules import them only through this module).

Conventions: points are ``(x, y)`` inches from the table's top-left corner; a base
is a circle ``(x, y, r)``; a polygon is a sequence of vertices (open ring);
distances between bases are edge to edge.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numpy.typing import NDArray

Point = tuple[float, float]
Poly = Sequence[Sequence[float]]

EPS = 1e-6
#: Bases within this gap (inches) count as touching (base contact).
CONTACT = 0.05


def gaps(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """Edge-to-edge gaps between every base of ``a`` (n x 3) and of ``b`` (m x 3): n x m."""
    a = np.asarray(a, dtype=float).reshape(-1, 3)
    b = np.asarray(b, dtype=float).reshape(-1, 3)
    d = np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])
    return d - a[:, None, 2] - b[None, :, 2]


def segment_point_distance(p0: NDArray[np.float64], p1: NDArray[np.float64],
                           q: NDArray[np.float64]) -> NDArray[np.float64]:
    """Distance from each segment p0[i]-p1[i] (n x 2) to each point q[j] (m x 2): n x m."""
    p0 = np.asarray(p0, dtype=float).reshape(-1, 2)
    p1 = np.asarray(p1, dtype=float).reshape(-1, 2)
    q = np.asarray(q, dtype=float).reshape(-1, 2)
    d = p1 - p0
    len2 = np.maximum((d * d).sum(axis=1), EPS)
    t = ((q[None, :, :] - p0[:, None, :]) * d[:, None, :]).sum(axis=2) / len2[:, None]
    t = np.clip(t, 0.0, 1.0)
    closest = p0[:, None, :] + t[:, :, None] * d[:, None, :]
    return np.hypot(closest[..., 0] - q[None, :, 0], closest[..., 1] - q[None, :, 1])


def point_in_polygon(points: NDArray[np.float64], poly: Poly) -> NDArray[np.bool_]:
    """Which of ``points`` (n x 2) lie inside ``poly`` (even-odd rule)."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    v = np.asarray(poly, dtype=float)
    w = np.roll(v, -1, axis=0)
    x, y = pts[:, 0:1], pts[:, 1:2]
    cond = (v[None, :, 1] > y) != (w[None, :, 1] > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = v[None, :, 0] + (y - v[None, :, 1]) * (w[None, :, 0] - v[None, :, 0]) / (w[None, :, 1] - v[None, :, 1])
    crossings = cond & (x < xint)
    return (crossings.sum(axis=1) % 2) == 1


def _cross(o: NDArray[np.float64], a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def segments_cross(a0: NDArray[np.float64], a1: NDArray[np.float64],
                   b0: NDArray[np.float64], b1: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Whether each segment a (n x 2 ends) properly crosses each segment b (m x 2 ends): n x m."""
    a0 = np.asarray(a0, dtype=float).reshape(-1, 1, 2)
    a1 = np.asarray(a1, dtype=float).reshape(-1, 1, 2)
    b0 = np.asarray(b0, dtype=float).reshape(1, -1, 2)
    b1 = np.asarray(b1, dtype=float).reshape(1, -1, 2)
    d1 = _cross(b0, b1, a0)
    d2 = _cross(b0, b1, a1)
    d3 = _cross(a0, a1, b0)
    d4 = _cross(a0, a1, b1)
    return (d1 * d2 < 0) & (d3 * d4 < 0)


def segment_polygon_distance(p0: Point, p1: Point, poly: Poly) -> float:
    """Shortest distance between segment p0-p1 and the polygon (0 if they meet or it is inside)."""
    v = np.asarray(poly, dtype=float)
    w = np.roll(v, -1, axis=0)
    if point_in_polygon(np.array([p0, p1]), poly).any():
        return 0.0
    if segments_cross(np.array(p0), np.array(p1), v, w).any():
        return 0.0
    d1 = segment_point_distance(np.array(p0), np.array(p1), v).min()
    d2 = segment_point_distance(v, w, np.array([p0, p1])).min()
    return float(min(d1, d2))


def polyline_segments(line: Poly) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The segments of an open polyline as (starts, ends)."""
    v = np.asarray(line, dtype=float)
    return v[:-1], v[1:]


def segment_crosses_polyline(p0: Point, p1: Point, line: Poly) -> bool:
    """Whether segment p0-p1 crosses the open polyline ``line``."""
    s, e = polyline_segments(line)
    return bool(segments_cross(np.array(p0), np.array(p1), s, e).any())


def point_polyline_distance(p: Point, line: Poly) -> float:
    s, e = polyline_segments(line)
    return float(segment_point_distance(s, e, np.array(p)).min())


def segment_through_polygon(p0: Point, p1: Point, poly: Poly) -> bool:
    """Whether the segment enters the polygon and leaves it again (crosses it) with both
    ends outside: what blocks line of sight through high area terrain."""
    inside = point_in_polygon(np.array([p0, p1]), poly)
    if inside.any():
        return False
    v = np.asarray(poly, dtype=float)
    w = np.roll(v, -1, axis=0)
    return int(segments_cross(np.array(p0), np.array(p1), v, w).sum()) >= 2


def circle_inside_rect(x: float, y: float, r: float, width: float, height: float) -> bool:
    return r - EPS <= x <= width - r + EPS and r - EPS <= y <= height - r + EPS


def polygon_centroid(poly: Poly) -> Point:
    v = np.asarray(poly, dtype=float)
    return float(v[:, 0].mean()), float(v[:, 1].mean())


def connected(bases: NDArray[np.float64], within: float) -> bool:
    """Whether the graph 'edge gap <= within' over ``bases`` (n x 3) is connected."""
    n = len(bases)
    if n <= 1:
        return True
    adj = gaps(bases, bases) <= within + EPS
    seen = np.zeros(n, dtype=bool)
    seen[0] = True
    frontier = seen.copy()
    while frontier.any():
        new = adj[frontier].any(axis=0) & ~seen
        seen |= new
        frontier = new
    return bool(seen.all())


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    """An axis-aligned rectangle as a polygon."""
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
