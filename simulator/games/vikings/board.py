"""The playing surface: one or more Vikings maps joined edge to edge (rule 1.2).

A scenario lists its boards with the column/row offset of each map's hex 0101 in the
combined layout; the game builds one :class:`HexMap` from them (labels are renumbered
by the offsets) and classifies every hex once: the dominant terrain of mixed hexes
(rule 1.2), coastal versus deep water (note to rule 2.51), hexside features.
The joining itself is :func:`simulator.core.hexmap.join_hexmaps` (row offsets must be even so
that the half-hex shift of odd rows stays the same; overlaps are refused).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

from simulator.core.errors import DataError
from simulator.core.hexmap import HexMap, join_hexmaps, load_hexmap
from simulator.core.scenario import resolve_map
from simulator.geometry.hexgrid import HexGrid
from simulator.geometry.hexmove import HexMap as MoveMap

WATER = ("sea", "river")
MAP_TERRAINS = ("clear", "brush", "embankment", "tree", "beach", "sea", "river", "rocks", "building")
FEATURES = ("wall", "door", "window", "arrow_slit", "crest")

Layout = tuple[tuple[str, int, int], ...]


def check_vikings_map(hexmap: HexMap) -> None:
    """Vocabulary and dominant-terrain checks of one map file (rule 1.2)."""
    hexmap.check_vocabulary(MAP_TERRAINS, FEATURES)
    for label, mix in sorted(hexmap.hexes_with("mix").items()):
        if not isinstance(mix, dict) or not all(k in MAP_TERRAINS and isinstance(v, int) for k, v in mix.items()):
            raise _err(hexmap, ("hexes", label, "mix"), "expected terrain: thirds, e.g. {sea: 2, beach: 1}")
        top = max(mix.values())
        winners = [k for k, v in mix.items() if v == top]
        if len(winners) > 1:
            raise _err(hexmap, ("hexes", label, "mix"), f"no dominant terrain among {', '.join(winners)} (rule 1.2)")
        if hexmap.terrain_of(label) != winners[0]:
            raise _err(hexmap, ("hexes", label, "mix"),
                       f"hex {label} is listed as {hexmap.terrain_of(label)} but its dominant terrain is "
                       f"{winners[0]} (rule 1.2: the majority terrain decides)")


def _err(hexmap: HexMap, path: tuple[Any, ...], msg: str) -> DataError:
    if hexmap.doc is not None:
        return hexmap.doc.error(path, msg)
    return DataError(msg, field=".".join(map(str, path)))


@dataclass
class Board:
    """A combined, classified playing surface."""

    hexmap: HexMap
    terrain: dict[str, str]                       # map terrain of every hex (sea/river kept)
    water: dict[str, str]                          # water hexes: "coastal" or "deep"
    sides: dict[frozenset[str], str]              # hexside feature by hex pair
    crests: dict[frozenset[str], tuple[str, str]]  # crest hexsides: (upper hex, embankment hex)
    _nbrs: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _movemap: MoveMap | None = field(default=None, repr=False)
    _dist: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)

    @property
    def grid(self) -> HexGrid:
        return self.hexmap.grid

    def __contains__(self, label: object) -> bool:
        return label in self.terrain

    def neighbours(self, label: str) -> list[str]:
        """Adjacent hexes that are on the board, in direction order."""
        if label not in self._nbrs:
            self._nbrs[label] = [n for n in self.grid.neighbours(label).values() if n in self.terrain]
        return self._nbrs[label]

    @property
    def movemap(self) -> MoveMap:
        """The board's hexes with their neighbour table, for path searches (built once)."""
        if self._movemap is None:
            self._movemap = MoveMap(self.grid, self.hexmap.labels)
        return self._movemap

    def kind(self, label: str) -> str:
        """The terrain class used by the rules: a map terrain, or coastal/deep for water."""
        t = self.terrain[label]
        return self.water[label] if t in WATER else t

    def is_water(self, label: str) -> bool:
        return self.terrain.get(label) in WATER

    def feature(self, a: str, b: str) -> str | None:
        return self.sides.get(frozenset((a, b)))

    def distance(self, a: str, b: str) -> int:
        """The grid's distance, remembered (fire and movement ask for the same pairs again and again)."""
        d = self._dist.get((a, b))
        if d is None:
            if len(self._dist) > 200_000:
                self._dist.clear()
            d = self._dist[(a, b)] = self.grid.distance(a, b)
        return d


def parse_layout(raw: Iterable[dict[str, Any]]) -> Layout:
    return tuple((b["map"], int(b.get("at", [0, 0])[0]), int(b.get("at", [0, 0])[1])) for b in raw)


@lru_cache(maxsize=32)
def build_board(layout: Layout, sandbar: tuple[str, ...] = (), tide: str = "") -> Board:
    """Join the maps of ``layout`` ((map id, column offset, row offset), ...) into one board.

    ``sandbar`` and ``tide`` give the low-tide sandbar of rule 5.5.5 (see :mod:`tide`): at
    ``"dry"`` its sea hexes are beach (and the water next to them becomes coastal); at
    ``"coastal"`` or ``"deep"`` they are water of that class whatever lies next to them."""
    maps = []
    for map_id, dc, dr in layout:
        hm = load_hexmap(resolve_map(map_id))
        check_vikings_map(hm)
        maps.append((hm, dc, dr))
    if len(maps) == 1 and maps[0][1:] == (0, 0):
        combined = maps[0][0]
    else:
        combined = join_hexmaps(maps)
    terrain = {lab: combined.terrain_of(lab) for lab in combined.labels}
    if tide == "dry":
        terrain.update({h: "beach" for h in sandbar})
    board = Board(combined, terrain, {}, {}, {})
    for lab, t in terrain.items():
        if t in WATER:
            coastal = any(terrain[n] == "beach" for n in board.neighbours(lab))
            board.water[lab] = "coastal" if coastal else "deep"
    if tide in ("coastal", "deep"):
        board.water.update({h: tide for h in sandbar})
    for side in combined.hexsides:
        a, b = side["between"]
        board.sides[frozenset((a, b))] = side["feature"]
        if side["feature"] == "crest":
            board.crests[frozenset((a, b))] = (a, b)
    return board
