"""Where things are on the table: engagement, arcs, line of sight, range and legal poses.

Rules: digest §5 (LOS and arcs, majority rule), §6.1 (movement limits), §6.5.1 (range from
the front arrow), §14 (terrain keywords), §19 (geometry requirements).
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.games.asoiaf import geom
from simulator.games.asoiaf.units import Unit, polygon, pose

State = dict[str, Any]
SHORT, LONG = 6.0, 12.0


def alive(state: State, side: str | None = None) -> list[Unit]:
    """Combat units on the table (not destroyed, not in reserve), in a stable order."""
    out = []
    for uid in state["order"]:
        u = state["units"][uid]
        if u["destroyed"] or u.get("reserve"):
            continue
        if side is None or u["side"] == side:
            out.append(u)
    return out


def enemies_of(state: State, u: Unit) -> list[Unit]:
    return [o for o in alive(state) if o["side"] != u["side"]]


def engaged_with(state: State, u: Unit) -> list[Unit]:
    """Enemy units whose trays touch this one (digest §2 "Engaged")."""
    me = polygon(u)
    return [o for o in enemies_of(state, u) if geom.within(me, polygon(o), geom.CONTACT)]


def arc_of(target: Unit, other_poly: np.ndarray) -> tuple[str, list[str]]:
    """The target's arc holding the larger part of ``other_poly`` and all arcs tied for it (§5)."""
    areas = geom.arc_areas(pose(target), other_poly)
    best = max(areas.values())
    tied = [a for a, v in areas.items() if v >= best - 1e-6 and best > 0]
    if not tied:   # touching only along a corner line: fall back to the direction of the centre
        c = other_poly.mean(axis=0) - np.array([target["x"], target["y"]])
        f, r = geom.forward(target["facing"]), geom.right(target["facing"])
        a, b = float(c @ f), float(c @ r)
        arc = ("front" if a >= 0 else "rear") if abs(a) >= abs(b) else ("right_flank" if b > 0 else "left_flank")
        return arc, [arc]
    return tied[0], tied


def arc_kind(arc: str) -> str:
    return "flank" if arc.endswith("flank") else arc


def terrain_with(state: State, keyword: str) -> list[dict[str, Any]]:
    return [t for t in state["terrain"] if keyword in t["keywords"]]


def tpoly(t: dict[str, Any]) -> np.ndarray:
    return np.array(t["polygon"], dtype=float)


def inside_terrain(poly: np.ndarray, t: dict[str, Any]) -> bool:
    """A tray is "in" a piece when they overlap (the digest leaves this open; we use any overlap)."""
    return geom.overlap(poly, tpoly(t))


def blockers(state: State, exclude: Iterable[str]) -> list[tuple[str, np.ndarray]]:
    skip = set(exclude)
    out = [(u["id"], polygon(u)) for u in alive(state) if u["id"] not in skip]
    out += [(w["id"], np.array(w["polygon"])) for w in state.get("walls", []) if w["id"] not in skip]
    return out


def line_of_sight(state: State, a: Unit, target_poly: np.ndarray, target_id: str,
                  ranged: bool) -> tuple[bool, str, list[str]]:
    """Whether ``a`` sees the target: part of it in a's Front arc and a clear line from a's
    front edge (digest §5, §14.1 Blocks LOS / Cover / Elevated)."""
    part = target_poly
    for point, normal in geom.arc_planes(*pose(a))["front"]:
        part = geom.clip(part, point, normal)
        if len(part) == 0:
            break
    if geom.area(part) <= 1e-6:
        return False, "the target is not in the unit's Front arc", []
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
    fl, fr = me[0], me[1]
    starts = [fl + (fr - fl) * s for s in (0.05, 0.5, 0.95)]
    ends = list(part) + [part.mean(axis=0)]
    hit: set[str] = set()
    for p in starts:
        for q in ends:
            blocked = [oid for oid, poly in obstacles if geom.segment_blocked(p, q, poly)]
            if not blocked:
                return True, "clear line from the front edge", []
            hit.update(blocked)
    return False, "every line from the front edge is blocked", sorted(hit)


