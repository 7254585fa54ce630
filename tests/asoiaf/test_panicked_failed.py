"""The Panicked token may be spent after a failed Panic test too (§11.8: its trigger is the roll of
a Morale test, whatever the result): the enemy rerolls the D3 of a fail for more Wounds."""

import pytest

from simulator.core.errors import IllegalAction
from tests.asoiaf.helpers import finish_round, guards, passive, scenario, session, sworn


def _crown_on_panicked_l2(tape: list[int]):
    """Round 1: Catelyn's Tactics zone gives L2 a Panicked token; round 2: her Crown zone makes L2
    take a Panic test at -1 outside any Attack."""
    sc = scenario([sworn("S1", (8, 8), 90, robb=False), sworn("S9", (30, 4))],
                  [guards("L2", (40, 40), jaime=False), guards("L9", (10, 44))], ncus=True, first="stark")
    s = session(sc, tape=tape)
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "panicked"})
    finish_round(s)
    while s.active_player() != "stark" or s.state["pending"]:
        s.apply(passive(s))
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "crown", "target": "L2"})
    return s


def test_failed_panic_outside_an_attack_opens_the_token_window():
    s = _crown_on_panicked_l2([1, 1, 1, 3])          # 1+1-1 fails, D3 = 1; the reroll of the D3 gives 3
    p = s.state["pending"][0]
    assert (p["window"], p["player"], p["faces"]) == ("panic_reroll", "stark", [1, 1, 1])
    assert "fail unless stark spends" in [e for e in s.log if e.kind == "panic"][-1].text
    assert s.legal_actions() == [{"type": "reroll", "dice": [2]}, {"type": "reroll", "dice": []}]
    s.apply({"type": "reroll", "dice": [2]})
    l2 = s.state["units"]["L2"]
    assert "panicked" not in l2["conditions"] and l2["figures"] == l2["figures_max"] - 3
    spent = [e for e in s.log if e.kind == "condition"][-1]
    assert spent.rule.endswith("(11.8)") and spent.data["faces"] == [1, 1, 3]


def test_failed_panic_with_d3_of_3_offers_keeping_the_token_first():
    s = _crown_on_panicked_l2([1, 1, 3])
    assert s.legal_actions() == [{"type": "reroll", "dice": []}]
    with pytest.raises(IllegalAction, match="positions 0-1"):
        s.apply({"type": "reroll", "dice": [5]})
    s.apply({"type": "reroll", "dice": []})
    l2 = s.state["units"]["L2"]
    assert "panicked" in l2["conditions"] and l2["figures"] == l2["figures_max"] - 3


def test_failed_panic_inside_an_attack_may_be_rerolled_by_the_enemy():
    # Lannister first: L9 holds, Catelyn gives L2 Panicked, Cersei passes; S1 attacks L2 in contact:
    # 7 hits, 7 failed saves, Panic 1+1 fails with D3 = 1; Stark spends the token on the D3: 3.
    sc = scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first="lannister", ncus=True)
    s = session(sc, tape=[6] * 7 + [1] * 7 + [1, 1, 1] + [3])
    s.apply({"type": "hold", "unit": "L9"})
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "panicked"})
    s.apply({"type": "ncu_pass", "ncu": "lannister-N1"})
    s.apply({"type": "attack", "unit": "S1", "target": "L2", "attack": 0})
    while s.state["pending"] and s.state["pending"][0].get("why") != "Panicked":
        w = s.state["pending"][0]["window"]
        s.apply({"type": "respond", "card": None} if w == "attacked" else s.legal_actions()[0])
    p = s.state["pending"][0]
    assert (p["window"], p["player"], p["faces"], p["default"]) == ("reroll", "stark", [1, 1, 1], [2])
    s.apply({"type": "reroll", "dice": [2]})
    l2 = s.state["units"]["L2"]
    assert "panicked" not in l2["conditions"]
    assert l2["figures"] == 12 - 7 - 3
    assert s.dice.tape_left == 0
