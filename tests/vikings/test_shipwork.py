"""Ships and crews with forced dice: turning into rowboats, no second collision before moving, the
sunken hull holding its rope, the 60-degree swing when hauling, carrying and jettisoning grapples,
plugging leaks (optional 5.2) and helping a friend aboard (4.83.1)."""

from __future__ import annotations

import pytest

from simulator.core.errors import IllegalAction
from simulator.games.vikings import fleet, naval
from simulator.games.vikings.game import board_of
from tests.vikings.helpers import session, to_step
from tests.vikings.test_naval import _Log, end_until, head_on

SEA = [{"map": "vikings/open_sea_1"}]
VILLAGE = [{"map": "vikings/village"}]
BEACHED = [{"id": "wolf", "type": "drakkar", "side": "vikings", "pivot": "1015", "heading": "E", "speed": 0,
            "beached": True}]
FAR = {"id": "edward", "hex": "2003"}


class _Dice:
    def __init__(self, tape):
        self.tape = list(tape)

    def d10(self, purpose):
        return self.tape.pop(0)


class _Ctx(_Log):
    def __init__(self, tape):
        super().__init__()
        self.dice = _Dice(tape)


def test_a_turning_galley_pushes_a_rowboat_aside():
    ships = [{"id": "g", "type": "galley", "side": "saxons", "pivot": "1008", "heading": "E", "speed": 2},
             {"id": "r", "type": "rowboat", "side": "vikings", "pivot": "1106", "heading": "E", "speed": 0}]
    chars = [{"id": c, "aboard": {"ship": "g", "slot": sl}, "duty": "rower"}
             for c, sl in (("edmund", 6), ("wulfgar", 7), ("edward", 11), ("aelfwine", 12))]
    chars.append({"id": "klemet", "aboard": {"ship": "r", "slot": 1}})
    s = session(chars, ships=ships, boards=SEA, first="saxons")
    end_until(s, "speed")
    while s.state["naval"]["step"] == "speed":
        if s.active_player() == "saxons":
            s.apply({"type": "set_speed", "ship": "g", "speed": 2})
        s.apply({"type": "end_phase"})
    s.apply({"type": "ship_move", "ship": "g", "move": "turn_left"})
    assert s.state["ships"]["r"]["pivot"] == "1005"              # swept one hex to the north-west
    assert s.state["chars"]["klemet"]["hex"] == "1005"           # the crew goes with the boat
    assert any(e.kind == "pushed" for e in s.log)


def test_no_second_collision_until_the_ship_has_moved_a_hex():
    s = head_on([5])
    end_until(s, "movement")
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    st = s.state_data()
    assert st["ships"]["d"]["no_collide"] == ["g"] and st["ships"]["g"]["no_collide"] == ["d"]
    board = board_of(st)
    st["naval"].update(step="movement", queue=["d"], sequence=1)
    st["ships"]["d"].update(speed=2, prev_speed=2, moves=0, done=False)
    with pytest.raises(IllegalAction) as err:
        naval.ship_move(board, st, _Log(), "d", "straight")
    assert err.value.rule == "VK 4.52"
    naval.ship_move(board, st, _Log(), "d", "lateral_left")
    assert st["ships"]["d"]["no_collide"] == [] and st["ships"]["g"]["no_collide"] == []


def test_a_sunken_hull_holds_the_boat_roped_to_it():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E", "speed": 1},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1004", "heading": "E", "speed": 0}]
    chars = [{"id": "svein", "aboard": {"ship": "d", "slot": 10}}, {"id": "edmund", "aboard": {"ship": "g", "slot": 12}}]
    s = session(chars, ships=ships, boards=SEA, grapples=[{"ship": "d", "slot": 10}])
    st = s.state_data()
    board = board_of(st)
    st["ships"]["g"]["sunk"] = True
    length = board.distance(fleet.hexes(board, st["ships"]["d"])[10], fleet.hexes(board, st["ships"]["g"])[12])
    st["grapples"]["g1"].update(status="dragging", hook_ship="g", hook_slot=12, max_len=length,
                                sunk_ship="g", held_ship="d")
    st["naval"].update(step="movement", queue=["d"], sequence=1)
    st["ships"]["d"].update(speed=2, prev_speed=2, moves=0, done=False)
    assert "lateral_right" not in naval.move_options(board, st, "d")      # away from the wreck
    with pytest.raises(IllegalAction) as err:
        naval.ship_move(board, st, _Log(), "d", "lateral_right")
    assert err.value.rule == "VK 4.63"


