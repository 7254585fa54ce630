"""Combat with monsters (DR 2.7.2-2.7.4, 2.7.6.3, 2.11, 2.12.1.5-2.12.1.9).

Units attack a major monster one at a time, naming an area they can reach from where they
stand and rolling its number; a hit does damage equal to the attacker's factor (missiles: 1
point, 2 to the belly of a flyer). Minor monsters are hit on 5+ (giants and the T-Rex on 6).
Major monsters attack with their groups on the CRT, and dragons breathe fire.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.board import board_for, side_key
from simulator.games.dragon_rage.casualties import damage_monster, demoralised, escape_roll
from simulator.games.dragon_rage.combat import (_attacker_ready, crt_attack, entrance_open, hex_defence,
                                                in_fog, in_whirlwind, magic_block, melee_block,
                                                missile_check, targets_in)
from simulator.games.dragon_rage.elementals import elemental_attack_check, summoner_attacked
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.units import (State, Unit, attack_cf, escape_number, ground_units_at, is_hero,
                                               is_major, is_minor, is_missile, spec, units_at)
from simulator.games.dragon_rage.victory import destroy_vp

FRONT, FRONT_RIGHT, REAR_RIGHT, BEHIND, REAR_LEFT, FRONT_LEFT = range(6)


def position(state: State, monster: Unit, hex_: str) -> set[str]:
    """Where ``hex_`` lies seen from the monster: words of the data sheet (DR 2.4.2)."""
    board = board_for(state["map"])
    if hex_ == monster["hex"]:
        return {"underneath"}
    d = board.direction(monster["hex"], hex_)
    if d is None:
        return set()
    rel = (d - monster["facing"]) % 6
    out = {"around"}
    if rel in (FRONT, FRONT_LEFT, FRONT_RIGHT):
        out.add("front")
    if rel == FRONT:
        out.add("directly_in_front")
    if rel in (FRONT_RIGHT, REAR_RIGHT, REAR_LEFT, FRONT_LEFT):
        out.add("flanks")
    if rel != BEHIND:
        out.add("around_except_behind")
    if hex_ in board.towers:
        out.add("above")
    return out


def area_reachable_from(state: State, monster: Unit, area: str, hex_: str) -> bool:
    """May an attacker in ``hex_`` strike ``area`` (DR 2.12.1.7; head from any front hex once
    wings and legs are all gone)?"""
    pos = position(state, monster, hex_)
    allowed = set(body.areas(monster)[area].get("hit_from", []))
    if "above" in pos and "above" not in allowed:
        return False   # legs and belly are never reached from a tower
    if area == "head" and "front" in pos and body.area_destroyed(monster, "legs") and \
            (("wings" not in monster["damage"]) or body.area_destroyed(monster, "wings")):
        return True
    return bool(pos & allowed)


def area_attacks_into(state: State, monster: Unit, area: str, hex_: str) -> bool:
    pos = position(state, monster, hex_)
    allowed = set(body.areas(monster)[area].get("attacks_into", []))
    if "above" in pos and "above" not in allowed:
        return False
    if in_whirlwind(state, monster["hex"]) and area not in ("head", "legs"):
        return False
    return bool(pos & allowed)


def _hero_support(state: State, unit: Unit) -> bool:
    board = board_for(state["map"])
    if is_hero(unit):
        return True
    for h in state["units"].values():
        if h["alive"] and is_hero(h) and not h["wounded"] and h["side"] == unit["side"] and h["hex"] is not None \
                and (h["hex"] == unit["hex"] or board.direction(h["hex"], unit["hex"]) is not None):
            return True
    return False


def _morale(state: State, ctx: Context, unit: Unit, missile: bool) -> None:
    """After every hero of a side died, its units check morale before attacking a monster (DR 2.10.5.5)."""
    if not demoralised(state, unit["side"]):
        return
    if missile and spec(unit).get("missile", {}).get("no_morale_check_to_fire"):
        return
    need = escape_number(unit)
    roll = ctx.dice.d6(f"morale check of {unit['id']}")
    bonus = int(rules_data().rules.get("morale_bonus", 1)) + (1 if unit.get("boosted") else 0)
    ok = need is not None and roll + bonus >= need
    ctx.emit("morale", f"{unit['id']} checks morale: {roll}{bonus:+d} against {need}: "
                       f"{'passes' if ok else 'refuses to attack'}", "DR 2.10.5.5", pieces=[unit["id"]])
    if not ok:
        unit["attacked"] = True
        raise _Refused()


class _Refused(Exception):
    """The unit failed its morale check: the attack is spent, nothing else happens."""


def _check_monster_target(state: State, monster: Unit, area: Any) -> str:
    if not monster["alive"] or monster["hex"] is None:
        raise IllegalAction(f"{monster['id']} is not on the map", "DR 2.7.2")
    if is_minor(monster):
        return "body"
    if not is_major(monster):
        raise IllegalAction(f"{monster['id']} is not a monster (use melee or fire)", "DR 2.7.2")
    if not isinstance(area, str) or area not in monster["damage"]:
        raise IllegalAction(f"name an area of {monster['id']}: {', '.join(monster['damage'])}", "DR 2.7.2")
    if body.area_destroyed(monster, area):
        raise IllegalAction(f"the {area} of {monster['id']} is already destroyed", "DR 2.7.4.2")
    return str(area)


def attack_monster(state: State, ctx: Context, unit: Unit, monster: Unit, area: Any) -> None:
    """One unit's melee attack on a monster (DR 2.7.2, 2.7.3)."""
    side = state["active"]
    _attacker_ready(state, unit, side)
    area = _check_monster_target(state, monster, area)
    if monster["side"] == side:
        raise IllegalAction("attack enemy monsters only", "DR 2.7")
    board = board_for(state["map"])
    if is_missile(unit) or spec(unit).get("rules", {}).get("no_melee"):
        raise IllegalAction(f"{unit['id']} uses missiles, not melee (fire_at_monster)", "DR 2.10.4")
    if monster.get("flying"):
        raise IllegalAction("no melee against a monster in flight", "DR 2.7.2")
    if unit["hex"] != monster["hex"] and board.direction(unit["hex"], monster["hex"]) is None:
        raise IllegalAction(f"{unit['id']} is not in or next to {monster['id']}'s hex", "DR 2.7.2")
    block = magic_block(state, unit["hex"], monster["hex"]) or melee_block(state, unit["hex"], monster["hex"], unit)
    if block:
        raise IllegalAction(*block)
    block = elemental_attack_check(state, unit, monster["hex"])
    if block:
        raise IllegalAction(*block)
    cf = attack_cf(unit)
    if cf <= 0:
        raise IllegalAction(f"{unit['id']} has no attack factor", "DR 2.10.6")
    modifier = 0
    if is_major(monster):
        if not area_reachable_from(state, monster, area, unit["hex"]):
            raise IllegalAction(f"the {area} of {monster['id']} cannot be reached from {unit['hex']}", "DR 2.12.1.7")
        support = _hero_support(state, unit)
        if unit["type"] == "militia" and not (support or unit.get("boosted")):
            raise IllegalAction("militia attack a major monster only with a hero near or under Boost Morale",
                                "DR 2.10.1.1")
        modifier = 1 if (support or unit.get("boosted")) else 0
        need = int(body.areas(monster)[area]["hit_on"])
    else:
        modifier = 1 if unit.get("boosted") else 0
        need = int(spec(monster).get("hit_on", 5))
    unit["attacked"] = True
    try:
        _morale(state, ctx, unit, missile=False)
    except _Refused:
        return
    if spec(monster).get("rules", {}).get("must_counterattack") and unit["id"] not in monster.setdefault("must_attack", []):
        monster["must_attack"].append(unit["id"])      # it must strike back next turn (DR 2.11.3)
    roll = ctx.dice.d6(f"{unit['id']} strikes the {area} of {monster['id']}")
    hit = roll + modifier >= need
    rule = "DR 2.7.2" if is_major(monster) else "DR 2.7.3"
    ctx.emit("attack", f"{unit['id']} attacks the {area} of {monster['id']}: {roll}{modifier:+d} needing {need}: "
                       f"{'hit' if hit else 'miss'}", rule, pieces=[unit["id"], monster["id"]], roll=roll,
             need=need, success=hit)
    if hit:
        damage_monster(state, ctx, monster, area if area != "body" else "", cf, [unit["id"]], rule)


