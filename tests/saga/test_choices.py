"""Players choose their casualties (SAGA p.17, p.22) and place a withdrawing unit (SAGA p.22
step 8), with the engine's choice as the default offered first."""

import pytest

from simulator.core import IllegalAction
from simulator.games.saga.units import figure_array, removal_order, unit_gap
from tests.saga.helpers import engage_from, give_dice, session, to_activation

MELEE_TAPE = [4, 4, 4, 1, 1, 1, 1, 1,      # Hearthguard's 8 dice vs armour 4: 3 hits
              5, 1,                        # Warriors' 2 dice vs armour 5: 1 hit
              6, 1, 1, 1,                  # Warriors' defence: one hit cancelled -> 2 casualties
              2, 2]                        # Hearthguard's defence fails -> 1 casualty


def _melee_to_casualties(player_choices: bool = True):
    s = session([{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 4, "at": [10, 14], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}],
                faction_b="vikings", tape=list(MELEE_TAPE))
    s._state["rules"]["player_choices"] = player_choices
    to_activation(s)
    give_dice(s, "A", [("C", "hirdmen")])
    engage_from(s, "hg", "hirdmen", "war", trade=True)
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})
    return s


def test_defender_picks_casualties_first_keeping_formation() -> None:
    s = _melee_to_casualties()
    m = s.state["melee"]
    assert m["step"] == "casualties" and s.state["active"] == "B"
    legal = s.legal_actions()
    assert all(a["type"] == "remove_casualties" for a in legal) and len(legal) > 1
    # the first option is the engine's pick (farthest from the enemy, formation kept)
    st = s.state_data()
    assert legal[0]["figures"] == removal_order(st, "war", figure_array(st, st["units"]["hg"]["figures"]))[:2]
    with pytest.raises(IllegalAction, match="formation"):
        s.apply({"type": "remove_casualties", "figures": ["war.2", "war.3"]})   # the ends would stand apart
    with pytest.raises(IllegalAction, match="2 different"):
        s.apply({"type": "remove_casualties", "figures": ["war.1"]})
    with pytest.raises(IllegalAction, match="not a living figure"):
        s.apply({"type": "remove_casualties", "figures": ["war.1", "hg.1"]})
    with pytest.raises(IllegalAction, match="nothing to be ready|the defender decides"):
        s.apply({"type": "ready"})
    s.apply({"type": "remove_casualties", "figures": ["war.1", "war.2"]})
    assert s.state["units"]["war"]["figures"] == ["war.3", "war.4"]
    # then the attacker picks his one casualty
    assert s.state["melee"]["step"] == "casualties" and s.state["active"] == "A"
    s.apply({"type": "remove_casualties", "figures": ["hg.2"]})
    assert s.state["units"]["hg"]["figures"] == ["hg.1", "hg.3", "hg.4"]
    assert s.state["losses"]["B"]["warriors"] == 2 and s.state["losses"]["A"]["hearthguard"] == 1
    assert s.state["units"]["hg"]["fatigue"] == 1 and s.state["units"]["war"]["fatigue"] == 1
    assert s.state["melee"]["step"] == "withdraw" and s.state["active"] == "B"


def test_loser_places_its_withdrawal() -> None:
    s = _melee_to_casualties()
    s.apply({"type": "remove_casualties", "figures": ["war.1", "war.4"]})
    s.apply({"type": "remove_casualties", "figures": ["hg.4"]})
    w = s.state["melee"]["withdrawing"]
    assert w["unit"] == "war" and w["away_from"] == "hg" and w["is_loser"]
    legal = s.legal_actions()
    assert legal[0] == {"type": "withdraw", "to": w["default"]} and len(legal) >= 2
    with pytest.raises(IllegalAction, match="within VS"):
        s.apply({"type": "withdraw", "dx": 0, "dy": 1.5})
    with pytest.raises(IllegalAction, match="may move only 4"):
        s.apply({"type": "withdraw", "dx": 0, "dy": 4.5})
    with pytest.raises(IllegalAction, match="within VS"):          # one figure left behind
        s.apply({"type": "withdraw", "to": {"war.2": [9.25, 18.0], "war.3": [10.75, 14.0]}})
    with pytest.raises(IllegalAction, match="name each figure"):
        s.apply({"type": "withdraw", "to": {"war.2": [9.25, 18.0]}})
    # the owner's own placement: back, the right-hand figure a little apart
    s.apply({"type": "withdraw", "to": {"war.2": [9.25, 18.0], "war.3": [11.0, 17.9]}})
    assert s.state["melee"] is None and s.state["active"] == "A"
    f = s.state["figures"]
    assert (f["war.2"]["x"], f["war.2"]["y"]) == (9.25, 18.0) and (f["war.3"]["x"], f["war.3"]["y"]) == (11.0, 17.9)
    assert unit_gap(s.state_data(), "hg", "war") > 2
    assert any(e.kind == "disengage" and "fewer casualties" in e.text for e in s.log)


def test_shooting_target_picks_casualties() -> None:
    brush = {"id": "brush", "type": "brush", "polygon": [[6, 16], [16, 16], [16, 22], [6, 22]]}
    s = session([{"id": "lev", "class": "levies", "figures": 6, "at": [10, 8], "columns": 6},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 4, "at": [11, 19], "columns": 2},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], terrain=[brush],
                tape=[4, 4, 6, 3, 2, 1])
    to_activation(s)
    give_dice(s, "A", [("U", "thralls")])
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s.apply({"type": "shoot", "target": "war"})
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})
    sh = s.state["shooting"]
    assert sh["step"] == "casualties" and sh["hits"] == 2 and s.state["active"] == "B"
    assert s.legal_actions()[0]["type"] == "remove_casualties"
    with pytest.raises(IllegalAction, match="the shot is being resolved"):
        s.apply({"type": "ready"})
    s.apply({"type": "remove_casualties", "figures": ["war.1", "war.2"]})   # the front rank falls
    assert s.state["shooting"] is None and s.state["units"]["war"]["figures"] == ["war.3", "war.4"]
    assert s.state["kills"]["A"]["warriors"] == 2 and s.state["active"] == "A"


def test_engine_choices_when_the_switch_is_off() -> None:
    s = _melee_to_casualties(player_choices=False)
    assert s.state["melee"] is None
    assert len(s.state["units"]["war"]["figures"]) == 2 and len(s.state["units"]["hg"]["figures"]) == 3
    assert unit_gap(s.state_data(), "hg", "war") > 2
