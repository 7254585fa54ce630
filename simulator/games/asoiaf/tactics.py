"""Tactics deck, hand, cards and the Tactics board with its NCUs (digest §3.2, §8, §9, §11.2).

Card effects are data (data/tactics.yaml); this module carries them out.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.asoiaf import combat, space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.sides import friendly
from simulator.games.asoiaf.units import Unit, heal, own_name

State = dict[str, Any]
HAND_MAX = 5
HAND_DRAW = 3


def R(section: str, name: str) -> str:
    return f'ASOIAF "{name}" ({section})'


def draw(state: State, ctx: Context, side: str, n: int) -> int:
    """Draw up to ``n`` cards; the deck is never refilled; above 5 cards the player discards
    down to 5 at once (§3.2, ``hand_limit``)."""
    deck, hand = state["decks"][side], state["hands"][side]
    got = 0
    for _ in range(n):
        if not deck:
            break
        hand.append(deck.pop(0))
        got += 1
    if got:
        ctx.emit("draw", f"{side} draws {got} Tactics card(s)", R("3.2", "Cleanup phase"), side=side, count=got)
    hand_limit(state, ctx, side)
    return got


def hand_limit(state: State, ctx: Context, side: str) -> None:
    """Above 5 cards in hand the player must discard down to 5 at once (§3.2): the choice of
    which cards is asked first of all (``hand_limit`` window, answered by ``discard``)."""
    excess = len(state["hands"][side]) - HAND_MAX
    if excess <= 0 or any(p["window"] == "hand_limit" and p["player"] == side for p in state["pending"]):
        return
    state["pending"].insert(0, {"player": side, "window": "hand_limit", "rule": R("3.2", "Hand size")})
    ctx.emit("hand_limit", f"{side} holds {HAND_MAX + excess} Tactics cards and must discard {excess} at once",
             R("3.2", "Hand size"), side=side, count=excess)


def discard_from_hand(state: State, side: str, cards: Any, rule: str) -> None:
    """Move ``cards`` (a list of ids, each in the hand) from the hand to the open discard pile."""
    if not isinstance(cards, list):
        raise IllegalAction("'cards' must be a list of card ids", rule)
    hand = list(state["hands"][side])
    for c in cards:
        if c not in hand:
            raise IllegalAction(f"{c!r} is not in {side}'s hand", rule)
        hand.remove(c)
    state["hands"][side] = hand
    state["discards"][side].extend(cards)


def discard_to_limit(state: State, ctx: Context, side: str, cards: Any) -> None:
    """The answer to ``hand_limit``: exactly the cards above 5, all from the hand."""
    rule = R("3.2", "Hand size")
    excess = len(state["hands"][side]) - HAND_MAX
    if not isinstance(cards, list) or len(cards) != excess:
        raise IllegalAction(f"{side} must discard exactly {excess} card(s) to get back to {HAND_MAX}", rule)
    discard_from_hand(state, side, cards, rule)
    ctx.emit("discard", f"{side} discards {excess} card(s) down to {HAND_MAX}", rule, side=side)


def hand_limit_options(state: State, side: str) -> list[list[str]]:
    """The card sets a player may discard to get back to 5: the newest drawn first."""
    hand = state["hands"][side]
    excess = len(hand) - HAND_MAX
    out = [hand[len(hand) - excess:]]
    seen = {tuple(sorted(out[0]))}
    for idx in combinations(range(len(hand)), excess):
        pick = [hand[i] for i in idx]
        if tuple(sorted(pick)) not in seen:
            seen.add(tuple(sorted(pick)))
            out.append(pick)
    return out


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


def name_problem(card_id: str, own: Unit, enemy: Unit | None) -> str | None:
    """Why a name-dependent card cannot be played here, or None. ``unit_name`` is a text the name
    of the card's own unit must contain (the activating unit, the attacker of an ``attack`` card,
    the defender of an ``attacked`` card), ``enemy_name`` one the other unit of the Attack's name
    must contain. Only the Combat unit's own name counts, never its attachment's (§4.4)."""
    eff = effect(card_id)
    cat = catalogue()
    for key, unit, who in (("unit_name", own, "its own unit"), ("enemy_name", enemy, "the enemy unit")):
        wanted = eff.get(key)
        if wanted is None:
            continue
        if unit is None:
            return f"{cat.full_name(card_id)} needs {who} to be a {wanted} unit, and there is none"
        if wanted.lower() not in own_name(cat, unit).lower():
            return (f"{cat.full_name(card_id)} works only when {who} is a {wanted} unit; {unit['id']} is "
                    f"{own_name(cat, unit)} (its attachment's name does not count)")
    return None


def check_names(card_id: str, own: Unit, enemy: Unit | None) -> None:
    why = name_problem(card_id, own, enemy)
    if why is not None:
        raise IllegalAction(why, R("4.4", "Names and affiliation"))


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
    check_names(card_id, u, None)
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


def cersei_card(state: State, ncu: dict[str, Any], zone_id: str) -> str | None:
    """The card Cersei Lannister may fetch by claiming ``zone_id`` (§18.4), if she has a token left."""
    spec = catalogue().ability_effects(catalogue().ncus[ncu["card"]]["abilities"]).get("playing_the_game")
    if spec is None or ncu["tokens"] <= 0:
        return None
    side = ncu["side"]
    wanted = spec.get(zone_id)
    return wanted if wanted in state["decks"][side] or wanted in state["discards"][side] else None


def cersei(state: State, ctx: Context, ncu: dict[str, Any], zone_id: str, fetch: Any = True) -> None:
    """Cersei Lannister: the player may spend 1 of her 2 tokens to fetch a card for Crown / Wealth
    (§18.4); the claim's ``fetch: false`` keeps the token."""
    if not isinstance(fetch, bool):
        raise IllegalAction("'fetch' must be true or false", R("18.4", "Cersei Lannister"))
    side = ncu["side"]
    wanted = cersei_card(state, ncu, zone_id)
    if wanted is None:
        return
    if not fetch:
        ctx.emit("ncu", f"{ncu['id']} keeps her Order tokens ({ncu['tokens']})", R("18.4", "Cersei Lannister"),
                 side=side)
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
            hand_limit(state, ctx, side)
            return
