"""Resolving Attacks, Panic tests, Condition tokens and destruction (digest §7, §11.4, §11.8, §11.9).

The order of steps follows digest §7 and the trigger windows of §10. The choices the rules give
a player inside an Attack (which dice the charge bonus rerolls, spending the enemy's Condition
tokens, using Lannister Supremacy) are asked as pending windows; the default offered first is the
obvious best play.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import modes, sides, space
from simulator.games.asoiaf.catalogue import Catalogue
from simulator.games.asoiaf.units import Unit, attack_dice, dice_value, effects, polygon, ranks_left, ranks_lost, wound

State = dict[str, Any]


def R(section: str, name: str) -> str:
    """A rule reference in this game's style."""
    return f'ASOIAF "{name}" ({section})'


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


def _panic_modifiers(state: State, cat: Catalogue, u: Unit, modifier: int) -> tuple[int, int]:
    """The 2D6 modifier (terrain, Iron Resolve) and the Wounds Iron Resolve saves on a fail."""
    eff = effects(cat, u)
    mod = modifier + space.morale_terrain_modifier(state, u)
    fewer = 0
    if "iron_resolve" in eff:
        mod += int(eff["iron_resolve"].get("panic_modifier", 1))
        fewer = int(eff["iron_resolve"].get("fewer_panic_wounds", 1))
    return mod, fewer


def _panic_outcome(state: State, ctx: Context, cat: Catalogue, u: Unit, d1: int, d2: int, d3: int, mod: int,
                   fewer: int, why: str, extra_on_fail: int) -> bool:
    total = morale_modifier_total(d1, d2, mod)
    rule = R("7.2", "Panic test")
    if total >= u["morale"]:
        ctx.emit("panic", f"{u['id']} passes a Panic test ({why}): {d1}+{d2}{mod:+d} = {total} vs {u['morale']}+",
                 rule, pieces=[u["id"]], unit=u["id"], passed=True, total=total)
        return True
    n = max(0, d3 - fewer) + extra_on_fail
    ctx.emit("panic", f"{u['id']} fails a Panic test ({why}): {d1}+{d2}{mod:+d} = {total} vs {u['morale']}+, "
             f"suffers {n} Wound(s)", rule, pieces=[u["id"]], unit=u["id"], passed=False, total=total, wounds=n)
    apply_wounds(state, ctx, cat, u, n, by_side=None, rule=rule)
    modes.on_failed_panic(state, ctx, u)
    return False


def panicked_default(passed: bool, d3: int) -> list[int]:
    """The dice the enemy most likely wants rerolled when spending a Panicked token (the first
    answer offered): the 2D6 of a pass (hoping for a fail); the D3 of a fail below 3 (hoping for
    more Wounds); nothing (keep the token) for a fail whose D3 is already 3."""
    if passed:
        return [0, 1]
    return [2] if d3 < 3 else []


def panic_test(state: State, ctx: Context, cat: Catalogue, u: Unit, modifier: int, why: str,
               extra_on_fail: int = 0) -> bool:
    """A Panic test outside an Attack: roll 2D6 + 1D3; fail = the D3 in Wounds (§7.2). Returns True
    on a pass. The roll of a Panicked unit, passed or failed, is not final: its enemy is asked
    (``panic_reroll`` window, answered with ``reroll``) whether to spend the token and which dice to
    reroll (§11.8: "after the unit rolls a Morale test", whatever the result); the test's outcome
    follows the answer (:func:`answer_panic`)."""
    if u.get("structure"):
        return True
    mod, fewer = _panic_modifiers(state, cat, u, modifier)
    d1, d2 = ctx.dice.d6(f"panic test of {u['id']}"), ctx.dice.d6(f"panic test of {u['id']}")
    d3 = ctx.dice.d3(f"panic wounds of {u['id']}")
    if "panicked" in u["conditions"]:
        enemy = sides.opponent(state, u["side"])
        rule = R("11.8", "Condition tokens")
        passed = morale_modifier_total(d1, d2, mod) >= u["morale"]
        ctx.emit("panic", f"{u['id']} rolls {d1}+{d2}{mod:+d} (D3 {d3}) for a Panic test ({why}): a "
                 f"{'pass' if passed else 'fail'} unless {enemy} spends its Panicked token", rule,
                 pieces=[u["id"]], unit=u["id"])
        state["pending"].append({"player": enemy, "window": "panic_reroll", "unit": u["id"], "dice": "panic",
                                 "why": why, "faces": [d1, d2, d3], "default": panicked_default(passed, d3),
                                 "mod": mod, "fewer": fewer, "extra": extra_on_fail, "rule": rule})
        return passed
    return _panic_outcome(state, ctx, cat, u, d1, d2, d3, mod, fewer, why, extra_on_fail)


