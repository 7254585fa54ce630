"""The game as the client sees it: a session, its presentation, and what to draw now.

Everything the presentation computes (pieces, surface, banner...) is cached per
revision, so frames that change nothing ask the game for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

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


class GameModel:
    def __init__(self, session: Session) -> None:
        self.session = session
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
        self.viewer = self.session.active_player()
        self.state: State = self.session.view(self.viewer)
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
        done = self.session.undo()
        self.refresh()
        return done

    def redo(self) -> bool:
        done = self.session.redo()
        self.refresh()
        return done
