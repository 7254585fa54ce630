"""Building the initial state from a scenario (DR 3): forces, placement, markers.

A force entry names a unit type, a count and where the units stand: explicit hexes (``at``),
a named map edge/zone to spread them over (``zone``), or ``offmap`` (they enter later
through the zone's hexes, Nurkott DR 3.2.1). Placement obeys the terrain and stacking rules,
so a broken scenario is reported at its line instead of producing an illegal position.
"""

from __future__ import annotations

from typing import Any

from simulator.core.game import Context
from simulator.core.scenario import Scenario
from simulator.games.dragon_rage.board import Board, board_for
from simulator.games.dragon_rage.head_start import open_step as open_head_start
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.stacking import stack_ok
from simulator.games.dragon_rage.terrain_rules import monster_land_block, water_for
from simulator.games.dragon_rage.units import State, is_human, is_major, make_unit

DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


def phase_order(first: str) -> list[str]:
    """Phase ids in play order; the defender's five phases come first in 'Scenario 2' (DR 3.1.1)."""
    phases = [p["id"] for p in rules_data().rules["phases"]]
    inv = [p for p in phases if p.startswith("invader")]
    dfd = [p for p in phases if p.startswith("defender")]
    return inv + dfd if first == "invader" else dfd + inv


def facing_index(value: Any) -> int:
    if isinstance(value, int):
        return value % 6
    return DIRECTIONS.index(str(value).upper())


