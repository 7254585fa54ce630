"""Missile fire: line of fire, cover, range, the two result tables (rules 2.3-2.4, tables 8.1-8.2).

The line of fire runs centre to centre (rule 2.31); ``simulator.geometry.hexlos.hex_los`` walks
it. The rulebook says nothing of lines running exactly along a hexside or through a vertex; our
ruling: the shooter may use either side, so an ambiguous step blocks only when both of its
alternatives are blocked, and the target gets the better cover of the clear ways into its hex.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.vikings import effects, fleet
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import tables
from simulator.games.vikings.pieces import Char, active, alive, armoured, front_hex, hexes_of, values
from simulator.games.vikings.terrain_rules import base_cover
from simulator.geometry.hexgrid import Hexside
from simulator.geometry.hexlos import hex_los

State = dict[str, Any]
COVERS = ("none", "light", "medium", "strong")


@dataclass
class Sight:
    clear: bool
    reason: str
    rule: str
    cover: str = "none"
    blockers: list[Any] = field(default_factory=list)


def _better(a: str, b: str) -> str:
    return a if COVERS.index(a) >= COVERS.index(b) else b


def line_of_fire(board: Board, state: State, src: str, dst: str, shooter: Char | None = None,
                 target: Char | None = None) -> Sight:
    """Can a shot go from hex ``src`` to hex ``dst``; the target's cover if so (rule 2.4).

    Blocking hexes and hexsides are judged by :func:`simulator.geometry.hexlos.hex_los` along the
    exact hex line; where the line runs along a hexside or through a vertex the shot passes if
    either alternative is clear (our ruling, ``ambiguous="both"``).
    """
    if src == dst:
        return Sight(False, "same hex", "VK 2.31")
    window = sill_window(board, src, dst)
    if window is None:
        return _line(board, state, src, dst, shooter, target)
    sill = _through_sill(board, state, window, dst, shooter, target)
    if sill.clear:
        return sill
    plain = _line(board, state, src, dst, shooter, target)
    return plain if plain.clear else sill


class _Lines:
    """The board's grid with :meth:`hex_line` and :meth:`direction_between` remembered: a hex line
    depends only on its two ends, and computing one is the costly part of a line-of-fire check (legal
    actions ask many); the walk along it asks for the hexside between each two steps (``Hexside.between``
    checks adjacency), which the grid answers with array arithmetic each time."""

    LIMIT = 50_000

    def __init__(self, grid: Any) -> None:
        self._grid = grid
        self._lines: dict[tuple[str, str], Any] = {}
        self._dirs: dict[str, dict[str, str]] = {}       # hex -> {neighbour: direction name}

    def hex_line(self, a: str, b: str) -> Any:
        line = self._lines.get((a, b))
        if line is None:
            if len(self._lines) > self.LIMIT:
                self._lines.clear()
            line = self._lines[(a, b)] = self._grid.hex_line(a, b)
        return line

    def direction_between(self, a: str, b: str) -> str | None:
        """The grid's answer, from one ``neighbours`` call per hex instead of one array sum per pair."""
        dirs = self._dirs.get(a)
        if dirs is None:
            dirs = self._dirs[a] = {n: d for d, n in self._grid.neighbours(a).items()}
        return dirs.get(b)

    def adjacent(self, a: str, b: str) -> bool:
        return self.direction_between(a, b) is not None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._grid, name)


_LINES: dict[int, tuple[Any, _Lines]] = {}


def _lines(board: Board) -> _Lines:
    grid = board.grid
    hit = _LINES.get(id(grid))
    if hit is None or hit[0] is not grid:
        if len(_LINES) > 64:
            _LINES.clear()
        hit = _LINES[id(grid)] = (grid, _Lines(grid))
    return hit[1]


