"""Free-form table geometry for ASOIAF trays (inches, y grows down, facing clockwise from north).

``simulator/geometry/table.py`` (oriented rectangles, arcs, edge distances, LOS,
move-path legality) did not exist when this game was written. These functions are
the small, self-contained subset the game needs; they should move to
``simulator.geometry.table`` once that module exists, and the game then imports
them from there. Pure numpy, no game rules.

Polygons are ``(n, 2)`` float arrays of convex polygons in clockwise screen order
(any consistent order works for the functions here).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

EPS = 1e-6
CONTACT = 0.01          # two trays closer than this are in contact


def forward(facing: float) -> np.ndarray:
    """Unit vector of ``facing`` (degrees clockwise from north, y grows down)."""
    r = math.radians(facing)
    return np.array([math.sin(r), -math.cos(r)])


def right(facing: float) -> np.ndarray:
    """Unit vector to the right of a unit facing ``facing``."""
    r = math.radians(facing)
    return np.array([math.cos(r), math.sin(r)])


def rect(x: float, y: float, facing: float, width: float, depth: float) -> np.ndarray:
    """Corners of a tray: front-left, front-right, rear-right, rear-left."""
    c = np.array([x, y])
    f = forward(facing) * depth / 2
    r = right(facing) * width / 2
    return np.array([c + f - r, c + f + r, c - f + r, c - f - r])


def axis_rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=float)


def _next(poly: np.ndarray) -> np.ndarray:
    return np.concatenate([poly[1:], poly[:1]])


def _aabb_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Gap between the bounding boxes (a lower bound of the true distance; <= 0 when they meet)."""
    amin, amax = a.min(axis=0), a.max(axis=0)
    bmin, bmax = b.min(axis=0), b.max(axis=0)
    gx = max(bmin[0] - amax[0], amin[0] - bmax[0], 0.0)
    gy = max(bmin[1] - amax[1], amin[1] - bmax[1], 0.0)
    return float(np.hypot(gx, gy))


def within(a: np.ndarray, b: np.ndarray, d: float) -> bool:
    """Edge-to-edge distance <= d, with a quick bounding-box rejection."""
    if _aabb_gap(a, b) > d:
        return False
    return distance(a, b) <= d


def _axes(poly: np.ndarray) -> np.ndarray:
    edges = _next(poly) - poly
    normals = np.stack([-edges[:, 1], edges[:, 0]], axis=1)
    lengths = np.sqrt((normals ** 2).sum(axis=1))
    keep = lengths > EPS
    return normals[keep] / lengths[keep, None]


def overlap(a: np.ndarray, b: np.ndarray, tol: float = 1e-4) -> bool:
    """True when convex polygons ``a`` and ``b`` overlap by more than ``tol`` (touching is not overlap)."""
    if _aabb_gap(a, b) > 0.0:
        return False
    axes = np.concatenate([_axes(a), _axes(b)])
    pa = a @ axes.T
    pb = b @ axes.T
    separated = (pa.max(axis=0) <= pb.min(axis=0) + tol) | (pb.max(axis=0) <= pa.min(axis=0) + tol)
    return not bool(separated.any())


def _point_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    denom = float(ab @ ab)
    t = 0.0 if denom < EPS else min(1.0, max(0.0, float((p - a) @ ab) / denom))
    return float(np.linalg.norm(p - (a + t * ab)))


def _points_to_edges(points: np.ndarray, poly: np.ndarray) -> float:
    """Smallest distance from any of ``points`` to any edge of ``poly`` (vectorised)."""
    a = poly
    b = _next(poly)
    ab = b - a                                           # (m, 2)
    ap = points[:, None, :] - a[None, :, :]              # (n, m, 2)
    denom = np.maximum((ab ** 2).sum(axis=1), EPS)       # (m,)
    t = np.clip((ap * ab[None]).sum(axis=2) / denom[None], 0.0, 1.0)
    d = ap - t[..., None] * ab[None]
    return float(np.sqrt((d ** 2).sum(axis=2)).min())


def _segments_cross(p1: np.ndarray, p2: np.ndarray, q1: np.ndarray, q2: np.ndarray) -> bool:
    def orient(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
        return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 * d2 < 0) and (d3 * d4 < 0)


def distance(a: np.ndarray, b: np.ndarray) -> float:
    """Edge-to-edge distance between convex polygons (0 when they touch or overlap)."""
    if overlap(a, b, tol=0.0):
        return 0.0
    return min(_points_to_edges(a, b), _points_to_edges(b, a))


