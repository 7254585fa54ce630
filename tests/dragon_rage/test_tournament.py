"""Tournaments (DR 5) and their scoring, pairing and scenario choice."""

from __future__ import annotations

import random

from simulator.core.session import Session
from simulator.games.dragon_rage import pointbuy as pb
from simulator.games.dragon_rage import tournament as tm

E1 = "dragon_rage/esirien-1-fury"


def game(inv: str, dfd: str, winner: str | None, vp: int, total: int = 41) -> tm.GameResult:
    return tm.GameResult(E1, inv, dfd, winner, vp, total)


def test_match_and_resistance_points() -> None:
    g = game("ann", "bob", "invader", 19)
    assert g.winner == "ann"
    assert g.points() == {"ann": (1, 19), "bob": (0, 22)}
    assert game("ann", "bob", "defender", 7).points() == {"ann": (0, 7), "bob": (1, 34)}


def test_standings_break_ties_with_resistance_points() -> None:
    results = [game("ann", "bob", "invader", 20), game("bob", "ann", "invader", 19),     # 1-1
               game("cid", "dan", "defender", 5), game("dan", "cid", "defender", 3)]     # 1-1
    table = tm.standings(results, byes=["eve"])
    assert [(s.player, s.match_points, s.resistance) for s in table] == [
        ("eve", 2, 0), ("cid", 1, 5 + 38), ("ann", 1, 20 + 22), ("bob", 1, 21 + 19), ("dan", 1, 36 + 3)]
    assert tm.advancing(results, "ann", "bob") == ["ann", "bob"]            # a tied match: both advance
    assert tm.advancing([game("ann", "bob", "invader", 20), game("bob", "ann", "defender", 3)],
                        "ann", "bob") == ["ann"]


def test_knockout_round_gives_a_random_bye_to_an_odd_field() -> None:
    pairs, bye = tm.knockout_round(["a", "b", "c", "d", "e"], random.Random(3))
    assert len(pairs) == 2 and bye is not None
    assert sorted([p for pair in pairs for p in pair] + [bye]) == ["a", "b", "c", "d", "e"]
    again = tm.knockout_round(["a", "b", "c", "d", "e"], random.Random(3))
    assert again == (pairs, bye)


def test_swiss_pairs_equal_scores_without_rematches() -> None:
    players = ["a", "b", "c", "d", "e", "f"]
    pairs, bye, down = tm.swiss_round(tm.standings([], players=players), random.Random(1))
    assert bye is None and down == [] and len(pairs) == 3
    results = [game(x, y, "invader", 20) for x, y in pairs] + [game(y, x, "invader", 20) for x, y in pairs]
    # everyone 1-1: one group of six; nobody may meet his first opponent again
    pairs2, _, _ = tm.swiss_round(tm.standings(results), random.Random(2))
    first = {frozenset(p) for p in pairs}
    assert len(pairs2) == 3 and not first & {frozenset(p) for p in pairs2}


def test_swiss_pairs_down_the_player_with_fewest_resistance_points() -> None:
    # a, b, c won both games (2 match points), d, e, f lost both: the 2-point group is odd
    results = [game("a", "d", "invader", 30), game("d", "a", "defender", 1),
               game("b", "e", "invader", 25), game("e", "b", "defender", 2),
               game("c", "f", "invader", 18), game("f", "c", "defender", 4),
               game("d", "e", None, 0), game("f", "e", None, 0)]
    table = tm.standings(results, players=list("abcdef"))
    pairs, bye, down = tm.swiss_round(table, random.Random(5))
    assert down == ["c"]                                          # fewest resistance points among a, b, c
    assert frozenset(("a", "b")) in {frozenset(p) for p in pairs}
    pairs, bye, down = tm.swiss_round(table, random.Random(5), paired_down=["c"])
    assert down == ["b"]                                          # c was paired down before


def test_odd_swiss_field_bye_goes_to_a_player_without_one() -> None:
    table = tm.standings([game("a", "b", "invader", 20)], byes=["c"], players=["a", "b", "c"])
    for seed in range(5):
        _, bye, _ = tm.swiss_round(table, random.Random(seed))
        assert bye in ("a", "b")
    assert [tm.swiss_rounds(n) for n in (5, 32, 33, 64, 65, 200)] == [3, 5, 7, 7, 8, 9]


def test_round_scenarios_and_tournament_rules() -> None:
    assert tm.round_scenarios("esirien", 3, random.Random(0), random_each_round=False) == [E1] * 3
    rounds = tm.round_scenarios("nurkott", 8, random.Random(0))
    assert len(set(rounds[:6])) == 6 and all(r.startswith("dragon_rage/nurkott-") for r in rounds)
    assert tm.tournament_problems({"rules": {"elowyn": False}, "setup": {}}) == []
    built = pb.build_scenario("esirien", {"dragon": 2}, {"hero": 1, "infantry": 16}, elowyn=True)
    assert len(tm.tournament_problems(built)) == 2


def test_game_result_from_a_played_session() -> None:
    s = Session.new(E1)
    while s.outcome() is None:
        s.apply({"type": "end_phase"})
    r = tm.game_result(s, invader="ann", defender="bob")
    assert (r.winner, r.invader_vp, r.total_vp) == ("bob", 0, 41)
    assert r.points() == {"ann": (0, 0), "bob": (1, 41)}
