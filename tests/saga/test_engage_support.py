"""Figures that cannot reach base contact in an engagement (SAGA p.20 rule 6) go round their
friends to stand as close as they can to the enemy: within VS of the engaged enemy figure they
fight as supporting figures (SAGA p.21)."""

from __future__ import annotations

import math

from simulator.games.saga import movement
from simulator.games.saga.melee import fighting_figures
from tests.saga.helpers import session, to_activation


def _charge_on_the_warlord() -> tuple[dict, dict]:
    """Four Hearthguard in two ranks, 5.4" below a lone Warlord and off to one side: only the
    front left one can touch him (a single figure takes two of ours at most anyway, rule 3), and
    the straight way of the rear two runs into the figures ahead of them."""
    s = session([{"id": "hg", "class": "hearthguard", "figures": 4, "at": [12.87, 11.12], "columns": 2},
                 {"id": "lord", "class": "warlord", "at": [40, 30]}],
                [{"id": "el", "class": "warlord", "at": [9.47, 4.39]}])
    to_activation(s)
    st = s.state_data()
    return st, movement.plan_engage(st, "hg", "el", movement.MoveRules())


def test_the_rear_rank_goes_round_the_front_rank_and_fights() -> None:
    st, plan = _charge_on_the_warlord()
    moved = {**st["figures"], **{f: {**st["figures"][f], "x": x, "y": y} for f, (x, y) in plan.items()}}
    lord = moved["el"]
    gaps = sorted(math.dist((p[0], p[1]), (lord["x"], lord["y"])) - lord["r"] - moved[f]["r"] for f, p in plan.items())
    assert gaps[0] < 0.05 and gaps[2] > 0.2                      # one or two in contact, no third on him
    assert gaps[3] < 2.0                                          # the rest within VS of him
    res = movement.validate_move(st, "hg", plan, movement.MoveRules())
    assert res.engaged == "el"
    assert sorted(fighting_figures({**st, "figures": moved}, "hg", "el")) == ["hg.1", "hg.2", "hg.3", "hg.4"]


def test_each_figure_stays_in_its_reach() -> None:
    st, plan = _charge_on_the_warlord()
    for f, (x, y) in plan.items():
        assert math.dist((x, y), (st["figures"][f]["x"], st["figures"][f]["y"])) <= 6.0 + 1e-6
