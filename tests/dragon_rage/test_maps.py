"""Dragon Rage maps: every map fact of the rules (digest §2, §5.1, §15, §20, manual facts)."""
from pathlib import Path

import pytest
import yaml

from simulator.core.hexmap import load_hexmap
from simulator.geometry.hexgrid import HexGrid

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps" / "dragon_rage"
TERRAIN = yaml.safe_load((ROOT / "simulator/games/dragon_rage/data/terrain.yaml").read_text())


@pytest.fixture(scope="module")
def es():
    return load_hexmap(MAPS / "esirien.yaml")


@pytest.fixture(scope="module")
def nk():
    return load_hexmap(MAPS / "nurkott.yaml")


def feats(m, a, b, kind=None):
    return [f for f in m.hexside_features(a, b) if kind is None or f["feature"] == kind]


def road_hexes(m):
    return {h for chain in m.paths["road"] for h in chain}


def on_map_edge(m, h):
    return any(n not in m for n in m.grid.neighbours(h).values()) or len(m.grid.neighbours(h)) < 6


# ---------------------------------------------------------------- grid (digest §2.1)
def test_grid_even_q_adjacencies_dr_2_1():
    g = HexGrid.dragon_rage()
    assert g.direction_between("0606", "0707") == "SE"
    assert g.direction_between("2113", "2212") == "NE"
    assert g.direction_between("1413", "1414") == "S"
    assert g.direction_between("0109", "0208") == "NE"


# ---------------------------------------------------------------- Esirien facts (§20.1)
def test_esirien_river_ends_at_1413_sea_begins_1414_dr_2_1_1(es):
    assert es.terrain_of("1413") == "bridge" and es.hex_attrs("1413").get("river_ends")
    assert es.terrain_of("1412") == "river"
    assert es.terrain_of("1414") == "sea"
    assert es.grid.neighbour("1413", "S") == "1414"


def test_esirien_river_runs_down_column_14_dr_20_1(es):
    for r in range(1, 13):
        h = f"14{r:02d}"
        assert es.terrain_of(h) in ("river", "bridge"), h


@pytest.mark.parametrize("hex_,material", [("1407", "wooden"), ("1410", "stone"), ("1413", "wooden")])
def test_esirien_bridges_dr_2_5_7(es, hex_, material):
    assert es.terrain_of(hex_) == "bridge"
    assert es.hex_attrs(hex_)["bridge"] == material
    assert es.hex_attrs(hex_)["destructible"] is (material == "wooden")


@pytest.mark.parametrize("bridge", ["1407", "1410", "1413"])
def test_esirien_bridges_connect_west_and_east_bank_dr_2_5_2(es, bridge):
    ends = [n for n in es.grid.neighbours(bridge).values() if feats(es, bridge, n, "bridge_access")]
    assert len(ends) == 2
    cols = sorted(int(e[:2]) for e in ends)
    assert cols == [13, 15]
    for e in ends:
        assert es.terrain_of(e) not in ("river", "sea")


def test_esirien_stone_bridge_flanked_by_road_towers_dr_2_5_6(es):
    assert es.grid.direction_between("1410", "1310") == "NW"
    assert es.grid.direction_between("1410", "1511") == "SE"
    for t in ("1310", "1511"):
        assert es.terrain_of(t) == "tower"
        assert feats(es, "1410", t, "bridge_access")
        assert feats(es, "1410", t, "tower_gate")


@pytest.mark.parametrize("a,b", [("0606", "0707"), ("2113", "2212")])
def test_esirien_wall_gateways_dr_2_5_3(es, a, b):
    g = feats(es, a, b, "gateway")
    assert len(g) == 1 and g[0]["owner"] == "defender" and g[0]["colour"] == "red"
    assert g[0]["inside"] in (a, b)
    assert g[0]["inside"] in es.edges["inside_walls"]
    other = b if g[0]["inside"] == a else a
    assert other not in es.edges["inside_walls"]