def towards_centre(board: Board, hex_: str) -> int:
    """The facing from ``hex_`` whose neighbour is nearest the middle of the map."""
    cols = sorted({h[:2] for h in board.labels})
    rows = sorted({h[2:] for h in board.labels})
    centre = cols[len(cols) // 2] + rows[len(rows) // 2]
    best, best_d = 0, 10 ** 6
    for d, n in enumerate(board.neighbours[hex_]):
        if n is not None:
            dist = board.distance(n, centre)
            if dist < best_d:
                best, best_d = d, dist
    return best


def _placeable(state: State, board: Board, unit: dict[str, Any], hex_: str) -> bool:
    if hex_ not in board:
        return False
    s = rules_data().units[unit["type"]]
    water = water_for(state, board, hex_)
    if unit["type"] == "sea_serpent":
        if water is None:
            return False
    elif is_major(unit):
        if monster_land_block(state, board, unit, hex_):
            return False
    elif water is not None and unit["type"] != "giant":
        return False
    if unit["type"] == "cavalry" and hex_ in board.towers:
        return False
    if s["kind"] == "elemental" and any(t in board.terrain[hex_] for t in ("bridge", "dock", "ford", "tower")):
        return False
    unit["hex"] = hex_
    ok = stack_ok(state, hex_)
    unit["hex"] = None
    return ok


def towns() -> list[str]:
    """The towns whose own rules the rulebook gives (DR 2.1.1, 2.1.2): those with a
    reinforcement group in ``rules.yaml``."""
    return [k for k, v in rules_data().rules["reinforcements"].items() if isinstance(v, dict)]


def town_rules(scenario: Scenario, board: Board) -> str:
    """Which town's rules a map plays by: ``setup.town``, else the map's own id when it is one of
    :func:`towns` (also a shipped map given by its file path), else Esirien's, the standard rules
    of which Nurkott's are the listed exceptions (DR 2.1.2). They decide the reinforcements' type
    (DR 2.9), Elowyn's part (DR 2.10.7), breachable wooden walls (DR 2.11.2.2) and shooting
    through one's own wooden walls (DR 2.1.2)."""
    chosen = scenario.setup.get("town")
    if chosen is not None:
        if chosen not in towns():
            raise scenario.error(("setup", "town"), f"no rules for a town {chosen!r} "
                                                    f"(known: {', '.join(towns())}; DR 2.1)")
        return str(chosen)
    own = board.hexmap.id
    return own if own in towns() else "esirien"


def build_state(scenario: Scenario, ctx: Context) -> State:
    sc = scenario.data
    setup = scenario.setup
    map_ref = sc.get("map", "dragon_rage/esirien")
    board = board_for(map_ref)
    # the rules key (which town's rules apply), not a file name: a custom map plays by one of them
    map_name = town_rules(scenario, board)
    first = setup.get("first", "invader")
    rules = {"elowyn": False, "graduated_victory": False, "literal_extreme_odds": False,
             "reinforcements": True, **scenario.rules}
    order = phase_order(first)
    state: State = {
        "players": ["invader", "defender"],
        "map": map_ref, "map_name": map_name,
        "turn": 1, "turn_limit": sc.get("turns"),
        "first": first, "order": order, "phase_index": 0, "phase": order[0],
        "active": "invader" if order[0].startswith("invader") else "defender",
        "units": {}, "rules": rules,
        "vp": {"objective": int(setup["objective"]), "score": 0, "destroyed": {}},
        "last_vp_turn": 0, "last_inside_turn": 0,
        "entrances": {k: {"broken": False, "open": False, "controller": e.owner}
                      for k, e in board.entrances.items()},
        "bridges": {h: "intact" for h in sorted(board.wooden_bridges)},
        "impassable": [], "fog": [], "whirlwinds": [], "boost": [],
        "pending_reinforcements": 0, "dragon_targets": {},
        "had_heroes": {"invader": False, "defender": False},
        "elowyn": None, "game_over": None, "held_lightning": [], "broken_walls": [],
        "entry_hexes": list(board.edges.get("invader_entry", [])),
    }
    counters: dict[str, int] = {}
    for side in ("defender", "invader"):
        for i, entry in enumerate(setup.get("forces", {}).get(side, [])):
            _place_force(state, board, scenario, ctx, side, i, entry, counters)
    if rules["elowyn"]:
        _place_elowyn(state, board, scenario, counters)
    # --- hook (campaign.py, DR 4.3.3): VP hexes the invader marks destroyed before play ---
    for i, hex_ in enumerate(setup.get("destroyed_vp", [])):
        if board.vp.get(hex_, 0) <= 0 or hex_ in state["vp"]["destroyed"]:
            raise scenario.error(("setup", "destroyed_vp", i), f"{hex_} is not a VP hex of this map "
                                                               "or is listed twice (DR 4.3.3)")
        state["vp"]["destroyed"][hex_] = board.vp[hex_]
        state["vp"]["score"] += board.vp[hex_]
    state["head_start"] = None
    if setup.get("head_start_vp"):
        open_head_start(state, ctx, int(setup["head_start_vp"]))   # the invader marks them in play
    # --- end hook ---
    state["reinforcement_plan"] = _reinforcement_plan(state, board, scenario)
    for side in ("invader", "defender"):
        state["had_heroes"][side] = any(u["type"] in ("hero", "invader_hero") and u["side"] == side
                                        for u in state["units"].values())
    if rules["elowyn"] and setup.get("point_built", False):
        state["vp"]["objective"] += 1     # the Princess raises a point-built objective (DR 3.3.3)
    return state


def _reinforcement_plan(state: State, board: Board, scenario: Scenario) -> dict[str, Any]:
    """When, how many and where the defender's reinforcements arrive: the rules' numbers
    (``rules.yaml``, the map's ``reinforcement_arrival`` hexes) unless the scenario changes the
    rate or the place (``setup.reinforcements``; DR 2.9 lets scenarios and players do so)."""
    r = rules_data().rules["reinforcements"]
    own = scenario.setup.get("reinforcements") or {}
    group = r[state["map_name"]]
    arrival = list(own.get("arrival", board.edges.get("reinforcement_arrival", [])))
    if not arrival and state["rules"].get("reinforcements", True):
        raise scenario.error(("setup", "reinforcements") if own else ("map",),
                             f"map {board.hexmap.id} has no reinforcement_arrival edge: give "
                             "setup.reinforcements.arrival, or rules.reinforcements: false (DR 2.9)")
    for i, hex_ in enumerate(own.get("arrival", [])):
        probe = make_unit("probe", group["units"], "defender", None)
        if not _placeable(state, board, probe, hex_):
            raise scenario.error(("setup", "reinforcements", "arrival", i),
                                 f"{hex_} is not a hex of this map where {group['units']} may stand (DR 2.9)")
    return {"first_turn": int(own.get("first_turn", r["first_turn"])), "every": int(own.get("every", r["every"])),
            "count": int(own.get("count", group["count"])), "arrival": arrival}


def _new_id(type_id: str, counters: dict[str, int]) -> str:
    code = rules_data().units[type_id].get("code") or type_id.upper()
    base = type_id if type_id in ("hero", "wizard", "elowyn") else code.lower()
    counters[base] = counters.get(base, 0) + 1
    return f"{base}{counters[base]}"


def _place_force(state: State, board: Board, scenario: Scenario, ctx: Context, side: str, index: int,
                 entry: dict[str, Any], counters: dict[str, int]) -> None:
    path = ("setup", "forces", side, index)
    type_id = entry["type"]
    catalogue = rules_data().units
    if type_id not in catalogue:
        raise scenario.error(path + ("type",), f"unknown unit type {type_id!r} "
                                                f"(known: {', '.join(sorted(catalogue))})")
    count = int(entry.get("count", 1))
    at = list(entry.get("at", []))
    facings = entry.get("facing", [])
    if not isinstance(facings, list):
        facings = [facings] * count
    zone = entry.get("zone")
    if zone is not None and zone not in board.edges:
        raise scenario.error(path + ("zone",), f"map {board.hexmap.id} has no zone {zone!r} "
                                                f"(zones: {', '.join(sorted(board.edges))})")
    zone_hexes = board.edges.get(zone, []) if zone else []
    for n in range(count):
        uid = _new_id(type_id, counters)
        unit = make_unit(uid, type_id, side, None)
        state["units"][uid] = unit
        if entry.get("offmap"):
            unit["offmap"] = True
            unit["entry"] = zone_hexes or state["entry_hexes"]
            if not unit["entry"]:
                raise scenario.error(path + ("offmap",), f"map {board.hexmap.id} has no invader_entry hexes: "
                                                         "give a 'zone' to enter through (DR 3.2.1)")
            continue
        if n < len(at):
            hex_ = at[n]
            if not _placeable(state, board, unit, hex_):
                raise scenario.error(path + ("at", n), f"{uid} cannot be set up in {hex_} "
                                                        "(off the map, forbidden terrain or stacking, DR 3.1.1)")
        else:
            if not zone_hexes:
                raise scenario.error(path, f"give {count} hexes in 'at' or a 'zone' for {type_id}")
            hex_ = _spread_pick(state, board, unit, zone_hexes, n, count)
            if hex_ is None:
                raise scenario.error(path + ("zone",), f"no free hex left in zone {zone} for {uid}")
        unit["hex"] = hex_
        if is_major(unit):
            unit["facing"] = facing_index(facings[n]) if n < len(facings) else towards_centre(board, hex_)


def _spread_pick(state: State, board: Board, unit: dict[str, Any], zone: list[str], n: int,
                 count: int) -> str | None:
    """A free legal hex of ``zone``, spreading ``count`` units evenly along it."""
    start = (n * len(zone)) // max(count, 1)
    for k in range(len(zone)):
        hex_ = zone[(start + k) % len(zone)]
        if _placeable(state, board, unit, hex_):
            return hex_
    return None


def _place_elowyn(state: State, board: Board, scenario: Scenario, counters: dict[str, int]) -> None:
    """Princess Elowyn (optional, DR 2.10.7): in the Citadel (Esirien) or the slave cell (Nurkott)."""
    start = next((h for h, a in board.attrs.items() if a.get("elowyn_start")), None)
    if start is None:
        raise scenario.error(("rules", "elowyn"), "this map marks no start hex for Elowyn")
    captive = state["map_name"] == "nurkott"
    # Nurkott with no human invader: the orcs hold her and may lead her away (DR 2.10.7)
    escort = captive and not any(is_human(u) for u in state["units"].values() if u["side"] == "invader")
    side = "invader" if captive and not escort else "defender"
    uid = "elowyn"
    unit = make_unit(uid, "elowyn", side, start)
    unit["captive"] = captive
    state["units"][uid] = unit
    state["elowyn"] = {"start": start, "left_start": False, "status": "captive" if captive else "in play",
                       "escort_variant": escort}
    if escort:
        from simulator.games.dragon_rage.escort import is_escort_type, start_escort
        orc = next((u for u in state["units"].values() if u["hex"] == start and is_escort_type(u)), None)
        if orc is not None:
            start_escort(state, unit, orc)
