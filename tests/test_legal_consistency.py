"""The legal-action contract, checked over seeded random play-outs of every shipped scenario.

For each game, every scenario under ``scenarios/<game>/`` is played from its set-up by picking
uniformly among ``Session.legal_actions()`` with a seeded ``random.Random``. At every position:

* the list is never empty while ``Session.outcome()`` is None (no deadlock: some action,
  typically ``end_phase``, always lets the game go on);
* a sample of the offered actions (``SAMPLE`` per position, the played one always among them)
  is accepted by ``Session.check`` — the rules never refuse what the generator offers;
* playing the chosen action does not raise.

The turn limit (``turns:``, or ASOIAF's ``setup.max_rounds``) is cut to ``TURNS`` so that the
play-outs also reach the end of the game and its victory checks; each game gets a budget of
actions shared among its scenarios to stay fast.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from simulator.core import Session
from simulator.core.scenario import list_scenarios, load_scenario, scenario_from_data

SAMPLE = 2               # offered actions checked per position, besides the one played
TURNS = 2                # the scenarios' turn limits are cut to this
#: Actions played per game (over all its scenarios, a short game then the next seed).
BUDGET = {"dragon_rage": 480, "vikings": 400, "saga": 300, "asoiaf": 260}


def scenario_ids(game: str) -> list[str]:
    return [sid for sid, _ in list_scenarios() if sid.startswith(f"{game}/")]


def short_game(sid: str, seed: int) -> Session:
    data: dict[str, Any] = dict(load_scenario(sid).data)
    if data.get("turns"):
        data["turns"] = min(int(data["turns"]), TURNS)
    else:
        data["turns"] = TURNS
    if data["game"] == "asoiaf":          # its round limit is a set-up field (default 6)
        data["setup"] = dict(data["setup"], max_rounds=TURNS)
    return Session.new(scenario_from_data(data, sid), seed=seed)


def play_checked(session: Session, rng: random.Random, actions: int, where: str) -> int:
    """Play up to ``actions`` random legal actions, checking the contract; returns how many."""
    for n in range(actions):
        if session.outcome() is not None:
            return n
        offered = session.legal_actions()
        assert offered, f"{where}: no legal action after {n} actions, yet the game is not over " \
                        f"(state phase {session.state.get('phase')!r})"
        chosen = rng.choice(offered)
        others = [a for a in offered if a is not chosen]
        for action in [chosen, *rng.sample(others, min(SAMPLE, len(others)))]:
            refused = session.check(action)
            assert refused is None, f"{where}, action {n}: legal_actions offered {action} but the rules " \
                                    f"refuse it: {refused}"
        session.apply(chosen)
    return actions


@pytest.mark.parametrize("game", sorted(BUDGET))
def test_every_offered_action_is_accepted_and_no_deadlock(game: str) -> None:
    ids = scenario_ids(game)
    assert ids, f"no shipped scenario for {game}"
    per_scenario = max(20, BUDGET[game] // len(ids))
    for i, sid in enumerate(ids):
        left, seed = per_scenario, 1000 * i
        while left > 0:
            session = short_game(sid, seed)
            left -= max(1, play_checked(session, random.Random(seed), left, f"{sid} seed {seed}"))
            seed += 1
