"""Where things are on the table: engagement, arcs, line of sight, range and legal poses.

Rules: digest §5 (LOS and arcs, majority rule), §6.1 (movement limits), §6.5.1 (range from
the front arrow), §14 (terrain keywords), §19 (geometry requirements).
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.games.asoiaf.sides import friendly
from simulator.games.asoiaf.units import BOUNDS, Unit, polygon, pose
from simulator.geometry.table import (ARCS, arc_codes, arc_fractions, arc_part, overlap_depth, point_polygon_distance,
                                      polygon_area, polygon_distance, swept_polygon, tray_axes)
from simulator.geometry.visibility import blockers_between, segment_to_polygon_visible

State = dict[str, Any]
SHORT, LONG = 6.0, 12.0
CONTACT = 0.01          # trays closer than this (inches) are in contact
OVERLAP = 1e-4          # trays interpenetrating deeper than this overlap (touching does not)
SIGHT_CLEARANCE = CONTACT / 2   # a sight line touching a blocker (closer than this) is blocked


#: The legal-action search's shortcuts (issue #24), none of which changes an answer: shapes whose
#: bounding boxes are apart cannot overlap (most pairs tested are far apart, so the separating-axis
#: test runs only for the others), and sweeps, arcs and tray distances are worked out once per pose.
#: False: every pair gets the full test, every sweep, arc and distance is computed again (the
#: reference path, bench/bench_asoiaf_legal.py).
SHORTCUTS = True


def _bounds(p: np.ndarray) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a shape: kept with the cached tray polygons, else computed in Python
    (cheaper than four numpy reductions on a handful of points)."""
    cached = BOUNDS.get(id(p))
    if cached is not None and cached[0] is p:
        return cached[1]
    if not isinstance(p, np.ndarray):
        p = np.asarray(p, dtype=float).reshape(-1, 2)
    xs, ys = p[:, 0].tolist(), p[:, 1].tolist()
    return min(xs), min(ys), max(xs), max(ys)


def _boxes_apart(a: np.ndarray, b: np.ndarray, gap: float) -> bool:
    """The bounding boxes of ``a`` and ``b`` are more than ``gap`` apart along x or y (a lower bound
    of the distance between the shapes)."""
    ax0, ay0, ax1, ay1 = _bounds(a)
    bx0, by0, bx1, by1 = _bounds(b)
    return bx0 - ax1 > gap or ax0 - bx1 > gap or by0 - ay1 > gap or ay0 - by1 > gap


def overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Two convex shapes overlap (touching is not overlapping). Boxes apart by any positive gap
    leave a separating axis, so the depth could not exceed OVERLAP."""
    if SHORTCUTS and _boxes_apart(a, b, 0.0):
        return False
    return overlap_depth(a, b) > OVERLAP


def near(a: np.ndarray, b: np.ndarray, d: float) -> bool:
    """Edge-to-edge distance <= ``d``, with a quick bounding-box rejection first."""
    if _boxes_apart(a, b, d):
        return False
    return polygon_distance(a, b) <= d


_SWEEPS: dict[tuple[bytes, float, float], np.ndarray] = {}


def sweep(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The area a tray covers on a straight move from ``start`` to ``end`` (same facing). The
    legal-action search sweeps the same trays along the same sampled moves at every call, so each
    (start, offset) is computed once (read-only result)."""
    offset = end[0] - start[0]
    if not SHORTCUTS:
        return swept_polygon(start, offset)
    key = (np.ascontiguousarray(start, dtype=float).tobytes(), float(offset[0]), float(offset[1]))
    swept = _SWEEPS.get(key)
    if swept is None:
        if len(_SWEEPS) >= 20_000:
            _SWEEPS.clear()
        swept = _SWEEPS[key] = swept_polygon(start, offset)
        swept.flags.writeable = False
    return swept


def forward(facing: float) -> np.ndarray:
    return tray_axes(facing)[0]


def alive(state: State, side: str | None = None) -> list[Unit]:
    """Combat units on the table (not destroyed, not in reserve), in a stable order; with ``side``
    (a player or a team) only the units friendly to it (§13.1: a team's units are all friendly)."""
    out = []
    for uid in state["order"]:
        u = state["units"][uid]
        if u["destroyed"] or u.get("reserve") or u.get("undeployed"):
            continue
        if side is None or friendly(state, u["side"], side):
            out.append(u)
    return out


def enemies_of(state: State, u: Unit) -> list[Unit]:
    return [o for o in alive(state) if not friendly(state, o["side"], u["side"])]


def engaged_with(state: State, u: Unit) -> list[Unit]:
    """Enemy units whose trays touch this one (digest §2 "Engaged")."""
    me = polygon(u)
    return [o for o in enemies_of(state, u) if near(me, polygon(o), CONTACT)]


