"""Ship footprints from ``data/ships.yaml`` as rigid geometry footprints (rules 4.1, 4.43).

A ship is placed by its pivot hex (black dot) and its heading (direction index 0-5 of the
pointy grid: NE E SE SW W NW, the bow's direction). The footprints in ``ships.yaml`` are drawn
bowing east; :class:`simulator.geometry.footprint.Footprint` turns, advances, slides and shifts
them. Cell order is the data file's order, so a cell index ("slot") names the same deck position
whatever the ship's position: characters aboard keep their slot and move with the ship.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from simulator.games.vikings.catalogue import ship_types
from simulator.geometry.footprint import Footprint, PlacedFootprint
from simulator.geometry.hexgrid import HexGrid

EAST = 1          # heading of the footprints as written in ships.yaml
MOVES = ("straight", "lateral_left", "lateral_right", "turn_left", "turn_right")


def roles(kind: str) -> tuple[str, ...]:
    return tuple(cell[2] for cell in ship_types()[kind]["footprint"])


def slot_of(kind: str, role: str) -> int:
    """Slot of the first cell with ``role`` (every ship type has a bow, a stern and a pivot)."""
    return roles(kind).index(role)


@lru_cache(maxsize=64)
def shape(grid: HexGrid, kind: str) -> Footprint:
    return Footprint.from_axial([cell[:2] for cell in ship_types()[kind]["footprint"]], grid, EAST)


def place(grid: HexGrid, kind: str, pivot: str, heading: int) -> PlacedFootprint:
    return shape(grid, kind).place(pivot, heading)


def placed(grid: HexGrid, ship: dict[str, Any]) -> PlacedFootprint:
    """Where a ship of the state lies now."""
    return place(grid, ship["type"], ship["pivot"], ship["heading"])


@lru_cache(maxsize=200_000)
def footprint(grid: HexGrid, kind: str, pivot: str, heading: int) -> tuple[str, ...] | None:
    """Labels of every cell (in slot order), or None if part of it has no label (off the grid)."""
    return labels(place(grid, kind, pivot, heading))


def labels(fp: PlacedFootprint) -> tuple[str, ...] | None:
    return tuple(fp.labels()) if fp.on_grid() else None


def moved(fp: PlacedFootprint, move: str, backwards: bool) -> PlacedFootprint:
    """The footprint after one move of type ``move`` (rule 4.43).

    ``straight``: one hex along the axis; ``lateral_left``/``lateral_right``: one hex
    diagonally in the direction of travel, left/right as the helmsman sees them facing the bow;
    ``turn_left``/``turn_right``: 60 degrees about the pivot. A ship going astern moves (and
    slides) backwards.
    """
    if move == "straight":
        return fp.advance(-1 if backwards else 1)
    if move in ("lateral_left", "lateral_right"):
        side = "left" if move == "lateral_left" else "right"
        if backwards:       # the geometry's sides are those of the direction of travel
            side = "right" if side == "left" else "left"
        return fp.lateral(side, forward=not backwards)
    if move == "turn_left":
        return fp.turn(-1)
    if move == "turn_right":
        return fp.turn(1)
    raise ValueError(f"unknown ship move {move!r} (moves: {', '.join(MOVES)})")
