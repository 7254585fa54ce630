"""Loading the Vikings data files (characters, terrain, ship types, rule tables).

Every file is validated against its schema in ``data/schemas.yaml``; a broken file gives a
:class:`DataError` naming the file, the line and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulator.core.data import Document, load_yaml, validate

DATA = Path(__file__).with_name("data")


@lru_cache(maxsize=None)
def _schemas() -> dict[str, Any]:
    return load_yaml(DATA / "schemas.yaml").data


def load_checked(name: str, path: Path | None = None) -> Document:
    """Load ``data/<name>.yaml`` (or ``path``) and check it against the ``name`` schema."""
    doc = load_yaml(path or DATA / f"{name}.yaml")
    schema = {"$defs": _schemas()["$defs"], **_schemas()[name]}
    validate(doc, schema)
    return doc


@dataclass(frozen=True)
class CharacterType:
    """One character counter set as the catalogue describes it (values already merged)."""

    id: str
    name: str
    side: str
    troop: str
    abbrev: str
    armour: bool
    axe: bool
    bow: bool
    horse: bool
    female: bool
    old: bool
    shield_wall: bool
    counters: dict[str, Any]


def characters_from(doc: Document) -> dict[str, CharacterType]:
    """The merged catalogue of ``doc`` (a validated characters file)."""
    data = doc.data
    types = data["troop_types"]
    out: dict[str, CharacterType] = {}
    for i, ch in enumerate(data["characters"]):
        troop = types.get(ch["type"])
        if troop is None:
            raise doc.error(("characters", i, "type"),
                            f"unknown troop type {ch['type']!r} (expected one of: {', '.join(sorted(types))})")
        if ch["id"] in out:
            raise doc.error(("characters", i, "id"), f"character id {ch['id']!r} is used twice")
        counters = {**troop["counters"], **ch.get("counters", {})}
        horse = bool(ch.get("horse", False))
        if horse and not all(k in counters for k in ("mounted", "mounted_wounded", "horse_defence")):
            raise doc.error(("characters", i, "counters"),
                            "a character with a horse needs mounted, mounted_wounded and horse_defence counters")
        axe = bool(ch.get("axe", False))
        if axe and ch["type"] not in ("jarl", "hirdman", "berserker", "earl", "huscarl"):
            raise doc.error(("characters", i, "axe"), "only Jarls, Hirdmen, Berserkers, Earls and Huscarls "
                                                      "may fight with the two-handed axe (VK 3.3)")
        out[ch["id"]] = CharacterType(
            id=ch["id"], name=ch["name"], side=ch.get("side", troop["side"]), troop=ch["type"],
            abbrev=troop["abbrev"], armour=bool(ch.get("armour", troop["armour"])), axe=axe,
            bow=bool(ch.get("bow", troop.get("bow", False))), horse=horse,
            female=bool(ch.get("female", troop.get("female", False))),
            old=bool(ch.get("old", troop.get("old", False))),
            shield_wall=bool(troop.get("shield_wall", False)), counters=counters)
    return out


@lru_cache(maxsize=None)
def characters() -> dict[str, CharacterType]:
    return characters_from(load_checked("characters"))


@lru_cache(maxsize=None)
def terrain() -> dict[str, Any]:
    return load_checked("terrain").data


@lru_cache(maxsize=None)
def ship_types() -> dict[str, Any]:
    return load_checked("ships").data["types"]


@lru_cache(maxsize=None)
def tables() -> dict[str, Any]:
    return load_checked("tables").data
