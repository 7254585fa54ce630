"""Preparing the battlefield: the players place the terrain (digest §15.3, step 3).

A scenario asks for it with ``rules: {terrain: players}`` or ``rules: {terrain: random}``
(``fixed``, the default, keeps the scenario's ``setup.terrain``; pieces the scenario lists are on
the table before the players add theirs). It is the first step (``terrain``) of the set-up phase
``deployment`` (placement.py), after the deployment areas and Objective tokens, before the
deployment roll-off:

* every team (free-for-all: every player) rolls a D6, ties rerolled; the highest places the first
  piece, then the teams alternate (free-for-all: to the left of the winner), a team's players in
  rotation;
* ``players``: each placing player picks an available piece (``setup.terrain_pool``, default one of
  each example piece of 14.2) until ``setup.terrain_pieces`` (default 4) are down;
* ``random``: the roll-off winner rolls 1D3+2 for the number of pieces; at the start of each turn
  the placing player rolls 2D6 on the random table for the piece's kind (7: the player picks any
  kind of the table);
* a piece (``place_terrain`` with ``kind``, ``x``, ``y``, ``rotation``) must lie on the table,
  outside every deployment area a player could take, at least 6" from every other terrain piece
  (castle walls included), off the trays already on the table, and an Impassable piece never on an
  Objective token;
* game modes change the placement rules (data/modes.yaml ``terrain_placement``): Fire and Blood
  and Here We Stand put pieces anywhere at least 6" from every table edge (deployment areas
  allowed, 16.8, 16.9); Sharp and Ready forbids Impassable pieces (a rolled one is rerolled) and
  ignores its castle walls for the 6" spacing as long as nothing comes within 1" of them (16.7);
* A Storm of Swords changes the step (16.3): no roll-off; the Defender's team alone places the
  pieces of its choice (the ``players`` method whatever the switch says), anywhere more than 6"
  from the Defender's deployment area and from every other terrain piece (the Attacker's area is
  allowed);
* if no spot of the sampled grid is legal for any kind the player may place, the player may end
  terrain placement (``place_terrain`` with ``none: true``); it is refused while a spot exists.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import modes, sides, space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import polygon
from simulator.geometry.table import point_polygon_distance, polygon_distance, rect_corners

State = dict[str, Any]
Action = dict[str, Any]
RULE = 'ASOIAF "Preparing the battlefield" (15.3)'
SPACING = 6.0            # Short range between terrain pieces (inches)
GRID = 3.0               # candidate centres of the offered placements (inches)
ROTATIONS = (0.0, 90.0)  # offered rotations (any rotation is accepted)
METHODS = ("fixed", "players", "random")


def piece(kind: str, x: float, y: float, rotation: float, tid: str) -> dict[str, Any]:
    """A terrain piece of the catalogue's default footprint centred at (x, y); ``rotation`` in
    degrees counter-clockwise, 0 = the first size along x."""
    spec = catalogue().terrain[kind]
    w, d = spec["size"]
    poly = rect_corners([[x, y, w, d, 90 + rotation]])[0]
    return {"id": tid, "kind": kind, "name": spec["name"], "keywords": list(spec["keywords"]),
            "polygon": poly.tolist()}


def _next_id(state: State) -> str:
    used = {t["id"] for t in state["terrain"]}
    return next(f"T{k}" for k in range(1, len(used) + 2) if f"T{k}" not in used)


def problem(state: State, t: dict[str, Any]) -> str | None:
    """Why terrain piece ``t`` may not be placed where it is (None: it may), §15.3."""
    from simulator.games.asoiaf.placement import area, possible_areas
    poly = np.array(t["polygon"])
    if not space.on_table(state, poly):
        return "the piece must lie wholly on the table"
    if modes.mode(state)["scoring"] == "siege":          # more than 6" from the Defender's area (16.3)
        x0, y0, x1, y1 = area(state, state["flags"]["defender"])
        d = polygon_distance(poly, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        if d <= SPACING + 1e-9:
            return f"the piece would be {d:.2f}\" from the Defender's deployment area: more than 6\" (16.3)"
    elif "edge_gap" in rules(state):                   # Fire and Blood, Here We Stand (16.8, 16.9)
        w, h = state["table"]
        gap = float(rules(state)["edge_gap"])
        edge = min(poly[:, 0].min(), poly[:, 1].min(), w - poly[:, 0].max(), h - poly[:, 1].max())
        if edge < gap - 1e-9:
            return f"the piece must stay {gap:g}\" from every table edge ({modes.mode(state)['name']})"
    else:
        for x0, y0, x1, y1 in possible_areas(state):
            if space.overlap(poly, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])):
                return f"terrain is never placed inside a deployment area (x {x0:g}-{x1:g}, y {y0:g}-{y1:g})"
    others = [(o["name"], space.tpoly(o)) for o in state["terrain"]] + \
        [("castle wall", np.array(w["polygon"])) for w in state.get("walls", [])]
    wall_gap = rules(state).get("wall_gap")
    if "impassable" in t["keywords"] and rules(state).get("no_impassable"):
        return f"Impassable terrain may not be placed in {modes.mode(state)['name']}"
    for name, other in others:
        d = polygon_distance(poly, other)
        if wall_gap is not None and name == "Castle wall":       # Sharp and Ready's walls (16.7)
            if d < wall_gap - 1e-9:
                return f"the piece would be {d:.2f}\" from a castle wall: at least {wall_gap:g}\" (16.7)"
            continue
        if d < SPACING - 1e-9 or (modes.mode(state)["scoring"] == "siege" and d <= SPACING + 1e-9):
            return f"the piece would be {d:.2f}\" from the {name}: at least 6\" from every other terrain piece"
    for u in space.alive(state):
        if not u.get("undeployed") and not u.get("reserve") and space.overlap(poly, polygon(u)):
            return f"the piece would overlap {u['id']}"
    if "impassable" in t["keywords"]:
        r = modes.radius()
        for ob in state["objectives"]:
            if point_polygon_distance((ob["x"], ob["y"]), poly) < r - 1e-9:
                return f"Impassable terrain is never placed on an Objective token ({ob['id']})"
    return None


def rules(state: State) -> dict[str, Any]:
    """The game mode's changes to terrain placement (data/modes.yaml ``terrain_placement``)."""
    return modes.mode(state).get("terrain_placement", {})


