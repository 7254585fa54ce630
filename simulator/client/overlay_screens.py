"""Screens that cover the board: the hotseat hand-over with its secret choice, and the
end of the game. Their buttons live in a separate pygame_gui manager drawn on top."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from simulator.client import fonts
from simulator.core.game import Action, Outcome
from simulator.core.view import SecretChoice

CURTAIN = (22, 26, 34)


def _curtain(target: pygame.Surface, title: str, lines: list[str], colour: tuple[int, int, int]) -> None:
    target.fill(CURTAIN)
    w, h = target.get_size()
    y = h // 4
    fonts.blit_centred(target, title, (w / 2, y), 54, colour, bold=True)
    y += 60
    for line in lines:
        for part in fonts.wrap(line, 28, int(w * 0.7)):
            fonts.blit_centred(target, part, (w / 2, y), 28, (225, 225, 225))
            y += 32


class Handover:
    """Hides the board until the player named by the secret choice is at the screen."""

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], choice: SecretChoice,
                 revealed: bool = False) -> None:
        self.manager = manager
        self.size = size
        self.choice = choice
        self.revealed = revealed
        self.buttons: list[tuple[UIButton, Action | None]] = []
        self._build()

    def _clear(self) -> None:
        for button, _ in self.buttons:
            button.kill()
        self.buttons = []

    def _build(self) -> None:
        self._clear()
        w, h = self.size
        if not self.revealed:
            shown = "the board" if self.private_turn else "my choice"
            b = UIButton(pygame.Rect(w // 2 - 170, h // 2 + 40, 340, 50), f"I am {self.choice.player}: show {shown}",
                         self.manager)
            self.buttons.append((b, None))
            return
        n = len(self.choice.options)
        bw = 200
        x0 = w // 2 - (n * (bw + 10)) // 2
        for i, (label, action) in enumerate(self.choice.options):
            b = UIButton(pygame.Rect(x0 + i * (bw + 10), h // 2 + 40, bw, 50), label, self.manager)
            self.buttons.append((b, action))

    def click(self, element: Any) -> Action | None:
        """A button was pressed: reveal the choice, or return the chosen action."""
        for button, action in self.buttons:
            if button is element:
                if action is None:
                    self.revealed = True
                    self._build()
                    return None
                return action
        return None

    def close(self) -> None:
        self._clear()

    @property
    def private_turn(self) -> bool:
        """A hand-over before a private phase (no options: the board itself is the choice)."""
        return not self.choice.options

    def draw(self, target: pygame.Surface) -> None:
        if not self.revealed:
            what = "plays a secret phase" if self.private_turn else "makes a secret choice"
            _curtain(target, f"Hand over to {self.choice.player}",
                     [f"{self.choice.player} {what} now.",
                      "Everybody else, please look away until it is done."], (255, 215, 110))
        else:
            _curtain(target, f"{self.choice.player}: secret choice", [self.choice.prompt], (140, 210, 255))


class EndScreen:
    """How the game ended (Session.outcome), with what to do next. With ``next_game`` (the
    name of a linked game, ``Game.next_scenario``) a *Next game* button comes first."""

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], outcome: Outcome,
                 next_game: str | None = None) -> None:
        self.outcome = outcome
        self.next_game_name = next_game
        #: Why the next game could not be built or started (shown in red).
        self.problem = ""
        w, h = size
        labels = (["Next game"] if next_game is not None else []) + ["Review the board", "New game", "Quit"]
        bw, gap = 200, 10
        x0 = w // 2 - (len(labels) * (bw + gap) - gap) // 2
        buttons = [UIButton(pygame.Rect(x0 + i * (bw + gap), h * 3 // 4, bw, 50), label, manager)
                   for i, label in enumerate(labels)]
        self.next_button: UIButton | None = buttons.pop(0) if next_game is not None else None
        self.review, self.new_game, self.quit = buttons

    def click(self, element: Any) -> str | None:
        keys = {id(self.review): "review", id(self.new_game): "new", id(self.quit): "quit"}
        if self.next_button is not None:
            keys[id(self.next_button)] = "next"
        return keys.get(id(element))

    def close(self) -> None:
        for b in (self.next_button, self.review, self.new_game, self.quit):
            if b is not None:
                b.kill()

    def draw(self, target: pygame.Surface) -> None:
        o = self.outcome
        title = f"{o.winner} wins" if o.winner else "The game is drawn"
        lines = [o.text]
        if o.level:
            lines.append(f"Level of victory: {o.level}")
        if o.scores:
            lines.append("Scores: " + ", ".join(f"{k} {v:g}" for k, v in o.scores.items()))
        if o.rule:
            lines.append(f"Decided by {o.rule}")
        if self.next_game_name:
            lines.append(f"Next game: {self.next_game_name}")
        lines.append("Undo (Ctrl+Z) after 'Review the board' takes back the last action.")
        _curtain(target, title, lines, (255, 215, 110))
        if self.problem:
            w, h = target.get_size()
            y = h * 3 // 4 + 64
            for part in fonts.wrap(self.problem, 22, int(w * 0.8)):
                fonts.blit_centred(target, part, (w / 2, y), 22, (255, 110, 100))
                y += 26
