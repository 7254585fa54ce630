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
from simulator.games.dragon_rage.terrain_rules import elemental_doom, monster_land_block, water_for
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
    if unit.get("flying"):
        return True        # in the air it ignores the terrain and the units beneath (DR 2.12.1.1.4)
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
    if s["kind"] == "elemental" and (elemental_doom(state, board, hex_) or "tower" in board.terrain[hex_]):
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
    _start_point(state, scenario, ctx)
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
        if entry.get("flying"):
            if not is_major(unit) or not catalogue[type_id]["movement"].get("fly"):
                raise scenario.error(path + ("flying",), f"a {type_id} cannot fly (DR 2.12.1.1.4)")
            if entry.get("offmap"):
                raise scenario.error(path + ("flying",), "a monster waiting off the map enters walking (DR 3.2.1)")
            unit["flying"] = True
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
        _worn(scenario, path, entry, unit)


def _worn(scenario: Scenario, path: tuple[str | int, ...], entry: dict[str, Any], unit: dict[str, Any]) -> None:
    """What a game in progress has done to a unit (a mid-game set-up): wounds (DR 2.10.5.3),
    damage to a monster's areas (DR 2.12, 2.7.4.2) or a minor monster (DR 2.11), spell points
    left (DR 2.8), breaths left (DR 2.12.1.5.3), each refused at its field when the rules do
    not allow it."""
    s = rules_data().units[unit["type"]]
    if entry.get("wounded"):
        if not s.get("rules", {}).get("wounds_before_death"):
            raise scenario.error(path + ("wounded",), f"{unit['type']}: never wounded; only heroes and "
                                                      "Elowyn are, before they die (DR 2.10.5.3, 2.10.7)")
        unit["wounded"] = True
    if "spell_points" in entry:
        most = s.get("spell_points")
        if most is None or not 0 <= entry["spell_points"] <= int(most):
            raise scenario.error(path + ("spell_points",), f"a {unit['type']} has "
                                 + (f"0 to {most} spell points" if most is not None else "no spell points")
                                 + " (DR 2.8)")
        unit["sp"] = int(entry["spell_points"])
    if "breaths" in entry:
        uses = int((s.get("breath") or {}).get("uses", 0))
        if not 0 <= entry["breaths"] <= uses:
            raise scenario.error(path + ("breaths",), f"a {unit['type']} breathes fire at most {uses} times a game "
                                                      "(DR 2.12.1.5.3)")
        unit["breaths_left"] = int(entry["breaths"])
    if "damage" in entry:
        _damaged(scenario, path + ("damage",), entry["damage"], unit)


def _damaged(scenario: Scenario, path: tuple[str | int, ...], damage: Any, unit: dict[str, Any]) -> None:
    from simulator.games.dragon_rage import body
    s = rules_data().units[unit["type"]]
    if s["kind"] == "minor_monster":
        hp = int(s.get("hp", 0))
        if not isinstance(damage, int) or not 0 <= damage < hp:
            raise scenario.error(path, f"a {unit['type']} takes 0 to {hp - 1} damage points and lives "
                                       f"({hp} destroy it, DR 2.11)")
        unit["damage_taken"] = damage
        return
    if not is_major(unit) or not isinstance(damage, dict):
        raise scenario.error(path, f"a {unit['type']} has no damage points: "
                                   "damage is for monsters (areas of a major monster, DR 2.12)")
    for area, given in damage.items():
        if area not in unit["damage"]:
            raise scenario.error(path + (area,), f"a {unit['type']} has no {area} area "
                                                 f"(areas: {', '.join(unit['damage'])}, DR 2.12)")
        a = s["areas"][area]
        groups, hp = int(a["groups"]), int(a["hp"])
        if isinstance(given, int):
            if not 0 <= given <= groups * hp:
                raise scenario.error(path + (area,), f"the {area} of a {unit['type']} takes 0 to {groups * hp} "
                                                     "damage points (DR 2.12)")
            body.apply_damage(unit, area, given)     # group after group, as damage is crossed off (DR 2.7.4.2)
        else:
            if len(given) != groups or not all(0 <= g <= hp for g in given):
                raise scenario.error(path + (area,), f"the {area} of a {unit['type']} is {groups} group(s) of {hp} "
                                                     f"points: give {groups} numbers from 0 to {hp} (DR 2.12)")
            unit["damage"][area] = [int(g) for g in given]
    if body.is_dead(unit):
        raise scenario.error(path, f"with its belly destroyed the {unit['type']} is dead (DR 2.12.1.7.4)")
    if unit.get("flying") and not body.wings_intact(unit):
        raise scenario.error(path, "a monster in flight with a wing group destroyed has crashed: set it up on "
                                   "the ground (DR 2.12.1.1.5)")
    if "head" in unit["damage"] and body.area_destroyed(unit, "head"):
        unit["berserk"] = True          # no head: no fire, and it goes berserk (DR 2.12.1.7.1)
        unit["breaths_left"] = 0


def _start_point(state: State, scenario: Scenario, ctx: Context) -> None:
    """A game taken up in the middle: ``setup.turn`` and ``setup.phase`` (the phase's own start
    runs: spell points' fogs, a wild elemental's target, reinforcements due, berserk monsters)."""
    setup = scenario.setup
    if "turn" not in setup and "phase" not in setup:
        return
    from simulator.games.dragon_rage.phases import _begin_phase, phase_info
    turn = int(setup.get("turn", 1))
    if state["turn_limit"] is not None and turn > int(state["turn_limit"]):
        raise scenario.error(("setup", "turn"), f"turn {turn} is after the game's last turn, "
                                                f"{state['turn_limit']} ('turns')")
    if state["head_start"] is not None:
        raise scenario.error(("setup", "head_start_vp"), "the head start is marked before a campaign game's "
                                                         "first turn, not in a game taken up later (DR 4.3.3)")
    phase = str(setup.get("phase", state["order"][0]))
    state["turn"] = turn
    state["phase_index"] = state["order"].index(phase)
    state["phase"] = phase
    state["active"] = phase_info(phase)["side"]
    # the defender's "ten turns" (DR 2.3) count from the start of this position, as the past is unknown
    state["last_vp_turn"] = state["last_inside_turn"] = turn - 1
    _begin_phase(state, ctx)


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
