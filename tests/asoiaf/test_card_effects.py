"""Card effects the engine lacked (issue #26): effects that depend on a unit's name (§4.4), effects
that remove a unit's abilities (§4.5, §11.5), and the highest / lowest Attack-dice value (§11.9)."""

from __future__ import annotations

import pytest

from simulator.core.errors import IllegalAction
from simulator.games.asoiaf.units import dice_value
from tests.asoiaf.helpers import guards, scenario, session, sworn


def _armies(stark_commander: str, stark_units: list, lannister_units: list, lannister_commander: str = "20115",
            stark_faction: str = "stark") -> dict:
    return {"stark": {"faction": stark_faction, "commander": stark_commander, "units": stark_units, "ncus": []},
            "lannister": {"faction": "lannister", "commander": lannister_commander, "units": lannister_units,
                          "ncus": []}}


def _no_answer(s) -> None:
    """The defender's hand (completed from its deck) may hold an "attacked" card: play none."""
    if s.state["pending"] and s.state["pending"][0]["window"] == "attacked":
        s.apply({"type": "respond", "card": None})


def test_a_card_for_house_umber_units_reads_the_units_own_name_not_its_attachments():
    # Greatjon Umber's Berserker Tactics (40211, assumed stand-in: House Umber units only). S1 is
    # Sworn Swords led by Greatjon himself: his name does not make the unit a House Umber unit.
    s1 = {"id": "S1", "card": "10201", "attachment": "20202", "at": [12, 18], "facing": 90}
    s2 = {"id": "S2", "card": "10203", "at": [36, 18], "facing": 90}
    sc = scenario([], [], armies=_armies("20202", [s1, s2], [guards("L1", (12, 22.72)),
                                                                guards("L2", (36, 22.72), jaime=False)]),
                  hands={"stark": ["40211"], "lannister": []})
    s = session(sc, tape=[1] * 7)
    offered = [a for a in s.legal_actions() if a.get("card") == "40211"]
    assert offered and {a["unit"] for a in offered} == {"S2"}
    with pytest.raises(IllegalAction, match=r"House Umber.*attachment's name does not count") as err:
        s.apply({"type": "attack", "unit": "S1", "target": "L1", "attack": 0, "card": "40211"})
    assert err.value.rule.endswith("(4.4)")
    s.apply({"type": "attack", "unit": "S2", "target": "L2", "attack": 0, "card": "40211"})
    _no_answer(s)
    assert "40211" in s.state["discards"]["stark"] and s.dice.tape_left == 0


def test_a_card_that_removes_the_attackers_abilities_switches_off_wildfire():
    # Tyrion's Cunning Ploy (40118, assumed stand-in: the attacker loses its abilities for this
    # Attack). Pyromancers shoot Wildfire (no Defense, Vicious, self-Wounds on 1s) at Guardsmen:
    # with their abilities gone the Guardsmen roll Defense and the 1 rolled wounds nobody.
    p1 = {"id": "P1", "card": "10104", "at": [24, 18], "facing": 90}
    sc = scenario([], [], armies=_armies("20115", [p1, {"id": "S9", "card": "10101", "attachment": "20115",
                                                        "at": [6, 4], "facing": 90}],
                                         [{"id": "L1", "card": "10101", "attachment": "20105", "at": [24, 24],
                                           "facing": 270}, guards("L9", (44, 44), jaime=False)],
                                         lannister_commander="20105", stark_faction="lannister"),
                  hands={"stark": [], "lannister": ["40118"]})
    s = session(sc, tape=[6] * 6 + [1] + [6] * 6)
    s.apply({"type": "attack", "unit": "P1", "target": "L1", "attack": 0})
    assert s.state["pending"][0]["window"] == "attacked"
    assert {"type": "respond", "card": "40118"} in s.legal_actions()
    s.apply({"type": "respond", "card": "40118"})
    assert s.state["pending"][0]["window"] == "order"             # Lannister Supremacy, kept
    s.apply({"type": "order", "use": False})
    lost = [e for e in s.log if e.kind == "abilities"]
    assert lost and lost[0].data["unit"] == "P1" and lost[0].rule.endswith("(11.5)")
    assert s.dice.tape_left == 0                                  # 6 Defense dice were rolled
    assert s.state["units"]["L1"]["figures"] == 12                # all 6 hits blocked
    assert s.state["units"]["P1"]["figures"] == 12                # no Wildfire self-Wound for the 1
    assert "abilities_lost" not in s.state["units"]["P1"]         # back after the Attack


def test_a_card_makes_the_attacker_use_its_highest_attack_dice_value():
    # Rickard Karstark's A Need for Vengeance (40230, assumed: highest value). S1 has 1 rank left
    # (red value 4 dice); with the card it rolls its highest printed value, 7.
    s1 = {"id": "S1", "card": "10201", "attachment": "20228", "at": [24, 18], "facing": 90, "ranks": 1}
    sc = scenario([], [], armies=_armies("20228", [s1, sworn("S9", (6, 4), robb=False)],
                                         [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))]),
                  hands={"stark": ["40230"], "lannister": []})
    s = session(sc, tape=[1] * 7)
    s.apply({"type": "attack", "unit": "S1", "target": "L2", "attack": 0, "card": "40230"})
    _no_answer(s)
    rolls = [e for e in s.log if e.kind == "card" and "highest" in e.text]
    assert rolls and rolls[0].rule.endswith("(11.9)")
    assert s.dice.tape_left == 0                                  # 7 Attack dice, all misses


def test_a_defenders_card_makes_the_attacker_use_its_lowest_value():
    # The Blackfish's Set for Charge (40214, assumed: lowest value): full Guardsmen roll 4, not 6.
    s1 = {"id": "S1", "card": "10201", "attachment": "20208", "at": [24, 18], "facing": 90}
    sc = scenario([], [], armies=_armies("20208", [s1, sworn("S9", (6, 4), robb=False)],
                                         [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))]),
                  hands={"stark": ["40214"], "lannister": []}, first_player="lannister")
    s = session(sc, tape=[1] * 4)
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})
    s.apply({"type": "respond", "card": "40214"})
    assert s.dice.tape_left == 0 and s.state["units"]["S1"]["figures"] == 12


def test_highest_and_lowest_together_give_the_lowest():
    assert dice_value({"attack_dice_value": "highest"}, {"attack_dice_value": "lowest"}) == "lowest"
    assert dice_value({"attack_dice_value": "highest"}, {}) == "highest"
    assert dice_value({}, {}) is None