def fire_at_monster(state: State, ctx: Context, unit: Unit, monster: Unit, area: Any) -> None:
    """One missile unit shoots at a monster (DR 2.7.6.3, 2.12.1.9, 2.10.8)."""
    side = state["active"]
    _attacker_ready(state, unit, side)
    if not is_missile(unit):
        raise IllegalAction(f"{unit['id']} has no missiles", "DR 2.7.6")
    if monster["side"] == side:
        raise IllegalAction("shoot at enemy monsters only", "DR 2.7.6")
    area = _check_monster_target(state, monster, area)
    board = board_for(state["map"])
    flying = bool(monster.get("flying"))
    block = magic_block(state, unit["hex"], monster["hex"])
    if block:
        raise IllegalAction(*block)
    if monster["type"] == "sea_serpent" and all(
            n is None or not board.is_land(n) for n in board.neighbours[monster["hex"]]):
        raise IllegalAction("the sea serpent is submerged: it can be shot only next to a shore or dock", "DR 2.11.2.3")
    dist = missile_check(state, unit, monster["hex"], flying or monster["hex"] in board.towers, flying)
    rules = rules_data().rules["missiles_vs_monster"]
    m = spec(unit)["missile"]
    table = m.get("vs_monster_to_hit")
    if isinstance(table, int):
        need = table
    elif isinstance(table, dict):
        need = int(table.get(dist, table.get(str(dist), 6)))
    else:
        need = int(rules["adjacent_grounded"] if dist <= 1 and not flying else rules["otherwise"])
    if is_minor(monster):
        need = max(need, int(spec(monster).get("hit_on", 5))) if monster["type"] != "sea_serpent" else 5
    unit["attacked"] = True
    try:
        _morale(state, ctx, unit, missile=True)
    except _Refused:
        return
    if is_major(monster) and flying:
        area, points = "belly", int(rules["flying_belly_damage"])
    elif is_major(monster):
        if area == "belly":
            raise IllegalAction("missiles strike the head, wings or legs of a grounded monster", "DR 2.12.1.9")
        points = int(rules["grounded_damage"])
    else:
        points = 1
    roll = ctx.dice.d6(f"{unit['id']} shoots at {monster['id']}")
    hit = roll >= need
    ctx.emit("attack", f"{unit['id']} shoots at the {area} of {monster['id']} ({dist} hexes): rolled {roll} "
                       f"needing {need}: {'hit' if hit else 'miss'}", "DR 2.7.6.3",
             pieces=[unit["id"], monster["id"]], roll=roll, need=need, success=hit)
    if hit:
        damage_monster(state, ctx, monster, area, points, [unit["id"]], "DR 2.12.1.9")