@pytest.mark.parametrize("bridge", ["1407", "1413"])
def test_esirien_gateways_on_both_banks_of_wooden_bridges_dr_2_5_3(es, bridge):
    ends = [n for n in es.grid.neighbours(bridge).values() if feats(es, bridge, n, "bridge_access")]
    assert len(ends) == 2
    for e in ends:
        g = feats(es, bridge, e, "gateway")
        assert g and g[0]["inside"] == e


def test_esirien_only_walls_have_red_gates_dr_2_5_5(es):
    for s in es.hexsides:
        if s["feature"] == "gateway":
            assert s["colour"] == "red"


def test_esirien_gateway_pairs_complete_dr_20_1(es):
    pairs = {frozenset(s["between"]) for s in es.hexsides if s["feature"] == "gateway"}
    assert pairs == {frozenset(p) for p in [("0606", "0707"), ("2113", "2212"), ("1307", "1407"),
                                           ("1407", "1508"), ("1313", "1413"), ("1413", "1514")]}


@pytest.mark.parametrize("dock", ["0815", "0915", "1014", "1115", "1315", "1516"])
def test_esirien_dock_hexes_dr_2_1_1(es, dock):
    assert es.terrain_of(dock) == "dock"
    assert dock in es.edges["reinforcement_arrival"]
    assert any(es.terrain_of(n) == "sea" for n in es.grid.neighbours(dock).values())


def test_esirien_dock_chain_contiguous_dr_20_1(es):
    chain = ["0815", "0915", "1014", "1115"]
    assert [es.grid.direction_between(a, b) for a, b in zip(chain, chain[1:])] == ["NE", "NE", "SE"]


def test_esirien_moles_1315_1516_dr_2_1_1(es):
    assert es.hex_attrs("1315")["dock"] == "mole" and es.hex_attrs("1516")["dock"] == "mole"
    assert es.grid.neighbour("1315", "NE") == "1414"


def test_esirien_reinforcements_docks_and_bridge_1413_dr_2_9(es):
    assert set(es.edges["reinforcement_arrival"]) == {"0815", "0915", "1014", "1115", "1315", "1516", "1413"}


@pytest.mark.parametrize("tower", ["0914", "1310", "1511"])
def test_esirien_road_towers_dr_2_5_6(es, tower):
    assert es.terrain_of(tower) == "tower" and es.hex_attrs(tower).get("road_tower")
    assert tower in road_hexes(es)
    # the road enters and leaves the tower through entrances
    for chain in es.paths["road"]:
        for a, b in zip(chain, chain[1:]):
            if tower in (a, b):
                assert feats(es, a, b, "tower_gate") or feats(es, a, b, "tower_door"), (a, b)


def test_esirien_tower_0914_next_to_docks_dr_20_1(es):
    assert es.grid.neighbour("0914", "S") == "0915"
    assert es.grid.neighbour("0914", "SE") == "1014"


def test_esirien_road_enters_no_other_tower_dr_2_5_6(es):
    towers = set(es.hexes_of("tower"))
    assert road_hexes(es) & towers == {"0914", "1310", "1511"}


def test_esirien_all_bridges_carry_road_dr_2_5_6(es):
    assert {"1407", "1410", "1413"} <= road_hexes(es)
    for chain in es.paths["road"]:
        for a, b in zip(chain, chain[1:]):
            for br in ("1407", "1410", "1413"):
                if br in (a, b):
                    assert feats(es, a, b, "bridge_access")


def test_esirien_road_crosses_walls_only_at_entrances_dr_2_5_6(es):
    for chain in es.paths["road"]:
        for a, b in zip(chain, chain[1:]):
            kinds = {f["feature"] for f in es.hexside_features(a, b)}
            assert "wall" not in kinds, (a, b)


@pytest.mark.parametrize("hex_", ["0110", "0403", "2508", "2516"])
def test_esirien_road_exits_dr_2_10_7(es, hex_):
    assert hex_ in es.edges["road_exits"]
    assert hex_ in road_hexes(es)
    assert on_map_edge(es, hex_)
    assert any(chain[0] == hex_ or chain[-1] == hex_ for chain in es.paths["road"])


