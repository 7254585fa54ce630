"""Demonstrations: the loader (core/demo.py), the demo scene stepping forward and back,
`simulator demo`, `simulator render DEMO --step N`, and bad demo files."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from simulator import cli
from simulator.client.demo_scene import DemoScene
from simulator.core import demo as demo_module
from simulator.core.demo import Demo, list_demos
from simulator.core.errors import DataError
from simulator.core.script import run_document
from tests.client.conftest import SIZE, key, press_button

DATA = Path(__file__).resolve().parent / "data"
DEMOS = DATA / "demos"
FIRST = DEMOS / "client_hex" / "first-moves.yaml"
BAD = DATA / "bad_demos"


@pytest.fixture
def demos_dir(monkeypatch):
    monkeypatch.setattr(demo_module, "DEMOS_DIR", DEMOS)
    return DEMOS


def test_demo_loads_its_steps_notes_and_title():
    demo = Demo.load(FIRST)
    assert demo.title == "Moving, refusals and the turn" and "1 MP a hex" in demo.description
    assert len(demo) == 5 and demo.id == "client_hex/first-moves"
    assert demo.steps[0].action == {"type": "move", "piece": "r1", "to": "1809"}
    assert demo.steps[0].note.startswith("The raiders move")
    assert demo.steps[1].expect_illegal == "HX 2.1" and demo.steps[1].line == 13


def test_demo_ids_resolve(demos_dir):
    assert list_demos() == [("client_hex/first-moves", FIRST)]
    for ref in ("client_hex/first-moves", "demos/client_hex/first-moves", "demos/client_hex/first-moves.yaml",
                str(FIRST)):
        assert Demo.load(ref).path == FIRST
    with pytest.raises(DataError, match="known demos: client_hex/first-moves"):
        Demo.load("client_hex/nothing")


def test_stepping_matches_the_script_runner_at_every_step():
    demo = Demo.load(FIRST)
    session = demo.start()
    for n in range(len(demo)):
        demo.apply(session, n)
        expected, result = demo.at(n + 1)
        assert session.state_data() == expected.state_data()
        assert expected.state_data() == run_document(demo.doc, until=n + 1).session.state_data()
    assert demo.at(2)[1].refused is not None and demo.at(2)[1].refused.rule == "HX 2.1"
    assert demo.at(5)[1].pieces == ["b3"]


def test_demo_scene_steps_forward_and_back_with_keys_and_buttons():
    demo = Demo.load(FIRST)
    scene = DemoScene(None, demo, SIZE)
    session = scene.session
    states = [demo.at(n)[0].state_data() for n in range(len(demo) + 1)]
    screen = pygame.display.get_surface()
    assert scene.counter.text == "Step 0 of 5" and not scene.buttons["previous"].is_enabled
    for n in range(1, len(demo) + 1):
        key(scene, pygame.K_RIGHT)
        scene.update(0.02)
        scene.draw(screen)
        assert scene.position == n and scene.counter.text == f"Step {n} of 5"
        assert session.state_data() == states[n]
    assert not scene.buttons["next"].is_enabled
    key(scene, pygame.K_RIGHT)                                  # past the end: nothing happens
    assert scene.position == 5 and session.state_data() == states[5]
    for n in range(len(demo) - 1, -1, -1):
        key(scene, pygame.K_LEFT)
        assert scene.position == n and session.state_data() == states[n]
    press_button(scene, scene.buttons["next"])
    press_button(scene, scene.buttons["next"])
    assert scene.position == 2 and session.state_data() == states[2]
    press_button(scene, scene.buttons["previous"])
    assert scene.position == 1 and session.state_data() == states[1]
    key(scene, pygame.K_END)
    assert scene.position == 5
    press_button(scene, scene.buttons["restart"])
    assert scene.position == 0 and session.state_data() == states[0] and not session.steps


def test_demo_scene_caption_highlights_and_refusals():
    demo = Demo.load(FIRST)
    scene = DemoScene(None, demo, SIZE)
    assert "Moving, refusals and the turn" in scene.caption.html_text
    key(scene, pygame.K_RIGHT)
    text = scene.caption.html_text
    assert "The raiders move one hex south" in text and "Raiders moves to 1809" in text and "[HX 2.1]" in text
    assert scene.view.tools.highlighted == {"r1"}
    key(scene, pygame.K_RIGHT)                                  # the refused move
    text = scene.caption.html_text
    assert "Refused:" in text and "cannot reach 0314" in text and "[HX 2.1]" in text
    assert scene.control.error and "HX 2.1" in scene.control.message
    assert len(scene.session.steps) == 1                        # a refusal changes nothing
    key(scene, pygame.K_LEFT)                                   # ... and back over it undoes nothing
    assert len(scene.session.steps) == 1 and "Raiders moves to 1809" in scene.caption.html_text


def test_a_demo_cannot_be_played_by_dragging():
    from tests.client.conftest import drag, screen_of

    scene = DemoScene(None, Demo.load(FIRST), SIZE)
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1809"))
    assert scene.session.state["pieces"]["r1"]["at"] == "1808" and "demonstration" in scene.control.message
    key(scene, pygame.K_z, pygame.KMOD_CTRL)                   # Ctrl+Z is "previous", not an undo behind its back
    assert scene.position == 0 and not scene.session.steps


def test_cli_demo_lists_and_opens(demos_dir, monkeypatch, capsys):
    from simulator.client import app

    assert cli.main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "client_hex/first-moves" in out and "Moving, refusals and the turn" in out
    seen = []
    monkeypatch.setattr(app.App, "run", lambda self, max_frames=None: seen.append(self.scene) or 0)
    assert cli.main(["demo", "client_hex/first-moves"]) == 0
    assert isinstance(seen[0], DemoScene) and seen[0].position == 0


def test_cli_render_demo_step_writes_a_png(demos_dir, tmp_path, capsys):
    out = tmp_path / "step2.png"
    assert cli.main(["render", "demos/client_hex/first-moves", "--step", "2", "--out", str(out),
                     "--size", "900x600"]) == 0
    img = pygame.image.load(str(out))
    assert img.get_size() == (900, 600)
    plain = tmp_path / "step0.png"
    assert cli.main(["render", str(FIRST), "--step", "0", "--out", str(plain), "--size", "900x600"]) == 0
    assert pygame.image.tobytes(img, "RGB") != pygame.image.tobytes(pygame.image.load(str(plain)), "RGB")
    assert cli.main(["render", "client_hex/first-moves", "--step", "9", "--out", str(out)]) == 2
    assert "steps 0 to 5" in capsys.readouterr().err


@pytest.mark.parametrize("name, where, what", [
    ("does-not-replay.yaml", ":5: actions[1]", "does not replay: illegal"),
    ("bad-yaml.yaml", ":", ""),
    ("unknown-key.yaml", ":3", "actoins"),
])
def test_a_bad_demo_is_a_one_line_error_with_file_and_line(name, where, what, tmp_path, capsys):
    path = BAD / name
    for argv in (["demo", str(path)], ["render", str(path), "--step", "1", "--out", str(tmp_path / "x.png")]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err
        assert f"{path}{where}" in err and what in err
    assert not (tmp_path / "x.png").exists()


def test_back_to_list_returns_to_the_demonstrations_and_ctrl_q_quits(demos_dir) -> None:
    class Host:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def to_picker(self, tab: str = "scenarios") -> None:
            self.calls.append(f"picker:{tab}")

        def quit(self) -> None:
            self.calls.append("quit")

    host = Host()
    scene = DemoScene(host, Demo.load(FIRST), SIZE)
    assert scene.buttons["quit"].text == "Back to list"
    scene.button("quit")
    assert host.calls == ["picker:demos"]
    key(scene, pygame.K_q, pygame.KMOD_CTRL)
    assert host.calls == ["picker:demos", "quit"]


def test_the_app_opens_the_list_on_the_demonstrations_tab(demos_dir) -> None:
    from simulator.client import app

    a = app.App(SIZE, 0, picker=False)
    a.to_picker("demos")
    assert a.scene.tab == "demos"
    a.to_picker()
    assert a.scene.tab == "scenarios"
