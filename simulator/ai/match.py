"""Playing computer players against each other, for tests and ``simulator bench-ai``."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.ai.players import Player, make_player
from simulator.core.scenario import Scenario
from simulator.core.session import Session


@dataclass(frozen=True)
class MatchResult:
    winner: str | None          # the side that won, or None (draw, or cut off)
    actions: int
    finished: bool


def play_match(scenario: Scenario | str, players: dict[str, Player], seed: int,
               max_actions: int = 2000) -> tuple[Session, MatchResult]:
    """Play one game to its end (or ``max_actions``), each side by its player."""
    session = Session.new(scenario, seed)
    for _ in range(max_actions):
        if session.outcome() is not None:
            break
        side = session.active_player()
        if side is None or side not in players:
            break
        session.apply(players[side].choose(session, side))
    out = session.outcome()
    return session, MatchResult(out.winner if out else None, len(session.steps), out is not None)


def play_pairing(scenario: Scenario | str, level: str, against: str, game_index: int, seed: int = 0,
                 max_actions: int = 2000) -> tuple[float, MatchResult]:
    """One game of ``level`` against ``against``; ``level`` plays side number
    ``game_index % sides`` so that sides alternate over a series. Scores 1 for a win,
    0.5 for a draw or a game cut off, 0 for a loss."""
    probe = Session.new(scenario, seed + game_index)
    sides = probe.game.players(probe.state_data())
    me = sides[game_index % len(sides)]
    players = {s: make_player(against, seed + 31 * game_index + i) for i, s in enumerate(sides)}
    players[me] = make_player(level, seed + 31 * game_index + 17)
    _, result = play_match(scenario, players, seed + game_index, max_actions)
    score = 1.0 if result.winner == me else 0.5 if result.winner is None else 0.0
    return score, result
