"""Putting the armies on the table before round 1 (digest §15.4, §15.5, §13, §16.3).

* Deployment areas (``state["areas"]``: player -> area id, :func:`area`): in a duel or a team game
  the strips ``south`` and ``north`` across the table, as deep as the game mode says; a team shares
  its strip (game-mode set-up is unchanged, §13.1). By default the team of the scenario's first
  listed player deploys south (A Storm of Swords: the Attacker). In a free-for-all each player has a
  12" x 12" corner (``SW``, ``NW``, ``NE``, ``SE``, §13.2); by default the players take them in
  seating order going to the left (clockwise seen from above: SW, NW, NE, SE).
* Automatic placement: a scenario unit without ``at`` (force selection builds such armies) is put
  in its owner's area by :func:`auto_place`: trays face the enemy (a corner also tries facing along
  the table), the front row as close to the enemy as the area allows, from the centre outwards,
  1" apart, never on Impassable terrain or behind a castle wall; further rows behind when a row is
  full. An army that does not fit is refused with a message.
* Interactive deployment (``rules: {deployment: players}``): a ``deployment`` phase before round 1,
  in steps (``state["deploy"]["step"]``):

  1. ``reserve`` (A Storm of Swords): the Defender chooses which Combat units, half rounded up,
     start in Reserve (``reserve`` with ``units``; the scenario's marks are offered first); by
     teams each defending player in turn, half of its own army.
  2. ``area``: duel and teams: each team rolls a D6 (ties rerolled); the higher roller's player
     takes the area it prefers (``area`` with ``area: south|north``; its current one is offered
     first) or gives the choice to the other team (``area`` with ``give: true``) (§15.4). A Storm
     of Swords has no choice (the walls fix the areas). Free-for-all: every player rolls a D6, the
     highest is the first player (§13.2); from it, going left, each player picks a free corner.
  3. ``units``: from the team that chose (free-for-all: the first player, then to the left), the
     teams deploy one Combat unit at a time (``deploy``), wholly inside their area, not on other
     deployed trays, castle walls or Impassable terrain, not behind a castle wall; a team with
     nothing left is skipped (§15.4: "presumably deploys the rest"). A team's players take its
     deployments in rotation. NCUs are not deployed; Reserves stay off the table.
  4. ``first``: the team that did not choose picks the first player (``first_player``), unless the
     scenario fixes it or the free-for-all roll has decided it (§15.5).

  ``rules: {deployment: fixed}`` (the default) keeps the scenario's areas and positions.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import modes, sides, space
from simulator.games.asoiaf.units import Unit, polygon

State = dict[str, Any]
Action = dict[str, Any]
RULE = 'ASOIAF "Deployment" (15.4)'
RULE_FFA = 'ASOIAF "Free-for-all" (13.2)'
RULE_RESERVE = 'ASOIAF "A Storm of Swords: Reserve" (16.3)'
GAP = 1.0          # room left between automatically placed trays (inches)
STEP = 0.5         # grid of candidate positions (inches)
CORNER = 12.0      # side of a free-for-all corner area (inches, §13.2)
CORNERS = ("SW", "NW", "NE", "SE")     # seating order, going to the left
STRIPS = ("south", "north")


# -- areas --------------------------------------------------------------------------------------
def default_areas(state: State) -> dict[str, str]:
    """Each player's area before any choice: see the module notes."""
    ps = state["players"]
    if state.get("format") == "free_for_all":
        return {p: CORNERS[i] for i, p in enumerate(ps)}
    if modes.mode(state)["scoring"] == "siege":
        d = state["flags"].get("defender")
        return {p: "north" if sides.friendly(state, p, d) else "south" for p in ps}
    return {p: "south" if sides.friendly(state, p, ps[0]) else "north" for p in ps}


def area(state: State, side: str) -> tuple[float, float, float, float]:
    """The rectangle (x0, y0, x1, y1) of ``side``'s deployment area (table inches, y up)."""
    return area_rect(state, state["areas"][side], side)


