"""Work on deck that is neither rowing nor fighting: carrying a grapple to another place or boat,
throwing a grapple overboard (rule 4.66) and plugging leaks (optional rule 5.2).

A carried grapple records ``carried_by``; it stays on boat hexes (its rope marker belongs on a
hull) and follows its carrier's deck slot. A character with the ``overboard`` duty on a ready
grapple throws it into the sea at the end of the naval phase; a character with the ``plug``
duty on a leaking hex tries to plug it at the end of the naval phase after the one in which he
was assigned, if no enemy came next to him in between.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import tables
from simulator.games.vikings.effects import stamp
from simulator.games.vikings.pieces import Char, active, alive

State = dict[str, Any]
CARRY_MP = 2


def grapple_at(state: State, ch: Char) -> dict[str, Any] | None:
    """A ready grapple lying in the character's deck hex (not carried)."""
    return next((g for g in sorted(state["grapples"].values(), key=lambda g: g["id"])
                 if g["status"] == "ready" and not g.get("carried_by") and ch.get("ship") == g["ship"]
                 and ch.get("slot") == g["slot"]), None)


def carried(state: State, ch: Char) -> dict[str, Any] | None:
    return next((g for g in state["grapples"].values() if g.get("carried_by") == ch["id"]), None)


def pick_up_problem(state: State, ch: Char) -> str | None:
    """Why ``ch`` may not take up the grapple in his hex now (None if he may). Engine decision:
    a character does not take up again, in the same phase, a grapple he laid down in it (taking
    it up and laying it down changes nothing, and could go on for ever)."""
    g = grapple_at(state, ch)
    if g is None:
        return f"no ready grapple lies in {ch['name']}'s hex"
    if carried(state, ch) or ch.get("carrying"):
        return f"{ch['name']} already carries something"
    if g.get("laid_down") == [ch["id"], *stamp(state)]:
        return f"{ch['name']} laid grapple {g['id']} down this phase"
    return None


def pick_up_grapple(state: State, ctx: Context, ch: Char) -> None:
    problem = pick_up_problem(state, ch)
    if problem is not None:
        raise IllegalAction(problem, "VK 4.66")
    g = grapple_at(state, ch)
    assert g is not None
    g["carried_by"] = ch["id"]
    ch["mp"] = min(ch["mp"], CARRY_MP)
    ctx.emit("grapple", f"{ch['name']} takes up grapple {g['id']} ({ch['mp']} MP left)", "VK 4.66",
             pieces=[ch["id"]])


def drop_grapple(state: State, ctx: Context, ch: Char) -> None:
    g = carried(state, ch)
    if g is None:
        raise IllegalAction(f"{ch['name']} carries no grapple", "VK 4.66")
    g["carried_by"] = None
    g["laid_down"] = [ch["id"], *stamp(state)]
    ctx.emit("grapple", f"{ch['name']} lays grapple {g['id']} down aboard "
             f"{state['ships'][g['ship']]['name']}", "VK 4.66", pieces=[ch["id"]])


def carry_problem(state: State, ch: Char, to_ship: tuple[str, int] | None) -> str | None:
    """A grapple carrier stays on boat hexes (our ruling: the rope is made fast to a hull)."""
    if carried(state, ch) is not None and to_ship is None:
        return "a character carrying a grapple keeps to boat hexes (lay it down first)"
    return None


def follow_carrier(state: State, ch: Char) -> None:
    g = carried(state, ch)
    if g is not None and ch.get("ship"):
        g["ship"], g["slot"] = ch["ship"], ch["slot"]
        g["side"] = ch["side"]


def tidy(state: State, ctx: Context) -> None:
    """A carrier who is stunned or killed drops the grapple where he lies; in the water it is lost."""
    for g in sorted(state["grapples"].values(), key=lambda g: g["id"]):
        cid = g.get("carried_by")
        if not cid:
            continue
        ch = state["chars"][cid]
        if not active(ch) or not ch.get("ship"):
            g["carried_by"] = None
            if not ch.get("ship"):
                g["status"] = "lost"
            ctx.emit("grapple", f"{ch['name']} drops grapple {g['id']}" +
                     (" into the sea" if g["status"] == "lost" else ""), "VK 4.66", pieces=[cid])


def overboard(state: State, ctx: Context) -> None:
    """Grapples handed to a character with the overboard duty go into the sea (rule 4.66)."""
    for ch in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if ch.get("duty") != "overboard" or not active(ch):
            continue
        g = grapple_at(state, ch)
        if g is not None:
            g["status"] = "lost"
            ctx.emit("grapple", f"{ch['name']} throws grapple {g['id']} overboard", "VK 4.66", pieces=[ch["id"]])


def enemy_next_to(board: Board, state: State, ch: Char) -> bool:
    near = set(board.neighbours(ch["hex"]))
    return any(e["side"] != ch["side"] and active(e) and e.get("hex") in near for e in state["chars"].values())


def mark_contacts(board: Board, state: State) -> None:
    """A plugger touched by an enemy must start his work over (rule 5.2); called after every phase."""
    for ch in state["chars"].values():
        if ch.get("duty") == "plug" and alive(ch) and enemy_next_to(board, state, ch):
            ch["plug_since"] = [state["turn"], state["phase_index"]]


def plug_leaks(board: Board, state: State, ctx: Context) -> set[tuple[str, str]]:
    """Optional rule 5.2, at the damage recording: d10 + (leak points - 1): plugged, held for this
    phase, or no luck. Returns the (ship, slot) leaks held back this phase only."""
    held: set[tuple[str, str]] = set()
    if not state["rules"].get("plug_leaks"):
        return held
    t = tables()["leak_plug"]
    now = [state["turn"], state["phase_index"]]
    mark_contacts(board, state)
    for ch in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if ch.get("duty") != "plug" or not active(ch) or not ch.get("ship"):
            continue
        ship = state["ships"][ch["ship"]]
        key = str(ch["slot"])
        if key not in ship["leaks"] or key in ship.get("plugged", []):
            continue
        if ch.get("plug_since") is None:
            ch["plug_since"] = now
        if ch["plug_since"] == now:
            continue          # assigned (or disturbed) this phase: he works until the next naval phase
        die = ctx.dice.d10(f"{ch['name']} plugs a leak")
        total = die + ship["leaks"][key] - 1
        if t["plugged"][0] <= total <= t["plugged"][1] or total < t["plugged"][0]:
            ship.setdefault("plugged", []).append(key)
            ctx.emit("leak", f"{ch['name']} plugs the leak of {ship['name']} ({total})", "VK 5.2",
                     pieces=[ch["id"], ship["id"]])
        elif t["temporary"][0] <= total <= t["temporary"][1]:
            held.add((ship["id"], key))
            ctx.emit("leak", f"{ch['name']} holds the water back for this phase ({total})", "VK 5.2",
                     pieces=[ch["id"], ship["id"]])
        else:
            ctx.emit("leak", f"{ch['name']} cannot stop the water ({total})", "VK 5.2", pieces=[ch["id"]])
    return held


def plug_problem(state: State, ch: Char) -> str | None:
    if not state["rules"].get("plug_leaks"):
        return "plugging leaks is the optional rule 5.2 (scenario rules: plug_leaks: true)"
    ship = state["ships"][ch["ship"]]
    key = str(ch["slot"])
    if key not in ship["leaks"] or key in ship.get("plugged", []):
        return "a plugger stands in a leaking hex"
    return None
