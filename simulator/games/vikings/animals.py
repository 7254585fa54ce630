"""Goats and pigs (scenario rule 5.5.3).

An animal (``state["animals"][id]``: ``kind`` goat or pig, one hex) moves like a riderless horse:
it stays put until a character next to it takes it by the rope (``take_reins`` with the animal's
id), then follows him, stepping into the hex he has just left (a second animal into the hex the
first one left). It stays under its side's control while an able character of that side stands
next to it; otherwise the first side to take it has it. Goats and pigs cannot swim: they never
enter water (and, our ruling, neither boats nor buildings, nor cross walls or windows).

Characters may not pass through an animal's hex but may stop in it: entering it ends the move,
and a character standing there fights as on unfavourable ground (-), on top of the terrain and his
crew duty (:func:`combat_penalty`).

An animal's defence is 1 (the rule gives nothing else; the rest is our ruling, applying the
character rules the same way): it may be attacked alone on the foot combat table, with the
terrain column shifts of table 8.6 (terrain is a property of the hex: the animal's hex counts as
the defender's) and doors and windows (2.74); a result that stuns, wounds or kills a character
kills it, "defender retreats" makes it retreat one hex, results against the attackers apply to
them; there is no advance after combat (it follows a character's retreat or fall). It may be shot
at by offensive fire on the foot table (cover and range as for a character; no armour): "retreat
2 hexes" makes it retreat, a wound or kill result kills it. Rule 2.4.10 counts animals among the
figures standing in a hex ("human or animal"), so an animal led by the moving side that has followed
its leader at least one hex this phase may also be shot by defensive fire (rule 2.33): "movement
limited to 2 hexes" stops it after its second step this phase (it stays, and is loose once its leader
is no longer beside it), a wound or kill result kills it. An animal that must retreat and cannot (each step farther
from the attackers or the shooter, into a hex it could step into) is killed, as a character would
be wounded instead.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.vikings import fleet
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import terrain
from simulator.games.vikings.pieces import Char, active, hexes_of, living_at

State = dict[str, Any]
Animal = dict[str, Any]
RULE = "VK 5.5.3"
DEFENCE = 1
NAMES = {"goat": "goat", "pig": "pig"}


def living(state: State) -> list[Animal]:
    return [a for a in state.get("animals", {}).values() if a["alive"]]


def at(state: State, hex_: str) -> Animal | None:
    return next((a for a in living(state) if a["hex"] == hex_), None)


def combat_penalty(state: State, ch: Char) -> int:
    """-1 for a character standing in a goat's or pig's hex (rule 5.5.3)."""
    return -1 if any(at(state, h) for h in hexes_of(ch)) else 0


def led(state: State, cid: str) -> list[Animal]:
    return sorted((a for a in living(state) if a.get("led_by") == cid), key=lambda a: (a.get("led_order", 0), a["id"]))


def entry_problem(board: Board, state: State, src: str, dst: str) -> str | None:
    """Why an animal may not step from ``src`` into ``dst``."""
    if dst not in board:
        return "off the map"
    if board.is_water(dst):
        return "goats and pigs cannot swim"
    if board.terrain[dst] == "building":
        return "animals stay out of buildings (our ruling)"
    feat = board.feature(src, dst)
    if feat is not None and (not terrain()["hexsides"][feat]["passable"] or
                             not terrain()["hexsides"][feat].get("mounted", True)):
        return f"an animal cannot pass a {feat.replace('_', ' ')}"
    if dst in fleet.ship_hexes(board, state):
        return "animals are not taken aboard (our ruling)"
    if at(state, dst) or living_at(state).get(dst):
        return f"{dst} is taken"
    return None


def reins_problem(board: Board, state: State, ch: Char, animal: Animal) -> str | None:
    from simulator.games.vikings.horses import led as led_horses, limit
    from simulator.games.vikings.movement import _threatens
    if not animal["alive"]:
        return "the animal is dead"
    if animal.get("led_by") == ch["id"]:
        return f"{ch['name']} already leads it"
    if not active(ch) or not any(board.grid.adjacent(h, animal["hex"]) for h in hexes_of(ch)):
        return f"{ch['name']} is not an able character next to the {animal['kind']}"
    if len(led(state, ch["id"])) + len(led_horses(state, ch["id"])) >= limit(ch):
        return f"{ch['name']} already leads {limit(ch)} animal(s) (3 on foot, 1 mounted)"
    ships = fleet.ship_hexes(board, state)
    if any(_threatens(board, e, animal["hex"], ships) for e in state["chars"].values() if e["side"] != ch["side"]):
        return "an enemy able to attack is next to the animal"
    if animal["side"] != ch["side"]:
        keepers = [c for c in state["chars"].values() if c["side"] == animal["side"] and active(c)
                   and any(board.grid.adjacent(h, animal["hex"]) for h in hexes_of(c))]
        if keepers:
            return f"{keepers[0]['name']} stands by the {animal['kind']}: it stays under {animal['side']} control"
    leader = state["chars"].get(animal.get("led_by") or "")
    if leader is not None and leader["side"] == ch["side"] and active(leader):
        return f"{leader['name']} already leads it"
    return None


def take_reins(board: Board, state: State, ctx: Context, ch: Char, aid: str) -> None:
    animal = state["animals"][aid]
    why = reins_problem(board, state, ch, animal)
    if why:
        raise IllegalAction(why, RULE)
    taken = animal["side"] != ch["side"]
    state["reins_counter"] = state.get("reins_counter", 0) + 1
    animal.update(led_by=ch["id"], side=ch["side"], led_order=state["reins_counter"])
    ctx.emit("reins", f"{ch['name']} leads the {animal['kind']} {aid}" + (" (captured)" if taken else ""), RULE,
             pieces=[ch["id"], aid])


def release(state: State, ctx: Context, ch: Char, aid: str) -> None:
    animal = state["animals"][aid]
    if animal.get("led_by") != ch["id"]:
        raise IllegalAction(f"{ch['name']} does not lead {aid!r}", RULE)
    animal["led_by"] = None
    ctx.emit("reins", f"{ch['name']} lets the {animal['kind']} {aid} go", RULE, pieces=[ch["id"], aid])


def follow(board: Board, state: State, ctx: Context, ch: Char, left: list[str]) -> None:
    """Led animals trail behind the leader who has just left the hexes ``left``."""
    free = [h for h in left if h not in hexes_of(ch)]
    if not free:
        return
    target = free[-1]
    for animal in led(state, ch["id"]):
        capped = animal.get("move_cap") is not None and animal.get("steps", 0) >= animal["move_cap"]
        if not capped and board.grid.adjacent(animal["hex"], target) and \
                entry_problem(board, state, animal["hex"], target) is None:
            old = animal["hex"]
            animal["hex"] = target
            animal["steps"] = animal.get("steps", 0) + 1
            ctx.emit("animal", f"the {animal['kind']} {animal['id']} follows {ch['name']} to {target}", RULE,
                     pieces=[animal["id"]])
            target = old
        else:
            break


def moving(state: State, side: str) -> list[Animal]:
    """Animals of the moving ``side`` that have followed their leader this phase: targets of defensive
    fire (module notes)."""
    return [a for a in living(state) if a["side"] == side and a.get("steps", 0) > 0]


def new_phase(state: State) -> None:
    """A player phase begins: nobody has moved yet."""
    for animal in state.get("animals", {}).values():
        animal["steps"] = 0
        animal["move_cap"] = None


def tidy(board: Board, state: State, ctx: Context) -> None:
    """An animal whose leader is no longer next to it, or cannot act, is loose."""
    for animal in living(state):
        leader = state["chars"].get(animal.get("led_by") or "")
        if leader is None:
            continue
        if not active(leader) or not any(board.grid.adjacent(h, animal["hex"]) for h in hexes_of(leader)):
            animal["led_by"] = None
            ctx.emit("animal", f"the {animal['kind']} {animal['id']} is loose", RULE, pieces=[animal["id"]])


def label(animal: Animal) -> str:
    """``the goat`` or ``the goat g2`` (the id when it says more than the kind)."""
    return f"the {animal['kind']}" + ("" if animal["id"] == animal["kind"] else f" {animal['id']}")


def as_target(animal: Animal) -> Char:
    """The animal seen as a one-hex figure on foot, for the fire and terrain rules."""
    return {"id": animal["id"], "name": label(animal), "hex": animal["hex"],
            "front": None, "mounted": False, "side": animal["side"], "status": "ok", "kind": animal["kind"],
            "ship": None}


def kill(animal: Animal, ctx: Context, why: str, rule: str) -> None:
    animal["alive"] = False
    animal["led_by"] = None
    ctx.emit("animal", f"{label(animal)} is killed ({why})", rule, pieces=[animal["id"]])


def retreat(board: Board, state: State, ctx: Context, animal: Animal, hexes: int, away_from: list[str],
            rule: str) -> None:
    """The animal retreats ``hexes`` hexes, each step farther from ``away_from``, into hexes it may
    enter (:func:`entry_problem`); if it cannot, it is killed (module notes)."""
    def gap(h: str) -> int:
        return min(board.distance(h, x) for x in away_from)

    path: list[str] = []
    pos = animal["hex"]
    for _ in range(hexes):
        options = sorted((n for n in board.neighbours(pos) if gap(n) > gap(pos)
                          and entry_problem(board, state, pos, n) is None and n not in path),
                         key=lambda n: (-gap(n), n))
        if not options:
            kill(animal, ctx, f"it cannot retreat {hexes} hex(es)", rule)
            return
        pos = options[0]
        path.append(pos)
    animal["hex"] = pos
    ctx.emit("retreat", f"{label(animal)} retreats {hexes} hex(es) to {pos}", rule,
             pieces=[animal["id"]], path=path)


def attack(board: Board, state: State, ctx: Context, attackers: list[Char], aid: str) -> None:
    """Attack a goat or pig (defence 1) on table 8.8 with terrain shifts (+1 column for several
    attackers); see the module notes for the results."""
    from simulator.games.vikings import effects
    from simulator.games.vikings.catalogue import tables
    from simulator.games.vikings.melee import level, through_openings
    from simulator.games.vikings.pieces import attack_value
    from simulator.games.vikings.terrain_rules import Blocked, combat_level, step_cost
    animal = state["animals"].get(aid)
    if animal is None or not animal["alive"]:
        raise IllegalAction(f"no living animal {aid!r}", RULE)
    if not attackers or len({a["id"] for a in attackers}) != len(attackers):
        raise IllegalAction("name the attackers once each", "VK 2.7")
    ships = fleet.ship_hexes(board, state)
    for a in attackers:
        if a["side"] != state["phasing"] or not active(a) or a.get("attacked") or a.get("wall") or a.get("busy") \
                or state["combat"]["round"] > 1:
            raise IllegalAction(f"{a['name']} cannot attack now", "VK 2.7")
        ways = [h for h in hexes_of(a) if board.grid.adjacent(h, animal["hex"])]
        if not ways:
            raise IllegalAction(f"{a['name']} is not next to the {animal['kind']}", "VK 2.7")
        try:
            step_cost(board, state, a, ways[0], animal["hex"], bool(a.get("mounted")), ships)
        except Blocked as b:
            raise IllegalAction(f"{a['name']} could not move into the {animal['kind']}'s hex: {b.reason}",
                                "VK 2.76") from None
    strength = sum(attack_value(a) for a in attackers)
    beast = as_target(animal)
    lvl_a = min(level(board, state, a, True, [beast], ships) for a in attackers)
    lvl_d = combat_level(board, state, beast, ships)
    notes: list[str] = []
    lvl_a, lvl_d = through_openings(board, [(h, animal["hex"]) for a in attackers for h in hexes_of(a)
                                            if board.grid.adjacent(h, animal["hex"])], lvl_a, lvl_d, notes)
    shift = lvl_a - lvl_d + (1 if len(attackers) > 1 else 0)
    column = min(max(strength // DEFENCE - 1 + shift, 0), 11)
    die = ctx.dice.d10(f"attack on the {animal['kind']} {aid}")
    result = tables()["melee"]["foot"][die - 1][column]
    for a in attackers:
        a["attacked"] = True
        a["engaged"] = True
    col_name = f"{column + 1}-1" if column < 11 else "12-1+"
    ctx.emit("melee", f"{', '.join(a['name'] for a in attackers)} ({strength}) attack the {animal['kind']} {aid} "
             f"({DEFENCE}): shift {shift:+d}{' (' + ', '.join(dict.fromkeys(notes)) + ')' if notes else ''}, "
             f"column {col_name}, die {die} -> {result}", RULE,
             pieces=[a["id"] for a in attackers] + [aid], result=result, column=col_name, die=die, shift=shift)
    if result in ("D", "E", "F"):
        kill(animal, ctx, "melee", RULE)
    elif result == "C":
        retreat(board, state, ctx, animal, 1, [h for a in attackers for h in hexes_of(a)], RULE)
    elif result == "A":
        effects.wound(board, state, attackers[0], ctx, "hurt attacking an animal", "VK 8.8")
    elif result == "B":
        for a in attackers:
            effects.retreat(board, state, a, 1, [animal["hex"]], ctx, "VK 8.8")


def attack_options(board: Board, state: State) -> list[tuple[str, str]]:
    """(attacker, animal) pairs: single attacks on goats and pigs the phasing side could make."""
    out = []
    if state["combat"]["round"] > 1:
        return out
    for a in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if a["side"] != state["phasing"] or not active(a) or a.get("attacked") or a.get("wall") or a.get("busy"):
            continue
        for animal in living(state):
            if animal["side"] != a["side"] and any(board.grid.adjacent(h, animal["hex"]) for h in hexes_of(a)) \
                    and not animal.get("led_by"):
                out.append((a["id"], animal["id"]))
    return out
