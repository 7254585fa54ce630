"""Malformed action parameters are refused with IllegalAction naming the parameter, never a
TypeError or ValueError from inside the rules."""

from __future__ import annotations

import random

from simulator.core.dice import Dice, DiceExhausted
from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.core.plain import copy_plain
from simulator.core.session import Session
from simulator.games.vikings import GAME
from tests.vikings.helpers import to_step

BAD_VALUES = ([], ["x", ["y"]], {"a": 1}, None, 3.5, -1, True, "zz", [["0505"]], {"units": ["a"]})


def mutations(action):
    """The action with each parameter replaced by each bad value, and with each parameter left out."""
    for key in action:
        if key == "type":
            continue
        for bad in BAD_VALUES:
            yield {**action, key: bad}
        yield {k: v for k, v in action.items() if k != key}
    if action["type"] in ("attack",):
        yield {**action, "attackers": [action["attackers"]]}
        yield {**action, "defenders": [[d] for d in action["defenders"]]}


def refused_cleanly(s, action):
    """Through the session, and straight through the rules (``Game.apply``, as a computer player's
    look-ahead calls it): anything but IllegalAction fails the test."""
    err = s.check(action)
    assert err is None or isinstance(err, IllegalAction)
    if err is not None:
        assert err.reason, action
    dice = Dice(1)
    dice.begin_action(0)
    try:
        GAME.apply(s.state_data(), copy_plain(action), Context(dice, s.scenario))
    except IllegalAction as exc:
        assert exc.reason and exc.rule, action
    except DiceExhausted:
        pass


def test_the_issue_examples_are_refused_naming_the_parameter():
    s = Session.new("vikings/village_raid", seed=2)
    to_step(s, "fire")
    archer = next(a["piece"] for a in s.legal_actions() if a["type"] == "fire")
    for bad, name in (({"type": "fire", "piece": archer, "target": ["x"]}, "target"),
                      ({"type": "fire", "piece": archer, "units": [["x"]]}, "target"),
                      ({"type": "fire", "piece": archer}, "target"),
                      ({"type": "fire", "piece": [archer], "target": "x"}, "piece")):
        err = s.check(bad)
        assert isinstance(err, IllegalAction) and name in err.reason, (bad, err)
        dice = Dice(1)
        dice.begin_action(0)
        try:
            GAME.apply(s.state_data(), copy_plain(bad), Context(dice, s.scenario))
        except IllegalAction as exc:
            assert name in exc.reason and exc.rule.startswith("VK"), exc
        else:
            raise AssertionError(f"accepted {bad}")


def test_every_parameter_of_every_offered_action_survives_bad_values():
    """Random play through two scenarios; at each new kind of position every offered action is sent
    again with each parameter broken."""
    seen: set[tuple[str, str]] = set()
    for scenario, seed in (("vikings/sea_fight", 4), ("vikings/village_raid", 5), ("vikings/low_tide_raid", 6)):
        s = Session.new(scenario, seed=seed)
        rng = random.Random(seed)
        for _ in range(100):
            acts = s.legal_actions()
            if not acts:
                break
            for act in acts:
                key = (act["type"], s.state["naval"]["step"] if s.state["phase_index"] in (0, 2) else s.state["step"])
                if key in seen:
                    continue
                seen.add(key)
                for bad in mutations(act):
                    refused_cleanly(s, bad)
            s.apply(rng.choice(acts))
    types = {t for t, _ in seen}
    assert {"fire", "move", "attack", "set_speed", "assign_duty", "end_phase"} <= types, types
