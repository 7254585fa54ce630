"""Dragon Rage rules through the engine: CRT, terrain, monsters, fire, spells, LOS, victory."""

from __future__ import annotations

import pytest

from simulator.core import IllegalAction, Session
from simulator.games.dragon_rage.combat import crt_result
from simulator.games.dragon_rage.rules_data import rules_data
from tests.dragon_rage.helpers import kinds, session, to_phase


def formula(a: int, d: int) -> str:
    if d >= 2 * a:
        return "M"
    if a < d:
        return "11"
    r = a // d
    return "D" if r >= 6 else str(7 - r)


# ------------------------------------------------------------------------------------------ CRT
@pytest.mark.parametrize("attack", range(1, 31))
def test_every_crt_cell_matches_the_rule(attack: int) -> None:
    for defence in range(1, 16):
        assert crt_result(attack, defence) == formula(attack, defence) == rules_data().crt[attack][defence - 1]


def test_crt_outside_the_table_and_literal_option() -> None:
    assert crt_result(40, 16) == "5" and crt_result(40, 16, literal=True) == "D"
    assert crt_result(5, 20) == "M" and crt_result(18, 16) == "6" and crt_result(15, 16) == "11"


def _melee_session(attackers: list[dict], defender: dict, tape: list[int]):
    s = session({"invader": attackers, "defender": [defender]}, tape=tape)
    to_phase(s, "invader_melee")
    return s


@pytest.mark.parametrize("roll,need,destroyed", [(4, 5, False), (5, 5, True)])
def test_melee_needs_the_table_number(roll: int, need: int, destroyed: bool) -> None:
    # two orcs (2+2=4) against infantry 2: ratio 2 -> 5+ (DR 2.7.5)
    s = _melee_session([{"type": "orcs", "count": 2, "at": ["0504", "0505"]}],
                       {"type": "infantry", "at": ["0604"]}, [roll])
    ev = s.apply({"type": "melee", "units": ["orc1", "orc2"], "target": "0604"})
    attack = [e for e in ev if e.kind == "attack"][0]
    assert attack.data["result"] == str(need) and attack.data["success"] is destroyed
    assert s.state["units"]["inf1"]["alive"] is (not destroyed)
    with pytest.raises(IllegalAction, match="already attacked|no enemy"):
        s.apply({"type": "melee", "units": ["orc1"], "target": "0604"})


def test_extreme_odds_and_automatic_results() -> None:
    s = _melee_session([{"type": "goblins", "at": ["0504"]}], {"type": "cavalry", "at": ["0604"]}, [6, 5])
    ev = s.apply({"type": "melee", "units": ["gob1"], "target": "0604"})       # 1 vs 3: M
    assert [e.data["result"] for e in ev if e.kind == "attack"] == ["M"]
    s = _melee_session([{"type": "trolls", "at": ["0504"]}], {"type": "cavalry", "at": ["0604"]}, [6, 5])
    ev = s.apply({"type": "melee", "units": ["trl1"], "target": "0604"})       # 2 vs 3: 11 on 2d6
    assert [e.data["result"] for e in ev if e.kind == "attack"] == ["11"] and not s.state["units"]["cav1"]["alive"]


def test_hero_is_wounded_before_dying() -> None:
    s = _melee_session([{"type": "giant", "at": ["0504"]}], {"type": "hero", "at": ["0604"]}, [6, 6])
    s.apply({"type": "melee", "units": ["giant1"], "target": "0604"})
    assert s.state["units"]["hero1"]["wounded"] and s.state["units"]["hero1"]["alive"]


def test_no_melee_across_a_wall() -> None:
    s = _melee_session([{"type": "orcs", "at": ["0607"]}], {"type": "infantry", "at": ["0708"]}, [6])
    with pytest.raises(IllegalAction, match="wall"):
        s.apply({"type": "melee", "units": ["orc1"], "target": "0708"})


# ------------------------------------------------------------------------------------ movement
def _move_session(units, side="invader", **kw):
    s = session(units, **kw)
    to_phase(s, f"{side}_move")
    return s