def monster_attack(state: State, ctx: Context, monster: Unit, target_hex: Any, groups: Any) -> None:
    """A major monster attacks one hex with some of its groups, on the CRT (DR 2.12.1.6)."""
    rule = "DR 2.12.1.6"
    side = state["active"]
    if not is_major(monster) or monster["side"] != side or not monster["alive"]:
        raise IllegalAction("name one of your major monsters", rule)
    if monster["mode"] in ("fly", "slither") and not (monster["type"] == "roc" and monster["landed"]):
        raise IllegalAction(f"{monster['id']} flew or slithered this turn and cannot attack", "DR 2.12.1.6.2")
    if monster["flying"]:
        raise IllegalAction("a monster in flight cannot melee", "DR 2.12.1.1.4")
    board = board_for(state["map"])
    if not isinstance(target_hex, str) or (target_hex != monster["hex"] and board.direction(monster["hex"], target_hex) is None):
        raise IllegalAction("the target hex must be the monster's own or an adjacent hex", rule)
    if not isinstance(groups, list) or not groups:
        raise IllegalAction(f"name the attacking groups, e.g. {body.group_names(monster)}", rule)
    targets = targets_in(state, target_hex, side)
    if not targets:
        raise IllegalAction(f"{target_hex} holds no enemy military unit", rule)
    block = magic_block(state, monster["hex"], target_hex, attacker_is_monster=True) or \
        melee_block(state, monster["hex"], target_hex)
    if block:
        raise IllegalAction(*block)
    other = state["dragon_targets"].get(target_hex)
    if other and other != monster["id"]:
        raise IllegalAction(f"{other} already attacked {target_hex}: monsters never combine", "DR 2.12.1.6.2")
    total = 0
    for g in groups:
        if g not in body.group_names(monster):
            raise IllegalAction(f"{monster['id']} has no attack group {g!r} ({body.group_names(monster)})", rule)
        if g in monster["groups_used"]:
            raise IllegalAction(f"group {g} has already attacked this turn", "DR 2.12.1.6.3")
        area = g.split(".")[0]
        if not area_attacks_into(state, monster, area, target_hex):
            raise IllegalAction(f"the {area} of {monster['id']} cannot attack {target_hex} from its facing",
                                "DR 2.12.1.6.1")
        cf = body.group_cf(monster, g)
        if cf <= 0:
            raise IllegalAction(f"group {g} has no attack factor left", "DR 2.12.1.6")
        total += cf
    if monster["type"] == "dragon" and any(t["slayer"] for t in targets):
        total *= 3
    monster["groups_used"].extend(groups)
    state["dragon_targets"][target_hex] = monster["id"]
    crt_attack(state, ctx, total, hex_defence(targets), targets,
               f"{monster['id']} attacks {target_hex} with {', '.join(groups)}", rule, [monster["id"]])


