"""Driving the real program's window under Xvfb with xdotool, for the end-to-end tests.

Where to click comes from a *shadow*: a :class:`GameScene` of the same save, at the same window
size, built in the test process (the same layout code the program runs). Every gesture is sent
to the window with xdotool and given to the shadow as the pygame event the program receives, so
the shadow's side panels, menus and dialogs stay where the window's are. After a gesture that
acts, the test waits for the program's autosave and checks that it holds exactly the shadow's
actions: the window did what the gesture meant, or the test fails saying what it did instead.

With ``live=False`` only the shadow plays (no window): the same test code, to work out a
sequence of gestures quickly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pygame
import pygame_gui
import pytest

from simulator.core.errors import DataError
from simulator.core.game import Action
from simulator.core.savefile import read_journal, split_header
from simulator.core.session import Session

ROOT = Path(__file__).resolve().parents[2]
SCREEN = (1280, 800)
#: Generous: CI may run beside other jobs on two cores; every wait polls and ends early.
TIMEOUT = 40.0
LAUNCH = ("import sys; sys.path.insert(0, {root!r}); from tests.client.games import register_all; register_all(); "
          "from simulator.cli import main; sys.exit(main(sys.argv[1:]))")


def tools_missing() -> str:
    """Why a real-window test cannot run here ("" when it can)."""
    missing = [t for t in ("Xvfb", "xdotool") if not shutil.which(t)]
    if not (shutil.which("import") or shutil.which("xwd")):
        missing.append("import (ImageMagick) or xwd (x11-apps)")
    return f"needs {', '.join(missing)} (.ci/run installs them)" if missing else ""


def _xwd_pixels(data: bytes) -> np.ndarray:
    """An XWD file (``xwd -root``, 24/32 bits a pixel, ZPixmap) as an (h, w, 3) array."""
    head = np.frombuffer(data[:100], dtype=">u4")
    header_size, width, height, order, bpp, stride, ncolors = (int(head[i]) for i in (0, 4, 5, 7, 11, 12, 19))
    start = header_size + 12 * ncolors
    rows = np.frombuffer(data[start:start + stride * height], dtype=np.uint8).reshape(height, stride)
    pixels = rows[:, : width * bpp // 8].reshape(height, width, bpp // 8)
    rgb = pixels[:, :, [2, 1, 0]] if order == 0 else pixels[:, :, [bpp // 8 - 3, bpp // 8 - 2, bpp // 8 - 1]]
    return np.ascontiguousarray(rgb)


class WindowDriver:
    """The program playing ``save`` in a window on ``display`` (or, not ``live``, the shadow alone)."""

    def __init__(self, save: Path, home: Path, size: tuple[int, int], display: str, live: bool = True) -> None:
        from simulator.client.game_scene import GameScene

        self.save, self.home, self.size, self.display, self.live = save, home, size, display, live
        self.scene = GameScene(None, Session.load(save), size)
        self.autosave = home / "autosave.yaml"
        self.env = {**os.environ, "DISPLAY": display, "SIMULATOR_HOME": str(home), "SDL_VIDEO_WINDOW_POS": "0,0"}
        self.env.pop("SDL_VIDEODRIVER", None)
        self.env.pop("SDL_AUDIODRIVER", None)
        self.xvfb: subprocess.Popen | None = None
        self.prog: subprocess.Popen | None = None
        self.wid = ""
        self.shots: list[Path] = []
        self._seen: tuple[float, int] | None = None
        self._saved: Session | None = None
        #: The actions of the save opened (the gestures' come after them).
        self.start_steps = len(self.scene.model.session.history)
        #: The window before the gesture that opened the menu (its rows are clicked once it shows).
        self._blank_menu: np.ndarray | None = None

    # -- the program ------------------------------------------------------------------------
    def start(self) -> None:
        if not self.live:
            return
        self.xvfb = subprocess.Popen(["Xvfb", self.display, "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
                                      "-nolisten", "tcp", "-r"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._until(lambda: self._xdo("getmouselocation").returncode == 0, "Xvfb to answer", 15)
        if self.xvfb.poll() is not None:        # the display is taken: another server answered
            pytest.skip(f"Xvfb could not start on {self.display}")
        self.prog = subprocess.Popen([sys.executable, "-c", LAUNCH.format(root=str(ROOT)), "play", str(self.save),
                                      "--size", f"{self.size[0]}x{self.size[1]}"],
                                     env=self.env, cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE)

        def window() -> bool:
            found = self._xdo("search", "--classname", ".").stdout.split()   # no window manager: no names
            self.wid = found[0] if found else ""
            return bool(self.wid)

        self._until(window, "the window to appear")
        self._xdo("windowfocus", self.wid)      # no window manager: keys go where focus is set
        # the first frame: the board area is drawn (not the blank window)
        self._until(lambda: self.screenshot_array().std() > 20, "the first frame to be drawn")

    def title(self) -> str:
        return self._xdo("getwindowname", self.wid).stdout.strip()

    def stop(self) -> str:
        """End everything; the program's stderr."""
        err = ""
        if self.prog is not None:
            if self.prog.poll() is None:
                self.prog.kill()
            _, raw = self.prog.communicate(timeout=10)
            err = raw.decode(errors="replace")
        if self.xvfb is not None:
            self.xvfb.terminate()
            self.xvfb.wait(timeout=10)
        return err

    def quit(self) -> int:
        """Ctrl+Q: the program's exit status."""
        assert self.prog is not None
        self._xdo("key", "ctrl+q")
        self.prog.wait(timeout=TIMEOUT)
        return int(self.prog.returncode)

    # -- waiting ----------------------------------------------------------------------------
    def _until(self, ok: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
        end = time.monotonic() + timeout
        while not ok():
            if self.prog is not None and self.prog.poll() is not None:
                raise AssertionError(f"the program ended waiting for {what}: "
                                     f"{self.prog.stderr.read().decode(errors='replace')[-2000:]}")  # type: ignore
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.1)

    def _xdo(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20)

    def saved(self) -> Session | None:
        """The program's autosave as a session (read again only when the file changed)."""
        try:
            st = self.autosave.stat()
        except FileNotFoundError:
            return None
        if self._seen != (st.st_mtime, st.st_size):
            try:
                self._saved = Session.load(self.autosave)
            except Exception:               # caught while being written: read it next time
                return None
            self._seen = (st.st_mtime, st.st_size)
        return self._saved

    def played(self) -> Session:
        """What the program played: its autosave, after :meth:`settle` (the shadow when not live)."""
        if not self.live:
            return self.scene.model.session
        got = self.saved()
        assert got is not None, "the program has not autosaved"
        return got

    def journal(self) -> dict[int, Any] | None:
        """The actions the autosave's journal records, by their count (the first is 1), read
        without replaying them: cheap enough to poll; None while there is none."""
        try:
            text = self.autosave.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        if split_header(text) is None:
            return None
        try:
            records = read_journal(text, str(self.autosave)).records
        except DataError:                   # caught while being written: read it next time
            return None
        return {r.data["n"] + 1: r.data["action"] for r in records if r.op == "do"}     # n counts from 0

    def settle(self) -> None:
        """Wait until the autosave holds as many actions as the shadow, then check that the ones
        done here are the shadow's."""
        want = json.loads(json.dumps(list(self.scene.model.session.history)))
        if not self.live or len(want) == self.start_steps:
            return
        self._until(lambda: (j := self.journal()) is not None and max(j, default=0) >= len(want),
                    f"the autosave to reach {len(want)} actions (last wanted {want[-1]})")
        done = self.journal() or {}
        got = [done.get(n) for n in range(self.start_steps + 1, max(done) + 1)]
        meant = want[self.start_steps:]
        assert got == meant, f"the window did {got[-3:]}, the gestures meant {meant[-3:]}"

    def drawn(self, rect: pygame.Rect, before: np.ndarray) -> None:
        """Wait until the window's pixels in ``rect`` differ from ``before`` (a menu or panel shown)."""
        if self.live:
            assert self._changed(rect, before, TIMEOUT), f"nothing new drawn at {tuple(rect)}"

    def _changed(self, rect: pygame.Rect, before: np.ndarray, timeout: float) -> bool:
        crop = (slice(rect.top, rect.bottom), slice(rect.left, rect.right))
        end = time.monotonic() + timeout
        while np.array_equal(self.screenshot_array()[crop], before[crop]):
            if time.monotonic() > end:
                return False
            time.sleep(0.1)
        return True

    # -- screenshots ------------------------------------------------------------------------
    def screenshot_array(self) -> np.ndarray:
        """The window's area of the screen, (h, w, 3)."""
        if not self.live:
            return np.zeros((self.size[1], self.size[0], 3), np.uint8)
        if shutil.which("import"):
            raw = subprocess.run(["import", "-window", "root", "-depth", "8", "rgb:-"], env=self.env,
                                 capture_output=True, timeout=30).stdout
            full = np.frombuffer(raw, np.uint8)[: SCREEN[0] * SCREEN[1] * 3].reshape(SCREEN[1], SCREEN[0], 3)
        else:
            full = _xwd_pixels(subprocess.run(["xwd", "-root", "-silent"], env=self.env, capture_output=True,
                                              timeout=30).stdout)
        return full[: self.size[1], : self.size[0]]

    def screenshot(self, path: Path) -> np.ndarray:
        """Keep a screenshot (PNG) and return its pixels."""
        pixels = self.screenshot_array()
        if self.live:
            surface = pygame.image.frombuffer(pixels.tobytes(), (pixels.shape[1], pixels.shape[0]), "RGB")
            pygame.image.save(surface, str(path))
            self.shots.append(path)
        return pixels

    # -- gestures ---------------------------------------------------------------------------
    def _mouse(self, kind: int, pos: tuple[int, int], **extra: Any) -> None:
        self.scene.handle(pygame.event.Event(kind, pos=pos, **extra))

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        """A click at ``pos`` (the board, a side panel); ``button=3``: a right-click."""
        x, y = int(pos[0]), int(pos[1])
        if self.live:
            self._xdo("mousemove", str(x), str(y))
            time.sleep(0.15)
            self._xdo("click", str(button))
        self._mouse(pygame.MOUSEMOTION, (x, y), rel=(0, 0), buttons=(0, 0, 0))
        self._mouse(pygame.MOUSEBUTTONDOWN, (x, y), button=button)
        self._mouse(pygame.MOUSEBUTTONUP, (x, y), button=button)

    def drag(self, a: tuple[int, int], b: tuple[int, int], steps: int = 8) -> None:
        """Press at ``a``, move in steps, release at ``b``."""
        (x0, y0), (x1, y1) = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
        if self.live:
            self._xdo("mousemove", str(x0), str(y0))
            time.sleep(0.15)
            self._xdo("mousedown", "1")
        self._mouse(pygame.MOUSEMOTION, (x0, y0), rel=(0, 0), buttons=(0, 0, 0))
        self._mouse(pygame.MOUSEBUTTONDOWN, (x0, y0), button=1)
        for i in range(1, steps + 1):
            p = (x0 + (x1 - x0) * i // steps, y0 + (y1 - y0) * i // steps)
            if self.live:
                self._xdo("mousemove", str(p[0]), str(p[1]))
                time.sleep(0.04)
            self._mouse(pygame.MOUSEMOTION, p, rel=(0, 0), buttons=(1, 0, 0))
        if self.live:
            time.sleep(0.15)
            self._xdo("mouseup", "1")
        self._mouse(pygame.MOUSEBUTTONUP, (x1, y1), button=1)

    def press(self, button: Any) -> None:
        """Click a pygame_gui button (the End phase button, the hand-over's, the Esc menu's)."""
        if self.live:
            x, y = button.rect.center
            before = self.screenshot_array()
            self._xdo("mousemove", str(x), str(y))
            # a button takes a click once a frame has seen the pointer over it: its hover colour
            # shows that frame (unchanged when the pointer was already there: a short wait)
            self._changed(button.rect, before, 5.0)
            self._xdo("click", "1")
        self.scene.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))

    def key(self, keys: str, key: int, mod: int = 0) -> None:
        """A key press: ``keys`` for xdotool, ``key``/``mod`` as pygame names it."""
        if self.live:
            self._xdo("key", keys)
        held = [k for m, k in ((pygame.KMOD_CTRL, pygame.K_LCTRL), (pygame.KMOD_SHIFT, pygame.K_LSHIFT)) if mod & m]
        for k in held:
            self.scene.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            self.scene.handle(pygame.event.Event(kind, key=key, mod=mod if kind == pygame.KEYDOWN else 0,
                                                 unicode="", scancode=0))
        for k in held:
            self.scene.handle(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))

    def end_phase(self) -> None:
        """Ctrl+Enter: the End phase key."""
        self.key("ctrl+Return", pygame.K_RETURN, pygame.KMOD_CTRL)

    def menu_rows(self) -> list[str]:
        from simulator.client.dialogs import ContextMenu

        d = self.scene.dialog
        assert isinstance(d, ContextMenu), f"no menu open (status: {self.scene.control.message!r})"
        return list(d.actions)

    def choose(self, want: Callable[[Action], bool]) -> Action:
        """Pick the first row of the open menu whose action ``want`` accepts."""
        from simulator.client.dialogs import ContextMenu

        d = self.scene.dialog
        assert isinstance(d, ContextMenu), f"no menu open (status: {self.scene.control.message!r})"
        text, action = next(((t, a) for t, a in d.actions.items() if a is not None and want(a)), (None, None))
        assert text is not None and action is not None, f"no such entry in the menu: {list(d.actions)}"
        item = next(i for i in d.list.item_list if i["text"] == text)
        button = item.get("button_element")
        assert button is not None, f"{text!r} is scrolled out of the menu"
        if self.live:
            assert self._blank_menu is not None, "open menus with open_menu()"
            self.drawn(d.rect, self._blank_menu)
            x, y = button.rect.center
            before = self.screenshot_array()
            self._xdo("mousemove", str(x), str(y))
            self._changed(button.rect, before, 5.0)     # the row's hover colour: a frame saw the pointer
            self._xdo("click", "1")
        self.scene.handle(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=d.list,
                                             text=text))
        return action

    def open_menu(self, gesture: Callable[[], None]) -> list[str]:
        """Do ``gesture`` (a click that opens a menu) and return the menu's rows."""
        self._blank_menu = self.screenshot_array()
        gesture()
        return self.menu_rows()

    # -- where things are -------------------------------------------------------------------
    def hex_pos(self, ref: str) -> tuple[int, int]:
        x, y = self.scene.view.to_screen(self.scene.model.board.world_of(ref))
        return int(round(x)), int(round(y))

    def piece_pos(self, piece: str) -> tuple[int, int]:
        x, y = self.scene.view.to_screen(self.scene.view.ref_world(piece))
        return int(round(x)), int(round(y))

    def spot_of(self, piece: str) -> tuple[int, int]:
        """A point where a click names ``piece`` (its centre, else a hex of it no other piece
        covers: a ship's crew stands over its centre)."""
        view = self.scene.view
        points = [self.piece_pos(piece)] + [self.hex_pos(h) for h in view.model.by_id[piece].hexes]
        for p in points:
            hit = view.piece_at(p)
            if hit is not None and hit.id == piece:
                return p
        raise AssertionError(f"no point of {piece} is free of other pieces")

    def slot_rect(self, slot: str) -> pygame.Rect:
        rect = self.scene.side._slots.get(slot)
        assert rect is not None, f"slot {slot!r} is not shown (shown: {self.scene.side.shown}, " \
                                 f"slots {list(self.scene.side._slots)})"
        return rect

    def item_rect(self, item: str) -> pygame.Rect:
        got = self.scene.side._items.get(item)
        assert got is not None, f"{item!r} is not shown in the panel ({list(self.scene.side._items)})"
        return got[1]

    def show_panel(self, panel: str) -> None:
        """Click the panel's tab unless it is the one shown (open)."""
        side = self.scene.side
        if side.shown == panel and not side.folded:
            return
        self.click(side._tabs[panel].center)
        self.settle()
