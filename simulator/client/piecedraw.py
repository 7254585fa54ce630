"""Drawing pieces: counters with printed values, round bases, trays with ranks and a
facing marker, and multi-hex ships with their crews on deck; plus hit-testing.

Pieces are drawn every frame in screen space (they move); a counter's face is rendered
once per zoom level and reused (:class:`PieceSprites`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import pygame

from simulator.client import fonts
from simulator.client.board import Board, HexBoard
from simulator.client.mapdraw import shade
from simulator.core.view import PieceView

Point = tuple[float, float]
ToScreen = Callable[[Point], Point]

COUNTER_SIDE = 1.02          # hex sizes
STACK_STEP = 0.2            # hex sizes between stacked counters
SELECTED = (255, 214, 40)
HIGHLIGHT = (255, 140, 0)


def piece_centre(board: Board, piece: PieceView) -> Point:
    """World centre of a piece (stacked counters fan out up and to the right)."""
    if piece.shape == "ship" and piece.hexes:
        pts = [board.world_of(h) for h in piece.hexes]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
    x, y = board.world_of(piece.at)
    if isinstance(board, HexBoard) and piece.stack_index:
        x += STACK_STEP * piece.stack_index
        y -= STACK_STEP * piece.stack_index
    return x, y


def tray_corners(piece: PieceView, centre: Point) -> list[Point]:
    """World corners of a tray (front-left, front-right, back-right, back-left)."""
    a = math.radians(piece.facing)
    fx, fy = math.sin(a), -math.cos(a)          # forward (north = up at facing 0)
    rx, ry = math.cos(a), math.sin(a)           # right
    hw, hd = piece.width / 2, piece.depth / 2
    cx, cy = centre
    return [(cx + fx * hd - rx * hw, cy + fy * hd - ry * hw), (cx + fx * hd + rx * hw, cy + fy * hd + ry * hw),
            (cx - fx * hd + rx * hw, cy - fy * hd + ry * hw), (cx - fx * hd - rx * hw, cy - fy * hd - ry * hw)]


@dataclass
class PieceSprites:
    """Counter faces rendered once per (look, size)."""

    cache: dict[tuple, pygame.Surface] = field(default_factory=dict)

    def counter(self, piece: PieceView, side_px: int) -> pygame.Surface:
        key = (piece.colour, piece.text_colour, piece.label, piece.values, piece.status, side_px)
        surf = self.cache.get(key)
        if surf is None:
            if len(self.cache) > 2000:
                self.cache.clear()
            surf = _counter_face(piece, side_px)
            self.cache[key] = surf
        return surf


def _counter_face(piece: PieceView, s: int) -> pygame.Surface:
    surf = pygame.Surface((s, s), pygame.SRCALPHA)
    rect = surf.get_rect()
    radius = max(2, s // 10)
    pygame.draw.rect(surf, piece.colour, rect, border_radius=radius)
    pygame.draw.rect(surf, shade(piece.colour, 1.35), rect.inflate(-max(2, s // 12), -max(2, s // 12)),
                     max(1, s // 28), border_radius=radius)
    pygame.draw.rect(surf, shade(piece.colour, 0.45), rect, max(1, s // 24), border_radius=radius)
    if s >= 18:
        label = piece.label or piece.name
        size = max(8, int(s * 0.27))
        while size > 8 and fonts.font(size).size(label)[0] > s * 0.9:
            size -= 1
        fonts.blit_centred(surf, label, (s / 2, s * 0.27), size, piece.text_colour)
        if piece.values:
            vals = "-".join(piece.values)
            vsize = max(9, int(s * 0.42))
            while vsize > 9 and fonts.font(vsize, True).size(vals)[0] > s * 0.92:
                vsize -= 1
            fonts.blit_centred(surf, vals, (s / 2, s * 0.68), vsize, piece.text_colour, bold=True)
        if piece.status:
            pygame.draw.circle(surf, (250, 220, 60), (s * 0.84, s * 0.16), max(3, s * 0.09))
            pygame.draw.circle(surf, (40, 40, 40), (s * 0.84, s * 0.16), max(3, s * 0.09), 1)
    return surf


def draw_piece(target: pygame.Surface, board: Board, piece: PieceView, to_screen: ToScreen, scale: float,
               sprites: PieceSprites, *, selected: bool = False, highlighted: bool = False,
               ghost: bool = False, centre: Point | None = None, facing: float | None = None) -> None:
    """Draw ``piece``; ``centre``/``facing`` override its place (dragging, rotating preview)."""
    if facing is not None:
        piece = _with_facing(piece, facing)
    c_world = centre if centre is not None else piece_centre(board, piece)
    c = to_screen(c_world)
    if piece.shape == "counter":
        _draw_counter(target, board, piece, c, scale, sprites, selected, highlighted, ghost)
    elif piece.shape == "base":
        _draw_base(target, board, piece, c, scale, selected, highlighted, ghost)
    elif piece.shape == "tray":
        _draw_tray(target, piece, c_world, to_screen, scale, selected, highlighted, ghost)
    elif piece.shape == "ship":
        _draw_ship(target, board, piece, c_world, to_screen, scale, selected, highlighted, ghost)


def _with_facing(piece: PieceView, facing: float) -> PieceView:
    from dataclasses import replace
    return replace(piece, facing=facing)


def _ring(target: pygame.Surface, centre: Point, radius: float, selected: bool, highlighted: bool) -> None:
    if highlighted:
        pygame.draw.circle(target, HIGHLIGHT, centre, radius + 5, 4)
    if selected:
        pygame.draw.circle(target, SELECTED, centre, radius + 2, 3)


def _draw_counter(target: pygame.Surface, board: Board, piece: PieceView, c: Point, scale: float,
                  sprites: PieceSprites, selected: bool, highlighted: bool, ghost: bool) -> None:
    s = max(6, int(COUNTER_SIDE * scale))
    face = sprites.counter(piece, s)
    rect = face.get_rect(center=(int(c[0]), int(c[1])))
    if not ghost:
        shadow = pygame.Rect(rect).move(max(1, s // 16), max(1, s // 14))
        pygame.draw.rect(target, (20, 20, 20), shadow, border_radius=max(2, s // 10))
    if ghost:
        face = face.copy()
        face.set_alpha(150)
    target.blit(face, rect)
    ang = board.facing_angle(piece.facing)
    if s >= 14:
        # facing notch: a small triangle on the counter's edge towards its facing
        ux, uy = math.cos(ang), math.sin(ang)
        reach = s * 0.5 / max(abs(ux), abs(uy))
        tip = (c[0] + ux * (reach + s * 0.14), c[1] + uy * (reach + s * 0.14))
        px, py = -uy * s * 0.12, ux * s * 0.12
        base = (c[0] + ux * reach * 0.98, c[1] + uy * reach * 0.98)
        pygame.draw.polygon(target, shade(piece.colour, 1.5), [tip, (base[0] + px, base[1] + py),
                                                              (base[0] - px, base[1] - py)])
        pygame.draw.polygon(target, (25, 25, 25), [tip, (base[0] + px, base[1] + py), (base[0] - px, base[1] - py)], 1)
    if selected:
        pygame.draw.rect(target, SELECTED, rect.inflate(6, 6), 3, border_radius=max(2, s // 8))
    if highlighted:
        pygame.draw.rect(target, HIGHLIGHT, rect.inflate(12, 12), 3, border_radius=max(2, s // 6))


def _draw_base(target: pygame.Surface, board: Board, piece: PieceView, c: Point, scale: float,
               selected: bool, highlighted: bool, ghost: bool) -> None:
    r = max(3.0, piece.radius * scale)
    if ghost:
        layer = pygame.Surface((int(r * 2 + 4), int(r * 2 + 4)), pygame.SRCALPHA)
        pygame.draw.circle(layer, (*piece.colour, 150), (r + 2, r + 2), r)
        target.blit(layer, (c[0] - r - 2, c[1] - r - 2))
    else:
        pygame.draw.circle(target, (25, 25, 25), (c[0] + r * 0.08, c[1] + r * 0.12), r)
        pygame.draw.circle(target, piece.colour, c, r)
        pygame.draw.circle(target, shade(piece.colour, 1.3), c, r * 0.8, max(1, int(r / 10)))
        pygame.draw.circle(target, shade(piece.colour, 0.45), c, r, max(1, int(r / 12)))
    ang = board.facing_angle(piece.facing)
    if r >= 8 and piece.facing:
        tip = (c[0] + math.cos(ang) * r, c[1] + math.sin(ang) * r)
        pygame.draw.line(target, (250, 250, 250), c, tip, max(1, int(r / 8)))
    if r >= 10:
        size = max(9, int(r * 0.55))
        label = piece.label or piece.name
        while size > 9 and fonts.font(size).size(label)[0] > r * 1.8:
            size -= 1
        fonts.blit_centred(target, label, c, size, piece.text_colour)
    _ring(target, c, r, selected, highlighted)


def _draw_tray(target: pygame.Surface, piece: PieceView, centre: Point, to_screen: ToScreen, scale: float,
               selected: bool, highlighted: bool, ghost: bool) -> None:
    corners = [to_screen(p) for p in tray_corners(piece, centre)]
    if ghost:
        xs, ys = zip(*corners)
        box = pygame.Rect(int(min(xs)) - 2, int(min(ys)) - 2, int(max(xs) - min(xs)) + 5, int(max(ys) - min(ys)) + 5)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.polygon(layer, (*piece.colour, 140), [(x - box.x, y - box.y) for x, y in corners])
        target.blit(layer, box)
    else:
        pygame.draw.polygon(target, (25, 25, 25), [(x + scale * 0.1, y + scale * 0.15) for x, y in corners])
        pygame.draw.polygon(target, shade(piece.colour, 0.8), corners)
        pygame.draw.polygon(target, shade(piece.colour, 0.4), corners, max(1, int(scale / 10)))
    fl, fr, br, bl = corners
    if piece.ranks and piece.files and not ghost:
        r = max(2.0, min(piece.width / piece.files, piece.depth / piece.ranks) * scale * 0.36)
        for i in range(piece.ranks):
            for j in range(piece.files):
                u = (j + 0.5) / piece.files
                v = (i + 0.5) / piece.ranks
                front = (fl[0] + (fr[0] - fl[0]) * u, fl[1] + (fr[1] - fl[1]) * u)
                back = (bl[0] + (br[0] - bl[0]) * u, bl[1] + (br[1] - bl[1]) * u)
                p = (front[0] + (back[0] - front[0]) * v, front[1] + (back[1] - front[1]) * v)
                pygame.draw.circle(target, piece.colour, p, r)
                pygame.draw.circle(target, shade(piece.colour, 1.4), p, r, max(1, int(r / 4)))
    # the front edge and a facing arrow
    pygame.draw.line(target, (250, 240, 200), fl, fr, max(2, int(scale * 0.18)))
    mid = ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
    a = math.radians(piece.facing)
    fx, fy = math.sin(a), -math.cos(a)
    s = max(4.0, scale * 0.5)
    tip = (mid[0] + fx * s, mid[1] + fy * s)
    pygame.draw.polygon(target, (250, 240, 200), [tip, (mid[0] - fy * s * 0.6, mid[1] + fx * s * 0.6),
                                                  (mid[0] + fy * s * 0.6, mid[1] - fx * s * 0.6)])
    c = to_screen(centre)
    if scale >= 8:
        fonts.blit_boxed(target, piece.label or piece.name, (c[0], c[1]), max(11, int(scale * 0.5)), anchor="center",
                         background=(20, 20, 20, 150))
    if selected or highlighted:
        colour = HIGHLIGHT if highlighted else SELECTED
        pygame.draw.polygon(target, colour, corners, 3)


def ship_hull(board: Board, hexes: Sequence[str], offset: Point = (0.0, 0.0)) -> list[Point]:
    """World outline of a ship along its hexes: bow at the first hex, stern at the last."""
    pts = [board.world_of(h) for h in hexes]
    pts = [(x + offset[0], y + offset[1]) for x, y in pts]
    if len(pts) == 1:
        x, y = pts[0]
        return [(x, y - 0.8), (x + 0.45, y), (x, y + 0.8), (x - 0.45, y)]
    bow, stern = pts[0], pts[-1]
    dx, dy = bow[0] - stern[0], bow[1] - stern[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    w = 0.5
    tip = (bow[0] + ux * 0.9, bow[1] + uy * 0.9)
    sb = (stern[0] - ux * 0.7, stern[1] - uy * 0.7)
    return [tip, (bow[0] + px * w, bow[1] + py * w), (sb[0] + px * w * 0.8, sb[1] + py * w * 0.8),
            (sb[0] - px * w * 0.8, sb[1] - py * w * 0.8), (bow[0] - px * w, bow[1] - py * w)]


def _draw_ship(target: pygame.Surface, board: Board, piece: PieceView, centre: Point, to_screen: ToScreen,
               scale: float, selected: bool, highlighted: bool, ghost: bool) -> None:
    home = piece_centre(board, piece)
    off = (centre[0] - home[0], centre[1] - home[1])
    hull = [to_screen(p) for p in ship_hull(board, piece.hexes, off)]
    if isinstance(board, HexBoard):
        polys = board.grid.polygons(list(piece.hexes), 1.0)
        for poly in polys:
            pts = [to_screen((float(x) + off[0], float(y) + off[1])) for x, y in poly]
            pygame.draw.polygon(target, (240, 240, 230) if not ghost else (250, 250, 120), pts, max(1, int(scale / 25)))
    if ghost:
        xs, ys = zip(*hull)
        box = pygame.Rect(int(min(xs)) - 2, int(min(ys)) - 2, int(max(xs) - min(xs)) + 5, int(max(ys) - min(ys)) + 5)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.polygon(layer, (*piece.colour, 140), [(x - box.x, y - box.y) for x, y in hull])
        target.blit(layer, box)
        return
    pygame.draw.polygon(target, (20, 30, 50), [(x + scale * 0.06, y + scale * 0.1) for x, y in hull])
    pygame.draw.polygon(target, piece.colour, hull)
    deck = [((x - (sum(h[0] for h in hull) / len(hull))) * 0.78 + sum(h[0] for h in hull) / len(hull),
             (y - (sum(h[1] for h in hull) / len(hull))) * 0.78 + sum(h[1] for h in hull) / len(hull)) for x, y in hull]
    pygame.draw.polygon(target, shade(piece.colour, 1.25), deck)
    pygame.draw.polygon(target, shade(piece.colour, 0.45), hull, max(2, int(scale / 14)))
    tip, p1, p2, p3, p4 = hull
    for a, b in ((p1, p2), (p4, p3)):
        for t in (0.2, 0.4, 0.6, 0.8):
            p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            pygame.draw.circle(target, shade(piece.colour, 0.6), p, max(2.0, scale * 0.11))
            pygame.draw.circle(target, (230, 220, 180), p, max(2.0, scale * 0.11), 1)
    if scale >= 12:
        stern = to_screen(board.world_of(piece.hexes[-1]))
        stern = (stern[0] + off[0] * scale, stern[1] + off[1] * scale)
        fonts.blit_boxed(target, piece.label or piece.name, stern, max(11, int(scale * 0.34)), anchor="center",
                         background=(20, 20, 20, 170))
    if selected or highlighted:
        pygame.draw.polygon(target, HIGHLIGHT if highlighted else SELECTED, hull, 3)


def hit_test(board: Board, piece: PieceView, world: Point) -> bool:
    """Is the world point on ``piece``?"""
    cx, cy = piece_centre(board, piece)
    x, y = world
    if piece.shape == "counter":
        half = COUNTER_SIDE / 2
        return abs(x - cx) <= half and abs(y - cy) <= half
    if piece.shape == "base":
        return math.hypot(x - cx, y - cy) <= max(piece.radius, 0.3)
    if piece.shape == "tray":
        a = math.radians(piece.facing)
        fx, fy = math.sin(a), -math.cos(a)
        rx, ry = math.cos(a), math.sin(a)
        dx, dy = x - cx, y - cy
        return abs(dx * rx + dy * ry) <= piece.width / 2 and abs(dx * fx + dy * fy) <= piece.depth / 2
    if piece.shape == "ship" and isinstance(board, HexBoard):
        return board.place_at(world) in piece.hexes
    return False
