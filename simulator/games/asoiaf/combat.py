"""Resolving Attacks, Panic tests, Condition tokens and destruction (digest §7, §11.4, §11.8, §11.9).

The order of steps follows digest §7 and the trigger windows of §10. Optional choices that
the rules give a player inside an Attack are decided here by the obvious best play (see
docs/asoiaf.md "Automatic choices"): the charge bonus rerolls every missed die, and a
Condition token is spent by its enemy whenever it can change the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.core.game import Context
from simulator.games.asoiaf import modes, space
from simulator.games.asoiaf.catalogue import Catalogue
from simulator.games.asoiaf.units import Unit, effects, polygon, ranks_left, ranks_lost, wound, attack_dice

State = dict[str, Any]


def R(section: str, name: str) -> str:
    """A rule reference in this game's style."""
    return f'ASOIAF "{name}" ({section})'


@dataclass
class AttackSpec:
    """Everything that shapes one Attack besides the two units."""

    attack: int
    charge: bool = False
    disordered: bool = False
    difficult: bool = False          # the charge crossed or ended in Difficult terrain
    fortified: bool = False          # the charge crossed or ended in Fortified terrain
    attacker_card: dict[str, Any] = field(default_factory=dict)
    defender_card: dict[str, Any] = field(default_factory=dict)


def spend_condition(state: State, u: Unit, token: str) -> bool:
    if token in u["conditions"]:
        u["conditions"].remove(token)
        return True
    return False


def give_condition(u: Unit, token: str, ctx: Context, source: str, rule: str) -> None:
    """A unit carries at most one token of each type (§11.8)."""
    if token in u["conditions"]:
        ctx.emit("condition", f"{u['id']} already carries {token}; no second token", rule, pieces=[u["id"]])
        return
    u["conditions"].append(token)
    ctx.emit("condition", f"{u['id']} receives a {token} token ({source})", rule, pieces=[u["id"]],
             unit=u["id"], condition=token)


def morale_modifier_total(d1: int, d2: int, mod: int) -> int:
    """Modified 2D6 total, never below 0 (§11.9)."""
    return max(0, d1 + d2 + mod)


def panic_test(state: State, ctx: Context, cat: Catalogue, u: Unit, modifier: int, why: str,
               extra_on_fail: int = 0) -> bool:
    """Roll 2D6 + 1D3; fail = the D3 in Wounds (§7.2). Returns True on a pass."""
    eff = effects(cat, u)
    mod = modifier + space.morale_terrain_modifier(state, u)
    fewer = 0
    if "iron_resolve" in eff:
        mod += int(eff["iron_resolve"].get("panic_modifier", 1))
        fewer = int(eff["iron_resolve"].get("fewer_panic_wounds", 1))
    d1, d2 = ctx.dice.d6(f"panic test of {u['id']}"), ctx.dice.d6(f"panic test of {u['id']}")
    d3 = ctx.dice.d3(f"panic wounds of {u['id']}")
    total = morale_modifier_total(d1, d2, mod)
    passed = total >= u["morale"]
    if passed and "panicked" in u["conditions"]:
        spend_condition(state, u, "panicked")
        d1, d2 = ctx.dice.d6(f"panicked reroll of {u['id']}"), ctx.dice.d6(f"panicked reroll of {u['id']}")
        total = morale_modifier_total(d1, d2, mod)
        passed = total >= u["morale"]
        ctx.emit("condition", f"the enemy spends {u['id']}'s Panicked token: the test is rerolled ({d1}+{d2})",
                 R("11.8", "Condition tokens"), pieces=[u["id"]], unit=u["id"], condition="panicked")
    rule = R("7.2", "Panic test")
    if passed:
        ctx.emit("panic", f"{u['id']} passes a Panic test ({why}): {d1}+{d2}{mod:+d} = {total} vs {u['morale']}+",
                 rule, pieces=[u["id"]], unit=u["id"], passed=True, total=total)
        return True
    n = max(0, d3 - fewer) + extra_on_fail
    ctx.emit("panic", f"{u['id']} fails a Panic test ({why}): {d1}+{d2}{mod:+d} = {total} vs {u['morale']}+, "
             f"suffers {n} Wound(s)", rule, pieces=[u["id"]], unit=u["id"], passed=False, total=total, wounds=n)
    apply_wounds(state, ctx, cat, u, n, by_side=None, rule=rule)
    modes.on_failed_panic(state, ctx, u)
    return False


def apply_wounds(state: State, ctx: Context, cat: Catalogue, u: Unit, n: int, by_side: str | None,
                 rule: str, by_unit: str | None = None) -> None:
    """Remove figures; on destruction score Combat victory and mode VP (§15.2)."""
    if n <= 0 or u["destroyed"]:
        return
    lost = wound(u, n)
    ctx.emit("wounds", f"{u['id']} suffers {n} Wound(s), {lost} figure(s) removed, "
             f"{ranks_left(u)} rank(s) left", rule, pieces=[u["id"]], unit=u["id"], wounds=n, figures=u["figures"])
    if u["destroyed"]:
        destroyed(state, ctx, u, by_side, by_unit)


