"""The players place the terrain (rules: {terrain: players | random}, digest §15.3)."""

from __future__ import annotations

import pytest

from simulator.core.errors import DataError, IllegalAction
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.asoiaf.battlefield import piece, problem
from simulator.games.asoiaf.presentation import AsoiafPresentation


def variant(terrain: str, sid: str = "asoiaf/game-of-thrones", deployment: str = "fixed", **setup_changes):
    sc = load_scenario(sid)
    data = dict(sc.data, rules={"terrain": terrain, "deployment": deployment})
    data["setup"] = {**sc.setup, "terrain": [], **setup_changes}
    return scenario_from_data(data, "asoiaf/terrain")


def test_players_choice_alternates_four_pieces_then_round_one():
    s = Session.new(variant("players"), 1)
    assert s.state["phase"] == "deployment" and s.state["deploy"]["step"] == "terrain"
    first = s.active_player()
    assert any(e.kind == "terrain_setup" and f"{first} places the first piece" in e.text for e in s.log)
    # inside a deployment area (Game of Thrones: 10" strips), too close to a piece, Impassable on O1
    with pytest.raises(IllegalAction, match="inside a deployment area"):
        s.apply({"type": "place_terrain", "kind": "forest", "x": 24, "y": 9})
    with pytest.raises(IllegalAction, match="Objective token"):
        s.apply({"type": "place_terrain", "kind": "palisade", "x": 24, "y": 24})
    with pytest.raises(IllegalAction, match="kind must be one of"):
        s.apply({"type": "place_terrain", "kind": "castle_wall", "x": 24, "y": 30})
    s.apply({"type": "place_terrain", "kind": "forest", "x": 14, "y": 24})
    second = s.active_player()
    assert second != first
    with pytest.raises(IllegalAction, match="at least 6\" from every other terrain piece"):
        s.apply({"type": "place_terrain", "kind": "hedge", "x": 22, "y": 24})
    with pytest.raises(IllegalAction, match="kind must be one of"):      # each pool piece once
        s.apply({"type": "place_terrain", "kind": "forest", "x": 34, "y": 24})
    s.apply({"type": "place_terrain", "kind": "hedge", "x": 34, "y": 30, "rotation": 90})
    assert s.active_player() == first
    hedge = s.state["terrain"][-1]
    xs = [p[0] for p in hedge["polygon"]]
    assert max(xs) - min(xs) == pytest.approx(1.0)            # rotated: the 6" side along y
    placed = []
    while s.state["phase"] == "deployment":
        a = s.legal_actions()[0]
        assert s.check(a) is None
        placed.append(s.active_player())
        s.apply(a)
    assert placed == [first, second]
    assert len(s.state["terrain"]) == 4 and s.state["phase"] == "activation"
    assert s.active_player() == s.state["first_player"] and any(e.kind == "round" for e in s.log)
    for t in s.state["terrain"]:                 # every piece still legal against the others
        others = dict(s.state, terrain=[o for o in s.state["terrain"] if o["id"] != t["id"]])
        assert problem(others, t) is None


def test_random_assortment_rolls_the_number_and_each_kind():
    for seed in range(1, 6):
        s = Session.new(variant("random"), seed)
        n = s.state["deploy"]["terrain"]["left"]
        assert 3 <= n <= 5                                      # 1D3 + 2
        kinds = []
        while s.state["phase"] == "deployment":
            ts = s.state["deploy"]["terrain"]
            offered = s.legal_actions()
            if ts["kind"] is not None:                          # rolled: that kind only
                assert {a.get("kind") for a in offered} <= {ts["kind"], None}
            kinds.append(ts["kind"])
            s.apply(offered[0])
        rolls = [e for e in s.log if e.kind == "terrain_roll"]
        assert len(rolls) == len(kinds)
        for e, kind in zip(rolls, kinds):
            assert 2 <= e.data["roll"] <= 12 and (kind is None) == (e.data["roll"] == 7)
        assert len(s.state["terrain"]) + sum(1 for e in s.log if "ends terrain placement" in e.text) <= n


def test_terrain_then_players_deployment():
    s = Session.new(variant("players", deployment="players", terrain_pieces=2), 3)
    assert s.state["deploy"]["step"] == "terrain"
    assert all(u.get("undeployed") for u in s.state["units"].values())
    assert not any(e.kind == "deployment" for e in s.log)
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert s.state["deploy"]["step"] == "area" and len(s.state["terrain"]) == 2
    assert any(e.kind == "deployment" for e in s.log)           # the deployment roll comes after (15.4)


def test_shipped_scenario_uses_random_terrain_and_the_presentation_offers_it():
    s = Session.new(load_scenario("asoiaf/random-battlefield"), 2)
    assert s.state["deploy"]["step"] == "terrain"
    pres = AsoiafPresentation()
    assert "places a terrain piece" in pres.banner(s.state)
    offered = pres.piece_actions(s.state, s.legal_actions(), "S1")
    assert offered and all(a["type"] == "place_terrain" for _, a in offered)


def test_no_room_left_ends_placement_only_when_nothing_fits():
    s = Session.new(variant("players"), 1)
    with pytest.raises(IllegalAction, match="still room"):
        s.apply({"type": "place_terrain", "none": True})
    state = s.state_data()
    state["table"] = [48, 22]              # the two 10" strips leave a 2" band: no piece fits
    from simulator.games.asoiaf.battlefield import options
    assert options(state) == [{"type": "place_terrain", "none": True}]


def test_bad_terrain_settings_are_clear_errors():
    with pytest.raises(DataError, match="terrain_pool.*unknown terrain 'lava'"):
        Session.new(variant("players", terrain_pool=["forest", "lava"]), 1)
    with pytest.raises(DataError, match="5 pieces to place but only 2"):
        Session.new(variant("players", terrain_pool=["forest", "hedge"], terrain_pieces=5), 1)
    with pytest.raises(DataError, match="rules"):
        Session.new(variant("everywhere"), 1)


def test_piece_footprint_matches_scenario_terrain():
    t = piece("forest", 10, 20, 0, "T1")
    assert t["name"] == "Forest" and "cover" in t["keywords"] and len(t["polygon"]) == 4


def test_storm_of_swords_defender_places_all_terrain_away_from_its_area():
    s = Session.new(variant("random", sid="asoiaf/storm-of-swords-teams"), 1)
    assert s.state["deploy"]["terrain"]["method"] == "players"        # 16.3 replaces the method
    assert s.active_player() == "jaime"
    with pytest.raises(IllegalAction, match="from the Defender's deployment area"):
        s.apply({"type": "place_terrain", "kind": "forest", "x": 24, "y": 27})   # 6" from y = 36
    s.apply({"type": "place_terrain", "kind": "forest", "x": 24, "y": 10})       # in the Attacker's area
    assert s.active_player() == "tywin"                                          # the team's players rotate
    while s.state["phase"] == "deployment":
        assert s.active_player() in ("jaime", "tywin")
        s.apply(s.legal_actions()[0])
    assert len(s.state["terrain"]) == 4                  # the Defender's 4 pieces (16.3)
