"""Small pygame_gui dialogs: save under a name, load from the saves folder, the context
menu of a piece, the Esc menu, messages, and the question before quitting (or leaving for the
scenario list) with unsaved changes."""

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


#: A menu entry that only names the kind of the entries under it (chosen, it does nothing).
HEADER_MARK = "\u2014 "
#: The look of menu rows: headings in gold on a darker band, entries left-aligned (a list of
#: labels is read from the left).
HEADING, ITEM = "#menu_heading", "#menu_item"
MENU_THEME = {
    HEADING: {"colours": {"normal_text": "#ffd27a", "normal_bg": "#2a2e36", "hovered_bg": "#2a2e36",
                          "selected_bg": "#2a2e36", "hovered_text": "#ffd27a", "selected_text": "#ffd27a"},
              "misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "6"}},
    ITEM: {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "10"}},
}


def themed(manager: pygame_gui.UIManager) -> pygame_gui.UIManager:
    """``manager`` with the menu rows' look loaded (once)."""
    if not getattr(manager, "_menu_theme", False):
        manager.get_theme().load_theme(MENU_THEME)
        manager._menu_theme = True     # type: ignore[attr-defined]
    return manager


def menu_rows(rows: list[tuple[str, Any]]) -> list[tuple[str, str]]:
    """Selection-list items: a row whose action is None is a heading, the rest entries."""
    return [(text, HEADING if action is None else ITEM) for text, action in rows]
#: Rows a menu shows before it scrolls, and its margin from the window's edges.
MENU_ROWS = 22
MENU_MARGIN = 4


def _humanised(kind: str) -> str:
    """An action type as a heading: ``fire_at_monster`` -> ``Fire at monster``."""
    text = kind.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def grouped(actions: list[tuple[str, Action]]) -> list[tuple[str, Action | None]]:
    """Menu rows: the entries of one action type together (types in the order they first come),
    each numbered, under a heading per type when there are several types."""
    order: dict[str, list[tuple[str, Action]]] = {}
    for label, action in actions:
        order.setdefault(str(action.get("type", "")), []).append((label, action))
    rows: list[tuple[str, Action | None]] = []
    n = 0
    for kind, entries in order.items():
        if len(order) > 1:
            rows.append((f"{HEADER_MARK}{_humanised(kind)}", None))
        for label, action in entries:
            n += 1
            rows.append((f"{n}. {label}", action))
    return rows


def elide(text: str, width: int, measure: Any) -> str:
    """``text`` cut at the end with an ellipsis to fit ``width`` pixels (``measure(text)`` is
    its width)."""
    if measure(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:              # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if measure(text[:mid] + "\u2026") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "\u2026"


def menu_rect(pos: tuple[int, int], size: tuple[int, int], text_width: int, rows: int, row_h: int
              ) -> pygame.Rect:
    """Where a menu goes: as wide as its longest row (up to the window), as tall as its rows
    (up to ``MENU_ROWS`` and the window; it scrolls beyond), at the cursor, inside the window."""
    w, h = size
    room = pygame.Rect(MENU_MARGIN, MENU_MARGIN, max(1, w - 2 * MENU_MARGIN), max(1, h - 2 * MENU_MARGIN))
    scrolls = rows > MENU_ROWS or rows * row_h + 8 > room.h
    width = min(room.w, max(160, text_width + 24 + (22 if scrolls else 0)))
    height = min(room.h, min(rows, MENU_ROWS) * row_h + 8)
    rect = pygame.Rect(pos[0], pos[1], width, height)
    rect.clamp_ip(room)
    return rect


class ContextMenu:
    """The legal actions of one piece, as a list at the cursor: grouped by kind, as wide as its
    longest label (up to the window; longer labels end in an ellipsis, the status line and the
    log say them whole), inside the window, scrolling when long."""

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], pos: tuple[int, int],
                 actions: list[tuple[str, Action]]) -> None:
        font = manager.get_theme().get_font(["selection_list", "#item_list_item"])
        measure = lambda text: font.size(text)[0]          # noqa: E731
        rows = grouped(actions[:300]) or [("(no legal action for this piece now)", None)]
        widest = max(measure(text) for text, _ in rows)
        self.rect = menu_rect(pos, size, widest, len(rows), 20)
        room = self.rect.w - 24 - (22 if len(rows) > MENU_ROWS or self.rect.h < len(rows) * 20 + 8 else 0)
        #: The text each row shows -> its action (None: a heading or the empty notice).
        self.actions: dict[str, Action | None] = {}
        #: The whole label of each row shown cut short.
        self.full: dict[str, str] = {}
        for text, action in rows:
            shown = elide(text, room, measure)
            self.actions[shown] = action
            if shown != text:
                self.full[shown] = text
        self.list = UISelectionList(self.rect, menu_rows(list(self.actions.items())), themed(manager),
                                    starting_height=5)

    def alive(self) -> bool:
        return self.list.alive()

    def close(self) -> None:
        self.list.kill()

    def chosen(self, event: pygame.event.Event) -> Action | None:
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.list:
            action = self.actions.get(event.text)
            if action is None:
                self.list.get_single_selection()    # a heading: nothing happens
            return action
        return None

    def contains(self, pos: tuple[int, int]) -> bool:
        return bool(self.list.rect.collidepoint(pos))


