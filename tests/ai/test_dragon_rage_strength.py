"""The Dragon Rage evaluation and heuristic the computer players search with
(``simulator/games/dragon_rage/evaluation.py``): path distances round walls, sacking a VP hex
always pays, each step of each unit towards a VP hex counts."""

from __future__ import annotations

from typing import Any

from simulator.core.aiprofile import FIDGET
from simulator.core.registry import get_game
from simulator.games.dragon_rage.ai_profile import PROFILE
from simulator.core.plain import copy_plain
from simulator.core.session import Session
from simulator.games.dragon_rage import evaluation as ev
from simulator.games.dragon_rage.board import board_for


def _start(scenario: str) -> dict[str, Any]:
    return Session.new(scenario, 1).state_data()


def _invader(state: dict[str, Any], type_: str) -> dict[str, Any]:
    return next(u for u in state["units"].values() if u["side"] == "invader" and u["type"] == type_)


def _place(state: dict[str, Any], unit: dict[str, Any], hex_: str) -> None:
    unit["hex"] = hex_
    unit["offmap"] = False


def test_path_cost_goes_round_the_village_wall() -> None:
    state = _start("dragon_rage/nurkott-1-humans")
    board = board_for(state["map"])
    inf = _invader(state, "infantry")
    # 0811 is outside the palisade, 0912 inside, next to it; 1012 is a VP hex inside
    assert board.is_wall("0811", "0912") and board.entrance("0811", "0912") is None
    _place(state, inf, "0811")
    assert ev.reach_cost(state, inf, "1012") >= board.distance("0811", "1012") + ev.WALL_COST
    _place(state, inf, "0912")
    assert ev.reach_cost(state, inf, "1012") == board.distance("0912", "1012")


def test_a_flying_dragon_counts_hex_distance() -> None:
    state = _start("dragon_rage/nurkott-3-dragons")
    board = board_for(state["map"])
    dragon = _invader(state, "dragon")
    _place(state, dragon, "0811")
    assert ev.reach_cost(state, dragon, "1012") == board.distance("0811", "1012")


def test_an_invader_off_the_map_counts_from_its_entry_hexes() -> None:
    state = _start("dragon_rage/nurkott-1-humans")
    inf = _invader(state, "infantry")
    assert inf["hex"] is None and inf.get("entry")
    assert ev.reach_cost(state, inf, "1312") == 1 + max(ev.reach_cost(state, {**inf, "hex": h}, "1312")
                                                        for h in inf["entry"])
    targets = ev.intact_targets(state)
    for door in inf["entry"]:        # entering by either is progress (the other may be blocked)
        entered = copy_plain(state)
        _place(entered, entered["units"][inf["id"]], door)
        assert ev.pull(entered, entered["units"][inf["id"]], targets) > ev.pull(state, inf, targets)
    shape = PROFILE.shape
    assert ev.evaluate(entered, "invader") + shape * ev.heuristic(entered, "invader") > \
        ev.evaluate(state, "invader") + shape * ev.heuristic(state, "invader")


def test_a_step_towards_a_vp_hex_raises_the_invader_heuristic() -> None:
    state = _start("dragon_rage/nurkott-1-humans")
    inf = _invader(state, "infantry")
    _place(state, inf, "0402")
    nearer = copy_plain(state)
    _place(nearer, nearer["units"][inf["id"]], "0503")     # one hex nearer the VP hex 0604
    assert ev.invader_pull(nearer) > ev.invader_pull(state)
    assert ev.heuristic(nearer, "invader") > ev.heuristic(state, "invader")
    # the gain is worth more than the normal player's handicap of a move
    shape = PROFILE.shape
    gain = shape * (ev.heuristic(nearer, "invader") - ev.heuristic(state, "invader"))
    assert gain > PROFILE.fidget_of({"type": "move"})


def test_sacking_a_vp_hex_always_pays() -> None:
    """Every VP hex of both maps, sacked by an invader standing on it: the evaluation (and the
    normal player's evaluation plus heuristic) rises, though the hexes left are farther away."""
    shape = PROFILE.shape
    for scenario in ("dragon_rage/nurkott-1-humans", "dragon_rage/esirien-1-fury"):
        start = _start(scenario)
        board = board_for(start["map"])
        mover = next(u for u in start["units"].values() if u["side"] == "invader")
        for hex_, value in board.vp.items():
            before = copy_plain(start)
            _place(before, before["units"][mover["id"]], hex_)
            after = copy_plain(before)
            after["vp"]["destroyed"][hex_] = value
            after["vp"]["score"] += value
            after["last_vp_turn"] = after["turn"]
            assert ev.evaluate(after, "invader") > ev.evaluate(before, "invader"), (scenario, hex_)
            total_before = ev.evaluate(before, "invader") + shape * ev.heuristic(before, "invader")
            total_after = ev.evaluate(after, "invader") + shape * ev.heuristic(after, "invader")
            assert total_after > total_before, (scenario, hex_)


def test_evaluation_stays_zero_sum_and_heuristics_in_range() -> None:
    for scenario in ("dragon_rage/nurkott-2-raid", "dragon_rage/esirien-2-horde"):
        state = _start(scenario)
        assert ev.evaluate(state, "defender") == -ev.evaluate(state, "invader")
        for side in ("invader", "defender"):
            assert -1.0 <= ev.heuristic(state, side) <= 0.0


def test_the_fidget_key_is_dragon_rage_only() -> None:
    move = {"type": "move", "unit": "x", "to": "0101"}
    assert PROFILE.fidget_of(move) == PROFILE.fidget < FIDGET
    assert PROFILE.fidget_of({"type": "end_phase"}) == 0.0
    for game in ("vikings", "saga", "asoiaf"):
        assert get_game(game).ai_profile().fidget == FIDGET