_ARCS: dict[tuple[tuple[float, ...], bytes], tuple[str, list[str]]] = {}


def arc_of(target: Unit, other_poly: np.ndarray) -> tuple[str, list[str]]:
    """The target's arc holding the larger part of ``other_poly`` and all arcs tied for it (§5).
    Each (target pose, shape) is worked out once (the legal-action search asks again and again)."""
    if not SHORTCUTS:
        return _arc_of(target, other_poly)
    key = (tuple(pose(target)), np.ascontiguousarray(other_poly, dtype=float).tobytes())
    found = _ARCS.get(key)
    if found is None:
        if len(_ARCS) >= 20_000:
            _ARCS.clear()
        found = _ARCS[key] = _arc_of(target, other_poly)
    return found[0], list(found[1])


def _arc_of(target: Unit, other_poly: np.ndarray) -> tuple[str, list[str]]:
    share = arc_fractions(pose(target), other_poly)
    best = max(share.values())
    tied = [a for a, v in share.items() if v >= best - 1e-6 and best > 0]
    if not tied:   # a degenerate shape: the arc of its centre
        arc = ARCS[int(arc_codes(pose(target), other_poly.mean(axis=0))[0, 0])]
        return arc, [arc]
    return tied[0], tied


def arc_label(arc: str) -> str:
    """How an arc reads in the log: front, right flank, rear, left flank."""
    return f"{arc} flank" if arc in ("left", "right") else arc


def arc_kind(arc: str) -> str:
    """front, flank (left or right) or rear."""
    return "flank" if arc in ("left", "right") else arc


def terrain_with(state: State, keyword: str) -> list[dict[str, Any]]:
    return [t for t in state["terrain"] if keyword in t["keywords"]]


def tpoly(t: dict[str, Any]) -> np.ndarray:
    return np.array(t["polygon"], dtype=float)


def inside_terrain(poly: np.ndarray, t: dict[str, Any]) -> bool:
    """A tray is "in" a piece when they overlap (the digest leaves this open; we use any overlap)."""
    return overlap(poly, tpoly(t))


def blockers(state: State, exclude: Iterable[str]) -> list[tuple[str, np.ndarray]]:
    skip = set(exclude)
    out = [(u["id"], polygon(u)) for u in alive(state) if u["id"] not in skip]
    out += [(w["id"], np.array(w["polygon"])) for w in state.get("walls", []) if w["id"] not in skip]
    return out


class Sight(NamedTuple):
    """A line-of-sight answer: whether it is clear, why, what is in the way when it is not, and a
    clear sight line (front edge -> target) when it is."""

    clear: bool
    why: str
    blockers: list[str]
    line: np.ndarray | None


def line_of_sight(state: State, a: Unit, target_poly: np.ndarray, target_id: str, ranged: bool) -> Sight:
    """Whether ``a`` sees the target: part of it in a's Front arc and a clear line from some point of
    a's front edge to that part (digest §5, §19.4 item 9, §14.1 Blocks LOS / Cover / Elevated).
    Exact (simulator.geometry.visibility): the line must keep SIGHT_CLEARANCE away from every
    blocker, so touching one blocks and two pieces in contact (closer than CONTACT) leave no gap."""
    part = arc_part(pose(a), target_poly, "front")
    if len(part) < 3 or polygon_area(part) <= 1e-6:
        return Sight(False, "the target is not in the unit's Front arc", [], None)
    me = polygon(a)
    elevated = ranged and any(inside_terrain(me, t) for t in terrain_with(state, "elevated"))
    obstacles: list[tuple[str, np.ndarray]] = []
    if not elevated:
        obstacles = blockers(state, (a["id"], target_id))
        for t in state["terrain"]:
            kw = t["keywords"]
            if "blocks_los" in kw or (ranged and "cover" in kw):
                if not inside_terrain(me, t):
                    obstacles.append((t["id"], tpoly(t)))
    polys = [poly for _, poly in obstacles]
    line = segment_to_polygon_visible(me[0], me[1], part, polys, clearance=SIGHT_CLEARANCE)
    if line is not None:
        return Sight(True, "clear line from the front edge", [], line)
    hit = sorted(obstacles[i][0] for i in blockers_between(me[0], me[1], part, polys, -SIGHT_CLEARANCE))
    return Sight(False, "every line from the front edge is blocked", hit, None)


def front_point(u: Unit) -> np.ndarray:
    """The front arrow: the centre of the front edge (origin of ranged attacks, §6.5.1)."""
    return np.array([u["x"], u["y"]]) + forward(u["facing"]) * u["depth"] / 2


def range_to(u: Unit, target_poly: np.ndarray) -> float:
    return point_polygon_distance(front_point(u), target_poly)


