"""Scenario set-up: army building checks (§12), terrain (§14-15.3), deployment (§15.4), decks (§9.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from simulator.core.errors import DataError
from simulator.core.game import Context, State
from simulator.core.scenario import Scenario
from simulator.games.asoiaf import battlefield, modes, placement, sides, space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import CONDITIONS, Unit, new_unit, polygon, wound
from simulator.geometry.table import convex_hull, rect_corners

POINT = {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number"},
         "x-expected": "a point [x, y] in inches"}
CARD = {"type": "string", "pattern": "^[0-9]+$", "x-expected": "a card id in quotes such as '10201'"}


def setup_schema() -> Mapping[str, Any]:
    # no 'at': placed automatically in the deployment area (placement.auto_place)
    unit = {"type": "object", "required": ["id", "card"], "additionalProperties": False,
            "properties": {"id": {"type": "string", "minLength": 1}, "card": CARD, "attachment": CARD,
                           "at": POINT, "facing": {"type": "number"}, "reserve": {"type": "boolean"},
                           # a position in mid-game (docs/scripting.md): at most one of wounds /
                           # figures / ranks, each applied through the rules' removal order (4.1)
                           "wounds": {"type": "integer", "minimum": 0,
                                      "x-expected": "Wounds already suffered (fewer than the unit has)"},
                           "figures": {"type": "integer", "minimum": 1, "x-expected": "figures left (1 or more)"},
                           "ranks": {"type": "integer", "minimum": 1, "x-expected": "full ranks left (1 or more)"},
                           "conditions": {"type": "array", "uniqueItems": True, "items": {"enum": list(CONDITIONS)},
                                          "x-expected": "Condition tokens, each at most once (11.8)"},
                           "activated": {"type": "boolean",
                                         "x-expected": "true: the unit has already activated this round"},
                           "carries": {"type": "string",
                                       "x-expected": "the Objective token it carries (O1, O2...; 16.4-16.5)"},
                           "vp_tokens": {"type": "integer", "minimum": 0,
                                         "x-expected": "Fire and Blood VP tokens on the unit (16.8)"}}}
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
                          "type": "array", "maxItems": 5, "items": CARD,
                          "x-expected": "up to 5 Tactics card ids from the player's deck (3.2: hand limit 5; "
                                        "fewer than 3 are completed to 3 from the deck)"}},
                      # where a mid-game position starts (docs/scripting.md)
                      "round": {"type": "integer", "minimum": 1,
                                "x-expected": "the round to start in (1 to max_rounds)"},
                      "phase": {"enum": ["activation", "cleanup"],
                                "x-expected": "activation, or cleanup (every activation of the round is over)"},
                      "turn": {"type": "string", "x-expected": "the player (or team) activating first now"},
                      "vp": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                             "x-expected": "{player or team: victory points already scored}"},
                      # a real table, a foot to ten feet a side: keeps every drawing and distance finite
                      "table": {**POINT, "items": {"type": "number", "minimum": 12, "maximum": 120},
                                "x-expected": "the table's size [width, depth] in inches, 12 to 120"},
                      "armies": {"type": "object", "additionalProperties": army},
                      "terrain": {"type": "array", "items": terrain},
                      "terrain_pool": {"type": "array", "minItems": 1, "items": {"type": "string"},
                                       "x-expected": "terrain kinds the players choose from (15.3)"},
                      "terrain_pieces": {"type": "integer", "minimum": 1,
                                         "x-expected": "how many pieces the players place (15.3, default 4)"},
                      "marked": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
                      "defender": {"type": "string"},
                      "format": {"enum": ["duel", "teams", "free_for_all"],
                                 "x-expected": "duel (two players), teams (13.1) or free_for_all (13.2)"},
                      "teams": {"type": "object", "minProperties": 2, "maxProperties": 2,
                                "additionalProperties": {"type": "array", "minItems": 1,
                                                         "items": {"type": "string"}},
                                "x-expected": "two teams: {team id: [player ids]}"},
                  }},
        "rules": {"type": "object", "additionalProperties": False, "properties": {
            "deployment": {"enum": ["fixed", "players"],
                           "x-expected": "fixed (the scenario's positions) or players (a deployment phase, 15.4)"},
            "terrain": {"enum": ["fixed", "players", "random"],
                        "x-expected": "fixed (the scenario's terrain), players (players' choice) or random "
                                      "(random assortment), 15.3"}}},
    }


def build_state(scenario: Scenario, ctx: Context) -> State:
    cat = catalogue()
    setup = scenario.setup
    players = [p["id"] for p in scenario.players]
    fmt, teams = _format(scenario, players)
    armies = setup["armies"]
    for p in players:
        if p not in armies:
            raise scenario.error(("setup", "armies"), f"no army for player {p!r}")
    mode_id = setup["mode"]
    state: State = {
        "players": players, "mode": mode_id, "round": 1, "max_rounds": setup.get("max_rounds", 6),
        "phase": "activation", "table": list(setup.get("table", [48, 48])),
        "format": fmt, "teams": teams, "eliminated": [], "areas": {}, "rotation": {},
        "vp": {p: 0 for p in players}, "points": setup["points"],
        "vp_needed": modes.vp_needed(setup["points"] * max(len([p for p in players if teams[p] == t])
                                                           for t in set(teams.values()))),
        "units": {}, "order": [], "ncus": {}, "board": {z["id"]: None for z in cat.zones},
        "decks": {}, "hands": {}, "discards": {}, "terrain": [], "walls": [], "objectives": [],
        "pending": [], "after_pending": None, "flags": {}, "result": None, "commander": {},
        "factions": {p: armies[p]["faction"] for p in players},
    }
    m = modes.mode(state)
    if m["scoring"] == "siege":
        d = setup.get("defender", players[1])
        team_ids = sides.team_ids(state)
        if d not in players and d not in team_ids:
            raise scenario.error(("setup", "defender"), f"{d!r} is not a player or team "
                                 f"({', '.join(dict.fromkeys(players + team_ids))})")
        # a player id: by teams its whole team defends (sides.defending); flags keep one player
        state["flags"]["defender"] = sides.members(state, sides.team(state, d))[0]
    state["areas"] = placement.default_areas(state)
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
        for i, (x, y, *turn) in enumerate(m["walls"]):
            poly = rect_corners([[x, y, wl, wd, turn[0] if turn else 0]])[0]   # 0: long side north-south
            state["terrain"].append({"id": f"W{i + 1}", "kind": "castle_wall", "name": "Castle wall",
                                     "keywords": ["impassable", "blocks_los"], "polygon": poly.tolist()})
    for p in players:
        _army(scenario, state, p, armies[p])
    _team_characters(scenario, state, armies)
    if m["scoring"] == "siege":
        _siege_walls(state, m)
        _check_reserves(scenario, state)
    placement.auto_place(state, lambda side, msg: scenario.error(("setup", "armies", side), msg))
    if mode_id == "fire_and_blood":
        marked = setup.get("marked", {})
        for p, ids in marked.items():
            for j, uid in enumerate(ids):
                u = state["units"].get(uid)
                if u is None or u["side"] == p:
                    raise scenario.error(("setup", "marked", p, j), f"{uid!r} is not an enemy unit of {p}")
                u["marked"] = True
    first = setup.get("first_player")
    interactive = scenario.rules.get("deployment", "fixed") == "players"
    team_ids = sides.team_ids(state)
    if first is not None:
        if first not in players and first not in team_ids:
            raise scenario.error(("setup", "first_player"), f"{first!r} is not a player or team "
                                 f"({', '.join(dict.fromkeys(players + team_ids))})")
        first = sides.team(state, first)
    terrain = scenario.rules.get("terrain", "fixed")
    pool = _terrain_pool(scenario, terrain)
    if not interactive and first is None:
        first = _first_roll(ctx, team_ids)
    if interactive or terrain != "fixed":
        placement.start(state, ctx, first, deploy=interactive, terrain=terrain, pool=pool,
                        count=setup.get("terrain_pieces"))
        if interactive:
            first = sides.team(state, state["active"])   # until the first player is known (15.5)
    state["first_player"] = first
    if state["phase"] != "deployment":
        state["rotation"] = {first: 0}
        state["active"] = sides.members(state, first)[0]
        state["turn"] = {"player": state["active"], "unit": None, "no_cards": None}
    _start_position(scenario, state)
    _mode_tokens(scenario, state)
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


def _start_position(scenario: Scenario, state: State) -> None:
    """A mid-game start (docs/scripting.md): the round, the phase, whose turn it is and the VP
    already scored, each refused when the rules could not have reached it."""
    setup = scenario.setup
    players = state["players"]
    rnd = setup.get("round", 1)
    if rnd > state["max_rounds"]:
        raise scenario.error(("setup", "round"), f"round {rnd} is after the last round ({state['max_rounds']}, "
                             "max_rounds)")
    interactive = state["phase"] == "deployment"
    for key in ("round", "phase", "turn"):
        if key in setup and interactive:
            raise scenario.error(("setup", key), "a game with a deployment phase (rules: deployment: players or "
                                 "terrain placed by the players) starts at round 1 (15.4)")
    state["round"] = rnd
    turn = setup.get("turn")
    if turn is not None:
        team_ids = sides.team_ids(state)
        if turn not in players and turn not in team_ids:
            raise scenario.error(("setup", "turn"), f"{turn!r} is not a player or team "
                                 f"({', '.join(dict.fromkeys(players + team_ids))})")
        team = sides.team(state, turn)
        member = turn if turn in players else sides.members(state, team)[0]
        state["active"] = member
        state["rotation"] = {**state.get("rotation", {}), team: sides.members(state, team).index(member)}
        state["turn"] = {"player": member, "unit": None, "no_cards": None}
    if setup.get("phase") == "cleanup":
        for piece in [*state["units"].values(), *state["ncus"].values()]:
            piece["activated"] = True
        state["flags"]["start_in_cleanup"] = True
    vp = setup.get("vp", {})
    siege = modes.mode(state)["scoring"] == "siege"
    for who, n in vp.items():
        path = ("setup", "vp", who)
        if who not in players and who not in sides.team_ids(state):
            raise scenario.error(path, f"{who!r} is not a player or team ({', '.join(players)})")
        team = sides.team(state, who)
        if siege and sides.defending(state, team):
            raise scenario.error(path, "the Defender of A Storm of Swords scores no VP (16.3)")
        if n >= state["vp_needed"]:
            raise scenario.error(path, f"{n} VP would already have won ({state['vp_needed']} VP win, 15.2)")
        for m in sides.members(state, team):
            state["vp"][m] = n


def _mode_tokens(scenario: Scenario, state: State) -> None:
    """The game mode's tokens a mid-game unit may hold: a carried Objective (``carries``, in the
    modes whose tokens are carried, 16.4-16.5) and Fire and Blood VP tokens (``vp_tokens``, 16.8)."""
    m = modes.mode(state)
    obs = {o["id"]: o for o in state["objectives"]}
    for side, army in scenario.setup["armies"].items():
        for i, spec in enumerate(army["units"]):
            path = ("setup", "armies", side, "units", i)
            u = state["units"][spec["id"]]
            if spec.get("vp_tokens"):
                if state["mode"] != "fire_and_blood":
                    raise scenario.error(path + ("vp_tokens",), f"VP tokens are given to units only in Fire and "
                                         f"Blood (16.8), not in {m['name']}")
                u["vp_tokens"] = spec["vp_tokens"]
            obid = spec.get("carries")
            if obid is None:
                continue
            where = path + ("carries",)
            if m["claim"] != "carried":
                raise scenario.error(where, f"{m['name']}'s Objectives are not carried (16.4-16.5 only)")
            ob = obs.get(obid)
            if ob is None:
                raise scenario.error(where, f"no Objective {obid!r} ({', '.join(obs)})")
            if ob["holder"] is not None:
                raise scenario.error(where, f"{obid} is already carried by {ob['holder']} (one carrier a token)")
            if u.get("reserve") or u.get("undeployed"):
                raise scenario.error(where, f"{u['id']} is not on the table to carry a token")
            pile = next((t for t in state["terrain"] if t["id"] == ob.get("pile")), None)
            if m.get("pile_bound") and pile is not None and \
                    not space.near(polygon(u), np.array(pile["polygon"]), space.CONTACT):
                raise scenario.error(where, f"{u['id']} must touch {obid}'s corpse pile to carry it (16.4)")
            ob["holder"], u["objective"] = u["id"], obid
            ob["x"], ob["y"] = u["x"], u["y"]


def _unit_position(scenario: Scenario, path: tuple, u: Unit, spec: dict[str, Any]) -> None:
    """A unit's losses and tokens in a mid-game position: ``wounds`` / ``figures`` / ``ranks``
    (one of them, through the removal order of 4.1), ``conditions`` (11.8) and ``activated``."""
    given = [k for k in ("wounds", "figures", "ranks") if k in spec]
    if len(given) > 1:
        raise scenario.error(path + (given[1],), f"give one of wounds, figures or ranks, not {' and '.join(given)}")
    total = u["figures_max"] * u["wounds_per_figure"]
    lost = 0
    if "wounds" in spec:
        lost = spec["wounds"]
    elif "figures" in spec:
        if spec["figures"] > u["figures_max"]:
            raise scenario.error(path + ("figures",), f"{u['id']} has at most {u['figures_max']} figures (4.1)")
        lost = (u["figures_max"] - spec["figures"]) * u["wounds_per_figure"]
    elif "ranks" in spec:
        if spec["ranks"] > u["ranks_max"]:
            raise scenario.error(path + ("ranks",), f"{u['id']} has at most {u['ranks_max']} ranks (4.1)")
        lost = (u["ranks_max"] - spec["ranks"]) * u["files"] * u["wounds_per_figure"]
    if lost >= total:
        raise scenario.error(path + (given[0],), f"{u['id']} has {total} Wounds: {lost} would destroy it (4.1)")
    if lost:
        wound(u, lost)
    u["conditions"] = list(spec.get("conditions", []))
    if u.get("structure") and u["conditions"]:
        raise scenario.error(path + ("conditions",), "castle walls take no Condition tokens (16.3)")
    u["activated"] = bool(spec.get("activated", False))


def _terrain_pool(scenario: Scenario, method: str) -> list[str]:
    """The pieces the players choose from (``setup.terrain_pool``, default the catalogue's), each
    known, and enough of them for ``setup.terrain_pieces`` (15.3)."""
    cat = catalogue()
    setup = scenario.setup
    pool = list(setup.get("terrain_pool", cat.terrain_pool))
    for i, kind in enumerate(pool):
        if kind not in cat.terrain:
            raise scenario.error(("setup", "terrain_pool", i),
                                 f"unknown terrain {kind!r} (known: {', '.join(sorted(cat.terrain))})")
    n = setup.get("terrain_pieces", cat.terrain_pieces_placed)
    if method == "players" and n > len(pool):
        raise scenario.error(("setup", "terrain_pieces"), f"{n} pieces to place but only {len(pool)} in the "
                             "terrain pool (15.3)")
    return pool


def _format(scenario: Scenario, players: list[str]) -> tuple[str, dict[str, str]]:
    """The game's format and each player's team (§13): a duel has two players; a team game two
    teams covering every player once; a free-for-all three or four players, each its own team."""
    setup = scenario.setup
    fmt = setup.get("format", "teams" if "teams" in setup else "duel")
    if fmt == "duel":
        if len(players) != 2:
            raise scenario.error(("players",), f"a duel has two players, not {len(players)} (set setup.format to "
                                 "teams or free_for_all for more, 13)")
        if "teams" in setup:
            raise scenario.error(("setup", "teams"), "teams are given only with format: teams")
        return fmt, {p: p for p in players}
    if fmt == "free_for_all":
        if not 3 <= len(players) <= 4:
            raise scenario.error(("players",), f"a free-for-all has 3 or 4 players (one per table corner), "
                                 f"not {len(players)} (13.2)")
        if setup["mode"] == "storm_of_swords":
            raise scenario.error(("setup", "mode"), "every game mode but A Storm of Swords may be played "
                                 "free-for-all (13.2)")
        if "teams" in setup:
            raise scenario.error(("setup", "teams"), "a free-for-all has no teams (13.2)")
        return fmt, {p: p for p in players}
    if "teams" not in setup:
        raise scenario.error(("setup",), "a team game needs setup.teams: {team id: [player ids]} (13.1)")
    teams: dict[str, str] = {}
    for t, members in setup["teams"].items():
        for j, p in enumerate(members):
            if p not in players:
                raise scenario.error(("setup", "teams", t, j), f"{p!r} is not a player ({', '.join(players)})")
            if p in teams:
                raise scenario.error(("setup", "teams", t, j), f"{p!r} is already in team {teams[p]}")
            if t in players and t != p:
                raise scenario.error(("setup", "teams", t), f"a team id may not be another player's id ({t!r})")
            teams[p] = t
    missing = [p for p in players if p not in teams]
    if missing:
        raise scenario.error(("setup", "teams"), f"players without a team: {', '.join(missing)}")
    return fmt, teams


def team_character_clashes(teams: Mapping[str, str], armies: Mapping[str, Any]) -> list[tuple[tuple, str]]:
    """Characters fielded by two teammates (§13.1: a Character appears once in a whole team), as
    (path in ``armies``, message); ``teams`` maps each player (in seating order) to its team.
    Used by set-up and by force selection, which builds each army without seeing the teammate's."""
    cat = catalogue()
    out: list[tuple[tuple, str]] = []
    seen: dict[tuple[str, str], str] = {}
    for p, t in teams.items():
        cards = [((p, "units", i, key), spec.get(key)) for i, spec in enumerate(armies[p]["units"])
                 for key in ("card", "attachment")]
        cards += [((p, "ncus", j), nid) for j, nid in enumerate(armies[p].get("ncus", []))]
        for path, cid in cards:
            card = (cat.units.get(cid) or cat.attachments.get(cid) or cat.ncus.get(cid)) if cid else None
            if card and (card.get("character") or cid in cat.ncus):      # NCUs count as Characters (assumed)
                first = seen.setdefault((t, card["name"]), p)
                if first != p:
                    out.append((path, f"{card['name']} is a Character already in {first}'s army: a Character "
                                "appears once in the whole team (13.1)"))
    return out


def _team_characters(scenario: Scenario, state: State, armies: Mapping[str, Any]) -> None:
    """A Character appears once in a whole team (§13.1): the armies of teammates share the limit."""
    clashes = team_character_clashes({p: sides.team(state, p) for p in state["players"]}, armies)
    if clashes:
        path, message = clashes[0]
        raise scenario.error(("setup", "armies") + path, message)


def _first_roll(ctx: Context, teams: list[str]) -> str:
    """Every team (free-for-all: every player) rolls a D6; the highest, ties rerolled, is first."""
    who = list(teams)
    while True:
        rolls = {t: ctx.dice.d6(f"first player roll of {t}") for t in who}
        best = max(rolls.values())
        top = [t for t, r in rolls.items() if r == best]
        if len(top) == 1:
            return top[0]
        who = top


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
        return battlefield.piece(kind, t["at"][0], t["at"][1], t.get("rotation", 0), tid)
    else:
        raise scenario.error(path, "a terrain piece needs 'at' (centre) or 'polygon'")
    return {"id": tid, "kind": kind, "name": spec["name"], "keywords": list(spec["keywords"]), "polygon": poly.tolist()}


RULE_SIZE = 'ASOIAF "Game size" (12.1)'
RULE_FACTION = 'ASOIAF "Choose a faction" (12.2)'
RULE_COMMANDER = 'ASOIAF "Choose a Commander" (12.3)'
RULE_NEUTRAL = 'ASOIAF "Neutral units" (12.4)'
RULE_DECK = 'ASOIAF "Prepare the Tactics deck" (12.5)'
RULE_UNITS = 'ASOIAF "Adding units and attachments" (12.6)'


@dataclass(frozen=True)
class ArmyProblem:
    """One broken army-building rule (§12). ``path`` is relative to the army mapping of the
    scenario (("units", 2, "attachment")); ``card`` the card the problem is about; ``key`` the
    kind of problem ("points" for the game-size limit, which force selection shows itself)."""

    path: tuple[str | int, ...]
    message: str
    rule: str
    card: str | None = None
    key: str = ""


def army_problems(army: Mapping[str, Any], limit: int, check_points: bool = True) -> list[ArmyProblem]:
    """Every army-building problem of ``army`` (a scenario army mapping: faction, commander,
    units [{card, attachment}], ncus) for a game of ``limit`` points (§12). The one place the
    army rules live: set-up raises the first, force selection shows them all."""
    cat = catalogue()
    out: list[ArmyProblem] = []
    faction = army["faction"]
    commander = army["commander"]
    if commander not in cat.attachments or not cat.attachments[commander].get("commander"):
        out.append(ArmyProblem(("commander",), f"{commander} is not a Commander card", RULE_COMMANDER, commander))
    else:
        deck = cat.deck_for(faction, commander)
        missing = sorted({c for c in deck if c not in cat.card_effects})
        if missing:
            out.append(ArmyProblem(("commander",), "the Tactics deck of this faction and Commander has cards "
                                   f"without effect data ({', '.join(cat.full_name(c) for c in missing)}); "
                                   "add them to data/tactics.yaml", RULE_DECK, commander))
        if cat.attachments[commander]["faction"] not in (faction, "neutral"):
            out.append(ArmyProblem(("commander",), f"{cat.full_name(commander)} is not of faction {faction}",
                                   RULE_FACTION, commander))
    points = 0
    neutral_points = 0
    characters: set[str] = set()
    cmd_found = False
    for i, spec in enumerate(army["units"]):
        path = ("units", i)
        card_id = spec["card"]
        if card_id not in cat.units:
            out.append(ArmyProblem(path + ("card",), f"unknown Combat unit card {card_id}", RULE_UNITS, card_id))
            continue
        card = cat.units[card_id]
        if card["faction"] not in (faction, "neutral") or (faction == "neutral" and card["faction"] != "neutral"):
            out.append(ArmyProblem(path + ("card",), f"{card['name']} ({card['faction']}) cannot join a {faction} "
                                   "army", RULE_FACTION, card_id))
        att = spec.get("attachment")
        cost = int(card["cost"])
        if att and att not in cat.attachments:
            out.append(ArmyProblem(path + ("attachment",), f"unknown attachment card {att}", RULE_UNITS, att))
            att = None
        for cid, c in ((card_id, card),) + (((att, cat.attachments[att]),) if att else ()):
            if c.get("character"):
                who = c["name"]
                if who in characters:
                    out.append(ArmyProblem(path, f"{who} is a Character: only one version per army", RULE_UNITS, cid))
                characters.add(who)
        if att:
            a = cat.attachments[att]
            if card["tray"] in ("solo", "warmachine"):
                out.append(ArmyProblem(path + ("attachment",), "units on individual trays take no attachments",
                                       RULE_UNITS, att))
            elif a["type"] != card["type"]:
                out.append(ArmyProblem(path + ("attachment",), f"{a['name']} joins {a['type']} units, not "
                                       f"{card['type']}", RULE_UNITS, att))
            if a["faction"] not in (faction, "neutral"):
                out.append(ArmyProblem(path + ("attachment",), f"{a['name']} is not of faction {faction}",
                                       RULE_FACTION, att))
            if a.get("commander") and att != commander:
                out.append(ArmyProblem(path + ("attachment",), "only the army's Commander may be a Commander "
                                       "attachment", RULE_COMMANDER, att))
            cmd_found = cmd_found or att == commander
            cost += int(a["cost"])
        points += cost
        if card["faction"] == "neutral" and faction != "neutral":
            neutral_points += cost
    if not cmd_found:
        out.append(ArmyProblem(("commander",), "the Commander must be attached to one of the army's units",
                               RULE_COMMANDER, commander))
    for j, nid in enumerate(army.get("ncus", [])):
        if nid not in cat.ncus:
            out.append(ArmyProblem(("ncus", j), f"unknown NCU card {nid}", RULE_UNITS, nid))
            continue
        n = cat.ncus[nid]
        if n["faction"] not in (faction, "neutral"):
            out.append(ArmyProblem(("ncus", j), f"{n['name']} is not of faction {faction}", RULE_FACTION, nid))
        if n["name"] in characters:         # NCUs count as Characters (assumed, docs/asoiaf.md)
            out.append(ArmyProblem(("ncus", j), f"{n['name']} is a Character: only one version per army",
                                   RULE_UNITS, nid))
        characters.add(n["name"])
        points += int(n["cost"])
        if n["faction"] == "neutral" and faction != "neutral":
            neutral_points += int(n["cost"])
    if check_points:
        if points > limit:
            out.append(ArmyProblem((), f"the army costs {points} points, more than the game size {limit}",
                                   RULE_SIZE, key="points"))
        if neutral_points * 2 > limit:
            out.append(ArmyProblem((), f"{neutral_points} points of neutral units exceed half the game size "
                                   f"({limit / 2:g})", RULE_NEUTRAL, key="neutral"))
    return out


def _army(scenario: Scenario, state: State, side: str, army: dict[str, Any]) -> None:
    """Build one army after checking the army-building rules (§12, :func:`army_problems`)."""
    cat = catalogue()
    base = ("setup", "armies", side)
    problems = army_problems(army, scenario.setup["points"], scenario.setup.get("check_points", True))
    if problems:
        raise scenario.error(base + problems[0].path, problems[0].message)
    faction = army["faction"]
    commander = army["commander"]
    deck = cat.deck_for(faction, commander)
    # a position after round 1 (docs/scripting.md) has left the deployment areas behind
    check_dep = scenario.setup.get("check_deployment", True) and scenario.setup.get("round", 1) == 1
    for i, spec in enumerate(army["units"]):
        path = base + ("units", i)
        card_id = spec["card"]
        att = spec.get("attachment")
        uid = spec["id"]
        if uid in state["units"]:
            raise scenario.error(path + ("id",), f"unit id {uid!r} is used twice")
        if "at" not in spec:
            u = new_unit(cat, uid, side, card_id, att, 0.0, 0.0, 90.0)
            u["reserve"] = bool(spec.get("reserve"))
            u["auto_place"] = True
            _unit_position(scenario, path, u, spec)
            state["units"][uid] = u
            state["order"].append(uid)
            if u["commander"]:
                state["commander"][side] = uid
            continue
        u = new_unit(cat, uid, side, card_id, att, spec["at"][0], spec["at"][1],
                     spec.get("facing", placement.facing_for(state, side)))
        u["reserve"] = bool(spec.get("reserve"))
        _unit_position(scenario, path, u, spec)
        if check_dep and not u["reserve"]:
            poly = polygon(u)
            x0, y0, x1, y1 = placement.area(state, side)
            if poly[:, 0].min() < x0 - 1e-6 or poly[:, 0].max() > x1 + 1e-6 or poly[:, 1].min() < y0 - 1e-6 \
                    or poly[:, 1].max() > y1 + 1e-6:
                raise scenario.error(path + ("at",), "the tray must lie wholly inside "
                                     f"{placement.area_text(state, side)}")
        for other in state["units"].values():
            if not u["reserve"] and not other.get("reserve") and not other.get("auto_place") \
                    and space.overlap(polygon(u), polygon(other)):
                raise scenario.error(path + ("at",), f"the tray overlaps {other['id']}")
        for t in state["terrain"]:
            if "impassable" in t["keywords"] and space.overlap(polygon(u), np.array(t["polygon"])):
                raise scenario.error(path + ("at",), f"the tray stands on impassable terrain ({t['name']})")
        state["units"][uid] = u
        state["order"].append(uid)
        if u["commander"]:
            state["commander"][side] = uid
    for j, nid in enumerate(army.get("ncus", [])):
        n = cat.ncus[nid]
        key = f"{side}-N{j + 1}"
        spec = cat.ability_effects(n["abilities"]).get("playing_the_game")
        state["ncus"][key] = {"id": key, "card": nid, "side": side, "name": cat.full_name(nid), "cost": n["cost"],
                              "activated": False, "zone": None, "quadrant": None,
                              "tokens": int(spec["tokens"]) if spec else 0}
    state["decks"][side] = deck
    state["hands"][side] = []
    state["discards"][side] = []


def _check_reserves(scenario: Scenario, state: State) -> None:
    """A Storm of Swords: half the Defender's Combat units, rounded up, start in Reserve (§16.3);
    by teams, half of each defending player's army (each builds its army normally, 13.1)."""
    for side in state["players"]:
        if not sides.defending(state, side):
            continue
        units = [u for u in state["units"].values() if u["side"] == side and not u.get("structure")]
        need = (len(units) + 1) // 2
        have = sum(1 for u in units if u["reserve"])
        if have != need:
            raise scenario.error(("setup", "armies", side, "units"),
                                 f"{side} defends with {len(units)} Combat units: {need} of them (half, rounded up) "
                                 f"must start in Reserve ('reserve: true'), not {have} (A Storm of Swords, 16.3)")


def _siege_walls(state: State, m: dict[str, Any]) -> None:
    """A Storm of Swords: three castle walls before the Defender's edge, activated like units.
    By teams there are still three walls (the mode's set-up is unchanged, 13.1), given to the
    defending players in rotation: each activates its own, as with its units."""
    defenders = sides.members(state, sides.team(state, state["flags"]["defender"]))
    wl, wd = m["wall_size"]
    for i, (x, y) in enumerate(m["walls"]):
        uid = f"wall{i + 1}"
        side = defenders[i % len(defenders)]
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
