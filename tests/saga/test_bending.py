"""Bending move paths (SAGA p.12-13: each figure moves up to its distance along any path, round
impassable terrain and other bases): the planner (``movement.bending_move``), the legal-action
sample that uses it (``movement.sample_moves``), the drag that proposes it and the turned
deployment."""

from __future__ import annotations

import random
from typing import Any

import pytest

from simulator.core import IllegalAction, Session
from simulator.games.saga import movement
from simulator.games.saga.evaluation import crossing
from simulator.games.saga.units import live_units
from simulator.geometry.paths import path_length
from simulator.geometry.segments import points_in_polygon
from tests.saga.helpers import session, to_activation

WALL = {"id": "pond", "type": "pond", "polygon": [[22.5, 7], [25.5, 7], [25.5, 8], [22.5, 8]]}
State = dict[str, Any]


def _behind_the_pond() -> Session:
    """The Warlord (1.2" base, M) 2" below a narrow pond (impassable, SAGA p.13), the enemy
    Warlord straight beyond it; the Warlord activated to move."""
    s = session([{"id": "lord", "class": "warlord", "at": [24, 5]}],
                [{"id": "el", "class": "warlord", "at": [24, 33]}], terrain=[WALL])
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    return s


def _centre(st: State, dest: dict[str, tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in dest.values()) / len(dest), sum(p[1] for p in dest.values()) / len(dest))


def _figure_path_length(st: State, fid: str, move: movement.SampledMove) -> float:
    f = st["figures"][fid]
    return path_length([(f["x"], f["y"]), *move.via.get(fid, []), move.dest[fid]])


def test_the_planner_goes_round_an_impassable_rectangle() -> None:
    s = _behind_the_pond()
    st = s.state_data()
    fid = st["units"]["lord"]["figures"][0]
    goal = (25.0, 9.4)
    with pytest.raises(IllegalAction, match="impassable"):
        movement.validate_move(st, "lord", {fid: goal}, movement.MoveRules())       # straight through it
    found = movement.bending_move(st, "lord", goal, movement.MoveRules())
    assert found is not None
    assert found.dest[fid] == pytest.approx(goal, abs=1e-3)
    # round the pond's right end, kept clear by half the base radius and a margin (octagon corners)
    assert [(round(x, 2), round(y, 2)) for x, y in found.via[fid]] == [(25.85, 6.86), (25.85, 8.14)]
    assert _figure_path_length(st, fid, found) <= 6.0
    s.apply(movement.move_action(found.dest, found.via))
    assert (s.state["figures"][fid]["x"], s.state["figures"][fid]["y"]) == pytest.approx(goal, abs=1e-3)


def test_the_planner_refuses_what_no_path_within_the_allowance_reaches() -> None:
    st = _behind_the_pond().state_data()
    fid = st["units"]["lord"]["figures"][0]
    # straight up is 5"; round the pond it is 6.6", more than the Warlord's M
    assert movement.bending_move(st, "lord", (24.0, 10.0), movement.MoveRules()) is None
    # with the partial option it goes as far as M takes it along the way round
    part = movement.bending_move(st, "lord", (24.0, 10.0), movement.MoveRules(), partial=True)
    assert part is not None and len(part.via[fid]) == 2
    assert _figure_path_length(st, fid, part) == pytest.approx(6.0, abs=0.05)


def _only(st: State, keep: tuple[str, ...]) -> State:
    """The state with every unit but ``keep`` taken off the table."""
    for u in st["units"].values():
        if u["id"] not in keep:
            for f in u["figures"]:
                del st["figures"][f]
            u["figures"] = []
    return st


