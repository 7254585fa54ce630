"""Team games (digest 13.1), free-for-all (13.2), the deployment choices (15.4, 16.3) and the
choice of the engaged unit that takes a dropped Objective token (16.4)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from simulator.core.errors import DataError, IllegalAction
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.asoiaf import modes, sides, space
from simulator.games.asoiaf.units import polygon
from tests.asoiaf.helpers import guards, passive, scenario, session, settle, sworn
from tests.asoiaf.test_playout import check_invariants


class Log:
    """A stand-in for the Context's event log, for calling scoring functions on a state copy."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, rule: str = "", **data: Any) -> None:
        self.events.append((kind, text))


def variant(sid: str, rules: dict[str, Any] | None = None, **setup_changes: Any):
    sc = load_scenario(sid)
    data = dict(sc.data, setup={**sc.setup, **setup_changes})
    if rules is not None:
        data["rules"] = rules
    return scenario_from_data(data, sid + "-variant")


# -- team games (13.1) -----------------------------------------------------------------------------
def test_team_turns_alternate_between_teams_and_rotate_inside_a_team():
    s = Session.new("asoiaf/team-game-2v2", 1)
    st = s.state
    assert st["format"] == "teams" and st["areas"]["robb"] == st["areas"]["eddard"] == "south"
    assert st["vp_needed"] == 10                                  # a team's 40 points
    first = st["first_player"]
    assert first in ("north", "westerlands")
    seen = []
    for _ in range(6):
        seen.append(s.active_player())
        s.apply(passive(s))
    teams = [sides.team(st, p) for p in seen]
    assert teams == [first, *[t for t in ("north", "westerlands") if t != first]] * 3
    north = [p for p in seen if sides.team(st, p) == "north"]
    assert north == ["robb", "eddard", "robb"]                    # teammates take the team's turns in turn


def test_teammates_are_friendly_units():
    s = Session.new("asoiaf/team-game-2v2", 1)
    st = s.state_data()
    r1 = st["units"]["R1"]
    enemies = {u["id"] for u in space.enemies_of(st, r1)}
    assert enemies == {"J1", "J2", "J3", "T1", "T2"}
    assert {u["id"] for u in space.alive(st, "robb")} == {"R1", "R2", "R3", "E1", "E2"}
    while sides.team(s.state, s.active_player()) != "north":
        s.apply(passive(s))
    me = s.active_player()
    mine = "R2" if me == "robb" else "E2"
    mate = "E1" if me == "robb" else "R1"
    with pytest.raises(IllegalAction, match="not an enemy unit"):
        s.apply({"type": "attack", "unit": mine, "target": mate})
    with pytest.raises(IllegalAction, match="belongs to"):
        s.apply({"type": "hold", "unit": mate})                   # each player activates its own units


def test_vp_are_scored_and_won_by_teams():
    s = Session.new("asoiaf/team-game-2v2", 1)
    st = s.state_data()
    log = Log()
    modes.add_vp(st, log, "eddard", 3, "test", "")
    assert st["vp"] == {"robb": 3, "jaime": 0, "eddard": 3, "tywin": 0}
    assert sides.scores(st) == {"north": 3, "westerlands": 0}
    modes.add_vp(st, log, "north", 7, "test", "")
    modes.check_victory(st, log, end_of_round=True)
    assert st["result"]["winner"] == "north"
    # a unit destroyed by an enemy scores for the destroyer's team only
    assert modes.beneficiaries(st, st["units"]["J1"], "eddard") == ["north"]
    assert modes.beneficiaries(st, st["units"]["J1"], None) == ["north"]


