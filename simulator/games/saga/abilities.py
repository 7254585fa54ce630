"""SAGA abilities (SAGA p.47, boards p.59-62): when a box may be used, and what it does.

The boards are data (``data/factions/*.yaml``); each box names an effect ``kind`` with
parameters, and this module implements every kind. ``use_ability`` checks the timing,
pays the dice (discarded back to the bag) and applies the effect.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context
from simulator.games.saga import board, buildings, casualties
from simulator.games.saga import catalogue as cat
from simulator.games.saga import melee as melee_mod
from simulator.geometry.table import circle_gaps
from simulator.games.saga.units import (EPS, add_fatigue, bases, board_serves, exhausted, live_units, remove_figures,
                                        remove_fatigue, unit_gap, warlord)

State = dict[str, Any]


def window(state: State, player: str) -> set[str]:
    """The timings ``player`` may use right now."""
    out: set[str] = set()
    if state.get("over"):
        return out
    m, sh = state.get("melee"), state.get("shooting")
    if m is not None:
        me_in = player in m["players"].values()
        if me_in and state["active"] == player and m["step"] in ("abilities_attacker", "abilities_defender"):
            out |= {"combat", "combat_shooting", "combat_shooting_reaction"}
        return out
    if sh is not None:
        if state["active"] == player:
            if sh["step"] == "attacker":
                out |= {"shooting", "combat_shooting"}
            elif sh["step"] == "defender":
                # the unit being shot may use Combat/Shooting boxes as well as the reactions
                # (SAGA p.47: a combined timing serves in either context, for either side)
                out |= {"shooting_reaction", "combat_shooting_reaction", "combat_shooting"}
        return out
    pend = state.get("pending")
    if pend and pend["kind"] == "reaction" and state["active"] == player:
        out.add("activation_reaction")
        return out
    if state["turn_player"] == player and state["active"] == player and not pend:
        if state["phase"] == "orders" and state["orders_rolled"]:
            out.add("orders")
        if state["phase"] == "activation":
            out.add("activation")
    return out


def _fight_served(state: State, player: str, faction: str) -> bool:
    """In a melee or shooting, whether the board of ``faction`` helps every unit of the player in it
    (never mercenaries who ignore the boards, SAGA p.46; Egil's Hirdmen only the Viking board,
    SAGA p.45); True outside melee and shooting."""
    m, sh = state.get("melee"), state.get("shooting")
    if m is not None:
        units = [u for u in m["players"] if state["units"][u]["owner"] == player]
    elif sh is not None:
        units = [u for u in (sh["shooter"], sh["target"]) if state["units"][u]["owner"] == player]
    else:
        return True
    return all(board_serves(state, state["units"][u], faction) for u in units)


def usable(state: State, player: str, box: dict[str, Any]) -> bool:
    return box["timing"] in window(state, player) and board.ready(state, player, box["id"]) \
        and box["effect"]["kind"] != "activate" and _fight_served(state, player, box["faction"])


def use_ability(state: State, player: str, action: Action, ctx: Context) -> None:
    box = board.find_box(state, player, str(action.get("box")))
    if box is None:
        names = " or ".join(cat.faction(f)["name"] for f in board.boards(state, player))
        raise IllegalAction(f"no box {action.get('box')!r} on the {names} board", "SAGA p.7")
    if box["effect"]["kind"] == "activate":
        raise IllegalAction(f"{box['name']} is spent by activating a unit (action 'activate')", "SAGA p.10")
    if box["timing"] not in window(state, player):
        raise IllegalAction(f"{box['name']} ({box['timing'].replace('_', '/')}) cannot be used now", "SAGA p.47")
    if not board.ready(state, player, box["id"]):
        raise IllegalAction(f"{box['name']} holds no full set of dice", "SAGA p.7")
    if not _fight_served(state, player, box["faction"]):
        raise IllegalAction(f"your unit in this fight takes no help from the {cat.faction(box['faction'])['name']} "
                            "board", "SAGA p.45-46")
    kind = box["effect"]["kind"]
    handler = HANDLERS[kind]
    # check first on a trial basis, then pay: a refused effect costs nothing
    handler(state, player, box, action, ctx, dry=True, rare=False)
    faces = board.pay_face(state, player, box["id"], action.get("face"), ctx) if box["column"] == "repeatable" \
        else board.pay(state, player, box["id"], ctx)
    rare = "R" in faces
    ctx.emit("ability", f"{player} uses {box['name']} ({'+'.join(faces)})", _rule(box["faction"]),
             box=box["id"], faces=faces)
    handler(state, player, box, action, ctx, dry=False, rare=rare)


def _rule(faction: str) -> str:
    return {"vikings": "SAGA p.59", "anglo_danes": "SAGA p.60", "normans": "SAGA p.61", "welsh": "SAGA p.62"}[faction]


def _target(state: State, player: str, action: Action, key: str = "target") -> dict[str, Any]:
    uid = action.get(key)
    u = state["units"].get(uid) if isinstance(uid, str) else None
    if u is None or not u["figures"]:
        raise IllegalAction(f"name a living unit as '{key}'", "SAGA p.47")
    return u


def _enemy(state: State, player: str, action: Action, key: str = "target") -> dict[str, Any]:
    u = _target(state, player, action, key)
    if u["owner"] == player:
        raise IllegalAction(f"{u['name']} is not an enemy unit", "SAGA p.47")
    if u.get("baggage"):
        raise IllegalAction("baggage is never the target of SAGA abilities", "SAGA p.56")
    return u


# -- orders ------------------------------------------------------------------------------------

def _activation_pool(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                     dry: bool, rare: bool) -> None:
    if dry:
        return
    got = board.roll_into_hand(state, player, box["effect"]["dice"], ctx, "Activation Pool", box["faction"])
    faces = "".join(board.dice(state, player)[i]["face"] for i in got)
    ctx.emit("orders", f"Activation Pool: {len(got)} more SAGA dice: {faces or 'none (all 8 in use)'}", "SAGA p.8")


def _noble_lineage(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                   dry: bool, rare: bool) -> None:
    """Re-roll any rolled dice, or turn one to any face (SAGA p.60)."""
    hand = board.rolled_unplaced(state, player)
    which = action.get("dice", hand)
    if not isinstance(which, list) or any(i not in hand for i in which):
        raise IllegalAction("'dice' lists rolled dice not yet placed", "SAGA p.60")
    face = action.get("set_face")
    if face is not None and (face not in ("C", "U", "R") or len(which) != 1):
        raise IllegalAction("set_face turns exactly one die (dice: [i]) to C, U or R", "SAGA p.60")
    if dry:
        return
    for i in which:
        faction = board.board_of_die(state, player, i)
        ctx.dice.register(board.faction_die(faction))
        new = face if face else str(ctx.dice.roll(cat.die_name(faction), "Noble Lineage"))
        board.dice(state, player)[i]["face"] = new
    ctx.emit("orders", f"Noble Lineage: {'set' if face else 're-rolled'} {len(which)} die/dice", "SAGA p.60")


def _fatigue_enemies(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                     dry: bool, rare: bool) -> None:
    n = box["effect"]["units"]
    ids = action.get("targets")
    if not isinstance(ids, list) or len(set(ids)) != len(ids) or not ids:
        raise IllegalAction(f"'targets' lists up to {n} different enemy units", "SAGA p.60")
    enemies = {u["id"] for u in live_units(state) if u["owner"] != player and not u.get("baggage")}
    if len(ids) > n or any(i not in enemies for i in ids) or len(ids) < min(n, len(enemies)):
        raise IllegalAction(f"'targets' must name {min(n, len(enemies))} different enemy units", "SAGA p.60")
    if dry:
        return
    for i in ids:
        add_fatigue(state, state["units"][i], box["effect"]["amount"], ctx, box["name"], "SAGA p.60")


def _kill_exhausted(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                    dry: bool, rare: bool) -> None:
    u = _enemy(state, player, action)
    if u["cls"] == "warlord" or not exhausted(u):
        raise IllegalAction("Exhaustion targets an exhausted enemy unit that is not a Warlord", "SAGA p.60")
    if dry:
        return
    remove_fatigue(u, box["effect"]["discard_fatigue"])
    casualties.kill(state, u["id"], box["effect"]["figures"], ctx, box["name"], "SAGA p.60", killer=player)


def _remove_small(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                  dry: bool, rare: bool) -> None:
    u = _enemy(state, player, action)
    if u["cls"] == "warlord" or len(u["figures"]) > box["effect"]["max_figures"]:
        raise IllegalAction(f"the target must be a unit of {box['effect']['max_figures']} figures or fewer, "
                            "not a Warlord (engine decision)", "SAGA p.59")
    if dry:
        return
    remove_figures(state, u["id"], len(u["figures"]), ctx, box["name"], "SAGA p.59", killer=player)


def _armour_down(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                 dry: bool, rare: bool) -> None:
    if dry:
        return
    for p in state["players"]:
        if p != player:
            state["armour_down"][p] = True
    ctx.emit("ability", "every enemy armour is one lower until the end of the turn", "SAGA p.59")


def _double_bow(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                dry: bool, rare: bool) -> None:
    if not dry:
        state["sides"][player]["double_bow_range"] = True


def _no_move_reduction(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                       dry: bool, rare: bool) -> None:
    if not dry:
        state["sides"][player]["sons_of_the_land"] = True


# -- activation ---------------------------------------------------------------------------------

def _refresh(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
             dry: bool, rare: bool) -> None:
    w = warlord(state, player)
    if w is None:
        raise IllegalAction("your Warlord is dead", "SAGA p.59")
    if dry:
        return
    for u in live_units(state, player):
        if not board_serves(state, u, box["faction"]):
            continue
        if u["id"] == w["id"] or unit_gap(state, u["id"], w["id"]) <= cat.inches(box["effect"]["range"]) + EPS:
            if remove_fatigue(u, 1):
                ctx.emit("fatigue", f"{u['name']} discards a fatigue", "SAGA p.59", unit=u["id"])


def _grant(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
           dry: bool, rare: bool) -> None:
    """Abilities that activate units for free (Storm of Arrows, Uprising, Answering the Call,
    Terrified, Gallop): each unit gets a free activation entry to spend with 'activate'."""
    eff = box["effect"]
    which = eff["which"]
    units: list[dict[str, Any]] = []
    mine = [u for u in live_units(state, player) if not u.get("baggage") and board_serves(state, u, box["faction"])]
    if which == "one_mounted":
        u = _target(state, player, action, "unit")
        if u["owner"] != player or not u["mounted"]:
            raise IllegalAction(f"{box['name']} activates one of your mounted units", _rule(state['sides'][player]['faction']))
        units = [u]
    elif which == "all_missile":
        units = [u for u in mine if u.get("weapon")]
    elif which == "all_warriors_levies":
        units = [u for u in mine if u["cls"] in ("warriors", "levies")]
    elif which == "warlord_and_within_L":
        w = warlord(state, player)
        if w is None:
            raise IllegalAction("your Warlord is dead", "SAGA p.62")
        units = [w] + [u for u in mine if u["id"] != w["id"] and unit_gap(state, u["id"], w["id"]) <= cat.inches("L") + EPS]
    if not units:
        raise IllegalAction(f"{box['name']} has no unit to activate", _rule(state["sides"][player]["faction"]))
    if dry:
        return
    for u in units:
        state["free"].append({"unit": u["id"], "orders": list(eff["orders"]), "no_fatigue": bool(eff.get("no_fatigue")),
                              "no_engage": bool(eff.get("no_engage")), "engage_fatigue": eff.get("engage_fatigue", 0),
                              "extra": cat.inches(eff["extra_move"]) if eff.get("extra_move") else 0.0,
                              "through_friends": bool(eff.get("through_friends")), "source": box["name"]})
    ctx.emit("ability", f"{box['name']}: {', '.join(u['name'] for u in units)} may be activated for free",
             _rule(state["sides"][player]["faction"]), pieces=[f for u in units for f in u["figures"]])


def _taunts(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
            dry: bool, rare: bool) -> None:
    """Taunts (SAGA p.62): the enemy unit (not a Warlord) moves as close as it can to our nearest
    unit, engaging it if it can. Engine decisions (digest q.45): the move is made at once, as
    the ability is used, with the unit's own move allowance; it is not an activation (no fatigue,
    no reactions); the engine's engagement planner places it, and when that engagement is not a
    legal move the unit goes the largest tenth of the way that is (as close as possible); a
    melee follows with the taunted unit as the attacker."""
    from simulator.games.saga import movement
    u = _enemy(state, player, action)
    if u["cls"] == "warlord":
        raise IllegalAction("Taunts cannot designate a Warlord", "SAGA p.62")
    mine = [m for m in live_units(state, player)]
    if not mine:
        raise IllegalAction("you have no unit", "SAGA p.62")
    nearest = min(mine, key=lambda m: unit_gap(state, u["id"], m["id"]))
    if dry:
        return
    rules = movement.MoveRules()
    plan = movement.plan_engage(state, u["id"], nearest["id"], rules)
    figs = state["figures"]
    reason = ""
    for tenths in range(10, 0, -1):
        t = tenths / 10
        dest = {f: (figs[f]["x"] + (x - figs[f]["x"]) * t, figs[f]["y"] + (y - figs[f]["y"]) * t)
                for f, (x, y) in plan.items()}
        try:
            res = movement.validate_move(state, u["id"], dest, rules)
        except IllegalAction as exc:
            reason = reason or exc.reason
            continue
        ends = np.array([[*dest.get(f, (figs[f]["x"], figs[f]["y"])), figs[f]["r"]] for f in u["figures"]])
        nearer = circle_gaps(ends, bases(state, nearest["id"])).min() < unit_gap(state, u["id"], nearest["id"]) - EPS
        if res.engaged or nearer:
            break                                           # else not a move towards it
    else:
        ctx.emit("ability", f"Taunts: {u['name']} cannot move towards {nearest['name']}"
                 + (f" ({reason})" if reason else ""), "SAGA p.62", pieces=list(u["figures"]), unit=u["id"])
        return
    movement.apply_move(state, u["id"], res)
    foe, named = buildings.engaged_label(state, res.engaged, res.engaged_building) if res.engaged else ("", None)
    ctx.emit("move", f"Taunts: {u['name']} moves towards {nearest['name']}"
             + (f" and engages {foe}" if res.engaged else
                f" ({tenths * 10}% of the engaging move, as close as it may go)" if tenths < 10 else ""),
             "SAGA p.62", pieces=list(u["figures"]), unit=u["id"], engaged=named, building=res.engaged_building)
    if res.engaged:
        melee_mod.begin(state, u["id"], res.engaged, ctx)


# -- reactions ---------------------------------------------------------------------------------

def _activated(state: State) -> dict[str, Any]:
    pend = state["pending"]
    return state["units"][pend["unit"]]


def _intimidation(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                  dry: bool, rare: bool) -> None:
    pend = state["pending"]
    if not pend.get("paid_with_die"):
        raise IllegalAction("Intimidation cancels an activation paid with a SAGA die", "SAGA p.60")
    if dry:
        return
    pend["cancelled"] = True
    ctx.emit("ability", f"Intimidation: the activation of {_activated(state)['name']} is cancelled", "SAGA p.60")


def _shoot_to_move(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                   dry: bool, rare: bool) -> None:
    pend = state["pending"]
    if pend["order"] != "shoot":
        raise IllegalAction("VK-8 answers an activation to shoot", "SAGA p.59")
    if dry:
        return
    pend["order"] = "move"
    ctx.emit("ability", f"the shooting activation of {_activated(state)['name']} becomes a move", "SAGA p.59")


def _slow_enemy_foot(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                     dry: bool, rare: bool) -> None:
    pend = state["pending"]
    if pend["order"] != "move" or _activated(state)["mounted"]:
        raise IllegalAction("Sacred Ground slows an enemy foot unit activated to move", "SAGA p.62")
    if dry:
        return
    pend["slow"] += 1
    ctx.emit("ability", f"Sacred Ground: {_activated(state)['name']} moves one step less", "SAGA p.62")


def _hit_and_run(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
                 dry: bool, rare: bool) -> None:
    """Hit and Run (SAGA p.62): one of our units within M of the enemy unit just activated is
    activated at once (move, shoot or rest), before that activation resolves; it may not engage.
    The rules module carries the activation out (``state["interrupt"]``)."""
    enemy = _activated(state)
    u = _target(state, player, action, "unit")
    if u["owner"] != player or u.get("baggage") or not board_serves(state, u, box["faction"]):
        raise IllegalAction("Hit and Run activates one of your own units its board helps", "SAGA p.62")
    reach = cat.inches(box["effect"]["range"])
    if unit_gap(state, u["id"], enemy["id"]) > reach + EPS:
        raise IllegalAction(f"{u['name']} is not within {box['effect']['range']} of {enemy['name']}", "SAGA p.62")
    order = action.get("order", "move")
    problem = order_problem(state, u, order)
    if problem is not None:
        raise IllegalAction(*problem)
    if dry:
        return
    state["interrupt"] = {"unit": u["id"], "order": order, "source": box["name"]}


def order_problem(state: State, unit: dict[str, Any], order: Any) -> tuple[str, str] | None:
    """Why ``unit`` may not be activated with ``order`` now (reason, rule), or None."""
    from simulator.games.saga import shooting
    if order not in ("move", "shoot", "rest"):
        return "order is move, shoot or rest", "SAGA p.10"
    if order == "rest":
        if unit["activations"] != 0 or unit["rested"]:
            return "a unit rests only as its first activation of the turn", "SAGA p.25"
        if unit["fatigue"] <= 0:
            return "the unit has no fatigue to discard", "SAGA p.25"
    elif exhausted(unit):
        return f"{unit['name']} is exhausted: it may only rest", "SAGA p.25"
    if order == "shoot":
        if not unit.get("weapon"):
            return f"{unit['name']} has no missile weapons", "SAGA p.15"
        if not any(shooting.eligible_shooters(state, unit["id"], e["id"]) for e in live_units(state)
                   if e["owner"] != unit["owner"]):
            return "no enemy unit in range and sight", "SAGA p.15"
    return None


# -- combat and shooting -------------------------------------------------------------------------

def _context_side(state: State, player: str, action: Action) -> tuple[str, dict[str, Any]]:
    m = state.get("melee")
    if m is not None:
        uid = melee_mod.unit_of(state, player, action.get("for_unit"))
        return "melee", m["sides"][uid]
    sh = state["shooting"]
    return "shooting", sh


def _dice_pool(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
               dry: bool, rare: bool) -> None:
    eff = box["effect"]
    choice = action.get("choice", "attack")
    where, side = _context_side(state, player, action)
    if where == "shooting":
        shooter = state["shooting"]["players"][state["shooting"]["shooter"]] == player
        if (choice == "attack") != shooter:
            raise IllegalAction("the shooter gains attack dice, the target defence dice", "SAGA p.17")
    if choice not in ("attack", "defence") or not eff.get(choice):
        raise IllegalAction(f"{box['name']} gives {'attack or defence' if eff.get('defence') else 'attack'} dice", "SAGA p.47")
    face = action.get("face")
    if face is not None and face not in ("C", "U", "R"):
        raise IllegalAction("face is the symbol of the die paid: C, U or R", "SAGA p.7")
    # checked before paying (the trial run): once paid, the die is no longer on the box
    if dry and face is not None and face not in [board.dice(state, player)[i]["face"]
                                                 for i in board.box_dice(state, player, box["id"])]:
        raise IllegalAction(f"no {face} die on {box['name']}", "SAGA p.7")
    if dry:
        return
    n = eff["rare_amount"] if rare else eff["amount"]
    side[choice] += n


def _combat(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
            dry: bool, rare: bool) -> None:
    eff = box["effect"]
    where, side = _context_side(state, player, action)
    rule = _rule(state["sides"][player]["faction"])
    if where == "shooting":
        _shooting(state, player, box, action, ctx, dry, rare)
        return
    m = state["melee"]
    uid = melee_mod.unit_of(state, player, action.get("for_unit"))
    unit = state["units"][uid]
    foe = melee_mod.enemy_of(m, uid)
    if eff.get("mounted_only") and not unit["mounted"]:
        raise IllegalAction(f"{box['name']} is for mounted units", rule)
    if eff.get("warlord_only") and unit["cls"] != "warlord":
        raise IllegalAction(f"{box['name']} is for your Warlord", rule)
    if eff.get("foot_all_in_uneven"):
        from simulator.games.saga import movement
        if unit["mounted"] or not all(movement.path_touches(state, (state["figures"][f]["x"], state["figures"][f]["y"]),
                                                            (state["figures"][f]["x"], state["figures"][f]["y"]),
                                                            state["figures"][f]["r"], "uneven")
                                      for f in unit["figures"]):
            raise IllegalAction("Ambush needs a foot unit with every figure in uneven terrain", rule)
    mixed = eff.get("mixed_dice", 0)
    if mixed:
        att = action.get("attack", mixed)
        if not isinstance(att, int) or not 0 <= att <= mixed:
            raise IllegalAction(f"'attack' is how many of the {mixed} dice are attack dice", rule)
    if dry:
        return
    side["attack"] += eff.get("attack", 0) if not (rare and "rare_attack" in eff) else eff["rare_attack"]
    side["attack"] += eff.get("attack_per_enemy_fatigue", 0) * state["units"][foe]["fatigue"]
    if eff.get("attack_per_excess_figure"):
        excess = m["sides"][uid]["fighting"] - m["sides"][foe]["fighting"]
        side["attack"] += max(0, excess) * eff["attack_per_excess_figure"]
    if mixed:
        side["attack"] += action.get("attack", mixed)
        side["defence"] += mixed - action.get("attack", mixed)
    side["defence"] += eff.get("defence", 0)
    side["own_armour"] += eff.get("own_armour", 0)
    side["enemy_armour"] += eff.get("enemy_armour", 0)
    for flag in ("reroll_attack", "reroll_defence", "second_round", "push", "crush", "pursuit"):
        if eff.get(flag):
            side[flag] = True
    side["enemy_fatigue_after"] += eff.get("enemy_fatigue_after", 0)
    side["own_fatigue_after"] += eff.get("own_fatigue_after", 0)
    if eff.get("remove_own_fatigue"):
        if remove_fatigue(unit, eff["remove_own_fatigue"]):
            ctx.emit("fatigue", f"{unit['name']} discards a fatigue", rule, unit=uid)


def _shooting(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
              dry: bool, rare: bool) -> None:
    eff = box["effect"]
    sh = state["shooting"]
    rule = _rule(state["sides"][player]["faction"])
    if sh is None:
        raise IllegalAction(f"{box['name']} is used during a shot", rule)
    shooter_side = sh["players"][sh["shooter"]] == player
    if eff.get("javelins_only") and state["units"][sh["shooter"]].get("weapon") != "javelin":
        raise IllegalAction(f"{box['name']} is for javelins", rule)
    if dry:
        return
    if shooter_side:
        sh["attack"] += eff.get("attack", 0)
        sh["target_armour"] += eff.get("enemy_armour", 0)
        if eff.get("reroll_attack"):
            sh["reroll_attack"] = True
        sh["own_fatigue_after"] += eff.get("own_fatigue_after", 0)
    else:
        sh["target_armour"] += eff.get("own_armour", 0)
        sh["defence"] += eff.get("defence", 0)
        if eff.get("reroll_defence"):
            sh["reroll_defence"] = True


def _sacrifice(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
               dry: bool, rare: bool) -> None:
    m = state["melee"]
    uid = melee_mod.unit_of(state, player, action.get("for_unit"))
    unit = state["units"][uid]
    n = action.get("figures", 1)
    engaged = melee_mod.fighting_figures(state, uid, melee_mod.foes(m, uid))
    if unit["cls"] not in ("warriors", "hearthguard") or not isinstance(n, int) or \
            not 1 <= n <= min(box["effect"]["max_figures"], len(unit["figures"]) - 1, len(engaged)):
        raise IllegalAction("sacrifice 1 to 3 of your engaged Warriors or Hearthguard (keeping one)", "SAGA p.59")
    if dry:
        return
    casualties.kill(state, uid, n, ctx, box["name"], "SAGA p.59", by=melee_mod.enemy_of(m, uid), among=engaged)
    per = box["effect"]["rare_per_figure"] if rare else box["effect"]["per_figure"]
    m["sides"][uid]["attack"] += per * n


def _crash(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
           dry: bool, rare: bool) -> None:
    m = state["melee"]
    uid = melee_mod.unit_of(state, player, action.get("for_unit"))
    foe = state["units"][melee_mod.enemy_of(m, uid)]
    if not state["units"][uid]["mounted"] or foe["mounted"] or foe["cls"] not in ("warriors", "levies"):
        raise IllegalAction("Crash: a mounted unit engaged with enemy foot Warriors or Levies", "SAGA p.61")
    if dry:
        return
    casualties.kill(state, foe["id"], 1 if foe["cls"] == "warriors" else 2, ctx, "Crash", "SAGA p.61", killer=player,
                    by=uid, among=melee_mod.fighting_figures(state, foe["id"], melee_mod.foes(m, foe["id"])))


def _war_dance(state: State, player: str, box: dict[str, Any], action: Action, ctx: Context,
               dry: bool, rare: bool) -> None:
    m = state["melee"]
    uid = melee_mod.unit_of(state, player, action.get("for_unit"))
    n = action.get("amount", 1)
    if not isinstance(n, int) or not 1 <= n <= box["effect"]["max_fatigue"]:
        raise IllegalAction("War Dance adds 1 to 3 fatigue ('amount')", "SAGA p.62")
    if dry:
        return
    add_fatigue(state, state["units"][uid], n, ctx, "War Dance", "SAGA p.62")
    m["sides"][uid]["attack"] += n
    m["sides"][uid]["defence"] += n


HANDLERS = {
    "activation_pool": _activation_pool, "noble_lineage": _noble_lineage, "fatigue_enemies": _fatigue_enemies,
    "kill_exhausted": _kill_exhausted, "remove_small_unit": _remove_small, "enemy_armour_down": _armour_down,
    "double_bow_range": _double_bow, "no_move_reduction": _no_move_reduction, "refresh": _refresh,
    "grant_activation": _grant, "taunts": _taunts, "intimidation": _intimidation, "shoot_to_move": _shoot_to_move,
    "slow_enemy_foot": _slow_enemy_foot, "hit_and_run": _hit_and_run, "dice_pool": _dice_pool,
    "combat": _combat, "shooting": _shooting, "sacrifice": _sacrifice, "crash": _crash, "war_dance": _war_dance,
}


def sample_uses(state: State, player: str) -> list[Action]:
    """Concrete ability uses for the legal-action list (a representative parameter choice)."""
    out: list[Action] = []
    for box in board.board_boxes(state, player):
        if not usable(state, player, box):
            continue
        base: Action = {"type": "use_ability", "box": box["id"]}
        kind = box["effect"]["kind"]
        options: list[Action] = []
        if kind == "dice_pool":
            options = [{**base, "choice": "attack"}]
            if box["effect"].get("defence"):
                options.append({**base, "choice": "defence"})
            if state.get("shooting") and state["shooting"]["players"][state["shooting"]["shooter"]] != player:
                options = [o for o in options if o["choice"] == "defence"]
        elif kind in ("kill_exhausted", "remove_small_unit", "taunts"):
            options = [{**base, "target": u["id"]} for u in live_units(state) if u["owner"] != player]
        elif kind == "fatigue_enemies":
            ids = [u["id"] for u in live_units(state) if u["owner"] != player and not u.get("baggage")]
            options = [{**base, "targets": ids[:box["effect"]["units"]]}]
        elif kind == "grant_activation" and box["effect"]["which"] == "one_mounted":
            options = [{**base, "unit": u["id"]} for u in live_units(state, player) if u["mounted"]]
        elif kind == "noble_lineage":
            hand = board.rolled_unplaced(state, player)
            options = [{**base, "dice": hand}] + ([{**base, "dice": hand[:1], "set_face": "R"}] if hand else [])
        elif kind == "hit_and_run":
            options = [{**base, "unit": u["id"], "order": o} for u in live_units(state, player)
                       for o in ("move", "shoot")]
        elif kind == "war_dance":
            options = [{**base, "amount": 1}]
        elif kind == "sacrifice":
            options = [{**base, "figures": 1}]
        elif kind == "combat" and box["effect"].get("mixed_dice"):
            options = [{**base, "attack": box["effect"]["mixed_dice"]}]
        else:
            options = [base]
        m = state.get("melee")
        if m is not None and m.get("partner") and m["players"][m["partner"]] == player and box["timing"].startswith("combat"):
            options = options + [{**o, "for_unit": m["partner"]} for o in options]      # Side by Side (SAGA p.34)
        for o in options:
            if _trial(state, player, box, o):
                out.append(o)
    return out


def _trial(state: State, player: str, box: dict[str, Any], action: Action) -> bool:
    try:
        HANDLERS[box["effect"]["kind"]](state, player, box, action, _NullCtx(), dry=True, rare=False)
    except IllegalAction:
        return False
    return True


class _NullCtx:
    def emit(self, *args: Any, **kwargs: Any) -> None:
        return None
