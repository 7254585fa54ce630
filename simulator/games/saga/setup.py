"""Building the initial state from a scenario: table, terrain, warbands, deployment.

Also the warband builder's checks (SAGA p.35-36): units of 4 to 12 figures of one
class, the Warlord alone, and points (1 point = 4 Hearthguard = 8 Warriors = 12 Levies).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context
from simulator.core.scenario import Scenario
from simulator.games.saga import buildings
from simulator.games.saga import catalogue as cat
from simulator.games.saga.board import BOARD_DICE, faction_die
from simulator.games.saga.units import EPS, cohesive
from simulator.geometry.segments import points_in_polygon
from simulator.geometry.table import circle_gaps, circles_inside_rect

SPACING_GAP = 0.5          # inches between neighbouring bases when a unit is laid out

VICTORY_KINDS = ("warlords_fury", "ford", "sacred_ground", "challenge", "homeland", "escort", "feast",
                 "quickstart")

_POINT = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
          "x-expected": "a point [x, y] in inches"}

SETUP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["table", "victory", "sides"],
    "additionalProperties": False,
    "properties": {
        "mode": {"enum": ["full", "quickstart"]},
        "table": {"type": "object", "required": ["width", "height"], "additionalProperties": False,
                  "properties": {"width": {"type": "number", "minimum": 12, "maximum": 120},
                                 "height": {"type": "number", "minimum": 12, "maximum": 120}}},
        "victory": {"enum": list(VICTORY_KINDS)},
        "points": {"type": "integer", "minimum": 2, "maximum": 12},
        "dice_cap": {"type": "integer", "minimum": 1, "maximum": 8},
        "first_player": {"type": "string"},
        "order": {"type": "array", "items": {"type": "string"}},
        "attacker": {"type": "string"},
        "terrain": {"type": "array", "items": {
            "type": "object", "required": ["id", "type"], "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "type": {"type": "string"}, "name": {"type": "string"},
                           "polygon": {"type": "array", "items": _POINT, "minItems": 3},
                           "line": {"type": "array", "items": _POINT, "minItems": 2},
                           "objective": {"type": "boolean"}}}},
        "zones": {"type": "array", "items": {
            "type": "object", "required": ["side", "polygon"], "additionalProperties": False,
            "properties": {"side": {"type": "string"}, "name": {"type": "string"},
                           "polygon": {"type": "array", "items": _POINT, "minItems": 3}}}},
        "far_side": {"type": "object", "additionalProperties": {
            "type": "array", "items": _POINT, "minItems": 3}},
        "exit_edge": {"type": "object", "additionalProperties": {"enum": ["top", "bottom"]}},
        "start": {"type": "object", "required": ["turn", "phase"], "additionalProperties": False,
                  "x-expected": "a mid-game position: {turn: N, phase: orders or activation, player: id}",
                  "properties": {"turn": {"type": "integer", "minimum": 1},
                                 "phase": {"enum": ["orders", "activation"]},
                                 "player": {"type": "string", "x-expected": "the player whose turn it is"}}},
        "baggage_to_exit": {"type": "integer", "minimum": 1,
                            "x-expected": "how many baggage must leave the table for the escort to win (default 2; "
                                          "3 in 12-point Clash of Steel, SAGA p.58)"},
        "sides": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["faction", "units"], "additionalProperties": False,
            "properties": {
                "faction": {"enum": list(cat.FACTIONS)},
                "hero": {"type": "string", "x-expected": "a hero id of data/swords.yaml (replaces the Warlord)"},
                "dice": {"type": "array", "maxItems": 2 * BOARD_DICE,
                         "x-expected": "the SAGA dice already on the battle board: [{face: C, U or R, box: id}]",
                         "items": {"type": "object", "required": ["face", "box"], "additionalProperties": False,
                                   "properties": {"face": {"enum": ["C", "U", "R"]},
                                                  "box": {"type": "string",
                                                          "x-expected": "a box id of the side's battle board "
                                                                        "(<faction>.<box> on a second board)"}}}},
                "units": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "required": ["id", "class"], "additionalProperties": False,
                    "properties": {
                        "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]+$"},
                        "name": {"type": "string"},
                        "class": {"enum": ["warlord", "hearthguard", "warriors", "levies", "baggage"]},
                        "figures": {"type": "integer", "minimum": 1, "maximum": 12},
                        "at": _POINT,
                        "positions": {"type": "array", "items": _POINT, "minItems": 1, "maxItems": 12,
                                      "x-expected": "every figure's centre [x, y], one per figure (instead of at)"},
                        "fatigue": {"type": "integer", "minimum": 0,
                                    "x-expected": "the unit's fatigue markers, 0 or more (SAGA p.24)"},
                        "columns": {"type": "integer", "minimum": 1},
                        "mounted": {"type": "boolean"},
                        "weapon": {"enum": ["none", "bow", "sling", "javelin", "crossbow"]},
                        "dane_axe": {"type": "boolean"},
                        "berserker": {"type": "boolean"},
                        "varangians": {"type": "boolean"},
                        "mercenary": {"type": "string", "x-expected": "a mercenary id of data/swords.yaml"},
                        "base": {"type": "number", "exclusiveMinimum": 0,
                                 "x-expected": "a base diameter in inches"},
                    }}},
            }}},
    },
}

RULES_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "determination_per_turn": {"type": "integer", "minimum": 0},
        "we_obey_per_turn": {"type": "integer", "minimum": 0},
        "natural_rolls_in_melee": {"type": "boolean"},
        "activation_pool": {"type": "boolean"},
        "player_choices": {"type": "boolean"},
        "simultaneous_orders": {"type": "boolean", "x-expected": "scenario X: every Orders Phase at the start "
                                                                  "of the turn, then the activation roll"},
        "scenery": {"enum": ["scenario", "chosen"],
                    "x-expected": "scenario (the file's pieces) or chosen (secret numbers and the p.49 list, SAGA p.49; "
                                  "scenarios 3, 5 and X: their own ways, p.53, p.55, p.57; needs deployment: players)"},
        "bids": {"type": "boolean", "x-expected": "true: scenario 5's secret bids decide the defender (needs "
                                                  "deployment: players)"},
        "deployment": {"enum": ["sample", "players"],
                       "x-expected": "sample (the scenario's positions) or players (alternate set-up, SAGA p.49-57)"},
    },
}


def layout(at: tuple[float, float], count: int, columns: int, diameter: float) -> list[tuple[float, float]]:
    """Figure centres of a unit laid out in ranks around ``at`` (cohesive by construction)."""
    pitch = diameter + SPACING_GAP
    rows = math.ceil(count / columns)
    out = []
    for i in range(count):
        r, c = divmod(i, columns)
        in_row = min(columns, count - r * columns)
        x = at[0] + (c - (in_row - 1) / 2) * pitch
        y = at[1] + (r - (rows - 1) / 2) * pitch
        out.append((round(x, 3), round(y, 3)))
    return out


def diameter_of(u: dict[str, Any]) -> float:
    bases = cat.classes()["bases"]
    if "base" in u:
        return float(u["base"])
    if u["class"] == "baggage":
        return bases["baggage"]
    if u["class"] == "warlord":
        return bases["warlord_mounted" if u.get("mounted") else "warlord_foot"]
    return bases["mounted" if u.get("mounted") else "foot"]


def weapon_of(faction: dict[str, Any], u: dict[str, Any]) -> str | None:
    if "weapon" in u:
        return None if u["weapon"] == "none" else u["weapon"]
    if u["class"] == "levies":
        return faction.get("levy_weapon")
    jav = faction.get("javelins", {})
    if jav.get(u["class"]):
        return "javelin"
    return None


def build_state(scenario: Scenario, ctx: Context) -> dict[str, Any]:
    """The initial SAGA state for ``scenario`` (raises DataError pointing into the file)."""
    setup = scenario.setup
    players = [p["id"] for p in scenario.players] or list(setup["sides"])
    width, height = float(setup["table"]["width"]), float(setup["table"]["height"])
    for p in players:
        if p not in setup["sides"]:
            raise scenario.error(("setup", "sides"), f"player {p!r} has no warband under setup.sides")
    terrain = _terrain(scenario, width, height)
    state: dict[str, Any] = {
        "game": "saga", "mode": setup.get("mode", "full"), "victory": setup["victory"],
        "table": {"width": width, "height": height}, "terrain": terrain,
        "zones": setup.get("zones", []), "far_side": setup.get("far_side", {}),
        "exit_edge": setup.get("exit_edge", {}), "attacker": setup.get("attacker"),
        "baggage_to_exit": int(setup.get("baggage_to_exit", 2)),
        "players": players, "turn": 1, "max_turns": int(scenario.data.get("turns", 6)),
        "dice_cap": int(setup.get("dice_cap", 6)),
        "units": {}, "figures": {}, "sides": {}, "losses": {p: {} for p in players},
        "kills": {p: {} for p in players}, "vp": {p: 0 for p in players},
        "exited": {p: 0 for p in players}, "wounds": {},
        "rules": {"determination": scenario.rules.get("determination_per_turn", 1),
                  "we_obey": scenario.rules.get("we_obey_per_turn", 1),
                  "natural_melee": scenario.rules.get("natural_rolls_in_melee", True),
                  "activation_pool": scenario.rules.get("activation_pool", True),
                  "player_choices": scenario.rules.get("player_choices", True),
                  "deployment": scenario.rules.get("deployment", "sample"),
                  "bids": bool(scenario.rules.get("bids", False)),
                  "scenery": scenario.rules.get("scenery", "scenario"),
                  "simultaneous_orders": scenario.rules.get("simultaneous_orders", setup["victory"] == "feast")},
        "armour_down": {}, "pending": None, "choice": None, "queue": [], "interrupted": [], "free": [], "activation": None,
        "melee": None, "shooting": None, "over": None, "phase": "orders", "orders_rolled": False,
    }
    order = setup.get("order") or ([setup["first_player"]] + [p for p in players if p != setup["first_player"]]
                                   if setup.get("first_player") else players)
    for p in order:
        if p not in players:
            raise scenario.error(("setup", "order"), f"{p!r} is not a player of this scenario")
    state["order"] = list(order)
    state["seating"] = list(order)          # the order round the table (scenario X's "left", SAGA p.57)
    state["turn_player"] = order[0]
    state["active"] = order[0]
    for side_i, p in enumerate(players):
        side = setup["sides"][p]
        faction = cat.faction(side["faction"])
        ctx.dice.register(faction_die(side["faction"]))
        second = cat.swords()["heroes"].get(side.get("hero") or "", {}).get("second_board") or next(
            (cat.swords()["mercenaries"].get(u.get("mercenary") or "", {}).get("board") for u in side["units"]
             if cat.swords()["mercenaries"].get(u.get("mercenary") or "", {}).get("board")), None)
        if second:
            ctx.dice.register(faction_die(second))
        state["sides"][p] = {"faction": side["faction"], "second_board": second,
                             "dice": [{"face": None, "box": None} for _ in range(BOARD_DICE * (2 if second else 1))],
                             "determination": 0, "we_obey": 0, "sons_of_the_land": False,
                             "double_bow_range": False}
        hero = _hero(scenario, p, side)
        state["sides"][p]["hero"] = hero
        general = next((u["id"] for u in side["units"] if u["class"] == "warlord"), None)
        for ui, u in enumerate(side["units"]):
            extra = u["class"] == "warlord" and u["id"] != general
            _add_unit(state, scenario, p, faction, u, ("setup", "sides", p, "units", ui), None if extra else hero)
            if extra:                              # a Clash of Steel Warlord besides the General (SAGA p.58)
                rule = extra_warlord_rule(setup.get("points"))
                state["units"][u["id"]].update(extra_warlord=True, vp_key="extra_warlord",
                                               lesser=bool(rule["lesser"]) if rule else True)
    mid_game = setup.get("start")
    if not mid_game:                      # the warband bought: its losses are unknown in a mid-game position
        _check_builder(state, scenario)
    _check_positions(state, scenario, zones=not mid_game)
    for p in players:
        _dice_on_boards(state, scenario, p)
    if mid_game:
        _start(state, scenario, mid_game)
    if state["victory"] == "challenge":
        state["wounds"] = {p: 12 for p in players}
    state["set_up"] = None
    if state["rules"]["bids"] and (state["victory"] != "homeland" or state["rules"]["deployment"] != "players"
                                   or len(players) != 2):
        raise scenario.error(("rules", "bids"), "bids are scenario 5's (victory: homeland, two players) and need "
                             "deployment: players (the defender's units are placed after the bids)")
    from simulator.games.saga import bids, placement, scenery
    problem = scenery.scenery_problem(state) if state["rules"]["scenery"] == "chosen" else None
    if problem is not None:
        raise scenario.error(("rules", "scenery"), problem)
    if state["rules"]["deployment"] == "players":
        placement.begin(state, ctx, bids.entries(setup) if state["rules"]["bids"] else None)
    ctx.emit("setup", f"{scenario.name}: {', '.join(f'{p} ({faction_name(state, p)})' for p in players)}; "
             f"{state['max_turns']} turns on a {width:g}x{height:g} inch table", "SAGA p.48")
    return state


def faction_name(state: dict[str, Any], player: str) -> str:
    return cat.faction(state["sides"][player]["faction"])["name"]


def _terrain(scenario: Scenario, width: float, height: float) -> list[dict[str, Any]]:
    types = cat.terrain_types()
    out = []
    ids: set[str] = set()
    for i, t in enumerate(scenario.setup.get("terrain", [])):
        path = ("setup", "terrain", i)
        if t["type"] not in types:
            raise scenario.error(path + ("type",), f"unknown terrain type {t['type']!r} "
                                                   f"(known: {', '.join(sorted(types))})")
        if t["id"] in ids:
            raise scenario.error(path + ("id",), f"terrain id {t['id']!r} used twice")
        ids.add(t["id"])
        spec = types[t["type"]]
        key = "line" if spec["shape"] == "linear" else "polygon"
        if key not in t:
            raise scenario.error(path, f"a {spec['shape']} piece needs '{key}'")
        pts = t[key]
        for j, (x, y) in enumerate(pts):
            if not (-0.01 <= x <= width + 0.01 and -0.01 <= y <= height + 0.01):
                raise scenario.error(path + (key, j), f"point ({x}, {y}) is off the {width:g}x{height:g} table")
        out.append(terrain_piece(t["id"], t["type"], pts, t.get("name"), bool(t.get("objective", False))))
    return out


def written_number(state: dict[str, Any], player: str, action: Action, kind: str, field: str,
                   lowest: int, highest: int, nothing_due: str, rule: str) -> int:
    """A number ``player`` writes down secretly at a set-up step (the scenery number, a bid):
    his ``kind`` step must be the one due and ``action[field]`` a whole number from ``lowest``
    to ``highest``; the step is then done. Returns the number."""
    su = state["set_up"]
    st = su["steps"][0] if su["steps"] else None
    if st is None or st["kind"] != kind or st["player"] != player:
        raise IllegalAction(nothing_due, rule)
    n = action.get(field)
    if not isinstance(n, int) or isinstance(n, bool) or not lowest <= n <= highest:
        raise IllegalAction(f"{field} is a whole number from {lowest} to {highest}", rule)
    su["steps"].pop(0)
    return n


def terrain_piece(tid: str, type_id: str, points: Any, name: str | None = None,
                  objective: bool = False) -> dict[str, Any]:
    """A terrain piece of the state: its type's four characteristics and its outline (``polygon``)
    or line (``line``) in table inches."""
    spec = cat.terrain_types()[type_id]
    key = "line" if spec["shape"] == "linear" else "polygon"
    return {"id": tid, "type": type_id, "name": name or spec["name"],
            "shape": spec["shape"], "height": spec["height"], "cover": spec["cover"],
            "movement": spec["movement"], "capacity": spec.get("capacity", 0),
            "objective": objective, key: [[float(p[0]), float(p[1])] for p in points]}


def _hero(scenario: Scenario, player: str, side: dict[str, Any]) -> str | None:
    """The side's Viking Age hero, checked against its faction (SAGA p.41)."""
    hero = side.get("hero")
    if hero is None:
        return None
    heroes = cat.swords()["heroes"]
    if hero not in heroes:
        raise scenario.error(("setup", "sides", player, "hero"), f"unknown hero {hero!r} (known: {', '.join(sorted(heroes))})")
    if side["faction"] not in heroes[hero]["factions"]:
        raise scenario.error(("setup", "sides", player, "hero"), f"{heroes[hero]['name']} leads "
                             f"{' or '.join(heroes[hero]['factions'])} warbands only (SAGA p.41)")
    return str(hero)


