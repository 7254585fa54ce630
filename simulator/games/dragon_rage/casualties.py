"""Losses: destroying units, wounding heroes, escape rolls, monster damage and death.

Heroes and Elowyn are wounded the first time they would die (DR 2.10.5.3, 2.10.7); a dead
major monster collapses, crushing whoever fails to escape, destroying the hex's VP and
leaving the hex impassable (DR 2.12.1.8); a young dragon's death marks its killers as
dragon-slayers (DR 2.12.2.3).
"""

from __future__ import annotations

from simulator.core.game import Context
from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.units import State, Unit, escape_number, is_major, is_minor, spec, units_at
from simulator.games.dragon_rage.victory import adjust_vp, check_instant_victory, destroy_vp


def eliminate(state: State, ctx: Context, unit: Unit, why: str, rule: str) -> None:
    """A unit is destroyed (heroes and Elowyn are wounded first)."""
    if not unit["alive"]:
        return
    if spec(unit).get("rules", {}).get("wounds_before_death") and not unit["wounded"]:
        unit["wounded"] = True
        ctx.emit("wounded", f"{unit['id']} is wounded instead of destroyed ({why})",
                 "DR 2.10.5.3" if unit["type"] != "elowyn" else "DR 2.10.7", pieces=[unit["id"]])
        return
    unit["alive"] = False
    where = unit["hex"]
    ctx.emit("destroyed", f"{unit['id']} is destroyed ({why})", rule, pieces=[unit["id"]], hex=where)
    if unit.get("escorting"):
        from simulator.games.dragon_rage.escort import escort_died
        escort_died(state, ctx, unit)
    if unit["type"] == "elowyn":
        if unit.get("escort") in state["units"]:
            state["units"][unit["escort"]]["escorting"] = None
        if (state["elowyn"] or {}).get("escort_variant"):
            adjust_vp(state, ctx, 2, "Elowyn has died in the orcs' hands", "DR 2.10.7")
        elif state["map_name"] == "nurkott":
            if not unit.get("captive"):
                adjust_vp(state, ctx, -2, "Elowyn died after being freed", "DR 2.10.7")
        else:
            adjust_vp(state, ctx, 2, "Elowyn has died", "DR 2.10.7")
        state["elowyn"]["status"] = "dead"
    if unit["type"] in ("hero", "invader_hero"):
        _check_demoralised(state, ctx, unit["side"])
    from simulator.games.dragon_rage.elementals import free
    for el in list(state["units"].values()):
        if el["alive"] and el.get("summoner") == unit["id"] and el.get("controlled"):
            free(state, ctx, el, "its summoner is gone")
    check_instant_victory(state, ctx)


def _check_demoralised(state: State, ctx: Context, side: str) -> None:
    heroes = [u for u in state["units"].values()
              if u["alive"] and u["side"] == side and u["type"] in ("hero", "invader_hero")]
    if state["had_heroes"][side] and not heroes:
        ctx.emit("demoralised", f"every {side} hero is dead: {side} units must pass a morale check "
                                "before attacking a monster", "DR 2.10.5.5")


def demoralised(state: State, side: str) -> bool:
    return state["had_heroes"][side] and not any(
        u["alive"] and u["side"] == side and u["type"] in ("hero", "invader_hero") for u in state["units"].values())


def escape_roll(state: State, ctx: Context, unit: Unit, bonus: int, why: str, rule: str) -> bool:
    """1d6 + bonus >= escape number, or the unit is destroyed; engines without one always die."""
    need = escape_number(unit)
    if need is None:
        eliminate(state, ctx, unit, f"{why}; it has no escape number", rule)
        return False
    roll = ctx.dice.d6(f"escape of {unit['id']} ({why})")
    if unit.get("boosted"):
        bonus += 1
    ok = roll + bonus >= need
    ctx.emit("escape", f"{unit['id']} rolls {roll}{bonus:+d} against escape {need}: "
                       f"{'escapes' if ok else 'fails'}", rule, pieces=[unit["id"]], roll=roll, need=need)
    if not ok:
        eliminate(state, ctx, unit, why, rule)
    return ok


