"""The integer ``HexGrid.hex_line`` equals the original Fraction implementation exactly.

The reference is ``hexgrid._hex_line_reference`` (the original code: Fraction walks of the line
nudged to either side, numpy label conversion, no cache) and ``_walk_fraction_reference`` (its
walk).  Compared with ``==`` on the frozen ``HexLine`` dataclass: every step's kind, hexes,
ambiguity and both alternatives, and both paths; errors must match in type and message.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from simulator.geometry import hexgrid as H
from simulator.geometry.hexgrid import HexGrid, HexLine

GRIDS = [
    HexGrid.dragon_rage(),  # flat even-q, 1-based
    HexGrid("flat", "odd-q"),
    HexGrid("flat", "even-q", first_col=0, first_row=0),
    HexGrid("flat", "odd-q", first_col=0, first_row=3),
    HexGrid("pointy", "even-r"),
    HexGrid("pointy", "odd-r"),
    HexGrid("pointy", "odd-r", first_col=0, first_row=0),
    HexGrid("pointy", "even-r", label_digits=3, first_col=2, first_row=0),
]
GRID_IDS = [f"{g.orientation}-{g.offset}-{g.first_col}{g.first_row}-d{g.label_digits}" for g in GRIDS]

# lines exactly along hexsides run in the six "diagonal" cube directions (2 hexsides per hex)
DIAGONALS = [(2, -1, -1), (-2, 1, 1), (1, 1, -2), (-1, -1, 2), (1, -2, 1), (-1, 2, -1)]


def _outcome(f):  # type: ignore[no-untyped-def]
    try:
        return ("ok", f())
    except Exception as e:  # noqa: BLE001 - the exception itself is compared
        return (type(e).__name__, str(e))


def _same(g: HexGrid, a: str, b: str) -> HexLine | None:
    new = _outcome(lambda: g.hex_line(a, b))
    old = _outcome(lambda: H._hex_line_reference(g, a, b))
    assert new == old, (g, a, b)
    return new[1] if new[0] == "ok" else None


@st.composite
def grid_and_pair(draw, kind: str = "random"):  # type: ignore[no-untyped-def]
    """A grid, a start label in a 30x30 area and an end label, optionally forced ambiguous."""
    g = draw(st.sampled_from(GRIDS))
    col = draw(st.integers(g.first_col, g.first_col + 29))
    row = draw(st.integers(g.first_row, g.first_row + 29))
    a = g.label(col, row)
    if kind == "random":
        b = g.label(draw(st.integers(g.first_col, g.first_col + 29)),
                    draw(st.integers(g.first_row, g.first_row + 29)))
        return g, a, b
    ca = g.cube(a)
    if kind == "hexside":  # along hexsides: k x a diagonal
        v = draw(st.sampled_from(DIAGONALS))
        k = draw(st.integers(1, 12))
        d = tuple(k * x for x in v)
    else:  # through corners: d = k * (3m + e) with e a diagonal, so corners lie on the line
        v = draw(st.sampled_from(DIAGONALS))
        w = draw(st.sampled_from(list(H.CUBE_DIRECTIONS.tolist())))
        m = draw(st.integers(1, 5))
        d = tuple(v[i] + 3 * m * w[i] for i in range(3))
    cb = tuple(ca[i] + d[i] for i in range(3))
    try:
        b = g.from_cube(cb)
    except ValueError:
        b = a
    return g, a, b


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_and_pair("random"))
@example((HexGrid.dragon_rage(), "0101", "0301"))  # along the hexside 0200/0201
@example((HexGrid.dragon_rage(), "0505", "1105"))
@example((HexGrid.dragon_rage(), "0510", "1011"))  # (5,-1,-4): through a corner at t=1/3
@example((HexGrid.dragon_rage(), "0707", "0707"))  # zero-length line
def test_hex_line_equals_reference_random(gp) -> None:  # type: ignore[no-untyped-def]
    _same(*gp)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_and_pair("hexside"))
def test_hex_line_equals_reference_along_hexsides(gp) -> None:  # type: ignore[no-untyped-def]
    g, a, b = gp
    ln = _same(g, a, b)
    if ln is not None and a != b:
        assert any(s.kind == "hexside" for s in ln.steps)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_and_pair("vertex"))
def test_hex_line_equals_reference_through_vertices(gp) -> None:  # type: ignore[no-untyped-def]
    g, a, b = gp
    _same(g, a, b)


def test_ambiguous_cases_are_exercised() -> None:
    """The explicit cases above do produce both kinds of ambiguous steps."""
    g = HexGrid.dragon_rage()
    kinds = {s.kind for a, b in [("0101", "0301"), ("0510", "1011")] for s in _same(g, a, b).steps}
    assert kinds == {"hex", "hexside", "vertex"}


@settings(max_examples=200, deadline=None)
@given(st.integers(-60, 60), st.integers(-60, 60), st.sampled_from([1, -1]))
def test_walk_equals_fraction_walk(q: int, r: int, sign: int) -> None:
    d = (q, r, -q - r)
    assert H._walk(d, sign) == H._walk_fraction_reference(d, sign)


def test_walk_exhaustive_small() -> None:
    """Every difference up to distance 10, both nudges (the ambiguous ones included)."""
    R = 10
    for q in range(-R, R + 1):
        for r in range(max(-R, -q - R), min(R, -q + R) + 1):
            d = (q, r, -q - r)
            if d == (0, 0, 0):
                continue
            for sign in (1, -1):
                assert H._walk(d, sign) == H._walk_fraction_reference(d, sign), (d, sign)


@pytest.mark.parametrize("g", GRIDS, ids=GRID_IDS)
def test_errors_and_map_edges_match(g: HexGrid) -> None:
    """Lines near the label limits (unlabellable hexes crossed) and bad labels fail identically."""
    top = 10**g.label_digits - 1
    low = [g.label(c, r) for c in (0, 1, 2, 5) for r in (0, 1, 2, 6)]
    high = [g.label(c, r) for c in (top, top - 1, top - 4) for r in (top, top - 1, top - 5)]
    for corner in (low, high):  # pairs within each corner (the reference is slow on long lines)
        for a in corner:
            for b in corner:
                _same(g, a, b)
    for a, b in [("01x1", "0101"), ("0101", "123"), ("", "0101"), ("0101", None)]:
        _same(g, a, b)  # type: ignore[arg-type]


def test_cache_state_does_not_matter() -> None:
    g = HexGrid("pointy", "odd-r")
    pairs = [(g.label(3, 4), g.label(9, 13)), (g.label(4, 4), g.label(10, 13)),
             (g.label(3, 5), g.label(9, 14)), (g.label(12, 2), g.label(2, 12))]
    H._line_plan.cache_clear()
    cold = [g.hex_line(a, b) for a, b in pairs]
    warm = [g.hex_line(a, b) for a, b in pairs]
    assert cold == warm == [H._hex_line_reference(g, a, b) for a, b in pairs]
