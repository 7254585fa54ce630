"""Rules the rulebook states that the engine once got wrong (issue #26), each played through
``Session`` with forced dice."""

from __future__ import annotations

from simulator.games.vikings import fleet
from simulator.games.vikings.game import board_of
from tests.vikings.helpers import end_until, session

SEA = [{"map": "vikings/open_sea_1"}]


def kinds(s, kind):
    return [e for e in s.log if e.kind == kind]


def speed_options(s, sid):
    return sorted(a["speed"] for a in s.legal_actions() if a["type"] == "set_speed" and a["ship"] == sid)


def to_next_naval(s):
    """end_phase (holding every ship) until the next naval phase's duties step."""
    start = (s.state["turn"], s.state["phase_index"])
    for _ in range(40):
        if s.state["phase_index"] in (0, 2) and (s.state["turn"], s.state["phase_index"]) != start:
            return
        acts = s.legal_actions()
        hold = [a for a in acts if a["type"] == "ship_hold"]
        s.apply(hold[0] if hold else {"type": "end_phase"})
    raise AssertionError("no next naval phase")


# -- 4.45: a boat pushed off is afloat once no hex of it is on the beach ------------------------------
def beached_rowboat(pivot, pusher):
    ships = [{"id": "r", "type": "rowboat", "side": "saxons", "pivot": pivot, "heading": "NE", "speed": 0,
              "beached": True}]
    chars = [{"id": "peasant1", "aboard": {"ship": "r", "slot": 0}, "duty": "rower"},
             {"id": "peasant2", "aboard": {"ship": "r", "slot": 2}, "duty": "rower"},
             {"id": "wulfgar", "hex": pusher}, {"id": "svein", "hex": "0402"}]
    return session(chars, ships=ships, first="saxons")


def push_off(s):
    end_until(s, "speed")
    assert speed_options(s, "r") == [-1, 0, 1]                   # on the beach: at most 1 (rule 4.45)
    s.apply({"type": "set_speed", "ship": "r", "speed": -1})
    s.apply({"type": "end_phase"})
    assert [e.data["pieces"][1:] for e in kinds(s, "push_off")] == [["wulfgar"]]
    s.apply({"type": "ship_move", "ship": "r", "move": "straight"})


def test_a_boat_pushed_off_the_beach_is_afloat_once_wholly_off_it():
    s = beached_rowboat("0712", "0811")                                  # only the bow on the beach
    push_off(s)
    afloat = kinds(s, "afloat")
    assert afloat and afloat[0].rule == "VK 4.45"
    r = s.state["ships"]["r"]
    assert not r["beached"] and not r.get("launching")
    to_next_naval(s)
    end_until(s, "speed")
    # prev -1, two rowers (change 2), wholly afloat: -2 .. 1 (the old engine offered -1 .. 1)
    assert speed_options(s, "r") == [-2, -1, 0, 1]
    s.apply({"type": "set_speed", "ship": "r", "speed": -2})
    s.apply({"type": "end_phase"})
    assert s.state["ships"]["r"]["speed"] == -2 and len(kinds(s, "push_off")) == 1


def test_a_boat_still_partly_on_the_beach_keeps_to_speed_one_but_needs_no_more_pushing():
    s = beached_rowboat("0912", "1012")                                  # pivot and bow on the beach
    push_off(s)
    r = s.state["ships"]["r"]
    assert not kinds(s, "afloat") and r["launching"] and not r["beached"]
    to_next_naval(s)
    end_until(s, "speed")
    assert speed_options(s, "r") == [-1, 0, 1]                   # still a hex on the beach
    s.apply({"type": "set_speed", "ship": "r", "speed": -1})
    s.apply({"type": "end_phase"})
    assert len(kinds(s, "push_off")) == 1                        # launched already: nobody pushes again
    assert s.check({"type": "ship_move", "ship": "r", "move": "turn_left"}).rule == "VK 4.45"
    s.apply({"type": "ship_move", "ship": "r", "move": "straight"})
    assert kinds(s, "afloat") and not s.state["ships"]["r"]["launching"]


VIKING_ROWERS = ("svein", "eiriz", "hallstein", "klemet", "skule", "tjodolv", "tormod", "tor", "blotolf",
                 "brynjolf", "dag", "hildebrand", "ragnvold", "torgrim")


def drakkar_rowers(sid, pairs):
    """``pairs`` pairs of Viking rowers on the drakkar's port (slots 8-14) and starboard (15-21) hexes."""
    return [{"id": VIKING_ROWERS[2 * i + k], "aboard": {"ship": sid, "slot": (8, 15)[k] + i}, "duty": "rower"}
            for i in range(pairs) for k in (0, 1)]


