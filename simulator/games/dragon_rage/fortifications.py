"""Walls, entrances and bridges: climbing (DR 2.5.3.1, 2.5.8), smashing gates and doors
(DR 2.5.5.1-2), opening an entrance (DR 2.5.5.3), burning wooden bridges (DR 2.5.7.1), and
troops destroying a VP hex they occupy (DR 2.3).
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.board import board_for, side_key
from simulator.games.dragon_rage.doors import break_entrance
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.monster_moves import in_fog, spent_mp_in_hex
from simulator.games.dragon_rage.units import (State, Unit, ground_units_at, is_character, is_hero, is_major,
                                               is_wizard, kind, spec)
from simulator.games.dragon_rage.victory import destroy_vp


def scaling_row(state: State, unit: Unit) -> dict[str, Any]:
    """The unit's row of the scaling and smashing table (DR 2.5.8)."""
    table = rules_data().rules["scaling"]
    cls = table["by_unit"].get(unit["type"], "none")
    if cls == "human_troop" and any(is_hero(h) and h["side"] == unit["side"] and h["id"] != unit["id"]
                                    for h in ground_units_at(state, unit["hex"])):
        cls = "human_with_hero"
    if unit["type"] in ("great_wurm", "wurm"):
        climb = spec(unit).get("climb", {})
        return {"climb": climb.get("on", 4), "climb_free": climb.get("on_if_no_enemy_adjacent", 3),
                "door": 0, "gate": 9}
    return dict(table["classes"][cls])


def _defenders_adjacent(state: State, unit: Unit, hex_: str) -> bool:
    """Enemies next to ``hex_`` that count against a climber: not in towers, not lone characters."""
    board = board_for(state["map"])
    for n in [hex_, *[x for x in board.neighbours[hex_] if x]]:
        here = [u for u in ground_units_at(state, n) if u["side"] != unit["side"]]
        if not here or n in board.towers:
            continue
        if all(is_character(u) for u in here) and len(here) == 1:
            continue
        return True
    return False


def climb(state: State, ctx: Context, unit: Unit, to: Any) -> None:
    """An invader unit tries to scale the wall into ``to`` at the end of its move."""
    rule = "DR 2.5.3.1"
    board = board_for(state["map"])
    if unit["side"] != "invader":
        raise IllegalAction("only invader units scale walls", rule)
    here = unit["hex"]
    if not isinstance(to, str) or here is None or board.direction(here, to) is None:
        raise IllegalAction("climb into a hex next to the unit", rule)
    if side_key(here, to) not in board.walls or board.entrance(here, to) is not None:
        raise IllegalAction(f"no wall to climb between {here} and {to}", rule)
    if to in board.towers:
        raise IllegalAction("towers cannot be climbed into", rule)
    if unit.get("tried_entry"):
        raise IllegalAction(f"{unit['id']} already tried a climb or an entrance this turn", "DR 2.5.8")
    row = scaling_row(state, unit)
    if row.get("climb") is None:
        raise IllegalAction(f"a {unit['type']} cannot climb walls", "DR 2.5.8")
    if spec(unit).get("rules", {}).get("climbs_once_per_game") and unit["climbed"]:
        raise IllegalAction(f"{unit['id']} left its ladders behind: one climb per game", "DR 2.10.9")
    mp_left = body.walk_mp(unit) - unit["mp_used"] if is_major(unit) else int(spec(unit).get("mp") or 0) - unit["mp_used"]
    if mp_left < 1:
        raise IllegalAction("climbing needs at least 1 unused MP", rule)
    beyond = ground_units_at(state, to)
    if beyond and not all(u["side"] != unit["side"] and u["type"] in ("hero", "wizard", "invader_hero",
                                                                        "invader_wizard") for u in beyond):
        raise IllegalAction(f"{to} is occupied: there must be an empty hex beyond the wall (or one holding "
                            "only an enemy hero or wizard)", rule)
    if beyond and not all(_displacement(state, u, to) for u in beyond):
        raise IllegalAction(f"the hero or wizard in {to} has nowhere to step aside to", rule)
    if in_fog(state, to):
        raise IllegalAction("no climbing into fog", "DR 2.8.6")
    enemies_near = _defenders_adjacent(state, unit, to)
    if unit["type"] == "goblins" and enemies_near:
        raise IllegalAction("goblins cannot climb when enemies are next to the hex they climb into", "DR 2.5.8")
    unit["tried_entry"] = True
    unit["move_done"] = True
    if spec(unit).get("rules", {}).get("climbs_once_per_game"):
        unit["climbed"] = True
        unit["no_attack"] = True
    need = int(row["climb"])
    bonus = 0 if enemies_near else int(rules_data().rules["scaling"]["no_defender_adjacent_bonus"])
    if "climb_free" in row and not enemies_near:
        need, bonus = int(row["climb_free"]), 0
    roll = ctx.dice.d6(f"{unit['id']} scales the wall")
    ok = roll + bonus >= need
    ctx.emit("climb", f"{unit['id']} tries to scale the wall into {to}: {roll}{bonus:+d} needing {need}: "
                      f"{'over the wall' if ok else 'falls back'}", "DR 2.5.8", pieces=[unit["id"]], success=ok)
    if ok:
        for u in beyond:
            _step_aside(state, ctx, u, to, unit)
        unit["hex"] = to
        if is_major(unit):
            unit["facing"] = board.direction(here, to)
        _entered(state, ctx, unit, to)


