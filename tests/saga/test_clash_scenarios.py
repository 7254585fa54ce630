"""The other scenarios at Clash of Steel's 10 and 12 points (SAGA p.58): four river crossings in
Battle at the Ford, five and six buildings in Homeland, five baggage in The Escort, and the
suggested warbands' extra Warlords."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.core import IllegalAction, Session
from simulator.games.saga import catalogue as cat
from simulator.geometry.table import polygon_distance


def _lords(s: Session, player: str) -> list[dict[str, Any]]:
    return [u for u in s.state["units"].values() if u["owner"] == player and u["cls"] == "warlord"]


def test_ford_players_place_the_third_and_fourth_crossings() -> None:
    s = Session.new("saga/s2-ford-10", seed=0, tape=[2, 5, 4, 3])
    assert sorted(t["id"] for t in s.state["terrain"] if t["type"] == "ford") == ["ford-ce", "ford-cw"]
    s.apply({"type": "roll_off"})                                 # 2 v 5: the Anglo-Danes place the first
    assert s.state["active"] == "anglo_danes" and s.state["set_up"]["steps"][0]["limit"] == "crossing"
    assert s.legal_actions()[0] == {"type": "place_terrain", "piece": "ford-w", "at": [10.0, 18.0]}
    for at, why in (([10, 8], "across the river"), ([10, 17], "from bank to bank"),
                    ([18, 18], "no crossing within L of another")):
        with pytest.raises(IllegalAction, match=why) as refused:
            s.apply({"type": "place_terrain", "at": at})
        assert refused.value.rule == "SAGA p.58"
    s.apply({"type": "place_terrain", "at": [6, 18]})
    river = sorted((t["polygon"][0][0], t["polygon"][1][0]) for t in s.state["terrain"] if t["type"] == "river")
    assert river == [(0, 4), (8, 24), (28, 48), (52, 76)]              # cut anew around the new crossing
    assert s.state["active"] == "vikings"
    s.apply({"type": "place_terrain", "at": [66, 18]})
    for _ in range(80):
        if s.state["phase"] != "setup":
            break
        s.apply(s.legal_actions()[0])
    assert s.state["phase"] == "orders"
    spans = sorted((t["polygon"][0][0], t["polygon"][1][0], t["type"]) for t in s.state["terrain"]
                   if t["type"] in ("river", "ford"))
    assert [x[2] for x in spans] == ["river", "ford", "river", "ford", "river", "ford", "river", "ford", "river"]


@pytest.mark.parametrize("points, height", [(10, 36), (12, 48)])
def test_ford_has_four_crossings_none_within_l_of_another(points: int, height: int) -> None:
    s = Session.new(f"saga/s2-ford-{points}", seed=0, tape=[6, 1, 4, 3])
    for _ in range(80):                                           # the offered places, then the deployment
        if s.state["phase"] != "setup":
            break
        s.apply(s.legal_actions()[0])
    assert (s.state["table"]["width"], s.state["table"]["height"], s.state["dice_cap"]) == (76, height, 8)
    crossings = [t for t in s.state["terrain"] if t["type"] == "ford"]
    assert len(crossings) == 4
    big = cat.inches("L")
    for i, a in enumerate(crossings):
        for b in crossings[i + 1:]:
            assert polygon_distance(a["polygon"], b["polygon"]) >= big - 1e-9
    # the book's two crossings stand L left and right of the river's centre
    centres = sorted(sum(x for x, _ in t["polygon"]) / 4 for t in crossings)
    assert 38 - big in centres and 38 + big in centres
    # the river is impassable everywhere else: river and crossings cover the table's width
    spans = sorted((min(x for x, _ in t["polygon"]), max(x for x, _ in t["polygon"]))
                   for t in s.state["terrain"] if t["type"] in ("river", "ford"))
    assert spans[0][0] == 0 and spans[-1][1] == 76 and all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    # each side scores its own figures across the river at the end
    fig = next(f for f in s.state["figures"].values() if s.state["units"][f["unit"]]["id"] == "v-hea1")
    far = s.state["far_side"]["vikings"]
    s._state["figures"][fig["id"]].update(x=70.0, y=max(y for _, y in far) - 2.0 if far[0][1] > 0 else 2.0)
    s._state["turn"] = 8
    out = s.outcome()
    assert out is not None and out.winner == "vikings" and out.rule == "SAGA p.52"


@pytest.mark.parametrize("points, most, lesser", [(10, 1, True), (12, 2, False)])
def test_suggested_big_warbands_take_extra_warlords(points: int, most: int, lesser: bool) -> None:
    for sid in (f"clash-of-steel-{points}", f"s6-escort-{points}" if points == 10 else f"s5-homeland-{points}"):
        s = Session.new(f"saga/{sid}", seed=0)
        for player in s.state["players"]:
            lords = _lords(s, player)
            assert [bool(u.get("extra_warlord")) for u in lords] == [False] + [True] * most
            assert all(u["lesser"] == lesser for u in lords[1:])


def _homeland_village(points: int) -> Session:
    return Session.new(f"saga/s5-homeland-{points}", seed=0)


@pytest.mark.parametrize("points, buildings", [(10, 5), (12, 6)])
def test_homeland_defender_places_five_or_six_buildings(points: int, buildings: int) -> None:
    s = _homeland_village(points)
    steps = s.state["set_up"]["steps"]
    village = [st for st in steps if st.get("limit") == "village"]
    assert len(village) == buildings and {st["player"] for st in village} == {"anglo_danes"}
    assert sum(st.get("limit") == "outskirts" for st in steps) == 2          # the attacker's two pieces
    assert s.state["active"] == "anglo_danes"
    assert s.legal_actions()[0]["type"] == "choose_village"                  # which one is large (SAGA p.55)
    s.apply(s.legal_actions()[0])                                            # the scenario's
    s.apply(s.legal_actions()[0])                                            # the hall at its offered place
    house = s.state["set_up"]["steps"][0]["piece"]
    hall = s.state["terrain"][0]["polygon"]
    right = max(x for x, _ in hall)
    with pytest.raises(IllegalAction, match="no building within M of another") as refused:
        s.apply({"type": "place_terrain", "piece": house, "at": [right + 4, s.legal_actions()[0]["at"][1]]})
    assert refused.value.rule == "SAGA p.55"
    for _ in range(buildings - 1):
        s.apply(s.legal_actions()[0])
    assert sum(t["type"] in ("building", "large_building") for t in s.state["terrain"]) == buildings
    assert s.state["active"] == "vikings"


def test_homeland_at_ten_points_sets_up_and_ends() -> None:
    s = _homeland_village(10)
    for _ in range(60):
        if s.state["phase"] != "setup":
            break
        s.apply(s.legal_actions()[0])
    assert s.state["phase"] == "orders" and s.state["turn_player"] == "vikings"      # the attacker first
    assert s.state["rules"]["activation_pool"] is False and s.state["dice_cap"] == 8
    s._state["turn"] = 7
    out = s.outcome()
    assert out is not None and out.rule == "SAGA p.55"
    inside = any(u.get("building") for u in s.state["units"].values() if u["owner"] == "anglo_danes")
    assert out.winner == ("anglo_danes" if inside else "vikings")


def test_escort_at_ten_points_has_five_baggage() -> None:
    s = Session.new("saga/s6-escort-10", seed=0)
    bags = [u for u in s.state["units"].values() if u.get("baggage")]
    assert len(bags) == 5 and {u["owner"] for u in bags} == {"anglo_danes"}
    assert s.outcome() is None
    s._state["exited"]["anglo_danes"] = 2                  # victory unchanged: two off the far edge
    assert s.outcome().winner == "anglo_danes"
    s._state["exited"]["anglo_danes"] = 0
    for u in bags:                                         # all five destroyed: the attacker wins
        for f in u["figures"]:
            del s._state["figures"][f]
        s._state["units"][u["id"]]["figures"] = []
    assert s.outcome().winner == "vikings"


def test_escort_at_twelve_points_has_six_baggage_and_needs_three_off_the_table() -> None:
    s = Session.new("saga/s6-escort-12", seed=0)
    bags = [u for u in s.state["units"].values() if u.get("baggage")]
    assert len(bags) == 6 and s.state["table"] == {"width": 76.0, "height": 48.0}
    assert [bool(u.get("extra_warlord")) for u in _lords(s, "anglo_danes")] == [False, True, True]
    s._state["exited"]["anglo_danes"] = 2                  # two are not enough at 12 points (SAGA p.58)
    assert s.outcome() is None
    s._state["exited"]["anglo_danes"] = 3
    out = s.outcome()
    assert out.winner == "anglo_danes" and out.rule == "SAGA p.58"
