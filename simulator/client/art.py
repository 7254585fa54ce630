"""The program's own art, from the checkout's ``assets/`` folder: the one place pictures are loaded.

Pictures are SVG (or PNG) files drawn for this project (``assets/make_art.py`` writes the SVG
ones). Each is rasterised at the size asked for and kept. A missing or damaged file is reported
once, as one line naming it (on standard error, and in :func:`problems` for the status line),
and the caller draws a plain stand-in: the game goes on.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pygame

from simulator.client import fonts

ASSETS = Path(__file__).resolve().parents[2] / "assets"

_PICTURES: dict[tuple[str, int, int], pygame.Surface | None] = {}
_REPORTED: list[str] = []
_LIMIT = 2000


def problems() -> list[str]:
    """The one-line reports of missing or damaged art so far."""
    return list(_REPORTED)


def _report(line: str) -> None:
    if line not in _REPORTED:
        _REPORTED.append(line)
        print(line, file=sys.stderr)


def exists(name: str) -> bool:
    return (ASSETS / name).is_file()


def picture(name: str, size: tuple[int, int], *, required: bool = True) -> pygame.Surface | None:
    """``assets/<name>`` drawn at ``size`` pixels, or None where it is missing or damaged
    (reported once when ``required``)."""
    w, h = max(1, int(size[0])), max(1, int(size[1]))
    key = (name, w, h)
    if key in _PICTURES:
        return _PICTURES[key]
    path = ASSETS / name
    surf: pygame.Surface | None = None
    if not path.is_file():
        if required:
            _report(f"{path}: art file missing; drawn as plain shapes instead")
    else:
        try:
            if path.suffix.lower() == ".svg":
                surf = pygame.image.load_sized_svg(str(path), (w, h))
            else:
                surf = pygame.transform.smoothscale(pygame.image.load(str(path)), (w, h))
            if pygame.display.get_init() and pygame.display.get_surface() is not None:
                surf = surf.convert_alpha()
        except (pygame.error, OSError, ValueError) as exc:
            _report(f"{path}: damaged art file ({exc}); drawn as plain shapes instead")
            surf = None
    if len(_PICTURES) > _LIMIT:
        _PICTURES.clear()
    _PICTURES[key] = surf
    return surf


def die_face(die: str, face: object, size: int) -> pygame.Surface:
    """One face of a die, ``size`` pixels square: its picture (``dice/<die>-<face>.svg``: pips,
    a faction's symbol), else the die's blank body (``dice/<die>.svg``) with the number written
    on it, else a plain square with the face written on it (and the missing body reported)."""
    size = max(8, int(size))
    key = f"{die}-{face}"
    found = picture(f"dice/{key}.svg", (size, size), required=False) if exists(f"dice/{key}.svg") else None
    if found is not None:
        return found
    body = picture(f"dice/{die}.svg", (size, size), required=True)
    out = pygame.Surface((size, size), pygame.SRCALPHA)
    if body is not None:
        out.blit(body, (0, 0))
    else:
        pygame.draw.rect(out, (243, 237, 220), out.get_rect().inflate(-2, -2), border_radius=size // 6)
        pygame.draw.rect(out, (29, 27, 24), out.get_rect().inflate(-2, -2), 2, border_radius=size // 6)
    label = str(face)
    text_size = int(size * (0.5 if len(label) < 2 else 0.42))
    # a kite or triangle body has its widest part below the middle
    fonts.blit_centred(out, label, (size / 2, size * 0.55), text_size, (29, 27, 24), bold=True)
    return out


_TINTED: dict[tuple[str, int, tuple[int, int, int]], pygame.Surface | None] = {}
_MARKERS: dict[tuple[str, int, str], pygame.Surface] = {}


def icon(name: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface | None:
    """A unit type icon (``assets/<name>``, a white silhouette) ``size`` pixels square, tinted
    ``colour``; None where the file is missing or damaged (reported once: the caller draws the
    piece without it)."""
    size = max(4, int(size))
    key = (name, size, tuple(colour))
    if key in _TINTED:
        return _TINTED[key]
    base = picture(name, (size, size))
    out = None
    if base is not None:
        out = base.copy()
        out.fill((*colour, 255), special_flags=pygame.BLEND_RGBA_MULT)
    if len(_TINTED) > _LIMIT:
        _TINTED.clear()
    _TINTED[key] = out
    return out


def marker(name: str, size: int, text: str = "") -> pygame.Surface:
    """A status token (``assets/<name>``) ``size`` pixels square with ``text`` (a count) written
    in its lower right; a plain grey disc with the text where the picture is missing."""
    size = max(6, int(size))
    key = (name, size, text)
    if key in _MARKERS:         # asked for every frame, for every token on the board
        return _MARKERS[key]
    out = pygame.Surface((size, size), pygame.SRCALPHA)
    found = picture(name, (size, size))
    if found is not None:
        out.blit(found, (0, 0))
    else:
        pygame.draw.circle(out, (120, 120, 120), (size / 2, size / 2), size / 2 - 1)
        pygame.draw.circle(out, (20, 20, 20), (size / 2, size / 2), size / 2 - 1, 2)
    if text:
        tsize = max(10, int(size * 0.55))
        f = fonts.font(tsize, True)
        w, h = f.size(text)
        badge = pygame.Rect(0, 0, max(w + 4, h), h)
        badge.bottomright = (size, size + 1)
        pygame.draw.rect(out, (250, 248, 240), badge, border_radius=h // 2)
        pygame.draw.rect(out, (20, 20, 20), badge, 1, border_radius=h // 2)
        fonts.blit_centred(out, text, badge.center, tsize, (20, 20, 20), bold=True)
    if len(_MARKERS) > _LIMIT:
        _MARKERS.clear()
    _MARKERS[key] = out
    return out


def names(folder: str) -> list[str]:
    """The pictures in ``assets/<folder>`` (e.g. ``icons/sword.svg``), for the tests and the
    presentations that check a name exists."""
    return sorted(f"{folder}/{p.name}" for p in (ASSETS / folder).glob("*.svg"))