def _swords_for_hire(scenario: Scenario, u: dict[str, Any], path: tuple[Any, ...], hero: str | None,
                     unit: dict[str, Any]) -> None:
    """Hero, Varangians and mercenary options of a unit (SAGA p.41-46), written onto ``unit``."""
    cls = u["class"]
    if cls == "warlord" and hero is not None:
        spec = cat.swords()["heroes"][hero]
        unit.update(hero=hero, vp_key="hero", saga_dice=spec["saga_dice"], ignore_hits=spec["ignore_hits"],
                    name=u.get("name", spec["name"]))
        if "armour" in spec:
            unit["armour_override"] = dict(spec["armour"])
        if spec.get("fatigue_immune"):
            unit["fatigue_immune"] = True                  # Taillefer's Song of Roland (SAGA p.43)
    if u.get("varangians"):
        spec = cat.swords()["heroes"][str(hero)]
        unit.update(varangians=True, armour_override=dict(spec["varangians"]["armour"]))
    spec = cat.swords()["heroes"].get(hero or "", {})
    if cls == "levies" and "levy_saga_dice" in spec:
        unit["saga_dice"] = spec["levy_saga_dice"]          # Scouts of Deheubarth (SAGA p.43)
    if u.get("weapon") == "bow" and cls == "warriors" and "warrior_bows" in spec and not u.get("mounted"):
        unit["armour_override"] = dict(spec["warrior_bows"]["armour"])   # Archers of Powys (SAGA p.43)
    bows = spec.get("bows")
    if u.get("weapon") == "bow" and bows and cls in bows["classes"] and not u.get("mounted"):
        prof = cat.classes()["classes"][cls]                # William's Strategist (SAGA p.42)
        unit["armour_override"] = {"melee": prof["armour"] - bows["foot_armour_malus"],
                                   "shooting": prof["armour_shooting"] - bows["foot_armour_malus"]}
    merc_id = u.get("mercenary")
    if merc_id is None:
        return
    spec = cat.swords()["mercenaries"][merc_id]
    unit.update(mercenary=merc_id, armour_override=dict(spec["armour"]), saga_dice=spec["saga_dice"],
                bypass_board=spec["bypass_board"], shield_wall=spec["shield_wall"], vp_key=spec.get("vp_key"),
                free_activations=spec["free_activations"], name=u.get("name", spec["name"]))
    if "move" in spec:
        unit["move"] = spec["move"]
    if spec.get("wrath"):
        unit["wrath"] = None                # Wrath of the Jomsvikings (wrath.py): the effects this turn
    if spec.get("board"):
        unit["board"] = spec["board"]       # Egil's Hirdmen: the Viking board only (SAGA p.45)


