"""The players' set-up phase (scenario ``rules: {deployment: players}``): the alternate placement
of terrain (SAGA p.49) and the deployment of the warbands in each scenario's order (SAGA p.51-57).

The scenario file still holds one sample position for every terrain piece and unit: they are
the pieces and units to place and the first placement offered. :func:`begin` takes them off
the table and starts the list of set-up steps; ``place_terrain`` and
``deploy`` (and ``end_deployment`` in scenario 2) carry the steps out (``deploy_suggested``
hands a player's remaining units to the engine's suggestions, in the same order), ``roll_off`` and
``roll_terrain`` roll the dice; :func:`finish` picks
the first player and starts game round 1.

The pieces are the scenario's, or with ``scenery: chosen`` the ones the players chose after their
secret numbers (``scenery.py``; scenarios 3, 5 and X have their own ways there, and pieces placed
without a location roll carry the step's ``limit``, checked by :func:`limit_problem`); scenario 5's
bids come first with ``bids: true`` (``bids.py``).
A piece may be turned as it is placed (``facing``). After the terrain, the set-up roll-off winner
chooses his long edge (``choose_edge``) where the two zones lie along opposite long edges.
Engine decisions (docs/saga.md): no two pieces overlap; the set-up roll-off also settles the edge.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context
from simulator.games.saga import bids, buildings, scenery
from simulator.games.saga import catalogue as cat
from simulator.games.saga.units import EPS, cohesive, finite_number
from simulator.geometry.segments import point_segment_distance, points_in_polygon
from simulator.geometry.table import (circle_gaps, circles_inside_rect, point_polygon_distance, polygon_distance,
                                      rotate_points)

State = dict[str, Any]

# scenarios whose scenery follows "Setting up the scenery" (SAGA p.49) with alternating players
STANDARD_SCENERY = ("warlords_fury", "challenge", "escort", "quickstart")
OPTIONS = 6                  # placements offered in legal_actions per step
GRID = 1.0                   # inches between sampled positions
NEAR = 120                   # grid points searched past the first legal place of a piece placed without a roll

LOCATIONS = {1: "corner", 2: "corner", 3: "inland", 4: "inland", 5: "inland", 6: "centre"}


# -- roll-offs ---------------------------------------------------------------------------------
def roll_off(players: list[str], ctx: Context, why: str) -> list[str]:
    """The players from the highest D6 down; ties re-rolled among the tied players (SAGA p.51)."""
    rolls = {p: ctx.dice.d6(f"roll-off ({why}): {p}") for p in players}
    out: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [p for p in players if rolls[p] == value]
        out += tied if len(tied) == 1 else roll_off(tied, ctx, why)
    return out


def _highest_2d6(players: list[str], ctx: Context) -> str:
    """Scenario X terrain (SAGA p.57): every player rolls 2D6, the highest places the piece
    (ties re-rolled among the tied players)."""
    rolls = {p: ctx.dice.d6(f"terrain piece (2D6): {p}") + ctx.dice.d6(f"terrain piece (2D6): {p}") for p in players}
    best = [p for p in players if rolls[p] == max(rolls.values())]
    return best[0] if len(best) == 1 else _highest_2d6(best, ctx)


# -- building the steps ---------------------------------------------------------------------------
def begin(state: State, ctx: Context, entries: dict[str, Any] | None = None) -> None:
    """Take the sample terrain and units off the table and start the set-up: a roll-off first,
    unless the scenario's roles say who deploys first (SAGA p.55-56); scenario 5's bids first
    with ``bids`` on (``entries``: the warbands' builder entries, bids.py). No die is rolled here:
    every roll is an action (``roll_off``, ``roll_terrain``), so scripts can force them."""
    samples: dict[str, Any] = {}
    for uid, u in state["units"].items():
        pts = [[state["figures"][f]["x"], state["figures"][f]["y"]] for f in u["figures"]]
        centre = np.mean(np.asarray(pts), axis=0)
        samples[uid] = {"at": [round(float(centre[0]), 3), round(float(centre[1]), 3)],
                        "offsets": [[round(x - float(centre[0]), 3), round(y - float(centre[1]), 3)] for x, y in pts],
                        "figures": list(u["figures"]), "r": state["figures"][u["figures"][0]]["r"]}
        for f in u["figures"]:
            del state["figures"][f]
        u["figures"] = []
        u["deployed"] = False
        u["building"] = None
    pieces: dict[str, Any] = {}
    chosen = state["rules"].get("scenery") == "chosen"
    if state["victory"] in STANDARD_SCENERY or state["victory"] == "feast":
        pieces = {} if chosen else {t["id"]: t for t in state["terrain"]}
        state["terrain"] = []
    elif chosen and state["victory"] == "sacred_ground":       # the hill stays, the players add theirs (SAGA p.53)
        state["terrain"] = [t for t in state["terrain"] if t["type"] == "hill"]
    elif chosen and state["victory"] == "homeland":            # the defender places the village (SAGA p.55)
        pieces = {t["id"]: t for t in state["terrain"] if t["type"] in scenery.BUILDINGS}
        state["terrain"] = []
    elif chosen and state["victory"] == "ford":                # the extra crossings of big games (SAGA p.58)
        pieces = {t["id"]: t for t in scenery.players_crossings(state["terrain"])}
        state["terrain"] = scenery.river_around([t for t in state["terrain"] if t["id"] not in pieces],
                                                state["table"]["width"])
    state["set_up"] = {"steps": [], "samples": samples, "pieces": pieces, "finished": [], "order": []}
    state["phase"] = "setup"
    roles = _roles(state)
    if chosen:
        state["set_up"]["scenery"] = {"numbers": {}, "chosen": {p: [] for p in state["players"]}}
    if state["rules"].get("bids"):
        state["set_up"].update(steps=bids.steps(list(state["players"])), bids={}, entries=entries or {})
    elif chosen and state["victory"] != "homeland":     # the numbers or scenario X's count first (SAGA p.49, p.57)
        state["set_up"]["steps"] = scenery.opening_steps(state) + [{"kind": "roll_off", "purpose": "set-up"}]
    elif roles is None:
        state["set_up"]["steps"] = [{"kind": "roll_off", "purpose": "set-up"}]
    else:
        _build(state, roles)
    ctx.emit("setup", "set-up by the players: terrain and deployment", "SAGA p.49")
    advance(state, ctx)


def _build(state: State, order: list[str]) -> None:
    """The terrain and deployment steps once the order of the players is known."""
    su = state["set_up"]
    su["order"] = order
    steps: list[dict[str, Any]] = []
    if state["rules"].get("scenery") == "chosen" and state["victory"] in ("sacred_ground", "homeland", "ford"):
        steps = scenery.role_steps(state, order)        # the players' own pieces (SAGA p.53, p.55, p.58)
    elif not su.get("scenery", {}).get("scheduled"):    # chosen pieces are placed before the roll-off
        for i, tid in enumerate(su["pieces"]):
            placer = None if state["victory"] == "feast" else order[i % 2]
            steps.append({"kind": "terrain", "player": placer, "piece": tid, "roll": None})
    if edge_sides(state) is not None:                   # the roll-off winner chooses his long edge (SAGA p.49)
        steps.append({"kind": "edge", "player": order[0]})
    steps += _deploy_steps(state, order)
    if state["victory"] in ("warlords_fury", "ford"):
        steps.append({"kind": "roll_off", "purpose": "first"})      # who plays first (SAGA p.51-52)
    su["steps"] = steps + su["steps"]


def _roles(state: State) -> list[str] | None:
    """Who deploys first when the scenario's roles decide it (SAGA p.55-56), else None (roll off)."""
    players = list(state["players"])
    kind = state["victory"]
    if kind == "homeland":                      # the defender deploys first (SAGA p.55)
        return [p for p in players if p != state["attacker"]] + [state["attacker"]]
    if kind == "escort":                        # the escort deploys first (SAGA p.56)
        escort = [p for p in players if any(u.get("baggage") for u in state["units"].values() if u["owner"] == p)]
        return escort + [p for p in players if p not in escort]
    return None


def _units_of(state: State, player: str, classes: tuple[str, ...] | None = None) -> list[str]:
    return [uid for uid, u in state["units"].items() if u["owner"] == player
            and (classes is None or u["cls"] in classes)]


def _deploy_steps(state: State, order: list[str]) -> list[dict[str, Any]]:
    """The deployment order of each scenario (a step: one player deploys one unit of the listed
    classes, ``all`` of them or ``one``; ``half``: at least half his figures, then he may stop)."""
    kind = state["victory"]
    p1, rest = order[0], order[1:]
    p2 = rest[0]

    def step(player: str, classes: tuple[str, ...] | None = None, count: str = "all") -> dict[str, Any]:
        return {"kind": "deploy", "player": player, "classes": list(classes) if classes else None, "count": count}

    if kind == "warlords_fury":                 # SAGA p.51
        return [step(p1, ("warlord",)), step(p2, ("warlord",)), step(p2, ("levies",)), step(p1, ("levies",)),
                step(p1, ("warriors",)), step(p2, ("warriors",)), step(p2, ("hearthguard",)),
                step(p1, ("hearthguard",))]
    if kind == "ford":                          # SAGA p.52
        return [step(p1, count="half"), step(p2), step(p1)]
    if kind in ("homeland", "escort", "feast"):     # SAGA p.55-57: each side all its units
        out = [step(p, ("warlord",)) for p in order] if kind == "feast" else []
        return out + [step(p) for p in order]
    out = []
    if kind == "challenge":                     # SAGA p.54: the Warlords first, then a new roll-off
        out = [step(p1, ("warlord",)), step(p2, ("warlord",)), {"kind": "roll_off", "purpose": "alternate"}]
    counts = {p: len(_units_of(state, p)) - (1 if kind == "challenge" else 0) for p in order}
    i = 0
    alternating: list[dict[str, Any]] = []
    while any(counts.values()):            # one unit at a time (SAGA p.53-54); the order is fixed later
        slot = i % 2
        if counts[order[slot]] > 0:
            alternating.append({**step(order[slot], None, "one"), "slot": slot})
            counts[order[slot]] -= 1
        i += 1
    return out + alternating


# -- running the steps ----------------------------------------------------------------------------
def current(state: State) -> dict[str, Any] | None:
    su = state.get("set_up")
    return su["steps"][0] if su and su["steps"] else None


def pending_units(state: State, st: dict[str, Any]) -> list[str]:
    classes = tuple(st["classes"]) if st["classes"] else None
    return [uid for uid in _units_of(state, st["player"], classes) if not state["units"][uid]["deployed"]]


def advance(state: State, ctx: Context) -> None:
    """Drop finished steps and give the turn to the player of the next one."""
    su = state["set_up"]
    while su["steps"]:
        st = su["steps"][0]
        if st["kind"] == "roll_off":
            state["active"] = (su["order"] or state["players"])[0]
            return
        if st["kind"] in ("bid", "muster", "scenery_number", "scenery_count", "choose_terrain", "village", "edge"):
            state["active"] = st["player"]
            return
        if st["kind"] == "terrain":
            if st["piece"] is not None and (st["roll"] is not None or st.get("limit")) \
                    and not terrain_options(state, st, 1):
                ctx.emit("terrain", f"{su['pieces'][st['piece']]['name']} cannot be placed and is discarded",
                         "SAGA p.49", piece=st["piece"])
                su["steps"].pop(0)
                continue
            state["active"] = st["player"] or (su["order"] or state["players"])[0]
            return
        if not pending_units(state, st):
            _step_done(state, st)
            continue
        if st["player"] in su.get("auto", []) and _deploy_as_suggested(state, st, ctx):
            continue
        state["active"] = st["player"]
        return
    finish(state, ctx)


def do_roll_off(state: State, player: str, action: Action, ctx: Context) -> None:
    """The roll-off of the current step: every player rolls a D6 (ties re-rolled)."""
    st = current(state)
    if st is None or st["kind"] != "roll_off" or player != state["active"]:
        raise IllegalAction("no roll-off is due now", "SAGA p.51")
    su = state["set_up"]
    order = roll_off(list(state["players"]), ctx, str(st["purpose"]))
    su["steps"].pop(0)
    if st["purpose"] == "set-up":
        ctx.emit("setup", f"{order[0]} wins the roll-off and sets up first", "SAGA p.49", order=order)
        _build(state, order)
    elif st["purpose"] == "alternate":
        for s in su["steps"]:
            if "slot" in s:
                s["player"] = order[s["slot"]]
        ctx.emit("setup", f"{order[0]} deploys the first unit", "SAGA p.54", order=order)
    else:
        su["first"] = order
        ctx.emit("setup", f"{order[0]} wins the roll-off and plays first", "SAGA p.51", order=order)
    advance(state, ctx)


Handler = Callable[[State, str, Action, Context], Any]


def _then_advance(step: Handler) -> Handler:
    """The handler of a set-up action of bids.py or scenery.py: ``step``, then the set-up moves on."""
    def handler(state: State, player: str, action: Action, ctx: Context) -> None:
        step(state, player, action, ctx)
        advance(state, ctx)
    return handler


def edge_sides(state: State) -> dict[str, str] | None:
    """The long edge ('bottom': y = 0, 'top': y = height) of each of two players whose deployment
    zones lie along opposite long edges; None when the scenario's zones are not like that
    (roles, corners, more players: no edge to choose)."""
    if len(state["players"]) != 2 or state["victory"] in ("homeland", "escort", "feast"):
        return None
    h = state["table"]["height"]
    out: dict[str, str] = {}
    for p in state["players"]:
        ys = [pt[1] for z in state["zones"] if z["side"] == p for pt in z["polygon"]]
        if not ys:
            return None
        out[p] = "bottom" if max(ys) <= h / 2 + EPS else "top" if min(ys) >= h / 2 - EPS else ""
    return out if set(out.values()) == {"bottom", "top"} else None


def choose_edge(state: State, player: str, action: Action, ctx: Context) -> None:
    """The roll-off winner takes the long edge he wants: if it is the other player's, the two
    deployment zones (and scenario 2's far banks) change hands."""
    st = current(state)
    sides = edge_sides(state)
    if st is None or st["kind"] != "edge" or st["player"] != player or sides is None:
        raise IllegalAction("no long edge of yours to choose now", "SAGA p.49")
    edge = action.get("edge")
    if edge not in ("bottom", "top"):
        raise IllegalAction("edge is bottom (y = 0) or top (y = table height)", "SAGA p.49")
    other = next(p for p in state["players"] if p != player)
    if sides[player] != edge:
        for z in state["zones"]:
            z["side"] = player if z["side"] == other else other
        far = state["far_side"]
        if player in far and other in far:
            far[player], far[other] = far[other], far[player]
    state["set_up"]["steps"].pop(0)
    ctx.emit("setup", f"{player} chooses the {edge} long edge", "SAGA p.49", edge=edge)
    advance(state, ctx)


def do_muster(state: State, player: str, action: Action, ctx: Context) -> None:
    """The defender's warband for his bid; then the terrain and deployment steps (SAGA p.55)."""
    bids.muster(state, player, action, ctx)
    roles = _roles(state)
    assert roles is not None
    _build(state, roles)
    advance(state, ctx)


def roll_terrain(state: State, player: str, action: Action, ctx: Context) -> None:
    """The D6 of the current terrain piece (SAGA p.49); in scenario X every player first rolls
    2D6 and the highest places the piece (SAGA p.57)."""
    st = current(state)
    if st is None or st["kind"] != "terrain" or st["roll"] is not None or st.get("limit") \
            or player != state["active"]:
        raise IllegalAction("no terrain piece waits for its roll", "SAGA p.49")
    if st["player"] is None:
        st["player"] = _highest_2d6(list(state["players"]), ctx)
        if st["piece"] is None:                 # chosen scenery: the winner chooses its type first
            state["set_up"]["steps"].insert(0, {"kind": "choose_terrain", "player": st["player"]})
            ctx.emit("terrain", f"{st['player']} rolls highest and chooses the next piece", "SAGA p.57")
            advance(state, ctx)
            return
        ctx.emit("terrain", f"{st['player']} rolls highest and places "
                 f"{state['set_up']['pieces'][st['piece']]['name']}", "SAGA p.57")
    piece = state["set_up"]["pieces"][st["piece"]]
    st["roll"] = ctx.dice.d6(f"terrain location: {st['piece']}")
    ctx.emit("terrain", f"{st['player']} rolls {st['roll']} for {piece['name']}: {_location_text(st['roll'])}",
             "SAGA p.49", roll=st["roll"], piece=st["piece"])
    advance(state, ctx)


def _step_done(state: State, st: dict[str, Any]) -> None:
    su = state["set_up"]
    su["steps"].pop(0)
    p = st["player"]
    if p not in su["finished"] and not _units_left(state, p):
        su["finished"].append(p)


def _units_left(state: State, player: str) -> list[str]:
    return [uid for uid in _units_of(state, player) if not state["units"][uid]["deployed"]]


def finish(state: State, ctx: Context) -> None:
    """Pick who plays first (SAGA p.51-57) and start game round 1."""
    su = state["set_up"]
    kind = state["victory"]
    players = list(state["players"])
    if state["rules"]["simultaneous_orders"]:       # every Orders Phase, then the activation roll (SAGA p.57)
        first, rule = state["seating"][0], "SAGA p.57"
    elif kind in ("sacred_ground", "challenge", "quickstart"):
        first = su["finished"][0]                      # who finished deploying first
        rule = "SAGA p.53"
    elif kind == "homeland":
        first, rule = str(state["attacker"]), "SAGA p.55"
    elif kind == "escort":
        first, rule = su["order"][0], "SAGA p.56"
    else:
        first, rule = su["first"][0], "SAGA p.51"
    order = list(state["order"])
    i = order.index(first)
    state["order"] = order[i:] + order[:i]
    if not state["rules"]["simultaneous_orders"]:
        state["seating"] = list(state["order"])
    state["turn_player"] = state["active"] = first
    state["phase"] = "orders"
    state["set_up"] = None
    ctx.emit("turn", f"the set-up is over: {first} plays first", rule)


# -- terrain ---------------------------------------------------------------------------------------
def _location_text(roll: int) -> str:
    return {"corner": "part of it within L of a table corner", "inland": "no part of it within L of a table edge",
            "centre": "in the centre of the table"}[LOCATIONS[roll]]


def _points(piece: dict[str, Any]) -> np.ndarray:
    return np.asarray(piece.get("polygon", piece.get("line")), dtype=float)


def moved(piece: dict[str, Any], at: tuple[float, float], facing: float = 0.0) -> dict[str, Any]:
    """The piece turned ``facing`` degrees (counter-clockwise, table coordinates) about the mean
    of its points, then translated so that this mean is ``at``."""
    pts = _points(piece)
    centre = pts.mean(axis=0)
    a = math.radians(facing)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    shifted = (pts - centre) @ turn.T + np.asarray(at, dtype=float)
    key = "polygon" if "polygon" in piece else "line"
    return {**piece, key: [[round(float(x), 3), round(float(y), 3)] for x, y in shifted]}


def terrain_problem(state: State, st: dict[str, Any], at: tuple[float, float], facing: float = 0.0) -> str | None:
    """Why the step's piece may not be put at ``at``, turned ``facing`` degrees (None if it may),
    SAGA p.49 and p.54."""
    su = state["set_up"]
    piece = moved(su["pieces"][st["piece"]], at, facing)
    pts = _points(piece)
    w, h = state["table"]["width"], state["table"]["height"]
    big = cat.inches("L")
    if not ((pts >= -EPS).all() and (pts[:, 0] <= w + EPS).all() and (pts[:, 1] <= h + EPS).all()):
        return "the piece must lie on the table"
    centre = np.array([w / 2, h / 2])
    where = st.get("limit") or LOCATIONS[int(st["roll"])]
    if where in LIMITS:
        problem = limit_problem(state, st, piece)
        if problem is not None:
            return problem
    elif where == "corner":
        corners = [(0, 0), (w, 0), (0, h), (w, h)]
        if min(_distance_to(piece, c) for c in corners) > big + EPS:
            return f"a roll of {st['roll']}: part of the piece within L of a table corner"
    elif where == "inland":
        if not ((pts[:, 0] >= big - EPS).all() and (pts[:, 0] <= w - big + EPS).all()
                and (pts[:, 1] >= big - EPS).all() and (pts[:, 1] <= h - big + EPS).all()):
            return f"a roll of {st['roll']}: no part of the piece within L of a table edge"
    elif float(np.hypot(*(pts.mean(axis=0) - centre))) > 0.05:
        return "a roll of 6: the piece goes exactly in the centre of the table"
    if state["victory"] == "challenge" and _distance_to(piece, tuple(centre)) < cat.inches("M") - EPS:
        return "no terrain within M of the table centre in The Challenge"
    for other in state["terrain"]:
        if st.get("limit") == "crossing" and other["type"] == "river":      # a crossing lies on the river
            continue
        if _pieces_overlap(piece, other):
            return f"the piece would overlap {other['name']}"
    return None


#: The placements without a location roll (scenery.py): what the rule asks, and where it is.
LIMITS = {"sacred": "SAGA p.53", "village": "SAGA p.55", "outskirts": "SAGA p.55", "crossing": "SAGA p.58"}


def limit_problem(state: State, st: dict[str, Any], piece: dict[str, Any]) -> str | None:
    """Why ``piece`` (already moved) breaks the rule of the step's ``limit`` (None if it keeps it):
    sacred: wholly between L and 2L from a long edge (SAGA p.53); village: wholly between M and L
    from the defender's long edge, at least L from the short edges, at least M from every other
    building (SAGA p.55); outskirts: at least L from every building (SAGA p.55, the lost distance
    read as L); crossing: across the river, at least L from every other crossing (SAGA p.58). The
    messages end with the rule."""
    pts = _points(piece)
    w, h = state["table"]["width"], state["table"]["height"]
    near, big = cat.inches("M"), cat.inches("L")
    ys = pts[:, 1]
    rule = LIMITS[st["limit"]]
    if st["limit"] == "sacred":
        bands = ((big, 2 * big), (h - 2 * big, h - big))
        if not any((ys >= lo - EPS).all() and (ys <= hi + EPS).all() for lo, hi in bands):
            return f"the piece lies wholly between L and 2L from a long edge ({rule})"
        return None
    if st["limit"] == "crossing":
        band = scenery.river_band(state["terrain"])
        if band is None or abs(ys.min() - band[0]) > EPS or abs(ys.max() - band[1]) > EPS:
            return f"a crossing lies across the river, from bank to bank ({rule})"
        if any(polygon_distance(piece["polygon"], t["polygon"]) < big - EPS
               for t in state["terrain"] if t["type"] == "ford"):
            return f"no crossing within L of another ({rule})"
        return None
    buildings = [t for t in state["terrain"] if t["type"] in scenery.BUILDINGS]
    if st["limit"] == "outskirts":
        if any(polygon_distance(piece["polygon"], b["polygon"]) < big - EPS for b in buildings):
            return f"the attacker's pieces stand at least L from every building ({rule})"
        return None
    from_edge = h - ys if _defender_edge(state) == "top" else ys
    if not ((from_edge >= near - EPS).all() and (from_edge <= big + EPS).all()):
        return f"the buildings lie wholly between M and L from the defender's long edge ({rule})"
    if not ((pts[:, 0] >= big - EPS).all() and (pts[:, 0] <= w - big + EPS).all()):
        return f"the buildings lie at least L from the short edges ({rule})"
    if any(polygon_distance(piece["polygon"], b["polygon"]) < near - EPS for b in buildings):
        return f"no building within M of another ({rule})"
    return None


def _defender_edge(state: State) -> str:
    """The long edge of scenario 5's defender: the one his deployment zone lies along."""
    ys = [pt[1] for z in state["zones"] if z["side"] != state["attacker"] for pt in z["polygon"]]
    return "top" if ys and min(ys) >= state["table"]["height"] / 2 - EPS else "bottom"


def _distance_to(piece: dict[str, Any], point: tuple[float, float]) -> float:
    if "polygon" in piece:
        return point_polygon_distance(point, piece["polygon"])
    line = _points(piece)
    return float(point_segment_distance(list(point), line[:-1], line[1:]).min())


def _pieces_overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if "polygon" in a and "polygon" in b:
        return polygon_distance(a["polygon"], b["polygon"]) <= 0.0
    area = a if "polygon" in a else b
    other = b if area is a else a
    if "polygon" not in area:                     # two linear pieces: their lines may not meet
        pa, pb = _points(a), _points(b)
        return min(float(point_segment_distance(list(p), pb[:-1], pb[1:]).min()) for p in pa) <= EPS
    return bool(points_in_polygon(_points(other), area["polygon"], eps=0.0).any())


def terrain_options(state: State, st: dict[str, Any], limit: int = OPTIONS, facing: float = 0.0) -> list[list[float]]:
    """Legal centres for the step's piece turned ``facing`` degrees: the scenario's sample first
    (scenario 5's attacker: the middle of his zone), then a grid nearest it."""
    su = state["set_up"]
    piece = su["pieces"][st["piece"]]
    sample = _points(piece).mean(axis=0)
    if st.get("limit") == "outskirts":          # the attacker's pieces: from his zone's middle, far from the village
        zones = [z["polygon"] for z in state["zones"] if z["side"] == st["player"]]
        sample = np.asarray(zones[0], dtype=float).mean(axis=0) if zones else sample
    w, h = state["table"]["width"], state["table"]["height"]
    if not st.get("limit") and LOCATIONS[int(st["roll"])] == "centre":
        cands = [np.array([w / 2, h / 2])]
    else:
        grid = np.array([(x, y) for x in np.arange(0.0, w + 1e-9, GRID) for y in np.arange(0.0, h + 1e-9, GRID)])
        grid = grid[np.argsort(np.hypot(*(grid - sample).T), kind="stable")]
        cands = [sample] + list(grid)
    out: list[list[float]] = []
    first = 0
    for i, c in enumerate(cands):
        if out and st.get("limit") and i > first + NEAR:     # narrow bands: the other places near the first only
            break
        at = (round(float(c[0]), 3), round(float(c[1]), 3))
        if terrain_problem(state, st, at, facing) is None:
            first = first if out else i
            out.append(list(at))
            if len(out) >= limit:
                break
    return out


def place_terrain(state: State, player: str, action: Action, ctx: Context) -> None:
    st = placing_step(state, player)
    if st is None:
        raise IllegalAction("no terrain piece of yours to place now (roll_terrain first)", "SAGA p.49")
    if action.get("piece", st["piece"]) != st["piece"]:
        raise IllegalAction(f"the piece to place now is {st['piece']}", "SAGA p.49")
    at = _point(action.get("at"), "at is the piece's centre [x, y] in inches", "SAGA p.49")
    facing = finite_number(action.get("facing", waiting_facing(state, "pieces", st["piece"])), "facing",
                           "the piece's turn in degrees (counter-clockwise)", "SAGA p.49")
    problem = terrain_problem(state, st, at, float(facing))
    if problem is not None:
        if problem.endswith(")"):                   # a rule without a location roll names itself
            raise IllegalAction(problem[:problem.rfind(" (")], problem[problem.rfind("(") + 1:-1])
        raise IllegalAction(problem, "SAGA p.49" if "Challenge" not in problem else "SAGA p.54")
    piece = moved(state["set_up"]["pieces"][st["piece"]], at, float(facing))
    state["terrain"].append(piece)
    if st.get("limit") == "crossing":                 # the river is cut anew around it (SAGA p.58)
        state["terrain"] = scenery.river_around(state["terrain"], state["table"]["width"])
    state["set_up"]["steps"].pop(0)
    ctx.emit("terrain", f"{player} places {piece['name']} at ({at[0]:g}, {at[1]:g})", "SAGA p.49", piece=piece["id"])
    advance(state, ctx)


def _point(value: Any, message: str, rule: str) -> tuple[float, float]:
    """A point [x, y] of finite numbers, else ``IllegalAction`` with ``message`` (which names the
    parameter)."""
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                                and math.isfinite(v) for v in value)):
        raise IllegalAction(message, rule)
    return float(value[0]), float(value[1])


