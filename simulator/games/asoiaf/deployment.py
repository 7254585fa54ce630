"""Putting units back on the table during the game (digest §16.2, §16.3, §16.9).

* A Clash of Kings: at the start of each round, first player first, a player whose Commander's unit
  was destroyed may redeploy it (with the Commander) wholly inside a friendly deployment area or
  within 6" of a side edge.
* Here We Stand: at the start of each round, first player first, each player may redeploy one
  destroyed Combat unit (with its attachment) wholly within 6" of its own deployment edge or of a
  side edge; it comes back with an Activation token.
* A Storm of Swords: at the start of each round the Attacker may redeploy any destroyed Combat
  units anywhere in its deployment area; Characters do not come back (the unit returns with a basic
  figure instead of its Character attachment). The Defender's Reserve units enter from round 3
  at the start of their own Activation, wholly within 6" of a side edge, without using their action.

Redeploys are asked as ``redeploy`` windows (``redeploy`` with unit, x, y, facing; or ``skip``).
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import modes, space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.sides import defending
from simulator.games.asoiaf.units import Unit, new_unit, polygon

State = dict[str, Any]
SIDE_STRIP = 6.0     # "within Short range (6") of a side edge"


def R(section: str, name: str) -> str:
    return f'ASOIAF "{name}" ({section})'


RULES = {"clash_of_kings": R("16.2", "A Clash of Kings"), "here_we_stand": R("16.9", "Here We Stand"),
         "storm_of_swords": R("16.3", "A Storm of Swords")}


def candidates(state: State, side: str) -> list[str]:
    """Destroyed units of ``side`` that its mode lets it redeploy now."""
    mode = state["mode"]
    dead = [u for u in state["units"].values() if u["side"] == side and u["destroyed"] and not u.get("structure")]
    if mode == "clash_of_kings":
        return [u["id"] for u in dead if u["commander"]]
    if mode == "here_we_stand":
        return [] if state["flags"].get(f"redeployed_{side}_{state['round']}") else [u["id"] for u in dead]
    if mode == "storm_of_swords" and not defending(state, side):
        return [u["id"] for u in dead]
    return []


def start_of_round(state: State, ctx: Context, order: list[str]) -> None:
    """Queue the redeploy windows of the new round, first player first."""
    for side in order:
        if candidates(state, side):
            state["pending"].append({"player": side, "window": "redeploy", "rule": RULES[state["mode"]]})


def zones(state: State, side: str) -> list[tuple[float, float, float, float]]:
    """Rectangles (x0, y0, x1, y1) a redeployed unit must lie wholly inside (one of them)."""
    from simulator.games.asoiaf.placement import area
    w, h = state["table"]
    own = area(state, side)
    y0 = own[1]
    sides = [(0.0, 0.0, SIDE_STRIP, h), (w - SIDE_STRIP, 0.0, w, h)]
    if state["mode"] == "clash_of_kings":
        return [own] + sides
    if state["mode"] == "here_we_stand":
        edge = (0.0, 0.0, w, SIDE_STRIP) if y0 == 0.0 else (0.0, h - SIDE_STRIP, w, h)
        return [edge] + sides
    if state["mode"] == "storm_of_swords" and defending(state, side):
        return sides
    return [own]


def check_place(state: State, u: Unit, x: float, y: float, facing: float, rule: str) -> None:
    poly = polygon(u, x, y, facing)
    inside = any(poly[:, 0].min() >= x0 - 1e-6 and poly[:, 0].max() <= x1 + 1e-6 and
                 poly[:, 1].min() >= y0 - 1e-6 and poly[:, 1].max() <= y1 + 1e-6
                 for x0, y0, x1, y1 in zones(state, u["side"]))
    if not inside:
        raise IllegalAction(f"{u['id']} must lie wholly inside one of its areas "
                            f"{[tuple(round(v, 1) for v in z) for z in zones(state, u['side'])]}", rule)
    for wall in state.get("walls", []):
        import numpy as np
        if space.overlap(poly, np.array(wall["polygon"])):
            raise IllegalAction("units never deploy on castle walls", R("16.3", "Castle walls"))
    was = u["destroyed"]
    u["destroyed"] = True        # not a blocker of itself while checked
    try:
        space.check_final(state, u, poly)
    finally:
        u["destroyed"] = was


def restore(state: State, u: Unit, keep_character: bool) -> None:
    """The unit back at full strength (its card and attachment as set up)."""
    cat = catalogue()
    att = u["attachment"]
    if att is not None and not keep_character and cat.attachments[att].get("character"):
        att = None
    fresh = new_unit(cat, u["id"], u["side"], u["card"], att, u["x"], u["y"], u["facing"])
    if not keep_character and u["commander"] and att is None:
        state["commander"].pop(u["side"], None)
    u.update(fresh)


def answer(game: Any, state: State, ctx: Context, p: dict[str, Any], action: dict[str, Any]) -> None:
    rule = p["rule"]
    side = p["player"]
    if action["type"] == "skip":
        state["pending"].pop(0)
        ctx.emit("redeploy", f"{side} redeploys nothing", rule, side=side)
        return
    uid = action.get("unit")
    if uid not in candidates(state, side):
        raise IllegalAction(f"{uid!r} is not a destroyed unit of {side} that may come back now "
                            f"({', '.join(candidates(state, side)) or 'none'})", rule)
    u = state["units"][uid]
    from simulator.games.asoiaf.moves import number
    x, y = number(action, "x"), number(action, "y")
    facing = number(action, "facing", 90.0 if deploy_south(state, side) else 270.0) % 360
    check_place(state, u, x, y, facing, rule)
    u["x"], u["y"], u["facing"] = x, y, facing
    restore(state, u, keep_character=state["mode"] != "storm_of_swords")
    if state["mode"] == "here_we_stand":
        u["activated"] = True
        state["flags"][f"redeployed_{side}_{state['round']}"] = True
    ctx.emit("redeploy", f"{side} redeploys {uid} ({u['name']}) at ({x:.1f}, {y:.1f})", rule,
             pieces=[uid], unit=uid, x=x, y=y)
    modes.after_move(state, ctx, u)
    if not candidates(state, side) or state["mode"] != "storm_of_swords":
        state["pending"].pop(0)


def deploy_south(state: State, side: str) -> bool:
    from simulator.games.asoiaf.placement import south
    return south(state, side)


def sample_spots(state: State, u: Unit) -> list[tuple[float, float, float]]:
    """A few legal poses inside the unit's redeploy areas: the centre of each area and its ends."""
    facing = 90.0 if deploy_south(state, u["side"]) else 270.0
    out = []
    for x0, y0, x1, y1 in zones(state, u["side"]):
        f = facing if (x1 - x0) >= (y1 - y0) else (0.0 if x0 == 0.0 else 180.0)
        half_w, half_d = (u["width"] / 2, u["depth"] / 2) if f in (90.0, 270.0) else (u["depth"] / 2, u["width"] / 2)
        cy = (y0 + y1) / 2
        cx = (x0 + x1) / 2
        for px, py in ((cx, cy), (cx, y0 + half_d + 0.01), (cx, y1 - half_d - 0.01),
                       (x0 + half_w + 0.01, cy)):
            try:
                check_place(state, u, px, py, f, "")
            except IllegalAction:
                continue
            out.append((round(px, 2), round(py, 2), f))
            break
    return out


