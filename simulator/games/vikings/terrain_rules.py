"""What a hex means to a character: entry cost, cover, melee level (table 8.5, rules 2.4, 2.51, 4.83)."""

from __future__ import annotations

from typing import Any

from simulator.games.vikings import fleet
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import ship_types, terrain
from simulator.games.vikings.pieces import Char, armoured, bodies_at, living_at

State = dict[str, Any]


class Blocked(Exception):
    """A hex or hexside a character may not enter; carries the reason and the rule."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(reason)
        self.reason, self.rule = reason, rule


def hex_info(board: Board, hex_: str) -> dict[str, Any]:
    kind = board.kind(hex_)
    t = terrain()
    return t["water"][kind] if kind in ("coastal", "deep") else t["terrain"][kind]


def speeds_match(a: int, b: int) -> bool:
    """Boat-to-boat movement and combat need speeds differing by at most 1 (rule 4.82)."""
    return abs(a - b) <= 1


def step_cost(board: Board, state: State, ch: Char, a: str, b: str, mounted: bool,
              ships: dict[str, tuple[str, int]], attacking: bool = False) -> int:
    """MP to go from ``a`` to adjacent ``b`` (raises :class:`Blocked`). ``attacking``: asked for a melee
    into ``b`` (rule 2.76), where the man standing there is the one attacked, so the swimmer's "empty
    boat hex" of a climb (rule 4.86) does not apply."""
    if b not in board:
        raise Blocked(f"{b} is off the map", "VK 1.2")
    feat = board.feature(a, b)
    extra = 0
    if feat is not None:
        f = terrain()["hexsides"][feat]
        if not f["passable"]:
            raise Blocked(f"a {f['name'].lower()} between {a} and {b} cannot be crossed", f["rule"])
        if mounted and not f.get("mounted", True):
            raise Blocked(f"riders cannot pass a {f['name'].lower()}", "VK 2.51")
        extra += f.get("extra_cost", 0)
    on_a, on_b = ships.get(a), ships.get(b)
    if on_b is not None:
        if mounted:
            raise Blocked("riders cannot enter boat hexes (lead the horse by the reins)", "VK 2.51")
        ship_b = state["ships"][on_b[0]]
        rowboat = bool(ship_types()[ship_b["type"]].get("rowboat"))
        if on_a is not None and on_a[0] != on_b[0]:
            if not speeds_match(state["ships"][on_a[0]]["speed"], ship_b["speed"]):
                raise Blocked("the two boats' speeds differ by more than 1", "VK 4.82")
        elif on_a is None:
            if ship_b["speed"] not in (-1, 0, 1):
                raise Blocked("a boat can be boarded from land or water only at speed -1, 0 or 1", "VK 4.82")
            if board.is_water(a) and living_at(state).get(b) and not attacking:
                raise Blocked("a character in the sea climbs only onto an empty boat hex", "VK 4.86")
            kind_a = board.kind(a)
            extra += {"coastal": 1 if rowboat else 2, "deep": 2 if rowboat else 4}.get(kind_a, 0 if rowboat else 1)
        return int(terrain()["boat"]["move_cost"]) + extra
    if on_a is not None:
        ship_a = state["ships"][on_a[0]]
        if ship_a["speed"] not in (-1, 0, 1):
            raise Blocked("characters may leave a boat only at speed -1, 0 or 1", "VK 4.82")
        if not board.is_water(b) and not ship_types()[ship_a["type"]].get("rowboat"):
            extra += 1
    kind = board.kind(b)
    info = hex_info(board, b)
    if kind == "deep" and armoured(ch):
        raise Blocked("armoured characters never enter deep water", "VK 2.51")
    cost = info.get("mounted_cost") if mounted else info.get("move_cost")
    if cost is None:
        raise Blocked(f"riders cannot enter {info['name'].lower()}", info.get("rule", "VK 8.5"))
    people, horses = bodies_at(state, b)
    if people >= 6 or horses >= 2 or (people >= 3 and horses >= 1):
        raise Blocked(f"{b} is choked with bodies", "VK 2.51")
    if people >= 3 or horses >= 1:
        extra += 1
    return int(cost) + extra


def combat_level(board: Board, state: State, ch: Char, ships: dict[str, tuple[str, int]]) -> int:
    """+1 favourable, 0 neutral, -1 unfavourable terrain of a character (table 8.5); riders take
    the worse of their two hexes (rule 2.71)."""
    hexes = [ch["hex"], ch["front"]] if ch.get("mounted") else [ch["hex"]]
    levels = []
    for h in hexes:
        if h in ships:
            levels.append(0)
        else:
            levels.append(int(hex_info(board, h).get("combat", 0)))
    return min(levels)


def base_cover(board: Board, hex_: str, ships: dict[str, tuple[str, int]], state: State) -> str:
    if hex_ in ships:
        sid, slot = ships[hex_]
        duty = next((c.get("duty") for c in fleet.crew(state, sid) if c.get("slot") == slot), None)
        return "medium" if duty in ("rower", "helmsman") else "light"
    return str(hex_info(board, hex_).get("cover", "none"))
