"""Redeploys and Reserves (digest §16.3, §16.9), Destructible terrain (§14.1), Sharp and Ready's
zone replacement (§16.7) and the other Commanders' Tactics decks (§9.2). Forced dice, Session only."""

import pytest

from simulator.core.errors import IllegalAction
from simulator.games.asoiaf.catalogue import catalogue
from tests.asoiaf.helpers import finish_round, guards, passive, scenario, session, settle, sworn


def grey_wind_dies(mode, **kw):
    """Lannister L2 destroys Grey Wind (solo, 4 Wounds) in round 1."""
    sc = scenario([{"id": "GW", "card": "10204", "at": [24, 19.375], "facing": 90}, sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first="lannister",
                  mode=mode, **kw)
    s = session(sc, tape=[6, 6, 6, 6, 1, 1] + [1, 1, 1, 1])
    s.apply({"type": "attack", "unit": "L2", "target": "GW", "attack": 0})
    settle(s)
    assert s.state["units"]["GW"]["destroyed"]
    return s


def test_here_we_stand_redeploys_one_unit_with_an_activation_token():
    s = grey_wind_dies("here_we_stand")
    while s.state["round"] == 1:
        a = passive(s) if s.state["pending"] == [] or s.state["pending"][0]["window"] != "momentum" \
            else {"type": "skip", "unit": "L2"}
        s.apply(a)
    p = s.state["pending"][0]
    assert p["window"] == "redeploy" and p["player"] == "stark"
    opts = s.legal_actions()
    assert opts[0]["type"] == "redeploy" and opts[-1] == {"type": "skip"}
    with pytest.raises(IllegalAction, match="wholly inside"):
        s.apply({"type": "redeploy", "unit": "GW", "x": 24, "y": 24})
    s.apply({"type": "redeploy", "unit": "GW", "x": 3, "y": 24, "facing": 0})   # within 6" of a side edge
    gw = s.state["units"]["GW"]
    assert not gw["destroyed"] and gw["figures"] == 1 and gw["activated"]
    assert s.state["vp"]["lannister"] == 1             # the kill still counts
    assert not s.state["pending"]


def test_storm_of_swords_attacker_redeploys_and_reserves_enter_from_round_3():
    sc = scenario([{"id": "GW", "card": "10204", "at": [24, 19.375], "facing": 90}, sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=False), dict(guards("L9", (44, 40)), reserve=True),
                   dict(guards("L5", (40, 40), jaime=False), reserve=True)],
                  first="lannister", mode="storm_of_swords", defender="lannister")
    s = session(sc, tape=[6, 6, 6, 6, 1, 1] + [1, 1, 1, 1])
    with pytest.raises(IllegalAction, match="not on the table"):
        s.apply({"type": "attack", "unit": "L5", "target": "GW", "attack": 0})
    s.apply({"type": "attack", "unit": "L2", "target": "GW", "attack": 0})
    settle(s)
    while s.state["round"] == 1:
        p = s.state["pending"]
        s.apply({"type": "skip", "unit": "L2"} if p and p[0]["window"] == "momentum" else passive(s))
    assert s.state["pending"][0]["window"] == "redeploy"
    s.apply({"type": "redeploy", "unit": "GW", "x": 24, "y": 10, "facing": 90})   # attacker's 18" strip
    assert not s.state["units"]["GW"]["destroyed"]
    assert not any(a.get("enter") for a in s.legal_actions())         # round 2: Reserves wait
    while s.state["round"] == 2:
        s.apply(passive(s))
    while s.active_player() != "lannister" or s.state["pending"]:
        s.apply(passive(s))
    entering = [a for a in s.legal_actions() if a.get("enter")]
    assert {a["unit"] for a in entering} == {"L5", "L9"}     # half the Defender's units, rounded up
    with pytest.raises(IllegalAction, match="wholly inside"):
        s.apply({"type": "hold", "unit": "L5", "enter": [24, 30, 270]})
    s.apply({"type": "hold", "unit": "L5", "enter": [45, 24, 180]})
    l5 = s.state["units"]["L5"]
    assert not l5["reserve"] and (l5["x"], l5["y"]) == (45, 24) and l5["activated"]


