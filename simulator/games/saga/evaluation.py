"""How a SAGA position looks to a player (computer players search with it).

:func:`evaluate` starts from the measure of :func:`simulator.games.saga.victory.evaluate`
(living strength 60 %, victory points 30 %, fatigue 10 %, each a difference between the player
and the average opponent) and adds terms for what that measure cannot see:

* the Warlord: losing him ends several scenarios and costs the most VP; his share of the
  strength is small, so his wounds left weigh in on their own;
* approach: the mean distance from the player's units (the Warlord stays out of it: he is
  worth more alive at the back) to the nearest enemy figure, as a share
  of the table's diagonal. It is small and only breaks ties between moves that change nothing
  else, so the armies close in instead of waiting for the turn limit.

* orders: in the player's own Orders Phase, each SAGA die placed on an activation box that a
  living unit can use counts more than one rolled and not yet placed, which counts more than one
  on an ability, so the dice go where they will move and fight (the battle board's boxes, from
  the faction data) and dice left on abilities are rolled again.
* the turn limit: in the last player-turns of the game the result the limit would give now
  (``victory.outcome(state, at_limit=True)``) takes a growing share, all of it but a tie-break in
  the game's very last player-turn, where nothing else counts any more (``LIMIT_WEIGHTS``).
* the ford (scenario 2): the far-bank VP balance, which decides that game (kills score nothing
  there), weighing more turn by turn up to ``FORD_WEIGHT`` in the last.

A finished game is 1 / -1 / 0; unfinished ones stay inside (-0.95, 0.95).

:func:`heuristic` is the normal computer player's own shaping term (not zero-sum, outside the
value): the Warlord's exposure, the units' fatigue, their approach to the enemy and his Warlord,
and in scenario 2 the way over the fords and the far-bank VP (docs/ai.md).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.games.saga import catalogue as cat
from simulator.games.saga import board, victory
from simulator.games.saga.casualties import bodyguards
from simulator.games.saga.units import live_units, profile, warlord
from simulator.geometry.segments import points_in_polygon
from simulator.geometry.table import Shapes, distance_matrix, point_polygon_distance

State = dict[str, Any]

APPROACH_WEIGHT = 0.05
WARLORD_WEIGHT = 0.25
ACTIVATION_DIE = 0.01
ABILITY_DIE = 0.003
#: A die rolled and not yet placed: more than one left on an ability from the last turn, so a
#: player rerolls ability dice (keeping them, it rolled nothing new and activated nobody for
#: turns on end), less than one placed on an activation box.
HAND_DIE = 0.005
#: Scenario 2 (SAGA p.52): the weight of the far-bank VP balance (what decides the game), times
#: (1 + turn / last turn) / 2: it grows to all of it in the last turn (the kills the base measure
#: counts score nothing there).
FORD_WEIGHT = 0.4
#: The share of the value that is the result the turn limit would give now, by the player-turns
#: left in the game, this one included (the last, the one before, ...). In the last player-turn
#: only that result counts: 4 VP behind, a charge that might still turn it is worth the figures
#: it risks, which the measure of strength alone counts against it (a read quick-start game
#: rested its warriors instead). The result weighs 0.8 (a won game is 1), so a result kept on
#: the limit ranks above any other.
LIMIT_WEIGHTS = (0.85, 0.45, 0.2)


def player_turns_left(state: State) -> int:
    """The player-turns still to play before the turn limit, the current one included."""
    order = state.get("order") or state["players"]
    current = state.get("turn_player")
    done = order.index(current) if current in order else 0
    return max(0, (state["max_turns"] - state["turn"]) * len(order) + len(order) - done)


def at_limit(state: State, player: str) -> float:
    """1 / -1 / 0: ``player``'s result if the turn limit were reached now."""
    out = victory.outcome(state, at_limit=True)
    if out is None or out.winner is None:
        return 0.0
    return 1.0 if out.winner == player else -1.0


def orders(state: State, player: str) -> float:
    """The worth of the dice ``player`` has placed this Orders Phase (0 outside it)."""
    if state.get("phase") != "orders" or state.get("active") != player:
        return 0.0
    side = state["sides"][player]
    classes: dict[str, int] = {}
    for u in live_units(state, player):
        cls = "hearthguard" if u["cls"] == "warlord" else u["cls"]
        classes[cls] = classes.get(cls, 0) + 1
    used: dict[str, int] = {}
    value = 0.0
    for die in side["dice"]:
        box_id = die.get("box")
        if not box_id:
            value += HAND_DIE if die.get("face") is not None else 0.0
            continue
        box = board.find_box(state, player, box_id) or {}     # a second board's boxes too
        effect = box.get("effect") or {}
        if effect.get("kind") == "activate":
            cls = effect.get("class")
            if used.get(cls, 0) < classes.get(cls, 0):
                used[cls] = used.get(cls, 0) + 1
                value += ACTIVATION_DIE
            continue
        value += ABILITY_DIE
    return value