def area_rect(state: State, aid: str, side: str) -> tuple[float, float, float, float]:
    """The rectangle of area ``aid`` (a strip or a corner) if ``side`` took it (strip depths may
    depend on the side: A Storm of Swords)."""
    w, h = state["table"]
    if aid in CORNERS:
        x0 = 0.0 if aid[1] == "W" else w - CORNER
        y0 = 0.0 if aid[0] == "S" else h - CORNER
        return x0, y0, x0 + CORNER, y0 + CORNER
    depth = modes.mode(state)["deployment"]
    if isinstance(depth, dict):
        depth = depth["defender"] if sides.defending(state, side) else depth["attacker"]
    return (0.0, 0.0, float(w), float(depth)) if aid == "south" else (0.0, h - depth, float(w), float(h))


def possible_areas(state: State) -> list[tuple[float, float, float, float]]:
    """Every deployment area some player could still take (terrain is placed outside all of them,
    15.3, before the areas are chosen): every corner in a free-for-all, else both strips at each
    player's depth (A Storm of Swords: the fixed areas)."""
    if state.get("format") == "free_for_all":
        return [area_rect(state, c, state["players"][0]) for c in CORNERS]
    if modes.mode(state)["scoring"] == "siege":         # the walls fix the areas (16.3)
        return list(dict.fromkeys(area(state, p) for p in state["players"]))
    return list(dict.fromkeys(area_rect(state, a, p) for p in state["players"] for a in STRIPS))


def area_text(state: State, side: str) -> str:
    x0, y0, x1, y1 = area(state, side)
    return f"{side}'s deployment area ({state['areas'][side]}: x {x0:g}-{x1:g}, y {y0:g}-{y1:g})"


def south(state: State, side: str) -> bool:
    """The area lies along the south edge (y = 0)."""
    return area(state, side)[1] == 0.0


def facing_for(state: State, side: str) -> float:
    """Trays are deployed facing the far edge (north from a southern area)."""
    return 90.0 if south(state, side) else 270.0


def facings_for(state: State, side: str) -> list[float]:
    """The facings automatic placement tries: towards the far edge, and in a corner also along the
    table towards the other side."""
    out = [facing_for(state, side)]
    if state["areas"][side] in CORNERS:
        out.append(0.0 if state["areas"][side][1] == "W" else 180.0)
    return out


def spot_problem(state: State, u: Unit, x: float, y: float, facing: float, gap: float = 0.0) -> str | None:
    """Why ``u`` may not be deployed at the pose (None: it may): wholly inside its area, not on
    deployed trays, castle walls or Impassable terrain, not behind a castle wall (§15.4, §16.3).
    ``gap`` keeps that much room from the other deployed trays."""
    poly = polygon(u, x, y, facing)
    x0, y0, x1, y1 = area(state, u["side"])
    if poly[:, 0].min() < x0 - 1e-6 or poly[:, 0].max() > x1 + 1e-6 or poly[:, 1].min() < y0 - 1e-6 \
            or poly[:, 1].max() > y1 + 1e-6:
        return f"the tray must lie wholly inside {area_text(state, u['side'])}"
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
    """The first free pose for ``u`` in its area: front row first (the row nearest the enemy),
    within a row from the centre of the table (a corner: its inner edge) outwards."""
    x0, y0, x1, y1 = area(state, u["side"])
    is_south = y0 == 0.0
    corner = state["areas"][u["side"]] in CORNERS
    cx = (x1 if x0 == 0.0 else x0) if corner else state["table"][0] / 2
    for facing in facings_for(state, u["side"]):
        across = facing in (90.0, 270.0)
        ex, ey = (u["width"] / 2, u["depth"] / 2) if across else (u["depth"] / 2, u["width"] / 2)
        if x1 - x0 < 2 * ex - 1e-9 or y1 - y0 < 2 * ey - 1e-9:
            continue
        ys = np.arange(y1 - ey, y0 + ey - 1e-9, -STEP) if is_south else np.arange(y0 + ey, y1 - ey + 1e-9, STEP)
        xs = sorted(np.arange(x0 + ex, x1 - ex + 1e-9, STEP), key=lambda x: (abs(x - cx), x))
        for y in ys:
            for x in xs:
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
        if u.get("reserve"):
            _park(state, u)
            continue
        spot = auto_spot(state, u) or auto_spot(state, u, gap=0.0)
        if spot is None:
            raise error(u["side"], f"no room left for {uid} ({u['name']}) in {area_text(state, u['side'])}")
        u["x"], u["y"], u["facing"] = spot


