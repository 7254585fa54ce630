"""Small pygame_gui dialogs: save under a name, load from the saves folder, the context
menu of a piece, messages, and the question before quitting with unsaved changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextBox, UITextEntryLine, UIWindow
from pygame_gui.windows import UIMessageWindow

from simulator.client import paths
from simulator.core.game import Action


class SaveDialog:
    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], default: str) -> None:
        w, h = size
        self.window = UIWindow(pygame.Rect(w // 2 - 220, h // 2 - 100, 440, 190), manager, "Save the game")
        UILabel(pygame.Rect(10, 6, 400, 24), "Name of the save:", manager, container=self.window)
        self.entry = UITextEntryLine(pygame.Rect(10, 34, 400, 34), manager, container=self.window)
        self.entry.set_text(default)
        self.entry.focus()
        self.ok = UIButton(pygame.Rect(10, 80, 120, 36), "Save", manager, container=self.window)

    def alive(self) -> bool:
        return self.window.alive()

    def close(self) -> None:
        self.window.kill()

    def submitted(self, event: pygame.event.Event) -> str | None:
        """The name to save under, if this event confirms the dialog."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.ok:
            return self.entry.get_text()
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            return self.entry.get_text()
        return None


class LoadDialog:
    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int]) -> None:
        w, h = size
        self.files = paths.list_saves()
        self.window = UIWindow(pygame.Rect(w // 2 - 260, h // 2 - 220, 520, 440), manager, "Load a game")
        names = [p.name for p in self.files] or []
        UILabel(pygame.Rect(10, 6, 480, 24), f"Saves in {paths.saves_dir()}" if names else "No saves yet.", manager,
                container=self.window)
        self.list = UISelectionList(pygame.Rect(10, 34, 480, 290), names, manager, container=self.window)
        self.ok = UIButton(pygame.Rect(10, 334, 120, 36), "Load", manager, container=self.window)

    def alive(self) -> bool:
        return self.window.alive()

    def close(self) -> None:
        self.window.kill()

    def chosen(self, event: pygame.event.Event) -> Path | None:
        pick = None
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.ok:
            pick = self.list.get_single_selection()
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION and event.ui_element is self.list:
            pick = event.text
        if pick:
            return paths.saves_dir() / pick
        return None


class ContextMenu:
    """The legal actions of one piece, as a list at the cursor."""

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], pos: tuple[int, int],
                 actions: list[tuple[str, Action]]) -> None:
        self.actions = {f"{i + 1}. {label}": action for i, (label, action) in enumerate(actions[:300])}
        rows = max(1, len(self.actions))
        h = min(400, 20 * rows + 8)
        rect = pygame.Rect(pos[0], pos[1], 300, h)
        rect.clamp_ip(pygame.Rect(0, 0, *size))
        self.list = UISelectionList(rect, list(self.actions) or ["(no legal action for this piece now)"], manager,
                                    starting_height=5)

    def alive(self) -> bool:
        return self.list.alive()

    def close(self) -> None:
        self.list.kill()

    def chosen(self, event: pygame.event.Event) -> Action | None:
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.list:
            return self.actions.get(event.text)
        return None

    def contains(self, pos: tuple[int, int]) -> bool:
        return bool(self.list.rect.collidepoint(pos))


def message(manager: pygame_gui.UIManager, size: tuple[int, int], title: str, text: str) -> Any:
    w, h = size
    return UIMessageWindow(pygame.Rect(w // 2 - 250, h // 2 - 130, 500, 260), text.replace("\n", "<br>"), manager,
                           window_title=title)


class QuitDialog:
    """Asked before quitting while the last changes are on no disk (the autosave is failing):
    save under a name, quit anyway, or stay (Esc)."""

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], problem: str) -> None:
        w, h = size
        self.window = UIWindow(pygame.Rect(w // 2 - 280, h // 2 - 110, 560, 215), manager, "Quit without saving?",
                               always_on_top=True)
        text = ("The last changes are not saved: " + (problem or "there is no autosave") +
                ".<br>Quitting now loses them.")
        UITextBox(text, pygame.Rect(10, 6, 520, 110), manager, container=self.window)
        self.save = UIButton(pygame.Rect(10, 126, 160, 40), "Save as...", manager, container=self.window)
        self.quit = UIButton(pygame.Rect(180, 126, 200, 40), "Quit without saving", manager, container=self.window)
        self.stay = UIButton(pygame.Rect(390, 126, 140, 40), "Don't quit", manager, container=self.window)

    def alive(self) -> bool:
        return self.window.alive()

    def close(self) -> None:
        self.window.kill()

    def chosen(self, event: pygame.event.Event) -> str | None:
        """"save", "quit" or "stay" when this event answers the question."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return "stay"
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for name in ("save", "quit", "stay"):
                if event.ui_element is getattr(self, name):
                    return name
        return None