def _leader(unit: dict[str, Any]) -> None:
    """A mercenary unit led by a named figure (Jarl Sigvald, SAGA p.44): his attack dice and the
    others', and his name; he is the last to die (``units.removal_order``, ``casualties``)."""
    spec = cat.swords()["mercenaries"].get(unit.get("mercenary") or "", {})
    if "leader" not in spec or not unit["figures"]:
        return
    lead = unit["figures"][0]
    unit["leader"] = lead
    unit["figure_dice"] = {f: spec["leader"]["attack_dice"] if f == lead else spec["figure_attack_dice"]
                           for f in unit["figures"]}
    unit["figure_names"] = {lead: spec["leader"]["name"]}
    if "vp_key" in spec["leader"]:
        unit["figure_vp"] = {lead: spec["leader"]["vp_key"]}      # Egil: 3 VP (SAGA p.45)


def _weapon_option_problems(faction: dict[str, Any], u: dict[str, Any], hero: str | None) -> list[str]:
    """Welsh javelins may be left behind or swapped for bows only under Gruffydd ap Llywelyn (SAGA p.43)."""
    cls, chosen = u["class"], u.get("weapon")
    if faction["id"] != "welsh" or cls not in ("hearthguard", "warriors") or chosen is None:
        return []
    spec = cat.swords()["heroes"].get(hero or "", {})
    if chosen == "none" and not spec.get("drop_javelins"):
        return ["Welsh Hearthguard and Warriors keep their javelins unless led by Gruffydd ap Llywelyn "
                "(SAGA p.40, p.43)"]
    if chosen == "bow" and not (cls == "warriors" and not u.get("mounted") and "warrior_bows" in spec):
        return ["only foot Warriors of Gruffydd ap Llywelyn may carry bows (Archers of Powys, SAGA p.43)"]
    if chosen not in ("none", "bow", "javelin"):
        return [f"Welsh {cls} cannot carry {chosen}s (SAGA p.40)"]
    return []


