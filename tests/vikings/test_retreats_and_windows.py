"""Retreats pushing friends aside, infiltration in retreats and advances, defensive fire at
characters who stay put, the archer at a window sill (forced dice through Session)."""

from __future__ import annotations

from tests.vikings.helpers import session, to_side_step, to_step


def events(s, kind):
    return [e for e in s.log if e.kind == kind]


def test_retreat_pushes_a_friend_out_of_the_only_end_hexes():
    # Svein 9 vs archer 3: 3-1, die 4 -> C; the three hexes away from Svein hold Saxon peasants
    s = session([{"id": "svein", "hex": "1205"}, {"id": "archer1", "hex": "1206"},
                 {"id": "peasant1", "hex": "1207"}, {"id": "peasant2", "hex": "1107"},
                 {"id": "peasant3", "hex": "1106"}], tape=[4])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["archer1"]})
    archer = s.state["chars"]["archer1"]
    assert archer["status"] == "ok" and archer["hex"] in ("1207", "1107", "1106")
    pushed = [e for e in events(s, "retreat") if "pushed aside" in e.text]
    assert len(pushed) == 1
    friend = s.state["chars"][pushed[0].data["pieces"][0]]
    assert friend["hex"] == pushed[0].data["to"] and friend["hex"] not in ("1207", "1107", "1106", "1206")
    hexes = [c["hex"] for c in s.state["chars"].values()]
    assert len(hexes) == len(set(hexes))                         # everyone alone in his hex
    assert not events(s, "infiltration")                         # only Svein is near, and he fought


def test_retreat_without_room_even_for_a_push_wounds():
    s = session([{"id": "svein", "hex": "1205"}, {"id": "archer1", "hex": "1206"},
                 {"id": "peasant1", "hex": "1207"}, {"id": "peasant2", "hex": "1107"},
                 {"id": "peasant3", "hex": "1106"}, {"id": "peasant4", "hex": "1306"},
                 {"id": "woman1", "hex": "1308"}, {"id": "elder1", "hex": "1208"},
                 {"id": "archer2", "hex": "1108"}, {"id": "archer3", "hex": "1007"},
                 {"id": "archer4", "hex": "1006"}, {"id": "thane1", "hex": "1005"},
                 {"id": "thane2", "hex": "1307"}], tape=[4])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["archer1"]})
    assert s.state["chars"]["archer1"]["hex"] == "1206" and s.state["chars"]["archer1"]["status"] == "wounded"


def test_retreat_draws_infiltration_rolls_from_enemies_who_did_not_fight():
    # Hallstein (1208) and Tor (1006) did not fight: whichever hex the archer retreats to, one of
    # them can strike it; infiltration die 10 (+1 armoured blocker) kills him
    s = session([{"id": "svein", "hex": "1205"}, {"id": "archer1", "hex": "1206"},
                 {"id": "hallstein", "hex": "1208"}, {"id": "tor", "hex": "1006"}], tape=[4, 10])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["archer1"]})
    inf = events(s, "infiltration")
    assert len(inf) == 1 and inf[0].rule == "VK 2.54" and "killed" in inf[0].text
    assert "svein" not in inf[0].data["pieces"]
    assert s.state["chars"]["archer1"]["status"] == "dead"


def test_advance_rolls_infiltration_for_hexes_passed_through_not_for_fighters():
    # 3-1, die 2 -> D: the archer is stunned; Svein advances through 1206 to 1207; the thane next to
    # 1206 took no part in the combat: one roll (die 1, Svein armoured -1: no harm)
    s = session([{"id": "svein", "hex": "1205"}, {"id": "archer1", "hex": "1206"},
                 {"id": "thane1", "hex": "1106"}], tape=[2, 1])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["archer1"]})
    assert s.state["chars"]["archer1"]["status"] == "stunned"
    s.apply({"type": "advance", "piece": "svein", "path": ["1206", "1207"]})
    inf = events(s, "infiltration")
    assert len(inf) == 1 and "Thane" in inf[0].text and "no harm" in inf[0].text
    assert s.state["chars"]["svein"]["hex"] == "1207"


