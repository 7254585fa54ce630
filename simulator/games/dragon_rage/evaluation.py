"""How good a Dragon Rage position looks for a side (computer players search with it).

The invader's view, from -1 (lost) to 1 (won); the defender's is its negative:

* progress towards the VP objective (DR 2.3), the heaviest term;
* material: each side's surviving strength as a share of what it had, in point-buy costs
  (DR 3.3), a major monster counted by the share of its body points left (DR 2.12) and a
  minor monster by its hit points left;
* time: the defender wins by outlasting the invader (ten quiet turns, DR 2.2.4.2/2.3, or the
  scenario's turn limit), so the nearer those clocks run out, the worse for the invader;
* approach, a small term that only breaks ties between quiet moves: the invader's units the
  nearer a VP hex not yet destroyed (:func:`pull`), the defender's the nearer the invaders.

Distances to VP hexes are the cost of the path a unit on the ground must take (round rivers and
walls, through gates and doors, over walls at a price: :func:`reach_cost`), not hex distances; a
unit that flies counts hex distance. The pull of a VP hex is weighted by its value
(:func:`target_weight`), so that destroying a hex never costs the approach more than the VP it
brings (with the nearest-hex distance alone, sacking a hex next to the army made the remaining
hexes farther and looked worse than leaving it: neither computer level ever sacked).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from simulator.geometry.hexmove import reachable
from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.board import board_for, side_key
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.terrain_rules import move_class, step_block
from simulator.games.dragon_rage.units import State, Unit, is_major, is_minor, spec

VP_WEIGHT = 0.6
MATERIAL_WEIGHT = 0.4
TIME_WEIGHT = 0.3
APPROACH_WEIGHT = 0.08
APPROACH_SCALE = 12.0          # hexes: further than this counts as far as it gets
#: Path cost (MP-like) at which a VP hex stops pulling a unit.
TARGET_SCALE = 30.0
#: Extra path cost of an entrance (it must be smashed or opened, DR 2.5.5/2.5.8) and of a wall
#: (scaled, DR 2.5.3.1): the path round by a gate is preferred unless it is much longer.
ENTRANCE_COST = 2.0
WALL_COST = 4.0

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


def _flies(unit: Unit) -> bool:
    return bool(spec(unit).get("movement", {}).get("fly")) if is_major(unit) else False


_FIELDS: dict[tuple[str, str], dict[str, dict[str, float]]] = {}


def _fields(map_ref: str, unit: Unit) -> dict[str, dict[str, float]]:
    """``{vp hex: {hex: path cost to it}}`` for ground units of ``unit``'s move class on the map
    as printed (entrances closed, bridges standing): computed once per map and class."""
    key = (map_ref, move_class(unit))
    found = _FIELDS.get(key)
    if found is None:
        found = _FIELDS[key] = _compute_fields(map_ref, unit)
    return found


def _compute_fields(map_ref: str, unit: Unit) -> dict[str, dict[str, float]]:
    from simulator.games.dragon_rage.movement import move_map

    board = board_for(map_ref)
    printed: State = {"map": map_ref, "impassable": [], "bridges": {}, "broken_walls": [], "units": {}}
    walker = {"type": unit["type"], "side": "invader"}

    def rule(a: str, b: str) -> float | None:
        # the search runs from the VP hex outwards: the unit steps b -> a
        if board.entrance(b, a) is not None:
            return ENTRANCE_COST
        if step_block(printed, board, walker, b, a) is None:
            return 0.0
        if side_key(a, b) in board.walls and a not in board.towers and b not in board.towers:
            return WALL_COST
        return None

    return {t: dict(reachable(move_map(map_ref), t, hexside_rule=rule).cost) for t in board.vp}


def reach_cost(state: State, unit: Unit, target: str) -> float:
    """The cost of the way from where ``unit`` stands to the VP hex ``target``; ``inf`` when it
    cannot get there on the ground. Off the map: one more than from the farthest of its entry
    hexes, so entering by any of them is progress (one hex may be blocked by its own side)."""
    board = board_for(state["map"])
    here = unit.get("hex")
    if _flies(unit):
        if here is not None:
            return float(board.distance(here, target))
        return 1.0 + max((board.distance(h, target) for h in unit.get("entry") or ()), default=float("inf"))
    field_ = _fields(state["map"], unit)[target]
    if here is not None:
        return field_.get(here, float("inf"))
    return 1.0 + max((field_.get(h, float("inf")) for h in unit.get("entry") or ()), default=float("inf"))


@lru_cache(maxsize=16)
def _inside_walls(map_ref: str) -> frozenset[str]:
    return frozenset(board_for(map_ref).inside_walls())


@lru_cache(maxsize=16)
def _top_vp(map_ref: str) -> int:
    return max(board_for(map_ref).vp.values(), default=1)


def target_weight(state: State, hex_: str) -> float:
    """How strongly a VP hex pulls, 0..1: the square root of its share of the map's largest
    value, so a 1 VP hex next to a unit pulls about as hard as a 5 VP one half the scale away."""
    return (board_for(state["map"]).vp[hex_] / _top_vp(state["map"])) ** 0.5


def pull(state: State, unit: Unit, targets: list[str]) -> float:
    """0..1: the best of ``target_weight x (1 - cost / TARGET_SCALE)`` over the ``targets``."""
    best = 0.0
    for t in targets:
        cost = reach_cost(state, unit, t)
        if cost < TARGET_SCALE:
            best = max(best, target_weight(state, t) * (1.0 - cost / TARGET_SCALE))
    return best


def intact_targets(state: State) -> list[str]:
    """The VP hexes the invader has not destroyed yet."""
    destroyed = state["vp"]["destroyed"]
    return [h for h, v in board_for(state["map"]).vp.items() if v > 0 and h not in destroyed]


def invader_pull(state: State) -> float:
    """0..1: the mean :func:`pull` of the living invaders (those off the map from their entry)."""
    targets = intact_targets(state)
    units = [u for u in state["units"].values()
             if u["alive"] and u["side"] == "invader" and u["type"] != "elowyn" and (u.get("hex") or u.get("offmap"))]
    if not units or not targets:
        return 0.0
    return sum(pull(state, u, targets) for u in units) / len(units)


def approach(state: State) -> float:
    """-1..1 for the invader: its units on their way to the VP hexes left (:func:`invader_pull`),
    the defender's far from them (:func:`defender_distance`)."""
    return defender_distance(state) + invader_pull(state) - 1.0


