"""Free-form tables in inches: round bases, rectangular trays, terrain polygons.

Conventions
-----------
* Table coordinates are inches, ``x`` to the right and ``y`` **up** (mathematical).  The client
  flips ``y`` when drawing.
* A round base is ``(x, y, radius)``.
* A tray (oriented rectangle) is ``(cx, cy, width, depth, facing_deg)``: ``facing_deg`` is the
  direction the tray faces, counter-clockwise from +x; the **front** edge is the one at
  ``+depth/2`` along the facing; ``width`` is the length of the front edge.
* A polygon is a ``(k, 2)`` vertex array (simple, either winding).
* All distances are **edge to edge** and 0 when shapes touch or overlap.
* ASOIAF arcs: a ray leaves each tray corner at 45 degrees outward (bisecting the corner's
  outside angle); the four rays and the tray's edges split the plane into Front (beyond the front
  edge), Right, Rear and Left (the rulebook's notch images are lost: candidate (a) of the ASOIAF
  digest section 19.3, the engine's choice).  Equivalently a point belongs to the arc of the edge it
  lies furthest beyond: ``argmax(f - d/2, r - w/2, -f - d/2, -r - w/2)`` in tray coordinates.  A
  point exactly on a ray counts as Front/Rear (a documented tie-break, not rule-derived).

>>> a = Shapes.circles([[0, 0, 0.5], [3, 0, 0.5]])
>>> distance_matrix(a).round(3).tolist()
[[0.0, 2.0], [2.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .segments import EPS, Obstacles, point_segment_distance, points_in_polygon, segment_segment_distance

__all__ = [
    "Shapes", "rect_corners", "distance_matrix", "contacts", "within", "arc_codes", "ARCS",
    "arc_of", "arc_fractions", "rotate_points", "rotate_rects", "los", "cohesion", "MoveCheck",
    "check_move", "polygon_area", "path_length_inside",
    # additions for SAGA's round bases (signed gaps, table edges, segments against terrain)
    "circle_gaps", "circles_inside_rect", "segment_polygon_distance", "segments_polygon_distance",
    "segment_through_polygon",
    "segment_crosses_polyline",
    # additions for ASOIAF's trays (45-degree arcs, overlap depth, straight sweeps, first contact)
    "tray_axes", "arc_part", "convex_hull", "swept_polygon", "overlap_depth", "convex_clip",
    "point_polygon_distance", "polygon_distance", "first_contact",
]

F = NDArray[np.float64]
ARCS: tuple[str, ...] = ("front", "right", "rear", "left")


def rect_corners(rects: ArrayLike) -> F:
    """Corners ``(n, 4, 2)``: front-left, front-right, rear-right, rear-left.

    >>> rect_corners([[0, 0, 2, 1, 90]]).round(3).tolist()
    [[[-1.0, 0.5], [1.0, 0.5], [1.0, -0.5], [-1.0, -0.5]]]
    """
    r = np.asarray(rects, dtype=np.float64).reshape(-1, 5)
    th = np.radians(r[:, 4])
    f = np.stack([np.cos(th), np.sin(th)], -1)  # forward
    right = np.stack([f[:, 1], -f[:, 0]], -1)
    hw, hd = r[:, 2:3] / 2, r[:, 3:4] / 2
    c = r[:, :2]
    return np.stack([c + f * hd - right * hw, c + f * hd + right * hw,
                     c - f * hd + right * hw, c - f * hd - right * hw], axis=1)


def polygon_area(poly: ArrayLike) -> float:
    """Unsigned area of a simple polygon.

    >>> polygon_area([[0, 0], [2, 0], [2, 1], [0, 1]])
    2.0
    """
    v = np.asarray(poly, dtype=np.float64)
    x, y = v[:, 0], v[:, 1]
    return abs(0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


@dataclass
class Shapes:
    """A batch of shapes of mixed kinds. ``kind[i]`` is 0 circle, 1 polygon (trays become
    polygons).  ``circle[i]`` holds ``(x, y, r)`` for circles; ``verts[i]`` the polygon padded to
    a common length by repeating its last vertex (zero-length edges are harmless)."""

    kind: NDArray[np.int64]
    circle: F
    verts: F
    nverts: NDArray[np.int64]
    source: list[str] = field(default_factory=list)

    @classmethod
    def circles(cls, c: ArrayLike) -> "Shapes":
        c = np.asarray(c, dtype=np.float64).reshape(-1, 3)
        n = len(c)
        v = np.repeat(c[:, None, :2], 1, axis=1)
        return cls(np.zeros(n, np.int64), c, v, np.ones(n, np.int64), ["circle"] * n)

    @classmethod
    def rects(cls, r: ArrayLike) -> "Shapes":
        v = rect_corners(r)
        n = len(v)
        return cls(np.ones(n, np.int64), np.zeros((n, 3)), v, np.full(n, 4, np.int64), ["rect"] * n)

    @classmethod
    def polygons(cls, polys: Sequence[ArrayLike]) -> "Shapes":
        ps = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in polys]
        k = max((len(p) for p in ps), default=1)
        v = np.zeros((len(ps), k, 2))
        for i, p in enumerate(ps):
            v[i, : len(p)] = p
            v[i, len(p):] = p[-1]
        return cls(np.ones(len(ps), np.int64), np.zeros((len(ps), 3)), v,
                   np.array([len(p) for p in ps], np.int64), ["polygon"] * len(ps))

    @classmethod
    def concat(cls, parts: Sequence["Shapes"]) -> "Shapes":
        k = max(p.verts.shape[1] for p in parts)
        vs = []
        for p in parts:
            v = p.verts
            if v.shape[1] < k:
                v = np.concatenate([v, np.repeat(v[:, -1:], k - v.shape[1], axis=1)], axis=1)
            vs.append(v)
        return cls(np.concatenate([p.kind for p in parts]), np.concatenate([p.circle for p in parts]),
                   np.concatenate(vs), np.concatenate([p.nverts for p in parts]),
                   sum((p.source for p in parts), []))

    def __len__(self) -> int:
        return len(self.kind)

    def polygon(self, i: int) -> F:
        """Vertices of shape ``i`` (circles: a 64-gon, for drawing)."""
        if self.kind[i] == 0:
            x, y, r = self.circle[i]
            a = np.linspace(0, 2 * np.pi, 65)[:-1]
            return np.stack([x + r * np.cos(a), y + r * np.sin(a)], -1)
        return self.verts[i, : self.nverts[i]]

    def take(self, idx: NDArray[np.int64]) -> "Shapes":
        """The shapes at ``idx`` (padding trimmed to the longest of them)."""
        k = max(1, int(self.nverts[idx].max())) if len(idx) else 1
        v = self.verts[idx, :k]
        return Shapes(self.kind[idx], self.circle[idx], v, self.nverts[idx],
                      [self.source[i] for i in idx] if self.source else [])

    def edges(self) -> tuple[F, F]:
        """Padded edge arrays ``(n, K, 2)`` start and end points."""
        return self.verts, np.roll(self.verts, -1, axis=1)

    def centres(self) -> F:
        """Circle centres / polygon vertex means ``(n, 2)``."""
        c = self.circle[:, :2].copy()
        p = self.kind == 1
        if p.any():
            m = np.arange(self.verts.shape[1])[None, :] < self.nverts[p][:, None]
            c[p] = (self.verts[p] * m[..., None]).sum(1) / self.nverts[p][:, None]
        return c


def _inside_padded(points: F, verts: F, nv: NDArray[np.int64]) -> NDArray[np.bool_]:
    """points (..., 2) vs padded polygons verts (..., K, 2) broadcast -> inside (even-odd)."""
    a = verts
    b = np.roll(verts, -1, axis=-2)
    # the closing edge of a padded polygon is last-real -> first, produced by roll at index K-1
    px, py = points[..., None, 0], points[..., None, 1]
    ay, by = a[..., 1], b[..., 1]
    cond = (ay > py) != (by > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = a[..., 0] + (py - ay) * (b[..., 0] - a[..., 0]) / (by - ay)
    return (cond & (px < xint)).sum(-1) % 2 == 1


def distance_matrix(a: Shapes, b: "Shapes | None" = None, chunk: int = 4_000_000) -> F:
    """Edge-to-edge distances ``(len(a), len(b))`` between any shape kinds (0 when overlapping).

    >>> t = Shapes.rects([[0, 0, 2, 1, 90]])
    >>> c = Shapes.circles([[0, 2, 0.5]])
    >>> distance_matrix(t, c).round(3).tolist()
    [[1.0]]
    """
    same = b is None
    if b is None:
        b = a
    n, m = len(a), len(b)
    out = np.zeros((n, m))
    if n == 0 or m == 0:
        return out
    ca, pa = np.nonzero(a.kind == 0)[0], np.nonzero(a.kind == 1)[0]
    cb, pb = np.nonzero(b.kind == 0)[0], np.nonzero(b.kind == 1)[0]
    if (len(ca) and len(pa)) or (len(cb) and len(pb)):
        # mixed kinds: each pair of kinds by its own formula (a circle is its centre, not a
        # 1-vertex polygon padded to the trays' 4 vertices, which costs 16 edge pairs a pair)
        out[np.ix_(ca, cb)] = distance_matrix(a.take(ca), b.take(cb))
        out[np.ix_(pa, pb)] = distance_matrix(a.take(pa), b.take(pb))
        cp = _circle_polygon_distances(a.take(ca), b.take(pb))
        out[np.ix_(ca, pb)] = cp
        out[np.ix_(pa, cb)] = cp.T if same else _circle_polygon_distances(b.take(cb), a.take(pa)).T
        return out
    if not a.kind.any() and not b.kind.any():
        # round bases only: centre distance less the radii (the general path below gives the
        # same numbers, through the 1-vertex "edges" of the circles, several times slower)
        dx = b.circle[None, :, 0] - a.circle[:, None, 0]
        dy = b.circle[None, :, 1] - a.circle[:, None, 1]
        d = np.sqrt(dx * dx + dy * dy) - a.circle[:, None, 2] - b.circle[None, :, 2]
        return np.maximum(d, 0.0)
    K = max(a.verts.shape[1], 1) * max(b.verts.shape[1], 1)
    step = max(1, chunk // max(1, m * K))
    a0, a1 = a.edges()
    b0, b1 = b.edges()
    for s in range(0, n, step):
        e = min(n, s + step)
        # boundary-to-boundary distance (circles are 1-vertex "polygons": their centre)
        d = segment_segment_distance(a0[s:e, None, :, None, :], a1[s:e, None, :, None, :],
                                     b0[None, :, None, :, :], b1[None, :, None, :, :]).min(axis=(2, 3))
        # containment: a vertex of one inside the other polygon -> 0
        pa = a.kind[s:e] == 1
        pb = b.kind == 1
        ins_ab = _inside_padded(b.verts[None, :, 0, :], a.verts[s:e, None], a.nverts[s:e, None])
        ins_ba = _inside_padded(a.verts[s:e, None, 0, :], b.verts[None, :], b.nverts[None, :])
        ins = (ins_ab & pa[:, None]) | (ins_ba & pb[None, :])
        d = np.where(ins, 0.0, d)
        d = d - a.circle[s:e, None, 2] - b.circle[None, :, 2]
        out[s:e] = np.maximum(d, 0.0)
    return out


def _circle_polygon_distances(c: Shapes, p: Shapes) -> F:
    """``(len(c), len(p))`` edge-to-edge distances from circles to polygons: the centre's
    distance to the polygon's boundary (0 inside it) less the radius, at least 0."""
    out = np.zeros((len(c), len(p)))
    if len(c) == 0 or len(p) == 0:
        return out
    a0, a1 = p.edges()
    centres = c.circle[:, :2]
    d = point_segment_distance(centres[:, None, None, :], a0[None], a1[None]).min(axis=2)
    inside = _inside_padded(centres[:, None, :], p.verts[None], p.nverts[None])
    d = np.where(inside, 0.0, d) - c.circle[:, None, 2]
    return np.maximum(d, 0.0)


