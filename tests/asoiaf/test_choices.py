"""Player choices that the engine used to make alone: charge-bonus rerolls, spending Condition
tokens, using Lannister Supremacy, where pushed units and dropped Objectives go (digest §6.6,
§7.1, §11.8, §16.5, §18.2). Forced dice, through Session only."""

import pytest

from simulator.core.errors import IllegalAction
from tests.asoiaf.helpers import guards, scenario, session, settle, sworn, finish_round, passive


def pair(**kw):
    """Sworn Swords S1 and Guardsmen L2 front to front in contact; far-away spares."""
    return scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                    [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], ncus=True, **kw)


def charge_pair():
    return scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                    [guards("L2", (24, 28), jaime=False), guards("L9", (44, 44))])


def test_charge_reroll_is_the_attackers_choice_default_first():
    # charge roll 3; seven dice: 4 4 4 4 4 1 2 -> two misses. Stark keeps them (rerolls nothing).
    s = session(charge_pair(), tape=[3, 4, 4, 4, 4, 4, 1, 2] + [3] * 5)
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90})
    s.apply({"type": "respond", "card": None})
    assert s.active_player() == "stark"
    assert s.legal_actions() == [{"type": "reroll", "dice": [5, 6]}, {"type": "reroll", "dice": []}]
    with pytest.raises(IllegalAction, match="not dice of this roll"):
        s.apply({"type": "reroll", "dice": [9]})
    s.apply({"type": "reroll", "dice": []})
    roll = [e for e in s.log if e.kind == "attack_roll"][-1]
    assert roll.data["hits"] == 5                        # no die was rerolled
    s.apply({"type": "order", "use": False})
    assert s.dice.tape_left == 0


def test_charge_reroll_any_subset_even_hits():
    # The charge bonus may reroll any Attack die: Stark rerolls one hit (position 0) and one miss (5).
    s = session(charge_pair(), tape=[3, 4, 4, 4, 4, 4, 1, 2, 1, 6] + [3] * 5 + [6, 6, 1])
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90})
    s.apply({"type": "respond", "card": None})
    s.apply({"type": "reroll", "dice": [0, 5]})
    roll = [e for e in s.log if e.kind == "attack_roll"][-1]
    assert roll.data["faces"] == [1, 4, 4, 4, 4, 6, 2] and roll.data["hits"] == 5


def test_weakened_token_may_be_kept_by_the_enemy():
    s = session(pair(first_player="stark"), tape=[4, 5, 6, 4, 2, 3] + [1, 1, 1, 1] + [6, 6, 1])
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "weakened"})
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})
    settle_attacked(s)
    p = s.state["pending"][0]
    assert p["window"] == "reroll" and p["player"] == "stark" and p["why"] == "Weakened"
    s.apply({"type": "reroll", "dice": []})              # Stark keeps the token for later
    assert s.state["units"]["L2"]["conditions"] == ["weakened"]
    assert s.state["units"]["S1"]["figures"] == 12 - 4         # four unsaved hits, Panic passed


def settle_attacked(s):
    if s.state["pending"] and s.state["pending"][0]["window"] == "attacked":
        s.apply({"type": "respond", "card": None})


def test_lannister_supremacy_can_be_kept_for_a_later_attack():
    # S1 attacks L2 (no hit); Lannister declines the Order, so it is offered again when S2 (on L2's
    # flank) attacks later in the same round, and used then.
    sc = scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S2", (18.49, 24), 0, robb=False),
                   sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first="stark")
    s = session(sc, tape=[1] * 7 + [1] * 7 + [6, 6, 1])
    s.apply({"type": "attack", "unit": "S1", "target": "L2", "attack": 0})
    settle_attacked(s)
    assert s.state["pending"][0]["window"] == "order"
    assert s.legal_actions() == [{"type": "order", "use": True}, {"type": "order", "use": False}]
    s.apply({"type": "order", "use": False})
    assert s.state["units"]["L2"]["orders_used"] == []
    s.apply({"type": "hold", "unit": "L9"})
    s.apply({"type": "attack", "unit": "S2", "target": "L2", "attack": 0})
    settle_attacked(s)
    assert s.state["pending"][0]["window"] == "order"   # still available this round
    s.apply({"type": "order", "use": True})
    assert s.state["units"]["L2"]["orders_used"] == ["Order: Lannister Supremacy"]
    assert any(e.kind == "panic" and "Lannister Supremacy" in e.text for e in s.log)


