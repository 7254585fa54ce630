"""The naval phase: crew duties, secret speeds, ship movement by sequences, collisions,
grappling hooks, hauling and damage recording (rules 2.2 step 1, 4.2-4.7)."""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.vikings import effects, fleet, markers, shipgeom, tide
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import ship_types, tables
from simulator.games.vikings.pieces import Char, active, alive, armoured, weak
from simulator.games.vikings.fleet import afloat, crew, hexes
from simulator.geometry.footprint import PlacedFootprint

State = dict[str, Any]
Ship = dict[str, Any]
DUTIES = ("rower", "helmsman", "boarding", "grapple", "bailer", "overboard", "plug")
MOVES = shipgeom.MOVES
SHIP_TERRAIN = ("sea", "river", "beach", "embankment", "rocks")
TYPE_RANK = {"drakkar": 0, "galley": 1, "rowboat": 2}


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


# ---------------------------------------------------------------------------- duties (4.2)
def duty_problem(state: State, ch: Char, duty: str) -> str | None:
    """Why ``ch`` may not take ``duty`` where it stands (None: it may)."""
    if duty not in DUTIES:
        return f"unknown duty {duty!r} (duties: {', '.join(DUTIES)})"
    sid = ch.get("ship")
    if not sid or not alive(ch):
        return f"{ch['name']} is not aboard a boat"
    ship = state["ships"][sid]
    t = ship_types()[ship["type"]]
    role = fleet.role(ship, ch["slot"])
    damaged = ship["damage"].get(str(ch["slot"]), 0) > 0
    if duty == "rower":
        if not t.get("rowboat") and role not in ("port", "starboard"):
            return "rowers sit on the side hexes of the ship"
        if damaged:
            return "a damaged hex cannot be used for rowing"
        if not fleet.female_ok(ch, ship):
            return "women row only in rowboats"
    if duty == "helmsman":
        if t.get("rowboat"):
            return "rowboats need no helmsman"
        if role != "stern":
            return "the helmsman stands on the rudder hex (G)"
        if damaged and not state["rules"].get("helmsman"):
            return "a damaged rudder hex cannot be used for steering (rule 4.7; optional rule 5.4 allows it)"
        if any(c.get("duty") == "helmsman" and c["id"] != ch["id"] for c in crew(state, sid)):
            return "a ship has only one helmsman"
    if duty == "bailer" and ch.get("duty") != "bailer":
        short = markers.shortage(state, "bucket")
        if short:
            return f"no bucket left: {short}"
    if duty == "plug":
        from simulator.games.vikings.shipwork import plug_problem
        return plug_problem(state, ch)
    if duty == "overboard":
        from simulator.games.vikings.shipwork import grapple_at
        if grapple_at(state, ch) is None:
            return "the grapple to throw overboard must lie in his hex (rule 4.66)"
    if duty == "grapple":
        if not any(g["ship"] == sid and g["slot"] == ch["slot"] and g["status"] != "lost"
                   for g in state["grapples"].values()):
            return "a grapple handler stands where one of his ship's grapples lies"
    return None


def assign_duty(state: State, ctx: Context, ch: Char, duty: str) -> None:
    why = duty_problem(state, ch, duty)
    if why:
        raise IllegalAction(why, "VK 4.2")
    if duty == "plug" and ch.get("duty") != "plug":
        ch["plug_since"] = [state["turn"], state["phase_index"]]
    ch["duty"] = duty
    ctx.emit("duty", f"{ch['name']} takes the duty {duty}", "VK 4.2", pieces=[ch["id"]])


def default_duties(state: State, side: str) -> None:
    """Keep each character's duty if still possible, else make him boarding party (rule 4.2)."""
    for ch in state["chars"].values():
        if ch["side"] == side and ch.get("ship") and alive(ch):
            if ch.get("duty") is None or duty_problem(state, ch, ch["duty"]):
                ch["duty"] = "boarding"


# ---------------------------------------------------------------------------- speeds (4.3)
def speed_options(board: Board, state: State, sid: str) -> list[int]:
    """Legal speeds, kept at 0 while a horse is half aboard or outside the middle hexes (rule 4.83.2)."""
    from simulator.games.vikings.horses import unsafe_aboard
    legal = fleet.legal_speeds(state, sid)
    ship = state["ships"][sid]
    if state["rules"].get("helmsman") and not ship_types()[ship["type"]].get("rowboat") and \
            not any(c.get("duty") == "helmsman" for c in crew(state, sid)):
        # optional rule 5.4: without a helmsman the ship may not gain speed
        legal = [v for v in legal if abs(v) <= abs(ship["speed"]) and v * ship["speed"] >= 0] or [0]
    return [0] if unsafe_aboard(state, board, sid) else legal


def rudder_damaged(ship: Ship) -> bool:
    """The rudder hex (G) has taken damage (rules 4.7, 5.4)."""
    stern = shipgeom.slot_of(ship["type"], "stern")
    return ship["damage"].get(str(stern), 0) > 0


def set_speed(board: Board, state: State, ctx: Context, sid: str, speed: int, side: str) -> None:
    ship = state["ships"].get(sid)
    if ship is None or not afloat(ship):
        raise IllegalAction(f"no ship {sid!r} afloat", "VK 4.3")
    if ship["side"] != side:
        raise IllegalAction(f"{ship['name']} is not yours", "VK 4.34")
    legal = speed_options(board, state, sid)
    if speed not in legal:
        fwd, rev, acc = fleet.speed_limits(state, sid)
        raise IllegalAction(f"{ship['name']} may take speeds {legal} (previous {ship['speed']}, max forward {fwd}, "
                            f"max astern {rev}, change {acc})", "VK 4.33")
    if ship.get("beached") and speed != 0 and fleet.pushers(board, state, sid) < \
            ship_types()[ship["type"]]["pushers"]:
        raise IllegalAction(f"pushing {ship['name']} off the beach takes "
                            f"{ship_types()[ship['type']]['pushers']} characters beside it", "VK 4.45")
    ship["pending"] = speed
    ctx.emit("speed_secret", f"{side} sets a speed for {ship['name']}", "VK 4.34", pieces=[sid], secret=True)


