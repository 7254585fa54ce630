"""Mouse and keyboard on the board: select, drag, rotate, pan, zoom and the tools.

The controller proposes actions through the presentation (``drag_action``,
``rotate_action``) and the model; a refusal snaps back (the pieces are always drawn
from the engine's state) and leaves the engine's reason and rule in :attr:`message`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Literal

import pygame

from simulator.client.board import HexBoard, Place
from simulator.client.boardview import BoardView, Preview
from simulator.client.model import GameModel, Result
from simulator.client.piecedraw import piece_centre
from simulator.core.errors import IllegalAction
from simulator.core.view import PieceView

Point = tuple[float, float]
Mode = Literal["select", "los", "measure"]
DRAG_START = 5          # pixels before a press becomes a drag
PATH_STEP = 8           # pixels the pointer moves before the dragged piece's path is asked again
PAN_STEP = 60           # pixels per arrow key press
ZOOM_STEP = 1.15


@dataclass
class Press:
    piece: str | None
    pos: Point
    grab: Point = (0.0, 0.0)    # world offset from the piece's centre to the cursor
    dragging: bool = False
    path_at: Point | None = None  # the pointer where the drag's path was last asked


class BoardController:
    def __init__(self, model: GameModel, view: BoardView) -> None:
        self.model = model
        self.view = view
        self.mode: Mode = "select"
        self.message = ""
        self.error = False
        self.mouse: Point = (0.0, 0.0)
        self.press: Press | None = None
        self.pan_from: Point | None = None
        self.panned = False
        self.rotation: tuple[str, float] | None = None
        self.anchor: str | Point | None = None     # first end of the LOS / measure tool
        self._hover: object = None
        self.on_change: Callable[[], None] = lambda: None
        self.on_context: Callable[[str, Point], None] = lambda piece, pos: None

    # -- helpers --------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        self.message, self.error = text, error

    def _report(self, result: Result, what: str) -> None:
        if result.ok:
            last = [e for e in result.events if e.kind != "dice"]
            self.say(last[-1].text if last else f"{what} done", False)
            if result.reason:
                self.say(result.reason, True)
            self.on_change()
        else:
            self.say(f"Refused: {result.message}", True)

    def propose(self, action: dict | None, what: str) -> Result:
        result = self.model.apply(action)
        self._report(result, what)
        return result

    @property
    def selected(self) -> PieceView | None:
        sid = self.view.selected
        return self.model.by_id.get(sid) if sid else None

    def select(self, piece: str | None) -> None:
        if self.rotation and self.rotation[0] != piece:
            self.commit_rotation()
        self.view.selected = piece
        self.on_change()

    # -- commands -------------------------------------------------------------------------
    def cancel(self) -> bool:
        """Esc: the innermost thing in progress is dropped. Returns False if there was none."""
        if self.press and self.press.dragging:
            self._end_drag()
            self.say("move cancelled")
        elif self.rotation:
            self.rotation = None
            self.view.preview = None
            self.say("turn cancelled")
        elif self.mode != "select" or self.view.tools.los or self.view.tools.measure:
            self.set_mode("select")
        elif self.view.tools.rings_for or self.view.tools.highlighted:
            self.view.tools.rings_for = None
            self.view.tools.highlighted = set()
        elif self.view.selected:
            self.select(None)
        else:
            return False
        return True

    def set_mode(self, mode: Mode) -> None:
        tools = self.view.tools
        tools.los = tools.los_ends = tools.measure = tools.measure_ends = None
        self.anchor = None
        self._hover = None
        if mode == "los" and not self.model.tools.line_of_sight or mode == "measure" and not self.model.tools.measure:
            self.say(f"this game has no {mode} tool", True)
            mode = "select"
        self.mode = mode
        if mode == "los":
            self.say("Line of sight: click the first piece or place, then the second (Esc to stop)")
        elif mode == "measure":
            self.say("Measure: click the first piece or place, then the second (Esc to stop)")
        else:
            self.say("")

    def rotate(self, steps: int) -> None:
        """Q/E/Shift+wheel: turn the selected piece (a preview until Enter or a click)."""
        piece = self.selected
        if piece is None:
            self.say("select a piece to turn it", True)
            return
        if not piece.movable:
            self.say(f"{piece.name} cannot be turned now", True)
            return
        if not piece.has_facing:
            self.say(f"{piece.name} has no facing to turn", True)
            return
        current = self.rotation[1] if self.rotation and self.rotation[0] == piece.id else piece.facing
        if isinstance(self.view.board, HexBoard):
            facing: float = (int(round(current)) + steps) % 6
        else:
            step = self.model.tools.rotate_step or 15
            facing = (round(current / step) * step + steps * step) % 360
        self.rotation = (piece.id, facing)
        self.view.preview = Preview(piece.id, None, facing)
        self.say(f"turning {piece.name} to {facing:g}: Enter or click to confirm, Esc to cancel")

    def commit_rotation(self) -> Result | None:
        if self.rotation is None:
            return None
        pid, facing = self.rotation
        self.rotation = None
        self.view.preview = None
        if pid not in self.model.by_id or facing == self.model.by_id[pid].facing:
            return None
        action = self.model.presentation.rotate_action(self.model.state, pid, facing)
        return self.propose(action, "turn")

    def undo(self) -> None:
        self.cancel_gestures()
        failed = ""
        try:
            done = self.model.undo()
        except OSError as exc:
            done, failed = True, f", but the autosave failed: {exc}"
        self.say(f"undone{failed}" if done else "nothing to undo", bool(failed) or not done)
        self.on_change()

    def redo(self) -> None:
        self.cancel_gestures()
        failed = ""
        try:
            done = self.model.redo()
        except OSError as exc:
            done, failed = True, f", but the autosave failed: {exc}"
        except IllegalAction as exc:      # a step that no longer replays: refused and dropped
            self.say(f"Refused: {exc}", True)
            self.on_change()
            return
        self.say(f"redone{failed}" if done else "nothing to redo", bool(failed) or not done)
        self.on_change()

    def cancel_gestures(self) -> None:
        self.press = None
        self.rotation = None
        self.view.preview = None
        self.view.tools.move_range = None

    def toggle_rings(self) -> None:
        piece = self.selected
        tools = self.view.tools
        if tools.rings_for is not None:
            tools.rings_for = None
        elif piece is None:
            self.say("select a piece to show its range rings", True)
        else:
            tools.rings_for = piece.id

    def select_next(self) -> None:
        """Tab: the next piece on the board that a legal action names (one that can act now)."""
        acting = set()
        for action in self.model.legal:
            for key in ("piece", "unit", "ship"):
                if isinstance(action.get(key), str):
                    acting.add(action[key])
        movable = [p.id for p in self.model.pieces if p.id in acting]
        if not movable:
            self.say("no piece on the board can act now" + (": see the panel under the board"
                                                              if self.model.presentation.side_panels(
                                                                  self.model.state, self.model.viewer) else ""))
            return
        i = movable.index(self.view.selected) + 1 if self.view.selected in movable else 0
        self.select(movable[i % len(movable)])

    # -- the tools ------------------------------------------------------------------------
    def _tool_click(self, pos: Point) -> None:
        ref = self.view.ref_at(pos)
        if ref is None:
            self.say("click on a piece or on the board", True)
            return
        if self.anchor is None or (self.view.tools.los or self.view.tools.measure) and self._hover == ("fixed",):
            self.anchor = ref
            self.view.tools.los = self.view.tools.measure = None
            self._hover = None
            self.say(f"from {ref if isinstance(ref, str) else _fmt(ref)}: now click the other end")
            return
        self._tool_to(ref)
        self._hover = ("fixed",)

    def _tool_to(self, ref: str | Point) -> None:
        """Ask the game for LOS or a measurement from the anchor to ``ref``."""
        if self.anchor is None:
            return
        state = self.model.state
        pres = self.model.presentation
        ends = (self.view.ref_world(self.anchor), self.view.ref_world(ref))
        tools = self.view.tools
        if self.mode == "los":
            los = pres.line_of_sight(state, self.anchor, ref)
            tools.los, tools.los_ends = los, ends if los else None
            if los is not None:
                self.say(("Clear: " if los.clear else "Blocked: ") + los.text + (f" ({los.rule})" if los.rule else ""),
                         not los.clear)
        elif self.mode == "measure":
            m = pres.measure(state, self.anchor, ref)
            tools.measure, tools.measure_ends = m, ends if m else None
            if m is not None:
                self.say(m.text + (f"  within {', '.join(m.within)}" if m.within else ""))

    def _tool_hover(self, pos: Point) -> None:
        if self.anchor is None or self._hover == ("fixed",):
            return
        ref = self.view.ref_at(pos)
        if ref is None or ref == self._hover:
            return
        self._hover = ref
        self._tool_to(ref)

    # -- dragging -------------------------------------------------------------------------
    def _start_drag(self, press: Press) -> None:
        press.dragging = True
        piece = self.model.by_id[press.piece] if press.piece else None
        if piece is None:
            return
        self.view.tools.move_range = self.model.presentation.move_range(self.model.state, piece.id)
        self.view.preview = Preview(piece.id, piece_centre(self.view.board, piece), None)

    def _drag_to(self, pos: Point) -> None:
        press = self.press
        if press is None or press.piece is None or self.view.preview is None:
            return
        world = self.view.to_world(pos)
        target = (world[0] - press.grab[0], world[1] - press.grab[1])
        if isinstance(self.view.board, HexBoard):
            label = self.view.board.place_at(world)
            piece = self.model.by_id[press.piece]
            if label is not None:
                target = self.view.board.world_of(label)
                if piece.shape == "ship":
                    home = piece_centre(self.view.board, piece)
                    anchor = self.view.board.world_of(piece.at)
                    target = (target[0] + home[0] - anchor[0], target[1] + home[1] - anchor[1])
        self.view.preview.centre = target
        self._drag_path(pos)

    def _drag_path(self, pos: Point) -> None:
        """Ask the presentation for the way the dragged piece would go and what it costs, when
        the pointer has moved more than ``PATH_STEP`` pixels since the last time."""
        press = self.press
        if press is None or press.piece is None or self.view.preview is None:
            return
        if press.path_at is not None and math.dist(pos, press.path_at) <= PATH_STEP:
            return
        press.path_at = pos
        place = self._drop_place(pos)
        pres, state = self.model.presentation, self.model.state
        path = None if place is None else pres.drag_path(state, press.piece, place)
        self.view.preview.path = tuple(self.view.board.world_of(p) for p in path) if path else None
        # the cost of the move a drop here proposes, shown by the pointer
        self.view.preview.cost = None if place is None else pres.drag_cost(state, press.piece, place)

    def _drop_place(self, pos: Point) -> Place | None:
        press = self.press
        world = self.view.to_world(pos)
        if isinstance(self.view.board, HexBoard):
            return self.view.board.place_at(world)
        assert press is not None
        return self.view.board.place_at((world[0] - press.grab[0], world[1] - press.grab[1]))

    def _end_drag(self) -> None:
        self.press = None
        self.view.preview = None
        self.view.tools.move_range = None

    def _drop(self, pos: Point) -> None:
        press = self.press
        assert press is not None and press.piece is not None
        place = self._drop_place(pos)
        piece = self.model.by_id.get(press.piece)
        self._end_drag()
        if piece is None:
            return
        if place is None:
            self.say("dropped off the board: the piece stays where it was", True)
            return
        if place == piece.at:
            return
        if isinstance(place, tuple) and isinstance(piece.at, tuple) and math.dist(place, piece.at) < 0.05:
            return
        action = self.model.presentation.drag_action(self.model.state, piece.id, place)
        if action is None:
            self.say(f"{piece.name} cannot be moved there by dragging", True)
            return
        self.propose(action, "move")

    # -- events ---------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> bool:
        """Handle one pygame event on the board; True if it was used."""
        et = event.type
        if et == pygame.MOUSEMOTION:
            self.mouse = event.pos
            return self._motion(event)
        if et == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            return self._button_down(event)
        if et == pygame.MOUSEBUTTONUP:
            self.mouse = event.pos
            return self._button_up(event)
        if et == pygame.MOUSEWHEEL:
            return self._wheel(event)
        if et == pygame.KEYDOWN:
            return self.key(event.key, event.mod)
        return False

    def _motion(self, event: pygame.event.Event) -> bool:
        if self.pan_from is not None:
            dx, dy = event.pos[0] - self.pan_from[0], event.pos[1] - self.pan_from[1]
            if self.panned or abs(dx) + abs(dy) > DRAG_START:
                self.panned = True
                self.view.pan(dx, dy)
                self.pan_from = event.pos
            return True
        press = self.press
        if press is not None and press.piece is not None:
            if not press.dragging and math.dist(event.pos, press.pos) > DRAG_START:
                self._start_drag(press)
            if press.dragging:
                self._drag_to(event.pos)
            return True
        if self.mode != "select":
            self._tool_hover(event.pos)
        return False

    def _button_down(self, event: pygame.event.Event) -> bool:
        if not self.view.camera.viewport.collidepoint(event.pos):
            return False
        if event.button in (2, 3):
            self.pan_from = event.pos
            self.panned = False
            return True
        if event.button != 1:
            return False
        if self.rotation:
            self.commit_rotation()
        if self.mode != "select":
            self._tool_click(event.pos)
            return True
        piece = self.view.piece_at(event.pos)
        # a piece that cannot move (a crew on deck) lets a movable one beneath it be dragged
        mover = piece if piece is None or piece.movable else self.view.piece_at(event.pos, movable_only=True)
        self.select(mover.id if mover else piece.id if piece else None)
        if mover is not None:
            world = self.view.to_world(event.pos)
            c = piece_centre(self.view.board, mover)
            self.press = Press(mover.id, event.pos, (world[0] - c[0], world[1] - c[1]))
        elif piece is not None:
            self.say(f"{piece.name} cannot move now")
        return True

    def _button_up(self, event: pygame.event.Event) -> bool:
        if event.button in (2, 3) and self.pan_from is not None:
            panned = self.panned
            self.pan_from = None
            self.panned = False
            if event.button == 3 and not panned:
                piece = self.view.piece_at(event.pos)
                if piece is not None:
                    self.select(piece.id)
                    self.on_context(piece.id, event.pos)
            return True
        if event.button != 1 or self.press is None:
            return False
        if self.press.dragging:
            self._drop(event.pos)
        else:
            self.press = None
        return True

    def _wheel(self, event: pygame.event.Event) -> bool:
        if not self.view.camera.viewport.collidepoint(self.mouse):
            return False
        if pygame.key.get_mods() & pygame.KMOD_SHIFT:
            if event.y:
                self.rotate(1 if event.y < 0 else -1)
            return True
        if event.y:
            self.view.zoom_at(self.mouse, ZOOM_STEP ** max(-3, min(3, event.y)))
        return True

    def key(self, key: int, mod: int = 0) -> bool:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        cam = self.view
        if ctrl and key == pygame.K_z:
            self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif ctrl:
            return False
        elif key == pygame.K_ESCAPE:
            return self.cancel()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self.commit_rotation() is not None or True
        elif key == pygame.K_q:
            self.rotate(-1)
        elif key == pygame.K_e:
            self.rotate(1)
        elif key == pygame.K_l:
            self.set_mode("select" if self.mode == "los" else "los")
        elif key == pygame.K_m:
            self.set_mode("select" if self.mode == "measure" else "measure")
        elif key == pygame.K_r:
            self.toggle_rings()
        elif key == pygame.K_h:
            cam.labels = not cam.labels
        elif key == pygame.K_g:
            cam.grid = not cam.grid
        elif key == pygame.K_f:
            cam.fit()
        elif key == pygame.K_TAB:
            self.select_next()
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: PAN_STEP, pygame.K_RIGHT: -PAN_STEP}.get(key, 0)
            dy = {pygame.K_UP: PAN_STEP, pygame.K_DOWN: -PAN_STEP}.get(key, 0)
            cam.pan(dx, dy)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            cam.zoom_at(cam.camera.viewport.center, ZOOM_STEP)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            cam.zoom_at(cam.camera.viewport.center, 1 / ZOOM_STEP)
        else:
            return False
        return True


def _fmt(p: Point) -> str:
    return f"({p[0]:.1f}, {p[1]:.1f})"