def _displacement(state: State, character: Unit, from_: str) -> str | None:
    """Where a hero or wizard climbed onto steps aside: the first hex (direction order N, NE, ...)
    it could walk into now, empty or holding one friendly non-monster unit (DR 2.5.3.1; the
    defender's choice is automated)."""
    from simulator.games.dragon_rage.stacking import FREE, stack_status
    from simulator.games.dragon_rage.terrain_rules import step_block
    board = board_for(state["map"])
    for n in board.neighbours[from_]:
        if n is None or step_block(state, board, character, from_, n) is not None:
            continue
        if stack_status(state, character, n, in_tower=n in board.towers) == FREE:
            return n
    return None


def _step_aside(state: State, ctx: Context, character: Unit, from_: str, climber: Unit) -> None:
    to = _displacement(state, character, from_)
    character["hex"] = to
    ctx.emit("step_aside", f"{character['id']} steps aside from {from_} to {to} as {climber['id']} comes over "
                           "the wall", "DR 2.5.3.1", pieces=[character["id"], climber["id"]])


def _entered(state: State, ctx: Context, unit: Unit, hex_: str) -> None:
    from simulator.games.dragon_rage.arrival import entered_hex
    entered_hex(state, ctx, unit, hex_)


def _guarded(state: State, unit: Unit, beyond: str) -> bool:
    return any(u["side"] != unit["side"] for u in ground_units_at(state, beyond))


def smash(state: State, ctx: Context, unit: Unit, toward: Any, mp: Any) -> None:
    """Break the gate or door between the unit's hex and ``toward`` (DR 2.5.5.1, 2.5.5.2)."""
    board = board_for(state["map"])
    here = unit["hex"]
    if unit["side"] != "invader":
        raise IllegalAction("only the invader smashes entrances", "DR 2.5.5")
    if not isinstance(toward, str) or here is None or board.direction(here, toward) is None:
        raise IllegalAction("'toward' must be the hex beyond the entrance, next to the unit", "DR 2.5.5")
    ent = board.entrance(here, toward)
    if ent is None and side_key(here, toward) in board.walls and scaling_row(state, unit).get("wall") is not None \
            and state["map_name"] in rules_data().rules["scaling"].get("breachable_wall_maps", []):
        _breach(state, ctx, unit, side_key(here, toward), toward, int(scaling_row(state, unit)["wall"]))
        return
    if ent is None:
        raise IllegalAction(f"no gate or door between {here} and {toward}", "DR 2.5.5")
    info = state["entrances"][ent.key]
    if info["broken"]:
        raise IllegalAction(f"the entrance {ent.key} is already broken", "DR 2.5.5")
    guarded = _guarded(state, unit, toward)
    if is_major(unit):
        _monster_smash(state, ctx, unit, ent, toward, guarded, mp)
        return
    rule = "DR 2.5.5.2" if ent.is_gate else "DR 2.5.5.1"
    if unit.get("tried_entry"):
        raise IllegalAction(f"{unit['id']} already tried a climb or an entrance this turn", "DR 2.5.8")
    row = scaling_row(state, unit)
    column = "gate" if ent.is_gate else "door"
    need = row.get(column)
    if ent.is_gate and not guarded:
        used = int(spec(unit).get("mp") or 0) - unit["mp_used"]
        if used < 1:
            raise IllegalAction("breaking an unguarded gate costs 1 MP", rule)
        unit["mp_used"] += 1
        _broken(state, ctx, ent, unit, "1 MP against an unguarded gate", rule)
        return
    if need is None:
        raise IllegalAction(f"a {unit['type']} cannot break a {column}", "DR 2.5.8")
    unit["tried_entry"] = True
    unit["move_done"] = True
    if not guarded or need == 0:
        _broken(state, ctx, ent, unit, "no roll needed", rule)
        return
    roll = ctx.dice.two_d6(f"{unit['id']} smashes the {column}")
    ok = roll >= int(need)
    ctx.emit("smash", f"{unit['id']} batters the {column} {ent.key}: 2d6 {roll} needing {need}: "
                      f"{'broken' if ok else 'holds'}", "DR 2.5.8", pieces=[unit["id"]], success=ok)
    if ok:
        _broken(state, ctx, ent, unit, "", rule)