def destroyed(state: State, ctx: Context, u: Unit, by_side: str | None, by_unit: str | None) -> None:
    ctx.emit("destroyed", f"{u['id']} ({u['name']}) is destroyed", R("4.1", "Losing ranks"),
             pieces=[u["id"]], unit=u["id"])
    u["conditions"] = []
    u["influence"] = {}
    scorers = [by_side] if by_side and by_side != u["side"] else [p for p in state["players"] if p != u["side"]]
    for side in scorers:
        modes.add_vp(state, ctx, side, 1, f"{side} destroys {u['id']}", R("15.2", "Combat victory"))
    modes.on_destroyed(state, ctx, u, by_side, by_unit)


def _hits(faces: list[int], hit: int) -> list[bool]:
    """Natural 1 misses, natural 6 hits (§7 step 2)."""
    return [f == 6 or (f != 1 and f >= hit) for f in faces]


def _saves(faces: list[int], defense: int, mod: int) -> list[bool]:
    """Natural 6 blocks, natural 1 fails; a die never reads above 6 (§7 step 4, §11.9)."""
    return [f == 6 or (f != 1 and min(6, f + mod) >= defense) for f in faces]


def resolve_attack(state: State, ctx: Context, cat: Catalogue, att: Unit, dfn: Unit, spec: AttackSpec) -> bool:
    """Resolve one Attack (§7). Returns True if the defender was destroyed by it."""
    attack = att["attacks"][spec.attack]
    melee = attack["range"] == "melee"
    aeff, deff = effects(cat, att), effects(cat, dfn)
    arc, _ = space.arc_of(dfn, polygon(att))
    kind = space.arc_kind(arc)
    bonus = {"flank": 1, "rear": 2}.get(kind, 0)
    ac, dc = spec.attacker_card, spec.defender_card
    ctx.emit("attack", f"{att['id']} attacks {dfn['id']} with {attack['name']} ({attack['range']}) "
             f"from its {space.arc_label(arc)}", R("7", "Resolving attacks"),
             pieces=[att["id"], dfn["id"]], attacker=att["id"], defender=dfn["id"], arc=arc)
    if bonus:
        ctx.emit("bonus", f"{kind} bonus: {dfn['id']} gets -{bonus} to Defense and Panic rolls",
                 R("7.1", "Combat bonuses"), pieces=[dfn["id"]])

    # Before resolving: the Pyromancers' Dreadful Countenance (§18.1).
    if melee and "dreadful_countenance" in deff:
        panic_test(state, ctx, cat, att, -ranks_left(dfn), f"Dreadful Countenance of {dfn['id']}")
        if att["destroyed"]:
            return False

    keywords = {k for k in ("precision", "sundering", "vicious", "critical_blow") if k in aeff}
    keywords |= set(ac.get("grant", []))
    wildfire = attack["name"] == "Wildfire" and "wildfire" in aeff
    no_defense = wildfire
    if wildfire:
        keywords.add("vicious")

    # 1-2. Attack dice.
    n = attack_dice(att, attack)
    hit = attack["hit"] - int(ac.get("hit_modifier", 0)) - int(dc.get("hit_modifier", 0))
    faces = [ctx.dice.d6(f"attack dice of {att['id']}") for _ in range(n)]
    # 3. Rerolls: attacker first (charge bonus / card), then the defender's side (Weakened).
    charge_bonus = spec.charge and not spec.disordered and not spec.difficult
    if charge_bonus or ac.get("reroll_misses"):
        ok = _hits(faces, hit)
        redo = [i for i, good in enumerate(ok) if not good]
        for i in redo:
            faces[i] = ctx.dice.d6(f"reroll of a missed attack die of {att['id']}")
        if redo:
            why = "charge bonus" if charge_bonus else "Tactics card"
            ctx.emit("reroll", f"{att['id']} rerolls {len(redo)} missed die/dice ({why})",
                     R("7.1", "Charge bonus") if charge_bonus else R("11.4", "Rerolls"), pieces=[att["id"]])
    if "weakened" in att["conditions"] and any(_hits(faces, hit)):
        spend_condition(state, att, "weakened")
        for i, good in enumerate(_hits(faces, hit)):
            if good:
                faces[i] = ctx.dice.d6(f"weakened reroll of {att['id']}")
        ctx.emit("condition", f"the enemy spends {att['id']}'s Weakened token: its hits are rerolled",
                 R("11.8", "Condition tokens"), pieces=[att["id"]], unit=att["id"], condition="weakened")
    ok = _hits(faces, hit)
    hits = sum(ok)
    misses = n - hits
    sixes = sum(1 for f in faces if f == 6)
    if "critical_blow" in keywords and sixes:
        hits += sixes
    precise = min(sixes, hits) if "precision" in keywords else 0
    ctx.emit("attack_roll", f"{att['id']} rolls {n} dice needing {hit}+: {faces} -> {hits} hit(s)",
             R("7", "Resolving attacks"), pieces=[att["id"]], faces=faces, hits=hits)

    # 4-5. Defense dice.
    wounds = precise
    to_save = hits - precise
    if no_defense:
        wounds += to_save
        ctx.emit("defense", f"{dfn['id']} cannot roll Defense against {attack['name']}", R("18.1", "Wildfire"),
                 pieces=[dfn["id"]])
    elif to_save > 0:
        mod = -bonus - (1 if "sundering" in keywords else 0) + int(dc.get("defense_modifier", 0))
        if spec.fortified:
            mod += 1
        dfaces = [ctx.dice.d6(f"defense dice of {dfn['id']}") for _ in range(to_save)]
        if "vulnerable" in dfn["conditions"] and any(_saves(dfaces, dfn["defense"], mod)):
            spend_condition(state, dfn, "vulnerable")
            for i, good in enumerate(_saves(dfaces, dfn["defense"], mod)):
                if good:
                    dfaces[i] = ctx.dice.d6(f"vulnerable reroll of {dfn['id']}")
            ctx.emit("condition", f"the enemy spends {dfn['id']}'s Vulnerable token: its saves are rerolled",
                     R("11.8", "Condition tokens"), pieces=[dfn["id"]], unit=dfn["id"], condition="vulnerable")
        saved = sum(_saves(dfaces, dfn["defense"], mod))
        wounds += to_save - saved
        ctx.emit("defense", f"{dfn['id']} rolls {to_save} Defense dice needing {dfn['defense']}+ ({mod:+d}): "
                 f"{dfaces} -> {saved} blocked", R("7", "Resolving attacks"), pieces=[dfn["id"]],
                 faces=dfaces, blocked=saved)
    if precise:
        ctx.emit("precision", f"Precision: {precise} six(es) wound without Defense dice", R("7.4", "Precision"),
                 pieces=[dfn["id"]])

    # 6. Wounds.
    apply_wounds(state, ctx, cat, dfn, wounds, att["side"], R("7", "Resolving attacks"), att["id"])

    # Jaime's Retaliation / Counterstrike: one automatic hit per miss (§18.5).
    if melee and "counterstrike" in deff and misses and not att["destroyed"]:
        automatic_hits(state, ctx, cat, att, misses, dfn["side"], f"Counterstrike of {dfn['id']}",
                       R("18.5", "Retaliation"))

    # 7. Panic test of the defender.
    if not dfn["destroyed"]:
        if wounds == 0:
            ctx.emit("panic", f"{dfn['id']} suffered no Wounds: it passes its Panic test automatically",
                     R("7", "Resolving attacks"), pieces=[dfn["id"]], unit=dfn["id"], passed=True)
        else:
            pmod = -bonus - (2 if "vicious" in keywords else 0) + int(dc.get("panic_modifier", 0))
            extra = ranks_lost(att) if ac.get("ferocity") else 0
            panic_test(state, ctx, cat, dfn, pmod, f"after {att['id']}'s attack", extra_on_fail=extra)

    # 8. Attack completed.
    if wildfire and not att["destroyed"]:
        ones = sum(1 for f in faces if f == 1)
        if ones:
            apply_wounds(state, ctx, cat, att, ones, None, R("18.1", "Wildfire"))
    if ac.get("ferocity") and not att["destroyed"] and ranks_lost(att):
        apply_wounds(state, ctx, cat, att, ranks_lost(att), None, R("18.6", "Northern Ferocity"))
    if "lannister_supremacy" in deff and not dfn["destroyed"] and not att["destroyed"] \
            and "Order: Lannister Supremacy" not in dfn["orders_used"]:
        dfn["orders_used"].append("Order: Lannister Supremacy")
        r = ranks_left(dfn)
        ctx.emit("order", f"{dfn['id']} uses its Order Lannister Supremacy", R("18.2", "Lannister Supremacy"),
                 pieces=[dfn["id"], att["id"]])
        panic_test(state, ctx, cat, att, -r, f"Lannister Supremacy of {dfn['id']}", extra_on_fail=r)
    if dc.get("attacker_condition") and not att["destroyed"]:
        give_condition(att, dc["attacker_condition"], ctx, "Tactics card", R("9.3", "Tactics cards"))
    if not melee:
        for friend in space.alive(state, att["side"]):
            if dfn["destroyed"]:
                break
            if friend["id"] != att["id"] and dfn in space.engaged_with(state, friend):
                panic_test(state, ctx, cat, friend, 0, f"{att['id']} shot into its melee")
    return dfn["destroyed"]


def automatic_hits(state: State, ctx: Context, cat: Catalogue, u: Unit, n: int, by_side: str | None,
                   why: str, rule: str) -> None:
    """Hits without an Attack roll: the unit still rolls Defense (§2 "Hit")."""
    faces = [ctx.dice.d6(f"defense dice of {u['id']} against {why}") for _ in range(n)]
    saved = sum(_saves(faces, u["defense"], 0))
    ctx.emit("hits", f"{u['id']} suffers {n} hit(s) from {why}: Defense {faces} blocks {saved}", rule,
             pieces=[u["id"]], unit=u["id"], hits=n, blocked=saved)
    apply_wounds(state, ctx, cat, u, n - saved, by_side, rule)
