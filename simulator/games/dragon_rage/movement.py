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
from simulator.games.dragon_rage.stacking import (BLOCKED, FREE, PASS, STOP_ONLY, on_deck, stack_status,
                                                  status_among)
from simulator.games.dragon_rage.terrain_rules import FATAL_STEP, elemental_doom, may_end_in, move_class, step_block
from simulator.games.dragon_rage.units import State, Unit, is_monster, kind, spec


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
    if mp is None or unit.get("move_done") or unit.get("captive") or unit.get("controlled") is False:
        return -1, -1

    normal = int(mp) - unit["mp_used"]
    road_mp = s.get("road_mp")
    road = -1
    start = unit.get("turn_start_hex", unit["hex"])
    if road_mp is not None and unit["road_only"] and start in board.road_hexes:
        road = int(road_mp) - unit["mp_used"]
    return normal, road


def reach(state: State, unit: Unit, occupied: dict[str, list[Unit]] | None = None) -> dict[str, tuple[float, bool]]:
    """Every hex the unit may end its move in now: ``{hex: (cost, by_road)}``.

    ``occupied`` (grounded living units by hex, see :func:`occupancy`) may be passed when
    asking for many units of one position."""
    return {h: (c, road) for h, (c, road, _) in _reach(state, unit, occupied, False).items()}


class Occupancy(dict):  # type: ignore[type-arg]
    """Grounded living units by hex (``{hex: [unit, ...]}``) for one position, with caches of
    what is shared by many units asking about that same position: stacking answers by kind of
    mover and step answers by (move class, side, hexside)."""

    def __init__(self, state: State) -> None:
        super().__init__()
        for u in state["units"].values():
            if u["alive"] and u["hex"] is not None and not u.get("flying"):
                self.setdefault(u["hex"], []).append(u)
        self.stack_sets: dict[tuple[Any, ...], tuple[set[str], set[str], set[str]]] = {}
        #: What besides the units changes movement: gates and doors, bridges, dead monsters, whirlwinds.
        self.world: tuple[Any, ...] = (
            state["map"],
            tuple((k, e["broken"], bool(e.get("open")), e["controller"]) for k, e in sorted(state["entrances"].items())),
            tuple(sorted(state["bridges"].items())), tuple(state["impassable"]),
            tuple(sorted(w["hex"] for w in state["whirlwinds"])), tuple(state.get("broken_walls") or ()))
        steps = _STEP_CACHE.get(self.world)
        if steps is None:
            if len(_STEP_CACHE) > 64:
                _STEP_CACHE.clear()
            steps = _STEP_CACHE[self.world] = {}
        self.steps: dict[tuple[str, str], dict[tuple[str, str], bool]] = steps

    def near(self, state: State, hex_: str, radius: int) -> tuple[Any, ...]:
        """Who stands within ``radius`` of ``hex_`` (side and type per hex): all that stacking
        can depend on for a move of at most ``radius`` MP from ``hex_``."""
        zone = _within(state["map"], hex_, radius)
        return tuple((h, tuple((u["side"], u["type"], u["id"]) for u in us))
                     for h, us in sorted(self.items()) if h in zone)


#: Step answers (passable or not) by world signature, then (move class, side), then (a, b).
_STEP_CACHE: dict[tuple[Any, ...], dict[tuple[str, str], dict[tuple[str, str], bool]]] = {}
#: Reachable sets by (world, unit, units near it): a move elsewhere on the map keeps them valid.
_REACH_CACHE: dict[tuple[Any, ...], dict[str, tuple[float, bool, list[str]]]] = {}


@lru_cache(maxsize=4096)
def _within(map_ref: str, hex_: str, radius: int) -> frozenset[str]:
    return frozenset(board_for(map_ref).within(hex_, radius))


def occupancy(state: State) -> Occupancy:
    """Grounded living units by hex."""
    return Occupancy(state)


def _stack_key(unit: Unit) -> tuple[Any, ...]:
    """Units with equal keys get equal stacking answers (see :func:`.stacking.status_among`)."""
    return (unit["side"], kind(unit), unit["type"] in ("hero", "invader_hero"), unit["type"])


def _reach(state: State, unit: Unit, occupied: dict[str, list[Unit]] | None,
           with_paths: bool) -> dict[str, tuple[float, bool, list[str]]]:
    board = board_for(state["map"])
    normal, road = mp_allowances(unit, board)
    if normal <= 0 and road <= 0:
        return {}
    occ = occupied if isinstance(occupied, Occupancy) else Occupancy(state)
    if unit["hex"] is None:
        return _reach_now(state, board, unit, occ, normal, road, with_paths)
    key = (occ.world, unit["id"], unit["type"], unit["side"], unit["hex"], normal, road, with_paths,
           unit.get("escorting"),
           occ.near(state, unit["hex"], max(normal, road)))
    found = _REACH_CACHE.get(key)
    if found is None:
        if len(_REACH_CACHE) > 20000:
            _REACH_CACHE.clear()
        found = _REACH_CACHE[key] = _reach_now(state, board, unit, occ, normal, road, with_paths)
    return found


