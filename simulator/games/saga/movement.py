"""Movement (SAGA p.12-14, p.20, p.27, p.66): allowances, terrain, the VS zone, engaging,
formation, buildings; plus the engine's planners for engaging, disengaging and sampled moves.

Engine decisions (docs/saga.md): each figure moves in a straight line from where it
stands to where it ends (its path); distances are edge to edge; figures of the moving
unit move together, so they do not block one another; the gap between two figures of
another unit standing within VS of each other is a wall (SAGA p.13), except between
the figures of the unit being engaged (SAGA p.20).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from simulator.core.errors import IllegalAction
from simulator.games.saga import buildings
from simulator.games.saga import catalogue as cat
from simulator.games.saga.setup import layout
from simulator.games.saga.units import CONTACT, EPS, cohesive, figure_array, in_contact
from simulator.geometry.paths import (ConvexSet, PathSearch, configuration_obstacle, cut_path, gap_points, nearest_point,
                                      path_entry, path_length, shortest_path)
from simulator.geometry.segments import point_segment_distance, points_in_polygon, segments_intersect
from simulator.geometry.table import (Shapes, check_move, circle_gaps, circles_inside_rect, cohesion, rotate_points,
                                      segment_crosses_polyline, segment_polygon_distance, segments_polygon_distance)

#: The legal list's speed-ups (issue #24): the path worlds and searches of a unit's sampled moves
#: shared between its goals, the walls between other units' figures remembered between the moves
#: checked. Off: the reference code path (bench/bench_saga_legal.py).
SHORTCUTS = True

State = dict[str, Any]


@dataclass
class MoveRules:
    """What the activation allows: reductions, bonuses and restrictions."""

    slow_steps: int = 0                 # enemy fatigue / Sacred Ground (SAGA p.24, p.62)
    extra: float = 0.0                  # Gallop: +S (SAGA p.61)
    through_friends: bool = False       # Gallop
    no_engage: bool = False             # Uprising, Answering the Call, Hit and Run...
    must_engage: str | None = None      # second move within S of an enemy (SAGA p.14)
    floor: str = "VS"
    fixed: float | None = None          # disengagement: exactly up to S whatever the terrain


def activation_rules(pend: dict[str, Any]) -> MoveRules:
    """The MoveRules of the activation ``pend`` (``state.pending`` of kind move): the slowing it
    took, and what its free activation allows or forbids."""
    free = pend.get("free") or {}
    return MoveRules(slow_steps=pend.get("slow", 0), extra=free.get("extra", 0.0),
                     through_friends=free.get("through_friends", False),
                     no_engage=free.get("no_engage", False), must_engage=pend.get("must_engage"))


@dataclass
class MoveResult:
    destinations: dict[str, tuple[float, float]]
    engaged: str | None = None           # the enemy unit now in base contact
    uneven: bool = False
    allowance: float = 0.0
    building: str | None = None
    contacts: dict[str, list[str]] = field(default_factory=dict)
    engaged_building: str | None = None  # the enemy-occupied building whose walls it touches


def is_foot(unit: dict[str, Any]) -> bool:
    return not unit["mounted"]


def base_move(unit: dict[str, Any]) -> str:
    """SAGA p.12: foot M, mounted L; a unit's own allowance (Flemish S, SAGA p.46) first."""
    return str(unit.get("move") or ("L" if unit["mounted"] else "M"))


def allowance(state: State, unit: dict[str, Any], uneven: bool, rules: MoveRules) -> float:
    """The distance each figure may move this activation."""
    if rules.fixed is not None:
        return rules.fixed
    name = base_move(unit)
    ignore = is_foot(unit) and state["sides"][unit["owner"]].get("sons_of_the_land")
    if uneven and not ignore:
        name = "S"                                          # SAGA p.13
    if rules.slow_steps and not ignore:
        name = cat.step_down(name, rules.slow_steps, rules.floor)
    return cat.inches(name) + rules.extra


def _areas(state: State, movement: str) -> list[dict[str, Any]]:
    return [t for t in state["terrain"] if t["movement"] == movement]


def _reach(t: dict[str, Any], r: NDArray[np.float64] | float) -> NDArray[np.float64] | float:
    """How far the box test (:func:`_near_box`) grows a leg of a base of radius ``r`` towards the
    terrain piece ``t``: half the radius for an area (the exact test's own threshold), and EPS,
    above the crossing tolerance of the exact test, for a line."""
    return r * 0.5 if "polygon" in t else EPS


def _near_box(t: dict[str, Any], lo: NDArray[np.float64], hi: NDArray[np.float64],
              reach: NDArray[np.float64] | float) -> NDArray[np.bool_]:
    """Whether legs whose boxes are ``lo``-``hi`` (``(n, 2)``), grown by ``reach``, meet the box of
    the terrain piece ``t``: only those can touch it, so the exact test is left to them (most legs
    are nowhere near most pieces)."""
    shape = np.asarray(t["polygon"] if "polygon" in t else t["line"], dtype=np.float64)
    grow = np.reshape(reach, (-1, 1))
    return ((hi + grow >= shape.min(axis=0)) & (lo - grow <= shape.max(axis=0))).all(axis=1)


def path_touches(state: State, p0: tuple[float, float], p1: tuple[float, float], r: float,
                 movement: str) -> dict[str, Any] | None:
    """The first terrain piece of ``movement`` kind the base touches along p0-p1."""
    lo, hi = np.minimum([p0], [p1]), np.maximum([p0], [p1])
    for t in _areas(state, movement):
        reach = _reach(t, r)
        if not _near_box(t, lo, hi, reach)[0]:
            continue
        if "polygon" in t:
            if segment_polygon_distance(p0, p1, t["polygon"]) < reach:
                return t
        elif segment_crosses_polyline(p0, p1, t["line"])[0]:
            return t
    return None


def legs_touching(state: State, p0: NDArray[np.float64], p1: NDArray[np.float64], r: NDArray[np.float64],
                  movement: str) -> NDArray[np.bool_]:
    """:func:`path_touches` of many legs ``p0[i]-p1[i]`` (base radii ``r[i]``) at once: whether
    each touches a terrain piece of ``movement`` kind."""
    hit = np.zeros(len(p0), dtype=bool)
    if not len(p0):
        return hit
    r = np.broadcast_to(np.asarray(r, dtype=np.float64), (len(p0),))
    lo, hi = np.minimum(p0, p1), np.maximum(p0, p1)
    for t in _areas(state, movement):
        reach = np.broadcast_to(_reach(t, r), (len(p0),))
        near = _near_box(t, lo, hi, reach)
        if not near.any():
            continue
        if "polygon" in t:
            if SHORTCUTS:
                # the exact distances only where the projections leave it in doubt (issue #24)
                idx = np.nonzero(near)[0]
                far, into = _surely(p0[idx], p1[idx], t["polygon"], reach[idx])
                hit[idx[into]] = True
                idx = idx[~far & ~into]
                if len(idx):
                    hit[idx] |= segments_polygon_distance(p0[idx], p1[idx], t["polygon"]) < reach[idx]
                continue
            hit[near] |= segments_polygon_distance(p0[near], p1[near], t["polygon"]) < reach[near]
        else:
            hit[near] |= segment_crosses_polyline(p0[near], p1[near], t["line"])
    return hit


#: How sure :func:`_surely` must be (inches, far above the exact test's rounding).
SURE = 1e-7


