"""Identities and rulebook examples for simulator.geometry.hexgrid."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.geometry.hexgrid import (
    CUBE_DIRECTIONS,
    HexGrid,
    Hexside,
    cube_distance,
    cube_round,
)

DR = HexGrid.dragon_rage()
GRIDS = [
    DR,
    HexGrid("flat", "odd-q"),
    HexGrid("pointy", "even-r"),
    HexGrid("pointy", "odd-r", first_col=0, first_row=0),
    HexGrid("flat", "even-q", first_col=0, first_row=0),
]

labels = st.builds(lambda c, r: DR.label(c, r), st.integers(1, 30), st.integers(1, 30))


def test_dr_neighbour_table_exact() -> None:
    # rules/dragon_rage.md section 2.1 table, both column parities
    table = {
        "N": ((0, -1), (0, -1)),
        "NE": ((1, 0), (1, -1)),
        "SE": ((1, 1), (1, 0)),
        "S": ((0, 1), (0, 1)),
        "SW": ((-1, 1), (-1, 0)),
        "NW": ((-1, 0), (-1, -1)),
    }
    for c in range(2, 24):
        for r in range(2, 16):
            lab = DR.label(c, r)
            nb = DR.neighbours(lab)
            for d, (even, odd) in table.items():
                dc, dr = even if c % 2 == 0 else odd
                assert nb[d] == DR.label(c + dc, r + dr), (lab, d)
                assert DR.neighbour(lab, d) == nb[d]
                assert DR.direction_between(lab, nb[d]) == d


@pytest.mark.parametrize(
    "chain",
    [["0606", "0707"], ["2113", "2212"], ["0815", "0915", "1014", "1115"], ["1410", "1310"],
     ["1410", "1511"], ["0109", "0208"]],
)
def test_digest_adjacency_examples(chain: list[str]) -> None:
    for a, b in zip(chain, chain[1:]):
        assert DR.distance(a, b) == 1
        assert DR.adjacent(a, b)
        Hexside.between(a, b, DR)


def test_digest_named_directions() -> None:
    assert DR.neighbour("0606", "SE") == "0707"
    assert DR.neighbour("2113", "NE") == "2212"
    assert DR.neighbour("0815", "NE") == "0915"
    assert DR.neighbour("0915", "NE") == "1014"
    assert DR.neighbour("1014", "SE") == "1115"
    assert DR.neighbour("0109", "NE") == "0208"


def test_parse_errors() -> None:
    for bad in ["", "123", "12345", "ab12", "12 4", "１２３４", None, 1234]:
        with pytest.raises(ValueError, match="bad hex label"):
            DR.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bad hex label"):
        DR.labels_to_offsets(["0101", "01x1"])
    with pytest.raises(ValueError, match="unknown direction"):
        DR.neighbour("0101", "E")
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.between("0101", "0103", DR)


@pytest.mark.parametrize("g", GRIDS)
def test_round_trips_vectorised(g: HexGrid) -> None:
    labs = g.all_labels(30, 25)
    off = g.labels_to_offsets(labs)
    cubes = g.offsets_to_cube(off)
    assert (cubes.sum(axis=1) == 0).all()
    assert (g.cube_to_offsets(cubes) == off).all()
    assert g.offsets_to_labels(off) == labs
    assert g.cube_to_labels(cubes) == labs
    px = g.to_pixel(cubes, size=3.0, origin=(5.0, 7.0))
    assert (g.pixel_to_hex(px, size=3.0, origin=(5.0, 7.0)) == cubes).all()
    # labels give the same pixels as cubes
    assert np.allclose(g.to_pixel(labs, 3.0, (5.0, 7.0)), px)
    # random points inside a hex (radius < inradius) map back to it
    rng = np.random.default_rng(0)
    ang = rng.uniform(0, 2 * np.pi, len(px))
    rad = rng.uniform(0, 0.99 * np.sqrt(3) / 2 * 3.0, len(px))
    jit = px + np.stack([np.cos(ang) * rad, np.sin(ang) * rad], -1)
    assert (g.pixel_to_hex(jit, size=3.0, origin=(5.0, 7.0)) == cubes).all()


@pytest.mark.parametrize("g", GRIDS)
def test_neighbours_distance_one_and_geometry(g: HexGrid) -> None:
    for lab in g.all_labels(6, 6)[5:]:
        nb = g.neighbours(lab)
        c0 = g.to_pixel(lab, 1.0)[0]
        for d, n in nb.items():
            assert g.distance(lab, n) == 1
            # neighbouring centres are sqrt(3) apart for circumradius 1
            assert np.isclose(np.linalg.norm(g.to_pixel(n, 1.0)[0] - c0), np.sqrt(3))
            # named direction matches screen direction
            v = g.to_pixel(n, 1.0)[0] - c0
            if "N" in d:
                assert v[1] < 0
            if "S" in d:
                assert v[1] > 0
            if d in ("E", "NE", "SE"):
                assert v[0] > 0
            if d in ("W", "NW", "SW"):
                assert v[0] < 0


@settings(max_examples=150, deadline=None)
@given(labels, labels, labels)
def test_distance_metric(a: str, b: str, c: str) -> None:
    assert DR.distance(a, b) == DR.distance(b, a)
    assert (DR.distance(a, b) == 0) == (a == b)
    assert DR.distance(a, c) <= DR.distance(a, b) + DR.distance(b, c)
    A = DR.labels_to_cube([a, b, c])
    M = DR.distances(A[:, None], A[None, :])
    assert M[0, 1] == DR.distance(a, b) and M[1, 2] == DR.distance(b, c)


def test_ring_range() -> None:
    for r in range(0, 5):
        ring = DR.ring("1515", r)
        assert len(ring) == max(1, 6 * r)
        assert all(DR.distance("1515", x) == r for x in ring)
        assert len(DR.hex_range("1515", r)) == 1 + 3 * r * (r + 1)
    # near the corner unlabellable hexes are dropped
    assert all(DR.is_label(x) for x in DR.hex_range("0101", 3))


def test_hexside_identity_and_segments() -> None:
    s1 = Hexside.between("0606", "0707", DR)
    s2 = Hexside.parse("0707/0606", DR)
    assert s1 == s2 and hash(s1) == hash(s2) and str(s1) == "0606/0707"
    assert s1.other("0606") == "0707" and "0707" in s1
    assert {s1: 1}[s2] == 1
    # the hexside segment is the shared edge of both hexagons
    for a, b in [("0606", "0707"), ("2113", "2212"), ("1410", "1310")]:
        seg = DR.hexside_segments([Hexside.between(a, b, DR)], size=2.0)[0]
        pa, pb = DR.polygons([a, b], size=2.0)
        for p in seg:
            assert np.min(np.linalg.norm(pa - p, axis=1)) < 1e-9
            assert np.min(np.linalg.norm(pb - p, axis=1)) < 1e-9


def test_rotation_six_steps_identity() -> None:
    from simulator.geometry.hexgrid import cube_rotate

    v = np.array([[3, -1, -2], [0, 2, -2]])
    assert (cube_rotate(v, 6) == v).all()
    for k in range(6):
        assert (cube_rotate(CUBE_DIRECTIONS[0], k) == CUBE_DIRECTIONS[k]).all()


# ---------------------------------------------------------------- hex lines


def _dense_walk(g: HexGrid, a: str, b: str, nudge: float) -> set[str]:
    """Oracle: sample the (nudged) pixel segment densely and collect the hexes."""
    pa, pb = g.to_pixel([a, b], 1.0)
    d = pb - pa
    n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-300) * nudge
    t = np.linspace(0, 1, 40001)[:, None]
    pts = pa + n + t * d
    cubes = g.pixel_to_hex(pts, 1.0)
    # the samples run along the segment, so a hex's samples are consecutive: labelling only
    # where the hex changes gives the same set at a fraction of the cost
    changes = np.concatenate(([True], (cubes[1:] != cubes[:-1]).any(axis=1)))
    return set(g.cube_to_labels(cubes[changes]))


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 14), st.integers(3, 14), st.integers(3, 14), st.integers(3, 14))
def test_hex_line_matches_dense_oracle(c1: int, r1: int, c2: int, r2: int) -> None:
    a, b = DR.label(c1, r1), DR.label(c2, r2)
    ln = DR.hex_line(a, b)
    assert ln.steps[0].hexes == (a,) and ln.steps[-1].hexes == (b,)
    assert ln.left_path[0] == a and ln.left_path[-1] == b
    for path in (ln.left_path, ln.right_path):
        assert all(DR.distance(x, y) == 1 for x, y in zip(path, path[1:]))  # contiguous
        assert len(set(path)) == len(path)
    dense_l, dense_r = _dense_walk(DR, a, b, 1e-7), _dense_walk(DR, a, b, -1e-7)
    # every hex the line enters is reported, and every reported hex is touched by the line
    assert dense_l | dense_r <= set(ln.all_hexes())
    assert set(ln.labels()) <= dense_l & dense_r
    seg = shapely.LineString(DR.to_pixel([a, b], 1.0))
    for h in ln.all_hexes():
        assert shapely.Polygon(DR.polygons([h], 1.0)[0]).distance(seg) < 1e-9
    # hexes only grazed at a corner are exactly the vertex steps
    for s in ln.steps:
        if s.kind == "vertex":
            for h in s.hexes:
                poly = shapely.Polygon(DR.polygons([h], 1.0)[0])
                assert poly.intersection(seg).length < 1e-9
    if not ln.ambiguous:
        assert ln.labels() == list(ln.left_path)
    # reversing the line gives the same hexes
    rev = DR.hex_line(b, a)
    assert set(rev.all_hexes()) == set(ln.all_hexes())


def test_hex_line_straight_and_ambiguous_cases() -> None:
    # along a column: no ambiguity
    assert DR.hex_line("0505", "0509").labels() == ["0505", "0506", "0507", "0508", "0509"]
    # exactly along hexsides (flat grid: horizontal lines, and the 4 other vertex directions)
    ln = DR.hex_line("0101", "0301")
    assert [(s.kind, s.hexes) for s in ln.steps] == [
        ("hex", ("0101",)), ("hexside", ("0200", "0201")), ("hex", ("0301",))]
    ln = DR.hex_line("0505", "1105")
    assert [s.kind for s in ln.steps] == ["hex", "hexside", "hex", "hexside", "hex", "hexside", "hex"]
    assert ln.labels() == ["0505", "0705", "0905", "1105"]
    assert ln.steps[1].hexes == ("0604", "0605")
    assert ln.ambiguous and set(ln.steps[1].left) | set(ln.steps[1].right) == {"0604", "0605"}
    # 0101 -> 0202 runs along the hexside 0102/0201
    ln = DR.hex_line("0101", "0202")
    assert [(s.kind, s.hexes) for s in ln.steps] == [
        ("hex", ("0101",)), ("hexside", ("0102", "0201")), ("hex", ("0202",))]
    # through a vertex transversally: cube direction (5,-1,-4) passes a corner at t=1/3
    a = "0510"
    ca = np.array(DR.cube(a))
    b = DR.from_cube(ca + np.array([5, -1, -4]))
    ln = DR.hex_line(a, b)
    kinds = [s.kind for s in ln.steps]
    assert "vertex" in kinds and "hexside" not in kinds
    v = ln.steps[kinds.index("vertex")]
    assert (v.left == ()) != (v.right == ()) and len(v.hexes) == 1


def test_pointy_lines() -> None:
    g = HexGrid("pointy", "odd-r")
    a = g.label(5, 5)
    b = g.neighbour(g.neighbour(a, "E"), "E")
    assert g.hex_line(a, b).labels() == [a, g.neighbour(a, "E"), b]
    ln = g.hex_line(a, g.neighbour(g.neighbour(a, "NE"), "N" if False else "NW"))
    assert ln.ambiguous  # NE+NW = straight north: along a hexside on pointy grids
