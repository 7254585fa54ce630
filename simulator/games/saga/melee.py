"""Melee (SAGA p.20-23, p.66): the eight steps, the Warlord's Resilience, fatigue, disengaging.

The melee context ``state["melee"]`` lives from the engagement to step 8:
``{attacker, partner, defender, players: {uid: player}, step, sides: {uid: {...}}, split, inflicted}``.
``partner`` is the unit fighting Side by Side with its Warlord (SAGA p.34), else None: the
two attacking units roll their own dice with their own abilities, the defender splits its
attack dice between them (``split``: dice at the Warlord), casualties of the partner come first.
Steps 1-2 and 4-8 are resolved by the engine; players act in step 2 (the defender may
trade attack dice for defence dice) and step 3 (abilities and fatigue, attacker first).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.saga import catalogue as cat
from simulator.games.saga import buildings, casualties, movement
from simulator.games.saga.units import (EPS, add_fatigue, attack_dice_melee, base_armour, clamp_armour,
                                        exhausted, figure_array, in_contact, leader_swap, live_units, remove_figures, removal_order,
                                        unit_gap)
from simulator.geometry.segments import points_in_polygon
from simulator.geometry.table import circle_gaps, segment_crosses_polyline

State = dict[str, Any]


def fighting_figures(state: State, uid: str, enemy: str | list[str]) -> list[str]:
    """SAGA p.21: figures in contact with the enemy unit(s), or within VS of an enemy figure
    that touches a figure of their own unit."""
    mine = state["units"][uid]["figures"]
    theirs = [f for e in ([enemy] if isinstance(enemy, str) else enemy) for f in state["units"][e]["figures"]]
    if not mine or not theirs:
        return []
    a = figure_array(state, mine)
    b = figure_array(state, theirs)
    g = circle_gaps(a, b)
    touching = in_contact(state, a, b)               # across a hedge too (SAGA p.20)
    enemy_engaged = touching.any(axis=0)
    support = (g <= cat.inches("VS") + EPS) & enemy_engaged[None, :]
    fight = touching.any(axis=1) | support.any(axis=1)
    in_building = state["units"][uid].get("building")
    if in_building:                                   # occupants fight with every figure (SAGA p.27)
        return list(mine)
    held = {state["units"][e].get("building") for e in ([enemy] if isinstance(enemy, str) else enemy)} - {None}
    near: set[str] = set()
    for b in held:                                    # attackers within VS of the building fight (SAGA p.27)
        near |= set(buildings.near_figures(state, uid, str(b)))
    return [f for f, ok in zip(mine, fight) if ok or f in near]


def _side(state: State, uid: str, enemy: str | list[str]) -> dict[str, Any]:
    unit = state["units"][uid]
    figs = fighting_figures(state, uid, enemy)
    if unit.get("melee_dice_override"):
        dice = unit["melee_dice_override"]
    elif unit.get("figure_dice"):                     # Harold and his brothers (SAGA p.42)
        dice = sum(int(unit["figure_dice"][f]) for f in figs)
    else:
        dice = attack_dice_melee(unit, len(figs))
    halved = 0
    if exhausted(unit):
        halved = math.ceil(dice / 2)                 # SAGA p.25: lose half, rounded up
        dice -= halved
    fury = unit.get("wrath") or {}                   # the Jomsvikings' Wrath (SAGA p.44), an ability-step bonus
    bonus = int(fury.get("attack_per_figure", 0)) * len(figs) + int(fury.get("attack", 0))
    reroll = bool(fury.get("reroll"))
    return {"attack": dice + bonus, "base": dice, "defence": int(fury.get("defence", 0)), "own_armour": 0,
            "enemy_armour": 0, "reroll_attack": reroll, "reroll_defence": reroll, "fighting": len(figs),
            "halved": halved,
            "spent_up": False, "spent_down": False, "crush": False, "push": False, "pursuit": False,
            "second_round": False, "enemy_fatigue_after": 0, "own_fatigue_after": 0, "used": [],
            "own_armour_vs": {}, "enemy_armour_vs": {}}


def begin(state: State, attacker: str, defender: str, ctx: Context, partner: str | None = None) -> None:
    """Start a melee after an engaging move: step 1, then wait for the defender's step 2.
    ``partner``: the unit engaging Side by Side with its Warlord ``attacker`` (SAGA p.34)."""
    ua, ud = state["units"][attacker], state["units"][defender]
    players = {attacker: ua["owner"], defender: ud["owner"]}
    if partner is not None:
        players[partner] = ua["owner"]
        ctx.emit("melee", f"{ua['name']} and {state['units'][partner]['name']} fight {ud['name']} Side by Side",
                 "SAGA p.34", pieces=list(ua["figures"]) + list(state["units"][partner]["figures"]))
    state["melee"] = {"attacker": attacker, "partner": partner, "defender": defender, "players": players,
                      "step": "trade", "round": 1, "sides": {}, "split": None,
                      "inflicted": {attacker: 0, defender: 0}, "casualties": [], "withdrawals": [],
                      "withdrawing": None}
    state["active"] = ud["owner"]
    held = buildings.defender_options(state, defender)
    if held:                                          # the owner picks the building's defender (SAGA p.27)
        state["melee"]["step"] = "building"
        ctx.emit("choice", f"{ud['owner']} picks which of his units in the building defends it", "SAGA p.27",
                 pieces=[f for u in held for f in state["units"][u]["figures"]], units=held)
        return
    _step1(state, ctx)


def choose_defender(state: State, uid: Any, ctx: Context) -> None:
    """The owner's answer: ``uid``, one of his units holding the building, defends it; then step 1."""
    m = state["melee"]
    held = buildings.defender_options(state, m["defender"])
    if uid not in held:
        raise IllegalAction(f"the defender is one of the units holding the building: {', '.join(held)}", "SAGA p.27")
    old = m["defender"]
    m["players"] = {u: p for u, p in m["players"].items() if u != old} | {uid: m["players"][old]}
    m["inflicted"] = {u: n for u, n in m["inflicted"].items() if u != old} | {uid: 0}
    m["defender"] = uid
    m["step"] = "trade"
    ctx.emit("melee", f"{state['units'][uid]['name']} defends the building", "SAGA p.27",
             pieces=list(state["units"][uid]["figures"]), unit=uid)
    _step1(state, ctx)