def contacts(a: Shapes, b: "Shapes | None" = None, tol: float = 0.01) -> NDArray[np.int64]:
    """Pairs ``(k, 2)`` of shapes in base contact (distance ``<= tol``); self-pairs excluded,
    each unordered pair once when ``b`` is None."""
    d = distance_matrix(a, b)
    m = d <= tol
    if b is None:
        m = np.triu(m, 1)
    return np.argwhere(m)


def within(a: Shapes, b: "Shapes | None", dist: float) -> NDArray[np.bool_]:
    """``(len(a), len(b))`` mask: edge-to-edge distance ``<= dist`` (SAGA VS=2, S=4, M=6, L=12)."""
    return distance_matrix(a, b) <= dist + 1e-12


# ----------------------------------------------------------------------------- arcs


def arc_codes(trays: ArrayLike, points: ArrayLike) -> NDArray[np.int64]:
    """Arc index ``(n_trays, n_points)`` of points seen from trays: 0 front, 1 right, 2 rear,
    3 left (see :data:`ARCS`), by the 45-degree corner rays (module docstring).  A point on a ray
    goes to front/rear; points inside the tray get the arc of the nearest edge.

    >>> arc_codes([[0, 0, 4, 2, 90]], [[0, 5], [5, 0], [0, -5], [-5, 0]]).tolist()
    [[0, 1, 2, 3]]
    >>> arc_codes([[0, 0, 4, 2, 90]], [[3, 1.6], [3, 2]]).tolist()   # beyond the right edge most
    [[1, 0]]
    """
    r = np.asarray(trays, dtype=np.float64).reshape(-1, 5)
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    th = np.radians(r[:, 4])[:, None]
    dx = p[None, :, 0] - r[:, None, 0]
    dy = p[None, :, 1] - r[:, None, 1]
    fwd = dx * np.cos(th) + dy * np.sin(th)
    rgt = dx * np.sin(th) - dy * np.cos(th)
    hw, hd = r[:, 2:3] / 2, r[:, 3:4] / 2
    # how far the point lies beyond each edge's line; front/rear win ties (points on a ray)
    fr = np.abs(fwd) - hd >= np.abs(rgt) - hw
    return np.where(fr, np.where(fwd >= 0, 0, 2), np.where(rgt >= 0, 1, 3)).astype(np.int64)