def _centre(state: State, unit: dict[str, Any]) -> tuple[float, float] | None:
    figs = [state["figures"][f] for f in unit["figures"] if f in state["figures"]]
    if not figs:
        return None
    return (sum(f["x"] for f in figs) / len(figs), sum(f["y"] for f in figs) / len(figs))


def approach(state: State, player: str) -> float:
    """0 (every unit of ``player`` touching an enemy) down to -1 (all a table's diagonal away)."""
    diag = _diagonal(state)
    enemy_points = _enemy_points(state, player)
    mine = [c for u in live_units(state, player) if u["cls"] != "warlord" and (c := _centre(state, u)) is not None]
    if not mine or not enemy_points:
        return 0.0
    total = 0.0
    for x, y in mine:
        total += min(math.hypot(x - ex, y - ey) for ex, ey in enemy_points)
    return -min(1.0, total / (len(mine) * diag))


def warlord_health(state: State, player: str) -> float:
    """1 with the Warlord alive (less by the wounds he has taken), 0 when he is dead."""
    for u in state["units"].values():
        if u["owner"] == player and u["cls"] == "warlord":
            if not any(f in state["figures"] for f in u["figures"]):
                return 0.0
            wounds = state.get("wounds", {}).get(u["id"], 0)
            return 1.0 / (1.0 + (float(wounds) if isinstance(wounds, (int, float)) else 0.0))
    return 1.0


def evaluate(state: State, player: str) -> float:
    """From -1 (lost) to 1 (won) for ``player``."""
    base = victory.evaluate(state, player)
    if base in (1.0, -1.0) or victory.outcome(state) is not None:
        return base
    foes = [p for p in state["players"] if p != player]
    if not foes:
        return base
    lord = warlord_health(state, player) - sum(warlord_health(state, p) for p in foes) / len(foes)
    value = base + WARLORD_WEIGHT * lord + APPROACH_WEIGHT * approach(state, player) + orders(state, player)
    if state.get("victory") == "ford":
        value += FORD_WEIGHT * (0.5 + 0.5 * min(1.0, state["turn"] / max(1, state["max_turns"]))) * across(state, player)
    left = player_turns_left(state) if state.get("phase") != "setup" else 0
    if 1 <= left <= len(LIMIT_WEIGHTS):
        share = LIMIT_WEIGHTS[left - 1]
        value = (1.0 - share) * max(-0.95, min(0.95, value)) + share * 0.8 * at_limit(state, player)
    return max(-0.95, min(0.95, value))


EXPOSURE_RANGE = 12.0        # inches: a move and a charge
#: Scenarios lost with the Warlord (SAGA p.51, p.54, quick-start): the units hunt the enemy's.
WARLORD_HUNT = ("warlords_fury", "quickstart", "challenge")


def _diagonal(state: State) -> float:
    table = state.get("table") or {}
    return math.hypot(float(table.get("width", 48)), float(table.get("height", 48))) or 1.0


def _enemy_points(state: State, player: str) -> list[tuple[float, float]]:
    return [(f["x"], f["y"]) for p in state["players"] if p != player
            for u in live_units(state, p) for fid in u["figures"] if (f := state["figures"].get(fid)) is not None]


def exposure(state: State, player: str) -> float:
    """0 (the player's Warlord at least ``EXPOSURE_RANGE`` from every enemy figure) to 1 (in
    contact): a Warlord in the open is a Warlord the enemy can charge. Bodyguards (friendly
    figures within VS, SAGA p.33) take his hits: one halves the danger, two or more quarter it."""
    lord = next((u for u in live_units(state, player) if u["cls"] == "warlord"), None)
    centre = _centre(state, lord) if lord else None
    if lord is None or centre is None:
        return 0.0
    enemy = _enemy_points(state, player)
    if not enemy:
        return 0.0
    near = min(math.hypot(centre[0] - x, centre[1] - y) for x, y in enemy)
    danger = max(0.0, 1.0 - near / EXPOSURE_RANGE)
    guards = len(bodyguards(state, lord["id"]))
    return danger * (1.0 if guards == 0 else 0.5 if guards == 1 else 0.25)


def tiredness(state: State, player: str) -> float:
    """0 (no fatigue) to 1 (every unit exhausted, SAGA p.25): each unit's fatigue as a share of its
    limit, squared (the first fatigue costs little, the last before exhaustion a lot), averaged."""
    units = [u for u in live_units(state, player) if not u.get("baggage")]
    if not units:
        return 0.0
    return sum(min(1.0, u["fatigue"] / max(1, profile(u)["fatigue_limit"])) ** 2 for u in units) / len(units)


def hunt(state: State, player: str) -> float:
    """0 (the player's units, the Warlord apart, touching the enemy Warlord) to 1 (a table's
    diagonal away); 0 when there is no enemy Warlord to hunt."""
    foes = [w for p in state["players"] if p != player and (w := warlord(state, p)) is not None]
    mine = [c for u in live_units(state, player) if u["cls"] != "warlord" and not u.get("baggage")
            and (c := _centre(state, u)) is not None]
    targets = [c for w in foes if (c := _centre(state, w)) is not None]
    if not mine or not targets:
        return 0.0
    total = sum(min(math.hypot(x - tx, y - ty) for tx, ty in targets) for x, y in mine)
    return min(1.0, total / (len(mine) * _diagonal(state)))