def _park(state: State, u: Unit) -> None:
    """An off-table unit's suggested spot: the centre of its area."""
    x0, y0, x1, y1 = area(state, u["side"])
    u["x"], u["y"], u["facing"] = (x0 + x1) / 2, (y0 + y1) / 2, facing_for(state, u["side"])


# -- the deployment phase -----------------------------------------------------------------------
def roll_off(ctx: Context, who: list[str], what: str) -> tuple[str, str]:
    """Everyone in ``who`` rolls a D6, the highest rerolling ties; (winner, text of the rolls)."""
    texts = []
    while True:
        rolls = {w: ctx.dice.d6(f"{what} roll of {w}") for w in who}
        texts.append(", ".join(f"{w} rolls {r}" for w, r in rolls.items()))
        best = max(rolls.values())
        top = [w for w, r in rolls.items() if r == best]
        if len(top) == 1:
            return top[0], "; then ".join(texts)
        who = top


def start(state: State, ctx: Context, first_player: str | None, deploy: bool = True, terrain: str = "fixed",
          pool: list[str] | None = None, count: int | None = None) -> None:
    """Open the set-up phase ``deployment``: the players' terrain placement first when ``terrain``
    is ``players`` or ``random`` (battlefield.py, 15.3), then, when ``deploy``, the deployment
    steps with every Combat unit off the table until deployed (15.4). Without ``deploy`` the
    scenario's positions stand and round 1 follows the terrain."""
    if deploy:
        for u in state["units"].values():
            if not u.get("structure") and not u.get("reserve"):
                u["undeployed"] = True
    state["phase"] = "deployment"
    state["deploy"] = {"chooser": None, "first_player": first_player, "given": False, "picked": [], "players": deploy}
    if terrain != "fixed":
        from simulator.games.asoiaf import battlefield
        battlefield.start(state, ctx, terrain, pool or [], count)
    else:
        _open_deployment(state, ctx)


def _open_deployment(state: State, ctx: Context) -> None:
    """The deployment roll-off and the first deployment step (``done`` without a deployment)."""
    d = state["deploy"]
    if not d["players"]:
        d["step"] = "done"
        return
    first_player = d["first_player"]
    ffa = state.get("format") == "free_for_all"
    teams = sides.team_ids(state)
    if ffa:
        chooser, rolls = (first_player, "the scenario fixes the first player") if first_player is not None \
            else roll_off(ctx, teams, "first player")
        first_player = chooser
        ctx.emit("deployment", f"Deployment: {rolls}; {chooser} is the first player and picks a corner first",
                 RULE_FFA, side=chooser)
    else:
        chooser, rolls = roll_off(ctx, teams, "deployment")
        ctx.emit("deployment", f"Deployment: {rolls}; {chooser} chooses its deployment area (or gives the choice) "
                 "and deploys first, one Combat unit at a time", RULE, side=chooser)
    d.update(chooser=chooser, first_player=first_player)
    if modes.mode(state)["scoring"] == "siege":
        state["deploy"]["step"] = "reserve"
        act(state, sides.members(state, sides.team(state, state["flags"]["defender"]))[0])
    else:
        _to_area_step(state)


def act(state: State, player: str) -> None:
    state["active"] = player
    state["turn"] = {"player": player, "unit": None, "no_cards": None}


def _to_area_step(state: State) -> None:
    d = state["deploy"]
    if modes.mode(state)["scoring"] == "siege":
        _to_units_step(state)
        return
    d["step"] = "area"
    act(state, sides.members(state, d["chooser"])[0])


def _to_units_step(state: State) -> None:
    d = state["deploy"]
    d["step"] = "units"
    d["rotation"] = {}
    order = sides.team_order(state, d["chooser"])
    if not _next_deployer(state, order[-1]):
        _after_units(state)


def waiting(state: State, side: str) -> list[Unit]:
    return [state["units"][uid] for uid in state["order"]
            if state["units"][uid]["side"] == side and state["units"][uid].get("undeployed")]


def _next_deployer(state: State, after: str) -> bool:
    """The next team after ``after`` (a team) with a unit to deploy, and its player in rotation."""
    order = sides.team_order(state, after)
    rot = state["deploy"]["rotation"]
    for t in order[1:] + order[:1]:
        ms = sides.members(state, t)
        start = rot.get(t, -1) + 1
        for k in range(len(ms)):
            i = (start + k) % len(ms)
            if waiting(state, ms[i]):
                rot[t] = i
                act(state, ms[i])
                return True
    return False


