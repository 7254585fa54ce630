"""The camera: which part of the board (in world units) shows in the viewport.

World units are hex sizes on hex maps (``HexGrid.to_pixel`` with size 1) and inches
on tables. ``scale`` is screen pixels per world unit.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

Point = tuple[float, float]
Bounds = tuple[float, float, float, float]   # x0, y0, x1, y1 in world units


@dataclass
class Camera:
    viewport: pygame.Rect
    scale: float = 40.0
    ox: float = 0.0      # world x at the viewport's left edge
    oy: float = 0.0
    min_scale: float = 2.0
    max_scale: float = 400.0

    def world_to_screen(self, p: Point) -> Point:
        return (self.viewport.x + (p[0] - self.ox) * self.scale, self.viewport.y + (p[1] - self.oy) * self.scale)

    def screen_to_world(self, p: Point) -> Point:
        return (self.ox + (p[0] - self.viewport.x) / self.scale, self.oy + (p[1] - self.viewport.y) / self.scale)

    def zoom_at(self, screen: Point, factor: float) -> None:
        """Zoom by ``factor`` keeping the world point under ``screen`` where it is."""
        wx, wy = self.screen_to_world(screen)
        self.scale = min(self.max_scale, max(self.min_scale, self.scale * factor))
        self.ox = wx - (screen[0] - self.viewport.x) / self.scale
        self.oy = wy - (screen[1] - self.viewport.y) / self.scale

    def pan(self, dx_screen: float, dy_screen: float) -> None:
        """Move the view by a screen distance (dragging the board moves it with the mouse)."""
        self.ox -= dx_screen / self.scale
        self.oy -= dy_screen / self.scale

    def fit(self, bounds: Bounds, margin: float = 0.03) -> None:
        """Show the whole of ``bounds`` centred in the viewport."""
        x0, y0, x1, y1 = bounds
        w, h = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        vw, vh = self.viewport.w, self.viewport.h
        self.scale = min(self.max_scale, max(self.min_scale, min(vw / w, vh / h) * (1 - 2 * margin)))
        self.ox = (x0 + x1) / 2 - vw / 2 / self.scale
        self.oy = (y0 + y1) / 2 - vh / 2 / self.scale

    def clamp(self, bounds: Bounds) -> None:
        """Keep at least part of the board in view (never lose the map off screen)."""
        x0, y0, x1, y1 = bounds
        vw, vh = self.viewport.w / self.scale, self.viewport.h / self.scale
        self.ox = min(max(self.ox, x0 - vw * 0.8), x1 - vw * 0.2)
        self.oy = min(max(self.oy, y0 - vh * 0.8), y1 - vh * 0.2)