def _fords(state: State, far: list[list[float]]) -> list[tuple[float, float, float]]:
    """The centre of each ford and its distance to the far bank ``far`` (remembered by the fords'
    outlines: the same table asks the same question for every evaluated position, and a crossing
    the players place keeps its id but not its place)."""
    fords = tuple(tuple(tuple(p) for p in t["polygon"]) for t in state["terrain"]
                  if t.get("type") == "ford" and t.get("polygon"))
    key = (fords, tuple(tuple(v) for v in far))
    if key not in _FORDS:
        out = []
        for poly in fords:
            fx, fy = (float(v) for v in np.mean(np.asarray(poly, dtype=np.float64), axis=0))
            out.append((fx, fy, point_polygon_distance((fx, fy), far)))
        _FORDS[key] = out
    return _FORDS[key]


_FORDS: dict[Any, list[tuple[float, float, float]]] = {}


def crossing(state: State, player: str) -> float:
    """Scenario 2 (SAGA p.52): 0 (every unit of ``player`` on the far bank) to 1 (all a table's
    diagonal from it; by the nearer ford while on the near bank, the river being crossed only
    there), the unit weighted by the VP its figures would score there."""
    far = (state.get("far_side") or {}).get(player)
    if not far:
        return 0.0
    units = [(u, c) for u in live_units(state, player) if not u.get("baggage") and (c := _centre(state, u)) is not None]
    if not units:
        return 0.0
    direct = distance_matrix(Shapes.circles([[x, y, 0.0] for _, (x, y) in units]), Shapes.polygons([far]))[:, 0]
    fords = _fords(state, far)
    diag = _diagonal(state)
    total = weight = 0.0
    for (u, (x, y)), straight in zip(units, direct):
        way = float(straight)
        if way > 0.0 and fords:
            way = min(math.hypot(x - fx, y - fy) + beyond for fx, fy, beyond in fords)
        worth = float(victory.vp_of({u["cls"]: len(u["figures"])}))
        total += worth * min(1.0, way / diag)
        weight += worth
    return total / weight if weight else 0.0


def _far_bank_vp(state: State, player: str, bank: list[list[float]]) -> int:
    """The VP ``player``'s figures standing on ``bank`` would score (SAGA p.52), in one pass."""
    figures = [(u["cls"], state["figures"][f]) for u in live_units(state, player) if not u.get("baggage")
               for f in u["figures"] if f in state["figures"]]
    if not figures:
        return 0
    inside = points_in_polygon(np.array([[f["x"], f["y"]] for _, f in figures]), bank, eps=0.0)
    counts: dict[str, int] = {}
    for (cls, _), ok in zip(figures, inside):
        if ok:
            counts[cls] = counts.get(cls, 0) + 1
    return victory.vp_of(counts)


def across(state: State, player: str) -> float:
    """Scenario 2: the far-bank VP the player would score now less the opponents' average, as a
    share of their sum (-1..1); 0 outside scenario 2."""
    banks = state.get("far_side") or {}
    if state.get("victory") != "ford" or not banks:
        return 0.0
    score = {p: _far_bank_vp(state, p, banks[p]) if banks.get(p) else 0 for p in state["players"]}
    foes = [score[p] for p in state["players"] if p != player]
    avg = sum(foes) / len(foes) if foes else 0.0
    total = score[player] + avg
    return 0.0 if total <= 0 else (score[player] - avg) / total


def heuristic(state: State, player: str) -> float:
    """A player-side shaping term, -1..0, for the computer's normal level (outside the
    value): the player's units (not the Warlord) the nearer the enemy, so it fights for
    massacre points, and nearer the enemy Warlord where his death ends the game; the Warlord
    kept out of charge range unless guarded (his death ends several scenarios, and a random
    opponent throws its own Warlord at him); fatigue kept low (SAGA p.24-25); in scenario 2 the
    units over the fords and the far-bank VP ahead of the enemy's."""
    kind = state.get("victory")
    value = -HEURISTIC["exposure"] * exposure(state, player) - HEURISTIC["fatigue"] * tiredness(state, player)
    if kind == "ford":
        value += HEURISTIC["approach_ford"] * approach(state, player) - HEURISTIC["crossing"] * crossing(state, player)
        value += HEURISTIC["across"] * (across(state, player) - 1.0) / 2.0
    else:
        value += HEURISTIC["approach"] * approach(state, player)
        if kind in WARLORD_HUNT:
            value -= HEURISTIC["hunt"] * hunt(state, player)
    return max(-1.0, min(0.0, value))


#: Weights of the heuristic's terms (each term 0..1; the weights of a scenario sum to 1).
HEURISTIC = {"exposure": 0.35, "fatigue": 0.2, "approach": 0.3, "hunt": 0.15,
             "approach_ford": 0.1, "crossing": 0.15, "across": 0.2}
