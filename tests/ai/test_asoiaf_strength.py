"""The ASOIAF evaluation and heuristic the normal computer player searches with: VP in the making
(Objectives controlled, Wounds on the castle walls) and the drive towards each side's targets."""

from __future__ import annotations

import random

from simulator.ai.players import ranked_pool
from simulator.core.registry import game_ids, get_game
from simulator.games.asoiaf.ai_profile import PROFILE
from simulator.games.asoiaf import GAME
from simulator.games.asoiaf.evaluation import (approach, control_vp, expected_vp, exposure, heuristic, targets,
                                                wall_share)
from tests.asoiaf.helpers import guards, scenario, session, sworn


def siege(stark_at: tuple[float, float] = (24, 8)):
    return session(scenario([sworn("S1", stark_at, 90)], [dict(guards("L1", (40, 40)), reserve=True)],
                            mode="storm_of_swords", defender="lannister"))


def test_the_attacker_is_drawn_to_the_castle_walls() -> None:
    far, near = siege((24, 8)).state_data(), siege((24, 30)).state_data()
    assert -1.0 <= heuristic(far, "stark") < heuristic(near, "stark") <= 0.0
    # the Defender has no target of its own: its reserve is not on the table, nothing pulls it
    assert heuristic(far, "lannister") == 0.0


def test_wounds_on_a_wall_count_as_a_share_of_its_vp() -> None:
    state = siege().state_data()
    even = GAME.evaluate(state, "stark")
    state["units"]["wall2"]["damage"] = 4                         # half of its 8 Wounds
    assert wall_share(state) == 2.5                               # half of the 5 VP
    assert expected_vp(state, "stark") == 2.5 and expected_vp(state, "lannister") == 0.0
    hurt = GAME.evaluate(state, "stark")
    assert even < hurt < 0.95 and GAME.evaluate(state, "lannister") == -hurt
    state["units"]["wall2"].update(damage=0, figures=0, destroyed=True)
    state["vp"]["stark"] = 5                                      # destroyed: the 5 VP are scored
    assert wall_share(state) == 0.0 and GAME.evaluate(state, "stark") > hurt


def test_controlling_an_objective_counts_before_the_cleanup_scores_it() -> None:
    s = session(scenario([sworn("S1", (24, 21.5), 90)], [guards("L1", (24, 44))], mode="game_of_thrones"))
    before = s.state_data()
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 2.5, "facing": 90})
    after = s.state_data()
    assert after["objectives"][0]["holder"] == "S1"
    assert control_vp(before, "stark") == 0.0
    assert control_vp(after, "stark") == 2.0                      # 1, and 1 more for the Commander's unit
    assert control_vp(after, "lannister") == 0.0
    assert GAME.evaluate(after, "stark") > GAME.evaluate(before, "stark")
    assert GAME.evaluate(after, "lannister") == -GAME.evaluate(after, "stark")


def test_approach_targets_the_objectives_outside_a_siege() -> None:
    s = session(scenario([sworn("S1", (24, 8), 90)], [guards("L1", (24, 44))], mode="game_of_thrones"))
    state = s.state_data()
    far = approach(state, "stark")
    state["units"]["S1"]["y"] = 20.0
    assert far < approach(state, "stark") <= 0.0


def test_units_spread_to_the_objectives_their_side_does_not_hold() -> None:
    s = session(scenario([sworn("S1", (24, 21.5), 90), sworn("S2", (6, 8), 90, robb=False)], [guards("L1", (24, 44))],
                         mode="game_of_thrones"))
    before = s.state_data()
    assert len(targets(before, "stark")) == 5
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 2.5, "facing": 90})
    after = s.state_data()
    held = (after["objectives"][0]["x"], after["objectives"][0]["y"])
    assert held not in targets(after, "stark") and len(targets(after, "stark")) == 4
    assert held in targets(after, "lannister")
    # the holder counts as arrived: holding beats standing a step short of the token
    assert approach(after, "stark") > approach(before, "stark")


def test_a_unit_in_reach_of_an_enemy_charge_is_exposed() -> None:
    far = session(scenario([sworn("S1", (24, 8), 90)], [guards("L1", (24, 44))])).state_data()
    near = session(scenario([sworn("S1", (24, 30), 90)], [guards("L1", (24, 40))])).state_data()
    assert exposure(far, "stark") == 0.0 < exposure(near, "stark") <= 1.0
    assert heuristic(near, "stark") < approach(near, "stark")