def test_a_character_appears_once_in_the_whole_team():
    sc = load_scenario("asoiaf/team-game-2v2")
    armies = dict(sc.setup["armies"])
    armies["eddard"] = {**armies["eddard"], "units": [{"id": "E1", "card": "10201", "attachment": "20210"},
                                                      {"id": "E2", "card": "10212"}]}      # Eddard's Honor Guard
    Session.new(scenario_from_data(dict(sc.data, setup={**sc.setup, "armies": armies}), "x"), 1)
    armies["robb"] = {**armies["robb"], "units": armies["robb"]["units"][:2] + [{"id": "R4", "card": "10212"}]}
    with pytest.raises(DataError, match="once in the whole team"):
        Session.new(scenario_from_data(dict(sc.data, setup={**sc.setup, "armies": armies}), "x"), 1)


def test_bad_team_and_format_set_ups_are_refused():
    with pytest.raises(DataError, match="players without a team: tywin"):
        Session.new(variant("asoiaf/team-game-2v2", teams={"north": ["robb", "eddard"], "westerlands": ["jaime"]}), 1)
    with pytest.raises(DataError, match="a duel has two players"):
        Session.new(variant("asoiaf/free-for-all-3", format="duel"), 1)
    with pytest.raises(DataError, match="but A Storm of Swords"):
        Session.new(variant("asoiaf/free-for-all-3", mode="storm_of_swords"), 1)


# -- free-for-all (13.2) ---------------------------------------------------------------------------
def test_free_for_all_corners_turns_to_the_left_and_the_token_passes_left():
    s = Session.new("asoiaf/free-for-all-3", 2)
    st = s.state
    assert dict(st["areas"]) == {"stark": "SW", "lannister": "NW", "bolton": "NE"}
    for u in st["units"].values():
        x0, y0, x1, y1 = __import__("simulator.games.asoiaf.placement", fromlist=["area"]).area(st, u["side"])
        assert (x1 - x0, y1 - y0) == (12, 12)
        p = polygon(u)
        assert p[:, 0].min() >= x0 - 1e-6 and p[:, 0].max() <= x1 + 1e-6
        assert p[:, 1].min() >= y0 - 1e-6 and p[:, 1].max() <= y1 + 1e-6
    with pytest.raises(DataError, match="wholly inside stark's deployment area .SW"):
        armies = dict(load_scenario("asoiaf/free-for-all-3").setup["armies"])
        armies["stark"] = {**armies["stark"], "units": [{"id": "S1", "card": "10201", "attachment": "20201",
                                                         "at": [24, 5]}]}
        Session.new(variant("asoiaf/free-for-all-3", armies=armies), 1)
    order = ["stark", "lannister", "bolton"]
    first = st["first_player"]
    i = order.index(first)
    seen = []
    for _ in range(3):
        seen.append(s.active_player())
        s.apply(passive(s))
    assert seen == [order[(i + k) % 3] for k in range(3)]        # then the player to the left
    r = s.state["round"]
    while s.state["round"] == r:
        s.apply(passive(s))
    assert s.state["first_player"] == order[(i + 1) % 3]         # the token passes to the left
    assert s.active_player() == order[(i + 1) % 3]


def test_free_for_all_elimination_and_the_last_player_standing():
    s = Session.new("asoiaf/free-for-all-3", 2)
    st = s.state_data()
    log = Log()
    for u in st["units"].values():
        if u["side"] == "stark":
            u["destroyed"] = True
    modes.check_victory(st, log, end_of_round=False)
    assert st["eliminated"] == ["stark"] and st["result"] is None
    assert ("eliminated", "stark has no Combat unit left and is eliminated") in log.events
    from simulator.games.asoiaf.rules import Asoiaf
    assert not Asoiaf()._ready(st, "stark")                        # its NCU no longer takes turns
    assert sides.opponent(st, "bolton") == "lannister"             # "to the left", skipping stark
    # lost to no enemy (15.2): each of its owner's opponents still in the game scores
    assert modes.beneficiaries(st, st["units"]["L1"], None) == ["bolton"]
    assert modes.beneficiaries(st, st["units"]["B1"], None) == ["lannister"]
    for u in st["units"].values():
        if u["side"] == "lannister":
            u["destroyed"] = True
    modes.check_victory(st, log, end_of_round=False)
    assert st["result"]["winner"] == "bolton" and st["eliminated"] == ["stark", "lannister"]


