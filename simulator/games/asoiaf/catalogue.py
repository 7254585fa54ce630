"""The game's data files (unit cards, trays, abilities, tactics cards, board, terrain, modes).

Every file is validated against the JSON schema beside it, so a broken edit gives
"file:line: field: message" instead of a traceback.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from simulator.core.data import Document, load_yaml, validate

DATA = Path(__file__).with_name("data")


def load_checked(name: str, folder: Path = DATA) -> Document:
    """Load ``<name>.yaml`` and check it against ``<name>.schema.yaml``."""
    doc = load_yaml(folder / f"{name}.yaml")
    schema_path = folder / f"{name}.schema.yaml"
    validate(doc, yaml.safe_load(schema_path.read_text(encoding="utf-8")))
    return doc


class Catalogue:
    """All static data of the game, indexed for lookups."""

    def __init__(self, folder: Path = DATA) -> None:
        units = load_checked("units", folder)
        self.units: dict[str, dict[str, Any]] = {}
        self.attachments: dict[str, dict[str, Any]] = {}
        self.ncus: dict[str, dict[str, Any]] = {}
        self.tactics: dict[str, dict[str, Any]] = {}
        for section, table in (("units", self.units), ("attachments", self.attachments),
                               ("ncus", self.ncus), ("tactics", self.tactics)):
            for i, entry in enumerate(units.data[section]):
                if entry["id"] in table:
                    raise units.error((section, i, "id"), f"card id {entry['id']} appears twice")
                table[entry["id"]] = entry
        self.trays: dict[str, dict[str, Any]] = load_checked("trays", folder).data["trays"]
        self.abilities: dict[str, dict[str, Any]] = load_checked("abilities", folder).data["abilities"]
        tactics = load_checked("tactics", folder)
        self.card_effects: dict[str, dict[str, Any]] = tactics.data["cards"]
        for cid in self.card_effects:
            if cid not in self.tactics:
                raise tactics.error(("cards", cid), f"no Tactics card {cid} in units.yaml")
        self.zones: list[dict[str, Any]] = load_checked("board", folder).data["zones"]
        terrain = load_checked("terrain", folder).data
        self.terrain: dict[str, dict[str, Any]] = terrain["pieces"]
        modes = load_checked("modes", folder).data
        self.modes: dict[str, dict[str, Any]] = modes["modes"]
        self.objective_diameter: float = float(modes["objective_diameter"])

    def card(self, card_id: str) -> dict[str, Any]:
        for table in (self.units, self.attachments, self.ncus, self.tactics):
            if card_id in table:
                return table[card_id]
        raise KeyError(card_id)

    def full_name(self, card_id: str) -> str:
        c = self.card(card_id)
        return f"{c['name']}, {c['subname']}" if c.get("subname") else c["name"]

    def deck_for(self, faction: str, commander: str) -> list[str]:
        """The 20-card Tactics deck: 2 copies of each faction card and of the commander's 3 cards."""
        faction_cards = [cid for cid, c in self.tactics.items() if c["faction"] == faction and "commander" not in c]
        commander_cards = [cid for cid, c in self.tactics.items() if c.get("commander") == commander]
        return sorted(faction_cards + commander_cards) * 2

    def ability_effects(self, names: list[str]) -> dict[str, dict[str, Any]]:
        """The automated effects among ``names``, by effect keyword."""
        out = {}
        for name in names:
            spec = self.abilities.get(name)
            if spec is not None:
                out[spec["effect"]] = spec
        return out


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The shipped catalogue (loaded once; a broken data file raises DataError)."""
    return Catalogue()
