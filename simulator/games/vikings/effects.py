"""What happens to a character hit by a result: stun, wound, kill, unhorse, retreat.

Shared by missile fire, melee, infiltration, collisions and drowning. The double-hit rule:
a character already stunned or wounded who is stunned or wounded again is killed, and a
stunned character forced to retreat is killed (note to table 8.8).
"""

from __future__ import annotations

from typing import Any

from simulator.core.game import Context
from simulator.games.vikings import fleet
from simulator.games.vikings.board import Board
from simulator.games.vikings.pieces import Char, active, alive, hexes_of, living_at
from simulator.games.vikings.terrain_rules import Blocked, step_cost

State = dict[str, Any]


def stamp(state: State) -> list[int]:
    """Where in the game we are: (turn, phase index 0-3) for the stun-recovery rule 2.2 step 2.4."""
    return [state["turn"], state["phase_index"]]


def _drop_markers(state: State, ch: Char) -> None:
    ch["axe"] = False
    if ch.get("wall"):
        ch["wall"] = False
    carried = ch.get("carrying")
    if carried:
        other = state["chars"][carried]
        other["hex"] = ch["hex"] if not ch.get("mounted") else ch["front"]
        other["carried_by"] = None
        ch["carrying"] = None


def kill(board: Board, state: State, ch: Char, ctx: Context, why: str, rule: str) -> None:
    if ch["status"] == "dead":
        return
    _drop_markers(state, ch)
    if ch.get("mounted"):
        _loose_horse(state, ch, alive_horse=True)
    ch["status"] = "dead"
    ctx.emit("killed", f"{ch['name']} is killed ({why})", rule, pieces=[ch["id"]])
    _check_walls(state, ctx)


def wound(board: Board, state: State, ch: Char, ctx: Context, why: str, rule: str) -> None:
    if ch["status"] in ("wounded", "stunned"):
        kill(board, state, ch, ctx, f"{why}, hit again while {ch['status']}", "VK 8.8")
        return
    if ch["status"] == "dead":
        return
    ch["status"] = "wounded"
    ch["axe"] = False
    if ch.get("wall"):
        ch["wall"] = False
        _check_walls(state, ctx)
    ctx.emit("wounded", f"{ch['name']} is wounded ({why})", rule, pieces=[ch["id"]])
    too_weak_to_swim(board, state, ch, ctx)


def too_weak_to_swim(board: Board, state: State, ch: Char, ctx: Context) -> None:
    """Rule 4.85: a wounded character in deep water whose movement allowance cannot pay for entering
    any water hex next to him drowns (expert swimmers excepted). Checked when he is wounded there and
    at the start of each of his player phases, after the drowning test (our ruling on when)."""
    from simulator.games.vikings.pieces import values
    if ch["status"] != "wounded" or ch.get("ship") or ch.get("swimmer") or not ch.get("hex") \
            or board.kind(ch["hex"]) != "deep":
        return
    ships = fleet.ship_hexes(board, state)
    costs = []
    for n in board.neighbours(ch["hex"]):
        if board.is_water(n) and n not in ships:
            try:
                costs.append(step_cost(board, state, ch, ch["hex"], n, False, ships))
            except Blocked:
                continue
    allowance = values(ch)[2]
    if not costs or min(costs) > allowance:
        kill(board, state, ch, ctx, f"wounded in deep water, {allowance} MP cannot take him into another water hex "
             f"(it costs {min(costs) if costs else 'more'})", "VK 4.85")


def stun(board: Board, state: State, ch: Char, ctx: Context, why: str, rule: str) -> None:
    if ch["status"] in ("wounded", "stunned"):
        kill(board, state, ch, ctx, f"{why}, hit again while {ch['status']}", "VK 8.8")
        return
    if ch["status"] == "dead":
        return
    if ch.get("mounted"):
        unhorse(board, state, ch, ctx, horse_dies=False, rule=rule)
        if ch["status"] == "dead":
            return
    _drop_markers(state, ch)
    ch["status"] = "stunned"
    ch["stunned_at"] = stamp(state)
    ch["mp"] = 0
    ctx.emit("stunned", f"{ch['name']} is stunned ({why})", rule, pieces=[ch["id"]])
    _check_walls(state, ctx)


def _loose_horse(state: State, ch: Char, alive_horse: bool) -> str:
    hid = f"horse_{ch['id']}"
    state["horses"][hid] = {"id": hid, "owner": ch["id"], "side": ch["side"], "hex": ch["hex"],
                            "front": ch["front"], "alive": alive_horse}
    ch["mounted"] = False
    ch["front"] = None
    return hid


