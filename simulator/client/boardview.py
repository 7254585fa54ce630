"""The board view: the cached map, the pieces and the tool overlays, through a camera.

A frame blits the visible part of the cached map and draws the pieces and overlays
on top; the map itself is redrawn only when the zoom, a toggle or the surface changes.
During a zoom gesture (wheel notches less than ``ZOOM_SETTLE`` apart) the cached map is
scaled instead of redrawn, and drawn crisp again once the gesture stops.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pygame

from simulator.client.board import Board, HexBoard, Place
from simulator.client.camera import Camera, Point
from simulator.client.mapdraw import MapCache, max_scale
from simulator.client.model import GameModel
from simulator.client.overlays import (ToolState, draw_cost, draw_los, draw_measure, draw_move_range, draw_path,
                                       draw_rings, ring_distances)
from simulator.client.piecedraw import PieceSprites, draw_piece, hit_test, piece_centre
from simulator.core.view import PieceView, TableSurface

BACKGROUND = (34, 38, 44)
#: Seconds after the last zoom step during which the cached map is scaled, not redrawn:
#: a redraw costs tens of milliseconds on a large map, a scaled blit a few.
ZOOM_SETTLE = 0.2


@dataclass
class Preview:
    """A piece drawn somewhere else than the state says (while dragged or turned)."""

    piece: str
    centre: Point | None = None
    facing: float | None = None
    #: The way a dragged piece would go (world points, from the presentation's ``drag_path``).
    path: tuple[Point, ...] | None = None
    #: What the move a drop there costs ("3 MP"; the presentation's ``drag_cost``), by the piece.
    cost: str | None = None


class BoardView:
    def __init__(self, model: GameModel, viewport: pygame.Rect) -> None:
        self.model = model
        self.camera = Camera(pygame.Rect(viewport))
        self.cache = MapCache()
        self.sprites = PieceSprites()
        self.tools = ToolState()
        self.labels = False
        self.grid = True
        self.selected: str | None = None
        self.preview: Preview | None = None
        self._board_id = id(model.board)
        #: When the zoom last changed (time.monotonic), and how long a gesture lasts past it
        #: (0: redraw the map at every step, as before the scaled blit).
        self.zoomed_at = -1e9
        self.zoom_settle = ZOOM_SETTLE
        self.fit()

    # -- camera ---------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.model.board

    def fit(self) -> None:
        self.camera.max_scale = max_scale(self.board)
        self.camera.min_scale = min(self.camera.max_scale, 4.0)
        self.camera.fit(self.board.bounds)

    def set_viewport(self, rect: pygame.Rect) -> None:
        self.camera.viewport = pygame.Rect(rect)

    def zoom_at(self, pos: Point, factor: float) -> None:
        self.camera.zoom_at(pos, factor)
        self.camera.clamp(self.board.bounds)
        self.zoomed_at = time.monotonic()

    def zooming(self) -> bool:
        """Whether a zoom gesture is going on (the map is shown scaled, not yet redrawn)."""
        return time.monotonic() - self.zoomed_at < self.zoom_settle

    def needs_frame(self) -> bool:
        """Whether a frame must be drawn with no input: the crisp map after a zoom gesture."""
        return self.cache.image is not None and not self.cache.drawn_at(self.camera.scale)

    def pan(self, dx: float, dy: float) -> None:
        self.camera.pan(dx, dy)
        self.camera.clamp(self.board.bounds)

    # -- questions ------------------------------------------------------------------------
    def to_screen(self, p: Point) -> Point:
        return self.camera.world_to_screen(p)

    def to_world(self, p: Point) -> Point:
        return self.camera.screen_to_world(p)

    def piece_at(self, screen: Point, movable_only: bool = False) -> PieceView | None:
        """The topmost piece under a screen point."""
        if not self.camera.viewport.collidepoint(screen):
            return None
        world = self.to_world(screen)
        for piece in reversed(self.model.pieces):
            if movable_only and not piece.movable:
                continue
            if hit_test(self.board, piece, world):
                return piece
        return None

    def place_at(self, screen: Point) -> Place | None:
        return self.board.place_at(self.to_world(screen))

    def ref_at(self, screen: Point) -> str | Point | None:
        """What a tool click names: a piece id, else a hex label or a table point."""
        piece = self.piece_at(screen)
        if piece is not None:
            return piece.id
        return self.place_at(screen)

    def ref_world(self, ref: str | Point) -> Point:
        if isinstance(ref, str) and ref in self.model.by_id:
            return piece_centre(self.board, self.model.by_id[ref])
        return self.board.world_of(ref)

    # -- drawing --------------------------------------------------------------------------
    def draw(self, target: pygame.Surface) -> None:
        model = self.model
        if id(model.board) != self._board_id:
            self._board_id = id(model.board)
            self.camera.max_scale = max_scale(self.board)
        cam = self.camera
        old_clip = target.get_clip()
        target.set_clip(cam.viewport)
        cache = self.cache
        quick = not cache.drawn_at(cam.scale) and self.zooming() \
            and cache.same_but_scale(self.board, model.surface_key, self.labels, self.grid)
        self.sprites.set_quick(quick)
        self.sprites.begin_frame()
        if quick:
            cache.blit_scaled(target, cam.viewport, cam.scale, self.to_screen, BACKGROUND)
        else:
            target.fill(BACKGROUND, cam.viewport)
            image = cache.get(self.board, model.surface_key, cam.scale, self.labels, self.grid)
            target.blit(image, self.to_screen(cache.origin_world))
        tools = self.tools
        scale = cam.scale
        if tools.move_range is not None:
            draw_move_range(target, self.board, tools.move_range, self.to_screen, scale)
        moving = self.preview.piece if self.preview else None
        for piece in model.pieces:
            if piece.id == moving:
                continue
            draw_piece(target, self.board, piece, self.to_screen, scale, self.sprites,
                       selected=piece.id == self.selected, highlighted=piece.id in tools.highlighted)
        if self.preview is not None and self.preview.path:
            draw_path(target, self.preview.path, self.to_screen)
        if self.preview is not None and self.preview.cost and self.preview.centre is not None:
            draw_cost(target, self.preview.cost, self.to_screen(self.preview.centre), scale)
        if self.preview is not None and self.preview.piece in model.by_id:
            piece = model.by_id[self.preview.piece]
            if self.preview.centre is not None:
                draw_piece(target, self.board, piece, self.to_screen, scale, self.sprites, ghost=True)
            draw_piece(target, self.board, piece, self.to_screen, scale, self.sprites, selected=True,
                       centre=self.preview.centre, facing=self.preview.facing)
        if tools.rings_for is not None and tools.rings_for in model.by_id:
            named = dict(model.surface.named_distances) if isinstance(model.surface, TableSurface) else {}
            draw_rings(target, self.board, model.by_id[tools.rings_for],
                       ring_distances(self.board, model.tools.range_rings, named), self.to_screen, scale)
        if tools.los is not None and tools.los_ends is not None:
            terrain = model.surface.terrain if isinstance(model.surface, TableSurface) else ()
            draw_los(target, self.board, tools.los, tools.los_ends, self.to_screen, scale, model.by_id, terrain)
        if tools.measure is not None and tools.measure_ends is not None:
            draw_measure(target, tools.measure, tools.measure_ends, self.to_screen)
        target.set_clip(old_clip)

    def draw_uncached(self, target: pygame.Surface) -> None:
        """A full redraw without the map cache (the benchmark's baseline)."""
        self.cache.key = None
        self.draw(target)

    @property
    def is_hex(self) -> bool:
        return isinstance(self.board, HexBoard)