def arc_of(tray: ArrayLike, point: ArrayLike) -> str:
    """Arc name of one point seen from one tray.

    >>> arc_of([0, 0, 4, 2, 90], [0, -3])
    'rear'
    """
    return ARCS[int(arc_codes(tray, point)[0, 0])]


def _clip_halfplane(poly: F, nx: float, ny: float, c: float) -> F:
    """Keep the part of a convex-or-not polygon where nx*x + ny*y >= c (Sutherland-Hodgman)."""
    if len(poly) == 0:
        return poly
    out = []
    s = poly[-1]
    ds = nx * s[0] + ny * s[1] - c
    for e in poly:
        de = nx * e[0] + ny * e[1] - c
        if de >= 0:
            if ds < 0:
                out.append(s + (e - s) * (ds / (ds - de)))
            out.append(e)
        elif ds >= 0:
            out.append(s + (e - s) * (ds / (ds - de)))
        s, ds = e, de
    return np.array(out) if out else np.zeros((0, 2))


def _arc_planes(tray: ArrayLike) -> dict[str, list[tuple[F, float]]]:
    """Each arc of a tray as three half-planes ``n . p >= c`` (the arc's edge lies further
    beyond than each of the other three edges)."""
    r = np.asarray(tray, dtype=np.float64).reshape(5)
    th = np.radians(r[4])
    f = np.array([np.cos(th), np.sin(th)])
    rt = np.array([f[1], -f[0]])
    hw, hd = r[2] / 2, r[3] / 2
    c = r[:2]
    # excess beyond an edge: e(dir, half) = dir . (p - c) - half; arc A beats B: (dA - dB) . p >= ...
    edges = {"front": (f, hd), "right": (rt, hw), "rear": (-f, hd), "left": (-rt, hw)}
    out: dict[str, list[tuple[F, float]]] = {}
    for name, (da, ha) in edges.items():
        planes = []
        for other, (db, hb) in edges.items():
            if other != name:
                n = da - db
                planes.append((n, float(n @ c) + ha - hb))
        out[name] = planes
    return out


