"""Character rules with forced dice: fire, movement, melee, special troops, the turn sequence."""

from __future__ import annotations

import pytest

from simulator.core.errors import IllegalAction
from tests.vikings.helpers import session, to_side_step, to_step


def events(s, kind):
    return [e for e in s.log if e.kind == kind]


def test_turn_sequence_without_ships_skips_naval_phases():
    s = session([{"id": "bowman1", "hex": "1205"}, {"id": "edmund", "hex": "1208"}])
    assert s.state["phase_index"] == 1 and s.state["step"] == "fire" and s.active_player() == "vikings"
    for step in ("move", "combat"):
        s.apply({"type": "end_phase"})
        assert s.state["step"] == step
    s.apply({"type": "end_phase"})
    assert s.state["phase_index"] == 3 and s.state["phasing"] == "saxons" and s.state["step"] == "fire"
    texts = [e.text for e in events(s, "phase")]
    assert any("second naval phase - no boats afloat" in t for t in texts)


def test_offensive_fire_uses_range_armour_and_cover():
    s = session([{"id": "bowman1", "hex": "1205"}, {"id": "edmund", "hex": "1208"}], tape=[1])
    s.apply({"type": "fire", "piece": "bowman1", "target": "edmund"})
    shot = events(s, "fire")[-1]
    assert shot.data["modifier"] == 1 and shot.data["cover"] == "none" and shot.data["result"] == "B"
    assert s.state["chars"]["edmund"]["status"] == "wounded"
    with pytest.raises(IllegalAction, match="already shot"):
        s.apply({"type": "fire", "piece": "bowman1", "target": "edmund"})


def test_medium_range_and_brush_cover():
    # 1407 is brush (light cover); range 12 is medium (+1); unarmoured archer target
    s = session([{"id": "bowman1", "hex": "1401"}, {"id": "archer1", "hex": "1407"}], tape=[3])
    s.apply({"type": "fire", "piece": "bowman1", "target": "archer1"})
    shot = events(s, "fire")[-1]
    assert shot.data["cover"] == "light" and shot.data["modifier"] == 0
    s2 = session([{"id": "bowman1", "hex": "1601"}, {"id": "archer1", "hex": "1613"}], tape=[2])
    s2.apply({"type": "fire", "piece": "bowman1", "target": "archer1"})
    shot = events(s2, "fire")[-1]          # 12 hexes: medium range +1; a swimmer has light cover
    assert shot.data["modifier"] == 1 and shot.data["cover"] == "light" and shot.data["result"] == "A"


def test_trees_and_standing_characters_block_short_shots():
    s = session([{"id": "bowman1", "hex": "0103"}, {"id": "archer1", "hex": "0503"}])
    err = s.check({"type": "fire", "piece": "bowman1", "target": "archer1"})
    assert err is not None and err.rule == "VK 2.4.1"
    s = session([{"id": "bowman1", "hex": "1205"}, {"id": "tor", "hex": "1206"},
                 {"id": "archer1", "hex": "1208"}])
    err = s.check({"type": "fire", "piece": "bowman1", "target": "archer1"})
    assert err is not None and err.rule == "VK 2.4.10"


def test_cannot_shoot_in_contact():
    s = session([{"id": "bowman1", "hex": "1205"}, {"id": "edmund", "hex": "1206"}])
    err = s.check({"type": "fire", "piece": "bowman1", "target": "edmund"})
    assert err is not None and "contact" in err.reason


def test_movement_costs_and_terrain():
    s = session([{"id": "hallstein", "hex": "0906"}, {"id": "edmund", "hex": "2008"}])
    to_step(s, "move")
    s.apply({"type": "move", "piece": "hallstein", "to": "0907"})     # brush: 2 MP
    assert s.state["chars"]["hallstein"]["mp"] == 4
    err = s.check({"type": "move", "piece": "hallstein", "to": "0909"})
    assert err is not None
    # armoured characters never enter deep water
    s = session([{"id": "hallstein", "hex": "0504"}, {"id": "edmund", "hex": "2008"}])
    to_step(s, "move")
    err = s.check({"type": "move", "piece": "hallstein", "to": "0604"})
    assert err is not None and "deep water" in err.reason


def test_infiltration_roll_for_each_enemy_when_passing_through():
    s = session([{"id": "hallstein", "hex": "1004"}, {"id": "edmund", "hex": "1206"}], tape=[9])
    to_step(s, "move")
    s.apply({"type": "move", "piece": "hallstein", "to": "1005"})
    s.apply({"type": "move", "piece": "hallstein", "to": "1105"})     # ends next to Edmund: no roll yet
    assert not events(s, "infiltration")
    s.apply({"type": "move", "piece": "hallstein", "to": "1205"})     # passes through 1105
    inf = events(s, "infiltration")
    assert len(inf) == 1 and "9+0 = 9: wounded" in inf[0].text        # armoured mover -1, armoured blocker +1
    assert s.state["chars"]["hallstein"]["status"] == "wounded"