def brothers(hero: str | None) -> list[str]:
    """The named figures sharing a hero's Warlord unit (Harold's brothers, SAGA p.42)."""
    return list(cat.swords()["heroes"].get(hero or "", {}).get("brothers", {}).get("names", []))


def unit_figures(u: dict[str, Any], hero: str | None = None) -> int:
    """How many figures a unit entry of ``setup.sides.*.units`` puts on the table (a Warlord led
    by Harold Godwinson has his brothers with him)."""
    if u["class"] == "warlord":
        return int(u.get("figures", len(u["positions"]) if "positions" in u else 1 + len(brothers(hero))))
    if u["class"] == "baggage":
        return 1
    merc = cat.swords()["mercenaries"].get(u.get("mercenary", ""))
    given = len(u["positions"]) if "positions" in u else merc["figures"] if merc else 0
    return int(u.get("figures", given))


def unit_problems(faction: dict[str, Any], u: dict[str, Any], hero: str | None,
                  mid_game: bool = False) -> list[tuple[str, str]]:
    """Every reason one unit entry (a ``setup.sides.*.units`` item) is not allowed in ``faction``'s
    warband led by ``hero``, as (field, message) pairs (SAGA p.35-46). Used by the set-up and by
    the force-selection screen (``forces.py``) to know which unit options a faction has.
    ``mid_game`` (a position with ``setup.start``): units may have lost figures, down to one."""
    out: list[tuple[str, str]] = []
    cls = u["class"]
    count = unit_figures(u)
    whole = 1 + len(brothers(hero))
    if cls == "warlord" and ("figures" in u or "positions" in u) and \
            not (1 <= unit_figures(u, hero) <= whole if mid_game else unit_figures(u, hero) == whole):
        out.append(("figures", f"the Warlord's unit has {whole} figure(s)" + (" or fewer" if mid_game else "")
                               + (" (Harold and his brothers, SAGA p.42)" if brothers(hero) else " (SAGA p.33)")))
    if cls not in ("warlord", "baggage") and not (1 if mid_game else 4) <= count <= 12:
        out.append(("figures", "a unit has 1 to 12 figures in a mid-game position (no unit starts with more "
                               "than 12, SAGA p.35)" if mid_game else "a unit starts with 4 to 12 figures (SAGA p.35)"))
    if "positions" in u and len(u["positions"]) != unit_figures(u, hero):
        out.append(("positions", f"one position per figure: {unit_figures(u, hero)} figure(s), "
                                 f"{len(u['positions'])} position(s)"))
    mounted = bool(u.get("mounted", False))
    rides = cls == "warlord" and cat.swords()["heroes"].get(hero or "", {}).get("may_ride", False)
    if mounted and rides and u.get("dane_axe"):
        out.append(("dane_axe", "Canute the Great carries a Dane axe on foot only (SAGA p.42)"))
    if mounted and not rides and (cls in ("levies", "baggage") or faction["id"] not in ("normans", "welsh")):
        out.append(("mounted", "only Norman and Welsh Warlords, Hearthguard and Warriors may be mounted "
                               "(SAGA p.38, p.40)"))
    out += [("weapon", m) for m in _weapon_option_problems(faction, u, hero)]
    if weapon_of(faction, u) == "crossbow" and (faction["id"] != "normans" or cls != "warriors" or mounted
                                              or count > 8):
        out.append(("weapon", "crossbows: one Norman foot Warriors unit of up to 8 (SAGA p.38)"))
    if cls == "levies" and u.get("weapon") not in (None, *faction.get("levy_weapons", [faction.get("levy_weapon")])):
        out.append(("weapon", f"{faction['name']} Levies carry {' or '.join(faction.get('levy_weapons', []))} "
                              "(SAGA p.37-40)"))
    hero_bows = cat.swords()["heroes"].get(hero or "", {}).get("bows", {}).get("classes", [])
    if u.get("weapon") in ("bow", "sling", "javelin") and cls != "levies" and faction["id"] != "welsh" \
            and not (u["weapon"] == "bow" and cls in hero_bows):
        out.append(("weapon", f"{faction['name']} {cls} carry no {u['weapon']}s (SAGA p.37-39)"))
    if "dane_axe" in u and u["dane_axe"] and not _dane_axe_allowed(faction, cls, u, hero):
        out.append(("dane_axe", "Dane axes: Anglo-Danish Warlords and Hearthguard (SAGA p.39), "
                                "or a hero's own option (SAGA p.42)"))
    if u.get("berserker") and (faction["id"] != "vikings" or cls != "hearthguard" or count != 4):
        out.append(("berserker", "Berserkers are one Viking Hearthguard unit of 4 (SAGA p.37)"))
    if u.get("berserker") and cat.swords()["heroes"].get(hero or "", {}).get("no_berserkers"):
        out.append(("berserker", "a Pagan warband of Sven Forkbeard has no Berserkers (SAGA p.45)"))
    if u.get("berserker") and u.get("varangians"):
        out.append(("varangians", "a unit is Berserkers (armour 3) or Varangians (armour 6), not both "
                                  "(SAGA p.37, p.42)"))
    if u.get("varangians"):
        spec = cat.swords()["heroes"].get(hero or "", {})
        if "varangians" not in spec or cls != "hearthguard":
            out.append(("varangians", "Varangians are a Hearthguard unit of Harald Hardrada's warband (SAGA p.42)"))
    merc_id = u.get("mercenary")
    if merc_id is not None:
        mercs = cat.swords()["mercenaries"]
        if merc_id not in mercs:
            out.append(("mercenary", f"unknown mercenary {merc_id!r} (known: {', '.join(sorted(mercs))})"))
        else:
            spec = mercs[merc_id]
            if cls != spec["class"] or not (1 <= count <= spec["figures"] if mid_game else count == spec["figures"]) \
                    or mounted:
                out.append(("", f"{spec['name']} are one foot {spec['class']} unit of {spec['figures']} "
                                f"figures (SAGA p.45)"))
            if spec.get("not_with_hero") and hero is not None:
                out.append(("mercenary", f"{spec['name']} never serve a Viking Age hero (SAGA p.45)"))
            own = cat.swords()["heroes"].get(hero or "", {}).get("second_board")
            if spec.get("board") and spec["board"] in (faction["id"], own):
                out.append(("mercenary", f"{spec['name']} serve only a warband without "
                                         f"{cat.faction(spec['board'])['name']} SAGA dice (SAGA p.45)"))
    return out