def point_polygon_distance(p: Sequence[float], poly: np.ndarray) -> float:
    pt = np.asarray(p, dtype=float)
    if contains(poly, pt):
        return 0.0
    return min(_point_segment(pt, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def contains(poly: np.ndarray, p: np.ndarray, strict: bool = False) -> bool:
    """Point in convex polygon (either winding)."""
    signs = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        signs.append((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))
    s = np.array(signs)
    lim = EPS if strict else -EPS
    return bool(np.all(s > lim) or np.all(s < -lim))


def segment_blocked(p: np.ndarray, q: np.ndarray, poly: np.ndarray, tol: float = 1e-4) -> bool:
    """True when the segment p-q runs through the interior of convex ``poly`` for more than
    ``tol`` inches (Cyrus-Beck clipping; grazing an edge or a corner does not block)."""
    p = np.asarray(p, dtype=float)
    d = np.asarray(q, dtype=float) - p
    centre = poly.mean(axis=0)
    t0, t1 = 0.0, 1.0
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        e = b - a
        n = np.array([-e[1], e[0]])
        if (centre - a) @ n < 0:
            n = -n                      # inward normal
        num = float((p - a) @ n)
        den = float(d @ n)
        if abs(den) < EPS:
            if num <= 0:
                return False
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return False
    return (t1 - t0) * float(np.linalg.norm(d)) > tol


def hull(points: np.ndarray) -> np.ndarray:
    """Convex hull (monotone chain) of a point set."""
    pts = sorted(map(tuple, np.round(points, 9)))
    if len(pts) <= 2:
        return np.array(pts)

    def cross(o: tuple, a: tuple, b: tuple) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower: list[tuple] = []
    for pt in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], pt) <= 0:
            lower.pop()
        lower.append(pt)
    upper: list[tuple] = []
    for pt in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], pt) <= 0:
            upper.pop()
        upper.append(pt)
    return np.array(lower[:-1] + upper[:-1])


def sweep(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The area a convex polygon covers while translated from ``start`` to ``end``."""
    return hull(np.concatenate([start, end]))


def clip(poly: np.ndarray, point: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """The part of ``poly`` where (p - point) . normal >= 0 (Sutherland-Hodgman, one plane)."""
    out: list[np.ndarray] = []
    n = len(poly)
    for i in range(n):
        cur, nxt = poly[i], poly[(i + 1) % n]
        dc, dn = float((cur - point) @ normal), float((nxt - point) @ normal)
        if dc >= 0:
            out.append(cur)
        if dc * dn < 0:
            out.append(cur + (nxt - cur) * (dc / (dc - dn)))
    return np.array(out) if out else np.zeros((0, 2))


def area(poly: np.ndarray) -> float:
    if len(poly) < 3:
        return 0.0
    x, y = poly[:, 0], poly[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


ARCS = ("front", "right_flank", "rear", "left_flank")


def arc_planes(x: float, y: float, facing: float, width: float, depth: float) -> dict[str, list[tuple[np.ndarray, np.ndarray]]]:
    """Each arc of a tray as half-planes (point, inward normal): the "corner 45 degree" model.

    The front arc lies beyond the front edge between two rays leaving the front corners at 45
    degrees outward; the flank and rear arcs are built the same way, so the four arcs tile the
    table outside the tray.
    """
    fl, fr, rr, rl = rect(x, y, facing, width, depth)
    f, r = forward(facing), right(facing)
    return {
        "front": [(fl, f), (fl, _perp_in(f, -r)), (fr, _perp_in(f, r))],
        "right_flank": [(fr, r), (fr, _perp_in(r, f)), (rr, _perp_in(r, -f))],
        "rear": [(rr, -f), (rr, _perp_in(-f, r)), (rl, _perp_in(-f, -r))],
        "left_flank": [(rl, -r), (rl, _perp_in(-r, -f)), (fl, _perp_in(-r, f))],
    }


def _perp_in(out: np.ndarray, side: np.ndarray) -> np.ndarray:
    """Normal of the 45-degree ray leaving a corner between direction ``out`` and ``side``,
    pointing into the arc of ``out`` (away from ``side``)."""
    return (out - side) / math.sqrt(2)


Pose = tuple[float, float, float, float, float]


def arc_areas(target: Pose, other: np.ndarray) -> dict[str, float]:
    """How much of polygon ``other`` lies in each arc of the tray ``target`` (x, y, facing, w, d)."""
    out = {}
    for name, planes in arc_planes(*target).items():
        poly = other
        for point, normal in planes:
            poly = clip(poly, point, normal)
            if len(poly) == 0:
                break
        out[name] = area(poly)
    return out


def arc_region(target: Pose, arc: str, reach: float = 80.0) -> np.ndarray:
    """A polygon of one arc out to ``reach`` inches (for LOS sampling and drawing)."""
    x, y, facing, w, d = target
    poly = rect(x, y, facing, w + 2 * reach, d + 2 * reach)
    for point, normal in arc_planes(*target)[arc]:
        poly = clip(poly, point, normal)
    return poly


def first_contact(moving: np.ndarray, direction: np.ndarray, length: float, other: np.ndarray,
                  gap: float = CONTACT) -> float | None:
    """Smallest travel t in [0, length] at which ``moving`` translated by t*direction comes
    within ``gap`` of ``other`` (None if it never does). The distance along a straight
    translation is convex in t, so a scan plus bisection finds the first crossing."""
    def dist(t: float) -> float:
        return distance(moving + direction * t, other)
    if dist(0.0) <= gap:
        return 0.0
    step = 0.25
    prev = 0.0
    t = step
    while prev < length:
        t = min(t, length)
        if dist(t) <= gap:
            lo, hi = prev, t
            for _ in range(30):
                mid = (lo + hi) / 2
                if dist(mid) <= gap:
                    hi = mid
                else:
                    lo = mid
            return hi
        prev = t
        t += step
    return None
