"""hexmove, hexlos and footprint tests."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from simulator.geometry.footprint import SHIP_SHAPES, Footprint, ship_shape
from simulator.geometry.hexgrid import HexGrid, Hexside
from simulator.geometry.hexlos import HexObstacleMap, hex_los
from simulator.geometry.hexmove import HexMap, path_cost, reachable

G = HexGrid.dragon_rage()
M = HexMap(G, G.all_labels(10, 10))


def test_reachable_plain_matches_distance() -> None:
    r = reachable(M, "0505", budget=3)
    for h in M.labels:
        d = G.distance("0505", h)
        assert (h in r.cost) == (d <= 3)
        if h in r.cost:
            assert r.cost[h] == d
            p = r.path_to(h)
            assert p[0] == "0505" and p[-1] == h and len(p) == d + 1
    assert r.mask.sum() == 1 + 3 * 3 * 4
    assert np.isinf(r.cost_array[M.index["0909"]])
    with pytest.raises(ValueError, match="cannot be reached"):
        r.path_to("0909")


def test_gateway_one_way_and_road_and_bridge() -> None:
    inside, outside = "0606", "0707"
    wall = {frozenset((inside, outside))}

    def gate(a: str, b: str) -> float | None:
        if frozenset((a, b)) in wall:
            return 0 if a == inside else None  # inside -> outside only
        return 0

    walls = M.labels  # every other side is a wall around 0707 to force the gate
    cut = {frozenset((outside, n)) for n in G.neighbours(outside).values()} - wall

    def rule(a: str, b: str) -> float | None:
        if frozenset((a, b)) in cut:
            return None
        return gate(a, b)

    assert "0707" in reachable(M, inside, hexside_rule=rule, budget=1).cost
    assert "0606" not in reachable(M, outside, hexside_rule=rule, budget=5).cost
    # road: half cost along road sides, even through an impassable (tower) hex
    road = [G.hexside("0101", "0102"), G.hexside("0102", "0103")]
    r = reachable(M, "0101", entry_cost={"0102": None}, road_cost=0.5, road_hexsides=road, budget=1)
    assert r.cost["0103"] == 1.0 and r.path_to("0103") == ["0101", "0102", "0103"]
    # bridge 0505 entered only from 0504 / 0506
    conn = {frozenset(("0505", "0504")), frozenset(("0505", "0506"))}

    def bridge(a: str, b: str) -> float | None:
        if "0505" in (a, b) and frozenset((a, b)) not in conn:
            return None
        return 0

    r = reachable(M, "0405", hexside_rule=bridge, budget=10)
    assert r.path_to("0505")[-2] in ("0504", "0506")
    assert path_cost(["0405", "0505"], hexside_rule=bridge)[0] is None
    r = reachable(M, "0101", no_stop={"0102"}, blocked={"0201"}, budget=1)
    assert "0102" in r.cost and "0102" not in r.endable and "0201" not in r.cost


def test_hex_los_hexes_sides_and_ambiguous_rules() -> None:
    assert hex_los(G, "0505", "0509", hex_blocks={"0507"}).blocked_by_hex == "0507"
    assert hex_los(G, "0505", "0509", hex_blocks={"0505", "0509"}).visible
    assert not hex_los(G, "0505", "0509", hex_blocks={"0505"}, include_endpoints=True).visible
    side = G.hexside("0506", "0507")
    res = hex_los(G, "0505", "0509", hexside_blocks={side})
    assert not res.visible and res.blocked_by_hexside == side
    # along hexside 0604/0605 between 0505 and 0705
    assert hex_los(G, "0505", "0705", hex_blocks={"0604"}).visible
    assert not hex_los(G, "0505", "0705", hex_blocks={"0604", "0605"}).visible
    assert not hex_los(G, "0505", "0705", hex_blocks={"0604"}, ambiguous="either").visible
    # hexside-only blocking in one alternative
    s = G.hexside("0505", "0604")
    assert hex_los(G, "0505", "0705", hexside_blocks={s}).visible
    assert not hex_los(G, "0505", "0705", hexside_blocks={s}, ambiguous="either").visible
    calls = []
    hex_los(G, "0505", "0705", ambiguous=lambda st, l, r: calls.append((st.kind, l, r)) or False)
    assert calls == [("hexside", False, False)]


def test_geometric_hex_los_against_shapely() -> None:
    rng = np.random.default_rng(5)
    labels = G.all_labels(12, 10)
    walls = []
    for h in rng.choice(labels, 25, replace=False):
        nb = list(G.neighbours(str(h)).values())
        walls.append(G.hexside(str(h), nb[int(rng.integers(len(nb)))]))
    walls = list(dict.fromkeys(walls))
    towers = [str(x) for x in rng.choice(labels, 5, replace=False)]
    m = HexObstacleMap(G, walls, towers, size=1.0)
    vis, who = m.los_matrix(labels)
    cen = G.to_pixel(labels, 1.0)
    geoms = [shapely.LineString(s) for s in G.hexside_segments(walls)] + [
        shapely.Polygon(p) for p in G.polygons(towers)]
    rng2 = np.random.default_rng(1)
    for _ in range(400):
        i, j = rng2.integers(len(labels), size=2)
        if i == j:
            continue
        ln = shapely.LineString([cen[i], cen[j]])
        hits = {k for k, g in enumerate(geoms) if g.distance(ln) <= 1e-9
                and not (k >= len(walls) and towers[k - len(walls)] in (labels[i], labels[j]))}
        assert vis[i, j] == (not hits)
        if hits:
            assert who[i, j] in hits
        v1, b1 = m.los(labels[i], labels[j])
        assert v1 == vis[i, j]
    # one viewer to every hex agrees with the matrix row
    v, w = m.los_from(labels[7], labels)
    assert (v == vis[7]).all() and (w == who[7]).all()
    # the firer's own tower never blocks
    t = towers[0]
    assert m.los_from(t, [t])[0].all()


def test_ship_shapes_and_moves() -> None:
    assert len(SHIP_SHAPES["drakkar"]) == 22 and len(SHIP_SHAPES["galley"]) == 16
    assert len(SHIP_SHAPES["rowboat"]) == 3
    for name, shape in SHIP_SHAPES.items():
        fp = Footprint(shape, G)
        s = fp.place("1212", "N")
        cubes = s.cubes()
        # contiguous: every hex adjacent to another
        d = G.distances(cubes[:, None], cubes[None])
        assert ((d == 1).sum(1) >= 1).all()
        for k in range(7):
            assert sorted(s.turn(k).turn(-k).labels()) == sorted(s.labels())
        assert s.turn(6) == s
        # turning keeps the pivot
        assert s.turn(2).pivot_label == "1212"
        # advancing N moves every hex one N
        assert [G.neighbour(h, "N") for h in s.labels()] == s.advance(1).labels()
        assert s.advance(3).advance(-3) == s
        # lateral: forward-right on facing N is NE
        assert [G.neighbour(h, "NE") for h in s.labels()] == s.lateral("right").labels()
        assert [G.neighbour(h, "NW") for h in s.labels()] == s.lateral("left").labels()
        # passengers move and turn with the ship
        crew = s.carry({"a": s.labels()[-1], "b": s.pivot_label})
        s2 = s.turn(2).advance(2).lateral("left")
        assert s2.positions(crew) == {"a": s2.labels()[-1], "b": s2.pivot_label}
    # side rows (derived): drakkar keel 8, sides 7
    assert len(ship_shape(8)) == 22
    a = Footprint(SHIP_SHAPES["galley"], G).place("1010", 0)
    b = Footprint(SHIP_SHAPES["rowboat"], G).place("1010", 3)
    assert a.overlaps(b) and not a.overlaps(b.lateral("left").lateral("left").lateral("left"))
    assert a.overlaps_hexes(["1010", "0101"]) == ["1010"]
    with pytest.raises(ValueError):
        a.label_to_local("0101")
    with pytest.raises(ValueError):
        Footprint(np.array([[0, 0, 0], [0, 0, 0]]), G)
