"""Line of sight on hex maps.

(a) :func:`hex_los` follows the exact :meth:`HexGrid.hex_line` and checks blocking hexes and
blocking hexsides.  An ambiguous step (line along a hexside or through a corner) has two
alternatives, the line nudged to either side; ``ambiguous="both"`` blocks only if both
alternatives are blocked (the usual lenient rule), ``"either"`` if one is, or pass a callable
``rule(step, left_blocked, right_blocked) -> bool``.

(b) :class:`HexObstacleMap` is geometric LOS in continuous coordinates: centre-to-centre segments
against wall hexside segments and tower hexagons, where touching counts (Dragon Rage 2.7.6.2).
The firer's and target's own tower is ignored (polygons containing an end point).

>>> from simulator.geometry.hexgrid import HexGrid
>>> g = HexGrid.dragon_rage()
>>> hex_los(g, "0505", "0509", hex_blocks={"0507"}).blocked_by_hex
'0507'
>>> m = HexObstacleMap(g, walls=[g.hexside("0506", "0507")], towers=["0808"])
>>> m.los("0505", "0509"), m.los("0505", "0705")
((False, '0506/0507'), (True, None))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Iterable, Literal, Sequence, Union

import numpy as np
from numpy.typing import NDArray

from .hexgrid import HexGrid, HexLine, Hexside, LineStep
from .segments import Obstacles, PreparedPoints

__all__ = ["HexLos", "hex_los", "HexObstacleMap"]

HexBlocks = Union[Collection[str], Callable[[str], bool], None]
SideBlocks = Union[Collection[Hexside], Callable[[Hexside], bool], None]
AmbiguousRule = Union[Literal["both", "either"], Callable[[LineStep, bool, bool], bool]]


@dataclass(frozen=True)
class HexLos:
    """Verdict of :func:`hex_los`.

    ``blocked_by_hex`` / ``blocked_by_hexside`` name the first blocker (for an ambiguous step the
    blocker of the left alternative if it is blocked, else of the right); ``step`` is the index
    into ``line.steps`` where LOS was blocked.
    """

    visible: bool
    line: HexLine
    blocked_by_hex: "str | None" = None
    blocked_by_hexside: "Hexside | None" = None
    step: "int | None" = None
    reason: str = ""


def _pred(x: "HexBlocks | SideBlocks") -> Callable[[object], bool]:
    if x is None:
        return lambda _h: False
    if callable(x):
        return x  # type: ignore[return-value]
    s = set(x)
    return lambda h: h in s


def hex_los(
    grid: HexGrid,
    a: str,
    b: str,
    *,
    hex_blocks: HexBlocks = None,
    hexside_blocks: SideBlocks = None,
    ambiguous: AmbiguousRule = "both",
    include_endpoints: bool = False,
) -> HexLos:
    """Hex-line LOS from ``a`` to ``b``.

    >>> g = HexGrid.dragon_rage()
    >>> hex_los(g, "0101", "0301", hex_blocks={"0201"}).visible      # along 0200/0201
    True
    >>> hex_los(g, "0101", "0301", hex_blocks={"0201"}, ambiguous="either").visible
    False
    """
    line = grid.hex_line(a, b)
    hb = _pred(hex_blocks)
    sb = _pred(hexside_blocks)
    ends = {a, b}

    def hex_hit(h: str) -> bool:
        return (include_endpoints or h not in ends) and hb(h)

    def walk_block(path: Sequence[str]) -> "tuple[str | None, Hexside | None]":
        for i, h in enumerate(path):
            if i > 0:
                side = Hexside.between(path[i - 1], h, grid)
                if sb(side):
                    return None, side
            if hex_hit(h):
                return h, None
        return None, None

    if ambiguous == "both":
        rule: Callable[[LineStep, bool, bool], bool] = lambda s, l, r: l and r
    elif ambiguous == "either":
        rule = lambda s, l, r: l or r
    elif callable(ambiguous):
        rule = ambiguous
    else:
        raise ValueError(f"ambiguous must be 'both', 'either' or a callable, got {ambiguous!r}")

    steps = line.steps
    prev: "str | None" = None
    for k, st in enumerate(steps):
        if not st.ambiguous:
            h = st.hexes[0]
            if prev is not None:
                side = Hexside.between(prev, h, grid)
                if sb(side):
                    return HexLos(False, line, None, side, k, f"hexside {side} blocks the line")
            if hex_hit(h):
                return HexLos(False, line, h, None, k, f"hex {h} blocks the line")
            prev = h
            continue
        nxt = steps[k + 1].hexes[0]
        lpath = [prev, *st.left, nxt]
        rpath = [prev, *st.right, nxt]
        lh, ls = walk_block(lpath)
        rh, rs = walk_block(rpath)
        # the final hex (nxt) is checked by its own step; do not double count it here
        if lh == nxt:
            lh = None
        if rh == nxt:
            rh = None
        lb, rb = lh is not None or ls is not None, rh is not None or rs is not None
        if rule(st, lb, rb):
            bh, bs = (lh, ls) if lb else (rh, rs)
            what = f"hex {bh}" if bh else f"hexside {bs}"
            return HexLos(False, line, bh, bs, k,
                          f"{what} blocks the line where it runs along a {st.kind}")
        prev = None  # the sides into the next hex were checked with the alternatives
    return HexLos(True, line)


class HexObstacleMap:
    """Geometric LOS on a hex map: walls are hexside segments, towers are hexagons.

    Obstacle ids: walls ``0..W-1`` (in the order given), then towers; :meth:`describe` turns an
    id into the Hexside string or tower label for the client to highlight.
    """

    def __init__(self, grid: HexGrid, walls: Iterable[Hexside] = (), towers: Iterable[str] = (),
                 size: float = 1.0, eps: float = 1e-9) -> None:
        self.grid = grid
        self.size = size
        self.eps = eps
        self.walls: list[Hexside] = list(walls)
        self.towers: list[str] = list(towers)
        segs = grid.hexside_segments(self.walls, size)
        polys = list(grid.polygons(self.towers, size)) if self.towers else []
        self.obstacles = Obstacles(segs, polys)
        self._prepared: dict[tuple[str, ...], tuple[PreparedPoints, dict[str, int]]] = {}

    def describe(self, oid: int) -> str:
        """``"0606/0707"`` for a wall id, the tower label for a tower id, ``""`` for -1."""
        if oid < 0:
            return ""
        if oid < len(self.walls):
            return str(self.walls[oid])
        return self.towers[oid - len(self.walls)]

    def centres(self, labels: Sequence[str]) -> NDArray[np.float64]:
        """Pixel centres of hexes at this map's size."""
        return self.grid.to_pixel(list(labels), self.size).reshape(-1, 2)

    def los(self, a: str, b: str, ignore: Sequence[int] | None = None) -> "tuple[bool, str | None]":
        """``(visible, blocker description or None)`` for one pair."""
        p = self.centres([a, b])
        bl, who = self.obstacles.segments_blocked(p[:1], p[1:], ignore=ignore,
                                                  ignore_containing=True, eps=self.eps)
        return (not bool(bl[0]), self.describe(int(who[0])) if bl[0] else None)

    def los_from(self, a: str, targets: Sequence[str], ignore: Sequence[int] | None = None
                 ) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        """One viewer to many hexes: ``(visible (N,), blocker id (N,))``."""
        key = tuple(targets)
        found = self._prepared.get(key)
        if found is None:              # the same targets (every hex) from viewer after viewer
            if len(self._prepared) > 8:
                self._prepared.clear()
            found = self._prepared[key] = (self.obstacles.prepare(self.centres(targets), self.eps),
                                           {label: i for i, label in enumerate(targets)})
        prepared, index = found
        i = index.get(a)
        p = prepared.points[i] if i is not None else self.centres([a])[0]
        bl, who = self.obstacles.los_from(p, prepared.points, ignore=ignore, ignore_containing=True,
                                          eps=self.eps, prepared=prepared)
        return ~bl, who

    def los_matrix(self, labels: Sequence[str], ignore: "NDArray[np.bool_] | Sequence[int] | None" = None
                   ) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        """All pairs: ``(visible (N, N), blocker id (N, N))``."""
        bl, who = self.obstacles.los_matrix(self.centres(labels), ignore=ignore,
                                            ignore_containing=True, eps=self.eps)
        return ~bl, who
