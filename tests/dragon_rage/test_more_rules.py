"""More Dragon Rage rules through the engine (forced dice, through Session): evaluation,
drawn gate state, facing-aware walks, the T-Rex's counter-attack, missiles in the melee
phase, climbing onto a hero, elementals, Boost Morale, crashes, dragon-slayers, Elowyn,
the "nobody inside the walls" and graduated victories, and Nurkott's own rules."""

from __future__ import annotations

import pytest

from simulator.core import IllegalAction
from simulator.games.dragon_rage.evaluation import evaluate
from simulator.games.dragon_rage.monster_moves import walk_reach
from tests.dragon_rage.helpers import kinds, session, to_phase


def end_turns(s, n: int) -> None:
    for _ in range(n * 9 + 20):
        if s.outcome() is not None:
            return
        s.apply({"type": "end_phase"})


# -------------------------------------------------------------------------------- evaluation
def test_evaluate_tracks_vp_material_and_the_end() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["1003"], "facing": "S"}],
                 "defender": [{"type": "infantry", "at": ["1609"]}]}, objective=10)
    game = s.game
    start = game.evaluate(s.state_data(), "invader")
    assert -1 < start < 1 and game.evaluate(s.state_data(), "defender") == -start
    to_phase(s, "invader_move")
    s.apply({"type": "bound", "unit": "dragon1", "to": "1005"})          # 3 VP of 10
    assert game.evaluate(s.state_data(), "invader") > start
    s2 = session({"invader": [{"type": "dragon", "at": ["1003"], "facing": "S"}],
                  "defender": [{"type": "infantry", "at": ["1609"]}]}, objective=3)
    to_phase(s2, "invader_move")
    s2.apply({"type": "bound", "unit": "dragon1", "to": "1005"})
    assert s2.outcome().winner == "invader" and evaluate(s2.state_data(), "invader") == 1.0
    assert evaluate(s2.state_data(), "defender") == -1.0


def test_evaluate_counts_monster_damage() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["0904"], "facing": "S"}],
                 "defender": [{"type": "infantry", "at": ["0905"]}]}, tape=[6])
    before = s.game.evaluate(s.state_data(), "defender")
    to_phase(s, "defender_melee")
    s.apply({"type": "attack_monster", "unit": "inf1", "monster": "dragon1", "area": "head"})
    assert s.game.evaluate(s.state_data(), "defender") > before


# --------------------------------------------------------------------------- presentation
def test_broken_gate_is_drawn_as_an_override() -> None:
    s = session({"invader": [{"type": "orcs", "at": ["0606"]}], "defender": [{"type": "infantry", "at": ["1609"]}]})
    to_phase(s, "invader_move")
    p = s.game.presentation()
    assert p.surface(s.state_data()).hexside_overrides == {}
    key_before = p.surface_key(s.state_data())
    s.apply({"type": "smash", "unit": "orc1", "toward": "0707"})
    surface = p.surface(s.state_data())
    (side, style), = surface.hexside_overrides.items()
    assert set(side) == {"0606", "0707"} and style in surface.feature_styles
    assert p.surface_key(s.state_data()) != key_before


# ------------------------------------------------------------------------- monster walks
def test_legal_walks_come_from_the_facing_aware_search() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["0503"], "facing": "S"}],
                 "defender": [{"type": "infantry", "at": ["1609"]}]})
    to_phase(s, "invader_move")
    walks = {a["path"][-1]: a["path"] for a in s.legal_actions() if a["type"] == "walk"}
    reach = walk_reach(s.state_data(), s.state["units"]["dragon1"])
    assert set(walks) == set(reach) and walks["0507"] == ["0504", "0505", "0506", "0507"]
    assert reach["0507"][0] == 4 and reach["0504"][0] == 1 and reach["0602"][0] == 2   # NE is 120 degrees: +1
    rng = s.game.presentation().move_range(s.state_data(), "dragon1")
    assert set(rng.hexes) == set(reach)
    s.apply({"type": "walk", "unit": "dragon1", "path": walks["0507"]})
    assert s.state["units"]["dragon1"]["hex"] == "0507" and s.state["units"]["dragon1"]["mp_used"] == 4


