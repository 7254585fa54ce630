"""Shooting (SAGA p.15-19, p.26, p.66): line of sight, range, cover, the five steps.

Engine decisions (docs/saga.md): line of sight runs centre to centre between two figures;
it is blocked by any base other than the two figures and the shooter's own unit, by the
gap between two figures within VS of each other that are not both of the shooting unit
(two of another unit, of two other units, or one of its own and one of another), by high linear
terrain, and by high area terrain it enters and leaves (a target inside is seen). A figure
inside a building sees and is seen from any part of the building, and range is measured
from and to its walls (SAGA p.27).
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Iterator

import numpy as np
from numpy.typing import NDArray

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.saga import catalogue as cat
from simulator.games.saga import buildings, casualties
from simulator.games.saga.units import (EPS, add_fatigue, attack_dice_shooting, base_armour, clamp_armour,
                                        figure_array, remove_figures)
from simulator.geometry.paths import nearest_point
from simulator.geometry.segments import point_segment_distance, points_in_polygon, segments_intersect
from simulator.geometry.table import (circle_gaps, convex_hull, point_polygon_distance, polygon_distance,
                                      segment_crosses_polyline, segment_polygon_distance, segments_polygon_distance)

State = dict[str, Any]
Point = tuple[float, float]
Lines = tuple[NDArray[np.float64], NDArray[np.float64]]   # the starts and the ends of sight lines


def los_blockers(state: State, a: tuple[float, float], b: tuple[float, float],
                 ignore_units: set[str], ignore_terrain: frozenset[str] = frozenset(),
                 own: tuple[str, str] | None = None) -> list[str]:
    """What blocks the sight line a-b: piece ids and terrain ids."""
    return lines_blockers(state, [(a, b)], ignore_units, ignore_terrain, own)[0]


def sight_walls(state: State, others: list[str], own: tuple[str, str] | None) -> tuple[NDArray[np.float64],
                                                                                      NDArray[np.float64]] | None:
    """The gaps a sight line may not pass (SAGA p.15): the segment between the centres of any two
    figures within VS of each other that are not both of the shooting unit: two of one other unit,
    of two other units, or one of the shooter's own unit and one of another (the p.15 example).
    ``others``: the figures that block; ``own``: (the shooting unit, the figure the lines start
    from, which forms no gap with anything: the lines start at its centre)."""
    mates = [f for f in state["units"][own[0]]["figures"] if f != own[1]] if own else []
    fids = others + mates
    if len(fids) < 2:
        return None
    arr = figure_array(state, fids)
    near = np.triu(circle_gaps(arr) <= cat.inches("VS"), 1)
    if mates:
        near[len(others):, len(others):] = False            # two of the shooting unit: no gap
    ii, jj = np.nonzero(near)
    if not len(ii):
        return None
    return arr[ii, :2], arr[jj, :2]


def lines_blockers(state: State, lines: list[tuple[Point, Point]], ignore_units: set[str],
                   ignore_terrain: frozenset[str] = frozenset(),
                   own: tuple[str, str] | None = None) -> list[list[str]]:
    """:func:`los_blockers` of many sight lines at once (``ignore_terrain``: pieces that never
    block, e.g. the buildings a line starts or ends at; ``own``: the shooting unit and figure,
    see :func:`sight_walls`)."""
    out: list[list[str]] = [[] for _ in lines]
    if not lines:
        return out
    p0 = np.array([line[0] for line in lines], dtype=float)
    p1 = np.array([line[1] for line in lines], dtype=float)
    names, blocked = _blocking(state, p0, p1, ignore_units, ignore_terrain, own)
    for i, j in zip(*np.nonzero(blocked)):
        out[int(i)].append(names[int(j)])
    return out


def _blocking(state: State, p0: NDArray[np.float64], p1: NDArray[np.float64], ignore_units: set[str],
              ignore_terrain: frozenset[str], own: tuple[str, str] | None) -> tuple[list[str], NDArray[np.bool_]]:
    """What may block the sight lines ``p0[i]-p1[i]`` (figure ids, the gaps between figures,
    terrain ids) and which blocks which line (lines x blockers), see :func:`lines_blockers`."""
    figs = state["figures"]
    others = [f for f, v in figs.items() if v["unit"] not in ignore_units]
    names: list[str] = []
    cols: list[NDArray[np.bool_]] = [np.zeros((len(p0), 0), dtype=bool)]
    if others:
        arr = figure_array(state, others)
        cols.append(point_segment_distance(arr[None, :, :2], p0[:, None], p1[:, None]) < arr[None, :, 2] - EPS)
        names += others
    walls = sight_walls(state, others, own)
    if walls is not None:
        cols.append(segments_intersect(p0[:, None], p1[:, None], walls[0][None], walls[1][None]).any(axis=1)[:, None])
        names.append("gap between figures")
    for t in state["terrain"]:
        if t["height"] != "high" or t["id"] in ignore_terrain:
            continue
        if "line" in t:
            hit = segment_crosses_polyline(p0, p1, t["line"])
        else:                      # high area terrain the line enters and leaves (SAGA p.15)
            ends_in = points_in_polygon(np.concatenate([p0, p1]), t["polygon"], eps=0.0).reshape(2, -1).any(axis=0)
            hit = ~ends_in & (segments_polygon_distance(p0, p1, t["polygon"]) <= EPS)
        cols.append(hit[:, None])
        names.append(t["id"])
    return names, np.concatenate(cols, axis=1)


def _crossings(a: NDArray[np.float64], b: NDArray[np.float64], c: NDArray[np.float64],
               d: NDArray[np.float64]) -> NDArray[np.float64]:
    """The points where segments ``a[i]-b[i]`` meet segments ``c[j]-d[j]`` (proper crossings)."""
    r, q = b - a, d - c
    den = r[:, None, 0] * q[None, :, 1] - r[:, None, 1] * q[None, :, 0]
    w = c[None] - a[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w[..., 0] * q[None, :, 1] - w[..., 1] * q[None, :, 0]) / den
        u = (w[..., 0] * r[:, None, 1] - w[..., 1] * r[:, None, 0]) / den
    hit = (np.abs(den) > 1e-12) & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)
    i, _ = np.nonzero(hit)
    return a[i] + t[hit][:, None] * r[i]


def _circle_crossings(edges_a: NDArray[np.float64], edges_b: NDArray[np.float64],
                      circles: NDArray[np.float64]) -> NDArray[np.float64]:
    """The points where the edges ``edges_a[i]-edges_b[i]`` meet the circles (x, y, r)."""
    d = edges_b - edges_a
    f = edges_a[:, None] - circles[None, :, :2]
    aa = (d * d).sum(axis=1)[:, None]
    bb = 2 * (f * d[:, None]).sum(axis=2)
    cc = (f * f).sum(axis=2) - circles[None, :, 2] ** 2
    disc = bb * bb - 4 * aa * cc
    out = []
    for sign in (-1.0, 1.0):
        with np.errstate(invalid="ignore"):
            t = (-bb + sign * np.sqrt(np.maximum(disc, 0.0))) / (2 * aa)
        ok = (disc >= 0) & (t >= 0) & (t <= 1)
        i, _ = np.nonzero(ok)
        out.append(edges_a[i] + t[ok][:, None] * d[i])
    return np.concatenate(out)


def _blocker_geometry(state: State, ignore_units: set[str], ignore_terrain: frozenset[str],
                      own: tuple[str, str] | None) -> tuple[NDArray[np.float64], NDArray[np.float64],
                                                            NDArray[np.float64]]:
    """What may block a sight line, as shapes: the bases (x, y, r) and the segments a line may not
    touch (the gaps between figures, SAGA p.15, and the edges of high obstacles and high areas)."""
    figs = state["figures"]
    others = [f for f, v in figs.items() if v["unit"] not in ignore_units]
    circles = figure_array(state, others) if others else np.zeros((0, 3))
    sa, sb = [], []
    walls = sight_walls(state, others, own)
    if walls is not None:
        sa.append(walls[0])
        sb.append(walls[1])
    for t in state["terrain"]:
        if t["height"] != "high" or t["id"] in ignore_terrain:
            continue
        pts = np.asarray(t["line"] if "line" in t else t["polygon"], dtype=np.float64)
        nxt = pts[1:] if "line" in t else np.roll(pts, -1, axis=0)
        sa.append(pts[:len(nxt)])
        sb.append(nxt)
    seg_a = np.concatenate(sa) if sa else np.zeros((0, 2))
    seg_b = np.concatenate(sb) if sb else np.zeros((0, 2))
    return circles, seg_a, seg_b


def _wall_targets(poly: NDArray[np.float64], circles: NDArray[np.float64], seg_a: NDArray[np.float64],
                  seg_b: NDArray[np.float64]) -> NDArray[np.float64]:
    """The points whose directions may bound what is seen of the walls ``poly``: its corners (first),
    the ends of the blocking segments, and where a blocker meets the walls."""
    ea, eb = poly, np.roll(poly, -1, axis=0)
    rest = np.concatenate([seg_a, seg_b, _crossings(seg_a, seg_b, ea, eb) if len(seg_a) else np.zeros((0, 2)),
                           _circle_crossings(ea, eb, circles) if len(circles) else np.zeros((0, 2))])
    return np.concatenate([poly, np.unique(rest, axis=0)])


def _rays_to_walls(origins: NDArray[np.float64], poly: NDArray[np.float64], circles: NDArray[np.float64],
                   targets: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """For each point of ``origins``, the lines to the walls ``poly`` that decide exactly whether
    it sees some point of them (see :func:`lines_to_building`), the most direct first: the starts
    and the ends of all the lines, origin after origin (``targets``: :func:`_wall_targets`)."""
    ea, eb = poly, np.roll(poly, -1, axis=0)
    centre = poly.mean(axis=0)
    ref = np.arctan2(centre[1] - origins[:, 1], centre[0] - origins[:, 0])

    def rel(v: NDArray[np.float64]) -> NDArray[np.float64]:
        return (np.arctan2(v[..., 1], v[..., 0]) - ref[:, None] + math.pi) % (2 * math.pi) - math.pi

    ang = [rel(targets[None] - origins[:, None])]
    if len(circles):
        v = circles[None, :, :2] - origins[:, None]
        dist = np.hypot(v[..., 0], v[..., 1])
        half = np.arcsin(np.clip(circles[None, :, 2] / np.maximum(dist, 1e-9), 0.0, 1.0))
        mid = rel(v)
        ang += [mid - half, mid + half]
    every = np.concatenate(ang, axis=1)
    span = every[:, :len(poly)]
    every = np.sort(np.clip(every, span.min(axis=1)[:, None], span.max(axis=1)[:, None]), axis=1)
    mids = (every[:, :-1] + every[:, 1:]) / 2
    row, col = np.nonzero(every[:, 1:] - every[:, :-1] > 1e-12)
    mids = mids[row, col]
    order = np.lexsort((np.abs(mids), row))             # origin after origin, the most direct first
    row, mids = row[order], mids[order]
    u = np.stack([np.cos(mids + ref[row]), np.sin(mids + ref[row])], axis=1)
    po = origins[row]
    # the ray's first meeting with the walls: the nearest point of the building that way
    e = eb - ea
    den = u[:, None, 0] * e[None, :, 1] - u[:, None, 1] * e[None, :, 0]
    w = ea[None] - po[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w[..., 0] * e[None, :, 1] - w[..., 1] * e[None, :, 0]) / den
        s_ = (w[..., 0] * u[:, None, 1] - w[..., 1] * u[:, None, 0]) / den
    t = np.where((np.abs(den) > 1e-12) & (t > 0) & (s_ >= 0) & (s_ <= 1), t, np.inf).min(axis=1)
    keep = np.isfinite(t)
    return po[keep], po[keep] + u[keep] * t[keep, None]


def lines_to_building(state: State, p: Point, building: str, ignore_units: set[str],
                      ignore_terrain: frozenset[str], own: tuple[str, str] | None = None) -> Lines:
    """The sight lines from ``p`` to the walls of ``building`` worth testing, so that testing them
    answers exactly whether some point of the walls is seen (SAGA p.27). Along each direction from
    ``p`` the nearest point of the walls is the easiest to see; whether that line is blocked changes
    only where a direction grazes a blocker (a base's tangents, the ends of gaps, of high obstacles
    and of high areas' edges, the building's corners) or where a blocker meets the walls. One line
    is cast midway between each two such neighbouring directions, through the building's span."""
    poly = np.asarray(buildings.pieces(state)[building]["polygon"], dtype=np.float64)
    po = np.asarray(p, dtype=np.float64)
    circles, seg_a, seg_b = _blocker_geometry(state, ignore_units, ignore_terrain | {building}, own)
    return _rays_to_walls(po[None], poly, circles, _wall_targets(poly, circles, seg_a, seg_b))


