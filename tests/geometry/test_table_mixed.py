"""``distance_matrix`` on a batch of mixed kinds (round bases and trays) takes each pair of
kinds by its own formula: the same numbers as each pair measured alone."""

from __future__ import annotations

import numpy as np

from simulator.geometry.table import Shapes, distance_matrix


def _batch(seed: int) -> Shapes:
    rng = np.random.default_rng(seed)
    circ = np.c_[rng.uniform(0, 20, (9, 2)), rng.choice([0.5, 1.0], 9)]
    rects = np.c_[rng.uniform(0, 20, 8), rng.uniform(0, 20, 8), rng.choice([4.0, 5.0], 8),
                  rng.choice([2.0, 2.5], 8), rng.uniform(0, 360, 8)]
    poly = Shapes.polygons([[[3, 3], [6, 3], [5, 6]]])          # fewer vertices than a tray
    return Shapes.concat([Shapes.rects(rects[:4]), Shapes.circles(circ), poly, Shapes.rects(rects[4:])])


def test_mixed_batches_match_each_pair_alone() -> None:
    for seed in range(4):
        s = _batch(seed)
        d = distance_matrix(s)
        alone = np.array([[distance_matrix(s.take(np.array([i])), s.take(np.array([j])))[0, 0]
                           for j in range(len(s))] for i in range(len(s))])
        assert np.allclose(d, alone, rtol=0, atol=1e-12)
        assert np.allclose(d, d.T, rtol=0, atol=1e-12)
        # against another batch (b given): the same block
        other = _batch(seed + 10)
        assert np.allclose(distance_matrix(s, other), distance_matrix(other, s).T, rtol=0, atol=1e-12)


def test_a_base_inside_a_tray_is_at_distance_zero() -> None:
    s = Shapes.concat([Shapes.rects([[0, 0, 4, 2, 0]]), Shapes.circles([[0.5, 0, 0.5], [0, 5, 1]])])
    d = distance_matrix(s)
    # the tray's corners are (+-1, +-2): from y = 2 to the far base's edge, 5 - 1 - 2
    assert d[0, 1] == 0 and d[1, 0] == 0 and abs(d[0, 2] - 2.0) < 1e-12
