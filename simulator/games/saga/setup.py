"""Building the initial state from a scenario: table, terrain, warbands, deployment.

Also the warband builder's checks (SAGA p.35-36): units of 4 to 12 figures of one
class, the Warlord alone, and points (1 point = 4 Hearthguard = 8 Warriors = 12 Levies).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.core.game import Context
from simulator.core.scenario import Scenario
from simulator.games.saga import catalogue as cat
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
                  "properties": {"width": {"type": "number", "minimum": 12},
                                 "height": {"type": "number", "minimum": 12}}},
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
        "sides": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["faction", "units"], "additionalProperties": False,
            "properties": {
                "faction": {"enum": list(cat.FACTIONS)},
                "hero": {"type": "string", "x-expected": "a hero id of data/swords.yaml (replaces the Warlord)"},
                "units": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "required": ["id", "class", "at"], "additionalProperties": False,
                    "properties": {
                        "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]+$"},
                        "name": {"type": "string"},
                        "class": {"enum": ["warlord", "hearthguard", "warriors", "levies", "baggage"]},
                        "figures": {"type": "integer", "minimum": 1, "maximum": 12},
                        "at": _POINT,
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


def _diameter(u: dict[str, Any]) -> float:
    bases = cat.classes()["bases"]
    if "base" in u:
        return float(u["base"])
    if u["class"] == "baggage":
        return bases["baggage"]
    if u["class"] == "warlord":
        return bases["warlord_mounted" if u.get("mounted") else "warlord_foot"]
    return bases["mounted" if u.get("mounted") else "foot"]


def _weapon(faction: dict[str, Any], u: dict[str, Any]) -> str | None:
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
        "players": players, "turn": 1, "max_turns": int(scenario.data.get("turns", 6)),
        "dice_cap": int(setup.get("dice_cap", 6)),
        "units": {}, "figures": {}, "sides": {}, "losses": {p: {} for p in players},
        "kills": {p: {} for p in players}, "vp": {p: 0 for p in players},
        "exited": {p: 0 for p in players}, "wounds": {},
        "rules": {"determination": scenario.rules.get("determination_per_turn", 1),
                  "we_obey": scenario.rules.get("we_obey_per_turn", 1),
                  "natural_melee": scenario.rules.get("natural_rolls_in_melee", True)},
        "armour_down": {}, "pending": None, "queue": [], "interrupted": [], "free": [], "activation": None,
        "melee": None, "shooting": None, "over": None, "phase": "orders", "orders_rolled": False,
    }
    order = setup.get("order") or ([setup["first_player"]] + [p for p in players if p != setup["first_player"]]
                                   if setup.get("first_player") else players)
    for p in order:
        if p not in players:
            raise scenario.error(("setup", "order"), f"{p!r} is not a player of this scenario")
    state["order"] = list(order)
    state["turn_player"] = order[0]
    state["active"] = order[0]
    for side_i, p in enumerate(players):
        side = setup["sides"][p]
        faction = cat.faction(side["faction"])
        ctx.dice.register(_die(side["faction"]))
        state["sides"][p] = {"faction": side["faction"],
                             "dice": [{"face": None, "box": None} for _ in range(8)],
                             "determination": 0, "we_obey": 0, "sons_of_the_land": False,
                             "double_bow_range": False}
        hero = _hero(scenario, p, side)
        state["sides"][p]["hero"] = hero
        for ui, u in enumerate(side["units"]):
            _add_unit(state, scenario, p, faction, u, ("setup", "sides", p, "units", ui), hero)
    _check_builder(state, scenario)
    _check_positions(state, scenario)
    if state["victory"] == "challenge":
        state["wounds"] = {p: 12 for p in players}
    ctx.emit("setup", f"{scenario.name}: {', '.join(f'{p} ({faction_name(state, p)})' for p in players)}; "
             f"{state['max_turns']} turns on a {width:g}x{height:g} inch table", "SAGA p.48")
    return state


def faction_name(state: dict[str, Any], player: str) -> str:
    return cat.faction(state["sides"][player]["faction"])["name"]


def _die(faction_id: str) -> Any:
    from simulator.core.dice import Die
    return Die(cat.die_name(faction_id), ("C", "C", "C", "U", "U", "R"))


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
        out.append({"id": t["id"], "type": t["type"], "name": t.get("name", spec["name"]),
                    "shape": spec["shape"], "height": spec["height"], "cover": spec["cover"],
                    "movement": spec["movement"], "capacity": spec.get("capacity", 0),
                    "objective": bool(t.get("objective", False)), key: [list(map(float, p)) for p in pts]})
    return out


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
    if u.get("varangians"):
        spec = cat.swords()["heroes"].get(hero or "", {})
        if "varangians" not in spec or cls != "hearthguard":
            raise scenario.error(path + ("varangians",), "Varangians are a Hearthguard unit of Harald Hardrada's "
                                                         "warband (SAGA p.42)")
        unit.update(varangians=True, armour_override=dict(spec["varangians"]["armour"]))
    spec = cat.swords()["heroes"].get(hero or "", {})
    if cls == "levies" and "levy_saga_dice" in spec:
        unit["saga_dice"] = spec["levy_saga_dice"]          # Scouts of Deheubarth (SAGA p.43)
    if u.get("weapon") == "bow" and cls == "warriors" and "warrior_bows" in spec and not u.get("mounted"):
        unit["armour_override"] = dict(spec["warrior_bows"]["armour"])   # Archers of Powys (SAGA p.43)
    merc_id = u.get("mercenary")
    if merc_id is None:
        return
    mercs = cat.swords()["mercenaries"]
    if merc_id not in mercs:
        raise scenario.error(path + ("mercenary",), f"unknown mercenary {merc_id!r} (known: {', '.join(sorted(mercs))})")
    spec = mercs[merc_id]
    if cls != spec["class"] or u.get("figures", spec["figures"]) != spec["figures"] or u.get("mounted"):
        raise scenario.error(path, f"{spec['name']} are one foot {spec['class']} unit of {spec['figures']} "
                                   f"figures (SAGA p.45)")
    if spec.get("not_with_hero") and hero is not None:
        raise scenario.error(path + ("mercenary",), f"{spec['name']} never serve a Viking Age hero (SAGA p.45)")
    unit.update(mercenary=merc_id, armour_override=dict(spec["armour"]), saga_dice=spec["saga_dice"],
                bypass_board=spec["bypass_board"], shield_wall=spec["shield_wall"], vp_key=spec.get("vp_key"),
                free_activations=spec["free_activations"], name=u.get("name", spec["name"]))
    if "move" in spec:
        unit["move"] = spec["move"]


def _check_weapon_option(scenario: Scenario, faction: dict[str, Any], u: dict[str, Any], path: tuple[Any, ...],
                         hero: str | None) -> None:
    """Welsh javelins may be left behind or swapped for bows only under Gruffydd ap Llywelyn (SAGA p.43)."""
    cls, chosen = u["class"], u.get("weapon")
    if faction["id"] != "welsh" or cls not in ("hearthguard", "warriors") or chosen is None:
        return
    spec = cat.swords()["heroes"].get(hero or "", {})
    if chosen == "none" and not spec.get("drop_javelins"):
        raise scenario.error(path + ("weapon",), "Welsh Hearthguard and Warriors keep their javelins unless "
                                                 "led by Gruffydd ap Llywelyn (SAGA p.40, p.43)")
    if chosen == "bow" and not (cls == "warriors" and not u.get("mounted") and "warrior_bows" in spec):
        raise scenario.error(path + ("weapon",), "only foot Warriors of Gruffydd ap Llywelyn may carry bows "
                                                 "(Archers of Powys, SAGA p.43)")
    if chosen not in ("none", "bow", "javelin"):
        raise scenario.error(path + ("weapon",), f"Welsh {cls} cannot carry {chosen}s (SAGA p.40)")


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
    merc = cat.swords()["mercenaries"].get(u.get("mercenary", ""))
    count = 1 if cls in ("warlord", "baggage") else u.get("figures", merc["figures"] if merc else 0)
    if cls not in ("warlord", "baggage") and not 4 <= count <= 12:
        raise scenario.error(path + ("figures",), "a unit starts with 4 to 12 figures (SAGA p.35)")
    mounted = bool(u.get("mounted", False))
    if mounted and (cls == "levies" or faction["id"] not in ("normans", "welsh")):
        raise scenario.error(path + ("mounted",), "only Norman and Welsh Warlords, Hearthguard and Warriors "
                                                  "may be mounted (SAGA p.38, p.40)")
    weapon = _weapon(faction, u)
    _check_weapon_option(scenario, faction, u, path, hero)
    if weapon == "crossbow" and (faction["id"] != "normans" or cls != "warriors" or mounted or count > 8):
        raise scenario.error(path + ("weapon",), "crossbows: one Norman foot Warriors unit of up to 8 (SAGA p.38)")
    hero_axe = cat.swords()["heroes"].get(hero or "", {}).get("dane_axe") == "always" and cls == "warlord"
    dane_axe = bool(u.get("dane_axe", hero_axe or (cls == "warlord" and faction.get("dane_axe", {}).get("warlord", False))))
    if dane_axe and not _dane_axe_allowed(faction, cls, u, hero):
        raise scenario.error(path + ("dane_axe",), "Dane axes: Anglo-Danish Warlords and Hearthguard (SAGA p.39), "
                                                   "or a hero's own option (SAGA p.42)")
    berserker = bool(u.get("berserker", False))
    if berserker and (faction["id"] != "vikings" or cls != "hearthguard" or count != 4):
        raise scenario.error(path + ("berserker",), "Berserkers are one Viking Hearthguard unit of 4 (SAGA p.37)")
    diameter = _diameter(u)
    prof_cls = "hearthguard" if cls == "baggage" else cls
    unit = {"id": uid, "owner": owner, "cls": prof_cls, "baggage": cls == "baggage",
            "name": u.get("name", f"{owner} {cls}" if cls in ("warlord", "baggage") else f"{owner} {cls} ({uid})"),
            "mounted": mounted, "weapon": weapon, "dane_axe": dane_axe, "berserker": berserker,
            "javelin_penalty": weapon == "javelin" and cls in ("hearthguard", "warriors"),
            "fatigue": 0, "figures": [], "moves": 0, "shots": 0, "rested": False, "activations": 0,
            "start_figures": count, "path": list(path)}
    _swords_for_hire(scenario, u, path, hero, unit)
    if cls == "baggage":
        unit["armour_override"] = {"melee": 5, "shooting": 6}
        unit["melee_dice_override"] = 3
    columns = u.get("columns", min(count, 4))
    for i, (x, y) in enumerate(layout(tuple(u["at"]), count, columns, diameter)):
        fid = f"{uid}.{i + 1}" if count > 1 else uid
        state["figures"][fid] = {"id": fid, "unit": uid, "x": x, "y": y, "r": diameter / 2}
        unit["figures"].append(fid)
    state["units"][uid] = unit
    from simulator.games.saga.movement import in_building
    places = {(b["id"] if b else None) for b in
              (in_building(state, state["figures"][f]["x"], state["figures"][f]["y"]) for f in unit["figures"])}
    unit["building"] = places.pop() if len(places) == 1 else None


def _check_builder(state: dict[str, Any], scenario: Scenario) -> None:
    """Points (SAGA p.35) when the scenario states a warband size."""
    budget = scenario.setup.get("points")
    if budget is None:
        return
    per_point = {c: v["figures_per_point"] for c, v in cat.classes()["classes"].items()}
    for p in state["players"]:
        figures: dict[str, int] = {}
        warlords = 0
        for u in state["units"].values():
            if u["owner"] != p or u["baggage"] or u.get("mercenary"):
                continue
            if u["cls"] == "warlord":
                warlords += 1
                continue
            figures[u["cls"]] = figures.get(u["cls"], 0) + len(u["figures"])
        if warlords != 1:
            raise scenario.error(("setup", "sides", p), f"a warband has exactly one Warlord (has {warlords})")
        points = 0
        for c, n in figures.items():
            if n % per_point[c]:
                raise scenario.error(("setup", "sides", p), f"{n} {c}: a point buys exactly {per_point[c]} "
                                                            f"{c} (SAGA p.35)")
            points += n // per_point[c]
        hero = state["sides"][p].get("hero")
        if hero is not None:
            points += cat.swords()["heroes"][hero]["cost"]       # SAGA p.41: a hero costs a point
        mercs = [u["mercenary"] for u in state["units"].values() if u["owner"] == p and u.get("mercenary")]
        if len(mercs) > 1:
            raise scenario.error(("setup", "sides", p), "at most one Sword for Hire per warband (SAGA p.45)")
        points += sum(cat.swords()["mercenaries"][m]["cost"] for m in mercs)
        varangians = sum(1 for u in state["units"].values() if u["owner"] == p and u.get("varangians"))
        if hero is not None and varangians > cat.swords()["heroes"][hero].get("varangians", {}).get("max_units", 0):
            raise scenario.error(("setup", "sides", p), "only one Hearthguard unit may be Varangians (SAGA p.42)")
        if points > budget:
            raise scenario.error(("setup", "sides", p), f"the warband costs {points} points; the scenario "
                                                        f"allows {budget} (SAGA p.35)")


def _check_positions(state: dict[str, Any], scenario: Scenario) -> None:
    """Every figure on the table, not overlapping, units in formation, inside deployment zones."""
    width, height = state["table"]["width"], state["table"]["height"]
    ids = list(state["figures"])
    arr = np.array([[state["figures"][f][k] for k in ("x", "y", "r")] for f in ids])
    g = circle_gaps(arr)
    np.fill_diagonal(g, np.inf)
    for uid, u in state["units"].items():
        where = tuple(u["path"]) + ("at",)
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
        zones = [z for z in state["zones"] if z["side"] == u["owner"]]
        if zones:
            centres = b[:, :2]
            ok = np.zeros(len(centres), dtype=bool)
            for z in zones:
                ok |= points_in_polygon(centres, z["polygon"], eps=0.0)
            if not ok.all():
                raise scenario.error(where, "the unit is deployed outside its deployment zone")
