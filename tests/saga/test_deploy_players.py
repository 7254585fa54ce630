"""The players deploy their warbands (rules deployment: players, SAGA p.48-57): warbands chosen on the
force-selection screen wait off the table, the client's drag proposes a placement with the unit's
formation around the drop point, and ``deploy_suggested`` hands the rest to the engine."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from simulator.core import IllegalAction, Session
from simulator.core.registry import get_game
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.games.saga.presentation import SagaPresentation, to_view
from tests.saga.test_placement import players_session

RULES = get_game("saga").forces()
VIEW = SagaPresentation()
CHOSEN = {"vikings": {"hearthguard-8": 1, "warriors-8": 2, "levies-12": 1, "hearthguard-4": 1},
          "anglo_danes": {"hearthguard-dane_axe-12": 1, "warriors-8": 3}}


def figures_of(s: Session, uid: str) -> dict[str, tuple[float, float]]:
    return {f: (s.state["figures"][f]["x"], s.state["figures"][f]["y"]) for f in s.state["units"][uid]["figures"]}


def formation(s: Session, uid: str, at: list[float]) -> dict[str, tuple[float, float]]:
    """The figures of a waiting unit with its centre at ``at`` (its sample formation)."""
    sample = s.state["set_up"]["samples"][uid]
    return {f: (round(at[0] + dx, 3), round(at[1] + dy, 3)) for f, (dx, dy) in zip(sample["figures"], sample["offsets"])}


@pytest.fixture()
def chosen() -> tuple[dict[str, Any], Session]:
    scenario = load_scenario("saga/s1-warlords-fury-choose-deploy")
    data = RULES.build_scenario(scenario, CHOSEN)
    # set-up roll-off 6 v 1 (vikings first), terrain rolls 6 (centre), 3, 2, 5; first turn 4 v 2
    s = Session.new(scenario_from_data(data, scenario.id), 0, tape=[6, 1, 6, 3, 2, 5, 4, 2])
    return data, s


def to_deployment(s: Session) -> None:
    while s.state["set_up"]["steps"][0]["kind"] != "deploy":
        s.apply(s.legal_actions()[0])


def test_the_force_selection_path_leaves_the_deployment_to_the_players(chosen) -> None:
    data, s = chosen
    assert "you deploy your units" in RULES.force_selection(load_scenario("saga/s1-warlords-fury-choose-deploy"),
                                                            "vikings").note
    assert s.state["phase"] == "setup" and s.state["figures"] == {}
    built = {u["id"]: u["at"] for side in data["setup"]["sides"].values() for u in side["units"]}
    assert {u: s.state["set_up"]["samples"][u]["at"] for u in built} == built     # the engine's places: suggestions
    to_deployment(s)
    assert [t["id"] for t in s.state["terrain"]] == ["wood", "rocks", "hedge"]
    assert s.state["active"] == "vikings" and s.legal_actions()[0] == {"type": "deploy", "unit": "v-warlord",
                                                                      "at": [24.0, 6.0]}
    assert s.legal_actions()[-1] == {"type": "deploy_suggested"}
    with pytest.raises(IllegalAction, match="deployment zone"):
        s.apply({"type": "deploy", "unit": "v-warlord", "at": [24, 20]})
    with pytest.raises(IllegalAction, match="warlord") as err:
        s.apply({"type": "deploy", "unit": "v-hea2", "at": [24, 6]})
    assert err.value.rule == "SAGA p.51"
    # the Warlord dragged to (10, 5)
    drag = VIEW.drag_action(s.state, "v-warlord", to_view(s.state, (10, 5)))
    assert drag == {"type": "deploy", "unit": "v-warlord", "at": [10.0, 5.0]}
    s.apply(drag)
    assert figures_of(s, "v-warlord") == {"v-warlord": (10.0, 5.0)}
    # the Anglo-Danes hand their deployment to the engine: their Warlord goes at once to his suggestion
    assert s.state["active"] == "anglo_danes"
    s.apply({"type": "deploy_suggested"})
    assert figures_of(s, "ad-warlord") == {"ad-warlord": (24.0, 30.0)}
    step = s.state["set_up"]["steps"][0]
    assert (step["player"], step["classes"], s.state["active"]) == ("vikings", ["levies"], "vikings")
    # the Levies dragged by their fifth figure: the unit keeps its formation around the drop point
    fig = "v-lev1.5"
    sample = s.state["set_up"]["samples"]["v-lev1"]
    dx, dy = sample["offsets"][sample["figures"].index(fig)]
    s.apply(VIEW.drag_action(s.state, fig, to_view(s.state, (40.0, 4.0))))
    assert figures_of(s, "v-lev1") == formation(s, "v-lev1", [round(40.0 - dx, 3), round(4.0 - dy, 3)])
    assert figures_of(s, "v-lev1")[fig] == pytest.approx((40.0, 4.0), abs=1e-3)
    # the Vikings' Warriors (their step, by hand); then the Anglo-Danes' Warriors and Hearthguard
    # follow at their suggestions in the book's order, and the Vikings' Hearthguard is asked for
    s.apply({"type": "deploy", "unit": "v-war1", "at": [17.5, 6.0]})
    assert s.state["active"] == "vikings" and not s.state["units"]["ad-war1"]["deployed"]
    s.apply({"type": "deploy", "unit": "v-war2", "at": [30.5, 6.0]})
    for uid in ("ad-hea1", "ad-war1", "ad-war2", "ad-war3"):
        assert figures_of(s, uid) == formation(s, uid, built[uid])
    step = s.state["set_up"]["steps"][0]
    assert (step["player"], step["classes"], s.state["active"]) == ("vikings", ["hearthguard"], "vikings")
    s.apply({"type": "deploy_suggested"})
    assert figures_of(s, "v-hea1") == formation(s, "v-hea1", built["v-hea1"])
    assert figures_of(s, "v-hea2") == formation(s, "v-hea2", built["v-hea2"])
    s.apply({"type": "roll_off"})                          # 4 v 2: the Vikings play first
    assert s.state["phase"] == "orders" and s.state["active"] == "vikings"
    assert s.outcome() is None


def test_a_unit_with_no_suggested_place_is_handed_back() -> None:
    s = players_session("s1-warlords-fury", [2, 5, 6, 6, 4, 1, 3, 5])
    while s.state["set_up"]["steps"][0]["kind"] != "deploy":
        s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])                          # the Anglo-Danes' Warlord
    # a strip 1.2" deep along the Vikings' edge: room for the Warlord, none for 12 Levies in ranks
    zone = next(z for z in s._state["zones"] if z["side"] == "vikings")
    zone["polygon"] = [[0, 0], [48, 0], [48, 1.2], [0, 1.2]] if zone["polygon"][0][1] < 18 else \
        [[0, 34.8], [48, 34.8], [48, 36], [0, 36]]
    assert s.state["active"] == "vikings"
    events = s.apply({"type": "deploy_suggested"})
    assert s.state["units"]["v-warlord"]["deployed"]
    assert any(e.text == "no place found for vikings levies (v-lev1): vikings places it" for e in events)
    assert s.state["active"] == "vikings" and not s.state["units"]["v-lev1"]["deployed"]
    assert s.legal_actions() == [{"type": "deploy_suggested"}]
    assert "vikings" not in s.state["set_up"]["auto"]


def test_waiting_units_are_drawn_for_their_owner_only_at_their_suggestion(chosen) -> None:
    _data, s = chosen
    to_deployment(s)
    waiting = [p for p in VIEW.pieces(s.state) if p.status]
    assert [p.id for p in waiting] == ["v-warlord"]
    assert waiting[0].at == to_view(s.state, (24.0, 6.0)) and waiting[0].movable
    assert waiting[0].stats["suggested"] == [24.0, 6.0]
    menu = VIEW.piece_actions(s.state, s.legal_actions(), "v-warlord")
    assert ("place the rest of my units as suggested", {"type": "deploy_suggested"}) in menu
    assert VIEW.drag_action(s.state, "ad-warlord", (5.0, 5.0)) is None   # not this step's unit
    assert "drag a waiting unit" in VIEW.banner(s.state)
    s.apply({"type": "deploy", "unit": "v-warlord", "at": [24.0, 6.0]})
    assert [p.id for p in VIEW.pieces(s.state) if p.status] == ["ad-warlord"]
    assert np.allclose(VIEW.pieces(s.state)[0].at, to_view(s.state, (24.0, 6.0)))
