"""How good a Dragon Rage position looks for a side (computer players search with it).

The invader's view, from -1 (lost) to 1 (won); the defender's is its negative:

* progress towards the VP objective (DR 2.3), the heaviest term;
* material: each side's surviving strength as a share of what it had, in point-buy costs
  (DR 3.3), a major monster counted by the share of its body points left (DR 2.12) and a
  minor monster by its hit points left;
* time: the defender wins by outlasting the invader (ten quiet turns, DR 2.2.4.2/2.3, or the
  scenario's turn limit), so the nearer those clocks run out, the worse for the invader;
* approach, a small term that only breaks ties between quiet moves: the invader's units the
  nearer the VP hexes not yet destroyed, the defender's the nearer the invaders (a move that
  changes nothing else is otherwise worth nothing, and the players would not close in).
"""

from __future__ import annotations

from typing import Any

from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.units import State, Unit, is_major, is_minor, spec

VP_WEIGHT = 0.6
MATERIAL_WEIGHT = 0.4
TIME_WEIGHT = 0.3
APPROACH_WEIGHT = 0.08
APPROACH_SCALE = 12.0          # hexes: further than this counts as far as it gets

_CUBES: dict[tuple[int, str], tuple[int, int, int]] = {}


def _cube(grid: Any, label: str) -> tuple[int, int, int]:
    key = (id(grid), label)
    c = _CUBES.get(key)
    if c is None:
        c = _CUBES[key] = tuple(int(v) for v in grid.cube(label))  # type: ignore[assignment]
    return c  # type: ignore[return-value]


def _dist(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def _mean_nearest(sources: list[tuple[int, int, int]], targets: list[tuple[int, int, int]]) -> float:
    """Mean over ``sources`` of the distance to the nearest target, scaled to 0..1."""
    if not sources or not targets:
        return 0.0
    total = 0.0
    for s in sources:
        total += min(APPROACH_SCALE, min(_dist(s, t) for t in targets))
    return total / (len(sources) * APPROACH_SCALE)


def approach(state: State) -> float:
    """-1..1 for the invader: its units near the VP hexes left, the defender's far from it."""
    from simulator.games.dragon_rage.board import board_for

    board = board_for(state["map"])
    grid = board.grid if not callable(getattr(board, "grid", None)) else board.grid()
    placed = [u for u in state["units"].values() if u["alive"] and u.get("hex")]
    inv = [_cube(grid, u["hex"]) for u in placed if u["side"] == "invader"]
    dfd = [_cube(grid, u["hex"]) for u in placed if u["side"] == "defender"]
    destroyed = state["vp"]["destroyed"]
    targets = [_cube(grid, h) for h, v in board.vp.items() if v > 0 and h not in destroyed]
    return _mean_nearest(dfd, inv) - _mean_nearest(inv, targets)


def unit_worth(unit: Unit) -> float:
    """A unit's point cost (1 for units without one)."""
    return float(spec(unit).get("points") or 1)


def health(unit: Unit) -> float:
    """Share of the unit still standing: 0 dead, 1 untouched (monsters by damage taken)."""
    if not unit["alive"]:
        return 0.0
    if is_major(unit):
        full = sum(a["hp"] * a["groups"] for a in body.areas(unit).values())
        return body.total_hp_left(unit) / full if full else 1.0
    if is_minor(unit):
        hp = spec(unit).get("hp")
        if hp:
            return max(0.0, 1.0 - unit.get("damage_taken", 0) / int(hp))
    return 0.5 if unit.get("wounded") else 1.0


def material(state: State, side: str) -> float:
    """Surviving strength of ``side`` as a share (0..1) of every unit it has had."""
    units = [u for u in state["units"].values() if u["side"] == side and u["type"] != "elowyn"]
    total = sum(unit_worth(u) for u in units)
    if total == 0:
        return 0.0
    return sum(unit_worth(u) * health(u) for u in units) / total


def time_pressure(state: State) -> float:
    """How close (0..1) the defender's clocks are to running out."""
    quiet = int(rules_data().rules["quiet_turns_for_defender_win"])
    turn = state["turn"]
    clocks = [(turn - state["last_vp_turn"]) / quiet, (turn - state["last_inside_turn"]) / quiet]
    if state.get("turn_limit"):
        clocks.append(turn / int(state["turn_limit"]))
    return max(0.0, min(1.0, max(clocks)))


def invader_value(state: State) -> float:
    over = state.get("game_over")
    if over:
        return 0.0 if over["winner"] is None else (1.0 if over["winner"] == "invader" else -1.0)
    vp = state["vp"]
    progress = max(0.0, min(1.0, vp["score"] / max(1, vp["objective"])))
    balance = material(state, "invader") - material(state, "defender")
    value = VP_WEIGHT * progress + MATERIAL_WEIGHT * balance - TIME_WEIGHT * time_pressure(state) * (1 - progress)
    value += APPROACH_WEIGHT * approach(state)
    return max(-0.99, min(0.99, value))


def evaluate(state: State, player: Any) -> float:
    """From -1 (lost) to 1 (won) for ``player`` (``invader`` or ``defender``)."""
    v = invader_value(state)
    return v if player == "invader" else -v


def heuristic(state: State, player: Any) -> float:
    """A player-side shaping term, -1..0, not part of the zero-sum value: the invader's units
    the nearer the VP hexes not yet destroyed, the defender's the nearer the invaders; a unit
    still off the map (waiting to enter) counts as far as it gets, so entering is progress. The
    computer's normal level adds it to :func:`evaluate` (``simulator/ai/players.py``)."""
    from simulator.games.dragon_rage.board import board_for

    board = board_for(state["map"])
    grid = board.grid if not callable(getattr(board, "grid", None)) else board.grid()
    living = [u for u in state["units"].values() if u["alive"] and u["type"] != "elowyn"]
    inv = [_cube(grid, u["hex"]) for u in living if u["side"] == "invader" and u.get("hex")]
    if player == "invader":
        destroyed = state["vp"]["destroyed"]
        targets = [_cube(grid, h) for h, v in board.vp.items() if v > 0 and h not in destroyed]
        sources, away = inv, sum(1 for u in living if u["side"] == "invader" and not u.get("hex"))
    else:
        targets = inv
        sources = [_cube(grid, u["hex"]) for u in living if u["side"] == "defender" and u.get("hex")]
        away = sum(1 for u in living if u["side"] == "defender" and not u.get("hex"))
    if not targets or not sources and not away:
        return 0.0
    placed = _mean_nearest(sources, targets) * len(sources)
    return -(placed + away) / (len(sources) + away)
