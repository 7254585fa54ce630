"""Three computer players: random, easy (one-move look-ahead) and normal (Monte Carlo search).

They look ahead on a *determinized* copy of what their side can see
(``Game.determinize(Session.view(side))``), never on the real state, so secret
choices and hidden cards stay secret. Look-ahead rolls its own dice, forked
from the session's, so thinking never consumes the game's dice.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from simulator.core.dice import Dice
from simulator.core.errors import DiceExhausted, IllegalAction
from simulator.core.game import Action, Context, Game, State
from simulator.core.plain import copy_plain
from simulator.core.session import Session


class Player(Protocol):
    name: str
    #: How far the current ``choose`` has got, 0 to 1 (read by the client's progress bar
    #: from another thread; only ever assigned whole floats).
    progress: float

    def choose(self, session: Session, side: str) -> Action:
        """The action this player takes for ``side`` now."""


def _rng(seed: int, session: Session, salt: str) -> random.Random:
    return random.Random(f"{seed}:{salt}:{session.seed}:{len(session.steps)}")


class Simulator:
    """Applies actions to private copies of a state, with look-ahead dice."""

    def __init__(self, session: Session, rng: random.Random) -> None:
        self.game: Game = session.game
        self.scenario = session.scenario
        self._dice = session.dice
        self.rng = rng
        #: Look-ahead steps the game could not carry out on a guessed state (a game whose
        #: ``determinize`` leaves hidden parts unusable); they count as refusals.
        self.failures = 0

    def step(self, state: State, action: Action) -> State | None:
        """The state after ``action``, or None if the game refuses it (or fails on it)."""
        work = copy_plain(state)
        dice: Dice = self._dice.fork(self.rng.randrange(2**31))
        dice.begin_action(0)
        try:
            self.game.apply(work, copy_plain(action), Context(dice, self.scenario))
        except (IllegalAction, DiceExhausted):
            return None
        except Exception:   # look-ahead must never stop the computer from playing a legal move
            self.failures += 1
            return None
        return work

    def legal(self, state: State) -> list[Action]:
        try:
            if self.game.outcome(state) is not None:
                return []
            return self.game.legal_actions(state)
        except Exception:
            self.failures += 1
            return []


@dataclass
class RandomPlayer:
    """Picks uniformly among the legal actions."""

    seed: int = 0
    name: str = "random"
    progress: float = 0.0

    def choose(self, session: Session, side: str) -> Action:
        actions = session.legal_actions()
        self.progress = 1.0
        return _rng(self.seed, session, self.name).choice(actions)


@dataclass
class EasyPlayer:
    """Tries each legal action once (a sample of them when there are many) and keeps
    the one whose result the game's evaluation likes best."""

    seed: int = 0
    sample: int = 40
    name: str = "easy"
    progress: float = 0.0

    def choose(self, session: Session, side: str) -> Action:
        self.progress = 0.0
        rng = _rng(self.seed, session, self.name)
        actions = session.legal_actions()
        if len(actions) == 1:
            self.progress = 1.0
            return actions[0]
        sim = Simulator(session, rng)
        root = session.game.determinize(session.view(side), side, rng)
        candidates = actions if len(actions) <= self.sample else rng.sample(actions, self.sample)
        best, best_score = candidates[0], -math.inf
        for i, action in enumerate(candidates):
            self.progress = i / len(candidates)
            after = sim.step(root, action)
            if after is None:
                continue
            score = session.game.evaluate(after, side) + rng.random() * 1e-6
            if score > best_score:
                best, best_score = action, score
        self.progress = 1.0
        return best


@dataclass
class _Arm:
    action: Action
    visits: int = 0
    total: float = 0.0


@dataclass
class NormalPlayer:
    """Flat Monte Carlo search with UCB1 over the legal actions: each playout applies
    a candidate, continues with quick random moves for ``depth`` actions, and scores
    the result with the game's evaluation. Stops after ``playouts`` or ``seconds``."""

    seed: int = 0
    playouts: int = 300
    depth: int = 8
    seconds: float = 1.8
    width: int = 30
    name: str = "normal"
    stats: dict[str, Any] = field(default_factory=dict)
    progress: float = 0.0

    def choose(self, session: Session, side: str) -> Action:
        self.progress = 0.0
        rng = _rng(self.seed, session, self.name)
        actions = session.legal_actions()
        if len(actions) == 1:
            self.progress = 1.0
            return actions[0]
        game = session.game
        sim = Simulator(session, rng)
        visible = session.view(side)
        # Rank candidates with one quick look so a wide move list is cut to the promising ones.
        scored = []
        for action in actions:
            after = sim.step(game.determinize(visible, side, rng), action)
            if after is not None:
                scored.append((game.evaluate(after, side) + rng.random() * 1e-6, action))
        if not scored:
            return actions[0]
        scored.sort(key=lambda s: s[0], reverse=True)
        arms = [_Arm(a) for _, a in scored[: self.width]]
        self.progress = 0.05
        start = time.monotonic()
        deadline = start + self.seconds
        done = 0
        while done < self.playouts and time.monotonic() < deadline:
            done += 1
            self.progress = 0.05 + 0.95 * max(done / self.playouts, (time.monotonic() - start) / self.seconds)
            total_visits = sum(a.visits for a in arms) + 1
            arm = max(arms, key=lambda a: math.inf if a.visits == 0 else
                      a.total / a.visits + 0.7 * math.sqrt(math.log(total_visits) / a.visits))
            arm.visits += 1
            arm.total += self._playout(sim, game.determinize(visible, side, rng), arm.action, side, rng)
        self.stats = {"playouts": done, "candidates": len(arms)}
        self.progress = 1.0
        return max(arms, key=lambda a: (a.visits, a.total)).action

    def _playout(self, sim: Simulator, state: State, action: Action, side: str, rng: random.Random) -> float:
        current = sim.step(state, action)
        if current is None:
            return -1.0
        for _ in range(self.depth):
            legal = sim.legal(current)
            if not legal:
                break
            nxt = sim.step(current, rng.choice(legal))
            if nxt is None:
                break
            current = nxt
        return sim.game.evaluate(current, side)


def make_player(level: str, seed: int = 0) -> Player:
    """``"random"``, ``"easy"`` or ``"normal"``."""
    players = {"random": RandomPlayer, "easy": EasyPlayer, "normal": NormalPlayer}
    if level not in players:
        raise ValueError(f"unknown computer level {level!r} (expected one of: {', '.join(players)})")
    return players[level](seed=seed)
