"""Naval rules with forced dice: speeds, secrecy, collisions, grapples, rowboats, beaching."""

from __future__ import annotations

from simulator.core.session import Session
from simulator.games.vikings import GAME, fleet
from tests.vikings.helpers import end_until, session

SEA = [{"map": "vikings/open_sea_1"}]


def events(s, kind):
    return [e for e in s.log if e.kind == kind]


def set_speeds(s, *speeds):
    """Reach the speed step and set (ship, speed) pairs in order, each side ending its choice."""
    end_until(s, "speed")
    for sid, v in speeds:
        s.apply({"type": "set_speed", "ship": sid, "speed": v})
        s.apply({"type": "end_phase"})


def head_on(tape):
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "0808", "heading": "E", "speed": 2},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1508", "heading": "W", "speed": 2}]
    chars = [{"id": "svein", "aboard": {"ship": "d", "slot": 7}},      # on the drakkar's bow
             {"id": "hallstein", "aboard": {"ship": "d", "slot": 3}},
             {"id": "tor", "aboard": {"ship": "d", "slot": 4}},
             {"id": "edmund", "aboard": {"ship": "g", "slot": 5}},     # on the galley's bow
             {"id": "wulfgar", "aboard": {"ship": "g", "slot": 3}}]
    return session(chars, tape=tape, ships=ships, boards=SEA)


def test_speed_choice_is_secret_until_both_are_revealed():
    s = head_on([])
    end_until(s, "speed")
    assert s.active_player() == "vikings"
    s.apply({"type": "set_speed", "ship": "d", "speed": 1})
    assert s.view("saxons")["ships"]["d"]["pending"] == "hidden"
    assert s.view("vikings")["ships"]["d"]["pending"] == 1
    choice = GAME.presentation().secret_choice(s.state_data())
    assert choice is None or choice.player == "vikings"
    err = s.check({"type": "set_speed", "ship": "d", "speed": 3})
    assert err is not None and err.rule == "VK 4.33"       # nobody rows: only 1 (loses 1 per phase)



def test_a_speed_already_chosen_is_not_offered_again():
    """Setting the speed a ship already has changes nothing; a computer player once set it
    2,000 times instead of ending the step. Another speed may still replace it."""
    s = Session.new("vikings/sea_fight", seed=1)
    end_until(s, "speed")
    side = s.active_player()
    sid, ship = next((k, v) for k, v in sorted(s.state["ships"].items()) if v["side"] == side)
    options = [a for a in s.legal_actions() if a["type"] == "set_speed" and a["ship"] == sid]
    assert len(options) >= 2
    s.apply(options[0])
    again = [a for a in s.legal_actions() if a["type"] == "set_speed" and a["ship"] == sid]
    assert options[0] not in again and again == options[1:]

def test_speed_limits_from_pairs_of_rowers_and_damage():
    from simulator.games.vikings import fleet
    from simulator.core.session import Session
    s = Session.new("vikings/sea_fight", seed=1)
    st = s.state_data()
    assert fleet.speed_limits(st, "wave_wolf") == (3, 3, 2)        # 3 pairs: max 3, change +-2
    assert fleet.legal_speeds(st, "wave_wolf") == [0, 1, 2, 3]
    st["ships"]["wave_wolf"]["total"] = 6                          # -2 speed, -1 acceleration
    assert fleet.speed_limits(st, "wave_wolf") == (1, 1, 1)
    assert fleet.speed_limits(st, "skiff") == (1, 1, 1)            # rowboat with one rower


def test_head_on_collision_damages_both_ships_and_crews():
    s = head_on([5])
    end_until(s, "movement")
    assert s.state["naval"]["queue"][0] == "d"                     # equal speed: drakkar before galley
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    col = [e for e in events(s, "collision") if "strikes" in e.text][0]
    assert col.data["collision"] == "head_on" and col.data["sf"] == 8   # (2 + 2) x 2
    d, g = s.state["ships"]["d"], s.state["ships"]["g"]
    assert d["damage"] == {"7": 2} and g["damage"] == {"5": 2}     # SF 8 + 5 = 13: 2 points each
    assert d["leaks"] == {"7": 2} and d["collisions"] == 1
    assert s.state["chars"]["svein"]["status"] == "dead" and s.state["chars"]["edmund"]["status"] == "dead"
    others = [s.state["chars"][c]["status"] for c in ("hallstein", "tor")]
    assert sorted(others) == ["stunned", "wounded"]
    assert d["speed"] == 0 and g["speed"] == 0                     # our ruling for the missing column


