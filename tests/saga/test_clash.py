"""Clash of Steel at 10 and 12 points (SAGA p.58): 8 SAGA dice, no Activation Pool, chosen warbands."""

from __future__ import annotations

import pytest

from simulator.core.errors import IllegalAction
from simulator.core.registry import get_game
from simulator.core.scenario import load_scenario
from simulator.core.session import Session
from simulator.core.view import force_selections


@pytest.mark.parametrize("points, height", [(10, 36), (12, 48)])
def test_bigger_clash_of_steel_rolls_eight_dice_without_activation_pool(points: int, height: int) -> None:
    s = Session.new(f"saga/clash-of-steel-{points}", seed=1, tape=list("CCCUURCC"))
    assert (s.state["table"]["width"], s.state["table"]["height"], s.state["dice_cap"]) == (76, height, 8)
    s.apply({"type": "roll_dice"})
    dice = s.state["sides"]["vikings"]["dice"]
    assert [d["face"] for d in dice] == ["C", "C", "C", "U", "U", "R", "C", "C"]   # 8 dice, not 6 (SAGA p.58)
    assert not any(a.get("box") == "activation_pool" for a in s.legal_actions())
    with pytest.raises(IllegalAction, match="no effect in 10- and 12-point"):
        s.apply({"type": "place_die", "die": 0, "box": "activation_pool"})
    s.apply({"type": "place_die", "die": 0, "box": "bondi"})                      # other boxes as usual
    sel = force_selections(load_scenario(f"saga/clash-of-steel-{points}"))
    assert [x.budget for x in sel] == [points, points]
    rules = get_game("saga").forces()
    assert all(rules.check_forces(load_scenario(f"saga/clash-of-steel-{points}"), x.player, x.suggested) == []
               for x in sel)


def test_six_point_games_keep_the_activation_pool() -> None:
    s = Session.new("saga/s1-warlords-fury", seed=1, tape=list("CCCCCC"))
    s.apply({"type": "roll_dice"})
    assert sum(d["face"] is not None for d in s.state["sides"]["vikings"]["dice"]) == 6
    s.apply({"type": "place_die", "die": 0, "box": "activation_pool"})