# -- deployment choices (15.4, 13.2, 16.3) --------------------------------------------------------------
def test_area_choice_can_be_given_to_the_other_team():
    s = Session.new(variant("asoiaf/team-game-2v2", {"deployment": "players"}), 3)
    d = s.state["deploy"]
    chooser = d["chooser"]
    other = next(t for t in ("north", "westerlands") if t != chooser)
    assert s.legal_actions()[-1] == {"type": "area", "give": True}
    s.apply({"type": "area", "give": True})
    assert s.state["deploy"]["chooser"] == other and sides.team(s.state, s.active_player()) == other
    assert {"type": "area", "give": True} not in s.legal_actions()         # given once only
    with pytest.raises(IllegalAction, match="south' or 'north|one of south, north"):
        s.apply({"type": "area", "area": "east"})
    s.apply({"type": "area", "area": "north"})
    for p in sides.members(s.state, other):
        assert s.state["areas"][p] == "north"
    for p in sides.members(s.state, chooser):
        assert s.state["areas"][p] == "south"
    deployers = []
    while s.state["deploy"]["step"] == "units":
        deployers.append(s.active_player())
        s.apply(s.legal_actions()[0])
    assert sides.team(s.state, deployers[0]) == other                    # the team that chose deploys first
    for u in s.state["units"].values():
        ys = polygon(u)[:, 1]
        assert (ys.min() >= 38 - 1e-6) if sides.team(s.state, u["side"]) == other else (ys.max() <= 10 + 1e-6)
    assert s.legal_actions() == [{"type": "first_player", "player": "north"},
                                 {"type": "first_player", "player": "westerlands"}]
    assert sides.team(s.state, s.active_player()) == chooser              # the team that did not choose
    s.apply({"type": "first_player", "player": chooser})
    assert s.state["phase"] == "activation" and sides.team(s.state, s.active_player()) == chooser


def test_free_for_all_players_pick_corners_from_the_first_player_to_the_left():
    s = Session.new(variant("asoiaf/free-for-all-3", {"deployment": "players"}), 4)
    first = s.state["deploy"]["chooser"]
    order = ["stark", "lannister", "bolton"]
    i = order.index(first)
    assert s.active_player() == first and s.state["deploy"]["first_player"] == first
    own = {"stark": "SW", "lannister": "NW", "bolton": "NE"}[first]
    assert s.legal_actions()[0] == {"type": "area", "area": own}          # the default first
    s.apply({"type": "area", "area": "SE"})
    nxt = order[(i + 1) % 3]
    assert s.active_player() == nxt
    with pytest.raises(IllegalAction, match="free corner"):
        s.apply({"type": "area", "area": "SE"})
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert s.state["areas"][first] == "SE" and len(set(s.state["areas"].values())) == 3
    deployers = []
    while s.state["phase"] == "deployment":
        deployers.append(s.active_player())
        s.apply(s.legal_actions()[0])
    assert deployers == [order[(i + k) % 3] for k in range(3)] * 2
    assert s.state["first_player"] == first and s.active_player() == first
    for u in s.state["units"].values():
        p = polygon(u)
        if u["side"] == first:
            assert p[:, 0].min() >= 36 - 1e-6 and p[:, 1].max() <= 12 + 1e-6     # the SE corner