# ------------------------------------------------------------------------------- T-Rex
def test_t_rex_must_counterattack_its_attacker() -> None:
    s = session({"invader": [{"type": "t_rex", "at": ["0504"]}],
                 "defender": [{"type": "infantry", "at": ["0604"]}, {"type": "cavalry", "at": ["0404"]}]},
                tape=[1, 6], first="defender")
    to_phase(s, "defender_melee")
    s.apply({"type": "attack_monster", "unit": "inf1", "monster": "t_rex1", "area": "body"})
    to_phase(s, "invader_melee")
    with pytest.raises(IllegalAction, match="must"):
        s.apply({"type": "end_phase"})
    assert {"type": "end_phase"} not in s.legal_actions()
    with pytest.raises(IllegalAction, match="must attack one of its attackers"):
        s.apply({"type": "melee", "units": ["t_rex1"], "target": "0404"})
    s.apply({"type": "melee", "units": ["t_rex1"], "target": "0604"})
    assert not s.state["units"]["inf1"]["alive"]
    s.apply({"type": "end_phase"})


# ------------------------------------------------------------------ missiles in the melee
def test_archers_may_shoot_a_monster_in_the_melee_phase() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["0904"], "facing": "S"}],
                 "defender": [{"type": "archers", "at": ["0905"]}]}, tape=[5])
    to_phase(s, "defender_melee")
    assert any(a["type"] == "fire_at_monster" for a in s.legal_actions())
    s.apply({"type": "fire_at_monster", "unit": "arh1", "monster": "dragon1", "area": "head"})
    assert s.state["units"]["dragon1"]["damage"]["head"] == [1]


# --------------------------------------------------------------------------- climbing
def test_climbing_onto_a_lone_hero_pushes_him_aside() -> None:
    s = session({"invader": [{"type": "orcs", "at": ["0607"]}], "defender": [{"type": "hero", "at": ["0708"]}]},
                tape=[6])
    to_phase(s, "invader_move")
    ev = s.apply({"type": "climb", "unit": "orc1", "to": "0708"})
    assert s.state["units"]["orc1"]["hex"] == "0708"
    assert s.state["units"]["hero1"]["hex"] not in ("0708", None) and "step_aside" in kinds(ev)
    s2 = session({"invader": [{"type": "orcs", "at": ["0607"]}], "defender": [{"type": "infantry", "at": ["0708"]}]},
                 tape=[6])
    to_phase(s2, "invader_move")
    with pytest.raises(IllegalAction, match="occupied"):
        s2.apply({"type": "climb", "unit": "orc1", "to": "0708"})


# -------------------------------------------------------------------------- elementals
def test_summon_and_dismiss_an_elemental() -> None:
    s = session({"defender": [{"type": "wizard", "at": ["0907"]}],
                 "invader": [{"type": "orcs", "at": ["0110"]}]}, first="defender")
    ev = s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "0908",
                  "element": "earth"})
    el = s.state["units"]["elm1"]
    assert el["hex"] == "0908" and el["summoner"] == "wizard1" and s.state["units"]["wizard1"]["sp"] == 5
    assert "spell" in kinds(ev)
    to_phase(s, "defender_move")
    with pytest.raises(IllegalAction, match="turn it is summoned"):
        s.apply({"type": "move", "unit": "elm1", "to": "0909"})
    end_turns(s, 0)
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "dismiss_elemental", "target_unit": "elm1"})
    assert not s.state["units"]["elm1"]["alive"] and s.state["units"]["wizard1"]["sp"] == 5   # own: free


def test_summon_refused_on_water_and_when_too_poor() -> None:
    s = session({"defender": [{"type": "wizard", "at": ["1513"]}], "invader": [{"type": "orcs", "at": ["0110"]}]},
                first="defender")
    with pytest.raises(IllegalAction, match="water|bridge|dock"):
        s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "1414"})


# ------------------------------------------------------------------------- Boost Morale
def test_boost_morale_lets_militia_attack_a_monster_with_plus_one() -> None:
    s = session({"defender": [{"type": "wizard", "at": ["0906"]}, {"type": "militia", "at": ["0905"]}],
                 "invader": [{"type": "dragon", "at": ["0904"], "facing": "S"}]}, tape=[5])
    to_phase(s, "defender_melee")
    with pytest.raises(IllegalAction, match="militia"):
        s.apply({"type": "attack_monster", "unit": "mil1", "monster": "dragon1", "area": "head"})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "boost_morale", "radius": 1})
    assert s.state["units"]["mil1"]["boosted"] and s.state["units"]["wizard1"]["sp"] == 8
    to_phase(s, "defender_melee")
    ev = s.apply({"type": "attack_monster", "unit": "mil1", "monster": "dragon1", "area": "head"})
    hit = [e for e in ev if e.kind == "attack"][0]
    assert "5+1" in hit.text and hit.data["success"]                     # head needs 6: 5 + 1