def _surely(p0: NDArray[np.float64], p1: NDArray[np.float64], poly: Any,
            reach: NDArray[np.float64]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """For legs ``p0[i]-p1[i]`` and a polygon: those surely farther from it than ``reach`` (their
    projections on one of its edges' normals, or on the leg's own normal, lie that far apart:
    a lower bound of the distance, for any polygon), and those surely running into it (a convex
    polygon overlapped on all those axes: they meet, at distance 0). The rest need the exact
    distance."""
    v = np.asarray(poly, dtype=np.float64).reshape(-1, 2)
    e = np.concatenate([v[1:], v[:1]]) - v
    ln = np.hypot(e[:, 0], e[:, 1])
    e = e[ln > 0] / ln[ln > 0, None]
    axes = np.column_stack([e[:, 1], -e[:, 0]])              # the edges' normals
    pv = v @ axes.T                                          # (corners, axes)
    a0, a1 = p0 @ axes.T, p1 @ axes.T                        # (legs, axes)
    gap = np.maximum(np.minimum(a0, a1) - pv.max(axis=0), pv.min(axis=0) - np.maximum(a0, a1))
    d = p1 - p0
    dl = np.hypot(d[:, 0], d[:, 1])
    m = np.column_stack([-d[:, 1], d[:, 0]]) / np.where(dl > 0, dl, 1.0)[:, None]
    pm = m @ v.T                                             # (legs, corners)
    s0 = np.einsum("kd,kd->k", m, p0)
    own = np.where(dl > 0, np.maximum(pm.min(axis=1) - s0, s0 - pm.max(axis=1)), -np.inf)
    widest = np.maximum(gap.max(axis=1), own)
    after = np.concatenate([e[1:], e[:1]])
    turns = e[:, 0] * after[:, 1] - e[:, 1] * after[:, 0]
    # convex and counter-clockwise: every corner turns left, once round in all (no star)
    convex = len(e) >= 3 and bool((turns > SURE).all()) and \
        abs(float(np.arctan2(turns, np.einsum("kd,kd->k", e, after)).sum()) - 2 * math.pi) < 1e-6
    into = (widest < -SURE) & (reach > SURE) if convex else np.zeros(len(p0), dtype=bool)
    return widest > reach + SURE, into


def in_building(state: State, x: float, y: float) -> dict[str, Any] | None:
    for t in state["terrain"]:
        if t["capacity"] and points_in_polygon([[x, y]], t["polygon"], eps=0.0)[0]:
            return t
    return None


def engaged_enemy_figures(state: State, owner: str, positions: dict[str, tuple[float, float, float]]) -> set[str]:
    """Enemy figures in base contact with a figure of ``owner`` (given final positions)."""
    mine = [f for f, v in positions.items() if state["units"][state["figures"][f]["unit"]]["owner"] == owner]
    theirs = [f for f, v in positions.items() if state["units"][state["figures"][f]["unit"]]["owner"] != owner]
    if not mine or not theirs:
        return set()
    a = np.array([positions[f] for f in mine])
    b = np.array([positions[f] for f in theirs])
    touch = in_contact(state, a, b).any(axis=0)
    return {f for f, t in zip(theirs, touch) if t}


def validate_move(state: State, uid: str, dest: dict[str, tuple[float, float]], rules: MoveRules,
                  via: dict[str, list[tuple[float, float]]] | None = None) -> MoveResult:
    """Check a move of unit ``uid`` to ``dest`` (figure id -> end point; figures not named stay).
    ``via``: waypoints a figure passes through before its end point (a bending path); every leg
    is checked like a straight move and the legs together may not exceed the allowance.

    Raises IllegalAction naming the rule that forbids it."""
    unit = state["units"][uid]
    figs = state["figures"]
    for fid in dest:
        if fid not in unit["figures"]:
            raise IllegalAction(f"{fid} is not a living figure of {unit['name']}", "SAGA p.12")
    starts = {f: (figs[f]["x"], figs[f]["y"]) for f in unit["figures"]}
    ends = {f: (float(dest[f][0]), float(dest[f][1])) if f in dest else starts[f] for f in unit["figures"]}
    width, height = state["table"]["width"], state["table"]["height"]
    via = via or {}
    for fid in via:
        if fid not in dest:
            raise IllegalAction(f"{fid} has waypoints but no end point", "SAGA p.12")
    paths = {f: [starts[f]] + [(float(p[0]), float(p[1])) for p in via.get(f, [])] + [ends[f]]
             for f in unit["figures"]}
    # the legs of every figure's path: (figure, leg start, leg end)
    legs = [(f, a, b) for f in unit["figures"] for a, b in zip(paths[f][:-1], paths[f][1:]) if math.dist(a, b) > EPS]

    # terrain crossed, and the allowance that follows (SAGA p.13)
    uneven = False
    if legs:
        p0 = np.array([leg[1] for leg in legs])
        p1 = np.array([leg[2] for leg in legs])
        rr = np.array([figs[leg[0]]["r"] for leg in legs])
        blocked = legs_touching(state, p0, p1, rr, "impassable")
        if blocked.any():
            raise IllegalAction(f"{legs[int(np.argmax(blocked))][0]} would cross impassable terrain", "SAGA p.13")
        uneven = bool(legs_touching(state, p0, p1, rr, "uneven").any())
    moved = [f for f in unit["figures"] if any(leg[0] == f for leg in legs)]
    if unit.get("baggage") and uneven and moved:
        raise IllegalAction("baggage never enters uneven terrain", "SAGA p.56")
    allow = allowance(state, unit, uneven and bool(moved), rules)
    home = unit.get("building")
    for f in moved:
        # a figure leaving the building its unit holds: measured from the walls (SAGA p.27)
        leaving = home is not None and (in_building(state, *ends[f]) or {}).get("id") != home
        d = buildings.exit_length(state, str(home), paths[f], figs[f]["r"]) if leaving else \
            check_move([starts[f][0], starts[f][1], figs[f]["r"]], paths[f], allow + 1e-4).length
        if d > allow + 1e-4:
            raise IllegalAction(f"{f} would move {d:.2f}\"" + (" from the walls" if leaving else "")
                                + f" but may move only {allow:g}\"" + (" (uneven terrain: S)" if uneven else ""),
                                "SAGA p.12-13" + (", p.27" if leaving else ""))
        x, y = ends[f]
        if not circles_inside_rect([[x, y, figs[f]["r"]]], width, height)[0]:
            raise IllegalAction(f"{f} would leave the table (table edges are impassable)", "SAGA p.13")

    # everything else on the table
    others = [f for f in figs if figs[f]["unit"] != uid]
    friends = [f for f in others if state["units"][figs[f]["unit"]]["owner"] == unit["owner"]]
    enemies = [f for f in others if f not in friends]
    positions = {f: (figs[f]["x"], figs[f]["y"], figs[f]["r"]) for f in others}
    positions.update({f: (ends[f][0], ends[f][1], figs[f]["r"]) for f in unit["figures"]})
    mine = np.array([positions[f] for f in unit["figures"]])
    if others:
        oth = np.array([positions[f] for f in others])
        g = circle_gaps(mine, oth)
        if (g < -CONTACT).any():
            i, j = np.unravel_index(int(np.argmin(g)), g.shape)
            raise IllegalAction(f"{unit['figures'][i]} would overlap {others[j]}", "SAGA p.13")
    own = circle_gaps(mine)
    np.fill_diagonal(own, np.inf)
    if (own < -CONTACT).any():
        raise IllegalAction("two figures of the unit would overlap", "SAGA p.13")

    # contacts and the one-enemy-unit rule (SAGA p.21)
    contacts: dict[str, list[str]] = {}
    engaged_unit: str | None = None
    if enemies:
        en = np.array([positions[f] for f in enemies])
        touch = in_contact(state, mine, en)              # across a hedge too (SAGA p.20)
        for i, f in enumerate(unit["figures"]):
            hit = [enemies[j] for j in np.nonzero(touch[i])[0]]
            if hit:
                contacts[f] = hit
        units_hit = {figs[e]["unit"] for hs in contacts.values() for e in hs}
        if len(units_hit) > 1:
            if moved:
                raise IllegalAction("a unit may engage only one enemy unit", "SAGA p.21")
            # engine decision: a unit left touching two enemy units (neither side could
            # disengage) and staying where it stands engages neither
            units_hit = set()
        if units_hit:
            engaged_unit = units_hit.pop()
            if rules.no_engage:
                raise IllegalAction("this activation may not engage", "SAGA p.61-62")
            per_enemy: dict[str, int] = {}
            for hs in contacts.values():
                for e in hs:
                    per_enemy[e] = per_enemy.get(e, 0) + 1
            if any(n > 2 for n in per_enemy.values()):
                raise IllegalAction("no more than two figures may engage one enemy figure", "SAGA p.20")
    # engaging an occupied building: contact with its walls (SAGA p.27)
    walls = buildings.touched(state, unit["owner"], ends, {f: figs[f]["r"] for f in unit["figures"]})
    engaged_building: str | None = None
    if walls:
        held = buildings.enemy_occupied(state, unit["owner"])[walls[0]]
        if len(walls) > 1 or (engaged_unit is not None and engaged_unit not in held):
            raise IllegalAction("a unit may engage only one enemy unit (a building counts as its occupants)",
                                "SAGA p.21, p.27")
        if rules.no_engage:
            raise IllegalAction("this activation may not engage", "SAGA p.61-62")
        engaged_building = walls[0]
        if engaged_unit is None:
            engaged_unit = building_defender(state, engaged_building, unit["owner"])
    if rules.must_engage and engaged_unit != rules.must_engage:
        raise IllegalAction(f"on a second move within S of the enemy the unit must engage "
                            f"{state['units'][rules.must_engage]['name']}", "SAGA p.14")

    # paths: other bases and the gaps between figures of other units (SAGA p.13)
    blockers = [f for f in others if not (rules.through_friends and f in friends)]
    engaged_target = {f for f in enemies if figs[f]["unit"] == engaged_unit}
    if blockers and moved:
        bl = np.array([[figs[f]["x"], figs[f]["y"], figs[f]["r"]] for f in blockers])
        who = [leg[0] for leg in legs]
        p0 = np.array([leg[1] for leg in legs])
        p1 = np.array([leg[2] for leg in legs])
        rr = np.array([figs[f]["r"] for f in who])
        dist = point_segment_distance(bl[None, :, :2], p0[:, None], p1[:, None])
        clear = dist >= (rr[:, None] + bl[None, :, 2]) - CONTACT * 2
        if not clear.all():
            i, j = np.argwhere(~clear)[0]
            raise IllegalAction(f"{who[i]} would pass through {blockers[j]} (figures are impassable)", "SAGA p.13")
        walls = _walls(state, blockers, exclude=engaged_target)
        if walls is not None:
            cross = segments_intersect(p0[:, None], p1[:, None], walls[0][None], walls[1][None])
            if cross.any():
                i = int(np.argwhere(cross)[0][0])
                raise IllegalAction(f"{who[i]} would pass between two figures of another unit", "SAGA p.13")

    # the VS zone: coming within VS of an enemy figure obliges contact (SAGA p.12)
    if enemies and moved:
        now_engaged = engaged_enemy_figures(state, unit["owner"], positions)
        free = [f for f in enemies if f not in now_engaged           # occupants: the building's VS rule
                and not state["units"][figs[f]["unit"]].get("building")]
        if free:
            fr = np.array([positions[f] for f in free])
            who = [leg[0] for leg in legs]
            p0 = np.array([leg[1] for leg in legs])
            p1 = np.array([leg[2] for leg in legs])
            rr = np.array([figs[f]["r"] for f in who])
            path_gap = point_segment_distance(fr[None, :, :2], p0[:, None], p1[:, None]) - rr[:, None] - fr[None, :, 2]
            start_gap = circle_gaps(np.column_stack([np.array([starts[f] for f in who]), rr]), fr)
            vs = cat.inches("VS")
            trig = (path_gap <= vs + EPS) & (start_gap > vs + EPS)
            for i, f in enumerate(who):
                if trig[i].any() and f not in contacts:
                    raise IllegalAction(f"{f} comes within VS of an enemy figure, so it must end in base "
                                        f"contact with an enemy figure", "SAGA p.12")

    if moved and not cohesive(mine):
        # a unit its casualties left out of formation may stand where it is; a move regroups it
        raise IllegalAction("every figure must stay within VS of its unit (formation)", "SAGA p.12")

    # buildings (SAGA p.27): the whole unit enters, room for it, never mounted or enemy-occupied
    inside = [in_building(state, *ends[f]) for f in unit["figures"]]
    ids = {b["id"] if b else None for b in inside}
    building = None
    if ids != {None}:
        if len(ids) > 1:
            raise IllegalAction("a unit occupies a building only if every figure enters it", "SAGA p.27")
        b = inside[0]
        assert b is not None
        building = b["id"]
        problem = buildings.occupancy_problem(state, unit, b, len(unit["figures"]))
        if problem is not None:
            raise IllegalAction(*problem)
    buildings.check_move(state, uid, starts, ends, legs, engaged_building, building)
    return MoveResult({f: ends[f] for f in moved}, engaged_unit, uneven, allow, building, contacts, engaged_building)


def building_defender(state: State, building: str, attacker_owner: str) -> str:
    """SAGA p.27: when several enemy units hold the building, its owner picks the one that
    defends (``defend_building`` before melee step 1); until he does, and when the rule switch
    ``player_choices`` is off, the unit with the most figures (engine decision)."""
    held = buildings.enemy_occupied(state, attacker_owner)[building]
    return max(held, key=lambda u: (len(state["units"][u]["figures"]), u))


Walls = tuple[NDArray[np.float64], NDArray[np.float64]] | None
_WALLS: dict[tuple[Any, ...], Walls] = {}
_WALLS_MAX = 256        # remembered sets of walls (one per table position and mover; cleared when full)


def _walls(state: State, blockers: list[str], exclude: set[str]) -> Walls:
    """Segments between centres of same-unit figures within VS of each other."""
    figs = state["figures"]
    by_unit: dict[str, list[str]] = {}
    for f in blockers:
        if f not in exclude:
            by_unit.setdefault(figs[f]["unit"], []).append(f)
    if not SHORTCUTS:
        return _walls_between(state, by_unit)
    # every move checked for one legal list meets the same walls: remembered by what they depend on
    key = tuple((f, figs[f]["x"], figs[f]["y"], figs[f]["r"], u) for u, fl in by_unit.items() for f in fl)
    if key not in _WALLS:
        if len(_WALLS) >= _WALLS_MAX:
            _WALLS.clear()
        found = _WALLS[key] = _walls_between(state, by_unit)
        for a in found or ():
            a.flags.writeable = False
    return _WALLS[key]


def _walls_between(state: State, by_unit: dict[str, list[str]]) -> Walls:
    """:func:`_walls` of the figures of each unit of ``by_unit``."""
    s, e = [], []
    vs = cat.inches("VS")
    for fl in by_unit.values():
        if len(fl) < 2:
            continue
        arr = figure_array(state, fl)
        ii, jj = np.nonzero(np.triu(circle_gaps(arr) <= vs, 1))
        s.append(arr[ii, :2])
        e.append(arr[jj, :2])
    if not s or not sum(len(x) for x in s):
        return None
    return np.concatenate(s), np.concatenate(e)


def apply_move(state: State, uid: str, result: MoveResult) -> None:
    for f, (x, y) in result.destinations.items():
        state["figures"][f]["x"] = round(x, 4)
        state["figures"][f]["y"] = round(y, 4)
    unit = state["units"][uid]
    if result.building and result.building != unit.get("building"):
        unit["entered_building"] = result.building           # cannot leave it this turn (SAGA p.27)
    unit["building"] = result.building


# -- planners (used by the `engage` action, disengagement and the sampled moves) --------------

def translation(state: State, uid: str, dx: float, dy: float) -> dict[str, tuple[float, float]]:
    figs = state["figures"]
    return {f: (figs[f]["x"] + dx, figs[f]["y"] + dy) for f in state["units"][uid]["figures"]}


#: Degrees round an enemy figure, from the side facing the engaging figure, where it may stand.
ENGAGE_OFFSETS = (0, 25, -25, 50, -50, 75, -75, 100, -100, 130, -130, 160, -160)


def plan_engage(state: State, uid: str, target: str, rules: MoveRules) -> dict[str, tuple[float, float]]:
    """SAGA p.20 engagement: one figure at a time, each into contact with the nearest enemy
    figure that has fewer than two of ours on it, else as close as it may go."""
    figs = state["figures"]
    unit = state["units"][uid]
    held = state["units"][target].get("building")
    if held:                                          # engage the building as a whole (SAGA p.27)
        plan = buildings.plan_engage(state, uid, held, allowance(state, unit, False, rules) - 1e-3)
        if any(path_touches(state, (figs[f]["x"], figs[f]["y"]), p, figs[f]["r"], "uneven") for f, p in plan.items()):
            plan = buildings.plan_engage(state, uid, held, allowance(state, unit, True, rules) - 1e-3)
        return plan
    movers = sorted(unit["figures"], key=lambda f: _gap_to_unit(state, f, target))
    uneven_guess = any(path_touches(state, (figs[f]["x"], figs[f]["y"]), _nearest_point(state, f, target),
                                    figs[f]["r"], "uneven") for f in movers)
    allow = allowance(state, unit, uneven_guess, rules) - 1e-3
    placed: dict[str, tuple[float, float]] = {}
    on_enemy: dict[str, int] = {}
    lines = [np.asarray(t["line"], dtype=np.float64) for t in state["terrain"] if "line" in t]
    for f in movers:
        me = figs[f]
        start = (me["x"], me["y"])
        best = None
        enemy_figs = sorted(state["units"][target]["figures"],
                            key=lambda e: math.dist(start, (figs[e]["x"], figs[e]["y"])))
        # a way over no obstacle first, when there is one (it would slow the unit, SAGA p.13, p.20)
        for crossing in ((False, True) if lines else (None,)):
            if SHORTCUTS:
                best = _first_free_spot(state, f, [e for e in enemy_figs if on_enemy.get(e, 0) < 2],
                                        crossing, lines, allow, placed, uid)
                if best:
                    break
                continue
            for e in enemy_figs:
                if on_enemy.get(e, 0) >= 2:
                    continue
                spots = _engage_spots(state, f, e, crossing, lines, allow)
                if spots:
                    ok = _free_spots(state, f, np.array(spots, dtype=np.float64), placed, uid)
                    if ok.any():
                        best = (spots[int(np.argmax(ok))], e)
                        break
            if best:
                break
        if best:
            placed[f] = best[0]
            on_enemy[best[1]] = on_enemy.get(best[1], 0) + 1
        else:
            placed[f] = _closest_approach(state, f, target, placed, allow, uid)
    return placed


def _engage_spots(state: State, f: str, e: str, crossing: bool | None, lines: list[NDArray[np.float64]],
                  allow: float) -> list[tuple[float, float]]:
    """:func:`plan_engage`'s spots where figure ``f`` may touch enemy figure ``e``: against the
    near side of an obstacle the enemy stands behind (SAGA p.20), else round the enemy figure,
    nearest our side first; those in reach and over an obstacle or not as ``crossing`` says."""
    figs = state["figures"]
    me = figs[f]
    start = (me["x"], me["y"])
    ex, ey, er = figs[e]["x"], figs[e]["y"], figs[e]["r"]
    base = math.atan2(me["y"] - ey, me["x"] - ex)
    rr = er + me["r"] + 0.01
    spots = _obstacle_spots(state, start, me["r"], (ex, ey, er)) + \
        [(ex + rr * math.cos(a), ey + rr * math.sin(a)) for a in (base + math.radians(off) for off in ENGAGE_OFFSETS)]
    spots = [p for p in spots if math.dist(start, p) <= allow]
    if spots and crossing is not None:
        over = np.zeros(len(spots), dtype=bool)
        for line in lines:
            over |= segment_crosses_polyline(np.repeat([start], len(spots), axis=0), np.array(spots), line)
        spots = [p for p, o in zip(spots, over) if o == crossing]
    return spots


def _first_free_spot(state: State, f: str, enemy_figs: list[str], crossing: bool | None,
                     lines: list[NDArray[np.float64]], allow: float, placed: dict[str, tuple[float, float]],
                     uid: str) -> tuple[tuple[float, float], str] | None:
    """The first free one of :func:`_engage_spots` round the first of ``enemy_figs`` that has
    one, and that enemy figure: every spot tested at once by :func:`_free_spots`, which judges
    each spot on its own (issue #24: one call, not one per enemy figure)."""
    found = [(e, spots) for e in enemy_figs for spots in [_engage_spots(state, f, e, crossing, lines, allow)] if spots]
    if not found:
        return None
    ok = _free_spots(state, f, np.array([p for _, spots in found for p in spots], dtype=np.float64), placed, uid)
    at = 0
    for e, spots in found:
        mine = ok[at:at + len(spots)]
        if mine.any():
            return spots[int(np.argmax(mine))], e
        at += len(spots)
    return None


#: Shifts along an obstacle (shares of the two radii) of the spots facing an enemy behind it.
OBSTACLE_SHIFTS = (0.0, 0.4, -0.4, 0.8, -0.8, 0.95, -0.95)


def _obstacle_spots(state: State, start: tuple[float, float], r: float,
                    enemy: tuple[float, float, float]) -> list[tuple[float, float]]:
    """SAGA p.20: an enemy figure touching a linear obstacle (a hedge, a fence, a wall) from the
    side away from ``start`` is engaged by placing the figure (radius ``r``) against the obstacle's
    near side, facing it (``units.contacts_across_obstacles``): the spots just clear of the line
    opposite the enemy, then a little to either side."""
    from simulator.games.saga.units import _nearest_on_line
    out: list[tuple[float, float]] = []
    ex, ey, er = enemy
    for t in state["terrain"]:
        if "line" not in t or t["movement"] == "impassable":
            continue
        line = np.asarray(t["line"], dtype=np.float64)
        d, near = _nearest_on_line(np.array([[ex, ey]]), line)
        if d[0] > er + CONTACT or not segment_crosses_polyline(start, (ex, ey), line)[0]:
            continue
        q = near[0]
        k = int(np.argmin(point_segment_distance(q[None], line[:-1], line[1:])))
        along = line[k + 1] - line[k]
        along = along / max(float(np.hypot(*along)), EPS)
        normal = np.array([-along[1], along[0]])
        if float(np.dot(np.asarray(start) - q, normal)) < 0:
            normal = -normal
        for shift in OBSTACLE_SHIFTS:
            p = q + along * shift * (r + er) + normal * (r + 0.01)
            out.append((float(p[0]), float(p[1])))
    return out


def _gap_to_unit(state: State, fid: str, target: str) -> float:
    f = state["figures"][fid]
    return float(circle_gaps([[f["x"], f["y"], f["r"]]], figure_array(state, state["units"][target]["figures"])).min())


def _nearest_figure(state: State, fid: str, target: str) -> str:
    """The figure of unit ``target`` whose centre is nearest figure ``fid``'s."""
    f = state["figures"][fid]
    return min(state["units"][target]["figures"],
               key=lambda e: math.dist((f["x"], f["y"]), (state["figures"][e]["x"], state["figures"][e]["y"])))


def _nearest_point(state: State, fid: str, target: str) -> tuple[float, float]:
    best = state["figures"][_nearest_figure(state, fid, target)]
    return best["x"], best["y"]


def _free_spots(state: State, fid: str, spots: NDArray[np.float64], placed: dict[str, tuple[float, float]],
                uid: str) -> NDArray[np.bool_]:
    """Whether figure ``fid`` could stand at each of the end points ``spots`` (``(n, 2)``): on the
    table, overlapping no base, its straight path clear of other units' bases and of impassable
    terrain."""
    figs = state["figures"]
    r = figs[fid]["r"]
    start = np.array([figs[fid]["x"], figs[fid]["y"]])
    bases = np.column_stack([spots, np.full(len(spots), r)])
    ok = circles_inside_rect(bases, state["table"]["width"], state["table"]["height"])
    strangers = [(figs[o]["x"], figs[o]["y"], figs[o]["r"]) for o in figs if figs[o]["unit"] != uid]
    pts = strangers + [(placed[o][0], placed[o][1], figs[o]["r"]) for o in placed]
    pts += [(figs[o]["x"], figs[o]["y"], figs[o]["r"]) for o in state["units"][uid]["figures"]
            if o not in placed and o != fid]
    if not pts:
        return ok
    ok &= ~(circle_gaps(bases, np.array(pts)) < -EPS).any(axis=1)
    if strangers:
        others = np.array(strangers)
        d = point_segment_distance(others[None, :, :2], start[None, None, :], spots[:, None, :])
        ok &= ~(d < others[None, :, 2] + r - 2 * CONTACT).any(axis=1)
    if ok.any():
        legs = np.nonzero(ok)[0]
        ok[legs] = ~legs_touching(state, np.repeat(start[None], len(legs), axis=0), spots[legs],
                                  np.full(len(legs), r), "impassable")
    return ok


#: Gaps round the enemy figure (edge to edge, as shares of VS) at which a figure that cannot
#: reach base contact may stop (SAGA p.20 rule 6): inside VS, so that it still fights (SAGA p.21).
APPROACH_GAPS = (0.125, 0.375, 0.625, 0.8, 0.95)
#: Degrees round that enemy figure, from the side facing the figure, where it may stop.
APPROACH_OFFSETS = tuple(range(-160, 161, 10))


def _closest_approach(state: State, fid: str, target: str, placed: dict[str, tuple[float, float]],
                      allow: float, uid: str) -> tuple[float, float]:
    """Move as close as possible to the nearest enemy figure without entering the VS of an enemy
    figure that is not yet engaged (SAGA p.20 rule 6). The figure goes round its friends (rule 2):
    besides 25 steps straight towards the enemy figure, it may stop at spots round that figure,
    so that one whose straight way is blocked by the figures already in contact stands beside
    them, within VS of the engaged enemy, and fights (SAGA p.21)."""
    figs = state["figures"]
    f = figs[fid]
    start = np.array([f["x"], f["y"]])
    goal_id = _nearest_figure(state, fid, target)
    g = figs[goal_id]
    goal = np.array([g["x"], g["y"]])
    vec = goal - start
    dist = float(np.hypot(*vec))
    if dist < EPS:
        return float(start[0]), float(start[1])
    direction = vec / dist
    engaged = set()
    for e in state["units"][target]["figures"]:
        for p in placed.values():
            if math.dist(p, (figs[e]["x"], figs[e]["y"])) <= figs[e]["r"] + f["r"] + CONTACT + 0.02:
                engaged.add(e)
    free_enemies = [e for e in figs if state["units"][figs[e]["unit"]]["owner"] != state["units"][uid]["owner"]
                    and e not in engaged]
    fr = figure_array(state, free_enemies) if free_enemies else np.zeros((0, 3))
    vs = cat.inches("VS")
    line = start + direction * np.linspace(min(allow, dist), 0.0, 25)[:, None]
    base = math.atan2(-direction[1], -direction[0])
    angles = base + np.radians(np.array(APPROACH_OFFSETS, dtype=np.float64))
    radii = g["r"] + f["r"] + vs * np.array(APPROACH_GAPS)
    ring = goal + np.stack([np.outer(radii, np.cos(angles)).ravel(), np.outer(radii, np.sin(angles)).ravel()], axis=1)
    ring = ring[np.hypot(*(ring - start).T) <= allow]
    spots = np.concatenate([line, ring])
    ok = np.ones(len(spots), dtype=bool)
    if len(fr):
        seg = point_segment_distance(fr[None, :, :2], start[None, None, :], spots[:, None, :]) - f["r"] - fr[None, :, 2]
        ok &= ~(seg <= vs + 0.01).any(axis=1)
    if ok.any():
        legs = np.nonzero(ok)[0]
        ok[legs] = _free_spots(state, fid, spots[legs], placed, uid)
    if not ok.any():
        return float(start[0]), float(start[1])
    # the nearest the enemy figure, then the shortest way (the line's farthest step on a tie)
    near = np.round(np.hypot(*(spots - goal).T), 6)
    travel = np.hypot(*(spots - start).T)
    order = np.lexsort((travel, near))
    p = spots[order[ok[order]][0]]
    return float(p[0]), float(p[1])


def disengage_options(state: State, uid: str, away_from: str) -> list[dict[str, tuple[float, float]]]:
    """Whole-unit withdrawals straight away from the enemy (then turned by up to 90 degrees),
    the longest legal one per direction, best (farthest from the unit fought) first: the first
    is the engine's placement for SAGA p.22 step 8 (every figure up to S away, none ending within
    VS of an enemy, in formation, as far as possible from the unit fought)."""
    own = figure_array(state, state["units"][uid]["figures"])
    foe = figure_array(state, state["units"][away_from]["figures"])
    if not len(foe):
        return []
    v = own[:, :2].mean(axis=0) - foe[:, :2].mean(axis=0)
    base = math.atan2(v[1], v[0]) if np.hypot(*v) > EPS else 0.0
    s = cat.inches("S")
    found: list[tuple[float, int, dict[str, tuple[float, float]]]] = []
    for k, off in enumerate((0, 20, -20, 45, -45, 70, -70, 90, -90)):
        a = base + math.radians(off)
        for dist in (s, s * 0.75, s * 0.5):
            dest = translation(state, uid, dist * math.cos(a), dist * math.sin(a))
            if withdrawal_problem(state, uid, away_from, dest) is not None:
                continue
            moved = own.copy()
            moved[:, 0] += dist * math.cos(a)
            moved[:, 1] += dist * math.sin(a)
            found.append((float(circle_gaps(moved, foe).min()), k, dest))
            break
    found.sort(key=lambda t: (-round(t[0], 6), t[1]))
    return [d for _, _, d in found]


def withdrawal_problem(state: State, uid: str, away_from: str, dest: dict[str, tuple[float, float]]) -> str | None:
    """Why ``dest`` is not a legal disengagement of ``uid`` from ``away_from`` (SAGA p.22 step 8),
    or None: each figure moves up to S whatever the terrain, along a legal path, in formation,
    without touching an enemy; no figure ends within VS of an enemy figure; and every figure ends
    farther from the unit fought than it stood (engine reading of "as far as possible": the owner
    places the unit freely within these limits, digest 7 step 8)."""
    unit = state["units"][uid]
    if set(dest) != set(unit["figures"]):
        return f"a disengaging unit moves all its figures: name each figure of {unit['name']}"
    moved = np.array([[float(dest[f][0]), float(dest[f][1]), state["figures"][f]["r"]] for f in unit["figures"]])
    enemies = [f for f, v in state["figures"].items() if state["units"][v["unit"]]["owner"] != unit["owner"]]
    if enemies and (circle_gaps(moved, figure_array(state, enemies)) <= cat.inches("VS") + EPS).any():
        return "no figure may end within VS of an enemy figure"
    foe = figure_array(state, state["units"][away_from]["figures"])
    before = circle_gaps(figure_array(state, unit["figures"]), foe).min(axis=1)
    after = circle_gaps(moved, foe).min(axis=1)
    if (after <= before + EPS).any():
        return "every figure must end farther from the unit it fought"
    try:
        validate_move(state, uid, {f: (float(p[0]), float(p[1])) for f, p in dest.items()},
                      MoveRules(no_engage=True, fixed=cat.inches("S")))
    except IllegalAction as e:
        return e.reason
    return None


# -- bending paths (SAGA p.12-13: any path, round obstacles and other bases) -----------------------

PATH_MARGIN = 0.05      # inches a planned path keeps from what it goes round
CROSSING_GAP = "L"      # gaps between impassable pieces at most this wide are crossings
Planned = tuple[dict[str, tuple[float, float]], dict[str, list[tuple[float, float]]]]


@dataclass
class SampledMove:
    """A planned move: every figure's end point, the waypoints of those whose path bends, and
    :func:`validate_move`'s verdict on it."""

    dest: dict[str, tuple[float, float]]
    via: dict[str, list[tuple[float, float]]]
    result: MoveResult


@dataclass
class PathWorld:
    """One unit's view of the table for path planning: its reference point (the figures' mean),
    each figure's offset from it, the configuration obstacles the reference point must not
    enter (terrain and bases grown by the formation, ``simulator/geometry/paths.py``) and the
    box the reference point must stay in to keep every base on the table. The offsets are
    the unit's formation as it stands, or another one it takes first (:func:`column`)."""

    uid: str
    ref: NDArray[np.float64]
    offsets: dict[str, tuple[float, float]]
    obstacles: ConvexSet
    bounds: tuple[float, float, float, float]
    reform: float = 0.0          # the longest move of a figure into its place in the new formation
    units: list[bool] = field(default_factory=list)   # per obstacle: another unit's figures, not terrain
    search: PathSearch | None = None      # the reference point's shortest paths (:func:`_approach`)


def path_world(state: State, uid: str, rules: MoveRules, heading: float | None = None,
               engaging: str | None = None, lead: str | None = None) -> PathWorld | None:
    """The obstacles of a move of ``uid`` (in its formation, or first re-formed as a
    :func:`column` facing ``heading`` degrees; None if the column stands nowhere near clear):
    impassable terrain (a base may reach into it by half its radius, as :func:`validate_move`
    allows), buildings the unit is not in (no path passes through one, SAGA p.27; enemy-held ones
    also by VS), every other unit's figures (their bases, and the gaps between them, SAGA p.13;
    enemies also by VS, SAGA p.12), friends left out when the move may pass through them (Gallop).
    ``engaging``: an enemy unit the move engages, whose figures (or the building it holds) are
    grown only by the bases, not by VS, so that a path may end against them. Every obstacle is
    grown by more than nothing, so none is a degenerate polygon. ``lead``: the world of that one
    figure's base alone (the unit filing behind it, :func:`_file_along`)."""
    unit = state["units"][uid]
    fids = [lead] if lead else list(unit["figures"])
    arr = figure_array(state, fids)
    ref = arr[:, :2].mean(axis=0)
    if heading is None:
        off = arr[:, :2] - ref
    else:
        slots = column(state, uid, heading)
        off = np.array([slots[f] for f in unit["figures"]], dtype=float)
    r = float(arr[:, 2].max())
    vs = cat.inches("VS")
    obstacles: list[NDArray[np.float64]] = []
    for t in state["terrain"]:
        if t["movement"] == "impassable":
            if "polygon" in t:
                obstacles.append(configuration_obstacle(t["polygon"], 0.5 * r + PATH_MARGIN, off))
            else:
                line = t["line"]
                obstacles += [configuration_obstacle([a, b], PATH_MARGIN, off) for a, b in zip(line[:-1], line[1:])]
    held = buildings.enemy_occupied(state, unit["owner"])
    target_building = state["units"][engaging].get("building") if engaging else None
    for bid, piece in buildings.pieces(state).items():
        if bid != unit.get("building"):
            grow = r + PATH_MARGIN if bid == target_building else r + vs + PATH_MARGIN if bid in held else PATH_MARGIN
            obstacles.append(configuration_obstacle(piece["polygon"], grow, off))
    terrain_count = len(obstacles)
    for other in state["units"].values():
        if other["id"] == uid or not other["figures"]:
            continue
        friend = other["owner"] == unit["owner"]
        if friend and rules.through_friends:
            continue
        theirs = figure_array(state, other["figures"])
        grow = r + float(theirs[:, 2].max()) + PATH_MARGIN + (0.0 if friend or other["id"] == engaging else vs)
        obstacles.append(configuration_obstacle(theirs[:, :2], grow, off))
    units = [i >= terrain_count for i in range(len(obstacles))]
    w, h = state["table"]["width"], state["table"]["height"]
    lo = (arr[:, 2] - off.T).max(axis=1)
    hi = np.array([w, h]) - (arr[:, 2] + off.T).max(axis=1)
    shapes = ConvexSet(obstacles)
    reform = 0.0
    if heading is not None:
        # the column round the unit's centre, else slid along its length (its rear, then its
        # front, where the unit's stands), wherever it stands clear of everything
        axis = np.array([math.cos(math.radians(heading)), math.sin(math.radians(heading))])
        now, new = (arr[:, :2] - ref) @ axis, off @ axis
        anchors = [ref, ref + axis * (now.min() - new.min()), ref + axis * (now.max() - new.max())]
        free = [a for a in anchors if not shapes.inside(a[None])[0].any()]
        if not free:
            return None
        ref = free[0]
        reform = float(np.hypot(*(arr[:, :2] - ref - off).T).max())
    return PathWorld(uid, ref, {f: (float(o[0]), float(o[1])) for f, o in zip(fids, off)}, shapes,
                     (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])), reform, units)


