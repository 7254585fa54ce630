"""The side panels (pygame_gui): selected unit, event log with rules, dice tray; and the
top bar with the turn/phase banner and its buttons."""

from __future__ import annotations

import html
from typing import Any, Mapping

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UILabel, UISelectionList, UITextBox

from simulator.client.dicetray import draw_tray

from simulator.core.events import Event

TOP = 44
SIDE = 380
STATUS = 30
LOG_SHOWN = 300
BUTTONS = (("end_phase", "End phase"), ("undo", "Undo"), ("redo", "Redo"), ("los", "LOS"),
           ("measure", "Measure"), ("rings", "Rings"), ("save", "Save"), ("load", "Load"), ("help", "Help"))


def new_manager(size: tuple[int, int]) -> pygame_gui.UIManager:
    """A pygame_gui manager with the bold and italic fonts the panels use loaded up front."""
    manager = pygame_gui.UIManager(size)
    manager.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": style, "antialiased": "1"}
                           for style in ("bold", "italic")])
    return manager


def board_rect(size: tuple[int, int]) -> pygame.Rect:
    w, h = size
    return pygame.Rect(0, TOP, max(50, w - SIDE), max(50, h - TOP - STATUS))


class Panels:
    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int]) -> None:
        w, h = size
        self.manager = manager
        bw = 76
        right = w - len(BUTTONS) * (bw + 4) - 4
        self.banner = UILabel(pygame.Rect(8, 6, max(100, right - 12), TOP - 12), "", manager)
        self.buttons: dict[str, UIButton] = {}
        for i, (key, text) in enumerate(BUTTONS):
            self.buttons[key] = UIButton(pygame.Rect(right + i * (bw + 4), 6, bw, TOP - 12), text, manager)
        x = w - SIDE + 6
        inner = SIDE - 12
        avail = h - TOP - STATUS - 8
        stats_h = int(avail * 0.26)
        dice_h = int(avail * 0.24)
        log_h = avail - stats_h - dice_h - 2 * 24
        y = TOP + 4
        self.stats = UITextBox("", pygame.Rect(x, y, inner, stats_h), manager)
        y += stats_h
        UILabel(pygame.Rect(x, y, inner, 24), "Event log (click: show its pieces)", manager)
        y += 24
        self.log = UISelectionList(pygame.Rect(x, y, inner, log_h), [], manager)
        y += log_h
        UILabel(pygame.Rect(x, y, inner, 24), "Dice tray", manager)
        y += 24
        self._dice_rect = pygame.Rect(x, y, inner, dice_h)
        self.dice = UIImage(self._dice_rect, draw_tray(self._dice_rect.size, []), manager)
        self._log_events: list[Event] = []
        self._log_len = -1
        self._stats_key: Any = None

    def set_banner(self, text: str) -> None:
        if self.banner.text != text:
            self.banner.set_text(text)

    def set_stats(self, stats: Mapping[str, Any] | None) -> None:
        key = tuple((str(k), str(v)) for k, v in (stats or {}).items())
        if key == self._stats_key:
            return
        self._stats_key = key
        if not stats:
            self.stats.set_text("<i>No piece selected.</i><br>Click a piece to see its state; F1 for help.")
            return
        rows = [f"<b>{html.escape(str(stats.get('name', '')))}</b>"]
        rows += [f"{html.escape(str(k))}: <b>{html.escape(str(v))}</b>" for k, v in stats.items() if k != "name"]
        self.stats.set_text("<br>".join(rows))

    def set_log(self, log: list[Event]) -> None:
        """The event log, newest first; dice go to the dice tray."""
        if len(log) == self._log_len:
            return
        self._log_len = len(log)
        shown = [(i, e) for i, e in enumerate(log) if e.kind != "dice"][-LOG_SHOWN:]
        self._log_events = log
        items = [f"{i + 1}. {e.text}" + (f"  [{e.rule}]" if e.rule else "") for i, e in reversed(shown)]
        self.log.set_item_list(items)
        # the last few hundred events hold every roll the tray has room for
        self.dice.set_image(draw_tray(self._dice_rect.size, log[-400:]))

    def event_for(self, item_text: str) -> Event | None:
        """The event of a clicked log line (lines start with the event's number)."""
        head = item_text.split(".", 1)[0]
        if head.isdigit() and 0 < int(head) <= len(self._log_events):
            return self._log_events[int(head) - 1]
        return None

    def button_key(self, element: object) -> str | None:
        for key, button in self.buttons.items():
            if button is element:
                return key
        return None
