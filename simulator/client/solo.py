"""Solo play: one person against the computer.

The computer's ``choose()`` runs in a background thread on a frozen
:class:`SessionSnapshot` (what a computer player may read: the legal actions, its
own view of the state, the dice it may fork), so the window keeps drawing and the
live session is never touched off the main thread. The chosen action comes back to
the scene, which applies it on the main thread through ``Session.apply`` exactly as
a human's move (same log, autosave, highlights). Nothing here knows any game.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from simulator.ai import make_player
from simulator.ai.players import Player
from simulator.core.errors import DataError
from simulator.core.game import Action, Outcome, State
from simulator.core.plain import copy_plain
from simulator.core.registry import get_game
from simulator.core.scenario import Scenario
from simulator.core.session import Session

LEVELS = ("easy", "normal")
#: Seconds each computer move stays on screen before the computer thinks again.
MOVE_PAUSE = 0.9


@dataclass(frozen=True)
class SoloConfig:
    """Who the human plays and how strong the computer is."""

    human: str
    level: str = "easy"
    pause: float = MOVE_PAUSE


def scenario_sides(scenario: Scenario) -> list[tuple[str, str]]:
    """The sides of ``scenario`` as (id, name): the scenario's ``players`` if it lists
    them, else ``game.players(state)`` of its initial state."""
    if scenario.players:
        return [(p["id"], p.get("name", p["id"])) for p in scenario.players]
    game = get_game(scenario.game)
    session = Session(game, scenario, 0)
    return [(s, s) for s in game.players(session.state_data())]


def session_sides(session: Session) -> list[str]:
    sides = session.game.players(session.state_data())
    return sides or [p["id"] for p in session.scenario.players]


def check_solo(session: Session, config: SoloConfig) -> None:
    """A :class:`DataError` if ``config`` names no side of the game or an unknown level."""
    sides = session_sides(session)
    if config.human not in sides:
        raise DataError(f"--solo: {session.scenario.name} has no side {config.human!r} "
                        f"(its sides: {', '.join(sides) or 'none'})")
    if config.level not in LEVELS:
        raise DataError(f"--level: unknown computer level {config.level!r} (expected one of: {', '.join(LEVELS)})")


class SessionSnapshot:
    """What a computer player reads of a session, copied on the main thread.

    Duck-types the part of :class:`Session` that ``Player.choose`` uses:
    ``game``, ``scenario``, ``seed``, ``steps``, ``dice.fork``, ``legal_actions()``,
    ``view(side)``, ``outcome()`` and ``active_player()``.
    """

    def __init__(self, session: Session, legal: list[Action] | None = None) -> None:
        self.game = session.game
        self.scenario = session.scenario
        self.seed = session.seed
        self.steps = tuple(session.steps)
        self.dice = session.dice.fork(0)          # only ever forked again for look-ahead
        self._state: State = session.state_data()
        self._legal = copy_plain(legal if legal is not None else session.legal_actions())
        self._outcome = session.outcome()
        self._active = session.active_player()

    def legal_actions(self) -> list[Action]:
        return copy_plain(self._legal)

    def view(self, player: str | None) -> State:
        return self.game.visible_state(copy_plain(self._state), player)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def active_player(self) -> str | None:
        return self._active


class ComputerTurn:
    """One ``choose()`` running in a daemon thread. ``revision`` is the model's revision
    when it started: a result for an older revision (the human undid meanwhile) is
    thrown away."""

    def __init__(self, player: Player, snapshot: SessionSnapshot, side: str, revision: int) -> None:
        self.player = player
        self.side = side
        self.revision = revision
        self.snapshot = snapshot
        self.action: Action | None = None
        self.error: BaseException | None = None
        self.started = time.monotonic()
        self.done = threading.Event()
        player.progress = 0.0
        self.thread = threading.Thread(target=self._run, name=f"computer-{side}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.action = self.player.choose(self.snapshot, self.side)  # type: ignore[arg-type]
        except BaseException as exc:   # reported on the main thread
            self.error = exc
        finally:
            self.done.set()

    @property
    def progress(self) -> float:
        return 1.0 if self.done.is_set() else max(0.0, min(1.0, float(getattr(self.player, "progress", 0.0))))

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started


class Computer:
    """The computer's sides in a solo game and its turn in progress."""

    def __init__(self, config: SoloConfig, sides: list[str], seed: int = 0) -> None:
        self.config = config
        self.players: dict[str, Any] = {side: make_player(config.level, seed * 7919 + 101 * i + 1)
                                        for i, side in enumerate(sides) if side != config.human}
        self.turn: ComputerTurn | None = None
        self.wait = 0.0
        #: Set when the computer could not move (an error, a refused choice); cleared by undo.
        self.halted = ""
        self.halted_at = -1

    @property
    def human(self) -> str:
        return self.config.human

    def plays(self, side: str | None) -> bool:
        return side is not None and side in self.players

    @property
    def thinking(self) -> bool:
        return self.turn is not None

    def start(self, side: str, snapshot: SessionSnapshot, revision: int) -> ComputerTurn:
        self.turn = ComputerTurn(self.players[side], snapshot, side, revision)
        return self.turn

    def cancel(self) -> None:
        """Forget the turn in progress (its thread finishes on its own; the result is dropped)."""
        self.turn = None

    def finished(self) -> ComputerTurn | None:
        """The turn whose thread has finished (and forget it), or None."""
        turn = self.turn
        if turn is None or not turn.done.is_set():
            return None
        self.turn = None
        return turn
