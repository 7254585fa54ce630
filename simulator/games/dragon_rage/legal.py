"""Enumerating the legal actions of the current phase.

Ground moves and monster walks come straight from the reachable sets (the same computation
the rules use, cached per position: see :mod:`.movement`), so they are legal by construction.
The few other candidates (spells, flights, bounds, attacks, sieges) are generated from the
position and kept only if a dry run on a copy of the state accepts them, so the list never
offers an action the engine would refuse. The dry run's dice show their lowest faces, so an
action whose acceptance would hang on a roll is offered in a form that no roll can refuse
(Dismiss Elemental carries ``max_cost``). A melee phase that may not end (an owed attack,
:func:`.phases.end_phase_block`) offers the attacks that discharge the duty instead of
``end_phase``, so the list is never empty while the game goes on.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from simulator.core.dice import Dice
from simulator.core.errors import DiceExhausted, IllegalAction
from simulator.core.game import Context
from simulator.core.plain import copy_plain
from simulator.games.dragon_rage import body, head_start
from simulator.games.dragon_rage.actions import apply_action
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.combat import boost_or_double, missile_range, targets_in
from simulator.games.dragon_rage.monster_moves import bound_targets, flight_problem, walk_reach
from simulator.games.dragon_rage.movement import fatal_reach, occupancy, reach
from simulator.games.dragon_rage.phases import (arrival_hexes, end_phase_block, may_declare_end, owed_actions,
                                               reinforcement_type)
from simulator.games.dragon_rage.units import (State, Unit, is_major, is_minor, is_missile, is_monster, is_wizard,
                                               kind, living, spec)

Action = dict[str, Any]


class _DryDice(Dice):
    """Dice for dry runs: every die shows its lowest face, nothing is recorded."""

    def __init__(self) -> None:
        super().__init__(0)

    def roll(self, die: Any, purpose: str) -> Any:  # noqa: D401
        return self.die(die).faces[0]


class _Scenario:
    setup: dict[str, Any] = {}
    rules: dict[str, Any] = {}


def is_legal(state: State, action: Action) -> bool:
    work = copy_plain(state)
    ctx = Context(_DryDice(), _Scenario())  # type: ignore[arg-type]
    try:
        apply_action(work, copy_plain(action), ctx)
    except (IllegalAction, DiceExhausted):
        return False
    return True


def legal_actions(state: State) -> list[Action]:
    if state["game_over"] is not None:
        return []
    if head_start.is_open(state):      # before play: the invader's head-start markers (DR 4.3.3)
        return [{"type": "head_start", "hex": h} for h in head_start.choices(state)] + [{"type": "end_phase"}]
    phase = state["phase"]
    side = state["active"]
    out: list[Action] = []
    candidates: list[Action] = []
    mine = [u for u in living(state, side) if u["hex"] is not None or u.get("offmap")]
    if phase.endswith("spell"):
        candidates += _spells(state, mine)
    elif phase.endswith("reinforce"):
        # none arrive once every infantry and militia counter is in play (DR 2.9)
        if state["pending_reinforcements"] > 0 and reinforcement_type(state) is not None:
            out += [{"type": "reinforce", "to": h} for h in arrival_hexes(state)]
    elif phase.endswith("move"):
        occupied = occupancy(state)
        for u in mine:
            if is_major(u):
                out += [{"type": "walk", "unit": u["id"], "path": path}
                        for h, (_, path, _) in sorted(walk_reach(state, u).items())]
                candidates += _monster_moves(state, u)
            else:
                out += [{"type": "move", "unit": u["id"], "to": h} for h in sorted(reach(state, u, occupied))]
                # an elemental may be sent into a bridge, dock or water hex, where it is destroyed (DR 2.8.9)
                out += [{"type": "move", "unit": u["id"], "to": h} for h in sorted(fatal_reach(state, u, occupied))]
                if u.get("escorting"):      # the escort may move on without Elowyn (DR 2.10.7)
                    out += [{"type": "move", "unit": u["id"], "to": h, "leave_elowyn": True}
                            for h in sorted(reach(state, dict(u, escorting=None), occupied))]
                candidates += _siege(state, u)
    elif phase.endswith("fire"):
        candidates += _fire(state, mine)
    elif phase.endswith("melee"):
        candidates += _melee(state, mine)
        # missiles may also be loosed at a monster as part of the melee (DR 2.7.6.1)
        candidates += [a for a in _fire(state, mine) if a["type"] == "fire_at_monster"]
    out += [a for a in candidates if is_legal(state, a)]
    if end_phase_block(state) is None:
        out.append({"type": "end_phase"})
        if may_declare_end(state) is None:      # graduated results: the invader may stop (DR 2.3)
            out.append({"type": "declare_end"})
    else:
        # the phase may not end before an owed attack: offer every attack that discharges it
        out += [a for a in owed_actions(state) if a not in out]
    return out


def _enemies(state: State, side: str) -> list[Unit]:
    return [u for u in living(state) if u["side"] != side and u["hex"] is not None]


def _spells(state: State, mine: list[Unit]) -> list[Action]:
    board = board_for(state["map"])
    out: list[Action] = []
    for w in mine:
        if not is_wizard(w) or w["hex"] is None or w["spelled"]:
            continue
        out += _dismissals(state, w)
        if w["sp"] <= 0:
            continue
        foes = [e for e in _enemies(state, w["side"]) if board.distance(w["hex"], e["hex"]) <= 4]
        for r in range(3):
            out.append({"type": "cast", "unit": w["id"], "spell": "boost_morale", "radius": r})
        friends = {n for u in mine if u["hex"] is not None and not is_monster(u)
                   for n in board.neighbours[u["hex"]] if n is not None}
        for e in foes[:4]:
            out.append({"type": "cast", "unit": w["id"], "spell": "lightning", "target": e["hex"], "target_unit": e["id"]})
            if e["hex"] in friends and not is_monster(e):
                out.append({"type": "cast", "unit": w["id"], "spell": "lightning", "target": e["hex"],
                            "target_unit": e["id"], "add_to_melee": True})
            out.append({"type": "cast", "unit": w["id"], "spell": "whirlwind", "target": e["hex"]})
            out.append({"type": "cast", "unit": w["id"], "spell": "fog", "target": e["hex"]})
        for n in board.neighbours[w["hex"]]:
            if n is not None:
                out.append({"type": "cast", "unit": w["id"], "spell": "summon_elemental", "target": n,
                            "element": "fire"})
                break
    return out


def _dismissals(state: State, w: Unit) -> list[Action]:
    """Dismiss Elemental (DR 2.8.9): free for the controlling summoner; any other elemental costs
    a d6 rolled on casting, so the offer carries ``max_cost`` = the wizard's spell points and he
    declines a roll he cannot pay instead of having the cast refused after the roll."""
    out: list[Action] = []
    for el in living(state):
        if "summoner" not in el or el["hex"] is None:
            continue
        cast = {"type": "cast", "unit": w["id"], "spell": "dismiss_elemental", "target_unit": el["id"]}
        if el["summoner"] == w["id"] and el["controlled"]:
            out.append(cast)
        elif w["sp"] > 0:
            out.append({**cast, "max_cost": w["sp"]})
    return out


def _monster_moves(state: State, u: Unit) -> list[Action]:
    board = board_for(state["map"])
    out: list[Action] = []
    if u.get("offmap"):
        for h in u.get("entry", []):
            for f in range(6):
                out.append({"type": "enter", "unit": u["id"], "to": h, "facing": f})
        return out
    if u["flying"]:
        out.append({"type": "land", "unit": u["id"]})
    elif u["mode"] in (None, "walk"):
        for f in ((u["facing"] + 1) % 6, (u["facing"] + 5) % 6):
            out.append({"type": "rotate", "unit": u["id"], "facing": f})
        ahead = board.neighbour(u["hex"], u["facing"])
        if ahead is not None and board.entrance(u["hex"], ahead):
            out.append({"type": "smash", "unit": u["id"], "toward": ahead, "mp": max(1, body.walk_mp(u) - u["mp_used"])})
        if u["hex"] in board.vp:
            out.append({"type": "ravage", "unit": u["id"]})
    if u["mode"] is None and not u["flying"]:
        for t in (0, -1, 1):
            out.append({"type": "slither", "unit": u["id"], "turn": t})
        for h, _, _ in bound_targets(state, u):
            out.append({"type": "bound", "unit": u["id"], "to": h})
        if u["hex"] in board.towers:
            for n in board.neighbours[u["hex"]]:
                if n is not None:
                    out.append({"type": "jump_off", "unit": u["id"], "to": n})
    if u["mode"] is None and spec(u)["movement"].get("fly"):
        for path in _flight_paths(state, u):
            out.append({"type": "fly", "unit": u["id"], "path": path, "land": False})
            if u["flying"]:
                out.append({"type": "fly", "unit": u["id"], "path": path, "land": True})
    return out


def _flight_paths(state: State, u: Unit) -> list[list[str]]:
    """A sample of flight paths: straight, and one turn after 2 or 3 hexes, at full length."""
    board = board_for(state["map"])
    limit = int(spec(u)["movement"].get("fly") or 0)
    out: list[list[str]] = []
    for first in (2, 3, limit):
        for turn in (0, -1, 1):
            path: list[str] = []
            h, d = u["hex"], u["facing"]
            for i in range(limit):
                if i == first and turn:
                    d = (d + turn) % 6
                h = board.neighbour(h, d)
                if h is None:
                    break
                path.append(h)
            if len(path) >= 2 and flight_problem(state, u, path) is None and path not in out:
                out.append(path)
                if len(path) > 2:
                    out.append(path[: len(path) // 2 + 1]) if flight_problem(state, u, path[: len(path) // 2 + 1]) is None else None
    return out


def _siege(state: State, u: Unit) -> list[Action]:
    board = board_for(state["map"])
    out: list[Action] = []
    if u["hex"] is None:
        return out
    for n in board.neighbours[u["hex"]]:
        if n is None:
            continue
        if board.entrance(u["hex"], n) and u["side"] == "invader":
            out.append({"type": "smash", "unit": u["id"], "toward": n})
        elif board.is_wall(u["hex"], n) and u["side"] == "invader":
            out.append({"type": "climb", "unit": u["id"], "to": n})
            if u["type"] == "sea_serpent":
                out.append({"type": "smash", "unit": u["id"], "toward": n})
    if u["hex"] in state["bridges"]:
        out.append({"type": "burn_bridge", "unit": u["id"]})
    return out


def _fire(state: State, mine: list[Unit]) -> list[Action]:
    board = board_for(state["map"])
    out: list[Action] = []
    for u in mine:
        if u["hex"] is None:
            continue
        if is_major(u) and spec(u).get("breath") and u["breaths_left"] > 0:
            for d in (u["facing"], (u["facing"] + 1) % 6, (u["facing"] + 5) % 6):
                out.append({"type": "breathe", "unit": u["id"], "direction": d})
        if not is_missile(u) or u["attacked"]:
            continue
        for e in _enemies(state, u["side"]):
            dist = board.distance(u["hex"], e["hex"])
            if dist > missile_range(state, u, e["hex"], False):
                continue
            if is_major(e):
                for area in ("head", "wings", "legs"):
                    if area in e["damage"]:
                        out.append({"type": "fire_at_monster", "unit": u["id"], "monster": e["id"], "area": area})
                        if e["flying"]:
                            break
            elif is_minor(e):
                out.append({"type": "fire_at_monster", "unit": u["id"], "monster": e["id"], "area": "body"})
            elif {"type": "fire", "units": [u["id"]], "target": e["hex"]} not in out:
                out.append({"type": "fire", "units": [u["id"]], "target": e["hex"]})
    return out


def _melee(state: State, mine: list[Unit]) -> list[Action]:
    board = board_for(state["map"])
    out: list[Action] = []
    by_target: dict[str, list[str]] = {}
    for u in mine:
        if u["hex"] is None:
            continue
        near = [u["hex"], *[n for n in board.neighbours[u["hex"]] if n is not None]]
        if is_major(u):
            for h in near:
                if targets_in(state, h, u["side"]):
                    groups = [g for g in body.group_names(u) if g not in u["groups_used"] and body.group_cf(u, g) > 0]
                    from simulator.games.dragon_rage.monster_combat import area_attacks_into
                    groups = [g for g in groups if area_attacks_into(state, u, g.split(".")[0], h)]
                    if groups:
                        out.append({"type": "monster_attack", "unit": u["id"], "target": h, "groups": groups})
            continue
        if u["attacked"]:
            continue
        if u["hex"] in board.vp and u["side"] == "invader" and kind(u) in ("troop", "character"):
            out.append({"type": "ravage", "unit": u["id"]})
        if u["type"] == "sea_serpent":
            for h in near[1:]:
                if h in board.vp:
                    out.append({"type": "ravage", "unit": u["id"], "hex": h})
        if u["side"] == "defender":
            for h in near[1:]:
                if board.entrance(u["hex"], h) and targets_in(state, h, u["side"]) == [] and \
                        any(x["side"] != u["side"] for x in living(state) if x["hex"] == h):
                    out.append({"type": "open_entrance", "unit": u["id"], "toward": h})
        for h in near:
            for e in [x for x in living(state) if x["hex"] == h and x["side"] != u["side"]]:
                if is_monster(e):
                    areas = list(e["damage"]) if is_major(e) else ["body"]
                    for area in areas:
                        out.append({"type": "attack_monster", "unit": u["id"], "monster": e["id"], "area": area})
            # the own hex too: an elemental may stop on enemies and attack them there (DR 2.8.9)
            if targets_in(state, h, u["side"]):
                by_target.setdefault(h, []).append(u["id"])
    for h, ids in by_target.items():
        groups = [ids] + ([[i] for i in ids] if len(ids) > 1 else [])
        for group in groups:
            out.append({"type": "melee", "units": group, "target": h})
            out += _boost_choices(state, group, h)
    return out


def _boost_choices(state: State, ids: list[str], target: str) -> list[Action]:
    """The melee of ``ids`` again for every other choice of the +1 boost instead of the hero's
    doubling, when some attackers have both (DR 2.8.5, Q-CMB-10); the plain melee keeps the
    doublings."""
    both = [i for i in ids if boost_or_double(state, state["units"][i])]
    return [{"type": "melee", "units": ids, "target": target, "boost_instead": list(chosen)}
            for n in range(1, len(both) + 1) for chosen in combinations(both, n)]