def test_ranked_pool_keeps_the_profile_types_and_samples_the_rest() -> None:
    actions = [{"type": "hold", "unit": str(i)} for i in range(30)] + [{"type": "charge", "unit": "c"},
                                                                       {"type": "attack", "unit": "a"}]
    keep = PROFILE.keep_types
    pool = ranked_pool(actions, 16, keep, random.Random(1))
    assert len(pool) == 16 and {"charge", "attack"} <= {a["type"] for a in pool}
    # without "keep" the sample is the plain one every other game uses
    assert ranked_pool(actions, 16, (), random.Random(1)) == random.Random(1).sample(actions, 16)
    assert ranked_pool(actions[:5], 16, keep, random.Random(1)) == actions[:5]


def test_by_teams_teammates_share_the_evaluation_and_a_team_win():
    """13.1: teammates are friends: the evaluation counts a team's players together, zero-sum
    between the two teams, and a team's win is a win for each of its players."""
    from simulator.core.session import Session
    from simulator.games.asoiaf.evaluation import evaluate

    s = Session.new("asoiaf/team-game-2v2", 1)
    state = s.state_data()
    a, b, c, d = state["players"]
    mates = [p for p in state["players"] if state["teams"][p] == state["teams"][a]]
    foes = [p for p in state["players"] if p not in mates]
    values = {p: evaluate(state, p) for p in state["players"]}
    assert values[mates[0]] == values[mates[1]] and values[foes[0]] == values[foes[1]]
    assert abs(values[mates[0]] + values[foes[0]]) < 1e-9
    state["result"] = {"winner": state["teams"][a]}
    assert evaluate(state, mates[1]) == 1.0 and evaluate(state, foes[0]) == -1.0


def test_the_attacker_counts_its_way_to_the_walls_against_the_round_limit() -> None:
    """16.3: the Attacker's approach is measured against the 40" from its edge to the walls (not the
    table's diagonal) and it weighs exposure less than usual: the walls must fall within the rounds."""
    from simulator.games.asoiaf.evaluation import SIEGE_EXPOSURE, siege_approach

    far, near = siege((24, 8)).state_data(), siege((24, 30)).state_data()
    assert siege_approach(far, "stark") < siege_approach(near, "stark") < 0.0
    # 22" nearer is more than half of the whole way (a table diagonal would make it about a third)
    assert siege_approach(near, "stark") - siege_approach(far, "stark") > 0.5
    assert heuristic(near, "stark") == siege_approach(near, "stark") - SIEGE_EXPOSURE * exposure(near, "stark")
    for u in far["units"].values():
        if u.get("structure"):
            u["destroyed"] = True
    assert siege_approach(far, "stark") == 0.0                    # no wall standing: nothing to reach


def test_extra_moves_lead_the_attacker_towards_the_walls_and_are_legal() -> None:
    from simulator.games.asoiaf.ai_moves import extra_actions, front_spot
    from simulator.games.asoiaf.evaluation import siege_approach

    s = siege((24, 8))
    state = s.state_data()
    assert state["active"] == "stark"
    extra = extra_actions(s.view("stark"), "stark")
    assert extra and {a["type"] for a in extra} == {"maneuver", "march"}
    start = siege_approach(state, "stark")
    for a in extra:
        trial = siege((24, 8))
        trial.apply(a)                                            # legal: the session accepts each one
        assert siege_approach(trial.state_data(), "stark") > start
    # the spot in front of a wall faces the Attacker (south of a wall on the north edge)
    wall, unit = state["units"]["wall1"], state["units"]["S1"]
    assert front_spot(wall, unit)[1] < wall["y"]
    # nothing for the Defender, nor outside A Storm of Swords
    assert extra_actions(s.view("lannister"), "lannister") == []
    other = session(scenario([sworn("S1", (24, 8), 90)], [guards("L1", (24, 44))])).state_data()
    assert extra_actions(other, "stark") == []


def test_only_a_profile_asking_for_extra_moves_gets_them() -> None:
    from simulator.games.asoiaf.ai_moves import extra_actions

    assert PROFILE.extra_actions is extra_actions
    assert not any(get_game(g).ai_profile().extra_actions for g in game_ids() if g != "asoiaf")

