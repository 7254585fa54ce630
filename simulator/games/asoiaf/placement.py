"""Putting the armies on the table before round 1 (digest §15.4, §15.5).

* Deployment areas: strips across the table at each player's edge, as deep as the game mode says
  (:func:`deployment_zone`); the scenario's first player deploys south (low y).
* Automatic placement: a scenario unit without ``at`` (force selection builds such armies) is put
  in its owner's deployment area by :func:`auto_place`: trays face the enemy edge, the front row
  as close to the enemy as the area allows, from the table's centre outwards, 1" apart, never
  on Impassable terrain or behind a castle wall; further rows behind when a row is full. An army
  that does not fit is refused with a message.
* Interactive deployment (``rules: {deployment: players}``): a ``deployment`` phase before round 1.
  Both players roll a D6 (rerolling ties); the higher roller counts as the player who chose its
  deployment area (the areas are the scenario's) and deploys first; then the players alternate one
  Combat unit at a time (``deploy``), and a player with nothing left to deploy is skipped (§15.4:
  "presumably deploys the rest"). Each tray lies wholly inside its area. NCUs are not deployed;
  A Storm of Swords Reserves stay off the table. When every unit is down, the player who did not
  choose picks the first player (``first_player``), unless the scenario fixes it.
  ``rules: {deployment: fixed}`` (the default) keeps the scenario's positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import modes, space
from simulator.games.asoiaf.units import Unit, polygon

State = dict[str, Any]
Action = dict[str, Any]
RULE = 'ASOIAF "Deployment" (15.4)'
GAP = 1.0          # room left between automatically placed trays (inches)
STEP = 0.5         # grid of candidate positions (inches)


def deployment_zone(state: State, side: str) -> tuple[float, float]:
    """The strip (y0, y1) of ``side``: the first player of the scenario deploys south, at low y
    (§15.4, §16; table coordinates have y up)."""
    m = modes.mode(state)
    w, h = state["table"]
    depth = m["deployment"]
    if isinstance(depth, dict):
        depth = depth["defender"] if side == state["flags"].get("defender") else depth["attacker"]
    south = side == state["players"][0] if m["scoring"] != "siege" else side != state["flags"].get("defender")
    return (0.0, depth) if south else (h - depth, h)


def facing_for(state: State, side: str) -> float:
    """Trays are deployed facing the enemy's edge (north from the south strip)."""
    return 90.0 if deployment_zone(state, side)[0] == 0.0 else 270.0


def spot_problem(state: State, u: Unit, x: float, y: float, facing: float, gap: float = 0.0) -> str | None:
    """Why ``u`` may not be deployed at the pose (None: it may): wholly inside its area, not on
    deployed trays, castle walls or Impassable terrain, not behind a castle wall (§15.4, §16.3).
    ``gap`` keeps that much room from the other deployed trays."""
    poly = polygon(u, x, y, facing)
    y0, y1 = deployment_zone(state, u["side"])
    w = state["table"][0]
    if poly[:, 0].min() < -1e-6 or poly[:, 0].max() > w + 1e-6 or poly[:, 1].min() < y0 - 1e-6 \
            or poly[:, 1].max() > y1 + 1e-6:
        return f"the tray must lie wholly inside {u['side']}'s deployment area (y from {y0:g} to {y1:g})"
    for other in space.alive(state):
        if other["id"] != u["id"] and not other.get("structure") and space.near(poly, polygon(other), gap) \
                and (gap > 0 or space.overlap(poly, polygon(other))):
            return f"the tray would overlap {other['id']}" if gap == 0 else f"the tray is too close to {other['id']}"
    for wall in state.get("walls", []):
        wp = np.array(wall["polygon"])
        edge = 0.0 if y0 == 0.0 else state["table"][1]
        lo, hi = min(wp[:, 1].min(), edge), max(wp[:, 1].max(), edge)
        shadow = np.array([[wp[:, 0].min(), lo], [wp[:, 0].max(), lo], [wp[:, 0].max(), hi], [wp[:, 0].min(), hi]])
        if space.overlap(poly, shadow):
            return "units never deploy on or behind a castle wall (16.3)"
    for t in space.terrain_with(state, "impassable"):
        if space.overlap(poly, space.tpoly(t)):
            return f"the tray would stand on impassable terrain ({t['name']})"
    return None


def auto_spot(state: State, u: Unit, gap: float = GAP) -> tuple[float, float, float] | None:
    """The first free pose for ``u`` in its area: front row first, from the centre outwards."""
    facing = facing_for(state, u["side"])
    y0, y1 = deployment_zone(state, u["side"])
    w = state["table"][0]
    half_d, half_w = u["depth"] / 2, u["width"] / 2
    south = y0 == 0.0
    ys = np.arange(y1 - half_d, y0 + half_d - 1e-9, -STEP) if south else np.arange(y0 + half_d, y1 - half_d + 1e-9, STEP)
    offsets = [0.0] + [s * k * STEP for k in range(1, int(w / STEP) + 1) for s in (-1, 1)]
    for y in ys:
        for dx in offsets:
            x = w / 2 + dx
            if x - half_w < -1e-9 or x + half_w > w + 1e-9:
                continue
            if spot_problem(state, u, float(x), float(y), facing, gap) is None:
                return round(float(x), 2), round(float(y), 2), facing
    return None


