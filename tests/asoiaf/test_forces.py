"""Army building through the force-selection contract (simulator/games/asoiaf/forces.py, digest §12)."""

from __future__ import annotations

from collections import Counter

import pytest

from simulator.core.errors import DataError
from simulator.core.registry import get_game
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.core.view import ForceRules, basic_force_problems, force_cost, force_selections
from simulator.games.asoiaf.setup import army_problems

RULES = get_game("asoiaf").forces()
SID = "asoiaf/game-of-thrones-choose"
ROBB, JAIME, SWORN, BOWMEN, OUTRIDERS, CATELYN = "20201", "20115", "10201", "10205", "10202", "30201"


@pytest.fixture(scope="module")
def choose():
    return load_scenario(SID)


def variant(sc, **force_selection):
    return scenario_from_data(dict(sc.data, force_selection=force_selection), "asoiaf/variant")


def test_only_the_choose_scenario_asks_for_forces(choose):
    assert isinstance(RULES, ForceRules)
    assert force_selections(load_scenario("asoiaf/game-of-thrones")) == []
    sels = force_selections(choose)
    assert [s.player for s in sels] == ["stark", "lannister"]
    assert all(s.secret and s.budget == 30 for s in sels)


def test_options_are_the_faction_and_neutral_cards_with_costs(choose):
    stark = RULES.force_selection(choose, "stark")
    assert stark.option(f"unit:{SWORN}").cost == 5 and stark.option(f"unit:{SWORN}").max is None
    assert stark.option(f"commander:{ROBB}").cost == 0 and stark.option(f"commander:{ROBB}").group == "Commander"
    assert stark.option(f"ncu:{CATELYN}").cost == 4
    assert stark.option("unit:10101") is None                  # a Lannister card (12.2)
    assert stark.option(f"commander:{JAIME}") is None
    assert any(o.id.startswith("unit:") and "neutral" in o.values for o in stark.options)   # 12.4
    assert {o.group for o in stark.options} == {"Commander", "Combat units", "Attachments", "Non-Combat units"}
    neutral = RULES.force_selection(variant(choose, factions={"stark": "neutral"}), "stark")
    assert all("neutral" in o.values or o.id.startswith("commander:") for o in neutral.options)
    assert neutral.option(f"unit:{SWORN}") is None


def test_the_suggested_force_is_the_scenarios_own_army_and_legal(choose):
    sel = RULES.force_selection(choose, "stark")
    assert dict(sel.suggested) == {f"commander:{ROBB}": 1, f"unit:{SWORN}": 2, f"unit:{BOWMEN}": 1,
                                   f"unit:{OUTRIDERS}": 1, f"ncu:{CATELYN}": 1}
    assert RULES.check_forces(choose, "stark", sel.suggested) == []
    assert force_cost(sel, sel.suggested) <= 30


def test_army_rules_are_problems_on_their_rows(choose):
    check = lambda chosen: RULES.check_forces(choose, "stark", chosen)          # noqa: E731
    no_cmd = check({f"unit:{SWORN}": 1})
    assert [p.rule for p in no_cmd] == ['ASOIAF "Choose a Commander" (12.3)']
    no_bearer = check({f"commander:{ROBB}": 1, f"unit:{OUTRIDERS}": 1})       # Robb joins infantry
    assert [(p.option, p.rule) for p in no_bearer] == [(f"commander:{ROBB}",
                                                        'ASOIAF "Adding units and attachments" (12.6)')]
    over = check({f"commander:{ROBB}": 1, f"unit:{SWORN}": 7})
    assert len(over) == 1 and "35 points" in over[0].message and over[0].option is None
    neutral_units = [o for o in RULES.force_selection(choose, "stark").options
                     if o.id.startswith("unit:") and "neutral" in o.values and o.max is None]
    cheap = min(neutral_units, key=lambda o: o.cost)
    n = 15 // cheap.cost + 1
    half = check({f"commander:{ROBB}": 1, f"unit:{SWORN}": 1, cheap.id: n})
    assert any(p.rule == 'ASOIAF "Neutral units" (12.4)' for p in half)
    twice = check({f"commander:{ROBB}": 1, f"unit:{SWORN}": 2, "attachment:20206": 1})   # Robb, second version
    assert any("Character" in p.message and p.option == "attachment:20206" for p in twice)


