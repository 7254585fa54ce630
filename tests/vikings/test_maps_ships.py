"""Maps (dominant terrain, water classes, joined boards) and ship footprints."""

from __future__ import annotations

import pytest

from simulator.core.data import parse_yaml
from simulator.core.errors import DataError
from simulator.core.hexmap import hexmap_from_document, load_hexmap
from simulator.games.vikings import shipgeom
from simulator.games.vikings.board import MAP_TERRAINS, FEATURES, build_board, check_vikings_map
from simulator.geometry.hexgrid import HexGrid

MAPS = ["open_sea_1", "open_sea_2", "the_coast", "village"]


def test_maps_load_and_use_every_terrain_and_feature():
    seen_t, seen_f = set(), set()
    for m in MAPS:
        hm = load_hexmap(f"maps/vikings/{m}.yaml")
        check_vikings_map(hm)
        seen_t |= {hm.terrain_of(lab) for lab in hm.labels}
        seen_f |= {s["feature"] for s in hm.hexsides}
    assert seen_t == set(MAP_TERRAINS)
    assert seen_f == set(FEATURES)
    for m in ("open_sea_1", "open_sea_2"):
        hm = load_hexmap(f"maps/vikings/{m}.yaml")
        assert {hm.terrain_of(lab) for lab in hm.labels} == {"sea"}


def test_water_is_coastal_next_to_a_beach_else_deep():
    b = build_board((("vikings/the_coast", 0, 0),))
    assert b.kind("0611") == "coastal"          # river mouth next to the beach
    assert b.kind("0616") == "deep"
    assert b.kind("0605") == "deep"             # river far from any beach
    assert all(any(b.terrain[n] == "beach" for n in b.neighbours(h)) == (k == "coastal")
               for h, k in b.water.items())


def test_dominant_terrain_is_checked():
    text = open("maps/vikings/the_coast.yaml").read().replace('"0811": {mix: {beach: 2, sea: 1}}',
                                                               '"0811": {mix: {beach: 1, sea: 2}}')
    hm = hexmap_from_document(parse_yaml(text, "coast.yaml"))
    with pytest.raises(DataError, match="dominant terrain is sea"):
        check_vikings_map(hm)


def test_boards_join_with_offsets():
    b = build_board((("vikings/open_sea_1", 0, 0), ("vikings/the_coast", 24, 0)))
    assert len(b.terrain) == 2 * 384
    assert b.terrain["3010"] == "river"          # 0610 of The Coast, shifted 24 columns
    with pytest.raises(DataError, match="must be even"):
        build_board((("vikings/open_sea_1", 0, 0), ("vikings/open_sea_2", 0, 17)))
    with pytest.raises(DataError, match="overlap"):
        build_board((("vikings/open_sea_1", 0, 0), ("vikings/open_sea_2", 10, 0)))


@pytest.mark.parametrize("kind,size", [("drakkar", 22), ("galley", 16), ("rowboat", 3)])
def test_footprints_have_the_printed_sizes_in_every_heading(kind, size):
    g = HexGrid("pointy", "odd-r", 2, 1, 1)
    for heading in range(6):
        fp = shipgeom.footprint(g, kind, "2020", heading)
        assert fp is not None and len(set(fp)) == size
        roles = shipgeom.roles(kind)
        pivot = fp[roles.index("pivot")]
        assert pivot == "2020"
        bow = fp[roles.index("bow")]
        # the bow lies straight ahead of the pivot along the heading
        d = g.direction_between(fp[roles.index("pivot")], g.neighbour(pivot, heading))
        assert g.hex_line(pivot, bow).labels()[1] == g.neighbour(pivot, d)


def test_turn_rotates_about_the_pivot_and_lateral_moves_diagonally():
    g = HexGrid("pointy", "odd-r", 2, 1, 1)
    ship = shipgeom.place(g, "galley", "2020", 1)
    new = shipgeom.moved(ship, "turn_right", False)
    assert (new.pivot_label, new.facing) == ("2020", 2)
    new = shipgeom.moved(ship, "lateral_left", False)
    assert new.facing == 1 and new.pivot_label == g.neighbour("2020", "NE")
    new = shipgeom.moved(ship, "straight", True)
    assert new.pivot_label == g.neighbour("2020", "W")
    # astern, left and right stay the helmsman's (facing the bow, east: left is north)
    new = shipgeom.moved(ship, "lateral_left", True)
    assert new.pivot_label == g.neighbour("2020", "NW")
    new = shipgeom.moved(ship, "lateral_right", True)
    assert new.pivot_label == g.neighbour("2020", "SW")
    drakkar = shipgeom.roles("drakkar")
    assert drakkar.count("port") == drakkar.count("starboard") == 7
    galley = shipgeom.roles("galley")
    assert galley.count("port") == galley.count("starboard") == 5


def test_bad_scenario_and_catalogue_give_clear_messages(tmp_path):
    from simulator.core.scenario import load_scenario
    from simulator.core.session import Session
    from simulator.games.vikings.catalogue import characters_from, load_checked
    text = open("scenarios/vikings/village_raid.yaml").read().replace("{id: svein,", "{id: sveinn,")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(DataError) as err:
        Session.new(str(bad))
    assert "unknown character 'sveinn'" in str(err.value) and ":" in str(err.value)
    cat = tmp_path / "chars.yaml"
    cat.write_text(open("simulator/games/vikings/data/characters.yaml").read()
                   .replace("foot: [9, 6, 6]", "foot: [9, 6]", 1))
    with pytest.raises(DataError) as err:
        load_checked("characters", cat)
    assert "chars.yaml:" in str(err.value) and "attack, defence, movement" in str(err.value)
    assert load_scenario("vikings/sea_fight").setup["first"] == "vikings"