def attackers(m: dict[str, Any]) -> list[str]:
    """The attacking units: the engaging unit, and its Side by Side partner if any."""
    return [m["attacker"]] + ([m["partner"]] if m.get("partner") else [])


def foes(m: dict[str, Any], uid: str) -> list[str]:
    """The units ``uid`` fights in this melee."""
    return attackers(m) if uid == m["defender"] else [m["defender"]]


def _step1(state: State, ctx: Context) -> None:
    m = state["melee"]
    d = m["defender"]
    units = attackers(m) + [d]
    if m["round"] == 1:
        m["sides"] = {u: _side(state, u, foes(m, u)) for u in units}
    else:
        m["sides"] = {u: {**m["sides"][u], **_dice_only(state, u, foes(m, u))} for u in units}
    for uid in units:
        s = m["sides"][uid]
        ctx.emit("melee", f"{state['units'][uid]['name']}: {s['fighting']} figure(s) fight for {s['attack']} "
                 f"attack dice" + (f" (exhausted: {s['halved']} lost)" if s["halved"] else ""),
                 "SAGA p.21", pieces=list(state["units"][uid]["figures"]), unit=uid, attack=s["attack"])


def _dice_only(state: State, uid: str, enemy: str | list[str]) -> dict[str, Any]:
    fresh = _side(state, uid, enemy)
    return {k: fresh[k] for k in ("attack", "base", "fighting", "halved")}