def answer_panic(state: State, ctx: Context, cat: Catalogue, action: dict[str, Any]) -> None:
    """The enemy's answer to a Panicked unit's Panic roll outside an Attack: ``dice`` positions to
    reroll (0-1 the 2D6, 2 the D3; [] keeps the token), then the test's outcome (§7.2, §11.8)."""
    p = state["pending"][0]
    chosen = action.get("dice", p["default"])
    if not isinstance(chosen, list) or any(not isinstance(i, int) or isinstance(i, bool) or i not in (0, 1, 2)
                                           for i in chosen) or len(set(chosen)) != len(chosen):
        raise IllegalAction("dice must list die positions 0-1 (the 2D6) and 2 (the D3), each once", p["rule"])
    state["pending"].pop(0)
    u = state["units"][p["unit"]]
    if u["destroyed"]:
        return
    faces = list(p["faces"])
    if chosen and "panicked" in u["conditions"]:
        spend_condition(state, u, "panicked")
        for i in sorted(chosen):
            faces[i] = ctx.dice.d3(f"Panicked reroll of {u['id']}") if i == 2 \
                else ctx.dice.d6(f"Panicked reroll of {u['id']}")
        ctx.emit("condition", f"{p['player']} spends {u['id']}'s Panicked token: {p['faces']} -> {faces}", p["rule"],
                 pieces=[u["id"]], unit=u["id"], condition="panicked", dice=sorted(chosen), faces=faces)
    else:
        ctx.emit("reroll", f"{p['player']} keeps {u['id']}'s Panicked token", p["rule"], pieces=[u["id"]])
    _panic_outcome(state, ctx, cat, u, faces[0], faces[1], faces[2], p["mod"], p["fewer"], p["why"], p["extra"])


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
    for side in modes.beneficiaries(state, u, by_side):
        modes.add_vp(state, ctx, side, 1, f"{side} destroys {u['id']}", R("15.2", "Combat victory"))
    modes.on_destroyed(state, ctx, u, by_side, by_unit)


def _hits(faces: list[int], hit: int) -> list[bool]:
    """Natural 1 misses, natural 6 hits (§7 step 2)."""
    return [f == 6 or (f != 1 and f >= hit) for f in faces]


def _saves(faces: list[int], defense: int, mod: int) -> list[bool]:
    """Natural 6 blocks, natural 1 fails; a die never reads above 6 (§7 step 4, §11.9)."""
    return [f == 6 or (f != 1 and min(6, f + mod) >= defense) for f in faces]


# -- The Attack as a resumable sequence of steps (§7, §10) -----------------------------------------
# An Attack is kept in ``state["attack"]`` (plain data) and advanced step by step by
# :func:`run_attack`. Where a player may choose (the charge-bonus reroll, spending the enemy's
# Weakened / Vulnerable / Panicked token, using the Order Lannister Supremacy) the run stops with a
# pending window at the head of ``state["pending"]``; :func:`answer` records the choice and the
# run goes on. A choice with nothing to choose (no missed die to reroll, no token) is not asked.