def test_storm_of_swords_defender_chooses_its_reserve_units():
    sc = load_scenario("asoiaf/storm-of-swords")
    s = Session.new(scenario_from_data(dict(sc.data, rules={"deployment": "players"}), "x"), 1)
    assert s.state["deploy"]["step"] == "reserve" and s.active_player() == "lannister"
    assert s.legal_actions()[0] == {"type": "reserve", "units": ["L3", "L4"]}   # the scenario's marks first
    with pytest.raises(IllegalAction, match="must name 2 different Combat units"):
        s.apply({"type": "reserve", "units": ["L1"]})
    s.apply({"type": "reserve", "units": ["L1", "L3"]})
    u = s.state["units"]
    assert u["L1"]["reserve"] and u["L3"]["reserve"] and not u["L4"]["reserve"] and u["L4"].get("undeployed")
    while s.state["phase"] == "deployment":
        s.apply(s.legal_actions()[0])
    assert u["L1"]["reserve"] is True and not s.state["units"]["L4"].get("undeployed")


# -- the dropped token among several engaged enemies (16.4) ---------------------------------------------
def test_opponent_chooses_which_engaged_unit_takes_a_dropped_token():
    # A Dance with Dragons: L2 carries O3; S1 charges its front and S2 its flank (every attack die
    # misses); Catelyn's Crown zone makes L2 fail a Panic test: S1 takes the token at once and
    # Stark, the opponent, may give it to S2 instead.
    sc = scenario([sworn("S1", (40, 14), 90, robb=False), sworn("S2", (30, 22), 0, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (40, 29), jaime=False), guards("L9", (10, 44))],
                  mode="dance_with_dragons", ncus=True, first="lannister")
    s = session(sc, tape=[6] + [1] * 60)
    s.apply({"type": "maneuver", "unit": "L2", "pivot": 270, "distance": 2, "facing": 270})
    assert s.state["units"]["L2"]["objective"] == "O3"
    s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90})
    settle(s)
    s.apply({"type": "hold", "unit": "L9"})
    s.apply({"type": "charge", "unit": "S2", "target": "L2", "facing": 0})
    settle(s)
    assert {e["id"] for e in space.engaged_with(s.state, s.state["units"]["L2"])} == {"S1", "S2"}
    s.apply({"type": "ncu_pass", "ncu": "lannister-N1"})
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "crown", "target": "L2"})
    p = s.state["pending"][0]
    assert p["window"] == "take_objective" and p["player"] == "stark" and p["units"] == ["S1", "S2"]
    assert s.state["units"]["S1"]["objective"] == "O3"                    # the first took it at once
    assert s.legal_actions() == [{"type": "take_objective", "unit": "S1"},
                                 {"type": "take_objective", "unit": "S2"}]
    with pytest.raises(IllegalAction, match="one of the engaged units S1, S2"):
        s.apply({"type": "take_objective", "unit": "S9"})
    s.apply({"type": "take_objective", "unit": "S2"})
    u = s.state["units"]
    assert u["S2"]["objective"] == "O3" and u["S1"]["objective"] is None and u["L2"]["objective"] is None
    ob = next(o for o in s.state["objectives"] if o["id"] == "O3")
    assert ob["holder"] == "S2"
    assert any(e.kind == "objective" and "claims instead" in e.text for e in s.log)


# -- seeded random playouts to the end ----------------------------------------------------------------
@pytest.mark.parametrize("sid,seed", [("asoiaf/team-game-2v2", 11), ("asoiaf/free-for-all-3", 12)])
def test_seeded_random_playout_reaches_the_end(sid, seed):
    s = Session.new(sid, seed)
    rng = random.Random(seed)
    for _ in range(1500):
        if s.outcome() is not None:
            break
        acts = s.legal_actions()
        assert acts
        fighting = [a for a in acts if a["type"] in ("charge", "attack")]
        s.apply(rng.choice(fighting) if fighting and rng.random() < 0.6 else rng.choice(acts))
        st = s.state_data()
        check_invariants(st)
        if not st["pending"] and not st.get("result"):
            assert sides.team(st, st["active"]) not in st["eliminated"]
        scores = sides.scores(st)
        for p in st["players"]:
            assert st["vp"][p] == scores[sides.team(st, p)]
    out = s.outcome()
    assert out is not None
    assert out.winner is None or out.winner in sides.team_ids(s.state)
    assert set(out.scores) == set(sides.team_ids(s.state))
