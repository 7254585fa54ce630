"""Each action's limits (digest §6) and the Charge (reach, roll, alignment, disorder, failure)."""

import pytest

from simulator.core.errors import IllegalAction
from tests.asoiaf.helpers import finish_round, guards, kinds, scenario, session, sworn


def far():
    """Robb's Sworn Swords S1 in the south, Jaime's Guardsmen L1 in the north."""
    return session(scenario([sworn("S1", (24, 8), 90)], [guards("L1", (24, 42))]))


def test_maneuver_up_to_speed_then_pivot():
    s = far()
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 0, "distance": 5, "facing": 90})
    u = s.state["units"]["S1"]
    assert (u["x"], u["y"], u["facing"]) == pytest.approx((29, 8, 90))
    assert u["activated"]


def test_maneuver_beyond_speed_is_refused():
    s = far()
    with pytest.raises(IllegalAction, match="at most 5"):
        s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 5.5, "facing": 90})


def test_march_twice_speed_without_first_pivot():
    s = far()
    with pytest.raises(IllegalAction, match="no pivot"):
        s.apply({"type": "march", "unit": "S1", "pivot": 0, "distance": 10})
    s.apply({"type": "march", "unit": "S1", "distance": 10, "facing": 45})
    assert s.state["units"]["S1"]["y"] == pytest.approx(18)
    assert s.state["units"]["S1"]["facing"] == pytest.approx(45)


def test_cannot_end_within_one_inch_of_an_enemy():
    s = session(scenario([sworn("S1", (24, 18), 90)], [guards("L1", (24, 28))]))
    # the gap is (28-2.36) - (18+2.36) = 5.28"; moving 4.5" leaves 0.78"
    with pytest.raises(IllegalAction, match="within 1"):
        s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 4.5, "facing": 90})
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 4.0, "facing": 90})


def test_no_move_off_the_table_or_through_an_enemy():
    s = session(scenario([sworn("S1", (24, 18), 90)], [guards("L1", (24, 28), jaime=False), guards("L2", (40, 42))]))
    with pytest.raises(IllegalAction):
        s.apply({"type": "march", "unit": "S1", "distance": 10, "facing": 90})
    s = session(scenario([sworn("S1", (24, 4), 90)], [guards("L2", (40, 42))]))
    with pytest.raises(IllegalAction, match="off the table"):
        s.apply({"type": "maneuver", "unit": "S1", "pivot": 270, "distance": 5, "facing": 270})


def test_retreat_only_when_engaged():
    s = far()
    with pytest.raises(IllegalAction, match="not engaged"):
        s.apply({"type": "retreat", "unit": "S1", "direction": "back", "distance": 3})


def engaged_pair(first="lannister"):
    # S1 faces north, L2 faces south; their front edges touch at y = 20.36
    return scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4), robb=True)],
                    [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first=first)


def test_retreat_rolls_speed_plus_d6_and_frees_the_enemy():
    s = session(engaged_pair(first="stark"), tape=[2])
    s.apply({"type": "retreat", "unit": "S1", "direction": "back", "distance": 9, "facing": 90})
    # Speed 5 + 2 = 7": the unit moves 7" of the 9" asked
    assert s.state["units"]["S1"]["y"] == pytest.approx(11)
    assert s.state["pending"][0]["window"] == "free_pivot" and s.state["pending"][0]["unit"] == "L2"
    s.apply({"type": "free_pivot", "unit": "L2", "facing": 0})
    assert s.state["units"]["L2"]["facing"] == pytest.approx(0)


def test_engaged_unit_cannot_maneuver_march_or_charge():
    s = session(engaged_pair(first="stark"))
    for action in ({"type": "maneuver", "unit": "S1", "distance": 0}, {"type": "march", "unit": "S1", "distance": 1},
                   {"type": "charge", "unit": "S1", "target": "L2"}):
        with pytest.raises(IllegalAction, match="engaged"):
            s.apply(action)


def charge_scenario(stark_y=18.0):
    return scenario([sworn("S1", (24, stark_y), 90, robb=False), sworn("S9", (6, 4))],
                    [guards("L2", (24, 28), jaime=False), guards("L9", (44, 44))])