def test_leak_adds_its_points_at_the_end_of_each_later_naval_phase():
    s = head_on([5])
    end_until(s, "movement")
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    assert s.state["ships"]["d"]["total"] == 2                     # the new leak does not add this phase
    while s.state["phase_index"] != 2:
        s.apply({"type": "end_phase"})
    while s.state["phase_index"] == 2:
        s.apply({"type": "end_phase"})
    assert s.state["ships"]["d"]["total"] == 4


def test_rowboat_run_down_is_wrecked_and_crew_fall_in_the_sea():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "0808", "heading": "E", "speed": 2},
             {"id": "r", "type": "rowboat", "side": "saxons", "pivot": "1308", "heading": "NE", "speed": 0}]
    chars = [{"id": "svein", "aboard": {"ship": "d", "slot": 3}},
             {"id": "peasant1", "aboard": {"ship": "r", "slot": 1}}, {"id": "archer2", "hex": "2002"}]
    s = session(chars, tape=[], ships=ships, boards=SEA)
    end_until(s, "movement")
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    assert s.state["ships"]["r"]["wrecked"] and s.state["ships"]["d"]["damage"] == {}
    assert s.state["chars"]["peasant1"]["ship"] is None and s.state["chars"]["peasant1"]["status"] == "ok"
    assert s.state["ships"]["d"]["speed"] == 0                     # 1 (no rowers) - 1


def test_grapple_thrown_between_sequences_and_rope_holds_ships():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E", "speed": 1},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1004", "heading": "E", "speed": 1}]
    crew = [("hallstein", "d", 8), ("klemet", "d", 9), ("skule", "d", 15), ("tormod", "d", 16),
            ("edmund", "g", 6), ("wulfgar", "g", 7), ("edward", "g", 11), ("aelfwine", "g", 12)]
    chars = [{"id": c, "aboard": {"ship": sh, "slot": sl}, "duty": "rower"} for c, sh, sl in crew]
    chars.append({"id": "blotolf", "aboard": {"ship": "d", "slot": 10}, "duty": "grapple"})
    s = session(chars, tape=[9], ships=ships, boards=SEA, grapples=[{"ship": "d", "slot": 10}])
    end_until(s, "speed")
    s.apply({"type": "set_speed", "ship": "d", "speed": 2})
    s.apply({"type": "end_phase"})
    s.apply({"type": "set_speed", "ship": "g", "speed": 2})
    s.apply({"type": "end_phase"})
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    s.apply({"type": "ship_move", "ship": "g", "move": "straight"})
    assert s.state["naval"]["step"] == "window" and s.active_player() == "vikings"
    throws = [a for a in s.legal_actions() if a["type"] == "throw_grapple"]
    target = min(throws, key=lambda a: a["target"])
    s.apply(target)
    g = s.state["grapples"]["g1"]
    assert g["status"] == "hooked" and g["hook_ship"] == "g"
    assert any("hooked" in e.text for e in events(s, "grapple"))
    length = g["max_len"]
    assert length <= 5
    # the rope now forbids the galley to pull away further than its length
    s.apply({"type": "end_phase"})
    assert s.state["naval"]["step"] == "movement"