def _dane_axe_allowed(faction: dict[str, Any], cls: str, u: dict[str, Any], hero: str | None) -> bool:
    """Anglo-Danish Warlords and Hearthguard (SAGA p.39); a hero's own Dane axe rule (SAGA p.42)."""
    if faction["id"] == "anglo_danes":
        return cls in ("warlord", "hearthguard")
    spec = cat.swords()["heroes"].get(hero or "")
    return bool(spec and spec["dane_axe"] != "never" and (cls == "warlord" or u.get("varangians")))


def _add_unit(state: dict[str, Any], scenario: Scenario, owner: str, faction: dict[str, Any],
              u: dict[str, Any], path: tuple[Any, ...], hero: str | None = None) -> None:
    uid = u["id"]
    if uid in state["units"]:
        raise scenario.error(path + ("id",), f"unit id {uid!r} used twice")
    cls = u["class"]
    problems = unit_problems(faction, u, hero, mid_game=bool(scenario.setup.get("start")))
    if "at" not in u and "positions" not in u:
        problems.append(("", "a unit needs at (its centre) or positions (every figure's)"))
    if u.get("fatigue") and cls == "warlord" and cat.swords()["heroes"].get(hero or "", {}).get("fatigue_immune"):
        problems.append(("fatigue", f"{cat.swords()['heroes'][str(hero)]['name']} never has fatigue (Song of "
                                    "Roland, SAGA p.43)"))
    if problems:
        field, message = problems[0]
        raise scenario.error(path + ((field,) if field else ()), message)
    count = unit_figures(u, hero)
    mounted = bool(u.get("mounted", False))
    weapon = weapon_of(faction, u)
    hero_axe = cat.swords()["heroes"].get(hero or "", {}).get("dane_axe") == "always" and cls == "warlord"
    dane_axe = bool(u.get("dane_axe", not mounted and (hero_axe or (cls == "warlord" and faction.get("dane_axe", {})
                                                                     .get("warlord", False)))))
    berserker = bool(u.get("berserker", False))
    diameter = diameter_of(u)
    prof_cls = "hearthguard" if cls == "baggage" else cls
    unit = {"id": uid, "owner": owner, "cls": prof_cls, "baggage": cls == "baggage",
            "name": u.get("name", f"{owner} {cls}" if cls in ("warlord", "baggage") else f"{owner} {cls} ({uid})"),
            "mounted": mounted, "weapon": weapon, "dane_axe": dane_axe, "berserker": berserker,
            "javelin_penalty": weapon == "javelin" and cls in ("hearthguard", "warriors"),
            "fatigue": int(u.get("fatigue", 0)), "figures": [], "moves": 0, "shots": 0, "rested": False,
            "activations": 0,
            "start_figures": count, "path": list(path)}
    _swords_for_hire(scenario, u, path, hero, unit)
    if cls == "baggage":
        unit["armour_override"] = {"melee": 5, "shooting": 6}
        unit["melee_dice_override"] = 3
    columns = u.get("columns", min(count, 4))
    places = [(float(x), float(y)) for x, y in u["positions"]] if "positions" in u else \
        layout(tuple(u["at"]), count, columns, diameter)
    for i, (x, y) in enumerate(places):
        fid = f"{uid}.{i + 1}" if count > 1 else uid
        state["figures"][fid] = {"id": fid, "unit": uid, "x": x, "y": y, "r": diameter / 2}
        unit["figures"].append(fid)
    state["units"][uid] = unit
    _leader(unit)
    if cls == "warlord" and count > 1:                     # Godwinson Brotherhood (SAGA p.42)
        spec = cat.swords()["heroes"][str(hero)]["brothers"]
        lead, rest = unit["figures"][0], unit["figures"][1:]
        unit["figure_dice"] = {lead: 5, **{f: spec["attack_dice"] for f in rest}}
        unit["figure_vp"] = {f: spec["vp_key"] for f in rest}
        unit["figure_names"] = {lead: unit["name"], **dict(zip(rest, spec["names"]))}
    if cat.swords()["heroes"].get(hero or "", {}).get("bravery") and cls == "warlord":
        unit["bravery"] = cat.swords()["heroes"][str(hero)]["bravery"]
        unit["bravery_used"] = False
    from simulator.games.saga.movement import in_building
    inside = [in_building(state, state["figures"][f]["x"], state["figures"][f]["y"]) for f in unit["figures"]]
    places = {(b["id"] if b else None) for b in inside}
    unit["building"] = places.pop() if len(places) == 1 else None
    if unit["building"] and inside[0] is not None:
        problem = buildings.occupancy_problem(state, unit, inside[0], len(unit["figures"]))
        if problem is not None:
            raise scenario.error(path + ("at",), f"{problem[0]} ({problem[1]})")