def reveal_speeds(board: Board, state: State, ctx: Context) -> None:
    for sid, ship in sorted(state["ships"].items()):
        if not afloat(ship):
            continue
        legal = speed_options(board, state, sid)
        new = ship.get("pending")
        if new is None or new not in legal:
            new = ship["speed"] if ship["speed"] in legal else min(legal, key=lambda v: (abs(v - ship["speed"]), v))
        if ship.get("beached") and new != 0 and fleet.pushers(board, state, sid) < \
                ship_types()[ship["type"]]["pushers"]:
            new = 0
        if ship.get("beached") and new != 0:
            _mark_pushers(board, state, ctx, ship)
            # pushed off: no longer resting on the beach, but launching until wholly afloat (rule 4.45)
            ship["beached"], ship["launching"] = False, True
        tows = [g["id"] for g in state["grapples"].values() if (towed_by(state, g) or (None,))[0] is ship]
        if tows and new != 0:
            new = sign(new) * (abs(new) - 1)
            ctx.emit("towed", f"{ship['name']} tows a rowboat ({', '.join(sorted(tows))}): one speed point less",
                     "VK 4.63", pieces=[sid])
        ship["prev_speed"] = ship["speed"]
        ship["speed"] = new
        ship["pending"] = None
        ship["reversing"] = ship["prev_speed"] * new < 0
        ship["moves"] = ship["turns"] = 0
        ship["done"] = new == 0
        ship["beach_hexes"] = 0
        ctx.emit("speed", f"{ship['name']}: speed {ship['prev_speed']} -> {new}", "VK 4.34", pieces=[sid],
                 speed=new)


def _mark_pushers(board: Board, state: State, ctx: Context, ship: Ship) -> None:
    """The characters who push a beached boat off spend their side's next player phase doing it: busy,
    they neither move, shoot nor fight (rule 4.45; the phase is our ruling, digest question 43). With
    exactly the number needed beside the boat they push; with more, the owner names them one by one
    (``choose_pusher`` in the naval step ``pushers``)."""
    need = ship_types()[ship["type"]]["pushers"]
    ids = fleet.pusher_ids(board, state, ship["id"])
    if len(ids) > need:
        ship["push_choice"] = []
        ctx.emit("push_choice", f"{ship['side']} chooses {need} of {len(ids)} characters beside {ship['name']} "
                 "to push it off", "VK 4.45", pieces=[ship["id"], *ids])
        return
    _busy_pushers(state, ctx, ship, ids)


def _busy_pushers(state: State, ctx: Context, ship: Ship, ids: list[str]) -> None:
    for cid in ids:
        state["chars"][cid]["pushing"] = True
    ctx.emit("push_off", f"{', '.join(state['chars'][c]['name'] for c in ids)} push {ship['name']} off the beach "
             "(busy in their next player phase)", "VK 4.45", pieces=[ship["id"], *ids])


def awaiting_pushers(state: State) -> list[str]:
    """Ships whose owner still has to name who pushes them off (rule 4.45), by id."""
    return sorted(sid for sid, ship in state["ships"].items() if ship.get("push_choice") is not None)


def pusher_options(board: Board, state: State) -> list[tuple[str, str]]:
    """(ship, character) pairs the side naming pushers may pick next."""
    waiting = awaiting_pushers(state)
    if not waiting:
        return []
    sid = waiting[0]
    chosen = state["ships"][sid]["push_choice"]
    return [(sid, cid) for cid in fleet.pusher_ids(board, state, sid) if cid not in chosen]


def choose_pusher(board: Board, state: State, ctx: Context, sid: str, cid: str) -> None:
    """Name one of the characters who push ``sid`` off; the last one needed sets them all to work."""
    waiting = awaiting_pushers(state)
    if not waiting:
        raise IllegalAction("no boat is waiting for its pushers", "VK 4.45")
    if sid != waiting[0]:
        raise IllegalAction(f"name the pushers of {state['ships'][waiting[0]]['name']} first", "VK 4.45")
    ship = state["ships"][sid]
    if (sid, cid) not in pusher_options(board, state):
        raise IllegalAction(f"{cid!r} is not a free character of {ship['side']} on beach or coastal water beside "
                            f"{ship['name']}", "VK 4.45")
    ship["push_choice"].append(cid)
    if len(ship["push_choice"]) == ship_types()[ship["type"]]["pushers"]:
        ids = ship.pop("push_choice")
        _busy_pushers(state, ctx, ship, ids)


def effective_speed(ship: Ship, sequence: int) -> int:
    """Speed reached so far this phase, one point per sequence acted (rule 4.52.1)."""
    prev, new = ship["prev_speed"], ship["speed"]
    if prev == new:
        return new
    acted = ship["moves"] + (1 if ship.get("reversing") and sequence >= 2 else 0)
    return prev + sign(new - prev) * min(acted, abs(new - prev))


def _needed(ship: Ship, sequence: int) -> int:
    """Speed a move in ``sequence`` needs. A reversing ship starts one sequence late (rule 4.42), so
    its n-th move comes in sequence n + 1: the test is offset by one (a speed-1 reversal moves in
    sequence 2, as in the rule 4.52 example)."""
    return sequence - (1 if ship.get("reversing") else 0)


def can_move_in(ship: Ship, sequence: int) -> bool:
    if ship.get("reversing") and sequence < 2:
        return False            # inertia: no reversing ship moves in the first sequence (rule 4.42)
    return afloat(ship) and not ship["done"] and ship["moves"] < abs(ship["speed"]) and \
        abs(ship["speed"]) >= _needed(ship, sequence)


def start_sequence(state: State, ctx: Context) -> bool:
    """Queue the ships of the next sequence by initiative (rule 4.41); False when movement ends."""
    nav = state["naval"]
    k = nav["sequence"] + 1
    for ship in state["ships"].values():
        if afloat(ship) and not ship["done"] and ship["moves"] >= abs(ship["speed"]):
            ship["done"] = True
    movers = [s for s in state["ships"].values() if can_move_in(s, k) or
              (afloat(s) and not s["done"] and s.get("reversing") and k == 1 and abs(s["speed"]) >= 1)]
    waiting = [s for s in movers if not can_move_in(s, k)]
    movers = [s for s in movers if can_move_in(s, k)]
    for s in state["ships"].values():
        if afloat(s) and not s["done"] and s not in movers and s not in waiting:
            s["done"] = True
    if not movers and not waiting:
        return False
    nav["sequence"] = k
    key = {}
    for s in movers:
        rank = (-abs(effective_speed(s, k)), TYPE_RANK[s["type"]])
        key[s["id"]] = rank
    ties = nav.setdefault("ties", {})
    groups: dict[tuple[int, int], list[str]] = {}
    for sid, rank in key.items():
        groups.setdefault(rank, []).append(sid)
    for rank, sids in sorted(groups.items()):
        if len(sids) > 1:
            for sid in sorted(sids):
                if sid not in ties:
                    ties[sid] = ctx.dice.d10(f"initiative of {state['ships'][sid]['name']}")
    nav["queue"] = sorted(key, key=lambda sid: (key[sid], -ties.get(sid, 0), sid))
    ctx.emit("sequence", f"sequence {k}: " + (", ".join(state["ships"][s]["name"] for s in nav["queue"])
                                              or "reversing ships gather way"), "VK 4.41", order=nav["queue"])
    return True


