"""The finite menu of legal actions: free-form moves sampled at sensible distances and facings.

``apply`` accepts any valid parameters; this list offers, per unit, holding, a few Maneuvers and
Marches (towards the nearest enemy or Objective, full and half distance), Retreats, every
legal melee, ranged and charge target, and Tactics-card variants. Each candidate is checked
with the same geometry tests ``apply`` uses, so every listed action is legal.
"""

from __future__ import annotations

import math
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.games.asoiaf import modes, moves, sides, space, tactics
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import CONDITIONS, Unit, polygon, speed

State = dict[str, Any]
Action = dict[str, Any]


def bearing(u: Unit, x: float, y: float) -> float:
    """Facing (degrees counter-clockwise from +x, table convention) from the unit's centre towards (x, y)."""
    return round(math.degrees(math.atan2(y - u["y"], x - u["x"])) % 360, 1)


def legal_actions(state: State) -> list[Action]:
    if state["pending"]:
        return pending_options(state, state["pending"][0])
    me = state["active"]
    chosen = state["turn"].get("chosen")
    out: list[Action] = []
    for uid in state["order"]:
        u = state["units"][uid]
        if chosen not in (None, uid) or u["activated"] or u["destroyed"]:
            continue
        if u["side"] != me:
            if sides.friendly(state, u["side"], me) and (not u.get("reserve") or state["round"] >= 3):
                out.append({"type": "activate", "unit": uid})      # the owner takes it (13.1)
        elif not u.get("reserve"):
            out += unit_options(state, u)
        elif state["round"] >= 3:
            from simulator.games.asoiaf import deployment
            out += [{"type": "hold", "unit": uid, "enter": spot} for spot in deployment.reserve_spots(state, u)]
            out.append({"type": "hold", "unit": uid})
    for n in state["ncus"].values():
        if chosen not in (None, n["id"]) or n["activated"]:
            continue
        if n["side"] == me:
            out += ncu_options(state, n)
        elif sides.friendly(state, n["side"], me):
            out.append({"type": "activate", "ncu": n["id"]})
    return out


def _hand(state: State, side: str, trigger: str) -> list[str]:
    if state["turn"].get("no_cards") == side:
        return []
    eff = catalogue().card_effects
    return sorted({c for c in state["hands"][side] if c in eff and eff[c]["trigger"] == trigger})


def _ok(fn: Any, *args: Any, **kw: Any) -> bool:
    try:
        fn(*args, **kw)
    except IllegalAction:
        return False
    return True


def move_samples(state: State, u: Unit, spd: float, kind: str) -> list[Action]:
    """A few Maneuvers/Marches: towards the nearest enemy and Objective, and straight on."""
    targets = []
    e = space.nearest_enemy(state, u, 200)
    if e is not None:
        targets.append(bearing(u, e["x"], e["y"]))
    free = [o for o in state["objectives"] if o["holder"] is None]
    if free:
        o = min(free, key=lambda o: (o["x"] - u["x"]) ** 2 + (o["y"] - u["y"]) ** 2)
        targets.append(bearing(u, o["x"], o["y"]))
    out = []
    rule = "6.2" if kind == "maneuver" else "6.3"
    if kind == "maneuver":
        for pivot in dict.fromkeys(targets + [u["facing"]]):
            for d in (spd, spd / 2):
                for d2 in (d, d - 1.5):
                    if d2 <= 0:
                        continue
                    f = space.forward(pivot)
                    final = bearing({"x": u["x"] + f[0] * d2, "y": u["y"] + f[1] * d2}, e["x"], e["y"]) if e else pivot
                    if _ok(moves.plan_straight, state, u, pivot, f, round(d2, 2), spd, final, kind, rule):
                        out.append({"type": "maneuver", "unit": u["id"], "pivot": pivot, "distance": round(d2, 2),
                                    "facing": final})
                        break
    else:
        f = space.forward(u["facing"])
        for d in (2 * spd, spd, spd / 2):
            if _ok(moves.plan_straight, state, u, u["facing"], f, d, 2 * spd, u["facing"], kind, rule):
                out.append({"type": "march", "unit": u["id"], "distance": d, "facing": u["facing"]})
                break
    return out


