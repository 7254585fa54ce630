"""Character movement in the player phase (rules 2.5-2.57, 2.6, 4.83).

Characters move one hex per ``move`` action (a path is a list of such steps), so the
defender can interrupt with defensive fire in any hex (rule 2.33) and infiltration is
rolled for every hex passed through (rule 2.54).
"""

from __future__ import annotations

import heapq
from functools import lru_cache
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.vikings import animals, effects, fleet, horses, treasure
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import tables
from simulator.games.vikings.pieces import Char, active, alive, armoured, front_hex, hexes_of, living_at, values
from simulator.games.vikings.terrain_rules import Blocked, step_cost
from simulator.geometry.hexgrid import HexGrid
from simulator.geometry.hexmove import Reachable, reachable

State = dict[str, Any]

# extra MP of a rider entering a hex, by its place relative to the counter (rule 2.55)
AHEAD, BESIDE, REAR, BEHIND = 0, 1, 2, 3


def can_act(state: State, ch: Char) -> bool:
    return active(ch) and ch["side"] == state["phasing"] and not ch.get("wall") and not ch.get("busy")


def rider_step(board: Board, ch: Char, to: str) -> tuple[int, str, str] | None:
    """(extra MP, new rear, new front) when a rider moves its front half to ``to`` (rule 2.55)."""
    return _rider_steps(board.grid, ch["hex"], ch["front"]).get(to)


@lru_cache(maxsize=1 << 16)
def _rider_steps(grid: HexGrid, rear: str, front: str) -> dict[str, tuple[int, str, str]]:
    """Every hex a rider standing on ``rear`` and ``front`` may move its front half into, with
    (extra MP, new rear, new front): computed once per position, as a path search asks often."""
    f = grid.direction_index(grid.direction_between(rear, front))
    front_n = {grid.direction_index(d): h for d, h in grid.neighbours(front).items()}
    rear_n = {grid.direction_index(d): h for d, h in grid.neighbours(rear).items()}
    out: dict[str, tuple[int, str, str]] = {}
    for extra, hexes in ((BEHIND, (rear_n.get((f + 3) % 6),)),
                         (REAR, (rear_n.get((f - 2) % 6), rear_n.get((f + 2) % 6))),
                         (BESIDE, (rear_n.get((f - 1) % 6), rear_n.get((f + 1) % 6))),
                         (AHEAD, (front_n.get(f), front_n.get((f - 1) % 6), front_n.get((f + 1) % 6)))):
        for to in hexes:
            if to is not None:
                out[to] = (extra, front if extra == AHEAD else rear, to)
    return out


def step_options(board: Board, state: State, ch: Char) -> dict[str, int]:
    """Adjacent destinations of the character's (front) hex and their MP cost, within its MP and
    the move cap of defensive fire (rule 8.2), leaving out friends' hexes he could not leave again
    (rule 2.6, :func:`entry_problem`)."""
    return {to: cost for to, cost in _reachable_steps(board, state, ch).items()
            if entry_problem(board, state, ch, to, cost) is None}


