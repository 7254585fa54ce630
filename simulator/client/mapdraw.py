"""Drawing the static board: terrain, patterns, hexside features, roads, labels, table.

Everything here is drawn once into a cached surface (:class:`MapCache`) and redrawn only
when the zoom, the toggles or the game's ``surface_key`` change; a frame just blits it.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pygame

from simulator.client import fonts
from simulator.client.board import Board, HexBoard, TableBoard
from simulator.core.view import FeatureStyle, TerrainStyle
from simulator.geometry.hexgrid import Hexside

RGB = tuple[int, int, int]
Point = tuple[float, float]

#: The cached map never grows beyond this many pixels a side (it bounds the zoom).
MAX_CACHE_SIDE = 6000
FALLBACK_STYLE = TerrainStyle("?", "Unknown terrain", (200, 0, 200), "plain")
TABLE_EDGE = (92, 64, 40)


def shade(c: Sequence[int], f: float) -> RGB:
    """Darker (f < 1) or lighter (f > 1, towards white) version of a colour."""
    if f <= 1:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f))
    t = min(1.0, f - 1)
    return (int(c[0] + (255 - c[0]) * t), int(c[1] + (255 - c[1]) * t), int(c[2] + (255 - c[2]) * t))


def _rng(key: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(key.encode()))


def max_scale(board: Board) -> float:
    x0, y0, x1, y1 = board.bounds
    return MAX_CACHE_SIDE / max(x1 - x0, y1 - y0)


# ----------------------------------------------------------------------------- patterns


def draw_pattern(target: pygame.Surface, pattern: str, colour: RGB, centre: Point, r: float, key: str) -> None:
    """One hex-sized patch of ``pattern`` around ``centre`` (radius ``r`` pixels)."""
    if pattern == "plain" or r < 5:
        return
    cx, cy = centre
    rng = _rng(key)
    dark, light = shade(colour, 0.72), shade(colour, 1.25)
    w = max(1, int(r / 14))
    if pattern == "trees":
        for dx, dy in ((-0.38, -0.2), (0.3, -0.32), (0.02, 0.3), (0.42, 0.22), (-0.3, 0.38)):
            jx, jy = rng.uniform(-0.08, 0.08, 2)
            rr = r * rng.uniform(0.17, 0.23)
            p = (cx + (dx + jx) * r, cy + (dy + jy) * r)
            pygame.draw.circle(target, shade(colour, 0.55), (p[0] + rr * 0.25, p[1] + rr * 0.3), rr)
            pygame.draw.circle(target, dark, p, rr)
            pygame.draw.circle(target, shade(colour, 1.15), (p[0] - rr * 0.3, p[1] - rr * 0.3), rr * 0.4)
    elif pattern == "waves":
        for dy in (-0.4, 0.0, 0.4):
            x0 = cx - 0.5 * r + rng.uniform(-0.1, 0.1) * r
            y0 = cy + dy * r
            pts = [(x0 + i * r * 0.125, y0 + math.sin(i * 1.6) * r * 0.06) for i in range(9)]
            pygame.draw.lines(target, light, False, pts, w)
    elif pattern == "buildings":
        for dx, dy, bw, bh in ((-0.45, -0.4, 0.4, 0.3), (0.08, -0.45, 0.32, 0.38), (-0.3, 0.12, 0.34, 0.3),
                               (0.15, 0.08, 0.36, 0.32)):
            if rng.random() < 0.2:
                continue
            rect = pygame.Rect(int(cx + dx * r), int(cy + dy * r), max(2, int(bw * r)), max(2, int(bh * r)))
            pygame.draw.rect(target, shade(colour, 0.62), rect.move(w, w))
            pygame.draw.rect(target, shade(colour, 0.82), rect)
            pygame.draw.line(target, shade(colour, 0.55), rect.midleft, rect.midright, w)
    elif pattern in ("rough", "rocks"):
        for _ in range(7 if pattern == "rough" else 4):
            x, y = rng.uniform(-0.55, 0.55, 2) * r
            if pattern == "rough":
                pygame.draw.circle(target, dark, (cx + x, cy + y), max(1.0, r * 0.05))
            else:
                s = r * rng.uniform(0.1, 0.18)
                pygame.draw.polygon(target, shade(colour, 0.6), [(cx + x - s, cy + y + s * 0.6),
                                                                 (cx + x, cy + y - s), (cx + x + s, cy + y + s * 0.6)])
    elif pattern == "fields":
        for i in range(-3, 4):
            y = cy + i * r * 0.16
            pygame.draw.line(target, dark, (cx - 0.55 * r, y), (cx + 0.55 * r, y), w)
    elif pattern == "marsh":
        for _ in range(5):
            x, y = rng.uniform(-0.5, 0.5, 2) * r
            pygame.draw.line(target, dark, (cx + x - r * 0.1, cy + y), (cx + x + r * 0.1, cy + y), w)
            pygame.draw.line(target, dark, (cx + x, cy + y), (cx + x, cy + y - r * 0.12), w)
    elif pattern == "stone":
        for row in range(-2, 3):
            y = cy + row * r * 0.24
            pygame.draw.line(target, dark, (cx - 0.6 * r, y), (cx + 0.6 * r, y), w)
            off = 0.15 if row % 2 else 0.0
            for col in (-0.3, 0.0, 0.3):
                x = cx + (col + off) * r
                pygame.draw.line(target, dark, (x, y), (x, y + r * 0.24), w)


# ----------------------------------------------------------------------------- hex maps


def _segments(board: HexBoard, pairs: Sequence[tuple[str, str]], scale: float, origin: Point) -> np.ndarray:
    sides = [Hexside.between(a, b, board.grid) for a, b in pairs]
    return board.grid.hexside_segments(sides, scale, origin)


WALL = (60, 55, 50)            # stone, when the surface styles no wall of its own
STONE_EDGE = (226, 218, 200)


def _line(target: pygame.Surface, colour: RGB, a: Point, b: Point, w: int, caps: bool = False) -> None:
    pygame.draw.line(target, colour, a, b, max(1, int(w)))
    if caps and w >= 3:
        pygame.draw.circle(target, colour, a, w / 2)
        pygame.draw.circle(target, colour, b, w / 2)


def _stone(target: pygame.Surface, colour: RGB, a: Point, b: Point, w: int) -> None:
    """A stretch of wall: a dark stone band with a light edge and masonry joints."""
    edge = max(1, w // 4)
    _line(target, STONE_EDGE, a, b, w + 2 * edge, caps=True)
    _line(target, colour, a, b, w, caps=True)
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if w >= 5 and length > 0:
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        nx, ny = -uy * w * 0.42, ux * w * 0.42
        joint = shade(colour, 1.7)
        step = max(4.0, w * 1.3)
        t, k = step / 2, 0
        while t < length - 2:
            p = (a[0] + ux * t, a[1] + uy * t)
            off = 0.0 if k % 2 else 0.5
            q = (p[0] + nx * off, p[1] + ny * off)
            pygame.draw.line(target, joint, (q[0] - nx * 0.5, q[1] - ny * 0.5), (q[0] + nx * 0.5, q[1] + ny * 0.5), 1)
            t += step
            k += 1
        pygame.draw.line(target, shade(colour, 1.35), a, b, 1)


def _draw_feature(target: pygame.Surface, style: FeatureStyle, a: np.ndarray, b: np.ndarray, scale: float,
                  wall: RGB = WALL) -> None:
    """One hexside feature, each ``FeatureStyle.style`` drawn its own way:
    wall (stone band, light edge, joints), gate (a wide coloured gap between two posts),
    door (a narrow coloured leaf in the wall), window (a pane in the wall), bank (a
    hachured bank line), bridge (the bridge end: a deck band between two wing marks),
    road (a road band), dashed (dashes), line (a plain line)."""
    w = max(3, int(style.width * scale * 1.3))
    a_t, b_t = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
    length = math.hypot(b_t[0] - a_t[0], b_t[1] - a_t[1]) or 1.0
    ux, uy = (b_t[0] - a_t[0]) / length, (b_t[1] - a_t[1]) / length
    nx, ny = -uy, ux

    def at(t: float) -> Point:
        return (a_t[0] + (b_t[0] - a_t[0]) * t, a_t[1] + (b_t[1] - a_t[1]) * t)

    kind = style.style
    if kind == "wall":
        _stone(target, style.colour, a_t, b_t, w)
    elif kind in ("gate", "door", "window"):
        gap = {"gate": 0.2, "door": 0.3, "window": 0.3}[kind]
        sw = max(3, int(0.16 * scale * 1.3))
        _stone(target, wall, a_t, at(gap), sw)
        _stone(target, wall, at(1 - gap), b_t, sw)
        p, q = at(gap + 0.03), at(1 - gap - 0.03)
        if kind == "window":
            pw = max(3, int(sw * 0.8))
            _line(target, (25, 25, 25), p, q, pw + 2)
            _line(target, style.colour, p, q, pw)
            m = at(0.5)
            pygame.draw.line(target, (25, 25, 25), (m[0] - nx * pw / 2, m[1] - ny * pw / 2),
                             (m[0] + nx * pw / 2, m[1] + ny * pw / 2), 1)
        else:
            lw = max(3, int(w * (1.0 if kind == "gate" else 0.9)))
            _line(target, (245, 240, 225), p, q, lw + 4)
            _line(target, style.colour, p, q, lw)
            if kind == "gate":           # two leaves and the posts of the gateway
                m = at(0.5)
                pygame.draw.line(target, shade(style.colour, 0.5), (m[0] - nx * lw / 2, m[1] - ny * lw / 2),
                                 (m[0] + nx * lw / 2, m[1] + ny * lw / 2), max(1, lw // 4))
                for t in (gap, 1 - gap):
                    pygame.draw.circle(target, STONE_EDGE, at(t), sw * 0.75 + 1)
                    pygame.draw.circle(target, wall, at(t), sw * 0.75)
    elif kind == "bank":
        _line(target, shade(style.colour, 1.5), a_t, b_t, w + 2)
        _line(target, style.colour, a_t, b_t, w)
        step = max(4.0, w * 1.4)
        t = step / 2
        while t < length:
            p = (a_t[0] + ux * t, a_t[1] + uy * t)
            pygame.draw.line(target, shade(style.colour, 0.55), (p[0] - nx * w * 0.5, p[1] - ny * w * 0.5),
                             (p[0] + nx * w * 1.3, p[1] + ny * w * 1.3), max(1, w // 4))
            t += step
    elif kind == "bridge":
        p, q = at(0.18), at(0.82)
        _line(target, shade(style.colour, 0.5), p, q, w + 2)
        _line(target, style.colour, p, q, w)
        wing = w * 1.1 + 3
        for t, sgn in ((0.18, -1), (0.82, 1)):
            c = at(t)
            for side in (-1, 1):
                tip = (c[0] + nx * wing * side + ux * sgn * wing * 0.6, c[1] + ny * wing * side + uy * sgn * wing * 0.6)
                pygame.draw.line(target, (40, 30, 22), c, tip, max(2, w // 2))
    elif kind == "road":
        _line(target, shade(style.colour, 0.65), a_t, b_t, w + 2, caps=True)
        _line(target, style.colour, a_t, b_t, w, caps=True)
    elif kind == "dashed":
        for t in (0.0, 0.27, 0.54, 0.81):
            p, q = at(t), at(min(1.0, t + 0.17))
            _line(target, shade(style.colour, 0.5), p, q, w + 2)
            _line(target, style.colour, p, q, w)
    else:
        _line(target, style.colour, a_t, b_t, w)


def hexside_features(surface: Any) -> dict[tuple[str, str], str]:
    """Every hexside to draw and its feature id: the map's hexsides with the surface's
    ``hexside_overrides`` applied (an override of "" removes the feature)."""
    out: dict[frozenset, tuple[tuple[str, str], str]] = {}
    for side in surface.hexmap.hexsides:
        a, b = side["between"]
        out[frozenset((a, b))] = ((a, b), side["feature"])
    for (a, b), feature in dict(getattr(surface, "hexside_overrides", {}) or {}).items():
        key = frozenset((a, b))
        out[key] = (out[key][0] if key in out else (a, b), feature)
    return {pair: feature for pair, feature in out.values() if feature}


def draw_hex_map(target: pygame.Surface, board: HexBoard, scale: float, origin: Point, labels: bool) -> None:
    """The whole hex map, world point (0, 0) at pixel ``origin`` of ``target``."""
    surface = board.surface
    hexmap = surface.hexmap
    grid = board.grid
    polys = grid.polygons(board.labels, scale, origin)
    centres = board.centres * scale + np.asarray(origin)
    for i, label in enumerate(board.labels):
        terrain = surface.hex_overrides.get(label) or hexmap.terrain_of(label)
        style = surface.terrain_styles.get(terrain, FALLBACK_STYLE)
        poly = [(float(x), float(y)) for x, y in polys[i]]
        pygame.draw.polygon(target, style.colour, poly)
        c = (float(centres[i][0]), float(centres[i][1]))
        draw_pattern(target, style.pattern, style.colour, c, scale * 0.8, label)
        others = hexmap.terrains_of(label)[1:] if label not in surface.hex_overrides else ()
        for k, extra in enumerate(others):
            st = surface.terrain_styles.get(extra, FALLBACK_STYLE)
            pygame.draw.circle(target, st.colour, (c[0] + scale * (0.35 - 0.3 * k), c[1] + scale * 0.45), scale * 0.16)
    outline = max(1, int(scale / 40))
    for i in range(len(board.labels)):
        pygame.draw.polygon(target, (70, 70, 60), [(float(x), float(y)) for x, y in polys[i]], outline)
    for name, chains in hexmap.paths.items():
        style = surface.path_styles.get(name, FeatureStyle(name, name, (150, 120, 80), 0.14, "road"))
        w = max(2, int(style.width * scale))
        for chain in chains:
            pts = [tuple(p) for p in (grid.to_pixel(chain, scale, origin).reshape(-1, 2)).tolist()]
            if len(pts) >= 2:
                pygame.draw.lines(target, shade(style.colour, 0.7), False, pts, w + 2)
                pygame.draw.lines(target, style.colour, False, pts, w)
                for p in pts:
                    pygame.draw.circle(target, style.colour, p, w / 2)
    by_style: dict[str, list[tuple[str, str]]] = {}
    for pair, feature in hexside_features(surface).items():
        by_style.setdefault(feature, []).append(pair)
    order = sorted(by_style, key=lambda f: surface.feature_styles.get(f, FeatureStyle(f, f, (0, 0, 0))).style == "wall",
                   reverse=True)
    wall = next((st.colour for st in surface.feature_styles.values() if st.style == "wall"), WALL)
    for feature in order:
        style = surface.feature_styles.get(feature, FeatureStyle(feature, feature, (200, 0, 200), 0.1, "line"))
        for seg in _segments(board, by_style[feature], scale, origin):
            _draw_feature(target, style, seg[0], seg[1], scale, wall)
    for label, mark in surface.hex_marks.items():
        if not board.contains(label):
            continue
        x, y = board.world_of(label)
        # low in the hex, clear of a counter's centre, and big enough to read at the
        # fitted zoom (victory-point values are what players scan the map for)
        p = (origin[0] + x * scale, origin[1] + (y + 0.5) * scale)
        rad = max(7.5, scale * 0.3)
        pygame.draw.circle(target, (255, 255, 255), p, rad + 2)
        pygame.draw.circle(target, (30, 80, 190), p, rad)
        fonts.blit_centred(target, mark, p, int(rad * 1.7), (255, 255, 255), bold=True)
    if labels and scale >= 14:
        size = max(9, int(scale * 0.32))
        for i, label in enumerate(board.labels):
            fonts.blit_centred(target, label, (centres[i][0], centres[i][1] - scale * 0.62), size, (40, 40, 40))


# ----------------------------------------------------------------------------- tables


def points_in_polygon(pts: np.ndarray, poly: Sequence[Point]) -> np.ndarray:
    """Even-odd test of many points ``(n, 2)`` against one polygon (for pattern fills)."""
    p = np.asarray(poly, dtype=float)
    x, y = pts[:, 0][:, None], pts[:, 1][:, None]
    x1, y1 = p[:, 0][None, :], p[:, 1][None, :]
    x2, y2 = np.roll(p[:, 0], -1)[None, :], np.roll(p[:, 1], -1)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = ((y1 > y) != (y2 > y)) & (x < x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    return (cross.sum(axis=1) % 2) == 1


INCH_LABEL = (240, 230, 210)
INCH_LABEL_MIN = 16          # the smallest inch-label size on a table's edge


def draw_table(target: pygame.Surface, board: TableBoard, scale: float, origin: Point, grid: bool) -> None:
    surface = board.surface

    def px(p: Point) -> Point:
        return (origin[0] + p[0] * scale, origin[1] + p[1] * scale)

    w, h = surface.width * scale, surface.height * scale
    table = pygame.Rect(int(origin[0]), int(origin[1]), int(w), int(h))
    inch_labels = grid and scale >= 10
    # the inch labels print on the table's edge, which is made wide enough for them
    lsize = max(INCH_LABEL_MIN, min(22, int(scale * 0.9)))
    edge = max(4, int(scale * 0.8))
    if inch_labels:
        edge = min(max(edge, fonts.font(lsize).get_height() + 2), int(scale * 1.9))
    pygame.draw.rect(target, TABLE_EDGE, table.inflate(edge * 2, edge * 2), border_radius=edge // 2)
    pygame.draw.rect(target, shade(TABLE_EDGE, 1.3), table.inflate(edge * 2, edge * 2), max(1, edge // 5),
                     border_radius=edge // 2)
    pygame.draw.rect(target, surface.colour, table)
    rng = _rng("table")
    for _ in range(int(surface.width * surface.height / 3)):
        x, y = rng.uniform(0, surface.width), rng.uniform(0, surface.height)
        pygame.draw.circle(target, shade(surface.colour, 0.9 if rng.random() < 0.5 else 1.08), px((x, y)),
                           max(1.0, scale * 0.12))
    if grid and scale >= 6:
        faint = shade(surface.colour, 0.88)
        strong = shade(surface.colour, 0.7)
        for i in range(int(surface.width) + 1):
            pygame.draw.line(target, strong if i % 6 == 0 else faint, px((i, 0)), px((i, surface.height)),
                             2 if i % 6 == 0 else 1)
        for j in range(int(surface.height) + 1):
            pygame.draw.line(target, strong if j % 6 == 0 else faint, px((0, j)), px((surface.width, j)),
                             2 if j % 6 == 0 else 1)
        if inch_labels:
            for i in range(0, int(surface.width) + 1, 6):
                fonts.blit_centred(target, f'{i}"', (px((i, 0))[0], origin[1] - edge / 2), lsize, INCH_LABEL)
            for j in range(6, int(surface.height) + 1, 6):
                label = fonts.text(f'{j}"', lsize, INCH_LABEL)      # right-aligned: wider than the edge
                target.blit(label, label.get_rect(midright=(int(origin[0] - 2), int(px((0, j))[1]))))
    for name, poly, colour in surface.zones:
        pts = [px(p) for p in poly]
        layer = pygame.Surface(target.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(layer, (*colour, 38), pts)
        target.blit(layer, (0, 0))
        pygame.draw.polygon(target, shade(colour, 0.9), pts, max(1, int(scale / 12)))
        xs, ys = zip(*pts)
        size = max(14, min(26, int(scale * 0.7)))
        centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        if max(ys) - min(ys) < size * 3:        # a small zone (an objective): the name under it
            fonts.blit_boxed(target, name, (centre[0], max(ys) + 3), size, shade(colour, 1.4), (25, 25, 30, 170),
                             anchor="midtop")
        else:
            # a deployment zone: the name along its edge towards the middle of the table, not at
            # its centre, where it hid behind (and peeked out around) the pieces deployed there
            pad = max(2, int(scale * 0.15))
            upper = centre[1] <= origin[1] + h / 2
            pos = (centre[0], max(ys) - pad) if upper else (centre[0], min(ys) + pad)
            fonts.blit_boxed(target, name, pos, size, shade(colour, 1.4), (25, 25, 30, 150),
                             anchor="midbottom" if upper else "midtop")
    for piece in surface.terrain:
        draw_terrain_piece(target, piece.polygon, piece.style, piece.name, px, scale, piece.id)


def draw_terrain_piece(target: pygame.Surface, polygon: Sequence[Point], style: TerrainStyle, name: str,
                       px: Any, scale: float, key: str) -> None:
    pts = [px(p) for p in polygon]
    pygame.draw.polygon(target, shade(style.colour, 0.8), [(x + scale * 0.15, y + scale * 0.2) for x, y in pts])
    pygame.draw.polygon(target, style.colour, pts)
    arr = np.asarray(polygon, dtype=float)
    x0, y0 = arr.min(axis=0)
    x1, y1 = arr.max(axis=0)
    step = 1.6
    gx, gy = np.meshgrid(np.arange(x0 + step / 2, x1, step), np.arange(y0 + step / 2, y1, step))
    cells = np.stack([gx.ravel(), gy.ravel()], axis=-1)
    if len(cells):
        for i, (cx, cy) in enumerate(cells[points_in_polygon(cells, polygon)]):
            draw_pattern(target, style.pattern, style.colour, px((cx, cy)), scale * step * 0.5, f"{key}{i}")
    pygame.draw.polygon(target, shade(style.colour, 0.55), pts, max(2, int(scale / 8)))
    c = px((float(arr[:, 0].mean()), float(arr[:, 1].mean())))
    fonts.blit_boxed(target, name, c, max(12, int(scale * 0.55)), anchor="center",
                     background=(30, 30, 30, 140))


# ----------------------------------------------------------------------------- the cache


@dataclass
class MapCache:
    """The board drawn once at one scale; rebuilt only when its key changes.

    While a zoom gesture goes on the view asks for :meth:`blit_scaled` instead: the part of
    the cached image under the viewport, scaled to the new zoom (one ``transform.scale`` of at
    most a screenful), and draws the crisp map again once the gesture stops."""

    key: Any = None
    image: pygame.Surface | None = None
    origin_world: Point = (0.0, 0.0)
    #: The scale (pixels per world unit) the image was drawn at.
    scale: float = 0.0
    renders: int = 0

    @staticmethod
    def key_for(board: Board, surface_key: Any, scale: float, labels: bool, grid: bool) -> Any:
        return (id(board), surface_key, round(scale, 4), labels, grid)

    def get(self, board: Board, surface_key: Any, scale: float, labels: bool, grid: bool) -> pygame.Surface:
        key = self.key_for(board, surface_key, scale, labels, grid)
        if self.image is None or key != self.key:
            self.image = render_board(board, scale, labels, grid)
            self.origin_world = (board.bounds[0], board.bounds[1])
            self.scale = scale
            self.key = key
            self.renders += 1
        return self.image

    def drawn_at(self, scale: float) -> bool:
        """Whether the image is the crisp map at ``scale`` (to the key's precision)."""
        return self.image is not None and round(self.scale, 4) == round(scale, 4)

    def same_but_scale(self, board: Board, surface_key: Any, labels: bool, grid: bool) -> bool:
        """Whether the image shows this board, surface and toggles (at whatever scale)."""
        if self.image is None or self.key is None:
            return False
        k = self.key_for(board, surface_key, self.scale, labels, grid)
        return bool(k[:2] == self.key[:2] and k[3:] == self.key[3:])

    def blit_scaled(self, target: pygame.Surface, viewport: pygame.Rect, scale: float,
                    to_screen: Any, background: RGB) -> None:
        """Draw the cached image at ``scale`` (not its own) into ``viewport``: only the part the
        viewport shows is scaled, straight into the target (no intermediate surface), so the
        cost is one screenful of pixels. The part is whole image pixels, so its edges may sit
        up to one image pixel off the exact place: invisible while the zoom moves, and the crisp
        map replaces it when the gesture stops. What the map leaves bare is ``background``."""
        assert self.image is not None
        f = scale / self.scale
        sx0, sy0 = to_screen(self.origin_world)     # where the image's corner lands on screen
        iw, ih = self.image.get_size()
        view = viewport.clip(target.get_rect())
        # the viewport in image pixels (rounded), clipped to the image
        x0 = max(0, round((view.x - sx0) / f))
        y0 = max(0, round((view.y - sy0) / f))
        x1 = min(iw, round((view.right - sx0) / f))
        y1 = min(ih, round((view.bottom - sy0) / f))
        if x1 <= x0 or y1 <= y0:
            target.fill(background, view)
            return
        # where that part lands, clipped to the viewport
        left, top = round(sx0 + x0 * f), round(sy0 + y0 * f)
        dest = pygame.Rect(left, top, round(sx0 + x1 * f) - left, round(sy0 + y1 * f) - top).clip(view)
        if dest != view:
            target.fill(background, view)
        if dest.width <= 0 or dest.height <= 0:
            return
        part = self.image.subsurface(pygame.Rect(x0, y0, x1 - x0, y1 - y0))
        try:
            pygame.transform.scale(part, dest.size, target.subsurface(dest))
        except ValueError:                          # another pixel format: through a new surface
            target.blit(pygame.transform.scale(part, dest.size), dest)


def render_board(board: Board, scale: float, labels: bool, grid: bool) -> pygame.Surface:
    """The board at ``scale`` on a new surface whose top-left is the board's bounds corner."""
    x0, y0, x1, y1 = board.bounds
    size = (max(1, min(MAX_CACHE_SIDE, int((x1 - x0) * scale) + 1)), max(1, min(MAX_CACHE_SIDE, int((y1 - y0) * scale) + 1)))
    image = pygame.Surface(size)
    image.fill((34, 38, 44))
    origin = (-x0 * scale, -y0 * scale)
    if isinstance(board, HexBoard):
        draw_hex_map(image, board, scale, origin, labels)
    else:
        draw_table(image, board, scale, origin, grid)
    return image
