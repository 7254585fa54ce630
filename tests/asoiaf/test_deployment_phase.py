"""Interactive deployment (rules: {deployment: players}, digest §15.4-15.5) and automatic placement."""

from __future__ import annotations

import pytest

from simulator.core.errors import DataError, IllegalAction
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.asoiaf.units import polygon


def players_variant(sid: str = "asoiaf/game-of-thrones", **setup_changes):
    sc = load_scenario(sid)
    data = dict(sc.data, rules={"deployment": "players"})
    if setup_changes:
        data["setup"] = {**sc.setup, **setup_changes}
    return scenario_from_data(data, "asoiaf/deploy")


def test_fixed_deployment_is_the_default():
    s = Session.new(load_scenario("asoiaf/game-of-thrones"), 1)
    assert s.state["phase"] == "activation" and not any(a["type"] == "deploy" for a in s.legal_actions())


def test_players_alternate_one_unit_at_a_time_then_the_other_picks_the_first_player():
    s = Session.new(players_variant(), 1)      # the deployment roll is set-up: from the seed, not a tape
    assert s.state["deploy"]["chooser"] == "stark"          # the higher roller deploys first (15.4)
    assert s.state["phase"] == "deployment" and s.active_player() == "stark"
    assert any(e.kind == "deployment" and "deploys first" in e.text for e in s.log)
    # the higher roller chooses its area (its current one offered first) or gives the choice (15.4)
    assert s.legal_actions() == [{"type": "area", "area": "south"}, {"type": "area", "area": "north"},
                                 {"type": "area", "give": True}]
    with pytest.raises(IllegalAction, match="chooses a deployment area"):
        s.apply({"type": "deploy", "unit": "S1", "x": 24, "y": 5})
    s.apply(s.legal_actions()[0])
    assert s.state["areas"] == {"stark": "south", "lannister": "north"}
    assert all(a["type"] == "deploy" for a in s.legal_actions())
    with pytest.raises(IllegalAction, match="still has to deploy"):
        s.apply({"type": "deploy", "unit": "L1", "x": 24, "y": 44})
    with pytest.raises(IllegalAction, match="wholly inside stark's deployment area"):
        s.apply({"type": "deploy", "unit": "S1", "x": 24, "y": 12})
    with pytest.raises(IllegalAction, match="deploys a Combat unit"):
        s.apply({"type": "hold", "unit": "S1"})
    s.apply({"type": "deploy", "unit": "S1", "x": 24, "y": 5, "facing": 90})
    assert s.active_player() == "lannister"
    with pytest.raises(IllegalAction, match="wholly inside lannister's"):
        s.apply({"type": "deploy", "unit": "L1", "x": 24, "y": 5})
    s.apply({"type": "deploy", "unit": "L1", "x": 24, "y": 43, "facing": 270})
    with pytest.raises(IllegalAction, match="overlap S1"):
        s.apply({"type": "deploy", "unit": "S2", "x": 26, "y": 5})
    order = []
    while s.state["phase"] == "deployment" and s.legal_actions()[0]["type"] == "deploy":
        a = s.legal_actions()[0]
        order.append(s.active_player())
        s.apply(a)
    assert order == ["stark", "lannister"] * 3
    assert s.active_player() == "lannister"          # did not choose: picks the first player (15.5)
    assert s.legal_actions() == [{"type": "first_player", "player": "stark"},
                                 {"type": "first_player", "player": "lannister"}]
    s.apply({"type": "first_player", "player": "stark"})
    assert s.state["phase"] == "activation" and s.state["first_player"] == "stark" and s.active_player() == "stark"
    assert "deploy" not in s.state and not any(u.get("undeployed") for u in s.state["units"].values())
    assert any(e.kind == "round" for e in s.log)