def test_hauling_swings_a_boat_lying_at_60_degrees_alongside():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E", "speed": 0},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1511", "heading": "NE", "speed": 0}]
    chars = [{"id": "blotolf", "aboard": {"ship": "d", "slot": 20}, "duty": "grapple"},
             {"id": "edmund", "aboard": {"ship": "g", "slot": 3}}]
    s = session(chars, ships=ships, boards=SEA, grapples=[{"ship": "d", "slot": 20}])
    st = s.state_data()
    board = board_of(st)
    st["grapples"]["g1"].update(status="hooked", hook_ship="g", hook_slot=5, max_len=5)
    log = _Log()
    naval.haul(board, st, log, "vikings", "g")
    g = st["ships"]["g"]
    assert (g["pivot"], g["heading"]) == ("1411", 1)                      # now heading east like the drakkar
    assert naval._alongside(board, fleet.hexes(board, g), fleet.hexes(board, st["ships"]["d"])) >= 3
    assert st["chars"]["edmund"]["hex"] == fleet.hexes(board, g)[3]
    assert any("swings round" in t for _, t, _ in log.events)


def test_carrying_a_grapple_costs_movement_and_keeps_to_the_deck():
    chars = [{"id": "blotolf", "aboard": {"ship": "wolf", "slot": 10}}, FAR]
    s = session(chars, ships=BEACHED, boards=VILLAGE, grapples=[{"ship": "wolf", "slot": 10}])
    to_step(s, "move")
    assert {"type": "carry_grapple", "piece": "blotolf"} in s.legal_actions()
    s.apply({"type": "carry_grapple", "piece": "blotolf"})
    assert s.state["chars"]["blotolf"]["mp"] == 2
    err = s.check({"type": "move", "piece": "blotolf", "to": "1013"})        # off the boat onto the beach
    assert err is not None and err.rule == "VK 4.66"
    s.apply({"type": "move", "piece": "blotolf", "to": "1015"})
    assert s.state["grapples"]["g1"]["slot"] == 3 and s.state["chars"]["blotolf"]["mp"] == 0
    s.apply({"type": "drop_grapple", "piece": "blotolf"})
    assert s.state["grapples"]["g1"]["carried_by"] is None



def test_a_grapple_laid_down_is_not_taken_up_again_in_the_same_phase():
    """Taking a grapple up and laying it down again changes nothing; a computer player once did
    it 1,400 times in one phase. It stays down until the next phase (engine decision)."""
    chars = [{"id": "blotolf", "aboard": {"ship": "wolf", "slot": 10}}, FAR]
    s = session(chars, ships=BEACHED, boards=VILLAGE, grapples=[{"ship": "wolf", "slot": 10}])
    to_step(s, "move")
    s.apply({"type": "carry_grapple", "piece": "blotolf"})
    s.apply({"type": "drop_grapple", "piece": "blotolf"})
    assert {"type": "carry_grapple", "piece": "blotolf"} not in s.legal_actions()
    err = s.check({"type": "carry_grapple", "piece": "blotolf"})
    assert err is not None and err.rule == "VK 4.66" and "laid grapple g1 down this phase" in err.reason

def test_a_grapple_thrown_overboard_is_gone_at_the_end_of_the_naval_phase():
    chars = [{"id": "blotolf", "aboard": {"ship": "wolf", "slot": 10}}, FAR]
    s = session(chars, ships=BEACHED, boards=VILLAGE, grapples=[{"ship": "wolf", "slot": 10}])
    assert s.state["naval"]["step"] == "duties"
    s.apply({"type": "assign_duty", "piece": "blotolf", "duty": "overboard"})
    to_step(s, "fire")
    assert s.state["grapples"]["g1"]["status"] == "lost"
    assert any("overboard" in e.text for e in s.log if e.kind == "grapple")


def test_plugging_a_leak_with_the_optional_rule():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E", "speed": 0}]
    chars = [{"id": "svein", "aboard": {"ship": "d", "slot": 10}}, {"id": "edmund", "hex": "2001"}]
    s = session(chars, ships=ships, boards=SEA, rules={"plug_leaks": True})
    st = s.state_data()
    board = board_of(st)
    d = st["ships"]["d"]
    d.update(damage={"10": 3}, leaks={"10": 3}, total=3, collisions=1)
    svein = st["chars"]["svein"]
    assert naval.duty_problem(st, svein, "plug") is None
    naval.assign_duty(st, _Log(), svein, "plug")
    naval.record_damage(board, st, _Ctx([]))                 # assignment phase: no roll, the leak rises
    assert d["total"] == 6
    st["phase_index"] = 2
    naval.record_damage(board, st, _Ctx([3]))                # 3 + (3 - 1) = 5: held back this phase only
    assert d["total"] == 6
    st["turn"] = 2
    st["phase_index"] = 0
    naval.record_damage(board, st, _Ctx([1]))                # 1 + 2 = 3: plugged
    assert "10" in d["plugged"] and d["total"] == 6
    no_rule = session(chars, ships=ships, boards=SEA).state_data()
    no_rule["ships"]["d"]["leaks"] = {"10": 2}
    assert "optional rule" in naval.duty_problem(no_rule, no_rule["chars"]["svein"], "plug")


