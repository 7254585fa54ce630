"""Hex maps as data: the generic ``hexmap/1`` format shared by the hex games.

A map file gives the grid (orientation, offset, label scheme, size), the terrain
of every hex, per-hex attributes, features on hexsides (walls, gates, banks...),
paths (roads) and named edges. This module checks the structure (labels in
range, hexsides between adjacent hexes, paths contiguous); the game checks the
vocabulary (which terrain types and hexside features exist) through
:meth:`HexMap.check_vocabulary`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from simulator.core.data import Document, load_yaml, schema, validate
from simulator.core.errors import DataError
from simulator.geometry.hexgrid import HexGrid

_OFFSETS = {"even-q", "odd-q", "even-r", "odd-r"}


@dataclass
class HexMap:
    """A loaded hex map. Labels are the game's own (``"0707"``)."""

    grid: HexGrid
    columns: int
    rows: int
    labels: list[str]
    meta: dict[str, Any]
    default_terrain: str
    _terrain: dict[str, tuple[str, ...]]
    _attrs: dict[str, dict[str, Any]]
    hexsides: list[dict[str, Any]]
    paths: dict[str, list[list[str]]]
    edges: dict[str, list[str]]
    doc: Document | None = field(default=None, repr=False)
    _sides: dict[frozenset[str], list[dict[str, Any]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for side in self.hexsides:
            self._sides.setdefault(frozenset(side["between"]), []).append(side)
        self._label_set = set(self.labels)

    @property
    def id(self) -> str:
        return str(self.meta.get("id", ""))

    def __contains__(self, label: object) -> bool:
        return label in self._label_set

    def terrain_of(self, label: str) -> str:
        """The (predominant) terrain of a hex."""
        return self._terrain.get(label, (self.default_terrain,))[0]

    def terrains_of(self, label: str) -> tuple[str, ...]:
        """Every terrain of a hex (mixed hexes list more than one)."""
        return self._terrain.get(label, (self.default_terrain,))

    def hexes_of(self, terrain: str) -> list[str]:
        return [lab for lab in self.labels if terrain in self.terrains_of(lab)]

    def hex_attrs(self, label: str) -> dict[str, Any]:
        return self._attrs.get(label, {})

    def hexes_with(self, attr: str) -> dict[str, Any]:
        """``{label: value}`` of every hex that has attribute ``attr``."""
        return {lab: a[attr] for lab, a in self._attrs.items() if attr in a}

    def hexside_features(self, a: str, b: str) -> list[dict[str, Any]]:
        """The features on the side between hexes ``a`` and ``b`` (empty if none)."""
        return self._sides.get(frozenset((a, b)), [])

    def path_hexsides(self, name: str) -> set[frozenset[str]]:
        """The hexsides a named path (e.g. the road) runs across, as hex pairs."""
        out = set()
        for chain in self.paths.get(name, []):
            out.update(frozenset(p) for p in zip(chain, chain[1:]))
        return out

    def check_vocabulary(self, terrains: Iterable[str], features: Iterable[str]) -> None:
        """Raise :class:`DataError` at the first undeclared terrain or hexside feature."""
        terrains, features = set(terrains), set(features)
        doc = self.doc
        where = (lambda p, m: doc.error(p, m)) if doc else (lambda p, m: DataError(m, field=str(p)))
        for name in [self.default_terrain, *{t for ts in self._terrain.values() for t in ts}]:
            if name not in terrains:
                path = ("terrain", name) if name != self.default_terrain else ("default_terrain",)
                raise where(path, f"unknown terrain {name!r} (expected one of: {', '.join(sorted(terrains))})")
        for i, side in enumerate(self.hexsides):
            if side["feature"] not in features:
                raise where(("hexsides", i, "feature"),
                            f"unknown hexside feature {side['feature']!r} "
                            f"(expected one of: {', '.join(sorted(features))})")


def _labels(doc: Document, path: tuple[str | int, ...], value: Any, grid: HexGrid,
            columns: int, rows: int) -> list[str]:
    """Hex labels from a space-separated string or a list of strings, each checked."""
    if isinstance(value, str):
        items = value.split()
    elif isinstance(value, list):
        items = value
    else:
        raise doc.error(path, "expected hex labels: a list of quoted labels or one string of labels")
    out = []
    for i, item in enumerate(items):
        p = path + (i,) if isinstance(value, list) else path
        out.append(check_label(doc, p, item, grid, columns, rows))
    return out


def check_label(doc: Document, path: tuple[str | int, ...], item: Any, grid: HexGrid,
                columns: int, rows: int) -> str:
    if not isinstance(item, str):
        raise doc.error(path, f"expected a quoted hex label such as '0707', got {item!r} "
                              "(unquoted labels are read as numbers)")
    try:
        col, row = grid.parse(item)
    except ValueError as exc:
        raise doc.error(path, f"bad hex label {item!r}: {exc}") from None
    if not (grid.first_col <= col < grid.first_col + columns and grid.first_row <= row < grid.first_row + rows):
        raise doc.error(path, f"hex {item} is off the map (columns {grid.label(grid.first_col, grid.first_row)[:2]}"
                              f"-{columns:02d}, rows {grid.first_row:02d}-{rows:02d})")
    return item


def load_hexmap(path: str | Path) -> HexMap:
    """Load and check a ``hexmap/1`` file."""
    doc = load_yaml(path)
    return hexmap_from_document(doc)


def hexmap_from_document(doc: Document) -> HexMap:
    validate(doc, schema("hexmap"))
    data = doc.data
    g = data["grid"]
    grid = HexGrid(orientation=g["orientation"], offset=g["offset"],
                   label_digits=g.get("label_digits", 2), first_col=g.get("first", 1), first_row=g.get("first", 1))
    columns, rows = g["columns"], g["rows"]
    labels = [grid.label(c, r) for c in range(grid.first_col, grid.first_col + columns)
              for r in range(grid.first_row, grid.first_row + rows)]
    missing = set(g.get("missing", "").split())
    labels = [lab for lab in labels if lab not in missing]

    terrain: dict[str, tuple[str, ...]] = {}
    for name, value in data.get("terrain", {}).items():
        for lab in _labels(doc, ("terrain", name), value, grid, columns, rows):
            terrain[lab] = terrain.get(lab, ()) + (name,)
    attrs: dict[str, dict[str, Any]] = {}
    for lab, value in data.get("hexes", {}).items():
        if ("hexes", lab) in doc.raw_keys:
            check_label(doc, ("hexes", lab), doc.raw_keys[("hexes", lab)], grid, columns, rows)
        attrs[check_label(doc, ("hexes", lab), lab, grid, columns, rows)] = value
    sides = []
    for i, side in enumerate(data.get("hexsides", [])):
        a, b = (check_label(doc, ("hexsides", i, "between", k), side["between"][k], grid, columns, rows)
                for k in (0, 1))
        if grid.direction_between(a, b) is None:
            raise doc.error(("hexsides", i, "between"), f"hexes {a} and {b} are not adjacent, so share no hexside")
        sides.append({**side, "between": (a, b)})
    paths: dict[str, list[list[str]]] = {}
    for name, chains in data.get("paths", {}).items():
        paths[name] = []
        for j, chain in enumerate(chains):
            hexes = _labels(doc, ("paths", name, j), chain, grid, columns, rows)
            for k, (a, b) in enumerate(zip(hexes, hexes[1:])):
                if grid.direction_between(a, b) is None:
                    raise doc.error(("paths", name, j), f"path breaks between {a} and {b} (not adjacent)")
            paths[name].append(hexes)
    edges = {name: _labels(doc, ("edges", name), value, grid, columns, rows)
             for name, value in data.get("edges", {}).items()}
    meta = {k: data.get(k, "") for k in ("id", "name", "game", "description", "assumed")}
    return HexMap(grid, columns, rows, labels, meta, data["default_terrain"], terrain, attrs, sides,
                  paths, edges, doc)
