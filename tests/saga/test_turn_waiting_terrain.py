"""Turning the terrain piece being placed (SAGA p.49: the players place the pieces; the engine
lets them turn a piece as it is placed): the client's turn gesture on the waiting piece records
its facing (``turn_waiting``), it is drawn turned, and dragging it proposes ``place_terrain`` so
turned."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.core import IllegalAction
from simulator.games.saga import placement
from simulator.games.saga.presentation import SagaPresentation, to_view
from tests.saga.test_placement import players_session

VIEW = SagaPresentation()


def _at_wood():  # type: ignore[no-untyped-def]
    """Scenario 1, players' set-up: the Anglo-Danes win the roll-off (2 v 5) and roll a 4 for
    the wood (no part within L of a table edge)."""
    s = players_session("s1-warlords-fury", [2, 5, 4])
    s.apply({"type": "roll_off"})
    s.apply({"type": "roll_terrain"})
    return s


def test_the_piece_being_placed_is_shown_turned_and_dragged_into_place() -> None:
    s = _at_wood()
    shown = {p.id: p for p in VIEW.pieces(s.state)}
    wood = shown["wood"]
    assert wood.shape == "tray" and wood.outline and wood.side == "anglo_danes" and wood.has_facing
    piece = s.state["set_up"]["pieces"]["wood"]
    assert len(wood.outline) == len(piece["polygon"])
    assert VIEW.drag_action(s.state, "wood", (10.0, 10.0))["type"] == "place_terrain"
    # the client turns it a quarter clockwise: the piece turns 270 degrees counter-clockwise
    turn = VIEW.rotate_action(s.state, "wood", 90.0)
    assert turn == {"type": "turn_waiting", "piece": "wood", "facing": 270.0}
    events = s.apply(turn)
    assert any(e.kind == "turn" and e.data["pieces"] == ["wood"] for e in events)
    assert s.state["terrain"] == []                            # nothing placed yet
    wood = {p.id: p for p in VIEW.pieces(s.state)}["wood"]
    assert wood.facing == 90.0
    legal = [a for a in s.legal_actions() if a["type"] == "place_terrain"]
    assert legal and all(a["facing"] == 270.0 for a in legal)
    drop = to_view(s.state, (24.0, 18.0))
    drag = VIEW.drag_action(s.state, "wood", drop)
    assert drag == {"type": "place_terrain", "piece": "wood", "at": [24.0, 18.0], "facing": 270.0}
    s.apply(drag)
    placed = s.state["terrain"][0]
    assert placed["polygon"] == placement.moved(piece, (24.0, 18.0), 270.0)["polygon"]
    # a quarter turn: the wood's width and depth swap
    before, after = np.asarray(piece["polygon"]), np.asarray(placed["polygon"])
    assert np.ptp(after, axis=0) == pytest.approx(np.ptp(before, axis=0)[::-1], abs=1e-3)
    assert "wood" not in {p.id for p in VIEW.pieces(s.state)}


def test_turning_terrain_is_refused_when_it_is_not_the_piece_being_placed() -> None:
    s = players_session("s1-warlords-fury", [2, 5, 4])
    s.apply({"type": "roll_off"})
    with pytest.raises(IllegalAction, match="only the terrain piece you are placing now") as refused:
        s.apply({"type": "turn_waiting", "piece": "wood", "facing": 90})   # before its location roll
    assert refused.value.rule == "SAGA p.49"
    assert "wood" not in {p.id for p in VIEW.pieces(s.state)}
    s.apply({"type": "roll_terrain"})
    with pytest.raises(IllegalAction, match="only the terrain piece"):
        s.apply({"type": "turn_waiting", "piece": "rocks", "facing": 90})
    with pytest.raises(IllegalAction, match="give unit or piece"):
        s.apply({"type": "turn_waiting", "facing": 90})