#: The entries of the Esc menu, by key.
PAUSE_ENTRIES = (("resume", "Resume"), ("save", "Save..."), ("load", "Load..."),
                 ("list", "Back to the scenario list"), ("quit", "Quit"))


class PauseMenu:
    """Esc with nothing to cancel: Resume, Save, Load, Back to the scenario list, Quit. ``note``
    says under the entries what leaving does to the game (it is autosaved); ``disabled`` entries
    are shown greyed with ``why`` as their tool tip."""

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], title: str, note: str = "",
                 disabled: dict[str, str] | None = None, back: str = "Back to the scenario list") -> None:
        w, h = size
        disabled = disabled or {}
        bh, gap = 40, 8
        note_h = 64 if note else 0
        height = 40 + len(PAUSE_ENTRIES) * (bh + gap) + note_h + 16
        self.window = UIWindow(pygame.Rect(w // 2 - 190, max(0, h // 2 - height // 2), 380, height), manager, title,
                               always_on_top=True)
        self.buttons: dict[str, UIButton] = {}
        for i, (key, text) in enumerate(PAUSE_ENTRIES):
            b = UIButton(pygame.Rect(20, 8 + i * (bh + gap), 330, bh), back if key == "list" else text, manager,
                         container=self.window, tool_tip_text=disabled.get(key))
            if key in disabled:
                b.disable()
            self.buttons[key] = b
        if note:
            UITextBox(note, pygame.Rect(10, 8 + len(PAUSE_ENTRIES) * (bh + gap), 350, note_h), manager,
                      container=self.window)

    def alive(self) -> bool:
        return self.window.alive()

    def close(self) -> None:
        self.window.kill()

    def chosen(self, event: pygame.event.Event) -> str | None:
        """The entry's key ("resume", "save", "load", "list", "quit") this event picks; Esc and
        the window's close button are "resume"."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return "resume"
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, b in self.buttons.items():
                if event.ui_element is b:
                    return key
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            return "resume"
        return None


def message(manager: pygame_gui.UIManager, size: tuple[int, int], title: str, text: str) -> Any:
    w, h = size
    return UIMessageWindow(pygame.Rect(w // 2 - 250, h // 2 - 130, 500, 260), text.replace("\n", "<br>"), manager,
                           window_title=title)


class QuitDialog:
    """Asked before quitting while the last changes are on no disk (the autosave is failing):
    save under a name, quit anyway, or stay (Esc)."""

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], problem: str, *,
                 leaving: bool = False) -> None:
        """``leaving``: asked before going back to the scenario list rather than quitting."""
        w, h = size
        self.window = UIWindow(pygame.Rect(w // 2 - 280, h // 2 - 110, 560, 215), manager,
                               "Leave without saving?" if leaving else "Quit without saving?", always_on_top=True)
        text = ("The last changes are not saved: " + (problem or "there is no autosave") +
                (".<br>Leaving now loses them." if leaving else ".<br>Quitting now loses them."))
        UITextBox(text, pygame.Rect(10, 6, 520, 110), manager, container=self.window)
        self.save = UIButton(pygame.Rect(10, 126, 160, 40), "Save as...", manager, container=self.window)
        self.quit = UIButton(pygame.Rect(180, 126, 200, 40), "Leave without saving" if leaving else
                             "Quit without saving", manager, container=self.window)
        self.stay = UIButton(pygame.Rect(390, 126, 140, 40), "Stay" if leaving else "Don't quit", manager,
                             container=self.window)

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
