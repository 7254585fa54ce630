"""Differences found when re-reading the digest against the code (docs/asoiaf.md "Digest re-check")."""

from simulator.games.asoiaf import space
from tests.asoiaf.helpers import guards, scenario, session, sworn


def modifier(terrain: list[dict]) -> int:
    s = session(scenario([sworn("S1", (24, 18), 90)], [guards("L1", (24, 40), 270)], terrain=terrain))
    return space.morale_terrain_modifier(s.state, s.state["units"]["S1"])


def test_same_named_terrain_morale_effects_do_not_stack():
    # S1's tray spans x 20.85-27.15, y 15.64-20.36; each pile is 0.85" away (14.1 Horrific, 11.5)
    piles = [{"kind": "corpse_pile", "at": [18, 18]}, {"kind": "corpse_pile", "at": [30, 18]}]
    assert modifier(piles) == -1                                             # not -2
    assert modifier(piles + [{"kind": "weirwood", "at": [24, 24]}]) == 0     # different names stack
    assert modifier([{"kind": "corpse_pile", "at": [24, 30]}]) == 0          # 7.6" away: out of Short range


# -- §6.5.2 / §19.8: facing change before a melee Attack (re-read with §17-19) ------------------
# L2 (Guardsmen, 6.30" x 4.72", facing south) spans x 20.85-27.15, y 20.36-25.08; its west edge is
# its right flank.

def melee_pair(s2_at, s2_facing, first):
    import pytest
    sc = scenario([sworn("S2", s2_at, s2_facing, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first=first)
    s = session(sc, tape=[1] * 20)
    assert [e["id"] for e in space.engaged_with(s.state, s.state["units"]["S2"])] == ["L2"]
    return s, pytest


def test_a_lone_enemy_on_the_flank_lets_the_unit_turn_and_align():
    # S2 (facing east) touches L2's west edge: L2 turns to face it, front to S2's front, centred.
    s, pytest = melee_pair((18.49, 24), 0, "lannister")
    assert {"type": "attack", "unit": "L2", "target": "S2", "attack": 0, "align": "centre"} in s.legal_actions()
    s.apply({"type": "attack", "unit": "L2", "target": "S2", "attack": 0, "align": "centre"})
    u = s.state["units"]["L2"]
    assert (u["x"], u["y"], u["facing"]) == pytest.approx((20.85 + 2.36, 24, 180))


def test_a_lone_enemy_in_the_front_arc_allows_a_slide_but_no_turn():
    import numpy as np
    # S2 facing east, front to L2's flank: it may slide to centre (y 24 -> 22.72), same facing.
    s, pytest = melee_pair((18.49, 24), 0, "stark")
    s.apply({"type": "attack", "unit": "S2", "target": "L2", "attack": 0, "align": "centre"})
    u = s.state["units"]["S2"]
    assert (u["x"], u["y"], u["facing"]) == pytest.approx((18.49, 22.72, 0))
    # S2 turned 10 degrees, its front-right corner on L2's west edge: L2 is in its Front arc, so
    # squaring up would be a facing change, which only a Flank or Rear enemy allows.
    reach = float(2.36 * np.cos(np.radians(10)) + 3.15 * np.sin(np.radians(10)))
    s, pytest = melee_pair((20.85 - reach, 24), 10, "stark")
    with pytest.raises(Exception, match="Front arc: it may slide to align but not change facing"):
        s.apply({"type": "attack", "unit": "S2", "target": "L2", "attack": 0, "align": "centre"})
    assert not any(a.get("align") for a in s.legal_actions() if a.get("unit") == "S2")
    s.apply({"type": "attack", "unit": "S2", "target": "L2", "attack": 0})          # no alignment: fine


def test_a_wall_touched_by_an_enemy_still_shoots_its_arrows():
    """16.3: castle walls follow only their own rules, so an enemy in contact does not turn the
    wall's turn into a melee it has no Attack for: its Arrows are offered and accepted."""
    from tests.asoiaf.helpers import guards, scenario, session, sworn

    s = session(scenario([sworn("S1", (24, 40), 90)], [dict(guards("L1", (40, 40)), reserve=True)],
                         mode="storm_of_swords", defender="lannister", first="stark"))
    u, w = s._state["units"]["S1"], s._state["units"]["wall1"]
    u["y"] = w["y"] - w["depth"] / 2 - u["depth"] / 2             # S1 touches the wall's front
    s.apply({"type": "hold", "unit": "S1"})
    arrows = [a for a in s.legal_actions() if a.get("unit") == "wall1" and a["type"] == "attack"]
    assert arrows and all(a["target"] == "S1" for a in arrows)
    events = s.apply(arrows[0])
    assert [e.kind for e in events if e.kind in ("attack", "attack_roll")] == ["attack", "attack_roll"]
