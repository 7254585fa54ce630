"""Small inline Vikings scenarios for the tests."""

from __future__ import annotations

from typing import Any

from simulator.core.scenario import scenario_from_data
from simulator.core.session import Session


def scenario(characters: list[dict[str, Any]], ships: list[dict[str, Any]] | None = None,
             boards: list[dict[str, Any]] | None = None, first: str = "vikings", turns: int = 3,
             rules: dict[str, Any] | None = None, grapples: list[dict[str, Any]] | None = None,
             start: dict[str, Any] | None = None) -> Any:
    """``start``: more set-up keys, e.g. ``{"turn": 2, "phase": "player_b"}``."""
    setup: dict[str, Any] = {"first": first, "boards": boards or [{"map": "vikings/the_coast"}],
                             "characters": characters, **(start or {})}
    if ships:
        setup["ships"] = ships
    if grapples:
        setup["grapples"] = grapples
    data = {"format": "scenario/1", "game": "vikings", "name": "test", "description": "test", "turns": turns,
            "setup": setup}
    if rules:
        data["rules"] = rules
    return scenario_from_data(data, "vikings/test")


def session(characters: list[dict[str, Any]], tape: list[int] | None = None, **kw: Any) -> Session:
    from simulator.games.vikings import GAME
    return Session(GAME, scenario(characters, **kw), seed=1, tape=tape)


def to_step(s: Session, step: str) -> None:
    """end_phase until the player phase reaches ``step``."""
    for _ in range(20):
        if s.state["phase_index"] in (1, 3) and s.state["step"] == step:
            return
        s.apply({"type": "end_phase"})
    raise AssertionError(f"never reached {step}")


def to_side_step(s: Session, side: str, step: str) -> None:
    """end_phase until ``side``'s player phase reaches ``step``."""
    for _ in range(30):
        if s.state["phase_index"] in (1, 3) and s.state["phasing"] == side and s.state["step"] == step:
            return
        s.apply({"type": "end_phase"})
    raise AssertionError(f"never reached {side} {step}")


def end_until(s, step):
    """End phases until the naval phase reaches ``step``."""
    for _ in range(10):
        if s.state["naval"]["step"] == step:
            return
        s.apply({"type": "end_phase"})
    raise AssertionError(step)
