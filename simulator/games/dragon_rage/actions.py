"""The action types of Dragon Rage and how each is carried out (dispatch and phase checks).

Every action is a plain mapping ``{type: ..., ...}``; ``docs/actions.md#dragon-rage`` lists
them with their parameters. A refused action raises IllegalAction naming the rule.
"""

from __future__ import annotations

from typing import Any, Callable

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage import (elementals, escort, fortifications, head_start, magic, monster_moves, movement,
                                        phases)
from simulator.games.dragon_rage.berserk import driven
from simulator.games.dragon_rage.combat import fire, melee
from simulator.games.dragon_rage.monster_combat import attack_monster, breathe, fire_at_monster, monster_attack
from simulator.games.dragon_rage.units import State, Unit, is_major

ACTION_TYPES: dict[str, str] = {
    "end_phase": "finish the current phase (after the last phase the turn pointer advances)",
    "move": "move a non-monster unit (troops, characters, minor monsters, elementals) to a hex; "
            "also the phasing player's owed move of an uncontrolled elemental",
    "walk": "walk a major monster along a path of adjacent hexes (overrun on enemy hexes)",
    "rotate": "turn a walking major monster in place (1 MP per 60 degrees)",
    "slither": "slither a major monster one hex ahead (turn 0) or turn it once (turn -1/1)",
    "bound": "bound a major monster to one of its nine landing hexes",
    "fly": "fly a major monster along a path (take off if grounded), optionally landing",
    "land": "land a flying monster in the hex it starts in",
    "jump_off": "throw a monster off its tower into an adjacent hex (a crash)",
    "enter": "bring a major monster onto the map at an entry hex with a facing",
    "smash": "break the gate or door between the unit and the hex 'toward' (monsters: spend 'mp')",
    "climb": "scale the wall into the adjacent hex 'to'",
    "burn_bridge": "start wrecking the wooden bridge the unit stands on",
    "ravage": "destroy the VP hex the unit stands in (monsters: spend 1 MP; troops: instead of attacking; "
              "sea serpents: the adjacent shore hex 'hex')",
    "open_entrance": "a defender opens the gate or door toward 'toward' to attack across it",
    "melee": "several units attack one hex of military units together on the CRT",
    "fire": "missile units fire together at one hex of military units on the CRT",
    "attack_monster": "one unit attacks an area of an adjacent monster in melee",
    "fire_at_monster": "one missile unit shoots at an area of a monster",
    "monster_attack": "a major monster attacks one hex with some of its groups on the CRT",
    "breathe": "a dragon breathes fire in one of its three front directions",
    "cast": "a wizard casts a spell (boost_morale, fog, whirlwind, lightning, summon_elemental, "
            "dismiss_elemental)",
    "reinforce": "place one reinforcement unit on a vacant arrival hex",
    "declare_end": "with graduated results, the invader ends his turn and the game in his last phase; the "
                   "graduated table gives the result",
    "head_start": "before play in a campaign game, the invader marks the VP hex 'hex' destroyed (his head start)",
}

#: Phases (by suffix) in which each action may be taken.
PHASE_OF: dict[str, tuple[str, ...]] = {
    "move": ("move",), "walk": ("move",), "rotate": ("move",), "slither": ("move",), "bound": ("move",),
    "fly": ("move",), "land": ("move",), "jump_off": ("move",), "enter": ("move",), "smash": ("move",),
    "climb": ("move",), "burn_bridge": ("move", "melee"), "ravage": ("move", "melee"),
    "open_entrance": ("melee",), "melee": ("melee",), "fire": ("fire",), "attack_monster": ("melee",),
    "fire_at_monster": ("fire", "melee"), "monster_attack": ("melee",), "breathe": ("fire",), "cast": ("spell",),
    "reinforce": ("reinforce",),
}


def _unit(state: State, action: dict[str, Any], key: str = "unit") -> Unit:
    uid = action.get(key)
    u = state["units"].get(uid) if isinstance(uid, str) else None
    if u is None:
        raise IllegalAction(f"no unit {uid!r} ('{key}' must name a unit id)", "DR 2.2")
    if not u["alive"]:
        raise IllegalAction(f"{uid} has been destroyed", "DR 2.2")
    return u


def _own(state: State, action: dict[str, Any], key: str = "unit") -> Unit:
    u = _unit(state, action, key)
    if u["side"] != state["active"]:
        raise IllegalAction(f"{u['id']} belongs to the {u['side']}; the {state['active']} is playing", "DR 2.6")
    if elementals.is_wild(u):
        raise IllegalAction(f"{u['id']} is out of control: it takes no orders (it moves toward the nearest unit "
                            "and attacks it on its own)", "DR 2.8.9")
    return u


def _units(state: State, action: dict[str, Any], key: str) -> list[Unit]:
    ids = action.get(key)
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise IllegalAction(f"'{key}' must be a list of unit ids, got {ids!r}", "DR 2.7")
    if len(set(ids)) != len(ids):
        raise IllegalAction(f"'{key}' names a unit twice", "DR 2.7")
    return [_own(state, {"u": i}, "u") for i in ids]


def _major(state: State, action: dict[str, Any]) -> Unit:
    u = _own(state, action)
    if not is_major(u):
        raise IllegalAction(f"{u['id']} is not a major monster (use 'move')", "DR 2.12")
    if driven(u):
        raise IllegalAction(f"{u['id']} is berserk: it moves and attacks on its own", "DR 2.12.1.7.1")
    return u