def arc_part(tray: ArrayLike, shape_poly: ArrayLike, arc: str) -> F:
    """The part of a convex polygon lying in one arc of ``tray`` (a possibly empty polygon).

    >>> polygon_area(arc_part([0, 0, 4, 2, 90], [[-1, 2], [1, 2], [1, 3], [-1, 3]], "front"))
    2.0
    """
    p = np.asarray(shape_poly, dtype=np.float64).reshape(-1, 2)
    for n, c in _arc_planes(tray)[arc]:
        p = _clip_halfplane(p, float(n[0]), float(n[1]), c)
        if len(p) == 0:
            break
    return p


def arc_fractions(tray: ArrayLike, shape_poly: ArrayLike) -> dict[str, float]:
    """Fraction of a convex target's area in each arc of ``tray`` (the majority rule takes the
    largest; the four arcs tile the plane, so the fractions sum to 1).

    >>> f = arc_fractions([0, 0, 4, 2, 90], rect_corners([[0, 5, 2, 1, 0]])[0])
    >>> round(f["front"], 3)
    1.0
    """
    total = polygon_area(shape_poly)
    out = {}
    for name in ARCS:
        p = arc_part(tray, shape_poly, name)
        out[name] = (polygon_area(p) / total) if (total > 0 and len(p) >= 3) else 0.0
    return out


# ----------------------------------------------------------------------------- trays (ASOIAF)


def tray_axes(facing_deg: float) -> tuple[F, F]:
    """Unit vectors ``(forward, right)`` of a tray facing ``facing_deg`` (CCW from +x).

    >>> [v.round(6).tolist() for v in tray_axes(90)]
    [[0.0, 1.0], [1.0, -0.0]]
    """
    th = np.radians(facing_deg)
    f = np.array([np.cos(th), np.sin(th)])
    return f, np.array([f[1], -f[0]])


def convex_hull(points: ArrayLike) -> F:
    """Convex hull (counter-clockwise, no repeated or collinear points) of a point set.

    >>> convex_hull([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2], [1, 0]]).tolist()
    [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]
    """
    return _hull(np.asarray(points, dtype=np.float64).reshape(-1, 2)).astype(np.float64)


def swept_polygon(poly: ArrayLike, offset: ArrayLike) -> F:
    """The area a convex polygon covers while translated by ``offset`` (a straight move).

    >>> polygon_area(swept_polygon([[0, 0], [1, 0], [1, 1], [0, 1]], [3, 0]))
    4.0
    """
    p = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    return convex_hull(np.concatenate([p, p + np.asarray(offset, dtype=np.float64)]))


def overlap_depth(a: ArrayLike, b: ArrayLike) -> float:
    """Separating-axis depth of two convex polygons: positive = how far they interpenetrate
    along the best axis, 0 when they touch, negative = a gap (a lower bound of the distance).
    Trays "overlap" when this exceeds a small tolerance (touching trays do not).

    >>> overlap_depth([[0, 0], [2, 0], [2, 2], [0, 2]], [[1.5, 0], [3, 0], [3, 2], [1.5, 2]])
    0.5
    >>> overlap_depth([[0, 0], [2, 0], [2, 2], [0, 2]], [[2, 0], [3, 0], [3, 2], [2, 2]])
    0.0
    """
    p = np.asarray(a, dtype=np.float64).reshape(-1, 2)
    q = np.asarray(b, dtype=np.float64).reshape(-1, 2)
    e = np.concatenate([np.roll(p, -1, axis=0) - p, np.roll(q, -1, axis=0) - q])
    n = np.stack([-e[:, 1], e[:, 0]], -1)
    ln = np.hypot(n[:, 0], n[:, 1])
    n = n[ln > 1e-12] / ln[ln > 1e-12, None]
    pa, pb = p @ n.T, q @ n.T
    depth = np.minimum(pa.max(axis=0) - pb.min(axis=0), pb.max(axis=0) - pa.min(axis=0))
    return float(depth.min())


def convex_clip(poly: ArrayLike, convex: ArrayLike) -> F:
    """The part of a polygon inside a convex polygon (either winding); may be empty.

    >>> polygon_area(convex_clip([[0, 0], [2, 0], [2, 2], [0, 2]], [[1, 1], [3, 1], [3, 3], [1, 3]]))
    1.0
    """
    p = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    c = np.asarray(convex, dtype=np.float64).reshape(-1, 2)
    centre = c.mean(axis=0)
    for s, e in zip(c, np.roll(c, -1, axis=0)):
        d = e - s
        n = np.array([-d[1], d[0]])
        if float(n @ (centre - s)) < 0:
            n = -n
        p = _clip_halfplane(p, float(n[0]), float(n[1]), float(n @ s))
        if len(p) == 0:
            break
    return p


def point_polygon_distance(point: ArrayLike, poly: ArrayLike) -> float:
    """Distance from a point to a polygon's area (0 inside).

    >>> point_polygon_distance([0, 3], [[-1, -1], [1, -1], [1, 1], [-1, 1]])
    2.0
    """
    v = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    pt = np.asarray(point, dtype=np.float64).reshape(1, 2)
    return _poly_dist(v, pt)


