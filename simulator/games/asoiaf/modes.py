"""Game modes: Objectives, quadrants, marked units, victory points and victory (digest §15-16)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import sides, space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import Unit, control_ranks, polygon
from simulator.geometry.segments import point_segment_distance, points_in_polygon
from simulator.geometry.table import convex_clip, point_polygon_distance, polygon_area, polygon_distance, rect_corners

State = dict[str, Any]


def R(section: str, name: str) -> str:
    return f'ASOIAF "{name}" ({section})'


def mode(state: State) -> dict[str, Any]:
    """The game mode's data; a free-for-all uses the mode's ``free_for_all`` map where it has one."""
    m = catalogue().modes[state["mode"]]
    if state.get("format") == "free_for_all" and "free_for_all" in m:
        return {**m, **m["free_for_all"]}
    return m


def add_vp(state: State, ctx: Context, side: str, n: int, why: str, rule: str) -> None:
    """``side`` (a player or a team) scores ``n`` VP for its team: every member of the team holds
    the team's total (§13.1: VP are scored by teams)."""
    team = sides.team(state, side)
    who = sides.members(state, team)
    if n <= 0 or not who:
        return
    if mode(state)["scoring"] == "siege" and sides.defending(state, side):
        ctx.emit("vp", f"{side} is the Defender and scores no VP ({why})", R("16.3", "A Storm of Swords"))
        return
    for p in who:
        state["vp"][p] += n
    ctx.emit("vp", f"{why}: {team} scores {n} VP (total {state['vp'][who[0]]})", rule, side=team, vp=n)


def beneficiaries(state: State, u: Unit, by_side: str | None) -> list[str]:
    """Who scores when ``u`` is lost: the destroyer's team if an enemy destroyed it; otherwise (its
    own owner's effect, or one no player controls) each of its owner's opponents still in the game
    (§15.2 Combat victory; in a free-for-all every other player standing)."""
    if by_side is not None and not sides.friendly(state, by_side, u["side"]):
        return [sides.team(state, by_side)]
    foes = sides.enemy_teams(state, u["side"])
    return [t for t in foes if t not in state.get("eliminated", [])] or foes


# -- Objectives -------------------------------------------------------------------------------
def radius() -> float:
    return catalogue().objective_diameter / 2


def covers(poly: np.ndarray, ob: dict[str, Any]) -> bool:
    """The tray completely covers the token (full-cover claim, §16)."""
    c = np.array([ob["x"], ob["y"]])
    if not points_in_polygon(c[None], poly, eps=0.0)[0]:
        return False
    edges = point_segment_distance(c[None], poly, np.roll(poly, -1, axis=0))
    return float(edges.min()) >= radius() - 1e-9


def touches(poly: np.ndarray, ob: dict[str, Any]) -> bool:
    """Any part of the tray over the token (carried claim, §16.4-16.5)."""
    return point_polygon_distance((ob["x"], ob["y"]), poly) < radius()


def after_move(state: State, ctx: Context, u: Unit) -> None:
    """Claim Objectives after ``u`` ends a move."""
    claim = mode(state)["claim"]
    if claim == "none" or u["destroyed"]:
        return
    poly = polygon(u)
    for ob in state["objectives"]:
        if claim == "full_cover":
            if covers(poly, ob) and ob["holder"] != u["id"]:
                ob["holder"] = u["id"]
                ctx.emit("objective", f"{u['id']} claims Objective {ob['id']}", R("16", "Objectives"),
                         pieces=[u["id"]], objective=ob["id"])
        elif ob["holder"] is None and touches(poly, ob):
            if u["objective"] is None:
                take(state, ctx, u, ob, "claims")
    refresh_holders(state)


def take(state: State, ctx: Context, u: Unit, ob: dict[str, Any], verb: str) -> None:
    if u["objective"] is not None:
        return
    old = ob["holder"]
    if old and old in state["units"]:
        state["units"][old]["objective"] = None
    ob["holder"] = u["id"]
    u["objective"] = ob["id"]
    ob["x"], ob["y"] = u["x"], u["y"]
    ctx.emit("objective", f"{u['id']} {verb} Objective {ob['id']} and carries it", R("16.5", "Carried Objectives"),
             pieces=[u["id"]], objective=ob["id"])