def test_helping_a_friend_aboard_who_lacks_the_movement():
    chars = [{"id": "klemet", "hex": "1613"}, {"id": "hallstein", "hex": "0913"}, FAR]
    s = session(chars, ships=BEACHED, boards=VILLAGE)
    to_step(s, "move")
    s.apply({"type": "move", "piece": "klemet", "path": ["1513", "1413", "1313", "1213", "1113", "1013"]})
    assert s.state["chars"]["klemet"]["mp"] == 0
    helps = [a for a in s.legal_actions() if a["type"] == "help_aboard"]
    assert {"type": "help_aboard", "piece": "hallstein", "target": "klemet", "to": "1014"} in helps
    assert all(a["piece"] == "hallstein" and a["target"] == "klemet" for a in helps)
    s.apply({"type": "help_aboard", "piece": "hallstein", "target": "klemet", "to": "1014"})
    assert not any(a["type"] == "help_aboard" for a in s.legal_actions())
    k = s.state["chars"]["klemet"]
    assert k["hex"] == "1014" and k["ship"] == "wolf" and s.state["chars"]["hallstein"]["mp"] == 0
    err = s.check({"type": "move", "piece": "hallstein", "to": "0813"})
    assert err is not None                                   # the helper does not move this phase


def test_no_help_for_the_wounded_or_for_one_who_can_climb_alone():
    chars = [{"id": "klemet", "hex": "1013"}, {"id": "hallstein", "hex": "0913"}, FAR]
    s = session(chars, ships=BEACHED, boards=VILLAGE)
    to_step(s, "move")
    err = s.check({"type": "help_aboard", "piece": "hallstein", "target": "klemet", "to": "1014"})
    assert err is not None and "himself" in err.reason
    assert not any(a["type"] == "help_aboard" for a in s.legal_actions())


def _beached_rowboat_pushed_off(edmund_at: str):
    """A Saxon rowboat beached at 0613-0712-0711 given speed -1, Wulfgar beside it on the beach and Edmund
    at ``edmund_at``; the session just after the speeds are revealed."""
    ships = [{"id": "r", "type": "rowboat", "side": "saxons", "pivot": "0712", "heading": "NE", "speed": 0,
              "beached": True}]
    chars = [{"id": "peasant1", "aboard": {"ship": "r", "slot": 0}, "duty": "rower"},
             {"id": "peasant2", "aboard": {"ship": "r", "slot": 2}, "duty": "rower"},
             {"id": "wulfgar", "hex": "0811"}, {"id": "edmund", "hex": edmund_at}, {"id": "svein", "hex": "0402"}]
    s = session(chars, ships=ships, first="saxons")
    end_until(s, "speed")
    s.apply({"type": "set_speed", "ship": "r", "speed": -1})
    s.apply({"type": "end_phase"})
    return s


def test_pushers_of_a_beached_boat_are_busy_in_their_next_player_phase():
    s = _beached_rowboat_pushed_off("0810")
    push = [e for e in s.log if e.kind == "push_off"]
    assert len(push) == 1 and push[0].rule == "VK 4.45" and "Wulfgar" in push[0].text   # a rowboat needs one
    s.apply({"type": "ship_move", "ship": "r", "move": "straight"})
    to_step(s, "fire")
    assert s.state["phasing"] == "saxons" and s.state["chars"]["wulfgar"]["busy"]
    to_step(s, "move")
    err = s.check({"type": "move", "piece": "wulfgar", "to": "0911"})
    assert err is not None and "busy" in err.reason
    assert not any(a.get("piece") == "wulfgar" for a in s.legal_actions())
    assert s.check({"type": "move", "piece": "edmund", "to": "0910"}) is None   # not needed to push: free


def test_with_more_candidates_than_needed_the_owner_names_the_pushers():
    s = _beached_rowboat_pushed_off("0611")             # Edmund in the coastal water beside the bow
    assert fleet.pusher_ids(board_of(s.state_data()), s.state_data(), "r") == ["edmund", "wulfgar"]
    assert s.state["naval"]["step"] == "pushers" and s.state["active"] == "saxons"
    assert any(e.kind == "push_choice" and e.rule == "VK 4.45" for e in s.log)
    assert sorted(s.legal_actions(), key=str) == sorted(
        [{"type": "choose_pusher", "ship": "r", "piece": c} for c in ("edmund", "wulfgar")], key=str)
    err = s.check({"type": "end_phase"})
    assert err is not None and err.rule == "VK 4.45"
    err = s.check({"type": "choose_pusher", "ship": "r", "piece": "peasant1"})
    assert err is not None and "beside" in err.reason
    s.apply({"type": "choose_pusher", "ship": "r", "piece": "wulfgar"})
    push = [e for e in s.log if e.kind == "push_off"]
    assert len(push) == 1 and "Wulfgar" in push[0].text and "Edmund" not in push[0].text
    assert s.state["naval"]["step"] == "movement"
    s.apply({"type": "ship_move", "ship": "r", "move": "straight"})
    to_step(s, "move")
    assert s.state["chars"]["wulfgar"]["busy"] and not s.state["chars"]["edmund"]["busy"]
    assert s.check({"type": "move", "piece": "wulfgar", "to": "0911"}) is not None
