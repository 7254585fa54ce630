"""Text drawing with pygame's built-in font, with a cache of rendered strings.

Rendering text is the most expensive part of drawing a counter, so each
(text, size, colour) is rendered once and reused.

Text may come from a scenario or a save someone else wrote: a character the font has no glyph
for (emoji, most scripts other than Latin, Greek and Cyrillic) is drawn as the font's empty box;
a character no font draws (a control character such as NUL, which SDL_ttf refuses outright, or
half of a surrogate pair, which cannot be encoded) is replaced by the box first
(:func:`printable`). Right-to-left text is drawn in the order it is stored.
"""

from __future__ import annotations

import re

import pygame

RGB = tuple[int, int, int]

_FONTS: dict[tuple[int, bool], pygame.font.Font] = {}
_TEXT: dict[tuple[str, int, RGB, bool], pygame.Surface] = {}
_TEXT_LIMIT = 4000


#: Control characters and lone surrogates: SDL_ttf cannot take them (a NUL ends its string).
_UNDRAWABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: What stands for such a character: the font has no glyph for it either, so it draws its box.
FALLBACK = "\ufffd"


def printable(value: object) -> str:
    """``value`` as text every font call accepts (tabs become spaces; see the module's notes)."""
    out = str(value).replace("\t", " ")
    return _UNDRAWABLE.sub(FALLBACK, out) if _UNDRAWABLE.search(out) else out


def reset() -> None:
    """Forget every font and text (pygame was restarted: old font objects are dead)."""
    _FONTS.clear()
    _TEXT.clear()


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's default font at ``size`` pixels (nothing to download)."""
    size = max(6, int(size))
    key = (size, bold)
    if key not in _FONTS:
        if not pygame.font.get_init():
            pygame.font.init()
        f = pygame.font.Font(None, size)
        f.set_bold(bold)
        _FONTS[key] = f
    return _FONTS[key]


def text(value: str, size: int, colour: RGB = (20, 20, 20), bold: bool = False) -> pygame.Surface:
    """A rendered, cached text surface (anti-aliased, transparent background)."""
    key = (value, max(6, int(size)), tuple(colour), bold)  # type: ignore[arg-type]
    surf = _TEXT.get(key)
    if surf is None:
        if len(_TEXT) > _TEXT_LIMIT:
            _TEXT.clear()
        surf = font(key[1], bold).render(printable(value), True, colour)
        _TEXT[key] = surf
    return surf


def blit_centred(target: pygame.Surface, value: str, centre: tuple[float, float], size: int,
                 colour: RGB = (20, 20, 20), bold: bool = False) -> pygame.Rect:
    surf = text(value, size, colour, bold)
    rect = surf.get_rect(center=(int(centre[0]), int(centre[1])))
    target.blit(surf, rect)
    return rect


def blit_boxed(target: pygame.Surface, value: str, pos: tuple[float, float], size: int = 20,
               colour: RGB = (245, 245, 240), background: tuple[int, int, int, int] = (25, 25, 30, 215),
               anchor: str = "topleft") -> pygame.Rect:
    """Text on a dark rounded box, kept inside ``target`` (tooltips, tool read-outs)."""
    surf = text(value, size, colour)
    rect = surf.get_rect()
    box = rect.inflate(14, 8)
    setattr(box, anchor, (int(pos[0]), int(pos[1])))
    box.clamp_ip(target.get_rect())
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(panel, background, panel.get_rect(), border_radius=5)
    target.blit(panel, box)
    target.blit(surf, surf.get_rect(center=box.center))
    return box


_WRAPPED: dict[tuple[str, int, int], list[str]] = {}


def wrap(value: str, size: int, width: int) -> list[str]:
    """Split ``value`` into lines no wider than ``width`` pixels (remembered: panels wrap the
    same text at every frame, and measuring it word by word costs milliseconds)."""
    key = (str(value), size, width)
    found = _WRAPPED.get(key)
    if found is None:
        if len(_WRAPPED) > _TEXT_LIMIT:
            _WRAPPED.clear()
        found = _WRAPPED[key] = _wrap(key[0], size, width)
    return list(found)


def _wrap(value: str, size: int, width: int) -> list[str]:
    f = font(size)
    lines: list[str] = []
    for para in (printable(p) for p in str(value).split("\n")):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines
