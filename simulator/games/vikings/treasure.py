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

A carrier may hand the treasure to a friend on foot in his hex or next to him (``give_treasure``,
our ruling: 1 MP of the giver, not across a wall, window or arrow slit, no enemy able to attack
the receiver, whose MP fall to 2 at once). A treasure is dragged (the rule's word), so riders
never take one: a rider cannot take one up or be given one, and a carrier cannot mount.

Where the scenario's victory names exit hexes for a side (``victory.treasure_exits``), a carrier of
that side standing on one may carry the treasure off the map (``carry_off``, 1 MP): he leaves the
game with it (not a casualty) and it scores for his side from then on.

A treasure lying in deep water (dropped there, or on a sandbar the tide has covered, rule 5.5.5) is
lost; in coastal water it stays where it lies.

At the end of the game every real treasure carried by a living character, lying on a boat or
carried off the map scores ``victory.treasure_points`` for that side.
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
GIVE_MP = 1      # our ruling: handing a treasure over costs the giver 1 MP
EXIT_MP = 1      # our ruling: stepping off the map costs 1 MP, as a step into a hex of clear ground
HIDDEN = "hidden"


def lying(state: State) -> list[Treasure]:
    """Treasure markers on the ground (or deck), not carried, not lost, not carried off."""
    return [t for t in state.get("treasures", {}).values()
            if t["carried_by"] is None and not t.get("lost") and not t.get("off_map")]


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
    from simulator.games.vikings.movement import can_act
    if t["carried_by"] is not None or t.get("lost") or t.get("off_map"):
        return "the treasure is not lying here"
    if not can_act(state, ch) or ch.get("mounted"):
        return f"{ch['name']} must be an able character on foot of the moving side"
    if ch["hex"] != t["hex"]:
        return f"{ch['name']} does not stand on the treasure ({t['hex']})"
    if not t["dropped"] and t.get("claim") != ch["id"]:
        return f"{ch['name']} must first stop on the treasure at the end of a movement step"
    return _receiver_problem(board, state, ch)


def _receiver_problem(board: Board, state: State, ch: Char) -> str | None:
    """Why ``ch`` cannot come to hold a treasure now: hands full, or an enemy able to attack him."""
    from simulator.games.vikings.movement import _threatens
    if ch.get("carrying") or carried_by(state, ch["id"]) or any(
            g.get("carried_by") == ch["id"] for g in state["grapples"].values()):
        return f"{ch['name']} already carries something"
    ships = fleet.ship_hexes(board, state)
    foes = [e for e in state["chars"].values() if e["side"] != ch["side"] and _threatens(board, e, ch["hex"], ships)]
    if foes:
        return f"{foes[0]['name']} (enemy) is in a position to attack {ch['name']}"
    return None


def give_problem(board: Board, state: State, giver: Char, receiver: Char) -> str | None:
    """Why ``giver`` may not hand his treasure to ``receiver`` now (None: he may; our ruling)."""
    from simulator.games.vikings.movement import can_act
    if carried_by(state, giver["id"]) is None:
        return f"{giver['name']} carries no treasure"
    if not can_act(state, giver):
        return f"{giver['name']} cannot act now"
    if giver["mp"] < GIVE_MP:
        return f"handing a treasure over costs {GIVE_MP} MP; {giver['name']} has {giver['mp']}"
    if receiver["id"] == giver["id"] or receiver["side"] != giver["side"]:
        return "the treasure goes to another character of the same side"
    if not can_act(state, receiver) or receiver.get("mounted"):
        return f"{receiver['name']} must be an able character on foot (a treasure is dragged, not carried)"
    here, there = giver["hex"], receiver["hex"]
    if here != there:
        if not board.grid.adjacent(here, there):
            return f"{receiver['name']} is neither in {giver['name']}'s hex nor next to it"
        feat = board.feature(here, there)
        if feat in ("wall", "window", "arrow_slit"):
            return f"a treasure is not handed across a {feat.replace('_', ' ')}"
    return _receiver_problem(board, state, receiver)


def give(board: Board, state: State, ctx: Context, giver: Char, receiver: Char) -> None:
    why = give_problem(board, state, giver, receiver)
    if why:
        raise IllegalAction(why, RULE)
    t = carried_by(state, giver["id"])
    assert t is not None
    giver["mp"] -= GIVE_MP
    t.update(carried_by=receiver["id"], hex=front_hex(receiver))
    receiver["mp"] = min(receiver["mp"], DRAG_MP)
    ctx.emit("treasure", f"{giver['name']} hands the treasure to {receiver['name']} ({GIVE_MP} MP; "
             f"{receiver['name']}'s MP at most {DRAG_MP})", RULE, pieces=[giver["id"], receiver["id"], t["id"]])


def exits(state: State, side: str) -> list[str]:
    """Hexes from which ``side`` may carry a treasure off the map (scenario victory)."""
    return list(state.get("victory", {}).get("treasure_exits", {}).get(side, []))


def carry_off_problem(state: State, ch: Char) -> str | None:
    from simulator.games.vikings.movement import can_act
    if carried_by(state, ch["id"]) is None:
        return f"{ch['name']} carries no treasure"
    if not can_act(state, ch):
        return f"{ch['name']} cannot act now"
    if front_hex(ch) not in exits(state, ch["side"]):
        where = ", ".join(exits(state, ch["side"])) or "none in this scenario"
        return f"treasures leave the map only from the {ch['side']}' exit hexes ({where})"
    if ch["mp"] < EXIT_MP:
        return f"stepping off the map costs {EXIT_MP} MP; {ch['name']} has {ch['mp']}"
    return None


def carry_off(state: State, ctx: Context, ch: Char) -> None:
    why = carry_off_problem(state, ch)
    if why:
        raise IllegalAction(why, RULE)
    t = carried_by(state, ch["id"])
    assert t is not None
    t.update(carried_by=None, off_map=ch["side"], hex=None, ship=None, slot=None)
    ctx.emit("treasure", f"{ch['name']} carries the treasure off the map at {front_hex(ch)}", RULE,
             pieces=[ch["id"], t["id"]])
    ch.update(hex=None, front=None, ship=None, slot=None, duty=None, off_map=True, mp=0)


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
    """Keep markers with their carriers and boats; stunned or dead carriers, and carriers who swim
    into deep water, drop them; a treasure lying in deep water is lost."""
    for t in sorted(state.get("treasures", {}).values(), key=lambda t: t["id"]):
        if t.get("lost"):
            continue
        if t["carried_by"] is not None:
            ch = state["chars"][t["carried_by"]]
            if not active(ch):
                drop(board, state, ctx, ch, "stunned" if alive(ch) else "killed")
            elif not ch.get("ship") and board.kind(front_hex(ch)) == "deep":
                drop(board, state, ctx, ch, "nobody swims dragging a treasure")
            else:
                t["hex"] = front_hex(ch)
                continue
        if t.get("off_map"):
            continue
        if t.get("ship"):
            ship = state["ships"][t["ship"]]
            if not fleet.afloat(ship) and ship.get("sunk"):
                t["lost"] = True
                ctx.emit("treasure", f"the treasure goes down with {ship['name']}", RULE, pieces=[t["id"]])
            elif fleet.afloat(ship):
                t["hex"] = fleet.hexes(board, ship)[t["slot"]]
        elif t["hex"] in board and board.kind(t["hex"]) == "deep":
            t["lost"] = True
            ctx.emit("treasure", f"the treasure in {t['hex']} sinks in deep water", RULE, pieces=[t["id"]])


def holders(state: State) -> dict[str, int]:
    """Real treasures each side holds (carried by a living character, lying on its boat, or carried
    off the map)."""
    out: dict[str, int] = {}
    for t in state.get("treasures", {}).values():
        if t.get("lost") or t["decoy"] is True:
            continue
        side = t.get("off_map") or None
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
