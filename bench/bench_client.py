"""Client frame times (not a test): the largest map (Nurkott) with 60 counters at 1920x1080,
headless. Prints the median frame with the map cache, with the LOS overlay, and a full
redraw without the cache (the baseline), plus the time from start to the first frame.

    python bench/bench_client.py [--frames 120]
"""

from __future__ import annotations

import time

START = time.perf_counter()

import argparse  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZE = (1920, 1080)


def median_ms(draw, frames: int) -> float:
    times = []
    for _ in range(frames):
        t = time.perf_counter()
        draw()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=120)
    args = ap.parse_args()

    from simulator.client.app import init_pygame
    from simulator.client.game_scene import GameScene
    from simulator.core.session import Session
    from tests.client.games import register_all, scenario_path

    register_all()
    screen = init_pygame(SIZE)
    scene = GameScene(None, Session.new(str(scenario_path("hex60")), 0), SIZE)
    scene.update(0.0)
    scene.draw(screen)
    first = time.perf_counter() - START
    assert len(scene.model.pieces) == 60

    def frame() -> None:
        scene.update(1 / 60)
        scene.draw(screen)

    cached = median_ms(frame, args.frames)
    c = scene.control
    c.set_mode("los")
    ids = [p.id for p in scene.model.pieces]
    c.anchor = ids[0]
    c._tool_to(ids[1])
    assert scene.view.tools.los is not None
    with_los = median_ms(frame, args.frames)

    def uncached() -> None:
        scene.view.cache.key = None
        frame()

    full = median_ms(uncached, max(10, args.frames // 4))
    c.set_mode("select")
    baseline = median_ms(uncached, max(10, args.frames // 4))
    print(f"map: Nurkott, {len(scene.model.pieces)} counters, {SIZE[0]}x{SIZE[1]}, headless, "
          f"{args.frames} frames")
    print(f"median frame, map cached:            {cached:7.2f} ms   (target < 8 ms)")
    print(f"median frame, cached + LOS overlay:  {with_los:7.2f} ms")
    print(f"median full redraw, no cache:        {baseline:7.2f} ms   (with LOS {full:.2f} ms)")
    print(f"cache speed-up:                      {baseline / cached:7.1f} x")
    print(f"start to first frame:                {first * 1000:7.0f} ms   (target < 1500 ms)")


if __name__ == "__main__":
    main()