def ways(board: Board, state: State, ch: Char) -> dict[str, tuple[int, list[str]]]:
    """Every hex the character (a rider: his front half) can move to now, step after legal step
    (rules 2.5-2.55, 2.6, 8.2), with its cheapest cost in MP and the steps of that way (the ``path``
    of a ``move``): a search over his positions (a rider's two hexes) as :func:`step_options` sees
    them after each step, so a way never ends in, or crosses, a friend's hex he could not leave, nor
    takes more steps than defensive fire left him. Infiltration rolls on the way may still stop him."""
    out: dict[str, tuple[int, list[str]]] = {}
    start = dict(ch)
    counter = 0
    queue: list[tuple[int, int, Char, list[str]]] = [(0, counter, start, [])]
    seen: set[tuple[Any, ...]] = set()
    best: dict[tuple[Any, ...], int] = {}
    capped_move = ch.get("move_cap") is not None
    occ = living_at(state)
    ships = fleet.ship_hexes(board, state)
    while queue:
        spent, _, here, path = heapq.heappop(queue)
        key = (here["hex"], here.get("front"), here.get("steps", 0) if capped_move else None)
        if key in seen:
            continue
        seen.add(key)
        if path and path[-1] not in out:
            out[path[-1]] = (spent, path)
        for to, cost in _reachable_steps(board, state, here, ships, occ).items():
            after = _stepped(board, here, to, cost)
            crowded = any(i != ch["id"] for h in hexes_of(after) for i in occ.get(h, ()))
            if crowded and entry_problem(board, state, here, to, cost) is not None:
                continue         # as step_options, asking the stacking rule only where someone stands
            beast = animals.at(state, to)
            if beast is not None and not any(a["id"] == beast["id"] for a in animals.led(state, ch["id"])):
                after["mp"] = 0      # he stops in a goat's or pig's hex (rule 5.5.3)
            nkey = (after["hex"], after.get("front"), after["steps"] if capped_move else None)
            if nkey in seen or best.get(nkey, spent + cost + 1) <= spent + cost:
                continue
            best[nkey] = spent + cost
            counter += 1
            heapq.heappush(queue, (spent + cost, counter, after, [*path, to]))
    out.pop(front_hex(ch), None)
    return out


def capped(ch: Char) -> bool:
    """Has the character made all the steps defensive fire left him this turn (rule 8.2)?"""
    return ch.get("move_cap") is not None and ch.get("steps", 0) >= ch["move_cap"]


def entry_problem(board: Board, state: State, ch: Char, to: str, cost: int) -> str | None:
    """Why ``ch`` may not step into ``to`` for ``cost`` MP because of stacking (rule 2.6; None: he may).

    A character may pass through a hex holding another living character (a friend, or a stunned
    one), but no hex may hold two at the end of movement: he may enter it only if, with the MP and
    steps he will have left, he can still reach a hex free of living characters, or lift the
    stunned character there (rule 2.53). Fire or infiltration may still stop him there
    (see :func:`stuck_stacks`)."""
    after = _stepped(board, ch, to, cost)
    if _alone(state, after):
        return None
    crowd = [state["chars"][i] for h in hexes_of(after) for i in living_at(state).get(h, [])
             if i != ch["id"] and i in state["chars"]]
    if crowd and all(o["status"] == "stunned" and pick_up_problem(board, state, after, o) is None for o in crowd):
        return None
    if _can_get_clear(board, state, after, set()):
        return None
    return (f"{ch['name']} could not leave {to} again (MP or steps left), and no hex may hold two living "
            "characters at the end of movement")


def _stepped(board: Board, ch: Char, to: str, cost: int) -> Char:
    """A copy of ``ch`` as it would stand after stepping into ``to`` for ``cost`` MP."""
    after = dict(ch, mp=ch["mp"] - cost, steps=ch.get("steps", 0) + 1)
    if ch.get("mounted"):
        _, after["hex"], after["front"] = rider_step(board, ch, to)  # type: ignore[misc]
    else:
        after["hex"] = to
    return after


def _alone(state: State, ch: Char) -> bool:
    occ = living_at(state)
    return all(i == ch["id"] for h in hexes_of(ch) for i in occ.get(h, []))


def _can_get_clear(board: Board, state: State, ch: Char, seen: set[tuple[str, str, int]]) -> bool:
    """Can ``ch`` (a position copy) reach, step by step, a hex where he stands alone?"""
    key = (ch["hex"], str(ch.get("front")), ch["mp"])
    if key in seen:
        return False
    seen.add(key)
    for to, cost in _reachable_steps(board, state, ch).items():
        after = _stepped(board, ch, to, cost)
        if _alone(state, after) or _can_get_clear(board, state, after, seen):
            return True
    return False


