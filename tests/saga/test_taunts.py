"""Welsh Taunts (SAGA p.62, digest WE-9 and q.45): the designated enemy unit (never a Warlord)
moves as close as it can to the Welsh player's nearest unit, engaging it if it can; engine
decisions: at once, with its own allowance, no fatigue, no activation, the taunted unit attacks."""

import pytest

from simulator.core import IllegalAction
from simulator.games.saga import movement
from simulator.geometry.table import circle_gaps
from simulator.games.saga.units import bases, unit_gap
from tests.saga.helpers import give_dice, session, take_defaults, to_activation


def _taunting(enemy_at, tape=None, extra_b=()):
    s = session([{"id": "spears", "class": "warriors", "figures": 4, "at": [20, 10], "columns": 4},
                 {"id": "far", "class": "warriors", "figures": 4, "at": [40, 4], "columns": 4},
                 {"id": "king", "class": "warlord", "at": [4, 3]}],
                [{"id": "bondi", "class": "warriors", "figures": 4, "at": enemy_at, "columns": 4},
                 {"id": "jarl", "class": "warlord", "at": [44, 33]}, *extra_b],
                faction_a="welsh", faction_b="vikings", tape=tape)
    to_activation(s)
    give_dice(s, "A", [("U", "taunts")])
    return s


def test_the_taunted_unit_engages_our_nearest_unit_and_attacks() -> None:
    s = _taunting([20, 16.5], tape=[1] * 40)
    gap = unit_gap(s.state, "bondi", "spears")
    assert 4 < gap < 6                                          # within its M move, beyond S
    s.apply({"type": "use_ability", "box": "taunts", "target": "bondi"})
    move = [e for e in s.log if e.kind == "move" and e.rule == "SAGA p.62"]
    assert len(move) == 1 and move[0].data["engaged"] == "spears" and "engages" in move[0].text
    m = s.state["melee"]
    assert m is not None and m["attacker"] == "bondi" and m["defender"] == "spears"
    assert s.state["units"]["bondi"]["fatigue"] == 0 and s.state["units"]["bondi"]["moves"] == 0
    # the melee is fought out; then the Welsh turn goes on
    for _ in range(30):
        if s.state["melee"] is None:
            break
        take_defaults(s)
        if s.state["melee"] is not None:
            s.apply(s.legal_actions()[0])
    assert s.state["melee"] is None and s.state["active"] == "A" and s.state["phase"] == "activation"


def test_out_of_reach_it_moves_as_close_as_it_may() -> None:
    s = _taunting([20, 30])
    before = unit_gap(s.state, "bondi", "spears")
    s.apply({"type": "use_ability", "box": "taunts", "target": "bondi"})
    after = unit_gap(s.state, "bondi", "spears")
    assert after == pytest.approx(before - 6, abs=0.05)         # its whole M move, straight at us
    assert s.state["melee"] is None


def test_out_of_reach_it_stops_outside_vs() -> None:
    s = _taunting([20, 18])                                     # 7": the planner stops outside VS (SAGA p.12)
    s.apply({"type": "use_ability", "box": "taunts", "target": "bondi"})
    assert 2 < unit_gap(s.state, "bondi", "spears") < 2.5 and s.state["melee"] is None


def test_the_planner_already_stops_before_what_blocks_the_way() -> None:
    s = _taunting([20, 16.5], extra_b=[{"id": "shield", "class": "warriors", "figures": 4, "at": [20, 13.4],
                                        "columns": 4}])
    before = unit_gap(s.state, "bondi", "spears")
    s.apply({"type": "use_ability", "box": "taunts", "target": "bondi"})
    assert unit_gap(s.state, "bondi", "spears") < before - 0.5 and s.state["melee"] is None
    assert unit_gap(s.state, "bondi", "shield") >= -0.01


def test_an_illegal_planned_move_is_cut_to_the_largest_legal_tenth(monkeypatch) -> None:
    # a plan ending 1" from us without contact breaks the VS rule (SAGA p.12): 8 tenths of it do not
    s = _taunting([20, 18])
    monkeypatch.setattr(movement, "plan_engage", lambda state, uid, target, rules: movement.translation(state, uid, 0, -6))
    s.apply({"type": "use_ability", "box": "taunts", "target": "bondi"})
    assert s.state["figures"]["bondi.1"]["y"] == pytest.approx(18 - 4.8)
    move = [e for e in s.log if e.kind == "move" and e.rule == "SAGA p.62"][0]
    assert move.text.endswith("(80% of the engaging move, as close as it may go)")


def test_no_legal_step_towards_us_spends_the_die_and_says_why(monkeypatch) -> None:
    s = _taunting([20, 14.45], extra_b=[{"id": "shield", "class": "warriors", "figures": 4, "at": [20, 13.4],
                                         "columns": 4}])
    monkeypatch.setattr(movement, "plan_engage", lambda state, uid, target, rules: movement.translation(state, uid, 0, -6))
    where = {f: (v["x"], v["y"]) for f, v in s.state["figures"].items() if v["unit"] == "bondi"}
    s.apply({"type": "use_ability", "box": "taunts", "target": "bondi"})
    assert {f: (v["x"], v["y"]) for f, v in s.state["figures"].items() if v["unit"] == "bondi"} == where
    said = [e for e in s.log if e.kind == "ability" and e.rule == "SAGA p.62"][-1]
    assert said.text.startswith("Taunts: B warriors (bondi) cannot move towards A warriors (spears) (")
    assert "impassable" in said.text and s.state["sides"]["A"]["dice"][0]["box"] != "taunts"


def test_the_nearest_unit_is_the_target_of_the_move() -> None:
    s = _taunting([38, 12])                                     # nearer "far" than "spears"
    assert unit_gap(s.state, "bondi", "far") < unit_gap(s.state, "bondi", "spears")
    s.apply({"type": "use_ability", "box": "taunts", "target": "bondi"})
    assert "towards A warriors (far)" in [e for e in s.log if e.rule == "SAGA p.62"][-1].text


def test_never_a_warlord() -> None:
    s = _taunting([20, 16.5])
    with pytest.raises(IllegalAction, match="cannot designate a Warlord"):
        s.apply({"type": "use_ability", "box": "taunts", "target": "jarl"})
    assert float(circle_gaps(bases(s.state, "jarl"), bases(s.state, "king")).min()) > 30
