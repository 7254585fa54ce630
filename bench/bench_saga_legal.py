"""Benchmark: SAGA ``legal_actions`` on seeded random playouts (issue #24).

Run: ``python bench/bench_saga_legal.py [repeats]`` from the repository root (not a test; never
fails on time). Replays the recorded playouts (``tests/saga/data/legal_lists_playouts.json``:
s2-ford, s1-warlords-fury and the quick-start; the actions taken and every legal list, recorded
before the speed-up) twice in one run: with the reference code path (``paths.SHORTCUTS`` and
``movement.SHORTCUTS`` off: obstacles grown anew each time, one A* search per goal over the
whole visibility graph, an engagement's spots tested enemy figure by enemy figure, the exact
distance for every terrain leg near a piece) and with the shipped one; checks that both give the
recorded lists, and prints the maximum, median and 95th percentile of one ``legal_actions`` call
(CPU time, the least of ``repeats`` runs, 3 unless told, the caches put back as they were before
the first) for each, and their ratio. ``--record`` writes the data file anew from the code as it
stands (only before a change that must keep the lists).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simulator.core.session import Session  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "tests" / "saga" / "data" / "legal_lists_playouts.json"
PLAYOUTS = [("saga/s2-ford", 3, 150), ("saga/s1-warlords-fury", 5, 120), ("saga/quickstart", 7, 120)]


def choose(rng: random.Random, acts: list[dict[str, Any]]) -> dict[str, Any]:
    """The random player: a move or an engagement more often than not when one is offered."""
    moving = [a for a in acts if a["type"] in ("move", "engage")]
    return rng.choice(moving) if moving and rng.random() < 0.7 else rng.choice(acts)


def record(scenario: str, seed: int, steps: int) -> dict[str, Any]:
    """One seeded playout: the actions taken, every legal list and each call's CPU time."""
    s = Session.new(scenario, seed=seed)
    rng = random.Random(seed)
    lists, taken, times, pending = [], [], [], []
    for _ in range(steps):
        if s.outcome() is not None:
            break
        t = time.process_time()
        acts = s.legal_actions()
        times.append(round(time.process_time() - t, 4))
        pending.append((s.state.get("pending") or {}).get("kind") == "move")
        lists.append(acts)
        a = choose(rng, acts)
        taken.append(a)
        s.apply(a)
    return {"scenario": scenario, "seed": seed, "lists": lists, "taken": taken, "times": times, "move_pending": pending}


def replay(play: dict[str, Any], check: set[int] | None = None, repeats: int = 1) -> tuple[list[float], list[int]]:
    """Apply the recorded actions, timing ``legal_actions`` at the ``check`` steps (all if None;
    the least of ``repeats`` calls, the caches put back before each as they were before the
    first: the CPU time a call takes on a machine shared with other work is its least); the CPU
    times and the steps whose list differs from the recorded one."""
    from simulator.games.saga import movement
    from simulator.geometry import paths
    s = Session.new(play["scenario"], seed=play["seed"])
    times, differ = [], []
    for step, (expected, action) in enumerate(zip(play["lists"], play["taken"])):
        if check is None or step in check:
            least = float("inf")
            remembered, walls = paths.remembered(), dict(movement._WALLS)
            for _ in range(repeats):
                paths.clear_caches(remembered)
                movement._WALLS.clear()
                movement._WALLS.update(walls)
                t = time.process_time()
                acts = s.legal_actions()
                least = min(least, time.process_time() - t)
                if acts != expected:
                    differ.append(step)
            times.append(least)
        s.apply(action)
    return times, differ


def shortcuts(on: bool) -> None:
    from simulator.games.saga import movement
    from simulator.geometry import paths
    paths.SHORTCUTS = movement.SHORTCUTS = on


def stats(times: list[float]) -> tuple[float, float, float]:
    ms = sorted(t * 1000 for t in times)
    return ms[-1], statistics.median(ms), ms[min(len(ms) - 1, int(0.95 * len(ms)))]


def main() -> None:
    if "--record" in sys.argv:
        data = {"playouts": [record(*p) for p in PLAYOUTS]}
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        times = [t for p in data["playouts"] for t in p["times"]]
        print(f"recorded {len(times)} lists; max {max(times) * 1000:.0f} ms")
        return
    data = json.loads(DATA.read_text(encoding="utf-8"))["playouts"]
    repeats = int(next((a for a in sys.argv[1:] if a.isdigit()), "3"))
    results: dict[str, tuple[list[float], list[str]]] = {}
    slowest: dict[str, list[tuple[float, str]]] = {}
    for name, on in (("reference", False), ("shipped", True)):
        shortcuts(on)
        times, differ = [], []
        where = []
        for play in data:
            t, d = replay(play, repeats=repeats)
            times += t
            where += [f"{play['scenario']}#{k}" for k in range(len(t))]
            differ += [f"{play['scenario']}#{k}" for k in d]
        results[name] = (times, differ)
        slowest[name] = sorted(zip(times, where))[-3:][::-1]
    shortcuts(True)
    calls = len(results["shipped"][0])
    print(f"{len(data)} recorded playouts, {calls} legal_actions calls (CPU time, time.process_time: "
          f"the least of {repeats} runs of each call, caches as before the first)")
    for name, (times, differ) in results.items():
        mx, med, p95 = stats(times)
        same = "identical to the recording" if not differ else f"DIFFER at {', '.join(differ[:8])}"
        print(f"{name:9s}: max {mx:7.1f} ms   median {med:6.2f} ms   p95 {p95:7.1f} ms   lists {same}")
        print(" " * 11 + "slowest: " + ", ".join(f"{w} {t * 1000:.0f} ms" for t, w in slowest[name]))
    (rx, rm, rp), (nx, nm, np_) = stats(results["reference"][0]), stats(results["shipped"][0])
    print(f"speed-up  : max x{rx / nx:5.2f}        median x{rm / nm:5.2f}       p95 x{rp / np_:5.2f}")
    if results["reference"][1] or results["shipped"][1]:
        sys.exit("a legal list differs from the recorded one")


if __name__ == "__main__":
    main()
