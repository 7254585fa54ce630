"""Small inline scenarios for the ASOIAF tests."""

from __future__ import annotations

from typing import Any

from simulator.core.scenario import Scenario, scenario_from_data
from simulator.core.session import Session


def scenario(stark: list[dict[str, Any]], lannister: list[dict[str, Any]], *, mode: str = "game_of_thrones",
             terrain: list[dict[str, Any]] | None = None, first: str = "stark", rounds: int = 6,
             ncus: bool = False, **extra: Any) -> Scenario:
    """Stark (Robb's Sworn Swords are S1 unless given) against Lannister (Jaime's Guardsmen L1).
    Positions are table inches with y up (Stark in the south), facings counter-clockwise from +x."""
    setup: dict[str, Any] = {
        "mode": mode, "points": 30, "first_player": first, "max_rounds": rounds, "check_deployment": False,
        "check_points": False,
        "hands": {"stark": ["40201", "40202", "40203"], "lannister": ["40101", "40102", "40103"]},
        "armies": {
            "stark": {"faction": "stark", "commander": "20201", "units": stark,
                      "ncus": ["30201"] if ncus else []},
            "lannister": {"faction": "lannister", "commander": "20115", "units": lannister,
                          "ncus": ["30105"] if ncus else []},
        },
        "terrain": terrain or [],
    }
    setup.update(extra)
    return scenario_from_data({"game": "asoiaf", "name": "test", "description": "test",
                               "players": [{"id": "stark", "name": "Stark"}, {"id": "lannister", "name": "Lannister"}],
                               "setup": setup}, "asoiaf/test")


def sworn(uid: str = "S1", at: tuple[float, float] = (24, 18), facing: float = 90, robb: bool = True) -> dict[str, Any]:
    d = {"id": uid, "card": "10201", "at": list(at), "facing": facing}
    if robb:
        d["attachment"] = "20201"
    return d


def guards(uid: str = "L1", at: tuple[float, float] = (24, 30), facing: float = 270, jaime: bool = True,
           card: str = "10101") -> dict[str, Any]:
    d = {"id": uid, "card": card, "at": list(at), "facing": facing}
    if jaime:
        d["attachment"] = "20115"
    return d


def session(sc: Scenario, tape: list[int] | None = None, seed: int = 1) -> Session:
    return Session.new(sc, seed, tape=tape)


def passive(s: Session) -> dict[str, Any]:
    """The most passive legal action: hold, pass, keep cards, decline."""
    acts = s.legal_actions()
    for kind in ("hold", "ncu_pass", "discard", "respond", "skip"):
        for a in acts:
            if a["type"] == kind and not a.get("card") and not a.get("cards"):
                return a
    raise AssertionError(f"no passive action among {acts}")


def finish_round(s: Session) -> None:
    """Let every remaining activation hold until the round number changes (or the game ends)."""
    r = s.state["round"]
    while s.outcome() is None and s.state["round"] == r:
        s.apply(passive(s))


def kinds(s: Session) -> list[str]:
    return [e.kind for e in s.log]


def settle(s: Session) -> None:
    """Answer open choices (rerolls, Orders, pushes, token placement) with their default, the first
    legal action; an "attacked" window is answered with no card."""
    while s.outcome() is None and s.state["pending"] and \
            s.state["pending"][0]["window"] in ("reroll", "order", "push", "place_objective", "attacked"):
        w = s.state["pending"][0]["window"]
        s.apply({"type": "respond", "card": None} if w == "attacked" else s.legal_actions()[0])
