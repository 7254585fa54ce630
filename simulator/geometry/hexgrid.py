"""Hex grids: labels, offset/cube/pixel conversions, directions, distances, hexsides, hex lines.

Conventions
-----------
* **Labels** are the games' printed hex numbers: ``label_digits`` digits of column followed by
  ``label_digits`` digits of row (Dragon Rage ``"0709"`` = column 7, row 9).  Columns increase to
  the east (screen +x), rows increase to the south (screen +y).
* **Offset parity** (``even-q`` etc.) refers to the *printed* column/row numbers: in ``even-q``
  the even-numbered columns are shifted half a hex south (Dragon Rage rule digest section 2.1).
  ``odd-q`` shifts odd-numbered columns; ``even-r``/``odd-r`` shift rows half a hex east
  (pointy-topped grids).
* **Cube coordinates** ``(q, r, s)`` with ``q + r + s == 0`` are used inside; the hex labelled
  ``(first_col, first_row)`` is the cube origin ``(0, 0, 0)``.  Arrays of cubes have shape
  ``(..., 3)`` and dtype ``int64``.
* **Pixel space**: ``size`` is the hex circumradius (centre to corner); y grows downwards (south).
  The hex ``(first_col, first_row)`` of an unshifted column/row is at ``(0, 0)``; shifted ones
  get the half-hex offset, so drawing needs only a margin.
* **Directions** are named as the games name them and indexed clockwise (on screen):
  flat ``N NE SE S SW NW`` (0..5), pointy ``NE E SE SW W NW`` (0..5).  A facing is such an index.

>>> g = HexGrid.dragon_rage()
>>> g.neighbour("0606", "SE"), g.neighbour("2113", "NE")
('0707', '2212')
>>> g.distance("0101", "0404")
5
>>> str(Hexside.between("0707", "0606", g))
'0606/0707'
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Literal, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "HexGrid",
    "Hexside",
    "HexLine",
    "LineStep",
    "FLAT_DIRECTIONS",
    "POINTY_DIRECTIONS",
    "CUBE_DIRECTIONS",
    "cube_round",
    "cube_distance",
    "cube_rotate",
    "cube_ring",
    "cube_range",
]

Orientation = Literal["flat", "pointy"]
Offset = Literal["even-q", "odd-q", "even-r", "odd-r"]
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
LabelsLike = Union[str, Sequence[str], NDArray[np.str_]]

SQRT3 = float(np.sqrt(3.0))

#: Cube direction vectors of flat-topped grids (N NE SE S SW NW), clockwise on screen (y down).
#: Pointy-topped grids use the same cycle starting one later (NE E SE SW W NW), see
#: :attr:`HexGrid.direction_vectors`.
CUBE_DIRECTIONS: IntArray = np.array(
    [(0, -1, 1), (1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1)], dtype=np.int64
)
_POINTY_VECTORS: IntArray = np.roll(CUBE_DIRECTIONS, -1, axis=0)
FLAT_DIRECTIONS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
POINTY_DIRECTIONS: tuple[str, ...] = ("NE", "E", "SE", "SW", "W", "NW")


# --------------------------------------------------------------------------- cube helpers


def cube_round(frac: ArrayLike) -> IntArray:
    """Round fractional cube coordinates ``(..., 3)`` to the containing hex (vectorised).

    >>> cube_round([[0.4, -0.3, -0.1], [1.6, -0.9, -0.7]]).tolist()
    [[0, 0, 0], [2, -1, -1]]
    """
    f = np.asarray(frac, dtype=np.float64)
    r = np.rint(f)
    d = np.abs(r - f)
    q, rr, s = r[..., 0].copy(), r[..., 1].copy(), r[..., 2].copy()
    dq, dr, ds = d[..., 0], d[..., 1], d[..., 2]
    m1 = (dq > dr) & (dq > ds)
    m2 = ~m1 & (dr > ds)
    m3 = ~m1 & ~m2
    q[m1] = -rr[m1] - s[m1]
    rr[m2] = -q[m2] - s[m2]
    s[m3] = -q[m3] - rr[m3]
    return np.stack([q, rr, s], axis=-1).astype(np.int64)


def cube_distance(a: ArrayLike, b: ArrayLike) -> IntArray:
    """Hex distance between cube arrays (broadcasting).

    >>> int(cube_distance([0, 0, 0], [2, -1, -1]))
    2
    """
    d = np.abs(np.asarray(a, dtype=np.int64) - np.asarray(b, dtype=np.int64))
    return d.max(axis=-1)


def cube_rotate(cubes: ArrayLike, steps: int, centre: ArrayLike = (0, 0, 0)) -> IntArray:
    """Rotate cube coordinates by ``steps`` x 60 degrees clockwise (on screen) about ``centre``.

    >>> cube_rotate([0, -1, 1], 1).tolist()   # N -> NE
    [1, -1, 0]
    >>> cube_rotate([[0, -1, 1]], 6).tolist()
    [[0, -1, 1]]
    """
    c = np.asarray(centre, dtype=np.int64)
    v = np.asarray(cubes, dtype=np.int64) - c
    k = steps % 6
    for _ in range(k):
        v = np.stack([-v[..., 1], -v[..., 2], -v[..., 0]], axis=-1)
    return v + c


def cube_ring(centre: ArrayLike, radius: int) -> IntArray:
    """Cubes at exactly ``radius`` from ``centre`` (``(6*radius, 3)``, or the centre for 0).

    >>> cube_ring([0, 0, 0], 1).shape
    (6, 3)
    """
    c = np.asarray(centre, dtype=np.int64)
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return c.reshape(1, 3).copy()
    out = []
    # start at centre + radius * SW (index 4), walk the 6 sides
    cur = c + CUBE_DIRECTIONS[4] * radius
    for side in range(6):
        d = CUBE_DIRECTIONS[side]
        for _ in range(radius):
            out.append(cur.copy())
            cur = cur + d
    return np.array(out, dtype=np.int64)


def cube_range(centre: ArrayLike, radius: int) -> IntArray:
    """All cubes within ``radius`` of ``centre`` (vectorised construction).

    >>> len(cube_range([0, 0, 0], 2))
    19
    """
    c = np.asarray(centre, dtype=np.int64)
    n = np.arange(-radius, radius + 1)
    q, r = np.meshgrid(n, n, indexing="ij")
    q, r = q.ravel(), r.ravel()
    s = -q - r
    keep = np.abs(s) <= radius
    return np.stack([q[keep], r[keep], s[keep]], axis=-1) + c


# --------------------------------------------------------------------------- the grid


@dataclass(frozen=True)
class HexGrid:
    """A labelled hex grid.

    >>> g = HexGrid.dragon_rage()
    >>> g.parse("1413")
    (14, 13)
    >>> g.label(7, 9)
    '0709'
    >>> g.neighbours("1410")["NW"]
    '1310'
    """

    orientation: Orientation = "flat"
    offset: Offset = "even-q"
    label_digits: int = 2
    first_col: int = 1
    first_row: int = 1

    def __post_init__(self) -> None:
        if self.orientation not in ("flat", "pointy"):
            raise ValueError(f"orientation must be 'flat' or 'pointy', got {self.orientation!r}")
        if self.offset not in ("even-q", "odd-q", "even-r", "odd-r"):
            raise ValueError(f"offset must be even-q/odd-q/even-r/odd-r, got {self.offset!r}")
        if (self.orientation == "flat") != self.offset.endswith("q"):
            raise ValueError(
                f"offset {self.offset!r} does not fit a {self.orientation}-topped grid "
                "(flat uses even-q/odd-q, pointy uses even-r/odd-r)"
            )
        if self.label_digits < 1:
            raise ValueError("label_digits must be >= 1")

    # ---------------------------------------------------------------- constructors
    @classmethod
    def dragon_rage(cls) -> "HexGrid":
        """Flat-topped, even-q, CCRR labels, 1-based (``0101`` top-left)."""
        return _DR_GRID

    # ---------------------------------------------------------------- directions
    @property
    def directions(self) -> tuple[str, ...]:
        """Direction names in index order (clockwise)."""
        return FLAT_DIRECTIONS if self.orientation == "flat" else POINTY_DIRECTIONS

    @property
    def direction_vectors(self) -> IntArray:
        """Cube vectors ``(6, 3)`` of :attr:`directions`, in the same order."""
        return CUBE_DIRECTIONS if self.orientation == "flat" else _POINTY_VECTORS

    def direction_index(self, direction: str | int) -> int:
        """Index 0..5 of a direction name (or validate an int).

        >>> HexGrid.dragon_rage().direction_index("SE")
        2
        """
        if isinstance(direction, (int, np.integer)):
            return int(direction) % 6
        try:
            return self.directions.index(direction.upper())
        except ValueError:
            raise ValueError(
                f"unknown direction {direction!r} for a {self.orientation}-topped grid; "
                f"expected one of {', '.join(self.directions)}"
            ) from None

    # ---------------------------------------------------------------- labels
    @property
    def _max_label(self) -> int:
        return 10**self.label_digits

    def label(self, col: int, row: int) -> str:
        """Format a printed column/row pair as a label.

        >>> HexGrid.dragon_rage().label(14, 13)
        '1413'
        """
        if not (0 <= col < self._max_label and 0 <= row < self._max_label):
            raise ValueError(
                f"column {col} / row {row} cannot be written with {self.label_digits} digits each"
            )
        d = self.label_digits
        return f"{col:0{d}d}{row:0{d}d}"

    def parse(self, label: str) -> tuple[int, int]:
        """Parse a label into its printed ``(col, row)``; ``ValueError`` on a bad label.

        >>> HexGrid.dragon_rage().parse("0709")
        (7, 9)
        >>> HexGrid.dragon_rage().parse("79")
        Traceback (most recent call last):
        ...
        ValueError: bad hex label '79': expected 4 digits (2 for the column, then 2 for the row), e.g. '0709'
        """
        d = self.label_digits
        if not isinstance(label, str) or len(label) != 2 * d or not label.isdigit() or not label.isascii():
            ex = self.label(7, 9) if d >= 1 else ""
            raise ValueError(
                f"bad hex label {label!r}: expected {2 * d} digits ({d} for the column, then {d} "
                f"for the row), e.g. {ex!r}"
            )
        return int(label[:d]), int(label[d:])

    def is_label(self, label: object) -> bool:
        """True when ``label`` is a well-formed label string."""
        try:
            self.parse(label)  # type: ignore[arg-type]
        except ValueError:
            return False
        return True

    def labels_to_offsets(self, labels: LabelsLike) -> IntArray:
        """Labels -> printed ``(col, row)`` array ``(n, 2)`` (vectorised, validated).

        >>> HexGrid.dragon_rage().labels_to_offsets(["0101", "2516"]).tolist()
        [[1, 1], [25, 16]]
        """
        if isinstance(labels, str):
            labels = [labels]
        arr = np.asarray(labels)
        if arr.size == 0:
            return np.zeros((0, 2), dtype=np.int64)
        d = self.label_digits
        if arr.dtype.kind != "U" or arr.dtype.itemsize // 4 != 2 * d:
            # slow path gives the exact error message for the first bad label
            return np.array([self.parse(str(x)) for x in arr.ravel()], dtype=np.int64)
        flat = np.ascontiguousarray(arr.ravel())
        codes = flat.view(np.uint32).reshape(-1, 2 * d).astype(np.int64) - 48
        bad = ((codes < 0) | (codes > 9)).any(axis=1)
        if bad.any():
            self.parse(str(flat[np.argmax(bad)]))  # raises with a clear message
        w = 10 ** np.arange(d - 1, -1, -1, dtype=np.int64)
        return np.stack([codes[:, :d] @ w, codes[:, d:] @ w], axis=-1)

    def offsets_to_labels(self, offsets: ArrayLike) -> list[str]:
        """Printed ``(col, row)`` array -> list of labels.

        >>> HexGrid.dragon_rage().offsets_to_labels([[7, 9]])
        ['0709']
        """
        o = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        if ((o < 0) | (o >= self._max_label)).any():
            bad = o[((o < 0) | (o >= self._max_label)).any(axis=1)][0]
            self.label(int(bad[0]), int(bad[1]))
        d = self.label_digits
        return [f"{c:0{d}d}{r:0{d}d}" for c, r in o.tolist()]

    # ---------------------------------------------------------------- offset <-> cube
    def _shifted(self, n: IntArray) -> IntArray:
        """1 where the printed column (q-grids) / row (r-grids) number is a shifted one."""
        want = 0 if self.offset.startswith("even") else 1
        return (np.mod(n, 2) == want).astype(np.int64)

    @property
    def _shift0(self) -> int:
        first = self.first_col if self.offset.endswith("q") else self.first_row
        return int(self._shifted(np.array(first)))

    def offsets_to_cube(self, offsets: ArrayLike) -> IntArray:
        """Printed ``(col, row)`` array ``(..., 2)`` -> cube ``(..., 3)``.

        >>> HexGrid.dragon_rage().offsets_to_cube([[1, 1], [2, 1], [3, 1]]).tolist()
        [[0, 0, 0], [1, 0, -1], [2, -1, -1]]
        """
        o = np.asarray(offsets, dtype=np.int64)
        col, row = o[..., 0], o[..., 1]
        c0, r0 = col - self.first_col, row - self.first_row
        if self.offset.endswith("q"):
            q = c0
            r = r0 + (self._shifted(col) - self._shift0 - q) // 2
        else:
            r = r0
            q = c0 + (self._shifted(row) - self._shift0 - r) // 2
        return np.stack([q, r, -q - r], axis=-1)

    def cube_to_offsets(self, cubes: ArrayLike) -> IntArray:
        """Cube ``(..., 3)`` -> printed ``(col, row)`` ``(..., 2)``.

        >>> HexGrid.dragon_rage().cube_to_offsets([[2, -1, -1]]).tolist()
        [[3, 1]]
        """
        c = np.asarray(cubes, dtype=np.int64)
        q, r = c[..., 0], c[..., 1]
        if self.offset.endswith("q"):
            col = q + self.first_col
            row = r - (self._shifted(col) - self._shift0 - q) // 2 + self.first_row
        else:
            row = r + self.first_row
            col = q - (self._shifted(row) - self._shift0 - r) // 2 + self.first_col
        return np.stack([col, row], axis=-1)

    def labels_to_cube(self, labels: LabelsLike) -> IntArray:
        """Labels -> cube array ``(n, 3)``.

        >>> HexGrid.dragon_rage().labels_to_cube(["0101", "0201"]).tolist()
        [[0, 0, 0], [1, 0, -1]]
        """
        return self.offsets_to_cube(self.labels_to_offsets(labels))

    def cube_to_labels(self, cubes: ArrayLike) -> list[str]:
        """Cube array -> labels (``ValueError`` if a hex has no label, e.g. negative column)."""
        return self.offsets_to_labels(self.cube_to_offsets(np.asarray(cubes).reshape(-1, 3)))

    def cube(self, label: str) -> tuple[int, int, int]:
        """Scalar label -> cube tuple.

        >>> HexGrid.dragon_rage().cube("0201")
        (1, 0, -1)
        """
        return _label_cube(self, label)

    def from_cube(self, cube: Sequence[int]) -> str:
        """Scalar cube -> label."""
        col, row = self.cube_to_offsets(np.asarray(cube, dtype=np.int64)).tolist()
        return self.label(col, row)

    def labelable(self, cubes: ArrayLike) -> NDArray[np.bool_]:
        """Mask of cubes whose printed column and row fit the label format (>= 0)."""
        o = self.cube_to_offsets(cubes)
        return ((o >= 0) & (o < self._max_label)).all(axis=-1)

    def all_labels(self, n_cols: int, n_rows: int) -> list[str]:
        """Every label of a rectangular map of ``n_cols`` x ``n_rows`` hexes, column-major.

        >>> HexGrid.dragon_rage().all_labels(2, 2)
        ['0101', '0102', '0201', '0202']
        """
        return [
            self.label(c, r)
            for c in range(self.first_col, self.first_col + n_cols)
            for r in range(self.first_row, self.first_row + n_rows)
        ]

    # ---------------------------------------------------------------- pixels
    def _as_cubes(self, cube_or_labels: Union[LabelsLike, ArrayLike]) -> IntArray:
        if isinstance(cube_or_labels, str):
            return self.labels_to_cube([cube_or_labels])
        arr = np.asarray(cube_or_labels)
        if arr.dtype.kind in "US":
            return self.labels_to_cube(arr.astype(str))
        if arr.dtype == object:
            return self.labels_to_cube([str(x) for x in arr.ravel()])
        return arr.astype(np.int64)

    def to_pixel(
        self,
        cube_or_labels: Union[LabelsLike, ArrayLike],
        size: float = 1.0,
        origin: tuple[float, float] = (0.0, 0.0),
    ) -> FloatArray:
        """Hex centres in pixel space ``(..., 2)`` from cubes ``(..., 3)`` or labels.

        >>> g = HexGrid.dragon_rage()
        >>> g.to_pixel(["0101", "0201"], size=2.0).round(3).tolist()
        [[0.0, 0.0], [3.0, 1.732]]
        """
        c = self._as_cubes(cube_or_labels).astype(np.float64)
        q, r = c[..., 0], c[..., 1]
        half = self._shift0 * 0.5
        if self.orientation == "flat":
            x = 1.5 * q
            y = SQRT3 * (r + q / 2.0 + half)
        else:
            x = SQRT3 * (q + r / 2.0 + half)
            y = 1.5 * r
        return np.stack([x * size + origin[0], y * size + origin[1]], axis=-1)

    def pixel_to_cube_frac(
        self, xy: ArrayLike, size: float = 1.0, origin: tuple[float, float] = (0.0, 0.0)
    ) -> FloatArray:
        """Inverse of :meth:`to_pixel` without rounding (fractional cube coordinates)."""
        p = np.asarray(xy, dtype=np.float64)
        x = (p[..., 0] - origin[0]) / size
        y = (p[..., 1] - origin[1]) / size
        half = self._shift0 * 0.5
        if self.orientation == "flat":
            q = x / 1.5
            r = y / SQRT3 - q / 2.0 - half
        else:
            r = y / 1.5
            q = x / SQRT3 - r / 2.0 - half
        return np.stack([q, r, -q - r], axis=-1)

    def pixel_to_hex(
        self, xy: ArrayLike, size: float = 1.0, origin: tuple[float, float] = (0.0, 0.0)
    ) -> IntArray:
        """Pixel positions ``(..., 2)`` -> cube of the hex containing each (vectorised).

        >>> g = HexGrid.dragon_rage()
        >>> g.cube_to_labels(g.pixel_to_hex([[3.1, 1.6]], size=2.0))
        ['0201']
        """
        return cube_round(self.pixel_to_cube_frac(xy, size, origin))

    def pixel_to_label(self, xy: Sequence[float], size: float = 1.0,
                       origin: tuple[float, float] = (0.0, 0.0)) -> str:
        """Scalar pixel -> label of the hex under it."""
        return self.from_cube(self.pixel_to_hex(np.asarray(xy, dtype=np.float64), size, origin))

    def corner_offsets(self, size: float = 1.0) -> FloatArray:
        """The 6 corner offsets ``(6, 2)`` of a hex about its centre, clockwise on screen.

        Flat: corner 0 is east (angle 0); pointy: corner 0 is at -30 degrees (upper right).
        """
        start = 0.0 if self.orientation == "flat" else -30.0
        ang = np.radians(start + 60.0 * np.arange(6))
        return np.stack([np.cos(ang), np.sin(ang)], axis=-1) * size

    def polygons(self, cube_or_labels: Union[LabelsLike, ArrayLike], size: float = 1.0,
                 origin: tuple[float, float] = (0.0, 0.0)) -> FloatArray:
        """Hexagon corner arrays ``(n, 6, 2)`` for drawing or geometric LOS (towers)."""
        c = self.to_pixel(cube_or_labels, size, origin).reshape(-1, 2)
        return c[:, None, :] + self.corner_offsets(size)[None, :, :]

    # ---------------------------------------------------------------- neighbours & distance
    def neighbour(self, label: str, direction: str | int) -> str:
        """The adjacent hex in a direction.

        >>> g = HexGrid.dragon_rage()
        >>> [g.neighbour("0815", "NE"), g.neighbour("0915", "NE"), g.neighbour("1014", "SE")]
        ['0915', '1014', '1115']
        """
        c = np.array(self.cube(label)) + self.direction_vectors[self.direction_index(direction)]
        return self.from_cube(c)

    def neighbours(self, label: str) -> dict[str, str]:
        """All labellable neighbours, keyed by direction name (map bounds are the caller's).

        >>> HexGrid.dragon_rage().neighbours("1410")["SE"]
        '1511'
        """
        c = np.array(self.cube(label)) + self.direction_vectors
        ok = self.labelable(c)
        labs = self.offsets_to_labels(self.cube_to_offsets(c[ok]))
        names = [n for n, k in zip(self.directions, ok) if k]
        return dict(zip(names, labs))

    def direction_between(self, a: str, b: str) -> str | None:
        """Direction name from ``a`` to adjacent ``b``; None if they are not adjacent.

        >>> HexGrid.dragon_rage().direction_between("0109", "0208")
        'NE'
        """
        d = np.array(self.cube(b)) - np.array(self.cube(a))
        hit = np.nonzero((self.direction_vectors == d).all(axis=1))[0]
        return self.directions[int(hit[0])] if len(hit) else None

    def adjacent(self, a: str, b: str) -> bool:
        """True when the two hexes share a hexside."""
        return self.direction_between(a, b) is not None

    def distance(self, a: str, b: str) -> int:
        """Hex distance (minimum number of steps).

        >>> HexGrid.dragon_rage().distance("0606", "0707")
        1
        """
        return int(cube_distance(self.cube(a), self.cube(b)))

    def distances(self, cubes_a: ArrayLike, cubes_b: ArrayLike) -> IntArray:
        """Vectorised hex distance with numpy broadcasting over cube arrays.

        For a full matrix pass ``A[:, None, :]`` and ``B[None, :, :]``.

        >>> g = HexGrid.dragon_rage()
        >>> A = g.labels_to_cube(["0101", "0303"])
        >>> g.distances(A[:, None], A[None, :]).tolist()
        [[0, 3], [3, 0]]
        """
        return cube_distance(cubes_a, cubes_b)

    def ring(self, label: str, r: int) -> list[str]:
        """Labels at exactly distance ``r`` (unlabellable hexes off the top/left omitted).

        >>> len(HexGrid.dragon_rage().ring("1010", 2))
        12
        """
        c = cube_ring(self.cube(label), r)
        return self.cube_to_labels(c[self.labelable(c)])

    def hex_range(self, label: str, r: int) -> list[str]:
        """Labels within distance ``r`` including the centre (unlabellable omitted).

        >>> len(HexGrid.dragon_rage().hex_range("1010", 1))
        7
        """
        c = cube_range(self.cube(label), r)
        return self.cube_to_labels(c[self.labelable(c)])

    # ---------------------------------------------------------------- hexsides
    def hexside(self, a: str, b: str) -> "Hexside":
        """The :class:`Hexside` between two adjacent hexes (``ValueError`` otherwise)."""
        return Hexside.between(a, b, self)

    def hexside_in_direction(self, label: str, direction: str | int) -> "Hexside":
        """The hexside of ``label`` facing ``direction``."""
        return Hexside.between(label, self.neighbour(label, direction), self)

    def hexsides_of(self, label: str) -> dict[str, "Hexside"]:
        """The (up to) six hexsides of a hex keyed by direction."""
        return {d: Hexside.between(label, n, self) for d, n in self.neighbours(label).items()}

    def hexside_segments(self, sides: Iterable["Hexside"], size: float = 1.0,
                         origin: tuple[float, float] = (0.0, 0.0)) -> FloatArray:
        """Endpoints ``(n, 2, 2)`` of hexsides in pixel space (walls to draw / for geometric LOS).

        >>> g = HexGrid.dragon_rage()
        >>> seg = g.hexside_segments([Hexside.between("0101", "0102", g)], size=1.0)
        >>> seg.round(3).tolist()
        [[[0.5, 0.866], [-0.5, 0.866]]]
        """
        sides = list(sides)
        if not sides:
            return np.zeros((0, 2, 2))
        a = self.to_pixel([s.hexes[0] for s in sides], size, origin)
        b = self.to_pixel([s.hexes[1] for s in sides], size, origin)
        m = (a + b) / 2.0
        d = b - a
        perp = np.stack([-d[:, 1], d[:, 0]], axis=-1)
        perp /= np.linalg.norm(perp, axis=-1, keepdims=True)
        half = perp * (size / 2.0)
        return np.stack([m - half, m + half], axis=1)

    def hexside_endpoints(self, side: "Hexside", size: float = 1.0,
                          origin: tuple[float, float] = (0.0, 0.0)
                          ) -> tuple[tuple[float, float], tuple[float, float]]:
        """Scalar form of :meth:`hexside_segments`."""
        s = self.hexside_segments([side], size, origin)[0]
        return (float(s[0, 0]), float(s[0, 1])), (float(s[1, 0]), float(s[1, 1]))

    # ---------------------------------------------------------------- lines
    def hex_line(self, a: str, b: str) -> "HexLine":
        """Hexes crossed by the straight centre-to-centre line from ``a`` to ``b``.

        See :class:`HexLine`.  Exact: computed with integer arithmetic on the line nudged
        infinitesimally to each side (cached per cube difference); where the two nudged walks
        differ the step is reported as ambiguous with both alternatives.

        >>> g = HexGrid.dragon_rage()
        >>> g.hex_line("0101", "0103").labels()
        ['0101', '0102', '0103']
        >>> ln = g.hex_line("0101", "0301")   # runs along the hexside 0200/0201
        >>> [(s.kind, s.hexes) for s in ln.steps]
        [('hex', ('0101',)), ('hexside', ('0200', '0201')), ('hex', ('0301',))]
        """
        col_a, row_a = self.parse(a)
        col_b, row_b = self.parse(b)
        qa, ra = self._line_cube(col_a, row_a)
        qb, rb = self._line_cube(col_b, row_b)
        d = (qb - qa, rb - ra, (qa + ra) - (qb + rb))
        rels, plan, left, right = _line_plan(self, d)
        rel = rels[(col_a if self.offset.endswith("q") else row_a) % 2]
        # labels of every hex, in the order the original code formatted them (so the first
        # unlabellable hex raises the same ValueError)
        top = self._max_label
        dg = self.label_digits
        labs = []
        for k in range(0, len(rel), 2):
            c, r = col_a + rel[k], row_a + rel[k + 1]
            if not (0 <= c < top and 0 <= r < top):
                self.label(c, r)  # raises
            labs.append(f"{c:0{dg}d}{r:0{dg}d}")
        steps = []
        for e in plan:
            if e.__class__ is int:
                h = (labs[e],)
                steps.append(LineStep("hex", h, False, h, h))
            else:
                kind, li, ri = e
                ll, rl = tuple([labs[i] for i in li]), tuple([labs[i] for i in ri])
                steps.append(LineStep(kind, tuple(sorted(set(ll) | set(rl))), True, ll, rl))
        return HexLine(a, b, tuple(steps), tuple([labs[i] for i in left]),
                       tuple([labs[i] for i in right]))

    def _line_cube(self, col: int, row: int) -> tuple[int, int]:
        """``(q, r)`` of a printed ``(col, row)`` in pure Python (same as :meth:`offsets_to_cube`)."""
        want = 0 if self.offset.startswith("even") else 1
        if self.offset.endswith("q"):
            shift0 = 1 if self.first_col % 2 == want else 0
            q = col - self.first_col
            return q, row - self.first_row + ((1 if col % 2 == want else 0) - shift0 - q) // 2
        shift0 = 1 if self.first_row % 2 == want else 0
        r = row - self.first_row
        return col - self.first_col + ((1 if row % 2 == want else 0) - shift0 - r) // 2, r


_DR_GRID = HexGrid("flat", "even-q", 2, 1, 1)


# --------------------------------------------------------------------------- hexsides


@dataclass(frozen=True, order=True)
class Hexside:
    """The side shared by two adjacent hexes; order-independent, hashable.

    ``hexes`` is the sorted pair of labels; ``str()`` gives ``"0606/0707"``.

    >>> g = HexGrid.dragon_rage()
    >>> Hexside.between("0707", "0606", g) == Hexside.between("0606", "0707", g)
    True
    >>> Hexside.parse("0606/0707", g).hexes
    ('0606', '0707')
    >>> Hexside.between("0101", "0303", g)
    Traceback (most recent call last):
    ...
    ValueError: hexes 0101 and 0303 are not adjacent, so they share no hexside
    """

    hexes: tuple[str, str]

    @classmethod
    def between(cls, a: str, b: str, grid: HexGrid | None = None) -> "Hexside":
        """Validated hexside between adjacent ``a`` and ``b`` (grid defaults to Dragon Rage's)."""
        g = grid if grid is not None else _DR_GRID
        if not g.adjacent(a, b):
            raise ValueError(f"hexes {a} and {b} are not adjacent, so they share no hexside")
        return cls(tuple(sorted((a, b))))  # type: ignore[arg-type]

    @classmethod
    def parse(cls, text: str, grid: HexGrid | None = None) -> "Hexside":
        """Parse ``"AAAA/BBBB"`` (also accepts ``-`` as separator)."""
        parts = text.replace("-", "/").split("/")
        if len(parts) != 2:
            raise ValueError(f"bad hexside {text!r}: expected two labels like '0606/0707'")
        return cls.between(parts[0].strip(), parts[1].strip(), grid)

    def other(self, label: str) -> str:
        """The hex on the other side from ``label``."""
        if label == self.hexes[0]:
            return self.hexes[1]
        if label == self.hexes[1]:
            return self.hexes[0]
        raise ValueError(f"hex {label} is not on hexside {self}")

    def __contains__(self, label: object) -> bool:
        return label in self.hexes

    def __str__(self) -> str:
        return f"{self.hexes[0]}/{self.hexes[1]}"


# --------------------------------------------------------------------------- hex lines


@dataclass(frozen=True)
class LineStep:
    """One step of a :class:`HexLine`.

    * ``kind == "hex"``: the line passes through the interior of the single hex ``hexes[0]``.
    * ``kind == "hexside"``: the line runs exactly along the hexside between the two ``hexes``;
      ``left``/``right`` are the hex the line would cross if nudged to either side.
    * ``kind == "vertex"``: the line passes exactly through a hex corner; nudged one way it
      grazes the hex(es) in one alternative, nudged the other way it touches none (empty tuple).

    ``ambiguous`` is True for ``hexside`` and ``vertex`` steps: the game's rule decides.
    """

    kind: Literal["hex", "hexside", "vertex"]
    hexes: tuple[str, ...]
    ambiguous: bool
    left: tuple[str, ...]
    right: tuple[str, ...]


@dataclass(frozen=True)
class HexLine:
    """Result of :meth:`HexGrid.hex_line`.

    ``steps`` are ordered from ``a`` to ``b`` (first and last are the end hexes).  ``left_path``
    and ``right_path`` are the two complete contiguous walks of the line nudged infinitesimally
    to either side (identical when nothing is ambiguous).  Ambiguity is never resolved silently.
    """

    a: str
    b: str
    steps: tuple[LineStep, ...]
    left_path: tuple[str, ...]
    right_path: tuple[str, ...]

    @property
    def ambiguous(self) -> bool:
        """True if any step is ambiguous."""
        return any(s.ambiguous for s in self.steps)

    def labels(self) -> list[str]:
        """The unambiguous hexes crossed, in order (endpoints included)."""
        return [s.hexes[0] for s in self.steps if s.kind == "hex"]

    def candidates(self) -> list[tuple[str, ...]]:
        """Each step's hexes: 1-tuples for clear steps, candidate tuples for ambiguous ones."""
        return [s.hexes for s in self.steps]

    def all_hexes(self) -> list[str]:
        """Every hex the line touches in any way (union of both walks), ordered."""
        seen: dict[str, None] = {}
        for s in self.steps:
            for h in s.hexes:
                seen.setdefault(h)
        return list(seen)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)


Cube = tuple[int, int, int]


def _walk(d: Cube, sign: int) -> tuple[Cube, ...]:
    """Cells crossed by the segment 0 -> d nudged by sign*eps perpendicular (exact, integers).

    Same walk as :func:`_walk_fraction_reference`, without fractions.  The lines
    ``u_ij = p_i - p_j = m`` (``m`` integer; pairs 01, 12, 20) cut the plane into triangles, each
    one sixth of the hex whose centre is its vertex with ``u_01 = u_20 (mod 3)``.  Along the nudged
    line ``u_ij(t) = t*b + eps*w`` (``b = d_i - d_j``, ``w = n_i - n_j``) crosses ``m`` at
    ``t = m/b - eps*w/b``: the crossings are ordered by ``(m/b, -w/b)`` as integers over a common
    denominator (eps is infinitesimal, so the second key only breaks ties: the line through a
    vertex), and a crossing moves the floor of ``u_ij`` to ``m`` (``b > 0``) or ``m - 1``.  The
    triangle with floors ``(A, B, C)`` belongs to the hex ``((A-C+1)//3, (B-A+1)//3, (C-B+1)//3)``.
    Crossings at ``t = 0`` or ``1`` are skipped: they stay in the end hexes.
    """
    d0, d1, d2 = d
    n = (d1 - d2, d2 - d0, d0 - d1)
    fam = [(d[i] - d[j], sign * (n[i] - n[j])) for i, j in ((0, 1), (1, 2), (2, 0))]
    den = 1
    for b, _ in fam:
        if b:
            den *= abs(b)
    floors = [0 if (b > 0 or (b == 0 and w > 0)) else -1 for b, w in fam]
    cuts: list[tuple[int, int, int, int]] = []
    for k, (b, w) in enumerate(fam):
        if b > 0:
            step = den // b
            tie = -w * step
            cuts += [(m * step, tie, k, m) for m in range(1, b)]
        elif b < 0:
            step = den // b  # negative: m/b = m*step/den with m < 0
            tie = -w * step
            cuts += [(m * step, tie, k, m - 1) for m in range(-1, b, -1)]
    cuts.sort()
    a, b_, c = floors
    last: Cube = (0, 0, 0)
    cells: list[Cube] = [last]
    for _, _, k, f in cuts:
        if k == 0:
            a = f
        elif k == 1:
            b_ = f
        else:
            c = f
        # the triangle's vertex that is a hex centre (the only one with u_01 = u_20 (mod 3))
        cell = ((a - c + 1) // 3, (b_ - a + 1) // 3, (c - b_ + 1) // 3)
        if cell != last:
            cells.append(cell)
            last = cell
    return tuple(cells)


def _walks(d: Cube) -> tuple[tuple[Cube, ...], tuple[Cube, ...]]:
    """The walks of the line 0 -> d nudged to the left and to the right."""
    if d == (0, 0, 0):
        return ((d,), (d,))
    return _walk(d, +1), _walk(d, -1)


LinePlan = tuple[
    tuple[tuple[int, ...], tuple[int, ...]],  # flat (col, row) offsets of each hex, per start parity
    tuple[Union[int, tuple[str, tuple[int, ...], tuple[int, ...]]], ...],  # steps
    tuple[int, ...],  # left path (hex indices)
    tuple[int, ...],  # right path (hex indices)
]


@lru_cache(maxsize=65536)
def _label_cube(grid: HexGrid, label: str) -> tuple[int, int, int]:
    """:meth:`HexGrid.cube`, remembered: evaluations ask for the same hexes' cubes thousands of
    times a decision, and a grid is immutable."""
    c = grid.offsets_to_cube(np.array(grid.parse(label)))
    return int(c[0]), int(c[1]), int(c[2])


@lru_cache(maxsize=16384)
def _line_plan(grid: HexGrid, d: Cube) -> LinePlan:
    """Everything :meth:`HexGrid.hex_line` needs except the start hex (cached per difference).

    Returns ``(rel, steps, left, right)``.  Hex ``k`` is at the printed offset
    ``(rel[p][2k], rel[p][2k+1])`` from a start whose column (q-grids) or row (r-grids) has parity
    ``p``: printed offsets are not translation invariant, but ``offset(start + c) - offset(start)``
    depends only on ``c`` and that parity (moving the start two columns/rows moves every hex of the
    line by the same printed offset).  Hexes are numbered in the order the original code labelled
    them (step by step, left alternative then right), so the first unlabellable hex raises the same
    ``ValueError``.  A step is ``k`` (a plain hex) or ``(kind, left, right)`` (ambiguous).
    """
    left, right = _walks(d)
    aligned = _align(left, right)
    seq: list[Cube] = []
    for _, l_alt, r_alt in aligned:
        seq += l_alt
        seq += r_alt
    index = dict.fromkeys(seq, 0)
    for k, c in enumerate(index):
        index[c] = k
    q_grid = grid.offset.endswith("q")
    want = 0 if grid.offset.startswith("even") else 1
    fc, fr = grid.first_col, grid.first_row
    rels = []
    for par in (0, 1):
        c0, r0 = (par, 0) if q_grid else (0, par)  # a representative start of parity ``par``
        q0, rr0 = grid._line_cube(c0, r0)
        rel: list[int] = []
        for c in index:
            q, r = q0 + c[0], rr0 + c[1]
            if q_grid:
                col = q + fc
                sh = 1 if fc % 2 == want else 0
                row = r - ((1 if col % 2 == want else 0) - sh - q) // 2 + fr
            else:
                row = r + fr
                sh = 1 if fr % 2 == want else 0
                col = q - ((1 if row % 2 == want else 0) - sh - r) // 2 + fc
            rel += (col - c0, row - r0)
        rels.append(tuple(rel))
    get = index.__getitem__
    steps: list[Union[int, tuple[str, tuple[int, ...], tuple[int, ...]]]] = [
        get(l_alt[0]) if kind == "hex" else (kind, tuple(map(get, l_alt)), tuple(map(get, r_alt)))
        for kind, l_alt, r_alt in aligned
    ]
    return (rels[0], rels[1]), tuple(steps), tuple(map(get, left)), tuple(map(get, right))


# Reference implementation (the original rational-arithmetic walk), kept for the equivalence
# tests (tests/geometry/test_hex_line_fast.py) and bench/bench_hex_line.py.  Not used at run time.


def _round_frac(p: tuple[Fraction, Fraction, Fraction]) -> Cube:
    """Exact cube rounding of a point strictly inside a hex."""
    r = [int(round(x)) for x in p]
    dd = [abs(r[i] - p[i]) for i in range(3)]
    if dd[0] > dd[1] and dd[0] > dd[2]:
        r[0] = -r[1] - r[2]
    elif dd[1] > dd[2]:
        r[1] = -r[0] - r[2]
    else:
        r[2] = -r[0] - r[1]
    return (r[0], r[1], r[2])


def _walk_fraction_reference(d: Cube, sign: int) -> tuple[Cube, ...]:
    """Reference: cells crossed by 0 -> d nudged by sign*eps, with :class:`Fraction` (slow)."""
    if d == (0, 0, 0):
        return (d,)
    n = (d[1] - d[2], d[2] - d[0], d[0] - d[1])  # perpendicular in the cube plane
    dist = max(abs(x) for x in d)
    eps = Fraction(sign, 64 * (dist + 1) ** 3 * (max(abs(x) for x in n) + 1))
    off = tuple(eps * x for x in n)
    ts: set[Fraction] = set()
    for i, j in ((0, 1), (1, 2), (2, 0)):
        b = d[i] - d[j]
        if b == 0:
            continue
        u0 = off[i] - off[j]
        # u(t) = u0 + t*b crosses integers m for t in (0, 1)
        lo, hi = (u0, u0 + b) if b > 0 else (u0 + b, u0)
        for m in range(math.ceil(lo), math.floor(hi) + 1):
            t = (m - u0) / b
            if 0 < t < 1:
                ts.add(t)
    pts = [Fraction(0)] + sorted(ts) + [Fraction(1)]
    cells: list[Cube] = []
    for t0, t1 in zip(pts[:-1], pts[1:]):
        t = (t0 + t1) / 2
        c = _round_frac((off[0] + t * d[0], off[1] + t * d[1], off[2] + t * d[2]))
        if not cells or cells[-1] != c:
            cells.append(c)
    return tuple(cells)


def _hex_line_reference(grid: HexGrid, a: str, b: str) -> HexLine:
    """Reference: the original :meth:`HexGrid.hex_line` (Fraction walks, numpy labels, no cache)."""
    ca = grid.cube(a)
    cb = grid.cube(b)
    d = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
    left, right = _walk_fraction_reference(d, +1), _walk_fraction_reference(d, -1)
    o = np.array(ca, dtype=np.int64)

    def lab(path: tuple[Cube, ...]) -> tuple[str, ...]:
        if not path:
            return ()
        return tuple(grid.cube_to_labels(np.array(path, dtype=np.int64) + o))

    steps = []
    for kind, l_alt, r_alt in _align(left, right):
        ll, rl = lab(l_alt), lab(r_alt)
        if kind == "hex":
            steps.append(LineStep("hex", ll, False, ll, ll))
        else:
            hexes = tuple(sorted(set(ll) | set(rl)))
            steps.append(LineStep(kind, hexes, True, ll, rl))
    return HexLine(a, b, tuple(steps), lab(left), lab(right))


def _align(
    left: tuple[Cube, ...], right: tuple[Cube, ...]
) -> list[tuple[str, tuple[Cube, ...], tuple[Cube, ...]]]:
    """Merge two walks into common hexes and divergent (ambiguous) alternatives."""
    out: list[tuple[str, tuple[Cube, ...], tuple[Cube, ...]]] = []
    i = j = 0
    rpos = {c: k for k, c in enumerate(right)}
    while i < len(left):
        if left[i] == right[j]:
            out.append(("hex", (left[i],), (left[i],)))
            i += 1
            j += 1
            continue
        # divergence: find the next common hex
        i2 = i
        while left[i2] not in rpos or rpos[left[i2]] < j:
            i2 += 1
        j2 = rpos[left[i2]]
        la, ra = left[i:i2], right[j:j2]
        kind = "hexside" if (len(la) == 1 and len(ra) == 1) else "vertex"
        out.append((kind, la, ra))
        i, j = i2, j2
    return out
