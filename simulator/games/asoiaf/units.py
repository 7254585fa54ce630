"""A Combat unit as plain state: figures, ranks, wounds, attack dice, abilities (digest §4)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.geometry.table import rect_corners
from simulator.games.asoiaf.catalogue import Catalogue

Unit = dict[str, Any]
CONDITIONS = ("panicked", "vulnerable", "weakened")


def new_unit(cat: Catalogue, uid: str, side: str, card_id: str, attachment: str | None,
             x: float, y: float, facing: float) -> Unit:
    """A full-strength unit of card ``card_id`` (with an optional attachment) at a pose."""
    card = cat.units[card_id]
    tray = cat.trays[card["tray"]]
    files, ranks = int(tray["files"]), int(tray["ranks"])
    abilities = list(card["abilities"])
    commander = False
    cost = int(card["cost"])
    if attachment is not None:
        att = cat.attachments[attachment]
        abilities += [a for a in att["abilities"] if a not in abilities]
        commander = bool(att.get("commander"))
        cost += int(att["cost"])
    return {
        "id": uid, "side": side, "card": card_id, "name": cat.full_name(card_id),
        "type": card["type"], "tray": card["tray"], "attachment": attachment, "commander": commander,
        "x": float(x), "y": float(y), "facing": float(facing) % 360,
        "width": float(tray["width"]), "depth": float(tray["depth"]),
        "files": files, "ranks_max": ranks, "figures_max": files * ranks, "figures": files * ranks,
        "wounds_per_figure": int(card.get("wounds", 1)), "damage": 0,
        "speed": int(card["speed"]), "defense": int(card["defense"]), "morale": int(card["morale"]),
        "attacks": [dict(a) for a in card["attacks"]], "abilities": abilities, "cost": cost,
        "activated": False, "conditions": [], "orders_used": [], "influence": {},
        "destroyed": False, "objective": None, "marked": False, "vp_tokens": 0, "speed_bonus": 0,
        "reserve": False, "slots": new_slots(files, ranks, attachment),
    }


def new_slots(files: int, ranks: int, attachment: str | None) -> list[list[str | None]]:
    """The tray's figure slots, rank by rank from the front, each rank left to right as the unit
    faces: ``figure``, ``attachment`` (it replaces the leftmost figure of the front rank, 4.5) or
    None once removed."""
    slots: list[list[str | None]] = [["figure"] * files for _ in range(ranks)]
    if attachment is not None:
        slots[0][0] = "attachment"
    return slots


def _remove_figure(u: Unit) -> None:
    """Figures go from the rearmost rank that has one, right to left (4.1); so the attachment, on
    the front rank's leftmost slot, is always the last to go (4.5)."""
    for rank in reversed(u.get("slots") or []):
        for j in range(len(rank) - 1, -1, -1):
            if rank[j] is not None:
                rank[j] = None
                return


def _restore_figure(u: Unit) -> None:
    """A healed figure comes back where the last one was removed: the leftmost empty slot of the
    frontmost rank with one (the removal order run backwards)."""
    for rank in u.get("slots") or []:
        for j, who in enumerate(rank):
            if who is None:
                rank[j] = "figure"
                return


def ranks_left(u: Unit) -> int:
    """Ranks with at least one figure left (figures go from the rear rank first, digest §4.1)."""
    return max(0, math.ceil(u["figures"] / u["files"]))


def slot_marks(u: Unit) -> tuple[str, ...]:
    """The slots as the presentation draws them (``PieceView.slots``): '' removed, '*' a figure,
    'A' the attachment."""
    marks = {None: "", "figure": "*", "attachment": "A"}
    return tuple(marks[who] for rank in u.get("slots") or [] for who in rank)


def ranks_lost(u: Unit) -> int:
    return u["ranks_max"] - ranks_left(u)


def wounds_left(u: Unit) -> int:
    return u["figures"] * u["wounds_per_figure"] - u["damage"]


def control_ranks(u: Unit) -> int:
    """Ranks for holding Objectives: a solo unit counts its Wounds left (digest §16)."""
    return wounds_left(u) if u["ranks_max"] == 1 else ranks_left(u)


def attack_dice(u: Unit, attack: dict[str, Any], value: str | None = None) -> int:
    """Green / yellow / red value by ranks lost (digest §4.2); an effect may make the unit use its
    ``highest`` or ``lowest`` printed value instead, whatever its ranks (§11.9)."""
    dice = attack["dice"]
    if value == "highest":
        return int(max(dice))
    if value == "lowest":
        return int(min(dice))
    return int(dice[min(ranks_lost(u), len(dice) - 1)])


