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


def win_rate(scenario: Scenario | str, level: str, against: str, games: int, seed: int = 0,
             max_actions: int = 2000) -> tuple[float, list[MatchResult]]:
    """Share of ``games`` won by ``level`` against ``against``, sides alternated."""
    wins, results = 0.0, []
    probe = Session.new(scenario, seed)
    sides = probe.game.players(probe.state_data())
    for g in range(games):
        me = sides[g % len(sides)]
        players = {s: make_player(against, seed + g * 7 + i) for i, s in enumerate(sides)}
        players[me] = make_player(level, seed + g * 7 + 5)
        _, result = play_match(scenario, players, seed + g, max_actions)
        results.append(result)
        if result.winner == me:
            wins += 1
        elif result.winner is None:
            wins += 0.5
    return wins / games, results
