"""Seeded random games through Session.legal_actions() only, to the turn limit, with invariants."""

from __future__ import annotations

import random

import pytest

from simulator.core.data import load_yaml
from simulator.core.scenario import scenario_from_data
from simulator.core.session import Session
from simulator.games.vikings import GAME, fleet
from simulator.games.vikings.game import board_of


def short(name: str, turns: int):
    data = load_yaml(f"scenarios/vikings/{name}.yaml").data
    data["turns"] = turns
    return scenario_from_data(data, f"vikings/{name}")


def check_invariants(state) -> None:
    board = board_of(state)
    seen: dict[str, str] = {}
    for sid, ship in state["ships"].items():
        if fleet.afloat(ship):
            for h in fleet.hexes(board, ship):
                assert h in board and h not in seen, (sid, h)
                seen[h] = sid
    for cid, ch in state["chars"].items():
        assert ch["status"] in ("ok", "wounded", "stunned", "dead")
        if ch.get("hex") is not None:
            assert ch["hex"] in board
        if ch.get("ship") and ch["status"] != "dead":
            ship = state["ships"][ch["ship"]]
            assert fleet.afloat(ship) and fleet.hexes(board, ship)[ch["slot"]] == ch["hex"], cid
        if ch.get("mounted"):
            assert board.grid.adjacent(ch["hex"], ch["front"])
    for hid, horse in state["horses"].items():
        assert board.grid.adjacent(horse["hex"], horse["front"]), hid
        if horse.get("led_by") and horse["alive"]:
            leader = state["chars"][horse["led_by"]]
            assert any(board.grid.adjacent(a, b) for a in (leader["hex"], leader.get("front") or leader["hex"])
                       for b in (horse["hex"], horse["front"])), hid
    for aid, beast in state.get("animals", {}).items():
        assert beast["hex"] in board and not board.is_water(beast["hex"]), aid      # goats and pigs never swim
    for tid, t in state.get("treasures", {}).items():
        if t["carried_by"] is not None:
            carrier = state["chars"][t["carried_by"]]
            assert carrier["status"] in ("ok", "wounded") and t["hex"] in (carrier["hex"], carrier.get("front")), tid
    assert 1 <= state["turn"] <= state["turns"] + 1


def play_randomly(s: Session, rng: random.Random, end_bias: float, most: int, invariants: bool = True) -> None:
    """Uniform legal actions, ending the phase with probability ``end_bias`` when that is legal,
    until the game ends or ``most`` actions; the invariants are checked after every action."""
    for _ in range(most):
        if s.outcome() is not None:
            return
        acts = s.legal_actions()
        assert acts, "no legal action while the game goes on"
        ends = [a for a in acts if a["type"] == "end_phase"]
        s.apply(ends[0] if ends and rng.random() < end_bias else rng.choice(acts))
        if invariants:
            check_invariants(s.state_data())


#: Seeds chosen from 0-49 of each scenario (the former 100 games) so that, scenario by scenario,
#: they play every action type, raise every event kind and cite every rule the 100 did, each at
#: least twice where the 100 did (a sixth of the CPU for the same reach).
@pytest.mark.parametrize("name,seeds", [("sea_fight", [2, 7, 8, 13, 15, 17, 25, 30, 32, 37]),
                                        ("village_raid", [7, 9, 10, 11, 18, 32, 42])])
def test_random_games_reach_the_turn_limit(name, seeds):
    sc = short(name, 2)
    for seed in seeds:
        s = Session(GAME, sc, seed=seed)
        play_randomly(s, random.Random(seed), 0.3, 1500)
        out = s.outcome()
        assert out is not None, f"{name} seed {seed} did not finish"
        assert s.state["over"] or not all(out.scores.values()) or out.winner is not None


@pytest.mark.parametrize("name,games,turns", [("beach_landing", 4, 3), ("boarding_fight", 4, 3)])
def test_authored_scenarios_play_to_their_end(name, games, turns):
    sc = short(name, turns)
    for seed in range(games):
        s = Session(GAME, sc, seed=100 + seed)
        play_randomly(s, random.Random(seed), 0.25, 3000)
        assert s.outcome() is not None, f"{name} seed {seed} did not finish"


@pytest.mark.parametrize("name,turns", [("beach_landing", 12), ("boarding_fight", 8)])
def test_one_seeded_game_runs_the_scenarios_full_length(name, turns):
    """The real scenario (not shortened) to its last turn: the turn limit ends it and the
    victory rule (casualty points, game.scores) names the result."""
    s = Session.new(f"vikings/{name}", seed=7)
    assert s.state["turns"] == turns
    play_randomly(s, random.Random(7), 0.3, 20000, invariants=False)
    out = s.outcome()
    assert out is not None
    assert s.state["over"] == "turn limit" or not all(
        any(c["status"] in ("ok", "wounded") and c.get("hex") for c in s.state["chars"].values() if c["side"] == side)
        for side in s.state["order"])
    if s.state["over"] == "turn limit":
        assert s.state["turn"] == turns + 1
        a, b = s.state["order"]
        assert out.scores == GAME.scores(s.state_data())
        assert (out.winner is None) == (out.scores[a] == out.scores[b])
        assert out.winner is None or out.scores[out.winner] > min(out.scores.values())


def test_a_side_with_nobody_standing_loses_at_once():
    s = Session.new("vikings/boarding_fight", seed=1)
    st = s.state_data()
    for c in st["chars"].values():
        if c["side"] == "saxons":
            c["status"] = "dead"
    out = GAME.outcome(st)
    assert out is not None and out.winner == "vikings" and "nobody left standing" in out.text


def test_low_tide_raid_plays_through_the_rising_tide():
    data = load_yaml("scenarios/vikings/low_tide_raid.yaml").data
    data["turns"] = 3
    data["setup"]["sandbar"]["dry_turns"] = 1          # dry, coastal, deep within three turns
    sc = scenario_from_data(data, "vikings/low_tide_raid")
    for seed in range(3):
        s = Session(GAME, sc, seed=200 + seed)
        play_randomly(s, random.Random(seed), 0.3, 3000)
        assert s.outcome() is not None
        assert any(e.kind == "tide" and "deep" in e.text for e in s.log)
