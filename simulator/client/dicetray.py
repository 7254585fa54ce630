"""The dice tray: the latest rolls drawn as dice faces, grouped by roll, each with what it was
for and the rule that used it.

A *roll* is a run of dice events of one die and one purpose in the log (a SAGA player's six dice,
an attack's three d6). Its rule is the rule of the event that follows it, the outcome that used
the dice (dice events carry no rule of their own). Lots drawn by the core's ``Dice.choice`` and
``Dice.shuffle`` (a deck shuffled, a card drawn at random) are not dice: they are shown as one
line of text, a shuffle as one line for the whole deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pygame

from simulator.client import art, fonts
from simulator.core.dice import is_lot
from simulator.core.events import Event

FACE = 26
GAP = 4
TEXT = 21
SMALL = 17
INK = (236, 234, 226)
DIM = (160, 165, 175)
FORCED = (240, 200, 110)
RULE_LINE = (70, 74, 84)


@dataclass(frozen=True)
class Roll:
    """Dice rolled together: one die type, one purpose."""

    die: str
    faces: tuple[object, ...]
    purpose: str
    rule: str
    forced: bool
    #: Drawn by lot (a choice or a shuffle), not dice.
    lot: bool
    #: The index in the log of its first die.
    index: int


def rolls(log: Sequence[Event]) -> list[Roll]:
    """The log's dice, grouped into rolls, oldest first.

    >>> from simulator.core.events import Event
    >>> log = [Event("dice", "", "", {"die": "d6", "result": 5, "purpose": "attack"}),
    ...        Event("dice", "", "", {"die": "d6", "result": 2, "purpose": "attack"}),
    ...        Event("combat", "two hits", "DR 2.4"),
    ...        Event("dice", "", "", {"die": "pick3", "result": 2, "purpose": "shuffle the deck"}),
    ...        Event("dice", "", "", {"die": "pick2", "result": 1, "purpose": "shuffle the deck"})]
    >>> [(r.die, r.faces, r.rule, r.lot) for r in rolls(log)]
    [('d6', (5, 2), 'DR 2.4', False), ('pick3', (2, 1), '', True)]
    """
    out: list[Roll] = []
    current: dict[str, object] | None = None

    def close(rule: str) -> None:
        nonlocal current
        if current is not None:
            out.append(Roll(str(current["die"]), tuple(current["faces"]),  # type: ignore[arg-type]
                            str(current["purpose"]), rule, bool(current["forced"]), bool(current["lot"]),
                            int(current["index"])))  # type: ignore[call-overload]
            current = None

    for i, event in enumerate(log):
        if event.kind != "dice":
            close(event.rule)
            continue
        data = event.data
        die, purpose = str(data.get("die", "?")), str(data.get("purpose", ""))
        lot = is_lot(die)
        same = current is not None and current["purpose"] == purpose and (
            current["lot"] if lot else current["die"] == die)
        if not same:
            close("")
            current = {"die": die, "faces": [], "purpose": purpose, "forced": False, "lot": lot, "index": i}
        assert current is not None
        current["faces"].append(data.get("result", "?"))  # type: ignore[union-attr]
        current["forced"] = bool(current["forced"]) or bool(data.get("forced"))
    close("")
    return out


def _lot_text(roll: Roll) -> str:
    if len(roll.faces) > 1:
        return f"Shuffled by lot ({len(roll.faces)} cards): {roll.purpose}"
    size = roll.die[3:] if roll.die[3:].isdigit() else "?"
    return f"Drawn by lot ({roll.faces[0]} of {size}): {roll.purpose}"


def draw_tray(size: tuple[int, int], log: Sequence[Event], background: tuple[int, int, int] = (33, 36, 43)
              ) -> pygame.Surface:
    """The tray as a picture ``size`` pixels large: the newest roll at the top."""
    w, h = max(40, size[0]), max(20, size[1])
    surf = pygame.Surface((w, h))
    surf.fill(background)
    y = 4
    inner = w - 12
    shown = list(reversed(rolls(log)))
    if not shown:
        surf.blit(fonts.text("No dice rolled yet.", TEXT, DIM), (6, y))
        return surf
    for roll in shown:
        if y >= h:
            break
        if roll.lot:
            for line in fonts.wrap(_lot_text(roll), SMALL, inner):
                surf.blit(fonts.text(line, SMALL, DIM), (6, y))
                y += fonts.font(SMALL).get_linesize()
            y += GAP
            continue
        head = roll.purpose[:1].upper() + roll.purpose[1:]
        for line in fonts.wrap(head, TEXT, inner):
            surf.blit(fonts.text(line, TEXT, INK), (6, y))
            y += fonts.font(TEXT).get_linesize()
        x = 6
        for face in roll.faces:
            if x + FACE > w - 6:
                x = 6
                y += FACE + GAP
            surf.blit(art.die_face(roll.die, face, FACE), (x, y + 2))
            x += FACE + GAP
        y += FACE + GAP + 2
        notes = [n for n in (roll.rule, "forced by the script" if roll.forced else "") if n]
        if notes:
            surf.blit(fonts.text("  ·  ".join(notes), SMALL, FORCED if roll.forced else DIM), (6, y))
            y += fonts.font(SMALL).get_linesize()
        pygame.draw.line(surf, RULE_LINE, (4, y + 2), (w - 4, y + 2))
        y += GAP + 3
    return surf
