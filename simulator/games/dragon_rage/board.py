"""What the engine needs to know about a Dragon Rage map, precomputed once per map.

Wraps a :class:`~simulator.core.hexmap.HexMap` (hexmap/1) with fast lookups: neighbours by
direction, terrain classes, walls and entrances by hexside, towers, bridges, fords, docks,
VP hexes, the road network and the named edges (set-up zones, road exits, "inside the walls").
Hexsides are keyed by :class:`~simulator.geometry.hexgrid.Hexside` text ``"0606/0707"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from simulator.core.hexmap import HexMap, load_hexmap
from simulator.core.scenario import resolve_map
from simulator.geometry.hexgrid import Hexside

#: Hexside features that are openings in a wall or tower (DR 2.5.5).
ENTRANCE_FEATURES = ("gateway", "tower_gate", "tower_door", "door")
#: Entrances smashed with the "gate" column of the table (red), the rest with "door" (DR 2.5.8).
GATE_FEATURES = ("gateway", "tower_gate")


def side_key(a: str, b: str) -> str:
    """The state key of the hexside between adjacent hexes ``a`` and ``b``."""
    return f"{a}/{b}" if a < b else f"{b}/{a}"


@dataclass
class Entrance:
    """A gate or door on one hexside."""

    key: str
    feature: str
    hexes: tuple[str, str]
    tower: str | None = None          # the tower hex of a tower entrance
    inside: str | None = None         # the town-side hex of a wall entrance
    owner: str = "defender"

    @property
    def is_gate(self) -> bool:
        return self.feature in GATE_FEATURES


@dataclass
class Board:
    """Precomputed facts of one map."""

    hexmap: HexMap
    neighbours: dict[str, list[str | None]] = field(default_factory=dict)   # by direction 0..5
    terrain: dict[str, tuple[str, ...]] = field(default_factory=dict)
    walls: set[str] = field(default_factory=set)          # hexside keys that are wall (incl. entrances in walls)
    river_banks: set[str] = field(default_factory=set)
    entrances: dict[str, Entrance] = field(default_factory=dict)
    bridge_access: dict[str, set[str]] = field(default_factory=dict)   # bridge hex -> allowed from-hexes
    ford_access: dict[str, set[str]] = field(default_factory=dict)
    road_sides: set[str] = field(default_factory=set)
    road_hexes: set[str] = field(default_factory=set)
    towers: set[str] = field(default_factory=set)
    road_towers: set[str] = field(default_factory=set)
    wooden_bridges: set[str] = field(default_factory=set)
    vp: dict[str, int] = field(default_factory=dict)
    edges: dict[str, list[str]] = field(default_factory=dict)
    attrs: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def grid(self):  # type: ignore[no-untyped-def]
        return self.hexmap.grid

    @property
    def labels(self) -> list[str]:
        return self.hexmap.labels

    def __contains__(self, label: object) -> bool:
        return label in self.neighbours

    def neighbour(self, label: str, direction: int) -> str | None:
        return self.neighbours[label][direction % 6]

    def direction(self, a: str, b: str) -> int | None:
        """Direction index 0..5 from ``a`` to adjacent ``b`` (None if not adjacent)."""
        try:
            return self.neighbours[a].index(b)
        except (KeyError, ValueError):
            return None

    def distance(self, a: str, b: str) -> int:
        return self.grid.distance(a, b)

    def has(self, label: str, terrain: str) -> bool:
        return terrain in self.terrain.get(label, ())

    def is_land(self, label: str) -> bool:
        """Land for units that walk: any hex with a non-water terrain (mixed hexes count, DR 2.1.2)."""
        return any(t not in ("river", "sea") for t in self.terrain[label])

    def has_water(self, label: str) -> bool:
        return any(t in ("river", "sea", "ford") for t in self.terrain[label]) or \
            bool(self.attrs.get(label, {}).get("water"))

    def is_wall(self, a: str, b: str) -> bool:
        return side_key(a, b) in self.walls

    def entrance(self, a: str, b: str) -> Entrance | None:
        return self.entrances.get(side_key(a, b))

    def inside_walls(self) -> set[str]:
        return set(self.edges.get("inside_walls", []))

    def within(self, label: str, radius: int) -> list[str]:
        return [h for h in self.grid.hex_range(label, radius) if h in self.neighbours]

    def all_hexsides(self, label: str) -> list[tuple[int, str]]:
        return [(d, n) for d, n in enumerate(self.neighbours[label]) if n is not None]


def check_map(hexmap: HexMap) -> None:
    """What the rules read from a map beyond its vocabulary, refused with the map's file, line
    and field: VP values (whole numbers 1-5, DR 2.3), a bridge's material (wooden or stone,
    DR 2.5.7) and the tower of a tower entrance (one of its two hexes, a tower, DR 2.5.4)."""
    from simulator.core.errors import DataError

    def error(path: tuple[str | int, ...], message: str) -> DataError:
        doc = hexmap.doc
        return doc.error(path, message) if doc is not None else DataError(message, field=".".join(map(str, path)))

    for lab, attrs in hexmap.hexes_with("vp").items():
        if not isinstance(attrs, int) or isinstance(attrs, bool) or not 1 <= attrs <= 5:
            raise error(("hexes", lab, "vp"), f"a VP hex is worth a whole number of VP from 1 to 5, got {attrs!r} "
                                              "(DR 2.3)")
    for lab, material in hexmap.hexes_with("bridge").items():
        if material not in ("wooden", "stone"):
            raise error(("hexes", lab, "bridge"), f"a bridge is 'wooden' or 'stone', got {material!r} (DR 2.5.7)")
        if "bridge" not in hexmap.terrains_of(lab):
            raise error(("hexes", lab, "bridge"), f"{lab} is not a bridge hex (terrain: bridge) (DR 2.5.7)")
    for i, side in enumerate(hexmap.hexsides):
        if side["feature"] in ("tower_gate", "tower_door"):
            tower = side.get("tower")
            if tower not in side["between"] or "tower" not in hexmap.terrains_of(str(tower)):
                raise error(("hexsides", i, "tower"), f"a {side['feature']} names its tower: one of "
                                                      f"{' and '.join(side['between'])}, a tower hex (DR 2.5.4)")


def build_board(hexmap: HexMap) -> Board:
    check_map(hexmap)
    board = Board(hexmap)
    grid = hexmap.grid
    present = set(hexmap.labels)
    labels = list(hexmap.labels)
    # the six neighbours of every hex in one array step each (grid.neighbour per hex and
    # direction was a tenth of the start-up); a neighbour off the labels or the map is None
    cubes = grid.labels_to_cube(labels)
    around: list[list[str | None]] = []
    for vector in grid.direction_vectors:
        moved = cubes + vector
        ok = grid.labelable(moved)
        names = iter(grid.offsets_to_labels(grid.cube_to_offsets(moved[ok])))
        around.append([next(names) if k else None for k in ok.tolist()])
    for i, lab in enumerate(labels):
        board.neighbours[lab] = [n if n in present else None for n in (way[i] for way in around)]
        board.terrain[lab] = hexmap.terrains_of(lab)
        board.attrs[lab] = hexmap.hex_attrs(lab)
    inside = set(hexmap.edges.get("inside_walls", []))
    for side in hexmap.hexsides:
        a, b = side["between"]
        key = side_key(a, b)
        feature = side["feature"]
        if feature == "wall":
            board.walls.add(key)
        elif feature == "river_bank":
            board.river_banks.add(key)
        elif feature == "bridge_access":
            bridge = side.get("bridge") or (a if hexmap.terrain_of(a) == "bridge" else b)
            board.bridge_access.setdefault(bridge, set()).add(b if bridge == a else a)
        elif feature == "ford_access":
            ford = side.get("ford") or (a if hexmap.terrain_of(a) == "ford" else b)
            board.ford_access.setdefault(ford, set()).add(b if ford == a else a)
        elif feature in ENTRANCE_FEATURES:
            tower = side.get("tower")
            inner = side.get("inside") or side.get("building") or \
                (a if a in inside and b not in inside else b if b in inside else None)
            board.entrances[key] = Entrance(key, feature, (a, b), tower=tower, inside=inner,
                                            owner=str(side.get("owner", "defender")))
            if feature in ("gateway", "door"):
                board.walls.add(key)
    for chain in hexmap.paths.get("road", []):
        board.road_hexes.update(chain)
        for a, b in zip(chain, chain[1:]):
            board.road_sides.add(side_key(a, b))
    board.towers = set(hexmap.hexes_of("tower"))
    for lab, attrs in board.attrs.items():
        if attrs.get("road_tower"):
            board.road_towers.add(lab)
        if attrs.get("bridge") == "wooden":
            board.wooden_bridges.add(lab)
        if isinstance(attrs.get("vp"), int):
            board.vp[lab] = attrs["vp"]
    board.edges = {k: list(v) for k, v in hexmap.edges.items()}
    return board


@lru_cache(maxsize=8)
def board_for(map_ref: str) -> Board:
    """The board of a map id (``dragon_rage/esirien``), loaded once."""
    return build_board(load_hexmap(resolve_map(map_ref)))


def hexside(a: str, b: str) -> Hexside:
    return Hexside.between(a, b)