def trade(state: State, yes: bool, ctx: Context) -> None:
    """Step 2: the defender may give up half his attack dice (rounded up) for one defence
    die per two given up (rounded up)."""
    m = state["melee"]
    s = m["sides"][m["defender"]]
    if yes and s["attack"] > 0:
        gone = math.ceil(s["attack"] / 2)
        s["attack"] -= gone
        s["base"] = s["attack"]
        s["defence"] += math.ceil(gone / 2)
        ctx.emit("melee", f"the defender gives up {gone} attack dice for {math.ceil(gone / 2)} defence dice",
                 "SAGA p.22", unit=m["defender"])
    m["step"] = "abilities_attacker"
    state["active"] = m["players"][m["attacker"]]


def enemy_of(m: dict[str, Any], uid: str) -> str:
    return m["attacker"] if uid == m["defender"] else m["defender"]


def unit_of(state: State, player: str, pick: Any = None) -> str:
    """The player's unit in the melee; in a Side by Side melee ``pick`` names which of the two
    (an ability's or a fatigue's ``for_unit``), by default the Warlord."""
    m = state["melee"]
    if pick is not None:
        if not isinstance(pick, str) or m["players"].get(pick) != player:
            raise IllegalAction(f"{pick!r} is not one of your units in this melee", "SAGA p.34")
        return str(pick)
    return m["attacker"] if m["players"][m["attacker"]] == player else m["defender"]


def spend_fatigue(state: State, player: str, effect: str, ctx: Context, for_unit: Any = None,
                  source: Any = None) -> None:
    """SAGA p.24: discard a fatigue of the engaged enemy unit for +1 own armour or -1 enemy armour.
    Against two units Side by Side, ``source`` names whose marker is spent and the bonus only
    counts against (or on) that unit (SAGA p.24, p.34)."""
    from simulator.core.errors import IllegalAction
    m = state["melee"]
    mine = unit_of(state, player, for_unit)
    foe = enemy_of(m, mine)
    if source is not None:
        if source not in foes(m, mine):
            raise IllegalAction(f"{source!r} is not an enemy unit in this melee", "SAGA p.24")
        foe = str(source)
    s = m["sides"][mine]
    if state["units"][foe]["fatigue"] < 1:
        raise IllegalAction("the enemy unit has no fatigue to spend", "SAGA p.24")
    key = {"armour_up": "spent_up", "armour_down": "spent_down"}.get(effect)
    if key is None:
        raise IllegalAction("in melee fatigue buys armour_up or armour_down", "SAGA p.24")
    if s[key]:
        raise IllegalAction("each fatigue effect only once per melee", "SAGA p.24")
    s[key] = True
    state["units"][foe]["fatigue"] -= 1
    several = len(foes(m, mine)) > 1
    if effect == "armour_up":
        if several:
            s["own_armour_vs"][foe] = s["own_armour_vs"].get(foe, 0) + 1
        else:
            s["own_armour"] += 1
    elif several:
        s["enemy_armour_vs"][foe] = s["enemy_armour_vs"].get(foe, 0) - 1
    else:
        s["enemy_armour"] -= 1
    ctx.emit("fatigue_spent", f"{player} spends a fatigue of {state['units'][foe]['name']}: "
             f"{'own armour +1' if effect == 'armour_up' else 'enemy armour -1'}", "SAGA p.24", unit=foe)


def done(state: State, player: str, ctx: Context) -> None:
    """End of a player's step 3; after the defender the melee resolves."""
    m = state["melee"]
    if m["step"] == "abilities_attacker":
        m["step"] = "abilities_defender"
        state["active"] = m["players"][m["defender"]]
        return
    resolve(state, ctx)


def cap_attack(s: dict[str, Any]) -> None:
    """SAGA p.22: abilities may at most double the attack dice."""
    s["attack"] = min(s["attack"], 2 * s["base"]) if s["base"] > 0 else s["attack"]


