"""The warband builder on the force-selection screen (simulator/games/saga/forces.py, SAGA p.35-46)."""

from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import pytest

from simulator.core.errors import DataError
from simulator.core.registry import get_game
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.core.view import ForceRules, basic_force_problems, force_cost, force_selections, greedy_forces
from simulator.geometry.segments import points_in_polygon

RULES = get_game("saga").forces()


@pytest.fixture(scope="module")
def choose():
    return load_scenario("saga/s1-warlords-fury-choose")


def with_faction(scenario, player: str, faction: str):
    data = copy.deepcopy(dict(scenario.data))
    data["setup"]["sides"][player]["faction"] = faction
    return scenario_from_data(data, scenario.id)


def problems(scenario, player, chosen):
    return [(p.message, p.rule, p.option) for p in RULES.check_forces(scenario, player, chosen)]


def test_only_the_choose_scenario_asks_and_offers_each_faction_its_rows(choose):
    assert isinstance(RULES, ForceRules)
    assert force_selections(load_scenario("saga/s1-warlords-fury")) == []
    sels = force_selections(choose)
    assert [s.player for s in sels] == ["vikings", "anglo_danes"]
    vik = sels[0]
    assert vik.budget == 6 and vik.secret and vik.rule == "SAGA p.35"
    assert (vik.option("hearthguard-4").cost, vik.option("warriors-4").cost, vik.option("levies-12").cost) == (1, 0.5, 1)
    assert vik.option("warriors-8").step == 1 and vik.option("hearthguard-berserker-4").max == 1
    assert vik.option("hearthguard-berserker-8") is None                  # Berserkers: a unit of 4 (SAGA p.37)
    assert vik.option("hearthguard-varangians-8").requires == ("hero-harald_hardrada",)
    assert vik.option("hero-ragnar_lothbrok").cost == 1
    assert vik.option("hearthguard-mounted-4") is None and vik.option("warlord-mounted") is None
    assert vik.option("levies-sling-12") is not None and vik.option("levies-bow-12") is None   # bow is the plain row
    assert vik.option("mercenary-flemish").cost == 1
    ad = sels[1]
    assert ad.option("hearthguard-dane_axe-8") is not None and ad.option("hero-ragnar_lothbrok") is None
    normans = RULES.force_selection(with_faction(choose, "vikings", "normans"), "vikings")
    assert normans.option("warlord-mounted") and normans.option("warriors-mounted-12")
    assert normans.option("warriors-crossbow-8") and normans.option("warriors-crossbow-12") is None
    welsh = RULES.force_selection(with_faction(choose, "vikings", "welsh"), "vikings")
    assert welsh.option("warriors-bow-8").requires == ("hero-gruffydd_ap_llywelyn",)
    assert welsh.option("levies-javelin-12") is None and welsh.option("levies-bow-12")


def test_the_suggested_warbands_are_the_scenarios_and_legal(choose):
    vik = RULES.force_selection(choose, "vikings")
    assert dict(vik.suggested) == {"hearthguard-4": 2, "hearthguard-berserker-4": 1, "warriors-8": 2, "levies-12": 1}
    for p in ("vikings", "anglo_danes"):
        assert RULES.check_forces(choose, p, RULES.force_selection(choose, p).suggested) == []
        assert RULES.computer_forces(choose, p) == dict(RULES.force_selection(choose, p).suggested)


def test_the_builder_rules_are_the_setups(choose):
    # whole points per class (SAGA p.35): 4 Warriors alone is half a point
    assert problems(choose, "vikings", {"warriors-4": 1}) == [
        ("4 warriors: a point buys exactly 8 warriors", "SAGA p.35", "warriors-4")]
    assert problems(choose, "vikings", {"warriors-12": 1, "warriors-4": 1}) == []      # 16 = 2 points
    over = problems(choose, "vikings", {"hearthguard-12": 2, "levies-4": 3})
    assert over == [("the warband costs 7 points; the scenario allows 6", "SAGA p.35", None)]
    assert problems(choose, "vikings", {"hero-harald_hardrada": 1, "hero-ragnar_lothbrok": 1})[0][1] == "SAGA p.41"
    needs = problems(choose, "vikings", {"hearthguard-varangians-4": 1})
    assert ("hearthguard-varangians-4" in {o for _m, _r, o in needs}
            and any("Varangians" in m for m, _r, _o in needs))
    assert problems(choose, "vikings", {"hero-harald_hardrada": 1, "hearthguard-varangians-4": 1}) == []
    assert any("never serve" in m for m, _r, _o in
               problems(choose, "vikings", {"hero-ragnar_lothbrok": 1, "mercenary-flemish": 1}))
    assert problems(choose, "vikings", {"hearthguard-berserker-4": 2})[0][2] == "hearthguard-berserker-4"
    normans = with_faction(choose, "vikings", "normans")
    two_xbows = problems(normans, "vikings", {"warriors-crossbow-4": 1, "warriors-crossbow-8": 1, "warriors-4": 1})
    assert [(m, o) for m, _r, o in two_xbows] == [("only one crossbow unit per warband (2 chosen)", "warriors-crossbow-4")]
    # the same rule refuses a scenario file (one message with every problem)
    data = copy.deepcopy(dict(choose.data))
    del data["force_selection"]
    data["setup"]["sides"]["vikings"]["units"][4]["figures"] = 4
    data["setup"]["sides"]["vikings"]["units"][3]["figures"] = 12
    with pytest.raises(DataError, match=r"setup.sides.vikings: 12 warriors: a point buys exactly 8 .*; .*costs 7.5 points"):
        Session.new(scenario_from_data(data, "saga/bad"), 0)


