"""Scenario special rules (5.5): low tide and the sandbar, treasures and decoys, goats and pigs,
expert swimmers; riders pushed aside by a retreat; a horse jolted off a hauled ship."""

from __future__ import annotations

import copy
from typing import Any

from simulator.core.scenario import scenario_from_data
from simulator.core.session import Session
from simulator.games.vikings import GAME, naval
from simulator.games.vikings.game import board_of
from tests.vikings.helpers import scenario, to_side_step, to_step

COAST = [{"map": "vikings/the_coast"}]


def _session(chars: list[dict[str, Any]], extra: dict[str, Any], tape: list[int] | None = None,
             **kw: Any) -> Session:
    sc = scenario(chars, **kw)
    data = copy.deepcopy(sc.data)
    data["setup"].update(extra)
    return Session(GAME, scenario_from_data(data, "vikings/test"), seed=1, tape=tape)


def _events(s: Session, kind: str) -> list[Any]:
    return [e for e in s.log if e.kind == kind]


# -- low tide (rule 5.5.5) --------------------------------------------------------------

BAR = {"sandbar": {"hexes": ["1014", "1015", "1114"], "dry_turns": 1}}


def test_sandbar_dry_then_coastal_then_deep_and_its_characters_drown():
    chars = [{"id": "klemet", "hex": "1014"}, {"id": "bowman1", "hex": "0205"},
             {"id": "peasant1", "hex": "1015"}, {"id": "peasant2", "hex": "2005"}]
    s = _session(chars, BAR, tape=[2], rules={"low_tide": True}, turns=3)
    board = board_of(s.state_data())
    assert board.kind("1014") == "beach" and board.kind("1013") == "coastal"     # dry: beach, sea beside coastal
    to_step(s, "move")
    opts = {a["to"] for a in s.legal_actions() if a["type"] == "move" and a["piece"] == "klemet"}
    assert "1114" in opts                                      # armoured Klemet walks on the dry sandbar
    while s.state["turn"] < 2:
        s.apply({"type": "end_phase"})
    assert board_of(s.state_data()).kind("1014") == "coastal"
    assert any("tide rises" in e.text and e.rule == "VK 5.5.5" for e in _events(s, "tide"))
    while s.state["turn"] < 3:
        s.apply({"type": "end_phase"})
    assert board_of(s.state_data()).kind("1014") == "deep"
    assert s.state["chars"]["klemet"]["status"] == "dead"        # armour drags him under (rule 4.85)
    to_side_step(s, "saxons", "fire")
    assert s.state["chars"]["peasant1"]["status"] == "dead"      # drowning test 2: drowns


def test_peasants_are_expert_swimmers_with_the_switch():
    chars = [{"id": "klemet", "hex": "0205"}, {"id": "peasant1", "hex": "1015"}]
    s = _session(chars, {"sandbar": {"hexes": ["1015"], "dry_turns": 0}}, tape=[],
                 rules={"low_tide": True, "expert_swimmers": True}, turns=3, first="saxons")
    assert board_of(s.state_data()).kind("1015") == "coastal"    # turn 1 = dry_turns + 1
    while s.state["turn"] < 2:
        s.apply({"type": "end_phase"})
    to_side_step(s, "saxons", "move")
    assert board_of(s.state_data()).kind("1015") == "deep"
    assert s.state["chars"]["peasant1"]["status"] == "ok"        # no drowning test, no die used


