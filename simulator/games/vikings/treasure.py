"""Treasures and decoys (scenario rule 5.5.1).

A treasure marker lies in a hex (``state["treasures"][id]``). A character who ends his movement
in its hex may take it up in his side's next movement step (``take_treasure``), if no enemy able to
attack him stands next to him; a treasure that was dropped may be taken up by whoever stands in its
hex under the same condition, without waiting. The carrier drags it: his MP fall to 2 at once and
in every later movement step. A carrier who attacks or is attacked drops it in his hex; so does one
who is stunned or killed. A treasure lying on a deck moves with the boat and is lost if the boat
sinks.

With the scenario switch ``rules: {decoys: true}`` every marker lies face down: the first character
to enter its hex (passing through or stopping) turns it over; a decoy is then removed. Face-down
markers are hidden from both players (:func:`hide`).

At the end of the game every real treasure carried by a living character, or lying on a boat,
scores ``victory.treasure_points`` for that character's or boat's side.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.vikings import fleet
from simulator.games.vikings.board import Board
from simulator.games.vikings.pieces import Char, active, alive, front_hex, hexes_of

State = dict[str, Any]
Treasure = dict[str, Any]
RULE = "VK 5.5.1"
DRAG_MP = 2
HIDDEN = "hidden"


def lying(state: State) -> list[Treasure]:
    """Treasure markers on the ground (or deck), not carried, not lost."""
    return [t for t in state.get("treasures", {}).values() if t["carried_by"] is None and not t.get("lost")]


def carried_by(state: State, cid: str) -> Treasure | None:
    return next((t for t in state.get("treasures", {}).values() if t["carried_by"] == cid), None)


def is_real(t: Treasure) -> bool:
    """A face-up real treasure (a hidden marker hides its ``decoy`` flag as ``"hidden"``)."""
    return t["decoy"] is False


def entered(state: State, ctx: Context, ch: Char) -> None:
    """Turn over face-down markers in the hexes the character has just entered."""
    for t in sorted(lying(state), key=lambda t: t["id"]):
        if t["revealed"] or t["hex"] not in hexes_of(ch):
            continue
        t["revealed"] = True
        if t["decoy"] is True:
            t["lost"] = True
            ctx.emit("treasure", f"{ch['name']} turns over the marker in {t['hex']}: a decoy", RULE,
                     pieces=[ch["id"], t["id"]], decoy=True)
        else:
            ctx.emit("treasure", f"{ch['name']} turns over the marker in {t['hex']}: real treasure", RULE,
                     pieces=[ch["id"], t["id"]], decoy=False)


def end_movement(state: State, ctx: Context, side: str) -> None:
    """Characters of the moving side standing on a treasure may take it up next movement step."""
    for t in sorted(lying(state), key=lambda t: t["id"]):
        claimant = state["chars"].get(t.get("claim") or "")
        if claimant is not None and (not active(claimant) or claimant["hex"] != t["hex"]):
            t["claim"] = None
        if t["claim"] is None:
            here = [c for c in state["chars"].values() if c["side"] == side and active(c) and not c.get("mounted")
                    and c["hex"] == t["hex"]]
            if here:
                t["claim"] = here[0]["id"]
                ctx.emit("treasure", f"{here[0]['name']} stops on the treasure in {t['hex']}: he may take it up "
                         "in his next movement", RULE, pieces=[here[0]["id"], t["id"]])


def take_problem(board: Board, state: State, ch: Char, t: Treasure) -> str | None:
    """Why ``ch`` may not take up treasure ``t`` now (None: he may)."""
    from simulator.games.vikings.movement import _threatens, can_act
    if t["carried_by"] is not None or t.get("lost"):
        return "the treasure is not lying here"
    if not can_act(state, ch) or ch.get("mounted"):
        return f"{ch['name']} must be an able character on foot of the moving side"
    if ch["hex"] != t["hex"]:
        return f"{ch['name']} does not stand on the treasure ({t['hex']})"
    if not t["dropped"] and t.get("claim") != ch["id"]:
        return f"{ch['name']} must first stop on the treasure at the end of a movement step"
    if ch.get("carrying") or carried_by(state, ch["id"]) or any(
            g.get("carried_by") == ch["id"] for g in state["grapples"].values()):
        return f"{ch['name']} already carries something"
    ships = fleet.ship_hexes(board, state)
    foes = [e for e in state["chars"].values() if e["side"] != ch["side"] and _threatens(board, e, ch["hex"], ships)]
    if foes:
        return f"{foes[0]['name']} (enemy) is in a position to attack {ch['name']}"
    return None


def take(board: Board, state: State, ctx: Context, ch: Char, tid: str) -> None:
    t = state.get("treasures", {}).get(tid)
    if t is None:
        raise IllegalAction(f"no treasure {tid!r}", RULE)
    why = take_problem(board, state, ch, t)
    if why:
        raise IllegalAction(why, RULE)
    t.update(carried_by=ch["id"], claim=None, dropped=False, ship=None, slot=None)
    if not t["revealed"]:
        entered(state, ctx, ch)
    ch["mp"] = min(ch["mp"], DRAG_MP)
    ctx.emit("treasure", f"{ch['name']} takes up the treasure (MP at most {DRAG_MP})", RULE,
             pieces=[ch["id"], tid])


def drop(board: Board, state: State, ctx: Context, ch: Char, why: str) -> None:
    t = carried_by(state, ch["id"])
    if t is None:
        return
    t.update(carried_by=None, hex=front_hex(ch) if ch.get("hex") else t["hex"], dropped=True, claim=None)
    on = fleet.ship_hexes(board, state).get(t["hex"])
    t["ship"], t["slot"] = on if on else (None, None)
    ctx.emit("treasure", f"{ch['name']} drops the treasure in {t['hex']} ({why})", RULE, pieces=[ch["id"], t["id"]])


def drop_action(board: Board, state: State, ctx: Context, ch: Char) -> None:
    if carried_by(state, ch["id"]) is None:
        raise IllegalAction(f"{ch['name']} carries no treasure", RULE)
    drop(board, state, ctx, ch, "laid down")


def melee(board: Board, state: State, ctx: Context, fighters: list[Char]) -> None:
    """Carriers who attack or are attacked drop the treasure."""
    for ch in fighters:
        if carried_by(state, ch["id"]):
            drop(board, state, ctx, ch, "in a melee")


def tidy(board: Board, state: State, ctx: Context) -> None:
    """Keep markers with their carriers and boats; stunned or dead carriers drop them."""
    for t in sorted(state.get("treasures", {}).values(), key=lambda t: t["id"]):
        if t.get("lost"):
            continue
        if t["carried_by"] is not None:
            ch = state["chars"][t["carried_by"]]
            if not active(ch):
                drop(board, state, ctx, ch, "stunned" if alive(ch) else "killed")
            else:
                t["hex"] = front_hex(ch)
            continue
        if t.get("ship"):
            ship = state["ships"][t["ship"]]
            if not fleet.afloat(ship) and ship.get("sunk"):
                t["lost"] = True
                ctx.emit("treasure", f"the treasure goes down with {ship['name']}", RULE, pieces=[t["id"]])
            elif fleet.afloat(ship):
                t["hex"] = fleet.hexes(board, ship)[t["slot"]]


def holders(state: State) -> dict[str, int]:
    """Real treasures each side holds (carried by a living character or lying on its boat)."""
    out: dict[str, int] = {}
    for t in state.get("treasures", {}).values():
        if t.get("lost") or t["decoy"] is True:
            continue
        side = None
        if t["carried_by"] is not None:
            ch = state["chars"][t["carried_by"]]
            side = ch["side"] if alive(ch) else None
        elif t.get("ship"):
            side = state["ships"][t["ship"]]["side"]
        if side:
            out[side] = out.get(side, 0) + 1
    return out


def hide(state: State) -> None:
    """Face-down markers: nobody knows which are decoys."""
    for t in state.get("treasures", {}).values():
        if not t["revealed"]:
            t["decoy"] = HIDDEN
