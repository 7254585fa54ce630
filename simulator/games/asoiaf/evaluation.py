"""How a position looks to a player (for computer players' search) and a full state consistent with
what a player sees (the hidden Tactics cards guessed).

``evaluate`` mixes two measures, each in [-1, 1]:

* victory points: the VP difference counted towards the game's target (``vp_needed``), so being
  2 VP ahead of 0 matters more in a 30 point game (8 VP) than in a 60 point game (14 VP). Two
  kinds of VP not yet scored count as a share of what they will bring: half the VP each
  Objective a side controls now scores at the next Cleanup (§16, standard scoring), and in A Storm
  of Swords the Wounds dealt to a castle wall still standing, as that share of its 5 VP (§16.3);
* strength: the point cost of each side's Combat units still on the table weighted by the share of
  Wounds they have left (a unit with 6 of 12 figures counts half its cost).

Unfinished games stay strictly inside (-0.95, 0.95), so a won game always scores better.

``heuristic`` is the player-side shaping term of the normal computer level (not zero-sum):
:func:`approach`, the side's Combat units towards its targets (the Objectives), less their
:func:`exposure` to enemy charges; in A Storm of Swords, for the Attacker, :func:`siege_approach`
(towards the castle walls still standing, against the round limit) less a smaller share of it.
"""

from __future__ import annotations

import math
from typing import Any

from simulator.core.game import State
from simulator.games.asoiaf import modes, sides
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import Unit, attack_dice, speed, wounds_left

VP_WEIGHT = 0.6
STRENGTH_WEIGHT = 0.4
#: The share of next Cleanup's VP that controlling an Objective now is worth (it may be lost first).
CONTROL_SHARE = 0.5


def is_siege(state: State) -> bool:
    """A Storm of Swords: the Defender scores nothing and wins by holding out (§16.3)."""
    return modes.mode(state)["scoring"] == "siege"


def attacker(state: State, side: str) -> bool:
    """``side`` attacks the castle walls of A Storm of Swords (by teams: is not on the
    Defender's team)."""
    return is_siege(state) and not sides.defending(state, side)


def standing_walls(state: State) -> list[dict[str, Any]]:
    """The castle walls of A Storm of Swords not yet destroyed."""
    return [u for u in state["units"].values() if u.get("structure") and not u["destroyed"]]


def wall_share(state: State) -> float:
    """The VP the Attacker has earned on the castle walls still standing: each wall's Wounds taken,
    as that share of the VP its destruction gives (§16.3)."""
    m = modes.mode(state)
    total = 0.0
    for u in standing_walls(state):
        full = u["figures_max"] * u["wounds_per_figure"]
        total += m.get("wall_vp", 0) * (1.0 - wounds_left(u) / full if full else 0.0)
    return total


def control_vp(state: State, side: str) -> float:
    """The VP the Objectives ``side`` controls now would score at the next Cleanup: 1 each, 1 more
    under the Commander's unit (§16, standard scoring)."""
    if modes.mode(state)["scoring"] != "standard":
        return 0.0
    total = 0.0
    for ob in state.get("objectives") or []:
        u = modes.controller(state, ob)
        if u is not None and u["side"] == side:
            total += 2.0 if u["commander"] else 1.0
    return total


def expected_vp(state: State, side: str) -> float:
    """VP scored plus the shares of VP in the making (:func:`control_vp`, :func:`wall_share`)."""
    vp = float(state["vp"][side]) + CONTROL_SHARE * control_vp(state, side)
    if attacker(state, side):
        vp += wall_share(state)
    return vp


def targets(state: State, side: str) -> list[tuple[float, float]]:
    """Where ``side``'s Combat units should go: the Objectives no unit of the side holds (all of
    them if it holds every one). The Attacker of A Storm of Swords goes for the castle walls
    instead (:func:`siege_approach`)."""
    obs = state.get("objectives") or []
    free = [o for o in obs if not (o["holder"] in state["units"] and state["units"][o["holder"]]["side"] == side)]
    return [(o["x"], o["y"]) for o in free or obs]


def approach(state: State, side: str) -> float:
    """0 (every Combat unit of ``side`` holding an Objective or on one of its :func:`targets`) down
    to -1 (all a table's diagonal away); rounded so that mirrored armies score exactly alike. A unit
    holding an Objective is where it should be; the others spread to the Objectives not yet held."""
    table = state.get("table") or [48, 48]
    diag = math.hypot(float(table[0]), float(table[1])) if isinstance(table, list) else 68.0
    spots = targets(state, side)
    holders = {o["holder"] for o in state.get("objectives") or []}
    mine = [(u["x"], u["y"]) for u in state["units"].values()
            if u["side"] == side and not u["destroyed"] and not u.get("structure") and not u.get("reserve")
            and u.get("x") is not None and u["id"] not in holders]
    if not spots:
        return 0.0
    n = len(mine) + sum(1 for u in state["units"].values() if u["id"] in holders and u["side"] == side)
    if not n:
        return 0.0
    total = sum(min(math.hypot(x - tx, y - ty) for tx, ty in spots) for x, y in mine)
    return round(-min(1.0, total / (n * diag)), 6)


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
        return 1.0 if sides.friendly(state, result["winner"], player) else -1.0
    if player not in state["players"] or not sides.enemies(state, player):
        return 0.0
    # by teams (13.1) a team's players count together; the best enemy team is the rival
    teams: dict[str, list[str]] = {}
    for p in state["players"]:
        teams.setdefault(sides.team(state, p), []).append(p)
    own = sides.team(state, player)

    def total(measure: Any, team: str) -> float:
        return sum(measure(state, p) for p in teams[team])

    need = max(1, int(state["vp_needed"]))
    rivals = [t for t in teams if t != own]
    vp_best_other = max(total(expected_vp, t) for t in rivals)
    vp_term = max(-1.0, min(1.0, (total(expected_vp, own) - vp_best_other) / need))
    mine = total(strength, own)
    theirs = max(total(strength, t) for t in rivals)
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