# -- deployment -----------------------------------------------------------------------------------
def _positions(state: State, uid: str, action: Action) -> dict[str, tuple[float, float]]:
    sample = state["set_up"]["samples"][uid]
    if "to" in action:
        to = action["to"]
        if not (isinstance(to, dict) and set(to) == set(sample["figures"])):
            raise IllegalAction("to maps every figure id of the unit to [x, y]", "SAGA p.48")
        return {f: _point(to[f], "to maps every figure id of the unit to [x, y]", "SAGA p.48") for f in to}
    at = _point(action.get("at"), "at is the unit's centre [x, y] in inches (or to = {figure: [x, y]})", "SAGA p.48")
    facing = finite_number(action.get("facing", waiting_facing(state, "units", uid)), "facing",
                           "the formation's turn in degrees (counter-clockwise)", "SAGA p.48")
    offsets = turned_offsets(state, uid, float(facing))
    return {f: (at[0] + float(dx), at[1] + float(dy)) for f, (dx, dy) in zip(sample["figures"], offsets)}


def turned_offsets(state: State, uid: str, facing: float) -> list[tuple[float, float]]:
    """The offsets of the unit's figures from its centre, its sample formation turned ``facing``
    degrees counter-clockwise."""
    offsets = state["set_up"]["samples"][uid]["offsets"]
    turned = rotate_points(offsets, (0.0, 0.0), facing) if facing else offsets
    return [(float(dx), float(dy)) for dx, dy in turned]


