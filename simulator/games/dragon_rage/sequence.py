"""The Dragon Rage turn sequence for the F1 help (DR 2.6): the phases of the rules data, in order."""

from __future__ import annotations

from typing import Any

from simulator.core.view import TurnStep
from simulator.games.dragon_rage.rules_data import rules_data


def turn_sequence(state: dict[str, Any]) -> tuple[TurnStep, ...]:
    current = state.get("phase")
    return tuple(TurnStep(p["name"], p["rule"], p["id"] == current) for p in rules_data().rules["phases"])