def test_advance_ignores_enemies_engaged_this_phase():
    # the thane fought Hallstein first (die 8 at 1-1: no effect); Svein's advance past him rolls nothing
    s = session([{"id": "svein", "hex": "1205"}, {"id": "archer1", "hex": "1206"},
                 {"id": "thane1", "hex": "1106"}, {"id": "hallstein", "hex": "1005"}], tape=[8, 2])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["hallstein"], "defenders": ["thane1"]})
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["archer1"]})
    s.apply({"type": "advance", "piece": "svein", "path": ["1206", "1207"]})
    assert not events(s, "infiltration")


def test_defensive_fire_at_characters_that_stay_put_once_movement_ends():
    s = session([{"id": "svein", "hex": "1205"}, {"id": "hallstein", "hex": "1203"},
                 {"id": "archer1", "hex": "1209"}], tape=[1])
    to_step(s, "move")
    err = s.check({"type": "defensive_fire", "piece": "archer1", "target": "svein"})
    assert err is not None and "not started moving" in err.reason
    s.apply({"type": "move", "piece": "hallstein", "to": "1303"})
    legal = s.legal_actions()             # while moving, the mover is offered as a defensive target
    assert {"type": "defensive_fire", "piece": "archer1", "target": "hallstein"} in legal
    assert {"type": "defensive_fire", "piece": "archer1", "target": "svein"} not in legal
    s.apply({"type": "end_phase"})
    assert s.state["step"] == "stationary_fire" and s.active_player() == "saxons"
    legal = s.legal_actions()
    assert {"type": "defensive_fire", "piece": "archer1", "target": "svein"} in legal
    assert not any(a.get("target") == "hallstein" for a in legal)     # he moved: shot only while moving
    err = s.check({"type": "defensive_fire", "piece": "archer1", "target": "hallstein"})
    assert err is not None and err.rule == "VK 2.33"
    s.apply({"type": "defensive_fire", "piece": "archer1", "target": "svein"})
    assert events(s, "fire")[-1].data["result"] != "-"
    s.apply({"type": "end_phase"})
    assert s.state["step"] == "combat" and s.active_player() == "vikings"


def test_no_stationary_fire_step_without_a_shot():
    s = session([{"id": "svein", "hex": "1205"}, {"id": "edmund", "hex": "1209"}])
    to_step(s, "move")
    s.apply({"type": "end_phase"})
    assert s.state["step"] == "combat"


VILLAGE = [{"map": "vikings/village"}]


def test_archer_at_the_window_sill_shoots_into_the_room():
    # window between 1306 (outside) and 1206 (the hall); the target stands deeper in the hall at 1106
    s = session([{"id": "bowman1", "hex": "1306"}, {"id": "archer1", "hex": "1106"}], boards=VILLAGE, tape=[1])
    s.apply({"type": "fire", "piece": "bowman1", "target": "archer1"})
    shot = events(s, "fire")[-1]
    assert shot.data["cover"] == "medium"
    # one hex farther out, the window only lets him hit someone right behind it
    s = session([{"id": "bowman1", "hex": "1406"}, {"id": "archer1", "hex": "1106"}], boards=VILLAGE)
    err = s.check({"type": "fire", "piece": "bowman1", "target": "archer1"})
    assert err is not None and err.rule.startswith("VK 2.4")


def test_someone_in_the_window_hex_blocks_the_sill_shot():
    s = session([{"id": "bowman1", "hex": "1306"}, {"id": "archer1", "hex": "1106"},
                 {"id": "archer2", "hex": "1206"}], boards=VILLAGE)
    err = s.check({"type": "fire", "piece": "bowman1", "target": "archer1"})
    assert err is not None and err.rule == "VK 2.4.10"


def test_an_armoured_character_whose_only_retreat_is_deep_water_drowns():
    from simulator.games.vikings.game import board_of
    from tests.vikings.helpers import session, to_step
    # Klemet (armoured) on clear ground at 0704 with the river (deep water) behind him
    s = session([{"id": "klemet", "hex": "0704"}, {"id": "edmund", "hex": "0804"}], tape=[1], first="saxons")
    board = board_of(s.state_data())
    assert all(board.kind(h) == "deep" for h in ("0603", "0604", "0605"))
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["edmund"], "defenders": ["klemet"]})      # 1-1, die 1 +1 armour: C
    assert [e for e in s.log if e.kind == "melee"][-1].data["result"] == "C"
    assert s.state["chars"]["klemet"]["status"] == "dead"
    assert any(e.kind == "killed" and e.rule == "VK 2.51" for e in s.log)
