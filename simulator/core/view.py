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
A piece that has no facing at all (Dragon Rage troops) sets ``has_facing=False``.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Mapping, Sequence

from simulator.core.game import Action, State
if TYPE_CHECKING:        # an annotation only: the picker's start need not import numpy
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
    #: False for a piece that has no facing (no notch or arrow is drawn, it cannot be
    #: turned); ``facing`` is then ignored. Default True, so existing games are unchanged.
    has_facing: bool = True
    #: ``tray`` only: an outline drawn (and hit) instead of the ``width`` x ``depth`` rectangle,
    #: as points around the centre in the view's orientation (y down) at facing 0, turned with
    #: ``facing`` (a terrain piece being placed). Empty: the rectangle.
    outline: tuple[Point, ...] = ()
    #: ``tray`` only: each figure slot, ``ranks`` x ``files`` entries, rank by rank from the front,
    #: each rank left to right as the piece faces: '' an empty slot (its figure removed), '*' a
    #: figure, any other short text a figure carrying that mark (a leader, an attachment). Empty
    #: (default): every slot holds a figure, as before.
    slots: tuple[str, ...] = ()
    #: The troop type's icon, the name of a picture in the program's art (``icons/<name>.svg``,
    #: e.g. ``icons/bow.svg``), drawn on the piece in ``text_colour`` as a printed counter carries
    #: its figure. Empty (default): none, the piece is drawn as before.
    icon: str = ""
    #: A name printed beside the piece (a character's or a unit's name). Empty (default): none.
    caption: str = ""
    #: Tokens laid beside the piece, each (picture name, e.g. ``markers/fatigue.svg``, text
    #: written on it such as a count, '' for none): fatigue, wounds, stun, conditions, VP.
    markers: tuple[tuple[str, str], ...] = ()
    #: The second colour of the piece's livery (a faction's trim: the figures' rims, the name
    #: plate). None (default): a lighter shade of ``colour``.
    accent: RGB | None = None


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


@dataclass(frozen=True)
class PanelItem:
    """A thing shown in a side panel's slot: a die (``die`` and ``face`` pick its face's art), a card,
    or a piece waiting off the board (``piece``: dragged onto the board, it moves as that piece)."""

    id: str
    label: str = ""
    die: str = ""
    face: str | int | None = None
    piece: str = ""
    #: Face down: its owner's secret (drawn as a back, no label).
    hidden: bool = False
    #: The colour of a card or a waiting piece (its counter's, its side's); None: plain.
    colour: RGB | None = None


@dataclass(frozen=True)
class PanelSlot:
    """A place on a side panel: a battle-board box, a card in hand, a waiting box, a choice."""

    id: str
    label: str
    #: What the slot does, in words (cost, timing, effect).
    detail: str = ""
    contents: tuple[PanelItem, ...] = ()


@dataclass(frozen=True)
class SidePanel:
    """A panel beside the board (``Presentation.side_panels``): a SAGA battle board (``dice_board``),
    a hand of cards (``hand``), pieces off the map (``box``), a choice of markers (``chooser``)."""

    id: str
    kind: Literal["dice_board", "hand", "box", "chooser"]
    title: str
    slots: tuple[PanelSlot, ...]
    #: The player it belongs to (None: everybody's).
    owner: str | None = None


@dataclass(frozen=True)
class TurnStep:
    """One step of a game's turn sequence, as the F1 help lists it (``Presentation.turn_sequence``).

    ``current`` marks the step the game is in; ``detail`` says where within it, in words.
    """

    name: str
    rule: str = ""
    current: bool = False
    detail: str = ""


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

    def drag_path(self, state: State, piece: str, to: str | Point) -> tuple[Point | str, ...] | None:
        """The way ``piece`` would go if dropped at ``to`` (the waypoints of the move
        :meth:`drag_action` would propose, from where it stands to where it lands; points or hex
        labels), drawn as a line while it is dragged; None: nothing to show (a straight move).
        The client asks again only when the pointer has moved a few pixels."""
        return None

    def drag_cost(self, state: State, piece: str, to: str | Point) -> str | None:
        """What the move a drop at ``to`` proposes costs, shown by the pointer while dragging
        ("3 MP", '4.5"'); None: nothing to show. By default, on hexes the cost :meth:`move_range`
        gives the hex (in MP); on tables the straight distance from the range's centre in inches (a
        game whose drags bend round obstacles says the length of the way it takes)."""
        reach = self.move_range(state, piece)
        if reach is None:
            return None
        if isinstance(to, str):
            cost = reach.hexes.get(to)
            return None if cost is None else f"{cost:g} MP"
        if reach.centre is None:
            return None
        return f'{math.dist(reach.centre, to):.1f}"'

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
        return [(describe_action(action), action) for action in legal if names_piece(action, piece)]

    def side_panels(self, state: State, viewer: str | None) -> tuple[SidePanel, ...]:
        """The panels to draw beside the board for ``viewer`` (None: everything shown). Default
        none."""
        return ()

    def panel_actions(self, state: State, legal: Sequence[Action], panel: str, slot: str,
                      item: str | None) -> list[tuple[str, Action]]:
        """The legal actions a click on ``slot`` (or on ``item`` in it) of ``panel`` offers,
        labelled in the players' words; one is applied at once, several make a menu."""
        return []

    def panel_drop(self, state: State, legal: Sequence[Action], panel: str, item: str,
                   slot: str) -> Action | None:
        """The legal action of dragging ``item`` onto ``slot`` (a die onto a box), or None."""
        return None

    def secret_choice(self, state: State) -> SecretChoice | None:
        """A hidden choice waiting to be made, or None."""
        return None

    def turn_sequence(self, state: State) -> tuple[TurnStep, ...]:
        """The steps of a turn in order, the current one marked (the F1 help shows them).
        The default, empty, shows none."""
        return ()

    def private_player(self, state: State) -> str | None:
        """The player whose actions now must not be seen by the others (a secret phase of
        several actions, such as SAGA's simultaneous Orders Phases), or None. When it changes
        to a player who sits at the screen, the client hands the screen over to him first."""
        return None

    def stats(self, state: State, piece: str) -> Mapping[str, Any]:
        """What the selected-unit panel shows."""
        for p in self.pieces(state):
            if p.id == piece:
                return {"name": p.name, "side": p.side, **p.stats, **({"status": ", ".join(p.status)} if p.status else {})}
        return {}


