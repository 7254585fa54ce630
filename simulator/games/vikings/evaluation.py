"""How a position looks to one side, and guesses of what it cannot see (for computer players).

:func:`evaluate` compares the fighting strength left to each side: every living character counts
its printed attack plus defence (a wounded or stunned one less, table 9.1's other counters), every
boat afloat counts by its hull points left, and the casualty points already scored (the victory
rule of ``game.scores``) weigh in too. A small approach term breaks ties between quiet moves:
how close the two sides stand, good for the stronger side and bad for the weaker, so the
stronger closes in rather than waits (and the value stays zero-sum). A finished game is worth exactly -1, 0 or 1.

:func:`determinize` fills the one secret of the game, the other side's speed markers chosen but
not yet revealed (rule 4.34), with one of the speeds that ship could legally have chosen.

:func:`heuristic` is the normal computer player's own drive to fight (not zero-sum, outside
:func:`evaluate`): fighters towards the enemy, archers to a shot, peasants away, boats towards the
enemy boats with their speed markers and grapples, nobody overboard in deep water.
"""

from __future__ import annotations

import math

import numpy as np
from typing import Any, Callable

from simulator.core.game import Outcome
from simulator.core.plain import copy_plain
from simulator.games.vikings import fleet, shipgeom
from simulator.games.vikings.catalogue import ship_types
from simulator.games.vikings.pieces import alive, attack_value, ctype, values

State = dict[str, Any]

STATUS_WEIGHT = {"ok": 1.0, "wounded": 0.6, "stunned": 0.7, "dead": 0.0}
SHIP_WEIGHT = 10.0            # a boat afloat is worth about one and a half fighters per 10 hull points
SCORE_WEIGHT = 3.0            # one casualty point, in the same units as a fighter's attack + defence
HIDDEN = "hidden"
APPROACH_WEIGHT = 0.04
APPROACH_SCALE = 40.0         # hexes: the sea maps are wide


def closeness(state: State) -> float:
    """1 when every living fighter stands next to an enemy, down to 0 when all are far apart
    (the mean over both sides of the distance to the nearest enemy). The same for both sides."""
    from simulator.games.vikings.game import board_of

    grid = board_of(state).grid
    grid = grid() if callable(grid) else grid
    by_side: dict[str, list[tuple[int, int, int]]] = {}
    for ch in state["chars"].values():
        if alive(ch) and ch.get("hex"):
            by_side.setdefault(ch["side"], []).append(grid.cube(ch["hex"]))
    if len(by_side) < 2:
        return 0.0
    total, count = 0.0, 0
    for side, mine in by_side.items():
        theirs = [c for s, cs in by_side.items() if s != side for c in cs]
        for a in mine:
            total += min(APPROACH_SCALE, min(max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) for b in theirs))
            count += 1
    return 1.0 - total / (count * APPROACH_SCALE)


def strength(state: State, side: str) -> float:
    """Fighting strength left to ``side`` (characters and boats afloat)."""
    total = 0.0
    for ch in state["chars"].values():
        if ch["side"] != side or not alive(ch):
            continue
        a, d, _ = ctype(ch).counters["foot"]
        total += STATUS_WEIGHT.get(ch["status"], 0.0) * (a + d)
    for ship in state["ships"].values():
        if ship["side"] == side and fleet.afloat(ship):
            sinks = ship_types()[ship["type"]]["sinks_at"]
            total += SHIP_WEIGHT * max(0.0, 1.0 - ship["total"] / sinks) * (sinks / 20)
    return total


def evaluate(state: State, player: str, outcome: Outcome | None, scores: dict[str, int]) -> float:
    """From -1 (lost) to 1 (won); unfinished games stay strictly between -0.95 and 0.95."""
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == player else -1.0
    enemy = next(s for s in state["order"] if s != player)
    mine = strength(state, player) + SCORE_WEIGHT * scores.get(player, 0)
    theirs = strength(state, enemy) + SCORE_WEIGHT * scores.get(enemy, 0)
    if mine + theirs <= 0:
        return 0.0
    balance = (mine - theirs) / (mine + theirs)
    # The stronger side wants the fight, the weaker one wants distance: odd in the balance, so
    # the value stays zero-sum (evaluate(a) == -evaluate(b)).
    value = 0.9 * math.tanh(2.0 * balance) + APPROACH_WEIGHT * closeness(state) * math.tanh(8.0 * balance)
    return max(-0.95, min(0.95, value))


def determinize(visible: State, player: str, rng: Any,
                legal_speeds: Callable[[State, str], list[int]] = fleet.legal_speeds) -> State:
    """A full state consistent with ``visible``: each hidden speed marker becomes a legal guess."""
    state = copy_plain(visible)
    for sid in sorted(state["ships"]):
        ship = state["ships"][sid]
        if ship.get("pending") == HIDDEN:
            ship["pending"] = rng.choice(legal_speeds(state, sid))
    return state


