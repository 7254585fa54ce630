"""Draws the program's own art as SVG files: die faces and dice symbols.

Run ``python assets/make_art.py`` from the checkout to write them again after a change here;
the SVG files are what the program loads (``simulator/client/art.py``). Everything is drawn
from simple shapes for this project: nothing is copied or downloaded.

A die face is ``dice/<die>-<face>.svg`` where the face is a picture: ``d6-1`` .. ``d6-6`` (pips),
and a custom-faced die's symbols by its name, e.g. ``saga-vikings-C`` (the faction's common
symbol). A numbered die (d3, d8, d10, d12, d20) is its blank body, ``dice/<die>.svg``, and the
client writes the number on it (the SVG renderer pygame uses draws no text).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZE = 64

IVORY = "#f3eddc"
INK = "#1d1b18"


def svg(body: str, size: int = SIZE) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 {size} {size}">{body}</svg>\n')


def square(fill: str, stroke: str = INK) -> str:
    return f'<rect x="3" y="3" width="58" height="58" rx="11" fill="{fill}" stroke="{stroke}" stroke-width="3"/>'


#: Pip positions of a d6, on a 64-unit face.
PIPS = {1: [(32, 32)], 2: [(20, 20), (44, 44)], 3: [(18, 18), (32, 32), (46, 46)],
        4: [(20, 20), (44, 20), (20, 44), (44, 44)],
        5: [(19, 19), (45, 19), (32, 32), (19, 45), (45, 45)],
        6: [(20, 17), (44, 17), (20, 32), (44, 32), (20, 47), (44, 47)]}


def d6(face: int) -> str:
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="5.5" fill="{INK}"/>' for x, y in PIPS[face])
    return svg(square(IVORY) + pips)


def body(points: str, fill: str) -> str:
    return svg(f'<polygon points="{points}" fill="{fill}" stroke="{INK}" stroke-width="3"/>')


KITE = "32,3 61,28 32,61 3,28"
TRIANGLE = "32,3 62,59 2,59"
PENTAGON = "32,3 61,24 50,60 14,60 3,24"

# -- dice symbols: white shapes on the faction's colour ----------------------------------------
W = "#fbf8f0"


def valknut() -> str:
    """Three interlocked triangles, each set off the centre towards one side."""
    import math

    out = []
    for k in range(3):
        a = math.radians(-90 + 120 * k)
        cx, cy = 32 + 8 * math.cos(a), 33 + 8 * math.sin(a)
        pts = " ".join(f"{cx + 15 * math.cos(math.radians(-90 + 120 * j)):.1f},"
                       f"{cy + 15 * math.sin(math.radians(-90 + 120 * j)):.1f}" for j in range(3))
        out.append(f'<polygon points="{pts}" fill="none" stroke="{W}" stroke-width="3.5"/>')
    return "".join(out)


def raven() -> str:
    """A raven in flight: spread wings, head and beak to the right, fan tail to the left."""
    wings = "M8 22 C18 26 26 30 32 34 C38 26 46 18 56 14 C52 24 44 34 36 40 L26 40 C20 34 14 28 8 22 Z"
    head = "M36 34 C40 32 44 32 46 34 L54 35 L46 38 C42 40 38 40 36 38 Z"
    tail = "M26 38 L12 46 L16 48 L12 52 L28 44 Z"
    return "".join(f'<path d="{d}" fill="{W}"/>' for d in (wings, head, tail))


def hammer() -> str:
    return (f'<path d="M14 14 H50 V26 C44 28 38 29 36 30 V50 L40 54 H24 L28 50 V30 '
            f'C26 29 20 28 14 26 Z" fill="{W}"/>')


def axe() -> str:
    """A Dane axe: long haft, broad bearded blade."""
    return (f'<rect x="30" y="8" width="5" height="50" rx="2" fill="{W}" transform="rotate(-25 32 32)"/>'
            f'<path d="M33 10 C46 6 56 16 54 34 C48 30 44 28 40 30 L36 22 Z" fill="{W}"/>')


def horse() -> str:
    head = ("M18 54 C18 40 22 30 30 22 L28 12 L36 19 L40 13 L42 22 C50 28 54 36 54 42 "
            "C54 46 50 48 46 46 C42 42 38 40 34 40 C32 46 30 50 30 54 Z")
    return f'<path d="{head}" fill="{W}"/>'


def helmet() -> str:
    return (f'<path d="M14 40 C14 22 22 12 32 12 C42 12 50 22 50 40 L50 46 L14 46 Z" fill="{W}"/>'
            f'<rect x="29" y="30" width="6" height="24" fill="{W}"/>'
            f'<rect x="12" y="40" width="40" height="6" fill="{W}"/>')


def lance() -> str:
    return (f'<rect x="30" y="6" width="4" height="52" fill="{W}" transform="rotate(35 32 32)"/>'
            f'<path d="M40 10 L54 14 L44 20 Z" fill="{W}"/>')


def cross() -> str:
    return f'<path d="M28 8 H36 V22 H50 V30 H36 V56 H28 V30 H14 V22 H28 Z" fill="{W}"/>'


def crown() -> str:
    return (f'<path d="M10 46 L14 20 L24 32 L32 14 L40 32 L50 20 L54 46 Z" fill="{W}"/>'
            f'<rect x="10" y="48" width="44" height="6" fill="{W}"/>')


def dragon() -> str:
    return (f'<path d="M12 50 C22 52 30 44 26 36 C22 28 30 18 42 20 L48 12 L50 22 C54 24 56 28 52 30 '
            f'L44 28 C36 28 34 34 38 40 C42 48 34 58 20 56 Z" fill="{W}"/>')


def harp() -> str:
    strings = "".join(f'<line x1="{x}" y1="{20 + (x - 22) * 0.6:.1f}" x2="{x}" y2="50" stroke="{W}" '
                      f'stroke-width="1.6"/>' for x in range(24, 46, 5))
    frame = (f'<path d="M18 54 L18 14 C30 14 42 18 50 28 L50 34 C40 26 30 22 22 22 L22 54 Z" fill="{W}"/>'
             f'<rect x="18" y="50" width="32" height="5" fill="{W}"/>')
    return frame + strings


def spear() -> str:
    return (f'<rect x="30" y="22" width="4" height="36" fill="{W}"/>'
            f'<path d="M32 4 C40 14 40 22 32 26 C24 22 24 14 32 4 Z" fill="{W}"/>')


#: Each faction's die: its colour, and its common / uncommon / rare symbols (the names in
#: the faction's data file; the pictures are ours, the rulebook's images being lost).
SAGA_DICE = {
    "vikings": ("#27466e", {"C": valknut, "U": raven, "R": hammer}),
    "anglo_danes": ("#7a2424", {"C": axe, "U": horse, "R": helmet}),
    "normans": ("#1f5a3a", {"C": lance, "U": cross, "R": crown}),
    "welsh": ("#5b3a78", {"C": dragon, "U": harp, "R": spear}),
}


def write_all() -> list[Path]:
    out: dict[str, str] = {}
    for f in range(1, 7):
        out[f"dice/d6-{f}.svg"] = d6(f)
    out["dice/d3.svg"] = svg(square(IVORY))
    out["dice/d10.svg"] = body(KITE, "#dfe8f1")
    out["dice/d8.svg"] = body(TRIANGLE, "#e8e0f0")
    out["dice/d12.svg"] = body(PENTAGON, "#e6f0e0")
    out["dice/d20.svg"] = body(TRIANGLE, "#f0e6d8")
    for faction, (colour, symbols) in SAGA_DICE.items():
        for face, draw in symbols.items():
            out[f"dice/saga-{faction}-{face}.svg"] = svg(square(colour, "#111") + draw())
    written = []
    for name, text in out.items():
        path = HERE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    print(f"wrote {len(write_all())} files under {HERE}")
