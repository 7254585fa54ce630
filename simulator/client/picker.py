"""The scenario picker: scenarios grouped by game with their descriptions, and the
offer to resume the autosaved game."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextBox

from simulator.client import fonts, paths
from simulator.client.panels import new_manager
from simulator.core.errors import DataError
from simulator.core.registry import get_game
from simulator.core.scenario import Scenario, list_scenarios, load_scenario


class PickerHost(Protocol):
    def start(self, scenario: Scenario) -> None: ...
    def resume(self, path: Path) -> None: ...
    def quit(self) -> None: ...


class PickerScene:
    def __init__(self, host: PickerHost, size: tuple[int, int],
                 scenarios: list[tuple[str, Path]] | None = None, notice: str = "") -> None:
        self.host = host
        self.size = size
        self.ui = new_manager(size)
        self.entries: dict[str, Scenario | str] = {}
        for sid, path in (scenarios if scenarios is not None else list_scenarios()):
            try:
                sc = load_scenario(path)
                try:
                    game = get_game(sc.game).name
                except DataError:
                    game = sc.game
                self.entries[f"{game}: {sc.name}"] = sc
            except DataError as exc:
                self.entries[f"(broken) {sid}"] = str(exc)
        w, h = size
        UILabel(pygame.Rect(20, 16, w - 40, 36), "Choose a scenario", self.ui)
        names = sorted(self.entries)
        self.list = UISelectionList(pygame.Rect(20, 60, w // 2 - 30, h - 150), names, self.ui)
        self.about = UITextBox("<i>Pick a scenario on the left to read about it.</i>",
                               pygame.Rect(w // 2 + 10, 60, w // 2 - 30, h - 150), self.ui)
        self.start_button = UIButton(pygame.Rect(20, h - 76, 200, 50), "Start", self.ui)
        self.start_button.disable()
        self.autosave = paths.autosave_path()
        self.resume_button = UIButton(pygame.Rect(240, h - 76, 320, 50), "Resume the autosaved game", self.ui)
        if not self.autosave.exists():
            self.resume_button.disable()
        self.quit_button = UIButton(pygame.Rect(w - 160, h - 76, 140, 50), "Quit", self.ui)
        self.notice = notice or ("" if names else "No scenarios found under scenarios/.")
        self.chosen: Scenario | None = None

    def handle(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.list:
            entry = self.entries.get(event.text)
            if isinstance(entry, Scenario):
                self.chosen = entry
                self.about.set_text(f"<b>{html.escape(entry.name)}</b><br><br>{html.escape(entry.description)}")
                self.start_button.enable()
            else:
                self.chosen = None
                self.about.set_text(f"<b>This scenario cannot be loaded:</b><br>{html.escape(str(entry))}")
                self.start_button.disable()
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION and self.chosen is not None:
            self.host.start(self.chosen)
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.start_button and self.chosen is not None:
                self.host.start(self.chosen)
            elif event.ui_element is self.resume_button:
                self.host.resume(self.autosave)
            elif event.ui_element is self.quit_button:
                self.host.quit()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN and self.chosen is not None:
            self.host.start(self.chosen)

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, screen: pygame.Surface) -> None:
        screen.fill((28, 31, 37))
        self.ui.draw_ui(screen)
        if self.notice:
            fonts.blit_boxed(screen, self.notice, (20, self.size[1] - 20), 20, (255, 190, 120), anchor="bottomleft")