# -- the step ---------------------------------------------------------------------------------
def start(state: State, ctx: Context, method: str, pool: list[str], count: int | None) -> None:
    """Open the terrain step: roll off, set the number of pieces, the first placer's kind."""
    from simulator.games.asoiaf.placement import roll_off
    cat = catalogue()
    if modes.mode(state)["scoring"] == "siege":
        winner = sides.team(state, state["flags"]["defender"])
        rolls, method = "A Storm of Swords: the Defender places the terrain of its choice (16.3)", "players"
    else:
        winner, rolls = roll_off(ctx, sides.team_ids(state), "terrain")
    if method == "random":
        n = ctx.dice.d3(f"number of terrain pieces ({winner})") + 2
        how = f"{winner} rolls 1D3+2: {n} terrain pieces, each of a kind rolled on 2D6"
    else:
        n = count if count is not None else cat.terrain_pieces_placed
        how = f"{n} terrain pieces chosen from {', '.join(pool)}"
    state["deploy"]["step"] = "terrain"
    order = [winner] if modes.mode(state)["scoring"] == "siege" else sides.team_order(state, winner)
    state["deploy"]["terrain"] = {"method": method, "pool": list(pool), "left": n, "placed": 0,
                                  "order": order, "kind": None}
    ctx.emit("terrain_setup", f"Terrain: {rolls}; {winner} places the first piece; {how}", RULE, side=winner)
    _turn(state, ctx)