#: The player-side heuristic's scales: a fighter gains nothing more beyond ``REACH`` hexes from the
#: nearest enemy, a boat beyond ``SEA_REACH`` hexes (hull to hull) from the nearest enemy boat.
REACH = 10.0
SEA_REACH = 30.0
#: An archer shoots at short range (table 8.1): he closes in only to within this many hexes.
BOW_REACH = 6
#: Beyond this range (hexes) an archer's shot is long (table 8.1) and not worth seeking.
MEDIUM_RANGE = 25
#: A character with no bow and at most this attack (a peasant, an old woman) keeps away from the enemy.
WEAK_ATTACK = 4
#: A side whose fighting strength is below this share of the enemy's holds its ground on land
#: (its fighters are not drawn forward; its archers still are).
HOLD_BELOW = 0.9
#: What a hooked rope between a boat and an enemy boat is worth, in hexes of gap: it will be
#: hauled in (rule 4.65) and holds the boats together for boarding.
HOOK_HEXES = 10
#: The share of the sea term (boats closing in, grapples hooked) when both sides have boats afloat.
SEA_SHARE = 0.5
#: The share of :func:`exposure` (own men left where the enemy next to them attacks at 2-1 or
#: better) in the heuristic.
EXPOSE_SHARE = 0.3
#: Odds (attack : defence, table 8.7) from which an attack is worth the attacker's while.
GOOD_ODDS = 2
#: The most hexes of a short-range shot (table 8.1), and what standing in one is worth in
#: :func:`exposure`, against standing where the enemy attacks at ``GOOD_ODDS``.
SHORT_RANGE = 10
ARROW_SHARE = 0.5
#: The share of :func:`peril` (own men off their boats in deep water, who cannot swim) in the
#: heuristic: an armoured man there drowns at the start of his next phase (rule 4.85).
PERIL_SHARE = 0.3
#: What standing in an enemy archer's medium-range sight (table 8.1) is worth in :func:`exposure`,
#: as a share of a short-range sight (in the village the Viking bowmen wounded Saxons at 11 and 14 hexes).
MEDIUM_SHARE = 0.5


def heuristic(state: State, player: str) -> float:
    """A player-side shaping term, -1..0, not part of the zero-sum value: the drive to fight.
    The computer's normal level adds it to :func:`evaluate`, so it closes in and scores casualty
    points (only scored in contact, or by arrows at short range).

    On land (:func:`approach`): each of the ``player``'s fighters the nearer the nearest enemy,
    weighted by his attack, an archer only to short range, a character swimming in deep water as
    far as can be (he is drowning, not fighting), a weak one (a peasant) the farther the better
    and out of sight of the enemy's archers; the weaker side's fighters hold their ground, but go
    for the enemy archers who have a shot at them (else they stood in the bowmen's sight all
    game: no single step leaves it); an archer with an enemy in sight within medium range is
    where he should be;
    a character aboard his own boat away from the enemy counts by the boat's distance, so he keeps
    his post (rowing) instead of walking to the bow.
    At sea (:func:`boarding`), when both sides have boats afloat, each of the player's boats the
    nearer the nearest enemy boat where its speed marker will take it, less ``HOOK_HEXES`` per
    rope hooked between them (boats weighted by their size).
    With no boats on both sides (a fight on land), ``EXPOSE_SHARE`` of the term is
    :func:`exposure`: men left where the enemy attacks them at 2-1 or better, or where its
    archers have a short-range shot, so the player lets the enemy come rather than walking into it.
    (At sea the crews stand where the boats bring them: the term made the boarders hang back.)
    Over both, ``PERIL_SHARE`` of the term is :func:`peril`: men off their boats in deep water
    who cannot swim."""
    land = approach(state, player)
    sea = boarding(state, player)
    if sea is not None:
        core = (1.0 - SEA_SHARE) * land + SEA_SHARE * sea
    else:
        core = (1.0 - EXPOSE_SHARE) * land + EXPOSE_SHARE * exposure(state, player)
    return -((1.0 - PERIL_SHARE) * core + PERIL_SHARE * peril(state, player))


def peril(state: State, player: str) -> float:
    """0 to 1: the share of the ``player``'s fighting strength (attack + defence) standing off
    any boat in deep water without being a swimmer: men who test for drowning at the start of
    their next phase, the armoured ones drown outright (rule 4.85). (The approach term alone
    counted such a man as one more hex away, less than a step of the boat he left.)"""
    from simulator.games.vikings.game import board_of

    board = board_of(state)
    total = lost = 0.0
    for ch in state["chars"].values():
        if ch["side"] != player or not alive(ch):
            continue
        a, d, _ = ctype(ch).counters["foot"]
        total += a + d
        if not ch.get("ship") and not ch.get("swimmer") and board.kind(ch["hex"]) == "deep":
            lost += a + d
    return lost / total if total else 0.0