def _line(board: Board, state: State, src: str, dst: str, shooter: Char | None, target: Char | None) -> Sight:
    """The ordinary line of fire of :func:`line_of_fire`, centre to centre."""
    grid = _lines(board)
    dist = board.distance(src, dst)
    ships = fleet.ship_hexes(board, state)
    own_ships = {ships[h][0] for h in (src, dst) if h in ships}
    standing: dict[str, Char] = {}
    # standing animals block too (rule 2.4.10: "human or animal"): riderless horses, goats and pigs
    for horse in state["horses"].values():
        if horse["alive"] and not horse.get("ship"):
            for h in (horse["hex"], horse["front"]):
                standing[h] = {"id": horse["id"], "name": "a riderless horse"}
    for beast in state.get("animals", {}).values():
        if beast["alive"]:
            standing[beast["hex"]] = {"id": beast["id"], "name": f"a {beast['kind']}"}
    for ch in state["chars"].values():
        if alive(ch) and ch["status"] != "stunned":
            for h in hexes_of(ch):
                standing[h] = ch
    skip = {id(shooter), id(target)}
    # a horse or animal shot at is given as a stand-in figure: its own hexes do not block the shot
    skip_ids = {x["id"] for x in (shooter, target) if x is not None and x.get("kind") in (None, "goat", "pig")}
    inside_src = board.terrain.get(src) == "building"
    reasons: dict[Any, tuple[str, str, Any]] = {}

    def hex_reason(h: str) -> tuple[str, str, Any] | None:
        if h not in board:
            return f"the line leaves the map at {h}", "VK 2.31", h
        if board.terrain[h] == "tree":
            return f"trees in {h} block the shot", "VK 2.4.1", h
        if h in ships and ships[h][0] not in own_ships:
            return f"a boat in {h} blocks the shot (one may shoot at a boat, not through it)", "VK 2.4.2", h
        other = standing.get(h)
        if other is not None and id(other) not in skip and other["id"] not in skip_ids and not board.is_water(h) \
                and dist <= 10:
            return f"{other['name']} stands in the way at {h} (short range)", "VK 2.4.10", other["id"]
        return None

    def side_reason(side: Hexside) -> tuple[str, str, Any] | None:
        a, b = side.hexes
        if a not in board or b not in board:
            return None
        feat = board.feature(a, b)
        pair = (a, b)
        if feat == "wall":
            return f"a wall between {a} and {b} blocks the shot", "VK 2.4.9", pair
        if feat == "window":
            if inside_src and src not in side:
                return "from inside, a shot leaves only through a window next to the shooter", "VK 2.4.7.1", pair
            if not inside_src and dst not in side:
                return "through a window one may hit only a target right behind it", "VK 2.4.7.1", pair
        if feat == "arrow_slit" and src not in side and not (dst in side and _in_line(board, dst, side.other(dst),
                                                                                       src)):
            return "an arrow slit can be shot through only by a shooter exactly in line with it", "VK 2.4.8", pair
        if feat == "crest":
            upper, emb = board.crests[frozenset(pair)]
            hi, lo = (src, dst) if _crossed_first(board, src, dst, upper, emb) else (dst, src)
            if lo != emb and board.distance(lo, emb) < board.distance(hi, emb):
                return ("the embankment crest hides the lower character (closer to the slope than the one "
                        "above)", "VK 2.4.11", pair)
        return None

    def blocks(key: Any, why: tuple[str, str, Any] | None) -> bool:
        if why is not None:
            reasons[key] = why
        return why is not None

    verdict = hex_los(grid, src, dst, hex_blocks=lambda h: blocks(h, hex_reason(h)),
                      hexside_blocks=lambda side: blocks(side, side_reason(side)), ambiguous="both")
    if not verdict.visible:
        key = verdict.blocked_by_hex if verdict.blocked_by_hex is not None else verdict.blocked_by_hexside
        text, rule, blocker = reasons[key]
        return Sight(False, text, rule, blockers=[blocker])
    entries = [h for h in dict.fromkeys((verdict.line.left_path[-2], verdict.line.right_path[-2]))
               if side_reason(Hexside.between(h, dst, grid)) is None]
    cover = base_cover(board, dst, ships, state)
    entry_cover = max((_entry_cover(board, src, dst, h) for h in entries), key=COVERS.index, default="none")
    if src in ships and dst in ships and ships[src][0] == ships[dst][0]:
        cover = "none"                  # shooter on the same boat (rule 2.4.2)
    elif board.terrain[dst] == "building":
        cover = entry_cover             # inside a building: medium through doors and windows (2.4.7.3)
    else:
        cover = _better(cover, entry_cover)
    if target is not None and target.get("wall") and any(_through_front(board, target, h) for h in entries):
        cover = "strong"
    return Sight(True, f"clear line, {COVERS.index(cover) and cover or 'no'} cover", "VK 2.31", cover)


def room(board: Board, inside: str) -> set[str]:
    """The building hexes of the room holding ``inside``: reached without crossing any hexside feature."""
    seen, todo = set(), [inside]
    while todo:
        h = todo.pop()
        if h in seen:
            continue
        seen.add(h)
        todo += [n for n in board.neighbours(h) if board.terrain.get(n) == "building" and n not in seen
                 and board.feature(h, n) is None]
    return seen


