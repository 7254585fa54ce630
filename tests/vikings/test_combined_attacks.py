"""legal_actions offers combined attacks: all adjacent friends against one defender, and one
attacker against every enemy he touches (rules 2.72-2.73)."""

from __future__ import annotations

from tests.vikings.helpers import session, to_step


def attacks(s):
    return [(tuple(a["attackers"]), tuple(a["defenders"])) for a in s.legal_actions() if a["type"] == "attack"]


def test_combined_attacks_are_offered_and_legal():
    s = session([{"id": "svein", "hex": "1306"}, {"id": "hallstein", "hex": "1406"},
                 {"id": "thane1", "hex": "1307"}, {"id": "peasant1", "hex": "1206"}], tape=[5])
    to_step(s, "combat")
    offered = attacks(s)
    assert (("hallstein", "svein"), ("thane1",)) in offered           # both neighbours of the thane
    assert (("svein",), ("peasant1", "thane1")) in offered            # Svein against both he touches
    assert (("svein",), ("thane1",)) in offered and (("hallstein",), ("thane1",)) in offered
    for atts, dfds in offered:
        assert s.check({"type": "attack", "attackers": list(atts), "defenders": list(dfds)}) is None
    s.apply({"type": "attack", "attackers": ["hallstein", "svein"], "defenders": ["thane1"]})
    # both have attacked: nothing is offered to them any more
    assert not [a for a in attacks(s) if {"svein", "hallstein"} & set(a[0])]


def test_hopeless_groups_are_not_offered():
    # a bowman against two huscarls together is below 1-1: only the single attacks (if any) remain
    s = session([{"id": "bowman1", "hex": "1306"}, {"id": "edmund", "hex": "1307"},
                 {"id": "wulfgar", "hex": "1206"}])
    to_step(s, "combat")
    assert not [a for a in attacks(s) if len(a[1]) > 1]
    err = s.check({"type": "attack", "attackers": ["bowman1"], "defenders": ["edmund", "wulfgar"]})
    assert err is not None and "below 1-1" in err.reason