def on_table(state: State, poly: np.ndarray) -> bool:
    w, h = state["table"]
    x0, y0, x1, y1 = _bounds(poly)
    return x0 >= -1e-6 and x1 <= w + 1e-6 and y0 >= -1e-6 and y1 <= h + 1e-6


def check_final(state: State, u: Unit, poly: np.ndarray, *, charge: bool = False,
                ignore: Iterable[str] = ()) -> None:
    """Raise IllegalAction unless a tray may end a move at ``poly`` (§6.1, §14.1 Impassable)."""
    skip = set(ignore) | {u["id"]}
    if not on_table(state, poly):
        raise IllegalAction("the tray would end partly off the table", 'ASOIAF "Moving" (6.1)')
    for oid, other in blockers(state, skip):
        if overlap(poly, other):
            raise IllegalAction(f"the tray would end overlapping {oid}", 'ASOIAF "Moving" (6.1)')
    for t in terrain_with(state, "impassable"):
        if overlap(poly, tpoly(t)):
            raise IllegalAction(f"the tray would end on impassable terrain ({t['name']})",
                                'ASOIAF "Impassable" (14.1)')
    if not charge:
        for e in enemies_of(state, u):
            if e["id"] in skip:
                continue
            if near(poly, polygon(e), 1.0 + 1e-9):
                raise IllegalAction(f"a move may not end within 1\" of an enemy ({e['id']})",
                                    'ASOIAF "Moving" (6.1)')


def check_path(state: State, u: Unit, start: np.ndarray, end: np.ndarray, ignore: Iterable[str] = (),
               swept: np.ndarray | None = None) -> None:
    """A straight move may cross friendly trays but not enemy trays or Impassable terrain
    (``swept``: the move's swept area when the caller has it already)."""
    swept = sweep(start, end) if swept is None else swept
    skip = set(ignore)
    for e in enemies_of(state, u):
        if e["id"] not in skip and overlap(swept, polygon(e)):
            raise IllegalAction(f"the move would pass through the enemy tray of {e['id']}",
                                'ASOIAF "Retreat" (6.4): no moving through enemy trays')
    for w in state.get("walls", []):
        if overlap(swept, np.array(w["polygon"])):
            raise IllegalAction("units can never move through castle walls", 'ASOIAF "Castle walls" (16.3)')
    for t in terrain_with(state, "impassable"):
        if overlap(swept, tpoly(t)):
            raise IllegalAction(f"the move would pass through impassable terrain ({t['name']})",
                                'ASOIAF "Impassable" (14.1)')


def rough_penalty(state: State, start: np.ndarray, end: np.ndarray, swept: np.ndarray | None = None) -> float:
    """1" off the whole move when it enters, leaves or crosses Rough terrain (§14.1; once per move)."""
    rough = terrain_with(state, "rough")
    if not rough:
        return 0.0
    swept = sweep(start, end) if swept is None else swept
    return 1.0 if any(overlap(swept, tpoly(t)) for t in rough) else 0.0


#: Edge-to-edge distances between two tray poses (issue #24): the legal-action search measures the
#: same pairs of standing trays again at every call; each pair of poses is measured once.
_DISTANCES: dict[tuple[tuple[float, ...], tuple[float, ...]], float] = {}


def tray_distance(a: Unit, b: Unit) -> float:
    """polygon_distance of two trays where they stand."""
    if not SHORTCUTS:
        return polygon_distance(polygon(a), polygon(b))
    key = (tuple(pose(a)), tuple(pose(b)))
    d = _DISTANCES.get(key)
    if d is None:
        if len(_DISTANCES) >= 50_000:
            _DISTANCES.clear()
        d = _DISTANCES[key] = polygon_distance(polygon(a), polygon(b))
    return d


def nearest_enemy(state: State, u: Unit, within: float) -> Unit | None:
    me = polygon(u)
    best: tuple[float, Unit] | None = None
    for e in enemies_of(state, u):
        if SHORTCUTS and _boxes_apart(me, polygon(e), within):     # farther than ``within`` for sure
            continue
        d = tray_distance(u, e)
        if d <= within and (best is None or d < best[0]):
            best = (d, e)
    return best[1] if best else None


def morale_terrain_modifier(state: State, u: Unit) -> int:
    """Horrific -1 / Inspiring +1 for a unit within 6" of such a piece (§14.1); effects of the same
    name do not stack (§11.5), so several Horrific pieces still give -1 (and Inspiring +1)."""
    me = polygon(u)
    near_keywords = {k for t in state["terrain"] if near(me, tpoly(t), SHORT) for k in t["keywords"]}
    return ("inspiring" in near_keywords) - ("horrific" in near_keywords)