# -- turning what waits to be placed ------------------------------------------------------------
#: What ``turn_waiting`` turns: the action's key, and where the facing is kept in ``state.set_up.facings``.
WAITING = {"unit": "units", "piece": "pieces"}


def waiting_facing(state: State, kind: str, key: str) -> float:
    """The facing (degrees counter-clockwise) a waiting unit (``kind`` "units") or terrain piece
    ("pieces") was turned to with ``turn_waiting``; 0 if it was not turned."""
    return float(state["set_up"].get("facings", {}).get(kind, {}).get(key, 0.0))


def placing_step(state: State, player: str) -> dict[str, Any] | None:
    """The current step if it is ``player``'s placement of a terrain piece (after its location roll,
    or without one where the rule gives none), else None."""
    st = current(state)
    if st is None or st["kind"] != "terrain" or st["player"] != player or st["piece"] is None \
            or (st["roll"] is None and not st.get("limit")):
        return None
    return st


def turn_waiting(state: State, player: str, action: Action, ctx: Context) -> None:
    """Turn a unit waiting to deploy (``unit``) or the terrain piece waiting to be placed (``piece``)
    to ``facing`` degrees (counter-clockwise) before it is put down: nothing is placed, but the
    unit is shown so turned and its ``deploy`` (and the piece's ``place_terrain``) without a
    ``facing`` keeps this one (the client's turn gesture on a waiting unit or piece)."""
    st = current(state)
    facing = finite_number(action.get("facing"), "facing", "the turn in degrees (counter-clockwise)", "SAGA p.48")
    if "unit" in action:
        if st is None or st["kind"] != "deploy" or st["player"] != player \
                or action["unit"] not in pending_units(state, st):
            raise IllegalAction("only a unit of yours waiting to deploy in this step can be turned", "SAGA p.48")
        kind, key, rule = "units", str(action["unit"]), "SAGA p.48"
        name, pieces = state["units"][key]["name"], list(state["set_up"]["samples"][key]["figures"])
    elif "piece" in action:
        st = placing_step(state, player)
        if st is None or action["piece"] != st["piece"]:
            raise IllegalAction("only the terrain piece you are placing now can be turned", "SAGA p.49")
        kind, key, rule = "pieces", str(action["piece"]), "SAGA p.49"
        name, pieces = state["set_up"]["pieces"][key]["name"], [key]
    else:
        raise IllegalAction("turn_waiting names a unit or a piece", "SAGA p.48")
    turn = round(float(facing) % 360, 3)
    state["set_up"].setdefault("facings", {}).setdefault(kind, {})[key] = turn
    ctx.emit("turn", f"{player} turns {name} to {turn:g} degrees before placing it", rule, pieces=pieces,
             facing=turn)