def dice_value(*card_effects: dict[str, Any]) -> str | None:
    """The Attack-dice value the cards of an Attack impose on the attacker: ``lowest`` when both
    the highest and the lowest apply at once (§11.9), else the one that applies, else None."""
    wanted = {eff.get("attack_dice_value") for eff in card_effects} - {None}
    return "lowest" if "lowest" in wanted else ("highest" if wanted else None)


def wound(u: Unit, n: int) -> int:
    """Apply ``n`` Wounds (whole figures first, rear rank first). Returns figures removed."""
    before = u["figures"]
    u["damage"] += max(0, n)
    while u["figures"] > 0 and u["damage"] >= u["wounds_per_figure"]:
        u["figures"] -= 1
        u["damage"] -= u["wounds_per_figure"]
        _remove_figure(u)
    if u["figures"] == 0:
        u["destroyed"] = True
        u["damage"] = 0
    return before - u["figures"]


def heal(u: Unit, n: int) -> int:
    """Heal ``n`` Wounds: a wounded figure first, then lost figures come back (digest §11.6)."""
    healed = 0
    while n > 0 and not u["destroyed"]:
        if u["damage"] > 0:
            u["damage"] -= 1
        elif u["figures"] < u["figures_max"]:
            u["figures"] += 1
            _restore_figure(u)
            u["damage"] = u["wounds_per_figure"] - 1
        else:
            break
        n -= 1
        healed += 1
    return healed


def pose(u: Unit) -> list[float]:
    """The tray as ``simulator.geometry.table`` takes it: (cx, cy, width, depth, facing)."""
    return [u["x"], u["y"], u["width"], u["depth"], u["facing"]]


#: Polygons by pose (issue #24): the legal-action search asks for a tray's polygon about 100,000
#: times a playout, for a few hundred distinct poses, and numpy on a single tray costs far more than
#: a dictionary look-up. The cached arrays are read-only, so no caller can change a shared one.
#: False: every call computes its polygon (the reference path, bench/bench_asoiaf_legal.py).
POLYGON_CACHE = True
_POLYGONS: dict[tuple[float, float, float, float, float], np.ndarray] = {}
_POLYGONS_MAX = 50_000
#: The bounding box (x0, y0, x1, y1) of each cached polygon, by the array's id (with the array, so
#: a look-up checks it is the same object); cleared with _POLYGONS.
BOUNDS: dict[int, tuple[np.ndarray, tuple[float, float, float, float]]] = {}


def clear_polygon_cache() -> None:
    _POLYGONS.clear()
    BOUNDS.clear()


def polygon(u: Unit, x: float | None = None, y: float | None = None, facing: float | None = None) -> np.ndarray:
    """Corners front-left, front-right, rear-right, rear-left (optionally at another pose)."""
    key = (u["x"] if x is None else x, u["y"] if y is None else y, u["width"], u["depth"],
           u["facing"] if facing is None else facing)
    if not POLYGON_CACHE:
        return rect_corners([key])[0]
    poly = _POLYGONS.get(key)
    if poly is None:
        if len(_POLYGONS) >= _POLYGONS_MAX:
            clear_polygon_cache()
        poly = rect_corners([key])[0]
        poly.flags.writeable = False
        _POLYGONS[key] = poly
        xs, ys = poly[:, 0].tolist(), poly[:, 1].tolist()
        BOUNDS[id(poly)] = (poly, (min(xs), min(ys), max(xs), max(ys)))
    return poly


def effects(cat: Catalogue, u: Unit) -> dict[str, dict[str, Any]]:
    """Automated ability effects of the unit (card + attachment). A unit that has lost its
    abilities keeps only the innate ones: those of its card and of its attachments go alike (§4.5,
    §11.5); Tactics-card grants are not abilities of the unit and are unaffected."""
    eff = cat.ability_effects(u["abilities"])
    if u.get("abilities_lost"):
        return {k: v for k, v in eff.items() if v.get("innate")}
    return eff


def own_name(cat: Catalogue, u: Unit) -> str:
    """The name of the Combat unit itself, which name-dependent effects read; its attachment's name
    does not count (§4.4)."""
    return "castle wall" if u.get("structure") else cat.units[u["card"]]["name"]


def speed(u: Unit, carrying_speed: int | None = None) -> int:
    if carrying_speed is not None and u.get("objective") is not None:
        return carrying_speed
    return u["speed"] + u.get("speed_bonus", 0)
