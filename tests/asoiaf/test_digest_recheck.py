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