def armour_against(state: State, m: dict[str, Any], target: str, by: str | None = None) -> int:
    """The armour of ``target`` against the attack dice of unit ``by`` (default: its foe)."""
    t = state["units"][target]
    by = by or enemy_of(m, target)
    ts, bs = m["sides"][target], m["sides"][by]
    value = base_armour(state, t, shooting=False) + ts["own_armour"] + ts.get("own_armour_vs", {}).get(by, 0) + \
        bs["enemy_armour"] + bs.get("enemy_armour_vs", {}).get(target, 0)
    return clamp_armour(value)


def split_limit(state: State, m: dict[str, Any], dice: int) -> int:
    """SAGA p.34: at most half (rounded up) of the defender's attack dice may strike the Warlord
    fighting Side by Side, unless the defender is itself a Warlord."""
    return dice if state["units"][m["defender"]]["cls"] == "warlord" else math.ceil(dice / 2)


def _roll_attacks(state: State, m: dict[str, Any], uid: str, ctx: Context, foe: str | None = None,
                  count: int | None = None) -> int:
    s = m["sides"][uid]
    foe = foe or enemy_of(m, uid)
    armour = armour_against(state, m, foe, uid)
    bonus = 1 if state["units"][uid].get("dane_axe") else 0
    natural = state["rules"]["natural_melee"]

    def hit(v: int) -> bool:
        if natural and v == 6:
            return True
        if natural and v == 1:
            return False
        return v + bonus >= armour

    n = s["attack"] if count is None else count
    rolls = [ctx.dice.d6(f"melee attack of {state['units'][uid]['name']}") for _ in range(n)]
    if s["reroll_attack"]:
        rolls = [v if hit(v) else ctx.dice.d6("melee attack re-roll") for v in rolls]
    hits = sum(1 for v in rolls if hit(v))
    ctx.emit("melee_attack", f"{state['units'][uid]['name']} rolls {rolls}"
             + (f" at {state['units'][foe]['name']}" if m.get("partner") else "") + f" needing {armour}"
             + (" (Dane axe +1)" if bonus else "") + f": {hits} hit(s)", "SAGA p.22", unit=uid, hits=hits)
    return hits


def _roll_defence(state: State, m: dict[str, Any], uid: str, hits: int, ctx: Context) -> int:
    s = m["sides"][uid]
    unit = state["units"][uid]
    need = 5
    if uid == m["defender"] and not unit["mounted"] and heavy_cover(state, uid, foes(m, uid)):
        need = 4                                                    # SAGA p.23
    n = min(hits + s["defence"], 2 * hits)                         # SAGA p.22 step 5
    rolls = [ctx.dice.d6(f"melee defence of {unit['name']}") for _ in range(n)]
    if s["reroll_defence"]:
        rolls = [v if v >= need else ctx.dice.d6("melee defence re-roll") for v in rolls]
    saved = min(hits, sum(1 for v in rolls if v >= need))
    ctx.emit("melee_defence", f"{unit['name']} rolls {rolls} needing {need}+: {saved} hit(s) cancelled",
             "SAGA p.22", unit=uid, cancelled=saved)
    return hits - saved


def heavy_cover(state: State, uid: str, enemy: str | list[str]) -> bool:
    """SAGA p.23, p.27: heavy cover in melee for the defender: inside an occupied building, or
    two thirds of its fighting figures behind heavy-cover terrain from their attackers."""
    unit = state["units"][uid]
    if unit.get("building"):
        return True
    if unit.get("shield_wall") and state["melee"] is not None and state["melee"]["defender"] == uid:
        return True                                    # Flemish Shield Wall when engaged (SAGA p.46)
    figs = fighting_figures(state, uid, enemy) or unit["figures"]
    foe_figs = [f for e in ([enemy] if isinstance(enemy, str) else enemy) for f in state["units"][e]["figures"]]
    covered = 0
    for f in figs:
        p = (state["figures"][f]["x"], state["figures"][f]["y"])
        for t in state["terrain"]:
            if t["cover"] != "heavy":
                continue
            if "line" in t:
                ends = [(state["figures"][e]["x"], state["figures"][e]["y"]) for e in foe_figs]
                if segment_crosses_polyline([p] * len(ends), ends, t["line"]).any():
                    covered += 1
                    break
            elif points_in_polygon([p], t["polygon"], eps=0.0)[0]:
                covered += 1
                break
    return covered >= math.ceil(2 * len(figs) / 3)


