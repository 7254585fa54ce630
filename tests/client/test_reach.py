"""`simulator reach`: every legal action is offered by a gesture of the window (the gesture layer
the window builds its menus, drags and panels from), checked here on short seeded games."""

from __future__ import annotations

import pytest

from simulator import cli
from simulator.client.gestures import gestures, unreached
from simulator.client.reach import cover_game, report
from simulator.core.session import Session


#: Scenarios whose first actions hold the gestures least often met: off-map entries, set-up rolls
#: and choices, battle boards, hands and the Tactics board, secret speeds.
SAMPLES = {"dragon_rage": ("dragon_rage/nurkott-3-dragons", "dragon_rage/esirien-2-horde"),
           "vikings": ("vikings/sea_fight", "vikings/village_raid"),
           "saga": ("saga/quickstart", "saga/s1-warlords-fury-choose-deploy"),
           "asoiaf": ("asoiaf/game-of-thrones", "asoiaf/here-we-stand")}


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_every_legal_action_has_a_gesture(game: str) -> None:
    result = cover_game(game, actions=40, seed=3, drags=False, scenarios=SAMPLES[game])
    assert result.legal > 0
    assert result.reached == result.legal, "\n".join(report([result]))


def test_drags_on_hexes_reach_moves_and_the_to_do_list_is_last() -> None:
    session = Session.new("dragon_rage/esirien-1-fury", 1)
    session.apply({"type": "end_phase"})                         # to the invader's movement
    presentation = session.game.presentation()
    state = session.view(session.active_player())
    offered = gestures(presentation, state, session.legal_actions())
    drags = [g for g in offered if g.kind == "drag"]
    assert drags and all(session.check(g.action) is None for g in drags)
    assert not unreached(session.legal_actions(), offered)
    assert not any(g.source.startswith("to-do-now") for g in offered)   # every action has a better gesture


def test_the_command_reports_per_game_and_refuses_an_unknown_game(capsys) -> None:
    assert cli.main(["reach", "vikings", "--actions", "12", "--no-drags"]) == 0
    out = capsys.readouterr().out
    assert "vikings: reachable: " in out and out.strip().splitlines()[-1].startswith("all games: ")
    assert cli.main(["reach", "chess"]) == 2