def deploy_problem(state: State, uid: str, pos: dict[str, tuple[float, float]]) -> str | None:
    """Why the unit may not stand at ``pos`` (None if it may): table, bases, formation, zone,
    terrain, and each scenario's own limits (SAGA p.51-57)."""
    unit = state["units"][uid]
    r = state["set_up"]["samples"][uid]["r"]
    circles = np.array([[x, y, r] for x, y in pos.values()])
    w, h = state["table"]["width"], state["table"]["height"]
    if not circles_inside_rect(circles, w, h).all():
        return "every base must be on the table"
    if len(circles) > 1 and not cohesive(circles):
        return "the unit must be in formation (every figure within VS of another)"
    others = np.array([[f["x"], f["y"], f["r"]] for f in state["figures"].values()])
    if len(others) and float(circle_gaps(circles, others).min()) < -EPS:
        return "the bases would overlap other figures"
    zones = [z["polygon"] for z in state["zones"] if z["side"] == unit["owner"]]
    if zones:
        ok = np.zeros(len(circles), dtype=bool)
        for z in zones:
            ok |= points_in_polygon(circles[:, :2], z, eps=0.0)
        if not ok.all():
            return "every figure must stand in its deployment zone"
    for t in state["terrain"]:
        if "polygon" not in t:
            continue
        inside = points_in_polygon(circles[:, :2], t["polygon"], eps=0.0)
        if inside.any() and (t["movement"] == "impassable" or unit.get("baggage") and t["movement"] != "open"):
            return f"{unit['name']} may not stand in {t['name']}"
        if t["type"] in ("building", "large_building") and inside.any() and not inside.all():
            return f"a unit is wholly inside {t['name']} or out of it"
        if t.get("capacity") and inside.all():
            problem = buildings.occupancy_problem(state, unit, t, len(circles))
            if problem is not None:
                return f"{problem[0]} ({problem[1]})"
    return _scenario_problem(state, unit, circles)


