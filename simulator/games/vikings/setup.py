"""Building the initial state from a scenario's ``setup`` section (and its JSON schema)."""

from __future__ import annotations

from typing import Any

from simulator.core.errors import DataError
from simulator.core.scenario import Scenario
from simulator.games.vikings import fleet, markers, shipgeom
from simulator.games.vikings.board import Board, build_board, parse_layout
from simulator.games.vikings.catalogue import characters, ship_types
from simulator.games.vikings.naval import duty_problem

LABEL = {"type": "string", "pattern": "^[0-9]{4}$", "x-expected": "a quoted hex label such as '0707'"}
PHASES = ("first_naval", "player_a", "second_naval", "player_b")      # rule 2.2, phase_index 0-3
SLOT_KEY = {"type": "string", "pattern": "^[0-9]+$"}

SETUP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["first", "boards", "characters"],
    "additionalProperties": False,
    "properties": {
        "first": {"enum": ["vikings", "saxons"], "x-expected": "the side that plays phase A: vikings or saxons"},
        "turn": {"type": "integer", "minimum": 1,
                 "x-expected": "the turn the game starts in (1 to the scenario's turns)"},
        "phase": {"enum": list(PHASES), "x-expected": "the phase of that turn to start in (rule 2.2): "
                                                      + ", ".join(PHASES)},
        "boards": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["map"], "additionalProperties": False,
            "properties": {"map": {"type": "string"},
                           "at": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer",
                                                                                           "minimum": 0},
                                  "x-expected": "[column offset, row offset] of the map's hex 0101"}}}},
        "characters": {"type": "array", "items": {
            "type": "object", "required": ["id"], "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "hex": LABEL, "front": LABEL,
                           "mounted": {"type": "boolean"},
                           "aboard": {"type": "object", "required": ["ship", "slot"], "additionalProperties": False,
                                      "properties": {"ship": {"type": "string"},
                                                     "slot": {"type": "integer", "minimum": 0}}},
                           "duty": {"enum": ["rower", "helmsman", "boarding", "grapple", "bailer", "overboard", "plug"]},
                           "move": {"type": "integer", "minimum": 0},
                           "status": {"enum": ["ok", "wounded", "stunned"],
                                      "x-expected": "ok, wounded or stunned (a stunned one recovers at the end "
                                                    "of his side's next player phase)"},
                           "swimmer": {"type": "boolean"}}}},
        "ships": {"type": "array", "items": {
            "type": "object", "required": ["id", "type", "side", "pivot", "heading"], "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "type": {"enum": ["drakkar", "galley", "rowboat"]},
                           "name": {"type": "string"}, "side": {"enum": ["vikings", "saxons"]}, "pivot": LABEL,
                           "heading": {"enum": ["NE", "E", "SE", "SW", "W", "NW"]},
                           "speed": {"type": "integer", "minimum": -8, "maximum": 8},
                           "beached": {"type": "boolean"},
                           "damage": {"type": "object", "propertyNames": SLOT_KEY,
                                      "additionalProperties": {"type": "integer", "minimum": 1},
                                      "x-expected": "damage points by deck slot, e.g. {\"7\": 2} (a hex with 2 "
                                                    "or more leaks, rule 4.7)"},
                           "total": {"type": "integer", "minimum": 0,
                                     "x-expected": "the damage total of the ship's record (default: the sum of "
                                                   "its damage)"},
                           "plugged": {"type": "array", "items": {"type": "integer", "minimum": 0},
                                       "x-expected": "slots whose leak is plugged (optional rule 5.2)"},
                           "collisions": {"type": "integer", "minimum": 0,
                                          "x-expected": "collisions that holed it so far (default: its damaged "
                                                        "hexes)"}}}},
        "horses": {"type": "array", "items": {
            "type": "object", "required": ["id", "side", "hex", "front"], "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "side": {"enum": ["vikings", "saxons"]}, "hex": LABEL,
                           "front": LABEL}}},
        "grapples": {"type": "array", "items": {
            "type": "object", "required": ["ship", "slot"], "additionalProperties": False,
            "properties": {"ship": {"type": "string"}, "slot": {"type": "integer", "minimum": 0},
                           "hooked": {"type": "object", "required": ["ship", "slot"], "additionalProperties": False,
                                      "properties": {"ship": {"type": "string"},
                                                     "slot": {"type": "integer", "minimum": 0}},
                                      "x-expected": "the enemy ship and hull slot its hook already holds"}}}},
        "victory": {"type": "object", "additionalProperties": False, "properties": {
            "kill_points": {"type": "object", "additionalProperties": {"type": "integer"}},
            "treasure_points": {"type": "integer", "minimum": 0,
                                "x-expected": "points per real treasure a side holds at the end"},
            "treasure_exits": {"type": "object", "additionalProperties": False,
                               "properties": {side: {"type": "array", "items": LABEL} for side in ("vikings", "saxons")},
                               "x-expected": "per side, the hexes from which it may carry a treasure off the map"},
            "text": {"type": "string"}}},
        "sandbar": {"type": "object", "required": ["hexes"], "additionalProperties": False, "properties": {
            "hexes": {"type": "array", "minItems": 1, "items": LABEL},
            "dry_turns": {"type": "integer", "minimum": 0,
                          "x-expected": "complete turns the sandbar lies dry (11 in rule 5.5.5)"}}},
        "treasures": {"type": "array", "items": {
            "type": "object", "required": ["id", "hex"], "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "hex": LABEL, "decoy": {"type": "boolean"}}}},
        "animals": {"type": "array", "items": {
            "type": "object", "required": ["id", "kind", "hex", "side"], "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "kind": {"enum": ["goat", "pig"]}, "hex": LABEL,
                           "side": {"enum": ["vikings", "saxons"]}}}},
    },
}
RULES_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {"errare": {"type": "boolean"}, "hemp": {"type": "boolean"}, "helmsman": {"type": "boolean"},
                   "plug_leaks": {"type": "boolean"},
                   "low_tide": {"type": "boolean", "x-expected": "true: setup.sandbar lies dry (rule 5.5.5)"},
                   "decoys": {"type": "boolean",
                              "x-expected": "true: treasure markers lie face down until someone enters (5.5.1)"},
                   "expert_swimmers": {"type": "boolean",
                                       "x-expected": "true: peasants never test for drowning (rule 5.5.2)"}},
}