def drop(state: State, ctx: Context, u: Unit, why: str) -> None:
    """The carried token leaves the unit: an engaged enemy takes it (the first found at once; with
    several, the opponent may give it to another, ``take_objective``), else the opponent places it
    (§16.4-16.5). The default spot (1" behind the tray; Feast, out of contact: the pile centre) is
    used at once and the opponent is asked (``place_objective``) whether to put it elsewhere."""
    obid = u["objective"]
    if obid is None:
        return
    ob = next(o for o in state["objectives"] if o["id"] == obid)
    u["objective"] = None
    ob["holder"] = None
    takers = [e["id"] for e in (space.engaged_with(state, u) if not u["destroyed"] else _touching_enemies(state, u))
              if e["objective"] is None]
    if takers:
        take(state, ctx, state["units"][takers[0]], ob, f"takes ({why})")
        if len(takers) > 1:
            state["pending"].append({"player": sides.opponent(state, u["side"]), "window": "take_objective", "objective": ob["id"],
                                     "units": takers, "why": why, "rule": R("16.4", "Carried Objectives")})
        return
    pile = next((t for t in state["terrain"] if t["id"] == ob.get("pile")), None) if why.startswith("out of") else None
    if pile is not None:
        centre = np.array(pile["polygon"]).mean(axis=0)
        ob["x"], ob["y"] = float(centre[0]), float(centre[1])
        near = {"pile": pile["id"]}
    else:
        back = np.array([u["x"], u["y"]]) - space.forward(u["facing"]) * (u["depth"] / 2 + 1.0)
        w, h = state["table"]
        ob["x"], ob["y"] = float(min(max(back[0], 1), w - 1)), float(min(max(back[1], 1), h - 1))
        near = {"tray": polygon(u).tolist()}
    ctx.emit("objective", f"{u['id']} drops Objective {ob['id']} ({why})", R("16.4", "Carried Objectives"),
             pieces=[u["id"]], objective=ob["id"])
    state["pending"].append(dict(near, player=sides.opponent(state, u["side"]), window="place_objective", objective=ob["id"],
                                 default=[ob["x"], ob["y"]], rule=R("16.5", "Carried Objectives")))


def answer_take(state: State, ctx: Context, p: dict[str, Any], action: dict[str, Any]) -> None:
    """The opponent's choice of the engaged enemy that claims a dropped token (§16.4, §16.5): the
    first engaged unit took it at once; ``take_objective`` with another of them moves it there."""
    uid = action.get("unit")
    if uid not in p["units"]:
        raise IllegalAction(f"the token goes to one of the engaged units {', '.join(p['units'])}", p["rule"])
    state["pending"].pop(0)
    ob = next(o for o in state["objectives"] if o["id"] == p["objective"])
    u = state["units"][uid]
    if ob["holder"] == uid or u["destroyed"] or u["objective"] is not None:
        return
    take(state, ctx, u, ob, f"claims instead ({p['why']}, opponent's choice)")


def placement_problem(state: State, p: dict[str, Any], x: float, y: float) -> str | None:
    """Why the token cannot go at (x, y), or None: within 2" of the tray (or touching its corpse
    pile), on the table, not on Impassable terrain nor on a unit's tray (§16.4-16.5)."""
    r = radius()
    w, h = state["table"]
    if not (r <= x <= w - r and r <= y <= h - r):
        return "the token must lie on the table"
    pt = (x, y)
    if "pile" in p:
        pile = next(t for t in state["terrain"] if t["id"] == p["pile"])
        if point_polygon_distance(pt, np.array(pile["polygon"])) > r + 1e-6 and \
                not points_in_polygon(np.array([pt]), np.array(pile["polygon"]), eps=0.0)[0]:
            return "the token must touch its corpse pile"
    elif point_polygon_distance(pt, np.array(p["tray"])) > 2.0 + r + 1e-6:
        return "the token must lie within 2\" of the unit's tray"
    for t in state["terrain"]:
        if "impassable" in t["keywords"] and (point_polygon_distance(pt, np.array(t["polygon"])) < r - 1e-6 or
                                              points_in_polygon(np.array([pt]), np.array(t["polygon"]), eps=0.0)[0]):
            return f"the token may not lie on Impassable terrain ({t['name']})"
    for o in space.alive(state):
        if point_polygon_distance(pt, polygon(o)) < r - 1e-6 or points_in_polygon(np.array([pt]), polygon(o), eps=0.0)[0]:
            return f"the token may not lie on {o['id']}'s tray"
    return None