def _ford_alone(uid: str) -> State:
    """Scenario 2 with only ``uid`` and the two Warlords (far in the corners) on the table, the
    unit in front of the middle of the river (impassable but for the fords, SAGA p.52)."""
    st = _only(Session.new("saga/s2-ford", 3).state_data(), (uid, "n-warlord", "w-warlord"))
    st["figures"][st["units"]["w-warlord"]["figures"][0]].update(x=46, y=34)
    st["figures"][st["units"]["n-warlord"]["figures"][0]].update(x=2, y=2)
    cx, cy = _centre(st, {f: (st["figures"][f]["x"], st["figures"][f]["y"]) for f in st["units"][uid]["figures"]})
    for f in st["units"][uid]["figures"]:
        st["figures"][f]["x"] += 30 - cx
        st["figures"][f]["y"] += 12 - cy
    return st


def test_a_wide_unit_forms_a_column_for_the_ford() -> None:
    st = _ford_alone("n-war1")                  # 8 warriors, four abreast: wider than the 4" ford
    rules = movement.MoveRules()
    assert movement.crossings(st) == [(12.0, 18.0), (36.0, 18.0)]
    # in its formation the unit cannot pass the ford; two abreast it can
    plain = movement.path_world(st, "n-war1", rules)
    assert plain is not None
    assert movement.shortest_path(plain.ref, (36.0, 24.0), plain.obstacles, plain.bounds) is None
    found = movement.bending_move(st, "n-war1", (36.0, 24.0), rules, partial=True)
    assert found is not None and found.via
    xs = sorted({round(p[0], 2) for p in found.dest.values()})
    assert len(xs) == 2                          # a column two figures wide
    for fid in found.dest:
        assert _figure_path_length(st, fid, found) <= 6.0 + 1e-3
    movement.apply_move(st, "n-war1", found.result)
    for _ in range(3):                           # on through the ford
        found = movement.bending_move(st, "n-war1", (36.0, 26.0), rules, partial=True)
        assert found is not None
        movement.apply_move(st, "n-war1", found.result)
    ys = [st["figures"][f]["y"] for f in st["units"]["n-war1"]["figures"]]
    assert min(ys) > 20.0                        # every figure on the far bank


def _across(st: State, player: str) -> int:
    pts = [[st["figures"][f]["x"], st["figures"][f]["y"]] for u in live_units(st, player) for f in u["figures"]]
    return int(points_in_polygon(pts, st["far_side"][player], eps=0.0).sum())


def test_sample_moves_offer_the_way_through_the_ford() -> None:
    st = _ford_alone("n-war1")
    rules = movement.MoveRules()
    straight_only = [m for m in movement.sample_moves(st, "n-war1", rules) if not m.via]
    # a player taking the sampled move that best brings the unit to the far bank (the computer
    # player's scenario-2 term) crosses within four moves; straight moves alone only reach the bank
    for _ in range(4):
        moves = movement.sample_moves(st, "n-war1", rules)
        assert 3 <= len(moves) <= 24
        best = None
        for m in moves:
            trial = {**st, "figures": {**st["figures"], **{f: {**st["figures"][f], "x": p[0], "y": p[1]}
                                                          for f, p in m.dest.items()}}}
            score = crossing(trial, "normans")
            if best is None or score < best[0]:
                best = (score, m)
        assert best is not None
        movement.apply_move(st, "n-war1", best[1].result)
    assert _across(st, "normans") >= 4
    assert all(max(p[1] for p in m.dest.values()) < 16 for m in straight_only)


def test_random_moves_cross_the_river() -> None:
    """A seeded random walk (the two sides' units in turn, each a random move of its legal
    sample) on scenario 2 cleared of all but one unit a side gets figures over the river within
    ten moves each (the straight-only sample could never pass a ford four abreast). The seed is
    one of those that do (uniform random moves wander: about one walk in ten crosses this fast
    since the sample also files units through gaps figure by figure, one in four before; the
    computer players choose better, test_sample_moves_offer_the_way_through_the_ford)."""
    keep = ("n-war1", "w-war1")
    st = _only(Session.new("saga/s2-ford", 1).state_data(), keep)
    rng = random.Random(6)
    rules = movement.MoveRules()
    crossed = 0
    for step in range(20):
        uid = keep[step % 2]
        moves = movement.sample_moves(st, uid, rules)
        movement.apply_move(st, uid, rng.choice(moves).result)
        crossed = max(crossed, _across(st, "normans") + _across(st, "welsh"))
    assert crossed > 0


