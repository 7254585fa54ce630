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
#: How the screen and the log mark an ability the engine does not apply (docs/asoiaf.md says why).
NOT_AUTOMATED = "not automated: the card text is not in the rulebook, so nothing applies it in play"


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
        terrain_doc = load_checked("terrain", folder)
        terrain = terrain_doc.data
        self.terrain: dict[str, dict[str, Any]] = terrain["pieces"]
        self.terrain_pool: list[str] = terrain["pool"]
        self.terrain_pieces_placed: int = int(terrain["pieces_placed"])
        #: 2D6 total -> terrain kind ("choice": the placing player picks), digest 15.3
        self.terrain_table: dict[int, str] = {}
        for i, row in enumerate(terrain["random_table"]):
            for r in row["rolls"]:
                self.terrain_table[r] = row["kind"]
            if row["kind"] != "choice" and row["kind"] not in self.terrain:
                raise terrain_doc.error(("random_table", i, "kind"), f"unknown terrain {row['kind']!r}")
        for i, kind in enumerate(self.terrain_pool):
            if kind not in self.terrain:
                raise terrain_doc.error(("pool", i), f"unknown terrain {kind!r}")
        if sorted(self.terrain_table) != list(range(2, 13)):
            raise terrain_doc.error(("random_table",), "the rows must cover every 2D6 total from 2 to 12")
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

    def ability_rows(self, names: list[str]) -> list[dict[str, Any]]:
        """Each ability of a card as shown on screen: name, automated or not, and why (the rule
        that describes it, or that its text is not in the rulebook and nothing applies it)."""
        return [{"name": name, "automated": name in self.abilities,
                 "rule": self.abilities[name]["rule"] if name in self.abilities else NOT_AUTOMATED}
                for name in names]

    def unautomated(self, names: list[str]) -> list[str]:
        """The abilities among ``names`` that have no effect in play (no text in the rulebook)."""
        return [name for name in names if name not in self.abilities]


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The shipped catalogue (loaded once; a broken data file raises DataError)."""
    return Catalogue()
