"""The force-selection contract for Dragon Rage (simulator/games/dragon_rage/forces.py, DR 3.3)."""

from __future__ import annotations

from collections import Counter

import pytest

from simulator.core.errors import DataError
from simulator.core.registry import get_game
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.core.view import ForceRules, basic_force_problems, force_cost, force_selections, greedy_forces

RULES = get_game("dragon_rage").forces()


@pytest.fixture(scope="module")
def esirien():
    return load_scenario("dragon_rage/pointbuy-esirien-choose")


def types_of(session, side):
    return Counter(u["type"] for u in session.state["units"].values() if u["side"] == side)


def test_dragon_rage_offers_force_rules_and_only_choose_scenarios_ask_for_them(esirien):
    assert isinstance(RULES, ForceRules)
    assert force_selections(load_scenario("dragon_rage/esirien-1-fury")) == []
    assert force_selections(load_scenario("dragon_rage/pointbuy-esirien")) == []
    sels = force_selections(esirien)
    assert [s.player for s in sels] == ["invader", "defender"]
    assert all(s.secret and s.rule == "DR 3.3.2" for s in sels)


def test_options_are_the_catalogue_grouped_with_costs_and_counter_limits(esirien):
    inv = RULES.force_selection(esirien, "invader")
    assert inv.budget == 80 and inv.budget_min == 0 and inv.unit_limit is None
    dragon = inv.option("dragon")
    assert (dragon.cost, dragon.max, dragon.group) == (40, 2, "Major monsters")
    assert inv.option("hero") is None                       # the defender's counter on Esirien
    assert "CF 2" in inv.option("orcs").values
    dfd = RULES.force_selection(esirien, "defender")
    assert dfd.budget == 75 and dfd.option("infantry").max == 16
    assert {o.group for o in dfd.options} >= {"Characters", "Troops"}
    nurkott = load_scenario("dragon_rage/pointbuy-nurkott-choose")
    assert RULES.force_selection(nurkott, "invader").option("ballista") is None   # assumed: cannot enter
    assert RULES.force_selection(nurkott, "defender").option("orcs") is not None


def test_problems_name_their_rule_and_the_option_row(esirien):
    assert RULES.check_forces(esirien, "invader", {"dragon": 2}) == []
    over = RULES.check_forces(esirien, "invader", {"dragon": 2, "goblins": 1})
    assert [(p.rule, p.option) for p in over] == [("DR 3.3.2", None)]
    assert "81 points" in over[0].message
    too_many = RULES.check_forces(esirien, "invader", {"dragon": 3})
    assert ("DR 2.2", "dragon") in [(p.rule, p.option) for p in too_many]
    wrong_side = RULES.check_forces(esirien, "invader", {"hero": 1})
    assert [p.option for p in wrong_side] == ["hero"] and wrong_side[0].rule == "DR 4.3.1"
    empty = RULES.check_forces(esirien, "defender", {})
    assert empty and "at least one unit" in empty[0].message


def test_planned_mode_has_a_minimum_budget_and_a_unit_limit(esirien):
    data = dict(esirien.data, force_selection={"mode": "planned"})
    planned = scenario_from_data(data, "dragon_rage/planned")
    dfd = RULES.force_selection(planned, "defender")
    assert (dfd.budget_min, dfd.budget, dfd.unit_limit, dfd.rule) == (72, 77, (20, 22), "DR 3.3.1")
    assert any("20-22" in p.message for p in RULES.check_forces(planned, "defender", {"hero": 1}))


def test_a_bad_force_selection_mode_is_a_data_error_at_its_line(esirien):
    bad = scenario_from_data(dict(esirien.data, force_selection={"mode": "auction"}), "x")
    with pytest.raises(DataError, match="force_selection.mode"):
        RULES.force_selection(bad, "invader")


def test_the_note_is_the_live_vp_objective(esirien):
    note = RULES.forces_note(esirien, "invader", {"dragon": 1, "young_dragon": 1})
    assert note.startswith("VP objective: 20 = 17") and "DR 3.3.3" in note
    assert "goes down by 3" in RULES.forces_note(esirien, "defender", {"infantry": 16, "militia": 7})


def test_build_gives_a_session_with_the_chosen_forces_and_objective(esirien):
    chosen = {"invader": {"dragon": 2}, "defender": {"hero": 1, "infantry": 16, "militia": 8, "cavalry": 5}}
    data = RULES.build_scenario(esirien, chosen)
    assert "force_selection" not in data and data["setup"]["point_built"]
    sc = scenario_from_data(data, esirien.id)
    assert force_selections(sc) == []                        # no second selection
    session = Session.new(sc, 5)
    assert types_of(session, "invader") == Counter({"dragon": 2})
    assert types_of(session, "defender") == Counter({"infantry": 16, "militia": 8, "cavalry": 5, "hero": 1})
    assert session.state["vp"]["objective"] == 17 + 4 - 10       # 2 dragons, 30 defenders (DR 3.3.3)
    assert session.legal_actions()
    with pytest.raises(DataError, match="81 points"):
        RULES.build_scenario(esirien, {"invader": {"dragon": 2, "goblins": 1}, "defender": {"hero": 1}})


@pytest.mark.parametrize("sid", ["dragon_rage/pointbuy-esirien-choose", "dragon_rage/pointbuy-nurkott-choose"])
def test_the_computer_pick_is_legal_and_plays(sid):
    sc = load_scenario(sid)
    picks = {p: RULES.computer_forces(sc, p) for p in ("invader", "defender")}
    for player, pick in picks.items():
        sel = RULES.force_selection(sc, player)
        assert pick == dict(sel.suggested)                  # the scenario's own (legal) forces
        assert RULES.check_forces(sc, player, pick) == []
        greedy = greedy_forces(sel, lambda c, p=player: RULES.check_forces(sc, p, c))
        assert RULES.check_forces(sc, player, greedy) == [], greedy
        assert basic_force_problems(sel, greedy) == [] and force_cost(sel, greedy) <= sel.budget
    Session.new(scenario_from_data(RULES.build_scenario(sc, picks), sid), 1)
    Session.new(sc, 1)                                      # the file itself plays its suggested forces