def test_built_scenario_places_the_chosen_warbands_in_their_zones(choose):
    chosen = {"vikings": {"hero-ragnar_lothbrok": 1, "hearthguard-8": 1, "warriors-12": 1, "warriors-4": 1,
                          "levies-sling-12": 1},
              "anglo_danes": {"hearthguard-dane_axe-12": 1, "warriors-8": 2, "mercenary-flemish": 1}}
    data = RULES.build_scenario(choose, chosen)
    assert "force_selection" not in data
    sc = scenario_from_data(data, choose.id)
    assert force_selections(sc) == []
    s = Session.new(sc, 3)
    st = s.state
    kinds = Counter((u["owner"], u["cls"], len(u["figures"])) for u in st["units"].values())
    assert kinds == Counter({("vikings", "warlord", 1): 1, ("vikings", "hearthguard", 8): 1,
                             ("vikings", "warriors", 12): 1, ("vikings", "warriors", 4): 1,
                             ("vikings", "levies", 12): 1, ("anglo_danes", "warlord", 1): 1,
                             ("anglo_danes", "hearthguard", 12): 1, ("anglo_danes", "warriors", 8): 3})
    assert st["sides"]["vikings"]["hero"] == "ragnar_lothbrok"
    assert any(u.get("mercenary") == "flemish" for u in st["units"].values())
    assert any(u["weapon"] == "sling" for u in st["units"].values() if u["owner"] == "vikings")
    for player in ("vikings", "anglo_danes"):
        zone = next(z["polygon"] for z in st["zones"] if z["side"] == player)
        pts = np.array([[f["x"], f["y"]] for f in st["figures"].values() if st["units"][f["unit"]]["owner"] == player])
        assert points_in_polygon(pts, zone, eps=0.0).all()
    assert s.legal_actions()
    with pytest.raises(DataError, match="7 points"):
        RULES.build_scenario(choose, {"vikings": {"hearthguard-12": 2, "levies-4": 3}, "anglo_danes": {}})


def test_a_warband_too_big_for_its_zone_is_a_clear_error(choose):
    data = copy.deepcopy(dict(choose.data))
    data["setup"]["zones"][0]["polygon"] = [[0, 0], [6, 0], [6, 3], [0, 3]]
    small = scenario_from_data(data, choose.id)
    with pytest.raises(DataError, match="vikings: no room for"):
        RULES.build_scenario(small, {"vikings": {"levies-12": 6}, "anglo_danes": {"warriors-8": 1}})


def test_bad_force_selection_settings_point_at_their_line(choose):
    bad = scenario_from_data(dict(choose.data, force_selection={"budget": 6}), "saga/x")
    with pytest.raises(DataError, match="force_selection.budget"):
        RULES.force_selection(bad, "vikings")


def test_the_note_counts_units_figures_and_dice(choose):
    note = RULES.forces_note(choose, "vikings", {"hero-harald_hardrada": 1, "hearthguard-4": 2})
    assert note.startswith("3 units, 9 figures led by Harald Hardrada") and "4 SAGA dice" in note


def test_greedy_and_computer_picks_are_legal_and_play(choose):
    for player in ("vikings", "anglo_danes"):
        sel = RULES.force_selection(choose, player)
        greedy = greedy_forces(sel, lambda c, p=player: RULES.check_forces(choose, p, c))
        assert basic_force_problems(sel, greedy) == [] and force_cost(sel, greedy) <= sel.budget
    picks = {p: RULES.computer_forces(choose, p) for p in ("vikings", "anglo_danes")}
    Session.new(scenario_from_data(RULES.build_scenario(choose, picks), choose.id), 1)
    Session.new(choose, 1)                              # the file itself plays its suggested warbands