def column(state: State, uid: str, heading: float) -> dict[str, tuple[float, float]]:
    """The unit re-formed as a column two figures wide (ranks as the set-up lays them out,
    ``setup.layout``) facing ``heading`` degrees, round its reference point: the offset of each
    figure, the foremost figures taking the front ranks (a narrow formation for a gap such as a
    ford; each figure moves along any path, SAGA p.12, and the unit only has to end in formation)."""
    unit = state["units"][uid]
    arr = figure_array(state, unit["figures"])
    slots = np.array(layout((0.0, 0.0), len(arr), 2, float(arr[:, 2].max()) * 2), dtype=float)
    slots = rotate_points(slots, (0.0, 0.0), heading - 90.0)           # layout's ranks stand along y
    front = np.array([math.cos(math.radians(heading)), math.sin(math.radians(heading))])
    side = np.array([front[1], -front[0]])
    rel = arr[:, :2] - arr[:, :2].mean(axis=0)
    by_fig = sorted(range(len(arr)), key=lambda i: (-round(float(rel[i] @ front), 3), float(rel[i] @ side)))
    by_slot = sorted(range(len(slots)), key=lambda i: (-round(float(slots[i] @ front), 3), float(slots[i] @ side)))
    return {unit["figures"][i]: (float(slots[j][0]), float(slots[j][1])) for i, j in zip(by_fig, by_slot)}