def stuck_stacks(board: Board, state: State) -> list[str]:
    """Crowded hexes (rule 2.6) that no move can clear any more: none of the phasing characters
    there has a step left (a defensive-fire result or an infiltration wound stopped him while he was
    passing through a friend's hex)."""
    occ = living_at(state)
    return [h for h in stacking_problems(state)
            if not any(step_options(board, state, state["chars"][i]) for i in occ[h] if i in state["chars"])]


def _reachable_steps(board: Board, state: State, ch: Char, ships: dict[str, tuple[str, int]] | None = None,
                     occ: dict[str, list[str]] | None = None) -> dict[str, int]:
    """Adjacent destinations and their MP cost, within the MP and the move cap, stacking aside.
    ``ships`` and ``occ`` (:func:`fleet.ship_hexes`, :func:`living_at`) may be given by a search
    asking about many positions of one state."""
    out: dict[str, int] = {}
    if not can_act(state, ch) or ch["mp"] <= 0 or capped(ch):
        return out
    ships = fleet.ship_hexes(board, state) if ships is None else ships
    occ = living_at(state) if occ is None else occ
    origin = front_hex(ch)
    cands = set(board.neighbours(origin))
    if ch.get("mounted"):
        cands |= set(board.neighbours(ch["hex"]))
        cands -= {ch["hex"], ch["front"]}
    for to in cands:
        try:
            cost = _cost(board, state, ch, to, ships, occ)
        except Blocked:
            continue
        if cost <= ch["mp"]:
            out[to] = cost
    return out


def _occupied(state: State, ch: Char, to: str, occ: dict[str, list[str]]) -> None:
    """Raise Blocked if a horse or an able enemy stands in ``to`` (rule 2.51)."""
    for pid in occ.get(to, []):
        other = state["chars"].get(pid)
        if other is None:
            raise Blocked(f"a horse stands in {to}", "VK 2.51")
        if other["side"] != ch["side"] and other["status"] != "stunned":
            raise Blocked(f"{other['name']} (enemy) stands in {to}", "VK 2.51")


def foot_range(board: Board, state: State, ch: Char) -> Reachable:
    """Cheapest MP to every hex a character on foot can reach with the MP he has left (rule 2.5),
    by :func:`simulator.geometry.hexmove.reachable` with the game's step cost as the hexside rule."""
    ships = fleet.ship_hexes(board, state)
    occ = living_at(state)

    def rule(a: str, b: str) -> float | None:
        if a != ch["hex"] and animals.at(state, a):
            return None          # no passing through a goat's or pig's hex (rule 5.5.3)
        try:
            _occupied(state, ch, b, occ)
            return float(step_cost(board, state, ch, a, b, False, ships))
        except Blocked:
            return None

    return reachable(board.movemap, ch["hex"], entry_cost=0.0, hexside_rule=rule, budget=ch["mp"])


def _cost(board: Board, state: State, ch: Char, to: str, ships: dict[str, tuple[str, int]],
          occ: dict[str, list[str]]) -> int:
    _occupied(state, ch, to, occ)
    if ch.get("mounted"):
        rs = rider_step(board, ch, to)
        if rs is None:
            raise Blocked(f"{to} is not next to the rider's counter", "VK 2.55")
        extra, _, _ = rs
        src = ch["front"] if extra == AHEAD else ch["hex"]
        return step_cost(board, state, ch, src, to, True, ships) + extra
    if to not in board.neighbours(ch["hex"]):
        raise Blocked(f"{to} is not adjacent to {ch['hex']}", "VK 2.5")
    return step_cost(board, state, ch, ch["hex"], to, False, ships)


