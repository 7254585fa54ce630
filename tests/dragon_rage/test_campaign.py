"""Campaigns (DR 4): a five-game campaign played through Session, availability carried forward."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from simulator.core.errors import DataError
from simulator.core.scenario import scenario_from_data
from simulator.core.session import Session
from simulator.games.dragon_rage import campaign as cp
from simulator.games.dragon_rage.board import board_for

CAMPAIGN = "dragon_rage/campaign/esirien-decade"


def play_quiet_game(data: dict[str, Any], n: int) -> Session:
    """Both sides only end their phases: after ten turns without damage the defender wins (DR 2.2.4.2)."""
    s = Session.new(scenario_from_data(data, f"dragon_rage/campaign-{n}"), seed=n)
    for _ in range(200):
        if s.outcome() is not None:
            break
        s.apply({"type": "end_phase"})
    assert s.outcome() is not None and s.outcome().winner == "defender"
    return s


def test_a_whole_campaign_carries_availability_forward() -> None:
    camp = cp.load_campaign(CAMPAIGN)
    assert camp.games == 5
    data = cp.first_scenario(camp)
    seen = []
    for n in range(1, 6):
        rec = data["setup"]["campaign"]
        assert rec["game"] == n
        session = play_quiet_game(data, n)
        st = session.state_data()
        seen.append((rec["availability"]["invader"], rec["availability"]["defender"],
                     st["vp"]["score"], sorted(st["vp"]["destroyed"])))
        if n < 5:
            data = cp.next_scenario(camp, session)
    # DR 4.4: gap <= 10 -> winner +10, loser +5; gap > 10 and the weaker loses -> stronger +5.
    # DR 4.3.3: gap 15 -> 3 VP head start, gap 20 -> 4 VP (the first end_phase marks the default:
    # the most valuable hexes that fit).
    assert seen == [(60, 60, 0, []), (65, 70, 0, []), (70, 80, 0, []), (75, 90, 3, ["1005"]),
                    (75, 95, 4, ["1110"])]
    final = cp.progress_after(session)
    assert final["availability"] == {"invader": 75, "defender": 100}
    assert [h["gained"] for h in final["history"]] == [
        {"invader": 5, "defender": 10}, {"invader": 5, "defender": 10}, {"invader": 5, "defender": 10},
        {"invader": 0, "defender": 5}, {"invader": 0, "defender": 5}]
    assert cp.campaign_winner(camp, final) == "defender"
    with pytest.raises(DataError, match="the campaign is over"):
        cp.next_scenario(camp, session)


def test_campaign_objective_and_unit_caps() -> None:
    camp = cp.load_campaign(CAMPAIGN)
    rec = cp.start(camp)
    # game 1: a dragon (+2 major monster) and a giant (+1 minor monster)
    assert cp.first_scenario(camp)["setup"]["objective"] == 20
    assert [cp.unit_cap(n) for n in range(1, 6)] == [15, 20, 20, 25, 25]
    # a roc is a major monster (+2) and also on the roc/young dragon/wurm line (+1): Q-CAM-2
    data = cp.game_scenario(camp, rec, invader={"roc": 1, "goblins": 8, "orcs": 2}, defender={"infantry": 10})
    assert data["setup"]["objective"] == 17 + 3 + 1
    with pytest.raises(DataError, match="more than the 15 allowed"):
        cp.game_scenario(camp, rec, invader={"goblins": 8, "orcs": 8})
    with pytest.raises(DataError, match="more than the 60 allowed"):
        cp.game_scenario(camp, rec, invader={"dragon": 1, "roc": 1})
    with pytest.raises(DataError, match="may not buy cavalry"):
        cp.game_scenario(camp, rec, invader={"cavalry": 1})
    # -1 per defender unit above 20 only in games 4 and 5
    big = {"infantry": 16, "militia": 6}
    g3 = cp.game_scenario(camp, {**rec, "game": 3, "availability": {"invader": 60, "defender": 60}},
                          invader={"giant": 1}, defender={"infantry": 10, "militia": 8, "archers": 2})
    g4 = cp.game_scenario(camp, {**rec, "game": 4}, invader={"giant": 1}, defender=big)
    assert (g3["setup"]["objective"], g4["setup"]["objective"]) == (18, 16)


def test_more_availability_buys_a_bigger_force() -> None:
    camp = cp.load_campaign(CAMPAIGN)
    rec = {**cp.start(camp), "game": 2, "availability": {"invader": 65, "defender": 70}}
    data = cp.game_scenario(camp, rec, invader={"dragon": 1, "trolls": 4, "goblins": 8},      # 64 points
                            defender={"hero": 1, "wizard": 1, "cavalry": 5, "infantry": 10})
    assert data["setup"]["campaign"]["availability"] == {"invader": 65, "defender": 70}
    s = Session.new(scenario_from_data(data, "dragon_rage/campaign-big"))
    units = s.state_data()["units"].values()
    assert sum(u["type"] == "trolls" for u in units) == 4 and sum(u["type"] == "cavalry" for u in units) == 5
    with pytest.raises(DataError, match="more than the 65 allowed"):
        cp.game_scenario(camp, rec, invader={"dragon": 1, "giant": 2})


def test_rich_invader_gets_a_higher_objective() -> None:
    assert cp.balance({"invader": 60, "defender": 74}) == (0, 0)
    assert cp.balance({"invader": 60, "defender": 78}) == (3, 0)       # the rule's example: 18 -> 3
    assert cp.balance({"invader": 78, "defender": 60}) == (0, 3)
    camp = cp.load_campaign(CAMPAIGN)
    rec = {**cp.start(camp), "availability": {"invader": 80, "defender": 60}}
    assert cp.game_scenario(camp, rec)["setup"]["objective"] == 20 + 4


def test_head_start_hexes_choice_is_checked() -> None:
    assert cp.head_start_hexes("esirien", 6) == ["1910", "0309"]
    assert cp.head_start_hexes("esirien", 3, ["1205", "0809"]) == ["1205", "0809"]
    for bad in (["1910"], ["0101"], ["0309", "0309"]):
        with pytest.raises(DataError, match="DR 4.3.3"):
            cp.head_start_hexes("esirien", 3, bad)
    camp = cp.load_campaign(CAMPAIGN)
    rec = {**cp.start(camp), "availability": {"invader": 60, "defender": 75}}
    data = cp.game_scenario(camp, rec, head_start=["1205", "0809"])
    s = Session.new(scenario_from_data(data, "dragon_rage/campaign-head"))
    assert s.state["vp"]["destroyed"] == {"1205": 1, "0809": 2} and s.state["vp"]["score"] == 3
    data["setup"]["destroyed_vp"] = ["0101"]
    with pytest.raises(DataError, match="not a VP hex"):
        Session.new(scenario_from_data(data, "dragon_rage/campaign-bad"))


def test_after_game_awards_and_bounties() -> None:
    camp = cp.load_campaign(CAMPAIGN)
    s = Session.new(scenario_from_data(cp.first_scenario(camp), "dragon_rage/campaign-1"))
    st = s.state_data()
    st["units"]["dragon1"]["alive"] = False          # killed by the defender
    st["units"]["hero1"]["alive"] = False             # the defender's hero killed by the invader
    assert cp.kills(st) == {"invader": ["hero1"], "defender": ["dragon1"]}
    rec = cp.start(camp)
    won = cp.after_game(rec, {"winner": "invader", "text": "objective"}, st)
    assert won["availability"] == {"invader": 60 + 10 + 5, "defender": 60 + 5 + 5}
    assert rec["game"] == 1 and rec["history"] == []                     # the old record is untouched
    assert cp.awards({"invader": 60, "defender": 75}, "invader", {}) == {"invader": 10, "defender": 0}
    assert cp.awards({"invader": 60, "defender": 75}, "defender", {}) == {"invader": 0, "defender": 5}
    assert cp.awards({"invader": 80, "defender": 60}, "defender", {}) == {"invader": 0, "defender": 10}
    assert cp.awards({"invader": 60, "defender": 70}, "invader", {}) == {"invader": 10, "defender": 5}
    assert cp.awards({"invader": 60, "defender": 60}, None, {}) == {"invader": 5, "defender": 5}
    with pytest.raises(DataError, match="not finished"):
        cp.next_scenario(camp, s)


def test_a_saved_campaign_game_still_leads_to_the_next(tmp_path: Path) -> None:
    camp = cp.load_campaign(CAMPAIGN)
    s = play_quiet_game(cp.first_scenario(camp), 1)
    s.save(tmp_path / "game1.yaml")
    loaded = Session.load(tmp_path / "game1.yaml")
    assert cp.next_scenario(camp, loaded)["setup"]["campaign"]["availability"] == {"invader": 65, "defender": 70}


def test_bad_campaign_files(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="unknown campaign"):
        cp.load_campaign("dragon_rage/campaign/nowhere")
    f = tmp_path / "c.yaml"
    game = "  - {name: g, invader: {giant: 1}, defender: {infantry: 1}}\n"
    f.write_text("format: dragon_rage-campaign/1\nname: x\nmap: esirien\ngames:\n" + game * 6)
    with pytest.raises(DataError, match="c.yaml:4.*5 games"):
        cp.load_campaign(f)
    f.write_text("format: dragon_rage-campaign/1\nname: x\nmap: esirien\ngames:\n  - {name: g, invader: 3}\n")
    with pytest.raises(DataError, match="c.yaml:5"):
        cp.load_campaign(f)
    plain = Session.new("dragon_rage/esirien-1-fury")
    with pytest.raises(DataError, match="not a campaign game"):
        cp.record_of(plain)


def test_next_game_through_the_game_contract() -> None:
    """Game.next_scenario (the client's "Next game"): finish game 1 through Session, build game 2
    from the finished state and scenario, start it, and check what was carried forward (DR 4.4)."""
    from simulator.core.view import force_selections
    camp = cp.load_campaign(CAMPAIGN)
    first = play_quiet_game(cp.first_scenario(camp), 1)
    data = first.game.next_scenario(first.state_data(), first.scenario)
    assert data is not None and data["force_selection"] == {"mode": "campaign"}
    rec = data["setup"]["campaign"]
    assert rec["game"] == 2 and rec["availability"] == {"invader": 65, "defender": 70}
    assert rec["history"][0]["winner"] == "defender" and rec["history"][0]["gained"] == {"invader": 5, "defender": 10}
    # the default forces: the campaign file's suggestion for game 2 (legal within 65 / 70 points)
    game2 = cp.load_campaign(CAMPAIGN).data["games"][1]
    for side in ("invader", "defender"):
        assert cp.counts(data["setup"]["forces"][side]) == game2[side]
    scenario = scenario_from_data(data, "dragon_rage/campaign-2")
    # the force-selection screen: each player's availability as budget, the game-2 unit cap
    selections = {sel.player: sel for sel in force_selections(scenario)}
    assert selections["invader"].budget == 65 and selections["defender"].budget == 70
    assert selections["invader"].unit_limit == (1, 20) and selections["invader"].rule == "DR 4.3.1"
    rules = first.game.forces()
    assert rules.check_forces(scenario, "invader", {"roc": 1, "giant": 3, "trolls": 1}) != []     # 68 > 65
    chosen = {"invader": {"roc": 1, "giant": 2, "trolls": 3}, "defender": {"hero": 1, "infantry": 12, "archers": 4}}
    assert not rules.check_forces(scenario, "invader", chosen["invader"])
    assert not rules.check_forces(scenario, "defender", chosen["defender"])
    assert rules.check_forces(scenario, "defender", {"infantry": 16, "archers": 4, "militia": 1}) != []  # 21 > 20
    built = rules.build_scenario(scenario, chosen)
    assert "force_selection" not in built and built["setup"]["campaign"] == rec
    second = Session.new(scenario_from_data(built, "dragon_rage/campaign-2"), seed=2)
    types = sorted(u["type"] for u in second.state["units"].values() if u["side"] == "invader")
    assert types == ["giant", "giant", "roc", "trolls", "trolls", "trolls"]
    # played as it is (no screen), game 2 uses the default forces and leads on to game 3
    second = play_quiet_game(data, 2)
    third = second.game.next_scenario(second.state_data(), second.scenario)
    assert third["setup"]["campaign"]["game"] == 3
    assert third["setup"]["campaign"]["availability"] == {"invader": 70, "defender": 80}


@pytest.mark.parametrize("path", sorted(cp.CAMPAIGNS_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_campaign_is_offered_by_its_first_game_and_every_game_builds(path: Path) -> None:
    """Each campaign file has its first game in the picker (scenarios/dragon_rage/campaign-<name>,
    equal to first_scenario), and each of its games builds and starts with the suggested forces."""
    from simulator.core.scenario import load_scenario
    camp = cp.load_campaign(path)
    picker = load_scenario(f"dragon_rage/campaign-{path.stem}")
    assert cp._plain(picker.data) == cp.first_scenario(camp)
    for n in range(1, camp.games + 1):
        data = cp.game_scenario(camp, {**cp.start(camp), "game": n})
        s = Session.new(scenario_from_data(data, f"dragon_rage/campaign-{n}"), seed=n)
        assert sorted(u["type"] for u in s.state["units"].values() if u["side"] == "invader") == \
            sorted(t for t, k in camp.data["games"][n - 1]["invader"].items() for _ in range(k))


def test_a_nurkott_campaign_recruits_greenskins_for_the_defender() -> None:
    camp = cp.load_campaign("dragon_rage/campaign/nurkott-vengeance")
    rec = cp.start(camp)
    with pytest.raises(DataError, match="may not buy"):
        cp.game_scenario(camp, rec, defender={"infantry": 5})
    with pytest.raises(DataError, match="may not buy"):
        cp.game_scenario(camp, rec, invader={"orcs": 5})
    assert cp.first_scenario(camp)["setup"]["objective"] == 17 + 1 + 1      # 13 units, Nurkott


def test_the_first_game_opens_the_same_force_selection() -> None:
    """Game 1 (the picker's campaign-esirien-decade scenario) asks for the campaign force screen:
    60 availability points each and the game-1 cap of 15 units (DR 4.1, 4.3.1), the campaign's
    recruiting rule, the live objective note (DR 4.3.2), and the chosen forces make game 1."""
    from simulator.core.scenario import load_scenario
    from simulator.core.view import force_selections
    camp = cp.load_campaign(CAMPAIGN)
    data = cp.first_scenario(camp)
    assert data["force_selection"] == {"mode": "campaign"}
    picker = load_scenario("dragon_rage/campaign-esirien-decade")
    selections = {sel.player: sel for sel in force_selections(picker)}
    for side in ("invader", "defender"):
        assert selections[side].budget == 60 and selections[side].unit_limit == (1, 15)
        assert selections[side].rule == "DR 4.3.1" and selections[side].secret
        assert selections[side].suggested == camp.data["games"][0][side]
    assert "cavalry" not in {o.id for o in selections["invader"].options}      # humans defend Esirien
    rules = Session.new(picker, seed=1).game.forces()
    assert any("more than the 15" in p.message for p in rules.check_forces(picker, "invader", {"goblins": 8, "orcs": 8}))
    assert any("more than the 60" in p.message for p in rules.check_forces(picker, "invader", {"dragon": 1, "roc": 1}))
    chosen = {"invader": {"roc": 1, "giant": 2, "goblins": 4}, "defender": {"hero": 1, "infantry": 10, "archers": 4}}
    assert not rules.check_forces(picker, "invader", chosen["invader"])
    assert not rules.check_forces(picker, "defender", chosen["defender"])
    assert rules.forces_note(picker, "invader", chosen["invader"]).startswith("VP objective: 22 = 17")
    built = rules.build_scenario(picker, chosen)
    assert "force_selection" not in built and built["setup"]["campaign"] == cp.start(camp)
    assert built["setup"]["objective"] == 17 + 3 + 2                  # roc +2 +1, two giants +1 each
    game1 = Session.new(scenario_from_data(built, "dragon_rage/campaign-1"), seed=1)
    types = sorted(u["type"] for u in game1.state["units"].values() if u["side"] == "invader")
    assert types == ["giant", "giant", "goblins", "goblins", "goblins", "goblins", "roc"]


def test_next_scenario_is_none_outside_a_campaign_or_before_the_end() -> None:
    s = Session.new("dragon_rage/esirien-1-fury", seed=1)
    assert s.game.next_scenario(s.state_data(), s.scenario) is None
    camp = cp.load_campaign(CAMPAIGN)
    s = Session.new(scenario_from_data(cp.first_scenario(camp), "dragon_rage/campaign-1"), seed=1)
    assert s.game.next_scenario(s.state_data(), s.scenario) is None          # not finished yet


def test_default_forces_fall_back_to_the_greedy_pick() -> None:
    camp = cp.load_campaign(CAMPAIGN)
    rec = {**cp.start(camp), "availability": {"invader": 40, "defender": 30}}
    inv = cp.default_forces(camp, rec, "invader")          # the suggested 60-point force does not fit 40
    assert inv != cp.counts(camp.data["games"][0]["invader"])
    assert not cp.check_force(camp.map, "invader", inv, budget=40, unit_cap=cp.unit_cap(1))
    assert cp.cost(inv) == 40                               # a dragon: the dearest that fits


def head_start_session(gap: int = 20) -> Session:
    """A campaign game whose defender has ``gap`` more availability: gap 20 -> 4 VP (DR 4.3.3)."""
    camp = cp.load_campaign(CAMPAIGN)
    rec = {**cp.start(camp), "availability": {"invader": 60, "defender": 60 + gap}}
    data = cp.game_scenario(camp, rec)
    assert data["setup"]["head_start_vp"] == gap // 5 and "destroyed_vp" not in data["setup"]
    return Session.new(scenario_from_data(data, "dragon_rage/campaign-head-start"), seed=3)


def test_head_start_is_chosen_in_play_hex_by_hex() -> None:
    s = head_start_session()
    assert s.state["active"] == "invader" and s.state["head_start"]["left"] == 4
    offered = s.legal_actions()
    assert {"type": "end_phase"} in offered
    hexes = {a["hex"] for a in offered if a["type"] == "head_start"}
    assert "1910" not in hexes and {"1205", "0809", "1005"} <= hexes      # 1910 is worth 5 > 4
    assert all(a["type"] in ("head_start", "end_phase") for a in offered)
    # nothing else happens before the markers are down
    assert "DR 4.3.3" in str(s.check({"type": "cast", "unit": "wizard1", "spell": "boost_morale", "radius": 0}))
    assert "only 4 VP" in str(s.check({"type": "head_start", "hex": "1910"}))
    assert "not a VP hex" in str(s.check({"type": "head_start", "hex": "0101"}))
    events = s.apply({"type": "head_start", "hex": "0809"})
    assert [e.kind for e in events] == ["head_start_hex"] and events[0].rule == "DR 4.3.3"
    assert "already destroyed" in str(s.check({"type": "head_start", "hex": "0809"}))
    assert "only 2 VP" in str(s.check({"type": "head_start", "hex": "1005"}))
    values = board_for("dragon_rage/esirien").vp
    assert {a["hex"] for a in s.legal_actions() if a["type"] == "head_start"} == \
        {h for h, v in values.items() if h != "0809" and 0 < v <= 2}
    s.apply({"type": "head_start", "hex": "1205"})
    events = s.apply({"type": "head_start", "hex": "0309"})     # spent: play begins by itself
    assert [e.kind for e in events] == ["head_start_hex", "head_start_done"]
    st = s.state_data()
    assert st["head_start"] is None and st["vp"]["score"] == 4 and st["active"] == "invader"
    assert st["vp"]["destroyed"] == {"0809": 2, "1205": 1, "0309": 1}
    assert st["phase"] == st["order"][0] and st["turn"] == 1
    assert not any(a["type"] == "head_start" for a in s.legal_actions())
    assert "before play" in str(s.check({"type": "head_start", "hex": "1005"}))
    s.undo()
    assert s.state["head_start"]["left"] == 1


def test_head_start_end_phase_takes_the_default_for_the_rest() -> None:
    s = head_start_session(15)                                  # 3 VP
    s.apply({"type": "head_start", "hex": "1205"})
    events = s.apply({"type": "end_phase"})
    assert [e.kind for e in events] == ["head_start_hex", "head_start_done"]
    st = s.state_data()
    assert st["vp"]["destroyed"] == {"1205": 1, "0809": 2} and st["vp"]["score"] == 3
    assert st["phase"] == st["order"][0]                          # end_phase did not end the first phase


def test_head_start_through_the_client_contract() -> None:
    """The client offers the step as a piece menu on any counter and says so in the banner."""
    s = head_start_session()
    view = s.game.presentation()
    assert "head start" in view.banner(s.state) and "4 VP" in view.banner(s.state)
    assert not any(p.movable for p in view.pieces(s.state))
    some = next(u for u in s.state["units"].values() if u["side"] == "defender" and u["hex"])
    menu = view.piece_actions(s.state, s.legal_actions(), some["id"])
    assert len(menu) == len(s.legal_actions())
    assert ("Mark 0809 destroyed (2 VP)", {"type": "head_start", "hex": "0809"}) in menu
    assert menu[-1] == ("Mark the remaining 4 VP by default", {"type": "end_phase"})
    s.apply(menu[0][1])
    assert view.surface(s.state).hex_marks[menu[0][1]["hex"]].startswith("x")


def test_the_next_campaign_game_asks_for_the_head_start_in_play() -> None:
    camp = cp.load_campaign(CAMPAIGN)
    rec = {**cp.start(camp), "game": 2, "availability": {"invader": 60, "defender": 80}}
    scenario = scenario_from_data({**cp.game_scenario(camp, rec), "force_selection": {"mode": "campaign"}},
                                  "dragon_rage/campaign-next")
    data = cp.chosen_game_scenario(scenario, cp.default_forces(camp, rec, "invader"),
                                   cp.default_forces(camp, rec, "defender"))
    assert data["setup"]["head_start_vp"] == 4 and "marks the VP hexes before play" in data["notes"]