# -- 4.42: a reversing ship moves from the second sequence on -------------------------------------------
def reversing(prev, new):
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "0808", "heading": "E", "speed": prev}]
    chars = drakkar_rowers("d", 6)
    chars.append({"id": "wulfgar", "hex": "2010"})
    s = session(chars, ships=ships, boards=SEA)
    end_until(s, "speed")
    s.apply({"type": "set_speed", "ship": "d", "speed": new})
    s.apply({"type": "end_phase"})
    return s


def test_a_ship_reversing_to_speed_one_moves_in_the_second_sequence():
    for prev, new in ((-1, 1), (2, -1)):
        s = reversing(prev, new)
        seqs = kinds(s, "sequence")
        assert seqs[0].text.endswith("reversing ships gather way") and seqs[0].rule == "VK 4.41"
        assert s.state["naval"]["sequence"] == 2 and s.state["naval"]["queue"] == ["d"]
        before = s.state["ships"]["d"]["pivot"]
        s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
        assert s.state["ships"]["d"]["pivot"] != before
        assert s.state["ships"]["d"]["speed"] == new


# -- 4.5, 4.7: a collision on the "no effect" row adds nothing ----------------------------------------
def test_a_harmless_collision_adds_no_damage_when_damage_is_recorded():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "0808", "heading": "E", "speed": 1},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1510", "heading": "SE", "speed": 0}]
    chars = drakkar_rowers("d", 1) + [{"id": "edmund", "aboard": {"ship": "g", "slot": 3}}]
    s = session(chars, tape=[1], ships=ships, boards=SEA)
    end_until(s, "movement")
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    hit = [e for e in kinds(s, "collision") if "strikes" in e.text]
    assert hit and hit[0].data["collision"] == "lateral"
    assert hit[0].data["sf"] + hit[0].data["die"] == 3                   # the "none" row of table 9.6
    to_next_naval(s)
    for sid in ("d", "g"):
        ship = s.state["ships"][sid]
        assert ship["total"] == 0 and ship["collisions"] == 0, (sid, ship["total"])


# -- 4.5 diagram 3: parallel ships scrape past instead of running side into side ----------------------
def test_parallel_ships_scrape_past_when_a_straight_move_runs_side_into_side():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "0808", "heading": "E", "speed": 2},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1506", "heading": "E", "speed": 0}]
    chars = drakkar_rowers("d", 2) + [{"id": "edmund", "aboard": {"ship": "g", "slot": 3}}]
    s = session(chars, tape=[], ships=ships, boards=SEA)
    end_until(s, "movement")
    assert {"type": "ship_move", "ship": "d", "move": "straight"} in s.legal_actions()
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    scrape = [e for e in s.log if e.kind == "ship_move" and "scrapes past" in e.text]
    assert scrape and scrape[0].rule == "VK 4.51"
    d = s.state["ships"]["d"]
    assert d["pivot"] != "0808" and d["heading"] == 1 and d["speed"] == 1      # a drakkar's lateral costs 1
    assert d["moves"] == 1 and d["damage"] == {} and s.state["ships"]["g"]["damage"] == {}
    assert not [e for e in s.log if e.kind == "collision"]


# -- 4.65: between boats of equal weight, the hauling boat moves --------------------------------------
def test_hauling_between_boats_of_equal_weight_moves_the_hauling_boat():
    ships = [{"id": "v", "type": "galley", "side": "vikings", "pivot": "1008", "heading": "E"},
             {"id": "s", "type": "galley", "side": "saxons", "pivot": "1004", "heading": "E"}]
    chars = [{"id": "svein", "aboard": {"ship": "v", "slot": 8}, "duty": "grapple"},
             {"id": "edmund", "aboard": {"ship": "s", "slot": 3}}]
    s = session(chars, tape=[], ships=ships, boards=SEA,
                grapples=[{"ship": "v", "slot": 8, "hooked": {"ship": "s", "slot": 13}}])
    end_until(s, "haul")
    assert s.active_player() == "vikings"
    s.apply({"type": "haul", "target": "s"})
    haul = [e for e in s.log if e.kind == "haul"]
    assert haul and haul[0].rule == "VK 4.65"
    assert s.state["ships"]["s"]["pivot"] == "1004"                   # the hauled galley stays
    assert s.state["ships"]["v"]["pivot"] != "1008"                   # the hauling galley comes to it


