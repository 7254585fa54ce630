"""Missile fire: line of fire, cover, range, the two result tables (rules 2.3-2.4, tables 8.1-8.2).

The line of fire runs centre to centre (rule 2.31) along ``HexGrid.hex_line``. The rulebook
says nothing of lines running exactly along a hexside or through a vertex; our ruling: the
shooter may use either side, so the shot is possible when either of the two nudged walks is
clear, and the target gets the better cover of the walks that are clear.
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
    """Can a shot go from hex ``src`` to hex ``dst``; the target's cover if so (rule 2.4)."""
    if src == dst:
        return Sight(False, "same hex", "VK 2.31")
    line = board.grid.hex_line(src, dst)
    walks = [line.left_path] if line.left_path == line.right_path else [line.left_path, line.right_path]
    results = [_walk(board, state, list(w), shooter, target) for w in walks]
    ok = [r for r in results if r.clear]
    if not ok:
        return results[0]
    best = ok[0]
    for r in ok[1:]:
        if COVERS.index(r.cover) > COVERS.index(best.cover):
            best = r
    return best


def _walk(board: Board, state: State, path: list[str], shooter: Char | None, target: Char | None) -> Sight:
    src, dst = path[0], path[-1]
    dist = board.distance(src, dst)
    ships = fleet.ship_hexes(board, state)
    own_ships = {ships[h][0] for h in (src, dst) if h in ships}
    standing: dict[str, Char] = {}
    for ch in state["chars"].values():
        if alive(ch) and ch["status"] != "stunned":
            for h in hexes_of(ch):
                standing[h] = ch
    skip = {id(shooter), id(target)}
    cover_mod: str | None = None
    for i, h in enumerate(path):
        if h not in board:
            return Sight(False, f"the line leaves the map at {h}", "VK 2.31", blockers=[h])
        inner = 0 < i < len(path) - 1
        if inner:
            if board.terrain[h] == "tree":
                return Sight(False, f"trees in {h} block the shot", "VK 2.4.1", blockers=[h])
            if h in ships and ships[h][0] not in own_ships:
                return Sight(False, f"a boat in {h} blocks the shot (one may shoot at a boat, not through it)",
                             "VK 2.4.2", blockers=[h])
            other = standing.get(h)
            if other is not None and id(other) not in skip and not board.is_water(h) and dist <= 10:
                return Sight(False, f"{other['name']} stands in the way at {h} (short range)", "VK 2.4.10",
                             blockers=[other["id"]])
        if i == 0:
            continue
        prev = path[i - 1]
        if prev not in board.neighbours(h):
            continue     # the line passes through a vertex between these two hexes
        feat = board.feature(prev, h)
        if feat is None:
            continue
        if feat == "wall":
            return Sight(False, f"a wall between {prev} and {h} blocks the shot", "VK 2.4.9",
                         blockers=[(prev, h)])
        if feat == "window":
            shooter_side, target_side = i == 1, i == len(path) - 1
            inside_src = board.terrain[src] == "building"
            if inside_src and not shooter_side:
                return Sight(False, "from inside, a shot leaves only through a window next to the shooter",
                             "VK 2.4.7.1", blockers=[(prev, h)])
            if not inside_src and not target_side:
                return Sight(False, "through a window one may hit only a target right behind it", "VK 2.4.7.1",
                             blockers=[(prev, h)])
            cover_mod = _better(cover_mod or "none", "medium") if board.terrain[dst] == "building" else cover_mod
        if feat == "door" and board.terrain[dst] == "building":
            cover_mod = _better(cover_mod or "none", "medium")
        if feat == "arrow_slit":
            if i == 1:
                pass                                    # shooting out through one's own slit
            elif i == len(path) - 1 and _in_line(board, dst, prev, src):
                cover_mod = "strong"
            else:
                return Sight(False, "an arrow slit can be shot through only by a shooter exactly in line with it",
                             "VK 2.4.8", blockers=[(prev, h)])
        if feat == "crest":
            upper, emb = board.crests[frozenset((prev, h))]
            up_first = prev == upper
            hi, lo = (src, dst) if up_first else (dst, src)
            if lo != emb and board.distance(lo, emb) < board.distance(hi, emb):
                return Sight(False, "the embankment crest hides the lower character (closer to the slope "
                                    "than the one above)", "VK 2.4.11", blockers=[(prev, h)])
            if dst == emb:
                cover_mod = _better(cover_mod or "none", "medium")
    cover = base_cover(board, dst, ships, state)
    if src in ships and dst in ships and ships[src][0] == ships[dst][0]:
        cover = "none"                  # shooter on the same boat (rule 2.4.2)
    elif board.terrain[dst] == "building":
        cover = cover_mod or "none"     # inside a building: medium through doors and windows (2.4.7.3)
    elif cover_mod:
        cover = _better(cover, cover_mod)
    if target is not None and target.get("wall") and _through_front(board, target, path[-2]):
        cover = "strong"
    return Sight(True, f"clear line, {COVERS.index(cover) and cover or 'no'} cover", "VK 2.31", cover)


def _in_line(board: Board, inner: str, outer: str, shooter: str) -> bool:
    """Is ``shooter`` on the straight hex row that runs from ``inner`` through ``outer``?"""
    g = board.grid
    d = np.array(g.cube(outer)) - np.array(g.cube(inner))
    v = np.array(g.cube(shooter)) - np.array(g.cube(inner))
    k = int(np.abs(v).max())
    return bool(k > 0 and (v == d * k).all())


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


def shoot(board: Board, state: State, ctx: Context, shooter: Char, target: Char, defensive: bool) -> None:
    why = can_shoot(board, state, shooter)
    if why:
        raise IllegalAction(why, "VK 2.3" if "contact" not in why else "VK 2.3, 2.76")
    if target["side"] == shooter["side"] or not alive(target):
        raise IllegalAction(f"{target['name']} is not an enemy on the map", "VK 2.3")
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
    if armoured(target):
        mod += m["target_armoured"]
        parts.append("armoured target")
    if target.get("axe"):
        mod += m["target_axe"]
        parts.append("target swinging a two-handed axe")
    shooter["fired"] = True
    die = ctx.dice.d10(f"arrow of {shooter['name']} at {target['name']}")
    total = die + mod
    row = min(max(total, 1), 6) - 1
    table = "mounted" if target.get("mounted") else "foot"
    cover = sight.cover
    if table == "mounted" and cover == "strong":
        cover = "medium"
    result = tables()["fire"][table][cover][row]
    kind = "defensive fire" if defensive else "fire"
    ctx.emit("fire", f"{shooter['name']} shoots at {target['name']} ({', '.join(parts)}; {cover} cover): "
             f"{die}{mod:+d} = {total} -> {result}", "VK 8.2", pieces=[shooter["id"], target["id"]],
             result=result, die=die, modifier=mod, cover=cover, defensive=defensive)
    _apply(board, state, ctx, shooter, target, result, defensive)
    if state["rules"].get("errare"):
        _stray(board, state, ctx, shooter, target)


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