def resolve(state: State, ctx: Context) -> None:
    """Steps 4 to 8 (and Thor's second round)."""
    m = state["melee"]
    a, d = m["attacker"], m["defender"]
    atts = attackers(m)
    for uid in atts + [d]:
        cap_attack(m["sides"][uid])
    hits = {uid: _roll_attacks(state, m, uid, ctx) for uid in atts}      # attackers' hits on the defender
    received = {uid: 0 for uid in atts}                                  # defender's hits on each attacker
    dice = m["sides"][d]["attack"]
    if m.get("partner"):
        at_warlord = min(dice, split_limit(state, m, dice) if m["split"] is None else m["split"])
        ctx.emit("melee", f"{state['units'][d]['name']} puts {at_warlord} attack dice on {state['units'][a]['name']} "
                 f"and {dice - at_warlord} on {state['units'][m['partner']]['name']}", "SAGA p.34", unit=d)
        received[a] = _roll_attacks(state, m, d, ctx, foe=a, count=at_warlord)
        received[m["partner"]] = _roll_attacks(state, m, d, ctx, foe=m["partner"], count=dice - at_warlord)
    else:
        received[a] = _roll_attacks(state, m, d, ctx)
    total = sum(hits.values())
    left = {d: _roll_defence(state, m, d, total, ctx)}
    for uid in atts:
        left[uid] = _roll_defence(state, m, uid, received[uid], ctx)
    crushing = [uid for uid in atts + [d] if m["sides"][uid]["crush"]]
    for uid in crushing:                     # Crush (SAGA p.61): twice the hits received -> double
        dealt, got = (sum(received.values()), total) if uid == d else (hits[uid], received[uid])
        if dealt >= 2 * got and dealt > 0:
            for foe in foes(m, uid):
                left[foe] *= 2
            ctx.emit("ability", f"Crush: every hit of {state['units'][uid]['name']} counts twice", "SAGA p.61")
    # step 6: casualties, defender first, then the partner before its Warlord (SAGA p.34);
    # friendly units within S of a unit wiped out gain fatigue
    m["casualties"] = [{"unit": d, "hits": left[d], "by": a}] + \
        [{"unit": victim, "hits": left[victim], "by": d} for victim in reversed(atts)]
    next_casualties(state, ctx)


def next_casualties(state: State, ctx: Context, chosen: list[str] | None = None,
                    guards: list[str] | None = None) -> None:
    """Step 6, one unit at a time: the engine removes what needs no choice; a unit whose owner
    picks its casualties (casualties.py) waits in step ``casualties`` for ``remove_casualties``,
    a Warlord whose owner picks his bodyguards in step ``bodyguards`` (``chosen`` / ``guards``:
    that pick, for the first unit of the queue)."""
    m = state["melee"]
    while m["casualties"]:
        entry = m["casualties"][0]
        uid, hits, by = entry["unit"], entry["hits"], entry["by"]
        if chosen is None and guards is None:
            step = "casualties" if casualties.needs_choice(state, uid, hits) else \
                "bodyguards" if casualties.guard_choice(state, uid, hits) else None
            if step is not None:
                m["step"] = step
                state["active"] = state["units"][uid]["owner"]
                return
        m["casualties"].pop(0)
        if chosen is not None:
            removed = remove_figures(state, uid, hits, ctx, "melee", "SAGA p.22",
                                     killer=state["units"][by]["owner"], chosen=chosen)
            chosen = None
        else:
            removed = take_hits(state, uid, hits, ctx, "melee", killer_unit=by, guards=guards)
            guards = None
        m["inflicted"][by] = m["inflicted"].get(by, 0) + removed
    m["step"] = "resolved"
    _after_casualties(state, ctx)


