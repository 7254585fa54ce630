"""Loading the Dragon Rage data files (units, terrain, combat table, rule constants).

Each file is validated against its schema in ``data/schemas.yaml`` so a broken edit is
reported with file, line and field. The result is cached: the files do not change while
the program runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulator.core.data import load_yaml, validate

DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class RulesData:
    """Everything the engine reads from ``data/``."""

    units: dict[str, dict[str, Any]]
    side_colours: dict[str, Any]
    terrain: dict[str, dict[str, Any]]
    features: dict[str, dict[str, Any]]
    paths: dict[str, dict[str, Any]]
    crt: dict[int, list[str]]
    rules: dict[str, Any]

    def unit(self, type_id: str) -> dict[str, Any]:
        return self.units[type_id]


@lru_cache(maxsize=1)
def rules_data() -> RulesData:
    """Load and check all Dragon Rage data files (once)."""
    schemas = load_yaml(DATA_DIR / "schemas.yaml").data
    docs = {}
    for name in ("units", "terrain", "crt", "rules"):
        doc = load_yaml(DATA_DIR / f"{name}.yaml")
        validate(doc, schemas[name])
        docs[name] = doc.data
    units = {k: dict(v) for k, v in docs["units"]["units"].items()}
    for k, v in units.items():
        if "same_as" in v and v["same_as"] in units:
            units[k] = {**units[v["same_as"]], **v}
    crt = {int(k): list(v) for k, v in docs["crt"]["table"].items()}
    return RulesData(units=units, side_colours=docs["units"].get("side_colours", {}),
                     terrain=docs["terrain"]["terrain"], features=docs["terrain"]["hexside_features"],
                     paths=docs["terrain"].get("paths", {}), crt=crt, rules=docs["rules"])