# ---------------------------------------------------------------------------- moving (4.43)
def _footprint_ok(board: Board, state: State, ship: Ship, where: PlacedFootprint) -> tuple[str, ...]:
    fp = shipgeom.labels(where)
    if fp is None or any(h not in board for h in fp):
        raise IllegalAction(f"{ship['name']} would leave the map", "VK 4.43")
    for h in fp:
        if board.terrain[h] not in SHIP_TERRAIN:
            raise IllegalAction(f"{ship['name']} cannot go onto {board.terrain[h]} at {h}", "VK 4.44")
    dry = tide.dry_hexes(state) & (set(fp) - set(hexes(board, ship)))
    if dry:
        raise IllegalAction(f"{ship['name']} cannot cross the sandbar at low tide ({', '.join(sorted(dry))})",
                            tide.RULE)
    swimmers = {c["hex"] for c in state["chars"].values() if alive(c) and not c.get("ship") and c.get("hex")}
    if swimmers & set(fp) - set(hexes(board, ship)):
        raise IllegalAction(f"{ship['name']} would run over a character in the water (our ruling: boats steer "
                            "round swimmers)", "VK 4.43")
    return fp


def _overlaps(board: Board, state: State, ship: Ship, fp: tuple[str, ...]) -> dict[str, tuple[str, int]]:
    others = {h: v for h, v in fleet.ship_hexes(board, state).items() if v[0] != ship["id"]}
    return {h: others[h] for h in fp if h in others}


def towed_by(state: State, g: dict[str, Any]) -> tuple[Ship, Ship] | None:
    """(galley or drakkar, rowboat) when rope ``g`` ties a rowboat to a bigger ship afloat: the big
    ship goes on dragging the rowboat (rule 4.63); None for any other rope."""
    if g["status"] != "hooked":
        return None
    a, b = state["ships"][g["ship"]], state["ships"][g["hook_ship"]]
    small = [x for x in (a, b) if ship_types()[x["type"]].get("rowboat")]
    if len(small) != 1 or not afloat(a) or not afloat(b):
        return None
    return (b, a) if small[0] is a else (a, b)


def _rope_problem(board: Board, state: State, sid: str, fp: tuple[str, ...]) -> str | None:
    for g in state["grapples"].values():
        if g["status"] not in ("hooked", "dragging") or sid not in (g["ship"], g["hook_ship"]):
            continue   # a sunken hull still holds its rope (rule 4.7): hexes() keeps its last place
        tow = towed_by(state, g)
        if tow is not None and tow[0]["id"] == sid:
            continue   # a galley or drakkar is not held by a rowboat: it drags it (rule 4.63)
        rope = fp[g["slot"]] if g["ship"] == sid else hexes(board, state["ships"][g["ship"]])[g["slot"]]
        hook = fp[g["hook_slot"]] if g["hook_ship"] == sid else \
            hexes(board, state["ships"][g["hook_ship"]])[g["hook_slot"]]
        if board.distance(rope, hook) > g["max_len"]:
            return f"the grapple rope {g['id']} would stretch beyond {g['max_len']} hexes"
    return None


def move_options(board: Board, state: State, sid: str) -> list[str]:
    """Move types the ship to move may make now (a rehearsal of :func:`ship_move` on a copy)."""
    from simulator.core.plain import copy_plain
    out = []
    for m in MOVES:
        trial = copy_plain(state)
        try:
            ship_move(board, trial, _Quiet(), sid, m, dry=True)
        except IllegalAction:
            continue
        out.append(m)
    return out


class _Quiet:
    """A stand-in context for rehearsals: no events, no dice (a collision is legal to attempt)."""

    class _NoDice:
        def d10(self, purpose: str) -> int:
            raise _Rehearsal()

    dice = _NoDice()

    def emit(self, *args: Any, **kwargs: Any) -> None:
        return None


class _Rehearsal(Exception):
    pass


def ship_move(board: Board, state: State, ctx: Any, sid: str, move: str, dry: bool = False) -> None:
    try:
        _ship_move(board, state, ctx, sid, move)
    except _Rehearsal:
        if not dry:
            raise
    if not dry:
        _after_move(board, state, ctx, sid)


