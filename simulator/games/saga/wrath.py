"""Jarl Sigvald's Jomsvikings (SAGA p.44): the Wrath of the Jomsvikings.

The unit (mercenary ``jomsvikings`` in ``data/swords.yaml``) is never activated by the battle
board: in his Orders Phase its owner puts up to three rolled SAGA dice beside it (``wrath``); at
the end of the phase they are discarded and a D6 is rolled for each (:func:`resolve`). Half the
highest D6, rounded up, is the number of its free activations this turn; the total gives the
cumulative effects of ``data/wrath.yaml`` until the start of the owner's next turn
(:func:`start_turn` clears them): attack and defence dice in melee (``melee._side``), armour
(``units.base_armour``), re-rolls, a fatigue discarded and the first one ignored (the Bravery
mechanism of ``units.add_fatigue``). A betrayal total gives nothing: at the start of the next
player's turn the unit joins his warband.

Dice beside the unit are marked ``box: "wrath:<unit>"`` until the end of the Orders Phase.
"""

from __future__ import annotations

import math
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context
from simulator.games.saga import board
from simulator.games.saga import catalogue as cat
from simulator.games.saga.units import free_activation, live_units, remove_fatigue

State = dict[str, Any]
RULE = "SAGA p.44"


def _mark(uid: str) -> str:
    return f"wrath:{uid}"


def units_of(state: State, player: str) -> list[dict[str, Any]]:
    """The player's living units with the Wrath."""
    return [u for u in live_units(state, player) if "wrath" in u]


def beside(state: State, player: str, uid: str) -> list[int]:
    """The dice put beside the unit this Orders Phase."""
    return [i for i, d in enumerate(board.dice(state, player)) if d["box"] == _mark(uid)]


def put(state: State, player: str, action: Action, ctx: Context) -> None:
    """Put rolled dice (``dice``, any faces) beside the Jomsvikings (``unit``), three at most."""
    if not (state["phase"] == "orders" and state["orders_rolled"] and state["turn_player"] == player
            and state["active"] == player):
        raise IllegalAction("dice go beside the Jomsvikings in your Orders Phase, after rolling", RULE)
    uid = action.get("unit")
    unit = state["units"].get(uid) if isinstance(uid, str) else None
    if unit is None or unit not in units_of(state, player):
        raise IllegalAction("unit is one of your living Jomsviking units", RULE)
    which = action.get("dice")
    hand = board.rolled_unplaced(state, player)
    if not isinstance(which, list) or not which or len(set(which)) != len(which) or any(i not in hand for i in which):
        raise IllegalAction("dice lists rolled dice not yet placed", RULE)
    most = int(cat.wrath()["max_dice"])
    if len(beside(state, player, str(uid))) + len(which) > most:
        raise IllegalAction(f"at most {most} dice beside the Jomsvikings", RULE)
    for i in which:
        board.dice(state, player)[i]["box"] = _mark(str(uid))
    ctx.emit("wrath", f"{player} puts {len(which)} die/dice beside {unit['name']}", RULE,
             pieces=list(unit["figures"]), unit=uid)


def options(state: State, player: str) -> list[Action]:
    """A few ``wrath`` actions for the legal list: the first one, two or three dice in hand."""
    hand = board.rolled_unplaced(state, player)
    out: list[Action] = []
    for u in units_of(state, player):
        room = int(cat.wrath()["max_dice"]) - len(beside(state, player, u["id"]))
        out += [{"type": "wrath", "unit": u["id"], "dice": hand[:n]} for n in range(1, min(room, len(hand)) + 1)]
    return out


def effects_of(total: int) -> dict[str, Any]:
    """The cumulative effects of a Wrath total (every row it reaches)."""
    out: dict[str, Any] = {}
    for row in cat.wrath()["rows"]:
        if total >= row["from"]:
            for key, value in row["effects"].items():
                out[key] = True if isinstance(value, bool) else out.get(key, 0) + value
    return out


def resolve(state: State, player: str, ctx: Context) -> None:
    """End of the Orders Phase: roll for the dice beside each Jomsviking unit, give its free
    activations and effects (or its betrayal)."""
    for unit in units_of(state, player):
        idx = beside(state, player, unit["id"])
        for i in idx:
            board.dice(state, player)[i] = {"face": None, "box": None}
        unit["wrath"] = None
        if not idx:
            continue
        rolls = [ctx.dice.d6(f"Wrath of the Jomsvikings ({unit['name']})") for _ in idx]
        total = sum(rolls)
        if total in cat.wrath()["betrayal"]:
            order = state["order"]
            unit["betray_to"] = order[(order.index(player) + 1) % len(order)]
            ctx.emit("wrath", f"Wrath {rolls} = {total}: betrayal! {unit['name']} do nothing this turn and join "
                     f"{unit['betray_to']} at the start of his turn", RULE, pieces=list(unit["figures"]),
                     unit=unit["id"], rolls=rolls, total=total)
            continue
        free = math.ceil(max(rolls) / 2)
        state["free"] += [free_activation(unit, "Wrath of the Jomsvikings") for _ in range(free)]
        effects = effects_of(total)
        unit["wrath"] = effects
        if effects.get("discard_fatigue"):
            remove_fatigue(unit, int(effects["discard_fatigue"]))
        if effects.get("ignore_first_fatigue"):
            unit["bravery"], unit["bravery_used"] = int(effects["ignore_first_fatigue"]), False
        ctx.emit("wrath", f"Wrath {rolls} = {total}: {unit['name']} get {free} free activation(s)"
                 + (f" and {', '.join(f'{k} {v}' for k, v in effects.items())}" if effects else ""), RULE,
                 pieces=list(unit["figures"]), unit=unit["id"], rolls=rolls, total=total, free=free)


def start_turn(state: State, player: str, ctx: Context) -> None:
    """The start of ``player``'s turn: his Jomsvikings' effects end; units betraying to him join him."""
    for unit in state["units"].values():
        if "wrath" not in unit or not unit["figures"]:
            continue
        if unit["owner"] == player:
            unit["wrath"] = None
            unit.pop("bravery", None)
            unit.pop("bravery_used", None)
        if unit.get("betray_to") == player:
            old = unit["owner"]
            unit["owner"] = player
            unit["wrath"] = None
            del unit["betray_to"]
            ctx.emit("wrath", f"{unit['name']} betray {old} and join {player}'s warband", RULE,
                     pieces=list(unit["figures"]), unit=unit["id"])
