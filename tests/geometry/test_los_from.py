"""One viewer to many targets (``Obstacles.los_from``, the angular sweep from one viewer with the
targets' side-of-edge table kept between viewers): the answers and blockers of the matrix row,
and the blocked/clear verdicts of the per-segment test, on hex maps where lines through hex
corners and along hexsides are frequent; global ignore ids; towers containing an end."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.geometry.hexgrid import HexGrid
from simulator.geometry.hexlos import HexObstacleMap
from simulator.geometry.segments import Obstacles


def _map(seed: int) -> tuple[HexObstacleMap, list[str]]:
    g = HexGrid.dragon_rage()
    labels = g.all_labels(9, 8)
    rng = np.random.default_rng(seed)
    walls = {g.hexside(h, n) for h in rng.choice(labels, 20)
             for n in list(g.neighbours(str(h)).values())[:2] if n in labels}
    towers = [str(t) for t in rng.choice(labels, 4, replace=False)]
    return HexObstacleMap(g, sorted(walls, key=str), towers), labels


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_los_from_is_the_matrix_row_for_every_viewer(seed: int) -> None:
    m, labels = _map(seed)
    vis, who = m.los_matrix(labels)
    for i, a in enumerate(labels):
        v, w = m.los_from(a, labels)
        v[i], w[i] = True, -1                  # the matrix's diagonal is clear by definition
        assert (v == vis[i]).all() and (w == who[i]).all(), a


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), ignored=st.integers(0, 5))
def test_los_from_agrees_with_the_per_segment_test(seed: int, ignored: int) -> None:
    m, labels = _map(seed)
    obs = m.obstacles
    ignore = list(range(0, obs.n, 1 + ignored))[:3]
    cen = m.centres(labels)
    for a in labels[::5]:
        v, w = m.los_from(a, labels, ignore=ignore)
        p = m.centres([a])
        bl, _ = obs.segments_blocked(np.broadcast_to(p, cen.shape), cen, ignore=ignore, ignore_containing=True)
        assert (v == ~bl).all(), a
        assert all(int(k) not in ignore for k in w[~v])


def test_prepared_targets_are_rebuilt_for_other_points() -> None:
    """A prepared table is used only for the points it was made for."""
    obs = Obstacles(segments=[[[1, -1], [1, 1]]], polygons=[[[3, -1], [4, -1], [4, 1], [3, 1]]])
    near = obs.prepare([[2, 0], [5, 0]])
    bl, who = obs.los_from([0, 0], [[0.5, 0], [3.5, 0]], ignore_containing=True, prepared=near)
    assert bl.tolist() == [False, True] and who.tolist() == [-1, 0]
    # a target inside the square does not see it block; a viewer inside it neither
    bl, who = obs.los_from([3.5, 0], [[5, 0], [0, 0]], ignore_containing=True)
    assert bl.tolist() == [False, True] and who.tolist() == [-1, 0]


def test_a_viewer_in_its_own_tower_sees_past_it() -> None:
    g = HexGrid.dragon_rage()
    m = HexObstacleMap(g, [], ["0505", "0507"])
    v, who = m.los_from("0505", ["0505", *g.neighbours("0505").values(), "0509"])
    assert v[:-1].all()                      # its own tower does not block, walls there are none
    assert not v[-1] and m.describe(int(who[-1])) == "0507"    # the other tower does
