"""The window while the autosave fails: a dialog, a red warning that stays until a save
succeeds (undo and redo do not hide it), quitting asks first (Ctrl+Q, the close button, with
the help or a dialog open), and a redo that no longer replays is refused, not a crash."""

from __future__ import annotations

import errno
import json

import pygame
import pytest
from pygame_gui.windows import UIMessageWindow

from simulator.client.dialogs import QuitDialog, SaveDialog
from simulator.client.game_scene import GameScene
from simulator.client.panels import STATUS
from simulator.core import savefile
from tests.client.conftest import SIZE, drag, key, make_scene, press_button, screen_of

CTRL = pygame.KMOD_CTRL


class Host:
    def __init__(self) -> None:
        self.quits = 0

    def quit(self) -> None:
        self.quits += 1


@pytest.fixture
def full_disk(monkeypatch):
    """Every write through the save module's seam fails as on a full disk until ``.full = False``."""

    class Disk:
        full = True

    disk = Disk()
    real_write, real_append = savefile.write_atomically, savefile.append_text

    def write(path, text):
        if disk.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(path, text)

    def append(path, text, size):
        if disk.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_append(path, text, size)

    monkeypatch.setattr("simulator.core.savefile.write_atomically", write)
    monkeypatch.setattr("simulator.core.savefile.append_text", append)
    return disk


def scene_with_host():
    scene = make_scene("hex")
    host = Host()
    scene.host = host
    return scene, host


def move(scene, a: str, b: str) -> None:
    drag(scene, screen_of(scene, a), screen_of(scene, b))


def red_strip_shown(scene) -> bool:
    screen = pygame.display.get_surface()
    scene.draw(screen)
    return screen.get_at((3, SIZE[1] - STATUS - 6))[:3] == (150, 28, 24)


def messages(scene) -> list[UIMessageWindow]:
    return [e for e in scene.ui.get_root_container().elements if isinstance(e, UIMessageWindow)]


def test_the_warning_stays_through_undo_and_redo_until_a_save_succeeds(full_disk):
    scene, host = scene_with_host()
    move(scene, "1808", "1809")
    session = scene.model.session
    assert session.state["pieces"]["r1"]["at"] == "1809"            # the move stands
    assert "No space left" in session.autosave_error and session.unsaved
    assert len(messages(scene)) == 1                               # told once, in a dialog
    assert red_strip_shown(scene)
    key(scene, pygame.K_z, CTRL)
    assert "autosave failed" in scene.control.message and scene.control.error
    assert red_strip_shown(scene)
    key(scene, pygame.K_y, CTRL)
    assert red_strip_shown(scene) and len(messages(scene)) == 1     # no second dialog
    resized = GameScene(host, session, SIZE)                       # the window was resized
    assert red_strip_shown(resized) and messages(resized) == []
    full_disk.full = False
    key(scene, pygame.K_z, CTRL)                                   # this autosave succeeds
    assert session.autosave_error == "" and not session.unsaved
    assert not red_strip_shown(scene)
    key(scene, pygame.K_q, CTRL)
    assert host.quits == 1                                         # saved: quits at once


def test_quitting_with_unsaved_changes_asks_first(full_disk):
    scene, host = scene_with_host()
    move(scene, "1808", "1809")
    key(scene, pygame.K_q, CTRL)
    assert host.quits == 0 and isinstance(scene.quit_dialog, QuitDialog)
    key(scene, pygame.K_ESCAPE)                                    # stay
    assert scene.quit_dialog is None and host.quits == 0
    key(scene, pygame.K_q, CTRL)
    press_button(scene, scene.quit_dialog.save)                    # save under a name instead
    assert isinstance(scene.dialog, SaveDialog) and host.quits == 0
    key(scene, pygame.K_q, CTRL)                                   # Ctrl+Q works with the dialog open
    assert scene.quit_dialog is not None and scene.dialog is None
    press_button(scene, scene.quit_dialog.quit)
    assert host.quits == 1


def test_ctrl_q_works_with_the_help_open(full_disk):
    scene, host = scene_with_host()
    full_disk.full = False
    key(scene, pygame.K_F1)
    assert scene.show_help
    key(scene, pygame.K_q, CTRL)
    assert host.quits == 1
    key(scene, pygame.K_ESCAPE)                                    # the help closes
    full_disk.full = True
    move(scene, "1808", "1809")
    assert scene.model.session.unsaved
    key(scene, pygame.K_F1)
    key(scene, pygame.K_q, CTRL)
    assert host.quits == 1 and scene.quit_dialog is not None and not scene.show_help
    scene.draw(pygame.display.get_surface())


def test_the_window_close_button_asks_the_scene():
    from simulator.client.app import App

    class Scene:
        asked = 0

        def request_quit(self) -> None:
            self.asked += 1

    app = App.__new__(App)
    app.running = True
    app.scene = Scene()
    App.request_quit(app)
    assert app.running and app.scene.asked == 1
    app.scene = object()                # a scene with nothing to lose: the window closes
    App.request_quit(app)
    assert not app.running


def test_saving_under_a_name_clears_the_warning(full_disk, tmp_path):
    scene, host = scene_with_host()
    move(scene, "1808", "1809")
    full_disk.full = False
    scene.save_as("kept")
    assert scene.model.session.autosave_error == "" and not scene.model.session.unsaved
    assert not red_strip_shown(scene)


def test_a_redo_that_no_longer_replays_is_refused_and_the_window_goes_on(tmp_path):
    from simulator.core.session import Session

    scene, host = scene_with_host()
    move(scene, "1808", "1809")
    key(scene, pygame.K_z, CTRL)
    path = tmp_path / "edited.yaml"
    scene.model.session.save(path)

    header, body = savefile.split_header(path.read_text())
    chain = savefile.read_header(header, "x")["sha256"]
    out = [header]
    for raw in body.splitlines(keepends=True):     # the undone move now goes off the map
        record = json.loads(raw[2:-len(',"chain":"') - 64 - 3] + "}")
        if record["op"] == "do":
            record["action"] = {**record["action"], "to": "9999"}
        line, chain = savefile.record_line(chain, record)
        out.append(line)
    path.write_text("".join(out))

    scene.replace_session(Session.load(path))
    scene.host = host
    assert scene.model.session.can_redo()
    key(scene, pygame.K_y, CTRL)
    assert scene.control.error and "cannot redo" in scene.control.message
    assert not scene.model.session.can_redo()
    assert scene.model.session.state["pieces"]["r1"]["at"] == "1808"
    move(scene, "1808", "1809")                                     # and play goes on
    assert scene.model.session.state["pieces"]["r1"]["at"] == "1809"


def test_solo_undo_goes_back_to_the_humans_turn_while_the_autosave_fails(full_disk):
    from simulator.client import paths
    from simulator.client.solo import SoloConfig
    from simulator.core.session import Session
    from tests.client.games import scenario_path
    from tests.client.test_solo import run_until

    full_disk.full = False
    session = Session.new(str(scenario_path("hex-orders")), 3, autosave=paths.autosave_path())
    scene = GameScene(None, session, SIZE, SoloConfig("red", "easy", pause=0.0))
    move(scene, "1808", "1809")
    press_button(scene, scene.panels.buttons["end_phase"])
    run_until(scene, lambda: session.active_player() == "red")
    full_disk.full = True
    key(scene, pygame.K_z, CTRL)             # the computer's reply and the human's end of phase
    assert session.active_player() == "red" and session.state["pieces"]["r1"]["at"] == "1809"
    assert len(session.steps) == 1 and session.autosave_error and "autosave failed" in scene.control.message