def test_esirien_road_exit_sides_dr_2_1(es):
    assert "0110"[:2] == "01" and "2508"[:2] == "25" and "2516"[:2] == "25"
    assert es.grid.neighbour("0403", "N") not in es  # under the legend box


def test_esirien_citadel_1910_dr_2_10_7(es):
    a = es.hex_attrs("1910")
    assert es.terrain_of("1910") == "tower"
    assert a["vp"] == 5 and a["vp_after_elowyn_leaves"] == 4 and a["elowyn_start"]
    assert "1910" not in road_hexes(es)


def test_esirien_elowyn_pickup_1516_dr_2_10_7(es):
    assert es.hex_attrs("1516").get("elowyn_safe_on_reinforcement_turn")


def test_esirien_sea_only_on_south_edge_dr_20_1(es):
    for h in es.hexes_of("sea"):
        assert int(h[2:]) >= 14, h


def test_esirien_serpent_setup_open_sea_south_edge_dr_2_11_2_4(es):
    assert es.edges["sea_serpent_setup"]
    for h in es.edges["sea_serpent_setup"]:
        assert es.terrain_of(h) == "sea" and int(h[2:]) == 16


def test_esirien_invader_setup_edges_next_to_forest_dr_3_1_1(es):
    sides = set()
    for h in es.edges["invader_setup"]:
        assert on_map_edge(es, h), h
        assert es.terrain_of(h) not in ("sea", "river", "bridge")
        assert es.terrain_of(h) == "forest" or any(
            es.terrain_of(n) == "forest" for n in es.grid.neighbours(h).values() if n in es), h
        c, r = int(h[:2]), int(h[2:])
        sides |= {s for s, ok in (("W", c == 1), ("E", c == 25), ("N", r <= 3)) if ok}
        assert int(h[2:]) < 16 or c in (1, 25)
    assert sides == {"W", "N", "E"}


def test_esirien_has_towers_beyond_the_named_ones_dr_2_5_6(es):
    assert len(es.hexes_of("tower")) > 4


@pytest.mark.parametrize("tower", ["0914", "1310", "1511", "1910", "0706", "0712", "1303", "1503",
                                   "2105", "2112", "1815"])
def test_esirien_every_tower_has_an_entrance_dr_2_5_4(es, tower):
    assert es.terrain_of(tower) == "tower"
    assert any(feats(es, tower, n, "tower_gate") or feats(es, tower, n, "tower_door")
               for n in es.grid.neighbours(tower).values())


def test_esirien_walls_close_both_quarters_dr_2_5_3(es):
    inside = set(es.edges["inside_walls"])
    for h in inside:
        for n in es.grid.neighbours(h).values():
            if n in inside or n not in es or es.terrain_of(n) == "sea":
                continue
            kinds = {f["feature"] for f in es.hexside_features(h, n)}
            assert kinds & {"wall", "gateway", "tower_gate", "tower_door"}, (h, n)


# ---------------------------------------------------------------- Nurkott facts (§20.2)
def test_nurkott_has_no_sea_and_no_gates_dr_2_1_2(nk):
    assert not nk.hexes_of("sea")
    assert not [s for s in nk.hexsides if s["feature"] in ("gateway", "tower_gate", "tower_door")]
    assert not nk.hexes_of("tower")


@pytest.mark.parametrize("hex_,material", [("0402", "wooden"), ("1002", "wooden"), ("2108", "wooden"),
                                           ("2211", "wooden"), ("1914", "wooden"), ("2412", "wooden"),
                                           ("1610", "stone")])
def test_nurkott_bridges_dr_2_5_7(nk, hex_, material):
    assert nk.terrain_of(hex_) == "bridge" and nk.hex_attrs(hex_)["bridge"] == material
    ends = [n for n in nk.grid.neighbours(hex_).values() if feats(nk, hex_, n, "bridge_access")]
    assert len(ends) == 2
    water = [n for n in nk.grid.neighbours(hex_).values() if n in nk and "river" in nk.terrains_of(n)]
    assert water, hex_