def names_piece(action: Action, piece: str) -> bool:
    """Whether ``action`` is about ``piece``: it names it (``piece``, ``unit``, ``ship``, in
    ``pieces`` or ``units``), or moves it (a key of a ``to`` or ``path`` mapping, figure by figure).

    >>> names_piece({"type": "move", "to": {"f1": [1.0, 2.0]}}, "f1"), names_piece({"type": "end_phase"}, "f1")
    (True, False)
    """
    if piece in (action.get("piece"), action.get("unit"), action.get("ship")):
        return True
    for key in ("pieces", "units"):
        named = action.get(key)
        if isinstance(named, (list, tuple)) and piece in named:
            return True
    for key in ("to", "path"):
        moved = action.get(key)
        if isinstance(moved, Mapping) and piece in moved:
            return True
    return False


def describe_action(action: Action) -> str:
    """A short label such as ``move to=0707``."""
    rest = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{action['type'].replace('_', ' ')} {rest}".strip()


# ------------------------------------------------------------------------------ force selection
# Before some scenarios start, each player chooses a force within a budget (Dragon Rage
# point-buy DR 3.3, SAGA warbands, ASOIAF army building). A game offers this through
# ``Game.forces()`` -> :class:`ForceRules`; the client shows a force-selection screen per
# player and starts the scenario that ``ForceRules.build_scenario`` returns.


@dataclass(frozen=True)
class ForceOption:
    """One thing a player may buy: a unit type, a unit card, a pack of figures."""

    id: str
    name: str
    cost: float                     # points per count
    max: int | None                 # counters / cards available (None: unlimited)
    min: int = 0
    group: str = ""                 # rows are grouped under this heading
    step: int = 1                   # counts go up and down in steps (packs of figures)
    values: tuple[str, ...] = ()    # what the counter / card shows ("CF 2", "MP 3")
    requires: tuple[str, ...] = ()  # option ids that must also be chosen (attachments)
    rule: str = ""


@dataclass(frozen=True)
class ForceProblem:
    """Why a chosen force is not (yet) allowed; ``option`` names the row to highlight."""

    message: str
    rule: str
    option: str | None = None

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


@dataclass(frozen=True)
class ForceSelection:
    """What one player chooses from, before the game starts."""

    player: str
    player_name: str
    budget: float                   # the most points the force may cost
    budget_min: float = 0           # the least (planned scenarios)
    options: Sequence[ForceOption] = ()
    #: (min, max) number of units (the sum of the chosen counts), or None for no limit.
    unit_limit: tuple[int, int] | None = None
    #: Chosen unseen: in hotseat the hand-over screen comes first.
    secret: bool = True
    note: str = ""
    rule: str = ""                  # the rule of the selection as a whole ("DR 3.3.2")
    #: A legal force the scenario suggests (its own forces); the computer's default pick.
    suggested: Mapping[str, int] = field(default_factory=dict)

    def option(self, option_id: str) -> ForceOption | None:
        return next((o for o in self.options if o.id == option_id), None)


def force_cost(selection: ForceSelection, chosen: Mapping[str, int]) -> float:
    """The points ``chosen`` costs (options not offered count nothing)."""
    by_id = {o.id: o for o in selection.options}
    return sum(by_id[k].cost * n for k, n in chosen.items() if k in by_id)


def force_units(chosen: Mapping[str, int]) -> int:
    return sum(int(n) for n in chosen.values())


