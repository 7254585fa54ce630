"""Tactics cards and hidden hands (digest §9), the Tactics board (§8), game-mode scoring (§15-16)."""

import pytest

from simulator.core.errors import DataError, IllegalAction
from simulator.core.session import Session
from simulator.games.asoiaf import GAME
from tests.asoiaf.helpers import finish_round, guards, kinds, scenario, session, sworn


def pair(**kw):
    return scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                    [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], **kw)


def test_hands_are_hidden_from_the_other_player():
    s = session(pair())
    seen = s.view("stark")
    assert isinstance(seen["hands"]["stark"], list) and seen["hands"]["lannister"] == 3
    assert seen["decks"]["stark"] == 17


def test_defender_answers_behind_the_hand_over_screen_and_northern_ferocity():
    # Stark's S1 attacks with Northern Ferocity (rulebook card 18.6); Lannister may answer with 40102.
    s = session(pair(first="stark"), tape=[6] * 7 + [1] * 7 + [1, 1, 1] + [6, 6, 1])
    s.apply({"type": "attack", "unit": "S1", "target": "L2", "attack": 0, "card": "40202"})
    assert "40202" in s.state["discards"]["stark"]
    assert s.active_player() == "lannister"
    choice = GAME.presentation().secret_choice(s.state_data())
    assert choice is not None and choice.player == "lannister"
    assert any(a == {"type": "respond", "card": "40102"} for _, a in choice.options)
    s.apply({"type": "respond", "card": "40102"})
    s.apply({"type": "order", "use": False})        # L2 keeps its Lannister Supremacy for later
    assert "weakened" in s.state["units"]["S1"]["conditions"]       # the Lannister card's effect
    # 7 Wounds, then the panic test gets Vicious -2: 1+1-2 -> 0, fails, D3 = 1
    assert s.state["units"]["L2"]["figures"] == 12 - 7 - 1


def test_card_with_wrong_trigger_is_refused():
    s = session(pair(first="stark"))
    with pytest.raises(IllegalAction, match="trigger"):
        s.apply({"type": "hold", "unit": "S9", "card": "40201"})


def test_board_zone_taken_once_and_cersei_fetches_hear_me_roar():
    s = session(pair(first="lannister", ncus=True))
    s.apply({"type": "claim", "ncu": "lannister-N1", "zone": "crown", "target": "S1"})
    assert s.state["hands"]["lannister"].count("40103") == 2          # fetched from the deck
    assert s.state["ncus"]["lannister-N1"]["tokens"] == 1
    with pytest.raises(IllegalAction, match="already claimed"):
        s.apply({"type": "claim", "ncu": "stark-N1", "zone": "crown", "target": "L2"})


def test_cleanup_draws_to_three_and_passes_first_player():
    s = session(pair(first="stark"))
    finish_round(s)
    assert s.state["round"] == 2 and s.state["first_player"] == "lannister"
    assert all(len(h) == 3 for h in s.state["hands"].values())


def objective_game(mode, stark, lannister, **kw):
    return session(scenario(stark, lannister, mode=mode, first="stark", **kw))


def test_standard_scoring_with_commander_bonus():
    s = objective_game("game_of_thrones", [sworn("S1", (24, 21.5), 90)], [guards("L1", (24, 44))])
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 2.5, "facing": 90})
    assert s.state["objectives"][0]["holder"] == "S1"
    finish_round(s)
    assert s.state["vp"]["stark"] == 0                    # no Objective VP in round 1
    finish_round(s)
    assert s.state["vp"]["stark"] == 2                    # 1 + 1 for the Commander's unit


def test_winds_of_winter_objectives_score_nothing():
    s = objective_game("winds_of_winter", [sworn("S1", (24, 21.5), 90)], [guards("L1", (24, 44))])
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 2.5, "facing": 90})
    finish_round(s)
    finish_round(s)
    assert s.state["vp"]["stark"] == 0


def test_dance_with_dragons_carrier_slows_down():
    s = objective_game("dance_with_dragons", [sworn("S1", (24, 20), 90)], [guards("L1", (24, 44))])
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 2, "facing": 90})
    assert s.state["units"]["S1"]["objective"] == "O1"
    finish_round(s)
    s.apply({"type": "hold", "unit": "L1"})
    with pytest.raises(IllegalAction, match="cannot March"):
        s.apply({"type": "march", "unit": "S1", "distance": 2})
    with pytest.raises(IllegalAction, match="at most 2"):
        s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 3})


def test_here_we_stand_quadrants():
    s = objective_game("here_we_stand", [sworn("S1", (12, 12), 90)], [guards("L1", (36, 36))])
    finish_round(s)
    finish_round(s)
    assert s.state["vp"] == {"stark": 1, "lannister": 1}


def test_fire_and_blood_marked_unit_worth_two():
    sc = scenario([{"id": "GW", "card": "10204", "at": [24, 19.375], "facing": 90}, sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], mode="fire_and_blood",
                  first="lannister", marked={"lannister": ["GW"]})
    s = session(sc, tape=[6, 6, 6, 6, 1, 1] + [1, 1, 1, 1])
    s.apply({"type": "attack", "unit": "L2", "target": "GW", "attack": 0})
    assert s.state["vp"]["lannister"] == 3                # 1 combat victory + 2 for a marked unit


def test_storm_of_swords_defender_wins_at_the_end():
    s = objective_game("storm_of_swords", [sworn("S1", (24, 8), 90)], [dict(guards("L1", (40, 40)), reserve=True)],
                       rounds=1, defender="lannister")
    assert "wall1" in s.state["units"]
    finish_round(s)
    assert s.outcome().winner == "lannister"


def test_feast_for_crows_piles_and_drop():
    s = objective_game("feast_for_crows", [sworn("S1", (6, 18), 90)], [guards("L1", (40, 44))])
    assert len([t for t in s.state["terrain"] if t["kind"] == "corpse_pile"]) == 2
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 3, "facing": 90})
    assert s.state["units"]["S1"]["objective"] == "O1"


def test_clash_of_kings_first_commander_kill():
    sc = scenario([{"id": "GW", "card": "10204", "at": [24, 19.375], "facing": 90}, sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=True), guards("L9", (44, 44), jaime=False)],
                  mode="clash_of_kings", first="lannister")
    s = session(sc, tape=[6, 6, 6, 6] + [1, 1, 1, 1])
    s.apply({"type": "attack", "unit": "L2", "target": "GW", "attack": 0})
    assert s.state["vp"]["lannister"] == 2             # combat victory + the Commander's unit's kill


def test_vp_threshold_and_elimination():
    from simulator.games.asoiaf.modes import vp_needed
    assert (vp_needed(30), vp_needed(40), vp_needed(50), vp_needed(60)) == (8, 10, 12, 14)


def test_bad_scenario_gives_a_clear_message():
    with pytest.raises(DataError, match="unknown Combat unit card"):
        Session.new(scenario([{"id": "X", "card": "99999", "at": [1, 1]}, sworn()], [guards()]))
    with pytest.raises(DataError, match="attachments"):
        Session.new(scenario([{"id": "GW", "card": "10204", "at": [10, 40], "attachment": "20201"}], [guards()]))
