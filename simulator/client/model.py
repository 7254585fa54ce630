"""The game as the client sees it: a session, its presentation, and what to draw now.

Everything the presentation computes (pieces, surface, banner...) is cached per
revision, so frames that change nothing ask the game for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from simulator.client.board import Board, make_board
from simulator.core.errors import DataError, DiceExhausted, IllegalAction
from simulator.core.events import Event
from simulator.core.game import Action, State
from simulator.core.session import Session
from simulator.core.view import PieceView, Presentation, SecretChoice, Tools


@dataclass
class Result:
    """What happened when the client proposed an action."""

    ok: bool
    events: list[Event] = field(default_factory=list)
    reason: str = ""
    rule: str = ""

    @property
    def message(self) -> str:
        if self.ok:
            return ""
        return f"{self.reason} ({self.rule})" if self.rule else self.reason


#: ``GameModel(viewer=...)``: show what the side to play may see (hotseat) ...
ACTIVE = "<active>"
#: ... or the whole state (demonstrations); any other value is a fixed side (solo).
EVERYTHING = "<everything>"


class GameModel:
    """``viewer`` is :data:`ACTIVE` (hotseat: the side to play sees its own secrets),
    a side (solo: the human's view, whoever is to play) or :data:`EVERYTHING` (demos).
    While :attr:`lock` is set, proposals are refused with it as the reason (the
    computer is thinking; a demonstration is not played by dragging)."""

    def __init__(self, session: Session, viewer: str | None = ACTIVE) -> None:
        self.session = session
        self.viewer_mode = viewer
        self.lock = ""
        #: Solo: the human's side. Undo and redo then go on until it is that side's turn.
        self.human: str | None = None
        try:
            self.presentation: Presentation = session.game.presentation()
        except NotImplementedError as exc:
            raise DataError(str(exc)) from None
        self.tools: Tools = self.presentation.tools()
        self.revision = 0
        self._surface_key: Any = object()
        self.board: Board
        self.refresh()

    # -- reading --------------------------------------------------------------------------
    def refresh(self) -> None:
        """Ask the presentation again (after any change of state)."""
        self.revision += 1
        self.active: str | None = self.session.active_player()
        if self.viewer_mode == EVERYTHING:
            self.viewer = None
            self.state: State = self.session.state_data()
        else:
            self.viewer = self.active if self.viewer_mode == ACTIVE else self.viewer_mode
            self.state = self.session.view(self.viewer)
        self.pieces: list[PieceView] = sorted(self.presentation.pieces(self.state),
                                              key=lambda p: (p.layer, p.stack_index))
        self.by_id: dict[str, PieceView] = {p.id: p for p in self.pieces}
        key = (self.presentation.surface_key(self.state),)
        if key != self._surface_key:
            self.surface = self.presentation.surface(self.state)
            self.board = make_board(self.surface)
            self._surface_key = key
        self.banner = self.presentation.banner(self.state)
        self.legal: list[Action] = self.session.legal_actions()
        self.outcome = self.session.outcome()
        self.secret: SecretChoice | None = self.presentation.secret_choice(self.state)
        self.private: str | None = self.presentation.private_player(self.state)

    @property
    def surface_key(self) -> Any:
        return self._surface_key

    def stats(self, piece: str) -> Mapping[str, Any]:
        return self.presentation.stats(self.state, piece)

    # -- changing -------------------------------------------------------------------------
    def apply(self, action: Action | None) -> Result:
        """Propose ``action`` to the engine; a refusal leaves everything as it was."""
        if action is None:
            return Result(False, reason="nothing to do there")
        if self.lock:
            return Result(False, reason=self.lock)
        try:
            events = self.session.apply(action)
        except IllegalAction as exc:
            return Result(False, reason=exc.reason, rule=exc.rule)
        except DiceExhausted as exc:
            return Result(False, reason=str(exc))
        except OSError as exc:   # the autosave could not be written: the action stands
            self.refresh()
            return Result(True, reason=f"autosave failed: {exc}")
        self.refresh()
        return Result(True, events)

    def undo(self) -> bool:
        """Take back the last action; in solo, then go on until it is the human's turn
        (so the computer's reply is taken back with the move it answered)."""
        return self._repeat(self.session.undo, self.session.can_undo)

    def redo(self) -> bool:
        """Apply the undone action again; in solo, up to the human's next turn."""
        return self._repeat(self.session.redo, self.session.can_redo)

    def _repeat(self, once: Callable[[], bool], more: Callable[[], bool]) -> bool:
        """``once`` (undo or redo), then again in solo until the human's turn. A failed
        autosave does not stop it half-way (the step is done, only its save failed): the
        OSError is raised at the end."""
        failed: OSError | None = None

        def step() -> bool:
            nonlocal failed
            try:
                return once()
            except OSError as exc:
                failed = exc
                return True
        try:
            done = step()
            while done and self.human is not None and more() and self.session.active_player() != self.human:
                step()
        finally:
            self.refresh()
        if failed is not None:
            raise failed
        return done
