"""Seeded random play-outs through Session.legal_actions() only, checking invariants after
every action: stacking, nobody in water who may not be there, VP hexes scored once, spell
points never negative. Every game must end (scenario copies with a one-turn limit)."""

from __future__ import annotations

import random

from simulator.core import Session
from simulator.core.scenario import list_scenarios, load_scenario, scenario_from_data
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.stacking import stack_ok
from simulator.games.dragon_rage.terrain_rules import water_for

GAMES = 100
MAX_ACTIONS = 400


def check_invariants(s: Session) -> None:
    st = s.state_data()
    board = board_for(st["map"])
    hexes = {u["hex"] for u in st["units"].values() if u["alive"] and u["hex"] is not None}
    for h in hexes:
        assert stack_ok(st, h), f"stacking broken in {h}"
    for u in st["units"].values():
        if not u["alive"] or u["hex"] is None or u.get("flying"):
            continue
        water = water_for(st, board, u["hex"])
        if water == "sea":
            assert u["type"] == "sea_serpent", f"{u['id']} in the sea"
        elif water == "river":
            assert u["type"] in ("sea_serpent", "giant"), f"{u['id']} in the river at {u['hex']}"
        if "sp" in u:
            assert u["sp"] >= 0
    assert st["vp"]["score"] == sum(st["vp"]["destroyed"].values())
    assert all(h in board.vp for h in st["vp"]["destroyed"])


def test_random_playouts_end_without_errors() -> None:
    ids = [sid for sid, _ in list_scenarios() if sid.startswith("dragon_rage/")]
    assert len(ids) >= 12
    ended = 0
    for g in range(GAMES):
        sid = ids[g % len(ids)]
        data = dict(load_scenario(sid).data)
        data["turns"] = 1
        s = Session.new(scenario_from_data(data, sid), seed=g)
        rng = random.Random(g)
        for _ in range(MAX_ACTIONS):
            if s.outcome() is not None:
                break
            legal = s.legal_actions()
            s.apply(rng.choice(legal))
            check_invariants(s)
        ended += s.outcome() is not None
    assert ended == GAMES