def move(board: Board, state: State, ctx: Context, ch: Char, to: str) -> None:
    """One step of ``ch`` into ``to`` (raises IllegalAction)."""
    if not can_act(state, ch):
        why = "stunned" if ch["status"] == "stunned" else "in a shield wall" if ch.get("wall") else \
            "busy this turn" if ch.get("busy") else "not yours to move now"
        raise IllegalAction(f"{ch['name']} cannot move: {why}", "VK 2.5")
    ships = fleet.ship_hexes(board, state)
    try:
        cost = _cost(board, state, ch, to, ships, living_at(state))
    except Blocked as b:
        raise IllegalAction(b.reason, b.rule) from None
    cap = ch.get("move_cap")
    if cost > ch["mp"]:
        raise IllegalAction(f"{ch['name']} has {ch['mp']} MP left; entering {to} costs {cost}", "VK 2.5")
    if cap is not None and ch.get("steps", 0) >= cap:
        raise IllegalAction(f"{ch['name']} may move only {cap} hex(es) this turn after being shot at", "VK 8.2")
    why = entry_problem(board, state, ch, to, cost)
    if why:
        raise IllegalAction(why, "VK 2.6")
    from simulator.games.vikings import shipwork
    why = shipwork.carry_problem(state, ch, ships.get(to))
    if why:
        raise IllegalAction(why, "VK 4.66")
    leaving = front_hex(ch)
    if ch.get("steps", 0) > 0:
        _infiltration(board, state, ctx, ch, leaving, ships)
        if not alive(ch):
            return
    ch["mp"] -= cost
    ch["steps"] = ch.get("steps", 0) + 1
    old_hexes = hexes_of(ch)
    if ch.get("mounted"):
        _, rear, front = rider_step(board, ch, to)  # type: ignore[misc]
        ch["hex"], ch["front"] = rear, front
    else:
        ch["hex"] = to
    landed = ships.get(ch["hex"])
    if landed is not None:
        if ch.get("ship") != landed[0]:
            ch["duty"] = None
        ch["ship"], ch["slot"] = landed
    else:
        ch["ship"] = ch["slot"] = ch["duty"] = None
    ctx.emit("move", f"{ch['name']} moves to {to} ({cost} MP, {ch['mp']} left)", "VK 2.5",
             pieces=[ch["id"]], to=to, cost=cost)
    horses.follow(board, state, ctx, ch, old_hexes)
    animals.follow(board, state, ctx, ch, old_hexes)
    shipwork.follow_carrier(state, ch)
    treasure.entered(state, ctx, ch)
    beast = animals.at(state, to)
    if beast is not None and not any(a["id"] == beast["id"] for a in animals.led(state, ch["id"])):
        ch["mp"] = 0
        ctx.emit("move", f"{ch['name']} stops in the hex of the {beast['kind']} {beast['id']} (no passing through)",
                 animals.RULE, pieces=[ch["id"], beast["id"]])


def half_turn(board: Board, state: State, ctx: Context, ch: Char) -> None:
    """A rider turns about on the spot for 3 MP (rule 2.55)."""
    if not ch.get("mounted") or not can_act(state, ch):
        raise IllegalAction("only a rider who can move may turn about", "VK 2.55")
    if ch["mp"] < 3:
        raise IllegalAction("turning about costs 3 MP", "VK 2.55")
    ch["mp"] -= 3
    ch["hex"], ch["front"] = ch["front"], ch["hex"]
    ctx.emit("move", f"{ch['name']} turns about (3 MP)", "VK 2.55", pieces=[ch["id"]])


def _threatens(board: Board, enemy: Char, hex_: str, ships: dict[str, tuple[str, int]]) -> bool:
    """Could ``enemy`` attack a character in ``hex_`` (rule 2.54: in a position to attack)?"""
    if not active(enemy) or enemy.get("wall"):
        return False
    for h in hexes_of(enemy):
        if hex_ in board.neighbours(h):
            feat = board.feature(h, hex_)
            if feat in ("wall", "arrow_slit", "window"):
                continue
            if hex_ in ships and (h not in ships or ships[h][0] != ships[hex_][0]):
                continue   # passing a boat hex: only enemies on that boat can stop you (rules 2.54.2, 4.84)
            return True
    return False


