"""The demonstration scene: a demo script shown one action at a time.

Next applies the next action (``Demo.apply``: ``Session.apply``), Previous takes it
back (``Session.undo``; a refused step changed nothing, so there is nothing to
undo), Restart goes back to the start. Each step highlights the pieces its events
name (``data["pieces"]``) and the caption panel shows the action's ``note``, the
events with their rules, or the engine's refusal and its rule. The board can be
panned, zoomed and inspected (select, LOS, measure) but not played.
"""

from __future__ import annotations

import html
from typing import Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextBox

from simulator.client import fonts, paths
from simulator.client.boardview import BoardView
from simulator.client.controller import BoardController
from simulator.client.dialogs import LoadDialog, PauseMenu, SaveDialog, message
from simulator.client.help import DEMO_BINDINGS, draw_help, help_overlay_event
from simulator.client.model import EVERYTHING, GameModel
from simulator.client.panels import SIDE, STATUS, TOP, board_rect, new_manager
from simulator.core.demo import Demo, StepResult
from simulator.core.events import Event

LOCKED = "this is a demonstration: Next / Previous (Right / Left arrow) step through it"
REFUSED = "#ff7a6e"
RULE = "#9fc8ff"
NOTE = "#ffe08a"
DIM = "#a8acb4"


class DemoHost(Protocol):
    def to_picker(self, tab: str = "scenarios") -> None: ...
    def quit(self) -> None: ...


def _esc(text: str) -> str:
    return html.escape(str(text))


def caption_html(demo: Demo, position: int, result: StepResult | None, outcome_text: str = "") -> str:
    """The caption panel's text for ``position`` (0 = before the first step)."""
    if result is None:
        parts = [f"<b>{_esc(demo.title)}</b>"]
        if demo.description:
            parts.append(_esc(demo.description))
        parts.append(f"<font color={DIM}>{len(demo)} steps. Next (Right arrow) shows the first one.</font>")
        return "<br><br>".join(parts)
    step = result.step
    parts = [f"<b>Step {position} of {len(demo)}</b>"]
    if step.note:
        parts.append(f"<font color={NOTE}>{_esc(step.note)}</font>")
    if result.refused is not None:
        exc = result.refused
        rule = f" <font color={RULE}>[{_esc(exc.rule)}]</font>" if exc.rule else ""
        parts.append(f"<font color={REFUSED}><b>Refused:</b> {_esc(exc.reason)}</font>{rule}")
        parts.append(f"<font color={DIM}>The engine refuses this action; the game is unchanged.</font>")
    else:
        lines = []
        for e in result.events:
            lines.append(_event_line(e))
        parts.append("<br>".join(lines) if lines else f"<font color={DIM}>(no events)</font>")
    if outcome_text:
        parts.append(f"<b>{_esc(outcome_text)}</b>")
    return "<br><br>".join(parts)


def _event_line(e: Event) -> str:
    if e.kind == "dice":
        return f"<font color={DIM}>&#8226; {_esc(e.text)}</font>"
    rule = f" <font color={RULE}>[{_esc(e.rule)}]</font>" if e.rule else ""
    return f"&#8226; {_esc(e.text)}{rule}"