def polygon_distance(a: ArrayLike, b: ArrayLike) -> float:
    """Edge-to-edge distance of two polygons (0 when they touch or overlap); one pair of
    :func:`distance_matrix`.

    >>> polygon_distance([[0, 0], [1, 0], [1, 1], [0, 1]], [[4, 0], [5, 0], [5, 1], [4, 1]])
    3.0
    """
    p = np.asarray(a, dtype=np.float64).reshape(-1, 2)
    q = np.asarray(b, dtype=np.float64).reshape(-1, 2)
    if points_in_polygon(p[:1], q, eps=0.0)[0] or points_in_polygon(q[:1], p, eps=0.0)[0]:
        return 0.0
    d = segment_segment_distance(p[:, None], np.roll(p, -1, axis=0)[:, None], q[None], np.roll(q, -1, axis=0)[None])
    return float(d.min())


def first_contact(poly: ArrayLike, direction: ArrayLike, length: float, others: Sequence[ArrayLike],
                  gap: float = 0.0) -> F:
    """Travel ``t`` in ``[0, length]`` at which convex ``poly`` moved straight along ``direction``
    first comes within ``gap`` of each convex polygon of ``others`` (``inf``: never on this move;
    ``0``: already within).  Exact: the first time the distance reaches ``gap`` is when some
    vertex of one polygon meets the ``gap``-capsule of an edge of the other, so each
    vertex/edge pair is solved in closed form (a ray against a capsule).

    >>> first_contact([[0, 0], [1, 0], [1, 1], [0, 1]], [1, 0], 10,
    ...               [[[4, 0], [5, 0], [5, 1], [4, 1]], [[0, 5], [1, 5], [1, 6], [0, 6]]]).tolist()
    [3.0, inf]
    >>> first_contact([[0, 0], [1, 0], [1, 1], [0, 1]], [1, 0], 10, [[[4, 0], [5, 0], [5, 1], [4, 1]]], gap=1.0).tolist()
    [2.0]
    """
    p = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    v = np.asarray(direction, dtype=np.float64).reshape(2)
    v = v / np.hypot(*v)
    out = np.full(len(others), np.inf)
    for k, other in enumerate(others):
        q = np.asarray(other, dtype=np.float64).reshape(-1, 2)
        if polygon_distance(p, q) <= gap + 1e-12:
            out[k] = 0.0
            continue
        # p's vertices moving along +v against q's edges; q's vertices moving along -v against p's
        t1 = _ray_capsules(p, v, q, gap)
        t2 = _ray_capsules(q, -v, p, gap)
        t = min(t1, t2)
        out[k] = t if t <= length + 1e-12 else np.inf
    return out


def _ray_capsules(pts: F, v: F, poly: F, r: float) -> float:
    """Smallest ``t >= 0`` at which some point ``pts[i] + t v`` comes within ``r`` of an edge of
    ``poly`` (``inf`` if never); ``v`` is a unit vector."""
    a = poly[None, :, :]
    b = np.roll(poly, -1, axis=0)[None, :, :]
    p = pts[:, None, :]
    best = np.full((pts.shape[0], poly.shape[0]), np.inf)
    # end discs |p + t v - a| = r
    for c in (a, b):
        w = p - c
        bq = w[..., 0] * v[0] + w[..., 1] * v[1]
        cq = (w ** 2).sum(-1) - r * r
        disc = bq * bq - cq
        with np.errstate(invalid="ignore"):
            t = -bq - np.sqrt(np.where(disc >= 0, disc, np.nan))
        ok = (disc >= 0) & (t >= -1e-12)
        best = np.where(ok, np.minimum(best, np.maximum(t, 0.0)), best)
    # the two sides of the capsule: |(p + t v - a) . n| = r with the foot inside the edge
    d = b - a
    ln = np.hypot(d[..., 0], d[..., 1])
    u = d / np.where(ln > 0, ln, 1.0)[..., None]
    n = np.stack([-u[..., 1], u[..., 0]], -1)
    s0 = ((p - a) * n).sum(-1)
    vn = (n * v).sum(-1)
    for side in (r, -r):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):   # vn ~ 0: masked by ok
            t = (side - s0) / vn
            foot = ((p + t[..., None] * v - a) * u).sum(-1)
        ok = (np.abs(vn) > 1e-15) & (t >= -1e-12) & (foot >= 0) & (foot <= ln) & (ln > 0)
        best = np.where(ok, np.minimum(best, np.maximum(t, 0.0)), best)
    return float(best.min())


# ----------------------------------------------------------------------------- transforms


def rotate_points(points: ArrayLike, centre: ArrayLike, angle_deg: float) -> F:
    """Rotate points counter-clockwise by ``angle_deg`` about ``centre``.

    >>> rotate_points([[1, 0]], [0, 0], 90).round(6).tolist()
    [[0.0, 1.0]]
    """
    p = np.asarray(points, dtype=np.float64)
    c = np.asarray(centre, dtype=np.float64)
    a = np.radians(angle_deg)
    ca, sa = np.cos(a), np.sin(a)
    d = p - c
    return np.stack([c[0] + d[..., 0] * ca - d[..., 1] * sa, c[1] + d[..., 0] * sa + d[..., 1] * ca], -1)


def rotate_rects(rects: ArrayLike, centre: ArrayLike, angle_deg: float) -> F:
    """Rotate trays about a point (centre moves, facing turns).

    >>> rotate_rects([[1, 0, 2, 1, 0]], [0, 0], 90).round(6).tolist()
    [[0.0, 1.0, 2.0, 1.0, 90.0]]
    """
    r = np.asarray(rects, dtype=np.float64).reshape(-1, 5).copy()
    r[:, :2] = rotate_points(r[:, :2], centre, angle_deg)
    r[:, 4] = np.mod(r[:, 4] + angle_deg, 360.0)
    return r