def _scenario_problem(state: State, unit: dict[str, Any], circles: np.ndarray) -> str | None:
    kind = state["victory"]
    foes = [u for u in state["units"].values() if u["owner"] != unit["owner"] and u["figures"]]
    if kind == "homeland" and unit["owner"] == state["attacker"]:
        big = cat.inches("L")
        for t in state["terrain"]:
            if t["type"] in ("building", "large_building") and \
                    min(point_polygon_distance(c[:2], t["polygon"]) - c[2] for c in circles) < big - EPS:
                return f"the attacker deploys farther than L from {t['name']} (SAGA p.55)"
        foe_bases = np.array([[state["figures"][f][k] for k in ("x", "y", "r")] for u in foes for f in u["figures"]])
        if len(foe_bases) and float(circle_gaps(circles, foe_bases).min()) < big - EPS:
            return "the attacker deploys farther than L from every enemy unit (SAGA p.55)"
    if kind == "challenge" and unit["cls"] == "warlord":
        w, h = state["table"]["width"], state["table"]["height"]
        rival = [u for u in foes if u["cls"] == "warlord"]
        if not rival and float(np.hypot(circles[0, 0] - w / 2, circles[0, 1] - h / 2)) > 0.05:
            return "the first Warlord stands in the centre of the table (SAGA p.54)"
        if rival:
            f = state["figures"][rival[0]["figures"][0]]
            if float(circle_gaps(circles, np.array([[f["x"], f["y"], f["r"]]])).min()) > cat.inches("S") + EPS:
                return "the second Warlord stands within S of the rival Warlord (SAGA p.54)"
    if kind == "feast":
        spot = feast_spot(state, unit["owner"], float(circles[0, 2]))
        own = [u for u in state["units"].values() if u["owner"] == unit["owner"] and u["cls"] == "warlord"]
        if unit["cls"] == "warlord":
            if spot is not None and float(np.hypot(*(circles[0, :2] - spot))) > 0.05:
                return f"the Warlord stands exactly M from his corner, toward the centre, at {spot.tolist()} (SAGA p.57)"
        elif own and own[0]["figures"]:
            f = state["figures"][own[0]["figures"][0]]
            if float(circle_gaps(circles, np.array([[f["x"], f["y"], f["r"]]])).min()) > cat.inches("M") + EPS:
                return "at least one figure within M of the Warlord (SAGA p.57)"
    return None