def defender_distance(state: State) -> float:
    """0..1: the defenders' mean hex distance to the nearest invader, scaled."""
    grid = board_for(state["map"]).grid
    placed = [u for u in state["units"].values() if u["alive"] and u.get("hex")]
    inv = [grid.cube(u["hex"]) for u in placed if u["side"] == "invader"]
    dfd = [grid.cube(u["hex"]) for u in placed if u["side"] == "defender"]
    return _mean_nearest(dfd, inv)


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
    """How close (0..1) the defender's clocks are to running out. An invader inside the walls
    now stops the clock of turns without one there (it is recorded at the end of the turn)."""
    quiet = int(rules_data().rules["quiet_turns_for_defender_win"])
    turn = state["turn"]
    inside = _inside_walls(state["map"])
    last_inside = turn if any(u["alive"] and u["side"] == "invader" and u["type"] != "elowyn" and u["hex"] in inside
                              for u in state["units"].values()) else state["last_inside_turn"]
    clocks = [(turn - state["last_vp_turn"]) / quiet, (turn - last_inside) / quiet]
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


#: The shares of the invader's :func:`heuristic`: :func:`defender_distance` turned round
#: (with the profile's ``shape`` of 0.1 it cancels the evaluation's term that makes an invader
#: shy of the defenders: closing in is no loss to the side that must go in), then
#: :func:`invader_pull` and VP progress.
HEURISTIC_CONTACT = 0.8
HEURISTIC_PULL = 0.1
HEURISTIC_PROGRESS = 0.1


def heuristic(state: State, player: Any) -> float:
    """A player-side shaping term, -1..0, not part of the zero-sum value, which the computer's
    normal level adds to :func:`evaluate` (``simulator/ai/players.py``, weighted by the profile's
    ``shape``). The invader's: the nearness of the defenders (see ``HEURISTIC_CONTACT``), its
    units on their way to the VP hexes left (:func:`invader_pull`, by path; a unit still off the
    map counts from its entry hexes, so entering is progress) and its VP progress. The
    defender's: its units the nearer the invaders (one off the map as far as it gets)."""
    if player == "invader":
        vp = state["vp"]
        progress = max(0.0, min(1.0, vp["score"] / max(1, vp["objective"])))
        return -(1.0 - HEURISTIC_CONTACT * (1.0 - defender_distance(state))
                 - HEURISTIC_PULL * invader_pull(state) - HEURISTIC_PROGRESS * progress)
    grid = board_for(state["map"]).grid
    living = [u for u in state["units"].values() if u["alive"] and u["type"] != "elowyn"]
    targets = [grid.cube(u["hex"]) for u in living if u["side"] == "invader" and u.get("hex")]
    sources = [grid.cube(u["hex"]) for u in living if u["side"] == "defender" and u.get("hex")]
    away = sum(1 for u in living if u["side"] == "defender" and not u.get("hex"))
    if not targets or not sources and not away:
        return 0.0
    placed = _mean_nearest(sources, targets) * len(sources)
    return -(placed + away) / (len(sources) + away)
