"""``simulator play``: the window, the main loop and switching between scenes."""

from __future__ import annotations

import os
import sys
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Union

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # our one line, not pygame's banner

import pygame  # noqa: E402

from simulator.client import fonts, paths  # noqa: E402
from simulator.core.errors import DataError  # noqa: E402
from simulator.core.savefile import is_save  # noqa: E402
from simulator.core.session import Session  # noqa: E402
from simulator.core.view import force_selections  # noqa: E402

if TYPE_CHECKING:   # the scenes are imported when first shown: start-up pays only for the one it opens
    from simulator.client.demo_scene import DemoScene
    from simulator.client.forces_scene import ForceFlow, ForceScene
    from simulator.client.game_scene import GameScene
    from simulator.client.picker import PickerScene
    from simulator.client.solo import SoloConfig
    from simulator.core.demo import Demo
    from simulator.core.scenario import Scenario

    AnyScene = Union[GameScene, PickerScene, DemoScene, ForceScene]

FPS = 60


#: The window's title on the scenario list (a game's title is its name, then this).
CAPTION = "Tabletop simulator"


def init_pygame(size: tuple[int, int], caption: str = CAPTION) -> pygame.Surface:
    """The display (the dummy driver when there is no screen) and fonts; no audio."""
    warnings.filterwarnings("ignore", message=".*Preload this font.*")
    pygame.display.init()
    pygame.font.init()
    fonts.reset()
    pygame.key.set_repeat(300, 40)
    pygame.display.set_caption(caption)
    return pygame.display.set_mode(size, pygame.RESIZABLE if os.environ.get("SDL_VIDEODRIVER") != "dummy" else 0)


class NoDisplay(DataError):
    """No screen to open a window on (the CLI prints it as one line and exits with status 2)."""

    def __str__(self) -> str:
        return self.message      # no file to name: the message alone


#: SDL's stand-ins for a screen: it falls back to them, silently, when no real one answers.
HEADLESS_DRIVERS = ("offscreen", "dummy")


def check_display() -> None:
    """Refuse to open an invisible window: without a screen SDL falls back to an off-screen
    driver and the program would run unseen for ever. An SDL_VIDEODRIVER set on purpose
    (tests, benchmarks, pictures) is obeyed."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")) \
            and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        raise NoDisplay("no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set); "
                        "run it in a desktop session, or use `simulator render` for pictures")


def open_target(target: str, seed: int | None) -> tuple[Session, bool]:
    """A session for a scenario id, a scenario file or a save (DataError if none fits), and
    whether it came from a save."""
    from simulator.core.scenario import load_scenario

    autosave = paths.autosave_path()
    path = Path(target)
    if path.suffix in (".yaml", ".yml") and path.exists() and is_save(path):
        # the first line tells a save: a long game's journal is not parsed twice
        return Session.load(path, autosave=autosave), True
    return Session.new(load_scenario(target), seed or 0, autosave=autosave), False


#: After the last input, frames go on at full rate this long (seconds): pygame_gui's hover
#: highlights and tool tips (shown after a 1 s hover) and the crisp redraw after a zoom
#: gesture need frames with no new event; after that the loop sleeps until the next event.
HOT_AFTER_INPUT = 1.5
#: For this long after an input frames come at the full ``FPS``; then at ``WARM_FPS`` until
#: ``HOT_AFTER_INPUT``: pygame_gui's hover and tool tips change no faster than that.
BRISK_AFTER_INPUT = 0.25
WARM_FPS = 15
#: Longest sleep without an event: the loop wakes this often to ask whether an animation
#: (the computer's turn) has started, at the cost of one cheap check and no frame.
IDLE_WAIT_MS = 250
#: While idle the queue is looked at this often (seconds). Not ``pygame.event.wait``: pygame-ce
#: polls inside it about every millisecond, ~2 % of a core on its own; 50 looks a second cost
#: ~0.3 %, and the first event after an idle spell waits at most this long (about a frame).
IDLE_POLL = 0.02


#: Keys a press of which means one thing once: their key repeat (``set_repeat``) is dropped.
ONCE_KEYS = frozenset({pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB, pygame.K_F1})
#: With Ctrl, the keys that do repeat (held: undo or redo step after step).
CTRL_REPEATING = frozenset({pygame.K_z, pygame.K_y})


class KeyRepeats:
    """Drops the key repeats of keys meant once. pygame repeats a key held past the repeat delay
    until its release is read; a slow frame (a long phase change, a loaded machine) keeps a
    quick tap's release unread that long, and the tap came again: Esc opened the Esc menu and
    closed it, Ctrl+Enter ended the next phases too. Held arrows, zoom and Ctrl+Z still repeat."""

    def __init__(self) -> None:
        self.down: set[int] = set()

    def once_repeated(self, event: pygame.event.Event) -> bool:
        """True for a repeat to drop (a key meant once pressed again before its release)."""
        if event.type == pygame.KEYUP:
            self.down.discard(event.key)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.down.clear()
        elif event.type == pygame.KEYDOWN:
            if event.key in self.down:
                return event.key in ONCE_KEYS or bool(event.mod & pygame.KMOD_CTRL) and event.key not in CTRL_REPEATING
            self.down.add(event.key)
        return False


def wait_for_events(timeout_ms: int) -> list[pygame.event.Event]:
    """The events that arrive within ``timeout_ms`` (none: an empty list), sleeping between looks."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        events = pygame.event.get()
        if events or time.monotonic() >= deadline:
            return events
        time.sleep(IDLE_POLL)