@dataclass(frozen=True)
class BuilderProblem:
    """One reason a warband is not legal (SAGA p.35-46); ``units`` are the indexes (into the
    side's unit list) of the units it is about, empty for the warband as a whole."""

    message: str
    rule: str
    units: tuple[int, ...] = ()


def warband_problems(units: list[dict[str, Any]], heroes: list[str], budget: int) -> list[BuilderProblem]:
    """Every reason a warband (``setup.sides.*.units`` entries and its heroes) breaks the builder's
    rules for ``budget`` points (SAGA p.35-36, p.41, p.45): one Warlord, whole points per class,
    one hero, one Sword for Hire, the Varangians, the cost. Per-unit rules are :func:`unit_problems`."""
    out: list[BuilderProblem] = []
    per_point = {c: v["figures_per_point"] for c, v in cat.classes()["classes"].items()}
    swords = cat.swords()
    warlords = [i for i, u in enumerate(units) if u["class"] == "warlord"]
    most = 1 + int((extra_warlord_rule(budget) or {}).get("most", 0))
    if not 1 <= len(warlords) <= most:
        allowed = "exactly one Warlord" if most == 1 else f"one to {most} Warlords at {budget} points"
        out.append(BuilderProblem(f"a warband has {allowed} (has {len(warlords)})",
                                  "SAGA p.32" if most == 1 else "SAGA p.58", tuple(warlords)))
    if len(heroes) > 1:
        out.append(BuilderProblem(f"one Viking Age hero replaces the Warlord: {len(heroes)} chosen", "SAGA p.41"))
    for cls, idx in _by_class(units).items():
        n = sum(unit_figures(units[i]) for i in idx)
        if n % per_point[cls]:
            out.append(BuilderProblem(f"{n} {cls}: a point buys exactly {per_point[cls]} {cls}", "SAGA p.35",
                                      tuple(idx)))
    points = warband_cost(units, heroes)
    mercs = [i for i, u in enumerate(units) if u.get("mercenary")]
    if len(mercs) > 1:
        out.append(BuilderProblem("at most one Sword for Hire per warband", "SAGA p.45", tuple(mercs)))
    varangians = [i for i, u in enumerate(units) if u.get("varangians")]
    allowed = max([swords["heroes"].get(h, {}).get("varangians", {}).get("max_units", 0) for h in heroes] or [0])
    if len(varangians) > allowed:
        out.append(BuilderProblem("only one Hearthguard unit may be Varangians", "SAGA p.42", tuple(varangians)))
    for key, value, label, rule in (("berserker", True, "Berserkers", "SAGA p.37"),
                                    ("weapon", "crossbow", "crossbow", "SAGA p.38")):
        marked = [i for i, u in enumerate(units) if u.get(key) == value]
        if len(marked) > 1:
            out.append(BuilderProblem(f"only one {label} unit per warband ({len(marked)} chosen)", rule, tuple(marked)))
    if points > budget:
        out.append(BuilderProblem(f"the warband costs {points:g} points; the scenario allows {budget}", "SAGA p.35"))
    return out


