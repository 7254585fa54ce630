"""Client speed (not a test; never fails on time), headless at 1920x1080 unless told otherwise.

1. Still frames: the largest map (Nurkott) with 60 counters: the median frame with the map
   cached, with the LOS overlay, and a full redraw without the cache (the baseline).
2. Zoom gestures: one scenario of each game, the view zoomed one wheel notch (and panned)
   at every frame. Ours (the cached map scaled during the gesture) against the baseline
   measured in the same run (the map redrawn at every zoom step, as before), and the one
   crisp redraw when the gesture stops.
3. Start-up: CPU time of a child process from its start to its first frame, for
   ``simulator play SCENARIO`` and ``simulator`` (the picker), against the targets.
4. Idle: CPU of an open game window over 10 s with no input (``--idle-seconds``).

    python bench/bench_client.py [--frames 120] [--skip-idle] [--start-up-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZE = (1920, 1080)
#: One scenario of each game for the zoom gesture.
ZOOM_SCENARIOS = ("dragon_rage/esirien-1-fury", "vikings/beach_landing", "saga/s1-warlords-fury",
                  "asoiaf/game-of-thrones")
START_SCENARIO = "dragon_rage/esirien-1-fury"


def cpu() -> float:
    return time.process_time()


def timed_frames(draw: Callable[[], None], frames: int) -> list[float]:
    """CPU milliseconds of each call (CPU time: the machine is shared)."""
    times = []
    for _ in range(frames):
        t = cpu()
        draw()
        times.append((cpu() - t) * 1000)
    return times


def p95(times: list[float]) -> float:
    return sorted(times)[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]


def still_frames(frames: int) -> None:
    from simulator.client.app import init_pygame
    from simulator.client.game_scene import GameScene
    from simulator.core.session import Session
    from tests.client.games import register_all, scenario_path

    register_all()
    screen = init_pygame(SIZE)
    scene = GameScene(None, Session.new(str(scenario_path("hex60")), 0), SIZE)
    scene.update(0.0)
    scene.draw(screen)
    assert len(scene.model.pieces) == 60

    def frame() -> None:
        scene.update(1 / 60)
        scene.draw(screen)

    cached = statistics.median(timed_frames(frame, frames))
    c = scene.control
    c.set_mode("los")
    ids = [p.id for p in scene.model.pieces]
    c.anchor = ids[0]
    c._tool_to(ids[1])
    assert scene.view.tools.los is not None
    with_los = statistics.median(timed_frames(frame, frames))

    def uncached() -> None:
        scene.view.cache.key = None
        frame()

    full = statistics.median(timed_frames(uncached, max(10, frames // 4)))
    c.set_mode("select")
    baseline = statistics.median(timed_frames(uncached, max(10, frames // 4)))
    print(f"1. still frames: Nurkott, {len(scene.model.pieces)} counters, {SIZE[0]}x{SIZE[1]}, headless, "
          f"{frames} frames, CPU ms")
    print(f"   median frame, map cached:            {cached:7.2f} ms")
    print(f"   median frame, cached + LOS overlay:  {with_los:7.2f} ms")
    print(f"   median full redraw, no cache:        {baseline:7.2f} ms   (with LOS {full:.2f} ms)")
    print(f"   cache speed-up:                      {baseline / cached:7.1f} x")


def zoom_gesture(scene, screen, frames: int, settle: float) -> tuple[list[float], float]:  # type: ignore[no-untyped-def]
    """Frame times while zooming one notch and panning at every frame (bursts of 8 notches in,
    8 out, around moving points), then the CPU time of the first frame after the gesture."""
    from simulator.client.controller import ZOOM_STEP

    view = scene.view
    view.fit()
    view.zoom_settle = settle
    vp = view.camera.viewport
    scene.update(0.0)
    scene.draw(screen)

    def frame_at(i: int) -> Callable[[], None]:
        def frame() -> None:
            burst = (i // 8) % 2
            pos = (vp.x + vp.w * (0.3 + 0.4 * ((i * 7) % 11) / 10), vp.y + vp.h * (0.3 + 0.4 * ((i * 3) % 7) / 6))
            view.zoom_at(pos, ZOOM_STEP if burst == 0 else 1 / ZOOM_STEP)
            view.pan(7 if burst == 0 else -7, -4 if (i // 16) % 2 == 0 else 4)
            scene.update(1 / 60)
            scene.draw(screen)
        return frame

    times = [timed_frames(frame_at(i), 1)[0] for i in range(frames)]
    view.zoomed_at = -1e9                  # the gesture has stopped: the next frame is crisp
    t = cpu()
    scene.update(1 / 60)
    scene.draw(screen)
    crisp = (cpu() - t) * 1000
    assert view.cache.drawn_at(view.camera.scale) and not view.needs_frame()
    return times, crisp


def zoom_frames(frames: int) -> None:
    from simulator.client.app import init_pygame
    from simulator.client.boardview import ZOOM_SETTLE
    from simulator.client.game_scene import GameScene
    from simulator.core.session import Session

    screen = init_pygame(SIZE)
    print(f"2. zoom gesture: one wheel notch and a pan at every frame, {frames} frames, {SIZE[0]}x{SIZE[1]}, "
          "CPU ms; baseline = the map redrawn at every zoom step (the previous code path)")
    print(f"   {'scenario':32s} {'ours median':>11s} {'ours p95':>9s} {'base median':>11s} {'base p95':>9s} "
          f"{'p95 ratio':>9s} {'crisp redraw':>12s}")
    for sid in ZOOM_SCENARIOS:
        scene = GameScene(None, Session.new(sid, 0), SIZE)
        ours, crisp = zoom_gesture(scene, screen, frames, ZOOM_SETTLE)
        base, _ = zoom_gesture(scene, screen, frames, 0.0)
        print(f"   {sid:32s} {statistics.median(ours):11.2f} {p95(ours):9.2f} {statistics.median(base):11.2f} "
              f"{p95(base):9.2f} {p95(base) / p95(ours):8.1f}x {crisp:12.1f}"
              f"   target p95 < 8 ms: {'met' if p95(ours) < 8 else 'NOT met'}")


def child_cpu(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """CPU seconds (user + system) of a child process run to its end, and its status."""
    proc = subprocess.Popen(argv, env=env, cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return usage.ru_utime + usage.ru_stime, proc.returncode


def start_up(runs: int) -> None:
    """Start-up CPU, measured as a player meets it from the second start on: with the modules'
    bytecode and the parsed data files (``simulator.core.data.cache_dir``) of an earlier start
    (pip writes the bytecode on installing; here both go under build/, as the tree's environment
    may set PYTHONDONTWRITEBYTECODE). A first start (every module compiled, every file parsed)
    is printed too, for comparison with the figures measured that way."""
    base = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SIMULATOR_EXIT_AFTER_FRAMES": "1",
            "SIMULATOR_HOME": str(ROOT / "build" / "bench-home")}
    warm = {k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"}
    warm["PYTHONPYCACHEPREFIX"] = str(ROOT / "build" / "bench-pycache")
    warm["SIMULATOR_CACHE"] = str(ROOT / "build" / "bench-cache")
    cold = {k: v for k, v in base.items() if k != "PYTHONPYCACHEPREFIX"}
    cold.update(PYTHONDONTWRITEBYTECODE="1", SIMULATOR_CACHE="0")
    exe = [sys.executable, "-m", "simulator"]
    bare, _ = min(child_cpu([sys.executable, "-c", "pass"], warm) for _ in range(runs))
    print(f"3. start-up: CPU of the child process from its start to its first frame (best of {runs}; "
          f"SDL_VIDEODRIVER=dummy, SIMULATOR_EXIT_AFTER_FRAMES=1, bytecode and parsed files of an earlier "
          f"start); "
          f"bare Python start {bare:.3f} s")
    for label, argv, target in ((f"simulator play {START_SCENARIO}", [*exe, "play", START_SCENARIO], 0.6),
                                ("simulator (the picker)", exe, 0.8)):
        child_cpu(argv, warm)                      # writes the bytecode and the parsed files
        best = min(child_cpu(argv, warm)[0] for _ in range(runs))
        compiling = min(child_cpu(argv, cold)[0] for _ in range(runs))
        print(f"   {label:44s} {best:6.3f} s   target < {target} s: {'met' if best < target else 'NOT met'}"
              f"   ({best / target:.2f} of the target)")
        print(f"   {'  a first start':44s} {compiling:6.3f} s   (every module compiled, every file "
              "parsed: PYTHONDONTWRITEBYTECODE=1 SIMULATOR_CACHE=0)")


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_share(seconds: float, env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds an open game window uses over ``seconds`` of no input, and the wall time."""
    env = {**env, "SIMULATOR_HOME": str(ROOT / "build" / "bench-home")}
    env.pop("SIMULATOR_EXIT_AFTER_FRAMES", None)
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "play", START_SCENARIO, "--size", "1920x1080"],
                            env=env, cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(6.0)                    # start-up, the first frames and the after-input period
        c0, t0 = proc_cpu(proc.pid), time.monotonic()
        time.sleep(seconds)
        used, wall = proc_cpu(proc.pid) - c0, time.monotonic() - t0
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return used, wall


