"""Combat against military units: the Combat Resolution Table, melee and missile attacks
(DR 2.7.1, 2.7.5, 2.7.6), and the restrictions of walls, towers, fog and whirlwinds.

Attacks against monsters are in :mod:`.monster_combat`.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage.board import Board, board_for, side_key
from simulator.games.dragon_rage.elementals import elemental_attack_check
from simulator.games.dragon_rage.los import sight
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.units import (State, Unit, attack_cf, defence_cf, ground_units_at, is_hero,
                                               is_major, is_minor, is_missile, spec, units_at)

CRT_RULE = "DR 2.7.5"
COUNTER_RULE = "DR 2.11.3"


def crt_result(attack: int, defence: int, literal: bool = False) -> str:
    """The CRT cell for attacker ``attack`` against defender ``defence`` (digest §9.2)."""
    if attack <= 0:
        return "M"
    if defence <= 0:
        return "D"
    table = rules_data().crt
    if 1 <= attack <= 30 and 1 <= defence <= 15:
        return table[attack][defence - 1]
    if literal:
        if attack >= 2 * defence:
            return "D"
        if defence >= 2 * attack:
            return "M"
        need = 7 - attack // defence
        return "11" if need >= 7 else str(need)
    if defence >= 2 * attack:
        return "M"
    if attack < defence:
        return "11"
    r = attack // defence
    return "D" if r >= 6 else str(7 - r)


def hex_defence(units: list[Unit]) -> int:
    """Total defence of a stack (the wizard's parenthesised factor counts, DR 2.10.6)."""
    return sum(defence_cf(u) for u in units if not is_major(u))


def crt_attack(state: State, ctx: Context, attack: int, defence: int, targets: list[Unit], what: str,
               rule: str, pieces: list[str], modifier: int = 0) -> bool:
    """Resolve one CRT attack; every target unit is destroyed on success (DR 2.7.1)."""
    from simulator.games.dragon_rage.casualties import eliminate
    from simulator.games.dragon_rage.elementals import summoner_attacked
    summoner_attacked(state, ctx, targets)
    result = crt_result(attack, defence, state["rules"].get("literal_extreme_odds", False))
    ids = [u["id"] for u in targets]
    if result == "M":
        ok, detail = False, "automatic miss"
    elif result == "D":
        ok, detail = True, "destroyed without a roll"
    elif result == "11":
        roll = ctx.dice.d6(f"{what}: extreme odds") + ctx.dice.d6(f"{what}: extreme odds")
        ok, detail = roll + modifier >= 11, f"2d6 {roll}{modifier:+d} needing 11"
    else:
        roll = ctx.dice.d6(what)
        ok, detail = roll + modifier >= int(result), f"rolled {roll}{modifier:+d} needing {result}"
    ctx.emit("attack", f"{what}: {attack} against {defence}, table gives {result}; {detail}: "
                       f"{'success' if ok else 'no effect'}", CRT_RULE if rule == CRT_RULE else f"{rule}, {CRT_RULE}",
             pieces=[*pieces, *ids], attack=attack, defence=defence, result=result, success=ok, modifier=modifier)
    if ok:
        for t in targets:
            eliminate(state, ctx, t, what, rule)
    return ok


def in_fog(state: State, hex_: str) -> bool:
    board = board_for(state["map"])
    return any(board.distance(f["centre"], hex_) <= f["radius"] for f in state["fog"])


def in_whirlwind(state: State, hex_: str) -> bool:
    return any(w["hex"] == hex_ for w in state["whirlwinds"])


def magic_block(state: State, a: str, b: str, attacker_is_monster: bool = False) -> tuple[str, str] | None:
    """No attack into or out of fog, nor into a whirlwind (DR 2.8.6, 2.8.7)."""
    if in_fog(state, a) or in_fog(state, b):
        return ("no attack of any kind is made by or against units in fog", "DR 2.8.6")
    if in_whirlwind(state, b) and a != b:
        return ("units in a whirlwind cannot be attacked", "DR 2.8.7")
    if in_whirlwind(state, a) and not attacker_is_monster:
        return ("units in a whirlwind cannot attack", "DR 2.8.7")
    return None


def entrance_open(state: State, board: Board, a: str, b: str) -> bool:
    ent = board.entrance(a, b)
    if ent is None:
        return False
    info = state["entrances"][ent.key]
    return bool(info["broken"] or info.get("open"))


def melee_block(state: State, a: str, b: str, attacker: Unit | None = None) -> tuple[str, str] | None:
    """Melee across a wall or into/out of a tower needs a broken or open entrance (DR 2.7.1.3).

    A sea serpent in the water attacks a tower on the shore without an entrance, but not across
    a wall hexside (DR 2.11.2.2)."""
    board = board_for(state["map"])
    if a == b:
        return None
    if board.direction(a, b) is None:
        return (f"{a} and {b} are not adjacent", "DR 2.7.1")
    crosses_wall = side_key(a, b) in board.walls and side_key(a, b) not in (state.get("broken_walls") or ())
    tower = (a in board.towers) != (b in board.towers)
    if tower and not crosses_wall and serpent_at_shore_tower(state, board, attacker, a, b):
        return None
    if (crosses_wall or tower or board.entrance(a, b)) and not entrance_open(state, board, a, b):
        if crosses_wall or tower:
            return (f"no melee between {a} and {b} across a wall or into/out of a tower without a broken "
                    "or open entrance", "DR 2.7.1.3")
    return None


def serpent_at_shore_tower(state: State, board: Board, attacker: Unit | None, a: str, b: str) -> bool:
    """A sea serpent in a water hex ``a`` next to the tower ``b`` (DR 2.11.2.2)."""
    from simulator.games.dragon_rage.terrain_rules import water_for
    if attacker is None or attacker["type"] != "sea_serpent" or b not in board.towers:
        return False
    return water_for(state, board, a) is not None


def hero_doubles(state: State, unit: Unit) -> bool:
    """An unwounded hero stacked with ``unit`` (not a hero itself) doubles its attack (DR 2.10.5.1)."""
    return not is_hero(unit) and any(is_hero(h) and not h["wounded"] and h["side"] == unit["side"]
                                     for h in ground_units_at(state, unit["hex"]) if h["id"] != unit["id"])


def boost_or_double(state: State, unit: Unit) -> bool:
    """In a normal melee ``unit`` may take either the hero's doubling or Boost Morale's +1, not both
    (DR 2.8.5, Q-CMB-10): it is boosted and a hero doubles it."""
    return bool(unit.get("boosted")) and not is_missile(unit) and hero_doubles(state, unit)


def _boost_instead(state: State, attackers: list[Unit], value: Any) -> set[str]:
    """The attackers whose owner takes the +1 boost instead of the hero's doubling (``boost_instead``)."""
    rule = "DR 2.8.5"
    if value is None:
        return set()
    if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
        raise IllegalAction(f"'boost_instead' must be a list of attacking unit ids, got {value!r}", rule)
    by_id = {u["id"]: u for u in attackers}
    for uid in value:
        if uid not in by_id:
            raise IllegalAction(f"'boost_instead' names {uid}, which is not one of the attackers", rule)
        if not boost_or_double(state, by_id[uid]):
            raise IllegalAction(f"{uid} has no choice between Boost Morale and a hero's doubling (it must be "
                                "boosted and stacked with an unwounded hero of its side)", rule)
    return set(value)


def missile_range(state: State, unit: Unit, target_hex: str, target_up: bool) -> int:
    """Range of a missile unit from where it stands (DR 2.7.6.1, 2.10.8)."""
    board = board_for(state["map"])
    m = spec(unit)["missile"]
    if unit["hex"] in board.towers and not target_up and "range_from_tower" in m:
        return int(m["range_from_tower"])
    return int(m.get("range", 2))


def missile_check(state: State, unit: Unit, target_hex: str, target_up: bool, flying: bool) -> int:
    """Validate range and line of sight; returns the range in hexes."""
    board = board_for(state["map"])
    m = spec(unit)["missile"]
    dist = board.distance(unit["hex"], target_hex)
    if dist > missile_range(state, unit, target_hex, target_up):
        raise IllegalAction(f"{target_hex} is {dist} hexes away, beyond {unit['id']}'s range", "DR 2.7.6.1")
    if dist < int(m.get("range_min", 0)):
        raise IllegalAction(f"{unit['id']} needs at least {m['range_min']} hexes", "DR 2.10.8.1")
    if flying and m.get("may_target_flying") is False:
        raise IllegalAction(f"{unit['id']} cannot hit a monster in flight", "DR 2.10.8.1")
    if m.get("needs_los", True):
        through = state["map_name"] == "nurkott" and unit["type"] in ("archers", "goblins")
        s = sight(state["map"], unit["hex"], target_hex, target_up=target_up, through_own_walls=through,
                  breaches=tuple(state.get("broken_walls") or ()))
        if not s.clear:
            raise IllegalAction(f"no line of sight: {s.reason}", "DR 2.7.6.2")
    return dist


def missile_cf(unit: Unit, dist: int) -> int:
    table = spec(unit)["missile"].get("cf_at_range")
    if table:
        return int(table.get(dist, table.get(str(dist), attack_cf(unit))))
    return attack_cf(unit)


def _attacker_ready(state: State, unit: Unit, side: str) -> None:
    if not unit["alive"] or unit["hex"] is None:
        raise IllegalAction(f"{unit['id']} is not on the map", "DR 2.7")
    if unit["side"] != side:
        raise IllegalAction(f"{unit['id']} is not yours", "DR 2.6")
    if unit["attacked"]:
        raise IllegalAction(f"{unit['id']} has already attacked this turn", "DR 2.7.1.2")
    if unit.get("ravaged") or unit.get("no_attack"):
        raise IllegalAction(f"{unit['id']} may not attack this turn (it destroys a hex, burns a bridge "
                            "or tried a climb)", "DR 2.3")


def targets_in(state: State, hex_: str, side: str) -> list[Unit]:
    """Enemy military units (not monsters) in a hex, attacked as one group (DR 2.7.1.2)."""
    units = [u for u in ground_units_at(state, hex_) if u["side"] != side]
    return [u for u in units if not is_major(u) and not is_minor(u)]


def melee(state: State, ctx: Context, attackers: list[Unit], target_hex: str, boost_instead: Any = None) -> None:
    """Several units combine against one hex of military units (DR 2.7.1, 2.7.1.2).

    A boosted unit that a hero doubles keeps the doubling, unless its id is in ``boost_instead``:
    then it attacks with its own CF and counts as boosted (DR 2.8.5, Q-CMB-10)."""
    side = state["active"]
    if not attackers:
        raise IllegalAction("name at least one attacking unit", "DR 2.7.1")
    boost_chosen = _boost_instead(state, attackers, boost_instead)
    targets = targets_in(state, target_hex, side)
    if not targets:
        raise IllegalAction(f"{target_hex} holds no enemy military unit (attack monsters with attack_monster)",
                            "DR 2.7.1")
    total = 0
    boosted_cf = 0
    for u in attackers:
        _attacker_ready(state, u, side)
        if is_major(u):
            raise IllegalAction("major monsters attack with monster_attack", "DR 2.12.1.6")
        block = elemental_attack_check(state, u, target_hex)
        if block:
            raise IllegalAction(*block)
        if spec(u).get("rules", {}).get("no_melee") and not is_missile(u):
            raise IllegalAction(f"{u['id']} cannot melee", "DR 2.10.8")
        block = magic_block(state, u["hex"], target_hex)
        if block:
            raise IllegalAction(*block)
        doubled = False
        if is_missile(u):
            dist = missile_check(state, u, target_hex, target_hex in board_for(state["map"]).towers, False)
            cf = missile_cf(u, dist)
        else:
            block = melee_block(state, u["hex"], target_hex, u)
            if block:
                raise IllegalAction(*block)
            doubled = hero_doubles(state, u) and u["id"] not in boost_chosen
            cf = attack_cf(u) * (2 if doubled else 1)
        if cf <= 0:
            raise IllegalAction(f"{u['id']} has no attack factor", "DR 2.10.6")
        total += cf
        # Boost Morale does not add to a hero's doubling (DR 2.8.5, Q-CMB-10): a doubled unit does not
        # count as boosted; the owner may take the boost instead (boost_instead)
        if u.get("boosted") and not doubled:
            boosted_cf += cf
    for u in attackers:
        owed = u.get("must_attack")
        if owed and not any(t["id"] in owed for t in targets) and counterattack_possible(state, u):
            raise IllegalAction(f"{u['id']} was attacked in melee and must attack one of its attackers "
                                f"({', '.join(owed)})", COUNTER_RULE)
    for u in attackers:
        u["attacked"] = True
        u["must_attack"] = []
    modifier = 1 if boosted_cf * 2 >= total and boosted_cf > 0 else 0
    if boost_chosen:
        ctx.emit("boost_instead", f"{', '.join(sorted(boost_chosen))} take Boost Morale's +1 instead of the "
                                  "hero's doubling", "DR 2.8.5", pieces=sorted(boost_chosen))
    total += held_lightning(state, ctx, targets)
    crt_attack(state, ctx, total, hex_defence(targets), targets,
               f"melee by {', '.join(u['id'] for u in attackers)} on {target_hex}", "DR 2.7.1",
               [u["id"] for u in attackers], modifier)


def held_lightning(state: State, ctx: Context, targets: list[Unit]) -> int:
    """Lightning cast this turn to join a melee against one of ``targets`` adds its power
    (DR 2.8.8); it is used by the first such melee."""
    ids = {t["id"] for t in targets}
    held = state.get("held_lightning") or []
    for i, h in enumerate(held):
        if h["side"] == state["active"] and h["turn"] == state["turn"] and h["unit"] in ids:
            del held[i]
            ctx.emit("lightning_joins", f"{h['caster']}'s lightning adds {h['power']} to the melee on {h['unit']}",
                     "DR 2.8.8", pieces=[h["caster"], h["unit"]], power=h["power"])
            return int(h["power"])
    return 0


def fire(state: State, ctx: Context, firers: list[Unit], target_hex: str) -> None:
    """Missile units fire together at one hex of military units (DR 2.7.6)."""
    side = state["active"]
    if not firers:
        raise IllegalAction("name at least one firing unit", "DR 2.7.6")
    targets = targets_in(state, target_hex, side)
    if not targets:
        raise IllegalAction(f"{target_hex} holds no enemy military unit (fire at monsters with fire_at_monster)",
                            "DR 2.7.6")
    board = board_for(state["map"])
    total = 0
    for u in firers:
        _attacker_ready(state, u, side)
        if not is_missile(u):
            raise IllegalAction(f"{u['id']} has no missiles", "DR 2.7.6")
        block = magic_block(state, u["hex"], target_hex)
        if block:
            raise IllegalAction(*block)
        dist = missile_check(state, u, target_hex, target_hex in board.towers, False)
        total += missile_cf(u, dist)
    for u in firers:
        u["attacked"] = True
    crt_attack(state, ctx, total, hex_defence(targets), targets,
               f"missiles of {', '.join(u['id'] for u in firers)} at {target_hex}", "DR 2.7.6",
               [u["id"] for u in firers])


def adjacent_or_same(board: Board, a: str, b: str) -> bool:
    return a == b or board.direction(a, b) is not None


def units_here(state: State, hex_: str) -> list[Unit]:
    return units_at(state, hex_)


def describe(units: list[Any]) -> str:
    return ", ".join(u["id"] for u in units)


def counterattack_targets(state: State, unit: Unit) -> list[str]:
    """Hexes of the units that attacked ``unit`` (a T-Rex) in melee, which it may strike now."""
    out = []
    for uid in unit.get("must_attack") or []:
        foe = state["units"].get(uid)
        if foe is None or not foe["alive"] or foe["hex"] is None or foe["hex"] in out:
            continue
        if foe["hex"] != unit["hex"] and board_for(state["map"]).direction(unit["hex"], foe["hex"]) is None:
            continue
        if magic_block(state, unit["hex"], foe["hex"]) or melee_block(state, unit["hex"], foe["hex"]):
            continue
        if targets_in(state, foe["hex"], unit["side"]):
            out.append(foe["hex"])
    return out


def counterattack_options(state: State, unit: Unit) -> list[dict[str, Any]]:
    """The melee attacks (legal now) by which the T-Rex strikes back at its attackers (DR 2.11.3)."""
    if not (unit["alive"] and unit["hex"] is not None and not unit["attacked"] and not unit.get("no_attack")):
        return []
    from simulator.games.dragon_rage.legal import is_legal
    options = [{"type": "melee", "units": [unit["id"]], "target": h} for h in counterattack_targets(state, unit)]
    return [a for a in options if is_legal(state, a)]


def counterattack_possible(state: State, unit: Unit) -> bool:
    """The T-Rex still owes a counter-attack it can make this phase (DR 2.11.3)."""
    return bool(counterattack_options(state, unit))