def _after_casualties(state: State, ctx: Context) -> None:
    """After step 6: Thor's second round (SAGA p.59), or steps 7 and 8."""
    m = state["melee"]
    a, d = m["attacker"], m["defender"]
    atts = attackers(m)
    alive = [u for u in atts if state["units"][u]["figures"]]
    if m["round"] == 1 and any(m["sides"][u]["second_round"] for u in atts + [d]) and \
            alive and state["units"][d]["figures"]:
        m["round"] = 2
        if a not in alive:
            m["attacker"], m["partner"] = alive[0], None
        elif m.get("partner") and m["partner"] not in alive:
            m["partner"] = None
        ctx.emit("ability", "Thor: a second melee round is fought", "SAGA p.59")
        _step1(state, ctx)
        resolve(state, ctx)
        return
    finish(state, ctx)


def take_hits(state: State, uid: str, hits: int, ctx: Context, source: str, killer_unit: str,
              guards: list[str] | None = None) -> int:
    """Remove casualties for ``hits`` uncancelled hits, with Resilience for Warlords and
    baggage (SAGA p.33, p.56); returns figures removed (bodyguards included). ``guards``: the
    bodyguards the Warlord's owner picked (else the engine's, ``casualties.default_guards``)."""
    unit = state["units"][uid]
    if hits <= 0 or not unit["figures"]:
        return 0
    killer = state["units"][killer_unit]["owner"]
    foe_arr = figure_array(state, state["units"][killer_unit]["figures"])
    if unit["cls"] == "warlord" and len(unit["figures"]) > 1:
        n = min(hits, len(unit["figures"]) - 1)          # the brothers fall before Harold (SAGA p.42)
        removed = 0
        for _ in range(n):
            removed += _remove_brother(state, uid, ctx, killer, foe_arr)
        return removed + take_hits(state, uid, hits - n, ctx, source, killer_unit)
    if unit["cls"] == "warlord" or unit.get("baggage"):
        ignored = min(hits, int(unit.get("ignore_hits", 1)))     # Ragnar's Son of Odin: 2 (SAGA p.42)
        hits -= ignored
        what = "Son of Odin" if ignored > 1 else "Resilience" if not unit.get("baggage") else "baggage"
        ctx.emit("resilience", f"{unit['name']} ignores the first {'hit' if ignored == 1 else f'{ignored} hits'} ({what})",
                 "SAGA p.33" if ignored == 1 else "SAGA p.42", pieces=list(unit["figures"]))
        if hits <= 0:
            return 0
        if state["victory"] == "challenge" and unit["cls"] == "warlord":
            w = state["wounds"]
            w[unit["owner"]] = max(0, w[unit["owner"]] - hits)
            ctx.emit("wounds", f"{unit['name']} loses {hits} wound(s); {w[unit['owner']]} left", "SAGA p.54",
                     pieces=list(unit["figures"]))
            if w[unit["owner"]] > 0:
                return 0
            return _wipe(state, uid, ctx, source, killer, foe_arr)
        if unit["cls"] == "warlord" and len(casualties.bodyguards(state, uid)) >= hits:
            removed = 0
            for g in guards if guards is not None else casualties.default_guards(state, uid, hits):
                gu = state["figures"][g]["unit"]
                _friendly_wipe_fatigue(state, gu, ctx, 1)
                removed += remove_specific(state, g, ctx, killer)
            ctx.emit("resilience", f"{hits} bodyguard(s) die in place of {unit['name']}", "SAGA p.33")
            return removed
        return _wipe(state, uid, ctx, source, killer, foe_arr)
    _friendly_wipe_fatigue(state, uid, ctx, hits)
    return remove_figures(state, uid, hits, ctx, source, "SAGA p.22", away_from=foe_arr, killer=killer)


