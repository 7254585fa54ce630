"""Malformed action parameters never break the SAGA rules (issue #26): every action type, sent
with values of the wrong kind, not finite numbers and impossible ids in each of its parameters,
is refused with ``IllegalAction`` naming the parameter or the rule, never a TypeError or a
ValueError from inside the rules or numpy. The rules are called straight (``Game.apply``), so
the core's parameter check does not shield them."""

from __future__ import annotations

import math
from typing import Any

import pytest

from simulator.core import IllegalAction, Session
from simulator.core.game import Context
from simulator.core.plain import copy_plain
from tests.saga.helpers import engage_from, give_dice, session, to_activation

NAN, INF = float("nan"), float("inf")

#: Values of the wrong kind for any parameter.
BAD: list[Any] = [None, True, -1, 1.5, NAN, -INF, "x", [], [None], [NAN, 0], [[1, 2]], {"x": 1}]

#: The parameters each action type reads, with values that need a figure or unit id to reach deeper.
PARAMS: dict[str, list[str]] = {
    "roll_dice": ["keep", "raider", "second"], "place_die": ["die", "box"], "reroll_dice": ["dice"],
    "wrath": ["unit", "dice"], "use_ability": ["box", "face", "choice", "target", "targets", "unit", "dice",
                                              "set_face", "figures", "amount", "attack", "order", "for_unit"],
    "activate": ["unit", "source", "order", "we_obey", "we_obey_order", "side_by_side"],
    "move": ["to", "dx", "dy", "path"], "engage": ["target"], "shoot": ["target"], "melee_trade": ["trade"],
    "spend_fatigue": ["effect", "for_unit", "unit"], "ready": ["at_warlord"], "remove_casualties": ["figures"],
    "bodyguards": ["figures"], "defend_building": ["unit"], "withdraw": ["to", "dx", "dy"],
    "expert_rider": ["dice"], "conqueror": ["for_unit"], "bid": ["points"], "muster": ["dismiss"],
    "scenery_number": ["number"], "choose_terrain": ["terrain"], "choose_edge": ["edge"],
    "choose_village": ["large"], "turn_waiting": ["unit", "piece", "facing"],
    "place_terrain": ["at", "facing", "piece"], "deploy": ["unit", "at", "facing", "to"],
}


def _figure_maps(fid: str) -> list[Any]:
    """``to``/``path`` values naming a real figure with broken points."""
    return [{fid: [NAN, 1.0]}, {fid: [INF, 1.0]}, {fid: [1.0, "a"]}, {fid: [None, None]}, {fid: "x"},
            {fid: [[NAN, 1.0]]}, {fid: [[1.0, 2.0], [INF, 2.0]]}, {fid: [1.0, 2.0, 3.0]}, {fid: []}]


def _send_all(s: Session, extra: dict[str, Any] | None = None, types: list[str] | None = None) -> int:
    """Send every malformed variant of every action type to the rules; returns how many."""
    game, state = s.game, s.state_data()
    figure = next(iter(state["figures"]), "none")
    sent = 0
    broken: dict[tuple[str, str, str], str] = {}
    for kind in types or list(PARAMS):
        base: dict[str, Any] = {"type": kind, **(extra or {}).get(kind, {})}
        for param in PARAMS[kind]:
            values = BAD + (_figure_maps(figure) if param in ("to", "path") else [])
            for value in values:
                action = {**base, param: value}
                try:
                    game.apply(copy_plain(state), copy_plain(action), Context(s.dice, s.scenario))
                except IllegalAction:
                    pass
                except Exception as exc:                     # pragma: no cover - the failure's report
                    broken.setdefault((kind, param, type(exc).__name__), f"{value!r}: {exc}")
                sent += 1
    assert not broken, "\n".join(f"{k} {p}: {e} with {v}" for (k, p, e), v in broken.items())
    return sent


def _duel() -> Session:
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lev", "class": "levies", "figures": 6, "at": [20, 10], "columns": 6},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 14], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}])
    return s


def test_the_orders_phase_refuses_malformed_parameters() -> None:
    s = _duel()
    _send_all(s, types=["roll_dice"])
    s.apply({"type": "roll_dice", "keep": []})
    assert _send_all(s, types=["place_die", "reroll_dice", "wrath", "use_ability", "bid", "muster", "scenery_number",
                               "choose_terrain", "choose_village", "deploy"]) > 200


def test_the_activation_phase_and_a_move_refuse_malformed_parameters() -> None:
    s = _duel()
    to_activation(s)
    give_dice(s, "A", [("C", "bondi"), ("U", "thralls"), ("R", "slaughter")])
    _send_all(s, types=["activate", "use_ability", "defend_building", "withdraw", "remove_casualties", "bodyguards"])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    _send_all(s, types=["move", "engage"])


def test_a_melee_and_a_shot_refuse_malformed_parameters() -> None:
    s = _duel()
    to_activation(s)
    give_dice(s, "A", [("C", "bondi"), ("U", "thralls"), ("R", "slaughter")])
    engage_from(s, "w", "bondi", "hg")
    _send_all(s, types=["use_ability", "spend_fatigue", "ready", "expert_rider", "conqueror", "melee_trade"])
    s2 = _duel()
    to_activation(s2)
    give_dice(s2, "A", [("U", "thralls")])
    s2.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s2.apply({"type": "shoot", "target": "hg"})
    _send_all(s2, types=["use_ability", "spend_fatigue", "ready", "shoot"])


def test_the_players_set_up_refuses_malformed_parameters() -> None:
    s = Session.new("saga/s1-warlords-fury-players", seed=1)
    while True:
        kinds = {a["type"] for a in s.legal_actions()}
        _send_all(s, types=sorted(kinds & set(PARAMS)))
        if "deploy" in kinds or s.state["phase"] != "setup":
            _send_all(s, types=["turn_waiting"])
            break
        s.apply(s.legal_actions()[0])
    assert "deploy" in kinds


def test_a_refusal_names_the_parameter_of_a_coordinate_that_is_not_finite() -> None:
    s = _duel()
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    state = s.state_data()
    for action, name in (({"type": "move", "dx": NAN, "dy": 0}, "dx"), ({"type": "move", "to": {"w.1": [1, INF]}}, "to"),
                         ({"type": "move", "path": {"w.1": [[NAN, 1], [2, 2]]}}, "path")):
        with pytest.raises(IllegalAction, match=name):
            s.game.apply(copy_plain(state), action, Context(s.dice, s.scenario))
    assert math.isfinite(s.state["figures"]["w.1"]["x"])
