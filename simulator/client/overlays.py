"""Tool overlays drawn over the board: movement range, line of sight, measuring tape,
range rings and highlighted pieces."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import pygame

from simulator.client import fonts
from simulator.client.board import Board, HexBoard, TableBoard
from simulator.client.piecedraw import COUNTER_SIDE, piece_centre, tray_outline
from simulator.core.view import LineOfSight, Measurement, MoveRange, PieceView, TerrainPiece

Point = tuple[float, float]
ToScreen = Callable[[Point], Point]

CLEAR = (40, 220, 90)
BLOCKED = (235, 45, 45)
TAPE = (255, 225, 60)
RANGE = (70, 230, 120)
RINGS = (120, 200, 255)


@dataclass
class ToolState:
    """What the tools currently show (all optional)."""

    move_range: MoveRange | None = None
    los: LineOfSight | None = None
    los_ends: tuple[Point, Point] | None = None
    measure: Measurement | None = None
    measure_ends: tuple[Point, Point] | None = None
    rings_for: str | None = None
    highlighted: set[str] = field(default_factory=set)


def _hex_poly(board: HexBoard, label: str, to_screen: ToScreen, shrink: float = 1.0) -> list[Point]:
    cx, cy = board.world_of(label)
    return [to_screen((cx + dx * shrink, cy + dy * shrink)) for dx, dy in board.grid.corner_offsets(1.0).tolist()]


def fill_alpha(target: pygame.Surface, pts: Sequence[Point], rgba: tuple[int, int, int, int]) -> None:
    """A translucent polygon, through a surface only as big as the polygon."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    box = pygame.Rect(int(min(xs)) - 1, int(min(ys)) - 1, int(max(xs) - min(xs)) + 3, int(max(ys) - min(ys)) + 3)
    box = box.clip(target.get_clip() or target.get_rect())
    if box.w <= 0 or box.h <= 0:
        return
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.polygon(layer, rgba, [(x - box.x, y - box.y) for x, y in pts])
    target.blit(layer, box)


def fill_circle_alpha(target: pygame.Surface, c: Point, r: float, rgba: tuple[int, int, int, int]) -> None:
    box = pygame.Rect(int(c[0] - r) - 1, int(c[1] - r) - 1, int(2 * r) + 3, int(2 * r) + 3)
    clipped = box.clip(target.get_clip() or target.get_rect())
    if clipped.w <= 0 or clipped.h <= 0:
        return
    layer = pygame.Surface(clipped.size, pygame.SRCALPHA)
    pygame.draw.circle(layer, rgba, (c[0] - clipped.x, c[1] - clipped.y), r)
    target.blit(layer, clipped)


def draw_move_range(target: pygame.Surface, board: Board, rng: MoveRange, to_screen: ToScreen, scale: float) -> None:
    if isinstance(board, HexBoard):
        for label, cost in rng.hexes.items():
            if not board.contains(label):
                continue
            pts = _hex_poly(board, label, to_screen, 0.94)
            fill_alpha(target, pts, (*RANGE, 80))
            pygame.draw.polygon(target, RANGE, pts, 2)
        if scale >= 22:
            for label, cost in rng.hexes.items():
                if board.contains(label):
                    x, y = board.world_of(label)
                    fonts.blit_centred(target, f"{cost:g}", to_screen((x - 0.55, y + 0.45)), max(12, int(scale * 0.3)),
                                       (10, 70, 20), bold=True)
    if rng.centre is not None and rng.radius > 0:
        c = to_screen(rng.centre)
        old_clip = target.get_clip()
        if isinstance(board, TableBoard):          # the reach ends at the table's edge
            (x0, y0), (x1, y1) = to_screen((0.0, 0.0)), to_screen((board.surface.width, board.surface.height))
            table = pygame.Rect(int(round(x0)), int(round(y0)), int(round(x1 - x0)) + 1, int(round(y1 - y0)) + 1)
            visible = table.clip(old_clip or target.get_rect())
            if visible.w <= 0 or visible.h <= 0:
                return
            target.set_clip(visible)
        fill_circle_alpha(target, c, rng.radius * scale, (*RANGE, 60))
        pygame.draw.circle(target, RANGE, c, rng.radius * scale, 3)
        target.set_clip(old_clip)


def _dashed(target: pygame.Surface, colour: tuple[int, int, int], a: Point, b: Point, width: int, dash: float = 12) -> None:
    length = math.dist(a, b)
    if length < 1:
        return
    n = max(1, int(length / dash))
    for i in range(0, n, 2):
        t0, t1 = i / n, min(1.0, (i + 1) / n)
        pygame.draw.line(target, colour, (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                         (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1), width)


def draw_los(target: pygame.Surface, board: Board, los: LineOfSight, ends: tuple[Point, Point], to_screen: ToScreen,
             scale: float, pieces: dict[str, PieceView], terrain: Sequence[TerrainPiece]) -> None:
    colour = CLEAR if los.clear else BLOCKED
    for blocker in los.blockers:
        _draw_blocker(target, board, blocker, to_screen, scale, pieces, terrain)
    a, b = to_screen(ends[0]), to_screen(ends[1])
    sight = _sight_line(los)
    if sight is not None:
        # the game found the line itself (any point of a front edge to any part of the target):
        # draw that one, and a thin line from the tool's ends so the player sees what he asked
        pygame.draw.line(target, colour, a, b, 1)
        a, b = to_screen(sight[0]), to_screen(sight[1])
    pygame.draw.line(target, (15, 15, 15), a, b, 7)
    pygame.draw.line(target, colour, a, b, 4)
    for p in (a, b):
        pygame.draw.circle(target, colour, p, 7)
        pygame.draw.circle(target, (15, 15, 15), p, 7, 2)
    verdict = "Line of sight clear" if los.clear else "Line of sight BLOCKED"
    text = f"{verdict}: {los.text}" + (f"  [{los.rule}]" if los.rule else "")
    fonts.blit_boxed(target, text, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 14), 20, colour, anchor="midbottom")