def _planned(world: PathWorld, ref_path: NDArray[np.float64]) -> Planned:
    """Every figure's end point and waypoints (to 0.001"): the formation translated along
    ``ref_path`` (each figure first stepping into its place when the world re-forms the unit)."""
    def at(p: NDArray[np.float64], o: tuple[float, float]) -> tuple[float, float]:
        return round(float(p[0] + o[0]), 3), round(float(p[1] + o[1]), 3)

    inner = ref_path[1:-1] if world.reform < EPS else ref_path[:-1]
    dest = {f: at(ref_path[-1], o) for f, o in world.offsets.items()}
    via = {f: [at(p, o) for p in inner] for f, o in world.offsets.items()}
    return dest, {f: v for f, v in via.items() if v}


def move_action(dest: dict[str, tuple[float, float]], via: dict[str, list[tuple[float, float]]]) -> dict[str, Any]:
    """The ``move`` action of a planned move: ``to`` for straight moves, ``path`` when it bends."""
    if not via:
        return {"type": "move", "to": {f: [round(x, 3), round(y, 3)] for f, (x, y) in dest.items()}}
    return {"type": "move", "path": {f: [[x, y] for x, y in via.get(f, [])] + [[round(dest[f][0], 3), round(dest[f][1], 3)]]
                                     for f in dest}}


