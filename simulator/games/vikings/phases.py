"""The turn sequence of rule 2.2: naval phase, player A phase, naval phase, player B phase.

Each naval phase runs its steps (duties, speeds, movement by sequences with grapple windows
between sequences, hauling, damage recording); each player phase runs offensive fire,
movement with defensive fire, combat, and the recovery of the stunned. ``end_phase``
closes the current step for the side acting in it.
"""

from __future__ import annotations

from typing import Any

from simulator.core.game import Context
from simulator.games.vikings import animals, effects, horses, naval, tide, treasure
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import tables
from simulator.games.vikings.fleet import afloat
from simulator.games.vikings.pieces import alive, armoured, values

State = dict[str, Any]
PHASE_NAMES = ("first naval phase", "player A phase", "second naval phase", "player B phase")


def other(state: State, side: str) -> str:
    a, b = state["order"]
    return b if side == a else a


def sides_with_ships(state: State) -> list[str]:
    return [s for s in state["order"] if any(afloat(sh) and sh["side"] == s for sh in state["ships"].values())]


def start_phase(board: Board, state: State, ctx: Context) -> None:
    """Enter the phase ``state['phase_index']`` of the current turn (skipping empty naval phases)."""
    idx = state["phase_index"]
    if idx == 0:
        tide.turn_starts(state, ctx)
    board = tide.board_for(state)      # the sandbar may have flooded since the turn began
    if idx in (0, 2):
        if not sides_with_ships(state):
            ctx.emit("phase", f"turn {state['turn']}: {PHASE_NAMES[idx]} - no boats afloat, skipped", "VK 2.2")
            next_phase(board, state, ctx)
            return
        state["phasing"] = None
        for ch in state["chars"].values():
            ch["threw"] = ch["cut_tried"] = ch["hauled"] = False
        ctx.emit("phase", f"turn {state['turn']}: {PHASE_NAMES[idx]}", "VK 2.2")
        state["naval"].update(step="duties", sequence=0, queue=[], ties={}, window=[], pending_sides=[])
        _next_side(state, sides_with_ships(state), "duties")
        for side in sides_with_ships(state):
            naval.default_duties(state, side)
        return
    side = state["order"][0 if idx == 1 else 1]
    state["phasing"] = side
    state["active"] = side
    state["step"] = "fire"
    state["combat"] = {"round": 1}
    animals.new_phase(state)
    horses.new_phase(state)
    for ch in state["chars"].values():
        ch["fired"] = False
        ch["move_cap"] = None
        ch["engaged"] = False
        if ch["side"] == side:
            ch.update(attacked=False, steps=0, busy=bool(ch.get("pushing")), frenzy=False, victorious=False, mp=0,
                      pushing=False)
            if ch["busy"]:
                ctx.emit("busy", f"{ch['name']} spends this phase pushing a boat off", "VK 4.45", pieces=[ch["id"]])
    ctx.emit("phase", f"turn {state['turn']}: {PHASE_NAMES[idx]} ({side}) - offensive fire", "VK 2.2")
    _drowning(board, state, ctx, side)


def _drowning(board: Board, state: State, ctx: Context, side: str) -> None:
    """Characters starting their phase in deep water test for drowning (rule 4.85, table 9.3)."""
    t = tables()["drowning"]
    for ch in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if ch["side"] != side or not alive(ch) or ch.get("ship") or board.kind(ch["hex"]) != "deep":
            continue
        if ch.get("swimmer"):
            continue
        if armoured(ch):
            effects.kill(board, state, ch, ctx, "armour drags him under", "VK 4.85")
            continue
        die = ctx.dice.d10(f"drowning test of {ch['name']}")
        total = die + (t["wounded_modifier"] if ch["status"] == "wounded" else 0)
        if total <= t["drowns_at_most"]:
            effects.kill(board, state, ch, ctx, f"drowned (rolled {total})", "VK 4.85")
        else:
            ctx.emit("swim", f"{ch['name']} stays afloat ({total})", "VK 4.85", pieces=[ch["id"]])
            effects.too_weak_to_swim(board, state, ch, ctx)