def _ship_move(board: Board, state: State, ctx: Any, sid: str, move: str) -> None:
    nav = state["naval"]
    if nav.get("step") != "movement" or not nav.get("queue") or nav["queue"][0] != sid:
        raise IllegalAction(f"it is not {sid}'s turn to move", "VK 4.41")
    if move not in MOVES:
        raise IllegalAction(f"unknown move {move!r} (moves: {', '.join(MOVES)})", "VK 4.43")
    ship = state["ships"][sid]
    t = ship_types()[ship["type"]]
    k = nav["sequence"]
    backwards = ship["speed"] < 0
    loss = 0
    if move.startswith("lateral"):
        loss = t["lateral_loss"]
    elif move.startswith("turn"):
        loss = t["turn_loss"]
        if ship["turns"] >= t["max_turns"]:
            raise IllegalAction(f"a {t['name'].lower()} may turn only {t['max_turns']} time(s) per phase", "VK 4.43")
    if (ship.get("beached") or ship.get("launching")) and move != "straight":
        raise IllegalAction("a boat leaves the beach with straight moves only, while any of its hexes is on "
                            "the beach", "VK 4.45")
    if move != "straight" and state["rules"].get("helmsman") and not t.get("rowboat") and rudder_damaged(ship):
        loss += 1          # optional rule 5.4: steering with a damaged rudder costs one more speed point
    if move != "straight" and state["rules"].get("helmsman") and not t.get("rowboat") and \
            not any(c.get("duty") == "helmsman" for c in crew(state, sid)):
        raise IllegalAction("without a helmsman the ship goes only straight (optional rule)", "VK 5.4")
    new_speed = sign(ship["speed"]) * max(abs(ship["speed"]) - loss, 0)
    if abs(new_speed) < _needed(ship, k):
        raise IllegalAction(f"after losing {loss} speed the ship could not move in sequence {k}", "VK 4.42")
    where = shipgeom.moved(shipgeom.placed(board.grid, ship), move, backwards)
    fp = _footprint_ok(board, state, ship, where)
    hits = _overlaps(board, state, ship, fp)
    old = hexes(board, ship)
    lead_role = "stern" if backwards else "bow"
    lead = fp[shipgeom.slot_of(ship["type"], lead_role)]
    if hits and move == "straight":
        if lead in hits and hits[lead][0] in ship.get("no_collide", []):
            raise IllegalAction(f"{ship['name']} cannot strike {state['ships'][hits[lead][0]]['name']} again "
                                "until it has moved one hex", "VK 4.52")
        if lead in hits:
            _collide(board, state, ctx, ship, hits[lead], lead, old)
            ship["moves"] += 1
            return
        struck = sorted({v[0] for v in hits.values()})
        if all(_parallel(ship, state["ships"][s]) for s in struck):
            # side into side on parallel courses: no collision, the ships scrape past (rule 4.5, diagram 3)
            _scrape(board, state, ctx, ship, state["ships"][struck[0]])
            ship["moves"] += 1
            return
        raise IllegalAction(f"{ship['name']} would run its side into another boat (a collision is made with the "
                            "bow or stern; only ships on parallel courses scrape past)", "VK 4.5")
    if hits:
        struck = {v[0] for v in hits.values()}
        if not all(ship_types()[state["ships"][s]["type"]].get("rowboat") for s in struck) or t.get("rowboat"):
            raise IllegalAction("lateral moves and turns may not run into another boat (except pushing a rowboat "
                                "aside)", "VK 4.43")
        for s in sorted(struck):
            slot = next(fp.index(h) for h, v in hits.items() if v[0] == s)
            direction = _sweep(board, old[slot], fp[slot]) if move.startswith("turn") else \
                board.grid.direction_index(board.grid.direction_between(ship["pivot"], where.pivot_label))
            _push_rowboat(board, state, ctx, state["ships"][s], direction, ship, fp)
    if move == "straight" and _rope_problem(board, state, sid, fp):
        # rule 4.63: a straight move the rope forbids becomes a lateral move, with no speed lost (a
        # drakkar's neither); if that is impossible too, the ship stops
        slid = _slide(board, state, ship, 0)
        ship["moves"] += 1
        if slid:
            ctx.emit("ship_move", f"{ship['name']} is held by the rope: {slid.replace('_', ' ')} instead of straight "
                     f"({ship['moves']}/{abs(ship['speed'])})", "VK 4.63", pieces=[sid], move=slid)
        else:
            ship["done"], ship["speed"] = True, 0
            ctx.emit("ship_stop", f"{ship['name']} is held by the rope and cannot slide aside: it stops", "VK 4.63",
                     pieces=[sid])
        return
    if move == "straight" and board.terrain[lead] == "beach" and lead not in old:
        ship["beach_hexes"] = ship.get("beach_hexes", 0) + 1
    problem = _rope_problem(board, state, sid, fp)
    if problem:
        raise IllegalAction(problem + " (move along the rope, or stop)", "VK 4.63")
    ship["pivot"], ship["heading"] = where.pivot_label, where.facing
    ship["speed"] = new_speed
    _moved_clear(state, ship)
    ship["moves"] += 1
    if move.startswith("turn"):
        ship["turns"] += 1
    fleet.place_crew(board, state, sid)
    ctx.emit("ship_move", f"{ship['name']} {move.replace('_', ' ')} ({ship['moves']}/{abs(ship['speed'])})",
             "VK 4.43", pieces=[sid], move=move, hexes=list(fp))
    _drag_rowboats(board, state, ctx, ship)
    if ship.get("beach_hexes", 0) >= (1 if abs(ship["speed"]) <= 3 else 2):
        ship["beached"] = True
        ship["launching"] = False
        ship["speed"] = 0
        ship["done"] = True
        ctx.emit("beached", f"{ship['name']} runs up the beach and stops", "VK 4.44", pieces=[sid])


def _drag_rowboats(board: Board, state: State, ctx: Any, big: Ship) -> None:
    """Rowboats roped to ``big`` follow it, a hex at a time, until their ropes are no longer than
    allowed (rule 4.63; our ruling on the path: each step the shift that most shortens the rope, the
    rowboat keeping its heading). A rowboat that cannot follow forbids the move."""
    for g in sorted(state["grapples"].values(), key=lambda g: g["id"]):
        tow = towed_by(state, g)
        if tow is None or tow[0] is not big:
            continue
        boat = tow[1]
        for _ in range(3):
            if _length(board, state, g, {}) <= g["max_len"] or not _pull_closer(board, state, boat, [g]):
                break
            ctx.emit("towed", f"{big['name']} drags {boat['name']} behind it on grapple {g['id']}", "VK 4.63",
                     pieces=[big["id"], boat["id"]])
        if _length(board, state, g, {}) > g["max_len"]:
            raise IllegalAction(f"{boat['name']}, roped to {big['name']}, could not follow it", "VK 4.63")


def slow_towing(state: State, ctx: Any, g: dict[str, Any]) -> None:
    """A galley or drakkar that takes a rowboat in tow loses 1 speed point (rule 4.63)."""
    tow = towed_by(state, g)
    if tow is None:
        return
    big = tow[0]
    big["speed"] = sign(big["speed"]) * max(abs(big["speed"]) - 1, 0)
    if big["speed"] == 0 or big["moves"] >= abs(big["speed"]):
        big["done"] = True
    ctx.emit("towed", f"{big['name']} takes {tow[1]['name']} in tow: speed {big['speed']}", "VK 4.63",
             pieces=[big["id"], tow[1]["id"]])


def _sweep(board: Board, before: str, after: str) -> int:
    """Direction in which a turning hull sweeps through a hex (from ``before`` towards ``after``),
    the way it pushes a rowboat aside (our reading of rule 4.43)."""
    if board.grid.adjacent(before, after):
        return board.grid.direction_index(board.grid.direction_between(before, after))
    steps = {d: _step(board, before, d) for d in range(6)}
    return min((d for d in steps if steps[d] is not None), key=lambda d: board.distance(steps[d], after))


def _step(board: Board, h: str, d: int) -> str | None:
    for dd, n in board.grid.neighbours(h).items():
        if board.grid.direction_index(dd) == d:
            return n
    return None


def _moved_clear(state: State, ship: Ship) -> None:
    """Once a ship has moved a hex, it and the boats it struck may collide again (rule 4.52)."""
    for other in state["ships"].values():
        if ship["id"] in other.get("no_collide", []):
            other["no_collide"].remove(ship["id"])
    ship["no_collide"] = []


def _push_rowboat(board: Board, state: State, ctx: Any, boat: Ship, direction: int, pusher: Ship,
                  pusher_fp: tuple[str, ...] = ()) -> None:
    where = shipgeom.placed(board.grid, boat).shift(direction)
    fp = _footprint_ok(board, state, boat, where)
    others = {h: v for h, v in fleet.ship_hexes(board, state).items() if v[0] not in (boat["id"], pusher["id"])}
    if any(h in others for h in fp) or set(fp) & set(pusher_fp):
        raise IllegalAction(f"{boat['name']} cannot be pushed aside: another boat is in the way", "VK 4.43")
    boat["pivot"] = where.pivot_label
    fleet.place_crew(board, state, boat["id"])
    ctx.emit("pushed", f"{pusher['name']} pushes {boat['name']} aside", "VK 4.43", pieces=[boat["id"], pusher["id"]])