class DemoScene:
    def __init__(self, host: DemoHost | None, demo: Demo, size: tuple[int, int], step: int = 0) -> None:
        self.host = host
        self.demo = demo
        self.size = size
        self.session = demo.start()
        self.model = GameModel(self.session, viewer=EVERYTHING)
        self.model.lock = LOCKED
        self.results: list[StepResult] = []
        self.ui = new_manager(size)
        self.view = BoardView(self.model, board_rect(size))
        self.control = BoardController(self.model, self.view)
        self.control.on_change = self._show_stats
        self.show_help = False
        #: The Esc menu, and the save or load dialog it opened.
        self.pause: PauseMenu | None = None
        self.dialog: SaveDialog | LoadDialog | None = None
        self._build(size)
        self.go_to(step)

    # -- widgets --------------------------------------------------------------------------
    def _build(self, size: tuple[int, int]) -> None:
        w, h = size
        ui = self.ui
        names = (("previous", "< Previous"), ("next", "Next >"), ("restart", "Restart"), ("help", "Help"),
                 ("quit", "Back to list"))
        bw = 104
        right = w - len(names) * (bw + 4) - 4
        self.buttons: dict[str, UIButton] = {}
        for i, (key, text) in enumerate(names):
            self.buttons[key] = UIButton(pygame.Rect(right + i * (bw + 4), 6, bw, TOP - 12), text, ui)
        self.counter = UILabel(pygame.Rect(right - 170, 6, 160, TOP - 12), "", ui)
        title_w = max(100, right - 190)
        title = f"Demonstration: {self.demo.title}"
        if len(title) * 9 > title_w:          # pygame_gui labels do not wrap: shorten by hand
            title = title[: max(10, title_w // 9 - 3)].rstrip() + "..."
        self.title = UILabel(pygame.Rect(8, 6, title_w, TOP - 12), title, ui)
        x = w - SIDE + 6
        inner = SIDE - 12
        avail = h - TOP - STATUS - 8
        caption_h = int(avail * 0.68)
        self.caption = UITextBox("", pygame.Rect(x, TOP + 4, inner, caption_h), ui)
        UILabel(pygame.Rect(x, TOP + 4 + caption_h, inner, 24), "Selected piece", ui)
        self.stats = UITextBox("", pygame.Rect(x, TOP + 28 + caption_h, inner, avail - caption_h - 24), ui)
        self._stats_key: object = None

    # -- stepping -------------------------------------------------------------------------
    @property
    def position(self) -> int:
        """How many steps have been shown (0: the start)."""
        return len(self.results)

    @property
    def current(self) -> StepResult | None:
        return self.results[-1] if self.results else None

    def next(self) -> bool:
        if self.position >= len(self.demo):
            self.control.say("this is the last step (Home or Restart goes back to the start)")
            return False
        self.results.append(self.demo.apply(self.session, self.position))
        self._changed()
        return True

    def previous(self) -> bool:
        if not self.results:
            self.control.say("this is the start (Right arrow or Next shows the first step)")
            return False
        result = self.results.pop()
        if result.refused is None:
            self.session.undo()
        self._changed()
        return True

    def restart(self) -> None:
        while self.results:
            result = self.results.pop()
            if result.refused is None:
                self.session.undo()
        self._changed()

    def go_to(self, step: int) -> None:
        step = max(0, min(len(self.demo), step))
        while self.position > step:
            self.previous()
        while self.position < step:
            self.next()
        self._changed()

    def _changed(self) -> None:
        self.control.cancel_gestures()
        self.model.refresh()
        result = self.current
        self.view.tools.highlighted = set(result.pieces) if result is not None else set()
        outcome = self.model.outcome
        out_text = f"Game over: {outcome.text}" + (f" ({outcome.rule})" if outcome.rule else "") if outcome else ""
        self.caption.set_text(caption_html(self.demo, self.position, result, out_text))
        self.counter.set_text(f"Step {self.position} of {len(self.demo)}")
        (self.buttons["previous"].enable if self.position > 0 else self.buttons["previous"].disable)()
        (self.buttons["next"].enable if self.position < len(self.demo) else self.buttons["next"].disable)()
        if result is None:
            self.control.say("Right arrow or Next: the first step")
        elif result.refused is not None:
            self.control.say(f"Refused: {result.refused}", True)
        else:
            shown = [e for e in result.events if e.kind != "dice"]
            self.control.say(shown[-1].text + (f" ({shown[-1].rule})" if shown[-1].rule else "") if shown else "")
        self._show_stats()

    def _show_stats(self) -> None:
        sel = self.view.selected
        stats = self.model.stats(sel) if sel in self.model.by_id else None
        key = tuple((str(k), str(v)) for k, v in (stats or {}).items())
        if key == self._stats_key:
            return
        self._stats_key = key
        if not stats:
            self.stats.set_text(f"<font color={DIM}>Click a piece to see its state.</font>")
            return
        rows = [f"<b>{_esc(stats.get('name', ''))}</b>"]
        rows += [f"{_esc(k)}: <b>{_esc(v)}</b>" for k, v in stats.items() if k != "name"]
        self.stats.set_text("<br>".join(rows))

    # -- events ---------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        self.show_help, consumed = help_overlay_event(self.show_help, event)
        if consumed:
            return
        self.ui.process_events(event)
        if self.pause is not None:
            self._handle_pause(event)
            return
        if self.dialog is not None:
            self._handle_dialog(event)
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    self.button(key)
            return
        if event.type == pygame.KEYDOWN and self._keys(event):
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL) \
                and self.ui.get_hovering_any_element() and not self.control.press and self.control.pan_from is None:
            return
        self.control.handle(event)

    def button(self, key: str) -> None:
        if key == "next":
            self.next()
        elif key == "previous":
            self.previous()
        elif key == "restart":
            self.restart()
        elif key == "help":
            self.show_help = not self.show_help
        elif key == "quit" and self.host is not None:
            self.host.to_picker("demos")          # Ctrl+Q quits the program; this only leaves the demo

    def _keys(self, event: pygame.event.Event) -> bool:
        ctrl = event.mod & pygame.KMOD_CTRL
        k = event.key
        if ctrl and k == pygame.K_q:
            if self.host is not None:
                self.host.quit()
        elif k in (pygame.K_RIGHT, pygame.K_SPACE, pygame.K_PAGEDOWN) or ctrl and k == pygame.K_y:
            self.next()
        elif k in (pygame.K_LEFT, pygame.K_BACKSPACE, pygame.K_PAGEUP) or ctrl and k == pygame.K_z:
            self.previous()
        elif k == pygame.K_HOME:
            self.restart()
        elif k == pygame.K_END:
            self.go_to(len(self.demo))
        elif k == pygame.K_ESCAPE and not ctrl:
            if not self.control.cancel():     # nothing in progress to cancel: the Esc menu
                self.open_pause()
        elif ctrl:
            return True            # no saving, loading or ending phases in a demonstration
        else:
            return False
        return True

    # -- the Esc menu ---------------------------------------------------------------------
    def open_pause(self) -> None:
        """Resume, Save (this position, as a game to play on), Load (a saved game), Back to the
        demonstrations, Quit."""
        self.close_pause()
        self.pause = PauseMenu(self.ui, self.size, "Demonstration",
                               "Save keeps this position as a game to play on.", back="Back to the demonstrations")

    def close_pause(self) -> None:
        if self.pause is not None:
            self.pause.close()
            self.pause = None

    def _handle_pause(self, event: pygame.event.Event) -> None:
        assert self.pause is not None
        choice = self.pause.chosen(event) if self.pause.alive() else "resume"
        if choice is None:
            return
        self.close_pause()
        if choice == "save":
            self.dialog = SaveDialog(self.ui, self.size, f"{self.demo.id.replace('/', '-')}-step{self.position}")
        elif choice == "load":
            self.dialog = LoadDialog(self.ui, self.size)
        elif choice == "list":
            self.button("quit")
        elif choice == "quit" and self.host is not None:
            self.host.quit()

    def _handle_dialog(self, event: pygame.event.Event) -> None:
        d = self.dialog
        assert d is not None
        if not d.alive() or event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            d.close()
            self.dialog = None
            return
        if isinstance(d, SaveDialog):
            name = d.submitted(event)
            if name is not None:
                d.close()
                self.dialog = None
                try:
                    path = paths.save_path(name)
                    self.session.save(path)
                except (ValueError, OSError) as exc:
                    message(self.ui, self.size, "Not saved", f"Could not save: {exc}")
                    return
                self.control.say(f"this position is saved to {path}: Load it (Esc menu) to play on")
            return
        path = d.chosen(event)
        if path is not None:
            d.close()
            self.dialog = None
            resume = getattr(self.host, "resume", None)
            if resume is not None:
                resume(path)

    # -- frame ----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, screen: pygame.Surface) -> None:
        screen.fill((28, 31, 37))
        self.view.draw(screen)
        self.ui.draw_ui(screen)
        w, h = screen.get_size()
        bar = pygame.Rect(0, h - STATUS, w, STATUS)
        screen.fill((20, 22, 26), bar)
        c = self.control
        mode = {"select": "", "los": "[LINE OF SIGHT] ", "measure": "[MEASURE] "}[c.mode]
        colour = (255, 110, 100) if c.error else (220, 225, 230)
        text = fonts.text((mode + (c.message or "F1: keys and mouse"))[:220], 22, colour)
        screen.blit(text, (10, bar.y + (STATUS - text.get_height()) // 2))
        if self.show_help:
            draw_help(screen, DEMO_BINDINGS)
