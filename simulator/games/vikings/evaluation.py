"""How a position looks to one side, and guesses of what it cannot see (for computer players).

:func:`evaluate` compares the fighting strength left to each side: every living character counts
its printed attack plus defence (a wounded or stunned one less, table 9.1's other counters), every
boat afloat counts by its hull points left, and the casualty points already scored (the victory
rule of ``game.scores``) weigh in too. A small approach term breaks ties between quiet moves:
how close the two sides stand, good for the stronger side and bad for the weaker, so the
stronger closes in rather than waits (and the value stays zero-sum). A finished game is worth exactly -1, 0 or 1.

:func:`determinize` fills the one secret of the game, the other side's speed markers chosen but
not yet revealed (rule 4.34), with one of the speeds that ship could legally have chosen.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from simulator.core.game import Outcome
from simulator.core.plain import copy_plain
from simulator.games.vikings import fleet
from simulator.games.vikings.catalogue import ship_types
from simulator.games.vikings.pieces import alive, ctype

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
            by_side.setdefault(ch["side"], []).append(_cube(grid, ch["hex"]))
    if len(by_side) < 2:
        return 0.0
    total, count = 0.0, 0
    for side, mine in by_side.items():
        theirs = [c for s, cs in by_side.items() if s != side for c in cs]
        for a in mine:
            total += min(APPROACH_SCALE, min(max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) for b in theirs))
            count += 1
    return 1.0 - total / (count * APPROACH_SCALE)


_CUBES: dict[tuple[int, str], tuple[int, int, int]] = {}


def _cube(grid: Any, label: str) -> tuple[int, int, int]:
    key = (id(grid), label)
    c = _CUBES.get(key)
    if c is None:
        c = _CUBES[key] = tuple(int(v) for v in grid.cube(label))  # type: ignore[assignment]
    return c  # type: ignore[return-value]


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


def heuristic(state: State, player: str) -> float:
    """A player-side shaping term, -1..0, not part of the zero-sum value: how close the
    ``player``'s living fighters stand to the nearest enemy (0 all in contact). The computer's
    normal level adds it to :func:`evaluate`, so it closes in and scores casualty points."""
    from simulator.games.vikings.game import board_of

    grid = board_of(state).grid
    grid = grid() if callable(grid) else grid
    mine, theirs = [], []
    for ch in state["chars"].values():
        if alive(ch) and ch.get("hex"):
            (mine if ch["side"] == player else theirs).append(_cube(grid, ch["hex"]))
    if not mine or not theirs:
        return 0.0
    total = sum(min(APPROACH_SCALE, min(max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) for b in theirs))
                for a in mine)
    return -total / (len(mine) * APPROACH_SCALE)