def bending_move(state: State, uid: str, goal: tuple[float, float], rules: MoveRules, partial: bool = False,
                 worlds: dict[float | str | None, PathWorld | None] | None = None, snake: bool = True) -> SampledMove | None:
    """A move of the whole unit whose reference point (its figures' mean) follows the shortest
    path to ``goal`` round impassable terrain, buildings and other units (SAGA p.12-13: each
    figure moves along any path), checked by :func:`validate_move`: in its formation, else (a
    unit of three figures or more) re-formed at the start as a :func:`column` facing the goal's
    direction rounded to a quarter turn, narrow enough for a gap such as a ford; else (``snake``)
    figure by figure, filing through (:func:`_file_along`). ``partial``: go
    as far as the allowance takes it along that path, stopping short of whatever holds the goal
    (an enemy unit: outside its VS); otherwise the reference point must reach ``goal`` itself.
    ``worlds`` caches the :func:`path_world` of each formation between calls (key: None for the
    formation as it stands, else the column's heading; a leader's, :func:`_file_along`). None when
    there is no legal such move."""
    worlds = {} if worlds is None else worlds
    if None not in worlds:
        worlds[None] = path_world(state, uid, rules)
    as_it_stands = worlds[None]
    assert as_it_stands is not None                       # the formation as it stands always has a world
    found = _along(state, uid, goal, rules, partial, as_it_stands)
    count = len(state["units"][uid]["figures"])
    if found is None and count >= 3:
        ref = as_it_stands.ref
        heading = float(round(math.degrees(math.atan2(goal[1] - ref[1], goal[0] - ref[0])) / 90) * 90 % 360)
        if heading not in worlds:
            worlds[heading] = path_world(state, uid, rules, heading)
        reformed = worlds[heading]
        found = _along(state, uid, goal, rules, partial, reformed) if reformed is not None else None
    if found is None and snake and count >= 2:
        found = _file_along(state, uid, goal, rules, partial, worlds if SHORTCUTS else None)
    return found


