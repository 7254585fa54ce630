"""The game view: board, panels, tools, dialogs, hand-over and end-of-game screens."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import pygame
import pygame_gui

from simulator.client import fonts, paths
from simulator.client.boardview import BoardView
from simulator.client.controller import BoardController
from simulator.client.dialogs import ContextMenu, LoadDialog, SaveDialog, message
from simulator.client.help import draw_help
from simulator.client.model import GameModel
from simulator.client.overlay_screens import EndScreen, Handover
from simulator.client.panels import STATUS, Panels, board_rect, new_manager
from simulator.core.errors import DataError
from simulator.core.session import Session


class Host(Protocol):
    """What a scene may ask of the program around it."""

    def to_picker(self) -> None: ...
    def quit(self) -> None: ...
    def open_session(self, session: Session) -> None: ...


class GameScene:
    def __init__(self, host: Host | None, session: Session, size: tuple[int, int]) -> None:
        self.host = host
        self.size = size
        self.model = GameModel(session)
        self.ui = new_manager(size)
        self.top_ui = new_manager(size)
        self.panels = Panels(self.ui, size)
        self.view = BoardView(self.model, board_rect(size))
        self.control = BoardController(self.model, self.view)
        self.control.on_change = self.refresh_panels
        self.control.on_context = self.open_context
        self.show_help = False
        self.dialog: SaveDialog | LoadDialog | ContextMenu | None = None
        self.handover: Handover | None = None
        self.end: EndScreen | None = None
        self.end_dismissed_at = -1
        self.refresh_panels()

    # -- state ----------------------------------------------------------------------------
    def refresh_panels(self) -> None:
        m = self.model
        self.panels.set_banner(m.banner + (f"   (to play: {m.viewer})" if m.viewer else ""))
        self.panels.set_stats(m.stats(self.view.selected) if self.view.selected in m.by_id else None)
        self.panels.set_log(m.session.log)
        for key in ("undo", "redo"):
            can = m.session.can_undo() if key == "undo" else m.session.can_redo()
            (self.panels.buttons[key].enable if can else self.panels.buttons[key].disable)()
        end = m.presentation.end_phase_action(m.state)
        (self.panels.buttons["end_phase"].enable if end and m.outcome is None else
         self.panels.buttons["end_phase"].disable)()
        self._update_overlays()

    def _update_overlays(self) -> None:
        m = self.model
        if m.outcome is not None and self.end is None and self.end_dismissed_at != len(m.session.steps):
            self.control.cancel_gestures()
            self.end = EndScreen(self.top_ui, self.size, m.outcome)
        if m.outcome is None and self.end is not None:
            self.end.close()
            self.end = None
        secret = m.secret if m.outcome is None else None
        if secret is None and self.handover is not None:
            self.handover.close()
            self.handover = None
        elif secret is not None and (self.handover is None or self.handover.choice != secret):
            if self.handover is not None:
                self.handover.close()
            self.control.cancel_gestures()
            self.handover = Handover(self.top_ui, self.size, secret)

    def covered(self) -> bool:
        """True while a screen hides the board (hand-over, end of game)."""
        return self.handover is not None or self.end is not None

    # -- actions --------------------------------------------------------------------------
    def end_phase(self) -> None:
        action = self.model.presentation.end_phase_action(self.model.state)
        self.control.commit_rotation()
        self.control.propose(action, "end of phase")

    def open_context(self, piece: str, pos: tuple[int, int]) -> None:
        self.close_dialog()
        actions = self.model.presentation.piece_actions(self.model.state, self.model.legal, piece)
        self.dialog = ContextMenu(self.ui, self.size, pos, actions)

    def close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.close()
            self.dialog = None

    def save_as(self, name: str) -> None:
        try:
            path = paths.save_path(name)
            self.model.session.save(path)
        except (ValueError, OSError) as exc:
            message(self.ui, self.size, "Not saved", f"Could not save: {exc}")
            return
        self.control.say(f"saved to {path}")

    def load(self, path: Path) -> None:
        """Load a save; any problem leaves the current game exactly as it was."""
        try:
            session = Session.load(path, autosave=paths.autosave_path())
        except DataError as exc:
            message(self.ui, self.size, "Could not load", str(exc))
            return
        except OSError as exc:
            message(self.ui, self.size, "Could not load", f"{path}: {exc}")
            return
        if self.host is not None:
            self.host.open_session(session)
        else:
            self.replace_session(session)

    def replace_session(self, session: Session) -> None:
        self.__init__(self.host, session, self.size)  # type: ignore[misc]

    def button(self, key: str) -> None:
        c = self.control
        if key == "end_phase":
            self.end_phase()
        elif key == "undo":
            c.undo()
        elif key == "redo":
            c.redo()
        elif key == "los":
            c.set_mode("select" if c.mode == "los" else "los")
        elif key == "measure":
            c.set_mode("select" if c.mode == "measure" else "measure")
        elif key == "rings":
            c.toggle_rings()
        elif key == "save":
            self.close_dialog()
            self.dialog = SaveDialog(self.ui, self.size, self.model.session.scenario.id.replace("/", "-"))
        elif key == "load":
            self.close_dialog()
            self.dialog = LoadDialog(self.ui, self.size)
        elif key == "help":
            self.show_help = not self.show_help

    # -- events ---------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.show_help = not self.show_help
            return
        if self.show_help:
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE or event.type == pygame.MOUSEBUTTONDOWN:
                self.show_help = False
            return
        if self.covered():
            self._handle_covered(event)
            return
        self.ui.process_events(event)
        if self._handle_dialog(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            key = self.panels.button_key(event.ui_element)
            if key:
                self.button(key)
                self.refresh_panels()
            return
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.panels.log:
            e = self.panels.event_for(event.text)
            pieces = e.data.get("pieces", []) if e is not None else []
            self.view.tools.highlighted = {p for p in pieces if isinstance(p, str)}
            self.control.say(f"{e.text}" + (f"  ({e.rule})" if e and e.rule else "") if e else "")
            return
        if event.type == pygame.KEYDOWN and self._keys(event):
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL) \
                and self.ui.get_hovering_any_element() and not self.control.press and self.control.pan_from is None:
            return
        self.control.handle(event)
        self.refresh_panels()

    def _keys(self, event: pygame.event.Event) -> bool:
        ctrl = event.mod & pygame.KMOD_CTRL
        if ctrl and event.key == pygame.K_s:
            self.button("save")
        elif ctrl and event.key == pygame.K_o:
            self.button("load")
        elif ctrl and event.key == pygame.K_q:
            if self.host is not None:
                self.host.quit()
        elif ctrl and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.end_phase()
            self.refresh_panels()
        elif self.ui.get_focus_set() and event.key != pygame.K_ESCAPE and not ctrl:
            return True   # typing in a text box
        else:
            return False
        return True

    def _handle_dialog(self, event: pygame.event.Event) -> bool:
        d = self.dialog
        if d is None:
            return False
        if not d.alive():
            self.dialog = None
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close_dialog()
            return True
        if isinstance(d, SaveDialog):
            name = d.submitted(event)
            if name is not None:
                self.close_dialog()
                self.save_as(name)
            return event.type == pygame.KEYDOWN
        if isinstance(d, LoadDialog):
            path = d.chosen(event)
            if path is not None:
                self.close_dialog()
                self.load(path)
            return event.type == pygame.KEYDOWN
        action = d.chosen(event)
        if action is not None:
            self.close_dialog()
            self.control.propose(action, "action")
            self.refresh_panels()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and not d.contains(event.pos):
            self.close_dialog()
            return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)

    def _handle_covered(self, event: pygame.event.Event) -> None:
        self.top_ui.process_events(event)
        if event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL and event.key == pygame.K_z:
            self.control.undo()
            self.refresh_panels()
            return
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        if self.handover is not None:
            action = self.handover.click(event.ui_element)
            if action is not None:
                self.control.propose(action, "secret choice")
                self.refresh_panels()
        elif self.end is not None:
            what = self.end.click(event.ui_element)
            if what == "review":
                self.end.close()
                self.end = None
                self.end_dismissed_at = len(self.model.session.steps)
            elif what == "new" and self.host is not None:
                self.host.to_picker()
            elif what == "quit" and self.host is not None:
                self.host.quit()

    # -- frame ----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        (self.top_ui if self.covered() else self.ui).update(dt)

    def draw(self, screen: pygame.Surface) -> None:
        if self.covered():
            assert self.handover is not None or self.end is not None
            (self.handover or self.end).draw(screen)  # type: ignore[union-attr]
            self.top_ui.draw_ui(screen)
        else:
            screen.fill((28, 31, 37))
            self.view.draw(screen)
            self.ui.draw_ui(screen)
            self._draw_status(screen)
        if self.show_help:
            draw_help(screen)

    def _draw_status(self, screen: pygame.Surface) -> None:
        w, h = screen.get_size()
        bar = pygame.Rect(0, h - STATUS, w, STATUS)
        screen.fill((20, 22, 26), bar)
        c = self.control
        mode = {"select": "", "los": "[LINE OF SIGHT] ", "measure": "[MEASURE] "}[c.mode]
        colour = (255, 110, 100) if c.error else (220, 225, 230)
        text = mode + (c.message or "F1: keys and mouse")
        fonts_text = fonts.text(text[:220], 22, colour)
        screen.blit(fonts_text, (10, bar.y + (STATUS - fonts_text.get_height()) // 2))
