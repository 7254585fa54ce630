"""evaluate and determinize for computer players."""

from __future__ import annotations

import random

from simulator.core.session import Session
from simulator.games.vikings import GAME, fleet
from tests.vikings.helpers import session


def test_evaluate_is_symmetric_bounded_and_follows_casualties():
    s = Session.new("vikings/village_raid", seed=1)
    st = s.state_data()
    a, b = st["order"]
    base = GAME.evaluate(st, a)
    assert -1 < base < 1 and abs(base + GAME.evaluate(st, b)) < 1e-9
    enemy = next(c for c in st["chars"].values() if c["side"] == b)
    enemy["status"] = "wounded"
    hurt = GAME.evaluate(st, a)
    enemy["status"] = "dead"
    dead = GAME.evaluate(st, a)
    assert base < hurt < dead < 1


def test_evaluate_of_a_finished_game_is_the_result():
    s = session([{"id": "svein", "hex": "1205"}, {"id": "archer1", "hex": "1206"}])
    st = s.state_data()
    st["chars"]["archer1"]["status"] = "dead"
    assert GAME.evaluate(st, "vikings") == 1.0 and GAME.evaluate(st, "saxons") == -1.0


def test_determinize_guesses_only_hidden_speeds_among_the_legal_ones():
    s = Session.new("vikings/sea_fight", seed=1)
    s.apply({"type": "end_phase"})
    s.apply({"type": "end_phase"})
    s.apply({"type": "set_speed", "ship": "wave_wolf", "speed": 3})
    view = s.view("saxons")
    assert view["ships"]["wave_wolf"]["pending"] == "hidden"
    legal = fleet.legal_speeds(s.state_data(), "wave_wolf")
    seen = set()
    for seed in range(20):
        full = GAME.determinize(view, "saxons", random.Random(seed))
        guess = full["ships"]["wave_wolf"]["pending"]
        assert guess in legal
        seen.add(guess)
        assert full["ships"]["sea_hall"]["pending"] is None         # nothing chosen yet: nothing to guess
        assert view["ships"]["wave_wolf"]["pending"] == "hidden"    # the view itself is untouched
    assert len(seen) > 1
    # the owner's own view has nothing hidden: determinize changes nothing
    own = s.view("vikings")
    assert GAME.determinize(own, "vikings", random.Random(1)) == own
    # every guess is a marker the real game would have accepted
    full = GAME.determinize(view, "saxons", random.Random(3))
    probe = Session.new("vikings/sea_fight", seed=1)
    for act in ({"type": "end_phase"}, {"type": "end_phase"},
                {"type": "set_speed", "ship": "wave_wolf", "speed": full["ships"]["wave_wolf"]["pending"]}):
        probe.apply(act)