def _after_move(board: Board, state: State, ctx: Context, sid: str) -> None:
    ship = state["ships"][sid]
    nav = state["naval"]
    if nav["queue"] and nav["queue"][0] == sid:
        nav["queue"].pop(0)
    if ship.get("launching") and afloat(ship) and not fleet.on_beach(board, state, sid):
        ship["launching"] = False
        ctx.emit("afloat", f"{ship['name']} is wholly afloat: off the beach", "VK 4.45", pieces=[sid])
    if afloat(ship) and (ship["moves"] >= abs(ship["speed"]) or ship["speed"] == 0):
        ship["done"] = True
        _crash_on_rocks(board, state, ctx, ship)


def hold(board: Board, state: State, ctx: Context, sid: str) -> None:
    """The ship to move has no legal move: it stops for the rest of the phase (rules 4.42, 4.63)."""
    nav = state["naval"]
    if not nav.get("queue") or nav["queue"][0] != sid:
        raise IllegalAction(f"it is not {sid}'s turn to move", "VK 4.41")
    if move_options(board, state, sid):
        raise IllegalAction("the ship can still move; it must use its speed", "VK 4.42")
    ship = state["ships"][sid]
    ship["done"] = True
    ship["speed"] = 0
    nav["queue"].pop(0)
    ctx.emit("ship_stop", f"{ship['name']} cannot move on and stops", "VK 4.63", pieces=[sid])


def _crash_on_rocks(board: Board, state: State, ctx: Context, ship: Ship) -> None:
    fp = hexes(board, ship)
    lead = fp[shipgeom.slot_of(ship["type"], "stern" if ship["speed"] < 0 else "bow")]
    if board.terrain[lead] not in ("embankment", "rocks"):
        return
    v = abs(effective_speed(ship, state["naval"]["sequence"]))
    sf = (v + v) * 2
    ctx.emit("collision", f"{ship['name']} ends its move on the rocks at {lead}: like a head-on collision "
             f"at speed {v} (SF {sf})", "VK 4.44", pieces=[ship["id"]])
    if sf > 0:
        die = ctx.dice.d10(f"rocks: {ship['name']}")
        row = _row(die + sf)
        _damage_ship(board, state, ctx, ship, fp.index(lead), row, True, "VK 4.44")
    ship["speed"] = 0


def _row(total: int) -> int:
    rows = tables()["collision"]
    return max(i for i, r in enumerate(rows) if total >= r["from"])


def _collide(board: Board, state: State, ctx: Any, a: Ship, struck: tuple[str, int], lead: str,
             old: tuple[str, ...]) -> None:
    """Ship ``a`` moving straight strikes ``struck`` = (ship id, slot) with its leading hex (rule 4.5)."""
    b = state["ships"][struck[0]]
    ta, tb = ship_types()[a["type"]], ship_types()[b["type"]]
    k = state["naval"]["sequence"]
    strike_slot = shipgeom.slot_of(a["type"], "stern" if a["speed"] < 0 else "bow")
    if ta.get("rowboat"):
        ctx.emit("collision", f"{a['name']} bumps into {b['name']}: a rowboat's collision has no effect",
                 "VK 4.52", pieces=[a["id"], b["id"]])
        a["done"] = True
        return
    if tb.get("rowboat"):
        _wreck_rowboat(board, state, ctx, b, a)
        a["speed"] = sign(a["speed"]) * max(abs(a["speed"]) - 1, 0)
        return
    dir_a = (a["heading"] + (3 if a["speed"] < 0 else 0)) % 6
    dir_b = (b["heading"] + (3 if b["speed"] < 0 else 0)) % 6
    struck_role = fleet.role(b, struck[1])
    same_axis = (dir_a - dir_b) % 3 == 0
    if same_axis and struck_role not in ("bow", "stern"):
        _scrape(board, state, ctx, a, b)
        return
    va, vb = abs(effective_speed(a, k)), abs(effective_speed(b, k))
    if same_axis and dir_a != dir_b:
        kind, sf = "head_on", (va + vb) * 2
    elif same_axis:
        kind, sf = "rear", (va - vb) * 2
    else:
        kind, sf = "lateral", va * 2
    names = [a["id"], b["id"]]
    if va == 0:
        ctx.emit("collision", f"{a['name']} touches {b['name']} with no way on: no collision, it is stopped",
                 "VK 4.52", pieces=names)
        a["done"] = True
        return
    if sf <= 0:
        ctx.emit("collision", f"{a['name']} meets {b['name']} ({kind}, SF 0): no effect", "VK 4.52", pieces=names)
        a["done"] = True
        return
    die = ctx.dice.d10(f"collision of {a['name']} and {b['name']}")
    row = _row(die + sf)
    ctx.emit("collision", f"{a['name']} strikes {b['name']} ({kind.replace('_', '-')}, speeds {va} and {vb}): "
             f"SF {sf} + die {die} = {die + sf}", "VK 4.52", pieces=names, collision=kind, sf=sf, die=die)
    _damage_ship(board, state, ctx, b, struck[1], row, True, "VK 9.6")
    from simulator.games.vikings.horses import shake_off
    shake_off(board, state, ctx, b["id"], "is rammed", "VK 4.83.2")
    shake_off(board, state, ctx, a["id"], "rams another", "VK 4.83.2")
    if kind == "lateral":
        hull = a["damage"].get(str(strike_slot), 0) > 0
        _damage_ship(board, state, ctx, a, strike_slot, max(row - 1, 0), hull, "VK 9.6")
    else:
        _damage_ship(board, state, ctx, a, strike_slot, row, True, "VK 9.6")
    a.setdefault("no_collide", []).append(b["id"])
    b.setdefault("no_collide", []).append(a["id"])
    rule = tables()["collision_speed"][kind]
    for ship, how, other in ((a, rule["striker"], b), (b, rule["struck"], a)):
        if how == "zero":
            ship["speed"] = 0
        elif how == "minus1":
            ship["speed"] = sign(ship["speed"]) * max(abs(ship["speed"]) - 1, 0)
        elif how == "match":
            ship["speed"] = sign(ship["speed"]) * min(abs(ship["speed"]), abs(other["speed"]))
        if ship["speed"] == 0 or ship["moves"] >= abs(ship["speed"]):
            ship["done"] = True
    ctx.emit("collision_speed", f"after the collision: {a['name']} speed {a['speed']}, {b['name']} speed "
             f"{b['speed']} (our ruling: the table has no speed column)", "VK 4.52", pieces=names)
    _limit_to_rowers(state, ctx, a)
    _limit_to_rowers(state, ctx, b)


def _limit_to_rowers(state: State, ctx: Any, ship: Ship) -> None:
    """If the surviving rowers cannot keep the speed, it drops at once (rule 4.52)."""
    if not afloat(ship):
        return
    fwd, rev, _ = fleet.speed_limits(state, ship["id"])
    capped = max(-rev, min(fwd, ship["speed"]))
    if capped != ship["speed"] and (fwd or rev):
        ship["speed"] = capped
        ctx.emit("speed", f"{ship['name']}'s remaining rowers can only keep speed {capped}", "VK 4.52",
                 pieces=[ship["id"]])