#: Inches an enemy is expected to cover with a Charge beyond its Speed (the mean of a D6, §6.6).
CHARGE_ROLL = 3.5
#: Exposure against approach in the heuristic (both are shares: of the army, of the table diagonal).
EXPOSURE_WEIGHT = 1.0


def melee_threat(attacker_unit: Unit, target: Unit) -> float:
    """Expected Wounds ``attacker_unit``'s best melee Attack deals ``target`` (hits, then failed
    Defense saves; §7), at most the Wounds the target has left."""
    best = 0.0
    for a in attacker_unit["attacks"]:
        if a["range"] != "melee":
            continue
        hits = attack_dice(attacker_unit, a) * max(0, 7 - int(a["hit"])) / 6
        best = max(best, hits * min(1.0, max(0, int(target["defense"]) - 1) / 6))
    return min(best, float(wounds_left(target)))


def exposure(state: State, side: str) -> float:
    """0 to 1: the share of ``side``'s army (by cost) that the enemies able to reach it in melee
    (already in contact, or within their Speed and a mean Charge roll) are expected to wound. A
    weak unit standing in the charge range of a strong one counts; one out of reach does not."""
    from simulator.games.asoiaf import sides, space
    mine = [u for u in space.alive(state, side) if not u.get("structure")]
    if not mine:
        return 0.0
    theirs = [e for e in space.alive(state) if not sides.friendly(state, e["side"], side) and not e.get("structure")]
    total = sum(u["cost"] for u in mine) or 1
    lost = 0.0
    for u in mine:
        full = u["figures_max"] * u["wounds_per_figure"]
        worst = max((melee_threat(e, u) for e in theirs if within_reach(e, u, speed(e) + CHARGE_ROLL)), default=0.0)
        lost += u["cost"] * (worst / full if full else 0.0)
    return min(1.0, lost / total)


def within_reach(a: Unit, b: Unit, reach: float) -> bool:
    """The trays of ``a`` and ``b`` are about ``reach`` apart or less: their centres less half of
    each tray's depth, as for trays facing each other (a cheap estimate: the exact tray distance
    costs far more and this only shapes the search)."""
    return math.hypot(a["x"] - b["x"], a["y"] - b["y"]) - (a["depth"] + b["depth"]) / 2 <= reach


#: The Attacker of A Storm of Swords races the round limit (§16.3): its units count their way to
#: the walls against this many inches (the distance from its deployment edge to the walls) rather
#: than the table's diagonal, and its exposure weighs this share of the usual one.
SIEGE_REACH = 40.0
SIEGE_EXPOSURE = 0.3


def siege_approach(state: State, side: str) -> float:
    """0 (every Combat unit of the Attacker ``side`` at a castle wall still standing) down to -1
    (all of them :data:`SIEGE_REACH` or more away): the mean of each unit's distance to its nearest
    standing wall. Units in Reserve or destroyed do not count; without walls standing, 0."""
    walls = [(w["x"], w["y"]) for w in standing_walls(state)]
    mine = [(u["x"], u["y"]) for u in state["units"].values()
            if u["side"] == side and not u["destroyed"] and not u.get("structure") and not u.get("reserve")
            and u.get("x") is not None]
    if not walls or not mine:
        return 0.0
    total = sum(min(1.0, min(math.hypot(x - wx, y - wy) for wx, wy in walls) / SIEGE_REACH) for x, y in mine)
    return round(-total / len(mine), 6)


def heuristic(state: State, player: str) -> float:
    """A player-side shaping term, -1..0, not part of the zero-sum value: :func:`approach`, the
    player's Combat units towards its targets, less its :func:`exposure` to enemy charges. The
    computer's normal level adds it to :func:`evaluate`, so it contests the Objectives that score
    VP without offering a weak unit to a strong one's charge. Attacking in A Storm of Swords it is
    :func:`siege_approach` less a smaller share of the exposure: the walls must fall within the
    round limit, so the Attacker marches on them through the Defender's charge ranges."""
    if attacker(state, player):
        return max(-1.0, siege_approach(state, player) - SIEGE_EXPOSURE * exposure(state, player))
    return max(-1.0, approach(state, player) - EXPOSURE_WEIGHT * exposure(state, player))
