"""How a SAGA position looks to a player (computer players search with it).

:func:`evaluate` starts from the measure of :func:`simulator.games.saga.victory.evaluate`
(living strength 60 %, victory points 30 %, fatigue 10 %, each a difference between the player
and the average opponent) and adds two terms for what that measure cannot see:

* the Warlord: losing him ends several scenarios and costs the most VP; his share of the
  strength is small, so his wounds left weigh in on their own;
* approach: the mean distance from the player's units (the Warlord stays out of it: he is
  worth more alive at the back) to the nearest enemy figure, as a share
  of the table's diagonal. It is small and only breaks ties between moves that change nothing
  else, so the armies close in instead of waiting for the turn limit.

* orders: in the player's own Orders Phase, each SAGA die placed on an activation box that a
  living unit can use counts more than one on an ability, and an unplaced die nothing, so the
  dice go where they will move and fight (the battle board's boxes, from the faction data).

A finished game is 1 / -1 / 0; unfinished ones stay inside (-0.95, 0.95).
"""

from __future__ import annotations

import math
from typing import Any

from simulator.games.saga import catalogue as cat
from simulator.games.saga import victory
from simulator.games.saga.units import live_units

State = dict[str, Any]

APPROACH_WEIGHT = 0.05
WARLORD_WEIGHT = 0.25
ACTIVATION_DIE = 0.01
ABILITY_DIE = 0.003


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
            continue
        box = cat.box(side["faction"], box_id) or {}
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
    table = state.get("table") or {}
    diag = math.hypot(float(table.get("width", 48)), float(table.get("height", 48))) or 1.0
    enemy_points = [(f["x"], f["y"]) for p in state["players"] if p != player
                    for u in live_units(state, p) for fid in u["figures"]
                    if (f := state["figures"].get(fid)) is not None]
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
    return max(-0.95, min(0.95, value))


EXPOSURE_RANGE = 12.0        # inches: a move and a charge


def exposure(state: State, player: str) -> float:
    """0 (the player's Warlord at least ``EXPOSURE_RANGE`` from every enemy figure) to 1 (in
    contact): a Warlord in the open is a Warlord the enemy can charge."""
    lord = next((u for u in live_units(state, player) if u["cls"] == "warlord"), None)
    centre = _centre(state, lord) if lord else None
    if centre is None:
        return 0.0
    enemy = [(f["x"], f["y"]) for p in state["players"] if p != player
             for u in live_units(state, p) for fid in u["figures"] if (f := state["figures"].get(fid)) is not None]
    if not enemy:
        return 0.0
    near = min(math.hypot(centre[0] - x, centre[1] - y) for x, y in enemy)
    return max(0.0, 1.0 - near / EXPOSURE_RANGE)


def heuristic(state: State, player: str) -> float:
    """A player-side shaping term, -1..0, for the computer's normal level (outside the
    value): the player's units (not the Warlord) the nearer the enemy, so it fights for
    massacre points, and the Warlord kept out of charge range (his death ends several
    scenarios, and a random opponent throws its own Warlord at him)."""
    return 0.4 * approach(state, player) - 0.6 * exposure(state, player)