def test_road_movement_uses_road_mp_only_along_the_road() -> None:
    s = _move_session({"defender": [{"type": "infantry", "at": ["0807"]}], "invader": [{"type": "orcs", "at": ["0110"]}]},
                      side="defender")
    reach = {a["to"] for a in s.legal_actions() if a["type"] == "move"}
    assert "1107" in reach            # 3 road hexes east (road MP 3)
    assert "0810" not in reach        # 3 hexes off the road: normal MP 2 only
    s.apply({"type": "move", "unit": "inf1", "to": "1107"})
    with pytest.raises(IllegalAction):
        s.apply({"type": "move", "unit": "inf1", "to": "1108"})


def test_sea_river_and_stacking_block_troops() -> None:
    s = _move_session({"invader": [{"type": "orcs", "at": ["1302"]}, {"type": "giant", "at": ["1502"]},
                                   {"type": "goblins", "at": ["0514"]}],
                       "defender": [{"type": "infantry", "at": ["0513"]}]})
    with pytest.raises(IllegalAction, match="river"):
        s.apply({"type": "move", "unit": "orc1", "to": "1402"})
    s.apply({"type": "move", "unit": "giant1", "to": "1402"})                  # giants wade rivers (DR 2.11.1.3)
    with pytest.raises(IllegalAction, match="sea"):
        s.apply({"type": "move", "unit": "gob1", "to": "0515"})
    with pytest.raises(IllegalAction, match="occupied"):
        s.apply({"type": "move", "unit": "gob1", "to": "0513"})


def test_walls_gateways_towers_and_bridges() -> None:
    s = _move_session({"invader": [{"type": "orcs", "at": ["0606"]}, {"type": "goblins", "at": ["0607"]}],
                       "defender": [{"type": "infantry", "at": ["1310"]}]})
    with pytest.raises(IllegalAction, match="controlled by the defender"):
        s.apply({"type": "move", "unit": "orc1", "to": "0707"})                # closed wall gateway inward
    with pytest.raises(IllegalAction, match="wall"):
        s.apply({"type": "move", "unit": "gob1", "to": "0708"})


def test_defender_uses_gateway_outward_and_tower_doors() -> None:
    s = _move_session({"defender": [{"type": "infantry", "at": ["0707"]}, {"type": "archers", "at": ["0806"]}],
                       "invader": [{"type": "orcs", "at": ["0110"]}]}, side="defender")
    s.apply({"type": "move", "unit": "inf1", "to": "0606"})                   # inside -> outside always
    s.apply({"type": "move", "unit": "arh1", "to": "0706"})                   # tower door, defender
    assert s.state["units"]["arh1"]["hex"] == "0706"


def test_bridge_entered_only_from_its_banks() -> None:
    s = _move_session({"defender": [{"type": "infantry", "at": ["1307"]}, {"type": "militia", "at": ["1508"]}],
                       "invader": [{"type": "orcs", "at": ["0110"]}]}, side="defender")
    s.apply({"type": "move", "unit": "inf1", "to": "1407"})
    assert s.state["units"]["inf1"]["hex"] == "1407"


def test_cavalry_may_not_end_in_a_tower() -> None:
    s = _move_session({"defender": [{"type": "cavalry", "at": ["0806"]}], "invader": [{"type": "orcs", "at": ["0110"]}]},
                      side="defender")
    with pytest.raises(IllegalAction, match="cavalry"):
        s.apply({"type": "move", "unit": "cav1", "to": "0706"})


def test_climbing_a_wall_with_forced_die() -> None:
    s = _move_session({"invader": [{"type": "orcs", "at": ["0607"]}], "defender": [{"type": "infantry", "at": ["1609"]}]},
                      tape=[5])
    ev = s.apply({"type": "climb", "unit": "orc1", "to": "0708"})
    assert "climb" in kinds(ev) and s.state["units"]["orc1"]["hex"] == "0708"
    assert s.state["units"]["orc1"]["no_attack"] and s.state["units"]["orc1"]["climbed"]
    with pytest.raises(IllegalAction, match="one climb per game|already tried"):
        s.apply({"type": "climb", "unit": "orc1", "to": "0607"})


