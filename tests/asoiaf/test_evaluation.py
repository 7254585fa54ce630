"""evaluate (VP towards the target and strength left, in [-1, 1]) and determinize (the hidden hand
and deck orders guessed from the unseen cards) for computer players."""

import random
from collections import Counter

from simulator.core.session import Session
from simulator.games.asoiaf import GAME
from simulator.games.asoiaf.evaluation import full_deck
from tests.asoiaf.helpers import guards, scenario, session, sworn


def pair(**kw):
    return scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                    [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], **kw)


def test_even_start_is_zero_and_symmetric():
    s = session(pair())
    state = s.state_data()
    assert GAME.evaluate(state, "stark") == 0.0 == GAME.evaluate(state, "lannister")


def test_wounds_and_vp_move_the_value_towards_the_leader():
    s = session(pair(first="lannister"), tape=[4, 5, 6, 4, 2, 3] + [4, 5, 1, 2] + [1, 3, 1])
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})   # S1 loses 3 figures
    state = s.state_data()
    hurt = GAME.evaluate(state, "lannister")
    assert 0 < hurt < 0.95 and GAME.evaluate(state, "stark") == -hurt
    state["vp"]["lannister"] = 4
    ahead = GAME.evaluate(state, "lannister")
    assert hurt < ahead < 0.95
    state["vp"]["stark"] = 8                  # 4 VP ahead: half the 8 VP target of a 30 point game
    assert GAME.evaluate(state, "stark") > 0.3 and GAME.evaluate(state, "lannister") < -0.3


def test_finished_games_are_plus_or_minus_one():
    s = session(pair())
    state = s.state_data()
    state["result"] = {"winner": "stark", "text": "", "rule": ""}
    assert (GAME.evaluate(state, "stark"), GAME.evaluate(state, "lannister")) == (1.0, -1.0)
    state["result"]["winner"] = None
    assert GAME.evaluate(state, "stark") == 0.0


def test_determinize_fills_the_hidden_hand_from_unseen_cards_only():
    s = Session.new("asoiaf/game-of-thrones", seed=9)
    truth = s.state_data()
    for trial in range(5):
        visible = s.view("stark")
        assert visible["hands"]["lannister"] == 3 and visible["decks"]["lannister"] == 17
        guess = GAME.determinize(visible, "stark", random.Random(trial))
        # what Stark sees is untouched
        assert guess["hands"]["stark"] == truth["hands"]["stark"]
        assert guess["discards"] == truth["discards"]
        for side in ("stark", "lannister"):
            assert len(guess["hands"][side]) == len(truth["hands"][side])
            assert len(guess["decks"][side]) == len(truth["decks"][side])
            # hand + deck + discards is exactly the side's 20-card deck
            cards = guess["hands"][side] + guess["decks"][side] + guess["discards"][side]
            assert Counter(cards) == Counter(full_deck(truth, side))
        # the guessed state is playable
        assert GAME.legal_actions(guess)


def test_determinize_varies_with_the_rng_and_respects_discards():
    s = session(pair(first="stark"))
    s.apply({"type": "attack", "unit": "S1", "target": "L2", "attack": 0, "card": "40202"})
    visible = s.view("lannister")
    assert visible["hands"]["stark"] == 2 and visible["discards"]["stark"] == ["40202"]
    hands = {tuple(sorted(GAME.determinize(s.view("lannister"), "lannister", random.Random(i))["hands"]["stark"]))
             for i in range(20)}
    assert len(hands) > 1
    for h in hands:
        # one Northern Ferocity is in the open discard pile: at most one copy can be in hand
        assert h.count("40202") <= 1
