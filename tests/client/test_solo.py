"""Solo play: the computer answers from a background thread, its move is applied on the
main thread like a human's, and undo takes back its reply with the move it answered."""

from __future__ import annotations

import threading
import time

import pygame
import pytest

from simulator.client.game_scene import GameScene
from simulator.client.solo import SessionSnapshot, SoloConfig
from simulator.core.session import Session
from tests.client.conftest import SIZE, drag, key, press_button, screen_of
from tests.client.test_interaction import choose
from tests.client.games import scenario_path


def solo_scene(name: str, human: str = "red", level: str = "easy") -> GameScene:
    session = Session.new(str(scenario_path(name)), 3)
    return GameScene(None, session, SIZE, SoloConfig(human, level, pause=0.0))


def run_until(scene: GameScene, done, seconds: float = 20.0) -> int:
    """Drive the scene's frame loop (update + draw) until ``done()``; returns the frames."""
    screen = pygame.display.get_surface()
    frames = 0
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the computer did not move in time"
        scene.update(0.02)
        if frames % 10 == 0:
            scene.draw(screen)
        frames += 1
        time.sleep(0.001)
    return frames


class Gate:
    """A computer player that waits for the test to let it answer (from its thread)."""

    name = "gate"

    def __init__(self, action: dict) -> None:
        self.action = action
        self.progress = 0.0
        self.release = threading.Event()
        self.threads: list[str] = []

    def choose(self, session, side):
        self.threads.append(threading.current_thread().name)
        assert isinstance(session, SessionSnapshot)      # never the live session
        self.progress = 0.5
        assert self.release.wait(10)
        return self.action


def test_the_computer_answers_from_a_thread_and_the_human_plays_again():
    scene = solo_scene("hex-orders")
    session = scene.model.session
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1809"))
    press_button(scene, scene.panels.buttons["end_phase"])
    assert session.active_player() == "blue" and scene.computer_to_move()
    assert not scene.panels.buttons["end_phase"].is_enabled
    human_steps = len(session.steps)
    run_until(scene, lambda: session.active_player() == "red")
    computer = session.history[human_steps:]
    assert computer and computer[-1] == {"type": "end_phase"}
    assert all(a["type"] == "end_phase" or a["piece"].startswith("b") for a in computer)
    log = [e.text for e in session.log]
    assert "blue to play (turn 1)" in log and log[-1] == "red to play (turn 2)"
    assert scene.model.lock == "" and not scene.computer.thinking
    assert scene.control.message.startswith("Computer (blue):")
    # the human plays on as usual
    drag(scene, screen_of(scene, "1809"), screen_of(scene, "1810"))
    assert session.state["pieces"]["r1"]["at"] == "1810"


def test_the_window_keeps_running_while_the_computer_thinks():
    scene = solo_scene("hex-orders")
    session = scene.model.session
    gate = Gate({"type": "move", "piece": "b3", "to": "1708"})
    scene.computer.players["blue"] = gate
    press_button(scene, scene.panels.buttons["end_phase"])
    screen = pygame.display.get_surface()
    for _ in range(30):                          # frames go on while choose() is blocked
        scene.update(0.02)
        scene.draw(screen)
    assert scene.computer.thinking and gate.threads and gate.threads[0] != threading.current_thread().name
    assert scene.computer.turn.progress == 0.5
    drag(scene, screen_of(scene, "1607"), screen_of(scene, "1608"))      # nor move the computer's pieces
    assert session.state["pieces"]["b3"]["at"] == "1607" and "played by the computer" in scene.control.message
    gate.release.set()
    run_until(scene, lambda: len(session.steps) == 2)
    assert session.state["pieces"]["b3"]["at"] == "1708"
    assert scene.view.tools.highlighted == {"b3"}                      # the event's data["pieces"]
    assert [e.kind for e in session.steps[-1].events][-1] == "move"


def test_undo_takes_back_the_computers_reply_too():
    scene = solo_scene("hex-orders")
    session = scene.model.session
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1809"))
    press_button(scene, scene.panels.buttons["end_phase"])
    run_until(scene, lambda: session.active_player() == "red")
    assert len(session.steps) > 2
    key(scene, pygame.K_z, pygame.KMOD_CTRL)
    # back to red's turn before the end of phase: red's move stands, the rest is undone
    assert len(session.steps) == 1 and session.active_player() == "red"
    assert session.state["pieces"]["r1"]["at"] == "1809"
    scene.update(0.02)
    assert not scene.computer.thinking
    key(scene, pygame.K_y, pygame.KMOD_CTRL)               # redo goes to red's next turn again
    assert session.active_player() == "red" and len(session.steps) > 2