def test_boats_may_not_cross_the_dry_sandbar_and_stranded_boats_float_when_the_tide_rises():
    ships = [{"id": "stuck", "type": "rowboat", "side": "vikings", "pivot": "1014", "heading": "E", "speed": 0},
             {"id": "free", "type": "rowboat", "side": "saxons", "pivot": "0615", "heading": "E", "speed": 1}]
    chars = [{"id": "klemet", "aboard": {"ship": "stuck", "slot": 0}, "duty": "rower"},
             {"id": "bowman1", "aboard": {"ship": "stuck", "slot": 2}, "duty": "rower"},
             {"id": "peasant1", "aboard": {"ship": "free", "slot": 0}, "duty": "rower"}]
    bar = {"sandbar": {"hexes": ["0914", "1014", "1114", "0815"], "dry_turns": 1}}
    s = _session(chars, bar, rules={"low_tide": True}, ships=ships, turns=3)
    assert s.state["ships"]["stuck"]["stranded"]
    assert any("stranded" in e.text for e in _events(s, "tide"))
    board = board_of(s.state_data())
    assert naval.speed_options(board, s.state_data(), "stuck") == [0]
    for _ in range(6):
        if s.state["naval"]["step"] == "speed" and s.state["active"] == "saxons":
            break
        s.apply({"type": "end_phase"})
    s.apply({"type": "set_speed", "ship": "free", "speed": 1})
    s.apply({"type": "end_phase"})
    assert s.state["naval"]["step"] == "movement" and s.state["naval"]["queue"][0] == "free"
    err = s.check({"type": "ship_move", "ship": "free", "move": "straight"})     # bow 0715 -> 0815: the bar
    assert err is not None and err.rule == "VK 5.5.5" and "sandbar" in err.reason
    assert {"type": "ship_move", "ship": "free", "move": "straight"} not in s.legal_actions()
    while s.state["turn"] < 2:
        s.apply(next(a for a in s.legal_actions() if a["type"] in ("ship_move", "ship_hold", "end_phase")))
    assert not s.state["ships"]["stuck"]["stranded"]
    assert any("floats off" in e.text for e in _events(s, "tide"))
    assert len(naval.speed_options(board_of(s.state_data()), s.state_data(), "stuck")) > 1


# -- treasures and decoys (rule 5.5.1) -----------------------------------------------------

def test_treasure_is_taken_the_movement_after_stopping_dragged_at_2_mp_and_dropped_in_melee():
    chars = [{"id": "klemet", "hex": "1004"}, {"id": "edmund", "hex": "1407"}]
    extra = {"treasures": [{"id": "silver", "hex": "1005"}], "victory": {"treasure_points": 4}}
    s = _session(chars, extra, tape=[10], turns=3)
    to_step(s, "move")
    s.apply({"type": "move", "piece": "klemet", "to": "1005"})
    err = s.check({"type": "take_treasure", "piece": "klemet", "treasure": "silver"})
    assert err is not None and err.rule == "VK 5.5.1" and "stop" in err.reason
    s.apply({"type": "end_phase"})
    assert s.state["treasures"]["silver"]["claim"] == "klemet"
    to_side_step(s, "vikings", "move")
    assert {"type": "take_treasure", "piece": "klemet", "treasure": "silver"} in s.legal_actions()
    s.apply({"type": "take_treasure", "piece": "klemet", "treasure": "silver"})
    assert s.state["chars"]["klemet"]["mp"] == 2
    s.apply({"type": "move", "piece": "klemet", "to": "1105"})
    assert s.state["treasures"]["silver"]["hex"] == "1105"
    assert GAME.scores(s.state_data())["vikings"] == 4               # held by a living Viking
    to_side_step(s, "saxons", "move")
    s.apply({"type": "move", "piece": "edmund", "path": ["1307", "1306", "1206"]})
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["edmund"], "defenders": ["klemet"]})    # die 10: no effect
    t = s.state["treasures"]["silver"]
    assert t["carried_by"] is None and t["hex"] == "1105" and t["dropped"]
    assert any("drops the treasure" in e.text and e.rule == "VK 5.5.1" for e in _events(s, "treasure"))
    to_side_step(s, "vikings", "move")
    err = s.check({"type": "take_treasure", "piece": "klemet", "treasure": "silver"})
    assert err is not None and "position to attack" in err.reason     # Edmund still next to him


def test_decoys_lie_face_down_and_turn_over_when_someone_passes():
    chars = [{"id": "klemet", "hex": "1004"}, {"id": "edmund", "hex": "2008"}]
    extra = {"treasures": [{"id": "fake", "hex": "1005", "decoy": True}, {"id": "real", "hex": "1305"}]}
    s = _session(chars, extra, rules={"decoys": True})
    seen = GAME.visible_state(s.state_data(), "vikings")
    assert seen["treasures"]["fake"]["decoy"] == "hidden" and seen["treasures"]["real"]["decoy"] == "hidden"
    to_step(s, "move")
    s.apply({"type": "move", "piece": "klemet", "path": ["1005", "1105"]})
    assert s.state["treasures"]["fake"]["lost"]
    assert any(e.data.get("decoy") is True for e in _events(s, "treasure"))
    s.apply({"type": "move", "piece": "klemet", "path": ["1205", "1305"]})
    assert s.state["treasures"]["real"]["revealed"]
    assert GAME.visible_state(s.state_data(), "saxons")["treasures"]["real"]["decoy"] is False
    bad = scenario([{"id": "klemet", "hex": "1004"}]).data
    bad = copy.deepcopy(bad)
    bad["setup"]["treasures"] = [{"id": "x", "hex": "1005", "decoy": True}]
    try:
        Session(GAME, scenario_from_data(bad, "vikings/test"), seed=1)
    except Exception as exc:                                    # DataError pointing at the field
        assert "decoys" in str(exc)
    else:
        raise AssertionError("a decoy without rules.decoys must be refused")


