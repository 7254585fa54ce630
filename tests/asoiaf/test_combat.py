"""Attacks, Panic tests, Condition tokens, Unstoppable Momentum (digest §7, §11.8) with forced dice."""

import pytest

from tests.asoiaf.helpers import kinds, scenario, session, settle, sworn, guards


def pair(**kw):
    """Lannister Guardsmen L2 (no attachment) in base contact, front to front, with Stark Sworn Swords S1."""
    return scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                    [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first="lannister",
                    ncus=True, **kw)


def test_rulebook_attack_example():
    # §7.3: 6 dice at 4+ give 4 hits; Defense 4+ blocks 2; Panic 2D6 = 4 vs Morale 6 fails; D3 = 1.
    tape = [4, 5, 6, 4, 2, 3] + [4, 5, 1, 2] + [1, 3, 1]
    s = session(pair(), tape=tape)
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})
    u = s.state["units"]["S1"]
    assert u["figures"] == 9                        # 2 Wounds + 1 from the Panic test
    assert s.dice.tape_left == 0
    panic = [e for e in s.log if e.kind == "panic"]
    assert panic and panic[-1].data["passed"] is False and panic[-1].data["wounds"] == 1


def test_no_wounds_means_automatic_pass():
    s = session(pair(), tape=[1, 1, 1, 2, 2, 3])
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})
    assert any(e.kind == "panic" and "automatically" in e.text for e in s.log)


def test_weakened_token_forces_hits_to_be_rerolled():
    # Stark's Catelyn claims the Tactics zone: draw 2 and a Weakened token on L2.
    s = session(pair(first_player="stark"), tape=[4, 5, 6, 4, 2, 3] + [1, 1, 1, 1])
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "weakened"})
    assert s.state["units"]["L2"]["conditions"] == ["weakened"]
    assert len(s.state["hands"]["stark"]) == 5
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})
    settle(s)
    assert s.state["units"]["L2"]["conditions"] == []
    assert s.state["units"]["S1"]["figures"] == 12
    assert s.dice.tape_left == 0


def test_vulnerable_token_forces_saves_to_be_rerolled():
    s = session(pair(), tape=[6, 6, 6, 6, 1, 1] + [4, 5, 1, 2] + [1, 1] + [1, 1, 2])
    s.apply({"type": "claim", "ncu": "lannister-N1", "zone": "combat", "target": "S1"})
    assert s.state["units"]["S1"]["conditions"] == ["vulnerable"]
    s.apply({"type": "hold", "unit": "S9"})
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})
    settle(s)
    assert s.state["units"]["S1"]["figures"] == 12 - 4 - 2


def test_panicked_reroll_path():
    # L-side Cersei puts nothing; Stark claims Tactics to give L2 Panicked, then L2 is attacked
    # (Lannister goes first: L2 holds; Catelyn claims; S1 attacks L2; L2 passes 6+6 -> reroll 1+1 fails)
    tape = [6, 6, 6, 6, 6, 6, 6] + [1, 1, 1, 1, 1, 1, 1] + [6, 6, 2] + [1, 1] + [6, 6, 1]
    s = session(pair(), tape=tape)
    s.apply({"type": "hold", "unit": "L9"})
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "panicked"})
    s.apply({"type": "ncu_pass", "ncu": "lannister-N1"})
    s.apply({"type": "attack", "unit": "S1", "target": "L2", "attack": 0})
    settle(s)
    l2 = s.state["units"]["L2"]
    assert "panicked" not in l2["conditions"]
    assert l2["figures"] == 12 - 7 - 2
    assert any(e.kind == "condition" and "Panicked" in e.text for e in s.log)


def test_destroying_a_unit_scores_and_gives_momentum():
    # Grey Wind (solo, 4 Wounds) in contact with L2's front edge
    sc = scenario([{"id": "GW", "card": "10204", "at": [24, 19.375], "facing": 90}, sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first="lannister")
    s = session(sc, tape=[6, 6, 6, 6, 1, 1] + [1, 1, 1, 1])
    s.apply({"type": "attack", "unit": "L2", "target": "GW", "attack": 0})
    if s.state["pending"] and s.state["pending"][0]["window"] == "attacked":
        s.apply({"type": "respond", "card": None})
    assert s.state["units"]["GW"]["destroyed"]
    assert s.state["vp"]["lannister"] == 1
    assert "momentum" in kinds(s)
    assert s.state["pending"][0]["window"] == "momentum"
    s.apply({"type": "free_maneuver", "unit": "L2", "pivot": 270, "distance": 3, "facing": 270})
    assert s.state["units"]["L2"]["y"] == pytest.approx(22.72 - 3)
    assert s.active_player() == "stark"
