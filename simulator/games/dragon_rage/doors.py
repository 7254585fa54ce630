"""Doors broken by a major monster facing them (DR 2.5.5.1).

A dragon or other major monster of the invader breaks a door (not a gate) just by facing it
during its movement, or at the end of it, at no MP cost and without a roll; it may then go on
through it. The engine breaks the door as soon as the monster faces it: after each hex of a
walk (and as it turns towards a door to step through it), after a turn in place, a slither,
a bound or an entry onto the map, and at the end of the invader's movement phase for a
monster left facing one. A walk may therefore cross a closed door hexside.
"""

from __future__ import annotations

from typing import Any

from simulator.core.game import Context
from simulator.games.dragon_rage.board import Board, board_for
from simulator.games.dragon_rage.units import State, Unit, is_major
from simulator.games.dragon_rage.victory import destroy_vp

RULE = "DR 2.5.5.1"


def breaks_doors(unit: Unit) -> bool:
    """A grounded major monster of the invader on the map."""
    return is_major(unit) and unit["side"] == "invader" and unit["alive"] and unit["hex"] is not None \
        and not unit.get("flying") and not unit.get("offmap")


def closed_door(state: State, board: Board, a: str, b: str) -> Any:
    """The unbroken door (not gate) on hexside a|b, or None."""
    ent = board.entrance(a, b)
    if ent is None or ent.is_gate or state["entrances"][ent.key]["broken"]:
        return None
    return ent


def break_entrance(state: State, ctx: Context, ent: Any, unit: Unit, how: str, rule: str) -> None:
    """Mark the gate or door broken for good; a Nurkott door-house falls with its door (DR 2.5.5.1)."""
    state["entrances"][ent.key]["broken"] = True
    ctx.emit("entrance_broken", f"the {ent.feature.replace('_', ' ')} {ent.key} is broken"
                                f"{' (' + how + ')' if how else ''}", rule, pieces=[unit["id"]], hexside=ent.key)
    building = board_for(state["map"]).attrs.get(ent.inside or "", {})
    if ent.feature == "door" and building.get("door_house"):
        destroy_vp(state, ctx, ent.inside, f"breaking the door of {ent.inside}", "DR 2.5.5.1", [unit["id"]])


def break_door_toward(state: State, ctx: Context, unit: Unit, toward: str | None, how: str) -> bool:
    """Break the closed door between the monster's hex and ``toward`` if there is one."""
    if toward is None or not breaks_doors(unit):
        return False
    board = board_for(state["map"])
    ent = closed_door(state, board, unit["hex"], toward)
    if ent is None:
        return False
    break_entrance(state, ctx, ent, unit, how, RULE)
    return True


def break_faced_door(state: State, ctx: Context, unit: Unit) -> bool:
    """Break the closed door the monster now faces, if any."""
    if not breaks_doors(unit) or unit.get("facing") is None:
        return False
    ahead = board_for(state["map"]).neighbour(unit["hex"], unit["facing"])
    return break_door_toward(state, ctx, unit, ahead, f"{unit['id']} faces it")


def end_of_movement(state: State, ctx: Context) -> None:
    """End of the invader's movement phase: monsters left facing a door break it."""
    for unit in state["units"].values():
        if state["game_over"] is None and unit["side"] == "invader":
            break_faced_door(state, ctx, unit)