def initial_state(scenario: Scenario) -> tuple[dict[str, Any], Board]:
    s = scenario.setup
    layout = parse_layout(s["boards"])
    try:
        board = build_board(layout)
    except DataError as exc:
        if exc.file:
            raise
        raise scenario.error(("setup", "boards"), exc.message) from None
    first = s["first"]
    second = "saxons" if first == "vikings" else "vikings"
    turns = int(scenario.data.get("turns", 12))
    if s.get("turn", 1) > turns:
        raise scenario.error(("setup", "turn"), f"turn {s['turn']} is past the scenario's last turn ({turns})")
    state: dict[str, Any] = {
        "layout": [list(x) for x in layout], "players": [first, second], "order": [first, second],
        "turn": int(s.get("turn", 1)), "turns": turns, "phase_index": PHASES.index(s.get("phase", PHASES[0])),
        "phasing": None,
        "step": "", "active": first, "chars": {}, "ships": {}, "horses": {}, "grapples": {},
        "naval": {"step": "", "sequence": 0, "queue": [], "ties": {}, "waiting": []},
        "combat": {"round": 1}, "advance": None, "rules": dict(scenario.rules),
        "victory": s.get("victory", {}), "over": None,
    }
    for i, sh in enumerate(s.get("ships", [])):
        if sh["id"] in state["ships"]:
            raise scenario.error(("setup", "ships", i, "id"), f"ship id {sh['id']!r} used twice")
        if sh["pivot"] not in board:
            raise scenario.error(("setup", "ships", i, "pivot"), f"hex {sh['pivot']} is not on the board")
        heading = board.grid.direction_index(sh["heading"])
        fp = shipgeom.footprint(board.grid, sh["type"], sh["pivot"], heading)
        if fp is None or any(h not in board for h in fp):
            raise scenario.error(("setup", "ships", i), "part of the ship lies off the board")
        bad = [h for h in fp if board.terrain[h] not in ("sea", "river", "beach", "embankment", "rocks")]
        if bad:
            raise scenario.error(("setup", "ships", i), f"the ship covers land at {', '.join(bad)}")
        state["ships"][sh["id"]] = {
            "id": sh["id"], "type": sh["type"], "name": sh.get("name", f"{ship_types()[sh['type']]['name']} "
                                                                        f"{sh['id']}"),
            "side": sh["side"], "pivot": sh["pivot"], "heading": heading, "speed": sh.get("speed", 0),
            "prev_speed": sh.get("speed", 0), "pending": None, "moves": 0, "turns": 0, "done": True,
            "reversing": False, "damage": {}, "leaks": {}, "new_leaks": [], "total": 0, "collisions": 0,
            "beached": bool(sh.get("beached", False)), "sunk": False, "wrecked": False}
        _ship_record(scenario, board, state["ships"][sh["id"]], sh, ("setup", "ships", i))
    taken: dict[str, str] = dict(((h, sid) for h, (sid, _) in fleet.ship_hexes(board, state).items()))
    n_cells = sum(len(fleet.hexes(board, sh)) for sh in state["ships"].values())
    if n_cells != len(taken):
        raise scenario.error(("setup", "ships"), "two ships overlap")
    catalogue = characters()
    used: set[str] = set()
    for i, c in enumerate(s["characters"]):
        at = ("setup", "characters", i)
        if c["id"] not in catalogue:
            raise scenario.error(at + ("id",), f"unknown character {c['id']!r} (see simulator/games/vikings/"
                                               "data/characters.yaml)")
        t = catalogue[c["id"]]
        ch: dict[str, Any] = {"id": c["id"], "kind": c["id"], "name": t.name, "side": t.side, "status": "ok",
                              "hex": c.get("hex"), "front": None, "mounted": False, "ship": None, "slot": None,
                              "duty": None, "mp": 0, "steps": 0, "fired": False, "attacked": False, "axe": False,
                              "wall": False, "facing": 0, "carrying": None, "move_cap": None, "busy": False,
                              "move_override": c.get("move"),
                              "swimmer": c.get("swimmer", bool(scenario.rules.get("expert_swimmers"))
                                               and t.troop == "peasant")}
        if "aboard" in c:
            sid, slot = c["aboard"]["ship"], c["aboard"]["slot"]
            if sid not in state["ships"]:
                raise scenario.error(at + ("aboard", "ship"), f"no ship {sid!r} in this scenario")
            cells = fleet.hexes(board, state["ships"][sid])
            if slot >= len(cells):
                raise scenario.error(at + ("aboard", "slot"), f"a {state['ships'][sid]['type']} has slots 0-"
                                                              f"{len(cells) - 1}")
            ch.update(ship=sid, slot=slot, hex=cells[slot])
        elif ch["hex"] is None:
            raise scenario.error(at, "give the character a hex or a place aboard")
        elif ch["hex"] not in board:
            raise scenario.error(at + ("hex",), f"hex {ch['hex']} is not on the board")
        elif ch["hex"] in fleet.ship_hexes(board, state):
            ch["ship"], ch["slot"] = fleet.ship_hexes(board, state)[ch["hex"]]
        if c.get("mounted"):
            if not t.horse or "front" not in c:
                raise scenario.error(at, "only riders can start mounted, and they need a front hex")
            if not board.grid.adjacent(ch["hex"], c["front"]) or c["front"] not in board:
                raise scenario.error(at + ("front",), "the front hex must be next to the rear hex")
            ch.update(mounted=True, front=c["front"])
        for h in [ch["hex"]] + ([ch["front"]] if ch["mounted"] else []):
            if h in used:
                raise scenario.error(at, f"hex {h} already holds a character (rule 2.6)")
            used.add(h)
        state["chars"][c["id"]] = ch
        if c.get("status", "ok") != "ok":
            if c["status"] == "stunned" and ch["mounted"]:
                raise scenario.error(at + ("status",), "a stunned rider falls from his horse (rule 3.4): set him "
                                                       "up on foot")
            ch["status"] = c["status"]
        if "duty" in c:
            why = duty_problem(state, ch, c["duty"])
            if why and c["duty"] != "grapple":
                raise scenario.error(at + ("duty",), why)
            ch["duty"] = c["duty"]
    for i, h in enumerate(s.get("horses", [])):
        at = ("setup", "horses", i)
        if h["id"] in state["horses"] or h["id"] in state["chars"]:
            raise scenario.error(at + ("id",), f"id {h['id']!r} used twice")
        if h["hex"] not in board or h["front"] not in board or not board.grid.adjacent(h["hex"], h["front"]):
            raise scenario.error(at, "a horse needs two adjacent hexes on the board (hex = rear, front)")
        for x in (h["hex"], h["front"]):
            if x in used:
                raise scenario.error(at, f"hex {x} already holds a character or horse (rule 2.6)")
            used.add(x)
        state["horses"][h["id"]] = {"id": h["id"], "owner": None, "side": h["side"], "hex": h["hex"],
                                    "front": h["front"], "alive": True, "led_by": None}
    for i, g in enumerate(s.get("grapples", [])):
        if g["ship"] not in state["ships"]:
            raise scenario.error(("setup", "grapples", i, "ship"), f"no ship {g['ship']!r}")
        short = markers.shortage(state, "grapple")
        if short:
            raise scenario.error(("setup", "grapples", i), f"one grapple too many: {short} (rule 1.33)")
        gid = f"g{i + 1}"
        state["grapples"][gid] = {"id": gid, "side": state["ships"][g["ship"]]["side"], "ship": g["ship"],
                                  "slot": g["slot"], "status": "ready", "hook_ship": None, "hook_slot": None,
                                  "max_len": 0}
        if "hooked" in g:
            _hooked(scenario, board, state, state["grapples"][gid], g["hooked"], ("setup", "grapples", i))
    _sandbar(scenario, board, state)
    _treasures_and_animals(scenario, board, state, used)
    return state, board


