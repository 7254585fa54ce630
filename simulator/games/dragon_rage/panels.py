"""Pieces off the map, in boxes beside it (``Presentation.side_panels``): the Nurkott invaders
waiting to enter, reinforcements and monsters still to come (DR 2.9, 3.2.1).

A waiting piece is dragged from its box onto a hex, as any piece is dragged on the board (its
``drag_action``); a click on it offers its ways in, named by hex and facing.
"""

from __future__ import annotations

from typing import Any, Sequence

from simulator.core.view import PanelItem, PanelSlot, SidePanel
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.units import spec

State = dict[str, Any]
Action = dict[str, Any]

#: The six facings of a counter, as the rules' diagrams name them.
FACINGS = ("north", "north-east", "south-east", "south", "south-west", "north-west")
PREFIX = "offmap:"


def waiting(state: State) -> dict[str, list[dict[str, Any]]]:
    """The live pieces off the map, by side."""
    out: dict[str, list[dict[str, Any]]] = {}
    for u in state["units"].values():
        if u["alive"] and u["hex"] is None:
            out.setdefault(u["side"], []).append(u)
    return out


def boxes(state: State) -> tuple[SidePanel, ...]:
    """A box per side with pieces off the map, the side to act first; a slot per kind of piece."""
    by_side = waiting(state)
    order = sorted(by_side, key=lambda side: side != state.get("active"))
    out = []
    for side in order:
        kinds: dict[str, list[dict[str, Any]]] = {}
        for u in by_side[side]:
            kinds.setdefault(str(spec(u)["name"]), []).append(u)
        slots = []
        for name, units in kinds.items():
            entry = sorted({h for u in units for h in u.get("entry") or ()})
            where = f"enter at {' or '.join(entry)}" if entry else "not yet on the map"
            slots.append(PanelSlot(f"{side}/{name}", f"{name} ({len(units)})",
                                   f"{where}: drag one onto the map in its movement phase",
                                   tuple(PanelItem(u["id"], chip(u), piece=u["id"], colour=colour(u)) for u in units)))
        out.append(SidePanel(PREFIX + side, "box", f"{side.capitalize()}: off the map", tuple(slots), owner=side))
    return tuple(out)


def chip(u: dict[str, Any]) -> str:
    """A waiting piece's chip: its counter's label (its kind) and its number."""
    from simulator.games.dragon_rage.presentation import counter_face

    digits = "".join(ch for ch in str(u["id"]) if ch.isdigit())
    return f"{counter_face(u)[0]} {digits}".strip()


def colour(u: dict[str, Any]) -> tuple[int, int, int]:
    from simulator.games.dragon_rage.presentation import counter_colours

    return counter_colours(str(spec(u).get("counter", "")))[0]


def label(action: Action) -> str:
    if action.get("type") == "enter":
        return f"Enter at {action['to']} facing {FACINGS[int(action['facing']) % 6]}"
    if action.get("type") == "move":
        return f"Enter the map to {action['to']}"
    return str(action.get("type"))


def actions(state: State, legal: Sequence[Action], panel: str, slot: str, item: str | None) -> list[tuple[str, Action]]:
    """A waiting piece clicked: its ways onto the map."""
    if not panel.startswith(PREFIX) or item is None:
        return []
    return [(label(a), a) for a in legal if a.get("unit") == item and a.get("type") in ("enter", "move")]


def inward(state: State, hex_label: str) -> int:
    """The facing from ``hex_label`` towards the inside of the map: to the neighbour with the most
    neighbours of its own on the map (a monster entering faces into the city, not out of it)."""
    board = board_for(state["map"])
    best, best_score = 0, -1
    for d in range(6):
        n = board.neighbour(hex_label, d)
        if n is None:
            continue
        score = sum(1 for k in range(6) if board.neighbour(n, k) is not None)
        if score > best_score:
            best, best_score = d, score
    return best