def feast_spot(state: State, player: str, r: float) -> np.ndarray | None:
    """Scenario X (SAGA p.57): the Warlord's centre, his base exactly M from the corner of his
    zone, on the line to the table centre."""
    w, h = state["table"]["width"], state["table"]["height"]
    zones = [z["polygon"] for z in state["zones"] if z["side"] == player]
    if not zones:
        return None
    corners = [np.array(c, dtype=float) for c in ((0, 0), (w, 0), (0, h), (w, h))]
    corner = min(corners, key=lambda c: point_polygon_distance(c, zones[0]))
    d = np.array([w / 2, h / 2]) - corner
    d /= float(np.hypot(*d))
    return np.round(corner + d * (cat.inches("M") + r), 3)


def _search_centre(state: State, player: str, sample: np.ndarray) -> np.ndarray:
    """Where to look for a unit's places: its sample position, or the middle of the player's first
    zone when the sample lies outside his zones (the zones changed hands, bids.py)."""
    zones = [z["polygon"] for z in state["zones"] if z["side"] == player]
    if not zones or any(points_in_polygon(sample[None, :], z, eps=0.0)[0] for z in zones):
        return sample
    return np.asarray(zones[0], dtype=float).mean(axis=0)


def deploy_options(state: State, st: dict[str, Any], limit: int = OPTIONS,
                   units: list[str] | None = None) -> list[Action]:
    """Legal ``deploy`` actions of the step: ``limit`` places for its first pending unit (the
    suggested one first: its sample position, else the nearest legal grid points), one for each
    other pending unit (or for ``units`` only); each formation turned as ``turn_waiting`` left it."""
    out: list[Action] = []
    for uid in units if units is not None else pending_units(state, st):
        sample = state["set_up"]["samples"][uid]
        facing = waiting_facing(state, "units", uid)
        base = _search_centre(state, st["player"], np.asarray(sample["at"], dtype=float))
        cands: list[np.ndarray] = [base]
        if state["victory"] == "feast" and state["units"][uid]["cls"] == "warlord":
            spot = feast_spot(state, st["player"], sample["r"])
            cands = [spot] if spot is not None else cands
        elif state["victory"] == "challenge" and state["units"][uid]["cls"] == "warlord":
            w, h = state["table"]["width"], state["table"]["height"]
            rival = [u for u in state["units"].values() if u["owner"] != st["player"] and u["figures"]]
            if not rival:
                cands = [np.array([w / 2, h / 2])]
            else:
                f = state["figures"][rival[0]["figures"][0]]
                cands = [np.array([f["x"], f["y"]]) + (f["r"] + sample["r"] + 1.0) * np.array(
                    [math.cos(a), math.sin(a)]) for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)]
        else:
            w, h = state["table"]["width"], state["table"]["height"]
            grid = np.array([(x, y) for x in np.arange(0.5, w, GRID) for y in np.arange(0.5, h, GRID)])
            cands += list(grid[np.argsort(np.hypot(*(grid - base).T), kind="stable")][:400])
        wanted = limit if not out else 1        # several places for the first unit, one for the others
        found = 0
        for c in cands:
            at = [round(float(c[0]), 3), round(float(c[1]), 3)]
            action: Action = {"type": "deploy", "unit": uid, "at": at, **({"facing": facing} if facing else {})}
            if deploy_problem(state, uid, _positions(state, uid, action)) is None:
                out.append(action)
                found += 1
                if found >= wanted:
                    break
    return out


