"""Scenario set-up: army building checks (§12), terrain (§14-15.3), deployment (§15.4), decks (§9.2)."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from simulator.core.errors import DataError
from simulator.core.game import Context, State
from simulator.core.scenario import Scenario
from simulator.games.asoiaf import modes, space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import new_unit, polygon
from simulator.geometry.table import convex_hull, rect_corners

POINT = {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number"},
         "x-expected": "a point [x, y] in inches"}
CARD = {"type": "string", "pattern": "^[0-9]+$", "x-expected": "a card id in quotes such as '10201'"}


def setup_schema() -> Mapping[str, Any]:
    unit = {"type": "object", "required": ["id", "card", "at"], "additionalProperties": False,
            "properties": {"id": {"type": "string", "minLength": 1}, "card": CARD, "attachment": CARD,
                           "at": POINT, "facing": {"type": "number"}, "reserve": {"type": "boolean"}}}
    army = {"type": "object", "required": ["faction", "commander", "units"], "additionalProperties": False,
            "properties": {"faction": {"enum": ["stark", "lannister", "neutral"]}, "commander": CARD,
                           "units": {"type": "array", "minItems": 1, "items": unit},
                           "ncus": {"type": "array", "items": CARD}}}
    terrain = {"type": "object", "required": ["kind"], "additionalProperties": False,
               "properties": {"kind": {"type": "string"}, "at": POINT, "rotation": {"type": "number"},
                              "polygon": {"type": "array", "minItems": 3, "items": POINT}}}
    return {
        "setup": {"type": "object", "required": ["mode", "points", "armies"], "additionalProperties": False,
                  "properties": {
                      "mode": {"enum": sorted(catalogue().modes)},
                      "points": {"type": "integer", "minimum": 10},
                      "first_player": {"type": "string"},
                      "max_rounds": {"type": "integer", "minimum": 1, "maximum": 12},
                      "check_deployment": {"type": "boolean"},
                      "check_points": {"type": "boolean"},
                      "hands": {"type": "object", "additionalProperties": {
                          "type": "array", "maxItems": 3, "items": CARD,
                          "x-expected": "up to 3 Tactics card ids from the player's deck"}},
                      "table": POINT,
                      "armies": {"type": "object", "additionalProperties": army},
                      "terrain": {"type": "array", "items": terrain},
                      "marked": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
                      "defender": {"type": "string"},
                  }},
        "rules": {"type": "object", "additionalProperties": False, "properties": {}},
    }


def deployment_zone(state: State, side: str) -> tuple[float, float]:
    """The strip (y0, y1) of ``side``: the first player of the scenario deploys south, at low y
    (§15.4, §16; table coordinates have y up)."""
    m = modes.mode(state)
    w, h = state["table"]
    depth = m["deployment"]
    if isinstance(depth, dict):
        depth = depth["defender"] if side == state["flags"].get("defender") else depth["attacker"]
    south = side == state["players"][0] if m["scoring"] != "siege" else side != state["flags"].get("defender")
    return (0.0, depth) if south else (h - depth, h)


def build_state(scenario: Scenario, ctx: Context) -> State:
    cat = catalogue()
    setup = scenario.setup
    players = [p["id"] for p in scenario.players]
    if len(players) != 2:
        raise scenario.error(("players",), "this engine plays two-player games (team play: see docs/asoiaf.md)")
    armies = setup["armies"]
    for p in players:
        if p not in armies:
            raise scenario.error(("setup", "armies"), f"no army for player {p!r}")
    mode_id = setup["mode"]
    m = cat.modes[mode_id]
    state: State = {
        "players": players, "mode": mode_id, "round": 1, "max_rounds": setup.get("max_rounds", 6),
        "phase": "activation", "table": list(setup.get("table", [48, 48])),
        "vp": {p: 0 for p in players}, "vp_needed": modes.vp_needed(setup["points"]), "points": setup["points"],
        "units": {}, "order": [], "ncus": {}, "board": {z["id"]: None for z in cat.zones},
        "decks": {}, "hands": {}, "discards": {}, "terrain": [], "walls": [], "objectives": [],
        "pending": [], "after_pending": None, "flags": {}, "result": None, "commander": {},
        "factions": {p: armies[p]["faction"] for p in players},
    }
    if m["scoring"] == "siege":
        d = setup.get("defender", players[1])
        if d not in players:
            raise scenario.error(("setup", "defender"), f"{d!r} is not a player")
        state["flags"]["defender"] = d
    for i, t in enumerate(setup.get("terrain", [])):
        state["terrain"].append(_terrain(scenario, ("setup", "terrain", i), t, f"T{i + 1}"))
    for i, (x, y) in enumerate(m["objectives"]):
        state["objectives"].append({"id": f"O{i + 1}", "x": float(x), "y": float(y), "holder": None, "pile": None})
    if mode_id == "feast_for_crows":
        size = cat.terrain["corpse_pile"]["size"]
        for i, ob in enumerate(state["objectives"]):
            tid = f"pile{i + 1}"
            poly = rect_corners([[ob["x"], ob["y"], size[0], size[1], 90]])[0]
            state["terrain"].append({"id": tid, "kind": "corpse_pile", "name": "Corpse pile",
                                     "keywords": list(cat.terrain["corpse_pile"]["keywords"]), "polygon": poly.tolist()})
            ob["pile"] = tid
    if m.get("walls") and m["scoring"] != "siege":
        wl, wd = m["wall_size"]
        for i, (x, y) in enumerate(m["walls"]):
            poly = rect_corners([[x, y, wl, wd, 0]])[0]      # long side north-south
            state["terrain"].append({"id": f"W{i + 1}", "kind": "castle_wall", "name": "Castle wall",
                                     "keywords": ["impassable", "blocks_los"], "polygon": poly.tolist()})
    for p in players:
        _army(scenario, state, p, armies[p])
    if m["scoring"] == "siege":
        _siege_walls(state, m)
    if mode_id == "fire_and_blood":
        marked = setup.get("marked", {})
        for p, ids in marked.items():
            for j, uid in enumerate(ids):
                u = state["units"].get(uid)
                if u is None or u["side"] == p:
                    raise scenario.error(("setup", "marked", p, j), f"{uid!r} is not an enemy unit of {p}")
                u["marked"] = True
    first = setup.get("first_player")
    if first is None:
        while True:
            a, b = ctx.dice.d6(f"first player roll of {players[0]}"), ctx.dice.d6(f"first player roll of {players[1]}")
            if a != b:
                first = players[0] if a > b else players[1]
                break
    elif first not in players:
        raise scenario.error(("setup", "first_player"), f"{first!r} is not a player ({', '.join(players)})")
    state["first_player"] = first
    state["active"] = first
    state["turn"] = {"player": first, "unit": None, "no_cards": None}
    hands = setup.get("hands", {})
    for p in hands:
        if p not in players:
            raise scenario.error(("setup", "hands", p), f"{p!r} is not a player ({', '.join(players)})")
    for p in players:
        deck = list(state["decks"][p])
        chosen = []
        for j, card in enumerate(hands.get(p, [])):
            if card not in deck:
                raise scenario.error(("setup", "hands", p, j), f"{card} is not (or no longer) in {p}'s Tactics deck")
            deck.remove(card)
            chosen.append(card)
        deck = ctx.dice.shuffle(deck, f"{p} shuffles the Tactics deck")
        state["decks"][p] = deck
        state["hands"][p] = chosen + [deck.pop(0) for _ in range(min(3 - len(chosen), len(deck)))]
    modes.refresh_holders(state)
    return state


def _terrain(scenario: Scenario, path: tuple, t: dict[str, Any], tid: str) -> dict[str, Any]:
    cat = catalogue()
    kind = t["kind"]
    if kind not in cat.terrain:
        raise scenario.error(path + ("kind",), f"unknown terrain {kind!r} (known: {', '.join(sorted(cat.terrain))})")
    spec = cat.terrain[kind]
    if "polygon" in t:
        poly = np.array(t["polygon"], dtype=float)
        if len(convex_hull(poly)) != len(poly):
            raise scenario.error(path + ("polygon",), "a terrain polygon must be convex")
    elif "at" in t:
        w, d = spec["size"]
        # rotation: degrees counter-clockwise; 0 = the first size (width) along x
        poly = rect_corners([[t["at"][0], t["at"][1], w, d, 90 + t.get("rotation", 0)]])[0]
    else:
        raise scenario.error(path, "a terrain piece needs 'at' (centre) or 'polygon'")
    return {"id": tid, "kind": kind, "name": spec["name"], "keywords": list(spec["keywords"]), "polygon": poly.tolist()}


def _army(scenario: Scenario, state: State, side: str, army: dict[str, Any]) -> None:
    """Build one army and check the army-building rules (§12)."""
    cat = catalogue()
    base = ("setup", "armies", side)
    faction = army["faction"]
    commander = army["commander"]
    if commander not in cat.attachments or not cat.attachments[commander].get("commander"):
        raise scenario.error(base + ("commander",), f"{commander} is not a Commander card")
    deck = cat.deck_for(faction, commander)
    missing = sorted({c for c in deck if c not in cat.card_effects})
    if missing:
        raise scenario.error(base + ("commander",), "the Tactics deck of this faction and Commander has cards "
                             f"without effect data ({', '.join(cat.full_name(c) for c in missing)}); "
                             "add them to data/tactics.yaml")
    if cat.attachments[commander]["faction"] not in (faction, "neutral"):
        raise scenario.error(base + ("commander",), f"{cat.full_name(commander)} is not of faction {faction}")
    points = 0
    neutral_points = 0
    characters: set[str] = set()
    cmd_found = False
    check_dep = scenario.setup.get("check_deployment", True)
    for i, spec in enumerate(army["units"]):
        path = base + ("units", i)
        card_id = spec["card"]
        if card_id not in cat.units:
            raise scenario.error(path + ("card",), f"unknown Combat unit card {card_id}")
        card = cat.units[card_id]
        if card["faction"] not in (faction, "neutral") or (faction == "neutral" and card["faction"] != "neutral"):
            raise scenario.error(path + ("card",), f"{card['name']} ({card['faction']}) cannot join a {faction} army")
        att = spec.get("attachment")
        cost = card["cost"]
        for cid, c in ((card_id, card),) + (((att, cat.attachments.get(att)),) if att else ()):
            if c is None:
                raise scenario.error(path + ("attachment",), f"unknown attachment card {att}")
            if c.get("character"):
                who = c["name"]
                if who in characters:
                    raise scenario.error(path, f"{who} is a Character: only one version per army")
                characters.add(who)
        if att:
            a = cat.attachments[att]
            if card["tray"] in ("solo", "warmachine"):
                raise scenario.error(path + ("attachment",), "units on individual trays take no attachments")
            if a["type"] != card["type"]:
                raise scenario.error(path + ("attachment",), f"{a['name']} joins {a['type']} units, not {card['type']}")
            if a["faction"] not in (faction, "neutral"):
                raise scenario.error(path + ("attachment",), f"{a['name']} is not of faction {faction}")
            if a.get("commander") and att != commander:
                raise scenario.error(path + ("attachment",), "only the army's Commander may be a Commander attachment")
            cmd_found = cmd_found or att == commander
            cost += a["cost"]
        points += cost
        if card["faction"] == "neutral" and faction != "neutral":
            neutral_points += cost
        uid = spec["id"]
        if uid in state["units"]:
            raise scenario.error(path + ("id",), f"unit id {uid!r} is used twice")
        u = new_unit(cat, uid, side, card_id, att, spec["at"][0], spec["at"][1],
                     spec.get("facing", 90 if side == state["players"][0] else 270))
        u["reserve"] = bool(spec.get("reserve"))
        if check_dep and not u["reserve"]:
            poly = polygon(u)
            y0, y1 = deployment_zone(state, side)
            w = state["table"][0]
            if poly[:, 0].min() < -1e-6 or poly[:, 0].max() > w + 1e-6 or poly[:, 1].min() < y0 - 1e-6 \
                    or poly[:, 1].max() > y1 + 1e-6:
                raise scenario.error(path + ("at",), f"the tray must lie wholly inside {side}'s deployment area "
                                     f"(y from {y0:g} to {y1:g})")
        for other in state["units"].values():
            if space.overlap(polygon(u), polygon(other)):
                raise scenario.error(path + ("at",), f"the tray overlaps {other['id']}")
        for t in state["terrain"]:
            if "impassable" in t["keywords"] and space.overlap(polygon(u), np.array(t["polygon"])):
                raise scenario.error(path + ("at",), f"the tray stands on impassable terrain ({t['name']})")
        state["units"][uid] = u
        state["order"].append(uid)
        if u["commander"]:
            state["commander"][side] = uid
    if not cmd_found:
        raise scenario.error(base + ("commander",), "the Commander must be attached to one of the army's units")
    for j, nid in enumerate(army.get("ncus", [])):
        if nid not in cat.ncus:
            raise scenario.error(base + ("ncus", j), f"unknown NCU card {nid}")
        n = cat.ncus[nid]
        if n["faction"] not in (faction, "neutral"):
            raise scenario.error(base + ("ncus", j), f"{n['name']} is not of faction {faction}")
        key = f"{side}-N{j + 1}"
        points += n["cost"]
        if n["faction"] == "neutral" and faction != "neutral":
            neutral_points += n["cost"]
        spec = cat.ability_effects(n["abilities"]).get("playing_the_game")
        state["ncus"][key] = {"id": key, "card": nid, "side": side, "name": cat.full_name(nid), "cost": n["cost"],
                              "activated": False, "zone": None, "quadrant": None,
                              "tokens": int(spec["tokens"]) if spec else 0}
    limit = scenario.setup["points"]
    if scenario.setup.get("check_points", True):
        if points > limit:
            raise scenario.error(base, f"the army costs {points} points, more than the game size {limit}")
        if neutral_points * 2 > limit:
            raise scenario.error(base, f"{neutral_points} points of neutral units exceed half the game size")
    state["decks"][side] = deck
    state["hands"][side] = []
    state["discards"][side] = []


def _siege_walls(state: State, m: dict[str, Any]) -> None:
    """A Storm of Swords: three castle walls before the Defender's edge, activated like units."""
    side = state["flags"]["defender"]
    wl, wd = m["wall_size"]
    for i, (x, y) in enumerate(m["walls"]):
        uid = f"wall{i + 1}"
        u = {"id": uid, "side": side, "card": "", "name": "Castle wall", "type": "structure", "tray": "structure",
             "attachment": None, "commander": False, "x": float(x), "y": float(y), "facing": 270.0,
             "width": float(wl), "depth": float(wd), "files": 1, "ranks_max": 1, "figures_max": 1, "figures": 1,
             "wounds_per_figure": int(m["wall_wounds"]), "damage": 0, "speed": 0, "defense": 7, "morale": 13,
             "attacks": [dict(m["wall_arrows"])], "abilities": [], "cost": 0, "activated": False,
             "conditions": [], "orders_used": [], "influence": {}, "destroyed": False, "objective": None,
             "marked": False, "vp_tokens": 0, "speed_bonus": 0, "reserve": False, "structure": True}
        state["units"][uid] = u
        state["order"].append(uid)
        state["walls"].append({"id": uid, "polygon": polygon(u).tolist()})