def _slide(board: Board, state: State, a: Ship, loss: int) -> str | None:
    """A lateral move made in place of a straight one (rules 4.51, 4.63): left, else right, into free
    water that keeps every rope within its length; the speed drops by ``loss``. The move's name, or
    None when neither side is free (nothing changes)."""
    for move in ("lateral_left", "lateral_right"):
        where = shipgeom.moved(shipgeom.placed(board.grid, a), move, a["speed"] < 0)
        try:
            fp = _footprint_ok(board, state, a, where)
        except IllegalAction:
            continue
        if _overlaps(board, state, a, fp) or _rope_problem(board, state, a["id"], fp):
            continue
        a["pivot"] = where.pivot_label
        a["speed"] = sign(a["speed"]) * max(abs(a["speed"]) - loss, 0)
        _moved_clear(state, a)
        fleet.place_crew(board, state, a["id"])
        return move
    return None


def _parallel(a: Ship, b: Ship) -> bool:
    """The two ships lie on the same axis, either way round (rule 4.51)."""
    return (a["heading"] - b["heading"]) % 3 == 0


def _scrape(board: Board, state: State, ctx: Any, a: Ship, b: Ship) -> None:
    """Parallel ships: the straight move becomes a lateral move, scraping past (rule 4.51, diagram 3).
    The caller counts the move."""
    move = _slide(board, state, a, ship_types()[a["type"]]["lateral_loss"])
    if move:
        ctx.emit("ship_move", f"{a['name']} scrapes past {b['name']} ({move.replace('_', ' ')})", "VK 4.51",
                 pieces=[a["id"], b["id"]])
        return
    a["done"] = True
    ctx.emit("ship_stop", f"{a['name']} is blocked by {b['name']} and stops", "VK 4.51", pieces=[a["id"], b["id"]])


def _wreck_rowboat(board: Board, state: State, ctx: Any, boat: Ship, by: Ship) -> None:
    boat["wrecked"] = True
    ctx.emit("wrecked", f"{by['name']} runs down {boat['name']}: the rowboat is wrecked", "VK 4.52",
             pieces=[boat["id"], by["id"]])
    _spill(board, state, ctx, boat, "VK 4.52")


def _spill(board: Board, state: State, ctx: Any, ship: Ship, rule: str) -> None:
    """Everyone aboard falls into the water where he stood (rules 4.52, 4.7)."""
    for horse in state["horses"].values():
        if horse.get("ship") == ship["id"]:
            horse["ship"] = horse["slots"] = None
    for ch in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if ch.get("ship") != ship["id"]:
            continue
        ch["ship"] = ch["slot"] = ch["duty"] = None
        if alive(ch):
            ctx.emit("overboard", f"{ch['name']} falls into the water at {ch['hex']}", rule, pieces=[ch["id"]])
            if armoured(ch) and board.kind(ch["hex"]) == "deep":
                effects.kill(board, state, ch, ctx, "armoured, fell into deep water", "VK 4.85")
        else:
            ch["hex"] = None


def _damage_ship(board: Board, state: State, ctx: Any, ship: Ship, slot: int, row: int, hull: bool,
                 rule: str) -> None:
    r = tables()["collision"][row]
    if hull and r["hull"]:
        key = str(slot)
        before = ship["damage"].get(key, 0)
        ship["damage"][key] = before + r["hull"]
        ship["total"] += r["hull"]
        if ship["damage"][key] >= 2:
            ship["leaks"][key] = ship["damage"][key]
            ship.setdefault("new_leaks", []).append(key)
        ctx.emit("hull", f"{ship['name']} takes {r['hull']} hull point(s) at {hexes(board, ship)[slot]} "
                 f"(total {ship['total']})" + (" - a leak" if ship["damage"][key] >= 2 else ""), rule,
                 pieces=[ship["id"]])
    if hull and r["hull"]:
        # the collisions that count for the bailing floor of rule 4.7 are those that holed the hull: a
        # "no effect" row leaves nothing to bail and must not raise the total (our reading)
        ship["collisions"] += 1
    people = sorted((c for c in crew(state, ship["id"])), key=lambda c: c["id"])
    impact = [c for c in people if c["slot"] == slot]
    others = [c for c in people if c["slot"] != slot]
    for c in impact:
        if r["impact"] == "wounded":
            effects.wound(board, state, c, ctx, "collision impact", rule)
        elif r["impact"] == "killed":
            effects.kill(board, state, c, ctx, "collision impact", rule)
    for count, fn in ((r["killed"], effects.kill), (r["wounded"], effects.wound), (r["stunned"], effects.stun)):
        for _ in range(count):
            pool = [c for c in others if alive(c)]
            if not pool:
                break
            victim = pool.pop(0)
            others.remove(victim)
            fn(board, state, victim, ctx, "thrown about by the collision", rule)


# ---------------------------------------------------------------------------- grapples (4.6)
def grapple_actions_possible(board: Board, state: State, side: str) -> bool:
    return bool(throw_options(board, state, side) or cut_options(board, state, side))


def throw_options(board: Board, state: State, side: str) -> list[tuple[str, str]]:
    out = []
    ships = fleet.ship_hexes(board, state)
    for g in sorted(state["grapples"].values(), key=lambda g: g["id"]):
        if g["side"] != side or g["status"] != "ready" or g.get("carried_by") or \
                not afloat(state["ships"][g["ship"]]):
            continue
        rope_hex = hexes(board, state["ships"][g["ship"]])[g["slot"]]
        thrower = next((c for c in crew(state, g["ship"]) if c["slot"] == g["slot"] and c.get("duty") == "grapple"
                        and active(c) and not c.get("threw")), None)
        if thrower is None or _enemy_aboard_adjacent(board, state, thrower):
            continue
        for h, (sid, slot) in ships.items():
            ship = state["ships"][sid]
            if ship["side"] == side or fleet.role(ship, slot) not in ("port", "starboard", "bow", "stern"):
                continue
            if 1 <= board.distance(rope_hex, h) <= tables()["grapple"]["max_distance"] and \
                    not any(x["status"] == "hooked" and x["hook_ship"] == sid and x["hook_slot"] == slot
                            for x in state["grapples"].values()):
                out.append((thrower["id"], h))
    return out


def cut_options(board: Board, state: State, side: str) -> list[tuple[str, str]]:
    out = []
    for g in sorted(state["grapples"].values(), key=lambda g: g["id"]):
        if g["status"] not in ("hooked", "dragging"):
            continue
        for c in state["chars"].values():
            if c["side"] == side and active(c) and c.get("duty") == "boarding" and not c.get("cut_tried") and \
                    ((c.get("ship") == g["hook_ship"] and c["slot"] == g["hook_slot"]) or
                     (c.get("ship") == g["ship"] and c["slot"] == g["slot"])):
                out.append((c["id"], g["id"]))
    return out


