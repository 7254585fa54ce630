"""The enemy charges a position invites (``saga/ai_moves.replies``), which the normal computer
player plays out and counts (``AIProfile.reply_weight``)."""

from __future__ import annotations

from dataclasses import replace

import random
from typing import Any

import pytest

from simulator.games.saga import ai_profile as saga_profile
from simulator.ai.players import NormalPlayer, Simulator
from simulator.core.dice import Dice
from simulator.core.game import Context
from simulator.core.plain import copy_plain
from simulator.games.saga import ai_moves
from simulator.games.saga.ai_moves import replies, reply_chance
from tests.saga.helpers import quickstart_at_activation

State = dict[str, Any]


def _place(st: State, uid: str, x: float, y: float) -> None:
    """Move ``uid`` so that its figures' centre is at (x, y)."""
    figs = [st["figures"][f] for f in st["units"][uid]["figures"]]
    cx, cy = sum(f["x"] for f in figs) / len(figs), sum(f["y"] for f in figs) / len(figs)
    for f in figs:
        f["x"] += x - cx
        f["y"] += y - cy


def test_no_enemy_in_reach_no_reply() -> None:
    st = quickstart_at_activation().state_data()
    assert replies(st, "vikings") == []


def test_a_unit_in_reach_of_an_enemy_invites_its_charge_and_the_engine_accepts_it() -> None:
    session = quickstart_at_activation()
    st = session.state_data()
    _place(st, "v-hird", 7.0, 15.0)                   # 6 inches from the huscarls at (7, 21)
    found = replies(st, "vikings")
    assert {r.action["target"] for r in found} == {"v-hird"}
    assert found[0].unit == "a-huscarls"               # the nearest first (the earl is farther)
    start = found[0].start(st)
    assert (start["phase"], start["active"], start["pending"]["unit"]) == ("activation", "anglo_danes", "a-huscarls")
    assert st["pending"] is None and st["turn_player"] == "vikings"      # the position asked about is untouched
    ctx = Context(Dice(5), session.scenario)
    ctx.dice.begin_action(0)
    session.game.apply(start, found[0].action, ctx)
    assert start["melee"] is not None                 # the charge reached and a melee began


def test_no_reply_when_the_game_ends_before_the_enemy_plays_again() -> None:
    st = quickstart_at_activation().state_data()
    _place(st, "v-hird", 7.0, 15.0)
    st["turn"] = st["max_turns"]
    assert replies(st, "vikings")                     # the Anglo-Danes play after the Vikings
    st["turn_player"] = st["active"] = "anglo_danes"
    _place(st, "a-huscarls", 7.0, 9.0)
    assert replies(st, "anglo_danes") == []           # the last player of the last turn


def test_an_answer_is_known_by_the_two_units_not_the_rest_of_the_table() -> None:
    st = quickstart_at_activation().state_data()
    _place(st, "v-hird", 7.0, 15.0)
    key = replies(st, "vikings")[0].key
    _place(st, "v-bondi", 20.0, 5.0)
    assert replies(st, "vikings")[0].key == key
    st["units"]["v-hird"]["fatigue"] = 2
    assert replies(st, "vikings")[0].key != key


def test_the_normal_player_counts_the_charge_a_position_invites(monkeypatch: pytest.MonkeyPatch) -> None:
    session = quickstart_at_activation()
    st = session.state_data()
    _place(st, "v-jarl", 7.0, 15.0)                   # the jarl alone in front of the huscarls
    player = NormalPlayer(seed=1)
    b = player._budget(session.game.ai_profile())
    sim = Simulator(session, random.Random(1)).shaped(0.1)
    plain = sim.evaluate(st, "vikings")
    assert player._value(sim, st, "vikings", b) < plain - 0.01
    monkeypatch.setattr(saga_profile, "PROFILE", replace(saga_profile.PROFILE, reply_weight=0.0))
    player._answers.clear()
    sim = Simulator(session, random.Random(1)).shaped(0.1)
    assert sim.replies is None
    assert player._value(sim, st, "vikings", b) == plain


def test_a_charge_in_the_last_player_turn_is_final_and_weighs_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """The enemy's charge in the game's last player-turn cannot be answered: the reply marks it
    ``final`` and the normal player counts it at ``reply_final_weight``, not ``reply_weight``."""
    session = quickstart_at_activation()
    st = session.state_data()
    _place(st, "v-jarl", 7.0, 15.0)
    assert not any(r.final for r in replies(st, "vikings"))          # turn 1 of 6
    st["turn"] = st["max_turns"]                                      # the Anglo-Danes play last
    assert replies(st, "vikings") and all(r.final for r in replies(st, "vikings"))
    player = NormalPlayer(seed=1)
    b = player._budget(session.game.ai_profile())
    values = {}
    for weight in (0.5, 1.0):
        monkeypatch.setattr(saga_profile, "PROFILE", replace(saga_profile.PROFILE, reply_final_weight=weight))
        player._answers.clear()
        sim = Simulator(session, random.Random(1)).shaped(0.1)
        values[weight] = player._value(sim, st, "vikings", b) - sim.evaluate(st, "vikings")
    assert values[1.0] < values[0.5] < 0
    assert values[1.0] == pytest.approx(2 * values[0.5])


def test_a_reply_is_as_likely_as_the_enemy_has_few_units(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick-start's three units each activate most turns: a charge they invite is counted in
    full at ``reply_weight``; split among more units (three more warrior units), each weighs
    less, and the player counts it that much less."""
    session = quickstart_at_activation()
    st = session.state_data()
    _place(st, "v-jarl", 7.0, 15.0)
    assert reply_chance(st, "anglo_danes") == 1.0
    assert {r.chance for r in replies(st, "vikings")} == {1.0}
    crowded = copy_plain(st)
    for n in range(3):                                 # three more enemy units, far away
        uid = f"a-extra{n}"
        crowded["units"][uid] = dict(copy_plain(st["units"]["a-ceorls"]), id=uid,
                                     figures=[f"{uid}.{k}" for k in range(len(st["units"]["a-ceorls"]["figures"]))])
        for k, fid in enumerate(st["units"]["a-ceorls"]["figures"]):
            crowded["figures"][f"{uid}.{k}"] = dict(st["figures"][fid], x=14.0 + 3 * n + 0.3 * k, y=23.5)
    assert reply_chance(crowded, "anglo_danes") == pytest.approx(0.5)
    assert [r.chance for r in replies(crowded, "vikings")] == [0.5, 0.5]      # the huscarls and the earl still
    player = NormalPlayer(seed=1)
    b = player._budget(session.game.ai_profile())
    losses = []
    for chance in (1.0, 0.5):
        monkeypatch.setattr(ai_moves, "reply_chance", lambda state, foe, chance=chance: chance)
        player._answers.clear()
        sim = Simulator(session, random.Random(1)).shaped(0.1)
        losses.append(player._value(sim, st, "vikings", b) - sim.evaluate(st, "vikings"))
    assert losses[0] < 0 and losses[1] == pytest.approx(losses[0] / 2)
