"""The A Song of Ice and Fire round for the F1 help (§3): deployment, then Activation and Cleanup."""

from __future__ import annotations

from typing import Any

from simulator.core.view import TurnStep

SEQUENCE = (
    ("deployment", "Deployment", 'ASOIAF "Battlefield" (15)', "terrain, then units into the deployment areas"),
    ("activation", "Activation phase", 'ASOIAF "Activation phase" (3.1)',
     "players take turns: activate one unit that has not activated, it takes one action"),
    ("cleanup", "Cleanup phase", 'ASOIAF "Cleanup phase" (3.2)',
     "end-of-round effects, score victory points, remove tokens, draw back to 3 Tactics cards"),
)


def turn_sequence(state: dict[str, Any]) -> tuple[TurnStep, ...]:
    current = state.get("phase")
    return tuple(TurnStep(name, rule, phase == current, detail) for phase, name, rule, detail in SEQUENCE)