def test_nurkott_0708_is_land_dr_2_1_2(nk):
    assert nk.terrains_of("0708") == ("clear",)
    assert nk.hex_attrs("0708")["water"] is True


def test_nurkott_0709_is_land_and_river_dr_2_1_2(nk):
    assert set(nk.terrains_of("0709")) == {"clear", "river"}
    assert nk.hex_attrs("0709")["water"] is True


def test_nurkott_no_bank_to_bank_0708_0709_dr_2_1_2(nk):
    assert feats(nk, "0708", "0709", "river_bank")


@pytest.mark.parametrize("hex_", ["0109", "0208"])
def test_nurkott_sea_serpent_hexes_are_river_dr_3_2_1(nk, hex_):
    assert nk.terrain_of(hex_) == "river"
    assert hex_ in nk.edges["sea_serpent_setup"]


def test_nurkott_serpent_hexes_adjacent_dr_2_11_2_4(nk):
    assert nk.grid.adjacent("0109", "0208")


@pytest.mark.parametrize("hex_", ["0202", "0516"])
def test_nurkott_invader_entry_hexes_on_edge_dr_3_2_1(nk, hex_):
    assert hex_ in nk.edges["invader_entry"]
    assert on_map_edge(nk, hex_)
    assert nk.terrain_of(hex_) not in ("river", "bridge")


def test_nurkott_reinforcement_hexes_dr_2_9(nk):
    r = nk.edges["reinforcement_arrival"]
    assert {"2015", "2016", "2017", "2413"} <= set(r)
    # the hexes form one connected strip from 2015 through 2017 to 2413, on the map edge
    seen, todo = {"2015"}, ["2015"]
    while todo:
        h = todo.pop()
        for n in nk.grid.neighbours(h).values():
            if n in r and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(r)
    assert all(on_map_edge(nk, h) for h in r if h not in ("2015", "2016"))


def test_nurkott_only_doors_in_walls_dr_2_5_3(nk):
    doors = [s for s in nk.hexsides if s["feature"] == "door"]
    assert doors
    for d in doors:
        assert d["building"] in d["between"] and d["building"] in nk.edges["inside_walls"]


def test_nurkott_some_vp_hexes_have_doors_dr_2_3(nk):
    buildings = {s["building"] for s in nk.hexsides if s["feature"] == "door"}
    assert any(nk.hex_attrs(b).get("vp") for b in buildings)


def test_nurkott_two_goblin_settlements_outside_walls_dr_3_2_1(nk):
    inside = set(nk.edges["inside_walls"])
    for name in ("goblin_settlement_west", "goblin_settlement_south"):
        hexes = nk.edges[name]
        assert hexes and not set(hexes) & inside
        assert any(n in inside for h in hexes for n in nk.grid.neighbours(h).values())


def test_nurkott_slave_cell_inside_dr_2_10_7(nk):
    cells = [h for h in nk.labels if nk.hex_attrs(h).get("slave_cell")]
    assert len(cells) == 1 and cells[0] in nk.edges["inside_walls"]


def test_nurkott_road_exits_on_edge_dr_2_10_7(nk):
    for h in nk.edges["road_exits"]:
        assert on_map_edge(nk, h) and h in road_hexes(nk)


def test_nurkott_fords_exist_dr_2_5_2(nk):
    for f in nk.hexes_of("ford"):
        ends = [n for n in nk.grid.neighbours(f).values() if feats(nk, f, n, "ford_access")]
        assert len(ends) == 2


def test_nurkott_walls_close_village_dr_2_5_3(nk):
    inside = set(nk.edges["inside_walls"])
    for h in inside:
        for n in nk.grid.neighbours(h).values():
            if n in inside or n not in nk:
                continue
            kinds = {f["feature"] for f in nk.hexside_features(h, n)}
            assert kinds & {"wall", "door"}, (h, n)