def _by_class(units: list[dict[str, Any]]) -> dict[str, list[int]]:
    """The indexes of the units bought by the point, per class (not Warlords, baggage, mercenaries)."""
    out: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        if u["class"] not in ("warlord", "baggage") and not u.get("mercenary"):
            out.setdefault(u["class"], []).append(i)
    return out


def warband_cost(units: list[dict[str, Any]], heroes: list[str]) -> float:
    """The points a warband costs (SAGA p.35, p.41, p.45): its figures at their class's rate, a
    hero, a Sword for Hire."""
    per_point = {c: v["figures_per_point"] for c, v in cat.classes()["classes"].items()}
    swords = cat.swords()
    points = sum(sum(unit_figures(units[i]) for i in idx) / per_point[cls] for cls, idx in _by_class(units).items())
    points += sum(swords["heroes"][h]["cost"] for h in heroes if h in swords["heroes"])  # a hero costs a point
    extra = sum(1 for u in units if u["class"] == "warlord") - 1       # Clash of Steel Warlords (SAGA p.58)
    points += max(0, extra) * min(int(r["cost"]) for r in cat.classes()["extra_warlords"])
    return points + sum(swords["mercenaries"][u["mercenary"]]["cost"] for u in units
                        if u.get("mercenary") in swords["mercenaries"])


def extra_warlord_rule(points: int | None) -> dict[str, Any] | None:
    """The Clash of Steel row (SAGA p.58, ``extra_warlords`` in classes.yaml) for a warband of
    ``points`` points: how many extra Warlords, at what cost, lesser or not; None below 10."""
    rows = [r for r in cat.classes()["extra_warlords"] if points is not None and points >= r["from_points"]]
    return max(rows, key=lambda r: r["from_points"]) if rows else None


def _check_builder(state: dict[str, Any], scenario: Scenario) -> None:
    """Points (SAGA p.35) when the scenario states a warband size: every problem of
    :func:`warband_problems`, in one message."""
    budget = scenario.setup.get("points")
    if budget is None:
        return
    for p in state["players"]:
        side = scenario.setup["sides"][p]
        problems = warband_problems(side["units"], [side["hero"]] if side.get("hero") else [], int(budget))
        if problems:
            raise scenario.error(("setup", "sides", p), "; ".join(f"{x.message} ({x.rule})" for x in problems))