def _next_side(state: State, sides: list[str], step: str) -> None:
    state["naval"]["step"] = step
    state["naval"]["pending_sides"] = list(sides)
    state["active"] = sides[0] if sides else state["order"][0]


def end_step(board: Board, state: State, ctx: Context) -> None:
    """``end_phase``: close the current step for the acting side."""
    if state["phase_index"] in (0, 2):
        _end_naval_step(board, state, ctx)
    else:
        _end_player_step(board, state, ctx)


def _end_naval_step(board: Board, state: State, ctx: Context) -> None:
    nav = state["naval"]
    step = nav["step"]
    if step in ("duties", "speed", "haul", "window"):
        nav["pending_sides"].pop(0)
        if nav["pending_sides"]:
            state["active"] = nav["pending_sides"][0]
            return
        if step == "duties":
            _next_side(state, sides_with_ships(state), "speed")
            ctx.emit("step", "speeds are chosen in secret", "VK 4.34")
        elif step == "speed":
            naval.reveal_speeds(board, state, ctx)
            after_speeds(board, state, ctx)
        elif step == "window":
            nav["step"] = "movement"
            advance_movement(board, state, ctx, first=True)
        elif step == "haul":
            naval.record_damage(board, state, ctx)
            next_phase(board, state, ctx)


def after_speeds(board: Board, state: State, ctx: Context) -> None:
    """Once the speeds are out: the owner of a boat pushed off the beach by some of more candidates names
    them (step ``pushers``, rule 4.45); then the ships move."""
    waiting = naval.awaiting_pushers(state)
    if waiting:
        state["naval"]["step"] = "pushers"
        state["active"] = state["ships"][waiting[0]]["side"]
        return
    state["naval"]["step"] = "movement"
    advance_movement(board, state, ctx, first=True)


def advance_movement(board: Board, state: State, ctx: Context, first: bool = False) -> None:
    """Move on to whoever acts next in the ship-movement step (rule 4.41-4.42, 4.62)."""
    nav = state["naval"]
    while True:
        while nav["queue"] and state["ships"][nav["queue"][0]]["done"]:
            nav["queue"].pop(0)
        if nav["queue"]:
            sid = nav["queue"][0]
            state["active"] = state["ships"][sid]["side"]
            return
        if not first and nav["sequence"] >= 1:
            window = [s for s in state["order"] if naval.grapple_actions_possible(board, state, s)]
            if window:
                _next_side(state, window, "window")
                ctx.emit("step", "between sequences: grapples may be thrown or cut", "VK 4.62")
                return
        first = False
        if not naval.start_sequence(state, ctx):
            break
    haulers = [s for s in state["order"] if naval.haul_options(board, state, s)]
    if haulers:
        _next_side(state, haulers, "haul")
        ctx.emit("step", "hauling on the grapples", "VK 4.65")
        return
    naval.record_damage(board, state, ctx)
    next_phase(board, state, ctx)


