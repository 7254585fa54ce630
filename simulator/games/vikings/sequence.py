"""The Vikings turn sequence for the F1 help (VK 2.2): two naval phases and two player phases."""

from __future__ import annotations

from typing import Any

from simulator.core.view import TurnStep

#: Each phase with its steps, in the order the rules play them.
NAVAL = "crew duties, secret speeds, ship movement and grapples, hauling, damage recording"
PLAYER = "offensive fire, movement with defensive fire, combat, the stunned recover"
SEQUENCE = (("First naval phase", "VK 2.2, 4.2-4.7", NAVAL), ("Player A phase", "VK 2.2", PLAYER),
            ("Second naval phase", "VK 2.2, 4.2-4.7", NAVAL), ("Player B phase", "VK 2.2", PLAYER))


def turn_sequence(state: dict[str, Any], where: str = "") -> tuple[TurnStep, ...]:
    """The four phases, the current one marked, with the step it is at (``where``, the banner,
    after its "Turn n of m - phase:" head) as its detail."""
    current = -1 if state.get("over") else state.get("phase_index", -1)
    where = where.split(": ", 1)[-1]
    return tuple(TurnStep(name, rule, i == current, where if i == current else steps)
                 for i, (name, rule, steps) in enumerate(SEQUENCE))
