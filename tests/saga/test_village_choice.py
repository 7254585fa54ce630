"""Scenario 5 with chosen scenery (SAGA p.55): the defender places three buildings, one of which
may be large; he says which (or none) before placing them (``choose_village``)."""

from __future__ import annotations

import pytest

from simulator.core import IllegalAction, Session
from simulator.games.saga import catalogue as cat


def _to_village() -> Session:
    s = Session.new("saga/s5-homeland-players", seed=0)
    s.apply({"type": "bid", "points": 6})                      # normans
    s.apply({"type": "bid", "points": 4})                      # welsh: the lower bid defends
    s.apply(s.legal_actions()[0])                              # his warband for 4 points
    return s


def _size(piece: dict) -> tuple[float, float]:  # type: ignore[type-arg]
    xs = [p[0] for p in piece["polygon"]]
    ys = [p[1] for p in piece["polygon"]]
    return max(xs) - min(xs), max(ys) - min(ys)


def test_the_defender_names_his_large_building_or_none() -> None:
    s = _to_village()
    assert s.state["active"] == "welsh" and s.state["set_up"]["steps"][0]["kind"] == "village"
    assert s.legal_actions() == [{"type": "choose_village", "large": k} for k in ("hall", None, "house", "barn")]
    with pytest.raises(IllegalAction, match="large names the building") as refused:
        s.apply({"type": "choose_village", "large": "church"})
    assert refused.value.rule == "SAGA p.55"
    with pytest.raises(IllegalAction, match="large: missing"):
        s.apply({"type": "choose_village"})
    with pytest.raises(IllegalAction, match="roll_terrain first|no terrain piece"):
        s.apply({"type": "place_terrain", "at": [14, 27]})          # the choice comes first
    hall = s.state["set_up"]["pieces"]["hall"]
    events = s.apply({"type": "choose_village", "large": "house"})
    assert any(e.data.get("large") == "house" and e.rule == "SAGA p.55" for e in events)
    pieces = s.state["set_up"]["pieces"]
    assert pieces["house"]["type"] == "large_building" and pieces["house"]["capacity"] == 12
    assert pieces["hall"]["type"] == "building"
    types = cat.terrain_types()
    assert _size(pieces["hall"]) == _size({"polygon": types["building"]["piece"]})       # the kind's outline
    assert _size(pieces["house"]) == _size({"polygon": types["large_building"]["piece"]})
    centre = [sum(p[i] for p in hall["polygon"]) / 4 for i in (0, 1)]
    assert [sum(p[i] for p in pieces["hall"]["polygon"]) / 4 for i in (0, 1)] == pytest.approx(centre)
    assert s.state["set_up"]["steps"][0]["kind"] == "terrain" and s.state["set_up"]["steps"][0]["piece"] == "hall"
    # the three buildings M apart fit in the 24" between the L margins with the large one turned
    # a quarter (4" wide)
    s.apply({"type": "place_terrain", "at": [14, 27]})
    with pytest.raises(IllegalAction, match="no building within M of another"):
        s.apply({"type": "place_terrain", "at": [24, 27]})         # unturned it reaches 5" from the hall
    s.apply({"type": "place_terrain", "at": [24, 27], "facing": 90})
    s.apply({"type": "place_terrain", "at": [34, 27]})
    placed = {t["id"]: t["type"] for t in s.state["terrain"]}
    assert placed == {"hall": "building", "house": "large_building", "barn": "building"}


def test_a_village_without_a_large_building() -> None:
    s = _to_village()
    barn = s.state["set_up"]["pieces"]["barn"]
    s.apply({"type": "choose_village", "large": None})
    pieces = s.state["set_up"]["pieces"]
    assert {t["type"] for t in pieces.values()} == {"building"}
    assert pieces["barn"] == barn                                   # unchanged kind: the scenario's outline
    with pytest.raises(IllegalAction, match="no village of yours") as refused:
        s.apply({"type": "choose_village", "large": None})       # chosen once only
    assert refused.value.rule == "SAGA p.55"
