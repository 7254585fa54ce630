"""Drawing pieces: counters with printed values, round bases, trays with ranks and a
facing marker, and multi-hex ships with their crews on deck; plus hit-testing.

Pieces are drawn every frame in screen space (they move); a counter's face is rendered
once per zoom level and reused (:class:`PieceSprites`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import pygame

from simulator.client import art, fonts
from simulator.client.board import Board, HexBoard
from simulator.client.mapdraw import shade
from simulator.core.view import PieceView
from simulator.geometry.segments import points_in_polygon

Point = tuple[float, float]
ToScreen = Callable[[Point], Point]

COUNTER_SIDE = 1.2           # hex sizes: the largest square a hex holds is 1.27
STACK_STEP = 0.3            # hex sizes between stacked counters
SELECTED = (255, 214, 40)
HIGHLIGHT = (255, 140, 0)


def piece_centre(board: Board, piece: PieceView) -> Point:
    """World centre of a piece. Stacked counters fan out down and to the right, so the
    label strip along the top of each counter beneath stays in view."""
    if piece.shape == "ship" and piece.hexes:
        pts = [board.world_of(h) for h in piece.hexes]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
    x, y = board.world_of(piece.at)
    if isinstance(board, HexBoard) and piece.stack_index:
        x += STACK_STEP * piece.stack_index
        y += STACK_STEP * piece.stack_index
    return x, y


def tray_corners(piece: PieceView, centre: Point) -> list[Point]:
    """World corners of a tray (front-left, front-right, back-right, back-left)."""
    hw, hd = piece.width / 2, piece.depth / 2
    return _turned(piece, centre, [(-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd)])


def tray_outline(piece: PieceView, centre: Point) -> list[Point]:
    """World points of what a tray covers: its ``outline`` turned with its facing about
    ``centre``, or its rectangle (:func:`tray_corners`)."""
    return _turned(piece, centre, piece.outline) if piece.outline else tray_corners(piece, centre)


def _turned(piece: PieceView, centre: Point, offsets: Sequence[Point]) -> list[Point]:
    """World points of offsets in the piece's own frame (x to its right, y to its back) placed
    at ``centre`` and turned with its facing (north = up at facing 0)."""
    a = math.radians(piece.facing)
    fx, fy = math.sin(a), -math.cos(a)          # forward
    rx, ry = math.cos(a), math.sin(a)           # right
    cx, cy = centre
    return [(cx + ox * rx - oy * fx, cy + ox * ry - oy * fy) for ox, oy in offsets]


@dataclass
class PieceSprites:
    """Counter faces and ship boards rendered once per (look, size).

    ``quick`` (set by the board view during a zoom gesture): a size not rendered yet is the
    nearest rendered one scaled (a blit's cost, not a render's), kept apart and dropped when
    the gesture ends, so the crisp faces come back with the crisp map."""

    cache: dict[tuple, pygame.Surface] = field(default_factory=dict)
    ships: dict[tuple, tuple[pygame.Surface, Point]] = field(default_factory=dict)
    shapes: dict[tuple, "ShipShape"] = field(default_factory=dict)
    quick: bool = False
    scaled: dict[tuple, pygame.Surface] = field(default_factory=dict)
    scaled_ships: dict[tuple, tuple[pygame.Surface, Point]] = field(default_factory=dict)
    #: The sizes drawn of each counter look (the nearest is found without a walk of the cache).
    sizes: dict[tuple, set[int]] = field(default_factory=dict)
    #: Faces still to scale in this frame (``begin_frame``): past it a face keeps the nearest
    #: size for a frame, so a zoom step over many counters never costs a long frame.
    budget: int = 0
    #: The names drawn beside pieces in this frame (``begin_frame`` clears it): a name that would
    #: cover one already drawn goes above its piece instead, or is left to the info panel.
    captions: list[pygame.Rect] = field(default_factory=list)

    def set_quick(self, quick: bool) -> None:
        if self.quick and not quick:
            self.scaled.clear()
            self.scaled_ships.clear()
        self.quick = quick

    def begin_frame(self) -> None:
        self.budget = QUICK_SCALES_PER_FRAME
        self.captions.clear()

    def counter(self, piece: PieceView, side_px: int) -> pygame.Surface:
        look = (piece.colour, piece.text_colour, piece.label, piece.name, piece.values, bool(piece.status),
                piece.icon, piece.accent)
        key = (*look, side_px)
        surf = self.cache.get(key) or self.scaled.get(key)
        if surf is None and self.quick and self.sizes.get(look):
            near = min(self.sizes[look], key=lambda n: abs(n - side_px))
            surf = self.cache[(*look, near)]
            if self.budget > 0:
                self.budget -= 1
                surf = self.scaled[key] = pygame.transform.scale(surf, (side_px, side_px))
        if surf is None:
            if len(self.cache) > 2000:
                self.cache.clear()
                self.sizes.clear()
            surf = _counter_face(piece, side_px)
            self.cache[key] = surf
            self.sizes.setdefault(look, set()).add(side_px)
        return surf

    def ship(self, board: HexBoard, piece: PieceView, scale: float) -> tuple[pygame.Surface, Point]:
        """The ship's board (deck, gunwale, shields, prow) and its world top-left corner."""
        look = (id(board), piece.hexes, int(round(piece.facing)) % 6, piece.colour)
        key = (*look, round(scale, 3))
        found = self.ships.get(key) or self.scaled_ships.get(key)
        if found is None and self.quick:
            scales = [k[-1] for k in self.ships if k[:-1] == look]
            if scales:
                near = min(scales, key=lambda v: abs(v - scale))
                image, corner = self.ships[(*look, near)]   # the corner is in world units
                size = (max(1, round(image.get_width() * scale / near)),
                        max(1, round(image.get_height() * scale / near)))
                found = self.scaled_ships[key] = (pygame.transform.scale(image, size), corner)
        if found is None:
            if len(self.ships) > 64:
                self.ships.clear()
            found = _ship_board(board, piece, scale)
            self.ships[key] = found
        return found

    def shape(self, board: Board, piece: PieceView, offset: Point) -> "ShipShape":
        """``ship_shape``, computed once per footprint, facing and offset (every frame asks)."""
        key = (id(board), piece.hexes, str(piece.at), piece.facing, offset)
        found = self.shapes.get(key)
        if found is None:
            if len(self.shapes) > 256:
                self.shapes.clear()
            found = self.shapes[key] = ship_shape(board, piece, offset)
        return found


