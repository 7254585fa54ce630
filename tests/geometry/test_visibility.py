"""Exact segment-to-polygon visibility among convex blockers (simulator/geometry/visibility.py):
narrow gaps, full blocks, grazing (with clearance 0 touching is allowed; with a clearance, as ASOIAF
uses, touching blocks and blockers in contact leave no gap), and random scenes checked against a
dense sampling and against shapely."""

import numpy as np
import pytest
from shapely.geometry import LineString, Polygon

from simulator.geometry.table import rect_corners
from simulator.geometry.visibility import blockers_between, segment_to_polygon_visible, segments_blocked

C = 0.005          # the clearance ASOIAF uses (half its 0.01" contact distance)


def box(x0, y0, x1, y1):
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=float)


def on_segment(p, a, b, eps=1e-7):
    a, b, p = map(np.asarray, (a, b, p))
    return abs((b - a)[0] * (p - a)[1] - (b - a)[1] * (p - a)[0]) <= eps * np.linalg.norm(b - a) and \
        -eps <= np.dot(p - a, b - a) / np.dot(b - a, b - a) <= 1 + eps


def in_polygon(p, poly):
    return Polygon(poly).buffer(1e-7).contains(LineString([p, p]).centroid)


def clear_by_shapely(w, blockers, clearance):
    """Independent check: the witness keeps (almost) the clearance from every blocker (with
    clearance 0: it does not go into one)."""
    seg = LineString(w) if np.linalg.norm(w[1] - w[0]) > 0 else LineString([w[0], w[0] + 1e-12])
    if clearance == 0:
        return not any(seg.intersects(Polygon(b).buffer(-1e-7)) for b in blockers)
    return all(seg.distance(Polygon(b)) >= clearance * 0.999 for b in blockers)


def check_witness(w, a, b, target, blockers, clearance=0.0):
    assert w is not None
    assert on_segment(w[0], a, b)
    assert in_polygon(w[1], target)
    assert clear_by_shapely(w, blockers, clearance)


def test_no_blockers_gives_the_centre_line():
    w = segment_to_polygon_visible([0, 0], [4, 0], box(0, 10, 4, 12), [])
    assert w.tolist() == [[2.0, 0.0], [2.0, 11.0]]


def slit_wall(width):
    """A wall across y 4..6 cut by a slanted slit ``width`` wide (negative: the halves overlap) on
    the line from (4, 0) to (20.5, 20.5)."""
    x = lambda y: 4 + y * 16.5 / 20.5  # noqa: E731
    h = width / 2
    return [np.array([[-20, 4], [x(4) - h, 4], [x(6) - h, 6], [-20, 6]], dtype=float),
            np.array([[x(4) + h, 4], [40, 4], [40, 6], [x(6) + h, 6]], dtype=float)]


def test_narrow_slanted_gap_that_sampling_misses():
    # lines through a 0.05" slanted slit must start within about 0.1" of x = 4: none of the easy
    # points of the source (its ends, centre, 5% and 95%) is there
    a, b = np.array([0.0, 0.0]), np.array([10.0, 0.0])
    target = box(20, 20, 21, 21)
    blockers = slit_wall(0.05)
    for clearance in (0.0, C):
        w = segment_to_polygon_visible(a, b, target, blockers, clearance)
        check_witness(w, a, b, target, blockers, clearance)
        assert abs(w[0][0] - 4) < 0.2
        assert segment_to_polygon_visible(a, b, target, slit_wall(-0.01), clearance) is None
    # a zero-width slit (the halves touch along it): only the line along it, touching both
    w = segment_to_polygon_visible(a, b, target, slit_wall(0.0))
    check_witness(w, a, b, target, slit_wall(0.0))
    assert segment_to_polygon_visible(a, b, target, slit_wall(0.0), C) is None
    assert segment_to_polygon_visible(a, b, target, slit_wall(0.009), C) is None   # narrower than 2C


def test_fully_blocked_by_a_wall_and_by_two_trays_side_by_side():
    a, b = [0, 0], [6, 0]
    target = box(2, 10, 4, 11)
    assert segment_to_polygon_visible(a, b, target, [box(-10, 4, 20, 5)]) is None
    trays = [box(-10, 4, 3, 6), box(3, 4, 20, 6)]                  # touching along x = 3
    assert segment_to_polygon_visible(a, b, target, trays, C) is None


def test_grazing_one_corner_only_without_clearance():
    # the only line from the source to the target touches A's top-right corner (5, 4)
    a, b = [0, 0], [10, 0]
    A = box(-5, 2, 5, 4)
    target = box(-8, 11, -5, 12)
    w = segment_to_polygon_visible(a, b, target, [A])
    check_witness(w, a, b, target, [A])
    assert np.allclose(w, [[10, 0], [-5, 12]])
    assert segment_to_polygon_visible(a, b, box(-8.01, 11, -5.01, 12), [A]) is None
    assert segment_to_polygon_visible(a, b, target, [A], C) is None          # touching blocks
    # with the clearance, the target 0.05" further right is seen past the corner
    w = segment_to_polygon_visible(a, b, box(-7.95, 11, -4.95, 12), [A], C)
    check_witness(w, a, b, box(-7.95, 11, -4.95, 12), [A], C)


