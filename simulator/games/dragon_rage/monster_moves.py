"""Major monsters on the move (DR 2.12.1.1-2.12.1.4, 2.4.7): walk, slither, bound, fly,
land, crash, deliberate fall, overrun, smashing entrances and ravaging VP hexes.

A monster uses one movement mode per turn. Walking costs 1 MP per hex plus 1 MP per extra
60-degree turn (one free turn before each hex); slithering is one hex ahead or one turn;
a bound is an optional turn and 1-3 hexes straight on; flight is straight legs of at least
two hexes joined by 60-degree turns.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.arrival import entered_hex
from simulator.games.dragon_rage.board import Board, board_for
from simulator.games.dragon_rage.combat import crt_attack, hex_defence
from simulator.games.dragon_rage.doors import break_door_toward, break_faced_door, breaks_doors, closed_door
from simulator.games.dragon_rage.stacking import BLOCKED, FREE, PASS, on_deck, status_among
from simulator.games.dragon_rage.terrain_rules import entrance_block, monster_land_block, step_block, water_for
from simulator.games.dragon_rage.units import State, Unit, ground_units_at, is_character, is_hero, spec, units_at
from simulator.games.dragon_rage.victory import destroy_vp
from simulator.geometry.hexmove import reachable_with_facing

TURN_RULE = "DR 2.12.1.1.1"


def turn_steps(a: int, b: int) -> int:
    d = abs(a - b) % 6
    return min(d, 6 - d)


def in_fog(state: State, hex_: str) -> bool:
    board = board_for(state["map"])
    return any(board.distance(f["centre"], hex_) <= f["radius"] for f in state["fog"])


def whirl_at(state: State, hex_: str) -> bool:
    return any(w["hex"] == hex_ for w in state["whirlwinds"])


def _mode(unit: Unit, mode: str, rule: str) -> None:
    if unit.get("offmap"):
        raise IllegalAction(f"{unit['id']} is off the map: bring it in with 'enter' first", "DR 3.2.1")
    if unit["mode"] not in (None, mode):
        raise IllegalAction(f"{unit['id']} already used the {unit['mode']} mode this turn: one mode per turn",
                            "DR 2.12.1.1")
    if unit["flying"] and mode not in ("fly",):
        raise IllegalAction(f"{unit['id']} is in flight: it may only fly or land", rule)
    unit["mode"] = mode


def walk_mp_left(unit: Unit) -> int:
    return body.walk_mp(unit) - unit["mp_used"]


def walk_step_cost(state: State, unit: Unit, to: str) -> tuple[int, int]:
    """(MP cost, new facing) of walking one hex into ``to`` (DR 2.12.1.1.1, 2.8.7)."""
    board = board_for(state["map"])
    d = board.direction(unit["hex"], to)
    if d is None:
        raise IllegalAction(f"{to} is not next to {unit['hex']}: a walk goes hex by hex", TURN_RULE)
    cost = 1 + max(0, turn_steps(unit["facing"], d) - 1)
    if whirl_at(state, to):
        cost += 1
    if whirl_at(state, unit["hex"]):
        cost += 1
    return cost, d


def walk_block(state: State, board: Board, unit: Unit, a: str, b: str) -> tuple[str, str] | None:
    """:func:`step_block` for a walking monster: a closed door is no obstacle to an invader's major
    monster, which breaks it by turning to face it (DR 2.5.5.1)."""
    block = step_block(state, board, unit, a, b)
    if block is not None and breaks_doors(unit) and closed_door(state, board, a, b) is not None and \
            block == entrance_block(state, board, unit, a, b):
        return None
    return block


def walk_occupants(state: State, board: Board, unit: Unit, hex_: str) -> tuple[str, tuple[str, str] | None]:
    """How a walking major monster may treat the units standing in ``hex_`` (DR 2.4.3, 2.4.7), the
    one answer :func:`walk_reach` (the hexes offered) and :func:`walk` (the move enforced) share:
    ``(FREE, None)``: as if empty (nobody, or only units it ignores: a serpent under a bridge, a lone
    elemental); ``(PASS, None)``: enemies it may overrun (pass, or stop with an overrun attack);
    ``(BLOCKED, (reason, rule))`` otherwise."""
    others = on_deck(board.terrain[hex_], unit, [u for u in ground_units_at(state, hex_) if u["id"] != unit["id"]])
    status = status_among(unit, others, in_tower=hex_ in board.towers)
    if status in (FREE, PASS):
        return status, None
    if any(u["side"] == unit["side"] for u in others):
        return BLOCKED, (f"{hex_} holds friendly units: a monster enters an occupied hex only by overrun", "DR 2.4.3")
    return BLOCKED, (f"{unit['id']} may not overrun into {hex_} (no overrun for this monster or inside a tower)",
                     "DR 2.4.7")


def can_walk_now(unit: Unit) -> bool:
    """On the map, grounded, walking (or no mode yet) and with a leg group left."""
    return unit["hex"] is not None and not unit.get("offmap") and not unit.get("flying") and \
        unit["mode"] in (None, "walk") and body.walk_mp(unit) > 0 and \
        (not unit.get("berserk") or bool(unit.get("auto")))


def walk_reach(state: State, unit: Unit) -> dict[str, tuple[int, list[str], bool]]:
    """Every hex the monster may walk to now: ``{hex: (MP, path without the start, overrun attack)}``.

    A search over (hex, facing) (:func:`simulator.geometry.hexmove.reachable_with_facing`) with
    the costs of :func:`walk_step_cost`, the terrain of :func:`step_block` and the overrun rules
    (DR 2.4.7): enemy hexes are passed through by overrun movers and may end the walk with an
    overrun attack (+1 MP) when the monster has an overrun factor; friends block.
    """
    if not can_walk_now(unit):
        return {}
    board = board_for(state["map"])
    budget = walk_mp_left(unit)
    if budget <= 0:
        return {}
    from simulator.games.dragon_rage.movement import move_map
    blocked: set[str] = set()
    no_stop: set[str] = set()
    occupied = {u["hex"] for u in state["units"].values()
                if u["alive"] and u["hex"] is not None and not u.get("flying") and u["id"] != unit["id"]}
    for h in occupied:
        status, _ = walk_occupants(state, board, unit, h)
        if status == PASS:
            no_stop.add(h)
        elif status == BLOCKED:
            blocked.add(h)
    whirls = {w["hex"] for w in state["whirlwinds"]}

    def step(a: str, f: int, b: str, d: int) -> float | None:
        if walk_block(state, board, unit, a, b) is not None:
            return None
        return 1 + max(0, turn_steps(f, d) - 1) + (b in whirls) + (a in whirls)

    r = reachable_with_facing(move_map(state["map"]), unit["hex"], unit["facing"], step=step,
                              blocked=blocked, no_stop=no_stop, budget=budget)
    out: dict[str, tuple[int, list[str], bool]] = {}
    for h, c in r.cost.items():
        if h == unit["hex"]:
            continue
        if h in no_stop:
            if spec(unit).get("overrun_cf") and c + 1 <= budget:
                out[h] = (int(c) + 1, r.path_to(h)[1:], True)
            continue
        out[h] = (int(c), r.path_to(h)[1:], False)
    return out


def spent_mp_in_hex(state: State, ctx: Context, unit: Unit, mp: int, how: str) -> None:
    """A grounded invader monster that spends a further MP in a VP hex, in any way (turning in
    place, an extra turn before it walks on, MP spent on a gate, or ``ravage``), destroys it
    (DR 2.3), as long as no enemy holds the hex (digest Q-VP-2)."""
    hex_ = unit["hex"]
    if mp <= 0 or hex_ is None or unit["flying"] or unit["side"] != "invader" or state["active"] != "invader":
        return
    if hex_ not in board_for(state["map"]).vp or hex_ in state["vp"]["destroyed"]:
        return
    if any(u["side"] != unit["side"] for u in ground_units_at(state, hex_)):
        return
    destroy_vp(state, ctx, hex_, f"{unit['id']} spending {mp} MP in it ({how})", "DR 2.3", [unit["id"]])


def walk(state: State, ctx: Context, unit: Unit, path: list[Any]) -> None:
    """Walk along ``path`` (adjacent hexes, start excluded). Enemy hexes on the way are overrun
    moves; an enemy hex at the end is an overrun attack (+1 MP, DR 2.4.7.2)."""
    board = board_for(state["map"])
    if not path or not all(isinstance(h, str) for h in path):
        raise IllegalAction("walk needs 'path': the hexes entered, in order", TURN_RULE)
    _mode(unit, "walk", TURN_RULE)
    if body.walk_mp(unit) == 0:
        raise IllegalAction(f"{unit['id']} has no leg group left and cannot walk", "DR 2.12.1.7.3")
    break_faced_door(state, ctx, unit)
    for i, to in enumerate(path):
        last = i == len(path) - 1
        cost, d = walk_step_cost(state, unit, to)
        block = walk_block(state, board, unit, unit["hex"], to)
        if block:
            raise IllegalAction(block[0], block[1])
        status, why = walk_occupants(state, board, unit, to)
        if why is not None:
            raise IllegalAction(*why)
        enemies = status == PASS
        overrun_attack = False
        if enemies:
            if last:
                if not spec(unit).get("overrun_cf"):
                    raise IllegalAction(f"{unit['id']} may pass through enemies but not stop on them "
                                        "(no overrun attack)", "DR 2.4.7.1")
                overrun_attack = True
                cost += 1
        if unit["mp_used"] + cost > body.walk_mp(unit):
            raise IllegalAction(f"{unit['id']} needs {cost} MP to enter {to} and has {walk_mp_left(unit)} left",
                                TURN_RULE)
        if enemies and not last and unit["mp_used"] + cost >= body.walk_mp(unit):
            raise IllegalAction(f"an overrun move may not stop in {to}", "DR 2.4.7.1")
        unit["mp_used"] += cost
        # an extra turn before leaving is MP spent in the hex it stands in (DR 2.3)
        spent_mp_in_hex(state, ctx, unit, max(0, turn_steps(unit["facing"], d) - 1), "turning before it walks on")
        break_door_toward(state, ctx, unit, to, f"{unit['id']} turns to face it and walks through")
        unit["facing"] = d
        came_from = unit["hex"]
        unit["hex"] = to
        unit["moved"] = True
        _left_hex(state, ctx, unit, came_from)
        ctx.emit("walk", f"{unit['id']} walks {came_from} -> {to} ({cost} MP, facing "
                         f"{board.grid.directions[d]})", TURN_RULE, pieces=[unit["id"]], cost=cost)
        if overrun_attack:
            overrun(state, ctx, unit, to)
        entered_hex(state, ctx, unit, to)
        break_faced_door(state, ctx, unit)


def overrun(state: State, ctx: Context, unit: Unit, hex_: str) -> None:
    cf = int(spec(unit)["overrun_cf"])
    targets = [u for u in ground_units_at(state, hex_) if u["side"] != unit["side"]]
    unit["overran"] = True
    crt_attack(state, ctx, cf, hex_defence(targets), targets, f"{unit['id']} overruns {hex_}",
               "DR 2.4.7.2", [unit["id"]])


def _left_hex(state: State, ctx: Context, unit: Unit, hex_: str | None) -> None:
    if unit.get("on_broken_bridge") == hex_ and hex_ is not None:
        unit["on_broken_bridge"] = None
        state["bridges"][hex_] = "burned"
        ctx.emit("bridge_burned", f"the broken bridge {hex_} collapses behind {unit['id']}", "DR 2.5.7.2",
                 pieces=[unit["id"]], hex=hex_)


def rotate(state: State, ctx: Context, unit: Unit, facing: Any) -> None:
    """Turn in place: 1 MP per 60 degrees while walking (digest Q-MOV-4)."""
    if not isinstance(facing, int) or not 0 <= facing <= 5:
        raise IllegalAction("facing is a direction index 0-5 (N, NE, SE, S, SW, NW)", "DR 2.4.2")
    _mode(unit, "walk", TURN_RULE)
    steps = turn_steps(unit["facing"], facing)
    if steps == 0:
        raise IllegalAction(f"{unit['id']} already faces that way", "DR 2.4.2")
    if unit["mp_used"] + steps > body.walk_mp(unit):
        raise IllegalAction(f"turning {steps * 60} degrees costs {steps} MP; {walk_mp_left(unit)} left",
                            TURN_RULE)
    unit["mp_used"] += steps
    unit["facing"] = facing
    ctx.emit("rotate", f"{unit['id']} turns to face {board_for(state['map']).grid.directions[facing]} "
                       f"({steps} MP)", TURN_RULE, pieces=[unit["id"]])
    spent_mp_in_hex(state, ctx, unit, steps, "turning in place")
    break_faced_door(state, ctx, unit)


def slither(state: State, ctx: Context, unit: Unit, turn: Any) -> None:
    """One hex straight ahead into an empty hex, or one 60-degree turn (DR 2.12.1.1.2)."""
    rule = "DR 2.12.1.1.2"
    if not spec(unit)["movement"].get("slither"):
        raise IllegalAction(f"a {unit['type']} cannot slither", "DR 2.12.3")
    if unit["mode"] is not None:
        raise IllegalAction("a slither is the whole move of the turn", rule)
    _mode(unit, "slither", rule)
    board = board_for(state["map"])
    if turn in (-1, 1):
        unit["facing"] = (unit["facing"] + turn) % 6
        ctx.emit("slither", f"{unit['id']} slithers round to face {board.grid.directions[unit['facing']]}",
                 rule, pieces=[unit["id"]])
        break_faced_door(state, ctx, unit)
        return
    if turn != 0:
        raise IllegalAction("slither 'turn' is 0 (one hex ahead), -1 or 1 (turn in place)", rule)
    to = board.neighbour(unit["hex"], unit["facing"])
    if to is None:
        raise IllegalAction("the hex ahead is off the map", rule)
    break_faced_door(state, ctx, unit)
    block = step_block(state, board, unit, unit["hex"], to)
    if block:
        raise IllegalAction(block[0], block[1])
    if ground_units_at(state, to):
        raise IllegalAction(f"a slithering monster enters only an empty hex ({to} is occupied)", rule)
    came = unit["hex"]
    unit["hex"] = to
    _left_hex(state, ctx, unit, came)
    ctx.emit("slither", f"{unit['id']} slithers {came} -> {to}", rule, pieces=[unit["id"]])
    destroy_vp(state, ctx, to, f"{unit['id']} slithering in", "DR 2.3", [unit["id"]])
    break_faced_door(state, ctx, unit)


def bound_targets(state: State, unit: Unit) -> list[tuple[str, int, list[str]]]:
    """The (up to 9) bound landings: (hex, facing, hexes on the way incl. the landing)."""
    board = board_for(state["map"])
    reach = int(spec(unit)["movement"].get("bound") or 0)
    out = []
    for turn in (0, -1, 1):
        d = (unit["facing"] + turn) % 6
        h = unit["hex"]
        way: list[str] = []
        for _ in range(reach):
            h = board.neighbour(h, d) if h is not None else None
            if h is None:
                break
            way.append(h)
            out.append((h, d, list(way)))
    return out


def _may_come_down(state: State, unit: Unit, hex_: str, rule: str) -> None:
    board = board_for(state["map"])
    block = monster_land_block(state, board, unit, hex_)
    if block:
        raise IllegalAction(block[0], block[1])
    others = [u for u in ground_units_at(state, hex_) if u["id"] != unit["id"]]
    if any(not (is_character(u) and u["type"] != "elowyn") for u in others):
        raise IllegalAction(f"a monster may land only on an empty hex or on heroes and wizards ({hex_})", rule)
    if in_fog(state, hex_):
        raise IllegalAction(f"no landing in fog ({hex_})", "DR 2.8.6")


def bound(state: State, ctx: Context, unit: Unit, to: Any) -> None:
    rule = "DR 2.12.1.1.3"
    if not spec(unit)["movement"].get("bound"):
        raise IllegalAction(f"a {unit['type']} cannot bound", "DR 2.12.4")
    if unit["mode"] is not None:
        raise IllegalAction("a bound is the whole move of the turn", rule)
    board = board_for(state["map"])
    if not body.wings_intact(unit):
        raise IllegalAction(f"{unit['id']} has lost a wing group and cannot bound", "DR 2.12.1.7.2")
    if not body.legs_allow_bound(unit) and unit["hex"] not in board.towers:
        raise IllegalAction(f"{unit['id']} has lost half its leg groups: it bounds only from a tower",
                            "DR 2.12.1.7.3")
    match = [t for t in bound_targets(state, unit) if t[0] == to]
    if not match:
        raise IllegalAction(f"{to} is not a bound landing: turn at most 60 degrees, then 1-"
                            f"{spec(unit)['movement']['bound']} hexes straight on", rule)
    _, d, way = match[0]
    if in_fog(state, unit["hex"]) or in_fog(state, to):
        raise IllegalAction("a monster may not bound into or out of fog", "DR 2.8.6")
    _may_come_down(state, unit, to, rule)
    _mode(unit, "bound", rule)
    start = unit["hex"]
    unit["facing"] = d
    unit["mp_used"] = 99
    ctx.emit("bound", f"{unit['id']} bounds {start} -> {to}", rule, pieces=[unit["id"]], path=way)
    for h in [start, *way]:
        if whirl_at(state, h):
            unit["hex"] = h
            if whirlwind_crash_roll(state, ctx, unit, h):
                _left_hex(state, ctx, unit, start)
                return
    unit["hex"] = to
    _left_hex(state, ctx, unit, start)
    _came_down(state, ctx, unit, to, rule)
    if unit["alive"]:
        break_faced_door(state, ctx, unit)


def _came_down(state: State, ctx: Context, unit: Unit, hex_: str, rule: str) -> None:
    """Landing from a bound or a flight: VP of an unoccupied hex, wooden bridges (DR 2.3, 2.5.7.2)."""
    if not [u for u in ground_units_at(state, hex_) if u["id"] != unit["id"]]:
        destroy_vp(state, ctx, hex_, f"{unit['id']} landing", "DR 2.3", [unit["id"]])
    if state["bridges"].get(hex_) == "intact":
        state["bridges"][hex_] = "broken"
        unit["on_broken_bridge"] = hex_
        unit["bridge_deadline"] = state["turn"] + 1
        ctx.emit("bridge_broken", f"{unit['id']} wrecks the wooden bridge {hex_}: it must leave on its next "
                                  "move or fall into the river", "DR 2.5.7.2", pieces=[unit["id"]], hex=hex_)


def whirlwind_crash_roll(state: State, ctx: Context, unit: Unit, hex_: str) -> bool:
    """A monster flying or bounding through a whirlwind crashes on 4+ (DR 2.8.7)."""
    roll = ctx.dice.d6(f"whirlwind crash check for {unit['id']}")
    need = 4
    if roll >= need:
        crash(state, ctx, unit, hex_, f"caught by the whirlwind (rolled {roll})")
        return True
    ctx.emit("whirlwind_passed", f"{unit['id']} rides out the whirlwind in {hex_} (rolled {roll})", "DR 2.8.7",
             pieces=[unit["id"]])
    return False


def flight_problem(state: State, unit: Unit, path: list[str]) -> str | None:
    """Why a flight path breaks the flight rules (DR 2.12.1.1.4; digest Q-MOV-3), or None."""
    board = board_for(state["map"])
    limit = int(spec(unit)["movement"].get("fly") or 0)
    if len(path) > limit:
        return f"a {unit['type']} flies at most {limit} hexes"
    facing = unit["facing"]
    prev = unit["hex"]
    legs: list[int] = []
    for h in path:
        d = board.direction(prev, h)
        if d is None:
            return f"{h} is not next to {prev}: a flight goes hex by hex"
        if d == facing and legs:
            legs[-1] += 1
        elif not legs and d == facing:
            legs.append(1)
        elif legs and turn_steps(d, facing) == 1:
            if legs[-1] < 2:
                return "each straight leg before a turn must be at least 2 hexes"
            legs.append(1)
            facing = d
        else:
            return "a flight starts straight ahead and turns only 60 degrees between legs"
        prev = h
    return None


def fly(state: State, ctx: Context, unit: Unit, path: Any, land: bool) -> None:
    rule = "DR 2.12.1.1.4"
    board = board_for(state["map"])
    if not spec(unit)["movement"].get("fly"):
        raise IllegalAction(f"a {unit['type']} cannot fly", "DR 2.12.4")
    if unit["mode"] is not None:
        raise IllegalAction("a flight is the whole move of the turn", rule)
    if not isinstance(path, list) or not path or not all(isinstance(h, str) and h in board for h in path):
        raise IllegalAction("fly needs 'path': the map hexes flown over, in order", rule)
    if not body.wings_intact(unit):
        raise IllegalAction(f"{unit['id']} has lost a wing group and cannot fly", "DR 2.12.1.7.2")
    taking_off = not unit["flying"]
    if taking_off and not body.legs_allow_bound(unit) and unit["hex"] not in board.towers:
        raise IllegalAction(f"{unit['id']} has lost half its leg groups: it takes off only from a tower",
                            "DR 2.12.1.7.3")
    if taking_off and land:
        raise IllegalAction("a monster may take off or land in one movement phase, not both", rule)
    problem = flight_problem(state, unit, path)
    if problem:
        raise IllegalAction(problem, rule)
    if land:
        _may_come_down(state, unit, path[-1], rule)
    _mode(unit, "fly", rule)
    start = unit["hex"]
    unit["flying"] = True
    unit["took_off"] = taking_off
    unit["mp_used"] = 99
    unit["facing"] = board.direction(path[-2] if len(path) > 1 else start, path[-1])
    ctx.emit("fly", f"{unit['id']} {'takes off and ' if taking_off else ''}flies {start} -> {path[-1]}",
             rule, pieces=[unit["id"]], path=path)
    _left_hex(state, ctx, unit, start)
    for h in [start, *path]:
        if whirl_at(state, h) and not (h == start and unit.get("whirl_immune") == h):
            unit["hex"] = h
            if whirlwind_crash_roll(state, ctx, unit, h):
                return
    unit["hex"] = path[-1]
    if land:
        unit["flying"] = False
        unit["landed"] = True
        ctx.emit("land", f"{unit['id']} lands in {path[-1]}", rule, pieces=[unit["id"]])
        _came_down(state, ctx, unit, path[-1], rule)


def land_in_place(state: State, ctx: Context, unit: Unit) -> None:
    rule = "DR 2.12.1.1.4"
    if not unit["flying"]:
        raise IllegalAction(f"{unit['id']} is not in flight", rule)
    if unit["mode"] is not None:
        raise IllegalAction("landing in place is the whole move of the turn", rule)
    _may_come_down(state, unit, unit["hex"], rule)
    _mode(unit, "fly", rule)
    unit["flying"] = False
    unit["landed"] = True
    unit["mp_used"] = 99
    ctx.emit("land", f"{unit['id']} lands where it is, in {unit['hex']}", rule, pieces=[unit["id"]])
    _came_down(state, ctx, unit, unit["hex"], rule)


def jump_off(state: State, ctx: Context, unit: Unit, to: Any) -> None:
    """A dragon on a tower with a wing point left may throw itself down (DR 2.12.1.1.5)."""
    rule = "DR 2.12.1.1.5"
    board = board_for(state["map"])
    if unit["hex"] not in board.towers or unit["flying"]:
        raise IllegalAction("only a monster standing on a tower may throw itself off", rule)
    if body.area_destroyed(unit, "wings"):
        raise IllegalAction("it needs at least one wing point left", rule)
    if unit["mode"] is not None:
        raise IllegalAction("the fall replaces the whole move", rule)
    if not isinstance(to, str) or board.direction(unit["hex"], to) is None:
        raise IllegalAction("fall into an adjacent hex", rule)
    _mode(unit, "fall", rule)
    unit["mp_used"] = 99
    came = unit["hex"]
    unit["facing"] = board.direction(came, to)
    unit["hex"] = to
    _left_hex(state, ctx, unit, came)
    crash(state, ctx, unit, to, "it throws itself off the tower")


def crash(state: State, ctx: Context, unit: Unit, hex_: str, why: str) -> None:
    """The monster falls into ``hex_`` (DR 2.12.1.1.5): damage, drowning, crushed units, VP, bridge."""
    from simulator.games.dragon_rage.casualties import escape_roll, kill_monster, after_damage
    rule = "DR 2.12.1.1.5"
    board = board_for(state["map"])
    unit["flying"] = False
    unit["hex"] = hex_
    ctx.emit("crash", f"{unit['id']} crashes into {hex_}: {why}", rule, pieces=[unit["id"]], hex=hex_)
    if water_for(state, board, hex_) is not None or board.has_water(hex_):
        kill_monster(state, ctx, unit, f"it fell into the water of {hex_}", rule)
        return
    if state["bridges"].get(hex_) in ("intact", "broken"):
        # the crash destroys the wooden bridge (DR 2.12.1.1.5), so the dragon falls into the river
        # beneath it and dies as in any river hex (DR 2.12.1.1.5, 2.5.7.2)
        state["bridges"][hex_] = "burned"
        ctx.emit("bridge_burned", f"the crash destroys the wooden bridge {hex_}", rule, hex=hex_)
        kill_monster(state, ctx, unit, f"the bridge {hex_} gives way and it falls into the river", rule)
        return
    die = str(spec(unit).get("crash_damage", "2d6"))
    points = ctx.dice.d6(f"crash damage of {unit['id']}")
    if die == "2d6":
        points += ctx.dice.d6(f"crash damage of {unit['id']}")
    was = {a: body.area_destroyed(unit, a) for a in unit["damage"]}
    given = body.spread_damage(unit, points, tuple(a for a in ("legs", "wings", "head") if a in unit["damage"]))
    rest = points - sum(given.values())
    if rest > 0:
        body.apply_damage(unit, "belly", rest)
        given["belly"] = rest
    ctx.emit("monster_damaged", f"{unit['id']} takes {points} crash damage "
                                f"({', '.join(f'{a} {n}' for a, n in given.items())})", rule,
             pieces=[unit["id"]], points=points)
    for other in units_at(state, hex_):
        if other["id"] != unit["id"] and not other.get("flying"):
            escape_roll(state, ctx, other, 0, f"{unit['id']} crashes on it", rule)
    destroy_vp(state, ctx, hex_, f"{unit['id']} crashing", rule, [unit["id"]])
    if state["bridges"].get(hex_) in ("intact", "broken"):
        state["bridges"][hex_] = "burned"
        ctx.emit("bridge_burned", f"the crash destroys the wooden bridge {hex_}", rule, hex=hex_)
    after_damage(state, ctx, unit, was, False)


def enter_map(state: State, ctx: Context, unit: Unit, to: Any, facing: Any) -> None:
    """A monster waiting off the map walks onto an entry hex (digest §15.3: 1 MP, facing chosen)."""
    rule = "DR 3.2.1"
    if not unit.get("offmap"):
        raise IllegalAction(f"{unit['id']} is already on the map", rule)
    if to not in unit.get("entry", []):
        raise IllegalAction(f"{unit['id']} enters only through {', '.join(unit.get('entry', []))}", rule)
    if not isinstance(facing, int) or not 0 <= facing <= 5:
        raise IllegalAction("facing is a direction index 0-5", "DR 2.4.2")
    board = board_for(state["map"])
    block = monster_land_block(state, board, unit, to)
    if block:
        raise IllegalAction(block[0], block[1])
    if ground_units_at(state, to):
        raise IllegalAction(f"{to} is occupied", "DR 2.4.3")
    if unit["mode"] not in (None, "walk") or body.walk_mp(unit) < 1:
        raise IllegalAction(f"{unit['id']} cannot walk onto the map", TURN_RULE)
    unit["mode"] = "walk"
    unit["offmap"] = False
    unit["hex"] = to
    unit["facing"] = facing
    unit["mp_used"] += 1
    unit["moved"] = True
    ctx.emit("enter", f"{unit['id']} enters the map at {to}", rule, pieces=[unit["id"]])
    break_faced_door(state, ctx, unit)


def ravage(state: State, ctx: Context, unit: Unit) -> None:
    """Spend 1 MP in a VP hex the monster walked into (DR 2.3; digest Q-VP-1, Q-VP-2)."""
    rule = "DR 2.3"
    if unit["flying"]:
        raise IllegalAction("a flying monster destroys VP hexes only by landing or fire", rule)
    hex_ = unit["hex"]
    if hex_ not in board_for(state["map"]).vp or hex_ in state["vp"]["destroyed"]:
        raise IllegalAction(f"{hex_} is not an intact VP hex", rule)
    if any(u["side"] != unit["side"] for u in ground_units_at(state, hex_)):
        raise IllegalAction(f"enemy units still hold {hex_}", rule)
    _mode(unit, "walk", rule)
    if unit["mp_used"] + 1 > body.walk_mp(unit):
        raise IllegalAction("it needs 1 MP left to spend in the hex", rule)
    unit["mp_used"] += 1
    spent_mp_in_hex(state, ctx, unit, 1, "ravaging it")