def unit_options(state: State, u: Unit) -> list[Action]:
    """The unit's sampled actions; in Fire and Blood the Commander's unit also chooses where its VP
    token goes (§16.8): the nearest enemy on every action, every other choice (or none) on the
    first action of each type."""
    out = _unit_options(state, u)
    if state["mode"] != "fire_and_blood" or not u["commander"]:
        return out
    cands = [e["id"] for e in modes.vp_token_candidates(state, u)]
    if not cands:
        return out
    with_token: list[Action] = []
    for a in out:
        with_token.append(dict(a, vp_token=cands[0]))
        if not any(b["type"] == a["type"] for b in with_token[:-1]):
            with_token += [dict(a, vp_token=c) for c in cands[1:] + [None]]
    return with_token


def _unit_options(state: State, u: Unit) -> list[Action]:
    out: list[Action] = [{"type": "hold", "unit": u["id"]}]
    for c in _hand(state, u["side"], "activation"):
        if tactics.name_problem(c, u, None) is None:
            out.append({"type": "hold", "unit": u["id"], "card": c})
    attack_cards = _hand(state, u["side"], "attack")
    if u.get("structure"):
        out += ranged_options(state, u, attack_cards)
        return out
    m = modes.mode(state)
    spd = speed(u, m.get("carrier_speed"))
    engaged = space.engaged_with(state, u)
    if engaged:
        melee = [i for i, a in enumerate(u["attacks"]) if a["range"] == "melee"]
        for e in engaged:
            if e.get("structure") and not melee:
                continue
            for i in melee[:1]:
                out.append({"type": "attack", "unit": u["id"], "target": e["id"], "attack": i})
                for c in attack_cards:
                    if not catalogue().card_effects[c].get("charge_only") and tactics.name_problem(c, u, e) is None:
                        out.append({"type": "attack", "unit": u["id"], "target": e["id"], "attack": i, "card": c})
                if _ok(moves.melee_alignment, state, u, e, engaged, "centre"):
                    out.append({"type": "attack", "unit": u["id"], "target": e["id"], "attack": i, "align": "centre"})
        for direction in moves.retreat_directions(state, u):
            d = spd + 1
            if _ok(moves.plan_straight, state, u, u["facing"], moves.direction_vector(u, direction), d, d,
                   u["facing"], "retreat", "6.4"):
                out.append({"type": "retreat", "unit": u["id"], "direction": direction, "distance": d,
                            "facing": u["facing"]})
        return out
    out += terrain_attack_options(state, u)
    out += move_samples(state, u, spd, "maneuver")
    if not (m.get("carrier_speed") and u["objective"] is not None):
        out += move_samples(state, u, spd, "march")
    out += ranged_options(state, u, attack_cards)
    out += charge_options(state, u, spd, attack_cards)
    return out


def ranged_options(state: State, u: Unit, cards: list[str]) -> list[Action]:
    out = []
    for i, a in enumerate(u["attacks"]):
        if a["range"] == "melee":
            continue
        rng = space.SHORT if a["range"] == "short" else space.LONG
        for e in space.enemies_of(state, u):
            if e.get("structure"):
                continue
            poly = polygon(e)
            if space.range_to(u, poly) > rng or not space.line_of_sight(state, u, poly, e["id"], True).clear:
                continue
            out.append({"type": "attack", "unit": u["id"], "target": e["id"], "attack": i})
            for c in cards:
                eff = catalogue().card_effects[c]
                if not eff.get("melee_only") and not eff.get("charge_only") and tactics.name_problem(c, u, e) is None:
                    out.append({"type": "attack", "unit": u["id"], "target": e["id"], "attack": i, "card": c})
        break
    return out