def test_lateral_move_costs_a_drakkar_speed_and_speed_must_cover_the_sequence():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E", "speed": 3}]
    rowers = [{"id": cid, "aboard": {"ship": "d", "slot": slot}, "duty": "rower"}
              for cid, slot in (("hallstein", 8), ("klemet", 9), ("skule", 10), ("tjodolv", 15), ("tormod", 16),
                                ("tor", 17))]
    s = session(rowers + [{"id": "archer1", "hex": "2402"}], ships=ships, boards=SEA)
    end_until(s, "speed")
    s.apply({"type": "set_speed", "ship": "d", "speed": 3})
    end_until(s, "movement")
    s.apply({"type": "ship_move", "ship": "d", "move": "lateral_left"})  # drakkar lateral: -1
    assert s.state["ships"]["d"]["speed"] == 2 and s.state["ships"]["d"]["pivot"] == "1007"
    assert s.state["chars"]["hallstein"]["hex"] != "0907"                # the crew moved with the ship
    err = s.check({"type": "ship_move", "ship": "d", "move": "turn_right"})  # -2 -> 0 < sequence 2
    assert err is not None and err.rule == "VK 4.42"
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    assert s.state["ships"]["d"]["moves"] == 2


def test_beaching_stops_a_slow_boat_on_the_first_beach_hex():
    ships = [{"id": "r", "type": "rowboat", "side": "saxons", "pivot": "0614", "heading": "NE", "speed": 2}]
    chars = [{"id": "peasant1", "aboard": {"ship": "r", "slot": 0}, "duty": "rower"},
             {"id": "peasant2", "aboard": {"ship": "r", "slot": 2}, "duty": "rower"},
             {"id": "svein", "hex": "0402"}]
    s = session(chars, ships=ships, first="saxons")
    end_until(s, "speed")
    s.apply({"type": "set_speed", "ship": "r", "speed": 2})
    s.apply({"type": "end_phase"})
    s.apply({"type": "ship_move", "ship": "r", "move": "straight"})
    s.apply({"type": "ship_move", "ship": "r", "move": "straight"})
    r = s.state["ships"]["r"]
    assert r["beached"] and r["speed"] == 0 and r["pivot"] == "0712"
    assert any(e.kind == "beached" for e in s.log)


class _Log:
    """A context for calling naval functions directly: records events, rolls no dice."""

    def __init__(self):
        self.events = []

    def emit(self, kind, text, rule, **data):
        self.events.append((kind, text, rule))


def test_boat_roped_to_a_sunken_ship_takes_five_points_each_phase_until_cut():
    from simulator.games.vikings import naval
    from simulator.games.vikings.game import board_of
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E", "speed": 0},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1004", "heading": "E", "speed": 0}]
    chars = [{"id": "svein", "aboard": {"ship": "d", "slot": 10}, "duty": "boarding"},
             {"id": "edmund", "aboard": {"ship": "g", "slot": 12}}]
    s = session(chars, ships=ships, boards=SEA, grapples=[{"ship": "d", "slot": 10}])
    st = s.state_data()
    board = board_of(st)
    st["grapples"]["g1"].update(status="hooked", hook_ship="g", hook_slot=12, max_len=2)
    st["ships"]["g"]["total"] = 12                      # the galley sinks at 12
    log = _Log()
    naval.record_damage(board, st, log)
    assert st["ships"]["g"]["sunk"] and st["grapples"]["g1"]["status"] == "dragging"
    assert st["ships"]["d"]["total"] == 5 and any("dragged" in t for _, t, _ in log.events)
    naval.record_damage(board, st, log)                 # same phase: no second drag
    assert st["ships"]["d"]["total"] == 5
    st["phase_index"] = 2
    naval.record_damage(board, st, log)                 # next naval phase: 5 more
    assert st["ships"]["d"]["total"] == 10
    assert ("svein", "g1") in naval.cut_options(board, st, "vikings")   # his own rope hex: he may cut it


