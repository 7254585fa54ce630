"""The side panels under the board (``Presentation.side_panels``): a SAGA battle board, a hand
of cards, a box of pieces waiting off the map, a chooser. One panel shows at a time, with a tab
per panel; clicking the shown tab folds the panel away or opens it again.

The panel knows no game. It draws each slot as a small card (its name, what it does, what it
holds) and turns the mouse into requests the game scene carries out:

- a click on a slot or on a thing in it: the game's ``panel_actions`` for it (one is applied at
  once, several make a menu);
- a thing dragged onto another slot: the game's ``panel_drop``;
- a waiting piece dragged out onto the board: that piece's ordinary drag (``drag_action``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

import pygame

from simulator.client import art, fonts
from simulator.core.view import PanelItem, PanelSlot, SidePanel

TAB_H = 26
SLOT_W = 150
SLOT_H = 66
GAP = 4
ITEM = 22
#: The text size of a card's or a waiting piece's chip.
CHIP = 15
#: The room kept for "+n" when a slot holds more than it can show.
MORE_W = 28
#: The most of the board's height the open panel takes.
MOST = 0.42

BG = (24, 27, 33)
CARD = (44, 48, 58)
CARD_HOT = (62, 68, 82)
EDGE = (90, 96, 110)
INK = (236, 234, 226)
DIM = (165, 170, 180)
GOLD = (255, 215, 110)


@dataclass(frozen=True)
class Hit:
    """What the pointer is on: a tab, or a slot of the shown panel and maybe a thing in it."""

    panel: str
    slot: str | None = None
    item: str | None = None
    tab: bool = False


@dataclass(frozen=True)
class Request:
    """What a gesture on the panel asks of the game scene."""

    kind: str                       # "click" (slot/item), "drop" (item onto slot), "piece" (onto the board)
    panel: str
    slot: str | None = None
    item: str | None = None
    target_slot: str | None = None
    piece: str | None = None
    pos: tuple[int, int] = (0, 0)
    label: str = ""


class SidePanelView:
    """Lays out, draws and hit-tests the side panels in the bottom part of the board area."""

    def __init__(self) -> None:
        self.panels: tuple[SidePanel, ...] = ()
        self.shown: str | None = None
        self.folded = False
        self.area = pygame.Rect(0, 0, 0, 0)         # the whole board area given to board + panel
        self.rect = pygame.Rect(0, 0, 0, 0)         # the panel's part of it
        self._slots: dict[str, pygame.Rect] = {}
        self._items: dict[str, tuple[str, pygame.Rect]] = {}
        self._tabs: dict[str, pygame.Rect] = {}
        #: Slots holding more than they have room for: how many are not drawn, and where "+n" goes.
        self._more: dict[str, tuple[int, pygame.Rect]] = {}
        self.press: tuple[Hit, tuple[int, int]] | None = None
        self.pointer: tuple[int, int] = (0, 0)

    # -- state ------------------------------------------------------------------------------
    def set_panels(self, panels: Sequence[SidePanel], active: str | None) -> None:
        """The panels to show now; the active player's panel is shown when the shown one goes."""
        old_ids = [p.id for p in self.panels]
        self.panels = tuple(panels)
        ids = [p.id for p in self.panels]
        choosers = [p.id for p in self.panels if p.kind == "chooser" and p.id not in old_ids]
        if choosers:                          # a choice to make now comes to the front, open
            self.shown, self.folded = choosers[0], False
        elif self.shown not in ids or (ids != old_ids and active is not None):
            mine = [p.id for p in self.panels if p.owner == active]
            self.shown = (mine or ids or [None])[0]
        self.layout(self.area)

    def panel(self) -> SidePanel | None:
        return next((p for p in self.panels if p.id == self.shown), None)

    def board_rect(self, area: pygame.Rect) -> pygame.Rect:
        """What is left of ``area`` for the board once the panel has its part."""
        if area != self.area:
            self.layout(area)
        if not self.panels:
            return area.copy()
        return pygame.Rect(area.x, area.y, area.w, max(60, self.rect.y - area.y))

    def layout(self, area: pygame.Rect) -> None:
        self.area = area.copy()
        self._slots, self._items, self._tabs = {}, {}, {}
        self._more = {}
        if not self.panels:
            self.rect = pygame.Rect(area.x, area.bottom, area.w, 0)
            return
        panel = self.panel()
        cols = max(1, (area.w - GAP) // (SLOT_W + GAP))
        slots = panel.slots if panel is not None and not self.folded else ()
        rows = -(-len(slots) // cols) if slots else 0
        height = TAB_H + (rows * (SLOT_H + GAP) + GAP if rows else 0)
        height = min(height, int(area.h * MOST))
        self.rect = pygame.Rect(area.x, area.bottom - height, area.w, height)
        x = self.rect.x + GAP
        for p in self.panels:
            w = min(area.w // max(1, len(self.panels)) - GAP, 420, fonts.font(18, True).size(p.title)[0] + 24)
            self._tabs[p.id] = pygame.Rect(x, self.rect.y + 2, w, TAB_H - 4)
            x += w + GAP
        width = (area.w - GAP) // cols - GAP
        for k, slot in enumerate(slots):
            r, c = divmod(k, cols)
            rect = pygame.Rect(self.rect.x + GAP + c * (width + GAP), self.rect.y + TAB_H + GAP + r * (SLOT_H + GAP),
                               width, SLOT_H)
            if rect.bottom > self.rect.bottom:
                break
            self._slots[slot.id] = rect
            ix = rect.x + 4
            for k, item in enumerate(slot.contents):
                w = ITEM if item.die or item.hidden else max(ITEM, fonts.font(CHIP).size(item.label)[0] + 10)
                room = rect.right - 2 - (MORE_W if k + 1 < len(slot.contents) else 0)
                if ix + w > room:
                    self._more[slot.id] = (len(slot.contents) - k, pygame.Rect(ix, rect.bottom - ITEM - 4, MORE_W, ITEM))
                    break
                self._items[item.id] = (slot.id, pygame.Rect(ix, rect.bottom - ITEM - 4, w, ITEM))
                ix += w + 3

    # -- pointer ----------------------------------------------------------------------------
    def contains(self, pos: tuple[int, int]) -> bool:
        return bool(self.panels) and self.rect.collidepoint(pos)

    def hit(self, pos: tuple[int, int]) -> Hit | None:
        if not self.contains(pos) or self.shown is None:
            return None
        for pid, rect in self._tabs.items():
            if rect.collidepoint(pos):
                return Hit(pid, tab=True)
        for iid, (sid, rect) in self._items.items():
            if rect.collidepoint(pos):
                return Hit(self.shown, sid, iid)
        for sid, rect in self._slots.items():
            if rect.collidepoint(pos):
                return Hit(self.shown, sid)
        return Hit(self.shown)

    def _item(self, iid: str | None) -> PanelItem | None:
        panel = self.panel()
        if panel is None or iid is None:
            return None
        return next((i for s in panel.slots for i in s.contents if i.id == iid), None)

    def _slot(self, sid: str | None) -> PanelSlot | None:
        panel = self.panel()
        return next((s for s in panel.slots if s.id == sid), None) if panel is not None and sid else None

    def handle(self, event: pygame.event.Event) -> Request | None | bool:
        """A mouse event over the panel (or a drag begun on it): a :class:`Request`, True when the
        panel used the event for itself (a tab, the start of a drag), None when it is not the
        panel's."""
        if event.type == pygame.MOUSEMOTION:
            self.pointer = event.pos
            return True if self.press is not None else None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hit = self.hit(event.pos)
            if hit is None:
                return None
            if hit.tab:
                if hit.panel == self.shown:
                    self.folded = not self.folded
                else:
                    self.shown, self.folded = hit.panel, False
                self.layout(self.area)
                return True
            self.press = (hit, event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.press is not None:
            start, at = self.press
            self.press = None
            moved = abs(event.pos[0] - at[0]) + abs(event.pos[1] - at[1]) > 6
            if not moved:
                if start.slot is None:
                    return True
                return Request("click", start.panel, start.slot, start.item, pos=event.pos,
                               label=self._describe(start))
            if start.item is None:
                return True
            end = self.hit(event.pos)
            item = self._item(start.item)
            if end is None:
                if item is not None and item.piece:
                    return Request("piece", start.panel, start.slot, start.item, piece=item.piece, pos=event.pos)
                return Request("click", start.panel, start.slot, start.item, pos=event.pos,
                               label="dropped off the panel")
            if end.slot is None or end.slot == start.slot:
                return True
            return Request("drop", start.panel, start.slot, start.item, end.slot, pos=event.pos,
                           label=self._describe(start))
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL) \
                and self.contains(getattr(event, "pos", pygame.mouse.get_pos())):
            return True                     # the board must not zoom or pan under the panel
        return None

    def _describe(self, hit: Hit) -> str:
        item, slot = self._item(hit.item), self._slot(hit.slot)
        if item is not None and item.label:
            return f"{item.label} ({slot.label})" if slot is not None else item.label
        return slot.label if slot is not None else ""

    # -- drawing ----------------------------------------------------------------------------
    def draw(self, target: pygame.Surface) -> None:
        if not self.panels:
            return
        target.fill(BG, self.rect)
        pygame.draw.line(target, EDGE, self.rect.topleft, self.rect.topright, 2)
        for p in self.panels:
            rect = self._tabs.get(p.id)
            if rect is None:
                continue
            on = p.id == self.shown
            pygame.draw.rect(target, CARD_HOT if on else CARD, rect, border_radius=5)
            if on:
                pygame.draw.rect(target, GOLD, rect, 1, border_radius=5)
            mark = " ^" if on and self.folded else ""
            title = _fit(p.title + mark, 18, rect.w - 16, bold=on)
            target.blit(fonts.text(title, 18, GOLD if on else DIM, on), (rect.x + 8, rect.y + 4))
        panel = self.panel()
        if panel is None or self.folded:
            return
        hover = self.hit(self.pointer)
        dragging = self.press[0].item if self.press is not None else None
        for slot in panel.slots:
            rect = self._slots.get(slot.id)
            if rect is None:
                continue
            hot = hover is not None and hover.slot == slot.id
            pygame.draw.rect(target, CARD_HOT if hot else CARD, rect, border_radius=4)
            pygame.draw.rect(target, GOLD if hot and dragging else EDGE, rect, 1, border_radius=4)
            name = _fit(slot.label, 17, rect.w - 8, bold=True)
            target.blit(fonts.text(name, 17, INK, True), (rect.x + 4, rect.y + 3))
            if slot.detail:
                lines = fonts.wrap(slot.detail, 15, rect.w - 8)
                room = 2 if slot.contents else 3          # the last row is the slot's dice or cards
                if len(lines) > room:
                    lines = lines[: room - 1] + [_fit(" ".join(lines[room - 1:]), 15, rect.w - 8)]
                step = fonts.font(15).get_linesize()
                for k, line in enumerate(lines):
                    target.blit(fonts.text(_fit(line, 15, rect.w - 8), 15, DIM), (rect.x + 4, rect.y + 18 + k * step))
            for item in slot.contents:
                placed = self._items.get(item.id)
                if placed is None:
                    continue
                self._draw_item(target, item, placed[1], faded=item.id == dragging)
            if slot.id in self._more:
                count, where = self._more[slot.id]
                fonts.blit_centred(target, f"+{count}", where.center, CHIP, GOLD, True)
        if dragging is not None and self.press is not None:
            item = self._item(dragging)
            if item is not None:
                size = self._items[dragging][1].size if dragging in self._items else (ITEM, ITEM)
                self._draw_item(target, item, pygame.Rect(self.pointer[0] - size[0] // 2, self.pointer[1] - size[1] // 2,
                                                          *size))
        elif hover is not None and hover.slot is not None:
            slot = self._slot(hover.slot)
            if slot is not None and slot.detail:
                _tooltip(target, slot.label + ": " + slot.detail, self.pointer, self.rect)

    @staticmethod
    def _draw_item(target: pygame.Surface, item: PanelItem, rect: pygame.Rect, faded: bool = False) -> None:
        if item.hidden:
            pygame.draw.rect(target, (70, 60, 50), rect, border_radius=4)
            fonts.blit_centred(target, "?", rect.center, 18, INK, True)
        elif item.die:
            face = art.die_face(item.die, item.face, rect.w)
            if faded:
                face = face.copy()
                face.set_alpha(90)
            target.blit(face, rect)
        else:
            colour = item.colour or (210, 200, 170)
            pygame.draw.rect(target, colour, rect, border_radius=3)
            pygame.draw.rect(target, (20, 20, 20), rect, 1, border_radius=3)
            ink = (20, 20, 20) if sum(colour) > 380 else (245, 245, 240)
            fonts.blit_centred(target, item.label or "?", rect.center, CHIP, ink, True)


@functools.lru_cache(maxsize=4096)    # every frame asks again for the same labels
def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` shortened with "..." to ``width`` pixels."""
    f = fonts.font(size, bold)
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "...")[0] > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _tooltip(target: pygame.Surface, text: str, pos: tuple[int, int], inside: pygame.Rect) -> None:
    lines = fonts.wrap(text, 17, 360)
    step = fonts.font(17).get_linesize()
    box = pygame.Rect(0, 0, 372, step * len(lines) + 10)
    # above the panel, over the board's edge: it never hides the slots or the dice
    box.bottomleft = (pos[0] + 12, inside.y - 4)
    box.clamp_ip(target.get_rect())
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((12, 14, 18, 235))
    target.blit(shade, box)
    pygame.draw.rect(target, GOLD, box, 1, border_radius=4)
    for k, line in enumerate(lines):
        target.blit(fonts.text(line, 17, INK), (box.x + 6, box.y + 5 + k * step))