def test_the_same_rules_refuse_a_scenario_army():
    army = {"faction": "stark", "commander": ROBB, "units": [{"card": SWORN}, {"card": "10101"}]}
    problems = army_problems(army, 30)
    assert [p.path for p in problems] == [("units", 1, "card"), ("commander",)]
    assert "cannot join a stark army" in problems[0].message


def test_attachments_go_to_the_scenarios_pairs_first_then_the_dearest_free_unit(choose):
    chosen = {f"commander:{ROBB}": 1, f"unit:{SWORN}": 2, f"unit:{BOWMEN}": 1, "attachment:20204": 1}
    assert RULES.check_forces(choose, "stark", chosen) == []
    data = RULES.build_scenario(choose, {"stark": chosen, "lannister": RULES.computer_forces(choose, "lannister")})
    units = data["setup"]["armies"]["stark"]["units"]
    assert next(u for u in units if u.get("attachment") == ROBB)["card"] == SWORN    # the scenario's pair
    assert next(u for u in units if u.get("attachment") == "20204")["card"] == BOWMEN  # dearest free (6 > 5)
    assert [u["id"] for u in units] == ["S1", "S2", "S3"]


def test_build_plays_with_the_armies_placed_in_their_areas(choose):
    picks = {p: RULES.computer_forces(choose, p) for p in ("stark", "lannister")}
    data = RULES.build_scenario(choose, picks)
    assert "force_selection" not in data and "hands" not in data["setup"]
    assert all("at" not in u for a in data["setup"]["armies"].values() for u in a["units"])
    sc = scenario_from_data(data, SID)
    assert force_selections(sc) == []
    s = Session.new(sc, 4)
    assert Counter(u["card"] for u in s.state["units"].values() if u["side"] == "stark") == \
        Counter({SWORN: 2, BOWMEN: 1, OUTRIDERS: 1})
    for u in s.state["units"].values():
        y = [c[1] for c in __import__("simulator.games.asoiaf.units", fromlist=["polygon"]).polygon(u)]
        assert (max(y) <= 10 + 1e-6) if u["side"] == "stark" else (min(y) >= 38 - 1e-6)
    assert s.state["phase"] == "deployment" and s.legal_actions()
    with pytest.raises(DataError, match="35 points"):
        RULES.build_scenario(choose, {"stark": {f"commander:{ROBB}": 1, f"unit:{SWORN}": 7},
                                      "lannister": picks["lannister"]})


def test_the_computer_builds_a_legal_army_without_a_suggestion(choose):
    sc = variant(choose, factions={"stark": "neutral", "lannister": "stark"})
    for player in ("stark", "lannister"):
        sel = RULES.force_selection(sc, player)
        pick = RULES.computer_forces(sc, player)
        assert RULES.check_forces(sc, player, pick) == [] and basic_force_problems(sel, pick) == []
        assert sum(1 for k in pick if k.startswith("commander:")) == 1
    Session.new(scenario_from_data(RULES.build_scenario(sc, {p: RULES.computer_forces(sc, p)
                                                               for p in ("stark", "lannister")}), SID), 2)


def test_storm_of_swords_build_puts_half_the_defender_in_reserve():
    sc = load_scenario("asoiaf/storm-of-swords")
    sc = scenario_from_data(dict(sc.data, force_selection={}), "asoiaf/storm-choose")
    picks = {p: RULES.computer_forces(sc, p) for p in ("stark", "lannister")}
    data = RULES.build_scenario(sc, picks)
    lannister = data["setup"]["armies"]["lannister"]["units"]
    assert sum(1 for u in lannister if u.get("reserve")) == (len(lannister) + 1) // 2
    assert not any(u.get("reserve") and u.get("attachment") == JAIME for u in lannister)
    Session.new(scenario_from_data(data, "asoiaf/storm-choose"), 1)


def test_a_bad_force_selection_is_a_data_error(choose):
    with pytest.raises(DataError, match="force_selection.factions.stark"):
        RULES.force_selection(variant(choose, factions={"stark": "greyjoy"}), "stark")
    with pytest.raises(DataError, match="force_selection.mode"):
        RULES.force_selection(variant(choose, mode="point_buy"), "stark")
