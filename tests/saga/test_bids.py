"""Scenario 5's secret bids (SAGA p.55): the lower bidder defends with that many points, rebuilding
his warband by sending units home; the defender takes the zone by the buildings; the attacker
plays first."""

import pytest

from simulator.core import IllegalAction, Session
from simulator.core.errors import DataError
from simulator.core.scenario import load_scenario
from simulator.games.saga.movement import in_building
from simulator.games.saga.presentation import SagaPresentation
from simulator.games.saga.setup import warband_cost

SID = "saga/s5-homeland-bids"


def _zone_side(s: Session, y: float) -> str:
    return next(z["side"] for z in s.state["zones"] if z["polygon"][0][1] <= y <= z["polygon"][2][1])


def _kept_cost(s: Session, player: str) -> float:
    entries = s.state["set_up"]["entries"][player]["units"]
    return warband_cost([e for uid, e in entries.items() if uid in s.state["units"]], [])


def _deploy_all(s: Session) -> None:
    for _ in range(40):
        if s.state["phase"] != "setup":
            return
        s.apply(s.legal_actions()[0])
    raise AssertionError("the set-up did not end")


def test_bids_are_secret_until_both_are_in() -> None:
    s = Session.new(SID, seed=0)
    view = SagaPresentation()
    assert s.state["phase"] == "setup" and s.state["active"] == "normans"
    assert view.secret_choice(s.state).player == "normans"
    with pytest.raises(IllegalAction, match="2 to 6"):
        s.apply({"type": "bid", "points": 7})
    with pytest.raises(IllegalAction, match="set-up is not over"):
        s.apply({"type": "roll_dice", "keep": []})
    s.apply({"type": "bid", "points": 4})
    assert s.state["active"] == "welsh" and view.secret_choice(s.state).player == "welsh"
    assert s.game.visible_state(s.state_data(), "welsh")["set_up"]["bids"] == {"normans": "hidden"}
    assert s.game.visible_state(s.state_data(), "normans")["set_up"]["bids"] == {"normans": 4}
    s.apply({"type": "bid", "points": 3})
    assert s.game.visible_state(s.state_data(), "welsh")["set_up"]["bids"] == {"normans": 4, "welsh": 3}
    assert view.secret_choice(s.state) is None
    assert any(e.kind == "bid" and e.data.get("defender") == "welsh" for e in s.log)


def test_lower_bidder_defends_with_that_many_points() -> None:
    s = Session.new(SID, seed=0)
    s.apply({"type": "bid", "points": 4})
    s.apply({"type": "bid", "points": 3})
    assert s.state["attacker"] == "normans" and _zone_side(s, 30) == "welsh"
    assert s.state["active"] == "welsh" and _kept_cost(s, "welsh") == 6
    legal = s.legal_actions()
    assert legal and all(a["type"] == "muster" for a in legal)
    for dismiss, why in ((["w-warlord"], "Warlord stays"), (["n-hea1"], "not one of your units"),
                         (["w-war3"], "costs 5 points")):
        with pytest.raises(IllegalAction, match=why):
            s.apply({"type": "muster", "dismiss": dismiss})
    s.apply({"type": "muster", "dismiss": ["w-war2", "w-war3", "w-hea2"]})
    assert _kept_cost(s, "welsh") == 3 and "w-war2" not in s.state["units"]
    _deploy_all(s)
    assert s.state["phase"] == "orders" and s.state["turn_player"] == "normans"
    assert not any(u["id"].startswith("w-war2") for u in s.state["units"].values())
    assert all(f["y"] >= 24 for f in s.state["figures"].values() if s.state["units"][f["unit"]]["owner"] == "welsh")


def test_other_side_defending_takes_the_village_zone() -> None:
    s = Session.new(SID, seed=0)
    s.apply({"type": "bid", "points": 2})
    s.apply({"type": "bid", "points": 5})
    assert s.state["attacker"] == "welsh" and _zone_side(s, 30) == "normans" and _zone_side(s, 5) == "welsh"
    first = s.legal_actions()[0]
    assert first["type"] == "muster" and _kept_cost(s, "normans") == 6
    s.apply(first)
    assert _kept_cost(s, "normans") == 2                     # the most points a 2-point bid allows
    _deploy_all(s)
    assert s.state["turn_player"] == "welsh"                 # the attacker plays first
    assert all(f["y"] >= 24 for f in s.state["figures"].values() if s.state["units"][f["unit"]]["owner"] == "normans")


def test_equal_bids_go_to_a_roll_off() -> None:
    s = Session.new(SID, seed=0, tape=[2, 5])
    s.apply({"type": "bid", "points": 3})
    s.apply({"type": "bid", "points": 3})
    assert s.state["attacker"] == "normans" and s.state["active"] == "welsh"
    assert s.state["set_up"]["steps"][0] == {"kind": "muster", "player": "welsh", "points": 3}


def test_bids_need_the_players_set_up() -> None:
    sc = load_scenario(SID)
    data = dict(sc.data)
    data["rules"] = {"bids": True}
    from simulator.core.registry import get_game
    from simulator.core.scenario import scenario_from_data
    with pytest.raises(DataError, match="deployment: players"):
        Session(get_game("saga"), scenario_from_data(data, "saga/test"), 0)


def test_the_defender_deploys_no_mounted_unit_in_a_building() -> None:
    """SAGA p.38: mounted figures never occupy a building, set-up included (a computer game put
    the mounted Warlord in a house, where he could neither stay nor move)."""
    s = Session.new(SID, seed=4)
    s.apply({"type": "bid", "points": 3})
    s.apply({"type": "bid", "points": 6})
    s.apply({"type": "muster", "dismiss": ["n-hea1", "n-hea2", "n-war1"]})
    house = next(t for t in s.state["terrain"] if t.get("capacity"))
    x, y = (sum(p[i] for p in house["polygon"]) / len(house["polygon"]) for i in (0, 1))
    assert s.state["units"]["n-warlord"]["mounted"]
    with pytest.raises(IllegalAction, match="mounted units and baggage cannot occupy buildings") as why:
        s.apply({"type": "deploy", "unit": "n-warlord", "at": [x, y]})
    assert why.value.rule == "SAGA p.38, p.56"
    for a in s.legal_actions():
        if a["type"] == "deploy" and s.state["units"][a["unit"]]["mounted"]:
            assert in_building(s.state, *a["at"]) is None
