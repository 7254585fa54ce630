"""Seeded random play-outs through Session.legal_actions() only, to the end of the game.

The games (scenario, seed) are chosen from a sweep of 100 (seed g on the g-th scenario in turn)
so that, together, they play every action type, raise every event kind and cite every rule
that the whole sweep did, each at least twice where the sweep reached it twice, and play every
scenario at least once: a quarter of the sweep's CPU for the same reach.

Every scenario is played with a two-turn limit (the rules have none; a scenario's ``turns:``
may set one, DR 2.3), picking uniformly among the legal actions with a seeded
random.Random. After every action the invariants are checked: every game event cites a rule, stacking, nobody in the sea or
a river who may not be there, every VP hex destroyed at most once (and the score their sum),
spell points never negative. Every game must reach an outcome.
"""

from __future__ import annotations

import random
from typing import Any

from simulator.core import Session
from simulator.core.scenario import list_scenarios, load_scenario, scenario_from_data
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.stacking import stack_ok
from simulator.games.dragon_rage.terrain_rules import water_for

GAMES = [
    ("esirien-1-fury", 48), ("esirien-2-horde", 97), ("esirien-3-arym", 2), ("esirien-3-arym", 86),
    ("esirien-4-belm", 15), ("esirien-4-belm", 75), ("esirien-4-belm", 87), ("esirien-5-clyth", 64),
    ("esirien-5-clyth", 76), ("esirien-6-giants", 41), ("esirien-6-giants", 89), ("nurkott-1-humans", 42),
    ("nurkott-1-humans", 66), ("nurkott-1-humans", 78), ("nurkott-2-raid", 43), ("nurkott-3-dragons", 8),
    ("nurkott-3-dragons", 32), ("nurkott-4-alliance", 9), ("nurkott-4-alliance", 21),
    ("nurkott-4-alliance", 57), ("nurkott-4-alliance", 81), ("nurkott-5-clyth", 70),
    ("nurkott-6-giants", 23), ("nurkott-6-giants", 71), ("nurkott-6-giants", 95),
]
TURNS = 2
MAX_ACTIONS = 3000       # a safety net only: every game ends by its turn limit long before


def check_invariants(st: dict[str, Any], vp_seen: dict[str, int], adjusted: int) -> None:
    board = board_for(st["map"])
    hexes = {u["hex"] for u in st["units"].values() if u["alive"] and u["hex"] is not None}
    for h in hexes:
        assert stack_ok(st, h), f"stacking broken in {h}"
    for u in st["units"].values():
        if "sp" in u:
            assert u["sp"] >= 0, f"{u['id']} has {u['sp']} spell points"
        if not u["alive"] or u["hex"] is None or u.get("flying"):
            continue
        water = water_for(st, board, u["hex"])
        if water == "sea":
            assert u["type"] == "sea_serpent", f"{u['id']} in the sea at {u['hex']}"
        elif water == "river":
            assert u["type"] in ("sea_serpent", "giant"), f"{u['id']} in the river at {u['hex']}"
    destroyed = st["vp"]["destroyed"]
    for h, v in vp_seen.items():
        assert destroyed.get(h) == v, f"VP hex {h} changed after its destruction"
    vp_seen.update(destroyed)
    assert all(h in board.vp for h in destroyed)
    assert st["vp"]["score"] == sum(destroyed.values()) + adjusted, "the score is not the destroyed hexes' sum"


def test_random_playouts_end_without_errors() -> None:
    ids = sorted(sid for sid, _ in list_scenarios() if sid.startswith("dragon_rage/")
                 and "campaign" not in sid and "pointbuy" not in sid)
    assert len(ids) >= 12
    assert {f"dragon_rage/{name}" for name, _ in GAMES} == set(ids), "a shipped scenario is not played"
    scenarios = {sid: load_scenario(sid).data for sid in ids}
    ended = 0
    for name, g in GAMES:
        sid = f"dragon_rage/{name}"
        data = dict(scenarios[sid])
        data["turns"] = TURNS
        s = Session.new(scenario_from_data(data, sid), seed=g)
        rng = random.Random(g)
        vp_seen: dict[str, int] = {}
        adjusted = 0          # Elowyn's VP changes (DR 2.10.7)
        for _ in range(MAX_ACTIONS):
            if s.outcome() is not None:
                break
            events = s.apply(rng.choice(s.legal_actions()))
            # every game event cites its rule ("dice" events are the core's log of the rolls)
            uncited = [e for e in events if e.kind != "dice" and not e.rule.startswith("DR ")]
            assert not uncited, f"events citing no rule: {uncited}"
            hit = [e.data["hex"] for e in events if e.kind == "vp_destroyed"]
            assert len(hit) == len(set(hit)) and not set(hit) & set(vp_seen), f"a VP hex destroyed twice: {hit}"
            adjusted += sum(e.data["delta"] for e in events if e.kind == "vp_adjusted")
            check_invariants(s.state_data(), vp_seen, adjusted)     # a plain copy: fast to read
        assert s.outcome() is not None, f"game {g} ({sid}) did not end in {MAX_ACTIONS} actions"
        ended += 1
    assert ended == len(GAMES)
