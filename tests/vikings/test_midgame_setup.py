"""Mid-game positions a script's set-up can give (issue #26): the turn and phase, wounds and stuns,
a ship's speed, damage and leaks, grapples already hooked; values the rules forbid are refused
naming the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator.core.errors import DataError
from simulator.core.script import run_script
from tests.vikings.helpers import session

ROOT = Path(__file__).resolve().parents[2]
SEA = [{"map": "vikings/open_sea_1"}]


def doc_example() -> str:
    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(# Vikings mid-game example.*?)```", text, re.S)
    assert found, "docs/scripting.md has no Vikings mid-game example"
    return found.group(1)


def test_the_scripting_page_example_runs(tmp_path):
    path = tmp_path / "example.yaml"
    path.write_text(doc_example(), encoding="utf-8")
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)


def test_the_position_is_built_as_given():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E", "speed": -2},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1004", "heading": "E", "speed": 3,
              "damage": {"5": 3, "0": 1}}]
    chars = [{"id": "svein", "aboard": {"ship": "d", "slot": 10}, "duty": "grapple", "status": "wounded"},
             {"id": "edmund", "aboard": {"ship": "g", "slot": 3}, "status": "stunned"}]
    hooked = [{"ship": "d", "slot": 10, "hooked": {"ship": "g", "slot": 13}}]
    s = session(chars, ships=ships, boards=SEA, grapples=hooked,
                start={"turn": 2, "phase": "player_b"}, first="saxons")
    st = s.state
    assert (st["turn"], st["phase_index"], st["phasing"], st["step"]) == (2, 3, "vikings", "fire")
    assert st["chars"]["svein"]["status"] == "wounded" and st["chars"]["edmund"]["status"] == "stunned"
    g = st["ships"]["g"]
    assert g["speed"] == 3 and g["damage"] == {"5": 3, "0": 1} and g["leaks"] == {"5": 3}
    assert g["total"] == 4 and g["collisions"] == 2
    hook = st["grapples"]["g1"]
    assert hook["status"] == "hooked" and hook["hook_ship"] == "g" and hook["max_len"] == 2


@pytest.mark.parametrize("old, new, field, words", [
    ('speed: 1,\n         damage', 'speed: 6,\n         damage', "setup.ships[1].speed", "table 9.5"),
    ("hooked: {ship: hart, slot: 13}", "hooked: {ship: hart, slot: 2}", "setup.grapples[0].hooked.slot", "rule 4.6"),
    ("hooked: {ship: hart, slot: 13}", "hooked: {ship: wolf, slot: 13}", "setup.grapples[0].hooked.ship", "enemy"),
    ("status: stunned", "status: asleep", "setup.characters[2].status", "wounded or stunned"),
    ("turn: 3", "turn: 9", "setup.turn", "last turn"),
    ("phase: second_naval", "phase: dusk", "setup.phase", "player_b"),
    ("total: 5", "total: 1", "setup.ships[1].total", "rule 4.7"),
    ("total: 5", "total: 12", "setup.ships[1].total", "sinks at 12"),
    ("collisions: 2}", "collisions: 2, plugged: [5]}", "setup.ships[1].plugged", "rules.plug_leaks"),
    ('damage: {"5": 2, "11": 1}', 'damage: {"16": 2}', "setup.ships[1].damage.16", "slots 0-15"),
])
def test_check_refuses_what_the_rules_forbid_naming_the_field(tmp_path, old, new, field, words):
    from simulator.cli import check_file
    text = doc_example()
    assert old in text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(DataError) as err:
        check_file(str(path))
    assert field in str(err.value) and words in str(err.value), str(err.value)


# -- forced dice at load: a drowning test when the game starts in a player phase ------------------------
def swimmer_at_load(tape):
    chars = [{"id": "peasant1", "hex": "1009"}, {"id": "archer1", "hex": "1011", "swimmer": True},
             {"id": "svein", "aboard": {"ship": "d", "slot": 3}}]
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1005", "heading": "E"}]
    return session(chars, tape=tape, ships=ships, boards=SEA, first="saxons", start={"phase": "player_a"})


def test_a_drowning_test_at_load_takes_the_forced_dice(tmp_path):
    from simulator.core.session import Session
    drowned = swimmer_at_load([1, 6])
    assert drowned.state["chars"]["peasant1"]["status"] == "dead"         # 1: drowns (table 9.3)
    assert [e.data["purpose"] for e in drowned.log if e.kind == "dice"] == ["drowning test of Peasant Godwin"]
    assert any(e.kind == "killed" and e.rule == "VK 4.85" for e in drowned.log)
    afloat = swimmer_at_load([5, 6])
    assert afloat.state["chars"]["peasant1"]["status"] == "ok"
    assert afloat.dice.tape_position == 1                                  # the tape goes on after the set-up
    afloat.apply({"type": "end_phase"})
    afloat.apply({"type": "end_phase"})
    afloat.undo()
    assert afloat.dice.tape_position == 1
    path = tmp_path / "game.yaml"
    afloat.save(path)
    again = Session.load(path)
    assert again.state_data() == afloat.state_data() and again.dice.tape_position == afloat.dice.tape_position


def test_at_set_up_the_tape_feeds_dice_but_not_lots():
    from simulator.core.dice import Dice
    dice = Dice(seed=3, tape=[7, 2])
    dice.begin_action(-1, lots_from_tape=False)
    assert dice.d10("drowning test") == 7
    dice.shuffle(["a", "b", "c"], "deck")                 # drawn from the seed: the tape stays at 1
    assert dice.tape_position == 1
    dice.begin_action(0)
    assert dice.choice(["x", "y"], "draw") == "y"         # in an action a lot takes the tape (2)


def test_a_plugged_leak_adds_nothing_at_the_damage_recording():
    ships = [{"id": "g", "type": "galley", "side": "saxons", "pivot": "1004", "heading": "E",
              "damage": {"5": 2, "4": 3}, "plugged": [5]}]
    s = session([{"id": "edmund", "aboard": {"ship": "g", "slot": 3}}, {"id": "svein", "hex": "2012"}],
                ships=ships, boards=SEA, rules={"plug_leaks": True})
    assert s.state["ships"]["g"]["plugged"] == ["5"] and s.state["ships"]["g"]["total"] == 5
    for _ in range(6):
        if s.state["phase_index"] != 0:
            break
        s.apply({"type": "end_phase"})
    assert s.state["ships"]["g"]["total"] == 8                        # only the open 3-point leak came in
    bad = [{"id": "g", "type": "galley", "side": "saxons", "pivot": "1004", "heading": "E", "damage": {"5": 1},
            "plugged": [5]}]
    with pytest.raises(DataError) as err:
        session([{"id": "svein", "hex": "2012"}], ships=bad, boards=SEA, rules={"plug_leaks": True})
    assert "setup.ships[0].plugged[0]" in str(err.value) and "no leak" in str(err.value)