def test_smash_gate_by_troops_unguarded_costs_one_mp() -> None:
    s = _move_session({"invader": [{"type": "orcs", "at": ["0606"]}], "defender": [{"type": "infantry", "at": ["1609"]}]})
    ev = s.apply({"type": "smash", "unit": "orc1", "toward": "0707"})
    assert "entrance_broken" in kinds(ev)
    s.apply({"type": "move", "unit": "orc1", "to": "0707"})


def test_dragon_smashes_guarded_gate_with_mp() -> None:
    s = _move_session({"invader": [{"type": "dragon", "at": ["0606"], "facing": "SE"}],
                       "defender": [{"type": "infantry", "at": ["0707"]}]}, tape=[3])
    ev = s.apply({"type": "smash", "unit": "dragon1", "toward": "0707", "mp": 3})
    assert "entrance_broken" in kinds(ev)


# ------------------------------------------------------------------------------------ monsters
def test_dragon_walk_turn_costs_and_overrun() -> None:
    s = _move_session({"invader": [{"type": "dragon", "at": ["0503"], "facing": "S"}],
                       "defender": [{"type": "militia", "at": ["0505"]}]}, tape=[6])
    s.apply({"type": "walk", "unit": "dragon1", "path": ["0504"]})             # 1 MP
    ev = s.apply({"type": "walk", "unit": "dragon1", "path": ["0505"]})        # overrun attack: 2 MP, CF 6 vs 1
    assert any(e.kind == "attack" and e.data["result"] == "D" for e in ev)
    assert s.state["units"]["dragon1"]["mp_used"] == 3
    with pytest.raises(IllegalAction, match="needs 2 MP"):
        s.apply({"type": "walk", "unit": "dragon1", "path": ["0404"]})        # 120-degree turn: 2 MP, 1 left


def test_dragon_slither_bound_fly_and_one_mode_per_turn() -> None:
    s = _move_session({"invader": [{"type": "dragon", "count": 2, "at": ["0503", "1001"], "facing": ["S", "S"]}],
                       "defender": [{"type": "infantry", "at": ["1609"]}]})
    s.apply({"type": "slither", "unit": "dragon1", "turn": 0})
    with pytest.raises(IllegalAction):
        s.apply({"type": "slither", "unit": "dragon1", "turn": 1})
    with pytest.raises(IllegalAction, match="bound landing"):
        s.apply({"type": "bound", "unit": "dragon2", "to": "1005"})
    s.apply({"type": "fly", "unit": "dragon2", "path": ["1002", "1003", "1104", "1204"]})
    assert s.state["units"]["dragon2"]["flying"]
    to_phase(s, "invader_melee")
    to_phase(s, "invader_move")
    s.apply({"type": "land", "unit": "dragon2"})
    assert not s.state["units"]["dragon2"]["flying"]


def test_illegal_flight_turns() -> None:
    s = _move_session({"invader": [{"type": "dragon", "at": ["1001"], "facing": "S"}],
                       "defender": [{"type": "infantry", "at": ["1609"]}]})
    with pytest.raises(IllegalAction, match="at least 2"):
        s.apply({"type": "fly", "unit": "dragon1", "path": ["1002", "1103"]})
    with pytest.raises(IllegalAction, match="at most 6"):
        s.apply({"type": "fly", "unit": "dragon1", "path": ["1002", "1003", "1004", "1005", "1006", "1007", "1008"]})


def test_bound_landing_destroys_an_empty_vp_hex() -> None:
    s = _move_session({"invader": [{"type": "dragon", "at": ["1003"], "facing": "S"}],
                       "defender": [{"type": "infantry", "at": ["1609"]}]})
    ev = s.apply({"type": "bound", "unit": "dragon1", "to": "1005"})
    assert "vp_destroyed" in kinds(ev) and s.state["vp"]["score"] == 3