def start_attack(state: State, ctx: Context, cat: Catalogue, att: Unit, dfn: Unit, spec: dict[str, Any],
                 attacker_card: dict[str, Any], defender_card: dict[str, Any]) -> None:
    """Open an Attack of ``att`` on ``dfn``; ``spec`` carries attack index and charge flags."""
    attack = att["attacks"][spec["attack"]]
    arc, _ = space.arc_of(dfn, polygon(att))
    kind = space.arc_kind(arc)
    bonus = {"flank": 1, "rear": 2}.get(kind, 0)
    # a card making the enemy lose its abilities: for the whole of this Attack, its after-Attack
    # effects included (11.3), so before the attacker's attack abilities are read; cleared when the
    # Attack is over (end_attack)
    lost = [enemy for card, enemy in ((attacker_card, dfn), (defender_card, att))
            if card.get("enemy_loses_abilities") and not enemy.get("structure")]
    for enemy in lost:
        enemy["abilities_lost"] = True
    aeff = effects(cat, att)
    keywords = {k for k in ("precision", "sundering", "vicious", "critical_blow") if k in aeff}
    keywords |= set(attacker_card.get("grant", []))
    wildfire = attack["name"] == "Wildfire" and "wildfire" in aeff
    if wildfire:
        keywords.add("vicious")
    state["attack"] = dict(spec, attacker=att["id"], defender=dfn["id"], step="countenance", bonus=bonus,
                           melee=attack["range"] == "melee", keywords=sorted(keywords), wildfire=wildfire,
                           ac=dict(attacker_card), dc=dict(defender_card), killed=False,
                           dice_value=dice_value(attacker_card, defender_card))
    ctx.emit("attack", f"{att['id']} attacks {dfn['id']} with {attack['name']} ({attack['range']}) "
             f"from its {space.arc_label(arc)}", R("7", "Resolving attacks"),
             pieces=[att["id"], dfn["id"]], attacker=att["id"], defender=dfn["id"], arc=arc)
    if bonus:
        ctx.emit("bonus", f"{kind} bonus: {dfn['id']} gets -{bonus} to Defense and Panic rolls",
                 R("7.1", "Combat bonuses"), pieces=[dfn["id"]])
    for enemy in lost:
        ctx.emit("abilities", f"{enemy['id']} loses its abilities (those of its attachment too) for this "
                 "Attack", R("11.5", "Loss of abilities"), pieces=[enemy["id"]], unit=enemy["id"])
    if state["attack"]["dice_value"]:
        both = {attacker_card.get("attack_dice_value"), defender_card.get("attack_dice_value")} >= {"highest",
                                                                                                   "lowest"}
        ctx.emit("card", f"{att['id']} uses its {state['attack']['dice_value']} Attack-dice value"
                 + (" (both the highest and the lowest apply: the lowest wins)" if both else ""),
                 R("11.9", "Modifiers to Attack dice"), pieces=[att["id"]], unit=att["id"])


def end_attack(state: State, rec: dict[str, Any]) -> None:
    """The Attack is over: abilities lost for it come back (§11.5)."""
    for uid in (rec["attacker"], rec["defender"]):
        state["units"][uid].pop("abilities_lost", None)


def _ask(state: State, player: str, window: str, **data: Any) -> None:
    state["pending"].insert(0, dict(data, player=player, window=window))


def _start_panic(rec: dict[str, Any], unit: str, modifier: int, why: str, then: str, extra: int = 0) -> None:
    rec["panic"] = {"unit": unit, "modifier": modifier, "why": why, "extra": extra, "then": then}
    rec["step"] = "panic_roll"


def run_attack(state: State, ctx: Context, cat: Catalogue) -> bool:
    """Advance the Attack in progress; True once it is complete (False: a choice is pending)."""
    rec = state["attack"]
    while True:
        if any(p["window"] in ("reroll", "order") for p in state["pending"]):
            return False
        att, dfn = state["units"][rec["attacker"]], state["units"][rec["defender"]]
        step = rec["step"]
        if step == "done":
            rec["killed"] = dfn["destroyed"]
            return True
        globals()["_step_" + step](state, ctx, cat, rec, att, dfn)