def _turn(state: State, ctx: Context) -> None:
    """Give the next piece to its team's player in rotation; the random method rolls its kind."""
    from simulator.games.asoiaf.placement import act
    ts = state["deploy"]["terrain"]
    order = ts["order"]
    team = order[ts["placed"] % len(order)]
    members = sides.members(state, team)
    me = members[(ts["placed"] // len(order)) % len(members)]
    act(state, me)
    ts["kind"] = None
    if ts["method"] == "random":
        while True:                   # a mode without Impassable terrain rerolls those (16.7)
            total = ctx.dice.two_d6(f"terrain kind ({me})")
            kind = catalogue().terrain_table[total]
            if kind == "choice" or kind in kinds(state):
                break
        ts["kind"] = None if kind == "choice" else kind
        what = "the player's choice" if kind == "choice" else catalogue().terrain[kind]["name"]
        ctx.emit("terrain_roll", f"{me} rolls {total} on the terrain table: {what}", RULE, side=me, roll=total,
                 terrain_kind=ts["kind"])


def kinds(state: State) -> list[str]:
    """The kinds the placing player may place now."""
    ts = state["deploy"]["terrain"]
    if ts["kind"] is not None:
        return [ts["kind"]]
    cat = catalogue()
    pool = [k for k in cat.terrain_table.values() if k != "choice"] if ts["method"] == "random" else ts["pool"]
    banned = rules(state).get("no_impassable")
    return list(dict.fromkeys(k for k in pool if not (banned and "impassable" in cat.terrain[k]["keywords"])))


def apply(state: State, ctx: Context, me: str, action: Action) -> bool:
    """One ``place_terrain``; True once the terrain step is over."""
    from simulator.games.asoiaf.moves import number
    ts = state["deploy"]["terrain"]
    allowed = kinds(state)
    if action.get("none"):
        if _spots(state, allowed, 1):
            raise IllegalAction("there is still room for a terrain piece: place one", RULE)
        ctx.emit("terrain_setup", f"No room is left for another terrain piece: {me} ends terrain placement", RULE,
                 side=me)
        return True
    kind = action.get("kind", ts["kind"])
    if kind not in allowed:
        raise IllegalAction(f"kind must be one of {', '.join(allowed)}", RULE)
    t = piece(kind, number(action, "x"), number(action, "y"), number(action, "rotation", 0.0) % 360,
              _next_id(state))
    why = problem(state, t)
    if why is not None:
        raise IllegalAction(why, RULE)
    state["terrain"].append(t)
    if ts["method"] == "players":
        ts["pool"].remove(kind)
    ts["placed"] += 1
    ts["left"] -= 1
    ctx.emit("terrain", f"{me} places a {t['name']} ({t['id']}) at ({action['x']}, {action['y']})", RULE,
             side=me, terrain=t["id"], terrain_kind=kind)
    if ts["left"] <= 0 or (ts["method"] == "players" and not ts["pool"]):
        return True
    _turn(state, ctx)
    return False


def _spots(state: State, allowed: list[str], per_kind: int) -> list[Action]:
    """Up to ``per_kind`` legal placements of each allowed kind on the candidate grid, spread from
    the centre of the table outwards."""
    w, h = state["table"]
    cx, cy = w / 2, h / 2
    xs = np.arange(GRID, w - GRID / 2, GRID)
    ys = np.arange(GRID, h - GRID / 2, GRID)
    cands = sorted(((float(x), float(y)) for x in xs for y in ys),
                   key=lambda p: (round(abs(p[0] - cx) + abs(p[1] - cy), 3), p))
    out: list[Action] = []
    for kind in allowed:
        found = 0
        for x, y in cands:
            for rot in ROTATIONS:
                if problem(state, piece(kind, x, y, rot, "?")) is None:
                    out.append({"type": "place_terrain", "kind": kind, "x": round(x, 2), "y": round(y, 2),
                                "rotation": rot})
                    found += 1
                    break
            if found >= per_kind:
                break
    return out


def options(state: State) -> list[Action]:
    """A few legal placements of each kind the player may place (or ``none`` when nothing fits)."""
    spots = _spots(state, kinds(state), 2)
    return spots or [{"type": "place_terrain", "none": True}]
