import os
import warnings
from pathlib import Path

import pygame
import pytest

warnings.filterwarnings("ignore", message=".*Preload this font.*")

SIZE = (1280, 800)


@pytest.fixture(autouse=True)
def client_env(tmp_path, monkeypatch):
    """Test games registered, autosaves under a temporary SIMULATOR_HOME, a dummy display."""
    from tests.client.games import register_all

    register_all()
    monkeypatch.setenv("SIMULATOR_HOME", str(tmp_path / "home"))
    from simulator.client.app import init_pygame

    init_pygame(SIZE)
    yield tmp_path
    pygame.quit()


def make_scene(name: str, autosave: bool = True):
    from simulator.client import paths
    from simulator.client.game_scene import GameScene
    from simulator.core.session import Session
    from tests.client.games import scenario_path

    session = Session.new(str(scenario_path(name)), 3, autosave=paths.autosave_path() if autosave else None)
    return GameScene(None, session, SIZE)


def screen_of(scene, place) -> tuple[int, int]:
    x, y = scene.view.to_screen(scene.model.board.world_of(place))
    return int(round(x)), int(round(y))


def click(scene, pos, button=1) -> None:
    scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def drag(scene, start, end, button=1, steps=6) -> None:
    scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)))
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=button))
    for i in range(1, steps + 1):
        p = (start[0] + (end[0] - start[0]) * i // steps, start[1] + (end[1] - start[1]) * i // steps)
        scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(1, 1), buttons=(1, 0, 0)))
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=button))


def key(scene, k, mod=0) -> None:
    scene.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    scene.handle(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))


def press_button(scene, button) -> None:
    import pygame_gui

    scene.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))