def test_undo_while_the_computer_thinks_drops_its_answer():
    scene = solo_scene("hex-orders")
    session = scene.model.session
    gate = Gate({"type": "move", "piece": "b3", "to": "1708"})
    scene.computer.players["blue"] = gate
    press_button(scene, scene.panels.buttons["end_phase"])
    scene.update(0.02)
    assert scene.computer.thinking
    press_button(scene, scene.panels.buttons["undo"])
    assert len(session.steps) == 0 and session.active_player() == "red"
    gate.release.set()
    for _ in range(20):
        scene.update(0.02)
        time.sleep(0.002)
    assert len(session.steps) == 0 and session.state["pieces"]["b3"]["at"] == "1607"


def test_secret_choices_in_solo_no_handover_for_the_computer():
    scene = solo_scene("ship", human="red")
    session = scene.model.session
    # the human's own secret choice is made with the board in view (nobody else to hand over to)
    assert scene.handover is None and not scene.covered()
    choose(scene, "speed 2")
    assert session.state["speeds"]["red"] == 2
    assert scene.handover is None and scene.computer_to_move()  # blue's choice: no hand-over screen
    run_until(scene, lambda: session.state["speeds"]["blue"] is not None)
    assert scene.handover is None and session.active_player() == "red"
    assert scene.model.state["speeds"] == {"red": 2, "blue": "hidden"}   # the human does not see it
    assert session.log[-1].text == "blue has chosen a speed"


def test_the_computer_can_play_first():
    scene = solo_scene("hex-orders", human="blue")
    session = scene.model.session
    gate = Gate({"type": "end_phase"})
    gate.release.set()
    scene.computer.players["red"] = gate
    run_until(scene, lambda: session.active_player() == "blue")
    assert session.history == [{"type": "end_phase"}]
    assert scene.model.viewer == "blue"


def test_picker_offers_hotseat_or_solo_with_side_and_level():
    import pygame_gui

    from simulator.client.picker import PickerScene

    started = []

    class Host:
        def start(self, scenario, solo=None):
            started.append((scenario.name, solo))

        def resume(self, path, solo=None): ...

        def quit(self): ...

    picker = PickerScene(Host(), SIZE, scenarios=[("client_hex/hex", scenario_path("hex"))])
    label = next(iter(picker.entries))
    picker.handle(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=picker.list, text=label))
    assert set(picker.side_buttons) == {"red", "blue"}
    assert not picker.side_buttons["red"].visible                      # hotseat: no side to choose
    press_button(picker, picker.start_button)
    assert started[-1][1] is None
    press_button(picker, picker.mode_buttons["solo"])
    assert picker.side_buttons["blue"].visible
    press_button(picker, picker.side_buttons["blue"])
    press_button(picker, picker.level_buttons["normal"])
    picker.draw(pygame.display.get_surface())
    press_button(picker, picker.start_button)
    assert started[-1][1] == SoloConfig("blue", "normal")


def test_cli_play_solo_checks_the_side_and_starts_solo(monkeypatch, capsys):
    from simulator import cli
    from simulator.client import app

    assert cli.main(["play", str(scenario_path("hex")), "--solo", "green"]) == 2
    err = capsys.readouterr().err
    assert "no side 'green'" in err and "red, blue" in err and len(err.strip().splitlines()) == 1
    assert cli.main(["play", "--solo", "red"]) == 2
    seen = []
    monkeypatch.setattr(app.App, "run", lambda self, max_frames=None: seen.append(self.scene) or 0)
    assert cli.main(["play", str(scenario_path("hex")), "--solo", "blue", "--level", "normal"]) == 0
    scene = seen[0]
    assert isinstance(scene, GameScene) and scene.solo == SoloConfig("blue", "normal")
    assert type(scene.computer.players["red"]).__name__ == "NormalPlayer"


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_snapshot_choices_match_the_live_session(level):
    from simulator.ai import make_player

    session = Session.new(str(scenario_path("hex")), 5)
    snap = SessionSnapshot(session)
    player = make_player(level, 1)
    if level == "normal":
        player.playouts = 5
    action = player.choose(snap, "red")
    assert session.check(action) is None and player.progress == 1.0
    if level == "easy":
        assert make_player(level, 1).choose(session, "red") == action