def exposure(state: State, player: str) -> float:
    """0 to 1: the share of the ``player``'s fighting strength (attack + defence) standing next to
    enemies who, all together, could attack him at ``GOOD_ODDS`` or better (their attack against
    his defence, rule 2.7): the men the enemy will hit next, at odds that favour it. A man on land
    an enemy archer on land sees at short range (table 8.1) counts ``ARROW_SHARE`` of his worth,
    at medium range ``MEDIUM_SHARE`` of that; not an archer (he shoots back: without this the
    Saxon archers hid behind the tower's walls from the Viking bowmen instead of shooting them)."""
    from simulator.games.vikings.game import board_of

    board = board_of(state)
    mine, theirs = [], []
    for ch in state["chars"].values():
        if alive(ch):
            (mine if ch["side"] == player else theirs).append(ch)
    fighters = [e for e in theirs if e["status"] != "stunned"]
    total = exposed = 0.0
    for ch in mine:
        a, d, _ = ctype(ch).counters["foot"]
        total += a + d
        if not fighters:
            continue
        force = sum(attack_value(e) for e in fighters if board.distance(ch["hex"], e["hex"]) == 1)
        if force and force >= GOOD_ODDS * max(1, values(ch)[1]):
            exposed += a + d
        elif ctype(ch).bow:
            continue        # an archer in the enemy archers' sight shoots back: an even exchange, not exposure
        elif not ch.get("ship") and _in_sight(board, state, ch, fighters, SHORT_RANGE):
            exposed += ARROW_SHARE * (a + d)
        elif not ch.get("ship") and _in_sight(board, state, ch, fighters, MEDIUM_RANGE):
            exposed += ARROW_SHARE * MEDIUM_SHARE * (a + d)     # a medium-range shot hits less often
    return exposed / total if total else 0.0


def approach(state: State, player: str) -> float:
    """0 (the player's fighters all in contact) to 1 (all ``REACH`` hexes or more from an enemy, or
    swimming)."""
    from simulator.games.vikings.game import board_of

    board = board_of(state)
    grid = board.grid
    mine, theirs = [], []
    for ch in state["chars"].values():
        if alive(ch) and ch.get("hex"):
            (mine if ch["side"] == player else theirs).append(ch)
    if not mine or not theirs:
        return 0.0
    enemy = grid.labels_to_cube([e["hex"] for e in theirs])
    own = grid.labels_to_cube([c["hex"] for c in mine])
    nearest = grid.distances(own[:, None], enemy[None, :]).min(axis=1)
    hulls: dict[str, int] = {}
    enemy_side = theirs[0]["side"]
    eager = strength(state, player) >= HOLD_BELOW * strength(state, enemy_side)
    total = weight = 0.0
    for ch, d in zip(mine, nearest.tolist()):
        sid = ch.get("ship")
        if sid and state["ships"][sid]["side"] == player:
            # aboard his own boat, far from the enemy, he stays at his post: the boat brings him
            if sid not in hulls:
                hull = grid.labels_to_cube(list(fleet.hexes(board, state["ships"][sid])))
                hulls[sid] = int(grid.distances(hull[:, None], enemy[None, :]).min())
            if hulls[sid] > 1:
                d = hulls[sid]
        t = ctype(ch)
        a = t.counters["foot"][0]
        if t.bow:
            d = max(0, d - BOW_REACH)
            if d and not ch.get("ship") and _has_a_shot(board, state, ch, theirs):
                d = 0
        d = min(REACH, d)
        if not ch.get("ship") and board.kind(ch["hex"]) == "deep" and not ch.get("swimmer"):
            d = REACH + 1                   # worse than anywhere dry or aboard, however far
        elif a <= WEAK_ATTACK and not t.bow:
            # a dead peasant scores as much as a dead huscarl: away, and out of the archers' sight
            d = 0 if _in_sight(board, state, ch, theirs) else REACH - min(REACH, d)
        elif not eager and not t.bow:
            # the weaker side holds its ground and lets them come, but goes for the archers who shoot it
            d = min(REACH, _archer_gap(board, state, ch, theirs))
        total += a * d
        weight += a
    return total / (weight * (REACH + 1)) if weight else 0.0


def _archer_gap(board: Any, state: State, ch: dict[str, Any], enemies: list[dict[str, Any]]) -> int:
    """Hexes from a man on land to the nearest enemy archer on land who has a shot at him within
    medium range (table 8.1), or 0 when none has (or he is aboard a boat)."""
    if ch.get("ship"):
        return 0
    gaps = [board.distance(ch["hex"], e["hex"]) for e in enemies
            if ctype(e).bow and not e.get("ship") and _has_a_shot(board, state, e, [ch])]
    return min(gaps, default=0)