def front_point(u: Unit) -> np.ndarray:
    """The front arrow: the centre of the front edge (origin of ranged attacks, §6.5.1)."""
    return np.array([u["x"], u["y"]]) + geom.forward(u["facing"]) * u["depth"] / 2


def range_to(u: Unit, target_poly: np.ndarray) -> float:
    return geom.point_polygon_distance(front_point(u), target_poly)


def on_table(state: State, poly: np.ndarray) -> bool:
    w, h = state["table"]
    return bool(np.all(poly[:, 0] >= -1e-6) and np.all(poly[:, 0] <= w + 1e-6)
                and np.all(poly[:, 1] >= -1e-6) and np.all(poly[:, 1] <= h + 1e-6))


def check_final(state: State, u: Unit, poly: np.ndarray, *, charge: bool = False,
                ignore: Iterable[str] = ()) -> None:
    """Raise IllegalAction unless a tray may end a move at ``poly`` (§6.1, §14.1 Impassable)."""
    skip = set(ignore) | {u["id"]}
    if not on_table(state, poly):
        raise IllegalAction("the tray would end partly off the table", 'ASOIAF "Moving" (6.1)')
    for oid, other in blockers(state, skip):
        if geom.overlap(poly, other):
            raise IllegalAction(f"the tray would end overlapping {oid}", 'ASOIAF "Moving" (6.1)')
    for t in terrain_with(state, "impassable"):
        if geom.overlap(poly, tpoly(t)):
            raise IllegalAction(f"the tray would end on impassable terrain ({t['name']})",
                                'ASOIAF "Impassable" (14.1)')
    if not charge:
        for e in enemies_of(state, u):
            if e["id"] in skip:
                continue
            if geom.within(poly, polygon(e), 1.0 + 1e-9):
                raise IllegalAction(f"a move may not end within 1\" of an enemy ({e['id']})",
                                    'ASOIAF "Moving" (6.1)')


def check_path(state: State, u: Unit, start: np.ndarray, end: np.ndarray, ignore: Iterable[str] = ()) -> None:
    """A straight move may cross friendly trays but not enemy trays or Impassable terrain."""
    swept = geom.sweep(start, end)
    skip = set(ignore)
    for e in enemies_of(state, u):
        if e["id"] not in skip and geom.overlap(swept, polygon(e)):
            raise IllegalAction(f"the move would pass through the enemy tray of {e['id']}",
                                'ASOIAF "Retreat" (6.4): no moving through enemy trays')
    for w in state.get("walls", []):
        if geom.overlap(swept, np.array(w["polygon"])):
            raise IllegalAction("units can never move through castle walls", 'ASOIAF "Castle walls" (16.3)')
    for t in terrain_with(state, "impassable"):
        if geom.overlap(swept, tpoly(t)):
            raise IllegalAction(f"the move would pass through impassable terrain ({t['name']})",
                                'ASOIAF "Impassable" (14.1)')


def rough_penalty(state: State, start: np.ndarray, end: np.ndarray) -> float:
    """1" off the whole move when it enters, leaves or crosses Rough terrain (§14.1; once per move)."""
    swept = geom.sweep(start, end)
    return 1.0 if any(geom.overlap(swept, tpoly(t)) for t in terrain_with(state, "rough")) else 0.0


def nearest_enemy(state: State, u: Unit, within: float) -> Unit | None:
    me = polygon(u)
    best: tuple[float, Unit] | None = None
    for e in enemies_of(state, u):
        d = geom.distance(me, polygon(e))
        if d <= within and (best is None or d < best[0]):
            best = (d, e)
    return best[1] if best else None


def morale_terrain_modifier(state: State, u: Unit) -> int:
    """Horrific -1 / Inspiring +1 for a unit within 6" of such a piece (§14.1)."""
    me = polygon(u)
    mod = 0
    for t in state["terrain"]:
        if geom.within(me, tpoly(t), SHORT):
            if "horrific" in t["keywords"]:
                mod -= 1
            if "inspiring" in t["keywords"]:
                mod += 1
    return mod
