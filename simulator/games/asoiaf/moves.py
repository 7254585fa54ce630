"""Combat-unit movement: pivots, Maneuver, March, Retreat, shifts, the Charge move and
alignment (digest §6.1-6.6, §14.1 Rough / Dangerous / Difficult / Fortified, §19.6-19.8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import Unit, polygon
from simulator.geometry.table import first_contact, tray_axes

State = dict[str, Any]
DIRECTIONS = ("forward", "back", "left", "right")


def R(section: str, name: str) -> str:
    return f'ASOIAF "{name}" ({section})'


def number(action: dict[str, Any], key: str, default: float | None = None) -> float:
    v = action.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise IllegalAction(f"'{key}' must be a number (got {v!r})", "")
    return float(v)


def direction_vector(u: Unit, direction: str) -> np.ndarray:
    f, r = tray_axes(u["facing"])
    vectors = {"forward": f, "back": -f, "left": -r, "right": r}
    if direction not in vectors:
        raise IllegalAction(f"direction must be one of {', '.join(DIRECTIONS)} (no diagonals)", R("2", "Shift"))
    return vectors[direction]


def place(u: Unit, x: float, y: float, facing: float) -> None:
    u["x"], u["y"], u["facing"] = float(x), float(y), round(float(facing), 6) % 360


def dangerous_enter(state: State, ctx: Context, u: Unit, start: np.ndarray, end: np.ndarray) -> None:
    """Entering Dangerous terrain: 1D3+1 Wounds (§14.1)."""
    from simulator.games.asoiaf.combat import apply_wounds
    swept = space.sweep(start, end)
    for t in space.terrain_with(state, "dangerous"):
        tp = space.tpoly(t)
        if space.overlap(swept, tp) and not space.overlap(start, tp) and not u["destroyed"]:
            n = ctx.dice.d3(f"dangerous terrain ({t['name']})") + 1
            apply_wounds(state, ctx, catalogue(), u, n, None, R("14.1", "Dangerous"))


def plan_straight(state: State, u: Unit, facing_during: float, vector: np.ndarray, distance: float,
                  allowance: float, final_facing: float, what: str, rule: str,
                  ignore: tuple[str, ...] = ()) -> tuple[float, float]:
    """Check a pivot + straight move + pivot without changing anything; returns the end centre."""
    if distance < 0:
        raise IllegalAction("a move distance cannot be negative", rule)
    start = polygon(u, facing=facing_during)
    end = start + vector * distance
    swept = space.sweep(start, end) if distance > 0 else None      # once for both tests
    rough = space.rough_penalty(state, start, end, swept) if distance > 0 else 0.0
    if distance > allowance - rough + 1e-9:
        extra = " (1\" less for Rough terrain)" if rough else ""
        raise IllegalAction(f"{what} allows at most {allowance - rough:g}\"{extra}, not {distance:g}\"", rule)
    if distance > 0:
        space.check_path(state, u, start, end, ignore, swept)
    cx, cy = np.array([u["x"], u["y"]]) + vector * distance
    space.check_final(state, u, polygon(u, cx, cy, final_facing), ignore=ignore)
    return float(cx), float(cy)


def straight(state: State, ctx: Context, u: Unit, facing_during: float, vector: np.ndarray, distance: float,
             allowance: float, final_facing: float, what: str, rule: str, *, ignore: tuple[str, ...] = ()) -> None:
    """Pivot to ``facing_during``, move ``distance`` along ``vector``, pivot to ``final_facing``."""
    cx, cy = plan_straight(state, u, facing_during, vector, distance, allowance, final_facing, what, rule, ignore)
    before = polygon(u)
    place(u, cx, cy, final_facing)
    ctx.emit("move", f"{u['id']} {what}: {distance:g}\" to ({cx:.1f}, {cy:.1f}) facing {final_facing % 360:g}",
             rule, pieces=[u["id"]], unit=u["id"], x=u["x"], y=u["y"], facing=u["facing"])
    dangerous_enter(state, ctx, u, before, polygon(u))


def maneuver(state: State, ctx: Context, u: Unit, action: dict[str, Any], speed: float, rule: str) -> None:
    """Pivot, straight forward up to Speed, pivot (§6.2)."""
    if space.engaged_with(state, u):
        raise IllegalAction(f"{u['id']} is engaged and cannot Maneuver", R("6.2", "Maneuver"))
    pivot = number(action, "pivot", u["facing"])
    straight(state, ctx, u, pivot, space.forward(pivot), number(action, "distance", 0), speed,
             number(action, "facing", pivot), "maneuvers", rule)


def march(state: State, ctx: Context, u: Unit, action: dict[str, Any], speed: float) -> None:
    """Straight forward up to twice the Speed (no pivot first), then pivot (§6.3)."""
    if space.engaged_with(state, u):
        raise IllegalAction(f"{u['id']} is engaged and cannot March", R("6.3", "March"))
    if "pivot" in action and float(action["pivot"]) % 360 != u["facing"] % 360:
        raise IllegalAction("a March allows no pivot before the move", R("6.3", "March"))
    straight(state, ctx, u, u["facing"], space.forward(u["facing"]), number(action, "distance", 0), 2 * speed,
             number(action, "facing", u["facing"]), "marches", R("6.3", "March"))


def retreat_directions(state: State, u: Unit) -> list[str]:
    """Back and sideways; forward too when engaged through the flanks or rear (§6.4)."""
    dirs = ["back", "left", "right"]
    if any(space.arc_kind(space.arc_of(u, polygon(e))[0]) != "front" for e in space.engaged_with(state, u)):
        dirs.append("forward")
    return dirs


def retreat(state: State, ctx: Context, u: Unit, action: dict[str, Any], speed: float) -> list[str]:
    """Speed + D6 straight back or sideways, then pivot (§6.4). Returns enemies set free."""
    engaged = space.engaged_with(state, u)
    if not engaged:
        raise IllegalAction(f"{u['id']} is not engaged: only engaged units Retreat", R("6.4", "Retreat"))
    direction = str(action.get("direction", "back"))
    if direction not in retreat_directions(state, u):
        raise IllegalAction(f"{u['id']} may retreat {', '.join(retreat_directions(state, u))}, not {direction}",
                            R("6.4", "Retreat"))
    wanted = number(action, "distance", 0)
    roll = ctx.dice.d6(f"retreat of {u['id']}")
    allowance = speed + roll
    ctx.emit("retreat_roll", f"{u['id']} rolls {roll}: it may retreat up to {allowance:g}\"", R("6.4", "Retreat"),
             pieces=[u["id"]], roll=roll)
    vector = direction_vector(u, direction)
    start = polygon(u)
    rough = space.rough_penalty(state, start, start + vector * wanted)
    dist = min(wanted, allowance - rough)
    straight(state, ctx, u, u["facing"], vector, dist, allowance, number(action, "facing", u["facing"]),
             f"retreats {direction}", R("6.4", "Retreat"), ignore=())
    return [e["id"] for e in engaged if e["id"] in {x["id"] for x in space.alive(state)}
            and not space.engaged_with(state, e)]


def shift(state: State, ctx: Context, u: Unit, direction: str, distance: float, limit: float, rule: str) -> None:
    """Straight forward, back or sideways without turning (§2 Shift)."""
    straight(state, ctx, u, u["facing"], direction_vector(u, direction), distance, limit, u["facing"],
             f"shifts {direction}", rule)


def pivot(state: State, ctx: Context, u: Unit, facing: float, rule: str, *, engaged_ok: bool = True) -> None:
    """A free pivot about the tray centre (§2 Pivot): only the end position must be clear."""
    final = polygon(u, facing=facing)
    space.check_final(state, u, final, charge=engaged_ok)
    place(u, u["x"], u["y"], facing)
    ctx.emit("pivot", f"{u['id']} pivots to {facing % 360:g}", rule, pieces=[u["id"]], unit=u["id"],
             facing=u["facing"])


# -- Flush alignment (charges and melee re-facing) ----------------------------------------------
ARC_EDGE = {"front": (0, 1), "right": (1, 2), "rear": (2, 3), "left": (3, 0)}
ARC_NORMAL_SIGN = {"front": ("f", 1), "rear": ("f", -1), "right": ("r", 1), "left": ("r", -1)}
ALIGNMENTS = ("centre", "left", "right")


def flush_pose(u: Unit, target: Unit, arc: str, align: str, offset: float | None = None) -> tuple[float, float, float]:
    """The pose of ``u`` with its front edge flush on ``target``'s edge for ``arc``, facing it
    squarely; ``align`` centre (100%) or left/right (50% of the shorter edge overlapping)."""
    corners = polygon(target)
    i, j = ARC_EDGE[arc]
    a, b = corners[i], corners[j]
    mid = (a + b) / 2
    axis, sign = ARC_NORMAL_SIGN[arc]
    f, r = tray_axes(target["facing"])
    normal = (f if axis == "f" else r) * sign
    facing = round(float(np.degrees(np.arctan2(-normal[1], -normal[0]))), 6) % 360   # facing towards -normal
    edge = float(np.linalg.norm(b - a))
    along = (b - a) / edge
    if offset is None:
        half = (edge + u["width"]) / 2 - 0.5 * min(u["width"], edge)
        offset = {"centre": 0.0, "left": -half, "right": half}[align]
    c = mid + normal * (u["depth"] / 2) + along * offset
    return float(c[0]), float(c[1]), facing


def try_flush(state: State, u: Unit, target: Unit, arc: str, align: str,
              ignore: tuple[str, ...] = ()) -> tuple[float, float, float] | None:
    """A legal flush pose for ``align``, else the legal offset nearest to it that keeps >= 50%."""
    corners = polygon(target)
    i, j = ARC_EDGE[arc]
    edge = float(np.linalg.norm(corners[j] - corners[i]))
    half = (edge + u["width"]) / 2 - 0.5 * min(u["width"], edge)
    start = {"centre": 0.0, "left": -half, "right": half}[align]
    candidates = sorted({round(x, 3) for x in np.linspace(-half, half, 17)} | {start}, key=lambda o: abs(o - start))
    for off in candidates:
        x, y, f = flush_pose(u, target, arc, align, off)
        try:
            space.check_final(state, u, polygon(u, x, y, f), charge=True, ignore=(target["id"],) + ignore)
        except IllegalAction:
            continue
        return x, y, f
    return None


def melee_alignment(state: State, u: Unit, target: Unit, engaged: list[Unit], align: str) -> tuple[float, float, float]:
    """The pose of a unit that faces its lone enemy and aligns before a melee Attack (§6.5.2):
    flush on the enemy's edge, 100% (``centre``) or 50% (``left``/``right``). Only a unit engaged
    with exactly one enemy may do it, and it may turn only if that enemy is on its Flank or Rear:
    one engaged in its Front arc may slide along the enemy's edge without changing facing."""
    rule = R("6.5.2", "Melee attack")
    if align not in ALIGNMENTS:
        raise IllegalAction(f"align must be one of {', '.join(ALIGNMENTS)}", rule)
    if len(engaged) != 1:
        raise IllegalAction(f"{u['id']} is engaged on several sides and cannot change facing or align", rule)
    pose = try_flush(state, u, target, space.arc_of(target, polygon(u))[0], align)
    if pose is None:
        raise IllegalAction("there is no room to align with that enemy", rule)
    turn = abs((pose[2] - u["facing"] + 180) % 360 - 180)
    if turn > 1e-6 and space.arc_of(u, polygon(target))[0] == "front":
        raise IllegalAction(f"{target['id']} is in {u['id']}'s Front arc: it may slide to align but not change "
                            f"facing ({turn:.0f} degrees)", rule)
    return pose


