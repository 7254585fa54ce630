"""Riderless horses: taking the reins, led horses following their leader, loading horses on
ships and losing control of them (rules 2.51.2, 2.57, 4.83.2).

A riderless horse is ``state["horses"][id]`` with its two hexes ``hex`` (rear) and ``front``;
``led_by`` names the character holding its reins. A led horse follows its leader as an
extension of his counter: when the leader leaves a hex, the first led horse steps its front
into that hex and its rear into whichever of its own hexes touches it; the next horse steps
into the hex the first one left, and so on (our reading of "a simple extension of the leading
counter"). A horse that cannot follow stays where it is; a horse no longer next to its leader,
or whose leader is stunned, dead or mounted in a melee, is loose again.
A horse aboard a galley or drakkar records ``ship`` and ``slots`` and moves with the ship.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.vikings import fleet
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import ship_types, terrain
from simulator.games.vikings.pieces import Char, active, hexes_of, living_at

State = dict[str, Any]
Horse = dict[str, Any]
MIDDLE_ROLES = ("middle", "pivot")


def horse_hexes(horse: Horse) -> list[str]:
    return [horse["hex"], horse["front"]]


def led(state: State, cid: str) -> list[Horse]:
    """The horses a character leads, in the order he took their reins."""
    return sorted((h for h in state["horses"].values() if h["alive"] and h.get("led_by") == cid),
                  key=lambda h: (h.get("led_order", 0), h["id"]))


def limit(ch: Char) -> int:
    """Horses a character may lead: 3 on foot, 1 mounted (rule 2.57)."""
    return 1 if ch.get("mounted") else 3


def _near(board: Board, hexes: list[str], others: list[str]) -> bool:
    return any(board.grid.adjacent(a, b) for a in hexes for b in others)


def _threatened(board: Board, state: State, side: str, hexes: list[str]) -> bool:
    from simulator.games.vikings.movement import _threatens
    ships = fleet.ship_hexes(board, state)
    return any(_threatens(board, e, h, ships) for e in state["chars"].values() if e["side"] != side
               for h in hexes)


def reins_problem(board: Board, state: State, ch: Char, horse: Horse) -> str | None:
    """Why ``ch`` may not take the reins of ``horse`` now (None: he may)."""
    if not horse["alive"]:
        return "the horse is dead"
    if horse.get("led_by") == ch["id"]:
        return f"{ch['name']} already leads this horse"
    if not active(ch):
        return f"{ch['name']} cannot act"
    if not _near(board, hexes_of(ch), horse_hexes(horse)):
        return f"{ch['name']} is not next to the horse"
    if len(led(state, ch["id"])) >= limit(ch):
        return f"{ch['name']} already leads {limit(ch)} horse(s) (3 on foot, 1 mounted)"
    if _threatened(board, state, ch["side"], horse_hexes(horse)):
        return "an enemy able to attack is next to the horse"
    if horse["side"] != ch["side"]:
        keepers = [c for c in state["chars"].values() if c["side"] == horse["side"] and active(c)
                   and _near(board, hexes_of(c), horse_hexes(horse))]
        if keepers:
            return f"{keepers[0]['name']} still stands by the horse: it stays under {horse['side']} control"
    leader = state["chars"].get(horse.get("led_by") or "")
    if leader is not None and leader["side"] == ch["side"]:
        return f"{leader['name']} already leads this horse"
    return None


def take_reins(board: Board, state: State, ctx: Context, ch: Char, horse_id: str) -> None:
    horse = state["horses"].get(horse_id)
    if horse is None:
        raise IllegalAction(f"no riderless horse {horse_id!r}", "VK 2.57")
    why = reins_problem(board, state, ch, horse)
    if why:
        raise IllegalAction(why, "VK 2.57")
    taken = horse["side"] != ch["side"]
    horse.update(led_by=ch["id"], side=ch["side"], led_order=state.setdefault("reins_counter", 0) + 1)
    state["reins_counter"] += 1
    ctx.emit("reins", f"{ch['name']} takes the reins of {horse_id}" + (" (captured)" if taken else ""),
             "VK 2.57", pieces=[ch["id"], horse_id])


def release(state: State, ctx: Context, ch: Char, horse_id: str) -> None:
    horse = state["horses"].get(horse_id)
    if horse is None or horse.get("led_by") != ch["id"]:
        raise IllegalAction(f"{ch['name']} does not lead {horse_id!r}", "VK 2.57")
    horse["led_by"] = None
    ctx.emit("reins", f"{ch['name']} lets go of {horse_id}", "VK 2.57", pieces=[ch["id"], horse_id])


def entry_problem(board: Board, state: State, horse: Horse, src: str, dst: str) -> str | None:
    """Why a led horse may not step from its hex ``src`` into ``dst`` (rules 2.51, 4.83.2)."""
    if dst not in board:
        return "off the map"
    feat = board.feature(src, dst)
    if feat is not None and (not terrain()["hexsides"][feat]["passable"] or
                             not terrain()["hexsides"][feat].get("mounted", True)):
        return f"a horse cannot pass a {feat.replace('_', ' ')}"
    if board.terrain[dst] == "building":
        return "horses do not enter buildings"
    if any(a["hex"] == dst for a in state.get("animals", {}).values() if a["alive"]):
        return "a goat or pig stands there"
    ships = fleet.ship_hexes(board, state)
    on = ships.get(dst)
    if on is not None:
        ship = state["ships"][on[0]]
        if ship_types()[ship["type"]].get("rowboat"):
            return "horses are never loaded on a rowboat"
        if ship["speed"] != 0:
            return f"{ship['name']} must be stationary (speed 0) to load a horse"
        from_ship = ships.get(src)
        if (from_ship is None or from_ship[0] != on[0]) and fleet.role(ship, on[1]) not in ("port", "starboard"):
            return "a horse boards over a side hex, never the bow or the stern"
    return None


def follow(board: Board, state: State, ctx: Context, leader: Char, old_hexes: list[str]) -> None:
    """Led horses step after their leader (called after each step of the leader)."""
    horses = led(state, leader["id"])
    if not horses:
        return
    now = hexes_of(leader)
    anchors = [h for h in old_hexes if h not in now]
    for horse in horses:
        occupied = living_at(state)
        placed = False
        if horse.get("move_cap") is not None and horse.get("steps", 0) >= horse["move_cap"]:
            continue                     # stopped by defensive fire (rule 3.4 with table 8.2, result A)
        for a in list(anchors):
            if a in horse_hexes(horse) or any(x != horse["id"] for x in occupied.get(a, [])):
                continue
            src = next((h for h in (horse["front"], horse["hex"]) if board.grid.adjacent(h, a)), None)
            if src is None or entry_problem(board, state, horse, src, a) is not None:
                continue
            left = [h for h in horse_hexes(horse) if h != src]
            horse["hex"], horse["front"] = src, a
            anchors.remove(a)
            anchors = left + anchors
            placed = True
            break
        if placed:
            horse["steps"] = horse.get("steps", 0) + 1
            _settle(board, state, horse)
            ctx.emit("horse", f"{horse['id']} follows {leader['name']} to {horse['front']}", "VK 2.57",
                     pieces=[horse["id"], leader["id"]])


def _settle(board: Board, state: State, horse: Horse) -> None:
    """Record whether the horse stands wholly aboard one ship."""
    ships = fleet.ship_hexes(board, state)
    a, b = ships.get(horse["hex"]), ships.get(horse["front"])
    if a is not None and b is not None and a[0] == b[0]:
        horse["ship"], horse["slots"] = a[0], [a[1], b[1]]
    else:
        horse["ship"], horse["slots"] = None, None


def tidy(board: Board, state: State, ctx: Context) -> None:
    """Horses whose leader is gone, stunned or no longer beside them are loose again (rule 2.57)."""
    for horse in sorted(state["horses"].values(), key=lambda h: h["id"]):
        cid = horse.get("led_by")
        if not cid:
            continue
        leader = state["chars"][cid]
        if not active(leader) or not _near(board, hexes_of(leader), horse_hexes(horse)):
            horse["led_by"] = None
            ctx.emit("reins", f"{leader['name']} loses control of {horse['id']}", "VK 2.57",
                     pieces=[cid, horse["id"]])


def melee_loses_control(state: State, ctx: Context, fighters: list[Char]) -> None:
    """A mounted character leading a horse loses it when he attacks or is attacked (rule 2.57);
    ``fighters`` are the characters who were mounted when the combat began."""
    for ch in fighters:
        for horse in led(state, ch["id"]):
            horse["led_by"] = None
            ctx.emit("reins", f"{ch['name']} fights on horseback and lets {horse['id']} go", "VK 2.57",
                     pieces=[ch["id"], horse["id"]])


def unsafe_aboard(state: State, board: Board, sid: str) -> list[str]:
    """Horses touching ship ``sid`` that are not wholly on its middle hexes (it may not sail, rule 4.83.2)."""
    ship = state["ships"][sid]
    cells = fleet.hexes(board, ship)
    out = []
    for horse in state["horses"].values():
        if not horse["alive"]:
            continue
        on = [cells.index(h) for h in horse_hexes(horse) if h in cells]
        if on and (len(on) < 2 or any(fleet.role(ship, s) not in MIDDLE_ROLES for s in on)):
            out.append(horse["id"])
    return sorted(out)


def half_aboard(state: State, board: Board, sid: str) -> list[Horse]:
    """Living horses with one hex on ship ``sid`` and the other off it."""
    cells = set(fleet.hexes(board, state["ships"][sid]))
    return sorted((h for h in state["horses"].values() if h["alive"]
                   and len([x for x in horse_hexes(h) if x in cells]) == 1), key=lambda h: h["id"])


def shake_off(board: Board, state: State, ctx: Context, sid: str, why: str, rule: str) -> None:
    """A ship hauled or struck while a horse stands half aboard (our ruling for rule 4.83.2, which
    only lets horses board a stationary ship): the horse is jolted off the hull. Its leader loses the
    reins; the horse ends wholly off the ship, its ship half stepping to a free hex next to its other
    half (not a boat hex, passable to a horse); with no such hex it falls between hull and shore and
    is killed."""
    cells = set(fleet.hexes(board, state["ships"][sid]))
    ships = fleet.ship_hexes(board, state)
    for horse in half_aboard(state, board, sid):
        off = next(x for x in horse_hexes(horse) if x not in cells)
        horse["led_by"] = None
        occupied = living_at(state)
        spot = None
        for h in sorted(board.neighbours(off)):
            if h in ships or any(x != horse["id"] for x in occupied.get(h, [])):
                continue
            if entry_problem(board, state, horse, off, h) is None and board.kind(h) != "deep":
                spot = h
                break
        name = state["ships"][sid]["name"]
        if spot is None:
            horse["alive"] = False
            ctx.emit("horse", f"{horse['id']}, half aboard {name} when it {why}, falls and is killed", rule,
                     pieces=[horse["id"], sid])
        else:
            horse["hex"], horse["front"] = off, spot
            ctx.emit("horse", f"{horse['id']}, half aboard {name} when it {why}, is jolted off to {off}-{spot}",
                     rule, pieces=[horse["id"], sid])
        horse["ship"] = horse["slots"] = None


# ---------------------------------------------------------------------------- horses as targets (3.4)
RULE = "VK 3.4"
#: A riderless horse's defence when no rider's counter gives one: 2, as the back of the named riders'
#: counters (Ragnar, Edwin); the counter sheet is not in the rules (our ruling).
DEFAULT_DEFENCE = 2
#: Rule 3.4: the results that kill a riderless (or draught) horse, on table 8.2 (mounted) and 8.7.
KILLED_BY_FIRE = "CDEF"
KILLED_IN_MELEE = "EFGH"


def living(state: State) -> list[Horse]:
    return sorted((h for h in state["horses"].values() if h["alive"]), key=lambda h: h["id"])


def new_phase(state: State) -> None:
    """A player phase begins: no horse has followed anyone yet."""
    for horse in state["horses"].values():
        horse["steps"] = 0
        horse["move_cap"] = None


def moving(state: State, side: str) -> list[Horse]:
    """Horses led by the moving ``side`` that have followed their leader this phase: targets of its
    enemy's defensive fire, as a rider moving would be (rules 2.33, 3.4)."""
    return [h for h in living(state) if h["side"] == side and h.get("steps", 0) > 0]


