"""Save speed (not a test; never fails on time): the journal save against the version-1 save
(the baseline), measured in the same run on the same game.

A 500-action SAGA game is played by two seeded random players (``clash-of-steel-12`` with 30
turns so it lasts), then replayed into a session that autosaves after every action.

1. Loading: CPU time of ``Session.load`` of the 500-action save: ours (the last state snapshot
   and the actions after it) against the baseline (the version-1 file: every action replayed).
2. Autosave: CPU time of the autosave after one action, around action 50 and around action
   500: ours (appended journal lines, a snapshot now and then: median and mean over 32
   actions; and 40 undo/redo pairs, the same small lines at both lengths) against the
   baseline (the whole version-1 file rewritten, as before); and the wall-clock time, which
   includes waiting for ``fsync``.

    python bench/bench_saves.py [--actions 500] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.ai.match import play_match, with_turns  # noqa: E402
from simulator.ai.players import make_player  # noqa: E402
from simulator.core.session import Session  # noqa: E402

SCENARIO = "saga/clash-of-steel-12"
TURNS = 30
SEED = 3
WINDOW = 32


def played_game(actions: int) -> Session:
    """Two seeded random players, ``actions`` actions (the game must last that long)."""
    scenario = with_turns(SCENARIO, TURNS)
    probe = Session.new(scenario, SEED)
    sides = probe.game.players(probe.state_data())
    players = {side: make_player("random", 11 + i) for i, side in enumerate(sides)}
    session, _ = play_match(scenario, players, seed=SEED, max_actions=actions)
    if len(session.steps) < actions:
        raise SystemExit(f"the game ended after {len(session.steps)} actions; pick a longer one")
    return session


def cpu_of(fn) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def wall_of(fn) -> float:
    """Wall-clock time, which includes waiting for the disk (``fsync``)."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def autosaving_replay(source: Session, path: Path, count: int | None = None) \
        -> tuple[Session, list[float], list[float]]:
    """The first ``count`` actions of ``source`` applied again to a session autosaving to
    ``path``; the CPU and the wall-clock time of each autosave."""
    session = Session(source.game, source.scenario, source.seed, source.tape, autosave=path)
    costs: list[float] = []
    walls: list[float] = []
    autosave = session._autosave

    def timed() -> None:
        t0 = time.perf_counter()
        costs.append(cpu_of(autosave))
        walls.append(time.perf_counter() - t0)

    session._autosave = timed  # type: ignore[method-assign]
    for step in source.steps[:count]:
        session.apply(step.action)
    return session, costs, walls


def undo_redo_autosaves(session: Session, costs: list[float], times: int) -> float:
    """Median CPU of the autosave of ``times`` undo and redo pairs: the same two small lines
    appended, whatever the game's length (the rare snapshot line aside)."""
    first = len(costs)
    for _ in range(times):
        session.undo()
        session.redo()
    return statistics.median(costs[first:])


def baseline_autosave(session: Session, path: Path, repeat: int, clock=cpu_of) -> float:
    """Median time of writing the whole version-1 file (the autosave before the journal)."""
    return statistics.median(clock(lambda: session.save_version1(path)) for _ in range(repeat))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n = args.actions
    early = 50
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t0 = time.process_time()
        game = played_game(n)
        print(f"{SCENARIO} ({TURNS} turns), seed {SEED}: {len(game.steps)} actions by random players "
              f"in {time.process_time() - t0:.1f} s CPU")

        ours_path = folder / "journal.yaml"
        session, costs, walls = autosaving_replay(game, ours_path)
        assert session.state_data() == game.state_data()

        same_late = undo_redo_autosaves(session, costs, 40)
        short, short_costs, _ = autosaving_replay(game, folder / "journal-50.yaml", early)
        same_early = undo_redo_autosaves(short, short_costs, 40)

        # the baseline autosave at action 50 and at the end, on the same game
        head = Session(game.game, game.scenario, game.seed, game.tape)
        for step in game.steps[:early]:
            head.apply(step.action)
        base_early = baseline_autosave(head, folder / "v1-early.yaml", args.repeat)
        base_late = baseline_autosave(game, folder / "v1.yaml", args.repeat)
        wall_early = baseline_autosave(head, folder / "v1-early.yaml", args.repeat, wall_of)
        wall_late = baseline_autosave(game, folder / "v1.yaml", args.repeat, wall_of)

        def window(end: int) -> list[float]:
            return costs[max(0, end - WINDOW // 2):end + WINDOW // 2]

        e, late = window(early), costs[n - WINDOW:n]
        we = walls[max(0, early - WINDOW // 2):early + WINDOW // 2]

        def row(name: str, at_50: float, at_500: float) -> None:
            print(f"  {name:34s}{at_50 * 1e3:10.2f}        {at_500 * 1e3:10.2f}          {at_500 / at_50:5.2f}")

        print("\nAutosave after one action (CPU ms)      around action 50   around action 500   500/50")
        row(f"ours, median of {WINDOW}", statistics.median(e), statistics.median(late))
        row(f"ours, mean of {WINDOW} (snapshots incl.)", statistics.mean(e), statistics.mean(late))
        row("ours, the same undo/redo lines", same_early, same_late)
        row("baseline (whole v1 file)", base_early, base_late)
        print("Autosave after one action (wall ms, fsync included)")
        row(f"ours, median of {WINDOW}", statistics.median(we), statistics.median(walls[n - WINDOW:n]))
        row("baseline (whole v1 file)", wall_early, wall_late)
        print(f"  at action 500: baseline / ours (mean) = {base_late / statistics.mean(late):.1f}x")
        print(f"  files: journal {ours_path.stat().st_size / 1e3:.0f} kB, "
              f"version 1 {(folder / 'v1.yaml').stat().st_size / 1e3:.0f} kB")

        # loading: caches (game data, imports) warmed by one load of each first
        v1 = folder / "v1.yaml"
        Session.load(ours_path)
        Session.load(v1)
        ours = [cpu_of(lambda: Session.load(ours_path)) for _ in range(args.repeat)]
        base = [cpu_of(lambda: Session.load(v1)) for _ in range(max(2, args.repeat // 2))]
        loaded = Session.load(ours_path)
        assert loaded.state_data() == game.state_data() and loaded.log_digest() == game.log_digest()
        print(f"\nLoading the {n}-action save (CPU s)        median      min")
        print(f"  ours (snapshot + tail)              {statistics.median(ours):8.3f} {min(ours):8.3f}")
        print(f"  baseline (v1, full replay)          {statistics.median(base):8.3f} {min(base):8.3f}")
        print(f"  baseline / ours = {statistics.median(base) / statistics.median(ours):.1f}x "
              f"(target: ours under 0.25 s)")
        replay = cpu_of(lambda: Session.replay_check(ours_path))
        print(f"  simulator check --replay (full replay of the journal): {replay:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
