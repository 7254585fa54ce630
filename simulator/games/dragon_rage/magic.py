"""Spells (DR 2.8): Boost Morale, Fog, Whirlwind (with its drift), Lightning, Summon and
Dismiss Elemental. A wizard casts at most one spell per turn in his side's spell phase,
paying spell points from his ten for the game; range is counted in hexes, no sight needed.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.casualties import damage_monster, eliminate
from simulator.games.dragon_rage.combat import crt_attack, hex_defence
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.terrain_rules import elemental_doom
from simulator.games.dragon_rage.units import (State, Unit, ground_units_at, is_major, is_minor, is_wizard,
                                               living, make_unit, units_at)
from simulator.games.dragon_rage.victory import destroy_vp

SPELLS = ("boost_morale", "fog", "whirlwind", "lightning", "summon_elemental", "dismiss_elemental")


def spell_table() -> dict[str, Any]:
    return rules_data().rules["spells"]


def cast(state: State, ctx: Context, wizard: Unit, spell: Any, action: dict[str, Any]) -> None:
    if not is_wizard(wizard) or wizard["side"] != state["active"] or not wizard["alive"] or wizard["hex"] is None:
        raise IllegalAction("name one of your wizards on the map", "DR 2.8.1")
    if not state["phase"].endswith("spell"):
        raise IllegalAction("spells are cast in the spell phase, before movement", "DR 2.8.3")
    if spell not in SPELLS:
        raise IllegalAction(f"unknown spell {spell!r} (spells: {', '.join(SPELLS)})", "DR 2.8")
    if wizard["spelled"]:
        raise IllegalAction(f"{wizard['id']} has already cast a spell this turn", "DR 2.8.4")
    handler = {"boost_morale": _boost, "fog": _fog, "whirlwind": _whirlwind, "lightning": _lightning,
               "summon_elemental": _summon, "dismiss_elemental": _dismiss}[spell]
    handler(state, ctx, wizard, action)
    wizard["spelled"] = True


def _pay(ctx: Context, wizard: Unit, cost: int, spell: str, rule: str) -> None:
    if cost > wizard["sp"]:
        raise IllegalAction(f"{spell} costs {cost} spell points; {wizard['id']} has {wizard['sp']} left", rule)
    wizard["sp"] -= cost


def _target(state: State, wizard: Unit, action: dict[str, Any], reach: int, rule: str) -> str:
    board = board_for(state["map"])
    target = action.get("target")
    if not isinstance(target, str) or target not in board:
        raise IllegalAction("'target' must be a hex of the map", rule)
    dist = board.distance(wizard["hex"], target)
    if dist > reach:
        raise IllegalAction(f"{target} is {dist} hexes from the wizard; the range is {reach}", rule)
    return target


def _boost(state: State, ctx: Context, wizard: Unit, action: dict[str, Any]) -> None:
    rule = spell_table()["boost_morale"]["rule"]
    radius = action.get("radius", 0)
    costs = spell_table()["boost_morale"]["cost_per_radius"]
    if not isinstance(radius, int) or not 0 <= radius < len(costs):
        raise IllegalAction(f"Boost Morale has a radius of 0 to {len(costs) - 1}", rule)
    _pay(ctx, wizard, int(costs[radius]), "Boost Morale", rule)
    board = board_for(state["map"])
    area = set(board.within(wizard["hex"], radius))
    boosted = [u for u in living(state, wizard["side"]) if u["hex"] in area]
    for u in boosted:
        u["boosted"] = True
    ctx.emit("spell", f"{wizard['id']} casts Boost Morale (radius {radius}) on {len(boosted)} units", rule,
             pieces=[wizard["id"], *[u["id"] for u in boosted]])


def _fog(state: State, ctx: Context, wizard: Unit, action: dict[str, Any]) -> None:
    t = spell_table()["fog"]
    target = _target(state, wizard, action, int(t["range"]), t["rule"])
    _pay(ctx, wizard, int(t["cost"]), "Fog", t["rule"])
    state["fog"].append({"centre": target, "radius": int(t["radius"]), "caster": wizard["id"]})
    ctx.emit("spell", f"{wizard['id']} raises a fog over {target} and every hex within {t['radius']}", t["rule"],
             pieces=[wizard["id"]], hex=target)


def _whirlwind(state: State, ctx: Context, wizard: Unit, action: dict[str, Any]) -> None:
    t = spell_table()["whirlwind"]
    target = _target(state, wizard, action, int(t["range"]), t["rule"])
    _pay(ctx, wizard, int(t["cost"]), "Whirlwind", t["rule"])
    state["whirlwinds"].append({"hex": target, "stage": 1, "caster": wizard["id"]})
    ctx.emit("spell", f"{wizard['id']} calls a whirlwind into {target}", t["rule"], pieces=[wizard["id"]], hex=target)
    whirlwind_arrives(state, ctx, target)


def whirlwind_arrives(state: State, ctx: Context, hex_: str) -> None:
    """A whirlwind destroys the VP of its hex and may bring down a flyer there (DR 2.8.7)."""
    from simulator.games.dragon_rage.monster_moves import whirlwind_crash_roll
    destroy_vp(state, ctx, hex_, "the whirlwind", "DR 2.8.7", [])
    for u in units_at(state, hex_):
        if is_major(u) and u.get("flying"):
            if not whirlwind_crash_roll(state, ctx, u, hex_):
                u["whirl_immune"] = hex_


def _lightning(state: State, ctx: Context, wizard: Unit, action: dict[str, Any]) -> None:
    t = spell_table()["lightning"]
    target = _target(state, wizard, action, int(t["range"]), t["rule"])
    named = action.get("target_unit")
    victim = state["units"].get(named) if isinstance(named, str) else None
    if victim is None or not victim["alive"] or victim["hex"] != target:
        raise IllegalAction(f"name the unit struck ('target_unit'): one of {[u['id'] for u in units_at(state, target)]}",
                            t["rule"])
    _pay(ctx, wizard, int(t["cost"]), "Lightning", t["rule"])
    power = int(t["power_at_zero"]) - board_for(state["map"]).distance(wizard["hex"], target)
    ctx.emit("spell", f"{wizard['id']} hurls lightning at {victim['id']} in {target} (power {power})", t["rule"],
             pieces=[wizard["id"], victim["id"]], power=power)
    if is_major(victim):
        was = {a: body.area_destroyed(victim, a) for a in victim["damage"]}
        wings = body.wings_intact(victim)
        given = body.spread_damage(victim, power, tuple(victim["damage"]))
        ctx.emit("monster_damaged", f"{victim['id']} takes {power} lightning damage "
                                    f"({', '.join(f'{a} {n}' for a, n in given.items())})", t["rule"],
                 pieces=[victim["id"]], points=power)
        from simulator.games.dragon_rage.casualties import after_damage
        after_damage(state, ctx, victim, was, wings)
    elif is_minor(victim):
        damage_monster(state, ctx, victim, "", power, [wizard["id"]], t["rule"])
    elif action.get("add_to_melee"):
        state.setdefault("held_lightning", []).append(
            {"unit": victim["id"], "power": power, "side": wizard["side"], "turn": state["turn"],
             "caster": wizard["id"]})
        ctx.emit("lightning_held", f"the lightning ({power}) will join this turn's first melee against "
                                   f"{victim['id']}", t["rule"], pieces=[wizard["id"], victim["id"]], power=power)
    else:
        crt_attack(state, ctx, power, hex_defence([victim]), [victim], f"lightning on {victim['id']}", t["rule"],
                   [wizard["id"]])
    from simulator.games.dragon_rage.elementals import summoner_attacked
    summoner_attacked(state, ctx, [victim])


def _summon(state: State, ctx: Context, wizard: Unit, action: dict[str, Any]) -> None:
    t = spell_table()["summon_elemental"]
    target = _target(state, wizard, action, int(t["range"]), t["rule"])
    element = action.get("element", "fire")
    if element not in ("fire", "earth"):
        raise IllegalAction("'element' is fire or earth", t["rule"])
    board = board_for(state["map"])
    if elemental_doom(state, board, target) or "tower" in board.terrain[target]:
        raise IllegalAction("an elemental cannot stand on water, a bridge, a dock, a ford or a tower", t["rule"])
    if ground_units_at(state, target):
        raise IllegalAction(f"{target} is occupied", t["rule"])
    _pay(ctx, wizard, int(t["cost"]), "Summon Elemental", t["rule"])
    n = 1 + sum(1 for u in state["units"] if u.startswith("elm"))
    uid = f"elm{n}"
    el = make_unit(uid, f"{element}_elemental", wizard["side"], target)
    el["summoner"] = wizard["id"]
    el["summoned_turn"] = state["turn"]
    el["move_done"] = True          # it may attack but not move this turn
    state["units"][uid] = el
    ctx.emit("spell", f"{wizard['id']} summons a {element} elemental ({uid}) in {target}", t["rule"],
             pieces=[wizard["id"], uid])
    destroy_vp(state, ctx, target, f"{uid} appearing", "DR 2.8.9", [uid])


def _dismiss(state: State, ctx: Context, wizard: Unit, action: dict[str, Any]) -> None:
    rule = spell_table()["dismiss_elemental"]["rule"]
    named, max_cost = action.get("target_unit"), action.get("max_cost")
    el = state["units"].get(named) if isinstance(named, str) else None
    if max_cost is not None and (not isinstance(max_cost, int) or isinstance(max_cost, bool)):
        raise IllegalAction(f"'max_cost' is a whole number of spell points, got {max_cost!r}", rule)
    if el is None or not el["alive"] or "summoner" not in el:
        raise IllegalAction("name the elemental to dismiss ('target_unit')", rule)
    if el["summoner"] == wizard["id"] and el["controlled"]:
        cost = 0
    else:
        cost = ctx.dice.d6(f"cost to dismiss {el['id']}")
        if max_cost is not None and cost > max_cost:
            ctx.emit("spell", f"dismissing {el['id']} would cost {cost} SP: {wizard['id']} declines", rule,
                     pieces=[wizard["id"], el["id"]])
            return
    _pay(ctx, wizard, cost, "Dismiss Elemental", rule)
    el["alive"] = False
    ctx.emit("spell", f"{wizard['id']} dismisses {el['id']} ({cost} SP)", rule, pieces=[wizard["id"], el["id"]])


def start_of_spell_phase(state: State, ctx: Context, side: str) -> None:
    """The side's fogs lift; its whirlwinds drift once, then blow out (DR 2.8.6, 2.8.7)."""
    casters = {u["id"] for u in state["units"].values() if u["side"] == side and is_wizard(u)}
    kept = [f for f in state["fog"] if f["caster"] not in casters]
    for f in state["fog"]:
        if f["caster"] in casters:
            ctx.emit("fog_lifts", f"the fog over {f['centre']} lifts", "DR 2.8.6", hex=f["centre"])
    state["fog"] = kept
    board = board_for(state["map"])
    drift = rules_data().rules["whirlwind_drift"]
    winds: list[dict[str, Any]] = []
    arrivals: list[str] = []
    for w in state["whirlwinds"]:
        if w["caster"] not in casters:
            winds.append(w)
            continue
        if w["stage"] == 2:
            ctx.emit("whirlwind_ends", f"the whirlwind in {w['hex']} blows itself out", "DR 2.8.7", hex=w["hex"])
            continue
        roll = ctx.dice.d6("whirlwind drift")
        d = board.grid.direction_index(drift.get(roll, drift.get(str(roll))))
        nxt = board.neighbour(w["hex"], d)
        if nxt is None:
            ctx.emit("whirlwind_ends", f"the whirlwind drifts off the map from {w['hex']}", "DR 2.8.7")
            continue
        ctx.emit("whirlwind_drifts", f"the whirlwind drifts {board.grid.directions[d]} from {w['hex']} to {nxt}",
                 "DR 2.8.7", hex=nxt, roll=roll)
        winds.append({"hex": nxt, "stage": 2, "caster": w["caster"]})
        arrivals.append(nxt)
    state["whirlwinds"] = winds
    for h in arrivals:
        whirlwind_arrives(state, ctx, h)