# ----------------------------------------------------------------------------- LOS & cohesion


def los(starts: ArrayLike, ends: ArrayLike, terrain: Sequence[ArrayLike] = (),
        bases: "Shapes | None" = None, *, ignore: ArrayLike | None = None,
        ignore_containing: bool = True, eps: float = EPS
        ) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
    """Segments against terrain polygons and bases: ``(blocked (N,), blocker (N,))``.

    Blocker ids: terrain ``0..T-1``, then bases ``T..``.  Polygons/bases containing an end
    point are ignored by default (the viewer's and target's own bases, SAGA area terrain the
    target stands in).

    >>> los([[0, 0]], [[10, 0]], terrain=[[[4, -1], [6, -1], [6, 1], [4, 1]]])[1].tolist()
    [0]
    """
    polys = [np.asarray(p, np.float64) for p in terrain]
    circles = None
    if bases is not None:
        for i in range(len(bases)):
            if bases.kind[i] == 1:
                polys.append(bases.polygon(i))
        circles = bases.circle[bases.kind == 0]
    obs = Obstacles(None, polys, circles)
    bl, who = obs.segments_blocked(starts, ends, ignore=_remap_ignore(ignore, len(terrain), bases),
                                   ignore_containing=ignore_containing, eps=eps)
    if bases is not None:
        idx = _base_order(len(terrain), bases)
        who = np.where(who >= 0, idx[np.maximum(who, 0)], -1)
    return bl, who


def _base_order(n_terrain: int, bases: Shapes) -> NDArray[np.int64]:
    """Map Obstacles ids (terrain, poly-bases, circle-bases) back to (terrain, bases order)."""
    polyb = np.nonzero(bases.kind == 1)[0]
    circb = np.nonzero(bases.kind == 0)[0]
    return np.concatenate([np.arange(n_terrain), n_terrain + polyb, n_terrain + circb]).astype(np.int64)


def _remap_ignore(ignore: ArrayLike | None, n_terrain: int, bases: "Shapes | None") -> ArrayLike | None:
    if ignore is None or bases is None:
        return ignore
    ig = np.asarray(ignore)
    order = _base_order(n_terrain, bases)
    if ig.dtype != bool:
        inv = np.argsort(order)
        return inv[ig.astype(np.int64)]
    return ig[..., order]


def cohesion(shapes: Shapes, dist: float) -> tuple[bool, list[list[int]]]:
    """Is the "within ``dist`` edge to edge" graph connected?  Returns the components.

    (SAGA formation: every figure within VS of another and the graph connected.)

    >>> cohesion(Shapes.circles([[0, 0, .5], [2, 0, .5], [9, 0, .5]]), 2.0)
    (False, [[0, 1], [2]])
    """
    n = len(shapes)
    if n == 0:
        return True, []
    adj = distance_matrix(shapes) <= dist + 1e-12
    seen = np.zeros(n, dtype=bool)
    comps = []
    for s in range(n):
        if seen[s]:
            continue
        front = np.zeros(n, dtype=bool)
        front[s] = True
        comp = front.copy()
        while front.any():
            nxt = adj[front].any(axis=0) & ~comp
            comp |= nxt
            front = nxt
        seen |= comp
        comps.append(np.nonzero(comp)[0].tolist())
    return len(comps) == 1, comps


# ----------------------------------------------------------------------------- movement


def path_length_inside(path: ArrayLike, poly: ArrayLike) -> float:
    """Length of a polyline path lying inside a polygon (exact up to float rounding).

    >>> path_length_inside([[0, 0], [10, 0]], [[2, -1], [5, -1], [5, 1], [2, 1]])
    3.0
    """
    p = np.asarray(path, dtype=np.float64).reshape(-1, 2)
    v = np.asarray(poly, dtype=np.float64)
    a, b = v, np.roll(v, -1, axis=0)
    total = 0.0
    for p0, p1 in zip(p[:-1], p[1:]):
        d = p1 - p0
        L = float(np.hypot(*d))
        if L == 0:
            continue
        e = b - a
        den = d[0] * e[:, 1] - d[1] * e[:, 0]
        w = a - p0
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (w[:, 0] * e[:, 1] - w[:, 1] * e[:, 0]) / den
            u = (w[:, 0] * d[1] - w[:, 1] * d[0]) / den
        ok = (den != 0) & (u >= 0) & (u <= 1) & (t > 0) & (t < 1)
        ts = np.unique(np.concatenate([[0.0, 1.0], t[ok]]))
        mids = p0 + ((ts[:-1] + ts[1:]) / 2)[:, None] * d
        ins = points_in_polygon(mids, v, eps=0.0)
        total += float(((ts[1:] - ts[:-1]) * ins).sum()) * L
    return total


@dataclass
class MoveCheck:
    """Verdict of :func:`check_move`: ``ok``, a human ``reason`` when not, the path ``length``,
    the movement ``cost`` (slow terrain counted with its factor) and which terrain the moving
    shape touched (``slow_touched``: indices into ``slow``)."""

    ok: bool
    reason: str
    length: float
    cost: float
    slow_touched: list[int] = field(default_factory=list)


