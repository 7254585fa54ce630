"""Seeded random games through Session.legal_actions() only, to the round limit, checking invariants.

Game ``g`` plays mode ``g % 10`` with seed ``g``. The games are chosen from the first hundred so
that, mode by mode, they play every action type, raise every event kind and cite every rule that
the hundred did (about half the CPU for the same reach)."""

import random

from simulator.core.scenario import scenario_from_data
from simulator.core.session import Session
from simulator.games.asoiaf import space
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.units import polygon

MODES = sorted(catalogue().modes)
GAMES = [4, 18, 19, 20, 22, 23, 26, 29, 34, 35, 36, 37, 40, 41, 43, 45, 46, 47, 48, 49, 50, 51, 52, 54, 56,
         57, 58, 59, 60, 61, 64, 65, 67, 70, 72, 73, 74, 76, 80, 82, 85, 87, 88, 90, 91, 93, 94, 96, 99]


def small(mode: str):
    setup = {
        "mode": mode, "points": 30, "max_rounds": 4 if mode == "storm_of_swords" else 3,
        "armies": {
            "stark": {"faction": "stark", "commander": "20201", "ncus": ["30201"], "units": [
                {"id": "S1", "card": "10201", "attachment": "20201", "at": [18, 4.5]},
                {"id": "S2", "card": "10202", "at": [30, 4.5]}]},
            "lannister": {"faction": "lannister", "commander": "20115", "ncus": ["30105"], "units": [
                {"id": "L1", "card": "10101", "attachment": "20115", "at": [18, 43.5]},
                {"id": "L2", "card": "10106", "at": [30, 43.5]}]},
        },
    }
    if mode in ("fire_and_blood", "here_we_stand"):
        for a in setup["armies"].values():
            for u in a["units"]:
                u["at"][1] = 36 if u["id"].startswith("L") else 12
    if mode == "fire_and_blood":
        setup["marked"] = {"stark": ["L1"], "lannister": ["S2"]}
    if mode == "storm_of_swords":
        for u in setup["armies"]["lannister"]["units"]:
            u["at"][1] = 40
        setup["armies"]["lannister"]["units"][1]["reserve"] = True     # enters from round 3
    return scenario_from_data({"game": "asoiaf", "name": "playout", "description": "random playout",
                               "players": [{"id": "stark", "name": "Stark"}, {"id": "lannister", "name": "Lannister"}],
                               "setup": setup}, f"asoiaf/playout-{mode}")


def check_invariants(state):
    alive = [u for u in state["units"].values() if not u["destroyed"] and not u.get("reserve")]
    for i, a in enumerate(alive):
        assert 0 < a["figures"] <= a["figures_max"]
        assert 0 <= a["damage"] < a["wounds_per_figure"]
        assert len(set(a["conditions"])) == len(a["conditions"])
        for b in alive[i + 1:]:
            assert not space.overlap(polygon(a), polygon(b)), (a["id"], b["id"])
    for side in state["players"]:
        limit = any(p["window"] == "hand_limit" and p["player"] == side for p in state["pending"])
        assert len(state["hands"][side]) <= 5 or limit      # above 5 only until the player discards
        assert state["vp"][side] >= 0
        assert len(state["hands"][side]) + len(state["decks"][side]) + len(state["discards"][side]) == 20
    claimed = [n for n in state["board"].values() if n is not None]
    assert len(claimed) == len(set(claimed))


def test_random_games_of_every_mode():
    scenarios = {m: small(m) for m in MODES}
    assert {MODES[g % len(MODES)] for g in GAMES} == set(MODES), "a mode is not played"
    finished = 0
    for game in GAMES:
        mode = MODES[game % len(MODES)]
        s = Session.new(scenarios[mode], seed=game)
        rng = random.Random(game)
        for _ in range(400):
            if s.outcome() is not None:
                break
            acts = s.legal_actions()
            assert acts, f"no legal action in game {game}"
            fighting = [a for a in acts if a["type"] in ("charge", "attack")]
            s.apply(rng.choice(fighting) if fighting and rng.random() < 0.6 else rng.choice(acts))
            check_invariants(s.state_data())
        assert s.outcome() is not None, f"game {game} ({mode}) did not end"
        finished += 1
    assert finished == len(GAMES)
