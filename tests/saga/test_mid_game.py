"""Mid-game positions a script builds inline (issue #26): fatigue, units from one figure and
each figure's place, dice already on the battle boards, the turn and phase to start in; every
value the rules forbid is refused naming its field."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from simulator.core import Session
from simulator.core.errors import DataError
from simulator.core.registry import get_game
from simulator.core.scenario import scenario_from_data
from simulator.core.script import run_script

ROOT = Path(__file__).resolve().parents[2]


def _position() -> dict[str, Any]:
    return {"format": "scenario/1", "game": "saga", "name": "mid-game", "description": "a position", "turns": 6,
            "players": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
            "setup": {"table": {"width": 48, "height": 36}, "victory": "warlords_fury", "first_player": "A",
                      "start": {"turn": 3, "phase": "activation", "player": "B"},
                      "sides": {"A": {"faction": "normans",
                                      "dice": [{"face": "C", "box": "knights"}, {"face": "R", "box": "charge"}],
                                      "units": [{"id": "kn", "class": "hearthguard", "mounted": True, "fatigue": 2,
                                                 "positions": [[10, 10], [12, 10]]},
                                                {"id": "lord", "class": "warlord", "at": [40, 3]}]},
                                "B": {"faction": "anglo_danes",
                                      "dice": [{"face": "U", "box": "shield_wall"}, {"face": "C", "box": "shield_wall"}],
                                      "units": [{"id": "war", "class": "warriors", "figures": 1, "at": [11, 20]},
                                                {"id": "el", "class": "warlord", "at": [40, 33]}]}}}}


def _build(data: dict[str, Any]) -> Session:
    return Session(get_game("saga"), scenario_from_data(data, "saga/mid"), 0)


def test_a_mid_game_position_starts_where_it_says() -> None:
    s = _build(_position())
    st = s.state
    assert (st["turn"], st["phase"], st["turn_player"], st["active"], st["orders_rolled"]) == (3, "activation", "B",
                                                                                               "B", True)
    assert st["units"]["kn"]["fatigue"] == 2 and st["units"]["kn"]["figures"] == ["kn.1", "kn.2"]
    assert (st["figures"]["kn.2"]["x"], st["figures"]["kn.2"]["y"]) == (12, 10)
    assert st["units"]["war"]["figures"] == ["war"]
    on = [(d["face"], d["box"]) for d in st["sides"]["A"]["dice"] if d["box"]]
    assert on == [("C", "knights"), ("R", "charge")]
    # B plays on from there: his warriors may activate, the Shield Wall set waits for a fight
    s.apply({"type": "end_turn"})
    assert s.state["turn"] == 4 and s.state["turn_player"] == "A" and s.state["phase"] == "orders"
    s.apply({"type": "roll_dice", "keep": [0, 1]})      # the dice left on the board stay there
    assert [d["box"] for d in s.state["sides"]["A"]["dice"][:2]] == ["knights", "charge"]


def _refusal(change: Any) -> str:
    data = _position()
    change(data)
    with pytest.raises(DataError) as err:
        _build(data)
    return str(err.value)


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d["setup"]["sides"]["A"]["units"][0].update(fatigue=-1), "units[0].fatigue", "0 or more"),
    (lambda d: d["setup"]["sides"]["B"]["units"][0].update(figures=0), "units[0].figures", "minimum 1"),
    (lambda d: d["setup"]["sides"]["B"]["units"][0].update(figures=13), "units[0].figures", "maximum 12"),
    (lambda d: d["setup"]["sides"]["A"]["units"][0].update(positions=[[10, 10]], figures=2), "units[0].positions",
     "one position per figure"),
    (lambda d: d["setup"]["sides"]["A"]["units"][0].update(positions=[[10, 10], [10.5, 10]]), "units[0].positions",
     "overlaps"),
    (lambda d: d["setup"]["sides"]["A"]["units"][0].update(positions=[[10, 10], [20, 10]]), "units[0].positions",
     "formation"),
    (lambda d: d["setup"]["sides"]["A"]["dice"].append({"face": "C", "box": "charge"}), "dice[2].face",
     "cannot hold R+C"),
    (lambda d: d["setup"]["sides"]["A"]["dice"].append({"face": "C", "box": "peasants"}), "dice[2].face",
     "takes U/R"),
    (lambda d: d["setup"]["sides"]["A"]["dice"].append({"face": "X", "box": "knights"}), "dice[2].face",
     "one of: C, U, R"),
    (lambda d: d["setup"]["sides"]["A"]["dice"].append({"face": "C", "box": "huscarls"}), "dice[2].box",
     "no box 'huscarls'"),
    (lambda d: d["setup"]["sides"]["A"].update(dice=[{"face": "C", "box": "knights"}] * 9), "dice[8]",
     "no more than 8"),
    (lambda d: d["setup"]["start"].update(turn=7), "start.turn", "6 turns"),
    (lambda d: d["setup"]["start"].update(turn=0), "start.turn", "minimum 1"),
    (lambda d: d["setup"]["start"].update(phase="melee"), "start.phase", "orders, activation"),
    (lambda d: d["setup"]["start"].update(player="C"), "start.player", "not a player"),
    (lambda d: d["setup"]["sides"]["A"]["units"][1].update(figures=2), "units[1].figures", "1 figure"),
    (lambda d: d["setup"]["sides"]["A"]["units"][1].update(positions=[[40, 3], [41.5, 3]]), "units[1].figures",
     "1 figure"),
])
def test_a_value_the_rules_forbid_is_refused_naming_its_field(change: Any, field: str, words: str) -> None:
    message = _refusal(change)
    assert field in message and words in message, message


def test_without_a_start_units_still_begin_with_four_figures_and_in_their_zones() -> None:
    def fresh(d: dict[str, Any]) -> None:
        del d["setup"]["start"]
    assert "4 to 12 figures" in _refusal(fresh)


def test_harold_with_one_brother_left() -> None:
    data = _position()
    data["setup"]["sides"]["B"]["hero"] = "harold_godwinson"
    data["setup"]["sides"]["B"]["units"][1] = {"id": "el", "class": "warlord", "positions": [[40, 33], [41.5, 33]]}
    s = _build(data)
    assert len(s.state["units"]["el"]["figures"]) == 2


def test_taillefer_never_has_fatigue() -> None:
    def taillefer(d: dict[str, Any]) -> None:
        d["setup"]["sides"]["A"]["hero"] = "ivo_taillefer"
        d["setup"]["sides"]["A"]["units"][1]["fatigue"] = 1
    message = _refusal(taillefer)
    assert "units[1].fatigue" in message and "SAGA p.43" in message


def test_the_saga_example_of_docs_scripting_runs(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    example = re.search(r"```yaml\n(# SAGA mid-game example.*?)```", text, re.S)
    assert example, "docs/scripting.md has no SAGA mid-game example"
    path = tmp_path / "saga-mid-game.yaml"
    path.write_text(example.group(1), encoding="utf-8")
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)


def test_simulator_check_builds_an_inline_set_up(tmp_path: Path) -> None:
    import yaml

    from simulator.cli import check_file
    data = _position()
    bad = copy.deepcopy(data)
    bad["setup"]["sides"]["A"]["dice"][1]["face"] = "C"
    for d, name in ((data, "good"), (bad, "bad")):
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump({"setup": d, "actions": []}), encoding="utf-8")
    assert check_file(str(tmp_path / "good.yaml")).startswith("script")
    with pytest.raises(DataError, match=r"dice\[1\]\.face"):
        check_file(str(tmp_path / "bad.yaml"))
