"""Rules the rulebook states that the engine used to get wrong (issue 26, Dragon Rage part),
each played through Session with forced dice: fire after landing, elementals in VP hexes and on
docks and bridges, MP spent in a VP hex, crashes onto wooden bridges."""

from __future__ import annotations

import pytest

from simulator.core import IllegalAction
from tests.dragon_rage.helpers import kinds, session, to_phase

FAR_DEFENDER = {"type": "infantry", "at": ["1609"]}


def _units(s):
    return s.state["units"]


# ------------------------------------------------------------- dragonfire after a landing
def _landed_dragon():
    """dragon1 takes off on turn 1 and lands in place at 1004 (facing S) on turn 2."""
    s = session({"invader": [{"type": "dragon", "at": ["1001"], "facing": "S"}], "defender": [FAR_DEFENDER]})
    to_phase(s, "invader_move")
    s.apply({"type": "fly", "unit": "dragon1", "path": ["1002", "1003", "1004"]})
    to_phase(s, "defender_melee")
    to_phase(s, "invader_move")
    s.apply({"type": "land", "unit": "dragon1"})
    to_phase(s, "invader_fire")
    return s


def test_a_dragon_that_landed_this_turn_breathes_no_fire() -> None:
    s = _landed_dragon()
    assert not _units(s)["dragon1"]["flying"]
    with pytest.raises(IllegalAction, match="landed this turn") as exc:
        s.apply({"type": "breathe", "unit": "dragon1", "direction": 3})        # at 1005, a VP hex
    assert "2.12.1.1.4" in exc.value.rule and "2.12.1.5" in exc.value.rule
    assert not any(a["type"] == "breathe" for a in s.legal_actions())
    assert "1005" not in s.state["vp"]["destroyed"]


def test_a_dragon_that_landed_on_an_earlier_turn_breathes_again() -> None:
    s = _landed_dragon()
    to_phase(s, "defender_melee")
    to_phase(s, "invader_fire")                                             # turn 3, on the ground
    ev = s.apply({"type": "breathe", "unit": "dragon1", "direction": 3})
    assert "dragonfire" in kinds(ev) and "1005" in s.state["vp"]["destroyed"]


# ------------------------------------------------------------------ elementals and VP hexes
def test_an_elemental_destroys_an_occupied_vp_hex_it_enters() -> None:
    s = session({"invader": [{"type": "orcs", "at": ["2208"]}],
                 "defender": [{"type": "earth_elemental", "at": ["1004"]}, {"type": "infantry", "at": ["1005"]}]},
                first="defender")
    to_phase(s, "defender_move")
    ev = s.apply({"type": "move", "unit": "elm1", "to": "1005"})
    vp = next(e for e in ev if e.kind == "vp_destroyed")
    assert vp.rule == "DR 2.8.9" and vp.data["hex"] == "1005" and s.state["vp"]["score"] == 3


# -------------------------------------------------------------- MP spent in a VP hex (DR 2.3)
def _dragon_in_1005():
    s = session({"invader": [{"type": "dragon", "at": ["1004"], "facing": "S"}], "defender": [FAR_DEFENDER]})
    to_phase(s, "invader_move")
    s.apply({"type": "walk", "unit": "dragon1", "path": ["1005"]})
    assert "1005" not in s.state["vp"]["destroyed"]
    return s


def test_turning_in_place_in_a_vp_hex_destroys_it() -> None:
    s = _dragon_in_1005()
    ev = s.apply({"type": "rotate", "unit": "dragon1", "facing": 4})
    vp = next(e for e in ev if e.kind == "vp_destroyed")
    assert vp.rule == "DR 2.3" and vp.data["hex"] == "1005" and s.state["vp"]["score"] == 3


def test_an_extra_turn_before_walking_on_is_an_mp_spent_in_the_hex() -> None:
    s = _dragon_in_1005()
    ev = s.apply({"type": "walk", "unit": "dragon1", "path": ["1105"]})     # NE from facing S: +1 MP
    assert "1005" in s.state["vp"]["destroyed"] and next(e for e in ev if e.kind == "vp_destroyed").rule == "DR 2.3"
    assert _units(s)["dragon1"]["mp_used"] == 3


def test_walking_through_a_vp_hex_with_the_free_turn_leaves_it() -> None:
    s = _dragon_in_1005()
    s.apply({"type": "walk", "unit": "dragon1", "path": ["1106"]})          # SE: the free 60-degree turn
    assert "1005" not in s.state["vp"]["destroyed"]


def test_turning_in_a_vp_hex_held_by_an_enemy_keeps_it() -> None:
    # the hex must be free of enemies (digest Q-VP-2)
    s = session({"invader": [{"type": "dragon", "at": ["1004"], "facing": "S"}],
                 "defender": [{"type": "hero", "at": ["1005"]}]})
    to_phase(s, "invader_move")
    s.apply({"type": "walk", "unit": "dragon1", "path": ["1005"]})           # onto the hero (DR 2.4.4)
    s.apply({"type": "rotate", "unit": "dragon1", "facing": 4})
    assert "1005" not in s.state["vp"]["destroyed"]


