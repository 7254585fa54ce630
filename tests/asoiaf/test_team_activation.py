"""Team games, §13.1: on a team's turn any of the team's units (or NCUs) may be activated. The
team's player in turn picks; a teammate's piece is handed over with ``activate`` and its owner
takes the activation (chooses the action, plays only his own Tactics cards). Hands stay hidden."""

from __future__ import annotations

import random

import pytest

from simulator.ai.match import play_match
from simulator.ai.players import EasyPlayer
from simulator.core.errors import IllegalAction
from simulator.core.session import Session
from simulator.games.asoiaf import GAME, sides
from tests.asoiaf.helpers import passive

SID = "asoiaf/team-game-2v2"


def north_turn() -> Session:
    s = Session.new(SID, 1)
    while sides.team(s.state, s.active_player()) != "north" or s.state["pending"]:
        s.apply(passive(s))
    return s


def mine_and_mate(s: Session) -> tuple[str, str]:
    me = s.active_player()
    return me, ("eddard" if me == "robb" else "robb")


def test_the_player_in_turn_may_pick_any_unit_of_the_team():
    s = north_turn()
    me, mate = mine_and_mate(s)
    acts = s.legal_actions()
    handed = {a.get("unit") or a.get("ncu") for a in acts if a["type"] == "activate"}
    mates = {u["id"] for u in s.state["units"].values() if u["side"] == mate and not u["activated"]}
    mates |= {n["id"] for n in s.state["ncus"].values() if n["side"] == mate and not n["activated"]}
    assert handed == mates and mates
    # the teammate's units are offered only as a hand-over: no action, no card of his hand
    assert not any(a["type"] != "activate" and s.state["units"].get(a.get("unit"), {}).get("side") == mate
                   for a in acts)
    assert all(c in s.state["hands"][me] for a in acts if a.get("card") for c in [a["card"]])


def test_the_owner_takes_the_activation_of_the_unit_picked():
    s = north_turn()
    me, mate = mine_and_mate(s)
    uid = next(u["id"] for u in s.state["units"].values() if u["side"] == mate and not u["activated"])
    other = next(u["id"] for u in s.state["units"].values() if u["side"] == mate and u["id"] != uid)
    events = s.apply({"type": "activate", "unit": uid})
    assert any(e.rule == 'ASOIAF "Team games" (13.1)' and uid in e.data["pieces"] for e in events)
    assert s.active_player() == mate and GAME.active_player(s.state) == mate
    acts = s.legal_actions()
    assert acts and {a.get("unit") for a in acts} == {uid}          # only the piece picked acts
    assert all(a["card"] in s.state["hands"][mate] for a in acts if a.get("card"))
    with pytest.raises(IllegalAction, match=f"the team chose {uid}"):
        s.apply({"type": "hold", "unit": other})
    with pytest.raises(IllegalAction, match="already chose"):
        s.apply({"type": "activate", "unit": other})
    s.apply({"type": "hold", "unit": uid})
    assert s.state["units"][uid]["activated"]
    assert sides.team(s.state, s.active_player()) == "westerlands"      # then the other team's turn


def test_refused_hand_overs_and_direct_use_of_a_teammates_unit():
    s = north_turn()
    me, mate = mine_and_mate(s)
    own = next(u["id"] for u in s.state["units"].values() if u["side"] == me and not u["activated"])
    theirs = next(u["id"] for u in s.state["units"].values() if u["side"] == mate and not u["activated"])
    with pytest.raises(IllegalAction, match="pick it with 'activate'") as e:
        s.apply({"type": "hold", "unit": theirs})
    assert e.value.rule == 'ASOIAF "Team games" (13.1)'
    with pytest.raises(IllegalAction, match="act with it directly"):
        s.apply({"type": "activate", "unit": own})
    with pytest.raises(IllegalAction, match="belongs to jaime"):
        s.apply({"type": "activate", "unit": "J1"})
    with pytest.raises(IllegalAction, match="no unit or NCU"):
        s.apply({"type": "activate", "unit": "X9"})
    assert s.check({"type": "activate", "unit": theirs}) is None


def test_a_teammates_ncu_is_handed_over_too_and_hands_stay_hidden():
    s = Session.new(SID, 1)
    while s.active_player() != "robb" or s.state["pending"]:          # Catelyn is eddard's NCU
        s.apply(passive(s))
    nid = next(n["id"] for n in s.state["ncus"].values() if n["side"] == "eddard")
    seen = GAME.visible_state(s.state_data(), "robb")
    assert isinstance(seen["hands"]["robb"], list) and isinstance(seen["hands"]["eddard"], int)
    assert {"type": "activate", "ncu": nid} in s.legal_actions()
    s.apply({"type": "activate", "ncu": nid})
    assert s.active_player() == "eddard"
    acts = s.legal_actions()
    assert acts and all(a.get("ncu") == nid for a in acts)
    seen = GAME.visible_state(s.state_data(), "eddard")
    assert isinstance(seen["hands"]["eddard"], list) and isinstance(seen["hands"]["robb"], int)


def test_rotation_the_next_team_turn_goes_to_the_other_teammate():
    s = north_turn()
    me, mate = mine_and_mate(s)
    uid = next(u["id"] for u in s.state["units"].values() if u["side"] == mate and not u["activated"])
    s.apply({"type": "activate", "unit": uid})
    s.apply({"type": "hold", "unit": uid})
    while sides.team(s.state, s.active_player()) != "north" or s.state["pending"]:
        s.apply(passive(s))
    assert s.active_player() == mate        # the rotation follows the players in turn, not the owners


def test_random_playout_with_hand_overs_reaches_the_end():
    s = Session.new(SID, 5)
    rng = random.Random(5)
    handed = 0
    for _ in range(1500):
        if s.outcome() is not None:
            break
        acts = s.legal_actions()
        a = rng.choice(acts)
        handed += a["type"] == "activate"
        s.apply(a)
    assert s.outcome() is not None and handed > 0


def test_computer_players_play_a_team_game():
    """Easy computer players in all four seats: hand-overs included, the game never gets stuck
    (deterministic: the players' choices follow their seeds)."""
    players = {p: EasyPlayer(seed=i, sample=6) for i, p in enumerate(("robb", "jaime", "eddard", "tywin"))}
    session, result = play_match(SID, players, seed=3, max_actions=40)
    assert result.finished or len(session.steps) == 40
    assert "activate" in {st.action["type"] for st in session.steps}