def _check_sinking(board: Board, state: State, ctx: Context, ship: Ship) -> None:
    """Sink the ship if its total reached the threshold (a beached one stays, holed, rule 4.7)."""
    if not afloat(ship) or ship["total"] < ship_types()[ship["type"]]["sinks_at"]:
        return
    sid = ship["id"]
    if ship.get("beached"):
        if not ship.get("immobile"):
            ship["immobile"] = True
            ctx.emit("damage", f"{ship['name']} is holed on the beach and will never float again", "VK 4.7",
                     pieces=[sid])
        return
    ship["sunk"] = True
    ctx.emit("sunk", f"{ship['name']} sinks", "VK 4.7", pieces=[sid])
    _spill(board, state, ctx, ship, "VK 4.7")
    for g in sorted(state["grapples"].values(), key=lambda g: g["id"]):
        if g["status"] == "hooked" and sid in (g["ship"], g.get("hook_ship")):
            other = state["ships"][g["hook_ship"] if g["ship"] == sid else g["ship"]]
            if afloat(other):
                g.update(status="dragging", sunk_ship=sid, held_ship=other["id"])
                _drag(board, state, ctx, g)
                continue
        if sid in (g["ship"], g.get("hook_ship")):
            g["status"] = "lost"


def _drag(board: Board, state: State, ctx: Context, g: dict[str, Any]) -> None:
    """A boat still roped to a sunken one takes 5 points (at the sinking and every later naval
    phase) until the rope is cut (rule 4.7; our reading of the garbled sentence, digest question 25)."""
    held = state["ships"][g["held_ship"]]
    if not afloat(held):
        g["status"] = "lost"
        return
    extra = tables()["sinking_drag_points"]
    held["total"] += extra
    g["dragged_at"] = [state["turn"], state["phase_index"]]
    ctx.emit("damage", f"{held['name']} is dragged by the rope of {g['id']} to the sunken "
             f"{state['ships'][g['sunk_ship']]['name']}: +{extra} (total {held['total']})", "VK 4.7",
             pieces=[held["id"]])
    _check_sinking(board, state, ctx, held)


def _enemy_aboard_adjacent(board: Board, state: State, ch: Char) -> bool:
    near = board.neighbours(ch["hex"])
    return any(e["side"] != ch["side"] and active(e) and e.get("ship") == ch.get("ship") and e["hex"] in near
               for e in state["chars"].values())


def throw(board: Board, state: State, ctx: Context, cid: str, target: str) -> None:
    ch = state["chars"][cid]
    if (cid, target) not in throw_options(board, state, ch["side"]):
        raise IllegalAction(f"{ch['name']} cannot throw a grapple at {target} now (needs the grapple duty on a ready "
                            "grapple, a hull hex of an enemy boat within 5 hexes, no enemy beside him aboard, one "
                            "try per phase)", "VK 4.62")
    g = next(g for g in state["grapples"].values() if g["ship"] == ch["ship"] and g["slot"] == ch["slot"]
             and g["status"] == "ready")
    sid, slot = fleet.ship_hexes(board, state)[target]
    dist = board.distance(ch["hex"], target)
    mod = tables()["grapple"]["throw_modifier_weak"] if weak(ch) else 0
    die = ctx.dice.d10(f"grapple throw of {ch['name']}")
    ch["threw"] = True
    need = 2 * dist
    if die + mod >= need:
        g.update(status="hooked", hook_ship=sid, hook_slot=slot,
                 max_len=min(tables()["grapple"]["max_distance"], dist + tables()["grapple"]["extra_rope_on_throw"]))
        ctx.emit("grapple", f"{ch['name']} throws a grapple {dist} hexes: {die}{mod:+d} >= {need}, "
                 f"{state['ships'][sid]['name']} is hooked at {target}", "VK 4.62", pieces=[cid, sid])
        if state["rules"].get("hemp"):
            _hemp(board, state, ctx, g)
        slow_towing(state, ctx, g)
    else:
        g.update(status="missed", missed_at=[state["turn"], state["phase_index"]])
        ctx.emit("grapple", f"{ch['name']} throws a grapple {dist} hexes: {die}{mod:+d} < {need}, it falls in "
                 "the sea", "VK 4.62", pieces=[cid])


def _hemp(board: Board, state: State, ctx: Context, g: dict[str, Any]) -> None:
    """Optional rule 5.3: a rope thrown at a boat heading the other way may snap."""
    a, b = state["ships"][g["ship"]], state["ships"][g["hook_ship"]]
    if (a["heading"] - b["heading"]) % 6 not in (2, 3, 4):
        return
    die = ctx.dice.d10("strength of hemp")
    total = die + abs(a["speed"]) + abs(b["speed"])
    if total >= tables()["hemp_breaks_from"]:
        g["status"] = "lost"
        ctx.emit("grapple", f"the rope snaps ({total})", "VK 5.3", pieces=[a["id"], b["id"]])


def cut(board: Board, state: State, ctx: Context, cid: str, gid: str) -> None:
    ch = state["chars"][cid]
    if (cid, gid) not in cut_options(board, state, ch["side"]):
        raise IllegalAction(f"{ch['name']} cannot cut {gid} (boarding party in the hook's or rope's hex, one try "
                            "per phase)", "VK 4.64")
    ch["cut_tried"] = True
    mod = tables()["grapple"]["cut_modifier_weak"] if weak(ch) else 0
    die = ctx.dice.d10(f"{ch['name']} cuts a rope")
    if die + mod <= tables()["grapple"]["cut_at_most"]:
        state["grapples"][gid]["status"] = "lost"
        ctx.emit("grapple", f"{ch['name']} cuts the rope ({die}{mod:+d})", "VK 4.64", pieces=[cid])
    else:
        ctx.emit("grapple", f"{ch['name']} fails to cut the rope ({die}{mod:+d})", "VK 4.64", pieces=[cid])


def haul_options(board: Board, state: State, side: str) -> list[str]:
    out = set()
    for g in state["grapples"].values():
        hauler = _hauler(state, g) if g["side"] == side and g["status"] == "hooked" else None
        if hauler is not None and not hauler.get("hauled"):
            out.add(g["hook_ship"])       # each rope is hauled once per naval phase (rule 4.65)
    return sorted(out)


def _hauler(state: State, g: dict[str, Any]) -> Char | None:
    return next((c for c in crew(state, g["ship"]) if c["slot"] == g["slot"] and c.get("duty") == "grapple"
                 and active(c)), None)