def deploy(state: State, player: str, action: Action, ctx: Context) -> None:
    st = current(state)
    if st is None or st["kind"] != "deploy" or st["player"] != player:
        raise IllegalAction("no unit of yours to deploy now", "SAGA p.48")
    uid = action.get("unit")
    pending = pending_units(state, st)
    if uid not in pending:
        which = " or ".join(st["classes"]) if st["classes"] else "any class"
        raise IllegalAction(f"deploy one of your units not yet on the table ({which}): {', '.join(pending)}",
                            "SAGA p.51" if st["classes"] else "SAGA p.48")
    pos = _positions(state, str(uid), action)
    problem = deploy_problem(state, str(uid), pos)
    if problem is not None:
        if problem.endswith(")") and problem[problem.rfind("(") + 1:].startswith("SAGA"):   # its own rule
            raise IllegalAction(problem[:problem.rfind(" (")], problem[problem.rfind("(") + 1:-1])
        raise IllegalAction(problem, "SAGA p.48")
    _put(state, st, str(uid), pos, ctx)
    advance(state, ctx)


def _put(state: State, st: dict[str, Any], uid: str, pos: dict[str, tuple[float, float]], ctx: Context) -> None:
    """Put the unit's figures on the table at ``pos`` (already checked) and close the step when
    it is done."""
    player = st["player"]
    unit = state["units"][uid]
    r = state["set_up"]["samples"][uid]["r"]
    for f, (x, y) in pos.items():
        state["figures"][f] = {"id": f, "unit": unit["id"], "x": round(x, 3), "y": round(y, 3), "r": r}
    unit["figures"] = list(state["set_up"]["samples"][uid]["figures"])
    unit["deployed"] = True
    from simulator.games.saga.movement import in_building
    places = {(b["id"] if b else None) for b in (in_building(state, x, y) for x, y in pos.values())}
    unit["building"] = places.pop() if len(places) == 1 else None
    ctx.emit("deploy", f"{player} deploys {unit['name']}", "SAGA p.48", pieces=list(unit["figures"]), unit=unit["id"])
    if st["count"] == "one":
        _step_done(state, st)
    elif not pending_units(state, st):
        _step_done(state, st)


