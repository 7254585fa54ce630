"""Choices the rules give a player, once made by the engine alone: which cards go when a hand
passes 5 (digest §3.2), where a unit lying exactly between quadrants is (§16.9, the opponent
decides), and which enemy gets the Fire and Blood Commander's VP token (§16.8, "may choose").
Forced dice, through Session only."""

import pytest

from simulator.core.errors import IllegalAction
from simulator.games.asoiaf import GAME
from tests.asoiaf.helpers import guards, passive, scenario, session, sworn


def until(s, player=None, window=None):
    """Answer with the most passive action until ``player`` is to act or ``window`` is open."""
    for _ in range(200):
        pending = s.state["pending"]
        if window is not None and pending and pending[0]["window"] == window:
            return
        if player is not None and not pending and s.active_player() == player:
            return
        s.apply(passive(s))
    raise AssertionError("never reached")


def test_a_hand_above_5_discards_the_players_choice():
    # Round 1 Cersei claims Tactics (draw 2): 5 cards. Lannister keeps them all at the Cleanup, so
    # round 2 starts with 5; Tactics again: 7 cards, and Lannister must discard 2 at once, any 2.
    sc = scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (24, 30), jaime=False), guards("L9", (44, 44))], ncus=True, first="lannister")
    s = session(sc)
    s.apply({"type": "claim", "ncu": "lannister-N1", "zone": "tactics", "target": "S1", "condition": "weakened"})
    assert len(s.state["hands"]["lannister"]) == 5 and not s.state["pending"]
    until(s, window="discard")
    while s.state["pending"] and s.state["pending"][0]["window"] == "discard":
        s.apply({"type": "discard", "cards": []})
    assert s.state["round"] == 2 and len(s.state["hands"]["lannister"]) == 5
    until(s, player="lannister")
    hand = list(s.state["hands"]["lannister"])
    s.apply({"type": "claim", "ncu": "lannister-N1", "zone": "tactics", "target": "S1", "condition": "vulnerable"})
    drawn = list(s.state["hands"]["lannister"][5:])
    p = s.state["pending"][0]
    assert p["window"] == "hand_limit" and p["player"] == "lannister" and s.active_player() == "lannister"
    offered = s.legal_actions()
    assert offered[0] == {"type": "discard", "cards": drawn}           # the default: the two just drawn
    choice = GAME.presentation().secret_choice(s.state_data())       # asked behind the hand-over screen
    assert choice.player == "lannister" and [a for _, a in choice.options] == offered
    assert {"type": "discard", "cards": hand[:2]} in offered and len(offered) > 2
    with pytest.raises(IllegalAction, match="exactly 2"):
        s.apply({"type": "discard", "cards": [hand[0]]})
    with pytest.raises(IllegalAction, match="not in lannister's hand"):
        s.apply({"type": "discard", "cards": [hand[0], "99999"]})
    with pytest.raises(IllegalAction, match="must first answer"):
        s.apply({"type": "hold", "unit": "S1"})
    s.apply({"type": "discard", "cards": hand[:2]})
    assert sorted(s.state["hands"]["lannister"]) == sorted(hand[2:] + drawn)
    assert list(s.state["discards"]["lannister"][-2:]) == hand[:2]
    assert not s.state["pending"] and s.active_player() == "stark"     # the game goes on
    assert [e.rule for e in s.log if e.kind == "hand_limit"] == ['ASOIAF "Hand size" (3.2)']


def here_we_stand():
    # S1 (6.30" wide) centred on x = 24 lies exactly half in quadrant 2 (SW) and half in 3 (SE);
    # S9 is in SW. Lannister stays north.
    sc = scenario([sworn("S1", (24, 10), 90, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (10, 40), jaime=False), guards("L9", (44, 44))], mode="here_we_stand")
    s = session(sc)
    until(s, window="discard")                        # round 1 scores nothing, asks nothing
    assert not any(e.kind == "quadrant_tie" for e in s.log)
    while s.state["pending"]:
        s.apply(passive(s))
    until(s, window="quadrant")
    return s


@pytest.mark.parametrize("choice, stark_vp", [(2, 1), (3, 2)])
def test_the_opponent_decides_the_quadrant_of_a_unit_exactly_between(choice, stark_vp):
    s = here_we_stand()
    p = s.state["pending"][0]
    assert (p["player"], p["unit"], p["quadrants"]) == ("lannister", "S1", [2, 3])
    assert s.legal_actions() == [{"type": "quadrant", "unit": "S1", "quadrant": 2},
                                 {"type": "quadrant", "unit": "S1", "quadrant": 3}]
    assert s.state["vp"]["stark"] == 0                 # scoring waits for the choice
    with pytest.raises(IllegalAction, match="not one of them"):
        s.apply({"type": "quadrant", "unit": "S1", "quadrant": 0})
    s.apply({"type": "quadrant", "unit": "S1", "quadrant": choice})
    # S9 (5 points) holds SW; S1 (5 points) adds to SW or holds SE alone
    assert s.state["vp"]["stark"] == stark_vp
    assert s.state["round"] == 2 and s.state["phase"] == "cleanup"
    assert s.state["pending"][0]["window"] == "discard"


