"""Cheapest-path movement on a hex map (Dijkstra) with per-hex and per-hexside rules.

Step cost of moving ``a -> b`` (adjacent, both on the map):

* if the step follows a road (``road_hexsides`` contains the hexside, or both hexes are in
  ``road_hexes``) and ``road_cost`` is given: ``road_cost`` (the entry cost of ``b`` is ignored, so
  a road can pass through otherwise forbidden hexes, e.g. a tower's ground floor);
* otherwise ``entry_cost(b)`` (``None`` or ``inf`` = impassable);
* plus ``hexside_rule(a, b)`` (extra cost, ``0`` = normal, ``None`` = blocked).  One-way gates,
  walls, bridges/fords entered only from their connected sides are expressed here.

>>> from simulator.geometry.hexgrid import HexGrid
>>> m = HexMap(HexGrid.dragon_rage(), HexGrid.dragon_rage().all_labels(5, 5))
>>> r = reachable(m, "0101", entry_cost={"0102": 3}, budget=3)
>>> r.cost["0103"], r.path_to("0103")
(3.0, ['0101', '0201', '0202', '0103'])
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from typing import Callable, Collection, Iterable, Mapping, Sequence, Union

import numpy as np
from numpy.typing import NDArray

from .hexgrid import HexGrid, Hexside

__all__ = ["HexMap", "Reachable", "reachable", "path_cost", "step_cost", "FacingReachable",
           "reachable_with_facing"]

EntryCost = Union[Mapping[str, "float | None"], Callable[[str], "float | None"], float]
HexsideRule = Callable[[str, str], "float | None"]


class HexMap:
    """The set of hexes of a map with a precomputed neighbour table (reuse it across queries).

    >>> m = HexMap(HexGrid.dragon_rage(), ["0101", "0102", "0201"])
    >>> m.neighbours("0101")
    ['0201', '0102']
    """

    def __init__(self, grid: HexGrid, hexes: Iterable[str]) -> None:
        self.grid = grid
        self.labels: list[str] = list(dict.fromkeys(hexes))
        self.index: dict[str, int] = {h: i for i, h in enumerate(self.labels)}
        self.cubes: NDArray[np.int64] = (
            grid.labels_to_cube(self.labels) if self.labels else np.zeros((0, 3), np.int64)
        )
        lookup = {tuple(c): i for i, c in enumerate(self.cubes.tolist())}
        nb = self.cubes[:, None, :] + grid.direction_vectors[None, :, :]
        self.nbr: NDArray[np.int64] = np.array(
            [[lookup.get(tuple(c), -1) for c in row] for row in nb.tolist()], dtype=np.int64
        ).reshape(len(self.labels), 6)

    def __contains__(self, label: object) -> bool:
        return label in self.index

    def __len__(self) -> int:
        return len(self.labels)

    def neighbours(self, label: str) -> list[str]:
        """On-map neighbours in direction order."""
        return [self.labels[j] for j in self.nbr[self.index[label]] if j >= 0]

    def centres(self, size: float = 1.0) -> NDArray[np.float64]:
        """Pixel centres ``(n, 2)`` in :attr:`labels` order."""
        return self.grid.to_pixel(self.cubes, size)


def _entry_fn(entry_cost: EntryCost) -> Callable[[str], "float | None"]:
    if callable(entry_cost):
        return entry_cost
    if isinstance(entry_cost, Mapping):
        return lambda h: entry_cost.get(h, 1.0)
    const = float(entry_cost)
    return lambda h: const


@dataclass
class _Rules:
    entry: Callable[[str], "float | None"]
    hexside_rule: "HexsideRule | None"
    road_cost: "float | None"
    road_sides: frozenset[tuple[str, str]]
    road_hexes: frozenset[str]
    blocked: frozenset[str]


def _make_rules(entry_cost: EntryCost, hexside_rule: "HexsideRule | None",
                road_cost: "float | None", road_hexsides: Iterable["Hexside | tuple[str, str]"],
                road_hexes: Collection[str], blocked: Collection[str]) -> _Rules:
    sides = set()
    for s in road_hexsides:
        a, b = s.hexes if isinstance(s, Hexside) else s
        sides.add((a, b))
        sides.add((b, a))
    return _Rules(_entry_fn(entry_cost), hexside_rule, road_cost, frozenset(sides),
                  frozenset(road_hexes), frozenset(blocked))


def _step(rules: _Rules, a: str, b: str) -> "tuple[float | None, str]":
    """Cost of one step and a reason when it is impossible."""
    if b in rules.blocked:
        return None, f"hex {b} cannot be entered (occupied or forbidden)"
    on_road = rules.road_cost is not None and (
        (a, b) in rules.road_sides or (a in rules.road_hexes and b in rules.road_hexes)
    )
    if on_road:
        base: "float | None" = rules.road_cost
    else:
        base = rules.entry(b)
        if base is None or math.isinf(base):
            return None, f"hex {b} is impassable"
    extra = 0.0
    if rules.hexside_rule is not None:
        e = rules.hexside_rule(a, b)
        if e is None or math.isinf(e):
            return None, f"hexside {a}/{b} cannot be crossed from {a}"
        extra = float(e)
    return float(base) + extra, ""  # type: ignore[arg-type]


def step_cost(a: str, b: str, *, entry_cost: EntryCost = 1.0,
              hexside_rule: "HexsideRule | None" = None, road_cost: "float | None" = None,
              road_hexsides: Iterable["Hexside | tuple[str, str]"] = (),
              road_hexes: Collection[str] = (), blocked: Collection[str] = ()) -> "float | None":
    """Cost of a single step ``a -> b`` under the rules above (None = not allowed)."""
    rules = _make_rules(entry_cost, hexside_rule, road_cost, road_hexsides, road_hexes, blocked)
    return _step(rules, a, b)[0]


@dataclass
class Reachable:
    """Result of :func:`reachable`.

    ``cost`` maps every reached hex to its cheapest cost; ``endable`` excludes pass-through-only
    hexes.  ``cost_array`` / ``mask`` are aligned with ``hexmap.labels`` for the client's
    movement-range highlight (``inf`` / False where unreachable).
    """

    hexmap: HexMap
    start: tuple[str, ...]
    cost: dict[str, float]
    parent: dict[str, "str | None"]
    endable: set[str]
    cost_array: NDArray[np.float64] = field(repr=False)

    @property
    def mask(self) -> NDArray[np.bool_]:
        """Boolean array (map order) of hexes where the move may end."""
        m = np.zeros(len(self.hexmap), dtype=bool)
        for h in self.endable:
            m[self.hexmap.index[h]] = True
        return m

    def path_to(self, label: str) -> list[str]:
        """Cheapest path from the start to ``label`` (both included).

        ``ValueError`` if ``label`` was not reached within the budget.
        """
        if label not in self.cost:
            raise ValueError(f"hex {label} cannot be reached within the movement allowance")
        out = [label]
        while (p := self.parent[out[-1]]) is not None:
            out.append(p)
        return out[::-1]

    def __contains__(self, label: object) -> bool:
        return label in self.cost


def reachable(
    hexmap: HexMap,
    start: "str | Iterable[str]",
    *,
    entry_cost: EntryCost = 1.0,
    hexside_rule: "HexsideRule | None" = None,
    road_cost: "float | None" = None,
    road_hexsides: Iterable["Hexside | tuple[str, str]"] = (),
    road_hexes: Collection[str] = (),
    blocked: Collection[str] = (),
    no_stop: Collection[str] = (),
    budget: float = math.inf,
) -> Reachable:
    """Dijkstra from ``start`` (one hex or several) over ``hexmap`` within ``budget``.

    ``blocked`` hexes cannot be entered at all; ``no_stop`` hexes can be passed through but are
    left out of :attr:`Reachable.endable` (e.g. cavalry through road towers).  Ties are broken by
    insertion order, so results are deterministic.

    >>> g = HexGrid.dragon_rage()
    >>> m = HexMap(g, g.all_labels(4, 4))
    >>> wall = {frozenset(("0101", "0201"))}
    >>> rule = lambda a, b: None if frozenset((a, b)) in wall else 0
    >>> reachable(m, "0101", hexside_rule=rule, budget=1).endable == {"0101", "0102"}
    True
    """
    starts = (start,) if isinstance(start, str) else tuple(start)
    for s in starts:
        if s not in hexmap:
            raise ValueError(f"start hex {s} is not on the map")
    rules = _make_rules(entry_cost, hexside_rule, road_cost, road_hexsides, road_hexes, blocked)
    cost: dict[str, float] = {}
    parent: dict[str, "str | None"] = {}
    heap: list[tuple[float, int, str, "str | None"]] = []
    counter = 0
    for s in starts:
        heap.append((0.0, counter, s, None))
        counter += 1
    heapq.heapify(heap)
    labels, nbr, index = hexmap.labels, hexmap.nbr, hexmap.index
    while heap:
        c, _, h, p = heapq.heappop(heap)
        if h in cost:
            continue
        cost[h] = c
        parent[h] = p
        for j in nbr[index[h]]:
            if j < 0:
                continue
            nb = labels[j]
            if nb in cost:
                continue
            sc, _ = _step(rules, h, nb)
            if sc is None:
                continue
            nc = c + sc
            if nc <= budget + 1e-9:
                heapq.heappush(heap, (nc, counter, nb, h))
                counter += 1
    arr = np.full(len(hexmap), np.inf)
    for h, c in cost.items():
        arr[index[h]] = c
    no = set(no_stop)
    endable = {h for h in cost if h not in no}
    return Reachable(hexmap, starts, cost, parent, endable, arr)


def path_cost(
    path: Sequence[str],
    *,
    hexmap: "HexMap | None" = None,
    entry_cost: EntryCost = 1.0,
    hexside_rule: "HexsideRule | None" = None,
    road_cost: "float | None" = None,
    road_hexsides: Iterable["Hexside | tuple[str, str]"] = (),
    road_hexes: Collection[str] = (),
    blocked: Collection[str] = (),
    grid: "HexGrid | None" = None,
) -> tuple["float | None", str]:
    """Cost of a player-given path, or ``(None, reason)`` when a step is illegal.

    >>> path_cost(["0101", "0102", "0103"], entry_cost={"0103": 2})
    (3.0, '')
    >>> path_cost(["0101", "0103"])
    (None, 'hexes 0101 and 0103 are not adjacent')
    """
    g = grid or (hexmap.grid if hexmap is not None else HexGrid.dragon_rage())
    rules = _make_rules(entry_cost, hexside_rule, road_cost, road_hexsides, road_hexes, blocked)
    total = 0.0
    for a, b in zip(path, path[1:]):
        if hexmap is not None and b not in hexmap:
            return None, f"hex {b} is not on the map"
        if not g.adjacent(a, b):
            return None, f"hexes {a} and {b} are not adjacent"
        c, why = _step(rules, a, b)
        if c is None:
            return None, why
        total += c
    return total, ""


# ------------------------------------------------------------------ movement with a facing
FacingStep = Callable[[str, int, str, int], "float | None"]
FacingTurn = Callable[[str, int, int], "float | None"]


@dataclass
class FacingReachable:
    """Result of :func:`reachable_with_facing`: a search over (hex, facing) states.

    ``state_cost`` maps every reached ``(hex, facing)`` to its cheapest cost; ``cost`` is the
    cheapest cost per hex whatever the facing; ``endable`` leaves out ``no_stop`` hexes.
    """

    hexmap: HexMap
    start: tuple[str, int]
    state_cost: dict[tuple[str, int], float]
    parent: dict[tuple[str, int], "tuple[str, int] | None"]
    cost: dict[str, float]
    endable: set[str]

    def best_facing(self, label: str) -> int:
        """The facing reached most cheaply in ``label`` (lowest index on ties)."""
        if label not in self.cost:
            raise ValueError(f"hex {label} cannot be reached within the movement allowance")
        return min(f for (h, f), c in self.state_cost.items() if h == label and c == self.cost[label])

    def states_to(self, label: str, facing: "int | None" = None) -> list[tuple[str, int]]:
        """Cheapest chain of (hex, facing) states from the start to ``label`` (both included);
        in-place turns appear as consecutive states on one hex."""
        end = (label, self.best_facing(label) if facing is None else facing)
        if end not in self.state_cost:
            raise ValueError(f"hex {label} facing {facing} cannot be reached within the allowance")
        out = [end]
        while (p := self.parent[out[-1]]) is not None:
            out.append(p)
        return out[::-1]

    def path_to(self, label: str, facing: "int | None" = None) -> list[str]:
        """The hexes entered on the cheapest way to ``label``, start first (turns dropped)."""
        hexes: list[str] = []
        for h, _ in self.states_to(label, facing):
            if not hexes or hexes[-1] != h:
                hexes.append(h)
        return hexes

    def __contains__(self, label: object) -> bool:
        return label in self.cost


def reachable_with_facing(
    hexmap: HexMap,
    start: str,
    facing: int,
    *,
    step: FacingStep,
    turn: "FacingTurn | None" = None,
    blocked: Collection[str] = (),
    no_stop: Collection[str] = (),
    budget: float = math.inf,
) -> FacingReachable:
    """Dijkstra over (hex, facing) for pieces whose costs depend on the way they face.

    ``step(a, facing, b, direction)`` is the cost of moving from ``a`` (facing ``facing``) into
    the neighbour ``b`` lying in ``direction``; afterwards the piece faces ``direction``.
    ``None`` (or ``inf``) forbids the step. ``turn(hex, facing, new_facing)`` is the cost of
    turning one 60-degree step in place (new_facing = facing +/- 1 mod 6); without it pieces
    never turn in place. ``blocked`` hexes are never entered; ``no_stop`` hexes may be passed
    through but are left out of :attr:`FacingReachable.endable`.

    >>> from simulator.geometry.hexgrid import HexGrid
    >>> g = HexGrid.dragon_rage()
    >>> m = HexMap(g, g.all_labels(5, 5))
    >>> ahead_free = lambda a, f, b, d: 1 + max(0, min((d - f) % 6, (f - d) % 6) - 1)
    >>> r = reachable_with_facing(m, "0303", 3, step=ahead_free, budget=1)
    >>> sorted(r.endable)   # facing S: S, SE and SW cost 1, the rest 2 or more
    ['0203', '0303', '0304', '0403']
    """
    if start not in hexmap:
        raise ValueError(f"start hex {start} is not on the map")
    block = frozenset(blocked)
    origin = (start, facing % 6)
    state_cost: dict[tuple[str, int], float] = {}
    parent: dict[tuple[str, int], "tuple[str, int] | None"] = {}
    heap: list[tuple[float, int, tuple[str, int], "tuple[str, int] | None"]] = [(0.0, 0, origin, None)]
    counter = 1
    labels, nbr, index = hexmap.labels, hexmap.nbr, hexmap.index
    while heap:
        c, _, st, p = heapq.heappop(heap)
        if st in state_cost:
            continue
        state_cost[st] = c
        parent[st] = p
        h, f = st
        moves: list[tuple[float, tuple[str, int]]] = []
        for d, j in enumerate(nbr[index[h]]):
            if j < 0:
                continue
            nb = labels[j]
            if nb in block or (nb, d) in state_cost:
                continue
            sc = step(h, f, nb, d)
            if sc is not None and not math.isinf(sc):
                moves.append((float(sc), (nb, d)))
        if turn is not None:
            for nf in ((f + 1) % 6, (f + 5) % 6):
                if (h, nf) in state_cost:
                    continue
                tc = turn(h, f, nf)
                if tc is not None and not math.isinf(tc):
                    moves.append((float(tc), (h, nf)))
        for sc, nxt in moves:
            nc = c + sc
            if nc <= budget + 1e-9:
                heapq.heappush(heap, (nc, counter, nxt, st))
                counter += 1
    cost: dict[str, float] = {}
    for (h, _), c in state_cost.items():
        if h not in cost or c < cost[h]:
            cost[h] = c
    no = set(no_stop)
    endable = {h for h in cost if h not in no}
    return FacingReachable(hexmap, origin, state_cost, parent, cost, endable)