#: Inches between the edges of two figures filing one behind the other (within VS: formation kept).
FILE_GAP = 0.5


def _file_along(state: State, uid: str, goal: tuple[float, float], rules: MoveRules,
                partial: bool, worlds: dict[float | str | None, PathWorld | None] | None = None) -> SampledMove | None:
    """The unit snaking through a gap figure by figure (SAGA p.12: each figure moves along any
    path of its own): the figure nearest ``goal`` takes the shortest path of its base alone; the
    others, nearest first, go straight to where that path starts and follow it, each FILE_GAP
    behind the one before, so the unit ends as a file in formation. Checked by
    :func:`validate_move` (allowance per figure, terrain, bases, gaps, VS zone, formation); None
    when there is no legal such move. ``worlds``: :func:`bending_move`'s, where the leader's
    world is kept (key: ``"lead " + figure``)."""
    unit = state["units"][uid]
    figs = state["figures"]
    lead = min(unit["figures"], key=lambda f: math.dist((figs[f]["x"], figs[f]["y"]), goal))
    worlds = {} if worlds is None else worlds
    if "lead " + lead not in worlds:
        worlds["lead " + lead] = path_world(state, uid, rules, lead=lead)
    world = worlds["lead " + lead]
    if world is None:
        return None
    goal_pt = np.asarray(goal, dtype=np.float64)
    lo, hi = np.array(world.bounds[:2]), np.array(world.bounds[2:])
    if partial:
        goal_pt = np.clip(goal_pt, lo, np.maximum(lo, hi))
    held = world.obstacles.inside(goal_pt[None])[0] if partial else np.zeros(world.obstacles.count, dtype=bool)
    if any(h and not is_unit for h, is_unit in zip(held, world.units)):
        return None
    full = allowance(state, unit, False, rules)
    path = _approach(world, goal_pt, held, math.inf if partial else full)
    if path is None:
        return None
    start = path[0]
    others = sorted((f for f in unit["figures"] if f != lead),
                    key=lambda f: math.dist((figs[f]["x"], figs[f]["y"]), (float(start[0]), float(start[1]))))
    pitch = 2 * float(figure_array(state, unit["figures"])[:, 2].max()) + FILE_GAP
    for allow in sorted({full, allowance(state, unit, True, rules)}, reverse=True):
        walk = cut_path(path, allow - PATH_MARGIN / 2) if partial else path
        length = path_length(walk)
        if length < EPS:
            continue
        dest = {lead: (round(float(walk[-1][0]), 3), round(float(walk[-1][1]), 3))}
        via = {lead: [(round(float(p[0]), 3), round(float(p[1]), 3)) for p in walk[1:-1]]}
        for k, f in enumerate(others, start=1):
            own = np.array([figs[f]["x"], figs[f]["y"]])
            trail = np.concatenate([own[None], walk])          # to where the leader started, then after him
            along = min(length - k * pitch, allow - float(np.hypot(*(walk[0] - own))) - PATH_MARGIN)
            if along <= 0:                                      # not yet on the path: as far toward it
                step = cut_path(trail[:2], max(0.0, float(np.hypot(*(walk[0] - own))) + along))
                dest[f] = (round(float(step[-1][0]), 3), round(float(step[-1][1]), 3))
                continue
            mine = cut_path(trail, float(np.hypot(*(walk[0] - own))) + along)
            dest[f] = (round(float(mine[-1][0]), 3), round(float(mine[-1][1]), 3))
            via[f] = [(round(float(p[0]), 3), round(float(p[1]), 3)) for p in mine[1:-1]]
        via = {f: v for f, v in via.items() if v}
        try:
            return SampledMove(dest, via, validate_move(state, uid, dest, rules, via=via))
        except IllegalAction:
            if not partial:
                return None
    return None