def apply_action(state: State, action: dict[str, Any], ctx: Context) -> None:
    kind = action["type"]
    if state["game_over"] is not None:
        raise IllegalAction("the game is over", "DR 2.3")
    if head_start.is_open(state) or kind == "head_start":
        _head_start_step(state, action, ctx)
        return
    if kind == "end_phase":
        phases.end_phase(state, ctx)
        elementals.check_control(state, ctx)
        return
    if kind == "declare_end":
        phases.declare_end(state, ctx)
        return
    allowed = PHASE_OF.get(kind, ())
    if not any(state["phase"].endswith(p) for p in allowed):
        raise IllegalAction(f"'{kind}' is not possible in the {phases.phase_info(state['phase'])['name']} phase",
                            phases.phase_info(state["phase"])["rule"])
    HANDLERS[kind](state, action, ctx)
    elementals.check_control(state, ctx)


def _head_start_step(state: State, action: dict[str, Any], ctx: Context) -> None:
    """Before play, only the head-start markers (DR 4.3.3): ``head_start`` marks one hex,
    ``end_phase`` places the rest by default."""
    kind = action["type"]
    if kind == "head_start":
        head_start.mark(state, ctx, action.get("hex"))
    elif kind == "end_phase":
        head_start.finish_by_default(state, ctx)
    else:
        raise IllegalAction(f"play begins once the invader has marked his head start "
                            f"({state['head_start']['left']} VP left; 'end_phase' places them by default)",
                            head_start.RULE)


def _move(state: State, a: dict[str, Any], ctx: Context) -> None:
    if elementals.is_wild(_unit(state, a)):
        # the phasing player moves an uncontrolled elemental, whoever summoned it (DR 2.8.9)
        elementals.move_wild(state, ctx, _unit(state, a), a.get("to"), a.get("path"))
        return
    u = _own(state, a)
    if is_major(u):
        raise IllegalAction(f"{u['id']} is a major monster: use walk, slither, bound or fly", "DR 2.12.1.1")
    leave = a.get("leave_elowyn", False)
    if not isinstance(leave, bool):
        raise IllegalAction(f"'leave_elowyn' must be true or false, got {leave!r}", escort.RULE)
    if leave:
        escort.leave_behind(state, ctx, u)      # the hand-over between escorts (DR 2.10.7)
    movement.move(state, ctx, u, a.get("to"))


def _ravage(state: State, a: dict[str, Any], ctx: Context) -> None:
    u = _own(state, a)
    if is_major(u):
        if state["phase"] != "invader_move":
            raise IllegalAction("a monster spends its MP in a VP hex during its movement", "DR 2.3")
        monster_moves.ravage(state, ctx, u)
    elif u["type"] == "sea_serpent":
        fortifications.serpent_ravage(state, ctx, u, a.get("hex"))
    else:
        fortifications.ravage(state, ctx, u)


HANDLERS: dict[str, Callable[[State, dict[str, Any], Context], None]] = {
    "move": _move,
    "walk": lambda s, a, c: monster_moves.walk(s, c, _major(s, a), a.get("path") if isinstance(a.get("path"), list)
                                               else [a.get("to")]),
    "rotate": lambda s, a, c: monster_moves.rotate(s, c, _major(s, a), a.get("facing")),
    "slither": lambda s, a, c: monster_moves.slither(s, c, _major(s, a), a.get("turn", 0)),
    "bound": lambda s, a, c: monster_moves.bound(s, c, _major(s, a), a.get("to")),
    "fly": lambda s, a, c: monster_moves.fly(s, c, _major(s, a), a.get("path"), bool(a.get("land", False))),
    "land": lambda s, a, c: monster_moves.land_in_place(s, c, _major(s, a)),
    "jump_off": lambda s, a, c: monster_moves.jump_off(s, c, _major(s, a), a.get("to")),
    "enter": lambda s, a, c: monster_moves.enter_map(s, c, _major(s, a), a.get("to"), a.get("facing")),
    "smash": lambda s, a, c: fortifications.smash(s, c, _own(s, a), a.get("toward"), a.get("mp")),
    "climb": lambda s, a, c: fortifications.climb(s, c, _own(s, a), a.get("to")),
    "burn_bridge": lambda s, a, c: fortifications.burn_bridge(s, c, _own(s, a)),
    "ravage": _ravage,
    "open_entrance": lambda s, a, c: fortifications.open_entrance(s, c, _own(s, a), a.get("toward")),
    "melee": lambda s, a, c: melee(s, c, _units(s, a, "units"), a.get("target"), a.get("boost_instead")),
    "fire": lambda s, a, c: fire(s, c, _units(s, a, "units"), a.get("target")),
    "attack_monster": lambda s, a, c: attack_monster(s, c, _own(s, a), _unit(s, a, "monster"), a.get("area")),
    "fire_at_monster": lambda s, a, c: fire_at_monster(s, c, _own(s, a), _unit(s, a, "monster"), a.get("area")),
    "monster_attack": lambda s, a, c: monster_attack(s, c, _major(s, a), a.get("target"), a.get("groups")),
    "breathe": lambda s, a, c: breathe(s, c, _major(s, a), a.get("direction")),
    "cast": lambda s, a, c: magic.cast(s, c, _own(s, a), a.get("spell"), a),
    "reinforce": lambda s, a, c: phases.reinforce(s, c, a.get("to")),
}
assert set(HANDLERS) | {"end_phase", "declare_end", "head_start"} == set(ACTION_TYPES)