def _infiltration(board: Board, state: State, ctx: Context, ch: Char, hex_: str,
                  ships: dict[str, tuple[str, int]], after_combat: bool = False) -> None:
    """Roll table 8.9 once for each enemy able to attack the hex the character passes through.

    ``after_combat``: a retreat or an advance after combat; enemies who took part in a combat
    this phase then cause no roll (rule 2.54 item 4, note to table 8.8).
    """
    t = tables()["infiltration"]
    for enemy in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if enemy["side"] == ch["side"] or not _threatens(board, enemy, hex_, ships):
            continue
        if after_combat and enemy.get("engaged"):
            continue
        mod = _mod(ch, t["mover"]) + _mod(enemy, t["blocker"])
        die = ctx.dice.d10(f"infiltration of {ch['name']} past {enemy['name']}")
        total = die + mod
        text = f"{ch['name']} slips past {enemy['name']} at {hex_}: {die}{mod:+d} = {total}"
        if total >= t["killed_from"]:
            ctx.emit("infiltration", text + ": killed", "VK 2.54", pieces=[ch["id"], enemy["id"]])
            effects.kill(board, state, ch, ctx, "cut down while infiltrating", "VK 2.54")
            return
        if total >= t["wounded_from"]:
            ctx.emit("infiltration", text + ": wounded", "VK 2.54", pieces=[ch["id"], enemy["id"]])
            effects.wound(board, state, ch, ctx, "hit while infiltrating", "VK 2.54")
            if not alive(ch):
                return
            _, _, m = values(ch)
            ch["mp"] = min(ch["mp"], m)
        else:
            ctx.emit("infiltration", text + ": no harm", "VK 2.54", pieces=[ch["id"], enemy["id"]])


def _mod(ch: Char, table: dict[str, int]) -> int:
    rider, arm = bool(ch.get("mounted")), armoured(ch)
    mod = table["armoured_rider"] if rider and arm else table["rider"] if rider else table["armoured"] if arm else 0
    if ch["status"] == "wounded":
        mod += table["wounded"]
    return mod


def stacking_problems(state: State) -> list[str]:
    """Hexes holding more than one living character (rule 2.6)."""
    return sorted(h for h, ids in living_at(state).items() if len(ids) > 1)


def mount(board: Board, state: State, ctx: Context, ch: Char, horse_id: str, front: str) -> None:
    """Mount an adjacent riderless horse (rule 2.56): costs 2 (light) or 3 (armoured) MP on foot;
    the MP left are doubled."""
    horse = state["horses"].get(horse_id)
    if horse is None or not horse["alive"]:
        raise IllegalAction(f"no living horse {horse_id!r}", "VK 2.56")
    if not can_act(state, ch) or ch.get("mounted"):
        raise IllegalAction(f"{ch['name']} cannot mount now", "VK 2.56")
    from simulator.games.vikings.pieces import ctype
    if not ctype(ch).horse:
        raise IllegalAction("only riders (characters with mounted counters) may mount a horse", "VK 2.56")
    if ch.get("ship"):
        raise IllegalAction("nobody rides aboard a boat", "VK 2.51")
    if treasure.carried_by(state, ch["id"]):
        raise IllegalAction(f"{ch['name']} drags a treasure: riders do not carry one (lay it down first)",
                            treasure.RULE)
    hh = (horse["hex"], horse["front"])
    if not any(h in board.neighbours(ch["hex"]) for h in hh):
        raise IllegalAction("the character must stand next to the horse", "VK 2.56")
    for pos in (ch["hex"], *hh):
        if any(_threatens(board, e, pos, {}) for e in state["chars"].values() if e["side"] != ch["side"]):
            raise IllegalAction("an enemy able to attack is next to the rider or the horse", "VK 2.56")
    cost = 3 if armoured(ch) else 2
    if ch["mp"] < cost:
        raise IllegalAction(f"mounting costs {cost} MP; {ch['name']} has {ch['mp']}", "VK 2.56")
    if front not in hh:
        raise IllegalAction("the front of the mounted counter must be one of the horse's hexes", "VK 2.56")
    rear = hh[0] if front == hh[1] else hh[1]
    del state["horses"][horse_id]
    ch["mounted"] = True
    ch["hex"], ch["front"] = rear, front
    ch["mp"] = (ch["mp"] - cost) * 2
    ctx.emit("mount", f"{ch['name']} mounts ({cost} MP; {ch['mp']} MP left on horseback)", "VK 2.56",
             pieces=[ch["id"]])


