"""The board's neighbour table (built with one array step per direction for a quick start-up)
is what the grid says hex by hex: the hex in each direction, None off the map."""

from __future__ import annotations

import pytest

from simulator.core.hexmap import load_hexmap
from simulator.games.dragon_rage.board import build_board, resolve_map


@pytest.mark.parametrize("map_ref", ["dragon_rage/esirien", "dragon_rage/nurkott"])
def test_neighbours_match_the_grid(map_ref: str) -> None:
    hexmap = load_hexmap(resolve_map(map_ref))
    board = build_board(hexmap)
    present = set(hexmap.labels)
    off_map = 0
    for lab in hexmap.labels:
        expected = []
        for d in range(6):
            try:
                n = hexmap.grid.neighbour(lab, d)
            except ValueError:          # no label (column or row 0 or below)
                n = None
            expected.append(n if n in present else None)
        off_map += expected.count(None)
        assert board.neighbours[lab] == expected, lab
    assert off_map > 0                  # the edges are there