def _dice_on_boards(state: dict[str, Any], scenario: Scenario, player: str) -> None:
    """``setup.sides.<player>.dice``: the SAGA dice already on the battle board (a mid-game
    position). Each goes on a box of a board the side uses, showing a face the box takes (a
    once-per-turn box one set, SAGA p.7), never more than 8 dice in use (SAGA p.7, p.42)."""
    from simulator.games.saga import board
    entries = scenario.setup["sides"][player].get("dice", [])
    side = state["sides"][player]
    for k, d in enumerate(entries):
        path = ("setup", "sides", player, "dice", k)
        box = board.find_box(state, player, d["box"])
        if box is None:
            names = " or ".join(cat.faction(f)["name"] for f in board.boards(state, player))
            raise scenario.error(path + ("box",), f"the {names} board has no box {d['box']!r}")
        if box["effect"]["kind"] != "activate" and not board.box_in_play(state, box):
            raise scenario.error(path + ("box",), f"{box['name']} has no effect in this game (SAGA p.58)")
        first = 0 if box["faction"] == side["faction"] else BOARD_DICE
        free = [i for i in range(first, first + BOARD_DICE) if i < len(side["dice"]) and side["dice"][i]["face"] is None]
        shared = first == 0 or board.shares_dice_limit(state, player)
        in_use = sum(1 for i, x in enumerate(side["dice"]) if x["face"] is not None
                     and (board.shares_dice_limit(state, player) or (i < BOARD_DICE) == (first == 0)))
        if not free or (shared and in_use >= board.IN_USE):
            raise scenario.error(path, f"no more than {board.IN_USE} SAGA dice are in use at once (SAGA p.7)")
        faces = [side["dice"][i]["face"] for i in board.box_dice(state, player, d["box"])] + [d["face"]]
        fits = d["face"] in box["cost"][0] if box["column"] == "repeatable" else board.fits(faces, box["cost"])
        if not fits:
            raise scenario.error(path + ("face",), f"{box['name']} takes {board.cost_text(box)}"
                                 + ("" if box["column"] == "repeatable" else ", one set at a time")
                                 + f": it cannot hold {'+'.join(faces)} (SAGA p.7)")
        side["dice"][free[0]] = {"face": d["face"], "box": d["box"]}


def _start(state: dict[str, Any], scenario: Scenario, start: dict[str, Any]) -> None:
    """``setup.start``: the turn, phase and player a mid-game position starts with (the dice of
    an Activation Phase are those on the boards)."""
    if state["rules"]["deployment"] != "sample":
        raise scenario.error(("setup", "start"), "a mid-game position has its units on the table: "
                             "deployment: players cannot go with it")
    if start["turn"] > state["max_turns"]:
        raise scenario.error(("setup", "start", "turn"), f"the game has {state['max_turns']} turns")
    player = start.get("player", state["order"][0])
    if player not in state["players"]:
        raise scenario.error(("setup", "start", "player"), f"{player!r} is not a player of this scenario")
    if start["phase"] == "activation" and state["rules"]["simultaneous_orders"]:
        raise scenario.error(("setup", "start", "phase"), "scenario X plays every Orders Phase first: its "
                             "positions start in the Orders Phase (SAGA p.57)")
    state["turn"] = int(start["turn"])
    state["phase"] = start["phase"]
    state["orders_rolled"] = start["phase"] == "activation"
    state["turn_player"] = state["active"] = player


def _check_positions(state: dict[str, Any], scenario: Scenario, zones: bool = True) -> None:
    """Every figure on the table, not overlapping, units in formation, inside deployment zones
    (``zones``: not in a mid-game position)."""
    width, height = state["table"]["width"], state["table"]["height"]
    ids = list(state["figures"])
    arr = np.array([[state["figures"][f][k] for k in ("x", "y", "r")] for f in ids])
    g = circle_gaps(arr)
    np.fill_diagonal(g, np.inf)
    for uid, u in state["units"].items():
        path = tuple(u["path"])
        listed = scenario.setup["sides"].get(path[2], {}).get("units", []) if path[:2] == ("setup", "sides") else []
        entry = listed[path[4]] if len(path) > 4 and isinstance(path[4], int) and path[4] < len(listed) else {}
        where = path + ("positions" if "positions" in entry else "at",)
        for fid in u["figures"]:
            f = state["figures"][fid]
            if not circles_inside_rect([[f["x"], f["y"], f["r"]]], width, height)[0]:
                raise scenario.error(where, f"figure {fid} is off the table")
            i = ids.index(fid)
            j = int(np.argmin(g[i]))
            if g[i, j] < -EPS:
                raise scenario.error(where, f"figure {fid} overlaps {ids[j]}")
            for t in state["terrain"]:
                if t["movement"] == "impassable" and "polygon" in t and \
                        points_in_polygon([[f["x"], f["y"]]], t["polygon"], eps=0.0)[0]:
                    raise scenario.error(where, f"figure {fid} stands in impassable {t['name']}")
        b = np.array([[state["figures"][f][k] for k in ("x", "y", "r")] for f in u["figures"]])
        if not cohesive(b):
            raise scenario.error(where, "the unit is not in formation (SAGA p.12)")
        zones_of = [z for z in state["zones"] if z["side"] == u["owner"]] if zones else []
        if zones_of:
            centres = b[:, :2]
            ok = np.zeros(len(centres), dtype=bool)
            for z in zones_of:
                ok |= points_in_polygon(centres, z["polygon"], eps=0.0)
            if not ok.all():
                raise scenario.error(where, "the unit is deployed outside its deployment zone")
