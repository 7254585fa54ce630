"""Carrying a stunned character (rule 2.53) - an enemy too, as the text allows - and a swimmer climbing
only onto an empty boat hex (rule 4.86)."""

from __future__ import annotations

import pytest

from simulator.core.errors import IllegalAction
from simulator.games.vikings import GAME
from simulator.games.vikings.game import board_of
from tests.vikings.helpers import session, to_step
from tests.vikings.test_shipwork import _Ctx


def _adjacent(st, a: str, b: str) -> bool:
    return board_of(st).grid.adjacent(a, b)


def _moving_with_a_stunned(chars, stunned: str, **kw):
    """The state in the vikings' movement step with ``stunned`` lying stunned."""
    s = session(chars, **kw)
    to_step(s, "move")
    st = s.state_data()
    st["chars"][stunned]["status"] = "stunned"
    return st


def test_a_viking_lifts_a_stunned_enemy_carries_him_at_half_mp_and_lays_him_beside_him():
    st = _moving_with_a_stunned([{"id": "klemet", "hex": "1205"}, {"id": "peasant1", "hex": "1206"},
                                 {"id": "archer1", "hex": "2010"}], "peasant1")
    legal = GAME.legal_actions(st)
    assert {"type": "move", "piece": "klemet", "to": "1206"} in legal      # into the stunned man's hex
    ctx = _Ctx([])
    GAME.apply(st, {"type": "move", "piece": "klemet", "to": "1206"}, ctx)
    mp = st["chars"]["klemet"]["mp"]
    assert {"type": "pick_up", "piece": "klemet", "target": "peasant1"} in GAME.legal_actions(st)
    GAME.apply(st, {"type": "pick_up", "piece": "klemet", "target": "peasant1"}, ctx)
    assert st["chars"]["klemet"]["mp"] == mp // 2 and st["chars"]["peasant1"]["hex"] is None
    assert ctx.events[-1][0] == "carry" and ctx.events[-1][2] == "VK 2.53"
    downs = [a["to"] for a in GAME.legal_actions(st) if a["type"] == "put_down"]
    assert len(downs) > 1 and "1205" in downs and all(_adjacent(st, "1206", h) for h in downs)
    GAME.apply(st, {"type": "end_phase"}, ctx)          # the end of movement lays him down next to the carrier
    peasant = st["chars"]["peasant1"]
    assert peasant["hex"] in downs and peasant["hex"] != st["chars"]["klemet"]["hex"]
    assert peasant["carried_by"] is None and st["chars"]["klemet"]["carrying"] is None


def test_no_lift_with_an_able_enemy_next_to_the_carrier():
    st = _moving_with_a_stunned([{"id": "klemet", "hex": "1205"}, {"id": "peasant1", "hex": "1206"},
                                 {"id": "peasant2", "hex": "1207"}, {"id": "archer1", "hex": "2010"}], "peasant1")
    ctx = _Ctx([])
    GAME.apply(st, {"type": "move", "piece": "klemet", "to": "1206"}, ctx)
    assert not any(a["type"] == "pick_up" for a in GAME.legal_actions(st))
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(st, {"type": "pick_up", "piece": "klemet", "target": "peasant1"}, ctx)
    assert refused.value.rule == "VK 2.53" and "enemy" in refused.value.reason


def test_no_lift_with_an_enemy_next_door_even_across_a_wall():
    # the text forbids the lift with an enemy "in a position to attack or in an adjacent hex"
    chars = [{"id": "klemet", "hex": "0204"}, {"id": "peasant1", "hex": "0304"}, {"id": "peasant2", "hex": "0404"},
             {"id": "archer1", "hex": "2010"}]
    st = _moving_with_a_stunned(chars, "peasant1", boards=[{"map": "vikings/village"}])
    board = board_of(st)
    assert board.feature("0304", "0404") == "wall"
    GAME.apply(st, {"type": "move", "piece": "klemet", "to": "0304"}, _Ctx([]))
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(st, {"type": "pick_up", "piece": "klemet", "target": "peasant1"}, _Ctx([]))
    assert refused.value.rule == "VK 2.53" and "Peasant Leofric" in refused.value.reason


def test_a_swimmer_climbs_only_onto_an_empty_boat_hex():
    # the skiff lies 0613-0712-0711 with Olav in 0613; the bowman swims in deep water 0713, next to both
    ships = [{"id": "r", "type": "rowboat", "side": "vikings", "pivot": "0712", "heading": "NE", "speed": 0,
              "beached": True}]
    chars = [{"id": "olav", "aboard": {"ship": "r", "slot": 0}}, {"id": "bowman1", "hex": "0713", "swimmer": True},
             {"id": "archer1", "hex": "2010"}]
    s = session(chars, ships=ships)
    to_step(s, "move")
    assert s.state["chars"]["olav"]["hex"] == "0613"
    err = s.check({"type": "move", "piece": "bowman1", "to": "0613"})
    assert err is not None and err.rule == "VK 4.86" and "empty" in err.reason
    assert {"type": "move", "piece": "bowman1", "to": "0613"} not in s.legal_actions()
    s.apply({"type": "move", "piece": "bowman1", "to": "0712"})       # 2 (boat) + 2 (from deep water, rowboat)
    assert s.state["chars"]["bowman1"]["ship"] == "r" and s.state["chars"]["bowman1"]["mp"] == 7 - 4
