"""How a position looks to a player (for computer players' search) and a full state consistent with
what a player sees (the hidden Tactics cards guessed).

``evaluate`` mixes two measures, each in [-1, 1]:

* victory points: the VP difference counted towards the game's target (``vp_needed``), so being
  2 VP ahead of 0 matters more in a 30 point game (8 VP) than in a 60 point game (14 VP);
* strength: the point cost of each side's Combat units still on the table weighted by the share of
  Wounds they have left (a unit with 6 of 12 figures counts half its cost).

* approach, a small term: the mean distance of the side's Combat units to the nearest Objective
  it does not hold, as a share of the table's diagonal, less the same for the other side. It only breaks ties
  between moves that change nothing else, so that armies close in and contest the Objectives.

Unfinished games stay strictly inside (-0.95, 0.95), so a won game always scores better.
"""

from __future__ import annotations

import math
from typing import Any

from simulator.core.game import State
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import wounds_left

VP_WEIGHT = 0.6
STRENGTH_WEIGHT = 0.4
APPROACH_WEIGHT = 0.05


def approach(state: State, side: str) -> float:
    """0 (every Combat unit of ``side`` on an Objective it does not hold) down to -1 (all a
    table's diagonal away); rounded so that mirrored armies score exactly alike."""
    table = state.get("table") or [48, 48]
    diag = math.hypot(float(table[0]), float(table[1])) if isinstance(table, list) else 68.0
    targets = [(o["x"], o["y"]) for o in state.get("objectives") or [] if o.get("holder") != side]
    mine = [(u["x"], u["y"]) for u in state["units"].values()
            if u["side"] == side and not u["destroyed"] and not u.get("structure") and u.get("x") is not None]
    if not mine or not targets:
        return 0.0
    total = sum(min(math.hypot(x - tx, y - ty) for tx, ty in targets) for x, y in mine)
    return round(-min(1.0, total / (len(mine) * diag)), 6)


def strength(state: State, side: str) -> float:
    """Point cost of the side's Combat units on the table, scaled by the Wounds they have left."""
    total = 0.0
    for u in state["units"].values():
        if u["side"] != side or u["destroyed"] or u.get("structure"):
            continue
        full = u["figures_max"] * u["wounds_per_figure"]
        total += u["cost"] * (wounds_left(u) / full if full else 0.0)
    return total


def evaluate(state: State, player: str) -> float:
    """From -1 (lost) to 1 (won); 0 for a draw."""
    result = state.get("result")
    if result:
        if result["winner"] is None:
            return 0.0
        return 1.0 if result["winner"] == player else -1.0
    others = [p for p in state["players"] if p != player]
    if player not in state["players"] or not others:
        return 0.0
    need = max(1, int(state["vp_needed"]))
    vp_best_other = max(state["vp"][o] for o in others)
    vp_term = max(-1.0, min(1.0, (state["vp"][player] - vp_best_other) / need))
    mine = strength(state, player)
    theirs = max(strength(state, o) for o in others)
    str_term = (mine - theirs) / (mine + theirs) if mine + theirs > 0 else 0.0
    return 0.95 * math.tanh(2.0 * (VP_WEIGHT * vp_term + STRENGTH_WEIGHT * str_term))


def full_deck(state: State, side: str) -> list[str]:
    """The side's whole Tactics deck (faction cards and its Commander's cards, two of each)."""
    attachment = None
    cmd_id = (state.get("commander") or {}).get(side)
    if cmd_id in state["units"]:
        attachment = state["units"][cmd_id].get("attachment")
    else:       # the Commander's unit is gone from the record: find the unit that carried him
        for u in state["units"].values():
            if u["side"] == side and u.get("commander"):
                attachment = u.get("attachment")
    return catalogue().deck_for(state["factions"][side], attachment or "")


def determinize(visible: State, player: str, rng: Any) -> State:
    """Fill what ``player`` cannot see: every face-down deck (its order) and the other hands.

    The cards not seen by ``player`` are the side's whole deck less its open discard pile (and,
    for ``player``'s own side, less its hand); the hidden hand takes as many of them, at random,
    as it holds, and the deck the rest in random order.
    """
    for side in visible["players"]:
        deck = visible["decks"][side]
        hand = visible["hands"][side]
        if isinstance(deck, list) and isinstance(hand, list):
            continue                        # nothing hidden here
        unseen = full_deck(visible, side)
        for c in list(visible["discards"][side]) + (hand if isinstance(hand, list) else []):
            if c in unseen:
                unseen.remove(c)
        rng.shuffle(unseen)
        if not isinstance(hand, list):
            n = int(hand)
            visible["hands"][side], unseen = unseen[:n], unseen[n:]
        n_deck = int(deck) if not isinstance(deck, list) else len(deck)
        visible["decks"][side] = unseen[:n_deck]
    return visible


def heuristic(state: State, player: str) -> float:
    """A player-side shaping term, -1..0, not part of the zero-sum value: :func:`approach`, the
    player's Combat units towards the Objectives it does not hold. The computer's normal level
    adds it to :func:`evaluate`, so it contests the Objectives that score VP."""
    return approach(state, player)
