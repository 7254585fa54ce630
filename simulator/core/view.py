"""What the client draws and which tools apply: the game-to-client contract.

A game's :class:`Presentation` describes its surface (a hex map or a table),
its pieces (counters, round bases, trays, ships), the banner text, the tools
that make sense, and which action a drag, rotation or click proposes. The client
draws and proposes; the engine decides. Nothing here imports pygame, so the
same description serves the window, ``simulator render`` and the tests.

Positions: on hex surfaces a piece stands on a hex label (``"0707"``); on tables
at ``(x, y)`` in inches from the table's top-left corner, y growing down.
Facing: on hexes a direction index 0-5 in the grid's direction order
(``HexGrid`` names them); on tables degrees clockwise from "up" (north).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence

from simulator.core.game import Action, State
from simulator.core.hexmap import HexMap

RGB = tuple[int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True)
class TerrainStyle:
    """How to paint one terrain type (or a terrain piece on a table)."""

    id: str
    name: str
    colour: RGB
    pattern: Literal["plain", "trees", "waves", "buildings", "rough", "fields", "rocks", "marsh", "stone"] = "plain"


@dataclass(frozen=True)
class FeatureStyle:
    """How to paint a hexside feature or a path (road)."""

    id: str
    name: str
    colour: RGB
    width: float = 0.12            # in hex sizes (or inches on tables)
    style: Literal["wall", "gate", "door", "bank", "bridge", "road", "line", "dashed", "window"] = "line"


@dataclass(frozen=True)
class HexSurface:
    hexmap: HexMap
    terrain_styles: Mapping[str, TerrainStyle]
    feature_styles: Mapping[str, FeatureStyle] = field(default_factory=dict)
    path_styles: Mapping[str, FeatureStyle] = field(default_factory=dict)
    #: Per-hex markings to print, e.g. victory-point values: {label: "3"}.
    hex_marks: Mapping[str, str] = field(default_factory=dict)
    #: Per-hex overrides of the painted terrain (burnt bridges, destroyed VP hexes...).
    hex_overrides: Mapping[str, str] = field(default_factory=dict)
    #: Per-hexside overrides of the drawn feature: {(label, label): feature style id}
    #: (a broken gate, a breached wall...). The id names a ``feature_styles`` entry;
    #: "" draws nothing on that hexside. Either order of the two labels works.
    hexside_overrides: Mapping[tuple[str, str], str] = field(default_factory=dict)
    kind: Literal["hex"] = "hex"


@dataclass(frozen=True)
class TerrainPiece:
    id: str
    name: str
    polygon: tuple[Point, ...]
    style: TerrainStyle
    notes: str = ""


@dataclass(frozen=True)
class TableSurface:
    width: float                   # inches
    height: float
    terrain: tuple[TerrainPiece, ...] = ()
    colour: RGB = (96, 128, 72)
    #: Named distances to show with the measuring tape, e.g. {"VS": 2, "S": 4, "M": 6, "L": 12}.
    named_distances: Mapping[str, float] = field(default_factory=dict)
    #: Deployment zones or objectives to outline: (name, polygon, colour).
    zones: tuple[tuple[str, tuple[Point, ...], RGB], ...] = ()
    kind: Literal["table"] = "table"


Surface = HexSurface | TableSurface


@dataclass(frozen=True)
class PieceView:
    """One piece as drawn. ``shape`` picks the drawing:

    - ``counter``: a square counter on a hex, with ``values`` printed on it;
    - ``base``: a round base of ``radius`` inches;
    - ``tray``: a movement tray ``width`` x ``depth`` inches, ``ranks`` x ``files`` figures;
    - ``ship``: a multi-hex board covering ``hexes`` (labels), with characters on deck.
    """

    id: str
    side: str
    name: str
    shape: Literal["counter", "base", "tray", "ship"]
    at: str | Point
    colour: RGB
    facing: float = 0
    label: str = ""
    values: tuple[str, ...] = ()
    text_colour: RGB = (255, 255, 255)
    radius: float = 0.5
    width: float = 1.0
    depth: float = 1.0
    ranks: int = 0
    files: int = 0
    hexes: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    stats: Mapping[str, Any] = field(default_factory=dict)
    movable: bool = True
    #: Drawn above pieces with lower layers (flyers over ground units, crews over ships).
    layer: int = 0
    #: Several pieces on one hex are fanned out; ``stack_index`` orders them.
    stack_index: int = 0


@dataclass(frozen=True)
class Tools:
    """Which tools and snapping the client offers for this game."""

    snap: Literal["hex", "free"]
    rotate_step: float             # 60 on hexes; 15 (snapping) on tables
    line_of_sight: bool = True
    measure: bool = True
    range_rings: Sequence[float] = ()
    measure_unit: str = "hexes"


@dataclass(frozen=True)
class LineOfSight:
    """The answer of the line-of-sight tool."""

    clear: bool
    text: str
    rule: str = ""
    points: tuple[Point | str, Point | str] | None = None
    #: What blocked: hex labels, hexsides as (a, b), piece ids, terrain ids.
    blockers: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Measurement:
    value: float
    unit: str
    text: str
    #: On tables: the named distances the value falls within, e.g. ("M", "L").
    within: tuple[str, ...] = ()


@dataclass(frozen=True)
class MoveRange:
    """Legal destinations while dragging: hex costs, or a table area."""

    hexes: Mapping[str, float] = field(default_factory=dict)
    centre: Point | None = None
    radius: float = 0.0            # inches: simple reach on tables


@dataclass(frozen=True)
class SecretChoice:
    """A choice one side makes unseen: the client shows the hand-over screen first."""

    player: str
    prompt: str
    options: Sequence[tuple[str, Action]]


class Presentation(ABC):
    """Implemented by each game (``Game.presentation()``); used only by the client."""

    @abstractmethod
    def surface(self, state: State) -> Surface:
        """The board. The client caches its drawing and redraws only when
        :meth:`surface_key` changes."""

    def surface_key(self, state: State) -> Any:
        """Changes whenever the drawn surface changes (burnt bridge, broken wall...)."""
        return None

    @abstractmethod
    def pieces(self, state: State) -> list[PieceView]:
        """Every piece to draw, in drawing order."""

    @abstractmethod
    def banner(self, state: State) -> str:
        """Turn and phase, e.g. "Turn 3 of 12 - Invader movement"."""

    @abstractmethod
    def tools(self) -> Tools: ...

    def drag_action(self, state: State, piece: str, to: str | Point) -> Action | None:
        """The action a drag of ``piece`` to ``to`` proposes (None: nothing to propose)."""
        return None

    def rotate_action(self, state: State, piece: str, facing: float) -> Action | None:
        """The action turning ``piece`` to ``facing`` proposes."""
        return None

    def move_range(self, state: State, piece: str) -> MoveRange | None:
        """Where ``piece`` may go now (for the highlight while dragging)."""
        return None

    def line_of_sight(self, state: State, a: str | Point, b: str | Point) -> LineOfSight | None:
        """Line of sight between pieces or places (ids, hex labels or points)."""
        return None

    def measure(self, state: State, a: str | Point, b: str | Point) -> Measurement | None:
        return None

    def end_phase_action(self, state: State) -> Action | None:
        """The action of the banner's "end phase" button."""
        return {"type": "end_phase"}

    def piece_actions(self, state: State, legal: Sequence[Action], piece: str) -> list[tuple[str, Action]]:
        """The selected piece's legal actions, labelled for the context menu."""
        out = []
        for action in legal:
            if piece in (action.get("piece"), action.get("unit"), action.get("ship")) or \
                    piece in action.get("pieces", ()) or piece in action.get("units", ()):
                out.append((describe_action(action), action))
        return out

    def secret_choice(self, state: State) -> SecretChoice | None:
        """A hidden choice waiting to be made, or None."""
        return None

    def stats(self, state: State, piece: str) -> Mapping[str, Any]:
        """What the selected-unit panel shows."""
        for p in self.pieces(state):
            if p.id == piece:
                return {"name": p.name, "side": p.side, **p.stats, **({"status": ", ".join(p.status)} if p.status else {})}
        return {}


def describe_action(action: Action) -> str:
    """A short label such as ``move to=0707``."""
    rest = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{action['type'].replace('_', ' ')} {rest}".strip()
