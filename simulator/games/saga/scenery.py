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

Every die is rolled inside an action, so scripts can force them. The chosen pieces wait in
``state.set_up.pieces`` like a scenario's pieces; ``state.set_up.scenery`` keeps the numbers,
the shares, the first player and what each player chose.
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


def standard_types() -> dict[str, Any]:
    """The terrain types of the p.49 list (those with a chosen-piece outline)."""
    return {k: v for k, v in cat.terrain_types().items() if "piece" in v}


def steps(players: list[str]) -> list[dict[str, Any]]:
    return [{"kind": "scenery_number", "player": p} for p in players]


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


def available(state: State) -> list[str]:
    """The types still to be had: fewer chosen than their maximum for both players."""
    chosen = [t["type"] for t in state["set_up"]["pieces"].values()]
    return [k for k, v in standard_types().items() if chosen.count(k) < v["max_count"]]


def choose(state: State, player: str, action: Action, ctx: Context) -> None:
    """``player`` takes one piece of the type named; after the last choice the placing starts."""
    su = state["set_up"]
    st = su["steps"][0] if su["steps"] else None
    if st is None or st["kind"] != "choose_terrain" or st["player"] != player:
        raise IllegalAction("no terrain piece of yours to choose now", "SAGA p.49")
    kind = action.get("terrain")
    types = standard_types()
    if kind not in types:
        raise IllegalAction(f"terrain is a type of the p.49 list: {', '.join(types)}", "SAGA p.49")
    if kind not in available(state):
        raise IllegalAction(f"at most {types[kind]['max_count']} {types[kind]['name']} piece(s) for both players "
                            "together", "SAGA p.49")
    n = 1 + sum(1 for t in su["pieces"].values() if t["type"] == kind)
    pid = f"{kind}-{n}"
    w, h = state["table"]["width"], state["table"]["height"]
    pts = [[w / 2 + x, h / 2 + y] for x, y in types[kind]["piece"]]
    su["pieces"][pid] = terrain_piece(pid, str(kind), pts, f"{types[kind]['name']} {n}")
    sc = su["scenery"]
    sc["chosen"][player].append(pid)
    su["steps"].pop(0)
    ctx.emit("terrain", f"{player} chooses {types[kind]['name']} ({pid})", "SAGA p.49", piece=pid)
    if any(s["kind"] == "choose_terrain" for s in su["steps"]):
        return
    placers = _alternate(sc["first"], {p: len(v) for p, v in sc["chosen"].items()})
    queue = {p: list(v) for p, v in sc["chosen"].items()}
    su["steps"][0:0] = [{"kind": "terrain", "player": p, "piece": queue[p].pop(0), "roll": None} for p in placers]
    sc["scheduled"] = True


def legal(state: State, st: dict[str, Any]) -> list[Action]:
    if st["kind"] == "scenery_number":
        return [{"type": "scenery_number", "number": n} for n in range(LOWEST, HIGHEST + 1)]
    return [{"type": "choose_terrain", "terrain": k} for k in available(state)]


def hide(state: State, player: str | None) -> None:
    """Until every number is written, a player sees only his own."""
    su = state.get("set_up")
    sc = (su or {}).get("scenery")
    if not sc or not any(s["kind"] == "scenery_number" for s in su["steps"]):
        return
    for p in sc["numbers"]:
        if p != player:
            sc["numbers"][p] = HIDDEN