def test_melee_odds_round_in_defenders_favour_and_results():
    # Hallstein 8 against a Saxon archer (defence 3): 8/3 -> 2-1; die 1 -> E (wounded)
    s = session([{"id": "hallstein", "hex": "1205"}, {"id": "archer1", "hex": "1206"}], tape=[1])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["hallstein"], "defenders": ["archer1"]})
    m = events(s, "melee")[-1]
    assert m.data["odds"] == 2 and m.data["column"] == "2-1" and m.data["result"] == "E"
    assert s.state["chars"]["archer1"]["status"] == "wounded"


def test_odds_below_one_to_one_are_impossible():
    s = session([{"id": "bowman1", "hex": "1205"}, {"id": "edmund", "hex": "1206"}])
    to_step(s, "combat")
    err = s.check({"type": "attack", "attackers": ["bowman1"], "defenders": ["edmund"]})
    assert err is not None and "below 1-1" in err.reason


def test_terrain_shift_and_combined_attack_and_armour():
    # Svein 9 + Hallstein 8 = 17 against Edmund (5, armoured, in brush 1407 -> unfavourable)
    s = session([{"id": "svein", "hex": "1307"}, {"id": "hallstein", "hex": "1406"},
                 {"id": "edmund", "hex": "1407"}], tape=[9])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["svein", "hallstein"], "defenders": ["edmund"]})
    m = events(s, "melee")[-1]
    # 17/5 = 3-1; Hallstein in brush 1406 (-) so attackers count as (-), defender (-): no terrain shift;
    # combined attack +1 -> 4-1; die 9 +1 armour = 10 -> B (attacker retreats)
    assert m.data["odds"] == 3 and m.data["shift"] == 1 and m.data["column"] == "4-1"
    assert m.data["result"] == "B"
    assert s.state["chars"]["svein"]["hex"] != "1307" and s.state["chars"]["hallstein"]["hex"] != "1406"


def test_wounded_character_wounded_again_dies_and_advance_after_combat():
    s = session([{"id": "svein", "hex": "1205"}, {"id": "archer1", "hex": "1206"},
                 {"id": "peasant4", "hex": "2002"}], tape=[1, 1])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["archer1"]})   # 9/3=3-1, die 1 -> E
    assert s.state["chars"]["archer1"]["status"] == "wounded"
    s.apply({"type": "end_phase"})          # vikings' phase ends; saxons play
    to_step(s, "combat")
    s.apply({"type": "end_phase"})
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["archer1"]})   # wounded 2: 9/2 = 4-1, E
    assert s.state["chars"]["archer1"]["status"] == "dead"
    assert any("hit again while wounded" in e.text for e in events(s, "killed"))
    assert s.state["advance"]["pieces"] == ["svein"]
    s.apply({"type": "advance", "piece": "svein", "path": ["1206"]})
    assert s.state["chars"]["svein"]["hex"] == "1206"


def test_stunned_recover_at_end_of_own_phase_not_the_phase_they_were_stunned():
    # Svein 9 vs peasant (2): 4-1; die 4 -> D (stunned) during the vikings' phase
    s = session([{"id": "svein", "hex": "1205"}, {"id": "peasant1", "hex": "1206"},
                 {"id": "archer1", "hex": "2010"}], tape=[4])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["peasant1"]})
    assert s.state["chars"]["peasant1"]["status"] == "stunned"
    s.apply({"type": "skip_advance"})
    s.apply({"type": "end_phase"})              # saxons' phase begins: the peasant cannot act
    to_step(s, "move")
    assert s.check({"type": "move", "piece": "peasant1", "to": "1207"}) is not None
    to_step(s, "combat")
    s.apply({"type": "end_phase"})              # end of the saxons' phase: stunned in the enemy phase -> recovers
    assert s.state["chars"]["peasant1"]["status"] == "ok"
    assert any(e.kind == "recover" for e in s.log)


def test_two_handed_axe_doubles_attack_and_weakens_defence():
    s = session([{"id": "hallstein", "hex": "1205"}, {"id": "edmund", "hex": "1206"}], tape=[7])
    to_step(s, "combat")
    s.apply({"type": "axe", "piece": "hallstein", "on": True})
    s.apply({"type": "attack", "attackers": ["hallstein"], "defenders": ["edmund"]})
    m = events(s, "melee")[-1]
    assert m.data["odds"] == 3                # 16 / 5
    err = s.check({"type": "axe", "piece": "hallstein", "on": True})
    assert err is not None