def damage_monster(state: State, ctx: Context, monster: Unit, area: str, points: int, source: list[str],
                   rule: str) -> None:
    """Damage a major monster's area or a minor monster, with every consequence."""
    if not monster["alive"] or points <= 0:
        return
    if is_minor(monster):
        monster["damage_taken"] += points
        hp = int(spec(monster)["hp"])
        ctx.emit("monster_damaged", f"{monster['id']} takes {points} damage "
                                    f"({max(0, hp - monster['damage_taken'])} of {hp} left)", rule,
                 pieces=[monster["id"], *source], points=points)
        if monster["damage_taken"] >= hp:
            monster["alive"] = False
            ctx.emit("destroyed", f"{monster['id']} dies and is removed", "DR 2.11", pieces=[monster["id"]])
            check_instant_victory(state, ctx)
        return
    if not is_major(monster):
        return
    was = {a: body.area_destroyed(monster, a) for a in monster["damage"]}
    wings_before = body.wings_intact(monster)
    taken = body.apply_damage(monster, area, points)
    if monster["type"] == "young_dragon":
        for s in source:
            if s not in monster["damaged_by"]:
                monster["damaged_by"].append(s)
    ctx.emit("monster_damaged", f"{monster['id']} takes {taken} damage to the {area}", rule,
             pieces=[monster["id"], *source], area=area, points=taken)
    after_damage(state, ctx, monster, was, wings_before)


def after_damage(state: State, ctx: Context, monster: Unit, was: dict[str, bool], wings_before: bool) -> None:
    """Effects of newly destroyed areas and groups (DR 2.12.1.7)."""
    if body.is_dead(monster):
        kill_monster(state, ctx, monster, "its belly is destroyed", "DR 2.12.1.7.4")
        return
    if "head" in monster["damage"] and body.area_destroyed(monster, "head") and not was.get("head"):
        monster["berserk"] = True
        monster["breaths_left"] = 0
        ctx.emit("berserk", f"{monster['id']} loses its head area: no more fire, it goes berserk",
                 "DR 2.12.1.7.1", pieces=[monster["id"]])
        if monster["type"] == "young_dragon":
            _mark_slayers(state, ctx, monster)
    if monster.get("flying") and wings_before and not body.wings_intact(monster):
        from simulator.games.dragon_rage.monster_moves import crash
        crash(state, ctx, monster, monster["hex"], "a wing group is destroyed in flight")


def kill_monster(state: State, ctx: Context, monster: Unit, why: str, rule: str) -> None:
    """A major monster dies: it collapses in its hex (DR 2.12.1.8)."""
    if not monster["alive"]:
        return
    monster["alive"] = False
    where = monster["hex"]
    ctx.emit("destroyed", f"{monster['id']} dies ({why}) and collapses in {where}", rule,
             pieces=[monster["id"]], hex=where)
    if monster["type"] == "young_dragon":
        _mark_slayers(state, ctx, monster)
    if where is not None:
        for other in units_at(state, where):
            if other["id"] != monster["id"] and not other.get("flying"):
                escape_roll(state, ctx, other, 0, f"crushed by the falling {monster['type']}", "DR 2.12.1.8")
        if where not in state["impassable"]:
            state["impassable"].append(where)
        destroy_vp(state, ctx, where, f"the fall of {monster['id']}", "DR 2.12.1.8", [monster["id"]])
    check_instant_victory(state, ctx)


def _mark_slayers(state: State, ctx: Context, young: Unit) -> None:
    """Units that damaged the young dragon this turn become dragon-slayers (DR 2.12.2.3)."""
    for uid in young["damaged_by"]:
        u = state["units"].get(uid)
        if u is not None and u["alive"] and not u["slayer"]:
            u["slayer"] = True
            ctx.emit("dragon_slayer", f"{uid} is marked as a dragon-slayer", "DR 2.12.2.3", pieces=[uid])