def auto_place(state: State, error: Any) -> None:
    """Place every unit set up without a position (``auto_place``), army by army in the scenario's
    order; ``error(side, message)`` builds the exception for an army that does not fit."""
    todo = [state["units"][uid] for uid in state["order"] if state["units"][uid].pop("auto_place", False)]
    for u in todo:
        u["undeployed"] = True         # not a blocker until placed
    for u in todo:
        uid = u["id"]
        u.pop("undeployed")
        facing = facing_for(state, u["side"])
        if u.get("reserve"):
            y0, y1 = deployment_zone(state, u["side"])
            u["x"], u["y"], u["facing"] = state["table"][0] / 2, (y0 + y1) / 2, facing
            continue
        spot = auto_spot(state, u) or auto_spot(state, u, gap=0.0)
        if spot is None:
            raise error(u["side"], f"no room left for {uid} ({u['name']}) in {u['side']}'s deployment area")
        u["x"], u["y"], u["facing"] = spot


# -- the deployment phase -----------------------------------------------------------------------
def start(state: State, ctx: Context, first_player: str | None) -> None:
    """Open the deployment phase: every Combat unit off the table until deployed."""
    for u in state["units"].values():
        if not u.get("structure") and not u.get("reserve"):
            u["undeployed"] = True
    a, b = state["players"]
    while True:
        ra, rb = ctx.dice.d6(f"deployment roll of {a}"), ctx.dice.d6(f"deployment roll of {b}")
        if ra != rb:
            break
    chooser = a if ra > rb else b
    state["phase"] = "deployment"
    state["deploy"] = {"chooser": chooser, "first_player": first_player}
    state["active"] = chooser
    state["turn"] = {"player": chooser, "unit": None, "no_cards": None}
    ctx.emit("deployment", f"Deployment: {a} rolls {ra}, {b} rolls {rb}; {chooser} has chosen its deployment "
             "area and deploys first, one Combat unit at a time", RULE, side=chooser)


def waiting(state: State, side: str) -> list[Unit]:
    return [state["units"][uid] for uid in state["order"]
            if state["units"][uid]["side"] == side and state["units"][uid].get("undeployed")]


def apply(state: State, action: Action, ctx: Context, begin_round: Any) -> None:
    """``deploy`` (unit, x, y, facing; position defaults to the suggested spot) or ``first_player``
    (player). ``begin_round(state, ctx)`` starts round 1 once deployment is over."""
    me = state["active"]
    kind = action["type"]
    if state["deploy"].get("choosing"):
        if kind != "first_player":
            raise IllegalAction(f"deployment is over: {me} picks the first player ('first_player')", RULE)
        first = action.get("player")
        if first not in state["players"]:
            raise IllegalAction(f"player must be one of {', '.join(state['players'])}", RULE)
        state["first_player"] = first
        ctx.emit("first_player", f"{me} picks {first} as the first player", 'ASOIAF "Start of the game" (15.5)',
                 side=first)
        _finish(state, ctx, begin_round)
        return
    if kind != "deploy":
        raise IllegalAction(f"the armies are being deployed: {me} deploys a Combat unit ('deploy')", RULE)
    uid = action.get("unit")
    u = state["units"].get(uid) if isinstance(uid, str) else None
    if u is None or u["side"] != me or not u.get("undeployed"):
        raise IllegalAction(f"{uid!r} is not a unit {me} still has to deploy "
                            f"({', '.join(v['id'] for v in waiting(state, me))})", RULE)
    from simulator.games.asoiaf.moves import number
    x, y = number(action, "x", u["x"]), number(action, "y", u["y"])
    facing = number(action, "facing", facing_for(state, me)) % 360
    why = spot_problem(state, u, x, y, facing)
    if why is not None:
        raise IllegalAction(why, RULE)
    u["x"], u["y"], u["facing"] = x, y, facing
    u.pop("undeployed")
    ctx.emit("deploy", f"{me} deploys {uid} ({u['name']}) at ({x:.1f}, {y:.1f}) facing {facing:g}", RULE,
             pieces=[uid], unit=uid, x=x, y=y, facing=facing)
    other = next(p for p in state["players"] if p != me)
    nxt = other if waiting(state, other) else me if waiting(state, me) else None
    if nxt is not None:
        state["active"] = nxt
        state["turn"] = {"player": nxt, "unit": None, "no_cards": None}
        return
    if state["deploy"]["first_player"] is not None:
        state["first_player"] = state["deploy"]["first_player"]
        _finish(state, ctx, begin_round)
        return
    picker = next(p for p in state["players"] if p != state["deploy"]["chooser"])
    state["deploy"]["choosing"] = True
    state["active"] = picker
    state["turn"] = {"player": picker, "unit": None, "no_cards": None}


def _finish(state: State, ctx: Context, begin_round: Any) -> None:
    del state["deploy"]
    state["phase"] = "activation"
    state["active"] = state["first_player"]
    state["turn"] = {"player": state["first_player"], "unit": None, "no_cards": None}
    modes.refresh_holders(state)
    begin_round(state, ctx)


def options(state: State) -> list[Action]:
    """The deploy actions offered: per waiting unit, the suggested spot and the nearest free spot
    of the area's centre line; once done, each player as first player."""
    me = state["active"]
    if state["deploy"].get("choosing"):
        return [{"type": "first_player", "player": p} for p in state["players"]]
    out: list[Action] = []
    for u in waiting(state, me):
        facing = facing_for(state, me)
        spots: list[tuple[float, float, float]] = []
        if spot_problem(state, u, u["x"], u["y"], facing) is None:
            spots.append((u["x"], u["y"], facing))
        for gap in (GAP, 0.0):
            s = auto_spot(state, u, gap)
            if s is not None:
                if s not in spots:
                    spots.append(s)
                break
        for x, y, f in spots[:2]:
            out.append({"type": "deploy", "unit": u["id"], "x": x, "y": y, "facing": f})
    return out
