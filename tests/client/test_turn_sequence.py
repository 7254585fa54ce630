"""F1 shows the game's turn sequence with the current step marked (Presentation.turn_sequence)."""

from __future__ import annotations

import pygame
import pytest

from simulator.client.help import BINDINGS, draw_help
from simulator.core.session import Session


@pytest.mark.parametrize("scenario, first", [("dragon_rage/esirien-1-fury", "Invader spells"),
                                             ("vikings/sea_fight", "First naval phase"),
                                             ("saga/quickstart", "Set-up and deployment"),
                                             ("asoiaf/game-of-thrones", "Deployment")])
def test_every_game_lists_its_turn_with_one_step_marked(scenario: str, first: str) -> None:
    session = Session.new(scenario, 1)
    steps = session.game.presentation().turn_sequence(session.state_data())
    assert steps[0].name == first and len(steps) >= 3
    assert sum(step.current for step in steps) == 1
    assert all(step.rule for step in steps)


def test_the_marked_step_follows_the_game() -> None:
    session = Session.new("dragon_rage/esirien-1-fury", 1)
    presentation = session.game.presentation()
    before = [s.name for s in presentation.turn_sequence(session.state_data()) if s.current]
    session.apply({"type": "end_phase"})
    after = [s.name for s in presentation.turn_sequence(session.state_data()) if s.current]
    assert before != after and len(after) == 1


def test_the_help_draws_the_sequence_above_the_keys() -> None:
    session = Session.new("vikings/sea_fight", 1)
    steps = session.game.presentation().turn_sequence(session.state_data())
    plain, with_steps = pygame.Surface((1280, 800)), pygame.Surface((1280, 800))
    draw_help(plain, BINDINGS)
    draw_help(with_steps, BINDINGS, steps)
    assert pygame.image.tobytes(plain, "RGB") != pygame.image.tobytes(with_steps, "RGB")