def _end_player_step(board: Board, state: State, ctx: Context) -> None:
    step = state["step"]
    side = state["phasing"]
    if step == "fire":
        state["step"] = "move"
        for ch in state["chars"].values():
            if ch["side"] == side:
                ch["mp"] = values(ch)[2]
                if any(g.get("carried_by") == ch["id"] for g in state["grapples"].values()):
                    ch["mp"] = min(ch["mp"], 2)     # carrying a grapple (rule 4.66)
                if treasure.carried_by(state, ch["id"]):
                    ch["mp"] = min(ch["mp"], treasure.DRAG_MP)     # dragging a treasure (rule 5.5.1)

            else:
                ch["fired"] = False
        ctx.emit("step", f"{side} movement (the other side may shoot defensively)", "VK 2.2")
    elif step == "move":
        _drop_carried(board, state, ctx)
        treasure.end_movement(state, ctx, side)
        if stationary_targets(board, state, first_only=True):
            state["step"] = "stationary_fire"
            state["active"] = other(state, side)
            ctx.emit("step", f"{other(state, side)} may shoot defensively at characters that did not move",
                     "VK 2.33")
            return
        state["step"] = "combat"
        ctx.emit("step", f"{side} combat", "VK 2.2")
    elif step == "stationary_fire":
        state["step"] = "combat"
        state["active"] = side
        ctx.emit("step", f"{side} combat", "VK 2.2")
    elif step == "combat":
        from simulator.games.vikings import melee
        state["advance"] = None
        if melee.frenzy_rolls(board, state, ctx):
            ctx.emit("step", f"berserkers fight round {state['combat']['round']}", "VK 3.1")
            return
        _recover(state, ctx, side)
        from simulator.games.vikings import shipwork
        shipwork.mark_contacts(board, state)
        next_phase(board, state, ctx)


def _drop_carried(board: Board, state: State, ctx: Context) -> None:
    """At the end of movement carriers who have not laid down the stunned they carry do it now, in the
    first empty hex next to them (rule 2.53, ``movement.put_down_hexes``); with none free, in their own
    hex (our ruling; the carrier must then step out in his next movement)."""
    from simulator.games.vikings import movement
    for ch in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if not ch.get("carrying"):
            continue
        free = movement.put_down_hexes(board, state, ch)
        if free:
            movement.put_down(board, state, ctx, ch, free[0])
            continue
        carried = state["chars"][ch["carrying"]]
        carried.update(hex=ch["hex"], carried_by=None)
        landed = naval.fleet.ship_hexes(board, state).get(ch["hex"])
        carried["ship"], carried["slot"] = landed if landed else (None, None)
        ch["carrying"] = None
        ctx.emit("carry", f"{ch['name']} has no free hex beside him: {carried['name']} is laid in his own hex",
                 "VK 2.53", pieces=[ch["id"], carried["id"]])


def stationary_targets(board: Board, state: State, first_only: bool = False) -> list[tuple[str, str]]:
    """(archer, target) pairs for defensive fire at the phasing side's characters that did not move
    (rule 2.33: allowed once the mover declares he will not move them, i.e. when he ends movement)."""
    from simulator.games.vikings import fire
    from simulator.games.vikings.pieces import hexes_of
    side = state["phasing"]
    targets = sorted((c for c in state["chars"].values() if c["side"] == side and alive(c) and c.get("hex")
                      and not c.get("steps", 0)), key=lambda c: c["id"])
    out = []
    for s in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if s["side"] == side or fire.can_shoot(board, state, s) is not None:
            continue
        for t in targets:
            src, dst = hexes_of(s)[-1], hexes_of(t)[-1]
            if board.distance(src, dst) <= 50 and fire.line_of_fire(board, state, src, dst, s, t).clear:
                out.append((s["id"], t["id"]))
                if first_only:
                    return out
    return out


def _recover(state: State, ctx: Context, side: str) -> None:
    """Step 2.4: this side's characters stunned before this phase recover (rule 2.2)."""
    now = [state["turn"], state["phase_index"]]
    for ch in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if ch["side"] == side and ch["status"] == "stunned" and ch.get("stunned_at") != now \
                and ch.get("hex") is not None:
            ch["status"] = "ok"
            ctx.emit("recover", f"{ch['name']} recovers", "VK 2.2", pieces=[ch["id"]])


def next_phase(board: Board, state: State, ctx: Context) -> None:
    state["advance"] = None
    state["phase_index"] += 1
    if state["phase_index"] > 3:
        state["phase_index"] = 0
        state["turn"] += 1
        if state["turn"] > state["turns"]:
            state["over"] = "turn limit"
            state["step"] = "over"
            ctx.emit("end", f"the last turn ({state['turns']}) is over", "VK 2.1")
            return
    start_phase(board, state, ctx)
