"""``simulator play``: the window, the main loop and switching between scenes."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pygame

from simulator.client import fonts, paths
from simulator.client.game_scene import GameScene
from simulator.client.picker import PickerScene
from simulator.core.data import load_yaml
from simulator.core.errors import DataError
from simulator.core.scenario import Scenario, load_scenario
from simulator.core.session import SAVE_FORMAT, Session

FPS = 60


def init_pygame(size: tuple[int, int], caption: str = "Tabletop simulator") -> pygame.Surface:
    """The display (the dummy driver when there is no screen) and fonts; no audio."""
    warnings.filterwarnings("ignore", message=".*Preload this font.*")
    pygame.display.init()
    pygame.font.init()
    fonts.reset()
    pygame.key.set_repeat(300, 40)
    pygame.display.set_caption(caption)
    return pygame.display.set_mode(size, pygame.RESIZABLE if os.environ.get("SDL_VIDEODRIVER") != "dummy" else 0)


def open_target(target: str, seed: int | None) -> Session:
    """A session for a scenario id, a scenario file or a save (DataError if none fits)."""
    autosave = paths.autosave_path()
    path = Path(target)
    if path.suffix in (".yaml", ".yml") and path.exists():
        doc = load_yaml(path)
        if isinstance(doc.data, dict) and doc.data.get("format") == SAVE_FORMAT:
            return Session.load(path, autosave=autosave)
    return Session.new(load_scenario(target), seed or 0, autosave=autosave)


class App:
    def __init__(self, size: tuple[int, int], seed: int | None) -> None:
        self.size = size
        self.seed = seed
        self.screen = init_pygame(size)
        self.scene: GameScene | PickerScene = PickerScene(self, size)
        self.running = True

    # -- the host interface of the scenes ----------------------------------------------
    def start(self, scenario: Scenario) -> None:
        try:
            session = Session.new(scenario, self.seed or 0, autosave=paths.autosave_path())
        except (DataError, OSError) as exc:
            self.scene = PickerScene(self, self.size, notice=f"Could not start: {exc}")
            return
        self.open_session(session)

    def resume(self, path: Path) -> None:
        try:
            session = Session.load(path, autosave=paths.autosave_path())
        except (DataError, OSError) as exc:
            self.scene = PickerScene(self, self.size, notice=f"Could not resume: {exc}")
            return
        self.open_session(session)

    def open_session(self, session: Session) -> None:
        try:
            self.scene = GameScene(self, session, self.size)
        except DataError as exc:
            self.scene = PickerScene(self, self.size, notice=str(exc))
        pygame.display.set_caption(f"{session.scenario.name} - Tabletop simulator")

    def to_picker(self) -> None:
        self.scene = PickerScene(self, self.size)

    def quit(self) -> None:
        self.running = False

    # -- the loop -------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        scene = self.scene
        if isinstance(scene, GameScene):
            self.scene = GameScene(self, scene.model.session, size)
            self.scene.view.labels = scene.view.labels
        else:
            self.scene = PickerScene(self, size)

    def run(self, max_frames: int | None = None) -> int:
        clock = pygame.time.Clock()
        frames = 0
        while self.running:
            dt = clock.tick(FPS) / 1000.0
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    self.running = False
                elif event.type == pygame.VIDEORESIZE:
                    self.resize((max(640, event.w), max(480, event.h)))
                else:
                    self.scene.handle(event)
            self.scene.update(dt)
            self.scene.draw(self.screen)
            pygame.display.flip()
            frames += 1
            if max_frames is not None and frames >= max_frames:
                break
        return 0


def play(target: str | None, seed: int | None, size: tuple[int, int]) -> int:
    """Open the program: the scenario picker, or straight into a scenario or a save."""
    session = open_target(target, seed) if target else None
    app = App(size, seed)
    if session is not None:
        app.open_session(session)
    try:
        return app.run()
    finally:
        pygame.quit()