def defence(state: State, horse: Horse) -> int:
    """The horse's own counter: its rider's ``horse_defence`` when it lost a rider, else the default."""
    from simulator.games.vikings.pieces import ctype
    owner = state["chars"].get(horse.get("owner") or "")
    if owner is not None:
        return int(ctype(owner).counters.get("horse_defence", DEFAULT_DEFENCE))
    return DEFAULT_DEFENCE


def as_target(horse: Horse) -> Char:
    """The horse seen as a mounted figure without a rider, for the fire and terrain rules: rule 3.4
    resolves shots and attacks at it as at a mounted character (two hexes, the mounted tables)."""
    return {"id": horse["id"], "name": f"the riderless horse {horse['id']}", "hex": horse["hex"],
            "front": horse["front"], "mounted": True, "side": horse["side"], "status": "ok",
            "ship": horse.get("ship"), "kind": None}


def kill(horse: Horse, ctx: Context, why: str, rule: str = RULE) -> None:
    horse["alive"] = False
    horse["led_by"] = None
    ctx.emit("horse", f"the riderless horse {horse['id']} is killed ({why})", rule, pieces=[horse["id"]])


def retreat(board: Board, state: State, ctx: Context, horse: Horse, away_from: list[str], rule: str) -> None:
    """"Defender retreats one hex" against a horse: both its halves step one hex the same way, farther
    from ``away_from``, into hexes a horse may enter; with no such way it is killed, as a character who
    cannot retreat is hurt instead (note to table 8.8; a horse has no wounded side: our ruling)."""
    from simulator.games.vikings.terrain_rules import hex_info

    def gap(hexes: list[str]) -> int:
        return min(board.distance(h, x) for h in hexes for x in away_from)

    occupied = living_at(state)
    ships = fleet.ship_hexes(board, state)
    best = None
    for d in board.grid.directions:
        moved = [board.grid.neighbours(h).get(d) for h in (horse["hex"], horse["front"])]
        if any(m is None or m not in board for m in moved) or gap(moved) <= gap(horse_hexes(horse)):
            continue
        if any(m in ships or hex_info(board, m).get("mounted_cost") is None
               or any(x != horse["id"] for x in occupied.get(m, [])) for m in moved):
            continue
        if any(entry_problem(board, state, horse, src, m) for src, m in zip((horse["hex"], horse["front"]), moved)):
            continue
        key = (-gap(moved), -sum(board.distance(m, x) for m in moved for x in away_from), moved)
        if best is None or key < best:
            best = key
    if best is None:
        kill(horse, ctx, "it cannot retreat", rule)
        return
    horse["hex"], horse["front"] = best[2]
    horse["led_by"] = None
    ctx.emit("retreat", f"the riderless horse {horse['id']} retreats to {horse['hex']}-{horse['front']}", rule,
             pieces=[horse["id"]])