def dismount(board: Board, state: State, ctx: Context, ch: Char, to: str) -> None:
    """Dismount into an empty adjacent hex (rule 2.56): MP left are halved, quartered if wounded."""
    if not ch.get("mounted") or not can_act(state, ch):
        raise IllegalAction(f"{ch['name']} is not a rider able to act", "VK 2.56")
    cost = 3 if armoured(ch) else 2
    if ch["mp"] < cost:
        raise IllegalAction(f"dismounting costs {cost} MP; {ch['name']} has {ch['mp']}", "VK 2.56")
    if to not in board.neighbours(ch["hex"]) + board.neighbours(ch["front"]) or to in (ch["hex"], ch["front"]):
        raise IllegalAction(f"{to} is not next to the horse", "VK 2.56")
    if living_at(state).get(to):
        raise IllegalAction(f"{to} is not empty", "VK 2.56")
    src = ch["front"] if to in board.neighbours(ch["front"]) else ch["hex"]
    try:
        step_cost(board, state, ch, src, to, False, fleet.ship_hexes(board, state))
    except Blocked as b:
        raise IllegalAction(b.reason, b.rule) from None
    left = (ch["mp"] - cost) // (4 if ch["status"] == "wounded" else 2)
    hid = f"horse_{ch['id']}"
    state["horses"][hid] = {"id": hid, "owner": ch["id"], "side": ch["side"], "hex": ch["hex"],
                            "front": ch["front"], "alive": True}
    ch["mounted"], ch["front"], ch["hex"], ch["mp"] = False, None, to, left
    ctx.emit("dismount", f"{ch['name']} dismounts to {to} ({left} MP left on foot)", "VK 2.56",
             pieces=[ch["id"], hid])


def pick_up_problem(board: Board, state: State, ch: Char, other: Char) -> str | None:
    """Why ``ch`` may not take ``other`` on his back now (rule 2.53; None: he may). The rule says a
    stunned character, friend or enemy alike (an enemy is carried off as a prisoner); it forbids the
    lift with an enemy in a position to attack or in a hex next to the carrier (any hexside; our
    reading: an enemy able to act, the stunned cannot)."""
    if not can_act(state, ch) or ch.get("mounted") or ch.get("carrying") or ch["mp"] <= 0:
        return f"{ch['name']} cannot carry anyone now (an able character on foot with MP left, hands free)"
    if treasure.carried_by(state, ch["id"]) or any(g.get("carried_by") == ch["id"] for g in state["grapples"].values()):
        return f"{ch['name']} already carries something"
    if other["id"] == ch["id"] or other["status"] != "stunned" or other.get("hex") != ch["hex"]:
        return f"{other['name']} is not a stunned character in {ch['name']}'s hex"
    if _enemy_near(board, state, ch):
        return "an enemy able to attack is next to the carrier"
    near = [e for e in state["chars"].values() if e["side"] != ch["side"] and active(e) and e.get("hex")
            and any(board.grid.adjacent(h, ch["hex"]) for h in hexes_of(e))]
    if near:
        return f"{near[0]['name']} (enemy) stands next to {ch['name']}"
    return None


