"""Choosing the scenery (SAGA p.49, rule switch ``scenery: chosen`` with ``deployment: players``).

1. Every player secretly writes a number from 1 to 5 (``scenery_number``; ``hide`` keeps the
   others' numbers from him until all are written).
2. The pieces are half the sum, rounded up, shared equally; the odd piece goes to the higher
   number (equal numbers: a roll-off, engine decision: the book leaves it open).
3. Starting with the player who has more pieces (equal shares: a roll-off), the players choose
   pieces in turn (``choose_terrain``) from the p.49 list, never more of a type than its maximum
   for both players together (``max_count`` in ``data/terrain.yaml``; the outline is the type's
   ``piece``).
4. Starting again with that player, the players place their own pieces in turn, each after its
   location roll (``placement.py``'s terrain steps). Engine decision: the same roll-off settles
   both ties of steps 3 and 4.

The same switch gives the other scenarios' own ways of setting up the scenery:

* Scenario X (SAGA p.57, 3-4 players): ``roll_scenery`` rolls D3+3, the number of pieces; for
  each piece every player rolls 2D6 (``roll_terrain``), the highest (ties re-rolled) chooses its
  type (``choose_terrain``) and rolls and places it as above.
* Scenario 3 (SAGA p.53): the scenario's hill stays; in the set-up order each player chooses one
  piece that is not a building and places it wholly between L and 2L from a long edge.
* Scenario 5 (SAGA p.55): the defender says which of the scenario's buildings is large, or that none
  is (``choose_village``; a building changing kind takes that kind's outline), then places them
  between M and L from his long edge, at least L from the short edges, none within M
  of another; then the attacker may choose and place up to two pieces that are not buildings, at
  least L from every building (the lost distance read as L), or stop (``skip_terrain``).

* Scenario 2 in Clash of Steel games (SAGA p.58, 10 and 12 points): the crossings the file lists
  after the book's first two are taken off; after the set-up roll-off the players place them in
  turn, winner first, anywhere in the river (spanning it), none within L of another crossing; the
  river's pieces are then cut anew around the crossings (``river_around``).

These placements have no location roll: the step's ``limit`` names the rule
(``placement.limit_problem``). Every die is rolled inside an action, so scripts can force them.
The chosen pieces wait in ``state.set_up.pieces`` like a scenario's pieces;
``state.set_up.scenery`` keeps the numbers, the shares, the first player and what each player chose.
"""

from __future__ import annotations

import math
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context
from simulator.games.saga import catalogue as cat
from simulator.games.saga.setup import terrain_piece, written_number

State = dict[str, Any]

LOWEST, HIGHEST = 1, 5
HIDDEN = "hidden"
BUILDINGS = ("building", "large_building")
#: Scenarios whose scenery the switch ``scenery: chosen`` sets up, and how many players each takes.
KINDS = {"warlords_fury": (2,), "challenge": (2,), "escort": (2,), "quickstart": (2,), "sacred_ground": (2,),
         "homeland": (2,), "feast": (3, 4), "ford": (2,)}
BOOK_CROSSINGS = 2          # scenario 2's two crossings L from the river's centre (SAGA p.52)


def standard_types() -> dict[str, Any]:
    """The terrain types of the p.49 list (those with a chosen-piece outline)."""
    return {k: v for k, v in cat.terrain_types().items() if "piece" in v}


def steps(players: list[str]) -> list[dict[str, Any]]:
    return [{"kind": "scenery_number", "player": p} for p in players]


def scenery_problem(state: State) -> str | None:
    """Why ``scenery: chosen`` does not fit the scenario (None if it does)."""
    kind, players = state["victory"], len(state["players"])
    if state["rules"]["deployment"] != "players" or players not in KINDS.get(kind, ()):
        return ("chosen scenery is for scenarios 1 to 6 and quick-start with two players, or X with three "
                "or four, and needs deployment: players")
    if kind == "homeland":
        village = [t for t in state["terrain"] if t["type"] in BUILDINGS]
        if not village or sum(t["type"] == "large_building" for t in village) > 1:
            return ("scenario 5's village is one or more buildings of the scenario, one of them large at most "
                    "(SAGA p.55)")
    if kind == "ford" and river_band(state["terrain"]) is None:
        return ("the players place scenario 2's extra crossings on a straight river: river and crossing pieces "
                "are rectangles spanning the same band across the table (SAGA p.52, p.58)")
    return None


