"""Treasures handed over, carried off the map, lost in deep water (rule 5.5.1, our rulings); the
marker inventory of the box (rule 1.33)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from simulator.core.errors import DataError
from simulator.core.scenario import scenario_from_data
from simulator.core.session import Session
from simulator.games.vikings import GAME
from tests.vikings.helpers import scenario, to_side_step, to_step


def _session(chars: list[dict[str, Any]], extra: dict[str, Any], tape: list[int] | None = None,
             **kw: Any) -> Session:
    data = copy.deepcopy(scenario(chars, **kw).data)
    data["setup"].update(extra)
    return Session(GAME, scenario_from_data(data, "vikings/test"), seed=1, tape=tape)


def _take(s: Session, who: str, start_hex: str, treasure_hex: str, tid: str) -> None:
    """``who`` stops on the treasure in turn 1 and takes it up in turn 2 (rule 5.5.1)."""
    to_step(s, "move")
    assert s.state["chars"][who]["hex"] == start_hex
    s.apply({"type": "move", "piece": who, "to": treasure_hex})
    s.apply({"type": "end_phase"})
    to_side_step(s, "vikings", "move")
    s.apply({"type": "take_treasure", "piece": who, "treasure": tid})


def test_a_treasure_is_handed_to_a_friend_on_foot_but_never_to_a_rider():
    chars = [{"id": "klemet", "hex": "1004"}, {"id": "svein", "hex": "1206"},
             {"id": "ragnar", "hex": "1006", "mounted": True, "front": "0906"}, {"id": "edmund", "hex": "2008"}]
    s = _session(chars, {"treasures": [{"id": "silver", "hex": "1005"}]}, turns=3)
    _take(s, "klemet", "1004", "1005", "silver")
    err = s.check({"type": "give_treasure", "piece": "klemet", "target": "svein"})
    assert err is not None and "next to" in err.reason                  # 1206 is two hexes away
    err = s.check({"type": "give_treasure", "piece": "klemet", "target": "ragnar"})
    assert err is not None and err.rule == "VK 5.5.1" and "on foot" in err.reason
    s.apply({"type": "move", "piece": "svein", "to": "1106"})
    assert {"type": "give_treasure", "piece": "klemet", "target": "svein"} in s.legal_actions()
    s.apply({"type": "give_treasure", "piece": "klemet", "target": "svein"})
    assert s.state["treasures"]["silver"]["carried_by"] == "svein"
    assert s.state["chars"]["klemet"]["mp"] == 1 and s.state["chars"]["svein"]["mp"] == 2
    s.apply({"type": "move", "piece": "svein", "to": "1107"})
    assert s.state["treasures"]["silver"]["hex"] == "1107"


def test_a_treasure_carrier_cannot_mount():
    chars = [{"id": "ragnar", "hex": "1004"}, {"id": "edmund", "hex": "2008"}]
    extra = {"treasures": [{"id": "silver", "hex": "1005"}],
             "horses": [{"id": "steed", "side": "vikings", "hex": "1105", "front": "1205"}]}
    s = _session(chars, extra, turns=3)
    _take(s, "ragnar", "1004", "1005", "silver")
    err = s.check({"type": "mount", "piece": "ragnar", "horse": "steed", "front": "1205"})
    assert err is not None and err.rule == "VK 5.5.1" and "lay it down" in err.reason
    s.apply({"type": "drop_treasure", "piece": "ragnar"})
    assert s.check({"type": "mount", "piece": "ragnar", "horse": "steed", "front": "1205"}) is None


def test_a_treasure_carried_off_by_an_exit_hex_scores_and_its_carrier_is_no_casualty():
    chars = [{"id": "klemet", "hex": "1004"}, {"id": "edmund", "hex": "2008"}]
    extra = {"treasures": [{"id": "silver", "hex": "1005"}],
             "victory": {"treasure_points": 4, "treasure_exits": {"vikings": ["1105"]}}}
    s = _session(chars, extra, turns=3)
    _take(s, "klemet", "1004", "1005", "silver")
    err = s.check({"type": "carry_off", "piece": "klemet"})
    assert err is not None and "1105" in err.reason
    s.apply({"type": "move", "piece": "klemet", "to": "1105"})
    assert {"type": "carry_off", "piece": "klemet"} in s.legal_actions()
    s.apply({"type": "carry_off", "piece": "klemet"})
    t, k = s.state["treasures"]["silver"], s.state["chars"]["klemet"]
    assert t["off_map"] == "vikings" and k["off_map"] and k["hex"] is None and k["status"] == "ok"
    assert GAME.scores(s.state_data()) == {"vikings": 4, "saxons": 0}
    shown = {p.id for p in GAME.presentation().pieces(s.state_data())}
    assert "silver" not in shown and "klemet" not in shown           # both have left the map
    out = s.outcome()
    assert out is not None and out.winner == "vikings"      # nobody left on the map, but 4 points to 0
    bad = copy.deepcopy(scenario(chars).data)
    bad["setup"]["victory"] = {"treasure_exits": {"saxons": ["9999"]}}
    with pytest.raises(DataError, match="9999 is not on the board"):
        Session(GAME, scenario_from_data(bad, "vikings/test"), seed=1)


def test_a_treasure_left_on_the_sandbar_stays_in_coastal_water_and_is_lost_in_deep_water():
    chars = [{"id": "klemet", "hex": "1011"}, {"id": "edmund", "hex": "2008"}]
    extra = {"treasures": [{"id": "silver", "hex": "1012"}], "sandbar": {"hexes": ["1013", "1113"], "dry_turns": 2}}
    s = _session(chars, extra, rules={"low_tide": True}, turns=5)
    _take(s, "klemet", "1011", "1012", "silver")
    s.apply({"type": "move", "piece": "klemet", "to": "1013"})          # the dry sandbar
    s.apply({"type": "drop_treasure", "piece": "klemet"})
    s.apply({"type": "move", "piece": "klemet", "to": "1012"})
    while s.state["turn"] < 3:
        s.apply({"type": "end_phase"})
    t = s.state["treasures"]["silver"]
    assert not t.get("lost") and t["hex"] == "1013"                    # coastal water: it stays
    while s.state["turn"] < 4:
        s.apply({"type": "end_phase"})
    s.apply({"type": "end_phase"})
    assert s.state["treasures"]["silver"]["lost"]
    assert any("sinks in deep water" in e.text and e.rule == "VK 5.5.1" for e in s.log)


# -- the box's markers (rule 1.33) ---------------------------------------------------------------

def test_scenarios_asking_for_more_grapples_or_treasures_than_the_box_holds_are_refused():
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E"}]
    chars = [{"id": "klemet", "aboard": {"ship": "d", "slot": 0}}, {"id": "edmund", "hex": "0101"}]
    grapples = [{"ship": "d", "slot": n} for n in range(17)]
    with pytest.raises(DataError, match="one grapple too many: the box holds 16 grapple"):
        Session(GAME, scenario(chars, ships=ships, grapples=grapples, boards=[{"map": "vikings/open_sea_1"}]),
                seed=1)
    Session(GAME, scenario(chars, ships=ships, grapples=grapples[:16], boards=[{"map": "vikings/open_sea_1"}]),
            seed=1)
    land = [{"id": "klemet", "hex": "1004"}, {"id": "edmund", "hex": "2008"}]
    nine = [{"id": f"t{i}", "hex": f"{i + 10:02d}02"} for i in range(9)]
    with pytest.raises(DataError, match="one treasure marker too many"):
        _session(land, {"treasures": nine})
    _session(land, {"treasures": nine[:8]})


def test_the_25th_bucket_and_the_27th_axe_marker_are_refused():
    from simulator.games.vikings import markers
    ships = [{"id": "d", "type": "drakkar", "side": "vikings", "pivot": "1008", "heading": "E"}]
    chars = [{"id": "klemet", "aboard": {"ship": "d", "slot": 0}}, {"id": "edmund", "hex": "0101"}]
    s = _session(chars, {}, ships=ships, boards=[{"map": "vikings/open_sea_1"}])
    state = s.state_data()
    assert markers.shortage(state, "bucket") is None
    # fill the box: 24 bailers, 26 axes on other (imaginary) characters of the state
    for i in range(26):
        state["chars"][f"x{i}"] = {"id": f"x{i}", "status": "ok", "hex": "0101", "duty": "bailer" if i < 24 else None,
                                   "axe": True}
    assert "24 bucket markers" in (markers.shortage(state, "bucket") or "")
    assert "26 axe markers" in (markers.shortage(state, "axe") or "")
    from simulator.games.vikings.naval import duty_problem
    assert "no bucket left" in (duty_problem(state, state["chars"]["klemet"], "bailer") or "")
    assert markers.shortage(state, "speed", 500) is None                # unlimited in practice