class App:
    def __init__(self, size: tuple[int, int], seed: int | None, *, picker: bool = True) -> None:
        """``picker=False``: the caller opens the first scene (``simulator play SCENARIO``
        never builds the picker, which reads every scenario and demo)."""
        self.size = size
        self.seed = seed
        self.screen = init_pygame(size)
        if pygame.display.get_driver() in HEADLESS_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
            pygame.quit()                     # a display was named but none answered
            raise NoDisplay(f"no display to open the window on (SDL could not reach "
                            f"{os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY') or 'any screen'}); "
                            "use `simulator render` for pictures")
        self.scene: AnyScene
        if picker:
            self.to_picker()
        self.running = True

    # -- the host interface of the scenes ----------------------------------------------
    def _picker(self, notice: str = "") -> PickerScene:
        from simulator.client.picker import PickerScene

        return PickerScene(self, self.size, notice=notice) if notice else PickerScene(self, self.size)

    def start(self, scenario: Scenario, solo: SoloConfig | None = None) -> None:
        """Start ``scenario``: first the force-selection screen when it asks for one."""
        try:
            needs_forces = bool(force_selections(scenario))
            if needs_forces:
                from simulator.client.forces_scene import ForceFlow, ForceScene

                self.scene = ForceScene(self, ForceFlow.start(scenario, solo), self.size)
                pygame.display.set_caption(f"{scenario.name}: choose forces - Tabletop simulator")
                return
        except DataError as exc:
            self.scene = self._picker(f"Could not start: {exc}")
            return
        self.launch(scenario, solo)

    def launch(self, scenario: Scenario, solo: SoloConfig | None = None) -> None:
        """Start ``scenario`` as it is (its forces chosen)."""
        try:
            session = Session.new(scenario, self.seed or 0, autosave=paths.autosave_path())
        except (DataError, OSError) as exc:
            self.scene = self._picker(f"Could not start: {exc}")
            return
        self.open_session(session, solo)

    def resume(self, path: Path, solo: SoloConfig | None = None) -> None:
        try:
            session = Session.load(path, autosave=paths.autosave_path())
        except (DataError, OSError) as exc:
            self.scene = self._picker(f"Could not resume: {exc}")
            return
        self.open_session(session, solo)

    def open_session(self, session: Session, solo: SoloConfig | None = None) -> None:
        from simulator.client.game_scene import GameScene

        try:
            self.scene = GameScene(self, session, self.size, solo)
        except DataError as exc:
            self.scene = self._picker(str(exc))
        mode = f" - solo as {solo.human}, computer {solo.level}" if solo else ""
        pygame.display.set_caption(f"{session.scenario.name}{mode} - Tabletop simulator")

    def open_demo(self, demo: Demo, step: int = 0) -> None:
        from simulator.client.demo_scene import DemoScene

        try:
            self.scene = DemoScene(self, demo, self.size, step)
        except DataError as exc:
            self.scene = self._picker(str(exc))
            return
        pygame.display.set_caption(f"Demonstration: {demo.title} - Tabletop simulator")

    def to_picker(self, tab: str = "scenarios") -> None:
        """Back to the scenario list (``tab="demos"``: the demonstrations' list)."""
        picker = self._picker()
        if tab != picker.tab:
            picker.set_tab(tab)
        self.scene = picker
        pygame.display.set_caption(CAPTION)     # the list names no game

    def quit(self) -> None:
        self.running = False

    def request_quit(self) -> None:
        """The window's close button: a scene with unsaved changes asks first."""
        ask = getattr(self.scene, "request_quit", None)
        if ask is None:
            self.quit()
        else:
            ask()

    # -- the loop -------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        from simulator.client.demo_scene import DemoScene
        from simulator.client.forces_scene import ForceScene
        from simulator.client.game_scene import GameScene

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
            self.scene = self._picker()

    def animating(self) -> bool:
        """Whether the scene changes with no input: the computer's turn (its progress bar), or
        the board view finishing a zoom gesture (the crisp redraw)."""
        scene = self.scene
        computer_to_move = getattr(scene, "computer_to_move", None)
        if getattr(scene, "computer", None) is not None and computer_to_move is not None and computer_to_move():
            return True
        view = getattr(scene, "view", None)
        return bool(view is not None and getattr(view, "needs_frame", lambda: False)())

    def run(self, max_frames: int | None = None) -> int:
        """The main loop. Frames are drawn at up to ``FPS`` while there is input, an animation,
        or for ``HOT_AFTER_INPUT`` after the last input; otherwise it sleeps until an event
        comes (:func:`wait_for_events`) and an idle window costs next to no CPU."""
        clock = pygame.time.Clock()
        repeats = KeyRepeats()
        frames = 0
        last_input = time.monotonic()
        last_frame = last_input
        while self.running:
            busy = self.animating() or frames == 0
            quiet = time.monotonic() - last_input
            if busy or quiet < HOT_AFTER_INPUT:
                # full rate while things move; the tail after the input (a hover, a tool tip)
                # needs a few frames a second, not sixty
                clock.tick(FPS if busy or quiet < BRISK_AFTER_INPUT else WARM_FPS)
                events = pygame.event.get()
            else:
                events = wait_for_events(IDLE_WAIT_MS)
                if not events:
                    continue                  # nothing happened: no frame (the screen keeps the last one)
                clock.tick()                  # restart the frame clock after the sleep
            if events:
                last_input = time.monotonic()
            for event in events:
                if repeats.once_repeated(event):
                    continue
                if event.type == pygame.QUIT:
                    self.request_quit()
                elif event.type == pygame.VIDEORESIZE:
                    self.resize((max(640, event.w), max(480, event.h)))
                else:
                    self.scene.handle(event)
            now = time.monotonic()
            # one frame's time at most: a long sleep must not count as time passing in a
            # countdown (the computer's pause between moves restarts when it is shown)
            dt = min(now - last_frame, 1.0 / FPS * 4)
            last_frame = now
            self.scene.update(dt)
            self.scene.draw(self.screen)
            pygame.display.flip()
            frames += 1
            if max_frames is not None and frames >= max_frames:
                break
        return 0


