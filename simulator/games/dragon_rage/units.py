"""Units in the state: creation from the catalogue, printed values, who stands where.

A unit is a plain mapping in ``state["units"]`` keyed by its id. Values printed on the
counter come from ``units.yaml`` through :func:`spec`; the state keeps only what changes
(hex, damage, wounds, per-turn flags).
"""

from __future__ import annotations

from typing import Any

from simulator.games.dragon_rage.rules_data import rules_data

State = dict[str, Any]
Unit = dict[str, Any]

HUMAN_TYPES = ("infantry", "cavalry", "militia", "archers", "hero")
CHARACTER_KINDS = ("character",)
#: Per-turn flags cleared at the start of the owner's player-turn.
TURN_FLAGS = {"mp_used": 0, "road_only": True, "moved": False, "move_done": False, "attacked": False,
              "mode": None, "took_off": False, "landed": False, "breathed": False, "groups_used": [],
              "tried_entry": False, "spelled": False, "overran": False, "ravaged": False}


def spec(unit: Unit) -> dict[str, Any]:
    """The catalogue entry of a unit's type."""
    return rules_data().units[unit["type"]]


_KIND: dict[str, str] = {}


def kind(unit: Unit) -> str:
    """The catalogue kind of a unit (troop, character, engine, minor_monster, major_monster, elemental)."""
    k = _KIND.get(unit["type"])
    if k is None:
        k = _KIND[unit["type"]] = str(spec(unit)["kind"])
    return k


def is_major(unit: Unit) -> bool:
    return kind(unit) == "major_monster"


def is_minor(unit: Unit) -> bool:
    return kind(unit) == "minor_monster"


def is_monster(unit: Unit) -> bool:
    return kind(unit) in ("major_monster", "minor_monster")


def is_character(unit: Unit) -> bool:
    return kind(unit) == "character"


def is_hero(unit: Unit) -> bool:
    return unit["type"] in ("hero", "invader_hero")


def is_wizard(unit: Unit) -> bool:
    return "spell_points" in spec(unit)


def is_troop(unit: Unit) -> bool:
    """Units that obey the one-unit-per-hex stacking rule (DR 2.4.3)."""
    return kind(unit) in ("troop", "engine", "minor_monster")


def is_human(unit: Unit) -> bool:
    return unit["type"] in HUMAN_TYPES


def is_missile(unit: Unit) -> bool:
    return "missile" in spec(unit)


def attack_cf(unit: Unit) -> int:
    s = spec(unit)
    if s.get("defence_only"):
        return 0
    return int(s.get("cf") or 0)


def defence_cf(unit: Unit) -> int:
    s = spec(unit)
    d = s.get("defence")
    return int(d if d is not None else (s.get("cf") or 0))


def escape_number(unit: Unit) -> int | None:
    e = spec(unit).get("escape")
    return int(e) if e is not None else None


def make_unit(uid: str, type_id: str, side: str, hex_: str | None, facing: int = 0) -> Unit:
    """A fresh unit of catalogue type ``type_id``."""
    s = rules_data().units[type_id]
    unit: Unit = {"id": uid, "type": type_id, "side": side, "hex": hex_, "alive": True,
                  "wounded": False, "climbed": False, "slayer": False, "boosted": False,
                  **{k: (list(v) if isinstance(v, list) else v) for k, v in TURN_FLAGS.items()}}
    if s["kind"] == "major_monster":
        unit["facing"] = facing % 6
        unit["flying"] = False
        unit["berserk"] = False
        unit["damage"] = {area: [0] * a["groups"] for area, a in s["areas"].items()}
        unit["breaths_left"] = int((s.get("breath") or {}).get("uses", 0))
        unit["on_broken_bridge"] = None
        unit["damaged_by"] = []
    if s["kind"] == "minor_monster":
        unit["damage_taken"] = 0
    if "spell_points" in s:
        unit["sp"] = int(s["spell_points"])
    if s["kind"] == "elemental":
        unit["summoner"] = None
        unit["controlled"] = True
        unit["summoned_turn"] = 0
    return unit


def living(state: State, side: str | None = None) -> list[Unit]:
    """Units on the map (or waiting off it) and alive, optionally of one side."""
    return [u for u in state["units"].values() if u["alive"] and (side is None or u["side"] == side)]


def units_at(state: State, hex_: str) -> list[Unit]:
    """Living units standing in ``hex_`` (flying monsters included)."""
    return [u for u in state["units"].values() if u["alive"] and u["hex"] == hex_]


def ground_units_at(state: State, hex_: str) -> list[Unit]:
    return [u for u in units_at(state, hex_) if not u.get("flying")]


def enemy_of(side: str) -> str:
    return "defender" if side == "invader" else "invader"


def unit(state: State, uid: Any) -> Unit:
    """The unit with id ``uid`` (KeyError handled by callers with a clear message)."""
    return state["units"][uid]
