"""Berserk monsters (DR 2.12.1.7.1): a major monster whose head area is destroyed moves and
attacks on its own.

At the start of its side's movement phase a berserk monster on the ground that does not face
an enemy either turns to face an adjacent enemy (rotating, or a slither turn when it has no
walking MP for it) or, with no enemy adjacent, walks, bounds or slithers towards the nearest
enemy: the move that ends nearest to an enemy wins (walks before bounds before slithers, then
the cheapest; equal choices in hex-label order, the owner's choice automated). At the start of
its side's melee phase it attacks the enemy hex it faces (else another adjacent or its own hex)
with every group able to reach it. Its owner can no longer move it or attack with it; a
monster in flight is not driven (the rule names only walk, slither and bound). The death roll
after the invader's melee phase is in :mod:`.phases`.
"""

from __future__ import annotations

from typing import Any

from simulator.core.game import Context
from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.units import State, Unit, is_major, living

RULE = "DR 2.12.1.7.1"


def driven(unit: Unit) -> bool:
    """A berserk monster on the ground: its owner may not give it orders."""
    return bool(unit.get("berserk")) and not unit.get("flying") and not unit.get("auto")


def _enemy_hexes(state: State, unit: Unit) -> set[str]:
    return {u["hex"] for u in living(state) if u["side"] != unit["side"] and u["hex"] is not None
            and not u.get("flying")}


def _nearest(board: Any, hex_: str, foes: set[str]) -> int:
    return min((board.distance(hex_, f) for f in foes), default=99)


def _run(state: State, ctx: Context, unit: Unit, action: dict[str, Any]) -> bool:
    """Carry out ``action`` for the monster if the rules allow it now."""
    from simulator.games.dragon_rage.actions import apply_action
    from simulator.games.dragon_rage.legal import is_legal
    if not is_legal(state, action):
        return False
    apply_action(state, action, ctx)
    return True


def _face(state: State, ctx: Context, unit: Unit, foes: set[str]) -> bool:
    """Turn towards an adjacent enemy (the first in direction order N, NE, ...)."""
    from simulator.games.dragon_rage.monster_moves import turn_steps
    board = board_for(state["map"])
    for d, n in enumerate(board.neighbours[unit["hex"]]):
        if n in foes:
            steps = turn_steps(unit["facing"], d)
            if _run(state, ctx, unit, {"type": "rotate", "unit": unit["id"], "facing": d}):
                return True
            side = 1 if (d - unit["facing"]) % 6 <= 3 else -1
            if steps and _run(state, ctx, unit, {"type": "slither", "unit": unit["id"], "turn": side}):
                return True
    return False


def _candidates(state: State, unit: Unit, foes: set[str]) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    from simulator.games.dragon_rage.monster_moves import bound_targets, walk_reach
    board = board_for(state["map"])
    out: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    for h, (cost, path, _) in walk_reach(state, unit).items():
        out.append(((_nearest(board, h, foes - {h}) if h not in foes else 0, 0, cost, h),
                    {"type": "walk", "unit": unit["id"], "path": path}))
    for h, _, _ in bound_targets(state, unit):
        out.append(((_nearest(board, h, foes), 1, 0, h), {"type": "bound", "unit": unit["id"], "to": h}))
    ahead = board.neighbour(unit["hex"], unit["facing"])
    if ahead is not None:
        out.append(((_nearest(board, ahead, foes), 2, 0, ahead), {"type": "slither", "unit": unit["id"], "turn": 0}))
    return sorted(out, key=lambda c: c[0])


def move_berserk(state: State, ctx: Context, unit: Unit) -> None:
    board = board_for(state["map"])
    foes = _enemy_hexes(state, unit)
    if not foes or unit["hex"] is None or unit.get("flying"):
        return
    ahead = board.neighbour(unit["hex"], unit["facing"])
    unit["auto"] = True
    try:
        if ahead in foes:
            ctx.emit("berserk", f"{unit['id']} (berserk) faces an enemy in {ahead} and stays", RULE,
                     pieces=[unit["id"]])
            return
        if _nearest(board, unit["hex"], foes) <= 1:
            if _face(state, ctx, unit, foes):
                ctx.emit("berserk", f"{unit['id']} (berserk) turns on the enemy next to it", RULE, pieces=[unit["id"]])
            return
        here = _nearest(board, unit["hex"], foes)
        for key, action in _candidates(state, unit, foes):
            if key[0] >= here:
                break
            if _run(state, ctx, unit, action):
                ctx.emit("berserk", f"{unit['id']} (berserk) charges towards the nearest enemy", RULE,
                         pieces=[unit["id"]])
                if unit["alive"] and unit["hex"] is not None and not unit.get("flying") and \
                        _nearest(board, unit["hex"], foes) == 1 and board.neighbour(unit["hex"], unit["facing"]) not in foes:
                    _face(state, ctx, unit, foes)
                return
    finally:
        unit.pop("auto", None)


def attack_berserk(state: State, ctx: Context, unit: Unit) -> None:
    from simulator.games.dragon_rage.combat import targets_in
    from simulator.games.dragon_rage.monster_combat import area_attacks_into
    board = board_for(state["map"])
    if unit["hex"] is None or unit.get("flying"):
        return
    ahead = board.neighbour(unit["hex"], unit["facing"])
    order = [ahead, *[n for n in board.neighbours[unit["hex"]] if n != ahead], unit["hex"]]
    unit["auto"] = True
    try:
        for h in order:
            if h is None or not targets_in(state, h, unit["side"]):
                continue
            groups = [g for g in body.group_names(unit) if g not in unit["groups_used"] and body.group_cf(unit, g) > 0
                      and area_attacks_into(state, unit, g.split(".")[0], h)]
            if groups and _run(state, ctx, unit, {"type": "monster_attack", "unit": unit["id"], "target": h,
                                                  "groups": groups}):
                return
    finally:
        unit.pop("auto", None)


def berserk_phase(state: State, ctx: Context, phase: str) -> None:
    """Drive the active side's berserk monsters at the start of its movement or melee phase."""
    for u in living(state, state["active"]):
        if state["game_over"] is not None:
            return
        if not (is_major(u) and u.get("berserk") and u["alive"]):
            continue
        if phase.endswith("move"):
            move_berserk(state, ctx, u)
        elif phase.endswith("melee"):
            attack_berserk(state, ctx, u)