def _monster_smash(state: State, ctx: Context, unit: Unit, ent: Any, toward: str, guarded: bool, mp: Any) -> None:
    board = board_for(state["map"])
    if unit.get("berserk") and not unit.get("auto"):
        raise IllegalAction(f"{unit['id']} is berserk: it moves and attacks on its own", "DR 2.12.1.7.1")
    if board.neighbour(unit["hex"], unit["facing"]) != toward:
        raise IllegalAction(f"{unit['id']} must face the entrance it smashes", "DR 2.5.5")
    if unit["mode"] not in (None, "walk") or unit["flying"]:
        raise IllegalAction("a monster smashes entrances while walking", "DR 2.5.5")
    unit["mode"] = "walk"
    if not ent.is_gate:
        _broken(state, ctx, ent, unit, "a monster breaks a door just by facing it", "DR 2.5.5.1")
        return
    rule = "DR 2.5.5.2"
    left = body.walk_mp(unit) - unit["mp_used"]
    if body.walk_mp(unit) == 0:
        if unit.get("tried_entry"):
            raise IllegalAction("one attempt per turn", rule)
        unit["tried_entry"] = True
        if guarded:
            roll = ctx.dice.two_d6(f"{unit['id']} (legless) smashes a guarded gate")
            ok, need = roll >= 11, "11 on 2d6"
        else:
            roll = ctx.dice.d6(f"{unit['id']} (legless) smashes an unguarded gate")
            ok, need = roll >= 6, "6"
        ctx.emit("smash", f"{unit['id']} has no legs left and throws itself at the gate: {roll} needing {need}: "
                          f"{'broken' if ok else 'holds'}", rule, pieces=[unit["id"]], success=ok)
        if ok:
            _broken(state, ctx, ent, unit, "", rule)
        return
    if not isinstance(mp, int) or mp < 1 or mp > left:
        raise IllegalAction(f"spend between 1 and {left} MP on the gate ('mp')", rule)
    unit["mp_used"] += mp
    spent_mp_in_hex(state, ctx, unit, mp, "on the gate")     # MP spent in a VP hex take it (DR 2.3)
    if not guarded:
        _broken(state, ctx, ent, unit, "no defender behind it: 1 MP shatters it", rule)
        return
    roll = ctx.dice.d6(f"{unit['id']} smashes the gate with {mp} MP")
    ok = roll <= mp
    ctx.emit("smash", f"{unit['id']} spends {mp} MP on the gate {ent.key}: rolled {roll}, needing {mp} or less: "
                      f"{'broken' if ok else 'holds'}", rule, pieces=[unit["id"]], success=ok)
    if ok:
        _broken(state, ctx, ent, unit, "", rule)


def _breach(state: State, ctx: Context, unit: Unit, key: str, toward: str, need: int) -> None:
    """A sea serpent breaks a wooden wall as if it were a red gate (DR 2.11.2.2): 1 MP when no
    defender stands behind it, else 2d6 against the gate number at the end of its move."""
    rule = "DR 2.11.2.2"
    if key in state["broken_walls"]:
        raise IllegalAction(f"the wall {key} is already breached", rule)
    if unit.get("tried_entry"):
        raise IllegalAction(f"{unit['id']} already tried a climb or an entrance this turn", "DR 2.5.8")
    if not _guarded(state, unit, toward):
        if int(spec(unit).get("mp") or 0) - unit["mp_used"] < 1:
            raise IllegalAction("breaking an unguarded wall costs 1 MP", rule)
        unit["mp_used"] += 1
        ok, how = True, "1 MP, nobody behind it"
    else:
        unit["tried_entry"] = True
        unit["move_done"] = True
        roll = ctx.dice.two_d6(f"{unit['id']} batters the wall")
        ok, how = roll >= need, f"2d6 {roll} needing {need}"
    ctx.emit("smash", f"{unit['id']} batters the wooden wall {key}: {how}: {'breached' if ok else 'holds'}", rule,
             pieces=[unit["id"]], success=ok, hexside=key)
    if ok:
        state["broken_walls"].append(key)
        ctx.emit("wall_breached", f"the wall {key} is breached: giants and serpents may pass, attacks may cross",
                 rule, pieces=[unit["id"]], hexside=key)


def _broken(state: State, ctx: Context, ent: Any, unit: Unit, how: str, rule: str) -> None:
    break_entrance(state, ctx, ent, unit, how, rule)