def _along(state: State, uid: str, goal: tuple[float, float], rules: MoveRules, partial: bool,
           world: PathWorld) -> SampledMove | None:
    """:func:`bending_move` in one formation (``world``)."""
    unit = state["units"][uid]
    goal_pt = np.asarray(goal, dtype=np.float64)
    lo, hi = np.array(world.bounds[:2]), np.array(world.bounds[2:])
    if partial:
        goal_pt = np.clip(goal_pt, lo, np.maximum(lo, hi))
    held = world.obstacles.inside(goal_pt[None])[0] if partial else np.zeros(world.obstacles.count, dtype=bool)
    if any(h and not is_unit for h, is_unit in zip(held, world.units)):
        return None                                        # the formation does not fit there
    full = allowance(state, unit, False, rules)
    ref_path = _approach(world, goal_pt, held, math.inf if partial else full - world.reform)
    if ref_path is None:
        return None
    for allow in sorted({full, allowance(state, unit, True, rules)}, reverse=True):
        cut = cut_path(ref_path, allow - world.reform - PATH_MARGIN / 2) if partial else ref_path
        if path_length(cut) < EPS:
            continue
        dest, via = _planned(world, cut)
        try:
            return SampledMove(dest, via, validate_move(state, uid, dest, rules, via=via))
        except IllegalAction:
            if not partial:
                return None
    return None


def _approach(world: PathWorld, goal: NDArray[np.float64], held: NDArray[np.bool_],
              limit: float) -> NDArray[np.float64] | None:
    """The reference point's shortest path toward ``goal`` round the world's obstacles but the
    ``held`` ones (those holding the goal), cut PATH_MARGIN short of where it enters one of
    those; None when there is none (of at most ``limit``) or it goes nowhere."""
    if SHORTCUTS:
        # one search per world for all the goals, whatever holds them (issue #24)
        if world.search is None:
            world.search = PathSearch(world.ref, world.obstacles, world.bounds)
        ref_path = world.search.path(goal, limit, held)
    else:
        ref_path = shortest_path(world.ref, goal, world.obstacles.subset(~held), world.bounds, limit)
    if ref_path is None or path_length(ref_path) < EPS:
        return None
    for zone in (o for o, h in zip(world.obstacles.polys, held) if h):
        entry = path_entry(ref_path, zone)
        if entry is not None:
            ref_path = cut_path(ref_path, entry - PATH_MARGIN)
    return ref_path if path_length(ref_path) >= EPS else None


def engage_move(state: State, uid: str, target: str, rules: MoveRules) -> Planned:
    """The engine's engaging move of ``uid`` against ``target`` (SAGA p.20; a unit inside a
    building: the building, SAGA p.27): every figure's end point and the waypoints of those whose
    path bends. The straight engagement (:func:`plan_engage`) when it is legal and reaches the
    target; else, when something is in the way (impassable terrain, buildings, other bases,
    another enemy's VS zone), the unit in its formation goes round it along the shortest path
    until its nearest figure is about to touch the target (:func:`path_world` ``engaging``), then
    engages straight from there with what is left of its allowance (:func:`plan_engage`), if
    :func:`validate_move` accepts the whole path; else the straight plan (so that the refusal
    names the rule)."""
    dest = plan_engage(state, uid, target, rules)
    if _reaches(state, uid, target, dest, {}, rules):
        return dest, {}
    bent = _engage_round(state, uid, target, rules)
    return bent if bent is not None else (dest, {})


