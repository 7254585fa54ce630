"""The melee rules of Viking Age heroes (SAGA p.42-45, data/swords.yaml): Sven Forkbeard's
Vengeful and Conqueror of England, Ivo Taillefer's Expert Rider.

The other hero rules live where they act: dice counts in ``board.py``, armour and fatigue in
``units.py``/``setup.py``, We Obey and the Song of Roland in ``rules.py``.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context
from simulator.games.saga import board
from simulator.games.saga import catalogue as cat
from simulator.games.saga import melee as melee_mod
from simulator.games.saga.units import EPS, figure_array, hero_spec, unit_gap, warlord
from simulator.geometry.table import circle_gaps

State = dict[str, Any]


def vengeful(state: State, ctx: Context) -> None:
    """Sven's Vengeful (SAGA p.45): at the start of step 3 he gains one attack die per enemy figure
    within VS of him. The dice are an ability-step bonus, so the doubling cap applies (SAGA p.22)."""
    m = state["melee"]
    for uid in list(m["sides"]):
        unit = state["units"][uid]
        if unit["cls"] != "warlord" or not unit.get("hero") or not unit["figures"]:
            continue
        if not cat.swords()["heroes"][unit["hero"]].get("vengeful"):
            continue
        foes = [f for e in melee_mod.foes(m, uid) for f in state["units"][e]["figures"]]
        near = int((circle_gaps(figure_array(state, unit["figures"]), figure_array(state, foes))
                    <= cat.inches("VS") + EPS).any(axis=0).sum()) if foes else 0
        if near:
            m["sides"][uid]["attack"] += near
            ctx.emit("hero", f"Vengeful: {unit['name']} gains {near} attack dice (enemy figures within VS)",
                     "SAGA p.45", pieces=list(unit["figures"]), unit=uid, dice=near)


def _step3_unit(state: State, player: str, for_unit: Any, rule: str) -> str:
    m = state["melee"]
    if m is None or not m["step"].startswith("abilities") or state["active"] != player \
            or player not in m["players"].values():
        raise IllegalAction("only in your part of melee step 3", rule)
    return melee_mod.unit_of(state, player, for_unit)


def conqueror_problem(state: State, player: str, uid: str) -> str | None:
    """Why unit ``uid`` may not use Sven's Conqueror of England now, or None."""
    spec = hero_spec(state, player).get("conqueror")
    sven = warlord(state, player)
    if not spec or sven is None:
        return "only a warband of Sven Forkbeard, alive, has Conqueror of England"
    side = state["melee"]["sides"][uid]
    if side.get("conqueror"):
        return "a unit gains Conqueror of England's armour once per melee"
    if uid != sven["id"] and unit_gap(state, uid, sven["id"]) > cat.inches(spec["range"]) + EPS:
        return f"{state['units'][uid]['name']} is not within {spec['range']} of Sven"
    if side["attack"] < spec["attack_dice"]:
        return f"{spec['attack_dice']} attack dice are needed"
    return None


def conqueror(state: State, player: str, action: Action, ctx: Context) -> None:
    """Sven's Conqueror of England (SAGA p.45): a friendly unit within S of Sven discards 3 attack
    dice in step 3 for +1 armour, once per melee."""
    uid = _step3_unit(state, player, action.get("for_unit"), "SAGA p.45")
    problem = conqueror_problem(state, player, uid)
    if problem:
        raise IllegalAction(problem, "SAGA p.45")
    spec = hero_spec(state, player)["conqueror"]
    side = state["melee"]["sides"][uid]
    side["attack"] -= spec["attack_dice"]
    side["own_armour"] += spec["armour"]
    side["conqueror"] = True
    ctx.emit("hero", f"Conqueror of England: {state['units'][uid]['name']} discards {spec['attack_dice']} attack "
             f"dice for +{spec['armour']} armour", "SAGA p.45", pieces=list(state["units"][uid]["figures"]), unit=uid)


def activation_box_dice(state: State, player: str) -> list[int]:
    """The player's dice lying on activation boxes of his board."""
    faction = state["sides"][player]["faction"]
    boxes = {b["id"] for b in cat.faction(faction)["boxes"] if b["effect"]["kind"] == "activate"}
    return [i for i, d in enumerate(board.dice(state, player)) if d["box"] in boxes]


def expert_rider_problem(state: State, player: str) -> str | None:
    """Why Taillefer's Expert Rider may not be used now, or None."""
    lord = warlord(state, player)
    if not hero_spec(state, player).get("expert_rider") or lord is None:
        return "only Ivo Taillefer, alive, is an Expert Rider"
    if not lord["mounted"]:
        return "Expert Rider: Taillefer must be mounted"
    if lord["id"] not in state["melee"]["players"]:
        return "Expert Rider: Taillefer is not in this melee"
    return None


def expert_rider(state: State, player: str, action: Action, ctx: Context) -> None:
    """Taillefer's Expert Rider (SAGA p.43): mounted, in step 3 of his melee, each die taken off an
    activation box of the board gives him one attack and one defence die (usual caps apply)."""
    _step3_unit(state, player, None, "SAGA p.43")
    problem = expert_rider_problem(state, player)
    if problem:
        raise IllegalAction(problem, "SAGA p.43")
    which = action.get("dice")
    allowed = activation_box_dice(state, player)
    if not isinstance(which, list) or not which or len(set(which)) != len(which) or \
            any(i not in allowed for i in which):
        raise IllegalAction("'dice' lists dice lying on your activation boxes", "SAGA p.43")
    lord = warlord(state, player)
    assert lord is not None
    for i in which:
        board.dice(state, player)[i] = {"face": None, "box": None}
    side = state["melee"]["sides"][lord["id"]]
    side["attack"] += len(which)
    side["defence"] += len(which)
    ctx.emit("hero", f"Expert Rider: {lord['name']} discards {len(which)} activation die/dice for "
             f"+{len(which)} attack and +{len(which)} defence dice", "SAGA p.43", pieces=list(lord["figures"]),
             unit=lord["id"])


def options(state: State, player: str) -> list[Action]:
    """Hero actions for the legal-action list in melee step 3."""
    m = state["melee"]
    if m is None or not m["step"].startswith("abilities") or state["active"] != player:
        return []
    out: list[Action] = []
    if expert_rider_problem(state, player) is None:
        dice = activation_box_dice(state, player)
        if dice:
            out.append({"type": "expert_rider", "dice": dice[:1]})
    mine = [u for u, p in m["players"].items() if p == player]
    default = melee_mod.unit_of(state, player)
    for uid in mine:
        if conqueror_problem(state, player, uid) is None:
            out.append({"type": "conqueror"} if uid == default else {"type": "conqueror", "for_unit": uid})
    return out
