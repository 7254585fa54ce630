"""Shooting (SAGA p.15-19, p.26, p.66): line of sight, range, cover, the five steps.

Engine decisions (docs/saga.md): line of sight runs centre to centre between two figures;
it is blocked by any base other than the two figures and the shooter's own unit, by the
gap between two figures of another unit standing within VS of each other, by high linear
terrain, and by high area terrain it enters and leaves (a target inside is seen).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.saga import catalogue as cat
from simulator.games.saga import casualties, movement
from simulator.games.saga.units import (EPS, add_fatigue, attack_dice_shooting, base_armour, clamp_armour,
                                        figure_array, remove_figures)
from simulator.geometry.segments import point_segment_distance, points_in_polygon, segments_intersect
from simulator.geometry.table import (circle_gaps, segment_crosses_polyline, segment_polygon_distance,
                                      segment_through_polygon)

State = dict[str, Any]


def los_blockers(state: State, a: tuple[float, float], b: tuple[float, float],
                 ignore_units: set[str]) -> list[str]:
    """What blocks the sight line a-b: piece ids and terrain ids."""
    out: list[str] = []
    figs = state["figures"]
    others = [f for f, v in figs.items() if v["unit"] not in ignore_units]
    if others:
        arr = figure_array(state, others)
        d = point_segment_distance(arr[:, :2], np.array(a), np.array(b))
        out += [others[i] for i in np.nonzero(d < arr[:, 2] - EPS)[0]]
        walls = movement._walls(state, others, exclude=set())
        if walls is not None and segments_intersect(np.array(a), np.array(b), walls[0], walls[1]).any():
            out.append("gap between figures")
    for t in state["terrain"]:
        if t["height"] != "high":
            continue
        if "line" in t and segment_crosses_polyline(a, b, t["line"])[0]:
            out.append(t["id"])
        elif "polygon" in t and segment_through_polygon(a, b, t["polygon"]):
            out.append(t["id"])
    return out


def weapon_range(state: State, unit: dict[str, Any]) -> float:
    w = unit.get("weapon")
    if not w:
        return 0.0
    rng = cat.inches(cat.distances()["weapons"][w]["range"])
    if w == "bow" and state["sides"][unit["owner"]].get("double_bow_range"):
        rng *= 2                                                   # Massed Shooting, SAGA p.61
    return rng


def eligible_shooters(state: State, shooter: str, target: str) -> list[str]:
    """SAGA p.16: figures within range of the closest target figure and seeing one target figure."""
    unit = state["units"][shooter]
    rng = weapon_range(state, unit)
    figs = state["figures"]
    tgt = state["units"][target]["figures"]
    tarr = figure_array(state, tgt)
    out = []
    for f in unit["figures"]:
        me = figs[f]
        gap = circle_gaps([[me["x"], me["y"], me["r"]]], tarr)[0]
        if gap.min() > rng + EPS:
            continue
        for t in tgt:
            if not los_blockers(state, (me["x"], me["y"]), (figs[t]["x"], figs[t]["y"]), {shooter, target}):
                out.append(f)
                break
    return out


def cover(state: State, target: str, shooters: list[str]) -> str:
    """SAGA p.18: light or heavy cover when two thirds (rounded up) of the target's figures are
    in, or behind, a cover piece as seen from every eligible shooter; mounted never."""
    unit = state["units"][target]
    if unit["mounted"] or not shooters:
        return "none"
    if unit.get("building") or unit.get("shield_wall"):
        return "heavy"                                 # inside a building; Flemish Shield Wall (SAGA p.46)
    figs = state["figures"]
    need = math.ceil(2 * len(unit["figures"]) / 3)
    best = {"light": 0, "heavy": 0}
    for f in unit["figures"]:
        p = (figs[f]["x"], figs[f]["y"])
        level = "none"
        for t in state["terrain"]:
            if t["cover"] == "none":
                continue
            if "polygon" in t:
                hit = points_in_polygon([p], t["polygon"], eps=0.0)[0] or all(
                    segment_polygon_distance((figs[s]["x"], figs[s]["y"]), p, t["polygon"]) == 0.0
                    for s in shooters)
            else:
                hit = bool(segment_crosses_polyline([(figs[s]["x"], figs[s]["y"]) for s in shooters],
                                                    [p] * len(shooters), t["line"]).all())
            if hit and (level == "none" or t["cover"] == "heavy"):
                level = t["cover"]
        if level == "heavy":
            best["heavy"] += 1
            best["light"] += 1
        elif level == "light":
            best["light"] += 1
    if best["heavy"] >= need:
        return "heavy"
    if best["light"] >= need:
        return "light"
    return "none"


def begin(state: State, shooter: str, target: str, ctx: Context, after_move: bool = False) -> None:
    """Step 1: target and dice; then the attacker's step 2."""
    su, tu = state["units"][shooter], state["units"][target]
    if tu["owner"] == su["owner"]:
        raise IllegalAction("shoot at an enemy unit", "SAGA p.15")
    if not su.get("weapon"):
        raise IllegalAction(f"{su['name']} has no missile weapons", "SAGA p.15")
    ok = eligible_shooters(state, shooter, target)
    if not ok:
        raise IllegalAction(f"no figure of {su['name']} is in range of and sees {tu['name']}", "SAGA p.15-16")
    dice = attack_dice_shooting(su, len(ok))
    cov = cover(state, target, ok)
    state["shooting"] = {"shooter": shooter, "target": target, "attack": dice, "base": dice, "defence": 0,
                         "target_armour": 0, "reroll_attack": False, "reroll_defence": False, "cover": cov,
                         "spent": False, "own_fatigue_after": 0, "step": "attacker", "after_move": after_move,
                         "players": {shooter: su["owner"], target: tu["owner"]}, "used": []}
    ctx.emit("shoot", f"{su['name']} shoots at {tu['name']}: {len(ok)} figure(s) in range and sight, {dice} dice"
             + (f"; the target has {cov} cover" if cov != "none" else ""), "SAGA p.16",
             pieces=ok + list(tu["figures"]), unit=shooter, target=target, dice=dice)
    state["active"] = su["owner"]