def _ship_record(scenario: Scenario, board: Board, ship: dict[str, Any], given: dict[str, Any],
                 at: tuple[str | int, ...]) -> None:
    """A ship's speed and record card as the scenario gives them, refused where the rules forbid it:
    speed within its type's limits (table 9.5), 0 on the beach (rule 4.44); damage on its own hexes;
    leaks where a hex holds 2 points or more (rule 4.7, so they follow from the damage); a total below
    the sinking mark and not below the collisions (rule 4.7)."""
    t = ship_types()[ship["type"]]
    speed = ship["speed"]
    if not -t["max_reverse"] <= speed <= t["max_forward"]:
        raise scenario.error(at + ("speed",), f"a {t['name'].lower()} sails at -{t['max_reverse']} to "
                                              f"{t['max_forward']} (table 9.5)")
    if ship["beached"] and speed != 0:
        raise scenario.error(at + ("speed",), "a beached boat lies still: speed 0 (rule 4.44)")
    cells = len(shipgeom.roles(ship["type"]))
    for key, points in sorted(given.get("damage", {}).items()):
        if int(key) >= cells:
            raise scenario.error(at + ("damage", key), f"a {t['name'].lower()} has slots 0-{cells - 1}")
        ship["damage"][str(int(key))] = points
        if points >= 2:
            ship["leaks"][str(int(key))] = points          # rule 4.7: the hex's points come in again
    for i, slot in enumerate(given.get("plugged", [])):
        if not scenario.rules.get("plug_leaks"):
            raise scenario.error(at + ("plugged",), "plugged leaks need the scenario switch rules.plug_leaks: true "
                                                    "(optional rule 5.2)")
        if str(slot) not in ship["leaks"]:
            raise scenario.error(at + ("plugged", i), f"slot {slot} has no leak to plug (a leak is a hex with 2 "
                                                      "points or more, rule 4.7)")
        ship.setdefault("plugged", []).append(str(slot))
    ship["total"] = given.get("total", sum(ship["damage"].values()))
    ship["collisions"] = given.get("collisions", len(ship["damage"]))
    if ship["total"] >= t["sinks_at"] and not ship["beached"]:
        raise scenario.error(at + ("total",), f"a {t['name'].lower()} with {ship['total']} points has sunk "
                                              f"(it sinks at {t['sinks_at']}, rule 4.7)")
    if ship["total"] < ship["collisions"]:
        raise scenario.error(at + ("total",), f"the total never falls below the {ship['collisions']} "
                                              "collision(s) suffered (rule 4.7)")
    if ship["damage"] and ship["collisions"] == 0:
        raise scenario.error(at + ("collisions",), "damaged hexes come from collisions: at least 1 (rule 4.7)")
    if ship["total"] >= t["sinks_at"]:
        ship["immobile"] = True                            # holed on the beach: never floats again (4.7)