def test_destructible_piece_is_removed_by_a_melee_attack_action():
    sc = scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (24, 40), jaime=False), guards("L9", (44, 44))],
                  terrain=[{"kind": "palisade", "at": [24, 21.2]}, {"kind": "forest", "at": [10, 30]}])
    s = session(sc)
    assert {"type": "attack_terrain", "unit": "S1", "terrain": "T1"} in s.legal_actions()
    with pytest.raises(IllegalAction, match="not Destructible"):
        s.apply({"type": "attack_terrain", "unit": "S1", "terrain": "T2"})
    with pytest.raises(IllegalAction, match="within 1"):
        s.apply({"type": "attack_terrain", "unit": "S9", "terrain": "T1"})
    s.apply({"type": "attack_terrain", "unit": "S1", "terrain": "T1"})
    assert [t["id"] for t in s.state["terrain"]] == ["T2"]
    assert s.state["units"]["S1"]["activated"]


def test_sharp_and_ready_zone_effect_replaced_by_arrows():
    # S1 holds the side Objective O2 (6, 24); Cersei claims Crown with Sharp and Ready's effect:
    # 1D3+2 hits on S1 (D3 = 2: four hits, Defense 4+ blocks two).
    sc = scenario([sworn("S1", (6, 24), 90, robb=False), sworn("S9", (30, 4))],
                  [guards("L2", (24, 40), jaime=False), guards("L9", (44, 44))],
                  mode="sharp_and_ready", ncus=True, first="stark")
    s = session(sc, tape=[2, 1, 2, 5, 6])
    s.apply({"type": "maneuver", "unit": "S1", "pivot": 90, "distance": 0.5, "facing": 90})
    assert s.state["objectives"][1]["holder"] == "S1"
    opts = [a for a in s.legal_actions() if a.get("replace")]
    assert opts and opts[0]["target"] == "S1"
    with pytest.raises(IllegalAction, match="other than the centre"):
        s.apply({"type": "claim", "ncu": "lannister-N1", "zone": "wealth", "target": "S9", "replace": True})
    s.apply({"type": "claim", "ncu": "lannister-N1", "zone": "maneuver", "target": "S1", "replace": True})
    assert s.state["units"]["S1"]["figures"] == 10
    assert s.state["board"]["maneuver"] == "lannister-N1"


@pytest.mark.parametrize("commander", ["20202", "20208", "20210", "20211", "20225", "20215", "20228", "20229",
                                       "20104", "20105", "20116", "20121", "20125", "20129", "20130",
                                       "20402", "20415", "20409", "20411", "20424"])
def test_every_commander_has_a_full_deck_of_cards_with_effects(commander):
    cat = catalogue()
    faction = cat.attachments[commander]["faction"]
    deck = cat.deck_for("lannister" if faction == "neutral" else faction, commander)
    assert len(deck) == 20
    own = [c for c in set(deck) if cat.tactics[c].get("commander") == commander]
    assert len(own) == 3
    assert all(cat.card_effects[c]["assumed"] for c in own)


def test_tywin_army_plays_a_commander_card():
    sc = scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                  [{"id": "L2", "card": "10101", "attachment": "20104", "at": [24, 22.72], "facing": 270},
                   guards("L9", (44, 44), jaime=False)], first="lannister",
                  hands={"stark": ["40201"], "lannister": ["40114"]})
    sc.setup["armies"]["lannister"]["commander"] = "20104"
    s = session(sc, tape=[4, 4, 4, 4, 4, 4] + [4, 4, 4, 4, 4, 4] + [6, 6, 1])
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0, "card": "40114"})
    settle(s)
    d = [e for e in s.log if e.kind == "defense"][-1]
    assert "(-1)" in d.text                                  # Exploit Weakness: Sundering (assumed)
    assert any(e.kind == "card" and "assumed" in e.text for e in s.log)
