"""Stacking at the end of movement (rule 2.6), issue 6: a character may pass through a friend's hex
but never enter one he could not leave again, and a stack nobody can clear any more does not
freeze the game."""

from __future__ import annotations

from simulator.core.session import Session
from tests.vikings.helpers import session, to_step

SVEIN_INTO_TOR = {"type": "move", "piece": "svein", "to": "1206"}


def _position() -> Session:
    """Svein (1205) and Tor (1206), Vikings on foot in the open, side by side, movement step."""
    s = session([{"id": "svein", "hex": "1205"}, {"id": "tor", "hex": "1206"}, {"id": "archer1", "hex": "2002"}])
    to_step(s, "move")
    return s


def _walk(s: Session, hexes: list[str]) -> None:
    for h in hexes:
        s.apply({"type": "move", "piece": "svein", "to": h})


def test_passing_through_a_friends_hex_needs_the_mp_to_leave_it():
    s = _position()
    _walk(s, ["1306", "1205", "1306", "1205"])              # open ground: 1 MP a hex, 2 MP left
    assert s.state["chars"]["svein"]["mp"] == 2
    assert s.check(SVEIN_INTO_TOR) is None                  # he can still go on after Tor's hex
    _walk(s, ["1306"])                                       # 1 MP left
    err = s.check(SVEIN_INTO_TOR)
    assert err is not None and err.rule == "VK 2.6" and "could not leave" in err.reason
    assert SVEIN_INTO_TOR not in s.legal_actions()


def test_a_stack_is_cleared_before_the_step_ends():
    s = _position()
    _walk(s, ["1206"])                                       # through Tor's hex, 5 MP left
    legal = s.legal_actions()
    assert {"type": "end_phase"} not in legal
    assert {"type": "move", "piece": "svein", "to": "1207"} in legal
    assert s.check({"type": "end_phase"}).rule == "VK 2.6"


def test_a_stack_nobody_can_clear_lets_the_step_end():
    """Issue 6 (sea_fight): defensive fire limited a character passing through a friend's hex to the
    steps he had already made (rule 8.2), and the friend had no MP: legal_actions offered only
    end_phase, which was refused."""
    s = _position()
    _walk(s, ["1206"])
    s._state["chars"]["svein"]["move_cap"] = 1              # defensive fire result A, as in the game
    s._state["chars"]["tor"]["mp"] = 0
    legal = s.legal_actions()
    assert {"type": "end_phase"} in legal
    assert not [a for a in legal if a["type"] == "move" and a["piece"] in ("svein", "tor")]
    events = s.apply({"type": "end_phase"})
    assert [e for e in events if e.kind == "stacked" and e.rule == "VK 2.6"]
