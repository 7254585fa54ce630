"""Mid-game positions a script's set-up can give (issue #26): wounds, figures or ranks, Condition
tokens, activated units, a hand of up to 5 cards, the round, the phase, whose turn, the VP scored;
values the rules do not allow are refused by ``simulator check`` naming the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator.cli import check_file
from simulator.core.errors import DataError
from simulator.core.script import run_script
from tests.asoiaf.helpers import guards, scenario, session, sworn

ROOT = Path(__file__).resolve().parents[2]


def doc_example() -> str:
    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(# ASOIAF mid-game example.*?)```", text, re.S)
    assert found, "docs/scripting.md has no ASOIAF mid-game example"
    return found.group(1)


def test_the_scripting_page_example_runs(tmp_path):
    path = tmp_path / "example.yaml"
    path.write_text(doc_example(), encoding="utf-8")
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)


def test_the_position_is_built_as_given():
    sc = scenario([sworn("S1", (24, 18)) | {"ranks": 2, "conditions": ["panicked", "vulnerable"]},
                   {"id": "S2", "card": "10202", "at": [6, 6], "facing": 90, "wounds": 4, "activated": True}],
                  [guards("L1", (24, 30)) | {"figures": 5}, guards("L2", (40, 40), jaime=False) | {"wounds": 3}],
                  round=4, turn="lannister", vp={"stark": 2, "lannister": 5},
                  hands={"stark": ["40201", "40202", "40203", "40204", "40205"], "lannister": ["40101"]})
    s = session(sc)
    st = s.state
    u = st["units"]
    assert (u["S1"]["figures"], u["S1"]["conditions"]) == (8, ["panicked", "vulnerable"])
    assert (u["S2"]["figures"], u["S2"]["damage"], u["S2"]["activated"]) == (3, 1, True)   # 3-Wound cavalry
    assert u["L1"]["figures"] == 5 and u["L2"]["figures"] == 9
    assert (st["round"], st["active"], st["vp"]) == (4, "lannister", {"stark": 2, "lannister": 5})
    assert st["hands"]["stark"] == ["40201", "40202", "40203", "40204", "40205"]
    assert len(st["hands"]["lannister"]) == 3 and st["hands"]["lannister"][0] == "40101"
    assert any(e.kind == "round" and e.text.startswith("Round 4") for e in s.log)


def test_a_position_may_start_in_the_cleanup_phase():
    sc = scenario([sworn("S1", (24, 18))], [guards("L1", (24, 30))], round=2, phase="cleanup")
    s = session(sc)
    assert s.state["phase"] == "cleanup" and s.state["pending"][0]["window"] == "discard"
    while s.state["pending"]:
        s.apply({"type": "discard", "cards": []})
    assert s.state["round"] == 3 and s.state["phase"] == "activation"


@pytest.mark.parametrize("old, new, field, words", [
    ("ranks: 1,", "ranks: 4,", "setup.armies.stark.units[0].ranks", "at most 3 ranks"),
    ("ranks: 1,", "figures: 13,", "setup.armies.stark.units[0].figures", "at most 12 figures"),
    ("ranks: 1,", "ranks: 1, wounds: 2,", "setup.armies.stark.units[0].ranks", "one of wounds, figures or ranks"),
    ("wounds: 2,", "wounds: 12,", "setup.armies.lannister.units[1].wounds", "would destroy it"),
    ("conditions: [weakened]", "conditions: [scared]", "setup.armies.lannister.units[1].conditions[0]", ""),
    ("conditions: [weakened]", "conditions: [weakened, weakened]", "setup.armies.lannister.units[1].conditions",
     ""),
    ("round: 3", "round: 7", "setup.round", "after the last round"),
    ("turn: lannister", "turn: tyrell", "setup.turn", "not a player"),
    ("vp: {stark: 3,", "vp: {stark: 8,", "setup.vp.stark", "already have won"),
    ('lannister: ["40101", "40103"]', 'lannister: ["40101", "40103", "40101", "40103", "40102", "40104"]',
     "setup.hands.lannister", ""),
    ('lannister: ["40101", "40103"]', 'lannister: ["40101", "40101", "40101"]', "setup.hands.lannister[2]",
     "not (or no longer) in lannister's Tactics deck"),
])
def test_check_refuses_what_the_rules_do_not_allow(tmp_path, old, new, field, words):
    text = doc_example()
    assert old in text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as err:
        check_file(str(path))
    message = str(err.value)
    assert field in message and words in message and "\n" not in message, message


def test_phase_is_refused_with_a_deployment_phase(tmp_path):
    text = doc_example().replace("  setup:\n    mode:", "  rules: {deployment: players}\n  setup:\n    mode:", 1)
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=r"setup\.round: a game with a deployment phase"):
        check_file(str(path))


def test_mode_tokens_carried_objective_and_fire_and_blood_vp_tokens():
    # A Dance with Dragons: S1 stands on the centre Objective O1 (24, 24) and carries it.
    sc = scenario([sworn("S1", (24, 24)) | {"carries": "O1"}, sworn("S9", (6, 4), robb=False)],
                  [guards("L1", (24, 40)), guards("L2", (40, 40), jaime=False)], mode="dance_with_dragons")
    s = session(sc)
    assert s.state["units"]["S1"]["objective"] == "O1" and s.state["objectives"][0]["holder"] == "S1"
    sc = scenario([sworn("S1", (24, 12)), sworn("S9", (6, 4), robb=False)],
                  [guards("L1", (24, 40)) | {"vp_tokens": 2}, guards("L2", (40, 40), jaime=False)],
                  mode="fire_and_blood", marked={"stark": ["L1"], "lannister": ["S9"]})
    assert session(sc).state["units"]["L1"]["vp_tokens"] == 2


@pytest.mark.parametrize("unit_keys, mode, words", [
    ({"carries": "O1"}, "game_of_thrones", "are not carried"),
    ({"carries": "O9"}, "dance_with_dragons", "no Objective 'O9'"),
    ({"vp_tokens": 1}, "game_of_thrones", "only in Fire and Blood"),
])
def test_mode_tokens_the_mode_does_not_have_are_refused(unit_keys, mode, words):
    sc = scenario([sworn("S1", (24, 24)) | unit_keys, sworn("S9", (6, 4), robb=False)],
                  [guards("L1", (24, 40)), guards("L2", (40, 40), jaime=False)], mode=mode)
    with pytest.raises(DataError, match=words) as err:
        session(sc)
    assert "setup.armies.stark.units[0]." in str(err.value)