def _swept_polys(shape: ArrayLike, path: F, shrink: float) -> tuple[str, list[F], float]:
    s = np.asarray(shape, dtype=np.float64).ravel()
    if len(s) == 3:
        return "circle", [], max(s[2] - shrink, 0.0)
    w, dp = max(s[2] - 2 * shrink, 1e-9), max(s[3] - 2 * shrink, 1e-9)
    out = []
    for p0, p1 in zip(path[:-1], path[1:]):
        c0 = rect_corners([[p0[0], p0[1], w, dp, s[4]]])[0]
        c1 = rect_corners([[p1[0], p1[1], w, dp, s[4]]])[0]
        out.append(_hull(np.concatenate([c0, c1])))
    return "rect", out, 0.0


def _hull(pts: F) -> F:
    """Convex hull (monotone chain) of a few points."""
    P = sorted(set(map(tuple, np.round(pts, 12).tolist())))
    if len(P) <= 2:
        return np.array(P)

    def cross(o, a, b):  # type: ignore[no-untyped-def]
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in P:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(P):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


def check_move(
    shape: ArrayLike,
    path: ArrayLike,
    max_length: float,
    *,
    slow: Sequence[ArrayLike] = (),
    slow_factor: "float | Sequence[float]" = 2.0,
    impassable: Sequence[ArrayLike] = (),
    others: "Shapes | None" = None,
    tol: float = 0.01,
) -> MoveCheck:
    """Legality of moving a round base ``(x, y, r)`` or tray ``(cx, cy, w, d, facing)`` (which
    keeps its facing) along a polyline ``path`` (``path[0]`` = current centre).

    Cost = length + (factor - 1) x length of the centre path inside each slow polygon.  The swept
    shape (capsule or swept rectangle) shrunk by ``tol`` must not overlap ``others`` or any
    ``impassable`` polygon (ending in base contact is allowed).

    >>> check_move([0, 0, 0.5], [[0, 0], [5, 0]], 6).ok
    True
    >>> check_move([0, 0, 0.5], [[0, 0], [5, 0]], 6, slow=[[[1, -1], [3, -1], [3, 1], [1, 1]]]).cost
    7.0
    >>> check_move([0, 0, 0.5], [[0, 0], [5, 0]], 6, others=Shapes.circles([[3, 0.5, 0.5]])).reason
    'the path passes through another base (#0)'
    """
    p = np.asarray(path, dtype=np.float64).reshape(-1, 2)
    seglen = np.hypot(*(p[1:] - p[:-1]).T) if len(p) > 1 else np.zeros(0)
    length = float(seglen.sum())
    factors = ([float(slow_factor)] * len(slow) if np.isscalar(slow_factor)
               else [float(f) for f in slow_factor])  # type: ignore[union-attr]
    cost = length
    kind, swept, rad = _swept_polys(shape, p, tol)
    # which slow terrain does the moving shape touch (start, end, or on the way)?
    touched = []
    for k, poly in enumerate(slow):
        inside_len = path_length_inside(p, poly)
        cost += (factors[k] - 1.0) * inside_len
        if _swept_hits_poly(kind, p, swept, rad + tol, np.asarray(poly, np.float64)):
            touched.append(k)
    for k, poly in enumerate(impassable):
        if _swept_hits_poly(kind, p, swept, rad, np.asarray(poly, np.float64)):
            return MoveCheck(False, f"the path enters impassable terrain (#{k})", length, cost, touched)
    if others is not None and len(others):
        for i in range(len(others)):
            if others.kind[i] == 0:
                c = others.circle[i]
                if kind == "circle":
                    d = point_segment_distance(c[None, :2], p[:-1], p[1:]) if len(p) > 1 else \
                        np.hypot(*(p[0] - c[:2]))[None]
                    hit = bool((d < rad + c[2]).any())
                else:
                    hit = any(_poly_dist(sp, c[None, :2]) < c[2] for sp in swept)
            else:
                hit = _swept_hits_poly(kind, p, swept, rad, others.polygon(i), strict=True)
            if hit:
                return MoveCheck(False, f"the path passes through another base (#{i})", length, cost,
                                 touched)
    if cost > max_length + 1e-9:
        return MoveCheck(False, f"the move costs {cost:.2f} in, more than the allowed "
                                f"{max_length:.2f} in", length, cost, touched)
    return MoveCheck(True, "", length, cost, touched)


def _poly_dist(poly: F, pts: F) -> float:
    """Min distance from points to a polygon area (0 inside)."""
    a, b = poly, np.roll(poly, -1, axis=0)
    d = point_segment_distance(pts[:, None, :], a[None], b[None]).min(axis=1)
    ins = points_in_polygon(pts, poly, eps=0.0)
    return float(np.where(ins, 0.0, d).min())


def _swept_hits_poly(kind: str, p: F, swept: list[F], rad: float, poly: F, strict: bool = False) -> bool:
    """Does the swept shape come within ``rad`` of polygon ``poly`` (overlap if strict)?"""
    a, b = poly, np.roll(poly, -1, axis=0)
    if kind == "circle":
        if len(p) == 1:
            segs0, segs1 = p[:1], p[:1]
        else:
            segs0, segs1 = p[:-1], p[1:]
        d = segment_segment_distance(segs0[:, None], segs1[:, None], a[None], b[None]).min()
        inside = points_in_polygon(p[:1], poly, eps=0.0)[0]
        return bool(inside or (d < rad if strict else d <= rad))
    for sp in swept:
        s0, s1 = sp, np.roll(sp, -1, axis=0)
        d = segment_segment_distance(s0[:, None], s1[:, None], a[None], b[None]).min()
        if d <= 0.0 if not strict else d <= 0.0:
            return True
        if points_in_polygon(sp[:1], poly, eps=0.0)[0] or points_in_polygon(poly[:1], sp, eps=0.0)[0]:
            return True
    return False