def test_dragonfire_with_escape_rolls() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["0503"], "facing": "S"}],
                 "defender": [{"type": "infantry", "count": 1, "at": ["0504"]}, {"type": "militia", "at": ["0505"]}]},
                tape=[5, 2])
    to_phase(s, "invader_fire")
    ev = s.apply({"type": "breathe", "unit": "dragon1", "direction": 3})
    assert s.state["units"]["inf1"]["alive"] and not s.state["units"]["mil1"]["alive"]
    assert s.state["units"]["dragon1"]["breaths_left"] == 1
    assert "dragonfire" in kinds(ev)


def test_attacks_on_a_dragon_by_area() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["0904"], "facing": "S"}],
                 "defender": [{"type": "infantry", "at": ["0905"]}, {"type": "cavalry", "at": ["1004"]}]},
                tape=[6, 4])
    to_phase(s, "defender_melee")
    s.apply({"type": "attack_monster", "unit": "inf1", "monster": "dragon1", "area": "head"})
    assert s.state["units"]["dragon1"]["damage"]["head"] == [2]
    with pytest.raises(IllegalAction, match="cannot be reached"):
        s.apply({"type": "attack_monster", "unit": "cav1", "monster": "dragon1", "area": "head"})
    s.apply({"type": "attack_monster", "unit": "cav1", "monster": "dragon1", "area": "wings"})
    assert s.state["units"]["dragon1"]["damage"]["wings"] == [3, 0]


def test_missiles_at_a_flying_dragon_hit_the_belly() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["1001"], "facing": "S"}],
                 "defender": [{"type": "archers", "at": ["1105"]}]}, tape=[6])
    to_phase(s, "invader_move")
    s.apply({"type": "fly", "unit": "dragon1", "path": ["1002", "1003", "1004"]})
    to_phase(s, "defender_fire")
    s.apply({"type": "fire_at_monster", "unit": "arh1", "monster": "dragon1", "area": "wings"})
    assert s.state["units"]["dragon1"]["damage"]["belly"] == [2]


# ---------------------------------------------------------------------------------------- LOS
@pytest.mark.parametrize("a,b,clear", [
    ("1208", "1608", False),       # across the river walls
    ("0907", "1107", True),        # open town
    ("0606", "0707", True),        # through a gateway to the hex just beyond
    ("0706", "1009", True),        # from a tower: any hex
    ("0908", "1303", True),        # into a tower: always
])
def test_line_of_sight(a: str, b: str, clear: bool) -> None:
    from simulator.games.dragon_rage.los import sight
    assert sight("dragon_rage/esirien", a, b).clear is clear


def test_archers_cannot_fire_without_sight() -> None:
    s = session({"defender": [{"type": "archers", "at": ["1308"]}], "invader": [{"type": "orcs", "at": ["1509"]}]})
    to_phase(s, "defender_fire")
    with pytest.raises(IllegalAction, match="line of sight|river|wall"):
        s.apply({"type": "fire", "units": ["arh1"], "target": "1509"})


# ------------------------------------------------------------------------------------- spells
def test_spells_cost_points_and_work() -> None:
    s = session({"defender": [{"type": "wizard", "at": ["1110"]}, {"type": "infantry", "at": ["1111"]}],
                 "invader": [{"type": "orcs", "at": ["1113"]}, {"type": "dragon", "at": ["0503"]}]},
                tape=[6, 1])
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "lightning", "target": "1113", "target_unit": "orc1"})
    assert not s.state["units"]["orc1"]["alive"] and s.state["units"]["wizard1"]["sp"] == 7
    with pytest.raises(IllegalAction, match="already cast"):
        s.apply({"type": "cast", "unit": "wizard1", "spell": "boost_morale", "radius": 0})


