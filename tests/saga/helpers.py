"""Small inline SAGA scenarios for rule tests."""

from __future__ import annotations

from typing import Any

from simulator.core import Session
from simulator.core.scenario import scenario_from_data


def session(units_a: list[dict[str, Any]], units_b: list[dict[str, Any]], *, faction_a: str = "vikings",
            faction_b: str = "anglo_danes", terrain: list[dict[str, Any]] | None = None, tape: list[Any] | None = None,
            mode: str = "full", victory: str = "warlords_fury", turns: int = 6, extra: dict[str, Any] | None = None,
            seed: int = 0, side_a: dict[str, Any] | None = None,
            side_b: dict[str, Any] | None = None, points: int | None = None) -> Session:
    data = {"format": "scenario/1", "game": "saga", "name": "test", "description": "test",
            "players": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}], "turns": turns,
            "setup": {"mode": mode, "victory": victory, "table": {"width": 48, "height": 36}, "first_player": "A",
                      "terrain": terrain or [],
                      **({"points": points} if points is not None else {}),
                      "sides": {"A": {"faction": faction_a, "units": units_a, **(side_a or {})},
                                "B": {"faction": faction_b, "units": units_b, **(side_b or {})}}, **(extra or {})}}
    return Session(__import__("simulator.core.registry", fromlist=["get_game"]).get_game("saga"),
                   scenario_from_data(data, "saga/test"), seed, tape)


def quickstart_at_activation(seed: int = 1) -> Session:
    """The quick-start, played to the Vikings' first Activation Phase (dice rolled and left in
    hand): the armies 18 inches apart."""
    s = Session.new("saga/quickstart", seed=seed)
    while s.state["phase"] != "activation":
        actions = s.legal_actions()
        s.apply(next((a for a in actions if a["type"] == "roll_dice"), None)
                or next(a for a in actions if a["type"] == "end_orders"))
    return s


def give_dice(s: Session, player: str, placements: list[tuple[str, str]]) -> None:
    """Put dice of the given faces straight on boxes (test set-up, bypassing the roll)."""
    dice = s._state["sides"][player]["dice"]
    for i, (face, box) in enumerate(placements):
        dice[i] = {"face": face, "box": box}


def to_activation(s: Session) -> None:
    """Skip the Orders Phase of the player to act (no dice rolled)."""
    s._state["orders_rolled"] = True
    s._state["phase"] = "activation"


def take_defaults(s: Session) -> int:
    """Accept the engine's default for every pending player choice (casualties, bodyguards,
    withdrawal, figures an ability kills): the first legal action while one is asked. Returns how
    many choices were made."""
    made = 0
    while True:
        st = s.state
        m, sh = st["melee"], st["shooting"]
        step = (m or sh or {}).get("step")
        if step not in ("casualties", "bodyguards", "withdraw") and st.get("choice") is None:
            return made
        s.apply(s.legal_actions()[0])
        made += 1


def engage_from(s: Session, unit: str, source: str, target: str, trade: bool = False) -> None:
    """Activate ``unit`` to move from the box ``source``, engage ``target`` and answer the
    defender's trade of attack dice for defence (the melee then waits at its abilities step)."""
    s.apply({"type": "activate", "unit": unit, "source": source, "order": "move"})
    s.apply({"type": "engage", "target": target})
    s.apply({"type": "melee_trade", "trade": trade})
