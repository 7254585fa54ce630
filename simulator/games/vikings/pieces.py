"""Characters and horses in the state: their current counter values and where they stand.

A character's ``status`` is ``ok``, ``stunned``, ``wounded`` or ``dead`` (a stunned or
wounded character stunned or wounded again dies, note to table 8.8). A rider occupies
``hex`` (rear half) and ``front`` (front half, facing = direction rear -> front).
"""

from __future__ import annotations

from typing import Any

from simulator.games.vikings.catalogue import CharacterType, characters

Char = dict[str, Any]
State = dict[str, Any]


def ctype(ch: Char) -> CharacterType:
    return characters()[ch["kind"]]


def values(ch: Char) -> tuple[int, int, int]:
    """(attack, defence, movement) printed on the counter the character shows now (table 9.1)."""
    c = ctype(ch).counters
    status = ch["status"]
    if status == "dead":
        return 0, 0, 0
    if status == "stunned":
        return 0, c["stunned_defence"], 0
    if ch.get("mounted"):
        a, d, m = c["mounted_wounded"] if status == "wounded" else c["mounted"]
    else:
        a, d, m = c["wounded"] if status == "wounded" else c["foot"]
    if ch.get("move_override") is not None and not ch.get("mounted"):
        m = ch["move_override"] if status == "ok" else min(m, ch["move_override"])
    return a, d, m


def attack_value(ch: Char) -> int:
    a = values(ch)[0]
    return a * 2 if ch.get("axe") else a


def alive(ch: Char) -> bool:
    return ch["status"] != "dead" and ch.get("hex") is not None


def active(ch: Char) -> bool:
    """Alive and not stunned: can move, shoot, fight."""
    return alive(ch) and ch["status"] != "stunned"


def armoured(ch: Char) -> bool:
    return ctype(ch).armour


def weak(ch: Char) -> bool:
    """Wounded, old or female: the grapple modifiers of rules 4.62 and 4.64."""
    t = ctype(ch)
    return ch["status"] == "wounded" or t.old or t.female


def hexes_of(ch: Char) -> list[str]:
    if not alive(ch):
        return []
    return [ch["hex"], ch["front"]] if ch.get("mounted") else [ch["hex"]]


def front_hex(ch: Char) -> str:
    return ch["front"] if ch.get("mounted") else ch["hex"]


def living_at(state: State) -> dict[str, list[str]]:
    """Hex -> ids of living characters (stunned included) and living riderless horses there."""
    out: dict[str, list[str]] = {}
    for cid, ch in state["chars"].items():
        for h in hexes_of(ch):
            out.setdefault(h, []).append(cid)
    for hid, horse in state["horses"].items():
        if horse["alive"]:
            for h in (horse["hex"], horse["front"]):
                out.setdefault(h, []).append(hid)
    return out


def bodies_at(state: State, hex_: str) -> tuple[int, int]:
    """(dead people, dead horses) lying in a hex (rule 2.51.5). Dead horses count on both hexes."""
    people = sum(1 for ch in state["chars"].values()
                 if ch["status"] == "dead" and ch.get("hex") == hex_ and not ch.get("ship"))
    horses = sum(1 for h in state["horses"].values() if not h["alive"] and hex_ in (h["hex"], h["front"]))
    return people, horses


def enemies_of(state: State, side: str) -> list[Char]:
    return [ch for ch in state["chars"].values() if ch["side"] != side and alive(ch)]
