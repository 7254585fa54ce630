"""The game view: board, panels, tools, dialogs, hand-over and end-of-game screens."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import pygame
import pygame_gui

from simulator.client import fonts, gestures, paths
from simulator.client.boardview import BoardView
from simulator.client.controller import BoardController
from simulator.client.dialogs import ContextMenu, LoadDialog, PauseMenu, QuitDialog, SaveDialog, message
from simulator.client.help import BINDINGS, SOLO_BINDINGS, draw_help, help_overlay_event
from simulator.client.model import ACTIVE, GameModel
from simulator.client.overlay_screens import EndScreen, Handover
from simulator.client.panels import STATUS, Panels, board_rect, new_manager
from simulator.client.sidepanel import Request, SidePanelView
from simulator.client.solo import Computer, ComputerTurn, SessionSnapshot, SoloConfig, session_sides
from simulator.core.errors import DataError
from simulator.core.game import Action
from simulator.core.scenario import Scenario, scenario_from_data
from simulator.core.session import Session
from simulator.core.view import SecretChoice, SidePanel
#: The most single-option secret choices made by themselves in a row (each is one action).
MOST_ALONE = 64


class Host(Protocol):
    """What a scene may ask of the program around it."""

    def to_picker(self) -> None: ...
    def quit(self) -> None: ...
    def open_session(self, session: Session, solo: SoloConfig | None = None) -> None: ...
    def start(self, scenario: Scenario, solo: SoloConfig | None = None) -> None: ...


class GameScene:
    """The game view. With ``solo`` the computer plays every side but ``solo.human``."""

    def __init__(self, host: Host | None, session: Session, size: tuple[int, int],
                 solo: SoloConfig | None = None) -> None:
        self.host = host
        self.size = size
        notice = ""
        if solo is not None and solo.human not in session_sides(session):
            notice = f"{session.scenario.name} has no side {solo.human!r}: playing hotseat"
            solo = None
        self.solo = solo
        self.model = GameModel(session, viewer=solo.human if solo else ACTIVE)
        self.model.human = solo.human if solo else None
        self.computer: Computer | None = Computer(solo, session_sides(session), session.seed) if solo else None
        self.ui = new_manager(size)
        self.top_ui = new_manager(size)
        self.panels = Panels(self.ui, size)
        #: The side panels under the board (a battle board, a hand, a box of waiting pieces).
        self.side = SidePanelView()
        self.side.set_panels(self.model.presentation.side_panels(self.model.state, self.model.viewer),
                             self.model.active)
        self.view = BoardView(self.model, self.side.board_rect(board_rect(size)))
        self.control = BoardController(self.model, self.view)
        self.control.on_change = self.refresh_panels
        self.control.on_context = self.open_context
        self.show_help = False
        self.dialog: SaveDialog | LoadDialog | ContextMenu | None = None
        #: The Esc menu (Resume, Save, Load, Back to the scenario list, Quit), above everything.
        self.pause: PauseMenu | None = None
        #: What the question before leaving with unsaved changes leads to: "quit" or "list".
        self.leaving = "quit"
        #: Asked before quitting with unsaved changes; modal, above everything (``top_ui``).
        self.quit_dialog: QuitDialog | None = None
        #: The autosave failure the player was told of in a dialog (once per failure; a scene
        #: rebuilt for a new window size does not tell it again).
        self.autosave_told = session.autosave_error
        self.handover: Handover | None = None
        #: The human who has the screen now: a secret choice or a private phase
        #: (``Presentation.private_player``) of another one hides the board behind the hand-over
        #: screen first; his own are made with the board in view. Solo: always the human.
        self.screen_holder: str | None = solo.human if solo else None
        #: Set while a choice with a single option is being made by itself.
        self._choosing_alone = False
        #: The legal actions only the "to do now" panel offers, and the model revision they are of.
        self._loose_list: list[Action] = []
        self._loose_at = -1
        #: What the side panels were last built for (model, revision, hand-over, screen holder).
        self._panels_key: tuple[object, ...] = ()
        #: The other sides that may act in this side's step (defensive fire), per model revision.
        self._others: dict[str, list[str]] = {}
        self._others_at = -1
        self.end: EndScreen | None = None
        self.end_dismissed_at = -1
        #: The linked game's scenario data (``Game.next_scenario``) while the end screen shows.
        self.next_data: dict | None = None
        self.refresh_panels()
        if notice:
            self.control.say(notice, True)

    # -- state ----------------------------------------------------------------------------
    def refresh_panels(self) -> None:
        m = self.model
        computer = self.computer is not None and self.computer.plays(m.active)
        to_play = f"   (to play: {m.active}{' - the computer' if computer else ''})" if m.active else ""
        if self._others_at != m.revision:
            self._others = gestures.others_may_act(m.pieces, m.legal, m.active)
            self._others_at = m.revision
        others = self._others
        if others:
            # another side may act in the middle of this one's step (defensive fire): say so
            to_play += "  |  " + "; ".join(f"{side} may act too: {', '.join(kinds)} (right-click)"
                                           for side, kinds in others.items())
        self.panels.set_banner(m.banner + to_play)
        self.panels.set_stats(m.stats(self.view.selected) if self.view.selected in m.by_id else None)
        self.panels.set_log(m.session.log)
        problem = m.session.autosave_error
        if problem and problem != self.autosave_told:
            message(self.ui, self.size, "Autosave failed",
                    f"{problem}.\nNothing is lost: the game stays in memory, and every action is saved "
                    "again as soon as the folder can be written. Save under a name (Ctrl+S) to keep it "
                    "elsewhere; quitting will ask first.")
        self.autosave_told = problem
        for key in ("undo", "redo"):
            can = m.session.can_undo() if key == "undo" else m.session.can_redo()
            (self.panels.buttons[key].enable if can else self.panels.buttons[key].disable)()
        end = m.presentation.end_phase_action(m.state)
        (self.panels.buttons["end_phase"].enable if end and m.outcome is None and not computer else
         self.panels.buttons["end_phase"].disable)()
        self._update_overlays()
        # after the overlays: whether a secret choice is shown depends on the hand-over screen.
        # This runs on every event (a mouse motion too): the panels are asked of the game only
        # when the state or who has the screen changes
        key = (id(m), m.revision, self.handover is None, self.screen_holder)
        if key != self._panels_key:
            self._panels_key = key
            self.side.set_panels(self._secret_panel() + m.presentation.side_panels(m.state, m.viewer)
                                 + self._todo_panel(), m.active)
        area = self.side.board_rect(board_rect(self.size))
        if area != self.view.camera.viewport:
            self.view.set_viewport(area)
            self.view.fit()

    def _update_overlays(self) -> None:
        m = self.model
        if m.outcome is not None and self.end is None and self.end_dismissed_at != len(m.session.steps):
            self.control.cancel_gestures()
            self.next_data, problem = self._next_scenario_data()
            name = str(self.next_data.get("name") or "the next scenario") if self.next_data is not None else None
            self.end = EndScreen(self.top_ui, self.size, m.outcome, name)
            self.end.problem = problem
        if m.outcome is None and self.end is not None:
            self.end.close()
            self.end = None
            self.next_data = None
        for _ in range(MOST_ALONE):
            secret = m.secret if m.outcome is None else None
            if secret is not None and self.computer is not None and self.computer.plays(secret.player):
                secret = None          # the computer chooses through legal_actions; no hand-over
            if secret is None or len(secret.options) != 1 or self._choosing_alone:
                break
            # nothing to choose: made at once, and the log says so (a beached boat's speed 0)
            self._choosing_alone = True
            try:
                label, action = secret.options[0]
                made = self.control.propose(action, f"{label} (the only choice)").ok
            finally:
                self._choosing_alone = False
            if not made:
                break
            self.control.say(f"{secret.player}: {label} - the only choice, made by itself")
        who = secret.player if secret is not None else (m.private if m.outcome is None else None)
        if who is not None and self.computer is not None and self.computer.plays(who):
            who = None
        curtain = who is not None and self.solo is None and who != self.screen_holder
        if not curtain and self.handover is not None:
            self.handover.close()
            self.handover = None
        elif curtain and (self.handover is None or self.handover.choice.player != who):
            if self.handover is not None:
                self.handover.close()
            self.control.cancel_gestures()
            # hotseat: another player's secret: the screen is handed over before anything shows
            self.handover = Handover(self.top_ui, self.size, SecretChoice(str(who), "", ()))

    def covered(self) -> bool:
        """True while a screen hides the board (hand-over, end of game)."""
        return self.handover is not None or self.end is not None

    # -- linked games -----------------------------------------------------------------------
    def _next_scenario_data(self) -> tuple[dict | None, str]:
        """The next linked game's scenario data (``Game.next_scenario``) and a problem to show."""
        session = self.model.session
        try:
            data = session.game.next_scenario(session.state_data(), session.scenario)
        except DataError as exc:
            return None, f"The next game cannot be built: {exc}"
        except Exception as exc:      # game code: the end screen must still show
            return None, f"The next game cannot be built: {type(exc).__name__}: {exc}"
        return (dict(data) if data else None), ""

    def next_scenario(self) -> Scenario:
        """The next linked game as a scenario (``DataError`` if its data is not valid). Its id
        is the data's own ``id`` when it has one, else ``<game>/campaign-next``."""
        assert self.next_data is not None
        data = dict(self.next_data)
        own = data.pop("id", None)
        game = data.get("game") or self.model.session.scenario.game
        sid = own if isinstance(own, str) and own else f"{game}/campaign-next"
        return scenario_from_data(data, sid, file=f"<next game of {self.model.session.scenario.id}>")

    def start_next_game(self) -> None:
        """*Next game*: start the linked game through the picker's path (force selection first
        when it asks for it), keeping hotseat or solo."""
        if self.end is None or self.next_data is None:
            return
        try:
            scenario = self.next_scenario()
        except DataError as exc:
            self.end.problem = f"The next game cannot be started: {exc}"
            return
        if self.host is not None:
            self.host.start(scenario, self.solo)

    # -- actions --------------------------------------------------------------------------
    def end_phase(self) -> None:
        action = self.model.presentation.end_phase_action(self.model.state)
        self.control.commit_rotation()
        self.control.propose(action, "end of phase")

    def open_context(self, piece: str, pos: tuple[int, int]) -> None:
        self.close_dialog()
        actions = gestures.piece_menu(self.model.presentation, self.model.state, self.model.legal, piece,
                                      self._label())
        self.dialog = ContextMenu(self.ui, self.size, pos, actions)

    def _secret_panel(self) -> tuple[SidePanel, ...]:
        """The secret choice of the human at the screen, as a chooser under the board (the board
        stays in view: nobody else is looking)."""
        m = self.model
        secret = m.secret if m.outcome is None else None
        if self.handover is not None or (secret is not None and self.computer is not None
                                         and self.computer.plays(secret.player)):
            return ()
        return gestures.secret_panel(secret)

    def _loose(self) -> list[Action]:
        """The legal actions no other gesture offers (computed once per change of state)."""
        m = self.model
        if self._loose_at != m.revision:
            computer = self.computer is not None and m.active is not None and self.computer.plays(m.active)
            self._loose_list = [] if computer or m.outcome is not None else \
                gestures.loose_actions(m.presentation, m.state, m.legal, m.secret)
            self._loose_at = m.revision
        return self._loose_list

    def _label(self) -> gestures.Label:
        return gestures.labeller(self.model.session.game.action_specs(), self.model.state)

    def _todo_panel(self) -> tuple[SidePanel, ...]:
        return gestures.todo_panel(self._loose(), self._label())

    def _panel_request(self, req: Request) -> None:
        """Carry out a gesture on a side panel: a click offers the game's actions for what was
        clicked (one is applied, several make a menu), a drop proposes the game's action for it."""
        m = self.model
        if req.kind == "click":
            actions = gestures.panel_click(m.presentation, m.state, m.legal, m.secret, req.panel, req.slot or "",
                                           req.item, self._loose(), self._label())
            if len(actions) == 1:
                self.control.propose(actions[0][1], actions[0][0])
            elif actions:
                self.close_dialog()
                self.dialog = ContextMenu(self.ui, self.size, req.pos, actions)
            else:
                self.control.say(f"Nothing to do with {req.label or 'that'} now", True)
        elif req.kind == "drop":
            action = m.presentation.panel_drop(m.state, m.legal, req.panel, req.item or "", req.target_slot or "")
            if action is None:
                self.control.say(f"{req.label or 'That'} cannot go there now", True)
            else:
                self.control.propose(action, req.label)
        elif req.kind == "piece" and req.piece:
            ref = self.view.ref_at(req.pos) if self.view.camera.viewport.collidepoint(req.pos) else None
            action = m.presentation.drag_action(m.state, req.piece, ref) if ref is not None else None
            if action is None:
                self.control.say("Drop it on the board where it may go", True)
            else:
                self.control.propose(action, "move")

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
        self.refresh_panels()

    # -- quitting -------------------------------------------------------------------------
    def request_quit(self, leaving: str = "quit") -> None:
        """Quit (Ctrl+Q, the window's close button, the end screen, the Esc menu), or with
        ``leaving="list"`` go back to the scenario list: at once when every change is on disk
        (the autosave), else after asking."""
        if self.host is None:
            return
        self.close_pause()
        if not self.model.session.unsaved:
            self._leave(leaving)
            return
        if self.quit_dialog is not None and self.quit_dialog.alive():
            return
        self.close_dialog()
        self.show_help = False
        self.leaving = leaving
        self.quit_dialog = QuitDialog(self.top_ui, self.size, self.model.session.autosave_error,
                                      leaving=leaving == "list")

    def _leave(self, leaving: str) -> None:
        assert self.host is not None
        if leaving == "list":
            self.host.to_picker()
        else:
            self.host.quit()

    # -- the Esc menu ---------------------------------------------------------------------
    def open_pause(self) -> None:
        """Esc with nothing to cancel: the menu of Resume, Save, Load, Back to the list, Quit."""
        self.close_dialog()
        self.close_pause()
        self.control.cancel_gestures()
        problem = self.model.session.autosave_error
        note = (f"<font color=#FF8C80>Not saved: {problem}. Leaving asks first.</font>" if problem else
                "The game is autosaved after every action: the scenario list offers to resume it.")
        self.pause = PauseMenu(self.top_ui, self.size, self.model.session.scenario.name, note)

    def close_pause(self) -> None:
        if self.pause is not None:
            self.pause.close()
            self.pause = None

    def _handle_pause(self, event: pygame.event.Event) -> None:
        p = self.pause
        assert p is not None
        self.top_ui.process_events(event)
        choice = p.chosen(event) if p.alive() else "resume"
        if choice is None:
            return
        self.close_pause()
        if choice in ("save", "load"):
            self.button(choice)
        elif choice in ("list", "quit"):
            self.request_quit(choice)

    def _handle_quit_dialog(self, event: pygame.event.Event) -> None:
        d = self.quit_dialog
        assert d is not None
        self.top_ui.process_events(event)
        choice = d.chosen(event) if d.alive() else "stay"
        if choice is None:
            return
        d.close()
        self.quit_dialog = None
        if choice == "quit" and self.host is not None:
            self._leave(self.leaving)
        elif choice == "save":
            self.button("save")

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
            self.host.open_session(session, self.solo)
        else:
            self.replace_session(session)

    def replace_session(self, session: Session) -> None:
        self.__init__(self.host, session, self.size, self.solo)  # type: ignore[misc]

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
        if self.quit_dialog is not None:
            self._handle_quit_dialog(event)
            return
        if self.pause is not None:
            self._handle_pause(event)
            return
        if event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL and event.key == pygame.K_q:
            self.request_quit()    # before the help and the dialogs, which swallow keys
            return
        self.show_help, consumed = help_overlay_event(self.show_help, event)
        if consumed:
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
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and not event.mod & pygame.KMOD_CTRL:
            if not self.control.cancel():     # nothing in progress to cancel: the Esc menu
                self.open_pause()
            self.refresh_panels()
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL) \
                and self.control.press is None and self.control.pan_from is None:
            got = self.side.handle(event)
            if isinstance(got, Request):
                self._panel_request(got)
            if got is not None:
                self.refresh_panels()
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
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.open_pause()           # the hand-over or end screen has nothing to cancel
            return
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
            elif self.handover.revealed:
                self.screen_holder = self.handover.choice.player
                self.handover.close()
                self.handover = None
                self.refresh_panels()
        elif self.end is not None:
            what = self.end.click(event.ui_element)
            if what == "review":
                self.end.close()
                self.end = None
                self.end_dismissed_at = len(self.model.session.steps)
            elif what == "next":
                self.start_next_game()
            elif what == "new" and self.host is not None:
                self.host.to_picker()
            elif what == "quit":
                self.request_quit()

    # -- frame ----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        above = self.covered() or self.quit_dialog is not None or self.pause is not None
        (self.top_ui if above else self.ui).update(dt)
        if self.computer is not None:
            self._computer_update(dt)

    # -- the computer (solo) --------------------------------------------------------------
    def computer_to_move(self) -> bool:
        """True when the computer must act now (its side to play, nothing waiting on the human)."""
        m, c = self.model, self.computer
        if c is None or m.outcome is not None or not c.plays(m.active):
            return False
        return m.secret is None or c.plays(m.secret.player)

    def _computer_update(self, dt: float) -> None:
        c, m = self.computer, self.model
        assert c is not None
        if c.halted and c.halted_at != m.revision:
            c.halted = ""                       # the human undid: let the computer try again
        if not self.computer_to_move():
            c.cancel()
            if m.lock:
                m.lock = ""
                self.refresh_panels()
            return
        m.lock = (f"{m.active} is played by the computer: wait for its move "
                  "(Ctrl+Z takes back your last move)")
        if c.halted:
            return
        turn = c.finished()
        if turn is not None:
            if turn.revision == m.revision:     # else the human undid meanwhile: think again
                self._computer_moves(turn)
            return
        if c.thinking:
            return
        if c.wait > 0:
            c.wait -= dt
            return
        c.start(m.active, SessionSnapshot(m.session, m.legal), m.revision)  # type: ignore[arg-type]

    def _computer_moves(self, turn: ComputerTurn) -> None:
        """Apply the computer's choice on the main thread, exactly as a human's move."""
        c, m = self.computer, self.model
        assert c is not None
        if turn.error is not None or turn.action is None:
            self._halt(f"the computer could not choose a move: {turn.error}")
            return
        m.lock = ""
        result = m.apply(turn.action)
        if not result.ok:
            self._halt(f"the computer's move was refused: {result.message}")
            return
        pieces = [p for e in result.events for p in e.data.get("pieces", []) or [] if isinstance(p, str)]
        self.view.tools.highlighted = set(pieces)
        shown = [e for e in result.events if e.kind != "dice"]
        what = "; ".join(e.text + (f" ({e.rule})" if e.rule else "") for e in shown[-2:]) or "done"
        self.control.say(f"Computer ({turn.side}): {what}", bool(result.reason))
        c.wait = c.config.pause
        self.refresh_panels()

    def _halt(self, reason: str) -> None:
        c = self.computer
        assert c is not None
        c.halted, c.halted_at = reason, self.model.revision
        self.control.say(reason + " - Ctrl+Z takes back your last move", True)

    def draw(self, screen: pygame.Surface) -> None:
        if self.covered():
            assert self.handover is not None or self.end is not None
            (self.handover or self.end).draw(screen)  # type: ignore[union-attr]
            self.top_ui.draw_ui(screen)
        else:
            screen.fill((28, 31, 37))
            self.view.draw(screen)
            self.side.draw(screen)
            self.ui.draw_ui(screen)
            self._draw_status(screen)
            if self.computer is not None and self.computer_to_move():
                self._draw_thinking(screen)
        self._draw_autosave_warning(screen)
        if self.show_help:
            draw_help(screen, BINDINGS + SOLO_BINDINGS if self.solo else BINDINGS,
                      self.model.presentation.turn_sequence(self.model.state))
        if (self.quit_dialog is not None or self.pause is not None) and not self.covered():
            self.top_ui.draw_ui(screen)

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

    def _draw_autosave_warning(self, screen: pygame.Surface) -> None:
        """Above the status line, whatever it says and whatever covers the board, until a
        save succeeds."""
        problem = self.model.session.autosave_error
        if not problem:
            return
        w, h = screen.get_size()
        warning = fonts.text(f"NOT SAVED - {problem} (Ctrl+S saves under a name)"[:200], 20, (255, 240, 235), True)
        strip = pygame.Rect(0, h - STATUS - warning.get_height() - 8, w, warning.get_height() + 8)
        screen.fill((150, 28, 24), strip)
        screen.blit(warning, (10, strip.y + 4))

    def _draw_thinking(self, screen: pygame.Surface) -> None:
        """"Computer is thinking..." with a progress bar, over the board's top-left corner."""
        c = self.computer
        assert c is not None
        turn = c.turn
        box = pygame.Rect(self.view.camera.viewport.x + 12, self.view.camera.viewport.y + 12, 330, 64)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((16, 18, 24, 225))
        screen.blit(shade, box.topleft)
        pygame.draw.rect(screen, (255, 215, 110), box, 2, border_radius=6)
        side = self.model.active or "computer"
        if c.halted:
            title, progress = f"The computer ({side}) is stuck", 0.0
        elif turn is None:
            title, progress = f"Computer ({side}) moves next...", 0.0
        else:
            dots = "." * (1 + int(turn.elapsed * 3) % 3)
            title, progress = f"Computer is thinking{dots}", turn.progress
        screen.blit(fonts.text(title, 20, (255, 225, 140), True), (box.x + 12, box.y + 8))
        bar = pygame.Rect(box.x + 12, box.y + 38, box.w - 24, 14)
        pygame.draw.rect(screen, (60, 64, 72), bar, border_radius=4)
        if turn is not None:
            # a sweeping block shows life even while the player reports no progress
            filled = bar.copy()
            filled.w = max(6, int(bar.w * progress))
            pygame.draw.rect(screen, (120, 200, 120), filled, border_radius=4)
            x = bar.x + int((turn.elapsed * 0.8 % 1.0) * (bar.w - 30))
            pygame.draw.rect(screen, (230, 240, 230), pygame.Rect(x, bar.y + 3, 30, bar.h - 6), border_radius=3)