def _wipe(state: State, uid: str, ctx: Context, source: str, killer: str, foe_arr: Any) -> int:
    _friendly_wipe_fatigue(state, uid, ctx, len(state["units"][uid]["figures"]))
    return remove_figures(state, uid, len(state["units"][uid]["figures"]), ctx, source, "SAGA p.33",
                          away_from=foe_arr, killer=killer)


def _remove_brother(state: State, uid: str, ctx: Context, killer: str, foe_arr: Any) -> int:
    """One casualty of Harold's unit: a brother, never Harold while a brother lives. If the place
    the formation rule empties is Harold's, Harold and that brother swap places first (SAGA p.42)."""
    lead = state["units"][uid]["figures"][0]
    victim = leader_swap(state, uid, removal_order(state, uid, foe_arr, limit=1), ctx, lead, "SAGA p.42")[0]
    return remove_specific(state, victim, ctx, killer)


def remove_specific(state: State, fid: str, ctx: Context, killer: str | None) -> int:
    """Remove one named figure (a bodyguard, one of Harold's brothers)."""
    return remove_figures(state, state["figures"][fid]["unit"], 1, ctx, "in melee or shooting", "SAGA p.22",
                          killer=killer, chosen=[fid])


def _friendly_wipe_fatigue(state: State, uid: str, ctx: Context, removing: int) -> None:
    """SAGA p.24: when a unit is wiped out in melee, friendly units within S of it gain a
    fatigue (measured before the casualties are removed)."""
    unit = state["units"][uid]
    if removing < len(unit["figures"]) or state.get("melee") is None:
        return
    for other in live_units(state, unit["owner"]):
        if other["id"] != uid and unit_gap(state, other["id"], uid) <= cat.inches("S") + EPS:
            add_fatigue(state, other, 1, ctx, f"{unit['name']} was wiped out within S", "SAGA p.24")


def finish(state: State, ctx: Context) -> None:
    """Steps 7 and 8, and the effects that act after the melee."""
    m = state["melee"]
    a, d = m["attacker"], m["defender"]
    atts = attackers(m)
    for uid in atts + [d]:                               # step 7
        add_fatigue(state, state["units"][uid], 1, ctx, "melee", "SAGA p.22")
    for uid in atts + [d]:
        s = m["sides"][uid]
        for foe in foes(m, uid):
            if s["enemy_fatigue_after"]:
                add_fatigue(state, state["units"][foe], s["enemy_fatigue_after"], ctx, "ability after the melee",
                            "SAGA p.60")
        if s["own_fatigue_after"]:
            add_fatigue(state, state["units"][uid], s["own_fatigue_after"], ctx, "ability after the melee", "SAGA p.61")
    ud = state["units"][d]
    ia, idf = m["inflicted"].get(a, 0), m["inflicted"].get(d, 0)
    alive = [u for u in atts if state["units"][u]["figures"]]
    m["withdrawals"] = []
    if alive and ud["figures"]:                           # step 8
        if ud.get("building"):
            losers, why = alive, "the building is still occupied"
        elif idf > ia:
            losers, why = alive, f"it inflicted fewer casualties ({ia} against {idf})"
        elif ia > idf:
            losers, why = [d], f"it inflicted fewer casualties ({idf} against {ia})"
        else:
            losers, why = alive, f"equal casualties ({ia} each): the attacker disengages"
        winners = alive if losers == [d] else [d]
        m["withdrawals"] = [{"loser": loser, "winner": winners[0], "why": why} for loser in losers]
    next_withdrawal(state, ctx)