def test_boost_morale_helps_escape_rolls() -> None:
    s = session({"defender": [{"type": "wizard", "at": ["0604"]}, {"type": "infantry", "at": ["0504"]}],
                 "invader": [{"type": "dragon", "at": ["0503"], "facing": "S"}]}, tape=[4], first="defender")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "boost_morale", "radius": 1})
    to_phase(s, "invader_fire")
    ev = s.apply({"type": "breathe", "unit": "dragon1", "direction": 3})
    assert s.state["units"]["inf1"]["alive"]                             # 4 + 1 >= escape 5
    assert [e for e in ev if e.kind == "escape"][0].data["roll"] == 4


# ------------------------------------------------------------------------------ crashes
def test_jumping_off_a_tower_is_a_crash() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["0706"], "facing": "S"}],
                 "defender": [{"type": "militia", "at": ["0707"]}]}, tape=[3, 4, 1])
    to_phase(s, "invader_move")
    ev = s.apply({"type": "jump_off", "unit": "dragon1", "to": "0707"})
    dragon = s.state["units"]["dragon1"]
    assert "crash" in kinds(ev) and dragon["hex"] == "0707" and dragon["alive"]
    assert sum(sum(v) for v in dragon["damage"].values()) == 7                 # 2d6 = 3 + 4
    assert not s.state["units"]["mil1"]["alive"]                              # escape roll 1 fails


def test_a_crash_into_water_kills_the_monster() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["1310"], "facing": "NE"}],
                 "defender": [{"type": "militia", "at": ["0909"]}]})
    to_phase(s, "invader_move")
    s.apply({"type": "jump_off", "unit": "dragon1", "to": "1409"})
    assert not s.state["units"]["dragon1"]["alive"] and "1409" in s.state["impassable"]


# ------------------------------------------------------------------------ dragon-slayers
def test_killing_a_young_dragon_makes_slayers_and_the_dragon_hates_them() -> None:
    s = session({"invader": [{"type": "young_dragon", "at": ["0904"], "facing": "S"},
                             {"type": "dragon", "at": ["0604"], "facing": "S"}],
                 "defender": [{"type": "cavalry", "at": ["0905"]}]}, tape=[6], first="defender")
    young = next(u for u in s.state["units"].values() if u["type"] == "young_dragon")
    to_phase(s, "defender_melee")
    ev = s.apply({"type": "attack_monster", "unit": "cav1", "monster": young["id"], "area": "head"})
    assert "dragon_slayer" in kinds(ev) and s.state["units"]["cav1"]["slayer"]
    assert s.state["units"][young["id"]]["berserk"]


# ------------------------------------------------------------------------------ victory
def _outside_vp_session(**kw):
    s = session({"invader": [{"type": "dragon", "at": ["0306"], "facing": "S"}],
                 "defender": [{"type": "infantry", "at": ["1609"]}]}, **kw)
    to_phase(s, "invader_move")
    s.apply({"type": "bound", "unit": "dragon1", "to": "0309"})              # 1 VP outside the walls
    return s


def test_ten_turns_without_an_invader_inside_the_walls() -> None:
    s = _outside_vp_session(objective=19)
    assert s.state["last_vp_turn"] == 1
    end_turns(s, 12)
    out = s.outcome()
    assert out.winner == "defender" and "inside the walls" in out.text and s.state["turn"] == 10


def test_graduated_victory_gives_the_invader_a_level() -> None:
    s = _outside_vp_session(objective=3, rules={"graduated_victory": True})
    end_turns(s, 12)
    out = s.outcome()
    assert out.winner == "invader" and out.level == "normal"