def _step_countenance(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    """Before resolving: the Pyromancers' Dreadful Countenance (§18.1)."""
    rec["step"] = "roll"
    if rec["melee"] and "dreadful_countenance" in effects(cat, dfn) and not att.get("structure"):
        _start_panic(rec, att["id"], -ranks_left(dfn), f"Dreadful Countenance of {dfn['id']}", "roll")


def _step_roll(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    """Steps 1-2: the Attack dice by ranks left, then the attacker's rerolls (charge bonus, card)."""
    if att["destroyed"]:
        rec["step"] = "done"
        return
    attack = att["attacks"][rec["attack"]]
    n = attack_dice(att, attack, rec.get("dice_value"))
    rec["hit"] = attack["hit"] - int(rec["ac"].get("hit_modifier", 0)) - int(rec["dc"].get("hit_modifier", 0))
    rec["faces"] = [ctx.dice.d6(f"attack dice of {att['id']}") for _ in range(n)]
    rec["step"] = "weakened"
    charge_bonus = rec.get("charge") and not rec.get("disordered") and not rec.get("difficult")
    misses = [i for i, good in enumerate(_hits(rec["faces"], rec["hit"])) if not good]
    if (charge_bonus or rec["ac"].get("reroll_misses")) and misses:
        why = "charge bonus" if charge_bonus else "Tactics card"
        _ask(state, att["side"], "reroll", dice="attack", why=why, faces=list(rec["faces"]), default=misses,
             unit=att["id"], rule=R("7.1", "Charge bonus") if charge_bonus else R("11.4", "Rerolls"))


def _step_weakened(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    """Step 3, the enemy's rerolls: it may spend the attacker's Weakened token (§11.8)."""
    rec["step"] = "defense"
    good = [i for i, ok in enumerate(_hits(rec["faces"], rec["hit"])) if ok]
    if "weakened" in att["conditions"] and good:
        _ask(state, dfn["side"], "reroll", dice="attack", why="Weakened", faces=list(rec["faces"]), default=good,
             unit=att["id"], rule=R("11.8", "Condition tokens"))


def _step_defense(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    """Step 4: one Defense die per hit; Precision sixes wound without a die (§7, §7.4)."""
    faces, kw = rec["faces"], set(rec["keywords"])
    hits = sum(_hits(faces, rec["hit"]))
    rec["misses"] = len(faces) - hits
    sixes = sum(1 for f in faces if f == 6)
    if "critical_blow" in kw and sixes:
        hits += sixes
    precise = min(sixes, hits) if "precision" in kw else 0
    ctx.emit("attack_roll", f"{att['id']} rolls {len(faces)} dice needing {rec['hit']}+: {faces} -> {hits} hit(s)",
             R("7", "Resolving attacks"), pieces=[att["id"]], faces=faces, hits=hits)
    rec["wounds"] = precise
    to_save = hits - precise
    rec["dfaces"] = []
    rec["step"] = "wounds"
    if precise:
        ctx.emit("precision", f"Precision: {precise} six(es) wound without Defense dice", R("7.4", "Precision"),
                 pieces=[dfn["id"]])
    if rec["wildfire"]:
        rec["wounds"] += to_save
        ctx.emit("defense", f"{dfn['id']} cannot roll Defense against Wildfire", R("18.1", "Wildfire"),
                 pieces=[dfn["id"]])
        return
    if to_save <= 0:
        return
    mod = -rec["bonus"] - (1 if "sundering" in kw else 0) + int(rec["dc"].get("defense_modifier", 0))
    if rec.get("fortified"):
        mod += 1
    rec["dmod"] = mod
    rec["dfaces"] = [ctx.dice.d6(f"defense dice of {dfn['id']}") for _ in range(to_save)]
    rec["step"] = "saves"
    good = [i for i, ok in enumerate(_saves(rec["dfaces"], dfn["defense"], mod)) if ok]
    if "vulnerable" in dfn["conditions"] and good:
        _ask(state, att["side"], "reroll", dice="defense", why="Vulnerable", faces=list(rec["dfaces"]), default=good,
             unit=dfn["id"], rule=R("11.8", "Condition tokens"))


def _step_saves(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    saved = sum(_saves(rec["dfaces"], dfn["defense"], rec["dmod"]))
    rec["wounds"] += len(rec["dfaces"]) - saved
    ctx.emit("defense", f"{dfn['id']} rolls {len(rec['dfaces'])} Defense dice needing {dfn['defense']}+ "
             f"({rec['dmod']:+d}): {rec['dfaces']} -> {saved} blocked", R("7", "Resolving attacks"),
             pieces=[dfn["id"]], faces=rec["dfaces"], blocked=saved)
    rec["step"] = "wounds"


def _step_wounds(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    """Steps 6-7: Wounds, Jaime's Retaliation, then the defender's Panic test."""
    apply_wounds(state, ctx, cat, dfn, rec["wounds"], att["side"], R("7", "Resolving attacks"), att["id"])
    if rec["melee"] and "counterstrike" in effects(cat, dfn) and rec["misses"] and not att["destroyed"]:
        automatic_hits(state, ctx, cat, att, rec["misses"], dfn["side"], f"Counterstrike of {dfn['id']}",
                       R("18.5", "Retaliation"))
    rec["step"] = "after"
    if dfn["destroyed"]:
        return
    if rec["wounds"] == 0:
        ctx.emit("panic", f"{dfn['id']} suffered no Wounds: it passes its Panic test automatically",
                 R("7", "Resolving attacks"), pieces=[dfn["id"]], unit=dfn["id"], passed=True)
        return
    pmod = -rec["bonus"] - (2 if "vicious" in rec["keywords"] else 0) + int(rec["dc"].get("panic_modifier", 0))
    extra = ranks_lost(att) if rec["ac"].get("ferocity") else 0
    _start_panic(rec, dfn["id"], pmod, f"after {att['id']}'s attack", "after", extra)


def _step_after(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    """Step 8, the attacker's effects first (§11.3): Wildfire's self-Wounds, Northern Ferocity."""
    rec["step"] = "supremacy"
    if rec["wildfire"] and not att["destroyed"]:
        ones = sum(1 for f in rec["faces"] if f == 1)
        if ones:
            apply_wounds(state, ctx, cat, att, ones, None, R("18.1", "Wildfire"))
    if rec["ac"].get("ferocity") and not att["destroyed"] and ranks_lost(att):
        apply_wounds(state, ctx, cat, att, ranks_lost(att), None, R("18.6", "Northern Ferocity"))
    if "lannister_supremacy" in effects(cat, dfn) and not dfn["destroyed"] and not att["destroyed"] \
            and not att.get("structure") and SUPREMACY not in dfn["orders_used"]:
        _ask(state, dfn["side"], "order", order=SUPREMACY, unit=dfn["id"], target=att["id"],
             rule=R("18.2", "Lannister Supremacy"))


SUPREMACY = "Order: Lannister Supremacy"


def _step_supremacy(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    """Then the defender's effects: Lannister Supremacy if its owner used it (§18.2)."""
    rec["step"] = "conditions"
    if rec.pop("use_order", False):
        dfn["orders_used"].append(SUPREMACY)
        r = ranks_left(dfn)
        ctx.emit("order", f"{dfn['id']} uses its Order Lannister Supremacy", R("18.2", "Lannister Supremacy"),
                 pieces=[dfn["id"], att["id"]])
        _start_panic(rec, att["id"], -r, f"Lannister Supremacy of {dfn['id']}", "conditions", r)


def _step_conditions(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    if rec["dc"].get("attacker_condition") and not att["destroyed"] and not att.get("structure"):
        give_condition(att, rec["dc"]["attacker_condition"], ctx, "Tactics card", R("9.3", "Tactics cards"))
    rec["friends"] = [] if rec["melee"] else [f["id"] for f in space.alive(state, att["side"])
                                              if f["id"] != att["id"] and not f.get("structure")
                                              and dfn in space.engaged_with(state, f)]
    rec["step"] = "shot_into_melee"


def _step_shot_into_melee(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit,
                          dfn: Unit) -> None:
    """Shooting into a melee: each friend engaged with the target tests after the Attack (§6.5.1)."""
    rec["step"] = "done"
    while rec["friends"] and not dfn["destroyed"]:
        fid = rec["friends"].pop(0)
        f = state["units"][fid]
        if not f["destroyed"] and dfn in space.engaged_with(state, f):
            _start_panic(rec, fid, 0, f"{att['id']} shot into its melee", "shot_into_melee")
            return


def _step_panic_roll(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    """A Panic test inside the Attack: 2D6 + 1D3; the roll (pass or fail) may be rerolled by the
    enemy's Panicked spend (§11.8)."""
    p = rec["panic"]
    u = state["units"][p["unit"]]
    rec["step"] = "panic_result"
    if u["destroyed"]:
        p["skip"] = True
        return
    mod, fewer = _panic_modifiers(state, cat, u, p["modifier"])
    p["mod"], p["fewer"] = mod, fewer
    p["dice"] = [ctx.dice.d6(f"panic test of {u['id']}"), ctx.dice.d6(f"panic test of {u['id']}"),
                 ctx.dice.d3(f"panic wounds of {u['id']}")]
    if "panicked" in u["conditions"]:     # passed or failed: the token's trigger is the roll (§11.8)
        enemy = att["side"] if sides.friendly(state, u["side"], dfn["side"]) else dfn["side"]
        passed = morale_modifier_total(p["dice"][0], p["dice"][1], mod) >= u["morale"]
        _ask(state, enemy, "reroll", dice="panic", why="Panicked", faces=list(p["dice"]),
             default=panicked_default(passed, p["dice"][2]), unit=u["id"], rule=R("11.8", "Condition tokens"))


def _step_panic_result(state: State, ctx: Context, cat: Catalogue, rec: dict[str, Any], att: Unit, dfn: Unit) -> None:
    p = rec.pop("panic")
    rec["step"] = p["then"]
    if p.get("skip"):
        return
    u = state["units"][p["unit"]]
    d1, d2, d3 = p["dice"]
    _panic_outcome(state, ctx, cat, u, d1, d2, d3, p["mod"], p["fewer"], p["why"], p["extra"])


def answer(state: State, ctx: Context, action: dict[str, Any]) -> None:
    """A player's answer to a pending ``reroll`` or ``order`` window of the Attack in progress."""
    p = state["pending"][0]
    rec = state["attack"]
    if p["window"] == "order":
        rec["use_order"] = bool(action.get("use", True))
        if not rec["use_order"]:
            ctx.emit("order", f"{p['unit']} does not use {p['order']}", p["rule"], pieces=[p["unit"]])
        state["pending"].pop(0)
        return
    chosen = action.get("dice", p["default"])
    if not isinstance(chosen, list) or any(not isinstance(i, int) or isinstance(i, bool) for i in chosen):
        raise IllegalAction("dice must be a list of die positions (0 = the first die)", p["rule"])
    faces = p["faces"]
    allowed = set(range(len(faces)))
    if p["dice"] == "panic":
        allowed = {0, 1, 2}
    elif p["why"] in ("charge bonus", "Tactics card"):
        allowed = set(range(len(faces)))
    bad = [i for i in chosen if i not in allowed]
    if bad or len(set(chosen)) != len(chosen):
        raise IllegalAction(f"die positions {bad or chosen} are not dice of this roll (0 to {len(faces) - 1}, "
                            "each once)", p["rule"])
    state["pending"].pop(0)
    unit = state["units"][p["unit"]]
    if not chosen:
        ctx.emit("reroll", f"{p['player']} rerolls nothing ({p['why']})", p["rule"], pieces=[unit["id"]])
        return
    if p["why"] in ("Weakened", "Vulnerable", "Panicked"):
        spend_condition(state, unit, p["why"].lower())
    new = list(faces)
    for i in sorted(chosen):
        new[i] = ctx.dice.d3(f"{p['why']} reroll of {unit['id']}") if p["dice"] == "panic" and i == 2 \
            else ctx.dice.d6(f"{p['why']} reroll of {unit['id']}")
    if p["dice"] == "attack":
        rec["faces"] = new
    elif p["dice"] == "defense":
        rec["dfaces"] = new
    else:
        rec["panic"]["dice"] = new
    spent = f"spends {unit['id']}'s {p['why']} token: " if p["why"] in ("Weakened", "Vulnerable", "Panicked") else ""
    ctx.emit("reroll" if not spent else "condition",
             f"{p['player']} {spent}rerolls {len(chosen)} {p['dice']} dice ({p['why']}): {faces} -> {new}",
             p["rule"], pieces=[unit["id"]], unit=unit["id"], dice=sorted(chosen), faces=new,
             **({"condition": p["why"].lower()} if spent else {}))


def automatic_hits(state: State, ctx: Context, cat: Catalogue, u: Unit, n: int, by_side: str | None,
                   why: str, rule: str) -> None:
    """Hits without an Attack roll: the unit still rolls Defense (§2 "Hit")."""
    faces = [ctx.dice.d6(f"defense dice of {u['id']} against {why}") for _ in range(n)]
    saved = sum(_saves(faces, u["defense"], 0))
    ctx.emit("hits", f"{u['id']} suffers {n} hit(s) from {why}: Defense {faces} blocks {saved}", rule,
             pieces=[u["id"]], unit=u["id"], hits=n, blocked=saved)
    apply_wounds(state, ctx, cat, u, n - saved, by_side, rule)