# -- goats and pigs (rule 5.5.3) ---------------------------------------------------------

def test_goat_stops_movers_worsens_combat_follows_its_leader_and_can_be_killed():
    chars = [{"id": "klemet", "hex": "1003"}, {"id": "edmund", "hex": "1206"}, {"id": "peasant1", "hex": "1808"}]
    extra = {"animals": [{"id": "goat", "kind": "goat", "hex": "1004", "side": "saxons"},
                         {"id": "pig", "kind": "pig", "hex": "1708", "side": "saxons"}]}
    s = _session(chars, extra, tape=[10])
    to_step(s, "move")
    s.apply({"type": "move", "piece": "klemet", "to": "1004"})
    assert s.state["chars"]["klemet"]["mp"] == 0                # no passing through the goat's hex
    assert any(e.rule == "VK 5.5.3" for e in _events(s, "move"))
    s.apply({"type": "end_phase"})
    to_side_step(s, "saxons", "move")
    s.apply({"type": "move", "piece": "edmund", "path": ["1105", "1104"]})
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["edmund"], "defenders": ["klemet"]})
    fight = _events(s, "melee")[-1]
    assert fight.data["shift"] == 1       # Klemet on clear ground but in the goat's hex: 0 - (-1)
    # the peasant leads the pig away: it steps into each hex he leaves
    to_side_step(s, "saxons", "move")
    s.apply({"type": "take_reins", "piece": "peasant1", "horse": "pig"})
    s.apply({"type": "move", "piece": "peasant1", "to": "1908"})
    assert s.state["animals"]["pig"]["hex"] == "1808"
    s2 = _session([{"id": "klemet", "hex": "1003"}, {"id": "edmund", "hex": "2008"}],
                  {"animals": [{"id": "goat", "kind": "goat", "hex": "1004", "side": "saxons"}]}, tape=[1])
    to_step(s2, "combat")
    s2.apply({"type": "attack", "attackers": ["klemet"], "defenders": ["goat"]})
    assert not s2.state["animals"]["goat"]["alive"]


def test_led_animal_will_not_swim():
    chars = [{"id": "peasant1", "hex": "0710"}, {"id": "klemet", "hex": "2003"}]
    s = _session(chars, {"animals": [{"id": "goat", "kind": "goat", "hex": "0709", "side": "saxons"}]},
                 first="saxons")
    to_step(s, "move")
    s.apply({"type": "take_reins", "piece": "peasant1", "horse": "goat"})
    s.apply({"type": "move", "piece": "peasant1", "to": "0711"})       # onto the beach: the goat follows
    assert s.state["animals"]["goat"]["hex"] == "0710"
    s.apply({"type": "move", "piece": "peasant1", "to": "0712"})       # into coastal water
    assert s.state["animals"]["goat"]["hex"] == "0711"                 # the beach hex he left
    s.apply({"type": "move", "piece": "peasant1", "to": "0612"})
    goat = s.state["animals"]["goat"]
    assert goat["hex"] == "0711" and goat["led_by"] is None            # will not swim: left behind, loose


# -- push-aside of a rider (note to table 8.8) -------------------------------------------------

def test_retreating_character_pushes_a_friendly_rider_aside():
    # peasant1 at 1505 must retreat west; NW and SW are held by Vikings, W by Edwin's rear half
    chars = [{"id": "bowman1", "hex": "1605"}, {"id": "svein", "hex": "1504"}, {"id": "klemet", "hex": "1506"},
             {"id": "peasant1", "hex": "1505"}, {"id": "edwin", "hex": "1405", "mounted": True, "front": "1305"}]
    s = _session(chars, {}, tape=[2, 1, 1, 1, 1, 1, 1])
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["bowman1"], "defenders": ["peasant1"]})     # 1-1, die 2: C
    assert _events(s, "melee")[-1].data["result"] == "C"
    assert s.state["chars"]["peasant1"]["hex"] == "1405" and s.state["chars"]["peasant1"]["status"] == "ok"
    edwin = s.state["chars"]["edwin"]
    assert edwin["mounted"] and "1405" not in (edwin["hex"], edwin["front"])
    assert board_of(s.state_data()).grid.adjacent(edwin["hex"], edwin["front"])
    assert any("Edwin is pushed aside" in e.text for e in _events(s, "retreat"))


