"""The players' own scenery in scenarios X, 3 and 5 (rules ``deployment: players`` and
``scenery: chosen``): scenario X's D3+3 pieces claimed by the highest 2D6 (SAGA p.57), scenario
3's sacred pieces between L and 2L from a long edge (SAGA p.53), scenario 5's village and the
attacker's two pieces (SAGA p.55)."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.core import IllegalAction, Session
from simulator.core.data import load_yaml
from simulator.core.errors import DataError
from simulator.core.registry import get_game
from simulator.core.scenario import scenario_from_data
from simulator.games.saga import victory


def _step(s: Session) -> dict[str, Any]:
    return s.state["set_up"]["steps"][0]


def _finish_setup(s: Session, limit: int = 200) -> None:
    for _ in range(limit):
        if s.state["phase"] != "setup":
            return
        s.apply(s.legal_actions()[0])
    raise AssertionError("the set-up did not end")


def _play(s: Session, limit: int = 400) -> None:
    """The first legal action until the game ends (a short check that the scenario plays)."""
    for _ in range(limit):
        if s.outcome() is not None:
            return
        s.apply(s.legal_actions()[0])


def test_feast_pieces_d3_plus_3_each_claimed_by_the_highest_2d6() -> None:
    # D3 = 1: four pieces. Piece 1: 2D6 vikings 6, normans 12, welsh 2 -> normans chooses a wood,
    # rolls 4 (no part within L of an edge). Piece 2: vikings and normans tie on 12, re-roll 2 v 4:
    # normans again.
    s = Session.new("saga/sx-feast-for-crows-players", seed=0,
                    tape=[1, 3, 3, 6, 6, 1, 1, 4, 6, 6, 6, 6, 1, 1, 1, 1, 2, 2])
    assert s.state["terrain"] == [] and s.legal_actions() == [{"type": "roll_scenery"}]
    with pytest.raises(IllegalAction, match="the set-up is not over"):
        s.apply({"type": "end_turn"})
    events = s.apply({"type": "roll_scenery"})
    assert any(e.data.get("count") == 4 and e.rule == "SAGA p.57" for e in events)
    steps = s.state["set_up"]["steps"]
    assert [st["kind"] for st in steps[:5]] == ["terrain"] * 4 + ["roll_off"]
    s.apply({"type": "roll_terrain"})
    assert _step(s) == {"kind": "choose_terrain", "player": "normans"} and s.state["active"] == "normans"
    with pytest.raises(IllegalAction, match="terrain: expected one of wood.*marsh"):
        s.apply({"type": "choose_terrain", "terrain": "river"})
    s.apply({"type": "choose_terrain", "terrain": "wood"})
    assert _step(s)["piece"] == "wood-1" and _step(s)["player"] == "normans"
    with pytest.raises(IllegalAction, match="roll_terrain first"):
        s.apply({"type": "place_terrain", "at": [24, 24]})
    s.apply({"type": "roll_terrain"})
    with pytest.raises(IllegalAction, match="within L of a table edge") as refused:
        s.apply({"type": "place_terrain", "at": [4, 4]})
    assert refused.value.rule == "SAGA p.49"
    s.apply({"type": "place_terrain", "at": [24, 24]})
    assert [t["id"] for t in s.state["terrain"]] == ["wood-1"]
    s.apply({"type": "roll_terrain"})                         # the tie among the highest is rolled again
    assert _step(s) == {"kind": "choose_terrain", "player": "normans"}
    assert {"type": "choose_terrain", "terrain": "marsh"} in s.legal_actions()


def test_feast_type_maximum_holds_for_every_player() -> None:
    # three woods are the most (p.49 list): the fourth piece may not be a wood
    tape = [1] + [w for _ in range(3) for w in (6, 6, 1, 1, 1, 1) + (3,)] + [6, 6, 1, 1, 1, 1]
    s = Session.new("saga/sx-feast-for-crows-players", seed=0, tape=tape)
    s.apply({"type": "roll_scenery"})
    for _ in range(3):
        s.apply({"type": "roll_terrain"})
        s.apply({"type": "choose_terrain", "terrain": "wood"})
        s.apply({"type": "roll_terrain"})
        s.apply(s.legal_actions()[0])
    s.apply({"type": "roll_terrain"})
    with pytest.raises(IllegalAction, match="at most 3 Wood"):
        s.apply({"type": "choose_terrain", "terrain": "wood"})
    assert {"type": "choose_terrain", "terrain": "wood"} not in s.legal_actions()


@pytest.mark.parametrize("sid", ["sx-feast-for-crows-players", "sx-feast-for-crows-4-players"])
def test_feast_players_set_up_and_play(sid: str) -> None:
    s = Session.new(f"saga/{sid}", seed=2)
    _finish_setup(s)
    players = list(s.state["players"])
    assert 1 <= len(s.state["terrain"]) <= 6
    assert {u["owner"] for u in s.state["units"].values() if u["figures"]} == set(players)
    _play(s, 600)
    out = s.outcome()
    assert out is not None and out.rule == "SAGA p.57"


def test_chosen_scenery_is_refused_where_it_does_not_fit() -> None:
    data = load_yaml("scenarios/saga/s1-warlords-fury.yaml").data
    data = {**data, "rules": {**(data.get("rules") or {}), "scenery": "chosen"}}          # sample deployment
    with pytest.raises(DataError, match="chosen scenery"):
        Session(get_game("saga"), scenario_from_data(data, "saga/s1-warlords-fury"), 0)
    data = load_yaml("scenarios/saga/s2-ford-10.yaml").data
    data["setup"]["terrain"][0]["polygon"][2] = [28, 21]                                 # a bend in the river
    with pytest.raises(DataError, match="straight river"):
        Session(get_game("saga"), scenario_from_data(data, "saga/s2-ford-10"), 0)
    data = load_yaml("scenarios/saga/s5-homeland-players.yaml").data
    data["setup"]["terrain"] = [{**t, "type": "large_building"} for t in data["setup"]["terrain"]]
    with pytest.raises(DataError, match="one of them large at most"):
        Session(get_game("saga"), scenario_from_data(data, "saga/s5-homeland-players"), 0)


def test_sacred_ground_each_player_places_one_sacred_piece() -> None:
    s = Session.new("saga/s3-sacred-ground-players", seed=0, tape=[6, 1])
    assert [t["id"] for t in s.state["terrain"]] == ["hill"]              # the scenario's hill stays
    s.apply({"type": "roll_off"})
    a, b = s.state["set_up"]["order"]
    assert _step(s)["kind"] == "choose_terrain" and s.state["active"] == a
    assert all(x["terrain"] not in ("building", "large_building") for x in s.legal_actions())
    with pytest.raises(IllegalAction, match="not a building") as refused:
        s.apply({"type": "choose_terrain", "terrain": "building"})
    assert refused.value.rule == "SAGA p.53"
    s.apply({"type": "choose_terrain", "terrain": "wood"})
    assert s.legal_actions()[0]["type"] == "place_terrain"              # no location roll
    with pytest.raises(IllegalAction, match="no terrain piece waits for its roll"):
        s.apply({"type": "roll_terrain"})
    with pytest.raises(IllegalAction, match="between L and 2L") as refused:
        s.apply({"type": "place_terrain", "at": [10, 8]})
    assert refused.value.rule == "SAGA p.53"
    with pytest.raises(IllegalAction, match="overlap Hill"):
        s.apply({"type": "place_terrain", "at": [22, 18]})
    s.apply({"type": "place_terrain", "at": [8, 18]})
    assert s.state["active"] == b
    s.apply({"type": "choose_terrain", "terrain": "rocky"})
    s.apply(s.legal_actions()[0])
    sacred = [t for t in s.state["terrain"] if t.get("objective")]
    assert [t["type"] for t in sacred] == ["hill", "wood", "rocky"]
    for t in sacred[1:]:                                                # wholly in the band of a long edge
        assert all(12 - 1e-6 <= y <= 24 + 1e-6 for _, y in t["polygon"])
    _finish_setup(s)
    # a figure standing on a player's sacred piece scores at the end of the other player's turn
    fid = next(f for f, fig in s.state["figures"].items() if s.state["units"][fig["unit"]]["owner"] == a)
    cx = sum(x for x, _ in sacred[1]["polygon"]) / len(sacred[1]["polygon"])
    cy = sum(y for _, y in sacred[1]["polygon"]) / len(sacred[1]["polygon"])
    s._state["figures"][fid].update(x=cx, y=cy)
    before = s.state["vp"][a]

    class Ctx:
        def emit(self, *args: Any, **kwargs: Any) -> None:
            pass
    victory.end_of_player_turn(s._state, b, Ctx())
    assert s.state["vp"][a] > before


def test_sacred_ground_players_plays_to_its_end() -> None:
    s = Session.new("saga/s3-sacred-ground-players", seed=4)
    _finish_setup(s)
    _play(s, 800)
    out = s.outcome()
    assert out is not None and out.rule == "SAGA p.53"


def _homeland_to_village(tape: list[Any] | None = None) -> Session:
    s = Session.new("saga/s5-homeland-players", seed=0, tape=tape)
    s.apply({"type": "bid", "points": 6})                      # normans
    s.apply({"type": "bid", "points": 4})                      # welsh: the lower bid defends
    s.apply(s.legal_actions()[0])                              # his warband for 4 points
    assert s.legal_actions()[0] == {"type": "choose_village", "large": "hall"}   # the scenario's village first
    s.apply(s.legal_actions()[0])
    return s


def test_homeland_defender_places_the_village() -> None:
    s = _homeland_to_village()
    assert s.state["terrain"] == [] and s.state["active"] == "welsh"
    st = _step(s)
    assert st["kind"] == "terrain" and st["piece"] == "hall" and st["limit"] == "village"
    for at, why in (([14, 20], "between M and L from the defender's long edge"),
                    ([6, 27], "at least L from the short edges")):
        with pytest.raises(IllegalAction, match=why) as refused:
            s.apply({"type": "place_terrain", "at": at})
        assert refused.value.rule == "SAGA p.55"
    with pytest.raises(IllegalAction, match="the piece to place now is hall"):
        s.apply({"type": "place_terrain", "at": [14, 27], "piece": "house"})
    s.apply({"type": "place_terrain", "at": [14, 27]})
    with pytest.raises(IllegalAction, match="no building within M of another"):
        s.apply({"type": "place_terrain", "at": [21, 27]})
    with pytest.raises(IllegalAction, match="no piece of yours may be left out"):
        s.apply({"type": "skip_terrain"})
    s.apply({"type": "place_terrain", "at": [24, 27]})
    s.apply({"type": "place_terrain", "at": [34, 27]})
    assert [t["id"] for t in s.state["terrain"]] == ["hall", "house", "barn"]


def test_homeland_attacker_adds_up_to_two_pieces_away_from_the_buildings() -> None:
    s = _homeland_to_village()
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.state["active"] == "normans" and _step(s)["optional"]
    assert {"type": "skip_terrain"} in s.legal_actions()
    with pytest.raises(IllegalAction, match="not a building") as refused:
        s.apply({"type": "choose_terrain", "terrain": "large_building"})
    assert refused.value.rule == "SAGA p.55"
    s.apply({"type": "choose_terrain", "terrain": "marsh"})
    assert s.legal_actions()[-1] == {"type": "skip_terrain"}
    with pytest.raises(IllegalAction, match="at least L from every building") as refused:
        s.apply({"type": "place_terrain", "at": [24, 16]})
    assert refused.value.rule == "SAGA p.55"
    s.apply({"type": "place_terrain", "at": [24, 8]})
    s.apply({"type": "skip_terrain"})                          # the second piece is left out
    assert _step(s)["kind"] == "deploy" and s.state["active"] == "welsh"
    assert [t["id"] for t in s.state["terrain"]] == ["hall", "house", "barn", "marsh-1"]
    _finish_setup(s)
    assert s.state["turn_player"] == "normans"                 # the attacker plays first
    _play(s, 800)
    out = s.outcome()
    assert out is not None and out.rule == "SAGA p.55"