def frames_limit() -> int | None:
    """``SIMULATOR_EXIT_AFTER_FRAMES=N``: stop after N frames (the start-up benchmark and tests
    measure process start to first frame with it)."""
    text = os.environ.get("SIMULATOR_EXIT_AFTER_FRAMES", "")
    try:
        return max(1, int(text)) if text else None
    except ValueError:
        raise DataError(f"SIMULATOR_EXIT_AFTER_FRAMES must be a whole number, not {text!r}") from None


def play(target: str | None, seed: int | None, size: tuple[int, int], *, solo: str | None = None,
         level: str = "easy", demo: str | None = None) -> int:
    """Open the program: the scenario picker, straight into a scenario or a save
    (``solo``: the human's side, the computer plays the others at ``level``), or a
    demonstration (``demo``: an id ``<game>/<name>`` or a path)."""
    check_display()
    max_frames = frames_limit()
    loaded = None
    if demo:
        from simulator.core.demo import Demo

        loaded = Demo.load(demo)
    if solo is not None and not target:
        raise DataError("--solo needs a scenario or a save to play (simulator play SCENARIO --solo SIDE)")
    session, from_save = open_target(target, seed) if target else (None, False)
    config = None
    if solo is not None:
        from simulator.client.solo import SoloConfig, check_solo

        config = SoloConfig(solo, level)
        if session is not None:
            check_solo(session, config)
    app = App(size, seed, picker=loaded is None and session is None)
    if loaded is not None:
        app.open_demo(loaded)
    elif session is not None and not session.steps and not from_save and force_selections(session.scenario):
        app.start(session.scenario, config)          # the force-selection screen first
    elif session is not None:
        app.open_session(session, config)
    try:
        return app.run(max_frames)
    finally:
        pygame.quit()
