"""Every ASOIAF action type with parameters of the wrong type or shape: a one-line IllegalAction
naming the parameter, never a traceback; NaN / infinite measures never reach the geometry."""

from __future__ import annotations

import math
from typing import Any

import pytest

from simulator.core.errors import IllegalAction
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.asoiaf.arguments import PARAMETERS
from simulator.games.asoiaf.rules import ACTIONS
from tests.asoiaf.helpers import guards, scenario, session, sworn

# The parameters each action type reads (ACTIONS describes them).
READS: dict[str, tuple[str, ...]] = {
    "maneuver": ("unit", "pivot", "distance", "facing", "card", "vp_token", "enter"),
    "march": ("unit", "distance", "facing", "card", "vp_token"),
    "retreat": ("unit", "direction", "distance", "facing", "card"),
    "attack": ("unit", "target", "attack", "align", "shift_direction", "shift", "card"),
    "charge": ("unit", "target", "facing", "attack", "arc", "align", "card"),
    "hold": ("unit", "card", "enter"),
    "activate": ("unit", "ncu"),
    "claim": ("ncu", "zone", "target", "condition", "pivot", "distance", "facing", "fetch", "replace"),
    "place_ncu": ("ncu", "quadrant"),
    "ncu_pass": ("ncu",),
    "respond": ("card",),
    "free_pivot": ("unit", "facing"),
    "free_maneuver": ("unit", "pivot", "distance", "facing"),
    "skip": ("unit",),
    "discard": ("cards",),
    "quadrant": ("unit", "quadrant"),
    "reroll": ("dice",),
    "order": ("use",),
    "push": ("unit", "x", "y"),
    "place_objective": ("objective", "x", "y"),
    "place_pile": ("x", "y"),
    "redeploy": ("unit", "x", "y", "facing"),
    "attack_terrain": ("unit", "terrain"),
    "deploy": ("unit", "x", "y", "facing"),
    "take_objective": ("unit",),
    "first_player": ("player",),
    "area": ("area", "give"),
    "reserve": ("units",),
    "place_terrain": ("kind", "x", "y", "rotation", "none"),
}
WRONG_TYPES = [["S1", "L1"], {"a": 1}, math.nan, math.inf, -math.inf, True, 3.5, "x"]
ODD_VALUES = [None, "", "no-such-id", 0, -1, 1e9, -1e9, 1e300, [], [0, 0, 0], [9, 9], ["S1"]]


# A well-formed value of each parameter (not necessarily legal where it is sent).
VALID: dict[str, Any] = {
    "unit": "S1", "ncu": "stark-N1", "zone": "crown", "terrain": "T1", "objective": "O1", "player": "stark",
    "area": "south", "kind": "forest", "direction": "back", "shift_direction": "left", "align": "centre",
    "card": None, "target": "L1", "condition": "panicked", "vp_token": None, "arc": None, "x": 10, "y": 10,
    "distance": 1, "facing": 90, "pivot": 90, "shift": 1, "rotation": 0, "attack": 0, "quadrant": 0,
    "dice": [], "cards": [], "units": [], "enter": [10, 10, 90], "use": True, "give": False, "none": False,
    "fetch": True, "replace": False,
}


def well_formed(kind: str) -> dict[str, Any]:
    return {"type": kind, **{k: VALID[k] for k in READS[kind]}}


def test_every_action_type_is_covered():
    assert set(READS) == set(ACTIONS)
    assert {p for ps in READS.values() for p in ps} == set(PARAMETERS)


def _activation() -> Session:
    return session(scenario([sworn("S1", (24, 18), 90), sworn("S2", (6, 4), robb=False)],
                            [guards("L1", (24, 22.72)), guards("L2", (44, 44), jaime=False)], ncus=True))


def _deployment() -> Session:
    sc = load_scenario("asoiaf/game-of-thrones")
    return Session.new(scenario_from_data(dict(sc.data, rules={"deployment": "players", "terrain": "players"}),
                                          "asoiaf/params"), 1)


def _reroll_pending() -> Session:
    s = session(scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                         [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first="lannister",
                         ncus=True), tape=[6] * 7 + [1] * 7 + [1, 1, 1] + [3])
    s.apply({"type": "hold", "unit": "L9"})
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "panicked"})
    s.apply({"type": "ncu_pass", "ncu": "lannister-N1"})
    s.apply({"type": "attack", "unit": "S1", "target": "L2", "attack": 0})
    return s


def _wrong_type(value: Any, check: Any) -> bool:
    return check(value) is not None


@pytest.mark.parametrize("make", [_activation, _deployment, _reroll_pending])
def test_wrong_types_are_refused_naming_the_parameter(make):
    s = make()
    before = s.state_data()
    for kind, params in READS.items():
        for key in params:
            for value in WRONG_TYPES:
                if not _wrong_type(value, PARAMETERS[key]):
                    continue
                with pytest.raises(IllegalAction) as err:
                    s.apply({**well_formed(kind), key: value})
                text = str(err.value)
                # the session's declared-parameter check (core/actions.py) or the game's own
                # (arguments.py) answers first; either names the action's parameter on one line
                assert (f"parameter '{key}'" in text or f"{kind}.{key}" in text) and "\n" not in text, text
    assert s.state_data() == before


@pytest.mark.parametrize("make", [_activation, _deployment, _reroll_pending])
def test_well_typed_odd_values_never_crash(make):
    """Values of the right type that the rules refuse (unknown ids, huge or negative measures, empty
    lists) end in IllegalAction or a legal action, never another exception."""
    s = make()
    first = s.legal_actions()[0]
    for kind, params in READS.items():
        for key in params:
            for value in ODD_VALUES:
                if _wrong_type(value, PARAMETERS[key]):
                    continue
                base = dict(first) if first["type"] == kind else {"type": kind}
                base[key] = value
                try:
                    s.apply(base)
                except IllegalAction as e:
                    assert "\n" not in str(e)
                else:       # legal after all: back to the position under test
                    s.undo()


def test_card_given_as_a_list_is_refused():
    """The reported crash: ``card: [a, b]`` raised TypeError in the activation."""
    s = _activation()
    with pytest.raises(IllegalAction, match="card"):
        s.apply({"type": "hold", "unit": "S1", "card": ["40201", "40202"]})
    with pytest.raises(IllegalAction, match="facing"):
        s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 2, "facing": math.nan})
    with pytest.raises(IllegalAction, match="distance"):
        s.apply({"type": "march", "unit": "S1", "distance": math.inf, "facing": 90})


def test_the_game_checks_shapes_itself_for_callers_that_bypass_the_session():
    """``Asoiaf.apply`` called directly (computer players' search copies, tools) refuses too."""
    from simulator.core.game import Context
    from simulator.games.asoiaf.rules import Asoiaf
    s = _activation()
    state = s.state_data()
    ctx = Context(s.dice, s.scenario)
    for action, key in (({"type": "hold", "unit": "S1", "card": ["40201", "40202"]}, "card"),
                        ({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 2, "facing": math.nan}, "facing"),
                        ({"type": "reroll", "dice": [True]}, "dice"),
                        ({"type": "charge", "unit": "S1", "target": "L1", "attack": 0.5}, "attack")):
        with pytest.raises(IllegalAction, match=f"parameter '{key}'"):
            Asoiaf().apply(state, action, ctx)