#: Counter faces scaled (not drawn) at most in one frame of a zoom gesture.
QUICK_SCALES_PER_FRAME = 12

#: Smallest font size printed on a counter (pygame's font: about 9 pixels high).
MIN_FONT = 13


@functools.lru_cache(maxsize=8192)    # every frame asks again for every base's label
def fit_size(value: str, width: float, start: float, bold: bool = False, minimum: int = MIN_FONT) -> int:
    """The largest font size from ``start`` down to ``minimum`` at which ``value`` is
    at most ``width`` pixels wide (``minimum`` if none is)."""
    size = max(minimum, int(start))
    while size > minimum and fonts.font(size, bold).size(value)[0] > width:
        size -= 1
    return size


def _fits(lines: Sequence[str], size: int, width: float) -> bool:
    f = fonts.font(size, True)
    return all(f.size(line)[0] <= width for line in lines)


def _splits(values: Sequence[str]) -> list[tuple[str, str]]:
    """The ways to print ``values`` on two lines (a single value splits between its words)."""
    if len(values) == 1:
        words = values[0].split(" ")
        return [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    return [("-".join(values[:k]), "-".join(values[k:])) for k in range(1, len(values))]


def counter_values(values: Sequence[str], width: float, start: float, max_lines: int = 2,
                   minimum: int = MIN_FONT) -> tuple[list[str], int]:
    """The one place that decides how a counter prints its values in a ``width``-pixel wide
    area: the lines and the (bold) font size, never below ``minimum``.

    - All values on one line (``a-b-c``) at the largest size from ``start`` down that fits.
    - ``max_lines=2`` (a full face): or split over two lines (starting at 0.8 ``start``)
      when that gives a clearly bigger font, or when one line does not fit at all.
    - ``max_lines=1`` (a small face): when all values fit on no line even at ``minimum``,
      the longest leading run of them that does (``2-5`` of ``2-5-INF 2(3)``), else the first.

    Every line returned fits ``width`` at the size returned, unless even the shortest
    choice does not fit at ``minimum``.
    """
    values = [v for v in values if v]
    if not values:
        return [], 0
    one = "-".join(values)
    one_size = fit_size(one, width, start, True, minimum)
    one_fits = _fits([one], one_size, width)
    if max_lines >= 2:
        best: tuple[list[str], int] | None = None
        best_key: tuple[int, int, int] = (0, 0, 0)
        for a, b in _splits(values):
            size = min(fit_size(a, width, start * 0.8, True, minimum), fit_size(b, width, start * 0.8, True, minimum))
            f = fonts.font(size, True)
            wide = max(f.size(a)[0], f.size(b)[0])
            key = (int(wide <= width), size, -wide)         # fitting, bigger, then the narrower pair
            if best is None or key > best_key:
                best, best_key = ([a, b], size), key
        if best is None or (one_fits and best[1] <= one_size * 1.25) or (not best_key[0] and one_fits):
            return [one], one_size
        return best
    if one_fits:
        return [one], one_size
    parts = values if len(values) > 1 else values[0].split(" ")
    joiner = "-" if len(values) > 1 else " "
    for k in range(len(parts) - 1, 0, -1):
        line = joiner.join(parts[:k])
        size = fit_size(line, width, start, True, minimum)
        if _fits([line], size, width):
            return [line], size
    return [parts[0]], fit_size(parts[0], width, start, True, minimum)


def value_lines(values: Sequence[str], width: float, start: float) -> tuple[list[str], int]:
    """A full counter's values: ``a-b-c`` on one line, or two lines where that allows a
    bigger font (see :func:`counter_values`)."""
    return counter_values(values, width, start, 2)


def main_value(piece: PieceView, width: float, size: int) -> str:
    """What a small counter prints under its label (the values not repeating the label),
    as :func:`counter_values` decides with one line from ``size`` down."""
    label = piece.label or piece.name
    lines, _ = counter_values([v for v in piece.values if v and v != label], width, size, 1)
    return lines[0] if lines else ""


def _text(surf: pygame.Surface, value: str, centre: Point, size: int, colour: tuple[int, int, int],
          bold: bool = False) -> None:
    """Counter text with a one-pixel shadow (light text) or halo (dark text) for contrast."""
    halo = (20, 20, 20) if sum(colour) > 380 else (245, 245, 235)
    if size >= MIN_FONT:
        fonts.blit_centred(surf, value, (centre[0] + 1, centre[1] + 1), size, halo, bold)
    fonts.blit_centred(surf, value, centre, size, colour, bold)


def _counter_face(piece: PieceView, s: int) -> pygame.Surface:
    """The face: the label on top, the values under it (wrapped onto two lines when that
    reads better); a small counter shows the label and its main value only, a tiny one
    the label only. A counter with a type icon is laid out as the printed ones are
    (:func:`_icon_face`)."""
    surf = pygame.Surface((s, s), pygame.SRCALPHA)
    rect = surf.get_rect()
    radius = max(2, s // 10)
    pygame.draw.rect(surf, piece.colour, rect, border_radius=radius)
    pygame.draw.rect(surf, piece.accent or shade(piece.colour, 1.35), rect.inflate(-max(2, s // 12), -max(2, s // 12)),
                     max(1, s // 28), border_radius=radius)
    pygame.draw.rect(surf, shade(piece.colour, 0.45), rect, max(1, s // 24), border_radius=radius)
    if piece.icon and _icon_face(surf, piece, s):
        return surf
    label = piece.label or piece.name
    width = s * 0.9
    colour = piece.text_colour
    values = [v for v in piece.values if v and v != label]
    if s >= 44 and values:                          # full face
        lsize = fit_size(label, width, s * 0.28)
        lines, vsize = value_lines(values, width, s * 0.44)
        lh = fonts.font(lsize).get_height()
        vh = fonts.font(vsize, True).get_height()
        y = s * 0.06 + lh / 2                      # the label along the top: it shows on a stack
        _text(surf, label, (s / 2, y), lsize, colour)
        top = y + lh / 2
        y = top + (s - top - vh * len(lines)) / 2 + vh / 2
        for line in lines:
            _text(surf, line, (s / 2, y), vsize, colour, bold=True)
            y += vh
    elif s >= 24:                                   # small: label and main value
        lsize = fit_size(label, width, s * 0.4)
        mains, vsize = counter_values(values, width, s * 0.5, 1)
        if mains:
            main = mains[0]
            lh = fonts.font(lsize).get_height()
            _text(surf, label, (s / 2, s * 0.04 + lh / 2), lsize, colour)
            _text(surf, main, (s / 2, (s * 0.04 + lh + s) / 2), vsize, colour, bold=True)
        else:
            _text(surf, label, (s / 2, s / 2), fit_size(label, width, s * 0.5), colour)
    elif s >= 10:                                   # tiny: the label only
        size = fit_size(label, width, s * 0.7, minimum=9)
        text = label
        while len(text) > 1 and fonts.font(size).size(text)[0] > width:
            text = text[:-1]
        _text(surf, text, (s / 2, s / 2), size, colour)
    if piece.status and s >= 18:
        pygame.draw.circle(surf, (250, 220, 60), (s * 0.86, s * 0.14), max(3, s * 0.08))
        pygame.draw.circle(surf, (40, 40, 40), (s * 0.86, s * 0.14), max(3, s * 0.08), 1)
    return surf


def _icon_face(surf: pygame.Surface, piece: PieceView, s: int) -> bool:
    """A counter laid out as the printed ones: the troop type's icon in the middle, the values
    a player needs along the bottom, the type's label along the top when there is room. Fewer,
    bigger figures as it gets smaller: under 44 pixels no label and the first two values only
    (their longest leading run that fits on one line), the icon alone under 22. False
    where the icon's picture is missing (the caller draws the text face)."""
    if art.picture(piece.icon, (16, 16)) is None:
        return False
    label = piece.label or piece.name
    colour = piece.text_colour
    values = [v for v in piece.values if v and v != label]
    width = s * 0.9
    top = s * 0.05
    bottom = s * 0.97
    if s >= 44 and label:
        lsize = fit_size(label, width, s * 0.22)
        lh = fonts.font(lsize).get_height()
        _text(surf, label, (s / 2, top + lh / 2), lsize, colour)
        top += lh * 0.9
    if s >= 22 and values:
        # a small face prints the first two values (strength and movement on the printed
        # counters), bigger, rather than all of them at the smallest size
        lines, vsize = counter_values(values if s >= 44 else values[:2], width, s * (0.3 if s >= 44 else 0.5), 1)
        if lines:
            vh = fonts.font(vsize, True).get_height()
            _text(surf, lines[0], (s / 2, bottom - vh / 2), vsize, colour, bold=True)
            bottom -= vh * 0.92
    side = int(min(bottom - top, s * 0.8))
    picture = art.icon(piece.icon, side, colour) if side >= 6 else None
    if picture is None:
        return side < 6
    surf.blit(picture, picture.get_rect(center=(int(s / 2), int((top + bottom) / 2))))
    if piece.status and s >= 18:
        pygame.draw.circle(surf, (250, 220, 60), (s * 0.88, s * 0.12), max(3, s * 0.07))
        pygame.draw.circle(surf, (40, 40, 40), (s * 0.88, s * 0.12), max(3, s * 0.07), 1)
    return True


def caption_box(target: pygame.Surface, caption: str, midtop: Point, width: float, start: float,
                colour: tuple[int, int, int] = (250, 246, 232), taken: list[pygame.Rect] | None = None,
                above: float | None = None) -> pygame.Rect | None:
    """A piece's name on a dark plate, centred under ``midtop``, at the largest size from
    ``start`` down to 11 that fits ``width`` (cut short with a dot where even 11 does not).
    Where it would cover a plate in ``taken`` it goes with its bottom at ``above`` instead, and
    where that is taken too it is not drawn (None); a drawn plate is added to ``taken``."""
    size = fit_size(caption, width, start, True, minimum=11)
    text = caption
    f = fonts.font(size, True)
    while len(text) > 3 and f.size(text)[0] > width:
        text = text[:-2] + "."
    w, h = f.size(text)
    box = pygame.Rect(0, 0, w + 6, h)
    box.midtop = (int(midtop[0]), int(midtop[1]))
    if taken is not None and box.collidelist(taken) >= 0:
        if above is None:
            return None
        box.bottom = int(above)
        if box.collidelist(taken) >= 0:
            return None
    if taken is not None:
        taken.append(box)
    plate = pygame.Surface(box.size, pygame.SRCALPHA)
    plate.fill((18, 18, 20, 190))
    target.blit(plate, box)
    fonts.blit_centred(target, text, box.center, size, colour, True)
    return box


def marker_row(target: pygame.Surface, markers: Sequence[tuple[str, str]], start: Point, size: int,
               step: Point | None = None) -> None:
    """Status tokens in a row from ``start`` (the first token's centre), ``step`` apart (to the
    right, overlapping a little, by default)."""
    dx, dy = step if step is not None else (size * 0.8, 0.0)
    for k, (name, text) in enumerate(markers):
        tok = art.marker(name, size, text)
        target.blit(tok, tok.get_rect(center=(int(start[0] + dx * k), int(start[1] + dy * k))))


def _extent(board: Board, piece: PieceView, c: Point, scale: float) -> tuple[float, float]:
    """Half the width and half the height, in pixels, a piece covers about its centre (for its
    caption and markers)."""
    if piece.shape == "counter":
        half = max(6, int(COUNTER_SIDE * scale)) / 2
        return half, half
    if piece.shape == "base":
        r = max(3.0, piece.radius * scale)
        return r, r
    return max(piece.width, piece.depth) * scale / 2, max(piece.width, piece.depth) * scale / 2


def _draw_caption_and_markers(target: pygame.Surface, board: Board, piece: PieceView, c: Point,
                              scale: float, taken: list[pygame.Rect] | None) -> None:
    """The piece's name under it and its status tokens beside it (top right), sized to the
    piece so they shrink with it, and left out when too small to read (a counter under 18
    pixels, a base under 10 across: the info panel names it)."""
    hw, hh = _extent(board, piece, c, scale)
    if piece.caption and hh >= (9 if piece.shape == "counter" else 5):
        # a counter's neighbours are a hex away; a base's name stands for its whole unit
        width = max(hw * 3.2, 44) if piece.shape == "counter" else max(hw * 8, 120)
        caption_box(target, piece.caption, (c[0], c[1] + hh + 1), width, max(13, min(18, hh * 0.8)),
                    taken=taken, above=c[1] - hh - 1)
    if piece.markers and hh >= (8 if piece.shape == "counter" else 5):
        m = int(max(14, min(24, hh * 1.05)))
        marker_row(target, piece.markers, (c[0] + hw + m * 0.3, c[1] - hh + m * 0.35), m)


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
        _draw_ship(target, board, piece, c_world, to_screen, scale, sprites, selected, highlighted, ghost)
    if not ghost and piece.shape in ("counter", "base"):
        # a piece being dragged or turned keeps its name wherever it goes
        _draw_caption_and_markers(target, board, piece, c, scale,
                                  None if centre is not None or facing is not None else sprites.captions)


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
    if s >= 14 and piece.has_facing:
        # facing notch: a small triangle on the counter's edge towards its facing
        ux, uy = math.cos(ang), math.sin(ang)
        reach = s * 0.5 / max(abs(ux), abs(uy))
        tip = (c[0] + ux * (reach + s * 0.11), c[1] + uy * (reach + s * 0.11))
        px, py = -uy * s * 0.1, ux * s * 0.1
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
    if r >= 8 and piece.facing and piece.has_facing:
        tip = (c[0] + math.cos(ang) * r, c[1] + math.sin(ang) * r)
        pygame.draw.line(target, (250, 250, 250), c, tip, max(1, int(r / 8)))
    picture = art.icon(piece.icon, int(r * 1.45), piece.text_colour) if piece.icon and r >= 4 else None
    if picture is not None:
        target.blit(picture, picture.get_rect(center=(int(c[0]), int(c[1]))))
    elif r >= 7:
        label = piece.label or piece.name
        size = fit_size(label, r * 1.7, r * 1.1, True, minimum=11 if r < 10 else MIN_FONT)
        _text(target, label, c, size, piece.text_colour, bold=True)
    _ring(target, c, r, selected, highlighted)


def _draw_tray(target: pygame.Surface, piece: PieceView, centre: Point, to_screen: ToScreen, scale: float,
               selected: bool, highlighted: bool, ghost: bool) -> None:
    corners = [to_screen(p) for p in tray_outline(piece, centre)]
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
    fl, fr, br, bl = corners if not piece.outline else [to_screen(p) for p in tray_corners(piece, centre)]
    if piece.ranks and piece.files and not ghost:
        r = max(2.0, min(piece.width / piece.files, piece.depth / piece.ranks) * scale * 0.36)
        for i in range(piece.ranks):
            for j in range(piece.files):
                u = (j + 0.5) / piece.files
                v = (i + 0.5) / piece.ranks
                front = (fl[0] + (fr[0] - fl[0]) * u, fl[1] + (fr[1] - fl[1]) * u)
                back = (bl[0] + (br[0] - bl[0]) * u, bl[1] + (br[1] - bl[1]) * u)
                p = (front[0] + (back[0] - front[0]) * v, front[1] + (back[1] - front[1]) * v)
                mark = piece.slots[i * piece.files + j] if len(piece.slots) == piece.ranks * piece.files else "*"
                if not mark:        # an empty slot: its figure was removed
                    pygame.draw.circle(target, shade(piece.colour, 0.55), p, r, max(1, int(r / 5)))
                    continue
                pygame.draw.circle(target, piece.colour, p, r)
                pygame.draw.circle(target, piece.accent or shade(piece.colour, 1.4), p, r, max(1, int(r / 4)))
                if mark != "*" and r >= 5:
                    fonts.blit_centred(target, mark, p, max(MIN_FONT, int(r * 1.2)), (255, 255, 255), True)
    if piece.has_facing and not piece.outline:
        _tray_front(target, piece, fl, fr, scale)
    c = to_screen(centre)
    if piece.caption and not ghost:
        _tray_plate(target, piece, c, fl, fr, bl, scale)
    elif scale >= 8:
        fonts.blit_boxed(target, piece.label or piece.name, (c[0], c[1]), max(MIN_FONT + 1, min(26, int(scale * 0.6))),
                         anchor="center",
                         background=(20, 20, 20, 150))
    if piece.markers and not ghost:
        # along the tray's back edge, outside it, so they never hide its figures
        back = ((bl[0] + br[0]) / 2, (bl[1] + br[1]) / 2)
        along = (br[0] - bl[0], br[1] - bl[1])
        n = math.hypot(*along) or 1.0
        ux, uy = along[0] / n, along[1] / n
        out = (back[0] - (fl[0] + fr[0]) / 2, back[1] - (fl[1] + fr[1]) / 2)
        on = math.hypot(*out) or 1.0
        m = int(max(16, min(28, scale * 1.2)))
        step = m * 0.85
        first = (back[0] + out[0] / on * m * 0.55 - ux * step * (len(piece.markers) - 1) / 2,
                 back[1] + out[1] / on * m * 0.55 - uy * step * (len(piece.markers) - 1) / 2)
        marker_row(target, piece.markers, first, m, (ux * step, uy * step))
    if selected or highlighted:
        colour = HIGHLIGHT if highlighted else SELECTED
        pygame.draw.polygon(target, colour, corners, 3)


def _tray_plate(target: pygame.Surface, piece: PieceView, c: Point, fl: Point, fr: Point, bl: Point,
                scale: float) -> None:
    """The unit's name plate on the tray: its name (on two lines where that reads bigger) over
    its main value (``values[0]``, e.g. wounds left), in the livery's accent colour, fitted to the
    tray's width; the short label alone where even the smallest name does not fit."""
    width = math.hypot(fr[0] - fl[0], fr[1] - fl[1]) * 0.94
    depth = math.hypot(bl[0] - fl[0], bl[1] - fl[1])
    accent = piece.accent or (250, 246, 232)
    words = piece.caption.split()
    options = [[piece.caption]] + ([[" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))]
                                   if len(words) > 1 else [])
    start = max(11, min(22, depth * 0.36))
    best: tuple[list[str], int] | None = None
    for lines in options:
        size = min(fit_size(line, width, start, True, minimum=10) for line in lines)
        f = fonts.font(size, True)
        if all(f.size(line)[0] <= width for line in lines) and (best is None or size > best[1] + 1):
            best = (lines, size)
    value = piece.values[0] if piece.values else ""
    if best is None:
        lines, size = [piece.label or piece.caption[:4]], 11
    else:
        lines, size = best
    f = fonts.font(size, True)
    rows = lines + ([value] if value else [])
    lh = f.get_height()
    w = max(f.size(r)[0] for r in rows) + 8
    # the type icon beside the name where the tray is wide enough for both
    picture = art.icon(piece.icon, lh, accent) if piece.icon and w + lh + 2 <= width else None
    pad = lh + 2 if picture is not None else 0
    box = pygame.Rect(0, 0, w + pad, lh * len(rows) + 2)
    box.center = (int(c[0]), int(c[1]))
    plate = pygame.Surface(box.size, pygame.SRCALPHA)
    plate.fill((18, 18, 20, 185))
    target.blit(plate, box)
    pygame.draw.rect(target, accent, box, 1)
    if picture is not None:
        target.blit(picture, picture.get_rect(midleft=(box.left + 2, box.centery)))
    y = box.top + 1 + lh / 2
    for k, row in enumerate(rows):
        fonts.blit_centred(target, row, (box.centerx + pad / 2, y), size,
                           accent if k < len(lines) else (250, 246, 232), True)
        y += lh


def _tray_front(target: pygame.Surface, piece: PieceView, fl: Point, fr: Point, scale: float) -> None:
    """The front edge and a facing arrow."""
    pygame.draw.line(target, (250, 240, 200), fl, fr, max(2, int(scale * 0.18)))
    mid = ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
    a = math.radians(piece.facing)
    fx, fy = math.sin(a), -math.cos(a)
    s = max(4.0, scale * 0.5)
    tip = (mid[0] + fx * s, mid[1] + fy * s)
    pygame.draw.polygon(target, (250, 240, 200), [tip, (mid[0] - fy * s * 0.6, mid[1] + fx * s * 0.6),
                                                  (mid[0] + fy * s * 0.6, mid[1] - fx * s * 0.6)])


DECK = (176, 128, 78)          # planks
GUNWALE = (74, 48, 28)


@dataclass(frozen=True)
class ShipShape:
    """A ship's footprint in world units: its hex outlines, the outer edges of their
    union, the bow (the hex furthest along the facing) and the prow beyond it."""

    polygons: list[list[Point]]
    outline: list[tuple[Point, Point, Point]]    # (a, b, outward normal) of each outer edge
    inner: list[tuple[Point, Point]]             # edges between two footprint hexes
    forward: Point
    bow: Point                                   # centre of the bow hex
    prow: list[Point]                            # the pointed stem beyond the bow
    centre: Point


def ship_shape(board: Board, piece: PieceView, offset: Point = (0.0, 0.0)) -> ShipShape:
    """The footprint of a ship (``piece.hexes``; its ``at`` hex if it names none)."""
    hexes = list(piece.hexes) or [str(piece.at)]
    assert isinstance(board, HexBoard)
    ox, oy = offset
    polys = [[(float(x) + ox, float(y) + oy) for x, y in poly] for poly in board.grid.polygons(hexes, 1.0)]
    centres = [(sum(p[0] for p in poly) / 6, sum(p[1] for p in poly) / 6) for poly in polys]
    edges: dict[tuple[int, int], list[tuple[Point, Point, Point]]] = {}
    for poly, c in zip(polys, centres):
        for k in range(6):
            a, b = poly[k], poly[(k + 1) % 6]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            n = math.hypot(mx - c[0], my - c[1]) or 1.0
            edges.setdefault((round(mx * 100), round(my * 100)), []).append((a, b, ((mx - c[0]) / n, (my - c[1]) / n)))
    outline = [found[0] for found in edges.values() if len(found) == 1]
    inner = [(found[0][0], found[0][1]) for found in edges.values() if len(found) > 1]
    ang = board.facing_angle(piece.facing)
    ux, uy = math.cos(ang), math.sin(ang)
    cx, cy = sum(c[0] for c in centres) / len(centres), sum(c[1] for c in centres) / len(centres)
    proj = [(c[0] - cx) * ux + (c[1] - cy) * uy for c in centres]
    top = max(proj)
    bow = min((c for c, p in zip(centres, proj) if p >= top - 0.05),
              key=lambda c: abs((c[0] - cx) * -uy + (c[1] - cy) * ux))
    apothem = math.sqrt(3) / 2
    px, py = -uy, ux
    base = (bow[0] + ux * apothem * 0.97, bow[1] + uy * apothem * 0.97)
    prow = [(base[0] + px * 0.5, base[1] + py * 0.5), (base[0] + ux * 0.75, base[1] + uy * 0.75),
            (base[0] - px * 0.5, base[1] - py * 0.5)]
    return ShipShape(polys, outline, inner, (ux, uy), bow, prow, (cx, cy))


def _ship_board(board: HexBoard, piece: PieceView, scale: float) -> tuple[pygame.Surface, Point]:
    """The ship drawn at ``scale`` on its own surface: a planked deck over the union of its
    hexes, a dark gunwale round it, the side's shields along its flanks and a carved prow."""
    shape = ship_shape(board, piece)
    pts = [p for poly in shape.polygons for p in poly] + shape.prow
    x0, y0 = min(p[0] for p in pts) - 0.4, min(p[1] for p in pts) - 0.4
    x1, y1 = max(p[0] for p in pts) + 0.4, max(p[1] for p in pts) + 0.4
    size = (max(1, int((x1 - x0) * scale) + 2), max(1, int((y1 - y0) * scale) + 2))

    def px(p: Point) -> Point:
        return ((p[0] - x0) * scale, (p[1] - y0) * scale)

    # the deck: planks along the keel, cut to the footprint through a mask
    deck = pygame.Surface(size, pygame.SRCALPHA)
    deck.fill((*DECK, 255))
    ux, uy = shape.forward
    nx, ny = -uy, ux
    span = int((x1 - x0 + y1 - y0) / 0.26) + 4
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    reach = x1 - x0 + y1 - y0
    w = max(1, int(scale * 0.02))
    for i in range(-span // 2, span // 2 + 1):
        ox, oy = cx + nx * i * 0.26, cy + ny * i * 0.26
        a, b = px((ox - ux * reach, oy - uy * reach)), px((ox + ux * reach, oy + uy * reach))
        pygame.draw.line(deck, shade(DECK, 0.72), a, b, w)
        if scale >= 20:
            pygame.draw.line(deck, shade(DECK, 1.18), (a[0] + nx * w, a[1] + ny * w), (b[0] + nx * w, b[1] + ny * w), 1)
    mask = pygame.Surface(size, pygame.SRCALPHA)
    for poly in shape.polygons:
        pygame.draw.polygon(mask, (255, 255, 255, 255), [px(p) for p in poly])
        pygame.draw.polygon(mask, (255, 255, 255, 255), [px(p) for p in poly], 2)
    deck.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)

    out = pygame.Surface(size, pygame.SRCALPHA)
    # shadow, prow, deck
    sh = max(1.0, scale * 0.08)
    for poly in shape.polygons:
        pygame.draw.polygon(out, (15, 25, 40, 150), [(x + sh, y + sh * 1.4) for x, y in map(px, poly)])
    prow = [px(p) for p in shape.prow]
    pygame.draw.polygon(out, shade(DECK, 0.8), prow)
    out.blit(deck, (0, 0))
    gw = max(2, int(scale * 0.1))
    # hex lines on deck, so each crew place reads
    for a, b in shape.inner:
        pygame.draw.line(out, shade(DECK, 0.6), px(a), px(b), max(1, int(scale / 28)))
    # the gunwale (outline of the union) and the prow
    for a, b, _ in shape.outline:
        pygame.draw.line(out, GUNWALE, px(a), px(b), gw)
        pygame.draw.circle(out, GUNWALE, px(a), gw / 2)
        pygame.draw.circle(out, GUNWALE, px(b), gw / 2)
    pygame.draw.polygon(out, GUNWALE, prow, gw)
    head = px((shape.prow[1][0] - ux * 0.12, shape.prow[1][1] - uy * 0.12))
    hr = max(2.0, scale * 0.16)
    pygame.draw.circle(out, piece.colour, head, hr)
    pygame.draw.circle(out, shade(piece.colour, 1.5), head, hr, max(1, int(hr / 3)))
    pygame.draw.circle(out, GUNWALE, head, hr, 1)
    # shields along the flanks (not on the bow's or the stern's edges)
    sr = max(2.0, scale * 0.21)
    for a, b, (enx, eny) in shape.outline:
        if abs(enx * ux + eny * uy) > 0.6:
            continue
        p = px(((a[0] + b[0]) / 2 + enx * 0.04, (a[1] + b[1]) / 2 + eny * 0.04))
        pygame.draw.circle(out, GUNWALE, p, sr + 1)
        pygame.draw.circle(out, piece.colour, p, sr)
        if sr >= 5:
            pygame.draw.line(out, shade(piece.colour, 1.5), (p[0] - sr * 0.7, p[1]), (p[0] + sr * 0.7, p[1]), 1)
            pygame.draw.line(out, shade(piece.colour, 1.5), (p[0], p[1] - sr * 0.7), (p[0], p[1] + sr * 0.7), 1)
        pygame.draw.circle(out, (225, 215, 185), p, max(1.0, sr / 3))
    return out, (x0, y0)


def _draw_ship(target: pygame.Surface, board: Board, piece: PieceView, centre: Point, to_screen: ToScreen,
               scale: float, sprites: PieceSprites, selected: bool, highlighted: bool, ghost: bool) -> None:
    if not isinstance(board, HexBoard):
        return
    home = piece_centre(board, piece)
    off = (centre[0] - home[0], centre[1] - home[1])
    if ghost:
        shape = ship_shape(board, piece, off)
        pts = [to_screen(p) for poly in shape.polygons for p in poly]
        xs, ys = zip(*pts)
        box = pygame.Rect(int(min(xs)) - 2, int(min(ys)) - 2, int(max(xs) - min(xs)) + 5, int(max(ys) - min(ys)) + 5)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        for poly in shape.polygons:
            pygame.draw.polygon(layer, (*piece.colour, 110), [(x - box.x, y - box.y) for x, y in map(to_screen, poly)])
        target.blit(layer, box)
        for a, b, _ in shape.outline:
            pygame.draw.line(target, (250, 250, 120), to_screen(a), to_screen(b), 2)
        return
    image, (wx, wy) = sprites.ship(board, piece, scale)
    x, y = to_screen((wx + off[0], wy + off[1]))
    target.blit(image, (int(round(x)), int(round(y))))
    shape = sprites.shape(board, piece, off)
    if selected or highlighted:
        colour = HIGHLIGHT if highlighted else SELECTED
        for a, b, _ in shape.outline:
            pygame.draw.line(target, colour, to_screen(a), to_screen(b), 4)
        pygame.draw.lines(target, colour, False, [to_screen(p) for p in shape.prow], 4)
    if scale >= 8:
        bottom = max(p[1] for poly in shape.polygons for p in poly)
        sx, sy = to_screen((shape.centre[0], bottom))
        fonts.blit_boxed(target, piece.label or piece.name, (sx, sy + 3), max(13, min(22, int(scale * 0.45))),
                         anchor="midtop", background=(20, 20, 20, 170))


def hit_test(board: Board, piece: PieceView, world: Point) -> bool:
    """Is the world point on ``piece``?"""
    cx, cy = piece_centre(board, piece)
    x, y = world
    if piece.shape == "counter":
        half = COUNTER_SIDE / 2
        return abs(x - cx) <= half and abs(y - cy) <= half
    if piece.shape == "base":
        return math.hypot(x - cx, y - cy) <= max(piece.radius, 0.3)
    if piece.shape == "tray" and piece.outline:
        return bool(points_in_polygon([world], tray_outline(piece, (cx, cy)), eps=0.0)[0])
    if piece.shape == "tray":
        a = math.radians(piece.facing)
        fx, fy = math.sin(a), -math.cos(a)
        rx, ry = math.cos(a), math.sin(a)
        dx, dy = x - cx, y - cy
        return abs(dx * rx + dy * ry) <= piece.width / 2 and abs(dx * fx + dy * fy) <= piece.depth / 2
    if piece.shape == "ship" and isinstance(board, HexBoard):
        return board.place_at(world) in piece.hexes
    return False
