"""Where things are: between a surface's places (hex labels or inches) and world units.

On hex maps world units are hex sizes as :class:`~simulator.geometry.hexgrid.HexGrid`
computes them (``to_pixel`` with size 1); on tables they are inches. The rest of the
client draws in world units through the camera and asks a :class:`Board` to snap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Union

import numpy as np

from simulator.core.view import HexSurface, TableSurface
from simulator.geometry.hexgrid import HexGrid

Point = tuple[float, float]
Place = Union[str, Point]
Bounds = tuple[float, float, float, float]


@dataclass
class HexBoard:
    surface: HexSurface
    labels: list[str] = field(init=False)
    centres: np.ndarray = field(init=False)
    bounds: Bounds = field(init=False)

    def __post_init__(self) -> None:
        self.labels = list(self.surface.hexmap.labels)
        self._label_set = set(self.labels)
        self.centres = self.grid.to_pixel(self.labels, 1.0).reshape(-1, 2)
        self._centre = {lab: (float(x), float(y)) for lab, (x, y) in zip(self.labels, self.centres)}
        x0, y0 = self.centres.min(axis=0)
        x1, y1 = self.centres.max(axis=0)
        self.bounds = (float(x0) - 1.3, float(y0) - 1.2, float(x1) + 1.3, float(y1) + 1.2)
        origin = self.grid.to_pixel([[0, 0, 0]], 1.0).reshape(2)
        vecs = self.grid.to_pixel(self.grid.direction_vectors, 1.0).reshape(-1, 2) - origin
        self._facing_angles = [math.atan2(float(v[1]), float(v[0])) for v in vecs]

    kind = "hex"

    @property
    def grid(self) -> HexGrid:
        return self.surface.hexmap.grid

    def world_of(self, place: Place) -> Point:
        """Centre of a hex (labels off the map are placed by the grid all the same)."""
        if isinstance(place, str):
            found = self._centre.get(place)
            if found is not None:
                return found
            xy = self.grid.to_pixel([place], 1.0).reshape(2)
            return float(xy[0]), float(xy[1])
        return float(place[0]), float(place[1])

    def place_at(self, world: Point) -> str | None:
        """The hex under a world point, or None off the map."""
        try:
            label = self.grid.pixel_to_label(world, 1.0)
        except (ValueError, IndexError):
            return None
        return label if label in self._label_set else None

    def snap(self, world: Point) -> Place | None:
        return self.place_at(world)

    def contains(self, label: str) -> bool:
        return label in self._label_set

    def facing_angle(self, facing: float) -> float:
        """Screen angle (radians, y down) of a facing direction index."""
        i = int(round(facing)) % 6
        return self._facing_angles[i]

    def unit(self) -> str:
        return "hexes"


@dataclass
class TableBoard:
    surface: TableSurface
    bounds: Bounds = field(init=False)

    kind = "table"

    def __post_init__(self) -> None:
        self.bounds = (-2.0, -2.0, self.surface.width + 2.0, self.surface.height + 2.0)

    def world_of(self, place: Place) -> Point:
        if isinstance(place, str):
            raise ValueError(f"a table position is (x, y) in inches, not {place!r}")
        return float(place[0]), float(place[1])

    def place_at(self, world: Point) -> Point | None:
        x, y = world
        if 0 <= x <= self.surface.width and 0 <= y <= self.surface.height:
            return (round(x, 2), round(y, 2))
        return None

    def snap(self, world: Point) -> Place | None:
        return self.place_at(world)

    def facing_angle(self, facing: float) -> float:
        """Screen angle (radians, y down) of a facing in degrees clockwise from north."""
        return math.radians(facing - 90.0)

    def unit(self) -> str:
        return "inches"


Board = Union[HexBoard, TableBoard]


def make_board(surface: HexSurface | TableSurface) -> Board:
    if isinstance(surface, HexSurface):
        return HexBoard(surface)
    return TableBoard(surface)
