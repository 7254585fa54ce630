"""Elementals after they are summoned (DR 2.8.9, 2.11.4): keeping and losing control, and
the uncontrolled elemental that moves and attacks on its own.

* Control is lost when the elemental is more than 5 hexes from its summoner (checked after
  every action), when the summoner is attacked (melee, missiles, dragonfire, lightning) or
  when he dies.
* An uncontrolled ("wild") elemental acts in both players' turns (digest Q-MOV-10): at the
  start of every movement phase it picks the nearest unit of either side (nearness counted in
  hexes along the ways it can walk, around walls and towers; ties go to wizards, then dragons
  (their belly, from their own hex), heroes, other monsters, the strongest military unit, then a
  die roll), and the phasing player must move it by a shortest way toward that unit as far as
  its MP carry it (he chooses among the equally good ends; the phase cannot end before). At the
  start of every melee phase it attacks that unit when it can reach it, else the nearest unit it
  can reach. Its controller can no longer give it orders.
* A controlled elemental that ends its move in a hex with enemy units must attack them in its
  side's next melee phase (the phase cannot end before it did, while such an attack is possible).
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage import body
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.units import (State, Unit, attack_cf, ground_units_at, is_hero, is_major,
                                               is_minor, is_monster, is_wizard, kind, spec)

RULE = "DR 2.8.9"
#: Dragon types an elemental prefers after wizards (the text names "Dragon").
DRAGONS = ("dragon", "young_dragon")


def is_elemental(unit: Unit) -> bool:
    return kind(unit) == "elemental"


def is_wild(unit: Unit) -> bool:
    """An elemental on the map that no wizard controls any more."""
    return is_elemental(unit) and unit["alive"] and unit["hex"] is not None and unit.get("controlled") is False


def wild_elementals(state: State) -> list[Unit]:
    return [u for u in state["units"].values() if is_wild(u)]


def free(state: State, ctx: Context, el: Unit, why: str) -> None:
    """The summoner loses control of ``el`` for good."""
    if not el["alive"] or el.get("controlled") is False:
        return
    el["controlled"] = False
    el["must_attack_here"] = None
    ctx.emit("elemental_free", f"{el['id']} escapes control: {why}", RULE, pieces=[el["id"]])


def summoner_attacked(state: State, ctx: Context, units: list[Unit]) -> None:
    """Attacking a wizard frees the elementals he controls (melee, missiles, dragonfire)."""
    ids = {u["id"] for u in units if is_wizard(u)}
    if not ids:
        return
    for el in list(state["units"].values()):
        if el["alive"] and el.get("summoner") in ids and el.get("controlled"):
            free(state, ctx, el, f"its summoner {el['summoner']} was attacked")


def check_control(state: State, ctx: Context) -> None:
    """More than 5 hexes between an elemental and its summoner ends the control."""
    board = None
    for el in state["units"].values():
        if not (el["alive"] and el.get("controlled") and el.get("summoner") and el["hex"] is not None):
            continue
        wiz = state["units"].get(el["summoner"])
        if wiz is None or not wiz["alive"] or wiz["hex"] is None:
            free(state, ctx, el, "its summoner is gone")
            continue
        board = board or board_for(state["map"])
        radius = int(spec(el).get("rules", {}).get("control_radius", 5))
        dist = board.distance(el["hex"], wiz["hex"])
        if dist > radius:
            free(state, ctx, el, f"it is {dist} hexes from {wiz['id']} (more than {radius})")


# ------------------------------------------------------------------------------ targets
def _rank(unit: Unit) -> tuple[int, int]:
    """Priority among equally near units: lower first (DR 2.8.9)."""
    if is_wizard(unit):
        return (0, 0)
    if unit["type"] in DRAGONS:
        return (1, 0)
    if is_hero(unit):
        return (2, 0)
    if is_monster(unit):
        return (3, 0)
    return (4, -attack_cf(unit))


def _candidates(state: State, el: Unit) -> list[Unit]:
    """Units a wild elemental may go for: every other living unit on the ground, either side."""
    return [u for u in state["units"].values()
            if u["alive"] and u["hex"] is not None and not u.get("flying") and u["id"] != el["id"]]


def _pick(state: State, ctx: Context, el: Unit, units: list[Unit], purpose: str,
          distance: dict[str, float]) -> Unit | None:
    """The nearest of ``units`` by ``distance`` (unit id -> hexes), ties by rank then a die roll."""
    units = [u for u in units if u["id"] in distance]
    if not units:
        return None
    key = {u["id"]: (distance[u["id"]], *_rank(u)) for u in units}
    best = min(key.values())
    tied = sorted((u for u in units if key[u["id"]] == best), key=lambda u: u["id"])
    if len(tied) == 1:
        return tied[0]
    return tied[ctx.dice.choice(list(range(len(tied))), purpose)]


# ------------------------------------------------------------------- walking distances
def _field(state: State, el: Unit, starts: list[str], reverse: bool = False) -> dict[str, float]:
    """Hexes the elemental can walk between ``starts`` and them (any MP, units ignored, walls and
    terrain obeyed), with the number of hexes. ``reverse``: walking *to* the starts."""
    from simulator.games.dragon_rage.movement import move_map
    from simulator.games.dragon_rage.terrain_rules import step_block
    from simulator.geometry.hexmove import reachable
    if not starts:
        return {}
    board = board_for(state["map"])

    def rule(a: str, b: str) -> float | None:
        x, y = (b, a) if reverse else (a, b)
        return 0.0 if step_block(state, board, el, x, y) is None else None

    return dict(reachable(move_map(state["map"]), starts, hexside_rule=rule).cost)


def _goals(state: State, el: Unit, target: Unit) -> tuple[list[str], list[str]]:
    """(hexes where the elemental stands in the target's hex, hexes next to it from which it
    can attack it). A dragon is attacked in the belly from its own hex only (DR 2.8.9)."""
    from simulator.games.dragon_rage.combat import melee_block
    from simulator.games.dragon_rage.terrain_rules import may_end_in
    board = board_for(state["map"])
    here = target["hex"]
    own = [here] if here == el["hex"] or may_end_in(state, board, el, here) is None else []
    if target["type"] in DRAGONS:
        return own, []
    beside = [n for n in board.neighbours[here] if n is not None and n != el["hex"]
              and may_end_in(state, board, el, n) is None and melee_block(state, n, here) is None]
    if el["hex"] in board.neighbours[here] and melee_block(state, el["hex"], here) is None:
        beside.append(el["hex"])
    return own, beside


def walking_distances(state: State, el: Unit, units: list[Unit]) -> dict[str, float]:
    """How many hexes the elemental must walk to attack each unit (into its hex, or next to it
    plus one), around walls and towers it cannot cross; units it can never reach are left out."""
    from_el = _field(state, el, [el["hex"]])
    out: dict[str, float] = {}
    for u in units:
        own, beside = _goals(state, el, u)
        best = min([from_el[h] for h in own if h in from_el] + [from_el[h] + 1 for h in beside if h in from_el],
                   default=None)
        if best is not None:
            out[u["id"]] = best
    return out


def nearest_unit(state: State, ctx: Context, el: Unit) -> Unit | None:
    units = _candidates(state, el)
    return _pick(state, ctx, el, units, f"{el['id']} picks among equally near units",
                 walking_distances(state, el, units))


# ----------------------------------------------------------------------------- movement
def start_of_movement(state: State, ctx: Context) -> None:
    """Start of any movement phase (both players' turns): each wild elemental picks the nearest
    unit (ties by the rule's order, then a die) and is due to be moved toward it by the phasing
    player in this phase (DR 2.8.9; digest Q-MOV-10). Its MP are fresh in every movement phase."""
    for el in wild_elementals(state):
        if state["game_over"] is not None:
            return
        el["mp_used"] = 0
        el["move_done"] = False
        el["road_only"] = False
        el["turn_start_hex"] = el["hex"]
        el["wild_move"] = None
        if el.get("summoned_turn") == state["turn"]:
            continue
        target = nearest_unit(state, ctx, el)
        el["wild_target"] = target["id"] if target else None
        if target is None:
            continue
        el["wild_move"] = [state["turn"], state["phase"]]
        ctx.emit("elemental_target", f"{el['id']} (uncontrolled) heads for {target['id']} in {target['hex']}: "
                                     f"the {state['active']} must move it that way", RULE,
                 pieces=[el["id"], target["id"]], target=target["id"])


def _target_now(state: State, el: Unit) -> Unit | None:
    """The unit picked at the start of the phase; if it has gone (dead, off the map, in the air,
    out of reach) the nearest unit now, ties by the rule's order then by id (no die mid-phase)."""
    units = _candidates(state, el)
    distance = walking_distances(state, el, units)
    chosen = el.get("wild_target")
    if chosen in distance:
        return state["units"][chosen]
    ranked = sorted((distance[u["id"]], *_rank(u), u["id"]) for u in units if u["id"] in distance)
    return state["units"][ranked[0][-1]] if ranked else None


def _wild_reach(state: State, el: Unit) -> dict[str, tuple[float, bool, list[str]]]:
    """The hexes the elemental can walk to with its MP (the ordinary reachable-set code, which
    lets it ignore stacking; DR 2.8.9)."""
    from simulator.games.dragon_rage.movement import _reach
    # the ordinary code moves controlled units only; a copy keeps the (maybe read-only) state intact
    return _reach(state, {**el, "controlled": True}, None, True)


def _wild_plan(state: State, el: Unit) -> tuple[Unit | None, dict[str, tuple[float, list[str]]], Any]:
    """(target, {hex: (MP, path)}, hexes-to-go function) for the wild elemental's owed move."""
    if not is_wild(el) or el.get("wild_move") != [state["turn"], state["phase"]]:
        return None, {}, None
    target = _target_now(state, el)
    if target is None:
        return None, {}, None
    options = _wild_reach(state, el)
    own, beside = _goals(state, el, target)
    to_own = _field(state, el, own, reverse=True)
    to_beside = _field(state, el, beside, reverse=True)

    def left(h: str) -> float:
        return min(to_own.get(h, float("inf")), to_beside.get(h, float("inf")) + 1)

    best = min((left(h) for h in options), default=float("inf"))
    if best >= left(el["hex"]):
        return target, {}, left
    return target, {h: (cost, path) for h, (cost, _, path) in options.items() if left(h) == best}, left


def wild_destinations(state: State, el: Unit) -> tuple[Unit | None, dict[str, tuple[float, list[str]]]]:
    """(target, {hex: (MP, path)}): where the phasing player may move the wild elemental now.

    The hexes are the ends of its shortest ways toward the target as far as its MP carry it:
    every reachable hex that leaves it the fewest hexes to go (its target's own hex when it can
    get there). Empty when it owes no move this phase: already moved, summoned this turn, freed
    during this phase, nobody to reach, or it cannot get any nearer than it is."""
    target, options, _ = _wild_plan(state, el)
    return target, options


def _shortest_ways(state: State, el: Unit, to: str, steps: int, left: Any) -> list[list[str]]:
    """Every shortest way (its own hex first) to ``to`` in ``steps`` steps toward the target: each
    step legal and one hex nearer (1 MP a hex for an elemental)."""
    from simulator.games.dragon_rage.terrain_rules import step_block
    board = board_for(state["map"])
    out: list[list[str]] = []

    def extend(way: list[str]) -> None:
        a = way[-1]
        if len(way) - 1 == steps:
            if a == to:
                out.append(way)
            return
        for b in board.neighbours[a]:
            if b is not None and board.distance(b, to) <= steps - len(way) and left(b) == left(a) - 1 \
                    and step_block(state, board, el, a, b) is None:
                extend([*way, b])

    extend([el["hex"]])
    return out


def _chosen_way(state: State, el: Unit, to: str, way: Any, steps: int, left: Any) -> list[str] | None:
    """The player's own way to ``to`` (``path``: the hexes after its own, ending in ``to``), if it
    is one of its shortest ways toward the target."""
    if not isinstance(way, list) or not all(isinstance(h, str) for h in way):
        return None
    full = [el["hex"], *way]
    return full if full in _shortest_ways(state, el, to, steps, left) else None


def way_effects(state: State, way: list[str]) -> tuple[str, ...]:
    """The hexes of a way whose entry changes something: VP hexes not yet destroyed (an
    elemental destroys them, DR 2.8.9) and the town side of wall gates (their control passes,
    DR 2.5.5)."""
    board = board_for(state["map"])
    gates = {e.inside for e in board.entrances.values() if e.tower is None}
    return tuple(h for h in way[1:] if (h in board.vp and h not in state["vp"]["destroyed"]) or h in gates)


def wild_ways(state: State, el: Unit) -> dict[str, list[list[str]]]:
    """{end hex: the ways (hexes after its own) the player may choose besides the default}: one
    per different set of hexes of consequence entered (:func:`way_effects`), so that a player
    at the screen can pick every way that matters and no two offered ways do the same."""
    target, options, left = _wild_plan(state, el)
    out: dict[str, list[list[str]]] = {}
    for to, (cost, path) in sorted(options.items()):
        seen = {way_effects(state, path)}
        for way in _shortest_ways(state, el, to, int(cost), left):
            effects = way_effects(state, way)
            if effects not in seen:
                seen.add(effects)
                out.setdefault(to, []).append(way[1:])
    return out


def wild_move_actions(state: State) -> list[dict[str, Any]]:
    """The moves the phasing player owes for wild elementals in this movement phase: to each end
    by the default way, and by every other shortest way that enters different VP or gate hexes."""
    out: list[dict[str, Any]] = []
    for el in wild_elementals(state):
        ways = wild_ways(state, el)
        for h in sorted(wild_destinations(state, el)[1]):
            out.append({"type": "move", "unit": el["id"], "to": h})
            out += [{"type": "move", "unit": el["id"], "to": h, "path": way} for way in ways.get(h, [])]
    return out


def owed_wild_move(state: State) -> tuple[str, str] | None:
    """Why the movement phase may not end: a wild elemental has not yet been moved."""
    for el in wild_elementals(state):
        target, options = wild_destinations(state, el)
        if options and target is not None:
            return (f"{el['id']} is out of control: move it toward {target['id']} ({target['hex']}) first, "
                    f"to {', '.join(sorted(options))}", RULE)
    return None


def move_wild(state: State, ctx: Context, el: Unit, to: Any, way: Any = None) -> None:
    """The phasing player moves the wild elemental by a shortest way toward its target (DR 2.8.9);
    ``way`` (optional): which of the equally short ways to ``to`` it takes, else the cheapest the
    reachable set found."""
    from simulator.games.dragon_rage.arrival import entered_hex, left_hex
    if el.get("summoned_turn") == state["turn"]:
        raise IllegalAction("an elemental cannot move in the turn it is summoned", RULE)
    if el.get("wild_move") != [state["turn"], state["phase"]]:
        why = "it has made its move this phase" if el.get("wild_moved") == [state["turn"], state["phase"]] \
            else "it moves on its own, from the next movement phase"
        raise IllegalAction(f"{el['id']} is out of control: {why}", RULE)
    if not isinstance(to, str):
        raise IllegalAction(f"'to' must be a hex label, got {to!r}", "DR 2.4")
    target, options, left = _wild_plan(state, el)
    if target is None or not options:
        raise IllegalAction(f"{el['id']} is out of control and cannot get any nearer to "
                            f"{target['id'] if target else 'any unit'}: it stays", RULE)
    if to not in options:
        raise IllegalAction(f"{el['id']} is out of control: it must take a shortest way toward {target['id']} "
                            f"({target['hex']}) as far as it can, ending in {', '.join(sorted(options))}", RULE)
    cost, path = options[to]
    if way is not None:
        chosen = _chosen_way(state, el, to, way, int(cost), left)
        if chosen is None:
            raise IllegalAction(f"{el['id']}: {way!r} is not one of its shortest ways from {el['hex']} to {to} "
                                f"toward {target['id']} (each step one hex nearer, {int(cost)} steps)", RULE)
        path = chosen
    before = el["hex"]
    el["hex"] = to
    el["mp_used"] = int(cost)
    el["move_done"] = True
    el["wild_move"] = None
    el["wild_moved"] = [state["turn"], state["phase"]]
    el["wild_target"] = target["id"]
    left_hex(state, ctx, el, before)
    ctx.emit("elemental_wild", f"{el['id']} (uncontrolled) moves {before} -> {to} towards {target['id']}", RULE,
             pieces=[el["id"], target["id"]], path=path, cost=int(cost))
    for h in path[1:]:
        if el["alive"]:
            entered_hex(state, ctx, el, h)


# ------------------------------------------------------------------------------ attacks
def _attackable(state: State, el: Unit, u: Unit) -> bool:
    from simulator.games.dragon_rage.combat import magic_block, melee_block
    board = board_for(state["map"])
    if u["hex"] != el["hex"] and board.direction(el["hex"], u["hex"]) is None:
        return False
    if magic_block(state, el["hex"], u["hex"]) or melee_block(state, el["hex"], u["hex"]):
        return False
    if is_major(u):
        return _monster_area(state, el, u) is not None
    return True


def _monster_area(state: State, el: Unit, monster: Unit) -> str | None:
    """A dragon's belly from underneath (its own hex, DR 2.8.9); for other major monsters the
    first area (wings, legs, head) it can reach."""
    from simulator.games.dragon_rage.monster_combat import area_reachable_from
    if monster["type"] in DRAGONS:
        ok = el["hex"] == monster["hex"] and "belly" in monster["damage"] and \
            not body.area_destroyed(monster, "belly") and area_reachable_from(state, monster, "belly", el["hex"])
        return "belly" if ok else None
    for area in ("wings", "legs", "head"):
        if area in monster["damage"] and not body.area_destroyed(monster, area) and \
                area_reachable_from(state, monster, area, el["hex"]):
            return area
    return None


def attack_wild(state: State, ctx: Context, el: Unit) -> None:
    """The wild elemental attacks the unit it moved towards when it can reach it, else the
    nearest it can reach (melee, CRT for military units; DR 2.8.9)."""
    from simulator.games.dragon_rage.casualties import damage_monster
    from simulator.games.dragon_rage.combat import crt_attack, hex_defence
    if not is_wild(el) or el.get("wild_attacked_phase") == (state["turn"], state["phase"]):
        return
    el["wild_attacked_phase"] = [state["turn"], state["phase"]]
    reachable = [u for u in _candidates(state, el) if _attackable(state, el, u)]
    chased = [u for u in reachable if u["id"] == el.get("wild_target")]
    target = chased[0] if chased else _pick(state, ctx, el, reachable, f"{el['id']} picks whom to attack",
                                            {u["id"]: 0 if u["hex"] == el["hex"] else 1 for u in reachable})
    if target is None:
        return
    cf = attack_cf(el)
    if is_major(target) or is_minor(target):
        area = _monster_area(state, el, target) if is_major(target) else "body"
        need = int(body.areas(target)[area]["hit_on"]) if is_major(target) else int(spec(target).get("hit_on", 5))
        roll = ctx.dice.d6(f"{el['id']} attacks {target['id']}")
        hit = roll >= need
        ctx.emit("attack", f"{el['id']} (uncontrolled) attacks the {area} of {target['id']}: rolled {roll} needing "
                           f"{need}: {'hit' if hit else 'miss'}", RULE, pieces=[el["id"], target["id"]],
                 roll=roll, need=need, success=hit)
        if hit:
            damage_monster(state, ctx, target, area if area != "body" else "", cf, [el["id"]], RULE)
        return
    victims = [u for u in ground_units_at(state, target["hex"])
               if u["id"] != el["id"] and not is_monster(u) and not is_elemental(u)] or [target]
    crt_attack(state, ctx, cf, hex_defence(victims), victims, f"{el['id']} (uncontrolled) attacks {target['hex']}",
               RULE, [el["id"]])


def wild_melee_phase(state: State, ctx: Context) -> None:
    """Start of any melee phase: every wild elemental attacks."""
    for el in wild_elementals(state):
        if state["game_over"] is None:
            attack_wild(state, ctx, el)


# ------------------------------------------------- a controlled elemental stopping on enemies
def stopped_on_enemies(state: State, el: Unit) -> None:
    """Record the duty to attack the enemies it stopped with (cleared after its side's melee)."""
    here = el["hex"]
    foes = [u for u in ground_units_at(state, here) if u["side"] != el["side"] and u["id"] != el["id"]]
    el["must_attack_here"] = here if foes else None


def owed_attack_options(state: State, el: Unit) -> list[dict[str, Any]]:
    """The attacks that discharge ``el``'s duty to attack the enemies it stopped on (legal now)."""
    from simulator.games.dragon_rage.legal import is_legal
    here = el.get("must_attack_here")
    if not here or not el["alive"] or el["side"] != state["active"] or el["hex"] != here or el["attacked"]:
        return []
    options: list[dict[str, Any]] = [{"type": "melee", "units": [el["id"]], "target": here}]
    options += [{"type": "attack_monster", "unit": el["id"], "monster": u["id"], "area": a}
                for u in ground_units_at(state, here) if u["side"] != el["side"] and is_monster(u)
                for a in (list(u["damage"]) if is_major(u) else ["body"])]
    return [a for a in options if is_legal(state, a)]


def owed_attack(state: State) -> tuple[str, str] | None:
    """Why the melee phase may not end: an elemental has not yet attacked the enemies it stopped on."""
    for el in state["units"].values():
        if owed_attack_options(state, el):
            return (f"{el['id']} stopped in {el['hex']} with enemy units and must attack them first", RULE)
    return None


def elemental_attack_check(state: State, unit: Unit, target_hex: str) -> tuple[str, str] | None:
    """Refuse an attack elsewhere while the elemental owes one in its own hex, or any attack by
    a wild elemental through its controller."""
    if not is_elemental(unit):
        return None
    if unit.get("controlled") is False:
        return (f"{unit['id']} is out of control: it moves and attacks on its own", RULE)
    here = unit.get("must_attack_here")
    if here and here == unit["hex"] and target_hex != here:
        return (f"{unit['id']} must attack the enemies in its own hex {here}", RULE)
    return None