def suggestion(state: State, st: dict[str, Any], uid: str) -> Action | None:
    """The engine's place for a unit of the step (the first of :func:`deploy_options`), None if
    no legal place is found near its sample position."""
    found = deploy_options(state, st, 1, [uid])
    return found[0] if found else None


def deploy_suggested(state: State, player: str, action: Action, ctx: Context) -> None:
    """The player hands the rest of his deployment to the engine: from now on each of his units
    still off the table is put at the engine's suggestion when its turn comes (the scenario's
    deployment order is kept, SAGA p.51-57)."""
    st = current(state)
    if st is None or st["kind"] != "deploy" or st["player"] != player:
        raise IllegalAction("no unit of yours to deploy now", "SAGA p.48")
    state["set_up"].setdefault("auto", []).append(player)
    ctx.emit("deploy", f"{player} lets the engine place the rest of his units as suggested", "SAGA p.48")
    advance(state, ctx)


def _deploy_as_suggested(state: State, st: dict[str, Any], ctx: Context) -> bool:
    """Put the step's next unit at its suggestion (the player chose ``deploy_suggested``); False
    (and the player places it by hand) when no legal place is found."""
    uid = pending_units(state, st)[0]
    action = suggestion(state, st, uid)
    if action is None:
        state["set_up"]["auto"].remove(st["player"])
        ctx.emit("deploy", f"no place found for {state['units'][uid]['name']}: {st['player']} places it",
                 "SAGA p.48", unit=uid)
        return False
    _put(state, st, uid, _positions(state, uid, action), ctx)
    return True


def half_deployed(state: State, player: str) -> bool:
    units = [state["units"][u] for u in _units_of(state, player)]
    down = sum(len(state["set_up"]["samples"][u["id"]]["figures"]) for u in units if u["deployed"])
    total = sum(len(state["set_up"]["samples"][u["id"]]["figures"]) for u in units)
    return 2 * down >= total


def end_deployment(state: State, player: str, action: Action, ctx: Context) -> None:
    st = current(state)
    if st is None or st["kind"] != "deploy" or st["player"] != player or st["count"] != "half":
        raise IllegalAction("only the first player of Battle at the Ford stops part-way", "SAGA p.52")
    if not half_deployed(state, player):
        raise IllegalAction("deploy at least half your figures first", "SAGA p.52")
    state["set_up"]["steps"].pop(0)
    ctx.emit("deploy", f"{player} keeps the rest of his warband back", "SAGA p.52")
    advance(state, ctx)


def legal(state: State) -> list[Action]:
    st = current(state)
    if st is None:
        return []
    if st["kind"] == "roll_off":
        return [{"type": "roll_off"}]
    if st["kind"] in ("scenery_number", "scenery_count", "choose_terrain", "village"):
        return scenery.legal(state, st)
    if st["kind"] == "edge":
        mine = (edge_sides(state) or {}).get(st["player"], "bottom")
        return [{"type": "choose_edge", "edge": e} for e in (mine, "top" if mine == "bottom" else "bottom")]
    if st["kind"] == "bid":
        return [{"type": "bid", "points": n} for n in range(bids.LOWEST, bids.HIGHEST + 1)]
    if st["kind"] == "muster":
        return bids.muster_options(state, st)
    if st["kind"] == "terrain":
        if st["roll"] is None and not st.get("limit"):
            return [{"type": "roll_terrain"}]
        turned = waiting_facing(state, "pieces", st["piece"])         # as turn_waiting left it, else unturned
        out: list[Action] = []
        for facing in dict.fromkeys((turned, 0.0)):                    # fitting nowhere so: unturned
            shown = {"facing": facing} if facing or turned else {}
            out = [{"type": "place_terrain", "piece": st["piece"], "at": at, **shown}
                   for at in terrain_options(state, st, facing=facing)]
            if out:
                break
        if out and "facing" not in out[0] and not turned and \
                terrain_problem(state, st, tuple(out[0]["at"]), 90.0) is None:     # a quarter turn
            out.insert(1, {**out[0], "facing": 90})
        return out + ([{"type": "skip_terrain"}] if st.get("optional") else [])
    out = deploy_options(state, st)
    if st["count"] == "half" and half_deployed(state, st["player"]):
        out.append({"type": "end_deployment"})
    return out + [{"type": "deploy_suggested"}]


#: The set-up's action types and their handlers (``Saga.apply`` dispatches them here).
ACTIONS = {"bid": _then_advance(bids.bid), "muster": do_muster, "scenery_number": _then_advance(scenery.number),
           "choose_terrain": _then_advance(scenery.choose), "choose_village": _then_advance(scenery.choose_village),
           "roll_scenery": _then_advance(scenery.roll_count),
           "skip_terrain": _then_advance(scenery.skip),
           "choose_edge": choose_edge, "roll_off": do_roll_off,
           "roll_terrain": roll_terrain, "place_terrain": place_terrain, "deploy": deploy,
           "deploy_suggested": deploy_suggested, "end_deployment": end_deployment, "turn_waiting": turn_waiting}
