"""The players' set-up (rules deployment: players): roll-offs, terrain by the D6 location roll
(SAGA p.49), each scenario's deployment order and limits (SAGA p.51-57), who plays first."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.core import IllegalAction, Session
from simulator.core.data import load_yaml
from simulator.core.registry import get_game
from simulator.core.scenario import scenario_from_data


def players_session(name: str, tape: list[Any], edit: Any = None) -> Session:
    data = load_yaml(f"scenarios/saga/{name}.yaml").data
    data = {**data, "rules": {**(data.get("rules") or {}), "deployment": "players"}}
    if edit:
        edit(data)
    return Session(get_game("saga"), scenario_from_data(data, f"saga/{name}"), 0, tape)


def step(s: Session) -> dict[str, Any]:
    return s.state["set_up"]["steps"][0]


def test_warlords_fury_terrain_rolls_and_deployment_order() -> None:
    # roll-off 2 v 5: the Anglo-Danes set up first; terrain rolls 6 (centre), 6 (centre taken:
    # discarded), 4, 1; then the roll-off for the first turn 3 v 3, 6 v 1
    s = players_session("s1-warlords-fury", [2, 5, 6, 6, 4, 1, 3, 3, 6, 1])
    assert s.legal_actions() == [{"type": "roll_off"}]
    s.apply({"type": "roll_off"})
    assert s.state["set_up"]["order"] == ["anglo_danes", "vikings"]
    assert s.state["active"] == "anglo_danes" and s.legal_actions() == [{"type": "roll_terrain"}]
    with pytest.raises(IllegalAction, match="roll_terrain first"):
        s.apply({"type": "place_terrain", "at": [24, 18]})
    s.apply({"type": "roll_terrain"})
    assert s.legal_actions() == [{"type": "place_terrain", "piece": "wood", "at": [24.0, 18.0]},
                                 {"type": "place_terrain", "piece": "wood", "at": [24.0, 18.0], "facing": 90}]
    with pytest.raises(IllegalAction, match="centre"):
        s.apply({"type": "place_terrain", "at": [20, 18]})
    s.apply(s.legal_actions()[0])
    assert s.state["active"] == "vikings"                   # the pieces alternate
    events = s.apply({"type": "roll_terrain"})           # a 6 again: the centre is taken
    assert any("discarded" in e.text for e in events)
    assert step(s)["piece"] == "rocks" and s.state["active"] == "anglo_danes"
    s.apply({"type": "roll_terrain"})                    # 4: no part within L of an edge
    with pytest.raises(IllegalAction, match="within L of a table edge") as err:
        s.apply({"type": "place_terrain", "at": [24, 10]})
    assert err.value.rule == "SAGA p.49"
    with pytest.raises(IllegalAction, match="overlap"):
        s.apply({"type": "place_terrain", "at": [24, 18]})
    s.apply({"type": "place_terrain", "at": [16, 18]})
    s.apply({"type": "roll_terrain"})                    # 1: within L of a corner (the hedge, vikings)
    opts = s.legal_actions()
    assert opts and all(o["type"] == "place_terrain" for o in opts)
    s.apply(opts[0])
    assert [t["id"] for t in s.state["terrain"]] == ["wood", "rocks", "hedge"]
    # the roll-off winner keeps his long edge (the first option)
    assert s.state["active"] == "anglo_danes" and [a["type"] for a in s.legal_actions()] == ["choose_edge"] * 2
    s.apply(s.legal_actions()[0])
    # deployment: Anglo-Danish Warlord, Viking Warlord, Viking Levies, Anglo-Danish Levies...
    assert s.state["active"] == "anglo_danes" and {a["unit"] for a in s.legal_actions() if a["type"] == "deploy"} == {"a-warlord"}
    with pytest.raises(IllegalAction, match="warlord") as err:
        s.apply({"type": "deploy", "unit": "a-hea1", "at": [14.4, 26.5]})
    assert err.value.rule == "SAGA p.51"
    with pytest.raises(IllegalAction, match="deployment zone"):
        s.apply({"type": "deploy", "unit": "a-warlord", "at": [24, 20]})
    s.apply(s.legal_actions()[0])
    seen = []
    while s.state["phase"] == "setup":
        a = s.legal_actions()[0]
        if a["type"] == "deploy":
            seen.append((s.state["active"], s.state["units"][a["unit"]]["cls"]))
        s.apply(a)
    order = [seen[0]] + [x for i, x in enumerate(seen[1:], 1) if x != seen[i - 1]]
    assert order == [("vikings", "warlord"), ("vikings", "levies"), ("anglo_danes", "levies"),
                     ("anglo_danes", "warriors"), ("vikings", "warriors"), ("vikings", "hearthguard"),
                     ("anglo_danes", "hearthguard")]
    assert s.state["turn_player"] == "vikings" and s.legal_actions() == [{"type": "roll_dice", "keep": []}]
    assert all(u["figures"] for u in s.state["units"].values()) and s.outcome() is None


def test_ford_first_player_deploys_half_then_the_rest() -> None:
    s = players_session("s2-ford", [6, 1, 2, 5])
    s.apply({"type": "roll_off"})
    first = s.state["set_up"]["order"][0]
    far = dict(s.state["far_side"])
    s.apply({"type": "choose_edge", "edge": "top" if s.legal_actions()[0]["edge"] == "bottom" else "bottom"})
    assert s.state["far_side"] == {p: far[q] for p, q in zip(far, reversed(list(far)))}   # the banks swap too
    with pytest.raises(IllegalAction, match="at least half") as err:
        s.apply({"type": "end_deployment"})
    assert err.value.rule == "SAGA p.52"
    while {"type": "end_deployment"} not in s.legal_actions():
        s.apply(s.legal_actions()[0])
    s.apply({"type": "end_deployment"})
    assert s.state["active"] != first
    while s.state["phase"] == "setup":
        s.apply(s.legal_actions()[0])
    assert s.state["turn_player"] != first                 # 2 v 5 for the first turn


def test_homeland_attacker_keeps_l_away_and_plays_first() -> None:
    def wider_zone(data: dict[str, Any]) -> None:         # an attacker zone reaching y = 20
        data["setup"]["zones"][1]["polygon"] = [[0, 0], [48, 0], [48, 20], [0, 20]]

    s = players_session("s5-homeland", [], wider_zone)
    assert s.state["active"] == "welsh"                      # the defender deploys all first
    while s.state["active"] == "welsh":
        s.apply(s.legal_actions()[0])
    with pytest.raises(IllegalAction, match="farther than L"):
        s.apply({"type": "deploy", "unit": "n-warlord", "at": [24, 14]})
    while s.state["phase"] == "setup":
        s.apply(s.legal_actions()[0])
    assert s.state["turn_player"] == "normans"


def test_challenge_and_feast_warlord_spots_and_first_to_finish_plays_first() -> None:
    s = players_session("s4-challenge", [4, 2, 1, 6], lambda d: d["setup"].update(terrain=[]))
    s.apply({"type": "roll_off"})
    p1 = s.state["active"]
    assert s.legal_actions()[0]["at"] == [24.0, 18.0]
    with pytest.raises(IllegalAction, match="centre of the table"):
        s.apply({"type": "deploy", "unit": s.legal_actions()[0]["unit"], "at": [24, 20]})
    s.apply(s.legal_actions()[0])
    p2 = s.state["active"]
    assert p2 != p1
    with pytest.raises(IllegalAction, match="within S of the rival"):
        s.apply({"type": "deploy", "unit": s.legal_actions()[0]["unit"], "at": [24, 30]})
    s.apply(s.legal_actions()[0])
    s.apply({"type": "roll_off"})                            # 1 v 6: the second player deploys first
    assert s.state["active"] == p2
    while s.state["phase"] == "setup":
        s.apply(s.legal_actions()[0])
    counts = {p: sum(1 for u in s.state["units"].values() if u["owner"] == p) for p in (p1, p2)}
    assert s.state["turn_player"] == (p2 if counts[p2] <= counts[p1] else p1)
    # scenario X: 2D6 per player for each piece (vikings 2, normans 12, welsh 4), then its D6
    f = players_session("sx-feast-for-crows", [6, 2, 1, 1, 1, 6, 6, 2, 2, 6])
    f.apply({"type": "roll_off"})
    assert f.state["set_up"]["order"] == ["vikings", "normans", "welsh"]
    f.apply({"type": "roll_terrain"})
    assert f.state["active"] == "normans" and f.legal_actions()[0]["at"] == [24.0, 24.0]
    g = players_session("sx-feast-for-crows", [6, 2, 1], lambda d: d["setup"].update(terrain=[]))
    g.apply({"type": "roll_off"})
    spot = g.legal_actions()
    assert spot == [{"type": "deploy", "unit": spot[0]["unit"], "at": [4.667, 4.667]},
                    {"type": "deploy_suggested"}]   # M + r from the corner
    with pytest.raises(IllegalAction, match="exactly M"):
        g.apply({**spot[0], "at": [5.5, 5.5]})
    g.apply(spot[0])
    assert g.state["active"] == "normans"


def test_feast_for_crows_orders_phases_then_activation_roll() -> None:
    s = Session.new("saga/sx-feast-for-crows", seed=0, tape=[2, 5, 5, 3, 6, 4, 4, 1])

    def all_orders() -> list[Any]:
        events: list[Any] = []
        for p in ("vikings", "normans", "welsh"):             # every Orders Phase first, round the table
            assert s.state["phase"] == "orders" and s.state["active"] == p
            s._state["orders_rolled"] = True                  # no SAGA dice needed here
            events = s.apply({"type": "end_orders"})
        return events

    events = all_orders()
    # 2, 5, 5: Normans and Welsh tie in the first turn and roll again (3, 6): the Welsh start
    assert any(e.rule == "SAGA p.57" and e.data.get("first") == "welsh" for e in events)
    assert s.state["phase"] == "activation" and s.state["order"] == ["welsh", "vikings", "normans"]
    for p in ("welsh", "vikings", "normans"):                 # then play passes to the left
        assert s.state["active"] == p and s.state["phase"] == "activation"
        s.apply({"type": "end_turn"})
    assert s.state["turn"] == 2
    all_orders()
    # 4, 4, 1 in a later turn: the tie gives the first activation left of last turn's first (Welsh)
    assert s.state["turn_player"] == "vikings" and s.state["order"] == ["vikings", "normans", "welsh"]


def test_chosen_scenery_secret_numbers_choices_and_rotation() -> None:
    def chosen(data: dict[str, Any]) -> None:
        data["rules"] = {**data["rules"], "scenery": "chosen"}
    s = players_session("s1-warlords-fury", [1, 3, 4, 2, 4, 3, 5, 2], chosen)
    a, b = s.state["players"]
    assert s.state["terrain"] == [] and s.state["active"] == a
    assert s.game.presentation().secret_choice(s.state).player == a
    with pytest.raises(IllegalAction, match="1 to 5"):
        s.apply({"type": "scenery_number", "number": 0})
    s.apply({"type": "scenery_number", "number": 5})
    assert s.game.visible_state(s.state_data(), b)["set_up"]["scenery"]["numbers"] == {a: "hidden"}
    s.apply({"type": "scenery_number", "number": 4})
    sc = s.state["set_up"]["scenery"]
    assert sc["shares"] == {a: 3, b: 2} and sc["first"] == a      # 5 pieces, the odd one to the higher number
    assert [st["player"] for st in s.state["set_up"]["steps"][:5]] == [a, b, a, b, a]
    s.apply({"type": "choose_terrain", "terrain": "building"})
    s.apply({"type": "choose_terrain", "terrain": "building"})
    with pytest.raises(IllegalAction, match="at most 2"):
        s.apply({"type": "choose_terrain", "terrain": "building"})
    assert {"type": "choose_terrain", "terrain": "building"} not in s.legal_actions()
    with pytest.raises(IllegalAction, match="terrain: expected one of wood.*marsh"):
        s.apply({"type": "choose_terrain", "terrain": "river"})
    for kind in ("wood", "hill", "marsh"):
        s.apply({"type": "choose_terrain", "terrain": kind})
    steps = s.state["set_up"]["steps"]
    assert [(st["player"], st["piece"]) for st in steps[:5]] == [
        (a, "building-1"), (b, "building-2"), (a, "wood-1"), (b, "hill-1"), (a, "marsh-1")]
    s.apply({"type": "roll_terrain"})                                # 1: a corner
    s.apply({"type": "place_terrain", "at": [4, 4], "facing": 90})
    placed = s.state["terrain"][0]["polygon"]
    xs, ys = [p[0] for p in placed], [p[1] for p in placed]
    assert max(xs) - min(xs) == pytest.approx(3) and max(ys) - min(ys) == pytest.approx(4)   # turned a quarter
    while s.state["set_up"]["steps"][0]["kind"] == "terrain":
        s.apply(s.legal_actions()[0])
    assert len(s.state["terrain"]) <= 5 and s.state["set_up"]["steps"][0]["kind"] == "roll_off"


def test_roll_off_winner_chooses_the_long_edge() -> None:
    s = players_session("s1-warlords-fury", [6, 1] + [6, 6, 6, 6] + [3, 5])
    s.apply({"type": "roll_off"})
    winner, loser = s.state["set_up"]["order"]
    while s.state["set_up"]["steps"][0]["kind"] == "terrain":
        s.apply(s.legal_actions()[0])
    zones = {z["side"]: z["polygon"] for z in s.state["zones"]}
    mine = s.legal_actions()[0]["edge"]
    other = "top" if mine == "bottom" else "bottom"
    with pytest.raises(IllegalAction, match="edge: expected one of bottom, top"):
        s.apply({"type": "choose_edge", "edge": "left"})
    s.apply({"type": "choose_edge", "edge": other})
    assert {z["side"]: z["polygon"] for z in s.state["zones"]} == {winner: zones[loser], loser: zones[winner]}
    while s.state["phase"] == "setup":
        s.apply(s.legal_actions()[0])
    h = s.state["table"]["height"]
    mean_y = sum(f["y"] for f in s.state["figures"].values() if s.state["units"][f["unit"]]["owner"] == winner)
    mean_y /= sum(1 for f in s.state["figures"].values() if s.state["units"][f["unit"]]["owner"] == winner)
    assert (mean_y > h / 2) == (other == "top")


def test_feast_for_crows_orders_are_secret_until_all_are_done() -> None:
    from simulator.games.saga.board import roll_count
    first = Session.new("saga/sx-feast-for-crows", seed=0).state_data()
    faces = [f for p in first["seating"] for f in (["C", "U", "R"] * 3)[:roll_count(first, p, 0)]]
    s = Session.new("saga/sx-feast-for-crows", seed=0, tape=faces + [6, 1, 1])
    s.apply({"type": "roll_dice", "keep": []})
    die, box = next((a["die"], a["box"]) for a in s.legal_actions() if a["type"] == "place_die")
    events = s.apply({"type": "place_die", "die": die, "box": box})
    assert all(box not in e.text for e in events) and "hidden" in events[-1].text
    s.apply({"type": "end_orders"})
    assert s.state["active"] == "normans"
    seen = s.game.visible_state(s.state_data(), "normans")["sides"]["vikings"]["dice"]
    assert {"face": "hidden", "box": "hidden"} in seen and not any(d["box"] == box for d in seen)
    assert s.game.visible_state(s.state_data(), "vikings")["sides"]["vikings"]["dice"][die]["box"] == box
    s.apply({"type": "roll_dice", "keep": []})
    s.apply({"type": "end_orders"})
    s.apply({"type": "roll_dice", "keep": []})
    events = s.apply({"type": "end_orders"})                   # the last Orders Phase: all is revealed
    assert any(f"vikings: " in e.text and box in e.text for e in events)
    assert s.game.visible_state(s.state_data(), "normans")["sides"]["vikings"]["dice"][die]["box"] == box