def _after_units(state: State) -> None:
    """Every unit is down: step ``done`` if the first player is known, else ``first``."""
    d = state["deploy"]
    if d["first_player"] is not None:
        state["first_player"] = d["first_player"]
        d["step"] = "done"
        return
    d["step"] = "first"
    picker = next(t for t in sides.team_ids(state) if t != d["chooser"])
    act(state, sides.members(state, picker)[0])


def apply(state: State, action: Action, ctx: Context, begin_round: Any) -> None:
    """The deployment phase's actions (see the module notes); ``begin_round(state, ctx)`` starts
    round 1 once deployment is over."""
    me = state["active"]
    kind = action["type"]
    d = state["deploy"]
    step = d["step"]
    expected = {"terrain": "place_terrain", "reserve": "reserve", "area": "area", "units": "deploy",
                "first": "first_player"}[step]
    if kind != expected:
        what = {"terrain": f"the battlefield is being prepared: {me} places a terrain piece ('place_terrain')",
                "reserve": "the Defender chooses its Reserve units ('reserve')",
                "area": f"{me} chooses a deployment area ('area')",
                "units": f"the armies are being deployed: {me} deploys a Combat unit ('deploy')",
                "first": f"deployment is over: {me} picks the first player ('first_player')"}[step]
        raise IllegalAction(what, RULE)
    if step == "terrain":
        from simulator.games.asoiaf import battlefield
        if battlefield.apply(state, ctx, me, action):
            del d["terrain"]
            _open_deployment(state, ctx)
    elif step == "reserve":
        _choose_reserve(state, ctx, me, action)
        d.setdefault("reserved", []).append(me)
        left = [p for p in sides.members(state, sides.team(state, me)) if p not in d["reserved"]]
        if left:                      # by teams each defending player picks its own (16.3, 13.1)
            act(state, left[0])
        else:
            _to_area_step(state)
    elif step == "area":
        _choose_area(state, ctx, me, action)
    elif step == "first":
        first = action.get("player")
        choices = sides.team_ids(state)
        if first not in choices:
            raise IllegalAction(f"player must be one of {', '.join(choices)}", RULE)
        state["first_player"] = first
        ctx.emit("first_player", f"{me} picks {first} as the first player", 'ASOIAF "Start of the game" (15.5)',
                 side=first)
        _finish(state, ctx, begin_round)
        return
    else:
        _deploy(state, ctx, me, action)
        if not _next_deployer(state, sides.team(state, me)):
            _after_units(state)
    if d["step"] == "done":
        _finish(state, ctx, begin_round)


def _choose_reserve(state: State, ctx: Context, me: str, action: Action) -> None:
    units = action.get("units")
    mine = [u for u in state["units"].values() if u["side"] == me and not u.get("structure")]
    need = (len(mine) + 1) // 2
    ids = {u["id"] for u in mine}
    if not isinstance(units, list) or len(set(map(str, units))) != len(units) or not set(units) <= ids \
            or len(units) != need:
        raise IllegalAction(f"units must name {need} different Combat units of {me} (half of {len(mine)}, rounded "
                            f"up: {', '.join(sorted(ids))})", RULE_RESERVE)
    for u in mine:
        u["reserve"] = u["id"] in units
        if u["reserve"]:
            u.pop("undeployed", None)
            _park(state, u)
        else:
            u["undeployed"] = True
    ctx.emit("reserve", f"{me} keeps {', '.join(units)} in Reserve", RULE_RESERVE, side=me, units=list(units),
             pieces=list(units))


