"""Ship footprints on the hex grid: rigid sets of hexes moved as one (rules 4.1, 4.43).

A ship is placed by its pivot hex (black dot) and its heading (direction index 0-5 of the
pointy grid: NE E SE SW W NW, the bow's direction). Footprints come from
``data/ships.yaml`` (drawn bowing east); rotation and translation use the geometry
package's cube operations. Cell order is the data file's order, so a cell index ("slot")
names the same deck position whatever the ship's position: characters aboard keep
their slot and move with the ship.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from simulator.games.vikings.catalogue import ship_types
from simulator.geometry.hexgrid import HexGrid, cube_rotate

EAST = 1          # heading of the footprints as written in ships.yaml


def roles(kind: str) -> tuple[str, ...]:
    return tuple(cell[2] for cell in ship_types()[kind]["footprint"])


def slot_of(kind: str, role: str) -> int | None:
    for i, r in enumerate(roles(kind)):
        if r == role:
            return i
    return None


@lru_cache(maxsize=200_000)
def footprint(grid: HexGrid, kind: str, pivot: str, heading: int) -> tuple[str, ...] | None:
    """Labels of every cell (in slot order), or None if part of it has no label (off the grid)."""
    cells = ship_types()[kind]["footprint"]
    local = np.array([(q, r, -q - r) for q, r, _ in cells], dtype=np.int64)
    cubes = cube_rotate(local, (heading - EAST) % 6) + np.array(grid.cube(pivot), dtype=np.int64)
    if not grid.labelable(cubes).all():
        return None
    return tuple(grid.cube_to_labels(cubes))


def step(grid: HexGrid, pivot: str, direction: int) -> str | None:
    """The pivot moved one hex in ``direction`` (None if that hex has no label)."""
    cube = np.array(grid.cube(pivot), dtype=np.int64) + grid.direction_vectors[direction % 6]
    if not grid.labelable(cube):
        return None
    return grid.from_cube(cube)


def moved(grid: HexGrid, pivot: str, heading: int, move: str, backwards: bool) -> tuple[str | None, int]:
    """(new pivot, new heading) after one move of type ``move`` (rule 4.43).

    ``straight``: one hex along the axis; ``lateral_left``/``lateral_right``: one hex
    diagonally in the direction of travel; ``turn_left``/``turn_right``: 60 degrees about
    the pivot. A ship going astern moves (and slides) backwards.
    """
    travel = (heading + 3) % 6 if backwards else heading
    if move == "straight":
        return step(grid, pivot, travel), heading
    if move in ("lateral_left", "lateral_right"):
        # left/right are the helmsman's, facing the bow; astern the diagonal is behind
        side = -1 if move == "lateral_left" else 1
        d = (travel + (side if not backwards else -side)) % 6
        return step(grid, pivot, d), heading
    if move == "turn_left":
        return pivot, (heading - 1) % 6
    if move == "turn_right":
        return pivot, (heading + 1) % 6
    raise ValueError(move)
