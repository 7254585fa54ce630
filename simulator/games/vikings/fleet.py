"""Ships in the state: where their hexes are, who is aboard, their speed limits (rules 4.1-4.34, 4.7)."""

from __future__ import annotations

from typing import Any

from simulator.games.vikings import shipgeom
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import ship_types
from simulator.games.vikings.pieces import alive, ctype

Ship = dict[str, Any]
State = dict[str, Any]


def afloat(ship: Ship) -> bool:
    return not ship.get("sunk") and not ship.get("wrecked")


def hexes(board: Board, ship: Ship) -> tuple[str, ...]:
    fp = shipgeom.footprint(board.grid, ship["type"], ship["pivot"], ship["heading"])
    assert fp is not None, f"ship {ship['id']} is off the grid"
    return fp


def ship_hexes(board: Board, state: State) -> dict[str, tuple[str, int]]:
    """Hex -> (ship id, slot) for every ship afloat."""
    out: dict[str, tuple[str, int]] = {}
    for sid, ship in state["ships"].items():
        if afloat(ship):
            for slot, h in enumerate(hexes(board, ship)):
                out[h] = (sid, slot)
    return out


def role(ship: Ship, slot: int) -> str:
    return shipgeom.roles(ship["type"])[slot]


def is_side(ship: Ship, slot: int) -> bool:
    return role(ship, slot) in ("port", "starboard") or (
        ship_types()[ship["type"]].get("rowboat", False))


def crew(state: State, sid: str, living: bool = True) -> list[dict[str, Any]]:
    return [ch for ch in state["chars"].values()
            if ch.get("ship") == sid and (alive(ch) or not living)]


def place_crew(board: Board, state: State, sid: str) -> None:
    """Put every character and horse aboard ``sid`` on the hex of its deck slot (after a ship move)."""
    ship = state["ships"][sid]
    fp = hexes(board, ship)
    for ch in state["chars"].values():
        if ch.get("ship") == sid:
            ch["hex"] = fp[ch["slot"]]
    for horse in state["horses"].values():
        if horse.get("ship") == sid and horse.get("slots"):   # horses aboard (rule 4.83.2)
            horse["hex"], horse["front"] = fp[horse["slots"][0]], fp[horse["slots"][1]]


def rowers(state: State, sid: str) -> dict[str, int]:
    """Rowers per side row that can row now (rule 4.2: duty rower, on an undamaged side hex)."""
    ship = state["ships"][sid]
    out = {"port": 0, "starboard": 0, "any": 0, "vikings_only": True}
    for ch in crew(state, sid):
        if ch["status"] == "stunned" or ch.get("duty") != "rower":
            continue
        if ship["damage"].get(str(ch["slot"]), 0) > 0:
            continue
        r = role(ship, ch["slot"])
        if r in ("port", "starboard"):
            out[r] += 1
        out["any"] += 1
        if ch["side"] != "vikings":
            out["vikings_only"] = False
    return out


def rowing(state: State, sid: str) -> int:
    """Pairs of rowers (a rowboat: rowers) pulling now (rule 4.32); 0: nobody rows."""
    t = ship_types()[state["ships"][sid]["type"]]
    r = rowers(state, sid)
    return r["any"] if t.get("rowboat") else min(r["port"], r["starboard"])


def speed_limits(state: State, sid: str) -> tuple[int, int, int]:
    """(max forward, max reverse, acceleration) this naval phase (rules 4.3-4.33, 4.7)."""
    ship = state["ships"][sid]
    t = ship_types()[ship["type"]]
    r = rowers(state, sid)
    count = rowing(state, sid)
    cap = min(count, t["max_rowers"] // (1 if t.get("rowboat") else 2))
    bonus = t.get("pair_speed_bonus")
    if bonus and count >= bonus["pairs"] and (r["vikings_only"] or not bonus.get("only_vikings")):
        cap = bonus["speed"]
    acc = 0
    for need, step in t["acceleration"]:
        if count >= need:
            acc = step
    speed_pen, acc_pen = ship["total"] // 3, ship["total"] // 6
    fwd = max(0, min(t["max_forward"], cap) - speed_pen)
    rev = max(0, min(t["max_reverse"], cap) - speed_pen)
    acc = max(0, acc - acc_pen)
    return fwd, rev, acc


def legal_speeds(state: State, sid: str) -> list[int]:
    """Every speed marker the ship may take this phase (rules 4.33, 4.45)."""
    ship = state["ships"][sid]
    prev = ship["speed"]
    if ship.get("stranded") or ship.get("immobile"):
        return [0]
    fwd, rev, acc = speed_limits(state, sid)
    if rowing(state, sid) == 0:
        # nobody rows: the ship loses one point per phase (note to table 9.5)
        options = [prev - 1 if prev > 0 else prev + 1 if prev < 0 else 0]
    else:
        # rowers pulling keep the way on even when damage has cancelled every point of
        # acceleration (acc 0): the ship holds its speed, within its reduced maximum (rule 4.7)
        options = [v for v in range(prev - acc, prev + acc + 1) if -rev <= v <= fwd]
        if not options:
            # rowers lost or hull damaged: the speed falls to what is left (rules 4.52, 4.7)
            options = [max(-rev, min(fwd, prev))]
    if ship.get("beached") or ship.get("launching"):
        # while any hex of a boat being pushed off is on the beach, at most speed 1 (rule 4.45)
        options = [v for v in options if -1 <= v <= 1] or [0]
    return sorted(set(options))


def pusher_ids(board: Board, state: State, sid: str) -> list[str]:
    """Characters of the ship's side standing on beach or coastal water next to it (rule 4.45), by id."""
    ship = state["ships"][sid]
    fp = set(hexes(board, ship))
    near = {n for h in fp for n in board.neighbours(h)} - fp
    onboard = ship_hexes(board, state)
    return sorted(ch["id"] for ch in state["chars"].values()
                  if ch["side"] == ship["side"] and alive(ch) and ch["status"] != "stunned" and not ch.get("ship")
                  and ch["hex"] in near and ch["hex"] not in onboard and board.kind(ch["hex"]) in ("beach", "coastal"))


def pushers(board: Board, state: State, sid: str) -> int:
    return len(pusher_ids(board, state, sid))


def on_beach(board: Board, state: State, sid: str) -> bool:
    return any(board.terrain[h] == "beach" for h in hexes(board, state["ships"][sid]))


def display_name(state: State, sid: str) -> str:
    return state["ships"][sid]["name"]


def weight(ship: Ship) -> int:
    return ship_types()[ship["type"]]["weight"]


def female_ok(ch: dict[str, Any], ship: Ship) -> bool:
    """Female characters row only in rowboats (rule 4.32)."""
    return not ctype(ch).female or bool(ship_types()[ship["type"]].get("rowboat"))