# ----------------------------------------------------------------- crashes onto bridges
def _crash_over(path: list[str], facing: str, tape: list[int]):
    """dragon1 flies from 1112 along ``path``; the defender's wizard then calls a whirlwind
    onto the hex it ended over (the crash check rolls first)."""
    s = session({"invader": [{"type": "dragon", "at": ["1112"], "facing": facing}],
                 "defender": [{"type": "wizard", "at": ["1513"]}]}, tape=tape)
    to_phase(s, "invader_move")
    s.apply({"type": "fly", "unit": "dragon1", "path": path})
    to_phase(s, "defender_spell")
    ev = s.apply({"type": "cast", "unit": "wizard1", "spell": "whirlwind", "target": path[-1]})
    return s, ev


def test_a_crash_onto_the_wooden_bridge_1413_drowns_the_dragon() -> None:
    s, ev = _crash_over(["1212", "1313", "1413"], "SE", [4])
    assert "crash" in kinds(ev) and not _units(s)["dragon1"]["alive"]
    assert s.state["bridges"]["1413"] == "burned"
    dead = next(e for e in ev if e.kind == "destroyed")
    assert dead.rule == "DR 2.12.1.1.5" and "river" in dead.text


def test_a_crash_onto_the_stone_bridge_is_survived() -> None:
    s, ev = _crash_over(["1211", "1311", "1410"], "NE", [4, 3, 4])
    dragon = _units(s)["dragon1"]
    assert "crash" in kinds(ev) and dragon["alive"] and dragon["hex"] == "1410"
    assert sum(sum(v) for v in dragon["damage"].values()) == 7


# ---------------------------------------------------- elementals on docks and bridges (DR 2.8.9)
@pytest.mark.parametrize("start,to,terrain", [("1013", "1014", "dock"), ("1313", "1413", "bridge"),
                                              ("1212", "1413", "bridge")])
def test_an_elemental_sent_onto_a_dock_or_bridge_is_destroyed(start: str, to: str, terrain: str) -> None:
    s = session({"invader": [{"type": "orcs", "at": ["2208"]}],
                 "defender": [{"type": "fire_elemental", "at": [start]}]}, first="defender")
    to_phase(s, "defender_move")
    assert {"type": "move", "unit": "elm1", "to": to} in s.legal_actions()
    assert to in s.game.presentation().move_range(s.state_data(), "elm1").hexes     # a legal drop
    ev = s.apply({"type": "move", "unit": "elm1", "to": to})
    dead = next(e for e in ev if e.kind == "destroyed")
    assert dead.rule == "DR 2.8.9" and terrain in dead.text and not _units(s)["elm1"]["alive"]
    assert _units(s)["elm1"]["hex"] == to


def test_an_elemental_cannot_pass_over_a_bridge() -> None:
    s = session({"invader": [{"type": "orcs", "at": ["2208"]}],
                 "defender": [{"type": "fire_elemental", "at": ["1313"]}]}, first="defender")
    to_phase(s, "defender_move")
    with pytest.raises(IllegalAction) as exc:
        s.apply({"type": "move", "unit": "elm1", "to": "1514"})               # beyond the bridge 1413
    assert exc.value.rule.startswith("DR 2")
    assert _units(s)["elm1"]["alive"] and _units(s)["elm1"]["hex"] == "1313"


def test_mp_spent_on_a_gate_from_a_vp_hex_destroys_it(tmp_path) -> None:
    """A small map: a wall gateway between 0303 (outside, a VP hex) and 0304 (inside)."""
    from simulator.core import Session
    from simulator.core.scenario import scenario_from_data
    path = tmp_path / "gatehouse.yaml"
    path.write_text("""\
format: hexmap/1
id: gatehouse
name: Gatehouse
game: dragon_rage
description: a wall gate with a VP hex before it
grid: {orientation: flat, offset: even-q, labels: CCRR, columns: 6, rows: 6}
default_terrain: clear
terrain: {town: "0304 0305"}
hexes:
  "0303": {vp: 2}
hexsides:
  - {between: ["0303", "0304"], feature: gateway, colour: red, owner: defender, inside: "0304"}
  - {between: ["0203", "0304"], feature: wall}
  - {between: ["0403", "0304"], feature: wall}
""", encoding="utf-8")
    data = {"game": "dragon_rage", "name": "gate", "description": "gate", "map": str(path),
            "rules": {"reinforcements": False},
            "setup": {"objective": 9, "forces": {"invader": [{"type": "dragon", "at": ["0303"], "facing": "S"}],
                                                 "defender": [{"type": "infantry", "at": ["0606"]}]}}}
    s = Session.new(scenario_from_data(data, "gate"), seed=1)
    to_phase(s, "invader_move")
    ev = s.apply({"type": "smash", "unit": "dragon1", "toward": "0304", "mp": 1})
    vp = next(e for e in ev if e.kind == "vp_destroyed")
    assert vp.rule == "DR 2.3" and vp.data["hex"] == "0303" and s.state["vp"]["score"] == 2
