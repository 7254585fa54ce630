"""Benchmark: ASOIAF ``legal_actions`` on seeded random playouts (issue #24).

Run: ``python bench/bench_asoiaf_legal.py [games]`` from the repository root (not a test; never
fails on time). Plays the same seeded playouts twice in one run: with the per-tray reference code
path (``units.POLYGON_CACHE`` and ``space.SHORTCUTS`` off: every polygon recomputed with numpy
for its single tray, every pair of trays tested with the full separating-axis test) and with the
shipped one; checks that both give the very same legal lists, and prints the median and 95th
percentile of one ``legal_actions`` call for each, and their ratio.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simulator.core.scenario import Scenario, scenario_from_data  # noqa: E402
from simulator.core.session import Session  # noqa: E402
from simulator.games.asoiaf import space, units  # noqa: E402
from simulator.games.asoiaf.catalogue import catalogue  # noqa: E402


def small(mode: str) -> Scenario:
    """Two small starter armies (the random-playout test's set-up) in game mode ``mode``."""
    setup: dict[str, Any] = {
        "mode": mode, "points": 30, "max_rounds": 4 if mode == "storm_of_swords" else 3,
        "armies": {
            "stark": {"faction": "stark", "commander": "20201", "ncus": ["30201"], "units": [
                {"id": "S1", "card": "10201", "attachment": "20201", "at": [18, 4.5]},
                {"id": "S2", "card": "10202", "at": [30, 4.5]}]},
            "lannister": {"faction": "lannister", "commander": "20115", "ncus": ["30105"], "units": [
                {"id": "L1", "card": "10101", "attachment": "20115", "at": [18, 43.5]},
                {"id": "L2", "card": "10106", "at": [30, 43.5]}]},
        },
    }
    if mode in ("fire_and_blood", "here_we_stand"):
        for a in setup["armies"].values():
            for u in a["units"]:
                u["at"][1] = 36 if u["id"].startswith("L") else 12
    if mode == "fire_and_blood":
        setup["marked"] = {"stark": ["L1"], "lannister": ["S2"]}
    if mode == "storm_of_swords":
        for u in setup["armies"]["lannister"]["units"]:
            u["at"][1] = 40
        setup["armies"]["lannister"]["units"][1]["reserve"] = True
    return scenario_from_data({"game": "asoiaf", "name": "bench", "description": "bench",
                               "players": [{"id": "stark", "name": "Stark"}, {"id": "lannister", "name": "Lannister"}],
                               "setup": setup}, f"asoiaf/bench-{mode}")


def playout(sc: Scenario, seed: int, steps: int) -> tuple[list[list[dict[str, Any]]], list[float]]:
    """The legal lists of one seeded playout and the time of each ``legal_actions`` call."""
    s = Session.new(sc, seed=seed)
    rng = random.Random(seed)
    lists, times = [], []
    for _ in range(steps):
        if s.outcome() is not None:
            break
        t = time.perf_counter()
        acts = s.legal_actions()
        times.append(time.perf_counter() - t)
        lists.append(acts)
        fighting = [a for a in acts if a["type"] in ("charge", "attack")]
        s.apply(rng.choice(fighting) if fighting and rng.random() < 0.6 else rng.choice(acts))
    return lists, times


def run(games: int, fast: bool) -> tuple[list[Any], list[float]]:
    units.POLYGON_CACHE = space.SHORTCUTS = fast
    units.clear_polygon_cache()
    modes = sorted(catalogue().modes)
    all_lists, all_times = [], []
    for g in range(games):
        lists, times = playout(small(modes[g % len(modes)]), 100 + g, 400)
        all_lists.append(lists)
        all_times += times
    return all_lists, all_times


def quantiles(times: list[float]) -> tuple[float, float]:
    ms = sorted(t * 1000 for t in times)
    return statistics.median(ms), ms[min(len(ms) - 1, int(0.95 * len(ms)))]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    ref_lists, ref_times = run(games, fast=False)
    new_lists, new_times = run(games, fast=True)
    units.POLYGON_CACHE = space.SHORTCUTS = True
    same = ref_lists == new_lists
    (rm, rp), (nm, np_) = quantiles(ref_times), quantiles(new_times)
    print(f"{games} seeded playouts, {len(new_times)} legal_actions calls; legal lists identical: {same}")
    print(f"reference (per-tray): median {rm:7.2f} ms   p95 {rp:7.2f} ms")
    print(f"shipped             : median {nm:7.2f} ms   p95 {np_:7.2f} ms")
    print(f"speed-up            : median x{rm / nm:5.2f}      p95 x{rp / np_:5.2f}")
    if not same:
        sys.exit("the legal lists differ between the two code paths")


if __name__ == "__main__":
    main()
