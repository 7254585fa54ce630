"""Riderless horses led by the reins, loaded on ships, and lost (rules 2.57, 4.83.2)."""

from __future__ import annotations

from simulator.games.vikings import fleet, naval
from simulator.games.vikings.game import board_of
from tests.vikings.helpers import to_step

VILLAGE = [{"map": "vikings/village"}]
DRAKKAR = [{"id": "wolf", "type": "drakkar", "side": "vikings", "pivot": "1015", "heading": "E", "speed": 0,
            "beached": True}]
FAR = {"id": "edward", "hex": "2003"}


def reins(s):
    return [e.text for e in s.log if e.kind == "reins"]


def test_led_horse_follows_and_boards_a_stationary_drakkar_over_a_side_hex():
    chars = [{"id": "klemet", "aboard": {"ship": "wolf", "slot": 10}},            # port hex 1014
             {"id": "svein", "aboard": {"ship": "wolf", "slot": 9}, "duty": "rower"},
             {"id": "eiriz", "aboard": {"ship": "wolf", "slot": 16}, "duty": "rower"}, FAR]
    s = _with_horse(chars, "1012", "1013")
    to_step(s, "move")
    assert {"type": "take_reins", "piece": "klemet", "horse": "h1"} in s.legal_actions()
    s.apply({"type": "take_reins", "piece": "klemet", "horse": "h1"})
    s.apply({"type": "move", "piece": "klemet", "to": "1015"})
    h = s.state["horses"]["h1"]
    assert (h["hex"], h["front"]) == ("1013", "1014")          # front stepped onto the port hex
    s.apply({"type": "move", "piece": "klemet", "to": "1115"})
    h = s.state["horses"]["h1"]
    assert (h["hex"], h["front"]) == ("1014", "1015") and h["ship"] == "wolf"
    board = board_of(s.state_data())
    assert naval.speed_options(board, s.state_data(), "wolf") == [0]     # half on a side hex: may not sail
    s.apply({"type": "move", "piece": "klemet", "to": "1215"})
    h = s.state["horses"]["h1"]
    assert (h["hex"], h["front"]) == ("1015", "1115")          # both on middle hexes
    assert naval.speed_options(board, s.state_data(), "wolf") == fleet.legal_speeds(s.state_data(), "wolf")
    assert len(naval.speed_options(board, s.state_data(), "wolf")) > 1
    assert s.state["horses"]["h1"]["led_by"] == "klemet"


def _with_horse(chars, rear, front, side="vikings", **kw):
    from simulator.core.scenario import scenario_from_data
    from simulator.core.session import Session
    from simulator.games.vikings import GAME
    from tests.vikings.helpers import scenario
    sc = scenario(chars, ships=kw.get("ships", DRAKKAR), boards=kw.get("boards", VILLAGE))
    data = dict(sc.data)
    data["setup"] = dict(data["setup"])
    data["setup"]["horses"] = [{"id": "h1", "side": side, "hex": rear, "front": front}]
    return Session(GAME, scenario_from_data(data, "vikings/test"), seed=1, tape=kw.get("tape"))


def test_horse_refuses_the_bow_and_the_leader_loses_it():
    chars = [{"id": "klemet", "aboard": {"ship": "wolf", "slot": 7}}, FAR]       # bow hex 1415
    s = _with_horse(chars, "1614", "1514")
    to_step(s, "move")
    s.apply({"type": "take_reins", "piece": "klemet", "horse": "h1"})
    s.apply({"type": "move", "piece": "klemet", "to": "1315"})
    h = s.state["horses"]["h1"]
    assert (h["hex"], h["front"]) == ("1614", "1514") and h["led_by"] is None
    assert any("loses control" in t for t in reins(s))


def test_horses_never_go_into_rowboats():
    chars = [{"id": "klemet", "aboard": {"ship": "boat", "slot": 0}}, FAR]
    ships = [{"id": "boat", "type": "rowboat", "side": "vikings", "pivot": "1814", "heading": "E", "speed": 0}]
    s = _with_horse(chars, "1612", "1613", ships=ships)
    to_step(s, "move")
    assert s.state["chars"]["klemet"]["hex"] == "1714"
    s.apply({"type": "take_reins", "piece": "klemet", "horse": "h1"})
    s.apply({"type": "move", "piece": "klemet", "to": "1814"})
    h = s.state["horses"]["h1"]
    assert (h["hex"], h["front"]) == ("1612", "1613") and h["led_by"] is None


