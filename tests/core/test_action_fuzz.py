"""Fuzzing the parameters of every action type of every game (issue 25, 5b).

In a few reachable positions of each game (set-up, then seeded random legal actions), every
action type is sent well-formed parameters with one of them spoiled: the wrong type or shape
(lists for text, text for numbers, nested lists, mappings, null), NaN, infinities, huge whole
numbers, a required parameter missing, an unknown one added. Each must end in one
IllegalAction, on one line, with the state and the log exactly as they were. Hypothesis runs
derandomized with a fixed budget, so every run tries the same cases.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any, Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.core import IllegalAction, Session
from simulator.core.actions import checker_for
from simulator.core.registry import get_game
from tests.test_legal_consistency import short_game

#: A scenario of each game and how many random legal actions lead to each position fuzzed.
POSITIONS = {"dragon_rage": ("dragon_rage/esirien-1-fury", (0, 12)),
             "vikings": ("vikings/village_raid", (0, 15)),
             "saga": ("saga/s1-warlords-fury-players", (0, 8)),
             "asoiaf": ("asoiaf/game-of-thrones", (0, 10))}

NOT_PLAIN = [math.nan, math.inf, -math.inf, 10 ** 40, -(10 ** 40)]
SHAPES = [[], ["x"], [[1, 2]], [[["deep"]]], {"a": 1}, {"a": [math.nan]}, None, "text", "", True, 3.5, -7, 0]


def _types(schema: Mapping[str, Any]) -> set[str]:
    """The JSON types a parameter schema admits."""
    if "anyOf" in schema:
        return set().union(*(_types(s) for s in schema["anyOf"]))
    t = schema.get("type")
    return set(t) if isinstance(t, list) else {t} if t else {"string", "integer", "number", "boolean", "array",
                                                          "object", "null"}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def wrong_for(schema: Mapping[str, Any], value: Any) -> bool:
    """``value`` is of a type ``schema`` does not admit (judged from the schema's types alone)."""
    kind, admitted = _json_type(value), _types(schema)
    return not (kind in admitted or (kind == "integer" and "number" in admitted))


def example(schema: Mapping[str, Any]) -> Any:
    """A well-formed (not necessarily legal) value of ``schema``."""
    if "properties" in schema:        # an action's parameters (its anyOf are alternatives)
        groups = schema.get("x-alternatives", [[]])
        return {k: example(schema["properties"][k]) for k in [*schema.get("required", ()), *groups[0]]}
    if "anyOf" in schema:
        return example(schema["anyOf"][0])
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "string":
        return "x1"
    if kind in ("integer", "number"):
        return max(schema.get("minimum", 0), min(schema.get("maximum", 1), 1))
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind == "array":
        return [example(schema["items"]) for _ in range(schema.get("minItems", 0))]
    return {}


@lru_cache(maxsize=None)
def positions(game_id: str) -> tuple[Session, ...]:
    sid, counts = POSITIONS[game_id]
    out = []
    for n in counts:
        session, rng = short_game(sid, n), random.Random(n)
        for _ in range(n):
            if session.outcome() is not None:
                break
            session.apply(rng.choice(session.legal_actions()))
        out.append(session)
    return tuple(out)


@st.composite
def spoiled(draw: st.DrawFn, game_id: str) -> tuple[int, dict[str, Any]]:
    """A position and an action of some type of the game with one parameter spoiled."""
    specs = get_game(game_id).action_specs()
    kind = draw(st.sampled_from(sorted(specs)))
    schema = specs[kind].params
    action = {"type": kind, **example(schema)}
    props = schema["properties"]
    how = draw(st.sampled_from(["wrong", "not_plain", "missing", "unknown"]))
    if how == "missing" and schema["required"]:
        del action[draw(st.sampled_from(schema["required"]))]
    elif how == "unknown" or not props:
        action[draw(st.sampled_from(["zz", "extra", "Type", "units_"]))] = draw(st.sampled_from(SHAPES))
    else:
        name = draw(st.sampled_from(sorted(props)))
        if how == "not_plain":
            value = draw(st.sampled_from(NOT_PLAIN))
            inner = example(props[name])
            # a non-finite number where a number goes, or inside the list the parameter takes
            action[name] = [value] if isinstance(inner, list) else value
        else:
            action[name] = draw(st.sampled_from([v for v in SHAPES if wrong_for(props[name], v)] or [None]))
            if not wrong_for(props[name], action[name]):
                action[name] = [[action[name]]]
    return draw(st.integers(0, len(POSITIONS[game_id][1]) - 1)), action


@pytest.mark.parametrize("game_id", sorted(POSITIONS))
def test_spoiled_parameters_are_refused_and_change_nothing(game_id: str) -> None:
    sessions = positions(game_id)

    @settings(max_examples=120, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(spoiled(game_id))
    def run(case: tuple[int, dict[str, Any]]) -> None:
        index, action = case
        session = sessions[index]
        before, digest = session.state_data(), session.log_digest()
        with pytest.raises(IllegalAction) as err:
            session.apply(action)
        assert "\n" not in str(err.value) and err.value.reason
        assert session.check(action) is not None
        assert checker_for(session.game).full_check_agrees(action), action
        assert session.log_digest() == digest and session.state_data() == before

    run()


def test_the_fuzzer_spoils_what_it_claims() -> None:
    """Its notion of a wrong type agrees with the schemas (an independent reading of them)."""
    assert wrong_for({"type": "string"}, ["x"]) and not wrong_for({"type": "string"}, "x")
    assert wrong_for({"type": "integer"}, 3.5) and wrong_for({"type": "boolean"}, 0)
    assert not wrong_for({"type": "number"}, 3) and wrong_for({"type": "integer"}, None)
    assert not wrong_for({"anyOf": [{"type": "string"}, {"type": "null"}]}, None)
    assert example({"type": "object", "properties": {"a": {"type": "integer", "minimum": 2}}, "required": ["a"]}) \
        == {"a": 2}