def _hooked(scenario: Scenario, board: Board, state: dict[str, Any], g: dict[str, Any], hook: dict[str, Any],
            at: tuple[str | int, ...]) -> None:
    """A grapple whose hook already holds an enemy hull (rules 4.6-4.63): on a side, bow or stern hex of
    an enemy boat, at most 5 hexes from the rope, one hook a hex. Its rope may not grow longer than it
    lies now (rule 4.63: never beyond its length at the end of the previous phase)."""
    from simulator.games.vikings.catalogue import tables
    target = state["ships"].get(hook["ship"])
    if target is None:
        raise scenario.error(at + ("hooked", "ship"), f"no ship {hook['ship']!r}")
    if target["side"] == g["side"]:
        raise scenario.error(at + ("hooked", "ship"), "a grapple is thrown at an enemy boat (rule 4.6)")
    roles = shipgeom.roles(target["type"])
    if hook["slot"] >= len(roles) or roles[hook["slot"]] not in ("port", "starboard", "bow", "stern"):
        hull = [i for i, r in enumerate(roles) if r in ("port", "starboard", "bow", "stern")]
        raise scenario.error(at + ("hooked", "slot"), f"a hook holds a hull hex of the {target['type']}: slots "
                                                      f"{', '.join(map(str, hull))} (rule 4.6)")
    if any(x["status"] == "hooked" and x["hook_ship"] == hook["ship"] and x["hook_slot"] == hook["slot"]
           for x in state["grapples"].values()):
        raise scenario.error(at + ("hooked", "slot"), "only one hook marker a hex (rule 4.61)")
    rope = fleet.hexes(board, state["ships"][g["ship"]])[g["slot"]]
    length = board.distance(rope, fleet.hexes(board, target)[hook["slot"]])
    most = tables()["grapple"]["max_distance"]
    if length > most:
        raise scenario.error(at + ("hooked",), f"the rope would be {length} hexes long: at most {most} (rule 4.6)")
    g.update(status="hooked", hook_ship=hook["ship"], hook_slot=hook["slot"], max_len=length)


