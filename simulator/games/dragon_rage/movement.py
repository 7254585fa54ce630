"""Ground movement of troops, characters, minor monsters and elementals (DR 2.4, 2.5).

Reachable hexes come from :func:`simulator.geometry.hexmove.reachable` with this game's
step rule (terrain, hexsides, entrances) and stacking. A unit moves with its normal MP, or
with its road MP when it started on the road and every step follows the road (DR 2.4.5);
it may move in several pieces during its movement phase, but never mixes the two.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.geometry.hexmove import HexMap as MoveMap
from simulator.geometry.hexmove import reachable
from simulator.games.dragon_rage.board import Board, board_for, side_key
from simulator.games.dragon_rage.stacking import BLOCKED, FREE, PASS, STOP_ONLY, stack_status
from simulator.games.dragon_rage.terrain_rules import may_end_in, move_class, step_block
from simulator.games.dragon_rage.units import State, Unit, is_major, kind, spec


@lru_cache(maxsize=8)
def move_map(map_ref: str) -> MoveMap:
    board = board_for(map_ref)
    return MoveMap(board.grid, board.labels)


def whirlwind_hexes(state: State) -> set[str]:
    return {w["hex"] for w in state["whirlwinds"]}


def mp_allowances(unit: Unit, board: Board) -> tuple[int, int]:
    """(normal MP left, road MP left); negative means that kind of move is no longer possible."""
    s = spec(unit)
    mp = s.get("mp")
    if mp is None or unit.get("move_done") or unit.get("captive"):
        return -1, -1

    normal = int(mp) - unit["mp_used"]
    road_mp = s.get("road_mp")
    road = -1
    start = unit.get("turn_start_hex", unit["hex"])
    if road_mp is not None and unit["road_only"] and start in board.road_hexes:
        road = int(road_mp) - unit["mp_used"]
    return normal, road


def reach(state: State, unit: Unit) -> dict[str, tuple[float, bool]]:
    """Every hex the unit may end its move in now: ``{hex: (cost, by_road)}``."""
    board = board_for(state["map"])
    mm = move_map(state["map"])
    normal, road = mp_allowances(unit, board)
    out: dict[str, tuple[float, bool]] = {}
    if normal <= 0 and road <= 0:
        return out
    blocked, no_stop, stop_only = _stack_sets(state, board, unit)
    whirl = whirlwind_hexes(state) if kind(unit) in ("minor_monster",) else set()

    def entry(h: str) -> float:
        return 1.0 + (1.0 if h in whirl else 0.0)

    def side_rule(a: str, b: str) -> float | None:
        if step_block(state, board, unit, a, b) is not None:
            return None
        return 1.0 if a in whirl else 0.0

    def road_rule(a: str, b: str) -> float | None:
        if side_key(a, b) not in board.road_sides:
            return None
        return side_rule(a, b)

    starts = _starts(state, unit)
    if not starts:
        return out
    base = 1.0 if unit["hex"] is None else 0.0
    for budget, rule, by_road in ((normal, side_rule, False), (road, road_rule, True)):
        if budget - base < 0:
            continue
        r = reachable(mm, starts, entry_cost=entry, hexside_rule=rule, blocked=blocked | stop_only,
                      no_stop=no_stop, budget=budget - base)
        for h in r.endable:
            cost = r.cost[h] + base
            if h == unit["hex"] or may_end_in(state, board, unit, h) is not None:
                continue
            if h not in out or cost < out[h][0]:
                out[h] = (cost, by_road)
        # a hero may step under a major monster; his move ends there (DR 2.4.4)
        for h in stop_only:
            best = None
            for n in board.neighbours[h]:
                if n is not None and n in r.endable | ({unit["hex"]} if unit["hex"] else set()) and \
                        rule(n, h) is not None:
                    c = r.cost.get(n, 0.0) + base + 1.0
                    if c <= budget and (best is None or c < best):
                        best = c
            if best is not None and (h not in out or best < out[h][0]):
                out[h] = (best, by_road)
    return out


def _starts(state: State, unit: Unit) -> list[str]:
    if unit["hex"] is not None:
        return [unit["hex"]]
    return [h for h in unit.get("entry", []) if stack_status(state, unit, h) == FREE]


def _stack_sets(state: State, board: Board, unit: Unit) -> tuple[set[str], set[str], set[str]]:
    blocked: set[str] = set()
    no_stop: set[str] = set()
    stop_only: set[str] = set()
    occupied = {u["hex"] for u in state["units"].values()
                if u["alive"] and u["hex"] is not None and u["id"] != unit["id"] and not u.get("flying")}
    for h in occupied:
        st = stack_status(state, unit, h, in_tower=h in board.towers)
        if st == BLOCKED:
            blocked.add(h)
        elif st == PASS:
            no_stop.add(h)
        elif st == STOP_ONLY:
            stop_only.add(h)
    return blocked, no_stop, stop_only


def path_to(state: State, unit: Unit, to: str, by_road: bool) -> list[str]:
    """The cheapest legal path (start included) the move follows."""
    board = board_for(state["map"])
    mm = move_map(state["map"])
    blocked, no_stop, stop_only = _stack_sets(state, board, unit)
    whirl = whirlwind_hexes(state) if kind(unit) == "minor_monster" else set()

    def rule(a: str, b: str) -> float | None:
        if by_road and side_key(a, b) not in board.road_sides:
            return None
        if step_block(state, board, unit, a, b) is not None:
            return None
        return 1.0 if a in whirl else 0.0

    r = reachable(mm, _starts(state, unit), entry_cost=lambda h: 1.0 + (1.0 if h in whirl else 0.0),
                  hexside_rule=rule, blocked=(blocked | stop_only) - {to})
    return r.path_to(to)


def move(state: State, ctx: Context, unit: Unit, to: Any) -> list[str]:
    """Move a non-major unit to ``to``; returns the path. Raises IllegalAction with the rule."""
    board = board_for(state["map"])
    if not isinstance(to, str) or to not in board:
        raise IllegalAction(f"'to' must be a hex of the map, got {to!r}", "DR 2.4")
    if spec(unit).get("mp") is None:
        raise IllegalAction(f"{unit['id']} cannot move", "DR 2.10.8")
    if unit.get("captive"):
        raise IllegalAction("Elowyn must be freed by a human unit before she moves", "DR 2.10.7")
    if unit.get("move_done"):
        raise IllegalAction(f"{unit['id']} has finished moving this phase (it climbed or tried an entrance)",
                            "DR 2.5.3.1")
    if kind(unit) == "elemental" and unit.get("summoned_turn") == state["turn"]:
        raise IllegalAction("an elemental cannot move in the turn it is summoned", "DR 2.8.9")
    options = reach(state, unit)
    if to not in options:
        raise IllegalAction(explain_unreachable(state, unit, to), "DR 2.4")
    cost, by_road = options[to]
    path = path_to(state, unit, to, by_road)
    unit["mp_used"] += int(cost)
    if not by_road:
        unit["road_only"] = False
    unit["moved"] = True
    before = unit["hex"]
    unit["hex"] = to
    from simulator.games.dragon_rage.arrival import entered_hex, left_hex
    left_hex(state, ctx, unit, before)
    ctx.emit("move", f"{unit['id']} moves {before or 'onto the map'} -> {to} "
                     f"({int(cost)} MP{' by road' if by_road else ''})", "DR 2.4.1",
             pieces=[unit["id"]], path=path, cost=int(cost))
    for h in (path[1:] if before is not None else path):
        if unit["alive"]:
            entered_hex(state, ctx, unit, h)
    return path


def explain_unreachable(state: State, unit: Unit, to: str) -> str:
    """Why ``to`` is out of reach: the first rule broken on the way, or the MP."""
    board = board_for(state["map"])
    start = unit["hex"]
    if start is not None and board.direction(start, to) is not None:
        block = step_block(state, board, unit, start, to)
        if block:
            return f"{block[0]} ({block[1]})"
        st = stack_status(state, unit, to, in_tower=to in board.towers)
        if st in (BLOCKED, PASS):
            return f"{to} is occupied: stacking forbids it (DR 2.4.3)"
        end = may_end_in(state, board, unit, to)
        if end:
            return f"{end[0]} ({end[1]})"
    normal, road = mp_allowances(unit, board)
    return f"{unit['id']} cannot reach {to} with {max(normal, road, 0)} MP left by a legal path"