def test_berserker_must_attack_and_frenzy_round():
    s = session([{"id": "dag", "hex": "1205"}, {"id": "peasant1", "hex": "1206"},
                 {"id": "peasant2", "hex": "1306"}], tape=[1, 6])
    to_step(s, "combat")
    err = s.check({"type": "end_phase"})
    assert err is not None and err.rule == "VK 3.1"
    s.apply({"type": "attack", "attackers": ["dag"], "defenders": ["peasant1"]})   # 9/2=4-1, die 1 -> E
    if s.state.get("advance"):
        s.apply({"type": "skip_advance"}) if s.check({"type": "skip_advance"}) is None else \
            s.apply(s.legal_actions()[0])
    s.apply({"type": "end_phase"})           # frenzy roll 6: goes berserk again
    assert s.state["combat"]["round"] == 2
    assert any("goes berserk" in e.text for e in events(s, "berserk"))


def test_shield_wall_gives_strong_cover_from_the_front():
    s = session([{"id": "bowman1", "hex": "1501"}, {"id": "edmund", "hex": "1506"},
                 {"id": "wulfgar", "hex": "1606"}, {"id": "edward", "hex": "1406"}], first="saxons", tape=[1])
    s.apply({"type": "shield_wall", "pieces": ["edmund", "wulfgar", "edward"], "facing": 5})
    to_side_step(s, "vikings", "fire")        # saxons' phase over -> vikings fire
    s.apply({"type": "fire", "piece": "bowman1", "target": "edmund"})
    assert events(s, "fire")[-1].data["cover"] == "strong"


def test_rider_turn_costs_and_dismount():
    s = session([{"id": "ragnar", "hex": "1205", "mounted": True, "front": "1305"},
                 {"id": "archer1", "hex": "2002"}])
    to_step(s, "move")
    assert s.state["chars"]["ragnar"]["mp"] == 15
    s.apply({"type": "move", "piece": "ragnar", "to": "1405"})        # straight ahead: 1
    assert s.state["chars"]["ragnar"]["mp"] == 14
    s.apply({"type": "move", "piece": "ragnar", "to": "1205"})        # directly behind the rear half: 1 + 3
    assert s.state["chars"]["ragnar"]["mp"] == 10
    s.apply({"type": "dismount", "piece": "ragnar", "to": "1204"})    # light rider: 2 MP, rest halved
    assert s.state["chars"]["ragnar"]["mp"] == 4 and not s.state["chars"]["ragnar"]["mounted"]
    assert "horse_ragnar" in s.state["horses"]


def test_stacking_is_checked_at_the_end_of_movement():
    s = session([{"id": "svein", "hex": "1205"}, {"id": "tor", "hex": "1206"}, {"id": "archer1", "hex": "2002"}])
    to_step(s, "move")
    s.apply({"type": "move", "piece": "svein", "to": "1206"})
    err = s.check({"type": "end_phase"})
    assert err is not None and err.rule == "VK 2.6"


def test_a_wounded_swimmer_without_the_mp_for_another_water_hex_drowns():
    from simulator.games.vikings import phases
    from simulator.games.vikings.game import board_of
    from tests.vikings.helpers import session
    from tests.vikings.test_shipwork import _Ctx
    # open sea: every water hex is deep (4 MP); a wounded old man has 2 MP, a wounded peasant 4
    s = session([{"id": "elder1", "hex": "1005"}, {"id": "peasant1", "hex": "1007"}, {"id": "klemet", "hex": "0101"}],
                boards=[{"map": "vikings/open_sea_1"}])
    st = s.state_data()
    for cid in ("elder1", "peasant1"):
        st["chars"][cid]["status"] = "wounded"
    ctx = _Ctx([5, 5])                                   # both pass the drowning test
    phases._drowning(board_of(st), st, ctx, "saxons")
    assert st["chars"]["elder1"]["status"] == "dead" and st["chars"]["peasant1"]["status"] == "wounded"
    assert any(kind == "killed" and rule == "VK 4.85" and "Old Eadric" in text for kind, text, rule in ctx.events)
    # next to coastal water (2 MP) the old man can still swim
    s = session([{"id": "elder1", "hex": "0513"}, {"id": "klemet", "hex": "0101"}])
    st = s.state_data()
    board = board_of(st)
    assert board.kind("0513") == "deep" and board.kind("0612") == "coastal"
    st["chars"]["elder1"]["status"] = "wounded"
    ctx = _Ctx([5])
    phases._drowning(board, st, ctx, "saxons")
    assert st["chars"]["elder1"]["status"] == "wounded"
