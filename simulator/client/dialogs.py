"""Small pygame_gui dialogs: save under a name, load from the saves folder, the context
menu of a piece, and messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextEntryLine, UIWindow
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
