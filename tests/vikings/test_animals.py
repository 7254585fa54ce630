"""Goats and pigs (rule 5.5.3; our rulings on what the rule leaves out): shot at on the foot table,
retreating, and attacked with the terrain of their hex."""

from __future__ import annotations

import copy
from typing import Any

from simulator.core.scenario import scenario_from_data
from simulator.core.session import Session
from simulator.games.vikings import GAME
from simulator.games.vikings.game import board_of
from tests.vikings.helpers import scenario, to_step


def _session(chars: list[dict[str, Any]], animals: list[dict[str, Any]], tape: list[int]) -> Session:
    data = copy.deepcopy(scenario(chars).data)
    data["setup"]["animals"] = animals
    return Session(GAME, scenario_from_data(data, "vikings/test"), seed=1, tape=tape)


GOAT = {"id": "goat", "kind": "goat", "hex": "1305", "side": "saxons"}


def test_a_goat_is_shot_on_the_foot_table_a_wound_kills_it():
    s = _session([{"id": "bowman1", "hex": "1005"}, {"id": "edmund", "hex": "2008"}], [GOAT], tape=[2])
    assert {"type": "fire", "piece": "bowman1", "target": "goat"} in s.legal_actions()
    s.apply({"type": "fire", "piece": "bowman1", "target": "goat"})       # short range, no cover, 2: B
    shot = [e for e in s.log if e.kind == "fire"][-1]
    assert shot.data["result"] == "B" and shot.rule == "VK 8.2"
    assert not s.state["animals"]["goat"]["alive"]


def test_a_goat_shot_with_result_a_retreats_two_hexes_and_own_animals_are_not_targets():
    own = dict(GOAT, side="vikings")
    s = _session([{"id": "bowman1", "hex": "1005"}, {"id": "edmund", "hex": "2008"}], [own], tape=[])
    err = s.check({"type": "fire", "piece": "bowman1", "target": "goat"})
    assert err is not None and err.rule == "VK 5.5.3"
    s = _session([{"id": "bowman1", "hex": "1005"}, {"id": "edmund", "hex": "2008"}], [GOAT], tape=[4])
    s.apply({"type": "fire", "piece": "bowman1", "target": "goat"})       # 4: A, retreat 2 hexes
    goat = s.state["animals"]["goat"]
    assert goat["alive"] and board_of(s.state_data()).distance(goat["hex"], "1005") == 5
    assert any(e.kind == "retreat" and "goat" in e.text for e in s.log)


def test_a_goat_that_cannot_retreat_is_killed():
    # the goat on the beach at 0711: water on three sides, a peasant in 0710, the shooter east of it
    chars = [{"id": "bowman1", "hex": "1011"}, {"id": "peasant1", "hex": "0710"}]
    s = _session(chars, [dict(GOAT, hex="0711")], tape=[4])
    s.apply({"type": "fire", "piece": "bowman1", "target": "goat"})
    assert not s.state["animals"]["goat"]["alive"]
    assert any("cannot retreat 2" in e.text for e in s.log if e.kind == "animal")


def test_attacking_a_goat_in_brush_shifts_the_column_and_c_makes_it_retreat():
    s = _session([{"id": "klemet", "hex": "1306"}, {"id": "edmund", "hex": "2008"}], [dict(GOAT, hex="1406")],
                 tape=[10])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["klemet"], "defenders": ["goat"]})
    fight = [e for e in s.log if e.kind == "melee"][-1]
    # 8 against 1: 8-1; clear (0) against brush (-1): one column right -> 9-1; die 10 -> C
    assert fight.data["shift"] == 1 and fight.data["column"] == "9-1" and fight.data["result"] == "C"
    goat = s.state["animals"]["goat"]
    assert goat["alive"] and board_of(s.state_data()).distance(goat["hex"], "1306") == 2


def _led_goat_session(tape: list[int]) -> Session:
    data = copy.deepcopy(scenario([{"id": "bowman1", "hex": "1005"}, {"id": "peasant1", "hex": "1405"}],
                                  first="saxons").data)
    data["setup"]["animals"] = [GOAT]
    s = Session(GAME, scenario_from_data(data, "vikings/test"), seed=1, tape=tape)
    to_step(s, "move")
    err = s.check({"type": "defensive_fire", "piece": "bowman1", "target": "goat"})
    assert err is not None and err.rule == "VK 2.33"                       # it has not moved yet
    s.apply({"type": "take_reins", "piece": "peasant1", "horse": "goat"})
    s.apply({"type": "move", "piece": "peasant1", "to": "1505"})
    assert s.state["animals"]["goat"]["hex"] == "1405"
    return s


def test_a_led_goat_that_has_moved_is_a_target_of_defensive_fire_and_a_slows_it():
    s = _led_goat_session(tape=[4])
    legal = s.legal_actions()
    assert {"type": "defensive_fire", "piece": "bowman1", "target": "goat"} in legal
    assert {"type": "defensive_fire", "piece": "bowman1", "target": "peasant1"} not in legal   # the goat blocks
    s.apply({"type": "defensive_fire", "piece": "bowman1", "target": "goat"})   # 4: A, 2 hexes this turn
    shot = [e for e in s.log if e.kind == "fire"][-1]
    assert shot.data["result"] == "A" and shot.data["defensive"]
    goat = s.state["animals"]["goat"]
    assert goat["alive"] and goat["hex"] == "1405" and goat["move_cap"] == 2
    s.apply({"type": "move", "piece": "peasant1", "to": "1605"})
    assert s.state["animals"]["goat"]["hex"] == "1505"                      # its second hex
    s.apply({"type": "move", "piece": "peasant1", "to": "1705"})
    goat = s.state["animals"]["goat"]
    assert goat["hex"] == "1505" and goat["led_by"] is None                 # stopped, and loose


def test_a_defensive_wound_kills_a_led_goat():
    s = _led_goat_session(tape=[2])
    s.apply({"type": "defensive_fire", "piece": "bowman1", "target": "goat"})   # 2: B
    assert not s.state["animals"]["goat"]["alive"]
    assert any(e.kind == "animal" and "killed" in e.text and e.rule == "VK 8.2" for e in s.log)
