"""SAGA's data files: troop classes, distances and weapons, terrain types, faction boards,
heroes and mercenaries.

Every file is YAML under ``data/``, validated against its schema in ``data/schemas``;
a broken file gives a ``file:line: field: message`` error. Loaded once per process.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from simulator.core.data import Document, load_yaml, validate
from simulator.core.errors import DataError

DATA = Path(__file__).with_name("data")
FACTIONS = ("vikings", "anglo_danes", "normans", "welsh")


def _load(name: str, schema_name: str) -> Document:
    doc = load_yaml(DATA / name)
    validate(doc, load_yaml(DATA / "schemas" / f"{schema_name}.yaml").data)
    return doc


@lru_cache(maxsize=None)
def classes() -> dict[str, Any]:
    """The class profiles (``classes``) and default base diameters (``bases``)."""
    return _load("classes.yaml", "classes").data


@lru_cache(maxsize=None)
def distances() -> dict[str, Any]:
    return _load("distances.yaml", "distances").data


def inches(name: str) -> float:
    """A named distance (VS, S, M, L) in inches."""
    return float(distances()["distances"][name])


def step_down(name: str, steps: int, floor: str = "VS") -> str:
    """``name`` reduced by ``steps`` steps of L > M > S > VS, never below ``floor``."""
    order: list[str] = distances()["steps"]
    i = min(order.index(name) + steps, order.index(floor))
    return order[i]


@lru_cache(maxsize=None)
def terrain_types() -> dict[str, Any]:
    return _load("terrain.yaml", "terrain").data["types"]


@lru_cache(maxsize=None)
def swords() -> dict[str, Any]:
    """Heroes of the Viking Age and Swords for Hire (``heroes``, ``mercenaries``, ``vp``)."""
    return _load("swords.yaml", "swords").data


@lru_cache(maxsize=None)
def wrath() -> dict[str, Any]:
    """The Wrath of the Jomsvikings table (SAGA p.44)."""
    return _load("wrath.yaml", "wrath").data


@lru_cache(maxsize=None)
def faction(faction_id: str) -> dict[str, Any]:
    """A faction's dice symbols and battle board, checked for consistency."""
    if faction_id not in FACTIONS:
        raise DataError(f"unknown faction {faction_id!r} (known: {', '.join(FACTIONS)})")
    doc = _load(f"factions/{faction_id}.yaml", "faction")
    data = doc.data
    seen: set[str] = set()
    for i, box in enumerate(data["boxes"]):
        if box["id"] in seen:
            raise doc.error(("boxes", i, "id"), f"box id {box['id']!r} appears twice")
        seen.add(box["id"])
        if box["column"] == "repeatable" and len(box["cost"]) != 1:
            raise doc.error(("boxes", i, "cost"), "a repeatable box takes one die per use")
        rare_bonus = [k for k in box["effect"] if k.startswith("rare_")]
        if rare_bonus and not any("R" in slot for slot in box["cost"]):
            # a bonus "if the die is rare" must be payable with a rare die (SAGA p.59-62)
            raise doc.error(("boxes", i, "cost"), f"{box['effect'][rare_bonus[0]]} is a bonus for a rare die "
                            f"({rare_bonus[0]}), so a cost slot must take R")
    kinds = [b["effect"]["kind"] for b in data["boxes"]]
    for needed in ("activate", "activation_pool"):
        if needed not in kinds:
            raise doc.error(("boxes",), f"the board needs a box of kind {needed!r}")
    return data


def box(faction_id: str, box_id: str) -> dict[str, Any] | None:
    for b in faction(faction_id)["boxes"]:
        if b["id"] == box_id:
            return b
    return None


def die_name(faction_id: str) -> str:
    return f"saga-{faction_id}"