# ------------------------------------------------------------------------------- Elowyn
def test_elowyn_leaving_the_citadel_lowers_its_value_and_her_death_scores() -> None:
    s = session({"defender": [{"type": "infantry", "at": ["1609"]}],
                 "invader": [{"type": "orcs", "at": ["0110"]}]}, rules={"elowyn": True}, first="defender")
    assert s.state["units"]["elowyn"]["hex"] == "1910"
    from simulator.games.dragon_rage.victory import vp_value
    assert vp_value(s.state_data(), "1910") == 5
    to_phase(s, "defender_move")
    dest = next(a["to"] for a in s.legal_actions() if a["type"] == "move" and a["unit"] == "elowyn")
    s.apply({"type": "move", "unit": "elowyn", "to": dest})
    assert vp_value(s.state_data(), "1910") == 4


def test_nurkott_elowyn_is_freed_by_a_human_invader() -> None:
    s = session({"invader": [{"type": "cavalry", "at": ["1413"]}],
                 "defender": [{"type": "orcs", "at": ["0202"]}]}, map_="dragon_rage/nurkott",
                rules={"elowyn": True})
    elo = s.state["units"]["elowyn"]
    assert elo["captive"] and elo["side"] == "invader" and elo["hex"] == "1414"
    to_phase(s, "invader_move")
    with pytest.raises(IllegalAction, match="freed"):
        s.apply({"type": "move", "unit": "elowyn", "to": "1413"})
    ev = s.apply({"type": "move", "unit": "cav1", "to": "1414"})
    assert "elowyn" in kinds(ev) and not s.state["units"]["elowyn"]["captive"]


# ------------------------------------------------------------------------------ Nurkott
def test_nurkott_door_house_falls_with_its_door() -> None:
    s = session({"invader": [{"type": "trolls", "at": ["1610"]}],
                 "defender": [{"type": "goblins", "at": ["0202"]}]}, map_="dragon_rage/nurkott")
    to_phase(s, "invader_move")
    ev = s.apply({"type": "smash", "unit": "trl1", "toward": "1611"})          # unguarded door: no roll
    assert "entrance_broken" in kinds(ev) and s.state["vp"]["destroyed"].get("1611") == 2


def test_nurkott_archers_shoot_through_their_own_wooden_wall() -> None:
    from simulator.games.dragon_rage.los import sight
    assert not sight("dragon_rage/nurkott", "0812", "0611").clear          # the wall 0812/0712 is in the way
    assert sight("dragon_rage/nurkott", "0812", "0611", through_own_walls=True).clear
    s = session({"defender": [{"type": "goblins", "at": ["0812"]}, {"type": "goblins", "at": ["0911"]}],
                 "invader": [{"type": "goblins", "at": ["0611"]}, {"type": "orcs", "at": ["0612"]}]},
                map_="dragon_rage/nurkott", tape=[6])
    to_phase(s, "defender_fire")
    ev = s.apply({"type": "fire", "units": ["gob1"], "target": "0611"})   # 1 against 1: needs 6
    assert "attack" in kinds(ev) and not s.state["units"]["gob3"]["alive"]


def test_boost_morale_does_not_add_to_a_heros_doubling() -> None:
    # DR 2.8.5, Q-CMB-10: the infantry stacked with the hero is doubled (2 -> 4); boosted too, it
    # keeps the doubling only: the hero's CF is the only boosted CF, less than half of 4 + hero,
    # so the roll gets no +1. The lone boosted infantry next door gets its +1.
    s = session({"defender": [{"type": "wizard", "at": ["1110"]}, {"type": "hero", "at": ["1111"]},
                              {"type": "infantry", "at": ["1111"]}, {"type": "infantry", "at": ["1109"]}],
                 "invader": [{"type": "orcs", "at": ["1112"]}, {"type": "orcs", "at": ["1108"]}]},
                first="defender", tape=[3, 3])
    s.apply({"type": "cast", "unit": "wizard1", "spell": "boost_morale", "radius": 1})
    assert s.state["units"]["inf1"]["boosted"] and s.state["units"]["inf2"]["boosted"]
    to_phase(s, "defender_melee")
    doubled = next(u for u in ("inf1", "inf2") if s.state["units"][u]["hex"] == "1111")
    lone = "inf2" if doubled == "inf1" else "inf1"
    ev = s.apply({"type": "melee", "units": [doubled], "target": "1112"})
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["attack"] == 4 and "rolled 3+0" in attack.text
    ev = s.apply({"type": "melee", "units": [lone], "target": "1108"})
    attack = next(e for e in ev if e.kind == "attack")
    assert attack.data["attack"] == 2 and "rolled 3+1" in attack.text