def sill_window(board: Board, src: str, dst: str) -> str | None:
    """The window hex through which an archer standing outside by its sill may shoot at ``dst``
    deeper in the same room (rule 2.4.7.1 b, special case), or None."""
    if board.terrain.get(src) == "building" or board.terrain.get(dst) != "building":
        return None
    for w in sorted(board.neighbours(src)):
        if w != dst and board.terrain.get(w) == "building" and board.feature(src, w) == "window" \
                and dst in room(board, w):
            return w
    return None


def _through_sill(board: Board, state: State, window: str, dst: str, shooter: Char | None,
                  target: Char | None) -> Sight:
    """The sill archer's shot: the line starts at the window's inner edge, so it runs from the window
    hex into the room; whoever stands in the window hex is in the way; the target, inside a building
    shot through a window, has medium cover (rules 2.4.7.1, 2.4.7.3)."""
    for ch in state["chars"].values():
        if ch is not target and ch is not shooter and alive(ch) and ch["status"] != "stunned" \
                and window in hexes_of(ch):
            return Sight(False, f"{ch['name']} stands in the window hex {window}", "VK 2.4.10", blockers=[ch["id"]])
    inner = line_of_fire(board, state, window, dst, shooter, target)
    if not inner.clear:
        return inner
    return Sight(True, f"shot through the window at {window} into the room, medium cover", "VK 2.4.7.1",
                 "medium")


def _entry_cover(board: Board, src: str, dst: str, entry: str) -> str:
    """Cover the hexside the shot crosses into the target's hex gives (rules 2.4.7.3, 2.4.8, 2.4.11)."""
    feat = board.feature(entry, dst)
    if feat in ("window", "door") and board.terrain[dst] == "building":
        return "medium"
    if feat == "arrow_slit" and _in_line(board, dst, entry, src):
        return "strong"
    if feat == "crest" and board.crests[frozenset((entry, dst))][1] == dst:
        return "medium"
    return "none"


def _crossed_first(board: Board, src: str, dst: str, first: str, second: str) -> bool:
    """Does the line from ``src`` to ``dst`` cross the hexside from ``first`` into ``second``?

    The hexside lies on the perpendicular bisector of the two centres, so the line crosses it
    towards the hex whose centre is farther along the line's direction.
    """
    p = board.grid.to_pixel([src, dst, first, second]).reshape(-1, 2)
    return float(np.dot(p[1] - p[0], p[3] - p[2])) > 0


def _in_line(board: Board, inner: str, outer: str, shooter: str) -> bool:
    """Is ``shooter`` on the straight hex row that runs from ``inner`` through ``outer``?"""
    g = board.grid
    d = g.direction_between(inner, outer)
    if d is None:
        return False
    line = g.hex_line(inner, shooter)
    path = line.labels()
    return not line.ambiguous and len(path) > 1 and all(
        g.direction_between(a, b) == d for a, b in zip(path, path[1:]))


def _through_front(board: Board, ch: Char, came_from: str) -> bool:
    """Does a line (or an attack) reaching ``ch`` from ``came_from`` come through its front (rule 3.2)?"""
    g = board.grid
    d = g.direction_between(ch["hex"], came_from)
    if d is None:
        return False
    f = ch.get("facing", 0)
    return g.direction_index(d) in (f % 6, (f + 1) % 6)


def range_band(dist: int) -> dict[str, Any] | None:
    for band in tables()["fire"]["ranges"]:
        if dist <= band["max"]:
            return band
    return None


def engaged(board: Board, state: State, ch: Char) -> bool:
    """Is an enemy able to attack the character next to it (rules 2.3, 2.76)?"""
    from simulator.games.vikings.movement import _threatens
    ships = fleet.ship_hexes(board, state)
    return any(_threatens(board, e, h, ships) for e in state["chars"].values()
               if e["side"] != ch["side"] for h in hexes_of(ch))


def can_shoot(board: Board, state: State, ch: Char) -> str | None:
    """Why ``ch`` cannot shoot now (None: it can)."""
    from simulator.games.vikings.pieces import ctype
    if not ctype(ch).bow:
        return f"{ch['name']} has no bow"
    if not active(ch):
        return f"{ch['name']} is {ch['status'] if alive(ch) else 'out of the game'}"
    if ch.get("fired"):
        return f"{ch['name']} has already shot in this fire phase"
    if ch.get("ship"):
        if ch.get("duty") != "boarding":
            return "aboard, only the boarding party may shoot"
    elif board.is_water(ch["hex"]):
        return "a character in the water cannot shoot"
    if ch.get("busy"):
        return f"{ch['name']} is busy this turn"
    if engaged(board, state, ch):
        return f"{ch['name']} is in contact with an enemy"
    return None