def test_a_rowboat_grappling_a_galley_is_dragged_and_slows_it_by_one():
    from simulator.games.vikings.game import board_of
    ships = [{"id": "g", "type": "galley", "side": "saxons", "pivot": "1008", "heading": "E", "speed": 2},
             {"id": "r", "type": "rowboat", "side": "vikings", "pivot": "1005", "heading": "E", "speed": 0}]
    chars = [{"id": c, "aboard": {"ship": "g", "slot": sl}, "duty": "rower"}
             for c, sl in (("edmund", 6), ("wulfgar", 7), ("edward", 11), ("aelfwine", 12))]
    chars += [{"id": "blotolf", "aboard": {"ship": "r", "slot": 0}, "duty": "grapple"}]
    s = session(chars, ships=ships, boards=SEA, first="saxons", grapples=[{"ship": "r", "slot": 0}], tape=[10],
                turns=3)
    set_speeds(s, ("g", 2), ("r", 0))
    s.apply({"type": "ship_move", "ship": "g", "move": "straight"})
    s.apply({"type": "throw_grapple", "piece": "blotolf", "target": "1007"})        # 10: hooked
    g = s.state["ships"]["g"]
    assert g["speed"] == 1 and g["done"]                         # in tow: one speed point less at once
    assert any(e.kind == "towed" and e.rule == "VK 4.63" for e in s.log)
    length = s.state["grapples"]["g1"]["max_len"]
    while not (s.state["phase_index"] == 2 and s.state["naval"]["step"] == "speed"):
        s.apply({"type": "end_phase"})
    assert s.state["grapples"]["g1"]["max_len"] <= length        # the rope's length at the end of the phase
    set_speeds(s, ("g", 2), ("r", 0))
    assert s.state["ships"]["g"]["speed"] == 1                   # marker 2, one less while towing
    before = s.state["ships"]["r"]["pivot"]
    s.apply({"type": "ship_move", "ship": "g", "move": "straight"})       # the rope would stretch: dragged
    assert s.state["ships"]["r"]["pivot"] != before
    board = board_of(s.state_data())
    rope = fleet.hexes(board, s.state["ships"]["r"])[0]
    hook = fleet.hexes(board, s.state["ships"]["g"])[s.state["grapples"]["g1"]["hook_slot"]]
    assert board.distance(rope, hook) <= s.state["grapples"]["g1"]["max_len"]
    assert any(e.kind == "towed" and "drags" in e.text for e in s.log)


def test_optional_helmsman_rule_a_damaged_rudder_costs_one_more_speed_point_per_turn():
    ships = [{"id": "a", "type": "galley", "side": "vikings", "pivot": "0408", "heading": "E", "speed": 2},
             {"id": "b", "type": "galley", "side": "saxons", "pivot": "1008", "heading": "E", "speed": 0}]
    chars = [{"id": c, "aboard": {"ship": "b", "slot": sl}, "duty": "rower"}
             for c, sl in (("edmund", 6), ("wulfgar", 7), ("edward", 11), ("aelfwine", 12), ("ceoldred", 8),
                           ("thane2", 13))]
    chars += [{"id": "thane1", "aboard": {"ship": "b", "slot": 0}, "duty": "helmsman"}]
    chars += [{"id": c, "aboard": {"ship": "a", "slot": sl}, "duty": "rower"}
              for c, sl in (("klemet", 6), ("svein", 7), ("skule", 11), ("eiriz", 12))]
    s = session(chars, ships=ships, boards=SEA, first="vikings", tape=[5], turns=3, rules={"helmsman": True})
    set_speeds(s, ("a", 2), ("b", 0))
    s.apply({"type": "ship_move", "ship": "a", "move": "straight"})     # rear collision on b's rudder: 4 + 5
    assert s.state["ships"]["b"]["damage"] == {"0": 1}
    assert s.state["chars"]["thane1"]["status"] == "wounded"             # wounded men may still steer
    while s.state["phase_index"] != 2:
        s.apply({"type": "end_phase"})
    assert s.state["chars"]["thane1"]["duty"] == "helmsman"            # the switch lets him man a damaged rudder
    set_speeds(s, ("a", 0), ("b", 1))
    s.apply({"type": "ship_move", "ship": "b", "move": "straight"})
    while s.state["phase_index"] != 0:
        s.apply({"type": "end_phase"})
    set_speeds(s, ("a", 0), ("b", 2))
    err = s.check({"type": "ship_move", "ship": "b", "move": "turn_left"})
    assert err is not None and err.rule == "VK 4.42" and "losing 2 speed" in err.reason     # 1 for the turn + 1
    assert "turn_left" not in [a["move"] for a in s.legal_actions() if a["type"] == "ship_move"]
    s.apply({"type": "ship_move", "ship": "b", "move": "straight"})
    assert s.state["ships"]["b"]["moves"] == 1