def unhorse(board: Board, state: State, ch: Char, ctx: Context, horse_dies: bool, rule: str) -> None:
    """The rider leaves the saddle: the horse stays, the rider lands next to it (rule 3.4)."""
    rear, front = ch["hex"], ch["front"]
    hid = _loose_horse(state, ch, alive_horse=not horse_dies)
    occupied = living_at(state)
    ships = fleet.ship_hexes(board, state)
    for h in [n for x in (front, rear) for n in board.neighbours(x)]:
        if h in (front, rear) or occupied.get(h):
            continue
        try:
            step_cost(board, state, ch, front, h, False, ships) if h in board.neighbours(front) else \
                step_cost(board, state, ch, rear, h, False, ships)
        except Blocked:
            continue
        ch["hex"] = h
        ctx.emit("unhorsed", f"{ch['name']} is unhorsed and lands in {h}"
                 + (" (the horse is killed)" if horse_dies else ""), "VK 3.4", pieces=[ch["id"], hid])
        return
    # every hex round the horse is taken: a friend on foot next to it makes room by one hex (rule 3.4)
    for h in sorted({n for x in (front, rear) for n in board.neighbours(x)} - {front, rear}):
        ids = occupied.get(h, [])
        friend = state["chars"].get(ids[0]) if len(ids) == 1 else None
        if friend is None or friend["side"] != ch["side"] or friend.get("mounted") or friend["hex"] != h:
            continue
        for to in sorted(board.neighbours(h)):
            if to in (front, rear) or occupied.get(to) or _enemy_in(state, friend, [to]):
                continue
            try:
                step_cost(board, state, friend, h, to, False, ships)
                step_cost(board, state, ch, front if h in board.neighbours(front) else rear, h, False, ships)
            except Blocked:
                continue
            _place(friend, [to], ships)
            ch["hex"] = h
            ctx.emit("unhorsed", f"{friend['name']} steps aside to {to}; {ch['name']} is unhorsed and lands in {h}"
                     + (" (the horse is killed)" if horse_dies else ""), "VK 3.4", pieces=[ch["id"], friend["id"], hid])
            return
    ch["hex"] = front
    kill(board, state, ch, ctx, "unhorsed with no free hex next to the horse", "VK 3.4")


def _check_walls(state: State, ctx: Context) -> None:
    """A shield wall with fewer than three able huscarls breaks up (our reading of rule 3.2)."""
    members = [c for c in state["chars"].values() if c.get("wall")]
    if members and len([c for c in members if active(c) and c["status"] == "ok"]) < 3:
        for c in members:
            c["wall"] = False
        ctx.emit("shield_wall", "the shield wall breaks up: fewer than three huscarls left in it", "VK 3.2",
                 pieces=[c["id"] for c in members])


def retreat(board: Board, state: State, ch: Char, hexes: int, away_from: list[str], ctx: Context,
            rule: str, forbidden_near: list[str] = (), from_fire: bool = False) -> None:
    """Move ``ch`` ``hexes`` hexes away from ``away_from``; if it cannot, it stays and is wounded.

    Each step must take it farther from the nearest hex of ``away_from``; it may pass friends;
    it may not enter a hex next to ``forbidden_near`` (the enemies of the combat). It ends alone,
    or displaces one friend on foot standing in its end hex to a free hex next to him at least
    as far from the retreat's start (note to table 8.8). Every hex the retreating character (or
    the displaced friend) passes through or stops in draws infiltration rolls from the enemies
    next to it, except those who took part in a combat this phase. The engine picks the path
    (the owner's choice in the rulebook): an empty end hex first, then fewer enemies around.
    """
    if ch["status"] == "stunned":
        kill(board, state, ch, ctx, "a stunned character forced to retreat", "VK 8.8")
        return
    if ch.get("ship") and from_fire:
        ctx.emit("retreat", f"{ch['name']} is on a boat: the retreat result is ignored", "VK 2.4",
                 pieces=[ch["id"]])
        return
    ships = fleet.ship_hexes(board, state)
    mounted = bool(ch.get("mounted"))
    start = hexes_of(ch)
    steps: list[list[str]] = []
    pos = start
    push: tuple[Char, list[str]] | None = None
    into_deep = False       # an armoured character's only way back leads into deep water (rule 2.51.3)
    for n in range(hexes):
        best = None
        into_deep = False
        for d in range(6):
            new = [_neighbour(board, h, d) for h in pos]
            if any(x is None for x in new):
                continue
            gain = _dist(board, new, away_from) - _dist(board, pos, away_from)
            if gain <= 0:
                continue
            try:
                lead = new[-1]
                step_cost(board, state, ch, pos[-1], lead, mounted, ships)
                if mounted:
                    step_cost(board, state, ch, pos[0], new[0], mounted, ships)
            except Blocked as b:
                into_deep = into_deep or (b.rule == "VK 2.51" and "deep water" in b.reason)
                continue
            if _near_any(board, new, forbidden_near):
                continue
            if _enemy_in(state, ch, new):
                continue
            shove = None
            if n == hexes - 1 and _others_in(state, ch, new):
                shove = _displacement(board, state, ch, new, start, hexes, forbidden_near, ships)
                if shove is None:
                    continue
            score = (gain, shove is None, -_enemy_contacts(board, state, ch, new), -d)
            if best is None or score > best[0]:
                best = (score, new, shove)
        if best is None:
            break
        pos = best[1]
        push = best[2]
        steps.append(pos)
    if len(steps) < hexes and into_deep:
        kill(board, state, ch, ctx, "forced back into deep water, his armour drags him under", "VK 2.51")
        return
    if len(steps) < hexes:
        ctx.emit("retreat", f"{ch['name']} cannot retreat {hexes} hexes and is wounded instead", "VK 8.8",
                 pieces=[ch["id"]])
        wound(board, state, ch, ctx, "could not retreat", "VK 8.8")
        return
    path = [p[-1] for p in steps]
    if push is not None:
        friend, to = push
        _place(friend, to, ships)
        if not friend["ship"]:
            friend["duty"] = None
        where = "-".join(to)
        ctx.emit("retreat", f"{friend['name']} is pushed aside to {where} to make room for {ch['name']}", "VK 8.8",
                 pieces=[friend["id"], ch["id"]], to=to[-1])
    _leave_ship(ch)
    _place(ch, steps[-1], ships)
    ctx.emit("retreat", f"{ch['name']} retreats {hexes} hex(es) to {pos[-1]}", rule, pieces=[ch["id"]],
             path=path)
    from simulator.games.vikings.movement import _infiltration
    for i, p in enumerate(steps):
        _place(ch, p, ships)            # where he stands when the enemy strikes
        _infiltration(board, state, ctx, ch, p[-1], ships, after_combat=True)
        if not alive(ch) or ch["status"] == "dead":
            return
    _place(ch, steps[-1], ships)
    if push is not None and alive(push[0]):
        _infiltration(board, state, ctx, push[0], push[1][-1], ships, after_combat=True)


