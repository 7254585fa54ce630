"""Every shipped scenario, set-up included, played through its first turn by two random players:
no rules-engine gap leaves a side without a legal action (a game stuck there could not be
finished by anyone, in the client either). The full-length version of this sweep, over many
seeds, is the stress run of docs/ai.md."""

from __future__ import annotations

import pytest

from simulator.ai.match import play_match, with_turns
from simulator.ai.players import make_player
from simulator.core import Session
from simulator.core.scenario import list_scenarios


@pytest.mark.parametrize("scenario", [sid for sid, _ in list_scenarios()])
def test_random_players_finish_the_first_turn(scenario: str) -> None:
    sc = with_turns(scenario, 1)
    probe = Session.new(sc, 3)
    sides = probe.game.players(probe.state_data())
    players = {side: make_player("random", 11 + i) for i, side in enumerate(sides)}
    session, result = play_match(sc, players, seed=3, max_actions=4000)
    assert not result.cut_off, result.cut_off
    assert result.finished and session.outcome() is not None
