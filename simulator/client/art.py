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