# -- 4.7, table 9.5: damage that cancels acceleration leaves the speed as it was --------------------
def test_damage_that_cancels_acceleration_keeps_the_previous_speed():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "0808", "heading": "E", "speed": 2,
              "damage": {"1": 1}, "total": 18}]
    s = session(drakkar_rowers("d", 7) + [{"id": "wulfgar", "hex": "2010"}], ships=ships, boards=SEA)
    end_until(s, "speed")
    # 7 pairs: max 8 - 18 // 3 = 2, acceleration 3 - 18 // 6 = 0: it keeps speed 2 (it used to drop to 1)
    assert fleet.speed_limits(s.state_data(), "d") == (2, 2, 0)
    assert speed_options(s, "d") == [2]
    err = s.check({"type": "set_speed", "ship": "d", "speed": 1})
    assert err is not None and err.rule == "VK 4.33"


# -- 4.86: a swimmer in deep water may attack a character in a rowboat ------------------------------
def swimmer_and_boat(boat_type, slot, swimmer_hex):
    ships = [{"id": "b", "type": boat_type, "side": "vikings", "pivot": "1008", "heading": "E"}]
    chars = [{"id": "bowman1", "aboard": {"ship": "b", "slot": slot}, "status": "wounded"},
             {"id": "archer1", "hex": swimmer_hex, "swimmer": True}]
    return session(chars, tape=[1], ships=ships, boards=SEA, first="saxons",
                   start={"phase": "player_a"})


def test_a_swimmer_in_deep_water_may_attack_a_man_in_a_rowboat():
    s = swimmer_and_boat("rowboat", 1, "1009")                      # rowboat on 0908 1008 1108
    end_until_combat(s)
    attack = {"type": "attack", "attackers": ["archer1"], "defenders": ["bowman1"]}
    assert attack in s.legal_actions()
    s.apply(attack)
    melee = [e for e in s.log if e.kind == "melee"]
    assert melee and melee[0].rule.startswith("VK")


def test_a_swimmer_in_deep_water_may_not_attack_a_galley():
    s = swimmer_and_boat("galley", 13, "1010")                      # bowman on the starboard hex 0909
    end_until_combat(s)
    err = s.check({"type": "attack", "attackers": ["archer1"], "defenders": ["bowman1"]})
    assert err is not None and err.rule == "VK 2.76" and "drakkar or galley" in err.reason


def end_until_combat(s):
    for _ in range(6):
        if s.state["step"] == "combat":
            return
        s.apply({"type": "end_phase"})
    raise AssertionError("no combat step")


# -- 2.75, 2.6: an advance may pass through a stunned enemy's hex, never stop in it -------------------
def test_advance_after_combat_passes_through_the_stunned_enemy_into_a_free_hex():
    chars = [{"id": "bowman1", "hex": "0405"}, {"id": "peasant1", "hex": "0505"}, {"id": "wulfgar", "hex": "2005"}]
    s = session(chars, tape=[1], first="vikings", start={"phase": "player_a"})
    end_until_combat(s)
    s.apply({"type": "attack", "attackers": ["bowman1"], "defenders": ["peasant1"]})   # 1-1, die 1: D
    assert s.state["chars"]["peasant1"]["status"] == "stunned"
    offer = [e for e in s.log if e.kind == "advance_offer"]
    assert offer and "0505" in offer[0].text
    advances = [a for a in s.legal_actions() if a["type"] == "advance"]
    assert advances and all(a["path"][0] == "0505" and len(a["path"]) == 2 for a in advances)
    err = s.check({"type": "advance", "piece": "bowman1", "path": ["0505"]})
    assert err is not None and err.rule == "VK 2.75" and "free hex" in err.reason
    for a in advances:                                  # every offered advance is accepted
        assert s.check(a) is None, a
    s.apply({"type": "advance", "piece": "bowman1", "path": ["0505", "0506"]})
    assert s.state["chars"]["bowman1"]["hex"] == "0506"