EDGE_TURN = {"front": 0.0, "right": 90.0, "rear": 180.0, "left": -90.0}


def line_up_poses(e: Unit, charger: Unit) -> list[tuple[float, float, float]]:
    """Where an enemy touched by a charger in the charger's Front arc goes to be 50% engaged
    (§6.6 "Engaging several enemies"): its edge that faces the charger now is put flush on the
    charger's front edge, overlapping half of the shorter of the two edges, on either side;
    the pose nearest to where it stands first."""
    arc, _ = space.arc_of(e, polygon(charger))
    along, across = (e["width"], e["depth"]) if arc in ("front", "rear") else (e["depth"], e["width"])
    shape = dict(e, width=along, depth=across)      # the touching edge seen as a front edge
    poses = []
    for side in ("left", "right"):
        x, y, f = flush_pose(shape, charger, "front", side)
        poses.append((round(x, 6), round(y, 6), round((f + EDGE_TURN[arc]) % 360, 6)))
    return sorted(poses, key=lambda p: float(np.hypot(p[0] - e["x"], p[1] - e["y"])))


@dataclass
class ChargePath:
    distance: float
    success: bool
    stop_reason: str
    crossed: list[str]


def charge_path(state: State, u: Unit, target: Unit, length: float) -> ChargePath:
    """Move straight forward ``length``: success on touching the target; stop 1" short of any
    other unit, castle wall or Impassable terrain it would touch; stop at the table edge (§6.6)."""
    start = polygon(u)
    f = space.forward(u["facing"])
    hit = float(first_contact(start, f, length, [polygon(target)], gap=space.CONTACT)[0])
    t_hit: float | None = None if np.isinf(hit) else hit
    t_block: float | None = None
    reason = ""
    others: list[tuple[str, np.ndarray]] = [(o["id"], polygon(o)) for o in space.alive(state)
                                            if o["id"] not in (u["id"], target["id"])]
    others += [(w["id"], np.array(w["polygon"])) for w in state.get("walls", [])]
    others += [(t["id"], space.tpoly(t)) for t in space.terrain_with(state, "impassable")]
    if others:
        polys = [poly for _, poly in others]
        touches = first_contact(start, f, length, polys, gap=space.CONTACT)
        stops = first_contact(start, f, length, polys, gap=1.0)
        for (oid, _), touch, stop in zip(others, touches, stops):
            touch = float(touch)
            if np.isinf(touch):
                continue
            if (t_hit is None or touch < t_hit) and (t_block is None or touch < t_block):
                t_block, reason = (0.0 if np.isinf(stop) else float(stop)), f"stops 1\" short of {oid}"
    w, h = state["table"]
    lo, hi = 0.0, length
    if not space.on_table(state, start + f * length):
        for _ in range(30):
            mid = (lo + hi) / 2
            if space.on_table(state, start + f * mid):
                lo = mid
            else:
                hi = mid
        edge_stop = lo
        if (t_block is None or edge_stop < t_block) and (t_hit is None or edge_stop < t_hit):
            t_block, reason = edge_stop, "stops at the table edge"
    if t_hit is not None and (t_block is None or t_hit <= t_block):
        dist, ok = t_hit, True
    else:
        dist, ok = (t_block if t_block is not None else length), False
    crossed = [t["id"] for t in state["terrain"] if space.overlap(space.sweep(start, start + f * dist), space.tpoly(t))]
    del w, h
    return ChargePath(dist, ok, reason, crossed)