# -- a horse jolted off a hauled ship (our ruling on 4.83.2) -------------------------------

def test_horse_half_aboard_a_hauled_galley_is_jolted_onto_the_beach():
    boards = [{"map": "vikings/the_coast", "at": [0, 0]}, {"map": "vikings/open_sea_1", "at": [0, 16]}]
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "0717", "heading": "E", "speed": 1},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "0613", "heading": "E", "speed": 0}]
    chars = [{"id": "klemet", "aboard": {"ship": "d", "slot": 9}, "duty": "rower"},
             {"id": "svein", "aboard": {"ship": "d", "slot": 16}, "duty": "rower"},
             {"id": "blotolf", "aboard": {"ship": "d", "slot": 10}, "duty": "grapple"},
             {"id": "thane1", "aboard": {"ship": "g", "slot": 3}}]
    sc = scenario(chars, ships=ships, boards=boards, grapples=[{"ship": "d", "slot": 10}])
    data = copy.deepcopy(sc.data)
    data["setup"]["horses"] = [{"id": "h1", "side": "saxons", "hex": "0411", "front": "0512"}]   # 0512: port hex
    s = Session(GAME, scenario_from_data(data, "vikings/test"), seed=1, tape=[9])
    while s.state["naval"]["step"] != "speed":
        s.apply({"type": "end_phase"})
    assert naval.speed_options(board_of(s.state_data()), s.state_data(), "g") == [0]
    s.apply({"type": "set_speed", "ship": "d", "speed": 1})
    s.apply({"type": "end_phase"})
    s.apply({"type": "set_speed", "ship": "g", "speed": 0})
    s.apply({"type": "end_phase"})
    s.apply({"type": "ship_move", "ship": "d", "move": "straight"})
    assert s.state["naval"]["step"] == "window"
    s.apply({"type": "throw_grapple", "piece": "blotolf", "target": "0814"})     # 2 hexes: needs 4, rolls 9
    while s.state["naval"]["step"] != "haul":
        s.apply({"type": "end_phase"})
    s.apply({"type": "haul", "target": "g"})
    jolt = [e for e in s.log if e.kind == "horse" and "is hauled" in e.text]
    assert len(jolt) == 1 and jolt[0].rule == "VK 4.83.2" and "jolted off to 0411-" in jolt[0].text
    h = s.state["horses"]["h1"]
    assert h["alive"] and h["hex"] == "0411" and h["front"] not in {"0512"} and h.get("ship") is None
    assert s.state["ships"]["g"]["pivot"] != "0613"             # the galley came a hex closer


# -- optional rule 5.4: the helmsman ------------------------------------------------------------

def test_without_a_helmsman_a_galley_may_not_gain_speed():
    ships = [{"id": "g", "type": "galley", "side": "saxons", "pivot": "1008", "heading": "E", "speed": 1}]
    rowers = [{"id": i, "aboard": {"ship": "g", "slot": n}, "duty": "rower"}
              for i, n in (("edmund", 6), ("wulfgar", 7), ("edward", 11), ("aelfwine", 12))]
    helm = {"id": "thane1", "aboard": {"ship": "g", "slot": 0}, "duty": "helmsman"}
    far = {"id": "klemet", "aboard": {"ship": "g", "slot": 3}}
    for crew, expect in ((rowers + [far], [0, 1]), (rowers + [far, helm], [0, 1, 2])):
        s = _session(crew, {}, rules={"helmsman": True}, ships=ships, boards=[{"map": "vikings/open_sea_1"}])
        board = board_of(s.state_data())
        assert naval.speed_options(board, s.state_data(), "g") == expect


def test_a_goat_in_the_line_blocks_a_short_range_shot():
    chars = [{"id": "bowman1", "hex": "1005"}, {"id": "peasant1", "hex": "1305"}]
    goat = {"animals": [{"id": "goat", "kind": "goat", "hex": "1105", "side": "saxons"}]}
    s = _session(chars, goat)
    err = s.check({"type": "fire", "piece": "bowman1", "target": "peasant1"})
    assert err is not None and err.rule == "VK 2.4.10" and "goat" in err.reason
    assert _session(chars, {}).check({"type": "fire", "piece": "bowman1", "target": "peasant1"}) is None
