"""The program's main loop and start: no invisible window without a display, no frames while
nothing happens, no picker built when a scenario is named (issue #24). Never asserts on time."""

import os
import subprocess
import sys
from pathlib import Path

import pygame

from tests.client.conftest import SIZE
from tests.client.games import scenario_path

ROOT = Path(__file__).resolve().parents[2]


def _no_display_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["SIMULATOR_HOME"] = str(ROOT / "build" / "no-home")
    return env


def test_without_a_display_the_program_says_so_and_exits_with_status_2():
    proc = subprocess.run([sys.executable, "-m", "simulator"], env=_no_display_env(), cwd=str(ROOT),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "Traceback" not in proc.stderr
    assert proc.stdout == ""             # no pygame banner either


def test_a_display_that_does_not_answer_is_refused(monkeypatch):
    """DISPLAY names a screen but SDL falls back to its off-screen driver: refused, not run unseen."""
    from simulator.client import app

    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(app.pygame.display, "get_driver", lambda: "offscreen")
    monkeypatch.setattr(app, "init_pygame", lambda size: None)
    try:
        app.App(SIZE, 0, picker=False)
    except app.NoDisplay as exc:
        assert "no display" in str(exc) and not str(exc).startswith("<input>")
    else:
        raise AssertionError("an off-screen fallback was accepted")


def test_play_with_a_scenario_never_builds_the_picker(monkeypatch):
    from simulator.client import app, picker
    from simulator.client.game_scene import GameScene

    built = []
    monkeypatch.setattr(picker.PickerScene, "__init__", lambda self, *a, **k: built.append(a))
    seen = []
    monkeypatch.setattr(app.App, "run", lambda self, max_frames=None: seen.append(self.scene) or 0)
    assert app.play(str(scenario_path("hex")), 0, SIZE) == 0
    assert isinstance(seen[0], GameScene) and not built


def _count_frames(monkeypatch, a, waits: int) -> tuple[list[int], list[float]]:
    """Run ``a``'s loop over ``waits`` idle sleeps (no event comes), then a quit."""
    from simulator.client import app

    state = {"now": 1000.0}
    frames: list[int] = []
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        state["now"] += seconds

    def get() -> list[pygame.event.Event]:   # a loop that never sleeps still ends (and fails)
        done = len(slept) >= waits or state.setdefault("gets", 0) > 4 * waits
        state["gets"] = state.get("gets", 0) + 1
        return [pygame.event.Event(pygame.QUIT)] if done else []

    monkeypatch.setattr(app.time, "sleep", sleep)
    monkeypatch.setattr(app.pygame.event, "get", get)
    # the clock moves with the sleeps; the first frame's after-input period is passed at once
    monkeypatch.setattr(app.time, "monotonic", lambda: state["now"])
    monkeypatch.setattr(app, "HOT_AFTER_INPUT", 0.0)
    draw = a.scene.draw
    monkeypatch.setattr(a.scene, "draw", lambda screen: frames.append(1) or draw(screen))
    a.run()
    return frames, slept


def test_an_idle_window_sleeps_and_draws_no_frames(monkeypatch):
    from simulator.client import app
    from simulator.core.session import Session

    a = app.App(SIZE, 0, picker=False)
    a.open_session(Session.new(str(scenario_path("hex")), 0))
    frames, slept = _count_frames(monkeypatch, a, waits=40)
    assert len(slept) == 40 and all(t == app.IDLE_POLL for t in slept)
    # the first frame, then the quit's frame: none for the 40 sleeps (0.8 s of nothing)
    assert len(frames) == 2


def test_the_computers_turn_keeps_frames_coming(monkeypatch):
    """An animation (the computer thinking) draws frames with no input at all."""
    from simulator.client import app
    from simulator.core.session import Session

    a = app.App(SIZE, 0, picker=False)
    a.open_session(Session.new(str(scenario_path("hex")), 0))
    calls = {"n": 0}

    def animating() -> bool:
        calls["n"] += 1
        if calls["n"] > 5:
            a.running = False
        return True

    monkeypatch.setattr(a, "animating", animating)
    slept = []
    monkeypatch.setattr(app.time, "sleep", lambda s: slept.append(s))
    frames = []
    draw = a.scene.draw
    monkeypatch.setattr(a.scene, "draw", lambda screen: frames.append(1) or draw(screen))
    a.run()
    assert len(frames) == 6 and not slept   # the sixth asks no more


def test_exit_after_frames_is_read_from_the_environment(monkeypatch):
    from simulator.client import app
    from simulator.core.errors import DataError

    monkeypatch.setenv("SIMULATOR_EXIT_AFTER_FRAMES", "3")
    assert app.frames_limit() == 3
    monkeypatch.setenv("SIMULATOR_EXIT_AFTER_FRAMES", "soon")
    try:
        app.frames_limit()
    except DataError as exc:
        assert "SIMULATOR_EXIT_AFTER_FRAMES" in str(exc)
    else:
        raise AssertionError("a bad value was accepted")


def test_the_picker_reads_a_scenarios_game_and_name_only(tmp_path, monkeypatch):
    """The list needs a scenario's game and name: read from its top-level lines, the same as the
    whole file says; the scenario is loaded (and checked) when it is chosen."""
    from simulator.client import picker

    folded = tmp_path / "folded.yaml"
    folded.write_text("# a comment\nformat: scenario/1\ngame: client_hex\nname: 'A long: quoted\n"
                      "  name'\ndescription: >-\n  name: not this one\nplayers:\n- id: red\n  name: Red\n")
    assert picker.scenario_header(folded) == ("client_hex", "A long: quoted name")
    # a file the line reading cannot take is read whole, with its error message
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: client_hex\nname: [\n")
    try:
        picker.scenario_header(broken)
    except Exception as exc:  # noqa: BLE001
        assert "not valid YAML" in str(exc)
    else:
        raise AssertionError("a broken name was listed")
    loads = []
    monkeypatch.setattr(picker, "load_scenario", lambda path: loads.append(path) or 1 / 0)
    scene = picker.PickerScene(type("Host", (), {"start": None, "resume": None, "quit": None})(), SIZE,
                               scenarios=[("client_hex/hex", scenario_path("hex"))], demos=[])
    assert not loads and list(scene.entries.values()) == [scenario_path("hex")]