def pick_up(board: Board, state: State, ctx: Context, ch: Char, other: Char) -> None:
    """Take a stunned character on one's back in the hex one stands in: MP left halved (rule 2.53)."""
    why = pick_up_problem(board, state, ch, other)
    if why:
        raise IllegalAction(why, "VK 2.53")
    ch["carrying"] = other["id"]
    other["hex"] = None
    other["carried_by"] = ch["id"]
    ch["mp"] //= 2
    ctx.emit("carry", f"{ch['name']} lifts {other['name']} onto his back ({ch['mp']} MP left)", "VK 2.53",
             pieces=[ch["id"], other["id"]])


def put_down_hexes(board: Board, state: State, ch: Char) -> list[str]:
    """Empty hexes next to a carrier where he may lay his load down (rule 2.53): land and boat hexes
    first, water last (our ruling: nobody is dropped into the sea while dry ground is free)."""
    occ = living_at(state)
    ships = fleet.ship_hexes(board, state)
    free = [h for h in board.neighbours(ch["hex"]) if not occ.get(h)
            and board.feature(ch["hex"], h) not in ("wall", "window", "arrow_slit")]
    return sorted(free, key=lambda h: (board.is_water(h) and h not in ships, h))


def put_down(board: Board, state: State, ctx: Context, ch: Char, to: str) -> None:
    """Lay the carried character in an adjacent empty hex (rule 2.53)."""
    cid = ch.get("carrying")
    if not cid:
        raise IllegalAction(f"{ch['name']} carries nobody", "VK 2.53")
    if to not in put_down_hexes(board, state, ch):
        raise IllegalAction(f"{to} is not an empty hex next to {ch['name']} (not across a wall or window)",
                            "VK 2.53")
    other = state["chars"][cid]
    other["hex"] = to
    other["carried_by"] = None
    landed = fleet.ship_hexes(board, state).get(to)
    other["ship"], other["slot"] = landed if landed else (None, None)
    ch["carrying"] = None
    ch["mp"] = 0
    ctx.emit("carry", f"{ch['name']} lays {other['name']} down in {to}", "VK 2.53", pieces=[ch["id"], cid])


def _enemy_near(board: Board, state: State, ch: Char) -> bool:
    ships = fleet.ship_hexes(board, state)
    return any(_threatens(board, e, h, ships) for e in state["chars"].values() if e["side"] != ch["side"]
               for h in hexes_of(ch))


def clear_bodies(board: Board, state: State, ctx: Context, a: Char, b: Char, src: str, to: str) -> None:
    """Two characters on foot drag 3 bodies (or a dead horse) one hex; they do nothing else this
    turn (rule 2.52). Bodies dragged into water sink."""
    for ch in (a, b):
        if not can_act(state, ch) or ch.get("mounted") or ch.get("steps", 0) or ch.get("fired"):
            raise IllegalAction(f"{ch['name']} must be on foot and not have moved or shot this turn", "VK 2.52")
        if src not in (ch["hex"], *board.neighbours(ch["hex"])):
            raise IllegalAction(f"{ch['name']} is not at or next to {src}", "VK 2.52")
        if _enemy_near(board, state, ch):
            raise IllegalAction(f"an enemy able to attack is next to {ch['name']}", "VK 2.52")
    if a["id"] == b["id"]:
        raise IllegalAction("it takes two characters", "VK 2.52")
    if to not in board.neighbours(src):
        raise IllegalAction(f"{to} is not next to {src}", "VK 2.52")
    dead = sorted((c for c in state["chars"].values() if c["status"] == "dead" and c.get("hex") == src),
                  key=lambda c: c["id"])[:3]
    horses = [h for h in state["horses"].values() if not h["alive"] and src in (h["hex"], h["front"])]
    if not dead and not horses:
        raise IllegalAction(f"there are no bodies in {src}", "VK 2.52")
    sink = board.is_water(to)
    if horses:
        horse = horses[0]
        if sink:
            del state["horses"][horse["id"]]
        else:
            horse["hex"] = horse["front"] = to
        moved = "a dead horse"
    else:
        for c in dead:
            c["hex"] = None if sink else to
        moved = f"{len(dead)} bodies"
    for ch in (a, b):
        ch["busy"] = True
        ch["mp"] = 0
    ctx.emit("clear", f"{a['name']} and {b['name']} drag {moved} from {src} to {to}"
             + (" where they sink" if sink else ""), "VK 2.52", pieces=[a["id"], b["id"]])


