"""The side panels (pygame_gui): selected unit, event log with rules, dice tray; and the
top bar with the turn/phase banner and its buttons."""

from __future__ import annotations

import html
from typing import Any, Mapping

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UILabel, UISelectionList, UITextBox

from simulator.client import fonts
from simulator.client.dicetray import draw_tray

from simulator.core.events import Event

TOP = 44
SIDE = 380
STATUS = 30
LOG_SHOWN = 300
#: The most characters of a unit-panel row (label and value) that shares its line with another.
SHORT_ROW = 16
BUTTONS = (("end_phase", "End phase"), ("undo", "Undo"), ("redo", "Redo"), ("los", "LOS"),
           ("measure", "Measure"), ("rings", "Rings"), ("save", "Save"), ("load", "Load"), ("help", "Help"))


def new_manager(size: tuple[int, int]) -> pygame_gui.UIManager:
    """A pygame_gui manager with the bold and italic fonts the panels use loaded up front."""
    manager = pygame_gui.UIManager(size)
    manager.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": style, "antialiased": "1"}
                           for style in ("bold", "italic")])
    return manager


def label_of(key: str) -> str:
    """A stat's name as a player reads it: ``wounds_left`` -> ``Wounds left``."""
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def value_lines(value: Any) -> list[str]:
    """A stat's value in words, one line per item: yes/no, numbers without stray decimals,
    lists written out, an ability by its name and whether the engine applies it.

    >>> value_lines(False), value_lines([]), value_lines(2.50), value_lines(["a", "b"])
    (['no'], ['none'], ['2.5'], ['a', 'b'])
    >>> value_lines([{"name": "Precision", "automated": True, "rule": "7.4"}])
    ['Precision (applied, 7.4)']
    >>> value_lines({"name": "Regroup", "automated": False, "rule": "not automated: no text"})
    ['Regroup (not applied: no text)']
    >>> value_lines({"hull": 3, "oars": 0})
    ['hull 3, oars 0']
    """
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    if value is None:
        return ["-"]
    if isinstance(value, float):
        return [f"{value:.2f}".rstrip("0").rstrip(".")]
    if isinstance(value, (list, tuple)):
        lines = [line for item in value for line in value_lines(item)]
        return lines or ["none"]
    if isinstance(value, Mapping):
        if not value:
            return ["none"]
        if "name" in value:
            name = str(value["name"])
            if "automated" in value:
                rule = str(value.get("rule", ""))
                if value["automated"]:
                    return [f"{name} (applied{', ' + rule if rule else ''})"]
                why = rule.split(":", 1)[1].strip() if rule.startswith("not automated") and ":" in rule else rule
                return [f"{name} (not applied{': ' + why if why else ''})"]
            return [name]
        return [", ".join(f"{label_of(k).lower()} {' / '.join(value_lines(v))}" for k, v in value.items())]
    return [str(value)]


def stat_rows(stats: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """The rows of the unit panel below the name: a label and the value's lines."""
    return [(label_of(k), value_lines(v)) for k, v in stats.items() if k != "name"]


def banner_layout(text: str, width: int, height: int) -> tuple[int, list[str]]:
    """The font size and lines that fit ``text`` in the top bar's ``width`` x ``height``:
    one line if it fits at a readable size, else two (wrapped), smaller if need be, and the
    last line shortened with "..." only when even the smallest size cannot hold it."""
    for size in (26, 24, 22, 20):
        if fonts.font(size).size(text)[0] <= width:
            return size, [text]
    for size in (24, 22, 20, 18, 16):
        lines = fonts.wrap(text, size, width)
        if len(lines) * fonts.font(size).get_linesize() <= height and all(fonts.font(size).size(line)[0] <= width for line in lines):
            return size, lines
    size = 16
    lines = fonts.wrap(text, size, width)[: max(1, height // fonts.font(size).get_linesize())]
    last = lines[-1]
    while last and fonts.font(size).size(last + "...")[0] > width:
        last = last[:-1]
    return size, lines[:-1] + [last.rstrip() + "..."]


def draw_banner(size: tuple[int, int], text: str) -> pygame.Surface:
    """The turn/phase banner as a picture: never cut off, never under the buttons."""
    w, h = size
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    font_size, lines = banner_layout(text, w - 4, h)
    step = fonts.font(font_size).get_linesize()
    y = (h - step * len(lines)) // 2
    for line in lines:
        surf.blit(fonts.text(line, font_size, (236, 234, 226)), (2, y))
        y += step
    return surf


def board_rect(size: tuple[int, int]) -> pygame.Rect:
    w, h = size
    return pygame.Rect(0, TOP, max(50, w - SIDE), max(50, h - TOP - STATUS))


class Panels:
    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int]) -> None:
        w, h = size
        self.manager = manager
        bw = 76
        right = w - len(BUTTONS) * (bw + 4) - 4
        self._banner_rect = pygame.Rect(8, 3, max(100, right - 12), TOP - 6)
        self.banner_text = ""
        self.banner = UIImage(self._banner_rect, draw_banner(self._banner_rect.size, ""), manager)
        self.buttons: dict[str, UIButton] = {}
        for i, (key, text) in enumerate(BUTTONS):
            self.buttons[key] = UIButton(pygame.Rect(right + i * (bw + 4), 6, bw, TOP - 12), text, manager)
        x = w - SIDE + 6
        inner = SIDE - 12
        avail = h - TOP - STATUS - 8
        # the unit panel holds a typical unit (a dozen rows) without scrolling at 1280x800
        stats_h = int(avail * 0.40)
        dice_h = int(avail * 0.22)
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
        if self.banner_text != text:
            self.banner_text = text
            self.banner.set_image(draw_banner(self._banner_rect.size, text))

    def set_stats(self, stats: Mapping[str, Any] | None) -> None:
        key = tuple((str(k), str(v)) for k, v in (stats or {}).items())
        if key == self._stats_key:
            return
        self._stats_key = key
        if not stats:
            self.stats.set_text("<i>No piece selected.</i><br>Click a piece to see its state; F1 for help.")
            return
        rows = [f"<b>{html.escape(str(stats.get('name', '')))}</b>"]
        short: list[str] = []          # short values go two to a line, so a unit fits unscrolled
        for label, lines in stat_rows(stats):
            if len(lines) == 1 and len(label) + len(lines[0]) <= SHORT_ROW:
                short.append(f"{html.escape(label)}: <b>{html.escape(lines[0])}</b>")
                if len(short) == 2:
                    rows.append("&#160;&#160;&#160;&#160;".join(short))
                    short = []
                continue
            rows += short
            short = []
            if len(lines) == 1:
                rows.append(f"{html.escape(label)}: <b>{html.escape(lines[0])}</b>")
            else:
                rows.append(f"{html.escape(label)}:")
                rows += [f"&#160;&#160;- {html.escape(line)}" for line in lines]
        rows += short
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
