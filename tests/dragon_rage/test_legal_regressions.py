"""Regressions found by computer-player games: every offered action must be accepted, and a
phase that may not end must still offer the actions that let the game go on.

* Dismiss Elemental (DR 2.8.9) of an elemental its summoner no longer controls costs a d6
  rolled on casting; it used to be offered without ``max_cost`` and refused when the roll
  exceeded the wizard's spell points.
* A controlled elemental that stops on enemy units must attack them (its own hex) before its
  side's melee phase may end; that attack was never offered, so the phase had no legal action.
* Reinforcements (DR 2.9) were offered while every counter that could arrive was in play.
"""

from __future__ import annotations

from simulator.core import Session
from tests.dragon_rage.helpers import session, to_phase


def _freed_elemental(tape: list[int]) -> Session:
    """wizard1 summons elm1 (5 SP left); the rival's lightning on wizard1 frees it (DR 2.8.9)."""
    s = session({"defender": [{"type": "wizard", "at": ["0907"]}, {"type": "infantry", "at": ["1208"]}],
                 "invader": [{"type": "wizard", "at": ["0911"]}]}, first="defender", tape=tape)
    s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "0905", "element": "earth"})
    to_phase(s, "invader_spell")
    s.apply({"type": "cast", "unit": "wizard2", "spell": "lightning", "target": "0907", "target_unit": "wizard1"})
    assert s.state["units"]["elm1"]["controlled"] is False
    to_phase(s, "defender_spell")
    assert s.dice.tape_position == 0 and s.state["units"]["wizard1"]["sp"] == 5
    return s


def _dismissals(s: Session) -> list[dict]:
    return [a for a in s.legal_actions() if a["type"] == "cast" and a["spell"] == "dismiss_elemental"]


def test_dismissing_a_freed_elemental_is_offered_with_the_wizards_points_as_the_limit() -> None:
    s = _freed_elemental([6])
    offered = _dismissals(s)
    assert offered == [{"type": "cast", "unit": "wizard1", "spell": "dismiss_elemental", "target_unit": "elm1",
                        "max_cost": 5}]
    assert s.check(offered[0]) is None              # a roll of 6 > 5 SP: declined, not refused
    events = s.apply(offered[0])
    assert any("declines" in e.text for e in events)
    assert s.state["units"]["elm1"]["alive"] and s.state["units"]["wizard1"]["sp"] == 5
    assert s.state["units"]["wizard1"]["spelled"]   # the attempt was his spell of the turn (DR 2.8.4)


def test_dismissing_a_freed_elemental_pays_the_roll_when_affordable() -> None:
    s = _freed_elemental([3])
    s.apply(_dismissals(s)[0])
    assert not s.state["units"]["elm1"]["alive"] and s.state["units"]["wizard1"]["sp"] == 2


def test_a_wizard_without_points_may_still_dismiss_his_own_controlled_elemental() -> None:
    s = session({"defender": [{"type": "wizard", "at": ["0907"]}], "invader": [{"type": "orcs", "at": ["0110"]}]},
                first="defender")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "0908", "element": "earth"})
    for _ in range(2):                             # Boost Morale, radius 1 (2 SP) twice, then radius 0: 5 -> 0
        to_phase(s, "invader_spell")
        to_phase(s, "defender_spell")
        s.apply({"type": "cast", "unit": "wizard1", "spell": "boost_morale", "radius": 1})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "boost_morale", "radius": 0})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_spell")
    assert s.state["units"]["wizard1"]["sp"] == 0 and s.state["units"]["elm1"]["controlled"]
    offered = _dismissals(s)
    assert offered == [{"type": "cast", "unit": "wizard1", "spell": "dismiss_elemental", "target_unit": "elm1"}]
    s.apply(offered[0])
    assert not s.state["units"]["elm1"]["alive"]


def test_an_elemental_stopped_on_enemies_is_offered_its_owed_attack() -> None:
    s = session({"defender": [{"type": "wizard", "at": ["0907"]}], "invader": [{"type": "orcs", "at": ["0910"]}]},
                first="defender", tape=[1])
    s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "0908", "element": "earth"})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "elm1", "to": "0910"})      # elementals ignore stacking (DR 2.8.9)
    assert s.state["units"]["elm1"]["must_attack_here"] == "0910"
    to_phase(s, "defender_melee")
    offered = s.legal_actions()
    assert s.outcome() is None and offered, "the melee phase had no legal action (deadlock)"
    assert {"type": "melee", "units": ["elm1"], "target": "0910"} in offered
    assert {"type": "end_phase"} not in offered     # the owed attack comes first
    assert all(s.check(a) is None for a in offered)
    s.apply({"type": "melee", "units": ["elm1"], "target": "0910"})
    assert {"type": "end_phase"} in s.legal_actions()


def test_no_reinforcement_is_offered_once_every_counter_is_in_play() -> None:
    # Nurkott's reinforcements are orcs, then goblins: all 12 orcs and 8 goblins are on the map
    s = session({"defender": [{"type": "orcs", "count": 12, "zone": "inside_walls"},
                              {"type": "goblins", "count": 8, "zone": "inside_walls"}],
                 "invader": [{"type": "infantry", "at": ["0110"]}]}, map_="dragon_rage/nurkott")
    while not (s.state["turn"] == 10 and s.state["phase"] == "defender_reinforce"):
        s.apply({"type": "end_phase"})
    assert s.state["pending_reinforcements"] == 4 and s.outcome() is None
    assert s.legal_actions() == [{"type": "end_phase"}]
    refused = s.check({"type": "reinforce", "to": "2016"})
    assert refused is not None and "every infantry and militia counter" in str(refused)
