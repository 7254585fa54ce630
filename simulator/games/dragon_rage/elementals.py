"""Elementals after they are summoned (DR 2.8.9, 2.11.4): keeping and losing control, and
the uncontrolled elemental that moves and attacks on its own.

* Control is lost when the elemental is more than 5 hexes from its summoner (checked after
  every action), when the summoner is attacked (melee, missiles, dragonfire, lightning) or
  when he dies.
* An uncontrolled ("wild") elemental acts in both players' turns: at the end of every
  movement phase it moves towards the nearest unit of either side (nearness counted in hexes
  along the ways it can walk, around walls and towers), and at the start of every melee phase
  it attacks that unit when it can reach it, else the nearest unit it can reach. Ties go to
  wizards, then dragons (their belly, from their own hex), heroes, other monsters, the
  strongest military unit, then a die roll. Its controller can no longer move it or attack
  with it.
* A controlled elemental that ends its move in a hex with enemy units must attack them in its
  side's next melee phase (the phase cannot end before it did, while such an attack is possible).
"""

from __future__ import annotations

from typing import Any

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
def move_wild(state: State, ctx: Context, el: Unit) -> None:
    """The wild elemental walks as close as it can to the nearest unit (its own hex if reachable),
    nearness counted along the ways it can walk (DR 2.8.9)."""
    from simulator.games.dragon_rage.arrival import entered_hex
    from simulator.games.dragon_rage.movement import _reach
    if not is_wild(el) or el.get("summoned_turn") == state["turn"]:
        return
    target = nearest_unit(state, ctx, el)
    if target is None:
        return
    for k in ("mp_used", "move_done"):
        el[k] = 0 if k == "mp_used" else False
    el["road_only"] = False
    el["turn_start_hex"] = el["hex"]
    el["controlled"] = True            # let the ordinary reachable-set code run for it
    try:
        options = _reach(state, el, None, True)
    finally:
        el["controlled"] = False
    own, beside = _goals(state, el, target)
    to_own = _field(state, el, own, reverse=True)
    to_beside = _field(state, el, beside, reverse=True)

    def left(h: str) -> float:
        return min(to_own.get(h, float("inf")), to_beside.get(h, float("inf")) + 1)

    best = (left(el["hex"]), 0.0, el["hex"])
    for h, (cost, _, _) in options.items():
        cand = (left(h), cost, h)
        if cand < best:
            best = cand
    el["move_done"] = True
    el["wild_target"] = target["id"]
    to = best[2]
    if to == el["hex"]:
        ctx.emit("elemental_wild", f"{el['id']} (uncontrolled) stays in {to}, closing on {target['id']}", RULE,
                 pieces=[el["id"], target["id"]])
        return
    cost, _, path = options[to]
    before = el["hex"]
    el["hex"] = to
    el["mp_used"] = int(cost)
    ctx.emit("elemental_wild", f"{el['id']} (uncontrolled) moves {before} -> {to} towards {target['id']}", RULE,
             pieces=[el["id"], target["id"]], path=path)
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


def wild_move_phase(state: State, ctx: Context) -> None:
    """End of any movement phase: every wild elemental moves (DR 2.8.9, both players' turns)."""
    for el in wild_elementals(state):
        if state["game_over"] is None:
            move_wild(state, ctx, el)


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

