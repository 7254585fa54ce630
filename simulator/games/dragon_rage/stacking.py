"""Stacking (DR 2.4.3, 2.4.4): who may pass through or stop in a hex holding other units.

Troops never enter an occupied hex; heroes, wizards and Elowyn may share a hex with one
friendly unit (two units at most); a hero may step under a major monster (his move ends);
elementals ignore everyone (DR 2.8.9); monsters with overrun movement pass through enemies
(DR 2.4.7.1) but may not stop on them without an overrun attack.
"""

from __future__ import annotations

from simulator.games.dragon_rage.units import (State, Unit, ground_units_at, is_character, is_hero, is_major, is_troop,
                                               kind)

FREE, PASS, STOP_ONLY, BLOCKED = "free", "pass", "stop_only", "blocked"

#: Units allowed to move through enemy-occupied hexes (DR 2.4.7.1).
OVERRUN_MOVERS = ("dragon", "giant", "great_wurm", "wurm", "t_rex")


def others_at(state: State, unit: Unit, hex_: str) -> list[Unit]:
    from simulator.games.dragon_rage.board import board_for
    others = [u for u in ground_units_at(state, hex_) if u["id"] != unit["id"]]
    return on_deck(board_for(state["map"]).terrain.get(hex_, ()), unit, others)


def on_deck(terrain: tuple[str, ...] | list[str], unit: Unit, others: list[Unit]) -> list[Unit]:
    """The occupants of a hex that count for stacking ``unit``: on a bridge, a sea serpent in
    the water below and the units on the deck ignore each other (DR 2.11.2.1), both ways."""
    if "bridge" not in terrain or unit["type"] == "sea_serpent":
        return others
    return [o for o in others if o["type"] != "sea_serpent"]


def stack_status(state: State, unit: Unit, hex_: str, in_tower: bool = False) -> str:
    """How ``unit`` may treat ``hex_``: enter freely, only pass, only stop, or not at all."""
    return status_among(unit, others_at(state, unit, hex_), in_tower)


def status_among(unit: Unit, others: list[Unit], in_tower: bool = False) -> str:
    """:func:`stack_status` for a hex whose other (grounded, living) occupants are ``others``."""
    if not others:
        return FREE
    if kind(unit) == "elemental":
        return FREE
    if any(kind(o) == "elemental" for o in others) and len(others) == 1:
        return FREE
    enemies = [o for o in others if o["side"] != unit["side"]]
    if is_character(unit):
        if enemies:
            if is_hero(unit) and all(is_major(e) for e in enemies) and len(others) == len(enemies):
                return STOP_ONLY
            return BLOCKED
        if len(others) == 1 and not is_major(others[0]):
            return FREE
        return BLOCKED
    if not enemies and is_troop(unit) and len(others) == 1 and is_character(others[0]):
        return FREE     # a troop may join a lone friendly character: two units, one troop (DR 2.4.3)
    if unit["type"] in OVERRUN_MOVERS and enemies and len(enemies) == len(others) and not in_tower:
        return PASS
    return BLOCKED


def stack_ok(state: State, hex_: str) -> bool:
    """The stacking invariant: at most one troop, at most two units (characters aside)."""
    from simulator.games.dragon_rage.board import board_for
    bridge = "bridge" in board_for(state["map"]).terrain.get(hex_, ())
    # elementals ignore stacking; a sea serpent under a bridge is in the water below it
    units = [u for u in ground_units_at(state, hex_)
             if kind(u) != "elemental" and not (bridge and u["type"] == "sea_serpent")]
    sides = {u["side"] for u in units if not is_major(u)}
    if len([u for u in units if not is_major(u)]) > 2:
        return False
    if len(sides) > 1:
        return False
    troops = [u for u in units if not is_character(u) and not is_major(u)]
    majors = [u for u in units if is_major(u)]
    if len(majors) > 1:
        return False
    return len(troops) <= 1