def charge_options(state: State, u: Unit, spd: float, cards: list[str]) -> list[Action]:
    from simulator.games.asoiaf.rules import Asoiaf
    melee = [i for i, a in enumerate(u["attacks"]) if a["range"] == "melee"]
    if not melee:
        return []
    game = Asoiaf()
    out = []
    me = polygon(u)
    for e in space.enemies_of(state, u):
        if not space.near(me, polygon(e), spd + 6):
            continue
        arc, _ = space.arc_of(e, me)
        facing = bearing(u, e["x"], e["y"])
        try:
            game._charge_checks(state, u, e, arc, spd + 6, "at the start")
            old = u["facing"]
            u["facing"] = facing
            try:
                game._charge_checks(state, u, e, None, spd + 6, "after the pivot")
                space.check_final(state, u, polygon(u), charge=True)
            finally:
                u["facing"] = old
        except IllegalAction:
            continue
        out.append({"type": "charge", "unit": u["id"], "target": e["id"], "facing": facing, "attack": melee[0]})
        for c in cards:
            if tactics.name_problem(c, u, e) is None:
                out.append({"type": "charge", "unit": u["id"], "target": e["id"], "facing": facing,
                            "attack": melee[0], "card": c})
    return out


def ncu_options(state: State, n: dict[str, Any]) -> list[Action]:
    """The NCU's sampled actions; a claim that lets Cersei fetch a card also comes without the
    fetch (``fetch: false``: she keeps her token, §18.4)."""
    out = _ncu_options(state, n)
    return out + [dict(a, fetch=False) for a in out
                  if a["type"] == "claim" and tactics.cersei_card(state, n, a["zone"]) is not None]


def _ncu_options(state: State, n: dict[str, Any]) -> list[Action]:
    out: list[Action] = [{"type": "ncu_pass", "ncu": n["id"]}]
    side = n["side"]
    mine = [u for u in space.alive(state, side) if not u.get("structure")]
    theirs = [u for u in space.alive(state) if not sides.friendly(state, u["side"], side) and not u.get("structure")]
    for z in catalogue().zones:
        if state["board"][z["id"]] is not None:
            continue
        base = {"type": "claim", "ncu": n["id"], "zone": z["id"]}
        eff = z["effect"]
        if eff == "enemy_panic_test" and theirs:
            out.append(dict(base, target=theirs[0]["id"]))
        elif eff == "remove_condition":
            for u in mine + theirs:
                if u["conditions"]:
                    out.append(dict(base, target=u["id"], condition=u["conditions"][0]))
                    break
        elif eff in ("draw_and_condition", "enemy_condition") and theirs:
            cond = z.get("condition") or next((c for c in CONDITIONS if c not in theirs[0]["conditions"]), "weakened")
            out.append(dict(base, target=theirs[0]["id"], condition=cond))
        elif eff == "free_move":
            for u in mine:
                if space.engaged_with(state, u):
                    continue
                for a in move_samples(state, u, speed(u), "maneuver")[:1]:
                    out.append(dict(base, target=u["id"], pivot=a["pivot"], distance=a["distance"],
                                    facing=a["facing"]))
                break
    if state["mode"] == "sharp_and_ready":
        from simulator.games.asoiaf.rules import Asoiaf
        for uid in Asoiaf._side_holders(state):
            for z in catalogue().zones:
                if state["board"][z["id"]] is None:
                    out.append({"type": "claim", "ncu": n["id"], "zone": z["id"], "target": uid, "replace": True})
                    break
    if state["mode"] == "here_we_stand":
        used = {m["quadrant"] for m in state["ncus"].values() if m["side"] == side and m["quadrant"] is not None}
        for q in range(4):
            if q not in used:
                out.append({"type": "place_ncu", "ncu": n["id"], "quadrant": q})
    return out


