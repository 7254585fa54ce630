from simulator.core import IllegalAction
from simulator.games.saga import board
from simulator.games.saga import catalogue as cat
from simulator.core.session import Session

from tests.saga.helpers import give_dice, session
import pytest


def test_faction_die_has_three_common_two_uncommon_one_rare() -> None:
    s = Session.new("saga/s1-warlords-fury", seed=3)
    die = s.dice.die(cat.die_name("vikings"))
    assert sorted(die.faces) == ["C", "C", "C", "R", "U", "U"]


def test_dice_generated_and_capped_at_six() -> None:
    s = Session.new("saga/s1-warlords-fury", seed=3)
    # warlord 2 + three hearthguard units + two warrior units, levies none = 7
    assert board.generated(s.state_data(), "vikings") == 7
    assert board.roll_count(s.state_data(), "vikings", 0) == 6
    assert board.roll_count(s.state_data(), "vikings", 2) == 4       # dice left reduce the roll (SAGA p.9)
    s.apply({"type": "roll_dice", "keep": []})
    rolled = [d for d in s.state["sides"]["vikings"]["dice"] if d["face"]]
    assert len(rolled) == 6


def test_quickstart_rolls_four() -> None:
    s = Session.new("saga/quickstart", seed=1)
    s.apply({"type": "roll_dice", "keep": []})
    assert sum(1 for d in s.state["sides"]["vikings"]["dice"] if d["face"]) == 4


def test_placing_respects_symbols_and_once_per_turn() -> None:
    s = Session.new("saga/quickstart", seed=1, tape=["C", "U", "R", "C"])
    s.apply({"type": "roll_dice", "keep": []})
    with pytest.raises(IllegalAction, match="Bondi"):
        s.apply({"type": "place_die", "die": 1, "box": "bondi"})        # U cannot pay C/R
    s.apply({"type": "place_die", "die": 0, "box": "bondi"})
    s.apply({"type": "place_die", "die": 1, "box": "thor"})
    with pytest.raises(IllegalAction, match="once-per-turn"):
        s.apply({"type": "place_die", "die": 2, "box": "thor"})        # one set only
    s.apply({"type": "end_orders"})
    assert s.state["sides"]["vikings"]["dice"][2]["face"] is None       # unplaced dice are lost


def test_dice_left_on_board_reduce_next_roll() -> None:
    s = Session.new("saga/quickstart", seed=1, tape=["C", "C", "C", "C"] + ["U"] * 8 + ["R"] * 3)
    s.apply({"type": "roll_dice", "keep": []})
    s.apply({"type": "place_die", "die": 0, "box": "bondi"})
    s.apply({"type": "end_orders"})
    s.apply({"type": "end_turn"})
    s.apply({"type": "roll_dice", "keep": []})
    s.apply({"type": "end_orders"})
    s.apply({"type": "end_turn"})
    s.apply({"type": "roll_dice", "keep": [0]})
    faces = [d for d in s.state["sides"]["vikings"]["dice"] if d["face"]]
    assert len(faces) == 4        # 1 kept + 3 rolled


def test_activation_pool_rolls_two_more() -> None:
    s = session([{"id": "w", "class": "warlord", "at": [10, 3]}], [{"id": "e", "class": "warlord", "at": [10, 33]}],
                tape=["R", "R"])
    s._state["orders_rolled"] = True
    give_dice(s, "A", [("C", "activation_pool")])
    s.apply({"type": "use_ability", "box": "activation_pool"})
    assert sum(1 for d in s.state["sides"]["A"]["dice"] if d["face"] == "R" and d["box"] is None) == 2


def test_bad_faction_file_reports_line(tmp_path) -> None:
    from simulator.core.data import load_yaml, validate
    from simulator.core.errors import DataError
    p = tmp_path / "f.yaml"
    p.write_text("format: saga-faction/1\nid: x\nname: X\nsymbols: {C: a, U: b, R: c}\nboxes:\n"
                 "  - {id: a, name: A, column: sideways, timing: orders, cost: [C], effect: {kind: refresh}, text: t}\n")
    with pytest.raises(DataError, match=r"f\.yaml:5: boxes: minItems"):
        validate(load_yaml(p), load_yaml(cat.DATA / "schemas" / "faction.yaml").data)