def test_control_stays_with_the_owner_while_a_friend_stands_by_then_can_be_captured():
    chars = [{"id": "edmund", "hex": "1204"}, {"id": "klemet", "hex": "1404"}, {"id": "archer1", "hex": "2003"}]
    s = _with_horse(chars, "1205", "1305", side="saxons", boards=[{"map": "vikings/the_coast"}], ships=[])
    to_step(s, "move")
    err = s.check({"type": "take_reins", "piece": "klemet", "horse": "h1"})
    assert err is not None and err.rule == "VK 2.57" and "attack" in err.reason   # edmund threatens the horse
    s2 = _with_horse([{"id": "edmund", "hex": "1103"}, {"id": "klemet", "hex": "1404"},
                      {"id": "archer1", "hex": "2003"}], "1205", "1305", side="saxons",
                     boards=[{"map": "vikings/the_coast"}], ships=[])
    to_step(s2, "move")
    s2.apply({"type": "take_reins", "piece": "klemet", "horse": "h1"})
    assert s2.state["horses"]["h1"]["side"] == "vikings" and "captured" in reins(s2)[-1]
    s2.apply({"type": "move", "piece": "klemet", "to": "1504"})
    h = s2.state["horses"]["h1"]
    assert h["front"] == "1404" and h["hex"] == "1305"


def test_mounted_leader_loses_the_horse_when_he_fights():
    chars = [{"id": "ragnar", "hex": "1204", "mounted": True, "front": "1304"},
             {"id": "archer1", "hex": "1404"}]
    s = _with_horse(chars, "1005", "1105", boards=[{"map": "vikings/the_coast"}], ships=[], tape=[10])
    to_step(s, "move")
    s.apply({"type": "take_reins", "piece": "ragnar", "horse": "h1"})
    err = s.check({"type": "take_reins", "piece": "ragnar", "horse": "h1"})
    assert err is not None
    to_step(s, "combat")
    s.apply({"type": "attack", "attackers": ["ragnar"], "defenders": ["archer1"]})
    assert s.state["horses"]["h1"]["led_by"] is None
    assert any("fights on horseback" in t for t in reins(s))


def test_horse_half_aboard_a_rammed_ship_is_jolted_off():
    # the galley rams the stationary drakkar's bow; a horse stands with its front on the port hex
    # 0807 and its rear in the sea at 0806: it falls off the hull (deep sea all round: it is killed)
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "0808", "heading": "E", "speed": 0},
             {"id": "g", "type": "galley", "side": "saxons", "pivot": "1508", "heading": "W", "speed": 2}]
    chars = [{"id": "hallstein", "aboard": {"ship": "d", "slot": 3}},
             {"id": "edmund", "aboard": {"ship": "g", "slot": 5}}]
    s = _with_horse(chars, "0806", "0807", ships=ships, boards=[{"map": "vikings/open_sea_1"}], tape=[1])
    for _ in range(10):
        if s.state["naval"]["step"] == "speed":
            break
        s.apply({"type": "end_phase"})
    assert naval.speed_options(board_of(s.state_data()), s.state_data(), "d") == [0]
    s.apply({"type": "set_speed", "ship": "d", "speed": 0})
    s.apply({"type": "end_phase"})
    s.apply({"type": "set_speed", "ship": "g", "speed": 1})
    s.apply({"type": "end_phase"})
    while s.state["ships"]["g"]["pivot"] != "1308" and not any(e.kind == "collision" for e in s.log):
        s.apply({"type": "ship_move", "ship": "g", "move": "straight"})
    assert any(e.kind == "collision" and "strikes" in e.text for e in s.log)
    jolt = [e for e in s.log if e.kind == "horse" and "half aboard" in e.text]
    assert len(jolt) == 1 and jolt[0].rule == "VK 4.83.2" and "killed" in jolt[0].text
    assert not s.state["horses"]["h1"]["alive"]


def test_only_riders_horses_ships_and_shield_walls_show_a_facing():
    from simulator.games.vikings import GAME
    chars = [{"id": "klemet", "hex": "1613"}, {"id": "edwin", "hex": "0913", "mounted": True, "front": "0914"}, FAR]
    s = _with_horse(chars, "1012", "1013")
    views = {p.id: p for p in GAME.presentation().pieces(s.state_data())}
    assert views["klemet"].has_facing is False and views["edward"].has_facing is False
    assert views["h1"].has_facing and views["wolf"].has_facing
    assert views["edwin"].has_facing