# -- 4.7: the ship's record card, shown through the presentation --------------------------------------
def test_the_ship_record_shows_damage_by_hex_leaks_and_total():
    from simulator.games.vikings import GAME
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E", "speed": 2,
              "damage": {"7": 2, "0": 1}, "total": 5, "collisions": 2}]
    chars = [{"id": "svein", "aboard": {"ship": "d", "slot": 3}},
             {"id": "tor", "aboard": {"ship": "d", "slot": 9}, "duty": "bailer"},
             {"id": "skule", "aboard": {"ship": "d", "slot": 16}, "duty": "bailer"},
             {"id": "wulfgar", "hex": "2010"}]
    s = session(chars, ships=ships, boards=SEA)
    stats = GAME.presentation().stats(s.state_data(), "d")
    assert stats["record of"] == "Svein's drakkar"                   # named after its jarl (rule 4.7)
    assert stats["damage total"] == "5 (sinks at 20)" and stats["collisions"] == "2"
    assert stats["hex 1408 bow"] == "2 pts, leaks +2" and stats["hex 0708 rudder"] == "1 pt"
    assert stats["leaks"] == "+2 a naval phase" and stats["bailing"].startswith("-1")
    assert stats["damage costs"] == "max speed -1, acceleration -0"
    assert "leaking" in stats["status"]


# -- 3.4: riderless horses may be shot at and attacked --------------------------------------------------
def horse_session(tape, attacker, rear="0505", front="0506"):
    """A Saxon riderless horse on 0505-0506 of the coast, a Viking next to it or in bow range."""
    from simulator.core.scenario import scenario_from_data
    from simulator.core.session import Session
    from simulator.games.vikings import GAME
    from tests.vikings.helpers import scenario
    data = dict(scenario([attacker, {"id": "wulfgar", "hex": "2005"}], first="vikings",
                         start={"phase": "player_a"}).data)
    data["setup"] = {**data["setup"], "horses": [{"id": "nag", "side": "saxons", "hex": rear, "front": front}]}
    return Session(GAME, scenario_from_data(data, "vikings/test"), seed=1, tape=tape)


def test_a_riderless_horse_may_be_shot_and_c_or_d_kills_it():
    s = horse_session([1], {"id": "bowman1", "hex": "0208"})
    shot = {"type": "fire", "piece": "bowman1", "target": "nag"}
    assert shot in s.legal_actions()
    s.apply(shot)
    fire = [e for e in s.log if e.kind == "fire"][0]
    assert fire.data["result"] == "D"                           # mounted table, no cover, die 1
    assert not s.state["horses"]["nag"]["alive"]
    killed = [e for e in s.log if e.kind == "horse"]
    assert killed and killed[0].rule == "VK 3.4"


def test_a_shot_that_strikes_only_a_rider_leaves_a_riderless_horse_unhurt():
    s = horse_session([3], {"id": "bowman1", "hex": "0208"})
    s.apply({"type": "fire", "piece": "bowman1", "target": "nag"})
    assert [e for e in s.log if e.kind == "fire"][0].data["result"] == "B"    # rider stunned: there is none
    assert s.state["horses"]["nag"]["alive"]
    assert any(e.kind == "fire" and e.rule == "VK 3.4" and "unhurt" in e.text for e in s.log)


def test_a_riderless_horse_may_be_attacked_on_the_mounted_table():
    from simulator.games.vikings import GAME
    s = horse_session([1], {"id": "svein", "hex": "0405"})
    assert GAME.presentation().stats(s.state_data(), "nag")["defence"] == 2     # shown with the horse
    end_until_combat(s)
    attack = {"type": "attack", "attackers": ["svein"], "defenders": ["nag"]}
    assert attack in s.legal_actions()
    s.apply(attack)
    melee = [e for e in s.log if e.kind == "melee"][0]
    assert melee.rule == "VK 3.4" and melee.data["column"] == "4-1" and melee.data["result"] == "E"   # 9 : 2
    assert not s.state["horses"]["nag"]["alive"]


def test_defender_retreats_moves_the_whole_horse_away():
    s = horse_session([4], {"id": "svein", "hex": "1404"}, "1504", "1604")      # 4-1, die 4: C
    end_until_combat(s)
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["nag"]})
    horse = s.state["horses"]["nag"]
    board = board_of(s.state_data())
    assert horse["alive"] and min(board.distance(h, "1404") for h in (horse["hex"], horse["front"])) == 2
    assert board.grid.adjacent(horse["hex"], "1504") and board.grid.adjacent(horse["front"], "1604")
    assert any(e.kind == "retreat" and "nag" in e.text for e in s.log)


def test_a_horse_that_cannot_retreat_is_killed():
    s = horse_session([4], {"id": "svein", "hex": "0405"})      # the river behind it: no way back
    end_until_combat(s)
    s.apply({"type": "attack", "attackers": ["svein"], "defenders": ["nag"]})
    assert not s.state["horses"]["nag"]["alive"]
    assert any(e.kind == "horse" and "cannot retreat" in e.text for e in s.log)


