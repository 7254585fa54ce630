"""Low tide and the sandbar (scenario rule 5.5.5).

With the scenario switch ``rules: {low_tide: true}`` the sea hexes listed in ``setup.sandbar.hexes``
lie dry for the first ``dry_turns`` game turns (11 in the rulebook): they are ordinary beach hexes
for characters, and boats may not enter them. A boat set up on one of them is stranded (speed 0)
until the first naval phase of the turn the tide comes back. On the next turn the sandbar is
coastal water for everybody, and from the turn after on it is deep water (drowning tests, no
armour), whatever lies next to it.

The board of a state therefore depends on the turn: :func:`board_for` builds (and caches) the
board of the current tide stage.
"""

from __future__ import annotations

from typing import Any

from simulator.core.game import Context
from simulator.games.vikings import fleet
from simulator.games.vikings.board import Board, build_board

State = dict[str, Any]
RULE = "VK 5.5.5"


def stage(state: State, turn: int | None = None) -> str:
    """``""`` (no sandbar), ``"dry"``, ``"coastal"`` or ``"deep"`` for ``turn`` (default: now)."""
    t = state.get("tide")
    if not t:
        return ""
    now = state["turn"] if turn is None else turn
    dry = int(t["dry_turns"])
    return "dry" if now <= dry else "coastal" if now == dry + 1 else "deep"


def sandbar(state: State) -> tuple[str, ...]:
    t = state.get("tide")
    return tuple(t["hexes"]) if t else ()


def board_for(state: State) -> Board:
    """The board as it lies this turn (maps joined, sandbar dry or flooded)."""
    return build_board(tuple(tuple(x) for x in state["layout"]), sandbar(state), stage(state))


def dry_hexes(state: State) -> set[str]:
    """Sandbar hexes a boat may not enter now."""
    return set(sandbar(state)) if stage(state) == "dry" else set()


def strand_ships(board: Board, state: State, ctx: Context) -> None:
    """Boats lying on the dry sandbar are stranded until the tide comes back."""
    dry = dry_hexes(state)
    for sid, ship in sorted(state["ships"].items()):
        if fleet.afloat(ship) and dry & set(fleet.hexes(board, ship)):
            ship["stranded"] = True
            ship["speed"] = ship["prev_speed"] = 0
            ctx.emit("tide", f"{ship['name']} is stranded on the sandbar until the tide rises", RULE, pieces=[sid])


def turn_starts(state: State, ctx: Context) -> None:
    """At the first naval phase of a turn: announce the tide and refloat stranded boats."""
    now = stage(state)
    if not now or now == stage(state, state["turn"] - 1):
        return
    hexes = list(sandbar(state))
    if now == "coastal":
        ctx.emit("tide", "the tide rises: the sandbar is coastal water this turn", RULE, hexes=hexes)
        for sid, ship in sorted(state["ships"].items()):
            if ship.get("stranded"):
                ship["stranded"] = False
                ctx.emit("tide", f"{ship['name']} floats off the sandbar", RULE, pieces=[sid])
    elif now == "deep":
        ctx.emit("tide", "high tide: the sandbar is deep water", RULE, hexes=hexes)