def _aim(board: Board, state: State, shooter: Char, target: Char) -> tuple[Sight, int, list[str]]:
    """Line of fire, cover, range band and the die modifier of a shot at ``target`` (table 8.1)."""
    why = can_shoot(board, state, shooter)
    if why:
        raise IllegalAction(why, "VK 2.3" if "contact" not in why else "VK 2.3, 2.76")
    src, dst = front_hex(shooter), front_hex(target)
    dist = board.distance(src, dst)
    band = range_band(dist)
    if band is None:
        raise IllegalAction(f"the target is {dist} hexes away: a short bow reaches 50", "VK 8.1")
    sight = line_of_fire(board, state, src, dst, shooter, target)
    if target.get("mounted") and sight.clear:
        other = line_of_fire(board, state, src, target["hex"], shooter, target)
        if other.clear:
            sight.cover = _better(sight.cover, other.cover)      # rider: the better cover (2.4.4)
    if not sight.clear:
        raise IllegalAction(f"no line of fire: {sight.reason}", sight.rule)
    m = tables()["fire"]["modifiers"]
    mod = band["modifier"]
    parts = [f"{band['name']} range {dist}"]
    if shooter["status"] == "wounded":
        mod += m["shooter_wounded"]
        parts.append("wounded shooter")
    if shooter.get("ship"):
        mod += m["shooter_on_boat"]
        parts.append("shooting from a boat")
    return sight, mod, parts


def _roll(ctx: Context, shooter: Char, target: Char, sight: Sight, mod: int, parts: list[str],
          defensive: bool) -> str:
    """Roll the arrow on table 8.2 and announce it; the result letter."""
    shooter["fired"] = True
    die = ctx.dice.d10(f"arrow of {shooter['name']} at {target['name']}")
    total = die + mod
    row = min(max(total, 1), 6) - 1
    table = "mounted" if target.get("mounted") else "foot"
    cover = sight.cover
    if table == "mounted" and cover == "strong":
        cover = "medium"
    result = tables()["fire"][table][cover][row]
    ctx.emit("fire", f"{shooter['name']} shoots at {target['name']} ({', '.join(parts)}; {cover} cover): "
             f"{die}{mod:+d} = {total} -> {result}", "VK 8.2", pieces=[shooter["id"], target["id"]],
             result=result, die=die, modifier=mod, cover=cover, defensive=defensive)
    return str(result)


def shoot(board: Board, state: State, ctx: Context, shooter: Char, target: Char, defensive: bool) -> None:
    if target["side"] == shooter["side"] or not alive(target):
        raise IllegalAction(f"{target['name']} is not an enemy on the map", "VK 2.3")
    sight, mod, parts = _aim(board, state, shooter, target)
    m = tables()["fire"]["modifiers"]
    if armoured(target):
        mod += m["target_armoured"]
        parts.append("armoured target")
    if target.get("axe"):
        mod += m["target_axe"]
        parts.append("target swinging a two-handed axe")
    result = _roll(ctx, shooter, target, sight, mod, parts, defensive)
    _apply(board, state, ctx, shooter, target, result, defensive)
    if state["rules"].get("errare"):
        _stray(board, state, ctx, shooter, target)


def shoot_animal(board: Board, state: State, ctx: Context, shooter: Char, aid: str, defensive: bool = False) -> None:
    """Fire at a goat or pig (rule 5.5.3, our ruling: the foot table, no armour; offensive "retreat"
    makes it retreat 2 hexes, defensive "movement limited" stops it after 2 hexes this phase, a wound
    or a kill kills it)."""
    from simulator.games.vikings import animals
    animal = state.get("animals", {}).get(aid)
    if animal is None or not animal["alive"]:
        raise IllegalAction(f"no living goat or pig {aid!r}", animals.RULE)
    if animal["side"] == shooter["side"]:
        raise IllegalAction(f"the {animal['kind']} {aid} is {shooter['side']}' own", animals.RULE)
    beast = animals.as_target(animal)
    sight, mod, parts = _aim(board, state, shooter, beast)
    result = _roll(ctx, shooter, beast, sight, mod, parts, defensive)
    if result == "A" and defensive:
        animal["move_cap"] = 2
        ctx.emit("slowed", f"{beast['name']} may move only 2 hexes this turn", "VK 8.2", pieces=[aid])
    elif result == "A":
        animals.retreat(board, state, ctx, animal, 2, [front_hex(shooter)], "VK 8.2")
    elif result in ("B", "C"):
        animals.kill(animal, ctx, "arrow", "VK 8.2")
    if state["rules"].get("errare"):
        _stray(board, state, ctx, shooter, beast)


