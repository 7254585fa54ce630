"""Draws the program's own art as SVG files: die faces and dice symbols, unit type icons and
status markers.

Run ``python assets/make_art.py`` from the checkout to write them again after a change here;
the SVG files are what the program loads (``simulator/client/art.py``). Everything is drawn
from simple shapes for this project: nothing is copied or downloaded.

A die face is ``dice/<die>-<face>.svg`` where the face is a picture: ``d6-1`` .. ``d6-6`` (pips),
and a custom-faced die's symbols by its name, e.g. ``saga-vikings-C`` (the faction's common
symbol). A numbered die (d3, d8, d10, d12, d20) is its blank body, ``dice/<die>.svg``, and the
client writes the number on it (the SVG renderer pygame uses draws no text).

A unit type icon is ``icons/<type>.svg``: a white silhouette on a clear ground, which the client
tints with the piece's text colour and draws on the counter, base or tray (as the printed
counters carry a figure or a symbol of the troop type). The names are what is drawn (``spear``,
``bow``, ``horse``), so every game's types share them (a game's presentation picks one).

A marker is ``markers/<kind>.svg``: a round token in its own colours (fatigue, wound, stun,
panic, a condition, a VP token, activated, treasure); the client writes any count on it.
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


# -- unit type icons: white silhouettes, tinted by the client --------------------------------------


def _paths(*ds: str) -> str:
    return "".join(f'<path d="{d}" fill="{W}"/>' for d in ds)


def icon_sword() -> str:
    """A sword point up over a round shield: foot soldiers."""
    shield = f'<circle cx="24" cy="38" r="16" fill="{W}"/><circle cx="24" cy="38" r="4" fill="none" stroke="#000" stroke-opacity="0.35" stroke-width="2"/>'
    blade = _paths("M44 4 L49 12 L49 44 L39 44 L39 12 Z", "M32 44 H56 V49 H32 Z", "M41 49 H47 V60 H41 Z")
    return shield + blade


def icon_spear() -> str:
    """A spear and a small shield: militia, levies, peasants."""
    return (_paths("M30 18 H34 V62 H30 Z", "M32 2 C39 10 39 17 32 21 C25 17 25 10 32 2 Z")
            + f'<rect x="10" y="30" width="16" height="22" rx="3" fill="{W}"/>')


def icon_bow() -> str:
    """A drawn bow with its arrow: archers, bowmen."""
    return (f'<path d="M20 4 C46 14 46 50 20 60" fill="none" stroke="{W}" stroke-width="5"/>'
            f'<line x1="20" y1="4" x2="20" y2="60" stroke="{W}" stroke-width="2"/>'
            + _paths("M8 30 H50 V34 H8 Z", "M50 25 L60 32 L50 39 Z", "M6 27 L14 32 L6 37 Z"))


def icon_siege() -> str:
    """A throwing engine: a wheeled frame and its arm (ballista, catapult)."""
    return (_paths("M8 44 H56 V50 H8 Z", "M22 44 L32 24 L42 44 Z", "M14 14 L50 38 L47 42 L11 18 Z")
            + f'<circle cx="12" cy="14" r="7" fill="{W}"/><circle cx="16" cy="54" r="6" fill="{W}"/>'
              f'<circle cx="48" cy="54" r="6" fill="{W}"/>')


def icon_crown() -> str:
    """A crown: a leader (hero, warlord, jarl, earl, commander)."""
    return crown()


def icon_helmet() -> str:
    """A nasal helmet: armoured picked men (hearthguard, hirdmen, thanes, huscarls)."""
    return helmet()


def icon_axe() -> str:
    """A two-handed axe: berserkers, axemen, orcs."""
    return axe()


def icon_horse() -> str:
    return horse()


def icon_wizard() -> str:
    """A pointed hat with a star: wizards and shamans."""
    return (_paths("M32 4 L50 50 H14 Z", "M6 50 H58 V57 H6 Z")
            + '<path d="M32 22 L35 30 L43 30 L37 35 L39 43 L32 38 L25 43 L27 35 L21 30 L29 30 Z" '
              'fill="#000" fill-opacity="0.4"/>')


def icon_woman() -> str:
    """A figure in a long dress: a woman (no fighting value to speak of)."""
    return (f'<circle cx="32" cy="13" r="8" fill="{W}"/>'
            + _paths("M26 22 H38 L50 58 H14 Z"))


def icon_elder() -> str:
    """A bent figure with a staff: an old man."""
    return (f'<circle cx="28" cy="13" r="8" fill="{W}"/>'
            + _paths("M22 22 H34 L40 58 H18 Z", "M44 10 H48 V60 H44 Z"))


def icon_monster() -> str:
    """Three claw marks: a monster."""
    return _paths("M12 6 C22 20 22 40 14 58 L20 58 C30 40 28 20 18 6 Z",
                  "M28 4 C38 20 38 40 30 60 L36 60 C46 40 44 20 34 4 Z",
                  "M44 6 C54 20 54 40 46 58 L52 58 C62 40 60 20 50 6 Z")


def icon_dragon() -> str:
    """A dragon seen from above: spread bat wings, horned head, long tail (the dice's dragon
    symbol reads as a squiggle at counter size)."""
    return _paths("M29 28 L4 6 L9 19 L2 22 L10 29 L4 36 L26 38 Z",
                  "M35 28 L60 6 L55 19 L62 22 L54 29 L60 36 L38 38 Z",
                  "M32 12 C38 18 39 30 38 42 C37 50 35 54 32 56 C29 54 27 50 26 42 C25 30 26 18 32 12 Z",
                  "M27 14 L24 6 L30 11 Z", "M37 14 L40 6 L34 11 Z",
                  "M30 52 C28 58 34 62 42 60 L40 57 C35 58 33 56 34 52 Z")


def icon_bird() -> str:
    """A great bird: the roc (the raven's shape)."""
    return raven()


def icon_serpent() -> str:
    """A serpent in coils: sea serpent, wurm."""
    return (f'<path d="M6 46 C14 30 24 30 28 42 C32 54 42 54 46 40 C50 26 42 14 50 10" fill="none" '
            f'stroke="{W}" stroke-width="8" stroke-linecap="round"/>'
            + _paths("M46 4 L62 8 L54 18 L44 14 Z"))


def icon_giant() -> str:
    """A club: giants and trolls."""
    return _paths("M14 56 L20 60 L40 26 L34 22 Z", "M30 24 C30 10 40 2 50 6 C60 10 58 24 46 30 Z")


def icon_flame() -> str:
    """A flame: an elemental."""
    return _paths("M32 4 C40 18 52 24 50 40 C48 54 40 60 32 60 C22 60 14 52 14 42 C14 32 22 28 24 18 "
                  "C30 26 30 32 34 34 C38 26 36 14 32 4 Z")


def icon_wolf() -> str:
    """A wolf's head: wolf riders, direwolves."""
    return _paths("M10 8 L24 20 H40 L54 8 L52 30 C52 44 42 56 32 60 C22 56 12 44 12 30 Z")


def icon_dagger() -> str:
    """A short blade: goblins, skirmishers."""
    return _paths("M30 4 L36 12 V40 H28 V12 Z", "M20 40 H44 V45 H20 Z", "M29 45 H35 V58 H29 Z")


def icon_banner() -> str:
    """A banner on its pole: a unit's standard, the baggage's guard."""
    return _paths("M14 4 H19 V62 H14 Z", "M19 6 H52 L44 18 L52 30 H19 Z")


def icon_cart() -> str:
    """A laden cart: baggage."""
    return (_paths("M6 22 H58 V42 H6 Z", "M10 12 H54 V20 H10 Z")
            + f'<circle cx="18" cy="48" r="9" fill="{W}"/><circle cx="46" cy="48" r="9" fill="{W}"/>')


def icon_beast() -> str:
    """A goat's horned head: goats and pigs (livestock)."""
    return _paths("M22 20 C14 14 10 6 16 2 C20 10 24 14 28 18 Z", "M42 20 C50 14 54 6 48 2 C44 10 40 14 36 18 Z",
                  "M22 18 H42 L46 34 L38 58 H26 L18 34 Z")


def icon_chest() -> str:
    """A strongbox: treasure."""
    return (_paths("M8 28 H56 V56 H8 Z", "M8 26 C8 12 56 12 56 26 Z")
            + '<rect x="28" y="30" width="8" height="10" fill="#000" fill-opacity="0.45"/>')


def icon_shieldwall() -> str:
    """Three overlapping shields: a unit that forms a shield wall."""
    return "".join(f'<circle cx="{x}" cy="34" r="13" fill="{W}" stroke="#000" stroke-opacity="0.35" '
                   f'stroke-width="2"/>' for x in (16, 32, 48))


ICONS = {
    "sword": icon_sword, "spear": icon_spear, "bow": icon_bow, "siege": icon_siege, "crown": icon_crown,
    "helmet": icon_helmet, "axe": icon_axe, "horse": icon_horse, "wizard": icon_wizard, "woman": icon_woman,
    "elder": icon_elder, "monster": icon_monster, "dragon": icon_dragon, "bird": icon_bird,
    "serpent": icon_serpent, "giant": icon_giant, "flame": icon_flame, "wolf": icon_wolf, "dagger": icon_dagger,
    "banner": icon_banner, "cart": icon_cart, "beast": icon_beast, "chest": icon_chest,
    "shieldwall": icon_shieldwall,
}


# -- markers: round tokens in their own colours --------------------------------------------------


def token(fill: str, symbol: str, ring: str = INK) -> str:
    return svg(f'<circle cx="32" cy="32" r="29" fill="{fill}" stroke="{ring}" stroke-width="4"/>{symbol}')


def drop(fill: str) -> str:
    return f'<path d="M32 10 C40 24 46 30 46 40 C46 49 40 54 32 54 C24 54 18 49 18 40 C18 30 24 24 32 10 Z" fill="{fill}"/>'


def star(fill: str, r1: float = 22, r2: float = 9, n: int = 8) -> str:
    import math

    pts = " ".join(f"{32 + (r1 if k % 2 == 0 else r2) * math.cos(math.pi * k / n - math.pi / 2):.1f},"
                   f"{32 + (r1 if k % 2 == 0 else r2) * math.sin(math.pi * k / n - math.pi / 2):.1f}"
                   for k in range(2 * n))
    return f'<polygon points="{pts}" fill="{fill}"/>'


MARKERS = {
    # fatigue: a sweat drop on a dull brown token (SAGA's fatigue, Vikings' exhaustion)
    "fatigue": lambda: token("#6b4a2b", drop("#d9c7a0"), "#2a1a0c"),
    # wound: a blood drop on white
    "wound": lambda: token("#f1ece0", drop("#b01818"), "#5a0c0c"),
    # stun: a yellow burst on black
    "stun": lambda: token("#26241f", star("#f2c21a"), "#f2c21a"),
    # panic: a white lightning bolt on purple
    "panic": lambda: token("#5b2a7a", '<path d="M36 6 L18 36 H30 L24 58 L46 26 H34 Z" fill="#f4ecff"/>', "#2a0c3a"),
    # weakened: a broken sword on grey-green
    "weakened": lambda: token("#4f6a52", '<path d="M28 8 H36 V30 L30 34 L28 30 Z" fill="#eef2e6"/>'
                                         '<path d="M28 38 L36 34 V44 H28 Z" fill="#eef2e6"/>'
                                         '<rect x="20" y="44" width="24" height="5" fill="#eef2e6"/>'
                                         '<rect x="29" y="49" width="6" height="8" fill="#eef2e6"/>', "#1e2b20"),
    # vulnerable: a cracked shield on orange
    "vulnerable": lambda: token("#c0601c", '<path d="M16 12 H48 V32 C48 44 40 52 32 56 C24 52 16 44 16 32 Z" '
                                           'fill="#fff1e0"/><path d="M34 12 L28 26 L36 32 L28 46" fill="none" '
                                           'stroke="#c0601c" stroke-width="4"/>', "#4a2008"),
    # any other condition: a white ring on teal
    "condition": lambda: token("#1f6f78", '<circle cx="32" cy="32" r="12" fill="none" stroke="#e6fbff" '
                                          'stroke-width="6"/>', "#0a2a2e"),
    # a victory point token: a gold star on dark red
    "vp": lambda: token("#8a1c1c", star("#f3c640", 22, 10, 5), "#f3c640"),
    # activated: a check mark on grey (the unit has had its turn)
    "activated": lambda: token("#5a5f66", '<path d="M14 34 L26 46 L50 18" fill="none" stroke="#f2f2f2" '
                                          'stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>', "#202326"),
    # an objective or treasure carried: a gold chest on brown
    "objective": lambda: token("#4a3416", '<path d="M14 30 H50 V50 H14 Z M14 28 C14 16 50 16 50 28 Z" '
                                          'fill="#e9c350"/>', "#e9c350"),
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
    for name, draw in ICONS.items():
        out[f"icons/{name}.svg"] = svg(draw())
    for name, draw in MARKERS.items():
        out[f"markers/{name}.svg"] = draw()
    written = []
    for name, text in out.items():
        path = HERE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    print(f"wrote {len(write_all())} files under {HERE}")
