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


def _warlords(points: int, extra: int):
    from tests.saga.helpers import session
    spots = [[14, 3], [6, 3], [30, 3]]                  # within S of the Hearthguard, but the last
    lords = [{"id": "lord", "class": "warlord", "at": [10, 3]}] + \
        [{"id": f"lord{k + 2}", "class": "warlord", "at": spots[k]} for k in range(extra)]
    return session(lords + [{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 6], "columns": 4}],
                   [{"id": "el", "class": "warlord", "at": [40, 33]},
                    {"id": "war", "class": "warriors", "figures": 8, "at": [10, 30], "columns": 4}],
                   points=points)


def test_a_second_warlord_at_ten_points() -> None:
    from simulator.core import IllegalAction
    from simulator.games.saga import victory
    from simulator.games.saga.units import warlord
    from tests.saga.helpers import to_activation
    s = _warlords(10, 1)
    lord2 = s.state["units"]["lord2"]
    assert lord2["extra_warlord"] and lord2["lesser"] and warlord(s.state_data(), "A")["id"] == "lord"
    to_activation(s)
    legal = s.legal_actions()
    assert any(a.get("unit") == "lord2" and a.get("source") == "determination" for a in legal)
    assert not any(a.get("unit") == "lord2" and "we_obey" in a for a in legal)
    assert any(a.get("unit") == "lord" and a.get("we_obey") == "hg" for a in legal)
    with pytest.raises(IllegalAction, match="no We Obey"):
        s.apply({"type": "activate", "unit": "lord2", "source": "determination", "order": "move", "we_obey": "hg"})
    s._state["units"]["lord2"]["figures"] = []                 # the second Warlord falls: the game goes on
    del s._state["figures"]["lord2"]
    s._state["losses"]["A"]["extra_warlord"] = 1
    assert s.outcome() is None and victory.kill_vp(s.state_data(), "B") == 2


def test_three_warlords_at_twelve_points_all_with_we_obey() -> None:
    from tests.saga.helpers import to_activation
    s = _warlords(12, 2)
    assert not s.state["units"]["lord3"]["lesser"]
    to_activation(s)
    assert any(a.get("unit") == "lord3" and a.get("we_obey") for a in s.legal_actions())


def test_extra_warlords_only_in_big_games() -> None:
    from simulator.core.errors import DataError
    with pytest.raises(DataError, match="exactly one Warlord"):
        _warlords(8, 1)
    with pytest.raises(DataError, match="one to 2 Warlords at 10 points"):
        _warlords(10, 2)
    with pytest.raises(DataError, match="one to 3 Warlords at 12 points"):
        _warlords(12, 3)


@pytest.mark.parametrize("points, most", [(10, 1), (12, 2)])
def test_the_screen_offers_extra_warlords(points: int, most: int) -> None:
    from simulator.core.scenario import scenario_from_data
    sc = load_scenario(f"saga/clash-of-steel-{points}")
    rules = get_game("saga").forces()
    sel = rules.force_selection(sc, "vikings")
    assert sel.option("warlord-extra").max == most and sel.option("warlord-extra").cost == 1
    chosen = dict(sel.suggested)
    assert chosen["warlord-extra"] == most                      # the suggested warband takes them (SAGA p.58)
    chosen["warlord-extra"] = most - 1
    chosen["hearthguard-4"] += 1                                # a point of Hearthguard instead of one of them
    assert rules.check_forces(sc, "vikings", chosen) == []
    chosen["warlord-extra"] = most
    assert any("costs" in p.message for p in rules.check_forces(sc, "vikings", chosen))
    chosen["hearthguard-4"] -= 1                                # one point less of Hearthguard pays for him
    assert rules.check_forces(sc, "vikings", chosen) == []
    other = force_selections(sc)[1]
    data = rules.build_scenario(sc, {"vikings": chosen, other.player: other.suggested})
    s = Session(get_game("saga"), scenario_from_data(data, f"saga/clash-of-steel-{points}"), 0)
    lords = [u for u in s.state["units"].values() if u["owner"] == "vikings" and u["cls"] == "warlord"]
    assert len(lords) == 1 + most and [bool(u.get("extra_warlord")) for u in lords] == [False] + [True] * most
    assert lords[1]["lesser"] == (points == 10)
