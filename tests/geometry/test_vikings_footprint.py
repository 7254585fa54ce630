"""Footprint additions made for Vikings: axial data drawn in any heading, shifts, grid bounds."""

from __future__ import annotations

import numpy as np

from simulator.geometry.footprint import Footprint, ship_shape
from simulator.geometry.hexgrid import HexGrid

G = HexGrid("pointy", "odd-r", 2, 1, 1)


def test_from_axial_turns_the_drawing_to_facing_zero_and_keeps_the_order() -> None:
    east = [(-1, 0), (0, 0), (1, 0), (0, -1)]            # drawn with the bow towards E (1)
    fp = Footprint.from_axial(east, G, drawn_facing="E")
    placed = fp.place("1010", "E")
    assert placed.labels()[:3] == [G.neighbour("1010", "W"), "1010", G.neighbour("1010", "E")]
    assert placed.labels()[3] == G.neighbour("1010", "NW")     # axial (0, -1)
    # the same drawing read as facing 0 is the same shape turned one step anticlockwise
    assert Footprint.from_axial(east, G, drawn_facing=0).place("1010", 0).labels() == \
        fp.place("1010", 1).labels()


def test_shift_moves_without_turning_in_every_direction() -> None:
    ship = Footprint(ship_shape(6, 3), G).place("1010", 2)
    for d in range(6):
        moved = ship.shift(d)
        assert moved.facing == 2
        assert moved.pivot_label == G.neighbour("1010", d)
        assert all(G.neighbour(a, d) == b for a, b in zip(ship.labels(), moved.labels()))
    assert ship.shift(4, 3) == ship.shift(4).shift(4).shift(4)
    assert ship.shift(1).shift(4) == ship


def test_on_grid_reports_cells_that_cannot_be_labelled() -> None:
    boat = Footprint(np.array([[0, 0, 0], [1, -1, 0]]), G)
    assert boat.place("0101", 0).on_grid()
    row0 = boat.place("0100", 0)
    assert not row0.on_grid()
    assert boat.place("0101", 5).turn(-1).on_grid()
