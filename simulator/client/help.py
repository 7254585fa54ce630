"""Every key and mouse action, for the F1 overlay (and kept in step with docs/client.md)."""

from __future__ import annotations

from typing import Sequence

import pygame

from simulator.client import fonts
from simulator.core.view import TurnStep

BINDINGS: tuple[tuple[str, str], ...] = (
    ("Left click", "select a piece (click empty board to clear)"),
    ("Left drag a piece", "move it: legal destinations light up; drop to propose the move"),
    ("Right click a piece", "menu of the piece's legal actions"),
    ("Right or middle drag", "pan the board"),
    ("Mouse wheel", "zoom at the cursor"),
    ("Shift + wheel", "turn the selected piece"),
    ("Q / E", "turn the selected piece left / right (60 deg on hexes, 15 deg on tables)"),
    ("Enter (or a click)", "confirm a turn; Esc cancels it"),
    ("Arrow keys", "pan the board"),
    ("+ / -", "zoom in / out"),
    ("F", "fit the whole board in the window"),
    ("Tab", "select the next piece that can act"),
    ("L", "line-of-sight tool: click one end, then the other"),
    ("M", "measuring tape: click one end, then the other"),
    ("R", "range rings around the selected piece"),
    ("H", "hex labels on / off"),
    ("G", "inch grid on / off (tables)"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("Ctrl+S / Ctrl+O", "save / load (saves folder)"),
    ("Ctrl+Enter", "end the phase (as the banner's button)"),
    ("Click a log entry", "highlight the pieces of that event"),
    ("Esc", "cancel the current tool, turn or drag; close a dialog; else the menu (Save, Load, list, Quit)"),
    ("F1", "this help (F1 or Esc closes it)"),
    ("Ctrl+Q", "quit (the game is autosaved after every action)"),
)


SOLO_BINDINGS: tuple[tuple[str, str], ...] = (
    ("Ctrl+Z (solo)", "take back your last move and the computer's reply"),
)

DEMO_BINDINGS: tuple[tuple[str, str], ...] = (
    ("Right / Space / Next", "next step (applies the next action)"),
    ("Left / Backspace / Previous", "previous step (takes the action back)"),
    ("Home / Restart", "back to the start"),
    ("End", "jump to the last step"),
    ("Left click", "select a piece: its state shows under the caption"),
    ("Right or middle drag", "pan the board"),
    ("Mouse wheel, + / -", "zoom; F fits the whole board"),
    ("L / M / R / H / G", "line of sight, measure, range rings, hex labels, grid"),
    ("Esc", "cancel the current tool; else the menu (Save this position, Load, list, Quit)"),
    ("F1", "this help (F1 or Esc closes it)"),
    ("Ctrl+Q", "quit"),
)


def draw_help(target: pygame.Surface, bindings: tuple[tuple[str, str], ...] = BINDINGS,
              sequence: Sequence[TurnStep] = ()) -> None:
    """A translucent panel over the window: the game's turn sequence (``sequence``, the current
    step marked), then the keys and mouse (``bindings``, the game view's :data:`BINDINGS`)."""
    w, h = target.get_size()
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((10, 12, 16, 215))
    target.blit(shade, (0, 0))
    extra = len(sequence) + 3 if sequence else 0
    size = max(14, min(26, h // (len(bindings) + extra + 6)))
    line = int(size * 1.15)
    key_w = max(fonts.font(size, True).size(k)[0] for k, _ in bindings) + 30
    total_h = line * (len(bindings) + 2 + extra)
    x0 = max(20, (w - key_w - 640) // 2)
    width = w - x0 - 20
    y = max(10, (h - total_h) // 2)
    gold, ink, dim = (255, 225, 120), (235, 235, 235), (160, 165, 175)
    if sequence:
        target.blit(fonts.text("Turn sequence", int(size * 1.4), gold, True), (x0, y))
        y += line * 2
        for i, step in enumerate(sequence):
            mark = "> " if step.current else "   "
            head = fonts.text(f"{mark}{i + 1}. {step.name}", size, gold if step.current else ink, step.current)
            target.blit(head, (x0, y))
            rest = "  ".join(part for part in (f"[{step.rule}]" if step.rule else "", step.detail) if part)
            room = width - head.get_width() - 12
            if rest and room > 40:
                while rest and fonts.font(size).size(rest)[0] > room:
                    rest = rest[:-4].rstrip() + "..." if len(rest) > 4 else ""
                target.blit(fonts.text(rest, size, gold if step.current else dim), (x0 + head.get_width() + 12, y))
            y += line
        y += line
    target.blit(fonts.text("Keys and mouse", int(size * 1.4), gold, True), (x0, y))
    y += line * 2
    for key, what in bindings:
        target.blit(fonts.text(key, size, gold, True), (x0, y))
        target.blit(fonts.text(what, size, ink), (x0 + key_w, y))
        y += line


def help_overlay_event(shown: bool, event: pygame.event.Event) -> tuple[bool, bool]:
    """F1 toggles the help overlay; while it is shown, Esc or a click closes it and every
    other event is swallowed. Returns (shown now, whether the event was consumed)."""
    if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
        return not shown, True
    if shown:
        closes = (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE) \
            or event.type == pygame.MOUSEBUTTONDOWN
        return not closes, True
    return False, False
