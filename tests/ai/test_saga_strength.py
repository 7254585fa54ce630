"""The SAGA player-side heuristic (``simulator/games/saga/evaluation.py``) and the normal player's
expansion of an activation into its best follow-up (``AIProfile.expand``)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from simulator.ai.players import NormalPlayer, Simulator
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.saga.ai_profile import PROFILE as SAGA_PROFILE
from simulator.games.saga.evaluation import crossing, exposure, heuristic, hunt, tiredness
from tests.saga.helpers import quickstart_at_activation

State = dict[str, Any]


def _state(scenario: str) -> State:
    return Session.new(scenario, seed=1).state_data()


def _shift(st: State, uid: str, dx: float, dy: float) -> None:
    for fid in st["units"][uid]["figures"]:
        st["figures"][fid]["x"] += dx
        st["figures"][fid]["y"] += dy


@pytest.mark.parametrize("scenario", ["saga/quickstart", "saga/s1-warlords-fury", "saga/s2-ford",
                                      "saga/clash-of-steel"])
def test_heuristic_stays_within_its_range(scenario: str) -> None:
    st = _state(scenario)
    for side in st["players"]:
        assert -1.0 <= heuristic(st, side) <= 0.0


def test_units_nearer_the_enemy_warlord_hunt_better() -> None:
    st = _state("saga/quickstart")
    before = hunt(st, "vikings")
    _shift(st, "v-bondi", -4.0, 8.0)            # towards the Anglo-Danish earl at (12, 21)
    assert hunt(st, "vikings") < before
    assert heuristic(st, "vikings") > heuristic(_state("saga/quickstart"), "vikings")


def test_bodyguards_make_a_warlord_near_the_enemy_less_exposed() -> None:
    st = _state("saga/quickstart")
    _shift(st, "v-jarl", 0.0, 12.0)             # 3 inches from the earl's line
    alone = exposure(st, "vikings")
    assert alone > 0.0
    # the hirdmen stand round him
    for fid, (x, y) in zip(st["units"]["v-hird"]["figures"], [(10.6, 15.0), (13.4, 15.0), (10.6, 13.6), (13.4, 13.6)]):
        st["figures"][fid].update(x=x, y=y)
    assert 0.0 < exposure(st, "vikings") < alone


def test_fatigue_costs_more_the_nearer_exhaustion() -> None:
    st = _state("saga/quickstart")
    costs = []
    for fatigue in (0, 1, 2, 3):
        st["units"]["v-hird"]["fatigue"] = fatigue
        costs.append(tiredness(st, "vikings"))
    steps = [b - a for a, b in zip(costs, costs[1:])]
    assert costs[0] == 0.0 and all(s > 0 for s in steps) and steps[0] < steps[1] < steps[2]


def test_a_unit_through_the_ford_counts_as_crossing() -> None:
    st = _state("saga/s2-ford")
    before = crossing(st, "normans")
    hx = sum(st["figures"][f]["x"] for f in st["units"]["n-hea1"]["figures"]) / 4
    # the west ford is 10-14 inches from the left edge: in front of it is nearer than far from it
    _shift(st, "n-hea1", 12.0 - hx, 8.0)
    at_ford = crossing(st, "normans")
    assert at_ford < before
    _shift(st, "n-hea1", 0.0, 14.0)             # on the far bank (y > 20)
    assert crossing(st, "normans") < at_ford
    assert heuristic(st, "normans") > heuristic(_state("saga/s2-ford"), "normans")


def test_an_activation_is_worth_its_best_move() -> None:
    """Expanding an activation scores it by the best move it opens, which is at least as good
    as standing still (the activation's own state)."""
    session = quickstart_at_activation()
    side = session.active_player()
    player = NormalPlayer(seed=1)
    sim = Simulator(session, random.Random(1)).shaped(0.1)
    activate = next(a for a in session.legal_actions() if a["type"] == "activate" and a["order"] == "move")
    after = sim.step(session.state_data(), activate)
    assert after is not None
    value, best = player._expand(sim, after, side, player._budget(SAGA_PROFILE))
    assert best and all(b["type"] in ("move", "engage", "hold") for b in best)
    assert value >= sim.evaluate(after, side) - 0.001


def test_a_playout_of_an_activation_values_each_follow_up_on_the_same_dice() -> None:
    """A playout of an expanded activation gives one value per follow-up, in their order; one of
    anything else gives one value."""
    session = quickstart_at_activation()
    side = session.active_player()
    player = NormalPlayer(seed=1)
    b = player._budget(SAGA_PROFILE)
    activate = next(a for a in session.legal_actions() if a["type"] == "activate" and a["order"] == "move")
    sim = Simulator(session, random.Random(1)).shaped(0.1)
    after = sim.step(session.state_data(), activate)
    assert after is not None
    _, follow_ups = player._expand(sim, after, side, b)
    assert len(follow_ups) == 2
    sim.rng = random.Random(7)
    values = player._playout(sim, session.state_data(), activate, side, b, follow_ups)
    assert len(values) == 2 and max(values) > -1.0
    assert len(player._playout(sim, session.state_data(), {"type": "end_turn"}, side, b)) == 1


def test_an_activation_is_worth_its_best_follow_up_on_average_not_its_best_after_the_roll(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A charge that wins one roll in three and loses the other two is worth less than standing
    still, though the best of (charge, stand) after each roll is a win a third of the time: the
    follow-up is chosen before the dice fall. Every activation's playouts are made to offer that
    gamble; ending the turn is worth a little more than standing still, and is chosen."""
    session = quickstart_at_activation()
    side = session.active_player()
    calls: dict[str, int] = {}

    def playout(self: NormalPlayer, sim: Simulator, state: State, action: dict[str, Any], side_: str,
                b: dict[str, int], follow_ups: list[dict[str, Any]] | None = None) -> list[float]:
        if not follow_ups:
            return [0.05 if action["type"] == "end_turn" else -0.5]
        n = calls[repr(action)] = calls.get(repr(action), 0) + 1
        return [0.9 if n % 3 == 1 else -0.9, 0.0]       # the gamble, then standing still

    monkeypatch.setattr(NormalPlayer, "_playout", playout)
    player = NormalPlayer(seed=1, width=12)
    chosen = player.choose(session, side)
    assert calls, "no activation was expanded into follow-ups"
    assert chosen == {"type": "end_turn"}


def test_figures_on_the_far_bank_count_in_the_ford_evaluation_more_in_the_last_turn() -> None:
    """Scenario 2 (SAGA p.52) is won by figures across the river, not by kills: a unit on the far
    bank raises the zero-sum evaluation, for its side only, and weighs more in the last turn."""
    from simulator.games.saga.evaluation import evaluate

    st = _state("saga/s2-ford")
    st["phase"] = "activation"
    base = evaluate(st, "normans")
    _shift(st, "n-hea1", 0.0, 22.0)              # from y ~ 4 to ~ 26: over the river (y > 20)
    early = evaluate(st, "normans")
    assert early > base + 0.1
    assert evaluate(st, "welsh") < evaluate(_state("saga/s2-ford") | {"phase": "activation"}, "welsh")
    st["turn"] = st["max_turns"]
    assert evaluate(st, "normans") > early


def test_a_rolled_die_counts_between_an_ability_die_and_an_activation_die() -> None:
    """Dice left on abilities are rolled again (kept, the player rolled nothing new and activated
    nobody for turns on end), and a rolled die still goes on an activation box when it can."""
    from simulator.games.saga.evaluation import orders

    st = _state("saga/quickstart")
    st["phase"], st["active"] = "orders", "vikings"
    dice = st["sides"]["vikings"]["dice"]
    dice[0].update(face="C", box=None)
    rolled = orders(st, "vikings")
    dice[0].update(box="hirdmen")
    on_activation = orders(st, "vikings")
    dice[0].update(box="slaughter")
    on_ability = orders(st, "vikings")
    assert 0.0 < on_ability < rolled < on_activation


def _charge_ready() -> tuple[Session, str]:
    """Quick-start, Viking Activation Phase, the hirdmen 5 inches from the huscarls."""
    sc = load_scenario("saga/quickstart")
    data = copy.deepcopy(sc.data)
    hird = next(u for u in data["setup"]["sides"]["vikings"]["units"] if u["id"] == "v-hird")
    hird["at"] = [7, 16]                            # 5 inches from the huscarls at (7, 21)
    data["setup"].pop("zones")                      # (outside the Viking deployment zone)
    session = Session.new(scenario_from_data(data, sc.id), seed=3)
    while session.state["phase"] != "activation":
        actions = session.legal_actions()
        session.apply(next((a for a in actions if a["type"] == "roll_dice"), None)
                      or next((a for a in actions if a["type"] == "place_die" and a["box"] == "hirdmen"), None)
                      or next(a for a in actions if a["type"] == "end_orders"))
    return session, session.active_player() or ""


def test_a_charge_is_scored_by_the_mean_of_several_resolutions() -> None:
    session, side = _charge_ready()
    sim = Simulator(session, random.Random(5)).shaped(0.1)
    player = NormalPlayer(seed=1)
    b = player._budget(SAGA_PROFILE)
    activate = next(a for a in session.legal_actions() if a["type"] == "activate" and a["unit"] == "v-hird"
                    and a["order"] == "move")
    after = sim.step(session.state_data(), activate)
    assert after is not None
    charge = next(a for a in sim.legal(after) if a["type"] == "engage")
    sim.rng = random.Random(9)
    singles = [player._look(sim, after, charge, side, b) for _ in range(3)]
    sim.rng = random.Random(9)
    mean = player._look(sim, after, charge, side, b, repeat=3)
    assert mean is not None and all(s is not None for s in singles)
    assert mean[0] == pytest.approx(sum(s[0] for s in singles if s is not None) / 3)
    assert len({round(s[0], 6) for s in singles if s is not None}) > 1     # the dice differ between looks


def test_the_playouts_go_to_distinct_units_and_orders() -> None:
    pool = [{"type": "activate", "unit": "a", "source": "x", "order": "move"},
            {"type": "activate", "unit": "a", "source": "y", "order": "move"},
            {"type": "end_turn"},
            {"type": "activate", "unit": "b", "source": "x", "order": "move"}]
    chosen = NormalPlayer._distinct(pool, [0, 1, 2, 3], ("activate",), ("unit", "order"), 3)
    assert chosen == [0, 2, 3]


def test_player_turns_left_count_down_to_the_last_one() -> None:
    from simulator.games.saga.evaluation import player_turns_left

    st = _state("saga/quickstart")
    st["phase"], st["turn_player"] = "activation", "vikings"         # the Vikings play first, 6 turns
    assert player_turns_left(st) == 12
    st["turn"], st["turn_player"] = 6, "anglo_danes"
    assert player_turns_left(st) == 1


def test_the_result_at_the_limit_weighs_most_in_the_last_player_turn() -> None:
    """Quick-start, the Anglo-Danes 4 VP behind (their huscarls lost): early on the evaluation is
    mostly the armies' strength; in the game's last player-turn the lost result dominates, and a
    lead kept on the limit ranks above every position without one (SAGA quick-start: VP decide)."""
    from simulator.games.saga import victory
    from simulator.games.saga.evaluation import evaluate

    st = _state("saga/quickstart")
    st["phase"], st["turn_player"], st["active"] = "activation", "anglo_danes", "anglo_danes"
    assert victory.outcome(st) is None and victory.outcome(st, at_limit=True).winner is None
    st["losses"]["anglo_danes"] = {"hearthguard": 4}
    st["units"]["a-huscarls"]["figures"] = []
    assert victory.outcome(st, at_limit=True).winner == "vikings"
    early = evaluate(st, "anglo_danes")
    st["turn"] = st["max_turns"]
    last = evaluate(st, "anglo_danes")
    assert -0.95 < last < -0.7 < early
    assert evaluate(st, "vikings") > 0.6 > evaluate(_state("saga/quickstart") | {"turn": 6}, "vikings")
    assert victory.outcome(st) is None               # the game itself is not over


def test_the_look_ahead_resolves_a_melee_with_the_abilities_the_boards_hold_dice_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice on a battle board are open: a charge on the Earl whose board holds The Push and
    Stubbornness is played out with both used (``fight_types``), not as if he had none."""
    from dataclasses import replace

    from simulator.games.saga import ai_profile

    session = quickstart_at_activation()
    assert session.active_player() == "vikings"
    st = session.state_data()
    _shift(st, "v-bondi", -6.0, 12.5)                 # the bondi's front rank 2 inches from the earl
    st["sides"]["anglo_danes"]["dice"][:2] = [{"face": "C", "box": "the_push"}, {"face": "U", "box": "stubbornness"}]
    st["sides"]["vikings"]["dice"][0] = {"face": "C", "box": "bondi"}
    player = NormalPlayer(seed=1)
    b = player._budget(SAGA_PROFILE)
    left = {}
    for kinds in (("use_ability",), ()):
        monkeypatch.setattr(ai_profile, "PROFILE", replace(SAGA_PROFILE, fight_types=kinds))
        sim = Simulator(session, random.Random(1))
        active = sim.step(st, {"type": "activate", "unit": "v-bondi", "source": "bondi", "order": "move"})
        assert active is not None
        fought = sim.step(active, {"type": "engage", "target": "a-earl"})
        assert fought is not None and fought["melee"] is not None
        after = player._resolve(sim, fought, b)
        assert after["melee"] is None or session.game.outcome(after) is not None     # fought out
        left[kinds] = {d["box"] for d in after["sides"]["anglo_danes"]["dice"] if d["box"]}
    assert {"the_push", "stubbornness"} <= left[()]
    assert not {"the_push", "stubbornness"} & left[("use_ability",)]