def _critical_lines(points: NDArray[np.float64], circles: NDArray[np.float64]) -> tuple[
        NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The lines touching two features: through two points, through a point and tangent to a base,
    tangent to two bases (the four common tangents). Each as (origin, direction, far): the one
    feature at the origin, the other at origin + far * direction."""
    o, d, far = [np.zeros((0, 2))], [np.zeros((0, 2))], [np.zeros(0)]
    n, m = len(points), len(circles)
    if n >= 2:
        i, j = np.triu_indices(n, 1)
        o.append(points[i])
        d.append(points[j] - points[i])
        far.append(np.ones(len(i)))
    if n and m:
        v = circles[None, :, :2] - points[:, None]
        dist = np.hypot(v[..., 0], v[..., 1])
        ok = dist > circles[None, :, 2]
        rad = np.broadcast_to(circles[None, :, 2], dist.shape)[ok]
        base = np.arctan2(v[..., 1], v[..., 0])[ok]
        half = np.arcsin(np.clip(rad / dist[ok], 0.0, 1.0))
        at = np.broadcast_to(points[:, None], v.shape)[ok]
        for sign in (-1.0, 1.0):
            o.append(at)
            d.append(np.stack([np.cos(base + sign * half), np.sin(base + sign * half)], axis=1))
            far.append(np.sqrt(np.maximum(dist[ok] ** 2 - rad ** 2, 0.0)))
    if m >= 2:
        i, j = np.triu_indices(m, 1)
        c1, c2 = circles[i], circles[j]
        dv = c2[:, :2] - c1[:, :2]
        dd = (dv * dv).sum(axis=1)
        perp = np.stack([-dv[:, 1], dv[:, 0]], axis=1)
        for sign in (1.0, -1.0):                    # outer and inner tangents
            dr = sign * c2[:, 2] - c1[:, 2]
            ok = (dd > 1e-12) & (dd >= dr * dr)
            root = np.sqrt(np.maximum(dd - dr * dr, 0.0))
            for h in (1.0, -1.0):
                # the unit normal n with n.c1 + k = r1 and n.c2 + k = sign * r2
                nrm = (dr[:, None] * dv + h * root[:, None] * perp)[ok] / dd[ok, None]
                start = c1[ok, :2] - c1[ok, 2:3] * nrm
                u = np.stack([-nrm[:, 1], nrm[:, 0]], axis=1)
                o.append(start)
                d.append(u)
                far.append(((c2[ok, :2] - start) * u).sum(axis=1))
    return np.concatenate(o), np.concatenate(d), np.concatenate(far)


def _wall_positions(origins: NDArray[np.float64], dirs: NDArray[np.float64], ea: NDArray[np.float64],
                    eb: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64],
                                                       NDArray[np.float64]]:
    """Where the lines ``origins[i] + t dirs[i]`` meet the walls ``ea[k]-eb[k]``: the line and wall
    indices, the positions 0..1 along the walls and the t along the lines."""
    e = eb - ea
    den = dirs[:, None, 0] * e[None, :, 1] - dirs[:, None, 1] * e[None, :, 0]
    w = ea[None] - origins[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        s_ = (w[..., 0] * dirs[:, None, 1] - w[..., 1] * dirs[:, None, 0]) / den
        t = (w[..., 0] * e[None, :, 1] - w[..., 1] * e[None, :, 0]) / den
    hit = (np.abs(den) > 1e-12) & (s_ >= 0) & (s_ <= 1)
    i, k = np.nonzero(hit)
    return i, k, s_[hit], t[hit]


def lines_between_buildings(state: State, first: str, second: str, ignore_units: set[str],
                            ignore_terrain: frozenset[str]) -> Iterator[Lines]:
    """The sight lines from the walls of ``first`` to the walls of ``second`` worth testing, so
    that testing them answers exactly whether some point of the one sees some point of the other
    (SAGA p.27), in batches (starts, ends), the most direct first. From a point of the first
    building's walls, :func:`_rays_to_walls` gives the lines that decide exactly what it sees of the
    second; those lines (the order of the directions grazing the blockers) change only where the
    point crosses a line touching two features (two ends of blockers or points where a blocker
    meets the second building's walls, a point and a base's tangent, two bases' common tangents)
    or crosses a blocker. So one point midway between each two such neighbouring crossings along
    each wall decides its stretch of wall. Only the blockers meeting the hull of both buildings
    count: nothing else touches a line between them. The first batch, from the first building's
    corners and the point nearest the second, usually settles it before the rest is worked out."""
    pa = np.asarray(buildings.pieces(state)[first]["polygon"], dtype=np.float64)
    pb = np.asarray(buildings.pieces(state)[second]["polygon"], dtype=np.float64)
    circles, seg_a, seg_b = _blocker_geometry(state, ignore_units, ignore_terrain | {first, second}, None)
    hull = convex_hull(np.concatenate([pa, pb]))
    if len(circles):
        circles = circles[segments_polygon_distance(circles[:, :2], circles[:, :2], hull) < circles[:, 2]]
    if len(seg_a):
        near = segments_polygon_distance(seg_a, seg_b, hull) <= EPS
        seg_a, seg_b = seg_a[near], seg_b[near]
    targets = _wall_targets(pb, circles, seg_a, seg_b)
    nearest = np.asarray(nearest_point(pb.mean(axis=0), pa), dtype=np.float64)
    yield _rays_to_walls(np.concatenate([nearest[None], pa]), pb, circles, targets)
    if not len(circles) and not len(seg_a):
        return                                      # nothing between them: any line was clear
    ea, eb = pa, np.roll(pa, -1, axis=0)
    fa, fb = pb, np.roll(pb, -1, axis=0)
    points = np.unique(np.concatenate([seg_a, seg_b, pb, _crossings(seg_a, seg_b, fa, fb) if len(seg_a)
                                       else np.zeros((0, 2)), _circle_crossings(fa, fb, circles)]), axis=0)
    origins, dirs, far = _critical_lines(points, circles)
    # a point of the walls where the two features line up one behind the other, on its way to
    # the second building (two features on opposite sides never share a direction)
    i, k, pos, t = _wall_positions(origins, dirs, ea, eb)
    reach = ((pb[None] - origins[i, None]) * dirs[i, None]).sum(axis=2)
    side = (pb[None, :, 0] - origins[i, None, 0]) * dirs[i, None, 1] - \
        (pb[None, :, 1] - origins[i, None, 1]) * dirs[i, None, 0]
    ahead = (t < np.minimum(0.0, far[i]) - EPS) & (reach.max(axis=1) > t)
    behind = (t > np.maximum(0.0, far[i]) + EPS) & (reach.min(axis=1) < t)
    keep = (ahead | behind) & (side.min(axis=1) <= EPS) & (side.max(axis=1) >= -EPS)
    k, pos = k[keep], pos[keep]
    if len(seg_a):                                  # where the point crosses a blocker
        _, k2, pos2, t2 = _wall_positions(seg_a, seg_b - seg_a, ea, eb)
        on_seg = (t2 >= 0) & (t2 <= 1)
        k, pos = np.concatenate([k, k2[on_seg]]), np.concatenate([pos, pos2[on_seg]])
    on = _circle_crossings(ea, eb, circles)         # where it enters or leaves a base
    if len(on):
        k3 = point_segment_distance(on[:, None], ea[None], eb[None]).argmin(axis=1)
        e = eb[k3] - ea[k3]
        pos3 = ((on - ea[k3]) * e).sum(axis=1) / np.maximum((e * e).sum(axis=1), 1e-12)
        k, pos = np.concatenate([k, k3]), np.concatenate([pos, pos3])
    parts = []
    for w in range(len(pa)):
        cuts = np.unique(np.concatenate([[0.0, 1.0], np.clip(pos[k == w], 0.0, 1.0)]))
        mids = (cuts[:-1] + cuts[1:]) / 2
        parts.append(ea[w] + mids[:, None] * (eb[w] - ea[w]))
    samples = np.concatenate(parts)
    samples = samples[np.argsort(segments_polygon_distance(samples, samples, pb), kind="stable")]
    for i in range(0, len(samples), SAMPLE_BATCH):
        starts, ends = _rays_to_walls(samples[i:i + SAMPLE_BATCH], pb, circles, targets)
        # the lines through a base are blocked: left out before the dearer tests (gaps, terrain)
        through = point_segment_distance(circles[None, :, :2], starts[:, None], ends[:, None]) < circles[None, :, 2] - EPS
        free = ~through.any(axis=1)
        yield starts[free], ends[free]


SAMPLE_BATCH = 64       # points of a building's walls whose sight lines are tested at once


def sight_line(state: State, a: str, b: str) -> tuple[Point, Point, list[str]]:
    """The line of sight between figures ``a`` and ``b``: centre to centre, or, for a figure
    inside a building, from or to any part of the building (SAGA p.27), the building and the
    figures inside it never blocking it. Returns the first clear line (its ends, no blockers),
    else the most direct one with what blocks it. With a building the lines tested decide it
    exactly (:func:`lines_to_building`, :func:`lines_between_buildings`)."""
    figs, units = state["figures"], state["units"]
    ua, ub = figs[a]["unit"], figs[b]["unit"]
    held = frozenset(str(units[u]["building"]) for u in (ua, ub) if units[u].get("building"))
    ignore = {ua, ub} | {o for bid in held for o in buildings.occupants(state, bid)}
    ca, cb = (figs[a]["x"], figs[a]["y"]), (figs[b]["x"], figs[b]["y"])
    # the gaps between a figure of the shooting unit and another figure block too (SAGA p.15);
    # a unit in a building shoots from its walls, its figures blocking nothing
    own = None if units[ua].get("building") else (ua, a)
    ba, bb = units[ua].get("building"), units[ub].get("building")
    if ba and bb and ba != bb:     # two buildings
        batches: Iterable[Lines] = lines_between_buildings(state, str(ba), str(bb), ignore, held)
    elif ba or bb:                 # a figure and a building
        outside, bid = (ca, str(bb)) if bb else (cb, str(ba))
        p0, p1 = lines_to_building(state, outside, bid, ignore, held, own)
        batches = [(p1, p0) if ba else (p0, p1)]
    else:                          # two figures, or two in one building (nothing of it blocks)
        batches = []
    first: tuple[Point, Point, list[str]] | None = None
    for p0, p1 in batches:         # the most direct first: most answers come early
        if not len(p0):
            continue
        names, blocked = _blocking(state, p0, p1, ignore, held, own)
        clear = np.flatnonzero(~blocked.any(axis=1))
        if len(clear):
            return tuple(p0[clear[0]].tolist()), tuple(p1[clear[0]].tolist()), []  # type: ignore[return-value]
        first = first or (tuple(p0[0].tolist()), tuple(p1[0].tolist()),  # type: ignore[assignment]
                          [names[j] for j in np.flatnonzero(blocked[0])])
    return first or (ca, cb, lines_blockers(state, [(ca, cb)], ignore, held, own)[0])


def range_gap(state: State, fid: str, target: str) -> float:
    """SAGA p.16, p.27: the distance from shooting figure ``fid`` to the closest figure of
    ``target``, edge to edge, from and to the walls of a building either stands in."""
    figs = state["figures"]
    me = figs[fid]
    own = state["units"][me["unit"]].get("building")
    theirs = state["units"][target].get("building")
    walls = {bid: buildings.pieces(state)[bid]["polygon"] for bid in (own, theirs) if bid}
    if own and theirs:
        return polygon_distance(walls[own], walls[theirs])
    if theirs:
        return point_polygon_distance((me["x"], me["y"]), walls[theirs]) - me["r"]
    tgt = state["units"][target]["figures"]
    if own:
        return min(point_polygon_distance((figs[t]["x"], figs[t]["y"]), walls[own]) - figs[t]["r"] for t in tgt)
    return float(circle_gaps([[me["x"], me["y"], me["r"]]], figure_array(state, tgt)).min())


def weapon_range(state: State, unit: dict[str, Any]) -> float:
    w = unit.get("weapon")
    if not w:
        return 0.0
    rng = cat.inches(cat.distances()["weapons"][w]["range"])
    if w == "bow" and state["sides"][unit["owner"]].get("double_bow_range"):
        rng *= 2                                                   # Massed Shooting, SAGA p.61
    return rng


def eligible_shooters(state: State, shooter: str, target: str) -> list[str]:
    """SAGA p.16: figures within range of the closest target figure and seeing one target
    figure; a building's occupants shoot, and are shot at, from and to any part of it (SAGA
    p.27: every occupant measures alike, and the target's figures inside are seen alike)."""
    unit = state["units"][shooter]
    rng = weapon_range(state, unit)
    tgt = state["units"][target]["figures"]
    looks = tgt[:1] if state["units"][target].get("building") else tgt
    out = []
    verdict: bool | None = None          # inside a building every figure shoots from its walls
    for f in unit["figures"]:
        if range_gap(state, f, target) > rng + EPS:
            continue
        sees = verdict if verdict is not None else any(not sight_line(state, f, t)[2] for t in looks)
        if unit.get("building"):
            verdict = sees
        if sees:
            out.append(f)
    return out


def cover(state: State, target: str, shooters: list[str]) -> str:
    """SAGA p.18: light or heavy cover when two thirds (rounded up) of the target's figures are
    in, or behind, a cover piece as seen from every eligible shooter; mounted never."""
    unit = state["units"][target]
    if unit["mounted"] or not shooters:
        return "none"
    if unit.get("building") or unit.get("shield_wall"):
        return "heavy"                                 # inside a building; Flemish Shield Wall (SAGA p.46)
    figs = state["figures"]
    need = math.ceil(2 * len(unit["figures"]) / 3)
    best = {"light": 0, "heavy": 0}
    # the shooters shoot from any part of a building they hold: it is not between them (SAGA p.27)
    own = {state["units"][figs[s]["unit"]].get("building") for s in shooters}
    for f in unit["figures"]:
        p = (figs[f]["x"], figs[f]["y"])
        level = "none"
        for t in state["terrain"]:
            if t["cover"] == "none" or t["id"] in own:
                continue
            if "polygon" in t:
                hit = points_in_polygon([p], t["polygon"], eps=0.0)[0] or all(
                    segment_polygon_distance((figs[s]["x"], figs[s]["y"]), p, t["polygon"]) == 0.0
                    for s in shooters)
            else:
                hit = bool(segment_crosses_polyline([(figs[s]["x"], figs[s]["y"]) for s in shooters],
                                                    [p] * len(shooters), t["line"]).all())
            if hit and (level == "none" or t["cover"] == "heavy"):
                level = t["cover"]
        if level == "heavy":
            best["heavy"] += 1
            best["light"] += 1
        elif level == "light":
            best["light"] += 1
    if best["heavy"] >= need:
        return "heavy"
    if best["light"] >= need:
        return "light"
    return "none"


def begin(state: State, shooter: str, target: str, ctx: Context, after_move: bool = False) -> None:
    """Step 1: target and dice; then the attacker's step 2."""
    su, tu = state["units"][shooter], state["units"][target]
    if tu["owner"] == su["owner"]:
        raise IllegalAction("shoot at an enemy unit", "SAGA p.15")
    if not su.get("weapon"):
        raise IllegalAction(f"{su['name']} has no missile weapons", "SAGA p.15")
    ok = eligible_shooters(state, shooter, target)
    if not ok:
        raise IllegalAction(f"no figure of {su['name']} is in range of and sees {tu['name']}", "SAGA p.15-16")
    dice = attack_dice_shooting(su, len(ok))
    cov = cover(state, target, ok)
    state["shooting"] = {"shooter": shooter, "target": target, "attack": dice, "base": dice, "defence": 0,
                         "target_armour": 0, "reroll_attack": False, "reroll_defence": False, "cover": cov,
                         "spent": False, "own_fatigue_after": 0, "step": "attacker", "after_move": after_move,
                         "players": {shooter: su["owner"], target: tu["owner"]}, "used": []}
    ctx.emit("shoot", f"{su['name']} shoots at {tu['name']}: {len(ok)} figure(s) in range and sight, {dice} dice"
             + (f"; the target has {cov} cover" if cov != "none" else ""), "SAGA p.16",
             pieces=ok + list(tu["figures"]), unit=shooter, target=target, dice=dice)
    state["active"] = su["owner"]


def spend_fatigue(state: State, player: str, ctx: Context) -> None:
    """SAGA p.24: the target's owner discards a fatigue of the shooting unit for +1 armour."""
    sh = state["shooting"]
    su = state["units"][sh["shooter"]]
    if player != sh["players"][sh["target"]]:
        raise IllegalAction("only the target's owner spends the shooters' fatigue", "SAGA p.24")
    if sh["spent"] or su["fatigue"] < 1:
        raise IllegalAction("no fatigue to spend (once per shot)", "SAGA p.24")
    sh["spent"] = True
    su["fatigue"] -= 1
    sh["target_armour"] += 1
    ctx.emit("fatigue_spent", f"{player} spends a fatigue of {su['name']}: target armour +1", "SAGA p.24")


def done(state: State, ctx: Context) -> None:
    sh = state["shooting"]
    if sh["step"] == "attacker":
        sh["step"] = "defender"
        state["active"] = sh["players"][sh["target"]]
        return
    resolve(state, ctx)


def resolve(state: State, ctx: Context) -> None:
    """Steps 3 to 5."""
    sh = state["shooting"]
    su, tu = state["units"][sh["shooter"]], state["units"][sh["target"]]
    sh["attack"] = min(sh["attack"], 2 * sh["base"])
    crossbow = su.get("weapon") == "crossbow"
    armour = base_armour(state, tu, shooting=True, crossbow=crossbow) + sh["target_armour"]
    if sh["cover"] == "heavy":
        armour += 1
    armour = clamp_armour(armour)

    def hit(v: int) -> bool:
        return v == 6 or (v != 1 and v >= armour)                  # SAGA p.17

    rolls = [ctx.dice.d6(f"shooting of {su['name']}") for _ in range(sh["attack"])]
    if sh["reroll_attack"]:
        rolls = [v if hit(v) else ctx.dice.d6("shooting re-roll") for v in rolls]
    hits = sum(1 for v in rolls if hit(v))
    ctx.emit("shoot_attack", f"{su['name']} rolls {rolls} needing {armour}: {hits} hit(s)", "SAGA p.17",
             unit=sh["shooter"], hits=hits)
    need = 3 if sh["cover"] != "none" else 4
    n = min(hits + sh["defence"], 2 * hits)
    drolls = [ctx.dice.d6(f"defence of {tu['name']}") for _ in range(n)]
    if sh["reroll_defence"]:
        drolls = [v if v >= need else ctx.dice.d6("defence re-roll") for v in drolls]
    saved = min(hits, sum(1 for v in drolls if v >= need))
    ctx.emit("shoot_defence", f"{tu['name']} rolls {drolls} needing {need}+: {saved} cancelled", "SAGA p.18",
             unit=sh["target"], cancelled=saved)
    sh["hits"] = hits - saved
    # step 5: the target's owner picks the casualties or the Warlord's bodyguards (casualties.py)
    step = "casualties" if casualties.needs_choice(state, sh["target"], sh["hits"]) else \
        "bodyguards" if casualties.guard_choice(state, sh["target"], sh["hits"]) else None
    if step is not None:
        sh["step"] = step
        state["active"] = sh["players"][sh["target"]]
        return
    finish(state, ctx)


def finish(state: State, ctx: Context, chosen: list[str] | None = None, guards: list[str] | None = None) -> None:
    """Step 5 (``chosen``: the casualties the target's owner picked; ``guards``: the Warlord's
    bodyguards he picked; else the engine's), the shooters' own fatigue (a second activation's,
    SAGA p.24, and Deadly Strike's), then the shot is over."""
    from simulator.games.saga.melee import take_hits
    sh = state["shooting"]
    su = state["units"][sh["shooter"]]
    if chosen is not None:
        remove_figures(state, sh["target"], len(chosen), ctx, "shooting", "SAGA p.17", killer=su["owner"],
                       chosen=chosen)
    else:
        take_hits(state, sh["target"], sh["hits"], ctx, "shooting", killer_unit=sh["shooter"], guards=guards)
    if sh.get("second_activation"):
        add_fatigue(state, su, 1, ctx, "a shot after another move or shot this turn, once resolved", "SAGA p.24")
    if sh["own_fatigue_after"]:
        add_fatigue(state, su, sh["own_fatigue_after"], ctx, "Deadly Strike", "SAGA p.62")
    state["shooting"] = None
