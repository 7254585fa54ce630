"""A Storm of Swords played by teams (digest §16.3 read with §13.1: one Defender team)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from simulator.core.errors import DataError
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.asoiaf import deployment, modes, sides
from tests.asoiaf.helpers import passive

SID = "asoiaf/storm-of-swords-teams"


def variant(rules: dict | None = None, **setup_changes):
    sc = load_scenario(SID)
    return scenario_from_data(dict(sc.data, rules=rules or {}, setup={**sc.setup, **setup_changes}), "asoiaf/siege")


def test_whole_team_defends_walls_shared_reserves_per_player():
    s = Session.new(load_scenario(SID), 1)
    st = s.state
    assert [st["units"][w]["side"] for w in ("wall1", "wall2", "wall3")] == ["jaime", "tywin", "jaime"]
    assert {p: sides.defending(st, p) for p in st["players"]} == \
        {"robb": False, "jaime": True, "eddard": False, "tywin": True}
    assert {u for u, v in st["units"].items() if v.get("reserve")} == {"J2", "J3", "T2"}
    # the defending team deploys in the north 12" strip, the attackers in the south 18"
    assert all(v["y"] > 36 for u, v in st["units"].items() if v["side"] == "tywin" and not v.get("reserve"))
    assert all(v["y"] < 18 for v in st["units"].values() if v["side"] in ("robb", "eddard"))


def test_each_defending_player_keeps_half_its_own_army_in_reserve():
    armies = load_scenario(SID).setup["armies"]
    tywin = {**armies["tywin"], "units": [{k: v for k, v in u.items() if k != "reserve"}
                                          for u in armies["tywin"]["units"]]}
    with pytest.raises(DataError, match="tywin defends with 2 Combat units: 1 of them"):
        Session.new(variant(armies={**armies, "tywin": tywin}), 1)
    with pytest.raises(DataError, match="not a player or team"):
        Session.new(variant(defender="dorne"), 1)


def test_defending_players_choose_their_reserves_in_turn():
    s = Session.new(variant({"deployment": "players"}), 1)
    assert s.state["deploy"]["step"] == "reserve" and s.active_player() == "jaime"
    s.apply({"type": "reserve", "units": ["J1", "J3"]})
    assert s.active_player() == "tywin" and s.state["deploy"]["step"] == "reserve"
    s.apply({"type": "reserve", "units": ["T1"]})
    assert s.state["deploy"]["step"] == "units"               # no area choice: the walls fix them
    assert {u for u, v in s.state["units"].items() if v.get("reserve")} == {"J1", "J3", "T1"}


def test_defending_team_scores_nothing_and_attackers_redeploy():
    s = Session.new(load_scenario(SID), 1)
    st = s.state_data()
    events = []
    ctx = SimpleNamespace(emit=lambda kind, text, rule, **data: events.append((kind, text)))
    modes.add_vp(st, ctx, "tywin", 2, "test", "rule")
    assert st["vp"]["tywin"] == 0 and "Defender and scores no VP" in events[-1][1]
    modes.add_vp(st, ctx, "eddard", 2, "test", "rule")
    assert st["vp"] == {"robb": 2, "jaime": 0, "eddard": 2, "tywin": 0}
    st["units"]["E2"]["destroyed"] = True
    st["units"]["T1"]["destroyed"] = True
    assert deployment.candidates(st, "eddard") == ["E2"] and deployment.candidates(st, "tywin") == []


def test_defending_team_wins_at_the_end_of_the_last_round():
    s = Session.new(variant(max_rounds=1), 1)
    for _ in range(60):
        if s.outcome() is not None:
            break
        s.apply(passive(s))
    assert s.outcome() is not None and s.outcome().winner == "westerlands"