def shoot_horse(board: Board, state: State, ctx: Context, shooter: Char, hid: str, defensive: bool = False) -> None:
    """Fire at a riderless horse (rule 3.4): as at a rider (table 8.2, mounted: the better cover of its
    two hexes, no strong column); C and D kill it. Defensive A limits its movement to 4 hexes this turn,
    as a rider's; offensive A (the rider falls back) and B (the rider is stunned and unhorsed) are
    results on a rider: a horse without one is unhurt (our ruling)."""
    from simulator.games.vikings import horses
    horse = state["horses"].get(hid)
    if horse is None or not horse["alive"]:
        raise IllegalAction(f"no living riderless horse {hid!r}", horses.RULE)
    if horse["side"] == shooter["side"]:
        raise IllegalAction(f"the horse {hid} is on {shooter['side']}' own side", horses.RULE)
    beast = horses.as_target(horse)
    sight, mod, parts = _aim(board, state, shooter, beast)
    result = _roll(ctx, shooter, beast, sight, mod, parts, defensive)
    if result in horses.KILLED_BY_FIRE:
        horses.kill(horse, ctx, "arrow")
    elif result == "A" and defensive:
        horse["move_cap"] = 4
        ctx.emit("slowed", f"the riderless horse {hid} may move only 4 hexes this turn", "VK 8.2", pieces=[hid])
    elif result != "-":
        ctx.emit("fire", f"the riderless horse {hid} is unhurt (result {result} strikes a rider; it has none)",
                 horses.RULE, pieces=[hid])
    if state["rules"].get("errare"):
        _stray(board, state, ctx, shooter, beast)


def _apply(board: Board, state: State, ctx: Context, shooter: Char, target: Char, result: str,
           defensive: bool) -> None:
    rule = "VK 8.2"
    if result == "-":
        return
    src = [front_hex(shooter)]
    if target.get("mounted"):
        if result == "A":
            if defensive:
                target["move_cap"] = 4
                ctx.emit("slowed", f"{target['name']} may move only 4 hexes this turn", rule, pieces=[target["id"]])
            else:
                effects.retreat(board, state, target, 4, src, ctx, rule, from_fire=True)
        elif result == "B":
            effects.stun(board, state, target, ctx, "arrow: stunned and unhorsed", rule)
        elif result == "C":
            effects.wound(board, state, target, ctx, "arrow", rule)
            if defensive and alive(target):
                target["move_cap"] = 4
        elif result == "D":
            effects.unhorse(board, state, target, ctx, horse_dies=True, rule=rule)
            effects.wound(board, state, target, ctx, "arrow: horse killed", rule)
        return
    if result == "A":
        if defensive:
            target["move_cap"] = 2
            ctx.emit("slowed", f"{target['name']} may move only 2 hexes this turn", rule, pieces=[target["id"]])
        else:
            effects.retreat(board, state, target, 2, src, ctx, rule, from_fire=True)
    elif result == "B":
        left = target.get("mp", 0)
        effects.wound(board, state, target, ctx, "arrow", rule)
        if defensive and alive(target):
            target["mp"] = min(values(target)[2], left // 2)
            ctx.emit("slowed", f"{target['name']} keeps half his remaining movement: {target['mp']} MP", rule,
                     pieces=[target["id"]])
    elif result == "C":
        effects.kill(board, state, target, ctx, "arrow", rule)


def _stray(board: Board, state: State, ctx: Context, shooter: Char, target: Char) -> None:
    """Optional rule 5.1: a stray arrow may hit someone around the target."""
    die = ctx.dice.d10("stray arrow (errare humanum est)")
    if die > tables()["errare_strays_at_most"]:
        return
    around = board.grid.neighbours(front_hex(target))
    names = board.grid.directions
    hex_ = around.get(names[die - 1]) if die <= 6 else None
    if hex_ is None or hex_ not in board:
        return
    victim = next((c for c in state["chars"].values() if alive(c) and hex_ in hexes_of(c)), None)
    if victim is None or victim is shooter:
        ctx.emit("stray", f"a stray arrow falls in {hex_}: nobody is hit", "VK 5.1")
        return
    if not line_of_fire(board, state, front_hex(shooter), hex_, shooter, victim).clear:
        ctx.emit("stray", f"a stray arrow toward {hex_} is stopped by an obstacle", "VK 5.1")
        return
    if armoured(victim):
        ctx.emit("stray", f"a stray arrow glances off {victim['name']}'s armour", "VK 5.1", pieces=[victim["id"]])
        effects.retreat(board, state, victim, 2, [front_hex(target)], ctx, "VK 5.1", from_fire=True)
    else:
        effects.wound(board, state, victim, ctx, "stray arrow", "VK 5.1")
