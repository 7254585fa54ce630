"""join_hexmaps: boards joined edge to edge into one HexMap."""

from __future__ import annotations

import pytest

from simulator.core.errors import DataError
from simulator.core.hexmap import HexMap, join_hexmaps
from simulator.geometry.hexgrid import HexGrid

G = HexGrid("pointy", "odd-r", 2, 1, 1)


def board(name: str, cols: int = 3, rows: int = 2, **kw) -> HexMap:
    return HexMap(G, cols, rows, G.all_labels(cols, rows), {"id": name, "name": name.title(), "assumed": "x"},
                  kw.get("default", "sea"), kw.get("terrain", {}), kw.get("attrs", {}), kw.get("sides", []),
                  kw.get("paths", {}), kw.get("edges", {}))


def test_side_by_side_renumbers_everything() -> None:
    a = board("a", terrain={"0101": ("beach",)}, attrs={"0202": {"treasure": 1}},
              sides=[{"between": ("0101", "0201"), "feature": "wall"}], edges={"east": ["0301", "0302"]},
              paths={"road": [["0101", "0201"]]})
    b = board("b", default="clear", terrain={"0101": ("tree",)},
              sides=[{"between": ("0101", "0102"), "feature": "door"}], edges={"west": ["0101", "0102"]},
              paths={"road": [["0101", "0201"]]})
    j = join_hexmaps([(a, 0, 0), (b, 3, 0)])
    assert (j.columns, j.rows, len(j.labels)) == (6, 2, 12)
    assert j.terrain_of("0101") == "beach" and j.terrain_of("0401") == "tree"
    assert j.terrain_of("0501") == "clear" and j.terrain_of("0201") == "sea"    # each board keeps its default
    assert j.hex_attrs("0202") == {"treasure": 1}
    assert [f["feature"] for f in j.hexside_features("0401", "0402")] == ["door"]
    assert [f["feature"] for f in j.hexside_features("0101", "0201")] == ["wall"]
    assert j.edges == {"a:east": ["0301", "0302"], "b:west": ["0401", "0402"]}
    assert j.paths["road"] == [["0101", "0201"], ["0401", "0501"]]
    assert j.id == "a+b" and j.meta["name"] == "A + B"
    assert "0401" in j and "0701" not in j
    # neighbours across the join line are ordinary grid neighbours
    assert G.adjacent("0301", "0401") and "0401" in G.neighbours("0301").values()


def test_stacked_boards_need_an_even_row_offset_and_gaps_are_missing_hexes() -> None:
    a, b = board("a"), board("b")
    j = join_hexmaps([(a, 0, 0), (b, 1, 2)])
    assert (j.columns, j.rows) == (4, 4)
    assert "0103" not in j and "0203" in j and "0401" not in j      # the gaps are not hexes of the board
    with pytest.raises(DataError, match="row offset 1 must be even"):
        join_hexmaps([(a, 0, 0), (b, 0, 1)])


def test_overlap_other_grid_and_empty_are_refused() -> None:
    a, b = board("a"), board("b")
    with pytest.raises(DataError, match="maps a and b overlap at hex 0301"):
        join_hexmaps([(a, 0, 0), (b, 2, 0)])
    other = HexMap(HexGrid.dragon_rage(), 2, 2, HexGrid.dragon_rage().all_labels(2, 2), {"id": "dr"}, "clear",
                   {}, {}, [], {}, {})
    with pytest.raises(DataError, match="another grid"):
        join_hexmaps([(a, 0, 0), (other, 3, 0)])
    with pytest.raises(DataError, match="no maps"):
        join_hexmaps([])


def test_single_map_at_zero_is_an_equal_copy() -> None:
    a = board("a", terrain={"0102": ("beach",)})
    j = join_hexmaps([(a, 0, 0)])
    assert j.labels == a.labels and j.terrain_of("0102") == "beach" and j.id == "a"