def test_pushed_unit_goes_where_its_owner_says():
    # S1 charges L2; after lining up it touches L3's corner: L3 is pushed 1" (default: away from S1),
    # and Lannister may instead move it straight back 1".
    sc = scenario([sworn("S1", (25, 18), 90, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (24, 28), jaime=False), guards("L3", (17.70, 28), jaime=False),
                   guards("L9", (44, 44))])
    s = session(sc, tape=[6] + [4] * 7 + [4] * 7 + [6, 6, 1])
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90})
    p = s.state["pending"][0]
    assert p["window"] == "push" and p["player"] == "lannister"
    opts = s.legal_actions()
    assert opts[0]["x"] == pytest.approx(p["default"][0])        # the default spot first
    with pytest.raises(IllegalAction, match="at most 1"):
        s.apply({"type": "push", "unit": "L3", "x": 17.7, "y": 30.5})
    s.apply({"type": "push", "unit": "L3", "x": 17.7, "y": 29.0})   # L3 faces south: back is north
    assert (s.state["units"]["L3"]["x"], s.state["units"]["L3"]["y"]) == (17.7, 29.0)
    assert s.state["pending"][0]["window"] == "attacked"          # then the charge's Attack goes on
    settle(s)
    assert any(e.kind == "attack_roll" for e in s.log)


def test_dropped_objective_is_placed_by_the_opponent_within_2_inches():
    # A Dance with Dragons: L2 moves onto the side Objective O3 (42, 24) and carries it; Catelyn's
    # Crown zone makes L2 test at -1; it fails with no enemy engaged, so Stark places the token.
    sc = scenario([sworn("S1", (8, 19), 90, robb=False), sworn("S9", (30, 4))],
                  [guards("L2", (40, 29), jaime=False), guards("L9", (10, 44))],
                  mode="dance_with_dragons", ncus=True, first="lannister")
    s = session(sc, tape=[1, 1, 1])
    s.apply({"type": "maneuver", "unit": "L2", "pivot": 270, "distance": 2, "facing": 270})
    assert s.state["units"]["L2"]["objective"] == "O3"
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "crown", "target": "L2"})
    p = s.state["pending"][0]
    assert p["window"] == "place_objective" and p["player"] == "stark"
    assert s.legal_actions()[0] == {"type": "place_objective", "objective": "O3",
                                    "x": p["default"][0], "y": p["default"][1]}
    with pytest.raises(IllegalAction, match="within 2"):
        s.apply({"type": "place_objective", "objective": "O3", "x": 20, "y": 30})
    with pytest.raises(IllegalAction, match="tray"):
        s.apply({"type": "place_objective", "objective": "O3", "x": 40, "y": 26})
    s.apply({"type": "place_objective", "objective": "O3", "x": 45, "y": 27})
    ob = s.state["objectives"][2]
    assert (ob["x"], ob["y"], ob["holder"]) == (45, 27, None)


def test_panicked_token_outside_an_attack_is_the_enemys_choice():
    # Round 1: Catelyn's Tactics zone puts a Panicked token on L2. Round 2: her Crown zone makes L2
    # take a Panic test (-1) outside any Attack; it passes, so Stark decides whether to spend the token.
    sc = scenario([sworn("S1", (8, 8), 90, robb=False), sworn("S9", (30, 4))],
                  [guards("L2", (40, 40), jaime=False), guards("L9", (10, 44))], ncus=True, first="stark")
    s = session(sc, tape=[6, 6, 2, 1, 1] + [6, 6, 2])
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "panicked"})
    finish_round(s)
    while s.active_player() != "stark" or s.state["pending"]:
        s.apply(passive(s))
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "crown", "target": "L2"})
    p = s.state["pending"][0]
    assert (p["window"], p["player"], p["faces"]) == ("panic_reroll", "stark", [6, 6, 2])
    assert s.legal_actions() == [{"type": "reroll", "dice": [0, 1]}, {"type": "reroll", "dice": []}]
    with pytest.raises(IllegalAction, match="positions 0-1"):
        s.apply({"type": "reroll", "dice": [3]})
    with pytest.raises(IllegalAction, match="pending"):
        s.apply({"type": "hold", "unit": "L2"})
    s.apply({"type": "reroll", "dice": [0, 1]})                      # 1+1-1: fails, D3 = 2 Wounds
    l2 = s.state["units"]["L2"]
    assert "panicked" not in l2["conditions"] and l2["figures"] == l2["figures_max"] - 2
    assert any(e.kind == "panic" and "fails" in e.text for e in s.log)
    assert not s.state["pending"] and s.active_player() in ("stark", "lannister")


def test_keeping_the_panicked_token_lets_the_pass_stand():
    sc = scenario([sworn("S1", (8, 8), 90, robb=False), sworn("S9", (30, 4))],
                  [guards("L2", (40, 40), jaime=False), guards("L9", (10, 44))], ncus=True, first="stark")
    s = session(sc, tape=[6, 6, 2])
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "panicked"})
    finish_round(s)
    while s.active_player() != "stark" or s.state["pending"]:
        s.apply(passive(s))
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "crown", "target": "L2"})
    s.apply({"type": "reroll", "dice": []})
    l2 = s.state["units"]["L2"]
    assert "panicked" in l2["conditions"] and l2["figures"] == l2["figures_max"]
    assert any(e.kind == "panic" and "passes" in e.text for e in s.log)
