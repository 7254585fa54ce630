"""Scripts: forced dice, expectations, refusals, JSON output, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from simulator.cli import main

RACE = Path(__file__).resolve().parent.parent / "data" / "bad" / "race.yaml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "script.yaml"
    path.write_text(text.replace("scenario: RACE", f"scenario: {RACE}"))
    return path


def test_script_with_forced_dice_and_expectations(race, tmp_path, capsys):
    script = write(tmp_path, """
scenario: RACE
seed: 4
dice: [6, 5]
actions:
  - {type: roll}
  - {type: roll, expect_illegal: "RACE 2", note: "only one roll a turn"}
  - {type: end_turn}
  - {type: roll}
expect:
  - {state: pos.A, equals: 6}
  - {state: pos.B, at_least: 5, at_most: 5}
  - {event: {kind: move, rule: "RACE 1"}, count: 2}
  - {no_event: {kind: bet}}
  - {outcome: null}
  - {dice_left: 0}
""")
    assert main(["run", str(script), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["state"]["pos"] == {"A": 6, "B": 5}
    assert out["refused"][0]["rule"] == "RACE 2"
    assert {"kind", "text", "rule", "data"} <= set(out["events"][0])


def test_failed_expectation_exits_1_and_says_which(race, tmp_path, capsys):
    script = write(tmp_path, """
scenario: RACE
dice: [2]
actions: [{type: roll}]
expect:
  - {state: pos.A, equals: 3}
""")
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert "expect[0] (line 6)" in err and "expected equals 3" in err


def test_unexpected_illegal_action_stops_with_reason(race, tmp_path, capsys):
    script = write(tmp_path, """
scenario: RACE
dice: [2]
actions:
  - {type: end_turn}
  - {type: roll}
""")
    assert main(["run", str(script)]) == 1
    err = capsys.readouterr().err
    assert "actions[0] (line 5): illegal: roll before ending your turn (RACE 2)" in err


def test_running_out_of_dice_is_an_error(race, tmp_path, capsys):
    script = write(tmp_path, """
scenario: RACE
dice: [2]
actions: [{type: roll}, {type: end_turn}, {type: roll}]
""")
    assert main(["run", str(script)]) == 1
    assert "tape ran out" in capsys.readouterr().err


def test_inline_scenario(race, tmp_path, capsys):
    script = write(tmp_path, """
setup: {game: race, name: Inline, description: A race given inline., setup: {goal: 3}}
dice: [4]
actions: [{type: roll}]
expect:
  - {outcome: {winner: A}}
""")
    assert main(["run", str(script)]) == 0


def test_expected_refusal_that_is_allowed_fails(race, tmp_path, capsys):
    script = write(tmp_path, """
scenario: RACE
dice: [1]
actions: [{type: roll, expect_illegal: true}]
""")
    assert main(["run", str(script)]) == 1
    assert "expected to be refused" in capsys.readouterr().err