def test_legal_actions_offer_bending_moves_the_rules_accept() -> None:
    s = _behind_the_pond()
    offered = [a for a in s.legal_actions() if a["type"] == "move"]
    bent = [a for a in offered if "path" in a]
    assert bent, "a path round the pond toward the enemy Warlord"
    assert len(offered) <= 24
    for a in bent:
        assert s.check(a) is None
    s.apply(bent[0])
    assert s.state["pending"] is None


def test_a_drag_behind_the_pond_proposes_the_path_round_it() -> None:
    s = _behind_the_pond()
    view = s.game.presentation()
    fid = s.state["units"]["lord"]["figures"][0]
    height = s.state["table"]["height"]
    action = view.drag_action(s.state, fid, (25.0, height - 9.4))          # the client's y runs down
    assert action is not None and set(action["path"]) == {fid}
    assert action["path"][fid][-1] == pytest.approx([25.0, 9.4], abs=1e-3)
    assert len(action["path"][fid]) == 3                                   # round the pond's two corners
    assert s.check(action) is None
    # a drop the unit reaches straight keeps the plain offset
    assert view.drag_action(s.state, fid, (20.0, height - 5.0)) == {"type": "move", "dx": -4.0, "dy": 0.0}
    # beyond reach even round the pond: the straight move, which the rules refuse with their reason
    far = view.drag_action(s.state, fid, (24.0, height - 10.5))
    assert far == {"type": "move", "dx": 0.0, "dy": 5.5}
    refused = s.check(far)
    assert refused is not None and "impassable" in refused.reason
    s.apply(action)
    assert (s.state["figures"][fid]["x"], s.state["figures"][fid]["y"]) == pytest.approx((25.0, 9.4), abs=1e-3)


def test_a_unit_snakes_through_a_gap_too_narrow_for_its_column() -> None:
    """Two ponds leave a gap 1.4" wide: four warriors pass it neither abreast nor two by two, but
    figure by figure (SAGA p.12: each figure moves along any path), filing behind the first."""
    from simulator.games.saga import movement
    from tests.saga.helpers import give_dice, session, to_activation
    terrain = [{"id": "west", "type": "pond", "polygon": [[4, 17], [23.3, 17], [23.3, 19], [4, 19]]},
               {"id": "east", "type": "pond", "polygon": [[24.7, 17], [44, 17], [44, 19], [24.7, 19]]}]
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [24, 14.5], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], terrain=terrain)
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    st, rules = s.state_data(), movement.MoveRules()
    assert movement.bending_move(st, "w", (24, 19.8), rules, snake=False) is None
    filed = movement.bending_move(st, "w", (24, 19.8), rules)
    assert filed is not None and filed.via
    s.apply(movement.move_action(filed.dest, filed.via))
    ys = sorted(s.state["figures"][f]["y"] for f in s.state["units"]["w"]["figures"])
    assert ys[-1] == pytest.approx(19.8) and ys[-2] > 17             # the first through, the next in the gap
    # the legal list offers the file toward the gap (a crossing) too
    s2 = session([{"id": "w", "class": "warriors", "figures": 4, "at": [24, 14.5], "columns": 4},
                  {"id": "lord", "class": "warlord", "at": [40, 3]}],
                 [{"id": "el", "class": "warlord", "at": [40, 33]}], terrain=terrain)
    to_activation(s2)
    give_dice(s2, "A", [("C", "bondi")])
    s2.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    snakes = [a for a in s2.legal_actions() if a["type"] == "move" and "path" in a]
    assert snakes
    s2.apply(snakes[0])
    assert max(s2.state["figures"][f]["y"] for f in s2.state["units"]["w"]["figures"]) > 17