def spend_fatigue(state: State, player: str, ctx: Context) -> None:
    """SAGA p.24: the target's owner discards a fatigue of the shooting unit for +1 armour."""
    sh = state["shooting"]
    su = state["units"][sh["shooter"]]
    if player != sh["players"][sh["target"]]:
        raise IllegalAction("only the target's owner spends the shooters' fatigue", "SAGA p.24")
    if sh["spent"] or su["fatigue"] < 1:
        raise IllegalAction("no fatigue to spend (once per shot)", "SAGA p.24")
    sh["spent"] = True
    su["fatigue"] -= 1
    sh["target_armour"] += 1
    ctx.emit("fatigue_spent", f"{player} spends a fatigue of {su['name']}: target armour +1", "SAGA p.24")


def done(state: State, ctx: Context) -> None:
    sh = state["shooting"]
    if sh["step"] == "attacker":
        sh["step"] = "defender"
        state["active"] = sh["players"][sh["target"]]
        return
    resolve(state, ctx)


def resolve(state: State, ctx: Context) -> None:
    """Steps 3 to 5."""
    sh = state["shooting"]
    su, tu = state["units"][sh["shooter"]], state["units"][sh["target"]]
    sh["attack"] = min(sh["attack"], 2 * sh["base"])
    crossbow = su.get("weapon") == "crossbow"
    armour = base_armour(state, tu, shooting=True, crossbow=crossbow) + sh["target_armour"]
    if sh["cover"] == "heavy":
        armour += 1
    armour = clamp_armour(armour)

    def hit(v: int) -> bool:
        return v == 6 or (v != 1 and v >= armour)                  # SAGA p.17

    rolls = [ctx.dice.d6(f"shooting of {su['name']}") for _ in range(sh["attack"])]
    if sh["reroll_attack"]:
        rolls = [v if hit(v) else ctx.dice.d6("shooting re-roll") for v in rolls]
    hits = sum(1 for v in rolls if hit(v))
    ctx.emit("shoot_attack", f"{su['name']} rolls {rolls} needing {armour}: {hits} hit(s)", "SAGA p.17",
             unit=sh["shooter"], hits=hits)
    need = 3 if sh["cover"] != "none" else 4
    n = min(hits + sh["defence"], 2 * hits)
    drolls = [ctx.dice.d6(f"defence of {tu['name']}") for _ in range(n)]
    if sh["reroll_defence"]:
        drolls = [v if v >= need else ctx.dice.d6("defence re-roll") for v in drolls]
    saved = min(hits, sum(1 for v in drolls if v >= need))
    ctx.emit("shoot_defence", f"{tu['name']} rolls {drolls} needing {need}+: {saved} cancelled", "SAGA p.18",
             unit=sh["target"], cancelled=saved)
    sh["hits"] = hits - saved
    # step 5: the target's owner picks the casualties or the Warlord's bodyguards (casualties.py)
    step = "casualties" if casualties.needs_choice(state, sh["target"], sh["hits"]) else \
        "bodyguards" if casualties.guard_choice(state, sh["target"], sh["hits"]) else None
    if step is not None:
        sh["step"] = step
        state["active"] = sh["players"][sh["target"]]
        return
    finish(state, ctx)


def finish(state: State, ctx: Context, chosen: list[str] | None = None, guards: list[str] | None = None) -> None:
    """Step 5 (``chosen``: the casualties the target's owner picked; ``guards``: the Warlord's
    bodyguards he picked; else the engine's), the shooters' own fatigue from Deadly Strike, then
    the shot is over."""
    from simulator.games.saga.melee import take_hits
    sh = state["shooting"]
    su = state["units"][sh["shooter"]]
    if chosen is not None:
        remove_figures(state, sh["target"], len(chosen), ctx, "shooting", "SAGA p.17", killer=su["owner"],
                       chosen=chosen)
    else:
        take_hits(state, sh["target"], sh["hits"], ctx, "shooting", killer_unit=sh["shooter"], guards=guards)
    if sh["own_fatigue_after"]:
        add_fatigue(state, su, sh["own_fatigue_after"], ctx, "Deadly Strike", "SAGA p.62")
    state["shooting"] = None