def fire_and_blood():
    # Robb's Sworn Swords S1; L2 is 2.3" away, L3 8" away, L9 far beyond 12".
    sc = scenario([sworn("S1", (24, 18), 90), sworn("S9", (6, 4), robb=False)],
                  [guards("L2", (24, 25), jaime=False), guards("L3", (34, 29), jaime=False),
                   guards("L9", (44, 44))], mode="fire_and_blood", first="stark")
    return session(sc)


def test_fire_and_blood_vp_token_goes_where_the_player_says():
    s = fire_and_blood()
    holds = [a for a in s.legal_actions() if a["type"] == "hold" and a["unit"] == "S1" and "card" not in a]
    assert [a["vp_token"] for a in holds] == ["L2", "L3", None]           # nearest first, then none
    with pytest.raises(IllegalAction, match="within 12"):
        s.apply({"type": "hold", "unit": "S1", "vp_token": "L9"})
    with pytest.raises(IllegalAction, match="only the Commander's unit"):
        s.apply({"type": "hold", "unit": "S9", "vp_token": "L2"})
    s.apply({"type": "hold", "unit": "S1", "vp_token": "L3"})
    assert (s.state["units"]["L2"]["vp_tokens"], s.state["units"]["L3"]["vp_tokens"]) == (0, 1)
    ev = [e for e in s.log if e.kind == "vp_token"]
    assert ev[-1].rule == 'ASOIAF "Fire and Blood" (16.8)' and ev[-1].data["pieces"] == ["L3", "S1"]


def test_fire_and_blood_vp_token_may_be_declined_and_defaults_to_the_nearest():
    s = fire_and_blood()
    s.apply({"type": "hold", "unit": "S1", "vp_token": None})
    assert all(u["vp_tokens"] == 0 for u in s.state["units"].values())
    s2 = fire_and_blood()
    s2.apply({"type": "hold", "unit": "S1"})                 # no key: the nearest enemy gets it
    assert s2.state["units"]["L2"]["vp_tokens"] == 1


def feast_kill():
    """A Feast for Crows: S1 (front) and S2 (west flank) destroy L2 (24, 22.72) in two Attacks."""
    from tests.asoiaf.helpers import settle
    sc = scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S2", (18.49, 24), 0, robb=False),
                   sworn("S9", (6, 4))],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], mode="feast_for_crows",
                  first="stark")
    s = session(sc, tape=[6] * 7 + [1] * 7 + [1, 1, 3] + [6, 6, 1] + [6] * 7 + [1] * 7)
    s.apply({"type": "attack", "unit": "S1", "target": "L2", "attack": 0})
    settle(s)
    s.apply({"type": "hold", "unit": "L9"})
    s.apply({"type": "attack", "unit": "S2", "target": "L2", "attack": 0})
    s.apply({"type": "respond", "card": None})
    assert s.state["units"]["L2"]["destroyed"] and s.dice.tape_left == 0
    return s


def test_the_owner_places_the_corpse_pile_of_its_destroyed_infantry():
    s = feast_kill()
    p = s.state["pending"][0]
    assert (p["window"], p["player"], p["objective"]) == ("place_pile", "lannister", "O3")
    # the default spot (already on the table): 4" north of L2's centre, 1.15" from S2's tray
    assert s.legal_actions()[0] == {"type": "place_pile", "x": 24.0, "y": 26.72}
    assert [o for o in s.state["objectives"] if o["id"] == "O3"][0]["x"] == 24.0
    with pytest.raises(IllegalAction, match="within 12"):
        s.apply({"type": "place_pile", "x": 24, "y": 40})       # far corner 16.9" from L2's tray
    with pytest.raises(IllegalAction, match="1\" from S1"):
        s.apply({"type": "place_pile", "x": 24, "y": 15})
    menu = GAME.presentation().piece_actions(s.state_data(), s.legal_actions(), "S9")   # any piece offers it
    assert [a for _, a in menu] == s.legal_actions()
    s.apply({"type": "place_pile", "x": 30, "y": 30})
    pile = next(t for t in s.state["terrain"] if t["id"] == p["pile"])
    xs, ys = [c[0] for c in pile["polygon"]], [c[1] for c in pile["polygon"]]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((28, 32, 28, 32))     # the 4" pile moved
    ob = [o for o in s.state["objectives"] if o["id"] == "O3"][0]
    assert (ob["x"], ob["y"]) == (30, 30)
    assert s.state["pending"][0]["window"] == "momentum"          # then S2's free Maneuver


def test_cersei_may_keep_her_token():
    # 18.4 "you may spend 1 Order token": a Crown claim comes with and without the fetch
    sc = scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                  [guards("L2", (24, 30), jaime=False), guards("L9", (44, 44))], ncus=True, first="lannister")
    s = session(sc, tape=[6, 6, 1])
    crown = [a for a in s.legal_actions() if a["type"] == "claim" and a["zone"] == "crown"]
    assert [a.get("fetch", True) for a in crown] == [True, False]
    with pytest.raises(IllegalAction, match="true or false"):
        s.apply(dict(crown[0], fetch="yes"))
    s.apply(crown[1])
    assert s.state["ncus"]["lannister-N1"]["tokens"] == 2
    assert s.state["hands"]["lannister"].count("40103") == 1
    assert any(e.kind == "ncu" and "keeps her Order tokens" in e.text for e in s.log)
