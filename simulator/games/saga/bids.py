"""Scenario 5's bids (SAGA p.55, rule switch ``bids: true``, with ``deployment: players``).

Before the set-up, every player secretly bids how many points (2 to 6) he needs to defend the
village (``bid``; hidden from the others by ``hide`` until every bid is in). The lower bidder
defends with that many points; on equal bids a roll-off gives the defence to the winner (engine
decision: the book leaves the tie open). The defender takes the deployment zone by the
buildings (the scenario's defender zone), so the zones change hands when the bids make the other
player defend. The defender then rebuilds his warband for his bid (``muster``): he sends home
units of the scenario's warband (``dismiss``) until what stays obeys the warband builder's rules
(``setup.warband_problems``) for that many points. The players then deploy as usual
(``placement.py``): the defender first, the attacker plays first.

The state keeps the bids in ``state.set_up.bids`` and the warbands' builder entries in
``state.set_up.entries`` (one per unit, the scenario's own, for the cost).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context
from simulator.games.saga.setup import warband_cost, warband_problems, written_number

State = dict[str, Any]

LOWEST, HIGHEST = 2, 6          # the bids (SAGA p.55)
HIDDEN = "hidden"
#: How many warbands the legal actions offer the defender (the cheapest dismissals first).
MAX_OPTIONS = 6
ENTRY_KEYS = ("id", "class", "figures", "mercenary", "varangians", "berserker", "weapon", "mounted", "dane_axe")


def entries(scenario_setup: Any) -> dict[str, Any]:
    """What the cost of each side's units needs, from the scenario's ``setup.sides``."""
    out: dict[str, Any] = {}
    for player, side in scenario_setup["sides"].items():
        out[player] = {"hero": side.get("hero"),
                       "units": {u["id"]: {k: u[k] for k in ENTRY_KEYS if k in u} for u in side["units"]}}
    return out


def steps(players: list[str]) -> list[dict[str, Any]]:
    """One secret bid per player, in seating order."""
    return [{"kind": "bid", "player": p} for p in players]


def bid(state: State, player: str, action: Action, ctx: Context) -> list[str] | None:
    """Record ``player``'s bid; after the last one, reveal them, name the defender and return
    the deployment order (defender first), else None."""
    su = state["set_up"]
    su["bids"][player] = written_number(state, player, action, "bid", "points", LOWEST, HIGHEST,
                                        "no bid of yours is due now", "SAGA p.55")
    ctx.emit("bid", f"{player} writes down a secret bid", "SAGA p.55")
    if any(s["kind"] == "bid" for s in su["steps"]):
        return None
    return _reveal(state, ctx)


def _reveal(state: State, ctx: Context) -> list[str]:
    from simulator.games.saga.placement import roll_off
    su = state["set_up"]
    bids = su["bids"]
    low = min(bids.values())
    lowest = [p for p in state["players"] if bids[p] == low]
    defender = lowest[0] if len(lowest) == 1 else roll_off(lowest, ctx, "equal bids")[0]
    attacker = next(p for p in state["players"] if p != defender)
    text = ", ".join(f"{p} {n}" for p, n in bids.items())
    how = "the lower bid" if len(lowest) == 1 else "equal bids, won the roll-off (engine decision)"
    ctx.emit("bid", f"bids {text}: {defender} defends the village with {low} points ({how})", "SAGA p.55",
             bids=dict(bids), defender=defender, points=low)
    if state["attacker"] != attacker:            # the defender takes the zone by the buildings
        for z in state["zones"]:
            z["side"] = attacker if z["side"] == state["attacker"] else defender
        state["attacker"] = attacker
    su["steps"].insert(0, {"kind": "muster", "player": defender, "points": low})
    return [defender, attacker]


def _kept_entries(state: State, player: str, dismiss: list[str]) -> list[dict[str, Any]]:
    mine = state["set_up"]["entries"][player]["units"]
    return [mine[uid] for uid in mine if uid in state["units"] and uid not in dismiss]


def muster_problem(state: State, player: str, points: int, dismiss: Any) -> str | None:
    """Why sending home ``dismiss`` does not leave a legal warband of ``points`` points, or None."""
    if not isinstance(dismiss, list) or not all(isinstance(u, str) for u in dismiss):
        return "dismiss lists unit ids"
    for uid in dismiss:
        unit = state["units"].get(uid)
        if unit is None or unit["owner"] != player:
            return f"{uid!r} is not one of your units"
        if unit["cls"] == "warlord":
            return "the Warlord stays with his warband"
    heroes = [h for h in [state["set_up"]["entries"][player]["hero"]] if h]
    problems = warband_problems(_kept_entries(state, player, dismiss), heroes, points)
    return "; ".join(f"{p.message} ({p.rule})" for p in problems) if problems else None


def muster_options(state: State, st: dict[str, Any]) -> list[Action]:
    """Legal dismissals, fewest points sent home first (at most ``MAX_OPTIONS``)."""
    player, points = st["player"], st["points"]
    heroes = [h for h in [state["set_up"]["entries"][player]["hero"]] if h]
    units = [uid for uid, u in state["units"].items() if u["owner"] == player and u["cls"] != "warlord"]
    found: list[tuple[float, list[str]]] = []
    for k in range(len(units) + 1):
        for combo in combinations(units, k):
            dismiss = list(combo)
            if muster_problem(state, player, points, dismiss) is None:
                found.append((-warband_cost(_kept_entries(state, player, dismiss), heroes), dismiss))
    found.sort(key=lambda c: c[0])
    return [{"type": "muster", "dismiss": d} for _, d in found[:MAX_OPTIONS]]


def muster(state: State, player: str, action: Action, ctx: Context) -> None:
    """The defender's warband for his bid: the dismissed units leave the game (no victory points)."""
    su = state["set_up"]
    st = su["steps"][0] if su["steps"] else None
    if st is None or st["kind"] != "muster" or st["player"] != player:
        raise IllegalAction("only the defender rebuilds his warband, after the bids", "SAGA p.55")
    dismiss = action.get("dismiss", [])
    problem = muster_problem(state, player, st["points"], dismiss)
    if problem is not None:
        raise IllegalAction(f"a warband of {st['points']} points: {problem}", "SAGA p.55")
    for uid in dismiss:
        del state["units"][uid]
        del su["samples"][uid]
    su["steps"].pop(0)
    heroes = [h for h in [su["entries"][player]["hero"]] if h]
    cost = warband_cost(_kept_entries(state, player, []), heroes)
    ctx.emit("muster", f"{player} defends with a warband of {cost:g} points"
             + (f" (sends home {', '.join(dismiss)})" if dismiss else ""), "SAGA p.55", dismissed=list(dismiss))


def hide(state: State, player: str | None) -> None:
    """Until every bid is in, a player sees only his own."""
    su = state.get("set_up")
    if not su or not su.get("bids") or not any(s["kind"] == "bid" for s in su["steps"]):
        return
    for p in su["bids"]:
        if p != player:
            su["bids"][p] = HIDDEN