def open_entrance(state: State, ctx: Context, unit: Unit, toward: Any) -> None:
    """A defender in a tower or behind a gate opens it to attack across (DR 2.5.5.3)."""
    rule = "DR 2.5.5.3"
    board = board_for(state["map"])
    if unit["side"] != "defender" or not state["phase"].endswith("melee"):
        raise IllegalAction("the defender opens an entrance in his melee phase", rule)
    here = unit["hex"]
    ent = board.entrance(here, toward) if isinstance(toward, str) and here else None
    if ent is None:
        raise IllegalAction("no entrance between the unit and that hex", rule)
    info = state["entrances"][ent.key]
    if info["broken"] or info["open"]:
        raise IllegalAction("that entrance is already open", rule)
    if ent.tower is None and info["controller"] != "defender":
        raise IllegalAction("the defender does not control that gate", "DR 2.5.5")
    info["open"] = True
    ctx.emit("entrance_opened", f"{unit['id']} opens {ent.key}: it stays open through the invader's next "
                                "player-turn", rule, pieces=[unit["id"]], hexside=ent.key)


def burn_bridge(state: State, ctx: Context, unit: Unit) -> None:
    """A troop unit on a wooden bridge starts wrecking it (DR 2.5.7.1)."""
    rule = "DR 2.5.7.1"
    hex_ = unit["hex"]
    if kind(unit) not in ("troop",):
        raise IllegalAction("only troop units burn bridges", rule)
    if state["bridges"].get(hex_) != "intact":
        raise IllegalAction(f"{hex_} is not an intact wooden bridge", rule)
    if unit["attacked"]:
        raise IllegalAction(f"{unit['id']} attacked this turn", rule)
    unit["no_attack"] = True
    unit["demolishing"] = hex_
    unit["demolish_turn"] = state["turn"]
    state["bridges"][hex_] = "broken"
    ctx.emit("bridge_broken", f"{unit['id']} starts to wreck bridge {hex_}; it falls when the unit moves off "
                              "next turn", rule, pieces=[unit["id"]], hex=hex_)


def ravage(state: State, ctx: Context, unit: Unit) -> None:
    """Troops occupying a VP hex destroy it instead of attacking (DR 2.3); sea serpents attack
    an empty shore VP hex next to them (DR 2.11.2)."""
    rule = "DR 2.3"
    if unit["side"] != "invader" or not state["phase"] == "invader_melee":
        raise IllegalAction("invader units destroy VP hexes in the invader melee phase", rule)
    if unit["type"] == "elowyn" or is_wizard(unit):
        raise IllegalAction(f"a {unit['type']} never destroys VP hexes (wizards only by spells)", "DR 2.10.6.1")
    if unit["attacked"] or unit.get("ravaged"):
        raise IllegalAction(f"{unit['id']} attacked this turn", rule)
    hex_ = unit["hex"]
    if not destroy_vp_possible(state, hex_):
        raise IllegalAction(f"{hex_} is not an intact VP hex", rule)
    if any(u["side"] != unit["side"] for u in ground_units_at(state, hex_)):
        raise IllegalAction(f"enemies share {hex_}", rule)
    unit["ravaged"] = True
    unit["attacked"] = True
    destroy_vp(state, ctx, hex_, f"{unit['id']} sacking it", rule, [unit["id"]])


def serpent_ravage(state: State, ctx: Context, unit: Unit, hex_: Any) -> None:
    rule = "DR 2.11.2"
    board = board_for(state["map"])
    if unit["type"] != "sea_serpent" or state["phase"] != "invader_melee":
        raise IllegalAction("a sea serpent attacks a shore VP hex in the invader melee phase", rule)
    if unit["attacked"]:
        raise IllegalAction(f"{unit['id']} attacked this turn", rule)
    if not isinstance(hex_, str) or board.direction(unit["hex"], hex_) is None:
        raise IllegalAction("the VP hex must be next to the serpent", rule)
    if side_key(unit["hex"], hex_) in board.walls and side_key(unit["hex"], hex_) not in state["broken_walls"]:
        raise IllegalAction("not across a wall (unless it is breached)", rule)
    if ground_units_at(state, hex_):
        raise IllegalAction("the hex must first be emptied by an attack", rule)
    if not destroy_vp_possible(state, hex_):
        raise IllegalAction(f"{hex_} is not an intact VP hex", rule)
    unit["attacked"] = True
    destroy_vp(state, ctx, hex_, f"{unit['id']} attacking the shore", rule, [unit["id"]])


def destroy_vp_possible(state: State, hex_: str | None) -> bool:
    return hex_ is not None and hex_ in board_for(state["map"]).vp and hex_ not in state["vp"]["destroyed"]