def place_objective(state: State, ctx: Context, p: dict[str, Any], action: dict[str, Any]) -> None:
    """The opponent's answer to a ``place_objective`` window."""
    from simulator.core.errors import IllegalAction
    ob = next(o for o in state["objectives"] if o["id"] == p["objective"])
    if action.get("objective", ob["id"]) != ob["id"]:
        raise IllegalAction(f"the pending token is {ob['id']}", p["rule"])
    x, y = action.get("x", p["default"][0]), action.get("y", p["default"][1])
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y)):
        raise IllegalAction("x and y must be numbers (inches)", p["rule"])
    if ob["holder"] is not None:
        return
    if [x, y] != p["default"]:
        why = placement_problem(state, p, float(x), float(y))
        if why:
            raise IllegalAction(why, p["rule"])
    ob["x"], ob["y"] = float(x), float(y)
    ctx.emit("objective", f"{p['player']} places Objective {ob['id']} at ({ob['x']:.1f}, {ob['y']:.1f})", p["rule"],
             objective=ob["id"])


def _touching_enemies(state: State, u: Unit) -> list[Unit]:
    me = polygon(u)
    return [e for e in space.enemies_of(state, u) if space.near(me, polygon(e), space.CONTACT)]


def sync_carried(state: State) -> None:
    for ob in state["objectives"]:
        h = ob["holder"]
        if h and mode(state)["claim"] == "carried":
            u = state["units"][h]
            ob["x"], ob["y"] = u["x"], u["y"]


def refresh_holders(state: State) -> None:
    """Full-cover tokens are held only while completely covered (§16 rule 4)."""
    if mode(state)["claim"] != "full_cover":
        sync_carried(state)
        return
    for ob in state["objectives"]:
        h = ob["holder"]
        if h and (state["units"][h]["destroyed"] or not covers(polygon(state["units"][h]), ob)):
            ob["holder"] = None


def controller(state: State, ob: dict[str, Any]) -> Unit | None:
    """The unit controlling a token: it holds it and no engaged enemy has more ranks (§16 rule 2)."""
    h = ob["holder"]
    if not h:
        return None
    u = state["units"][h]
    if u["destroyed"]:
        return None
    if any(control_ranks(e) > control_ranks(u) for e in space.engaged_with(state, u)):
        return None
    return u


def after_action(state: State, ctx: Context, u: Unit) -> None:
    """Feast for Crows: a carrier out of contact with its corpse pile drops the token (§16.4)."""
    if not mode(state).get("pile_bound") or u["objective"] is None or u["destroyed"]:
        return
    ob = next(o for o in state["objectives"] if o["id"] == u["objective"])
    pile = next((t for t in state["terrain"] if t["id"] == ob.get("pile")), None)
    if pile is not None and not space.near(polygon(u), np.array(pile["polygon"]), space.CONTACT):
        drop(state, ctx, u, "out of contact with its corpse pile")


def after_melee(state: State, ctx: Context, att: Unit, dfn: Unit) -> None:
    """A melee attacker with more ranks takes a carried token from the defender (§16.4-16.5)."""
    if mode(state)["claim"] != "carried" or dfn["objective"] is None or dfn["destroyed"] or att["destroyed"]:
        return
    if control_ranks(att) > control_ranks(dfn) and att["objective"] is None:
        ob = next(o for o in state["objectives"] if o["id"] == dfn["objective"])
        dfn["objective"] = None
        take(state, ctx, att, ob, "wrests")


def on_failed_panic(state: State, ctx: Context, u: Unit) -> None:
    if mode(state)["claim"] == "carried" and u["objective"] is not None:
        drop(state, ctx, u, "failed Panic test" if not u["destroyed"] else "destroyed")