def _reach_now(state: State, board: Board, unit: Unit, occ: Occupancy, normal: int, road: int,
               with_paths: bool) -> dict[str, tuple[float, bool, list[str]]]:
    mm = move_map(state["map"])
    out: dict[str, tuple[float, bool, list[str]]] = {}
    blocked, no_stop, stop_only = _stack_sets(state, board, unit, occ)
    whirl = whirlwind_hexes(state) if kind(unit) in ("minor_monster",) else set()
    steps = occ.steps.setdefault((move_class(unit), unit["side"]), {})

    def entry(h: str) -> float:
        return 1.0 + (1.0 if h in whirl else 0.0)

    def side_rule(a: str, b: str) -> float | None:
        ok = steps.get((a, b))
        if ok is None:
            ok = steps[(a, b)] = step_block(state, board, unit, a, b) is None
        if not ok:
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
            if unit.get("escorting") and h in occ:
                continue    # Elowyn comes along: the escort ends only in an empty hex (DR 2.10.7)
            if h not in out or cost < out[h][0]:
                out[h] = (cost, by_road, r.path_to(h) if with_paths else [])
        # a hero may step under a major monster; his move ends there (DR 2.4.4)
        for h in stop_only:
            best: tuple[float, str] | None = None
            for n in board.neighbours[h]:
                if n is not None and n in r.endable | ({unit["hex"]} if unit["hex"] else set()) and \
                        rule(n, h) is not None:
                    c = r.cost.get(n, 0.0) + base + 1.0
                    if c <= budget and (best is None or c < best[0]):
                        best = (c, n)
            if best is not None and (h not in out or best[0] < out[h][0]):
                out[h] = (best[0], by_road, [*r.path_to(best[1]), h] if with_paths else [])
    return out


def _starts(state: State, unit: Unit) -> list[str]:
    if unit["hex"] is not None:
        return [unit["hex"]]
    return [h for h in unit.get("entry", []) if stack_status(state, unit, h) == FREE]


def _stack_sets(state: State, board: Board, unit: Unit,
                occupied: dict[str, list[Unit]] | None = None) -> tuple[set[str], set[str], set[str]]:
    """(blocked, pass-only, stop-only) hexes for ``unit``; its own hex is in none of them."""
    occ = occupied if isinstance(occupied, Occupancy) else Occupancy(state)
    key = _stack_key(unit)
    if key not in occ.stack_sets:
        sets: tuple[set[str], set[str], set[str]] = (set(), set(), set())
        for h, here in occ.items():
            st = status_among(unit, on_deck(board.terrain[h], unit, here), in_tower=h in board.towers)
            if st == BLOCKED and under_bridge(state, board, unit, h, here):
                st = FREE
            if st == BLOCKED:
                sets[0].add(h)
            elif st == PASS:
                sets[1].add(h)
            elif st == STOP_ONLY:
                sets[2].add(h)
        occ.stack_sets[key] = sets
    blocked, no_stop, stop_only = (set(x) for x in occ.stack_sets[key])
    own = unit["hex"]
    if own is not None:
        for x in (blocked, no_stop, stop_only):
            x.discard(own)
    return blocked, no_stop, stop_only


def under_bridge(state: State, board: Board, unit: Unit, hex_: str, here: list[Unit]) -> bool:
    """A sea serpent swims under a bridge whoever stands on it, unless another monster is in the
    water there (DR 2.11.2.1)."""
    return unit["type"] == "sea_serpent" and "bridge" in board.terrain[hex_] and \
        state["bridges"].get(hex_) != "burned" and not any(is_monster(o) for o in here)


