"""Small inline Dragon Rage scenarios with units placed exactly, for rule tests."""

from __future__ import annotations

from typing import Any

from simulator.core import Session
from simulator.core.scenario import scenario_from_data


def session(units: dict[str, list[dict[str, Any]]], *, map_: str = "dragon_rage/esirien", objective: int = 19,
            tape: list[int] | None = None, first: str = "invader", rules: dict[str, Any] | None = None,
            turns: int | None = None, setup: dict[str, Any] | None = None) -> Session:
    """``setup``: further keys of the scenario's setup section (e.g. ``reinforcements``)."""
    data: dict[str, Any] = {
        "game": "dragon_rage", "name": "test", "description": "rule test", "map": map_,
        "setup": {"objective": objective, "first": first, "forces": units, **(setup or {})},
    }
    if rules:
        data["rules"] = rules
    if turns:
        data["turns"] = turns
    return Session.new(scenario_from_data(data, "dragon_rage/test"), seed=1, tape=tape)


def to_phase(s: Session, phase: str) -> None:
    for _ in range(40):
        if s.state["phase"] == phase:
            return
        s.apply({"type": "end_phase"})
    raise AssertionError(f"never reached {phase}")


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]