def _sandbar(scenario: Scenario, board: Board, state: dict[str, Any]) -> None:
    """The low-tide sandbar (rule 5.5.5): only with the scenario switch ``low_tide``."""
    bar = scenario.setup.get("sandbar")
    if not scenario.rules.get("low_tide"):
        return
    if not bar:
        raise scenario.error(("rules", "low_tide"), "low_tide needs setup.sandbar.hexes (the sea hexes that dry)")
    for i, h in enumerate(bar["hexes"]):
        if h not in board or board.terrain[h] != "sea":
            raise scenario.error(("setup", "sandbar", "hexes", i), f"{h} is not a sea hex of the board "
                                 "(the sandbar is sea uncovered by the ebb, rule 5.5.5)")
    state["tide"] = {"hexes": list(bar["hexes"]), "dry_turns": int(bar.get("dry_turns", 11))}


def _treasures_and_animals(scenario: Scenario, board: Board, state: dict[str, Any], used: set[str]) -> None:
    """Treasure/decoy markers (rule 5.5.1) and goats and pigs (rule 5.5.3)."""
    decoys = bool(scenario.rules.get("decoys"))
    state["treasures"] = {}
    for i, t in enumerate(scenario.setup.get("treasures", [])):
        at = ("setup", "treasures", i)
        if t["id"] in state["treasures"]:
            raise scenario.error(at + ("id",), f"treasure id {t['id']!r} used twice")
        if t["hex"] not in board or board.is_water(t["hex"]):
            raise scenario.error(at + ("hex",), f"{t['hex']} is not a land hex of the board")
        if t.get("decoy") and not decoys:
            raise scenario.error(at + ("decoy",), "decoy markers need the scenario switch rules.decoys: true")
        short = markers.shortage(state, "treasure")
        if short:
            raise scenario.error(at, f"one treasure marker too many: {short} (rule 1.33)")
        state["treasures"][t["id"]] = {"id": t["id"], "hex": t["hex"], "decoy": bool(t.get("decoy", False)),
                                       "revealed": not decoys, "carried_by": None, "claim": None,
                                       "dropped": False, "ship": None, "slot": None}
    for side, hexes in state["victory"].get("treasure_exits", {}).items():
        for i, h in enumerate(hexes):
            if h not in board:
                raise scenario.error(("setup", "victory", "treasure_exits", side, i), f"hex {h} is not on the board")
    state["animals"] = {}
    for i, a in enumerate(scenario.setup.get("animals", [])):
        at = ("setup", "animals", i)
        if a["id"] in state["animals"] or a["id"] in state["chars"] or a["id"] in state["horses"]:
            raise scenario.error(at + ("id",), f"id {a['id']!r} used twice")
        if a["hex"] not in board or board.is_water(a["hex"]) or board.terrain[a["hex"]] == "building":
            raise scenario.error(at + ("hex",), f"{a['hex']} is not open land (goats and pigs cannot swim)")
        if a["hex"] in used or any(x["hex"] == a["hex"] for x in state["animals"].values()):
            raise scenario.error(at + ("hex",), f"hex {a['hex']} is already taken")
        state["animals"][a["id"]] = {"id": a["id"], "kind": a["kind"], "side": a["side"], "hex": a["hex"],
                                     "alive": True, "led_by": None}