def fatal_reach(state: State, unit: Unit, occupied: dict[str, list[Unit]] | None = None
                ) -> dict[str, tuple[float, list[str], str]]:
    """The hexes a controlled elemental may not enter but could step into, where it would be
    destroyed (bridge, dock, ford, river, sea; DR 2.8.9): ``{hex: (cost, path, terrain)}``,
    the cheapest way being a legal move to a hex next to it and one more step."""
    if kind(unit) != "elemental" or unit["hex"] is None:
        return {}
    board = board_for(state["map"])
    normal, _ = mp_allowances(unit, board)
    if normal < 1:
        return {}
    froms = {h: (c, path) for h, (c, _, path) in _reach(state, unit, occupied, True).items()}
    froms[unit["hex"]] = (0.0, [unit["hex"]])
    out: dict[str, tuple[float, list[str], str]] = {}
    for a, (cost, path) in sorted(froms.items()):
        if cost + 1 > normal:
            continue
        for b in board.neighbours[a]:
            doom = elemental_doom(state, board, b) if b is not None else None
            if doom is None or (b in out and out[b][0] <= cost + 1) or \
                    step_block(state, board, unit, a, b, FATAL_STEP) is not None:
                continue
            out[b] = (cost + 1, [*path, b], doom)
    return out


def way_to(state: State, unit: Unit, to: str) -> list[str] | None:
    """The hexes a ``move`` of the unit to ``to`` passes, from where it stands (the way
    :func:`move` takes: the cheapest, or the fatal step of an elemental); None if it cannot go there."""
    found = _reach(state, unit, None, True).get(to)
    if found is not None:
        return found[2]
    fatal = fatal_reach(state, unit).get(to)
    return fatal[1] if fatal is not None else None


def move(state: State, ctx: Context, unit: Unit, to: Any) -> list[str]:
    """Move a non-major unit to ``to``; returns the path. Raises IllegalAction with the rule."""
    board = board_for(state["map"])
    if not isinstance(to, str) or to not in board:
        raise IllegalAction(f"'to' must be a hex of the map, got {to!r}", "DR 2.4")
    if spec(unit).get("mp") is None:
        raise IllegalAction(f"{unit['id']} cannot move", "DR 2.10.8")
    if unit.get("captive"):
        raise IllegalAction("Elowyn must be freed by a human unit before she moves", "DR 2.10.7")
    if unit.get("controlled") is False:
        raise IllegalAction(f"{unit['id']} is out of control: it moves on its own", "DR 2.8.9")
    if kind(unit) == "elemental" and unit.get("summoned_turn") == state["turn"]:
        raise IllegalAction("an elemental cannot move in the turn it is summoned", "DR 2.8.9")
    if unit.get("move_done"):
        raise IllegalAction(f"{unit['id']} has finished moving this phase (it climbed or tried an entrance)",
                            "DR 2.5.3.1")
    options = _reach(state, unit, None, True)
    doom = None
    if to not in options:
        fatal = fatal_reach(state, unit)
        if to not in fatal:
            raise IllegalAction(*explain_unreachable(state, unit, to))
        cost, path, doom = fatal[to]
        by_road = False
    else:
        cost, by_road, path = options[to]
    unit["mp_used"] += int(cost)
    if not by_road:
        unit["road_only"] = False
    unit["moved"] = True
    before = unit["hex"]
    unit["hex"] = to
    from simulator.games.dragon_rage.arrival import entered_hex, left_hex
    from simulator.games.dragon_rage.escort import escort_moved
    left_hex(state, ctx, unit, before)
    ctx.emit("move", f"{unit['id']} moves {before or 'onto the map'} -> {to} "
                     f"({int(cost)} MP{' by road' if by_road else ''})", "DR 2.4.1",
             pieces=[unit["id"]], path=path, cost=int(cost))
    for h in (path[1:] if before is not None else path):
        if h == to and doom is not None:
            from simulator.games.dragon_rage.casualties import eliminate
            eliminate(state, ctx, unit, f"an elemental entering a {doom} hex is destroyed", "DR 2.8.9")
        elif unit["alive"]:
            entered_hex(state, ctx, unit, h)
    escort_moved(state, ctx, unit, before, path)
    if kind(unit) == "elemental" and unit["alive"]:
        from simulator.games.dragon_rage.elementals import stopped_on_enemies
        stopped_on_enemies(state, unit)
    return path


def explain_unreachable(state: State, unit: Unit, to: str) -> tuple[str, str]:
    """Why ``to`` is out of reach, and the rule: the first rule broken on the way, or the MP."""
    board = board_for(state["map"])
    start = unit["hex"]
    if start is not None and board.direction(start, to) is not None:
        block = step_block(state, board, unit, start, to)
        if block:
            return block
        st = stack_status(state, unit, to, in_tower=to in board.towers)
        if st in (BLOCKED, PASS):
            return f"{to} is occupied: stacking forbids it", "DR 2.4.3"
        end = may_end_in(state, board, unit, to)
        if end:
            return end
    normal, road = mp_allowances(unit, board)
    return f"{unit['id']} cannot reach {to} with {max(normal, road, 0)} MP left by a legal path", "DR 2.4"