def _place(ch: Char, where: list[str], ships: dict[str, tuple[str, int]]) -> None:
    ch["hex"] = where[0]
    if ch.get("mounted"):
        ch["front"] = where[1]
    landed = ships.get(ch["hex"])
    ch["ship"], ch["slot"] = landed if landed else (None, None)


def _near_any(board: Board, hexes: list[str], others: list[str]) -> bool:
    return any(f in board.neighbours(x) for x in hexes for f in others)


def _displacement(board: Board, state: State, ch: Char, end: list[str], start: list[str], hexes: int,
                  forbidden_near: list[str], ships: dict[str, tuple[str, int]]) -> tuple[Char, list[str]] | None:
    """The friend standing in the retreat's end hex(es) and where he is pushed, or None if he cannot
    be (note to table 8.8: a friend in the end hex is displaced to the distance the retreat needs from
    its start, not next to the combat's enemies). A friend on foot goes to a free hex next to him; a
    rider is pushed one hex in one of the six directions, keeping his facing (the note says friendly
    characters, riders included)."""
    occ = living_at(state)
    others = list(dict.fromkeys(pid for h in end for pid in occ.get(h, []) if pid != ch["id"]))
    if len(others) != 1 or others[0] not in state["chars"]:
        return None
    friend = state["chars"][others[0]]
    if friend["side"] != ch["side"] or not any(h in end for h in hexes_of(friend)):
        return None
    own = hexes_of(friend)
    if friend.get("mounted"):
        moves = [[_neighbour(board, h, d) for h in own] for d in range(6)]
    else:
        moves = [[to] for to in sorted(board.neighbours(friend["hex"]))]
    for new in moves:
        if any(x is None for x in new):
            continue
        if any(x in end or x in start or any(p != friend["id"] for p in occ.get(x, [])) for x in new):
            continue
        if min(board.distance(x, s) for x in new for s in start) < hexes or _near_any(board, new, forbidden_near):
            continue
        try:
            for a, b in zip(own, new):
                step_cost(board, state, friend, a, b, bool(friend.get("mounted")), ships)
        except Blocked:
            continue
        if _enemy_in(state, friend, new):
            continue
        return friend, new
    return None


def _leave_ship(ch: Char) -> None:
    ch["ship"] = None
    ch["slot"] = None
    ch["duty"] = None


def _neighbour(board: Board, h: str, d: int) -> str | None:
    try:
        n = board.grid.neighbour(h, d)
    except ValueError:
        return None
    return n if n in board else None


def _dist(board: Board, pos: list[str], away: list[str]) -> int:
    return min(board.distance(p, a) for p in pos for a in away) if away else 0


def _enemy_in(state: State, ch: Char, hexes: list[str]) -> bool:
    occ = living_at(state)
    for h in hexes:
        for pid in occ.get(h, []):
            other = state["chars"].get(pid)
            if other is not None and other["side"] != ch["side"] and other["status"] != "stunned" \
                    and other["id"] != ch["id"]:
                return True
    return False


def _others_in(state: State, ch: Char, hexes: list[str]) -> bool:
    occ = living_at(state)
    return any(pid != ch["id"] for h in hexes for pid in occ.get(h, []))


def _enemy_contacts(board: Board, state: State, ch: Char, hexes: list[str]) -> int:
    around = {n for h in hexes for n in board.neighbours(h)}
    return sum(1 for o in state["chars"].values()
               if o["side"] != ch["side"] and active(o) and any(x in around for x in hexes_of(o)))

