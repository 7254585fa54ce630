"""Malformed action parameters never crash Dragon Rage's rules (issue 25): every handler refuses
them with IllegalAction naming the rule. The game's own ``apply`` is called directly, so the core's
schema check in front of it (if any) cannot hide a crash."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.core.dice import Dice
from simulator.core.errors import DiceExhausted, IllegalAction
from simulator.core.game import Context
from simulator.core.plain import copy_plain
from tests.dragon_rage.helpers import session, to_phase

#: Values of the wrong shape: lists where a label or an id is expected, mappings, numbers, nothing.
BAD: list[Any] = [[], {}, [[]], [{}], 1.5, None, "zz"]


def _refused_cleanly(s, action: dict[str, Any]) -> None:
    """The game refuses ``action`` with a rule, or accepts it; it never raises anything else."""
    ctx = Context(Dice(1), s.scenario)
    try:
        s.game.apply(copy_plain(s.state_data()), copy_plain(action), ctx)
    except (IllegalAction, DiceExhausted) as exc:
        assert not isinstance(exc, IllegalAction) or exc.rule.startswith("DR")


def _battle():
    return session({"invader": [{"type": "dragon", "at": ["1004"], "facing": "S"},
                                {"type": "invader_wizard", "at": ["1105"]}, {"type": "goblins", "at": ["1104"]}],
                    "defender": [{"type": "infantry", "at": ["1005"]}, {"type": "wizard", "at": ["1106"]},
                                 {"type": "archers", "at": ["1006"]}]})


def _wild_elemental():
    """elm1 (defender's) breaks free on turn 2; the invader owes its move in his movement phase."""
    s = session({"invader": [{"type": "orcs", "at": ["2208"]}], "defender": [{"type": "wizard", "at": ["0404"]}]})
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "0406", "element": "earth"})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "elm1", "to": "0409"})
    s.apply({"type": "move", "unit": "wizard1", "to": "0403"})
    to_phase(s, "invader_move")
    return s


@pytest.mark.parametrize("phase,action", [
    ("invader_melee", {"type": "melee", "units": [[]], "target": "1005"}),
    ("invader_melee", {"type": "melee", "units": [{}], "target": "1005"}),
    ("defender_fire", {"type": "fire", "units": [[]], "target": "1104"}),
    ("defender_fire", {"type": "fire_at_monster", "unit": "arh1", "monster": "dragon1", "area": []}),
    ("defender_melee", {"type": "attack_monster", "unit": "inf1", "monster": "dragon1", "area": {}}),
    ("invader_spell", {"type": "cast", "unit": "wzd1", "spell": "lightning", "target": "1005",
                       "target_unit": []}),
    ("invader_spell", {"type": "cast", "unit": "wzd1", "spell": "dismiss_elemental", "target_unit": {}}),
])
def test_named_malformed_parameters_are_refused_with_a_rule(phase: str, action: dict[str, Any]) -> None:
    s = _battle()
    to_phase(s, phase)
    ctx = Context(Dice(1), s.scenario)
    with pytest.raises(IllegalAction) as exc:
        s.game.apply(copy_plain(s.state_data()), action, ctx)
    assert exc.value.rule.startswith("DR 2")


def test_a_wild_elementals_move_to_a_list_is_refused() -> None:
    s = _wild_elemental()
    assert s.state["units"]["elm1"]["controlled"] is False
    with pytest.raises(IllegalAction) as exc:
        s.game.apply(copy_plain(s.state_data()), {"type": "move", "unit": "elm1", "to": []},
                     Context(Dice(1), s.scenario))
    assert exc.value.rule.startswith("DR 2")


@pytest.mark.parametrize("phases", [("invader_spell", "invader_move", "invader_fire", "invader_melee",
                                     "defender_fire", "defender_melee")])
def test_every_parameter_of_every_offered_action_survives_bad_values(phases: tuple[str, ...]) -> None:
    """Each kind of action the legal list offers, with each of its parameters replaced in turn by
    values of the wrong shape, is refused (or accepted) by the rules, never crashes them."""
    for s, own in ((_battle(), phases), (_wild_elemental(), ("invader_move",))):
        for phase in own:
            to_phase(s, phase)
            seen: set[tuple[Any, ...]] = set()
            for action in s.legal_actions():
                sig = (action["type"], action.get("spell"), action.get("unit"))
                if sig in seen or action["type"] == "end_phase":
                    continue
                seen.add(sig)
                for key in set(action) - {"type"}:
                    for bad in BAD:
                        _refused_cleanly(s, {**action, key: bad})
