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
    digits = g.get("label_digits", 2)
    for name, count in (("columns", columns), ("rows", rows)):
        # a label gives each column and row number in `label_digits` digits (CCRR): a bigger
        # number would run into its neighbour and two hexes could share a label
        if g.get("first", 1) + count - 1 >= 10 ** digits:
            raise doc.error(("grid", "first") if "first" in g else ("grid", name),
                            f"the last of the {count} {name} would be number {g.get('first', 1) + count - 1}, "
                            f"more than {digits} digits (label_digits) can write")
    labels = [grid.label(c, r) for c in range(grid.first_col, grid.first_col + columns)
              for r in range(grid.first_row, grid.first_row + rows)]
    missing = set(g.get("missing", "").split())
    labels = [lab for lab in labels if lab not in missing]
    if not labels:
        raise doc.error(("grid", "missing"), "the map has no hex left (every hex is listed as missing)")

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


def join_hexmaps(parts: list[tuple[HexMap, int, int]]) -> HexMap:
    """Join maps edge to edge into one map: ``parts`` = ``[(map, column offset, row offset), ...]``.

    Each map's hexes are renumbered by its offsets (its hex ``(c, r)`` becomes ``(c + dc, r +
    dr)``); terrain, hex attributes, hexside features, paths and edges follow. Edges are named
    ``"<map id>:<edge>"`` (``"<index>:<edge>"`` for maps without an id). Every map must use the
    same grid; on a grid whose rows (``-r``) or columns (``-q``) are shifted by parity, the
    shifted offset must be even, or the neighbours would change. Hexes claimed by two maps, and
    hexes inside the combined rectangle that no map covers, are reported / left out
    (``DataError`` for overlaps; gaps become missing hexes). The first map gives the default
    terrain; ``meta`` names the parts.

    >>> from simulator.geometry.hexgrid import HexGrid
    >>> g = HexGrid("pointy", "odd-r", 2, 1, 1)
    >>> a = HexMap(g, 2, 2, g.all_labels(2, 2), {"id": "a"}, "sea", {}, {}, [], {}, {})
    >>> b = HexMap(g, 2, 2, g.all_labels(2, 2), {"id": "b"}, "sea", {"0101": ("beach",)}, {}, [], {}, {})
    >>> j = join_hexmaps([(a, 0, 0), (b, 2, 0)])
    >>> (j.columns, j.rows, len(j.labels), j.terrain_of("0301"))
    (4, 2, 8, 'beach')
    """
    if not parts:
        raise DataError("join_hexmaps: no maps to join")
    grid = parts[0][0].grid
    shifted = 1 if grid.offset.endswith("-r") else 0     # which offset (column 0 / row 1) keeps parity
    labels: list[str] = []
    terrain: dict[str, tuple[str, ...]] = {}
    attrs: dict[str, dict[str, Any]] = {}
    sides: list[dict[str, Any]] = []
    paths: dict[str, list[list[str]]] = {}
    edges: dict[str, list[str]] = {}
    owner: dict[str, str] = {}
    cols = rows = 0
    names = []
    for i, (hm, dc, dr) in enumerate(parts):
        name = hm.id or str(i)
        names.append(name)
        if hm.grid != grid:
            raise DataError(f"map {name} uses another grid than map {names[0]}; joined maps must share one")
        if (dc, dr)[shifted] % 2:
            raise DataError(f"map {name}: the {('column', 'row')[shifted]} offset {(dc, dr)[shifted]} must be "
                            f"even ({grid.offset} grids shift every other {('column', 'row')[shifted]} by half "
                            "a hex, so an odd offset would change the neighbours)")

        def move(lab: str, dc: int = dc, dr: int = dr) -> str:
            c, r = grid.parse(lab)
            return grid.label(c + dc, r + dr)

        if dc < 0 or dr < 0:
            raise DataError(f"map {name}: offsets must be >= 0, got column {dc}, row {dr}")
        cols, rows = max(cols, hm.columns + dc), max(rows, hm.rows + dr)
        for lab in hm.labels:
            new = move(lab)
            if new in owner:
                raise DataError(f"maps {owner[new]} and {name} overlap at hex {new}")
            owner[new] = name
            labels.append(new)
            if lab in hm._terrain:
                terrain[new] = hm._terrain[lab]
            elif hm.default_terrain != parts[0][0].default_terrain:
                terrain[new] = (hm.default_terrain,)
            if hm.hex_attrs(lab):
                attrs[new] = dict(hm.hex_attrs(lab))
        for side in hm.hexsides:
            sides.append({**side, "between": tuple(move(x) for x in side["between"])})
        for pname, chains in hm.paths.items():
            paths.setdefault(pname, []).extend([move(x) for x in chain] for chain in chains)
        for ename, hexes in hm.edges.items():
            edges[f"{name}:{ename}"] = [move(x) for x in hexes]
    present = set(labels)
    ordered = [lab for lab in grid.all_labels(cols, rows) if lab in present]
    first = parts[0][0]
    meta = {"id": "+".join(names), "name": " + ".join(str(p[0].meta.get("name") or n) for p, n in zip(parts, names)),
            "game": first.meta.get("game", ""), "description": "joined maps: " + ", ".join(names),
            "assumed": "; ".join(str(p[0].meta["assumed"]) for p in parts if p[0].meta.get("assumed"))}
    return HexMap(grid, cols, rows, ordered, meta, first.default_terrain, terrain, attrs, sides, paths, edges)