def basic_force_problems(selection: ForceSelection, chosen: Mapping[str, int]) -> list[ForceProblem]:
    """The problems any game has: unknown options, counts outside min/max or off the step,
    a missing required option, the budget, the unit limit (each with the selection's rule)."""
    rule = selection.rule
    out: list[ForceProblem] = []
    by_id = {o.id: o for o in selection.options}
    for key, n in chosen.items():
        if key not in by_id and n:
            out.append(ForceProblem(f"{key!r} cannot be chosen here", rule, key))
    for o in selection.options:
        n = int(chosen.get(o.id, 0))
        r = o.rule or rule
        if n < o.min:
            out.append(ForceProblem(f"{o.name}: at least {o.min} needed, {n} chosen", r, o.id))
        if o.max is not None and n > o.max:
            out.append(ForceProblem(f"{o.name}: at most {o.max}, {n} chosen", r, o.id))
        if o.step > 1 and n % o.step:
            out.append(ForceProblem(f"{o.name}: chosen in steps of {o.step}", r, o.id))
        if n:
            for req in o.requires:
                if not chosen.get(req):
                    name = by_id[req].name if req in by_id else req
                    out.append(ForceProblem(f"{o.name} needs {name}", r, o.id))
    total = force_cost(selection, chosen)
    if total > selection.budget:
        out.append(ForceProblem(f"the force costs {total:g} points, more than the {selection.budget:g} allowed", rule))
    if total < selection.budget_min:
        out.append(ForceProblem(f"the force costs {total:g} points, less than the {selection.budget_min:g} "
                                "required", rule))
    if selection.unit_limit is not None:
        low, high = selection.unit_limit
        n = force_units(chosen)
        if not low <= n <= high:
            out.append(ForceProblem(f"{n} units chosen; {low}-{high} needed", rule))
    return out


def greedy_forces(selection: ForceSelection, check: Any = None) -> dict[str, int]:
    """A simple force: every option at its minimum, then the dearest option that still fits
    the budget and the unit limit, one step at a time, until nothing more fits.
    Deterministic; ``check(chosen) -> problems`` (optional) vetoes a step that gives the
    option a problem of its own (a problem naming it)."""
    chosen = {o.id: o.min for o in selection.options if o.min}
    high_units = selection.unit_limit[1] if selection.unit_limit else None
    order = sorted(selection.options, key=lambda o: (-o.cost, o.id))
    while True:
        for o in order:
            n = chosen.get(o.id, 0) + o.step
            if o.max is not None and n > o.max:
                continue
            trial = {**chosen, o.id: n}
            if force_cost(selection, trial) > selection.budget:
                continue
            if high_units is not None and force_units(trial) > high_units:
                continue
            if check is not None and any(p.option == o.id for p in check(trial)):
                continue
            chosen = trial
            break
        else:
            return {k: v for k, v in chosen.items() if v}


class ForceRules:
    """Force selection for one game (returned by ``Game.forces()``). Every method has a
    default, so a game overrides only what it needs; the client calls nothing else."""

    def force_selection(self, scenario: Any, player: str) -> ForceSelection | None:
        """What ``player`` chooses from before ``scenario`` starts; None: the scenario's
        forces are fixed (the game reads its own data to decide)."""
        return None

    def check_forces(self, scenario: Any, player: str, chosen: Mapping[str, int]) -> list[ForceProblem]:
        """Every reason ``chosen`` is not a legal force for ``player`` (empty: legal)."""
        selection = self.force_selection(scenario, player)
        return basic_force_problems(selection, chosen) if selection is not None else []

    def forces_note(self, scenario: Any, player: str, chosen: Mapping[str, int]) -> str:
        """A live line under the budget (e.g. the VP objective these forces give)."""
        selection = self.force_selection(scenario, player)
        return selection.note if selection is not None else ""

    def computer_forces(self, scenario: Any, player: str) -> dict[str, int]:
        """The computer's pick (solo): the suggested force when it is legal, else
        :func:`greedy_forces`."""
        selection = self.force_selection(scenario, player)
        if selection is None:
            return {}
        suggested = {k: int(v) for k, v in selection.suggested.items() if v}
        if suggested and not self.check_forces(scenario, player, suggested):
            return suggested
        return greedy_forces(selection, lambda c: self.check_forces(scenario, player, c))

    def build_scenario(self, scenario: Any, chosen_by_player: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        """Scenario data (for ``core.scenario.scenario_from_data``) playing the chosen forces;
        raises ``DataError`` naming every problem if a force is illegal."""
        raise NotImplementedError("this game builds no scenario from chosen forces")


def force_selections(scenario: Any) -> list[ForceSelection]:
    """The force selections ``scenario`` needs before it starts, one per choosing player in
    the order of the scenario's players (empty: start it as it is)."""
    from simulator.core.registry import get_game

    rules = get_game(scenario.game).forces()
    if rules is None:
        return []
    players = [p["id"] for p in scenario.players]
    out = []
    for player in players:
        selection = rules.force_selection(scenario, player)
        if selection is not None:
            out.append(selection)
    return out