# -- 4.63: a straight move the rope forbids becomes a lateral move ------------------------------------
def test_a_straight_move_that_would_stretch_the_rope_becomes_a_lateral_move():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E"},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1004", "heading": "E", "speed": 1}]
    chars = [{"id": "svein", "aboard": {"ship": "d", "slot": 8}, "duty": "grapple"},
             {"id": "edmund", "aboard": {"ship": "g", "slot": 6}, "duty": "rower"},
             {"id": "wulfgar", "aboard": {"ship": "g", "slot": 11}, "duty": "rower"}]
    s = session(chars, tape=[], ships=ships, boards=SEA,
                grapples=[{"ship": "d", "slot": 8, "hooked": {"ship": "g", "slot": 12}}])   # 2 hexes
    end_until(s, "speed")
    s.apply({"type": "end_phase"})                                   # the drakkar keeps speed 0
    s.apply({"type": "set_speed", "ship": "g", "speed": 1})
    s.apply({"type": "end_phase"})
    assert s.state["naval"]["queue"] == ["g"]
    s.apply({"type": "ship_move", "ship": "g", "move": "straight"})
    slid = [e for e in s.log if e.kind == "ship_move"]
    assert slid and slid[0].rule == "VK 4.63" and slid[0].data["move"].startswith("lateral")
    g = s.state["ships"]["g"]
    assert g["pivot"] != "1004" and g["heading"] == 1 and g["speed"] == 1      # no speed lost
    board = board_of(s.state_data())
    rope = fleet.hexes(board, s.state["ships"]["d"])[8]
    assert board.distance(rope, fleet.hexes(board, g)[12]) <= s.state["grapples"]["g1"]["max_len"] == 2


def led_horse_shot(tape):
    from simulator.core.scenario import scenario_from_data
    from simulator.core.session import Session
    from simulator.games.vikings import GAME
    from tests.vikings.helpers import scenario
    chars = [{"id": "wulfgar", "hex": "1404"}, {"id": "bowman1", "hex": "1707"}]
    data = dict(scenario(chars, first="saxons", start={"phase": "player_a"}).data)
    data["setup"] = {**data["setup"], "horses": [{"id": "nag", "side": "saxons", "hex": "1604", "front": "1504"}]}
    s = Session(GAME, scenario_from_data(data, "vikings/test"), seed=1, tape=tape)
    s.apply({"type": "end_phase"})                                     # no offensive fire
    s.apply({"type": "take_reins", "piece": "wulfgar", "horse": "nag"})
    s.apply({"type": "move", "piece": "wulfgar", "to": "1304"})
    assert s.state["horses"]["nag"]["steps"] == 1
    return s


def test_a_led_horse_that_has_moved_may_be_shot_by_defensive_fire():
    s = led_horse_shot([4])                                            # mounted, no cover, die 4: A
    shot = {"type": "defensive_fire", "piece": "bowman1", "target": "nag"}
    assert shot in s.legal_actions()
    s.apply(shot)
    assert s.state["horses"]["nag"]["move_cap"] == 4 and s.state["horses"]["nag"]["alive"]
    for to in ("1204", "1104", "1004", "0904"):
        s.apply({"type": "move", "piece": "wulfgar", "to": to})
    horse = s.state["horses"]["nag"]
    assert horse["steps"] == 4 and horse["front"] == "1104"           # it stops after its fourth hex
    killed = led_horse_shot([2])                                       # C: killed
    killed.apply(shot)
    assert not killed.state["horses"]["nag"]["alive"]


def test_dragging_the_victor_past_the_stunned_enemy_proposes_the_two_hex_advance():
    from simulator.games.vikings import GAME
    chars = [{"id": "bowman1", "hex": "0405"}, {"id": "peasant1", "hex": "0505"}, {"id": "wulfgar", "hex": "2005"}]
    s = session(chars, tape=[1], first="vikings", start={"phase": "player_a"})
    end_until_combat(s)
    s.apply({"type": "attack", "attackers": ["bowman1"], "defenders": ["peasant1"]})
    action = GAME.presentation().drag_action(s.state_data(), "bowman1", "0506")
    assert action == {"type": "advance", "piece": "bowman1", "path": ["0505", "0506"]}
    assert s.check(action) is None


def test_dragging_an_archer_onto_a_riderless_horse_proposes_a_shot():
    from simulator.games.vikings import GAME
    s = horse_session([1], {"id": "bowman1", "hex": "0208"})
    assert GAME.presentation().drag_action(s.state_data(), "bowman1", "0506") == \
        {"type": "fire", "piece": "bowman1", "target": "nag"}