def on_destroyed(state: State, ctx: Context, u: Unit, by_side: str | None, by_unit: str | None) -> None:
    m = mode(state)
    if u["objective"] is not None:
        drop(state, ctx, u, "destroyed")
    for ob in state["objectives"]:
        if ob["holder"] == u["id"]:
            ob["holder"] = None
    killer = state["units"].get(by_unit) if by_unit else None
    enemy_kill = killer is not None and not sides.friendly(state, killer["side"], u["side"])
    if m.get("commander_kill_vp") and enemy_kill and killer["commander"]:
        add_vp(state, ctx, killer["side"], m["commander_kill_vp"], f"the Commander's unit {killer['id']} destroys "
               f"{u['id']}", R("16.2", "A Clash of Kings"))
    if m.get("first_enemy_commander_vp") and u["commander"] and not state["flags"].get(f"cmd_dead_{u['side']}"):
        state["flags"][f"cmd_dead_{u['side']}"] = True
        for side in beneficiaries(state, u, killer["side"] if killer else None):
            add_vp(state, ctx, side, m["first_enemy_commander_vp"], "the enemy Commander falls for the first "
                   "time", R("16.2", "A Clash of Kings"))
    if m["scoring"] == "marked":
        if enemy_kill and killer["marked"]:
            add_vp(state, ctx, killer["side"], m["marked_kill_vp"], f"marked unit {killer['id']} destroys an enemy",
                   R("16.8", "Fire and Blood"))
        if u["marked"]:
            for side in beneficiaries(state, u, killer["side"] if killer else None):
                add_vp(state, ctx, side, m["marked_destroyed_vp"], f"marked unit {u['id']} is destroyed",
                       R("16.8", "Fire and Blood"))
    if u["vp_tokens"]:
        for side in beneficiaries(state, u, killer["side"] if killer else None):
            add_vp(state, ctx, side, u["vp_tokens"], f"{u['id']} carried VP tokens", R("16.8", "Fire and Blood"))
        u["vp_tokens"] = 0
    if m.get("corpse_piles_max") and u["type"] == "infantry":
        spawn_corpse_pile(state, ctx, u)


PILE_OFFSETS = ((0, 0), (0, 4), (0, -4), (4, 0), (-4, 0), (0, 8), (0, -8), (8, 0), (-8, 0))


def pile_polygon(x: float, y: float) -> np.ndarray:
    size = catalogue().terrain["corpse_pile"]["size"]
    return rect_corners([[x, y, size[0], size[1], 90]])[0]


def pile_problem(state: State, p: dict[str, Any], x: float, y: float) -> str | None:
    """Why a corpse pile cannot be centred at (x, y), or None: on the table, entirely within 12"
    of the destroyed unit's tray (``p["tray"]``), at least 1" from other terrain pieces and from
    the trays of the units on the table (§16.4)."""
    poly = pile_polygon(x, y)
    if not space.on_table(state, poly):
        return "the corpse pile must lie on the table"
    tray = np.array(p["tray"])
    if max(point_polygon_distance(c, tray) for c in poly) > space.LONG + 1e-6:
        return f"the corpse pile must lie entirely within 12\" of {p['unit']}'s tray"
    for t in state["terrain"]:
        if t["id"] != p.get("pile") and polygon_distance(poly, np.array(t["polygon"])) < 1.0 - 1e-9:
            return f"the corpse pile must be at least 1\" from other terrain ({t['name']})"
    for o in space.alive(state):
        if o["id"] != p["unit"] and polygon_distance(poly, polygon(o)) < 1.0 - 1e-9:
            return f"the corpse pile must be at least 1\" from {o['id']}'s tray"
    return None


def pile_spots(state: State, p: dict[str, Any]) -> list[tuple[float, float]]:
    """Legal centres around where the unit fell (the first one is the default)."""
    cx, cy = np.array(p["tray"]).mean(axis=0)
    spots = [(round(float(cx + dx), 2), round(float(cy + dy), 2)) for dx, dy in PILE_OFFSETS]
    return [xy for xy in spots if pile_problem(state, p, *xy) is None]