def attack_problem(board: Board, state: State, attackers: list[Char], horse: Horse | None) -> str | None:
    from simulator.games.vikings.terrain_rules import Blocked, step_cost
    if horse is None or not horse["alive"]:
        return "no living riderless horse there"
    if not attackers or len({a["id"] for a in attackers}) != len(attackers):
        return "name the attackers once each"
    ships = fleet.ship_hexes(board, state)
    for a in attackers:
        if a["side"] != state["phasing"] or not active(a) or a.get("attacked") or a.get("wall") or a.get("busy") \
                or state["combat"]["round"] > 1:
            return f"{a['name']} cannot attack now"
        if horse["side"] == a["side"]:
            return f"the horse {horse['id']} is on {a['side']}' own side"
        ways = [(x, y) for x in hexes_of(a) for y in horse_hexes(horse) if board.grid.adjacent(x, y)]
        if not ways:
            return f"{a['name']} is not next to the horse {horse['id']}"
        reasons = []
        for x, y in ways:
            try:
                step_cost(board, state, a, x, y, bool(a.get("mounted")), ships, attacking=True)
                break
            except Blocked as b:
                reasons.append(b.reason)
        else:
            return f"{a['name']} could not move into the horse's hex: {reasons[-1]}"
    return None


def attack(board: Board, state: State, ctx: Context, attackers: list[Char], hid: str) -> None:
    """Attack a riderless horse (rule 3.4): as a mounted defender, on table 8.7 with the terrain shifts
    (table 8.6, the worse of its two hexes) and doors and windows (2.74); several attackers shift one
    column only when all are mounted, as against any rider. E, F, G and H kill it; A wounds the (first)
    attacker and B makes the attackers retreat, as printed; C makes it retreat one hex; D, a result on its
    rider, does nothing (our ruling: it has none)."""
    from simulator.games.vikings import effects
    from simulator.games.vikings.catalogue import tables
    from simulator.games.vikings.melee import level, through_openings
    from simulator.games.vikings.pieces import attack_value
    from simulator.games.vikings.terrain_rules import combat_level
    horse = state["horses"].get(hid)
    why = attack_problem(board, state, attackers, horse)
    if why:
        raise IllegalAction(why, "VK 2.76" if "could not move" in why else RULE)
    ships = fleet.ship_hexes(board, state)
    beast = as_target(horse)
    strength = sum(attack_value(a) for a in attackers)
    dfn = defence(state, horse)
    lvl_a = min(level(board, state, a, True, [beast], ships) for a in attackers)
    lvl_d = combat_level(board, state, beast, ships)
    notes: list[str] = []
    pairs = [(x, y) for a in attackers for x in hexes_of(a) for y in horse_hexes(horse) if board.grid.adjacent(x, y)]
    lvl_a, lvl_d = through_openings(board, pairs, lvl_a, lvl_d, notes)
    shift = lvl_a - lvl_d
    if len(attackers) > 1 and all(a.get("mounted") for a in attackers):
        shift += 1
        notes.append("combined attack")
    odds = strength // dfn
    if odds < 1:
        raise IllegalAction(f"odds {strength}:{dfn} are below 1-1", "VK 2.7")
    column = min(max(odds - 1 + shift, 0), 11)
    die = ctx.dice.d10(f"attack on the riderless horse {hid}")
    result = tables()["melee"]["mounted"][die - 1][column]
    for a in attackers:
        a["attacked"] = True
        a["engaged"] = True
    col_name = f"{column + 1}-1" if column < 11 else "12-1+"
    ctx.emit("melee", f"{', '.join(a['name'] for a in attackers)} ({strength}) attack the riderless horse {hid} "
             f"({dfn}): shift {shift:+d}{' (' + ', '.join(dict.fromkeys(notes)) + ')' if notes else ''}, "
             f"column {col_name}, die {die} -> {result}", RULE,
             pieces=[a["id"] for a in attackers] + [hid], result=result, column=col_name, die=die, shift=shift)
    if result in KILLED_IN_MELEE:
        kill(horse, ctx, "melee")
    elif result == "C":
        retreat(board, state, ctx, horse, [h for a in attackers for h in hexes_of(a)], "VK 8.7")
    elif result == "A":
        effects.wound(board, state, attackers[0], ctx, "hurt attacking a horse", "VK 8.7")
    elif result == "B":
        for a in attackers:
            effects.retreat(board, state, a, 1, horse_hexes(horse), ctx, "VK 8.7")


def attack_options(board: Board, state: State) -> list[tuple[str, str]]:
    """(attacker, horse) pairs: single attacks on enemy riderless horses the phasing side could make."""
    from simulator.games.vikings.pieces import attack_value
    out = []
    for a in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if a["side"] != state["phasing"]:
            continue
        for horse in living(state):
            if horse["side"] != a["side"] and attack_problem(board, state, [a], horse) is None and \
                    attack_value(a) // defence(state, horse) >= 1:
                out.append((a["id"], horse["id"]))
    return out