def help_aboard(board: Board, state: State, ctx: Context | None, helper: Char, helped: Char, to: str,
                dry: bool = False) -> None:
    """Rule 4.83.1: a friend who has not moved, next to both, hauls a character short of MP onto a
    boat hex; the helped character ends his move there and the helper does not move this phase
    (the digest's reading of the benefit)."""
    rule = "VK 4.83.1"
    ships = fleet.ship_hexes(board, state)
    for c in (helper, helped):
        if not can_act(state, c) or c.get("mounted"):
            raise IllegalAction(f"{c['name']} cannot act on foot now", rule)
    if helper["id"] == helped["id"]:
        raise IllegalAction("nobody helps himself aboard", rule)
    if helper.get("steps", 0) or helper["mp"] < values(helper)[2]:
        raise IllegalAction(f"{helper['name']} has already moved this phase", rule)
    if helped["status"] == "wounded":
        raise IllegalAction(f"{helped['name']} is wounded: he cannot be helped aboard", rule)
    if to not in ships:
        raise IllegalAction(f"{to} is not a boat hex", rule)
    if not (board.grid.adjacent(helper["hex"], helped["hex"]) and board.grid.adjacent(helper["hex"], to)
            and board.grid.adjacent(helped["hex"], to)):
        raise IllegalAction("the helper must stand next to the character and to the boat hex", rule)
    if _enemy_near(board, state, helper):
        raise IllegalAction(f"an enemy able to attack is next to {helper['name']}", rule)
    sid = ships[to][0]
    near = set(board.neighbours(to))
    if any(e["side"] != helper["side"] and active(e) and e.get("ship") == sid and e["hex"] in near
           for e in state["chars"].values()):
        raise IllegalAction("an enemy aboard stands next to the boat hex", rule)
    if living_at(state).get(to):
        raise IllegalAction(f"{to} is not empty", "VK 2.6")
    try:
        cost = _cost(board, state, helped, to, ships, living_at(state))
    except Blocked as b:
        raise IllegalAction(b.reason, b.rule) from None
    if cost <= helped["mp"]:
        raise IllegalAction(f"{helped['name']} has the {cost} MP to climb aboard himself", rule)
    if dry:
        return
    helped["hex"] = to
    helped["ship"], helped["slot"] = ships[to]
    helped["duty"] = None
    helped["mp"] = 0
    helped["steps"] = helped.get("steps", 0) + 1
    helper["mp"] = 0
    assert ctx is not None
    ctx.emit("help_aboard", f"{helper['name']} helps {helped['name']} aboard at {to}", rule,
             pieces=[helper["id"], helped["id"]])


def help_options(board: Board, state: State) -> list[tuple[str, str, str]]:
    """(helper, helped, boat hex) for every legal ``help_aboard`` now (rule 4.83.1)."""
    ships = fleet.ship_hexes(board, state)
    out = []
    chars = sorted(state["chars"].values(), key=lambda c: c["id"])
    for helper in chars:
        if not can_act(state, helper) or helper.get("steps", 0) or helper.get("mounted"):
            continue
        near = set(board.neighbours(helper["hex"]))
        decks = sorted(h for h in near if h in ships)
        if not decks:
            continue
        for helped in chars:
            if helped is helper or helped["side"] != helper["side"] or helped.get("hex") not in near:
                continue
            for to in decks:
                if ships.get(helped["hex"], (None,))[0] == ships[to][0]:
                    continue
                try:
                    help_aboard(board, state, None, helper, helped, to, dry=True)
                except IllegalAction:
                    continue
                out.append((helper["id"], helped["id"], to))
    return out
