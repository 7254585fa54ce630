"""Exact sight lines between two buildings (SAGA p.15, p.27; issue 26): the occupants of a
building see and are seen from any part of it, so two units in two buildings see each other when
some line from a point of the one's walls to a point of the other's is clear. The engine finds
such a line exactly; a 0.5" sampling of the walls misses thin ones."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from simulator.core import IllegalAction, Session
from simulator.games.saga import buildings, shooting
from simulator.geometry.segments import point_segment_distance
from tests.saga.helpers import give_dice, session

MID_GAME = {"start": {"turn": 1, "phase": "activation", "player": "A"}}
HALL = {"id": "hall", "type": "building", "polygon": [[4, 15], [10, 15], [10, 19], [4, 19]]}
BARN = {"id": "barn", "type": "building", "polygon": [[20, 15], [26, 15], [26, 19], [20, 19]]}
HELD = frozenset({"hall", "barn"})


def _palisades(y0: float, width: float) -> list[dict[str, Any]]:
    """A palisade along x = 15 from the table's bottom edge to its top, but for a slit from
    y0 to y0 + width (none when width is 0)."""
    return [{"id": "south", "type": "palisade", "line": [[15, 0], [15, y0]]},
            {"id": "north", "type": "palisade", "line": [[15, y0 + width], [15, 36]]}]


def _two_buildings(terrain: list[dict[str, Any]], between: list[list[float]] | None = None) -> Session:
    """Levies (bows) hold the hall, Warriors the barn 10" east of it; ``between``: lone levies of a
    third unit each, standing in the way."""
    others = [{"id": f"lone{k}", "class": "levies", "positions": [p]} for k, p in enumerate(between or [])]
    s = session([{"id": "lev", "class": "levies", "positions": [[6, 17], [8, 17]]}, *others,
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "positions": [[22, 17], [24, 17]]},
                 {"id": "el", "class": "warlord", "at": [40, 33]}],
                terrain=[HALL, BARN, *terrain], extra=MID_GAME)
    assert s.state["units"]["lev"]["building"] == "hall" and s.state["units"]["war"]["building"] == "barn"
    return s


def _wall_samples(state: dict[str, Any], building: str, step: float = 0.5) -> list[tuple[float, float]]:
    """The points of a building's walls every ``step`` along each wall, its corners included."""
    poly = [(float(x), float(y)) for x, y in buildings.pieces(state)[building]["polygon"]]
    out = []
    for a, b in zip(poly, poly[1:] + poly[:1]):
        n = max(1, math.ceil(math.dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(n)]
    return out


def _sampling_sees(state: dict[str, Any], step: float = 0.5) -> bool:
    """Whether any line joining two sampled wall points, one of each building, is clear."""
    lines = [(p, q) for p in _wall_samples(state, "hall", step) for q in _wall_samples(state, "barn", step)]
    ignore = {"lev", "war"}
    return any(not found for found in shooting.lines_blockers(state, lines, ignore, HELD))


def _on_walls(state: dict[str, Any], building: str, p: tuple[float, float]) -> bool:
    poly = buildings.pieces(state)[building]["polygon"]
    ends = list(zip(poly, poly[1:] + poly[:1]))
    return min(float(point_segment_distance(p, a, b)) for a, b in ends) < 1e-9


def test_a_slit_missed_by_a_half_inch_sampling_is_seen_through() -> None:
    # the slit is 0.01" wide, from y 17.6262 to 17.6362: no line between two points of the
    # walls every 0.5" passes it, but a line from the hall's east wall to the barn's does
    s = _two_buildings(_palisades(17.6262, 0.01))
    st = s.state_data()
    assert not _sampling_sees(st)
    a, b, blockers = shooting.sight_line(st, "lev.1", "war.1")
    assert blockers == [] and _on_walls(st, "hall", a) and _on_walls(st, "barn", b)
    cross = a[1] + (b[1] - a[1]) * (15 - a[0]) / (b[0] - a[0])
    assert 17.6262 < cross < 17.6362
    assert shooting.los_blockers(st, a, b, {"lev", "war"}, HELD) == []
    # the other way round (the Warriors' figure first) the line is found too
    assert shooting.sight_line(st, "war.1", "lev.1")[2] == []
    give_dice(s, "A", [("U", "thralls")])
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s.apply({"type": "shoot", "target": "war"})
    assert s.state["shooting"]["cover"] == "heavy"


def test_a_closed_palisade_hides_the_barn_and_names_what_blocks() -> None:
    s = _two_buildings(_palisades(17.6262, 0.0))
    st = s.state_data()
    a, b, blockers = shooting.sight_line(st, "lev.1", "war.1")
    assert blockers and set(blockers) <= {"south", "north"}
    assert shooting.eligible_shooters(st, "lev", "war") == []
    give_dice(s, "A", [("U", "thralls")])
    with pytest.raises(IllegalAction, match="no enemy unit in range and sight"):
        s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})


def test_a_thin_line_between_bases_and_gaps_is_found() -> None:
    # five lone levies, some within VS of each other (the gaps between those block, SAGA p.15):
    # no line between two points of the walls every 0.5" passes them, but one from the hall's
    # east wall, near its top, to the barn's west wall, near its top, slips between them
    s = _two_buildings([], between=[[13.45, 19.03], [18.06, 18.32], [16.18, 17.55], [15.27, 15.31], [16.94, 14.25]])
    st = s.state_data()
    assert not _sampling_sees(st)
    a, b, blockers = shooting.sight_line(st, "lev.1", "war.1")
    assert blockers == [] and _on_walls(st, "hall", a) and _on_walls(st, "barn", b)
    assert a[0] == pytest.approx(10) and b[0] == pytest.approx(20) and a[1] > 18 and b[1] > 18.5
    assert shooting.los_blockers(st, a, b, {"lev", "war"}, HELD) == []
    assert shooting.eligible_shooters(st, "lev", "war") == ["lev.1", "lev.2"]


@pytest.mark.parametrize("seed", [3, 11])
def test_the_exact_answer_never_loses_a_line_the_sampling_found(seed: int) -> None:
    """Lone levies scattered between the buildings (some gaps within VS block, SAGA p.15), and at
    times a palisade: wherever a 0.5" sampling of both walls finds a clear line, the exact search
    finds one too, and every line it reports clear joins the two buildings' walls unblocked."""
    rng = random.Random(seed)
    agreed = 0
    for _ in range(3):
        spots: list[list[float]] = []
        while len(spots) < 6:
            p = [round(rng.uniform(11.5, 18.5), 2), round(rng.uniform(13.0, 21.0), 2)]
            if all(math.dist(p, q) > 1.1 for q in spots):
                spots.append(p)
        wall = [{"id": "wall", "type": "palisade",
                 "line": [[rng.uniform(12, 18), rng.uniform(13, 21)], [rng.uniform(12, 18), rng.uniform(13, 21)]]}]
        st = _two_buildings(wall if rng.random() < 0.5 else [], between=spots).state_data()
        a, b, blockers = shooting.sight_line(st, "lev.1", "war.1")
        if not blockers:
            assert _on_walls(st, "hall", a) and _on_walls(st, "barn", b)
            assert shooting.los_blockers(st, a, b, {"lev", "war"}, HELD) == []
        sampled = _sampling_sees(st)
        assert not (sampled and blockers)
        agreed += sampled == (not blockers)
    assert agreed >= 1