def spawn_corpse_pile(state: State, ctx: Context, u: Unit) -> None:
    """Feast for Crows: a destroyed infantry unit leaves a corpse pile and a new Objective (§16.4).
    The pile goes at once to the first legal spot around the unit; its owner may then put it
    anywhere legal (``place_pile`` window)."""
    rule = R("16.4", "A Feast for Crows")
    piles = [t for t in state["terrain"] if t["kind"] == "corpse_pile"]
    if len(piles) >= mode(state)["corpse_piles_max"]:
        return
    p: dict[str, Any] = {"player": u["side"], "window": "place_pile", "unit": u["id"], "tray": polygon(u).tolist(),
                         "rule": rule}
    spots = pile_spots(state, p)
    if not spots:
        ctx.emit("terrain", f"no room for a corpse pile near {u['id']}", rule)
        return
    cx, cy = spots[0]
    tid = f"pile{len(piles) + 1}"
    state["terrain"].append({"id": tid, "kind": "corpse_pile", "name": "Corpse pile",
                             "keywords": list(catalogue().terrain["corpse_pile"]["keywords"]),
                             "polygon": pile_polygon(cx, cy).tolist()})
    obid = f"O{len(state['objectives']) + 1}"
    state["objectives"].append({"id": obid, "x": cx, "y": cy, "holder": None, "pile": tid})
    ctx.emit("terrain", f"a corpse pile with Objective {obid} appears where {u['id']} fell", rule, objective=obid)
    state["pending"].insert(0, dict(p, pile=tid, objective=obid, default=[cx, cy]))


def place_pile(state: State, ctx: Context, p: dict[str, Any], action: dict[str, Any]) -> None:
    """The owner's answer to ``place_pile``: the pile's centre (its Objective token moves with it)."""
    x, y = action.get("x", p["default"][0]), action.get("y", p["default"][1])
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y)):
        raise IllegalAction("x and y must be numbers (inches)", p["rule"])
    if [x, y] != p["default"]:
        why = pile_problem(state, p, float(x), float(y))
        if why:
            raise IllegalAction(why, p["rule"])
        pile = next(t for t in state["terrain"] if t["id"] == p["pile"])
        pile["polygon"] = pile_polygon(float(x), float(y)).tolist()
        ob = next(o for o in state["objectives"] if o["id"] == p["objective"])
        ob["x"], ob["y"] = float(x), float(y)
        ctx.emit("terrain", f"{p['player']} puts the corpse pile of {p['unit']} (Objective {ob['id']}) at "
                 f"({x:.1f}, {y:.1f})", p["rule"], objective=ob["id"])
    state["pending"].pop(0)


# -- Fire and Blood: the Commander's VP token ---------------------------------------------------
def vp_token_candidates(state: State, u: Unit) -> list[Unit]:
    """Enemy Combat units within Long range (12", edge to edge) of ``u``, nearest first (§16.8)."""
    me = polygon(u)
    near = [(polygon_distance(me, polygon(e)), i, e) for i, e in enumerate(space.enemies_of(state, u))
            if not e.get("structure")]
    return [e for d, _, e in sorted(near, key=lambda t: t[:2]) if d <= space.LONG + 1e-9]


def commander_vp_token(state: State, ctx: Context, u: Unit, action: dict[str, Any]) -> None:
    """Fire and Blood: when the Commander's unit activates its player may put 1 VP token on an
    enemy Combat unit within 12" (§16.8). The action's ``vp_token`` names it (null: none);
    without the key the nearest one gets it."""
    rule = R("16.8", "Fire and Blood")
    if state["mode"] != "fire_and_blood" or not u["commander"]:
        if "vp_token" in action:
            raise IllegalAction("only the Commander's unit puts VP tokens, and only in Fire and Blood", rule)
        return
    cands = vp_token_candidates(state, u)
    choice = action.get("vp_token", cands[0]["id"] if cands else None)
    if choice is None:
        if cands:
            ctx.emit("vp_token", f"{u['side']} puts no VP token this activation", rule, pieces=[u["id"]])
        return
    target = next((e for e in cands if e["id"] == choice), None)
    if target is None:
        ids = ", ".join(e["id"] for e in cands) or "none"
        raise IllegalAction(f"a VP token goes on an enemy Combat unit within 12\" of {u['id']} "
                            f"({ids}), not {choice!r}", rule)
    target["vp_tokens"] += 1
    ctx.emit("vp_token", f"the Commander's unit {u['id']} puts a VP token on {target['id']} "
             f"({target['vp_tokens']} on it)", rule, pieces=[target["id"], u["id"]], unit=target["id"])