def test_corners_in_contact_leave_no_gap_with_clearance():
    a, b, target = [0, 0], [10, 0], box(1, 9, 3, 10)
    A = box(-5, 2, 5, 4)
    B = box(5, 4, 15, 6)                 # touches A at its corner (5, 4)
    w = segment_to_polygon_visible(a, b, target, [A, B])
    check_witness(w, a, b, target, [A, B])            # clearance 0: the line through the corner
    assert segment_to_polygon_visible(a, b, target, [A, B], C) is None
    B = box(5.1, 4, 15, 6)               # 0.1" apart: seen through the gap
    w = segment_to_polygon_visible(a, b, target, [A, B], C)
    check_witness(w, a, b, target, [A, B], C)


def test_a_column_of_trays_hides_the_one_behind():
    # the source, a blocker and the target all 6.3" wide and in line: only the lines along the
    # blocker's sides reach the target; they touch it, so they are blocked with a clearance
    a, b = [20.85, 17.36], [27.15, 17.36]
    target, middle = box(20.85, 37.64, 27.15, 42.36), box(20.85, 27.64, 27.15, 32.36)
    w = segment_to_polygon_visible(a, b, target, [middle])
    check_witness(w, a, b, target, [middle])
    assert segment_to_polygon_visible(a, b, target, [middle], C) is None


def test_gap_of_a_tray_width_between_two_trays():
    blockers = [box(1, 2, 5, 4), box(-5, 2, 0, 4)]
    w = segment_to_polygon_visible([0, 0], [1, 0], box(0, 10, 1, 11), blockers, C)
    check_witness(w, [0, 0], [1, 0], box(0, 10, 1, 11), blockers, C)


def test_target_partly_behind_a_blocker_and_touching_the_source():
    a, b = [0, 0], [4, 0]
    target = box(1, 8, 9, 10)
    cover = box(-10, 3, 5, 12)          # hides the target's left part; its right part shows
    w = segment_to_polygon_visible(a, b, target, [cover], C)
    check_witness(w, a, b, target, [cover], C)
    assert w[1][0] >= 5 + C - 1e-9
    touching = box(1, 0, 3, 2)          # in contact with the source edge
    cover = box(-5, 0.5, 10, 20)      # covers all of it but a 0.5" strip along the source
    w = segment_to_polygon_visible(a, b, touching, [cover], C)
    check_witness(w, a, b, touching, [cover], C)
    assert w[1][1] <= 0.5


def test_blockers_between_prunes_far_blockers():
    far = box(50, 50, 51, 51)
    near = box(1, 4, 2, 5)
    assert blockers_between([0, 0], [4, 0], box(0, 10, 4, 11), [far, near]) == [1]


@pytest.mark.parametrize("clearance", [0.0, C])
def test_segments_blocked_agrees_with_shapely_on_random_segments(clearance):
    rng = np.random.default_rng(5)
    polys = [rect_corners([[*rng.uniform(0, 10, 2), *rng.uniform(0.5, 3, 2), rng.uniform(0, 360)]])[0]
             for _ in range(6)]
    p0, p1 = rng.uniform(-2, 12, (300, 2)), rng.uniform(-2, 12, (300, 2))
    got = segments_blocked(p0, p1, polys, clearance)
    for m in range(len(p0)):
        seg = LineString([p0[m], p1[m]])
        for k, poly in enumerate(polys):
            d = seg.distance(Polygon(poly))
            if clearance == 0:
                assert got[m, k] == seg.intersects(Polygon(poly).buffer(-1e-7)) or d == 0
            elif abs(d - clearance) > 1e-3 * clearance:      # grown corners are mitred, not round
                assert got[m, k] == (d < clearance) or (d < clearance * 1.42 and got[m, k])


@pytest.mark.parametrize("seed", range(40))
def test_many_obstacles_exact_never_worse_than_dense_sampling(seed):
    """Random scenes of 10-20 trays: whenever a dense sampling (40 x 40 points) finds a clear line,
    the exact method finds one too; every witness it gives is clear (checked with shapely)."""
    rng = np.random.default_rng(seed)
    a, b = np.array([0.0, 0.0]), np.array([6.0, 0.0])
    target = rect_corners([[rng.uniform(-6, 12), rng.uniform(14, 24), 3, 2, rng.uniform(0, 180)]])[0]
    blockers = []
    while len(blockers) < rng.integers(10, 21):
        r = rect_corners([[rng.uniform(-8, 14), rng.uniform(2, 12), rng.uniform(0.5, 4), rng.uniform(0.5, 3),
                           rng.uniform(0, 180)]])[0]
        blockers.append(r)
    s = np.linspace(0, 1, 40)
    src = a + s[:, None] * (b - a)
    edge = np.concatenate([target[i] + s[:, None] * (target[(i + 1) % 4] - target[i]) for i in range(4)])
    p0 = np.repeat(src, len(edge), axis=0)
    p1 = np.tile(edge, (len(src), 1))
    for clearance in (0.0, C):
        sampled = not segments_blocked(p0, p1, blockers, clearance).any(axis=1).all()
        w = segment_to_polygon_visible(a, b, target, blockers, clearance)
        if sampled:
            assert w is not None
        if w is not None:
            check_witness(w, a, b, target, blockers, clearance)