def _reaches(state: State, uid: str, target: str, dest: dict[str, tuple[float, float]],
             via: dict[str, list[tuple[float, float]]], rules: MoveRules) -> bool:
    """Whether the move is legal and engages ``target`` (or the building it holds)."""
    try:
        res = validate_move(state, uid, dest, rules, via=via)
    except IllegalAction:
        return False
    held = state["units"][target].get("building")
    return res.engaged == target or (held is not None and res.engaged_building == held)


def _engage_round(state: State, uid: str, target: str, rules: MoveRules) -> Planned | None:
    """:func:`engage_move` round what is in the way; None when no such move is legal."""
    world = path_world(state, uid, rules, engaging=target)
    assert world is not None                           # the formation as it stands always has a world
    unit = state["units"][uid]
    goal = figure_array(state, state["units"][target]["figures"])[:, :2].mean(axis=0)
    held = world.obstacles.inside(goal[None])[0]
    if not held.any():
        return None
    full = allowance(state, unit, False, rules)
    depth = max(float(np.hypot(*(np.asarray(o) - goal).T).max()) for o, h in zip(world.obstacles.polys, held) if h)
    ref_path = _approach(world, goal, held, full + depth)
    if ref_path is None:
        return None
    stand, via = _planned(world, ref_path)
    figs = state["figures"]
    legs = [(p, q, figs[f]["r"]) for f in stand
            for p, q in zip([(figs[f]["x"], figs[f]["y"]), *via.get(f, [])], [*via.get(f, []), stand[f]])]
    uneven = bool(legs_touching(state, np.array([g[0] for g in legs]), np.array([g[1] for g in legs]),
                                np.array([g[2] for g in legs]), "uneven").any())
    left = allowance(state, unit, uneven, rules) - path_length(ref_path) - 1e-3
    if left < EPS:
        return None
    moved = {**figs, **{f: {**figs[f], "x": p[0], "y": p[1]} for f, p in stand.items()}}
    final = plan_engage({**state, "figures": moved}, uid, target, replace(rules, fixed=left))
    dest = {f: final.get(f, stand[f]) for f in stand}
    via = {f: via.get(f, []) + ([stand[f]] if math.dist(stand[f], dest[f]) > EPS else []) for f in stand}
    via = {f: v for f, v in via.items() if v}
    return (dest, via) if _reaches(state, uid, target, dest, via, rules) else None


def crossings(state: State) -> list[tuple[float, float]]:
    """The gaps of the impassable terrain (at most CROSSING_GAP wide between two pieces): where
    a unit crosses, e.g. the fords of scenario 2 (SAGA p.52)."""
    polys = [t["polygon"] for t in state["terrain"] if t["movement"] == "impassable" and "polygon" in t]
    return gap_points(polys, cat.inches(CROSSING_GAP))


def goals(state: State, uid: str) -> list[tuple[float, float]]:
    """Places worth heading for: the nearest two crossings, the nearest three enemy units, the
    scenario's objectives (objective pieces, the far bank of scenario 2, the exit edge of the
    baggage in scenario 6), nearest first."""
    unit = state["units"][uid]
    ref = figure_array(state, unit["figures"])[:, :2].mean(axis=0)

    def near(points: list[tuple[float, float]], n: int) -> list[tuple[float, float]]:
        return sorted(points, key=lambda p: math.dist(p, ref))[:n]

    out = near([p for p in crossings(state) if math.dist(p, ref) > 1.0], 2)
    foes = [u for u in state["units"].values() if u["owner"] != unit["owner"] and u["figures"]]
    out += near([tuple(figure_array(state, u["figures"])[:, :2].mean(axis=0)) for u in foes], 3)
    areas = [t["polygon"] for t in state["terrain"] if t.get("objective")]
    far = (state.get("far_side") or {}).get(unit["owner"])
    areas += [far] if far else []
    for poly in areas:
        inner = np.asarray(poly, dtype=float).mean(axis=0)
        p = nearest_point(ref, poly)
        step = min(cat.inches("M"), float(np.hypot(*(inner - p))))
        p = p + (inner - p) / max(float(np.hypot(*(inner - p))), EPS) * step
        out.append((float(p[0]), float(p[1])))
    edge = (state.get("exit_edge") or {}).get(unit["owner"])
    if edge and unit.get("baggage"):
        out.append((float(ref[0]), state["table"]["height"] if edge == "top" else 0.0))
    return [(float(x), float(y)) for x, y in out]


def regroup(state: State, uid: str, allow: float) -> dict[str, tuple[float, float]] | None:
    """A move that brings a unit its casualties left out of formation back into it (SAGA p.12),
    or None when it is in formation: each group of figures apart from the largest slides, as one
    piece and at most ``allow``, towards its nearest figure, to half VS from it (a lone group too
    far for that meets the largest half way). The result is a proposal: :func:`validate_move`
    decides."""
    fids = list(state["units"][uid]["figures"])
    pos = figure_array(state, fids)
    vs = cat.inches("VS")
    whole, groups = cohesion(Shapes.circles(pos), vs)
    if whole:
        return None
    core = max(groups, key=len)
    shift = np.zeros((len(fids), 2))
    for group in groups:
        if group is core:
            continue
        idx, ref = np.array(group), np.array(core)
        gaps = circle_gaps(pos[idx], pos[ref])
        i, j = np.unravel_index(int(np.argmin(gaps)), gaps.shape)
        way = pos[ref[j], :2] - pos[idx[i], :2]
        way = way / max(float(np.hypot(*way)), EPS)
        need = max(0.0, float(gaps[i, j]) - vs / 2)
        step = min(allow * 0.98, need)
        shift[idx] = way * step
        if len(groups) == 2 and need > step:            # one straggler too far: both halves close in
            shift[ref] = -way * min(allow * 0.98, need - step)
    return {fids[k]: (round(float(pos[k, 0] + shift[k, 0]), 3), round(float(pos[k, 1] + shift[k, 1]), 3))
            for k in range(len(fids)) if shift[k].any()}


def sample_moves(state: State, uid: str, rules: MoveRules) -> list[SampledMove]:
    """A few concrete legal moves for the legal-action list: straight translations in eight
    directions at the full and the short allowance, then moves along the shortest path toward
    each of :func:`goals` (bending round what is in the way, stopping short of an enemy), each as
    far as the allowance takes it; near-duplicates dropped."""
    unit = state["units"][uid]
    out: list[SampledMove] = []
    full = allowance(state, unit, False, rules)
    short = allowance(state, unit, True, rules)
    for dist in sorted({full, short}):
        for k in range(8):
            a = math.radians(45 * k)
            dest = translation(state, uid, round(dist * 0.98 * math.cos(a), 3), round(dist * 0.98 * math.sin(a), 3))
            try:
                out.append(SampledMove(dest, {}, validate_move(state, uid, dest, rules)))
            except IllegalAction:
                continue
    gather = regroup(state, uid, full)
    if gather is not None:
        try:
            out.append(SampledMove(gather, {}, validate_move(state, uid, gather, rules)))
        except IllegalAction:
            pass
    worlds: dict[float | str | None, PathWorld | None] = {}
    ends = [np.mean(list(m.dest.values()), axis=0) for m in out]
    for goal in goals(state, uid):
        planned = bending_move(state, uid, goal, rules, partial=True, worlds=worlds)
        if planned is None:
            continue
        end = np.mean(list(planned.dest.values()), axis=0)
        if all(float(np.hypot(*(end - e))) > 0.5 for e in ends):
            out.append(planned)
            ends.append(end)
    return out