# -- Quadrants ----------------------------------------------------------------------------------
def quadrant_ties(state: State, u: Unit) -> list[int]:
    """0 NW, 1 NE, 2 SW, 3 SE (north = high y): the quadrants holding the larger part of the tray
    (§16.9); more than one when the tray lies exactly between them."""
    w, h = state["table"]
    poly = polygon(u)
    areas = []
    for qx, qy in ((0, 1), (1, 1), (0, 0), (1, 0)):
        x0, y0 = qx * w / 2, qy * h / 2
        part = convex_clip(poly, [[x0, y0], [x0 + w / 2, y0], [x0 + w / 2, y0 + h / 2], [x0, y0 + h / 2]])
        areas.append(polygon_area(part) if len(part) >= 3 else 0.0)
    best = max(areas)
    return [q for q, a in enumerate(areas) if a >= best - 1e-6]


def quadrant_of(state: State, u: Unit) -> int:
    """The unit's quadrant: on an exact tie the one the opponent chose this Cleanup
    (``state["quadrant_choice"]``), else the lowest-numbered of the tied ones."""
    ties = quadrant_ties(state, u)
    chosen = state.get("quadrant_choice", {}).get(u["id"])
    return chosen if chosen in ties else ties[0]


def ask_quadrant_ties(state: State, ctx: Context) -> bool:
    """Before quadrants are scored (from round 2), the owner's opponent decides where each unit
    lying exactly between quadrants is (§16.9): one ``quadrant`` window per such unit."""
    m = mode(state)
    if m["scoring"] != "quadrants" or state["round"] < 2:
        return False
    state["quadrant_choice"] = {}
    asked = False
    for u in space.alive(state):
        ties = quadrant_ties(state, u)
        if len(ties) > 1:
            chooser = sides.opponent(state, u["side"])
            state["pending"].append({"player": chooser, "window": "quadrant", "unit": u["id"], "quadrants": ties,
                                     "rule": R("16.9", "Here We Stand")})
            ctx.emit("quadrant_tie", f"{u['id']} lies exactly between quadrants "
                     f"{', '.join(str(q + 1) for q in ties)}: {chooser} decides", R("16.9", "Here We Stand"),
                     pieces=[u["id"]], unit=u["id"], quadrants=ties)
            asked = True
    return asked


def answer_quadrant(state: State, ctx: Context, p: dict[str, Any], action: dict[str, Any]) -> None:
    """The opponent's choice of quadrant for a unit lying exactly between quadrants (§16.9)."""
    if action.get("unit", p["unit"]) != p["unit"]:
        raise IllegalAction(f"the pending choice is for {p['unit']}", p["rule"])
    q = action.get("quadrant")
    if q not in p["quadrants"]:
        raise IllegalAction(f"{p['unit']} lies between quadrants {p['quadrants']} (0 NW, 1 NE, 2 SW, 3 SE); "
                            f"{q!r} is not one of them", p["rule"])
    state["pending"].pop(0)
    state.setdefault("quadrant_choice", {})[p["unit"]] = q
    ctx.emit("quadrant", f"{p['player']} puts {p['unit']} in quadrant {q + 1}", p["rule"], pieces=[p["unit"]],
             unit=p["unit"], quadrant=q)


def quadrant_points(state: State) -> list[dict[str, int]]:
    m = mode(state)
    pts = [{t: 0 for t in sides.team_ids(state)} for _ in range(4)]
    for u in space.alive(state):
        q = quadrant_of(state, u)
        pts[q][sides.team(state, u["side"])] += u["cost"] + (m.get("commander_points", 0) if u["commander"] else 0)
    for n in state["ncus"].values():
        if n.get("quadrant") is not None:
            pts[n["quadrant"]][sides.team(state, n["side"])] += n["cost"]
    return pts


# -- Scoring and victory --------------------------------------------------------------------------
def score_round(state: State, ctx: Context) -> None:
    """Cleanup step 2 (§3.2): the mode's VP for this round (Objectives from round 2)."""
    m = mode(state)
    if state["round"] < 2:
        return
    if m["scoring"] == "standard":
        refresh_holders(state)
        for i, ob in enumerate(state["objectives"]):
            u = controller(state, ob)
            if u is None:
                continue
            add_vp(state, ctx, u["side"], 1, f"{u['id']} controls Objective {ob['id']}", R(m["rule"], m["name"]))
            if u["commander"]:
                add_vp(state, ctx, u["side"], 1, f"the Commander's unit {u['id']} controls {ob['id']}",
                       R(m["rule"], m["name"]))
            if i in m.get("near_wall_objectives", []):
                arrows(state, ctx, u)
    elif m["scoring"] == "quadrants":
        for q, pts in enumerate(quadrant_points(state)):
            for side, n in pts.items():
                others = [v for s, v in pts.items() if s != side]
                if n >= m["quadrant_min_points"] and all(n > v for v in others):
                    add_vp(state, ctx, side, 1, f"{side} controls quadrant {q + 1} ({n} points)",
                           R("16.9", "Here We Stand"))


