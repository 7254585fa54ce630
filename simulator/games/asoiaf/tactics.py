"""Tactics deck, hand, cards and the Tactics board with its NCUs (digest §3.2, §8, §9, §11.2).

Card effects are data (data/tactics.yaml); this module carries them out.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import combat, space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.sides import friendly
from simulator.games.asoiaf.units import Unit, heal

State = dict[str, Any]
HAND_MAX = 5
HAND_DRAW = 3


def R(section: str, name: str) -> str:
    return f'ASOIAF "{name}" ({section})'


def draw(state: State, ctx: Context, side: str, n: int) -> int:
    """Draw up to ``n`` cards; the deck is never refilled; above 5 cards the newest go (§3.2)."""
    deck, hand = state["decks"][side], state["hands"][side]
    got = 0
    for _ in range(n):
        if not deck:
            break
        hand.append(deck.pop(0))
        got += 1
    while len(hand) > HAND_MAX:
        state["discards"][side].append(hand.pop())
        ctx.emit("discard", f"{side} is above 5 cards and discards one at once", R("3.2", "Hand size"), side=side)
    if got:
        ctx.emit("draw", f"{side} draws {got} Tactics card(s)", R("3.2", "Cleanup phase"), side=side, count=got)
    return got


def effect(card_id: str) -> dict[str, Any]:
    return catalogue().card_effects[card_id]


def check_playable(state: State, side: str, card_id: str, trigger: str) -> dict[str, Any]:
    """The card's effect, or IllegalAction if ``side`` cannot play it now for ``trigger``."""
    if card_id not in state["hands"][side]:
        raise IllegalAction(f"{side} has no card {card_id} in hand", R("9.3", "Playing Tactics cards"))
    if state["turn"].get("no_cards") == side:
        raise IllegalAction("after a Disordered charge its player may play no Tactics card this turn",
                            R("6.6", "Disordered charge"))
    eff = effect(card_id)
    if eff["trigger"] != trigger:
        raise IllegalAction(f"{catalogue().full_name(card_id)} is played when its trigger '{eff['trigger']}' "
                            f"happens, not now ('{trigger}')", R("9.2", "Trigger"))
    return eff


def discard_played(state: State, ctx: Context, side: str, card_id: str, target: str | None) -> None:
    state["hands"][side].remove(card_id)
    state["discards"][side].append(card_id)
    eff = effect(card_id)
    note = " (effect assumed: card text not in the rulebook)" if eff.get("assumed") else ""
    ctx.emit("card", f"{side} plays {catalogue().full_name(card_id)}{note}", R("9.3", "Playing Tactics cards"),
             pieces=[target] if target else [], side=side, card=card_id)


def activation_card(state: State, ctx: Context, u: Unit, card_id: str) -> None:
    """A card whose trigger is "a friendly unit activates": its target is that unit."""
    eff = check_playable(state, u["side"], card_id, "activation")
    discard_played(state, ctx, u["side"], card_id, u["id"])
    cat = catalogue()
    if eff.get("speed_bonus"):
        u["speed_bonus"] = int(eff["speed_bonus"])
        ctx.emit("card", f"{u['id']} moves {eff['speed_bonus']}\" faster this activation", R("9.2", "Tactics card"),
                 pieces=[u["id"]])
    if eff.get("remove_conditions") and u["conditions"]:
        ctx.emit("condition", f"{u['id']} discards {', '.join(u['conditions'])}", R("9.2", "Tactics card"),
                 pieces=[u["id"]])
        u["conditions"] = []
    if eff.get("heal"):
        n = heal(u, int(eff["heal"]))
        ctx.emit("heal", f"{u['id']} recovers {n} Wound(s)", R("11.6", "Healing"), pieces=[u["id"]])
    if eff.get("draw"):
        draw(state, ctx, u["side"], int(eff["draw"]))
    if "nearest_enemy_panic" in eff:
        e = space.nearest_enemy(state, u, space.SHORT)
        if e is None:
            ctx.emit("card", "no enemy within 6\": the Panic test has no target", R("9.2", "Tactics card"))
        else:
            combat.panic_test(state, ctx, cat, e, int(eff["nearest_enemy_panic"]), "Tactics card")
    if eff.get("nearest_enemy_condition"):
        e = space.nearest_enemy(state, u, space.LONG)
        if e is not None:
            combat.give_condition(e, eff["nearest_enemy_condition"], ctx, "Tactics card", R("9.2", "Tactics card"))


# -- The Tactics board and NCUs ---------------------------------------------------------------
def zone(zone_id: str) -> dict[str, Any]:
    for z in catalogue().zones:
        if z["id"] == zone_id:
            return z
    raise IllegalAction(f"the Tactics board has no zone {zone_id!r} "
                        f"(zones: {', '.join(z['id'] for z in catalogue().zones)})", R("8.1", "Tactics board"))


def controls(state: State, side: str, zone_id: str) -> bool:
    ncu = state["board"].get(zone_id)
    return ncu is not None and friendly(state, state["ncus"][ncu]["side"], side)


def cersei(state: State, ctx: Context, ncu: dict[str, Any], zone_id: str) -> None:
    """Cersei Lannister: spend 1 of her 2 tokens to fetch a card for Crown / Wealth (§18.4)."""
    spec = catalogue().ability_effects(catalogue().ncus[ncu["card"]]["abilities"]).get("playing_the_game")
    if spec is None or ncu["tokens"] <= 0:
        return
    side = ncu["side"]
    wanted = spec.get(zone_id)
    if wanted is None:
        return
    for pile in (state["decks"][side], state["discards"][side]):
        if wanted in pile:
            pile.remove(wanted)
            state["hands"][side].append(wanted)
            ncu["tokens"] -= 1
            state["decks"][side] = ctx.dice.shuffle(state["decks"][side], f"{side} shuffles the Tactics deck")
            ctx.emit("ncu", f"{ncu['id']} spends an Order token and fetches "
                     f"{catalogue().full_name(wanted)} ({ncu['tokens']} token(s) left)", R("18.4", "Cersei Lannister"),
                     side=side, card=wanted)
            while len(state["hands"][side]) > HAND_MAX:
                state["discards"][side].append(state["hands"][side].pop(0))
            return
