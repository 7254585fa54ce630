"""Playing computer players against each other, for tests and ``simulator bench-ai``."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulator.ai.players import NoLegalAction, Player, make_player
from simulator.core.scenario import Scenario, load_scenario, scenario_from_data
from simulator.core.session import Session


@dataclass(frozen=True)
class MatchResult:
    winner: str | None          # the side that won, or None (draw, or cut off)
    actions: int
    finished: bool
    #: Decision times by player name: [decisions, total seconds, longest seconds, total CPU
    #: seconds, longest CPU seconds, decisions stopped at the time cap] (wall clock includes
    #: waiting for a core on a busy machine).
    think: dict[str, list[float]] = field(default_factory=dict)
    #: Set when the game itself failed (an exception in the rules engine); the game is not scored.
    error: str = ""
    #: The side the measured player (``level`` of :func:`play_pairing`) played.
    side: str = ""
    #: Why a game stopped before its end (a rules-engine gap: a side with no legal action), and
    #: where the stuck game was saved, to be read again (the look-ahead's time cap can make a
    #: game take another road when it is played again).
    cut_off: str = ""
    saved: str = ""


def with_turns(scenario: Scenario | str, turns: int | None) -> Scenario:
    """``scenario`` loaded, with its turn limit (``turns:``) replaced when ``turns`` is given."""
    sc = load_scenario(scenario) if not isinstance(scenario, Scenario) else scenario
    if not turns:
        return sc
    data = dict(sc.data)
    data["turns"] = int(turns)
    return scenario_from_data(data, sc.id)


@lru_cache(maxsize=64)
def _scenario(sid: str, turns: int | None) -> Scenario:
    return with_turns(sid, turns)


def play_match(scenario: Scenario | str, players: dict[str, Player], seed: int,
               max_actions: int = 2000) -> tuple[Session, MatchResult]:
    """Play one game to its end (or ``max_actions``), each side by its player."""
    session = Session.new(scenario, seed)
    think: dict[str, list[float]] = {}
    cut_off = saved = ""
    for _ in range(max_actions):
        if session.outcome() is not None:
            break
        side = session.active_player()
        if side is None or side not in players:
            break
        player = players[side]
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            action = player.choose(session, side)
        except NoLegalAction as stuck:
            # a rules-engine gap: the game is cut off (not finished); keep it to read
            cut_off = str(stuck)
            name = f"cut-off-{session.scenario.id.replace('/', '-')}-{seed}-{len(session.steps)}.yaml"
            path = Path(tempfile.gettempdir()) / name
            try:
                session.save(path)
                saved = str(path)
            except OSError:
                pass
            break
        dt, dc = time.perf_counter() - t0, time.thread_time() - c0
        rec = think.setdefault(player.name, [0, 0.0, 0.0, 0.0, 0.0, 0])
        rec[0] += 1
        rec[1] += dt
        rec[2] = max(rec[2], dt)
        rec[3] += dc
        rec[4] = max(rec[4], dc)
        rec[5] += bool(getattr(player, "stats", {}).get("stopped"))
        session.apply(action)
    out = session.outcome()
    return session, MatchResult(out.winner if out else None, len(session.steps), out is not None, think,
                                cut_off=cut_off, saved=saved)


def play_pairing(scenario: Scenario | str, level: str, against: str, game_index: int, seed: int = 0,
                 max_actions: int = 2000, turns: int | None = None) -> tuple[float, MatchResult]:
    """One game of ``level`` against ``against``; ``level`` plays side number
    ``game_index % sides`` so that sides alternate over a series. Scores 1 for a win,
    0.5 for a draw or a game cut off, 0 for a loss. ``turns`` replaces the scenario's
    turn limit."""
    sc = _scenario(scenario, turns) if isinstance(scenario, str) else with_turns(scenario, turns)
    session = Session.new(sc, seed + game_index)
    sides = session.game.players(session.state_data())
    me = sides[game_index % len(sides)]
    players = {s: make_player(against, seed + 31 * game_index + i) for i, s in enumerate(sides)}
    players[me] = make_player(level, seed + 31 * game_index + 17)
    _, result = play_match(sc, players, seed + game_index, max_actions)
    result = replace(result, side=me)
    score = 1.0 if result.winner == me else 0.5 if result.winner is None else 0.0
    return score, result


def _pairing_task(args: tuple[Any, ...]) -> tuple[str, str, int, float, MatchResult]:
    sid, level, against, g, seed, max_actions, turns = args
    try:
        score, result = play_pairing(sid, level, against, g, seed, max_actions, turns)
    except Exception as exc:       # a rules-engine failure must not lose the rest of the series
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        text = f"{sid} game {g}: {type(exc).__name__}: {exc} ({where.filename}:{where.lineno})"
        return level, against, g, 0.5, MatchResult(None, 0, False, {}, text)
    return level, against, g, score, result


def run_pairings(tasks: list[tuple[Any, ...]], jobs: int) -> list[tuple[str, str, int, float, MatchResult]]:
    """Run ``(scenario id, level, against, game index, seed, max actions, turns)`` tasks,
    on ``jobs`` processes; the results do not depend on ``jobs``."""
    if jobs <= 1 or len(tasks) <= 1:
        return [_pairing_task(t) for t in tasks]
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(jobs) as pool:
        # longest games first would need knowing them; interleaving keeps both processes busy
        return list(pool.imap(_pairing_task, tasks, chunksize=1))
