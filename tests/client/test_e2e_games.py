"""End to end, each real game in a real window under Xvfb, played with the mouse and the
keyboard only (xdotool): at least a full turn of both sides, then Esc -> "Back to the scenario
list". Where to click comes from the same layout code (``window_driver``); what happened is
read from the program's autosave; screenshots show the board and the panel drawn.

Each game starts from a save positioned just before its interesting step (the scripts of
docs/images/scripts, run to a save), so a run stays short. Skips when Xvfb or xdotool is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import pygame
import pytest

from simulator.client.app import CAPTION as PICKER_TITLE
from simulator.core.script import run_script
from tests.client.window_driver import ROOT, WindowDriver, tools_missing

SIZE = (1100, 720)
SCRIPTS = ROOT / "docs" / "images" / "scripts"

needs_x = pytest.mark.skipif(bool(tools_missing()), reason=tools_missing() or "-")


def positioned_save(script: str, folder: Path) -> Path:
    """The script's position as a save file to open with ``simulator play``."""
    result = run_script(SCRIPTS / f"{script}.yaml")
    assert not result.stopped and not result.failures, (result.stopped, result.failures)
    path = folder / f"{script}.yaml"
    result.session.save(path)
    return path


@pytest.fixture
def window(tmp_path: Path) -> Iterator[Callable[[str, str], WindowDriver]]:
    """``window(script, display)``: the program playing the script's position in a window."""
    drivers: list[WindowDriver] = []

    def open_window(script: str, display: str) -> WindowDriver:
        d = WindowDriver(positioned_save(script, tmp_path), tmp_path / "home", SIZE, display)
        drivers.append(d)
        d.start()
        return d

    yield open_window
    for d in drivers:
        d.stop()


def drawn_board(d: WindowDriver, shot: Path) -> None:
    """The board and the side panel are drawn in the window (not blank, not one colour)."""
    pixels = d.screenshot(shot)
    board = d.scene.view.camera.viewport
    panel = d.scene.side.rect
    for name, rect in (("board", board), ("side panel", panel)):
        part = pixels[rect.top:rect.bottom, rect.left:rect.right].reshape(-1, 3)
        colours = len(np.unique(part[:: max(1, len(part) // 4000)], axis=0))
        assert colours > 12, f"the {name} looks blank in {shot} ({colours} colours)"


def back_to_picker(d: WindowDriver) -> None:
    """Esc (nothing to cancel): the Esc menu; "Back to the scenario list": the picker."""
    d.key("Escape", pygame.K_ESCAPE)
    assert d.scene.pause is not None, "Esc did not open the Esc menu"
    d.drawn(d.scene.pause.window.rect, d.screenshot_array())
    d.press(d.scene.pause.buttons["list"])
    d._until(lambda: d.title() == PICKER_TITLE, "the scenario list (the window's title names no game)")
    assert d.quit() == 0


# ---------------------------------------------------------------------------------- Dragon Rage
@needs_x
def test_nurkott_invader_enters_from_its_box_and_both_sides_play_a_turn(window, tmp_path):
    d = window("nurkott-invaders", ":93")
    s = d.scene
    assert s.side.shown == "offmap:invader"
    drawn_board(d, tmp_path / "nurkott-start.png")
    # the Lord waits in the invader's box: dragged onto a hex he may reach, he enters the map
    d.drag(d.item_rect("hero2").center, d.hex_pos("0103"))
    d.settle()
    assert d.saved().state["units"]["hero2"]["hex"] == "0103"
    # the invader's remaining phases, then every phase of the defender, with Ctrl+Enter
    while s.model.state["active"] == "invader":
        d.end_phase()
        d.settle()
    turn = s.model.state["turn"]
    while s.model.state["active"] == "defender":
        d.end_phase()
        d.settle()
    state = d.saved().state
    assert state["turn"] == turn + 1 and state["active"] == "invader" and state["phase_index"] == 0
    drawn_board(d, tmp_path / "nurkott-next-turn.png")
    back_to_picker(d)


# ---------------------------------------------------------------------- found by these tests
def test_ctrl_enter_repeated_before_its_release_ends_one_phase(tmp_path):
    """A slow phase change held up the loop past pygame's key-repeat delay: the repeats of one
    Ctrl+Enter ended the next phases too (the Nurkott defender's phases ran by in one press)."""
    from simulator.client.game_scene import GameScene
    from simulator.core.session import Session

    scene = GameScene(None, Session.load(positioned_save("nurkott-invaders", tmp_path)), SIZE)
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=pygame.KMOD_CTRL, unicode="", scancode=0)
    up = pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=pygame.KMOD_CTRL, unicode="", scancode=0)
    ctrl = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LCTRL, mod=pygame.KMOD_CTRL, unicode="", scancode=0)
    steps = len(scene.model.session.history)
    for event in (down, down, down):          # the press and two repeats, its release still queued
        scene.handle(event)
    assert len(scene.model.session.history) == steps + 1
    scene.handle(up)
    scene.handle(down)                        # pressed again: the next phase ends
    assert len(scene.model.session.history) == steps + 2
    scene.handle(ctrl)                        # another key pressed between (its release lost)
    scene.handle(down)
    assert len(scene.model.session.history) == steps + 3


def test_the_scenario_list_title_names_no_game(tmp_path):
    """Back on the list from a game, the window's title named the game left."""
    from simulator.client import app
    from simulator.core.session import Session

    program = app.App(SIZE, 0, picker=False)
    program.open_session(Session.load(positioned_save("nurkott-invaders", tmp_path)))
    assert pygame.display.get_caption()[0].startswith("Nurkott 1")
    program.to_picker()
    assert pygame.display.get_caption()[0] == PICKER_TITLE
