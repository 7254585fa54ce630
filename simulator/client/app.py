"""``simulator play``: the window, the main loop and switching between scenes."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pygame

from simulator.client import fonts, paths
from simulator.client.demo_scene import DemoScene
from simulator.client.forces_scene import ForceFlow, ForceScene
from simulator.client.game_scene import GameScene
from simulator.client.picker import PickerScene
from simulator.client.solo import SoloConfig, check_solo
from simulator.core.data import load_yaml
from simulator.core.demo import Demo
from simulator.core.errors import DataError
from simulator.core.scenario import Scenario, load_scenario
from simulator.core.session import SAVE_FORMAT, Session
from simulator.core.view import force_selections

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


def _is_save(target: str | None) -> bool:
    path = Path(target or "")
    if path.suffix not in (".yaml", ".yml") or not path.exists():
        return False
    data = load_yaml(path).data
    return isinstance(data, dict) and data.get("format") == SAVE_FORMAT


class App:
    def __init__(self, size: tuple[int, int], seed: int | None) -> None:
        self.size = size
        self.seed = seed
        self.screen = init_pygame(size)
        self.scene: GameScene | PickerScene | DemoScene | ForceScene = PickerScene(self, size)
        self.running = True

    # -- the host interface of the scenes ----------------------------------------------
    def start(self, scenario: Scenario, solo: SoloConfig | None = None) -> None:
        """Start ``scenario``: first the force-selection screen when it asks for one."""
        try:
            needs_forces = bool(force_selections(scenario))
            if needs_forces:
                self.scene = ForceScene(self, ForceFlow.start(scenario, solo), self.size)
                pygame.display.set_caption(f"{scenario.name}: choose forces - Tabletop simulator")
                return
        except DataError as exc:
            self.scene = PickerScene(self, self.size, notice=f"Could not start: {exc}")
            return
        self.launch(scenario, solo)

    def launch(self, scenario: Scenario, solo: SoloConfig | None = None) -> None:
        """Start ``scenario`` as it is (its forces chosen)."""
        try:
            session = Session.new(scenario, self.seed or 0, autosave=paths.autosave_path())
        except (DataError, OSError) as exc:
            self.scene = PickerScene(self, self.size, notice=f"Could not start: {exc}")
            return
        self.open_session(session, solo)

    def resume(self, path: Path, solo: SoloConfig | None = None) -> None:
        try:
            session = Session.load(path, autosave=paths.autosave_path())
        except (DataError, OSError) as exc:
            self.scene = PickerScene(self, self.size, notice=f"Could not resume: {exc}")
            return
        self.open_session(session, solo)

    def open_session(self, session: Session, solo: SoloConfig | None = None) -> None:
        try:
            self.scene = GameScene(self, session, self.size, solo)
        except DataError as exc:
            self.scene = PickerScene(self, self.size, notice=str(exc))
        mode = f" - solo as {solo.human}, computer {solo.level}" if solo else ""
        pygame.display.set_caption(f"{session.scenario.name}{mode} - Tabletop simulator")

    def open_demo(self, demo: Demo, step: int = 0) -> None:
        try:
            self.scene = DemoScene(self, demo, self.size, step)
        except DataError as exc:
            self.scene = PickerScene(self, self.size, notice=str(exc))
            return
        pygame.display.set_caption(f"Demonstration: {demo.title} - Tabletop simulator")

    def to_picker(self) -> None:
        self.scene = PickerScene(self, self.size)

    def quit(self) -> None:
        self.running = False

    # -- the loop -------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        scene = self.scene
        if isinstance(scene, GameScene):
            self.scene = GameScene(self, scene.model.session, size, scene.solo)
            self.scene.view.labels = scene.view.labels
        elif isinstance(scene, DemoScene):
            self.scene = DemoScene(self, scene.demo, size, scene.position)
        elif isinstance(scene, ForceScene):
            self.scene = ForceScene(self, scene.flow, size)
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


def play(target: str | None, seed: int | None, size: tuple[int, int], *, solo: str | None = None,
         level: str = "easy", demo: str | None = None) -> int:
    """Open the program: the scenario picker, straight into a scenario or a save
    (``solo``: the human's side, the computer plays the others at ``level``), or a
    demonstration (``demo``: an id ``<game>/<name>`` or a path)."""
    loaded = Demo.load(demo) if demo else None
    if solo is not None and not target:
        raise DataError("--solo needs a scenario or a save to play (simulator play SCENARIO --solo SIDE)")
    session = open_target(target, seed) if target else None
    config = SoloConfig(solo, level) if solo is not None else None
    if session is not None and config is not None:
        check_solo(session, config)
    app = App(size, seed)
    if loaded is not None:
        app.open_demo(loaded)
    elif session is not None and not session.steps and not _is_save(target) and force_selections(session.scenario):
        app.start(session.scenario, config)          # the force-selection screen first
    elif session is not None:
        app.open_session(session, config)
    try:
        return app.run()
    finally:
        pygame.quit()