def _in_sight(board: Any, state: State, ch: dict[str, Any], enemies: list[dict[str, Any]],
              reach: int = MEDIUM_RANGE) -> bool:
    """Has an enemy archer on land a shot at ``ch`` within ``reach`` hexes (terrain only, as
    :func:`_has_a_shot`)?"""
    return any(ctype(e).bow and not e.get("ship") and _has_a_shot(board, state, e, [ch], reach) for e in enemies)


_SIGHT: dict[tuple[int, str, str], tuple[Any, bool]] = {}


def _has_a_shot(board: Any, state: State, archer: dict[str, Any], enemies: list[dict[str, Any]],
                reach: int = MEDIUM_RANGE) -> bool:
    """Does the archer see an enemy within ``reach`` (medium range) past the terrain (table 8.1, rule 2.4)?
    Only the terrain is judged (people in the way are not), and each (board, from, to) is
    remembered: the heuristic is asked thousands of times a decision."""
    from simulator.games.vikings import fire

    src = archer["hex"]
    for e in sorted(enemies, key=lambda e: board.distance(src, e["hex"])):
        if board.distance(src, e["hex"]) > reach:
            return False
        key = (id(board), src, e["hex"])
        hit = _SIGHT.get(key)
        if hit is None or hit[0] is not board:
            if len(_SIGHT) > 100_000:
                _SIGHT.clear()
            bare = {**state, "chars": {}, "horses": {}, "animals": {}}
            hit = _SIGHT[key] = (board, bool(fire.line_of_fire(board, bare, src, e["hex"]).clear))
        if hit[1]:
            return True
    return False


def boarding(state: State, player: str) -> float | None:
    """0 (every boat of the player alongside an enemy boat, or hooked to one) to 1 (all far), or
    None when one side has no boat afloat. A boat whose speed marker is chosen (or which has
    moves left in the movement step) counts where those moves take it (:func:`_courses`); the
    boats are weighted by their size (hull points to sink)."""
    from simulator.games.vikings.game import board_of

    grid = board_of(state).grid
    own, theirs = [], []
    for sid in sorted(state["ships"]):
        ship = state["ships"][sid]
        if fleet.afloat(ship) and not ship.get("beached"):
            (own if ship["side"] == player else theirs).append(ship)
    if not own or not theirs:
        return None
    enemy = np.concatenate([shipgeom.placed(grid, s).cubes() for s in theirs])
    enemy_ids = {s["id"] for s in theirs}
    total = weight = 0.0
    for ship in own:
        gap = min(int(grid.distances(hull[:, None], enemy[None, :]).min()) for hull in _courses(grid, state, ship))
        hooks = sum(1 for g in state["grapples"].values() if g["status"] == "hooked" and
                    {g["ship"], g.get("hook_ship")} & enemy_ids and ship["id"] in (g["ship"], g.get("hook_ship")))
        # the drakkar matters more than the skiff: weighted by its size, not by the crew aboard now
        # (by the crew, a man leaving a boat far from the enemy made the mean look nearer)
        crew = ship_types()[ship["type"]]["sinks_at"]
        total += crew * min(SEA_REACH + HOOK_HEXES,
                            max(0, gap - HOOK_HEXES * min(hooks, 3)) + (0 if hooks else HOOK_HEXES))
        weight += crew
    return total / (weight * (SEA_REACH + HOOK_HEXES))


def _courses(grid: Any, state: State, ship: dict[str, Any]) -> list[Any]:
    """Cube arrays of where the boat may lie at the end of its moves this phase: straight on, or
    after one 60-degree turn either way (which costs a move)."""
    here = shipgeom.placed(grid, ship)
    ahead = _moves_ahead(state, ship)
    if ahead == 0:
        return [here.cubes()]
    step = 1 if ahead > 0 else -1
    out = [here.advance(ahead).cubes()]
    for turn in (-1, 1):
        out.append(here.turn(turn).advance(ahead - step).cubes())
    return out


def _moves_ahead(state: State, ship: dict[str, Any]) -> int:
    """Hexes the boat will still move straight on this phase (negative: astern): its chosen speed
    marker in the speed step, its moves left in the movement step, else nothing."""
    pending = ship.get("pending")
    if isinstance(pending, int) and not isinstance(pending, bool):
        return pending
    if state["phase_index"] in (0, 2) and state["naval"]["step"] in ("movement", "window") and not ship.get("done"):
        left = max(0, abs(ship["speed"]) - ship.get("moves", 0))
        return left if ship["speed"] >= 0 else -left
    return 0