def _sight_line(los: LineOfSight) -> tuple[Point, Point] | None:
    """The sight line the game gives in ``los.points`` when both ends are table points."""
    if los.points is None or not all(isinstance(p, (tuple, list)) and len(p) == 2 for p in los.points):
        return None
    return (float(los.points[0][0]), float(los.points[0][1])), (float(los.points[1][0]), float(los.points[1][1]))


def _draw_blocker(target: pygame.Surface, board: Board, blocker: Any, to_screen: ToScreen, scale: float,
                  pieces: dict[str, PieceView], terrain: Sequence[TerrainPiece]) -> None:
    if isinstance(blocker, str) and blocker in pieces:
        p = pieces[blocker]
        c = to_screen(piece_centre(board, p))
        r = (COUNTER_SIDE * 0.75 if p.shape == "counter" else max(p.radius, p.width / 2, p.depth / 2)) * scale
        pygame.draw.circle(target, BLOCKED, c, r + 4, 4)
        return
    if isinstance(blocker, str) and isinstance(board, HexBoard) and board.contains(blocker):
        pts = _hex_poly(board, blocker, to_screen, 0.92)
        fill_alpha(target, pts, (*BLOCKED, 90))
        pygame.draw.polygon(target, BLOCKED, pts, 4)
        return
    if isinstance(blocker, str):
        for t in terrain:
            if t.id == blocker:
                pygame.draw.polygon(target, BLOCKED, [to_screen(p) for p in t.polygon], 4)
        return
    if isinstance(blocker, (tuple, list)) and len(blocker) == 2 and isinstance(board, HexBoard) \
            and all(isinstance(x, str) for x in blocker) and board.grid.adjacent(blocker[0], blocker[1]):
        from simulator.geometry.hexgrid import Hexside
        (x0, y0), (x1, y1) = board.grid.hexside_endpoints(Hexside.between(blocker[0], blocker[1], board.grid), 1.0)
        pygame.draw.line(target, BLOCKED, to_screen((x0, y0)), to_screen((x1, y1)), max(5, int(scale * 0.22)))


def draw_measure(target: pygame.Surface, m: Measurement, ends: tuple[Point, Point], to_screen: ToScreen) -> None:
    a, b = to_screen(ends[0]), to_screen(ends[1])
    pygame.draw.line(target, (15, 15, 15), a, b, 6)
    _dashed(target, TAPE, a, b, 4, 10)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    px, py = -math.sin(ang) * 9, math.cos(ang) * 9
    for p in (a, b):
        pygame.draw.line(target, TAPE, (p[0] + px, p[1] + py), (p[0] - px, p[1] - py), 4)
    text = m.text + (f"   within {', '.join(m.within)}" if m.within else "")
    fonts.blit_boxed(target, text, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 14), 22, TAPE, anchor="midtop")


def draw_path(target: pygame.Surface, path: Sequence[Point], to_screen: ToScreen) -> None:
    """The way a dragged piece would go: a line through its waypoints, a dot at each bend."""
    pts = [to_screen(p) for p in path]
    if len(pts) < 2:
        return
    pygame.draw.lines(target, TAPE, False, pts, 3)
    for p in pts[1:-1]:
        pygame.draw.circle(target, TAPE, p, 5)


def draw_cost(target: pygame.Surface, text: str, at: Point, scale: float) -> None:
    """What the dragged piece's move costs ("3 MP", '4.5"'), in a box below and right of it."""
    fonts.blit_boxed(target, text, (at[0] + max(14.0, scale * 0.45), at[1] + max(14.0, scale * 0.45)), 20, TAPE,
                     anchor="topleft")


def draw_rings(target: pygame.Surface, board: Board, piece: PieceView, rings: Sequence[float], to_screen: ToScreen,
               scale: float) -> None:
    c_world = piece_centre(board, piece)
    if isinstance(board, HexBoard) and isinstance(piece.at, str):
        for d in rings:
            for label in board.grid.ring(piece.at, int(d)):
                if board.contains(label):
                    pygame.draw.polygon(target, RINGS, _hex_poly(board, label, to_screen, 0.9), 2)
            edge = board.grid.ring(piece.at, int(d))
            if edge:
                fonts.blit_boxed(target, f"{d:g}", to_screen(board.world_of(edge[0])), 16, RINGS, anchor="center")
        return
    if piece.shape == "tray":
        corners = tray_outline(piece, c_world)
        extent = max(math.dist(c_world, p) for p in corners)
    else:
        extent = piece.radius
    c = to_screen(c_world)
    for d in rings:
        r = (extent + d) * scale
        pygame.draw.circle(target, RINGS, c, r, 2)
        fonts.blit_boxed(target, f'{d:g}"', (c[0], c[1] - r), 16, RINGS, anchor="center")


def ring_distances(board: Board, tools_rings: Sequence[float], named: dict[str, float]) -> list[float]:
    if tools_rings:
        return list(tools_rings)
    return sorted(named.values()) if named else ([2, 4] if isinstance(board, HexBoard) else [6, 12])

