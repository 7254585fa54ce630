"""Rigid multi-hex footprints (Vikings ships) on a hex grid.

A :class:`Footprint` is a set of cube offsets relative to a pivot hex, defined for facing 0
(the grid's direction 0: N on flat grids), placed at a pivot hex with a facing 0-5.  Moves:
rotate by 60-degree steps about the pivot, advance along the facing (negative = astern), and
the two lateral moves (forward-left / forward-right diagonal, keeping the heading; vikings.md
11.7).  Characters aboard are stored in ship-local offsets so they turn and move with the ship.

:func:`ship_shape` builds the derived Vikings deck layout (vikings.md 11.1, [DERIVED]): a centre
(keel) row of ``n`` hexes and two side rows of ``n - 1`` hexes nestled alongside it: drakkar
8+7+7 = 22, galley 6+5+5 = 16.  The pivot position and the rowboat shape are [NOT IN TEXT]: the
game supplies them (``pivot_index``) or any offset list as YAML.

>>> from simulator.geometry.hexgrid import HexGrid
>>> g = HexGrid.dragon_rage()
>>> ship = Footprint(ship_shape(6, pivot_index=3), g)      # galley
>>> len(ship.offsets)
16
>>> placed = ship.place("1010", 0)
>>> placed.turn(1).turn(5) == placed
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .hexgrid import CUBE_DIRECTIONS, HexGrid, cube_rotate

__all__ = ["ship_shape", "Footprint", "PlacedFootprint", "SHIP_SHAPES"]

I = NDArray[np.int64]


def ship_shape(centre_len: int, pivot_index: int | None = None, sides: bool = True) -> I:
    """Derived ship shape as cube offsets (facing 0 = bow towards direction 0).

    ``centre_len`` hexes stern->bow on the keel row; ``pivot_index`` (0 = stern) is the pivot,
    default the middle; with ``sides`` two side rows of ``centre_len - 1`` hexes.  Row order of
    the result: keel stern->bow, then port side, then starboard side.

    >>> len(ship_shape(8)), len(ship_shape(6)), len(ship_shape(3, sides=False))
    (22, 16, 3)
    """
    if centre_len < 1:
        raise ValueError("centre_len must be >= 1")
    piv = (centre_len - 1) // 2 if pivot_index is None else pivot_index
    if not 0 <= piv < centre_len:
        raise ValueError(f"pivot_index {piv} is outside the keel row of {centre_len} hexes")
    fwd = CUBE_DIRECTIONS[0]
    keel = [(k - piv) * fwd for k in range(centre_len)]
    out = list(keel)
    if sides and centre_len > 1:
        # side hex k touches keel hexes k and k+1: it is keel_{k+1} + the backward-diagonal
        back_port = CUBE_DIRECTIONS[4]  # SW for facing N
        back_stbd = CUBE_DIRECTIONS[2]  # SE for facing N
        out += [(k + 1 - piv) * fwd + back_port for k in range(centre_len - 1)]
        out += [(k + 1 - piv) * fwd + back_stbd for k in range(centre_len - 1)]
    return np.array(out, dtype=np.int64)


#: Derived default shapes (pivot in the middle of the keel; rowboat a 3-hex line).
SHIP_SHAPES: dict[str, I] = {
    "drakkar": ship_shape(8, 3),
    "galley": ship_shape(6, 3),
    "rowboat": ship_shape(3, 1, sides=False),
}


@dataclass(frozen=True)
class Footprint:
    """A rigid shape: cube ``offsets`` ``(n, 3)`` relative to the pivot, at facing 0."""

    offsets: I
    grid: HexGrid

    def __post_init__(self) -> None:
        o = np.asarray(self.offsets, dtype=np.int64).reshape(-1, 3)
        if (o.sum(axis=1) != 0).any():
            raise ValueError("footprint offsets must be cube coordinates (q + r + s == 0)")
        if len({tuple(x) for x in o.tolist()}) != len(o):
            raise ValueError("footprint offsets contain the same hex twice")
        object.__setattr__(self, "offsets", o)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Footprint) and self.grid == other.grid
                and np.array_equal(self.offsets, other.offsets))

    def __hash__(self) -> int:
        return hash((self.grid, self.offsets.tobytes()))

    @classmethod
    def from_axial(cls, cells: Iterable[Sequence[int]], grid: HexGrid,
                   drawn_facing: int | str = 0) -> "Footprint":
        """A footprint from axial ``(q, r)`` offsets drawn with the bow towards ``drawn_facing``.

        Data files may draw a ship in whatever heading is natural (Vikings draws them bowing
        east); the offsets are turned to facing 0 here, keeping their order.

        >>> g = HexGrid("pointy", "odd-r", 2, 1, 1)
        >>> fp = Footprint.from_axial([(0, 0), (1, 0)], g, drawn_facing=1)   # bow east
        >>> fp.place("0505", 1).labels()
        ['0505', '0605']
        """
        q_r = np.asarray([tuple(c)[:2] for c in cells], dtype=np.int64).reshape(-1, 2)
        cubes = np.column_stack([q_r[:, 0], q_r[:, 1], -q_r[:, 0] - q_r[:, 1]])
        return cls(cube_rotate(cubes, -grid.direction_index(drawn_facing)), grid)

    def place(self, pivot: str, facing: int | str = 0) -> "PlacedFootprint":
        """Put the footprint on the map with its pivot on ``pivot``."""
        return PlacedFootprint(self, self.grid.cube(pivot), self.grid.direction_index(facing))


@dataclass(frozen=True)
class PlacedFootprint:
    """A footprint at a pivot cube with a facing (0-5, the grid's direction index)."""

    shape: Footprint
    pivot: tuple[int, int, int]
    facing: int

    @property
    def grid(self) -> HexGrid:
        return self.shape.grid

    def cubes(self) -> I:
        """Map cubes ``(n, 3)`` covered, in the shape's offset order."""
        return cube_rotate(self.shape.offsets, self.facing) + np.array(self.pivot)

    def labels(self) -> list[str]:
        """Map labels covered, in the shape's offset order."""
        return self.grid.cube_to_labels(self.cubes())

    @property
    def pivot_label(self) -> str:
        return self.grid.from_cube(self.pivot)

    # ------------------------------------------------------------- moves
    def turn(self, steps: int) -> "PlacedFootprint":
        """Rotate by ``steps`` x 60 degrees clockwise about the pivot (negative = anticlockwise)."""
        return replace(self, facing=(self.facing + steps) % 6)

    def advance(self, n: int = 1) -> "PlacedFootprint":
        """Move ``n`` hexes along the facing (negative: astern)."""
        d = self.grid.direction_vectors[self.facing] * n
        return replace(self, pivot=tuple(int(x) for x in np.array(self.pivot) + d))  # type: ignore[arg-type]

    def lateral(self, side: str, forward: bool = True) -> "PlacedFootprint":
        """Lateral move: one hex to the forward-left (``side="left"``) or forward-right, keeping
        the facing; ``forward=False`` gives the backward diagonals (moving astern).

        >>> g = HexGrid.dragon_rage()
        >>> Footprint(np.zeros((1, 3), int), g).place("1010", "N").lateral("right").pivot_label
        '1110'
        """
        if side not in ("left", "right"):
            raise ValueError(f"side must be 'left' or 'right', got {side!r}")
        k = (self.facing + (5 if side == "left" else 1) + (0 if forward else 3)) % 6
        d = self.grid.direction_vectors[k]
        return replace(self, pivot=tuple(int(x) for x in np.array(self.pivot) + d))  # type: ignore[arg-type]

    def shift(self, direction: int | str, n: int = 1) -> "PlacedFootprint":
        """Translate ``n`` hexes in any grid direction, keeping the facing (a rope hauling a boat
        sideways, one boat pushing another aside).

        >>> g = HexGrid.dragon_rage()
        >>> Footprint(np.zeros((1, 3), int), g).place("1010", "N").shift("S", 2).pivot_label
        '1012'
        """
        d = self.grid.direction_vectors[self.grid.direction_index(direction)] * n
        return replace(self, pivot=tuple(int(x) for x in np.array(self.pivot) + d))  # type: ignore[arg-type]

    def on_grid(self) -> bool:
        """True if every covered hex has a label (a footprint pushed past the first row or
        column does not: labels are never negative); call before :meth:`labels`.

        >>> g = HexGrid.dragon_rage()
        >>> boat = Footprint(ship_shape(3, sides=False), g)
        >>> boat.place("0102", "N").on_grid(), boat.place("0100", "N").on_grid()
        (True, False)
        """
        return bool(self.grid.labelable(self.cubes()).all())

    # ------------------------------------------------------------- tests
    def overlaps(self, other: "PlacedFootprint") -> bool:
        """True if the two footprints share a hex."""
        a = {tuple(x) for x in self.cubes().tolist()}
        return any(tuple(x) in a for x in other.cubes().tolist())

    def overlaps_hexes(self, hexes: Iterable[str]) -> list[str]:
        """The given hexes (e.g. land) that the footprint covers, in footprint order."""
        hs = set(hexes)
        return [h for h in self.labels() if h in hs]

    def within(self, hexes: Iterable[str]) -> bool:
        """True if every covered hex is in ``hexes`` (e.g. the map's sea hexes)."""
        hs = set(hexes)
        return all(h in hs for h in self.labels())

    # ------------------------------------------------------------- passengers
    def local_to_map(self, local: ArrayLike) -> I:
        """Ship-local cube offsets ``(n, 3)`` -> map cubes."""
        return cube_rotate(np.asarray(local, dtype=np.int64), self.facing) + np.array(self.pivot)

    def map_to_local(self, cubes: ArrayLike) -> I:
        """Map cubes -> ship-local offsets (inverse of :meth:`local_to_map`)."""
        return cube_rotate(np.asarray(cubes, dtype=np.int64) - np.array(self.pivot), -self.facing)

    def label_to_local(self, label: str) -> tuple[int, int, int]:
        """Map label -> local offset; ``ValueError`` if the hex is not part of the ship."""
        loc = self.map_to_local(np.array(self.grid.cube(label)))
        t = tuple(int(x) for x in loc)
        if not (self.shape.offsets == np.array(t)).all(axis=1).any():
            raise ValueError(f"hex {label} is not part of this footprint")
        return t  # type: ignore[return-value]

    def local_to_label(self, local: Sequence[int]) -> str:
        """Local offset -> map label."""
        return self.grid.from_cube(self.local_to_map(np.array(local)))

    def carry(self, aboard: Mapping[str, str]) -> dict[str, tuple[int, int, int]]:
        """``{piece: map label}`` -> ``{piece: local offset}`` (store these with the ship)."""
        return {k: self.label_to_local(v) for k, v in aboard.items()}

    def positions(self, local: Mapping[str, Sequence[int]]) -> dict[str, str]:
        """``{piece: local offset}`` -> ``{piece: map label}`` after any moves.

        >>> g = HexGrid.dragon_rage()
        >>> s = Footprint(SHIP_SHAPES["rowboat"], g).place("1010", "N")
        >>> crew = s.carry({"rower": s.labels()[0]})
        >>> s.turn(3).positions(crew)["rower"] == s.turn(3).labels()[0]
        True
        """
        return {k: self.local_to_label(v) for k, v in local.items()}