def next_withdrawal(state: State, ctx: Context, chosen: dict[str, tuple[float, float]] | None = None) -> None:
    """Step 8, one disengaging unit at a time. The loser disengages; if the engine's planner finds
    no way for it, the winner does; if neither can, they stay in contact (engine decision). With
    ``player_choices`` the mover's owner places the unit (``withdraw``, step ``withdraw``; the
    planner's destination is the default, ``m["withdrawing"]``); ``chosen`` is that placement."""
    m = state["melee"]
    while m["withdrawals"]:
        w = m["withdrawals"][0]
        loser, winner = w["loser"], w["winner"]
        if not state["units"][loser]["figures"] or not state["units"][winner]["figures"]:
            m["withdrawals"].pop(0)
            continue
        if chosen is None:
            mover, away = loser, winner
            found = movement.disengage_options(state, loser, winner)
            if not found:
                ctx.emit("disengage", f"{state['units'][loser]['name']} cannot disengage; the winner must", "SAGA p.22")
                mover, away = winner, loser
                found = movement.disengage_options(state, winner, loser)
            if not found:
                ctx.emit("disengage", "neither unit can disengage: they stay in contact (engine decision)", "SAGA p.22")
                m["withdrawals"].pop(0)
                continue
            dest = found[0]
            if state["rules"].get("player_choices", True):
                default = _placement(dest)
                # the planner's other straight withdrawals, offered beside its pick: found now,
                # as the table stands until the owner answers, so the legal list need not plan again
                others = [p for p in map(_placement, found[1:]) if p != default][:WITHDRAWAL_OPTIONS - 1]
                m["withdrawing"] = {"unit": mover, "away_from": away, "is_loser": mover == loser,
                                    "default": default, "others": others}
                m["step"] = "withdraw"
                state["active"] = state["units"][mover]["owner"]
                return
        else:
            mover, away = m["withdrawing"]["unit"], m["withdrawing"]["away_from"]
            dest = chosen
            chosen = None
        m["withdrawals"].pop(0)
        m["withdrawing"] = None
        res = movement.validate_move(state, mover, dest, movement.MoveRules(no_engage=True, fixed=cat.inches("S")))
        movement.apply_move(state, mover, res)
        ctx.emit("disengage", f"{state['units'][mover]['name']} disengages "
                 f"({w['why'] if mover == loser else 'in place of the loser'})",
                 "SAGA p.22", pieces=list(state["units"][mover]["figures"]), unit=mover)
        if mover == loser:
            _after_disengage(state, m, winner, loser, ctx)
    state["melee"] = None


#: How many placements of a disengaging unit the legal-action list offers (the engine's first).
WITHDRAWAL_OPTIONS = 4


def _placement(dest: dict[str, tuple[float, float]]) -> dict[str, list[float]]:
    return {f: [float(p[0]), float(p[1])] for f, p in dest.items()}


def withdrawal_options(state: State) -> list[dict[str, list[float]]]:
    """The engine's placement first, then other straight withdrawals the planner found."""
    w = state["melee"]["withdrawing"]
    return [w["default"], *w["others"]]


def _after_disengage(state: State, m: dict[str, Any], winner: str, loser: str, ctx: Context) -> None:
    """The Push (SAGA p.60) and Pursuit (SAGA p.61) act when the enemy had to disengage."""
    side = m["sides"][winner]
    unit = state["units"][loser]
    if side["push"] and unit["cls"] != "warlord":
        armour = clamp_armour(base_armour(state, unit, shooting=False))
        dead = sum(1 for _ in list(unit["figures"]) if ctx.dice.d6("The Push") > armour)
        if dead:
            casualties.kill(state, loser, dead, ctx, "The Push", "SAGA p.60", killer=state["units"][winner]["owner"],
                            by=winner)
    if side["pursuit"] and state["units"][winner]["mounted"]:
        state["free"].append({"unit": winner, "orders": ["move"], "no_fatigue": True, "source": "Pursuit"})
        ctx.emit("ability", f"Pursuit: {state['units'][winner]['name']} may move at once without fatigue", "SAGA p.61")