# ---------------------------------------------------------------- VP hexes (§5.1, §20.3)
ES_VP = {"1910": 5, "1005": 3, "0809": 2, "1110": 4, "0911": 2, "1212": 3, "1113": 2, "1205": 1,
         "1706": 3, "1609": 4, "2007": 3, "1813": 2, "2014": 2, "1605": 2, "1513": 1, "0309": 1, "2215": 1}
NK_VP = {"1312": 5, "1412": 4, "1012": 3, "1114": 2, "1512": 2, "0913": 3, "1712": 3, "1015": 2,
         "1515": 2, "1611": 2, "1813": 1, "0814": 1, "1315": 1, "0812": 1, "0613": 2, "0714": 1,
         "1216": 2, "1317": 1, "1709": 1, "0604": 1}


@pytest.mark.parametrize("hex_,value", sorted(ES_VP.items()))
def test_esirien_vp_hex_value_dr_5_1(es, hex_, value):
    assert es.hex_attrs(hex_)["vp"] == value


@pytest.mark.parametrize("hex_,value", sorted(NK_VP.items()))
def test_nurkott_vp_hex_value_dr_5_1(nk, hex_, value):
    assert nk.hex_attrs(hex_)["vp"] == value


@pytest.mark.parametrize("name,expected", [("esirien", ES_VP), ("nurkott", NK_VP)])
def test_vp_values_1_to_5_and_total_above_objectives_dr_20_3(name, expected, es, nk):
    m = es if name == "esirien" else nk
    vp = m.hexes_with("vp")
    assert vp == expected
    assert all(1 <= v <= 5 for v in vp.values())
    assert sum(vp.values()) > 23
    for h in vp:
        assert m.terrain_of(h) not in ("river", "sea", "bridge")


# ---------------------------------------------------------------- structure
@pytest.mark.parametrize("name", ["esirien", "nurkott"])
def test_structure(name, es, nk):
    m = es if name == "esirien" else nk
    assert m.meta["id"] == name and m.meta["game"] == "dragon_rage" and m.meta["assumed"]
    labels = set(m.labels)
    for h in m.labels:
        assert m.terrain_of(h)
    for s in m.hexsides:
        a, b = s["between"]
        assert a in labels and b in labels and m.grid.adjacent(a, b)
    for chains in m.paths.values():
        for chain in chains:
            assert all(h in labels for h in chain)
            assert all(m.grid.adjacent(a, b) for a, b in zip(chain, chain[1:]))
    for hexes in m.edges.values():
        assert set(hexes) <= labels
    for h in m.labels:
        assert m.hex_attrs(h) is not None
    m.check_vocabulary(TERRAIN["terrain"], TERRAIN["hexside_features"])


@pytest.mark.parametrize("name", ["esirien", "nurkott"])
def test_mixed_hexes_only_where_terrain_allows(name, es, nk):
    m = es if name == "esirien" else nk
    for h in m.labels:
        ts = m.terrains_of(h)
        if len(ts) > 1:
            assert len(ts) == 2
            a, b = ts
            ok = b in TERRAIN["terrain"][a].get("may_mix_with", []) or a in TERRAIN["terrain"][b].get("may_mix_with", [])
            assert ok, (h, ts)


@pytest.mark.parametrize("name", ["esirien", "nurkott"])
def test_bridge_and_ford_access_only_on_their_own_hex(name, es, nk):
    m = es if name == "esirien" else nk
    for s in m.hexsides:
        if s["feature"] == "bridge_access":
            assert s["bridge"] in s["between"] and m.terrain_of(s["bridge"]) == "bridge"
        if s["feature"] == "ford_access":
            assert s["ford"] in s["between"] and m.terrain_of(s["ford"]) == "ford"
        if s["feature"] in ("tower_gate", "tower_door"):
            assert s["tower"] in s["between"] and m.terrain_of(s["tower"]) == "tower"