def options(state: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for uid in candidates(state, p["player"]):
        u = state["units"][uid]
        for x, y, f in sample_spots(state, u)[:2]:
            out.append({"type": "redeploy", "unit": uid, "x": x, "y": y, "facing": f})
    out.append({"type": "skip"})
    return out


# -- A Storm of Swords: Reserve units ------------------------------------------------------------
def enter_reserve(state: State, ctx: Context, u: Unit, enter: Any) -> None:
    """A Defender's Reserve unit enters at the start of its Activation (round 3+), within 6" of a
    side edge; it then takes its action as usual (§16.3)."""
    rule = R("16.3", "A Storm of Swords: Reserve")
    if state["round"] < 3:
        raise IllegalAction("Reserve units enter from round 3", rule)
    if not (isinstance(enter, list) and len(enter) in (2, 3)
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in enter)):
        raise IllegalAction("enter must be [x, y] or [x, y, facing] (inches, degrees)", rule)
    x, y = float(enter[0]), float(enter[1])
    facing = float(enter[2]) % 360 if len(enter) == 3 else u["facing"]
    u["reserve"] = False
    try:
        check_place(state, u, x, y, facing, rule)
    except IllegalAction:
        u["reserve"] = True
        raise
    u["x"], u["y"], u["facing"] = x, y, facing
    ctx.emit("reserve", f"{u['id']} enters from Reserve at ({x:.1f}, {y:.1f})", rule, pieces=[u["id"]],
             unit=u["id"], x=x, y=y)


def reserve_spots(state: State, u: Unit) -> list[list[float]]:
    was = u["reserve"]
    u["reserve"] = False
    try:
        return [[x, y, f] for x, y, f in sample_spots(state, u)]
    finally:
        u["reserve"] = was
