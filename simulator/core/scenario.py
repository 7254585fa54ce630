"""Scenarios: what a game starts from, as a validated YAML file.

A scenario's id is ``<game>/<file stem>``, found under ``scenarios/``;
a path to a file works too. The generic part (name, description, map, players)
is checked here; the game checks its own ``setup`` and ``rules`` sections.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator import ROOT
from simulator.core.data import Document, load_yaml, parse_yaml, schema, validate
from simulator.core.errors import DataError
from simulator.core.registry import get_game

SCENARIOS_DIR = ROOT / "scenarios"
MAPS_DIR = ROOT / "maps"


@dataclass(frozen=True)
class Scenario:
    """A loaded, validated scenario."""

    id: str
    game: str
    name: str
    description: str
    data: dict[str, Any]
    file: str = ""
    doc: Document | None = field(default=None, compare=False, repr=False)

    @property
    def setup(self) -> dict[str, Any]:
        return self.data.get("setup", {})

    @property
    def rules(self) -> dict[str, Any]:
        return self.data.get("rules", {})

    @property
    def players(self) -> list[dict[str, Any]]:
        return self.data.get("players", [])

    def error(self, path: tuple[str | int, ...], message: str) -> DataError:
        """A :class:`DataError` pointing into the scenario file (for game-side checks)."""
        if self.doc is not None:
            return self.doc.error(path, message)
        return DataError(message, file=self.file or self.id, field=".".join(map(str, path)))

    def map_path(self) -> Path | None:
        ref = self.data.get("map")
        if not ref:
            return None
        return resolve_map(ref, self)


def resolve_map(ref: str, scenario: Scenario | None = None) -> Path:
    path = Path(ref)
    if path.suffix == ".yaml" and path.exists():
        return path
    candidate = MAPS_DIR / f"{ref}.yaml"
    if candidate.exists():
        return candidate
    err = DataError(f"no map {ref!r} (looked for {candidate.relative_to(ROOT)})")
    if scenario is not None:
        err = scenario.error(("map",), err.message)
    raise err


def scenario_from_document(doc: Document, scenario_id: str) -> Scenario:
    """Validate a parsed scenario (generic part, then the game's part)."""
    validate(doc, schema("scenario"))
    data = doc.data
    try:
        game = get_game(data["game"])
    except DataError as exc:
        raise doc.error(("game",), exc.message) from None
    validate(doc, {"type": "object", "properties": {
        "setup": game.setup_schema().get("setup", {"type": "object"}),
        "rules": game.setup_schema().get("rules", {"type": "object"}),
    }})
    sc = Scenario(id=scenario_id, game=data["game"], name=data["name"],
                  description=data["description"].strip(), data=data, file=doc.file, doc=doc)
    if "map" in data:
        sc.map_path()
    return sc


def load_scenario(ref: "str | Path | Scenario") -> Scenario:
    """Load a scenario by id (``dragon_rage/esirien-basic``) or by path."""
    if isinstance(ref, Scenario):
        return ref
    path = Path(ref)
    if path.suffix in (".yaml", ".yml"):
        doc = load_yaml(path)
        try:
            sid = str(path.resolve().relative_to(SCENARIOS_DIR.resolve()).with_suffix(""))
        except ValueError:
            sid = path.stem
        return scenario_from_document(doc, sid)
    candidate = SCENARIOS_DIR / f"{ref}.yaml"
    if not candidate.exists():
        known = ", ".join(s for s, _ in list_scenarios()) or "none"
        raise DataError(f"unknown scenario {str(ref)!r} (known: {known})")
    return scenario_from_document(load_yaml(candidate), str(ref))


def scenario_from_data(data: dict[str, Any], scenario_id: str, file: str = "<inline>") -> Scenario:
    """A scenario given as data (inline in a script, or embedded in a save)."""
    import yaml

    doc = parse_yaml(yaml.safe_dump(data, sort_keys=False), file)
    return scenario_from_document(doc, scenario_id)


def list_scenarios() -> list[tuple[str, Path]]:
    """Every scenario file under ``scenarios/``, as (id, path), sorted by id."""
    if not SCENARIOS_DIR.exists():
        return []
    out = []
    for path in sorted(SCENARIOS_DIR.glob("*/*.yaml")):
        out.append((f"{path.parent.name}/{path.stem}", path))
    return out