def pending_options(state: State, p: dict[str, Any]) -> list[Action]:
    w = p["window"]
    if w in ("reroll", "panic_reroll"):
        keep = [{"type": "reroll", "dice": []}]
        return keep if not p["default"] else [{"type": "reroll", "dice": list(p["default"])}] + keep
    if w == "take_objective":
        return [{"type": "take_objective", "unit": uid} for uid in p["units"]]
    if w == "order":
        return [{"type": "order", "use": True}, {"type": "order", "use": False}]
    if w == "push":
        return push_options(state, p)
    if w == "place_objective":
        return objective_options(state, p)
    if w == "redeploy":
        from simulator.games.asoiaf import deployment
        return deployment.options(state, p)
    if w == "attacked":
        dfn, att = state["units"][p["attack"]["defender"]], state["units"][p["attack"]["attacker"]]
        return [{"type": "respond", "card": None}] + [{"type": "respond", "card": c}
                                                       for c in _hand(state, p["player"], "attacked")
                                                       if tactics.name_problem(c, dfn, att) is None]
    if w == "place_pile":
        spots = [tuple(p["default"])] + [xy for xy in modes.pile_spots(state, p) if list(xy) != p["default"]]
        return [{"type": "place_pile", "x": x, "y": y} for x, y in spots]
    if w == "hand_limit":
        return [{"type": "discard", "cards": c} for c in tactics.hand_limit_options(state, p["player"])]
    if w == "quadrant":
        return [{"type": "quadrant", "unit": p["unit"], "quadrant": q} for q in p["quadrants"]]
    if w == "discard":
        return [{"type": "discard", "cards": []}] + [{"type": "discard", "cards": [c]}
                                                     for c in sorted(set(state["hands"][p["player"]]))]
    u = state["units"][p["unit"]]
    out: list[Action] = [{"type": "skip", "unit": u["id"]}]
    if u["destroyed"]:
        return out
    if w == "free_pivot":
        e = space.nearest_enemy(state, u, 200)
        for f in dict.fromkeys(([bearing(u, e["x"], e["y"])] if e else []) + [(u["facing"] + 180) % 360]):
            if _ok(space.check_final, state, u, polygon(u, facing=f), charge=True):
                out.append({"type": "free_pivot", "unit": u["id"], "facing": f})
    else:
        out += move_samples(state, u, speed(u), "maneuver")
        for a in out[1:]:
            a["type"] = "free_maneuver"
    return out


def push_options(state: State, p: dict[str, Any]) -> list[Action]:
    """The default spot first, then 1" straight back, left or right from where the unit stood."""
    from simulator.games.asoiaf.rules import Asoiaf
    u = state["units"][p["unit"]]
    out: list[Action] = [{"type": "push", "unit": u["id"], "x": p["default"][0], "y": p["default"][1]}]
    game = Asoiaf()
    for direction in ("back", "left", "right"):
        v = moves.direction_vector(u, direction)
        x, y = round(float(p["origin"][0] + v[0]), 3), round(float(p["origin"][1] + v[1]), 3)
        a = {"type": "push", "unit": u["id"], "x": x, "y": y}
        keep = (u["x"], u["y"])
        try:
            game._place_pushed(state, _Quiet(), p, a)
        except IllegalAction:
            continue
        finally:
            moves.place(u, keep[0], keep[1], u["facing"])
        if [x, y] != p["default"]:
            out.append(a)
    return out


def objective_options(state: State, p: dict[str, Any]) -> list[Action]:
    """The default spot first, then a few legal spots around the tray (or on the corpse pile)."""
    out: list[Action] = [{"type": "place_objective", "objective": p["objective"], "x": p["default"][0],
                          "y": p["default"][1]}]
    import numpy as np
    poly = np.array(state["terrain"][[t["id"] for t in state["terrain"]].index(p["pile"])]["polygon"]) \
        if "pile" in p else np.array(p["tray"])
    centre = poly.mean(axis=0)
    for corner in poly:
        d = corner - centre
        n = float(np.hypot(*d)) or 1.0
        spot = corner + d / n * (0.0 if "pile" in p else 1.5)
        x, y = round(float(spot[0]), 2), round(float(spot[1]), 2)
        if modes.placement_problem(state, p, x, y) is None:
            out.append({"type": "place_objective", "objective": p["objective"], "x": x, "y": y})
    return out


class _Quiet:
    """A context that swallows events, for trying an answer without logging it."""

    def emit(self, *args: Any, **kw: Any) -> None:
        return None


def terrain_attack_options(state: State, u: Unit) -> list[Action]:
    """Melee Attack actions against Destructible pieces within 1" (§14.1)."""
    if not any(a["range"] == "melee" for a in u["attacks"]):
        return []
    from simulator.geometry.table import polygon_distance
    me = polygon(u)
    return [{"type": "attack_terrain", "unit": u["id"], "terrain": t["id"]}
            for t in space.terrain_with(state, "destructible") if polygon_distance(me, space.tpoly(t)) <= 1.0]