def test_fog_blocks_attacks_and_whirlwind_destroys_vp() -> None:
    s = session({"defender": [{"type": "wizard", "at": ["1109"]}, {"type": "infantry", "at": ["1111"]}],
                 "invader": [{"type": "orcs", "at": ["1112"]}]}, first="defender")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "whirlwind", "target": "1110"})
    assert "1110" in s.state["vp"]["destroyed"]
    s2 = session({"invader": [{"type": "invader_wizard", "at": ["1108"]}, {"type": "orcs", "at": ["1112"]}],
                  "defender": [{"type": "infantry", "at": ["1111"]}]})
    s2.apply({"type": "cast", "unit": "wzd1", "spell": "fog", "target": "1111"})
    to_phase(s2, "invader_melee")
    with pytest.raises(IllegalAction, match="fog"):
        s2.apply({"type": "melee", "units": ["orc1"], "target": "1111"})


# ------------------------------------------------------------------------------------ victory
def test_objective_reached_wins_for_the_invader() -> None:
    s = _move_session({"invader": [{"type": "dragon", "at": ["1003"], "facing": "S"}],
                       "defender": [{"type": "infantry", "at": ["1609"]}]}, objective=3)
    s.apply({"type": "bound", "unit": "dragon1", "to": "1005"})
    assert s.outcome().winner == "invader" and s.outcome().rule == "DR 2.3"


def test_ten_quiet_turns_win_for_the_defender() -> None:
    s = session({"invader": [{"type": "orcs", "at": ["0110"]}], "defender": [{"type": "infantry", "at": ["1609"]}]})
    for _ in range(200):
        if s.outcome():
            break
        s.apply({"type": "end_phase"})
    assert s.outcome().winner == "defender" and s.state["turn"] == 10
    assert "DR 2.2.4.2" in s.outcome().rule or "DR 2.3" in s.outcome().rule


def _own_reinforcements(plan: dict) -> Session:
    return session({"invader": [{"type": "orcs", "at": ["0110"]}], "defender": [{"type": "infantry", "at": ["1609"]}]},
                   setup={"reinforcements": plan})


def test_a_scenario_changes_the_reinforcement_rate_and_place() -> None:
    # DR 2.9: "scenarios may change the rate or place of arrival": 2 units on turn 2, 4, ... at 0605
    s = _own_reinforcements({"first_turn": 2, "every": 2, "count": 2, "arrival": ["0605", "0606"]})
    to_phase(s, "defender_reinforce")
    assert s.state["pending_reinforcements"] == 0                      # turn 1: none
    to_phase(s, "invader_spell")
    to_phase(s, "defender_reinforce")
    assert s.state["turn"] == 2 and s.state["pending_reinforcements"] == 2
    assert sorted(a["to"] for a in s.legal_actions() if a["type"] == "reinforce") == ["0605", "0606"]
    with pytest.raises(IllegalAction, match="not a vacant arrival hex") as exc:
        s.apply({"type": "reinforce", "to": "1014"})                   # a dock: not this scenario's place
    assert exc.value.rule == "DR 2.9"
    s.apply({"type": "reinforce", "to": "0605"})
    assert s.state["units"]["inf2"]["hex"] == "0605"


def test_a_reinforcement_place_in_the_sea_is_reported_at_its_line() -> None:
    from simulator.core.errors import DataError
    with pytest.raises(DataError, match=r"arrival.*0916 is not a hex of this map where infantry may stand"):
        _own_reinforcements({"arrival": ["0605", "0916"]})


def test_all_invaders_destroyed() -> None:
    s = _melee_session([{"type": "goblins", "at": ["0504"]}], {"type": "cavalry", "at": ["0604"]}, [6])
    to_phase(s, "defender_melee")
    s.apply({"type": "melee", "units": ["cav1"], "target": "0504"})
    assert s.outcome().winner == "defender"


def test_reinforcements_arrive_on_turn_ten() -> None:
    s = session({"invader": [{"type": "orcs", "at": ["0110"]}], "defender": [{"type": "infantry", "at": ["1609"]}]},
                objective=1)
    st = s.state_data()
    from simulator.games.dragon_rage.phases import is_reinforcement_turn
    assert [t for t in range(1, 31) if is_reinforcement_turn(t)] == [10, 14, 18, 22, 26, 30]
    assert st["pending_reinforcements"] == 0