def arrows(state: State, ctx: Context, u: Unit) -> None:
    """Sharp and Ready: the walls shoot 1D3+2 hits at the holder (not an Attack, §16.7)."""
    from simulator.games.asoiaf.combat import automatic_hits
    n = ctx.dice.d3("castle wall arrows") + 2
    automatic_hits(state, ctx, catalogue(), u, n, None, "the castle walls' arrows", R("16.7", "Sharp and Ready"))


def army_points_left(state: State, side: str) -> int:
    return sum(u["cost"] for u in space.alive(state, side))


def check_victory(state: State, ctx: Context, end_of_round: bool) -> None:
    """Elimination at once; VP threshold at the end of a round; the round limit decides (§15.2).
    Teams win and score together (§13.1); a free-for-all player with no Combat unit left is
    eliminated and the last player standing wins (§13.2)."""
    if state.get("result"):
        return
    m = mode(state)
    teams = sides.team_ids(state)
    standing = [t for t in teams if t not in state.get("eliminated", [])
                and any(not u["destroyed"] and sides.team(state, u["side"]) == t and not u.get("structure")
                        for u in state["units"].values())]
    if state.get("format") == "free_for_all":
        for t in teams:
            if t not in standing and t not in state["eliminated"]:
                state["eliminated"].append(t)
                ctx.emit("eliminated", f"{t} has no Combat unit left and is eliminated", R("13.2", "Free-for-all"),
                         side=t)
        if len(standing) <= 1:
            if standing:
                finish(state, ctx, standing[0], f"{standing[0]} wins: every other player is eliminated",
                       R("13.2", "Free-for-all"))
            else:
                finish(state, ctx, None, "every army is destroyed: a draw", R("15.2", "Victory"))
            return
    elif len(standing) < len(teams):
        if len(standing) == 1:
            finish(state, ctx, standing[0], f"{standing[0]} wins: every enemy Combat unit is destroyed",
                   R("15.2", "Victory"))
        else:
            finish(state, ctx, None, "both armies are destroyed: a draw", R("15.2", "Victory"))
        return
    if not end_of_round:
        return
    vp = sides.scores(state)
    need = state["vp_needed"]
    defender = sides.team(state, state["flags"]["defender"]) if m["scoring"] == "siege" else None
    for t in standing:
        if vp[t] >= need and all(vp[t] > vp[o] for o in teams if o != t) and t != defender:
            finish(state, ctx, t, f"{t} wins with {vp[t]} VP (needed {need} and more than every opponent)",
                   R("15.2", "Victory"))
            return
    if state["round"] >= state["max_rounds"]:
        if defender is not None:
            finish(state, ctx, defender, f"{defender} held the castle to the end of round {state['round']}",
                   R("16.3", "A Storm of Swords"))
            return
        best = max(vp[t] for t in standing)
        top = [t for t in standing if vp[t] == best]
        if len(top) > 1:
            pts = {t: army_points_left(state, t) for t in top}
            most = max(pts.values())
            top = [t for t in top if pts[t] == most]
        if len(top) == 1:
            finish(state, ctx, top[0], f"{top[0]} wins after round {state['round']} on VP "
                   f"({', '.join(f'{t} {vp[t]}' for t in teams)})", R("15.2", "Victory"))
        else:
            finish(state, ctx, None, "a draw: equal VP and equal army points on the table", R("15.2", "Victory"))


def finish(state: State, ctx: Context, winner: str | None, text: str, rule: str) -> None:
    state["result"] = {"winner": winner, "text": text, "rule": rule}
    state["phase"] = "over"
    ctx.emit("game_over", text, rule, winner=winner)


def vp_needed(points: int) -> int:
    """8 VP at 30 points, +2 per further 10 points (§12.1)."""
    return 8 + 2 * max(0, math.floor((points - 30) / 10))
