"""Tournaments (DR 5): match and resistance points, standings, knock-out and Swiss pairings.

Pure functions over finished games. A match is two games of one scenario with the players
swapping sides (DR 5.1); a game won is a match point; resistance points (the invader's VP,
the defender's VP left standing) break ties. Random choices (first pairing, byes, who is
paired down) take a ``random.Random`` so an organiser can reproduce a draw from its seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.pointbuy import pointbuy_data

Pair = tuple[str, str]


@dataclass(frozen=True)
class GameResult:
    """One tournament game: who played which side, who won, the VP destroyed and on the map."""

    scenario: str
    invader: str
    defender: str
    winner_side: str | None
    invader_vp: int
    total_vp: int

    @property
    def winner(self) -> str | None:
        return {"invader": self.invader, "defender": self.defender}.get(self.winner_side or "")

    def points(self) -> dict[str, tuple[int, int]]:
        """(match points, resistance points) per player (DR 5.1)."""
        win = int(pointbuy_data()["tournament"]["match_point_per_win"])
        return {self.invader: (win if self.winner_side == "invader" else 0, self.invader_vp),
                self.defender: (win if self.winner_side == "defender" else 0, self.total_vp - self.invader_vp)}


def game_result(session: Any, invader: str, defender: str) -> GameResult:
    """The result of a finished session, the map's total VP taken from its VP hexes."""
    outcome = session.outcome()
    if outcome is None:
        raise ValueError("the game is not finished (no outcome)")
    state = session.state_data()
    total = sum(board_for(state["map"]).vp.values())
    return GameResult(session.scenario.id, invader, defender, outcome.winner, int(state["vp"]["score"]), total)


def tournament_problems(scenario_data: Mapping[str, Any]) -> list[str]:
    """Why a scenario may not be used in a tournament (DR 5: no Elowyn, no point-buy)."""
    out = []
    if scenario_data.get("rules", {}).get("elowyn"):
        out.append("tournaments are played without Princess Elowyn (DR 5)")
    if scenario_data.get("setup", {}).get("point_built"):
        out.append("tournaments do not use planned or point-buy scenarios (DR 5)")
    return out


@dataclass
class Standing:
    player: str
    match_points: int = 0
    resistance: int = 0
    games: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)


def standings(results: Iterable[GameResult], byes: Iterable[str] = (),
              players: Iterable[str] = ()) -> list[Standing]:
    """The table: match points, then resistance points (DR 5.1); a bye is 2 match points (DR 5.2)."""
    table: dict[str, Standing] = {p: Standing(p) for p in players}
    for r in results:
        for p, (mp, rp) in r.points().items():
            s = table.setdefault(p, Standing(p))
            s.match_points += mp
            s.resistance += rp
            s.games += 1
            s.opponents.append(r.defender if p == r.invader else r.invader)
    for p in byes:
        s = table.setdefault(p, Standing(p))
        s.match_points += int(pointbuy_data()["tournament"]["bye_match_points"])
        s.byes += 1
    return sorted(table.values(), key=lambda s: (-s.match_points, -s.resistance, s.player))


def match_games(results: Sequence[GameResult], a: str, b: str) -> tuple[int, int]:
    """Games won by ``a`` and by ``b`` in their match."""
    games = [r for r in results if {r.invader, r.defender} == {a, b}]
    return sum(r.winner == a for r in games), sum(r.winner == b for r in games)


def advancing(results: Sequence[GameResult], a: str, b: str) -> list[str]:
    """Who goes through a knock-out match (DR 5.2): the winner, or both after a 1-1 tie."""
    wa, wb = match_games(results, a, b)
    if wa == wb:
        return [a, b]
    return [a] if wa > wb else [b]


def knockout_round(players: Sequence[str], rng: random.Random) -> tuple[list[Pair], str | None]:
    """Random pairs for a knock-out round; with an odd number a random player has a bye (DR 5.2)."""
    pool = list(players)
    rng.shuffle(pool)
    bye = pool.pop() if len(pool) % 2 else None
    return [(pool[i], pool[i + 1]) for i in range(0, len(pool), 2)], bye


def swiss_rounds(players: int) -> int:
    """Rounds a Swiss event needs: 5 for 32 players, 7 for 64 (DR 5.2; table in pointbuy.yaml)."""
    table = sorted((int(k), int(v)) for k, v in pointbuy_data()["tournament"]["swiss_rounds"].items())
    for size, rounds in table:
        if players <= size:
            return rounds
    size, rounds = table[-1]
    return rounds + math.ceil(math.log2(players / size))


def swiss_round(table: Sequence[Standing], rng: random.Random, *, paired_down: Iterable[str] = ()
                ) -> tuple[list[Pair], str | None, list[str]]:
    """Pairings for the next Swiss round (DR 5.2): (pairs, bye, players paired down this round).

    Players with equal match points meet if they have not met before; an odd group sends one
    player down, chosen among those not paired down before, then with the fewest resistance
    points, then at random. With an odd field a random player without a previous bye sits out.
    Round 1 (nobody has played) is a random pairing.
    """
    done_down = set(paired_down)
    players = list(table)
    rng.shuffle(players)
    bye = None
    if len(players) % 2:
        fresh = [s for s in players if s.byes == 0] or players
        pick = rng.choice(fresh)
        bye = pick.player
        players = [s for s in players if s is not pick]
    if all(s.games == 0 for s in players):
        names = [s.player for s in players]
        return [(names[i], names[i + 1]) for i in range(0, len(names), 2)], bye, []
    met = {s.player: set(s.opponents) for s in players}
    groups: dict[int, list[Standing]] = {}
    for s in players:
        groups.setdefault(s.match_points, []).append(s)
    pairs: list[Pair] = []
    down_now: list[str] = []
    carried: list[Standing] = []
    for score in sorted(groups, reverse=True):
        group = carried + groups[score]
        carried = []
        if len(group) % 2 and score != min(groups):
            own = [s for s in group if s.match_points == score]
            fresh = [s for s in own if s.player not in done_down] or own
            least = min(s.resistance for s in fresh)
            pick = rng.choice([s for s in fresh if s.resistance == least])
            group.remove(pick)
            carried = [pick]
            down_now.append(pick.player)
        pairs += _pair_group([s.player for s in group], met)
    return pairs, bye, down_now


def _pair_group(names: list[str], met: Mapping[str, set[str]]) -> list[Pair]:
    """Pair a score group avoiding rematches when possible (backtracking; rematch as last resort)."""
    def solve(rest: list[str]) -> list[Pair] | None:
        if not rest:
            return []
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            if other in met.get(first, set()):
                continue
            tail = solve(others[:i] + others[i + 1:])
            if tail is not None:
                return [(first, other), *tail]
        return None
    found = solve(names)
    if found is not None:
        return found
    return [(names[i], names[i + 1]) for i in range(0, len(names) - 1, 2)]


def round_scenarios(map_name: str, rounds: int, rng: random.Random, *, random_each_round: bool = True
                    ) -> list[str]:
    """The scenario of each round (DR 5.3, 5.4): the map's first scenario every round, or (the
    recommended way) a different random scenario each round, reusing the pool when it runs out."""
    spec = pointbuy_data()["tournament"]["scenarios"][map_name]
    if not random_each_round:
        return [spec["default"]] * rounds
    out: list[str] = []
    while len(out) < rounds:
        pool = list(spec["pool"])
        rng.shuffle(pool)
        out += pool
    return out[:rounds]