def _choose_area(state: State, ctx: Context, me: str, action: Action) -> None:
    d = state["deploy"]
    team = sides.team(state, me)
    if state.get("format") == "free_for_all":
        free = [c for c in CORNERS if c not in d["picked"]]
        aid = action.get("area")
        if aid not in free:
            raise IllegalAction(f"area must be a free corner ({', '.join(free)})", RULE_FFA)
        state["areas"][me] = aid
        d["picked"].append(aid)
        ctx.emit("area", f"{me} takes the {aid} corner", RULE_FFA, side=me, area=aid)
        _resuggest(state, me)
        order = sides.team_order(state, d["chooser"])
        d.setdefault("chosen", []).append(me)
        left = [p for p in order if p not in d["chosen"]]
        if left:
            act(state, left[0])
        else:
            _to_units_step(state)
        return
    if action.get("give"):
        if d["given"]:
            raise IllegalAction("the choice of deployment area was already given once", RULE)
        other = next(t for t in sides.team_ids(state) if t != team)
        d["given"] = True
        d["chooser"] = other
        ctx.emit("area", f"{team} gives the choice of deployment area to {other}", RULE, side=other)
        act(state, sides.members(state, other)[0])
        return
    aid = action.get("area")
    if aid not in STRIPS:
        raise IllegalAction("area must be 'south' or 'north' (or give: true to let the other team choose)", RULE)
    for p in state["players"]:
        state["areas"][p] = aid if sides.friendly(state, p, me) else STRIPS[1 - STRIPS.index(aid)]
        _resuggest(state, p)
    ctx.emit("area", f"{team} chooses the {aid} deployment area and deploys first", RULE, side=team, area=aid)
    _to_units_step(state)


def _resuggest(state: State, side: str) -> None:
    """Move the suggested spots of ``side``'s waiting units into its (new) area."""
    for u in waiting(state, side):
        if "wholly inside" in (spot_problem(state, u, u["x"], u["y"], u["facing"]) or ""):
            spot = auto_spot(state, u) or auto_spot(state, u, 0.0)
            if spot is None:
                _park(state, u)
            else:
                u["x"], u["y"], u["facing"] = spot


def _deploy(state: State, ctx: Context, me: str, action: Action) -> None:
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


def _finish(state: State, ctx: Context, begin_round: Any) -> None:
    del state["deploy"]
    state["phase"] = "activation"
    first = state["first_player"]
    state["rotation"] = {first: 0}
    act(state, sides.members(state, first)[0])
    modes.refresh_holders(state)
    begin_round(state, ctx)


def options(state: State) -> list[Action]:
    """The deployment actions offered, the default first (see the module notes)."""
    me = state["active"]
    d = state["deploy"]
    step = d["step"]
    if step == "terrain":
        from simulator.games.asoiaf import battlefield
        return battlefield.options(state)
    if step == "first":
        return [{"type": "first_player", "player": t} for t in sides.team_ids(state)]
    if step == "reserve":
        return _reserve_options(state, me)
    if step == "area":
        if state.get("format") == "free_for_all":
            free = [c for c in CORNERS if c not in d["picked"]]
            own = state["areas"][me]
            return [{"type": "area", "area": c} for c in sorted(free, key=lambda c: c != own)]
        own = state["areas"][me]
        out: list[Action] = [{"type": "area", "area": a} for a in sorted(STRIPS, key=lambda a: a != own)]
        if not d["given"]:
            out.append({"type": "area", "give": True})
        return out
    out = []
    for u in waiting(state, me):
        facing = facing_for(state, me)
        spots: list[tuple[float, float, float]] = []
        if spot_problem(state, u, u["x"], u["y"], u["facing"]) is None:
            spots.append((u["x"], u["y"], u["facing"]))
        for gap in (GAP, 0.0):
            s = auto_spot(state, u, gap)
            if s is not None:
                if s not in spots:
                    spots.append(s)
                break
        if not spots and spot_problem(state, u, u["x"], u["y"], facing) is None:
            spots.append((u["x"], u["y"], facing))
        for x, y, f in spots[:2]:
            out.append({"type": "deploy", "unit": u["id"], "x": x, "y": y, "facing": f})
    return out


def _reserve_options(state: State, me: str) -> list[Action]:
    """The scenario's Reserve marks first, then the cheapest half, then a few other sets."""
    mine = [u for u in state["units"].values() if u["side"] == me and not u.get("structure")]
    need = (len(mine) + 1) // 2
    sets: list[list[str]] = []
    marked = [u["id"] for u in mine if u.get("reserve")]
    if len(marked) == need:
        sets.append(marked)
    cheap = [u["id"] for u in sorted(mine, key=lambda u: (u["commander"], u["cost"]))][:need]
    for cand in [cheap] + [list(c) for c in combinations([u["id"] for u in mine], need)]:
        if sorted(cand) not in [sorted(s) for s in sets]:
            sets.append(cand)
        if len(sets) >= 4:
            break
    return [{"type": "reserve", "units": s} for s in sets]