def test_charge_success_aligns_and_rerolls_misses():
    # charge roll 3: 5+3 = 8" >= 5.28" gap. 7 attack dice: five 4s, a 1 and a 2 are rerolled (charge bonus)
    tape = [3, 4, 4, 4, 4, 4, 1, 2, 5, 6] + [3] * 7 + [6, 6, 1]
    s = session(charge_scenario(), tape=tape)
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90})
    s.apply({"type": "respond", "card": None})      # Lannister declines its "attacked" card
    assert s.state["pending"][0]["window"] == "reroll" and s.state["pending"][0]["default"] == [5, 6]
    assert s.legal_actions()[0] == {"type": "reroll", "dice": [5, 6]}    # the default: every miss
    s.apply(s.legal_actions()[0])
    s.apply({"type": "order", "use": True})          # Lannister Supremacy
    u = s.state["units"]["S1"]
    assert (u["x"], u["y"], u["facing"]) == pytest.approx((24, 23.28, 90))
    assert any(e.kind == "reroll" and "charge bonus" in e.text for e in s.log)
    assert s.state["units"]["L2"]["figures"] == 12      # every hit saved on 3s (Defense 3+)
    # Lannister Supremacy (Order): S1 tests at -3 after the attack, 6+6-3 = 9 passes
    assert any(e.kind == "order" for e in s.log)
    assert s.dice.tape_left == 0


def test_disordered_charge_loses_the_bonus_and_cards():
    tape = [1] + [1] * 7 + [6, 6, 1]
    s = session(charge_scenario(stark_y=18.5), tape=tape)
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90, "card": "40201"})
    assert "disordered" in kinds(s)
    assert not any(e.kind == "reroll" for e in s.log)
    assert "40201" in s.state["hands"]["stark"]          # the card could not be played
    s.apply({"type": "respond", "card": None}) if s.state["pending"] else None


def test_failed_charge_stops_and_tests_panic():
    s = session(charge_scenario(stark_y=14), tape=[2, 6, 6, 1])
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90})
    assert "charge_failed" in kinds(s)
    assert s.state["units"]["S1"]["y"] == pytest.approx(21)
    assert any(e.kind == "panic" and e.data.get("passed") for e in s.log)
    assert s.state["units"]["S1"]["activated"]


def test_charge_beyond_speed_plus_six_is_refused():
    s = session(charge_scenario(stark_y=10))
    with pytest.raises(IllegalAction, match="longest possible charge"):
        s.apply({"type": "charge", "unit": "S1", "target": "L2"})


def test_flank_charge_contacts_the_flank_and_gives_the_bonus():
    sc = scenario([sworn("S1", (14, 28), 0, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (24, 28), jaime=False), guards("L9", (44, 44))])
    tape = [3] + [6] * 7 + [6] * 7 + [6, 6, 1]
    s = session(sc, tape=tape)
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 0})
    s.apply({"type": "respond", "card": None})
    u = s.state["units"]["S1"]
    assert (u["x"], u["y"], u["facing"]) == pytest.approx((18.49, 28, 0))
    assert any(e.kind == "bonus" and "flank" in e.text for e in s.log)


def test_ranged_attack_range_and_shift():
    sc = scenario([sworn("S9", (6, 4)), {"id": "B", "card": "10205", "at": [24, 15], "facing": 90}],
                  [guards("L2", (24, 30), jaime=False), guards("L9", (44, 44))])
    s = session(sc)
    # front arrow at y = 17.36, L2's front edge at 27.64: 10.28" - inside Long range (12")
    ok = s.check({"type": "attack", "unit": "B", "target": "L2", "attack": 0})
    assert ok is None
    err = s.check({"type": "attack", "unit": "B", "target": "L2", "attack": 0, "shift_direction": "back", "shift": 2})
    assert err is not None and "beyond 12" in str(err)
    err = s.check({"type": "attack", "unit": "B", "target": "L2", "attack": 0, "shift_direction": "back", "shift": 2.5})
    assert err is not None and "at most 2" in str(err)


def test_turns_alternate_and_round_advances():
    s = far()
    assert s.active_player() == "stark"
    s.apply({"type": "hold", "unit": "S1"})
    assert s.active_player() == "lannister"
    finish_round(s)
    assert s.state["round"] == 2 and s.state["first_player"] == "lannister"
    assert not s.state["units"]["S1"]["activated"]