# ----------------------------------------------------------------------------- round bases (SAGA)


def circle_gaps(a: ArrayLike, b: ArrayLike | None = None) -> F:
    """Signed edge-to-edge gaps ``(n, m)`` between round bases ``(x, y, r)``: negative values
    are the overlap depth (what :func:`distance_matrix` clamps to 0), so one call tells apart
    bases apart, touching and overlapping.

    >>> circle_gaps([[0, 0, 0.5]], [[3, 0, 0.5], [0.5, 0, 0.5]]).round(3).tolist()
    [[2.0, -0.5]]
    """
    p = np.asarray(a, dtype=np.float64).reshape(-1, 3)
    q = p if b is None else np.asarray(b, dtype=np.float64).reshape(-1, 3)
    d = np.hypot(p[:, None, 0] - q[None, :, 0], p[:, None, 1] - q[None, :, 1])
    return d - p[:, None, 2] - q[None, :, 2]


def circles_inside_rect(circles: ArrayLike, width: float, height: float, eps: float = 1e-6) -> NDArray[np.bool_]:
    """Which round bases lie wholly on a ``width`` x ``height`` table with a corner at the origin
    (touching the edge counts as on the table).

    >>> circles_inside_rect([[0.5, 0.5, 0.5], [0.4, 3, 0.5]], 10, 10).tolist()
    [True, False]
    """
    c = np.asarray(circles, dtype=np.float64).reshape(-1, 3)
    x, y, r = c[:, 0], c[:, 1], c[:, 2]
    return (x - r >= -eps) & (x + r <= width + eps) & (y - r >= -eps) & (y + r <= height + eps)


def segment_polygon_distance(p0: ArrayLike, p1: ArrayLike, poly: ArrayLike) -> float:
    """Distance between the segment ``p0-p1`` and a polygon's area (0 when they meet or the
    segment lies inside).

    >>> segment_polygon_distance([0, 0], [0, 4], [[2, 0], [3, 0], [3, 1], [2, 1]])
    2.0
    >>> segment_polygon_distance([2.5, 0.5], [2.6, 0.5], [[2, 0], [3, 0], [3, 1], [2, 1]])
    0.0
    """
    a = np.asarray(p0, dtype=np.float64).reshape(2)
    b = np.asarray(p1, dtype=np.float64).reshape(2)
    v = np.asarray(poly, dtype=np.float64)
    if points_in_polygon(np.stack([a, b]), v, eps=0.0).any():
        return 0.0
    return float(segment_segment_distance(a, b, v, np.roll(v, -1, axis=0)).min())


def segments_polygon_distance(p0: ArrayLike, p1: ArrayLike, poly: ArrayLike) -> F:
    """:func:`segment_polygon_distance` of many segments ``p0[i]-p1[i]`` at once (``(n,)``).

    >>> segments_polygon_distance([[0, 0], [2.5, 0.5]], [[0, 4], [2.6, 0.5]], [[2, 0], [3, 0], [3, 1], [2, 1]]).tolist()
    [2.0, 0.0]
    """
    a = np.asarray(p0, dtype=np.float64).reshape(-1, 2)
    b = np.asarray(p1, dtype=np.float64).reshape(-1, 2)
    v = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    inside = points_in_polygon(np.concatenate([a, b]), v, eps=0.0).reshape(2, -1).any(axis=0)
    d = segment_segment_distance(a[:, None], b[:, None], v[None], np.roll(v, -1, axis=0)[None]).min(axis=1)
    return np.where(inside, 0.0, d)


def segment_through_polygon(p0: ArrayLike, p1: ArrayLike, poly: ArrayLike, eps: float = EPS) -> bool:
    """Whether the segment meets a polygon that contains neither end: it passes through (or
    grazes) the area, as a sight line through high terrain the target does not stand in.

    >>> segment_through_polygon([0, 0.5], [5, 0.5], [[2, 0], [3, 0], [3, 1], [2, 1]])
    True
    >>> segment_through_polygon([2.5, 0.5], [5, 0.5], [[2, 0], [3, 0], [3, 1], [2, 1]])
    False
    """
    a = np.asarray(p0, dtype=np.float64).reshape(2)
    b = np.asarray(p1, dtype=np.float64).reshape(2)
    v = np.asarray(poly, dtype=np.float64)
    if points_in_polygon(np.stack([a, b]), v, eps=0.0).any():
        return False
    return bool(segment_segment_distance(a, b, v, np.roll(v, -1, axis=0)).min() <= eps)


def segment_crosses_polyline(p0: ArrayLike, p1: ArrayLike, line: ArrayLike, eps: float = EPS) -> NDArray[np.bool_]:
    """Whether each segment ``p0[i]-p1[i]`` meets (crosses or touches) an open polyline such as
    a hedge or a wall; ``p0``/``p1`` are ``(2,)`` or ``(n, 2)``.

    >>> segment_crosses_polyline([[0, 0], [0, 0]], [[2, 2], [2, -2]], [[1, 0], [1, 5]]).tolist()
    [True, False]
    """
    a = np.asarray(p0, dtype=np.float64).reshape(-1, 2)
    b = np.asarray(p1, dtype=np.float64).reshape(-1, 2)
    v = np.asarray(line, dtype=np.float64).reshape(-1, 2)
    d = segment_segment_distance(a[:, None], b[:, None], v[None, :-1], v[None, 1:])
    return (d <= eps).any(axis=1)