def idle(seconds: float) -> None:
    runs = [("dummy driver", {**os.environ, "SDL_VIDEODRIVER": "dummy"})]
    xvfb = None
    if shutil.which("Xvfb"):
        xvfb = subprocess.Popen(["Xvfb", ":97", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
        runs.append(("Xvfb, a real X11 window", {**env, "DISPLAY": ":97"}))
        time.sleep(1.0)
    try:
        for label, env in runs:
            used, wall = idle_share(seconds, env)
            share = used / wall * 100
            print(f"4. idle ({label}): {START_SCENARIO} open at 1920x1080, no input for {wall:.1f} s: "
                  f"{used:.2f} s CPU = {share:.2f} % of a core   target < 2 %: {'met' if share < 2 else 'NOT met'}")
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--runs", type=int, default=3, help="start-up runs (the best is kept)")
    ap.add_argument("--idle-seconds", type=float, default=10.0)
    ap.add_argument("--skip-idle", action="store_true")
    ap.add_argument("--start-up-only", action="store_true", help="only section 3 (start-up)")
    args = ap.parse_args()
    if args.start_up_only:
        start_up(args.runs)
        return
    still_frames(args.frames)
    zoom_frames(args.frames)
    start_up(args.runs)
    if not args.skip_idle:
        idle(args.idle_seconds)
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(f"(this benchmark's own CPU: {own.ru_utime + own.ru_stime:.1f} s)")


if __name__ == "__main__":
    main()