def haul(board: Board, state: State, ctx: Context, side: str, target: str) -> None:
    """Haul two boats together on the manned ropes (rule 4.65): 1, 2 or 3 hexes for 1, 2, 3+ grapples."""
    if target not in haul_options(board, state, side):
        raise IllegalAction(f"no manned grapple of yours holds {target}", "VK 4.65")
    ropes = [g for g in state["grapples"].values() if g["side"] == side and g["status"] == "hooked"
             and g["hook_ship"] == target and _hauler(state, g) is not None]
    own = state["ships"][ropes[0]["ship"]]
    other = state["ships"][target]
    # the lighter boat moves; between equals, the hauling one (rule 4.65)
    mover, anchor = (other, own) if fleet.weight(other) < fleet.weight(own) else (own, other)
    steps = tables()["grapple"]["haul_hexes"][min(len(ropes), 3) - 1]
    done = 0
    from simulator.games.vikings.horses import shake_off
    shake_off(board, state, ctx, mover["id"], "is hauled", "VK 4.83.2")
    swung = _swing(board, state, ctx, mover, anchor, ropes)
    for _ in range(0 if swung else steps):
        if not _pull_closer(board, state, mover, ropes):
            break
        done += 1
    for g in ropes:
        _hauler(state, g)["hauled"] = True 
    if not swung:
        ctx.emit("haul", f"{side} hauls on {len(ropes)} rope(s): {mover['name']} comes {done} hex(es) closer to "
                 f"{anchor['name']}", "VK 4.65", pieces=[mover["id"], anchor["id"]])
    for g in ropes:
        g["max_len"] = min(g["max_len"], _length(board, state, g, {}))


def _pull_closer(board: Board, state: State, boat: Ship, ropes: list[dict[str, Any]]) -> bool:
    """Shift ``boat`` one hex (keeping its heading) the way that most shortens ``ropes``, into free
    water; False if no shift shortens them (hauling 4.65, towing 4.63)."""
    best = None
    now = _rope_total(board, state, ropes, {})
    for d in range(6):
        where = shipgeom.placed(board.grid, boat).shift(d)
        try:
            fp = _footprint_ok(board, state, boat, where)
        except IllegalAction:
            continue
        if _overlaps(board, state, boat, fp):
            continue
        total = _rope_total(board, state, ropes, {boat["id"]: fp})
        if total < now and (best is None or total < best[0]):
            best = (total, where.pivot_label)
    if best is None:
        return False
    boat["pivot"] = best[1]
    fleet.place_crew(board, state, boat["id"])
    return True


def _gap(board: Board, a: tuple[str, ...], b: tuple[str, ...]) -> int:
    return min(board.distance(x, y) for x in a for y in b)


def _alongside(board: Board, a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """Hexes of hull ``a`` touching hull ``b`` (3 or more: the boats lie side by side)."""
    near = {n for h in b for n in board.neighbours(h)}
    return sum(1 for h in a if h in near)


def _swing(board: Board, state: State, ctx: Context, mover: Ship, anchor: Ship, ropes: list[dict[str, Any]]) -> bool:
    """Rule 4.65 diagram 2: boats one hex apart with the rope at 60 degrees: the hauled boat swings
    round (60 degrees about its pivot, then at most one hex) to lie side by side with the other."""
    here = hexes(board, mover)
    there = hexes(board, anchor)
    if _gap(board, here, there) != 2 or (mover["heading"] - anchor["heading"]) % 3 == 0:
        return False
    best = None
    for turn in (-1, 1):
        rot = shipgeom.placed(board.grid, mover).turn(turn)
        for where in [rot] + [rot.shift(d) for d in range(6)]:
            try:
                fp = _footprint_ok(board, state, mover, where)
            except IllegalAction:
                continue
            if (where.facing - anchor["heading"]) % 3 or _overlaps(board, state, mover, fp) or \
                    _alongside(board, fp, there) < 3:
                continue
            total = _rope_total(board, state, ropes, {mover["id"]: fp})
            if best is None or total < best[0]:
                best = (total, where.pivot_label, where.facing)
    if best is None:
        return False
    mover["pivot"], mover["heading"] = best[1], best[2]
    fleet.place_crew(board, state, mover["id"])
    ctx.emit("haul", f"{mover['name']} swings round alongside {anchor['name']}", "VK 4.65",
             pieces=[mover["id"], anchor["id"]])
    return True


def _length(board: Board, state: State, g: dict[str, Any], fps: dict[str, tuple[str, ...]]) -> int:
    a = fps.get(g["ship"]) or hexes(board, state["ships"][g["ship"]])
    b = fps.get(g["hook_ship"]) or hexes(board, state["ships"][g["hook_ship"]])
    return board.distance(a[g["slot"]], b[g["hook_slot"]])


def _rope_total(board: Board, state: State, ropes: list[dict[str, Any]], fps: dict[str, tuple[str, ...]]) -> int:
    return sum(_length(board, state, g, fps) for g in ropes)


# ---------------------------------------------------------------------------- end of phase (4.7)
def record_damage(board: Board, state: State, ctx: Context) -> None:
    """Step 1.5: leaks, bailing, sinking (rule 4.7, with the digest's reading of the example), and
    the 5 points a boat still roped to a sunken one takes every naval phase."""
    from simulator.games.vikings import shipwork
    shipwork.overboard(state, ctx)
    held = shipwork.plug_leaks(board, state, ctx)
    for sid, ship in sorted(state["ships"].items()):
        if not afloat(ship):
            continue
        new = set(ship.get("new_leaks", []))
        rising = sum(v for k, v in ship["leaks"].items() if k not in new and k not in ship.get("plugged", [])
                     and (sid, k) not in held)
        bailers = [c for c in crew(state, sid) if c.get("duty") == "bailer" and c["status"] != "stunned"]
        bail = len(bailers) // 2
        before = ship["total"]
        flooded = ship["total"] + rising
        # bailing may not bring the total below the number of collisions suffered (rule 4.7): a
        # limit on what the bailers take away, never a reason for the total to rise
        ship["total"] = max(flooded - bail, min(flooded, ship["collisions"]))
        ship["new_leaks"] = []
        if rising or bail:
            ctx.emit("damage", f"{ship['name']}: leaks +{rising}, bailing -{bail}: {before} -> {ship['total']}",
                     "VK 4.7", pieces=[sid])
        _check_sinking(board, state, ctx, ship)
    for g in sorted(state["grapples"].values(), key=lambda g: g["id"]):
        if g["status"] == "dragging" and not g.get("dragged_at") == [state["turn"], state["phase_index"]]:
            _drag(board, state, ctx, g)
    for g in state["grapples"].values():
        if g["status"] == "hooked":
            g["max_len"] = _length(board, state, g, {})
        elif g["status"] == "missed" and g.get("missed_at") != [state["turn"], state["phase_index"]]:
            g["status"] = "ready"
            ctx.emit("grapple", f"grapple {g['id']} is hauled back aboard, ready again", "VK 4.62")