def fire_path(state: State, monster: Unit, direction: int) -> list[str]:
    """The hexes the breath reaches, stopping at walls, closed towers, fog and whirlwinds (DR 2.12.1.5.1)."""
    board = board_for(state["map"])
    reach = int(spec(monster)["breath"].get("range", 2))
    out: list[str] = []
    prev = monster["hex"]
    for _ in range(reach):
        nxt = board.neighbour(prev, direction)
        if nxt is None or in_fog(state, nxt) or in_whirlwind(state, nxt):
            break
        if not monster["flying"]:
            key = side_key(prev, nxt)
            closed = not entrance_open(state, board, prev, nxt)
            if (key in board.walls and closed) or (nxt in board.towers and closed and prev not in board.towers):
                break
        out.append(nxt)
        if nxt in board.towers:
            break
        prev = nxt
    return out


def breathe(state: State, ctx: Context, monster: Unit, direction: Any) -> None:
    """Dragonfire into one of the three front hexes and the hex beyond (DR 2.12.1.5)."""
    rule = "DR 2.12.1.5"
    if not is_major(monster) or monster["side"] != state["active"] or not monster["alive"]:
        raise IllegalAction("name one of your dragons", rule)
    breath = spec(monster).get("breath")
    if not breath:
        raise IllegalAction(f"a {monster['type']} has no breath", rule)
    if monster["breaths_left"] <= 0:
        raise IllegalAction(f"{monster['id']} has no breath left this game", "DR 2.12.1.5.3")
    if monster["mode"] == "slither":
        raise IllegalAction("no fire in a turn the dragon slithers", rule)
    if not isinstance(direction, int) or (direction - monster["facing"]) % 6 not in (0, 1, 5):
        raise IllegalAction("breathe into one of the three front directions (facing, facing+1, facing-1)",
                            "DR 2.12.1.5.1")
    board = board_for(state["map"])
    if monster["landed"]:
        # landing is part of a flying move, and a dragon that made one makes no attack that
        # turn (DR 2.12.1.1.4); the one exception, fire at a tower from the air, is only for a
        # dragon that neither took off nor landed (DR 2.12.1.5)
        raise IllegalAction(f"{monster['id']} landed this turn: a flying move allows no fire that turn",
                            "DR 2.12.1.1.4, 2.12.1.5")
    if monster["flying"]:
        if breath.get("not_in_flight"):
            raise IllegalAction("a young dragon never breathes in flight", "DR 2.12.2.1")
        if monster["took_off"]:
            raise IllegalAction("no fire from the air in a turn of take-off or landing", rule)
    if in_fog(state, monster["hex"]):
        raise IllegalAction("no dragonfire from fog", "DR 2.8.6")
    path = fire_path(state, monster, direction)
    if monster["flying"]:
        path = [h for h in path if h in board.towers]
        if not path:
            raise IllegalAction("from the air a dragon breathes only onto a tower hex", rule)
    if not path:
        raise IllegalAction("the fire is stopped at once (wall, closed tower, fog, whirlwind or map edge)", rule)
    monster["breaths_left"] -= 1
    monster["breathed"] = True
    ctx.emit("dragonfire", f"{monster['id']} breathes fire into {', '.join(path)}", rule,
             pieces=[monster["id"]], hexes=path)
    young = monster["type"] == "young_dragon"
    furious = monster["type"] == "dragon"
    summoner_attacked(state, ctx, [u for h in path for u in ground_units_at(state, h)])
    for h in path:
        tower = h in board.towers
        for u in list(ground_units_at(state, h)):
            if u["id"] == monster["id"] or is_major(u):
                continue
            bonus = (int(breath.get("escape_bonus_in_tower", 4)) if tower else int(breath.get("escape_bonus", 2))) \
                if young else (2 if tower else 0)
            if furious and u["slayer"]:
                bonus -= 2
            escape_roll(state, ctx, u, bonus, f"dragonfire of {monster['id']}", "DR 2.12.1.5.2")
        if not tower or monster["flying"] or entrance_open(state, board, _prev(path, h, monster), h):
            destroy_vp(state, ctx, h, f"dragonfire of {monster['id']}", "DR 2.12.1.5.2", [monster["id"]])


def _prev(path: list[str], h: str, monster: Unit) -> str:
    i = path.index(h)
    return monster["hex"] if i == 0 else path[i - 1]