def _box(piece: dict[str, Any]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in piece["polygon"]]
    ys = [p[1] for p in piece["polygon"]]
    return min(xs), min(ys), max(xs), max(ys)


def river_band(terrain: list[dict[str, Any]]) -> tuple[float, float] | None:
    """The y band (low, high) of a straight river crossing the table: every river and crossing piece
    an axis-aligned rectangle over that band; None if the river is not like that."""
    parts = [t for t in terrain if t["type"] in ("river", "ford")]
    if not parts or any("polygon" not in t or len(t["polygon"]) != 4 for t in parts):
        return None
    boxes = [_box(t) for t in parts]
    band = (boxes[0][1], boxes[0][3])
    for t, (x0, y0, x1, y1) in zip(parts, boxes):
        corners = {(x, y) for x in (x0, x1) for y in (y0, y1)}
        if (y0, y1) != band or {(p[0], p[1]) for p in t["polygon"]} != corners:
            return None
    return band


def players_crossings(terrain: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The crossings the players place (SAGA p.58): those the file lists after the book's two."""
    return [t for t in terrain if t["type"] == "ford"][BOOK_CROSSINGS:]


def river_around(terrain: list[dict[str, Any]], width: float) -> list[dict[str, Any]]:
    """The terrain with the river's pieces cut anew: the straight river band from edge to edge,
    less the crossings on it, each piece named by its span (``river-12-24``)."""
    band = river_band(terrain)
    assert band is not None
    spans = sorted((_box(t)[0], _box(t)[2]) for t in terrain if t["type"] == "ford")
    rivers: list[dict[str, Any]] = []
    x = 0.0
    for a, b in spans + [(width, width)]:
        if a > x:
            rivers.append(terrain_piece(f"river-{x:g}-{a:g}", "river",
                                       [[x, band[0]], [a, band[0]], [a, band[1]], [x, band[1]]]))
        x = max(x, b)
    return [t for t in terrain if t["type"] != "river"] + rivers


def opening_steps(state: State) -> list[dict[str, Any]]:
    """The steps before the set-up roll-off: the secret numbers (SAGA p.49) or scenario X's count
    of pieces (SAGA p.57); none in scenarios 3 and 5 (their pieces follow the roles, ``role_steps``)."""
    if state["victory"] == "feast":
        return [{"kind": "scenery_count", "player": state["players"][0]}]
    if state["victory"] in ("sacred_ground", "homeland", "ford"):
        return []
    return steps(list(state["players"]))


def open_ground(types: list[str] | None = None) -> list[str]:
    """The p.49 types that are not buildings."""
    return [k for k in (types or list(standard_types())) if k not in BUILDINGS]


def role_steps(state: State, order: list[str]) -> list[dict[str, Any]]:
    """Scenario 2, 3 and 5's terrain steps once the order of the players is known (``order[0]``: the
    set-up roll-off winner, or scenario 5's defender)."""
    def piece(player: str, pid: str | None, limit: str, optional: bool = False) -> dict[str, Any]:
        return {"kind": "terrain", "player": player, "piece": pid, "roll": None, "limit": limit, "optional": optional}

    def choice(player: str, optional: bool = False) -> dict[str, Any]:
        return {"kind": "choose_terrain", "player": player, "types": open_ground(), "optional": optional}

    if state["victory"] == "sacred_ground":                 # SAGA p.53: one piece each
        return [s for p in order for s in (choice(p), piece(p, None, "sacred"))]
    if state["victory"] == "ford":                          # SAGA p.58: the extra crossings in turn
        return [piece(order[i % 2], pid, "crossing") for i, pid in enumerate(state["set_up"]["pieces"])]
    defender, attacker = order[0], order[1]                 # SAGA p.55: the village, then up to two pieces
    village = [piece(defender, pid, "village") for pid in state["set_up"]["pieces"]]
    out = [{"kind": "village", "player": defender}] + village
    return out + [s for _ in range(2) for s in (choice(attacker, True), piece(attacker, None, "outskirts", True))]


def large_of(state: State) -> str | None:
    """The id of the village's large building (scenario 5), None if every building is plain."""
    return next((k for k, t in state["set_up"]["pieces"].items() if t["type"] == "large_building"), None)


def choose_village(state: State, player: str, action: Action, ctx: Context) -> None:
    """Scenario 5's defender says which of his buildings is the large one (``large``: a building's
    id), or that none is (``large: null``), before he places them (SAGA p.55: one may be large).
    A building that changes kind takes that kind's outline (``piece`` in ``data/terrain.yaml``)
    about its centre; the others keep the scenario's."""
    su = state["set_up"]
    st = su["steps"][0] if su["steps"] else None
    if st is None or st["kind"] != "village" or st["player"] != player:
        raise IllegalAction("no village of yours to choose now", "SAGA p.55")
    if "large" not in action or action["large"] is not None and action["large"] not in su["pieces"]:
        raise IllegalAction(f"large names the building that is large ({', '.join(su['pieces'])}) or is null",
                            "SAGA p.55")
    large = action["large"]
    types = standard_types()
    for pid, t in list(su["pieces"].items()):
        kind = "large_building" if pid == large else "building"
        if t["type"] != kind:
            pts = t["polygon"]
            cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
            su["pieces"][pid] = terrain_piece(pid, kind, [[cx + x, cy + y] for x, y in types[kind]["piece"]],
                                              t["name"], bool(t.get("objective")))
    su["steps"].pop(0)
    which = f"{su['pieces'][large]['name']} is the large building" if large else "no building is large"
    ctx.emit("terrain", f"{player} chooses his village: {which}", "SAGA p.55", pieces=list(su["pieces"]), large=large)


def roll_count(state: State, player: str, action: Action, ctx: Context) -> None:
    """Scenario X (SAGA p.57): D3+3 pieces, each to be claimed by the highest 2D6."""
    su = state["set_up"]
    st = su["steps"][0] if su["steps"] else None
    if st is None or st["kind"] != "scenery_count" or st["player"] != player:
        raise IllegalAction("no count of terrain pieces to roll now", "SAGA p.57")
    n = ctx.dice.d3("scenario X: terrain pieces (D3+3)") + 3
    su["steps"][0:1] = [{"kind": "terrain", "player": None, "piece": None, "roll": None} for _ in range(n)]
    su["scenery"]["scheduled"] = True
    ctx.emit("terrain", f"{player} rolls for the scenery: {n} terrain pieces", "SAGA p.57", count=n)


def skip(state: State, player: str, action: Action, ctx: Context) -> None:
    """The player places no more of the pieces he may add (scenario 5's attacker, SAGA p.55)."""
    su = state["set_up"]
    st = su["steps"][0] if su["steps"] else None
    if st is None or st["player"] != player or not st.get("optional"):
        raise IllegalAction("no piece of yours may be left out now", "SAGA p.55")
    su["steps"] = [s for s in su["steps"] if not (s.get("optional") and s["player"] == player)]
    ctx.emit("terrain", f"{player} places no more terrain", "SAGA p.55")


def number(state: State, player: str, action: Action, ctx: Context) -> None:
    """Record ``player``'s secret number; after the last one, share the pieces out and start
    the choosing."""
    su = state["set_up"]
    su["scenery"]["numbers"][player] = written_number(state, player, action, "scenery_number", "number", LOWEST,
                                                      HIGHEST, "no terrain number of yours is due now", "SAGA p.49")
    ctx.emit("terrain", f"{player} writes down a secret number", "SAGA p.49")
    if any(s["kind"] == "scenery_number" for s in su["steps"]):
        return
    _share(state, ctx)


def _share(state: State, ctx: Context) -> None:
    from simulator.games.saga.placement import roll_off
    su = state["set_up"]
    sc = su["scenery"]
    nums = sc["numbers"]
    a, b = list(state["players"])
    total = math.ceil((nums[a] + nums[b]) / 2)
    shares = {a: total // 2, b: total // 2}
    tie_order: list[str] | None = None
    if total % 2:
        if nums[a] == nums[b]:
            tie_order = roll_off([a, b], ctx, "the odd terrain piece")
            extra = tie_order[0]
        else:
            extra = a if nums[a] > nums[b] else b
        shares[extra] += 1
    if shares[a] != shares[b]:
        first = a if shares[a] > shares[b] else b
    else:
        first = (tie_order or roll_off([a, b], ctx, "who chooses the first piece"))[0]
    sc.update(shares=shares, first=first, chosen={a: [], b: []})
    ctx.emit("terrain", f"numbers {a} {nums[a]}, {b} {nums[b]}: {total} terrain piece(s), {a} {shares[a]}, "
             f"{b} {shares[b]}; {first} chooses and places first", "SAGA p.49",
             numbers=dict(nums), shares=dict(shares), first=first)
    su["steps"][0:0] = [{"kind": "choose_terrain", "player": p} for p in _alternate(first, shares)]


def _alternate(first: str, counts: dict[str, int]) -> list[str]:
    """The players in turn, ``first`` first, each as many times as ``counts`` says."""
    left = dict(counts)
    order = [first] + [p for p in left if p != first]
    out: list[str] = []
    while any(left.values()):
        for p in order:
            if left[p] > 0:
                out.append(p)
                left[p] -= 1
    return out


def available(state: State, types: list[str] | None = None) -> list[str]:
    """The types still to be had (of ``types``, default the whole p.49 list): fewer chosen than
    their maximum for both players."""
    chosen = [t["type"] for t in state["set_up"]["pieces"].values()]
    return [k for k, v in standard_types().items()
            if chosen.count(k) < v["max_count"] and (types is None or k in types)]


def choose(state: State, player: str, action: Action, ctx: Context) -> None:
    """``player`` takes one piece of the type named; after the last choice the placing starts."""
    su = state["set_up"]
    st = su["steps"][0] if su["steps"] else None
    if st is None or st["kind"] != "choose_terrain" or st["player"] != player:
        raise IllegalAction("no terrain piece of yours to choose now", "SAGA p.49")
    kind = action.get("terrain")
    types = standard_types()
    allowed = st.get("types") or list(types)
    if kind not in allowed:
        rule = "SAGA p.49" if len(allowed) == len(types) else "SAGA p.55" if st.get("optional") else "SAGA p.53"
        raise IllegalAction(f"terrain is a type of the p.49 list{'' if rule == 'SAGA p.49' else ', not a building'}: "
                            f"{', '.join(allowed)}", rule)
    if kind not in available(state, allowed):
        raise IllegalAction(f"at most {types[kind]['max_count']} {types[kind]['name']} piece(s) for both players "
                            "together", "SAGA p.49")
    n = 1 + sum(1 for t in su["pieces"].values() if t["type"] == kind)
    pid = f"{kind}-{n}"
    w, h = state["table"]["width"], state["table"]["height"]
    pts = [[w / 2 + x, h / 2 + y] for x, y in types[kind]["piece"]]
    su["pieces"][pid] = terrain_piece(pid, str(kind), pts, f"{types[kind]['name']} {n}")
    if state["victory"] == "sacred_ground":                 # the players' pieces are sacred too (SAGA p.53)
        su["pieces"][pid]["objective"] = True
    sc = su["scenery"]
    sc["chosen"][player].append(pid)
    su["steps"].pop(0)
    ctx.emit("terrain", f"{player} chooses {types[kind]['name']} ({pid})", "SAGA p.49", piece=pid)
    waiting = next((s for s in su["steps"] if s["kind"] == "terrain" and s["piece"] is None), None)
    if waiting is not None:                                 # scenarios 3, 5 and X: this piece is placed next
        waiting["player"] = player
        waiting["piece"] = pid
        return
    if any(s["kind"] == "choose_terrain" for s in su["steps"]):
        return
    placers = _alternate(sc["first"], {p: len(v) for p, v in sc["chosen"].items()})
    queue = {p: list(v) for p, v in sc["chosen"].items()}
    su["steps"][0:0] = [{"kind": "terrain", "player": p, "piece": queue[p].pop(0), "roll": None} for p in placers]
    sc["scheduled"] = True


def legal(state: State, st: dict[str, Any]) -> list[Action]:
    if st["kind"] == "scenery_number":
        return [{"type": "scenery_number", "number": n} for n in range(LOWEST, HIGHEST + 1)]
    if st["kind"] == "scenery_count":
        return [{"type": "roll_scenery"}]
    if st["kind"] == "village":                 # the scenario's choice first
        first = large_of(state)
        options = [first] + [k for k in [None, *state["set_up"]["pieces"]] if k != first]
        return [{"type": "choose_village", "large": k} for k in options]
    out: list[Action] = [{"type": "choose_terrain", "terrain": k} for k in available(state, st.get("types"))]
    return out + ([{"type": "skip_terrain"}] if st.get("optional") else [])


def hide(state: State, player: str | None) -> None:
    """Until every number is written, a player sees only his own."""
    su = state.get("set_up")
    sc = (su or {}).get("scenery")
    if not sc or not any(s["kind"] == "scenery_number" for s in su["steps"]):
        return
    for p in sc["numbers"]:
        if p != player:
            sc["numbers"][p] = HIDDEN
