"""Scenarios: what a game starts from, as a validated YAML file.

A scenario's id is ``<game>/<file stem>``, found under ``scenarios/`` (or the folder
``$SIMULATOR_SCENARIOS`` names); a path to a file works too. The generic part (name, description, map, players)
is checked here; the game checks its own ``setup`` and ``rules`` sections.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator import ROOT
from simulator.core.data import Document, load_yaml, parse_yaml, schema, validate
from simulator.core.errors import DataError
from simulator.core.registry import get_game

SCENARIOS_DIR = ROOT / "scenarios"
MAPS_DIR = ROOT / "maps"


#: Items in any one list of a set-up (pieces, units, terrain...): a scenario with thousands would
#: pass the schema and then make every check, drawing and computer move crawl.
MAX_SETUP_ITEMS = 500


def scenarios_dir() -> Path:
    """Where scenario ids are looked up: ``$SIMULATOR_SCENARIOS`` if set, else ``scenarios/``."""
    return Path(os.environ.get("SIMULATOR_SCENARIOS") or SCENARIOS_DIR)


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


def _check_ids(doc: Document) -> None:
    """Every player, and every thing the set-up lists with an ``id`` (pieces, ships, units,
    terrain...), has an id of its own: two with one id would leave one unreachable."""
    seen: dict[str, tuple[str | int, ...]] = {}
    if doc.data.get("players") == []:
        raise doc.error(("players",), "the list of players is empty; a scenario needs its sides")
    for i, player in enumerate(doc.data.get("players", [])):
        pid = player["id"]
        if pid in seen:
            raise doc.error(("players", i, "id"), f"two players have the id {pid!r} "
                                                  f"(also line {doc.line_of(seen[pid])})")
        seen[pid] = ("players", i, "id")
    seen.clear()
    todo: list[tuple[tuple[str | int, ...], Any]] = [(("setup",), doc.data.get("setup", {}))]
    while todo:
        path, value = todo.pop()
        if isinstance(value, dict):
            todo.extend((path + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            if len(value) > MAX_SETUP_ITEMS:
                raise doc.error(path, f"a list of {len(value):,} items; a set-up lists at most "
                                      f"{MAX_SETUP_ITEMS} (more pieces or terrain than any table or map holds)")
            for i, item in enumerate(value):
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    here = path + (i, "id")
                    if item["id"] in seen:
                        first, second = sorted((here, seen[item["id"]]), key=doc.line_of)
                        raise doc.error(second, f"the id {item['id']!r} is used twice (also line "
                                                f"{doc.line_of(first)}); each piece, unit or ship needs its own")
                    seen[item["id"]] = here
                todo.append((path + (i,), item))


def _check_polygons(doc: Document) -> None:
    """Every ``polygon`` of the set-up (terrain, zones on a table) is a list of at least three
    finite points enclosing an area: a flat one has no inside to stand in or see through."""
    todo: list[tuple[tuple[str | int, ...], Any]] = [(("setup",), doc.data.get("setup", {}))]
    while todo:
        path, value = todo.pop()
        if isinstance(value, list):
            todo.extend((path + (i,), v) for i, v in enumerate(value))
        if not isinstance(value, dict):
            continue
        todo.extend((path + (k,), v) for k, v in value.items() if k != "polygon")
        poly = value.get("polygon")
        if poly is None:
            continue
        where = path + ("polygon",)
        if not isinstance(poly, list) or len(poly) < 3:
            raise doc.error(where, "a polygon needs a list of at least 3 points [x, y]")
        for i, point in enumerate(poly):
            if not (isinstance(point, list) and len(point) == 2
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)):
                raise doc.error(where + (i,), "expected a point [x, y] in inches")
        area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(poly, poly[1:] + poly[:1])) / 2
        if abs(area) < 1e-6:
            raise doc.error(where, "the polygon encloses no area (its points are on one line, or repeated)")


def scenario_from_document(doc: Document, scenario_id: str) -> Scenario:
    """Validate a parsed scenario (generic part, then the game's part)."""
    validate(doc, schema("scenario"))
    _check_ids(doc)
    _check_polygons(doc)
    data = doc.data
    try:
        game = get_game(data["game"])
    except DataError as exc:
        raise doc.error(("game",), exc.message) from None
    setup_schema = game.setup_schema().get("setup", {"type": "object"})
    validate(doc, {"type": "object", "properties": {
        "setup": setup_schema,
        "rules": game.setup_schema().get("rules", {"type": "object"}),
    },  # a game whose set-up has required fields needs the section itself
        "required": ["setup"] if setup_schema.get("required") else []})
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
            sid = str(path.resolve().relative_to(scenarios_dir().resolve()).with_suffix(""))
        except ValueError:
            sid = path.stem
        return scenario_from_document(doc, sid)
    candidate = scenarios_dir() / f"{ref}.yaml"
    if not candidate.is_file():
        known = ", ".join(s for s, _ in list_scenarios()) or "none"
        raise DataError(f"unknown scenario {str(ref)!r} (known: {known})")
    return scenario_from_document(load_yaml(candidate), str(ref))


def scenario_from_data(data: dict[str, Any], scenario_id: str, file: str = "<inline>") -> Scenario:
    """A scenario given as data (inline in a script, or embedded in a save)."""
    import yaml

    doc = parse_yaml(yaml.safe_dump(data, sort_keys=False), file)
    return scenario_from_document(doc, scenario_id)


def list_scenarios() -> list[tuple[str, Path]]:
    """Every scenario file under ``scenarios/`` (:func:`scenarios_dir`), as (id, path), sorted by id."""
    folder = scenarios_dir()
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.glob("*/*.yaml")):
        out.append((f"{path.parent.name}/{path.stem}", path))
    return out


def broken_reason(exc: BaseException) -> str:
    """One line saying why a listed file cannot be used: a :class:`DataError`'s own message, or
    for any other failure (a bug the file runs into) its kind, so the listing goes on."""
    if isinstance(exc, DataError):
        return " ".join(str(exc).split())
    return f"cannot be read ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})"