def test_a_player_with_more_units_deploys_the_rest_and_a_fixed_first_player_skips_the_choice():
    sc = load_scenario("asoiaf/game-of-thrones")
    setup = {**sc.setup, "first_player": "lannister"}
    setup["armies"] = {**setup["armies"], "lannister": {**setup["armies"]["lannister"],
                                                        "units": setup["armies"]["lannister"]["units"][:2]}}
    s = Session.new(scenario_from_data(dict(sc.data, setup=setup, rules={"deployment": "players"}), "x"), 1)
    chooser = s.state["deploy"]["chooser"]
    s.apply(s.legal_actions()[0])              # the chooser keeps its area
    order = []
    while s.state["phase"] == "deployment":
        order.append(s.active_player())
        s.apply(s.legal_actions()[0])
    if chooser == "lannister":
        assert order == ["lannister", "stark", "lannister", "stark", "stark", "stark"]
    else:
        assert order == ["stark", "lannister", "stark", "lannister", "stark", "stark"]
    assert s.active_player() == "lannister" and s.state["round"] == 1


def test_automatic_placement_puts_units_without_a_position_in_the_area():
    sc = load_scenario("asoiaf/game-of-thrones")
    setup = dict(sc.setup)
    setup["armies"] = {side: {**a, "units": [{k: v for k, v in u.items() if k != "at"} for u in a["units"]]}
                       for side, a in setup["armies"].items()}
    s = Session.new(scenario_from_data(dict(sc.data, setup=setup), "x"), 1)
    units = list(s.state["units"].values())
    for u in units:
        ys = polygon(u)[:, 1]
        assert (ys.max() <= 10 + 1e-6 and u["facing"] == 90) if u["side"] == "stark" else \
            (ys.min() >= 38 - 1e-6 and u["facing"] == 270)
    from simulator.games.asoiaf import space
    for i, a in enumerate(units):
        for b in units[i + 1:]:
            assert space.polygon_distance(polygon(a), polygon(b)) >= 1.0 - 1e-6
    crowded = dict(setup, armies={**setup["armies"], "stark": {**setup["armies"]["stark"], "units": [
        {"id": f"S{i}", "card": "10201", **({"attachment": "20201"} if i == 0 else {})} for i in range(16)]}},
        check_points=False)
    with pytest.raises(DataError, match="no room left"):
        Session.new(scenario_from_data(dict(sc.data, setup=crowded), "x"), 1)


def test_storm_of_swords_needs_half_the_defenders_units_in_reserve():
    sc = load_scenario("asoiaf/storm-of-swords")
    s = Session.new(sc, 1)
    assert sorted(u["id"] for u in s.state["units"].values() if u["reserve"]) == ["L3", "L4"]
    setup = dict(sc.setup)
    lannister = dict(setup["armies"]["lannister"])
    lannister["units"] = [{k: v for k, v in u.items() if k != "reserve"} for u in lannister["units"]]
    setup["armies"] = {**setup["armies"], "lannister": lannister}
    with pytest.raises(DataError, match="2 of them .half, rounded up. must start in Reserve"):
        Session.new(scenario_from_data(dict(sc.data, setup=setup), "x"), 1)


def test_storm_of_swords_players_deployment_leaves_reserves_off_the_table():
    s = Session.new(players_variant("asoiaf/storm-of-swords"), 1)
    waiting = {u["id"] for u in s.state["units"].values() if u.get("undeployed")}
    assert waiting == {"S1", "S2", "S3", "S4", "L1", "L2"}
    while s.state["phase"] == "deployment":
        s.apply(s.legal_actions()[0])
    assert s.state["units"]["L3"]["reserve"] and s.state["units"]["L4"]["reserve"]


def test_presentation_during_deployment_drags_into_deploy_actions():
    from simulator.games.asoiaf.presentation import facing_to_view, to_view
    s = Session.new(players_variant(), 1)
    s.apply({"type": "area", "area": "south"})
    pres = s.game.presentation() if hasattr(s, "game") else __import__(
        "simulator.games.asoiaf.presentation", fromlist=["AsoiafPresentation"]).AsoiafPresentation()
    state = s.state_data()
    assert "deployment" in pres.banner(state) and "stark" in pres.banner(state)
    piece = next(p for p in pres.pieces(state) if p.id == "S2")
    assert "not deployed" in piece.status
    drag = pres.drag_action(state, "S2", to_view(state, (30, 5)))
    assert drag == {"type": "deploy", "unit": "S2", "x": 30.0, "y": 5.0, "facing": 90.0}
    s.apply(drag)
    rot = pres.rotate_action(s.state_data(), "L2", facing_to_view(300))
    assert rot["type"] == "deploy" and rot["facing"] == pytest.approx(300)
