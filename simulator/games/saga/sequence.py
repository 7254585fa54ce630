"""The SAGA turn sequence for the F1 help (SAGA p.5-11): the set-up, then each player's turn."""

from __future__ import annotations

from typing import Any

from simulator.core.view import TurnStep

SEQUENCE = (
    (("setup", "deployment"), "Set-up and deployment", "SAGA p.5", "terrain, then each warband into its zone"),
    (("orders",), "Orders Phase", "SAGA p.6-9", "roll your SAGA dice and place them on your battle board"),
    (("activation",), "Activation Phase", "SAGA p.10-11",
     "activate units with the dice placed, use abilities; the enemy may react"),
    (("cleanup",), "End of the turn", "SAGA p.11", "the other player's turn begins"),
)


def turn_sequence(state: dict[str, Any]) -> tuple[TurnStep, ...]:
    current = state.get("phase")
    return tuple(TurnStep(name, rule, current in phases, detail) for phases, name, rule, detail in SEQUENCE)
