"""A charge that ends touching enemies besides its target (digest §6.6 call-out "Engaging
several enemies"): an enemy in the charger's Front arc, beside the Defender, lines up 50% with
the charger; one with no room to line up, or in a Flank arc, is moved 1" away. Exact positions,
forced dice, through Session only.

Layout: Sworn Swords S1 (6.30" x 4.72", Speed 5) at (27.15, 18) facing north charge Guardsmen L2
at (24, 28) facing south with a 50% alignment: S1 ends at (27.15, 23.28), its front edge
(y = 25.64) spanning x 24..30.30, half on L2 (20.85..27.15).
"""

import numpy as np
import pytest

from simulator.games.asoiaf import space
from simulator.games.asoiaf.units import polygon
from tests.asoiaf.helpers import guards, scenario, session, sworn

RULE = 'ASOIAF "Engaging several enemies" (6.6)'


def charge_with(l3, terrain=None):
    sc = scenario([sworn("S1", (27.15, 18), 90, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (24, 28), jaime=False), l3, guards("L9", (44, 44))], terrain=terrain)
    s = session(sc, tape=[6] + [4] * 20)
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90, "align": "left"})
    u = s.state["units"]["S1"]
    assert (u["x"], u["y"], u["facing"]) == pytest.approx((27.15, 23.28, 90))
    return s


def contact_length(s, a, b):
    """How much of a's front edge lies on b's tray (both trays axis-aligned here)."""
    pa, pb = polygon(s.state["units"][a]), polygon(s.state["units"][b])
    lo = max(pa[:, 0].min(), pb[:, 0].min())
    hi = min(pa[:, 0].max(), pb[:, 0].max())
    return hi - lo


def test_enemy_beside_the_defender_in_the_front_arc_lines_up_50_percent():
    # L3 (front to S1's front, 0.85" east of L2) touches S1's front edge over 28.00..30.30 (2.30",
    # less than 50%). It lies mostly in S1's Front arc, so it slides west to (30.30, 28): its front
    # edge now overlaps S1's over 27.15..30.30 = 3.15", half of 6.30", and it touches L2.
    s = charge_with(guards("L3", (31.15, 28), jaime=False))
    l3 = s.state["units"]["L3"]
    assert (l3["x"], l3["y"], l3["facing"]) == pytest.approx((30.30, 28.0, 270))
    assert contact_length(s, "S1", "L3") == pytest.approx(3.15)
    ev = [e for e in s.log if e.kind == "line_up"]
    assert len(ev) == 1 and ev[0].rule == RULE and ev[0].data["pieces"] == ["L3", "S1"]
    assert not any(e.kind == "push" for e in s.log)
    assert [p["window"] for p in s.state["pending"]] == ["attacked"]     # the Attack goes on
    assert {e["id"] for e in space.engaged_with(s.state, s.state["units"]["S1"])} == {"L2", "L3"}


def test_an_enemy_touched_on_its_flank_keeps_that_flank_to_the_charger():
    # L3 faces west; its left flank (south edge, 4.72" long) touches S1's front over 28.00..30.30.
    # Lining up turns nothing: the same edge goes flush on S1's front, overlapping 2.36" (50% of
    # the shorter edge), so L3 ends at (30.30, 28.79) still facing west.
    s = charge_with(guards("L3", (30.36, 28.79), 180, jaime=False))
    l3 = s.state["units"]["L3"]
    assert (l3["x"], l3["y"], l3["facing"]) == pytest.approx((30.30, 28.79, 180))
    assert contact_length(s, "S1", "L3") == pytest.approx(2.36)
    assert space.arc_of(l3, polygon(s.state["units"]["S1"]))[0] == "left"


def test_no_room_to_line_up_means_moving_1_inch_away():
    # An Impassable palisade fills the gap between L2 and L3: neither 50% spot is free, so L3 is
    # moved 1" straight away from S1 (and Lannister may place it elsewhere, the push window).
    palisade = {"kind": "palisade", "polygon": [[27.3, 26], [27.9, 26], [27.9, 30], [27.3, 30]]}
    s = charge_with(guards("L3", (31.15, 28), jaime=False), terrain=[palisade])
    away = np.array([31.15 - 27.15, 28 - 23.28])
    x, y = np.array([31.15, 28]) + away / np.linalg.norm(away)
    l3 = s.state["units"]["L3"]
    assert (l3["x"], l3["y"], l3["facing"]) == pytest.approx((x, y, 270))
    assert not any(e.kind == "line_up" for e in s.log)
    push = [e for e in s.log if e.kind == "push"]
    assert len(push) == 1 and push[0].rule == RULE
    assert s.state["pending"][0]["window"] == "push"
    assert space.engaged_with(s.state, s.state["units"]["S1"]) == [s.state["units"]["L2"]]
