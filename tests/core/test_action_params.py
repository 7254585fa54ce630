"""Action specifications (core/actions.py): every game declares every action type, the declared
parameters never refuse a legal action, and a malformed one is refused before any rule runs,
naming the parameter, with the state unchanged."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from simulator.core import IllegalAction, Session
from simulator.core.actions import (ActionSpec, ActionTable, check_params, checker_for, integer, number, params,
                                    piece, render_docs)
from simulator.core.registry import get_game
from simulator.core.scenario import list_scenarios
from tests.core.toygame import Race
from tests.test_legal_consistency import short_game

GAMES = ("asoiaf", "dragon_rage", "saga", "vikings")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_action_type_has_a_specification(game_id: str) -> None:
    game = get_game(game_id)
    specs = game.action_specs()
    assert set(specs) == set(game.action_types())
    for kind, spec in specs.items():
        assert spec.type == kind and spec.rule and spec.summary and spec.label, kind
        assert spec.params["type"] == "object" and spec.params["additionalProperties"] is False, kind
        for name, schema in spec.params["properties"].items():
            assert "x-expected" in schema, f"{kind}.{name} does not say what it expects"
    checker_for(game)          # every schema compiles


# --- the schemas never refuse a legal action --------------------------------------------------
#: Actions played per game, over its first scenarios (a short seeded random play-out each).
PLAYED = {"dragon_rage": 90, "vikings": 90, "saga": 45, "asoiaf": 45}
SCENARIOS = 3


def _extra(session: Session) -> list[dict[str, Any]]:
    """The normal computer player's own candidates, applied through the session too."""
    profile = session.game.ai_profile()
    if profile.extra_actions is None or session.active_player() is None:
        return []
    return list(profile.extra_actions(session.state_data(), session.active_player()))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_fits_its_declared_parameters(game_id: str) -> None:
    ids = [sid for sid, _ in list_scenarios() if sid.startswith(f"{game_id}/")][:SCENARIOS]
    checker, specs = checker_for(get_game(game_id)), get_game(game_id).action_specs()
    seen: set[str] = set()
    for i, sid in enumerate(ids):
        session, rng = short_game(sid, i), random.Random(i)
        for _ in range(PLAYED[game_id] // len(ids)):
            if session.outcome() is not None:
                break
            offered = session.legal_actions()
            for action in offered + _extra(session):
                problem = checker.problem(action)
                assert problem is None, f"{sid}: the declared parameters refuse a legal action {action}: {problem}"
                assert checker.full_check_agrees(action), action
                seen.add(action["type"])
            state = session.state_data()
            for action in offered:          # every offered action reads in words, no template left
                label = specs[action["type"]].describe(state, action)
                assert label and "{" not in label and "[" not in label, (label, action)
            session.apply(rng.choice(offered))
    assert len(seen) >= 3, seen


# --- malformed parameters: one refusal naming the parameter, nothing changed -------------------
@pytest.fixture(scope="module")
def dragon() -> Session:
    return Session.new("dragon_rage/esirien-1-fury", seed=2)


@pytest.mark.parametrize("action, words", [
    ({"type": "fire", "units": ["inf1"], "target": ["0707"]}, "fire.target: expected a hex label (text), got a list"),
    ({"type": "fire", "units": "inf1", "target": "0707"}, "fire.units: expected a list of unit ids, got the text"),
    ({"type": "fire", "units": ["inf1"]}, "fire.target: missing"),
    ({"type": "fire", "units": ["inf1"], "target": "0707", "range": 3},
     "fire.range: unknown parameter (fire takes units, target)"),
    ({"type": "fire", "units": [["inf1"]], "target": "0707"}, "fire.units[0]: expected a unit id (text), got a list"),
    ({"type": "rotate", "unit": "dragon1", "facing": math.nan}, "rotate.facing: expected a facing 0-5 (N, NE, SE, S, "
                                                                "SW, NW), got the number nan"),
    ({"type": "rotate", "unit": "dragon1", "facing": math.inf}, "rotate.facing: expected a facing 0-5"),
    ({"type": "melee", "units": ["inf1"], "target": "1112", "boost_instead": [math.nan]},
     "melee.boost_instead[0]: expected a unit id (text), got the number nan"),
    ({"type": "rotate", "unit": "dragon1", "facing": 6}, "rotate.facing: expected a facing 0-5"),
    ({"type": "rotate", "unit": "dragon1", "facing": 2.0}, "rotate.facing: expected a facing 0-5"),
    ({"type": "rotate", "unit": "dragon1", "facing": 10 ** 30}, "rotate.facing: expected a facing 0-5"),
    ({"type": "rotate", "unit": None, "facing": 1}, "rotate.unit: expected a unit id (text), got null"),
    ({"type": "end_phase", "now": True}, "end_phase.now: unknown parameter (end_phase takes no parameters)"),
    ({"type": "walk", "unit": "dragon1"}, "walk: give path or to"),
    ({"type": "cast", "unit": "wizard1", "spell": "fireball"}, "cast.spell: expected one of boost_morale"),
    ({"type": "slither", "unit": "dragon1", "turn": True},
     "slither.turn: expected a whole number from -1 to 1, got true"),
])
def test_malformed_parameters_are_refused_naming_them(dragon: Session, action: dict[str, Any], words: str) -> None:
    before, digest = dragon.state_data(), dragon.log_digest()
    with pytest.raises(IllegalAction) as err:
        dragon.apply(action)
    assert str(err.value).startswith(words), str(err.value)
    spec = get_game("dragon_rage").action_specs()[action["type"]]
    # the parameter's own rule where its schema names one (x-rule), else the action's
    assert err.value.rule == ("DR 2.8.5" if "boost_instead" in action else spec.rule)
    assert "\n" not in str(err.value)
    refused = dragon.check(action)
    assert refused is not None and refused.reason == err.value.reason
    assert dragon.state_data() == before and dragon.log_digest() == digest


def test_the_check_comes_before_any_rule(race) -> None:
    """The toy race changes its copy and refuses a bad jump itself; with a declared schema the
    session refuses first, in the schema's words, and the game is never called."""
    class Declared(Race):
        calls = 0

        def action_specs(self) -> ActionTable:
            return ActionTable([ActionSpec("jump", "{steps} steps", params({"steps": integer(1, 6)},
                                                                           {"speed": number()}), "RACE 3"),
                                ActionSpec("roll", "Roll", params(), "RACE 1")])

        def apply(self, state: Any, action: Any, ctx: Any) -> None:
            Declared.calls += 1
            super().apply(state, action, ctx)

    game = Declared()
    s = Session(game, race, seed=1)
    with pytest.raises(IllegalAction, match=r"^jump.steps: expected a whole number from 1 to 6, got the text '3'"):
        s.apply({"type": "jump", "steps": "3"})
    with pytest.raises(IllegalAction, match="jump.steps: missing"):
        s.apply({"type": "jump"})
    # JSON Schema's "number" takes NaN, infinities and any whole number in Python; the check does not
    for bad, words in ((math.nan, "a finite number, got nan"), (-math.inf, "a finite number, got -inf"),
                       (10 ** 40, "a whole number within")):
        with pytest.raises(IllegalAction, match=f"^jump.speed: expected {words}"):
            s.apply({"type": "jump", "steps": 2, "speed": bad})
    assert Declared.calls == 0
    s.apply({"type": "jump", "steps": 3})                 # valid: the rules decide as before
    assert Declared.calls == 1 and s.state["pos"]["A"] == 3
    s.apply({"type": "bet", "anything": [1]})             # a type without a spec is not checked
    assert game.action_specs()["jump"].describe(s.state_data(), {"type": "jump", "steps": 2}) == "2 steps"


def test_labels_and_checks_of_a_spec() -> None:
    spec = ActionSpec("shoot", lambda state, action: f"{action['unit']} shoots at {state['who']}",
                      params({"unit": piece()}), "X 1")
    assert spec.describe({"who": "B"}, {"type": "shoot", "unit": "a"}) == "a shoots at B"
    templated = ActionSpec("bound", "{unit} bounds to {to} over {path}", params({"unit": piece()}), "X 2")
    assert templated.describe({}, {"type": "bound", "unit": "d1", "path": ["0102", "0103"]}) \
        == "d1 bounds to {to} over 0102, 0103"
    with pytest.raises(ValueError, match="declared twice"):
        ActionTable([spec, spec])


def test_a_saved_or_scripted_action_is_checked_too(tmp_path) -> None:
    from simulator.core.script import run_script

    script = tmp_path / "bad.yaml"
    script.write_text("scenario: dragon_rage/esirien-1-fury\nseed: 1\nactions:\n"
                      "  - {type: fire, units: inf1, target: '0707', expect_illegal: fire.units}\n"
                      "  - {type: fire, units: [inf1], target: [1, 2]}\n", encoding="utf-8")
    result = run_script(script)
    assert result.refused and result.refused[0]["reason"].startswith("fire.units: expected a list")
    assert result.stopped and "fire.target: expected a hex label" in result.stopped


def test_checkers_are_built_once_per_game() -> None:
    game = get_game("vikings")
    assert checker_for(game) is checker_for(game)
    check_params(game, {"type": "ship_move", "ship": "d", "move": "straight"})
    with pytest.raises(IllegalAction, match="ship_move.move: expected one of straight"):
        check_params(game, {"type": "ship_move", "ship": "d", "move": "sideways"})


def test_docs_render_every_game() -> None:
    text = render_docs([get_game(g) for g in GAMES])
    for g in GAMES:
        game = get_game(g)
        assert f"## {game.name}" in text
        assert all(f"| `{kind}` |" in text for kind in game.action_types())
