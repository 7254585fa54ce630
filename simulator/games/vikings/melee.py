"""Melee: odds, terrain column shifts, the two combat tables, retreats and advances
(rules 2.7-2.76, 3.1-3.3, 4.81-4.86, tables 8.6-8.8)."""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.vikings import effects, fleet
from simulator.games.vikings.board import Board
from simulator.games.vikings.catalogue import ship_types, tables
from simulator.games.vikings.fire import _through_front
from simulator.games.vikings.pieces import Char, active, alive, armoured, attack_value, ctype, hexes_of, values
from simulator.games.vikings.terrain_rules import Blocked, combat_level, step_cost

State = dict[str, Any]
BAD_FOR_DEFENDER = {"foot": "CDEF", "mounted": "CDEFGH"}


def touching(board: Board, a: Char, b: Char) -> list[tuple[str, str]]:
    """Pairs of adjacent hexes between the two characters."""
    return [(x, y) for x in hexes_of(a) for y in hexes_of(b) if y in board.neighbours(x)]


def may_attack_into(board: Board, state: State, att: Char, dfd: Char,
                    ships: dict[str, tuple[str, int]]) -> str | None:
    """Why ``att`` cannot attack ``dfd`` (rule 2.76: only where it could move), or None."""
    pairs = touching(board, att, dfd)
    if not pairs:
        return f"{att['name']} is not next to {dfd['name']}"
    if not dfd.get("ship") and board.kind(dfd["hex"]) == "deep":
        return f"{dfd['name']} is in deep water and cannot be attacked"
    if not att.get("ship") and board.kind(att["hex"]) == "deep" and dfd.get("ship") and \
            not ship_types()[state["ships"][dfd["ship"]]["type"]].get("rowboat"):
        return "a swimmer in deep water cannot attack a drakkar or galley"
    last = None
    for x, y in pairs:
        try:
            step_cost(board, state, att, x, y, bool(att.get("mounted")), ships, attacking=True)
            return None
        except Blocked as b:
            last = b.reason
    return f"{att['name']} could not move into {dfd['name']}'s hex: {last}"


def level(board: Board, state: State, ch: Char, attacking: bool, others: list[Char],
          ships: dict[str, tuple[str, int]]) -> int:
    """+1/0/-1 of one character in this combat (tables 8.5-8.6, rules 4.81, 4.86), less 1 when he
    stands in a goat's or pig's hex (rule 5.5.3, cumulative)."""
    from simulator.games.vikings.animals import combat_penalty
    return _ground_level(board, state, ch, attacking, others, ships) + combat_penalty(state, ch)


def _ground_level(board: Board, state: State, ch: Char, attacking: bool, others: list[Char],
                  ships: dict[str, tuple[str, int]]) -> int:
    if ch.get("ship"):
        boat_vs_sea = all(not o.get("ship") and board.is_water(o["hex"]) for o in others)
        boat_vs_land = all(not o.get("ship") and not board.is_water(o["hex"]) for o in others)
        if boat_vs_sea:
            return 1
        if boat_vs_land and not attacking:
            return 1
        if ch.get("duty") == "boarding":
            return 1
        return 0 if attacking else -1
    return combat_level(board, state, ch, ships)


def attack(board: Board, state: State, ctx: Context, attacker_ids: list[str], defender_ids: list[str],
           casualty: str | None = None) -> None:
    if not attacker_ids or not defender_ids:
        raise IllegalAction("name at least one attacker and one defender", "VK 2.7")
    if len(set(attacker_ids)) != len(attacker_ids) or len(set(defender_ids)) != len(defender_ids):
        raise IllegalAction("a character is named twice", "VK 2.7")
    chars = state["chars"]
    for cid in attacker_ids + defender_ids:
        if cid not in chars:
            raise IllegalAction(f"no character {cid!r}", "VK 2.7")
    atts = [chars[c] for c in attacker_ids]
    dfds = [chars[c] for c in defender_ids]
    rnd = state["combat"]["round"]
    for a in atts:
        if a["side"] != state["phasing"] or not active(a):
            raise IllegalAction(f"{a['name']} cannot attack now", "VK 2.7")
        if a.get("wall"):
            raise IllegalAction(f"{a['name']} stands in the shield wall and cannot attack", "VK 3.2")
        if a.get("busy"):
            raise IllegalAction(f"{a['name']} is busy this turn", "VK 2.52")
        if rnd > 1 and not a.get("frenzy"):
            raise IllegalAction(f"only frenzied berserkers fight in round {rnd}", "VK 3.1")
        if a.get("attacked"):
            raise IllegalAction(f"{a['name']} has already attacked this turn", "VK 2.7")
    for d in dfds:
        if d["side"] == state["phasing"] or not alive(d):
            raise IllegalAction(f"{d['name']} is not an enemy on the map", "VK 2.7")
    ships = fleet.ship_hexes(board, state)
    for a in atts:
        if not any(touching(board, a, d) for d in dfds):
            raise IllegalAction(f"{a['name']} is not next to any defender", "VK 2.7")
    for d in dfds:
        reasons = [may_attack_into(board, state, a, d, ships) for a in atts]
        if all(r is not None for r in reasons):
            raise IllegalAction(next(r for r in reasons if r), "VK 2.76")
    att_total = sum(attack_value(a) for a in atts)
    def_total = sum(values(d)[1] for d in dfds)
    odds = att_total // max(def_total, 1)
    if odds < 1:
        raise IllegalAction(f"odds {att_total}:{def_total} are below 1-1", "VK 2.7")
    lvl_a = min(level(board, state, a, True, dfds, ships) for a in atts)
    lvl_d = min(level(board, state, d, False, atts, ships) for d in dfds)
    notes: list[str] = []
    lvl_a, lvl_d = through_openings(board, [p for a in atts for d in dfds for p in touching(board, a, d)],
                                    lvl_a, lvl_d, notes)
    if all(d.get("wall") for d in dfds) and all(
            _through_front(board, d, x) for a in atts for d in dfds for x, y in touching(board, a, d)
            if y in hexes_of(d) and y == d["hex"]):
        lvl_d = 1
        notes.append("against the shield wall's front")
    if any(d.get("axe") for d in dfds):
        lvl_d -= 1
        notes.append("defender swinging a two-handed axe")
    mounted_def = all(d.get("mounted") for d in dfds)
    shift = lvl_a - lvl_d
    combined = len(atts) > 1 and (not mounted_def or all(a.get("mounted") for a in atts))
    if combined:
        shift += 1
        notes.append("combined attack")
    column = min(max(odds - 1 + shift, 0), 11)
    table = "mounted" if mounted_def else "foot"
    all_armoured = all(armoured(d) for d in dfds)
    die = ctx.dice.d10(f"melee: {', '.join(a['name'] for a in atts)} against {', '.join(d['name'] for d in dfds)}")
    total = min(die + (1 if all_armoured else 0), 10)
    result = tables()["melee"][table][total - 1][column]
    col_name = f"{column + 1}-1" if column < 11 else "12-1+"
    for a in atts:
        a["attacked"] = True
    for c in atts + dfds:
        c["engaged"] = True            # no infiltration rolls against him in retreats/advances (2.54.4)
    ctx.emit("melee", f"{', '.join(a['name'] for a in atts)} ({att_total}) attack "
             f"{', '.join(d['name'] for d in dfds)} ({def_total}): odds {odds}-1, shift {shift:+d}"
             f"{' (' + ', '.join(dict.fromkeys(notes)) + ')' if notes else ''} -> column {col_name}; "
             f"die {die}{' +1 armour' if all_armoured else ''} -> {result}", "VK 8.8" if table == "foot" else "VK 8.7",
             pieces=attacker_ids + defender_ids, result=result, column=col_name, die=die, odds=odds, shift=shift)
    _resolve(board, state, ctx, atts, dfds, result, table, casualty)


def through_openings(board: Board, pairs: list[tuple[str, str]], lvl_a: int, lvl_d: int,
                     notes: list[str]) -> tuple[int, int]:
    """Levels of attacker and defender after fighting across doors and windows (rule 2.74): the
    defender is (+) through either, the attacker (-) through a window. ``pairs``: (attacker hex,
    defender hex) that touch; ``notes`` collects what applied."""
    for x, y in pairs:
        feat = board.feature(x, y)
        if feat == "door":
            lvl_d = max(lvl_d, 1)
            notes.append("through a door")
        elif feat == "window":
            lvl_d, lvl_a = max(lvl_d, 1), min(lvl_a, -1)
            notes.append("through a window")
    return lvl_a, lvl_d


def _pick(group: list[Char], casualty: str | None, wound: bool) -> Char:
    """The character who takes a stun or wound: the owner's pick (``casualty``), else the first.
    A wound among mixed defenders falls on an unarmoured one (rule 2.73)."""
    pool = [c for c in group if alive(c)]
    if wound and any(armoured(c) for c in pool) and not all(armoured(c) for c in pool):
        pool = [c for c in pool if not armoured(c)]
    for c in pool:
        if c["id"] == casualty:
            return c
    return pool[0]


def _resolve(board: Board, state: State, ctx: Context, atts: list[Char], dfds: list[Char], result: str,
             table: str, casualty: str | None) -> None:
    rule = "VK 8.7" if table == "mounted" else "VK 8.8"
    att_hexes = [h for a in atts for h in hexes_of(a)]
    def_hexes = [h for d in dfds for h in hexes_of(d)]
    vacated: list[str] = []
    winner: str | None = None
    if result == "A":
        effects.wound(board, state, _pick(atts, casualty, True), ctx, "struck back in melee", rule)
    elif result == "B":
        for a in atts:
            before = hexes_of(a)
            effects.retreat(board, state, a, 1, def_hexes, ctx, rule, forbidden_near=def_hexes)
            vacated += [h for h in before if h not in hexes_of(a)]
        winner = dfds[0]["side"]
    elif result == "C":
        for d in dfds:
            before = hexes_of(d)
            effects.retreat(board, state, d, 1, att_hexes, ctx, rule, forbidden_near=att_hexes)
            vacated += [h for h in before if h not in hexes_of(d)]
        winner = atts[0]["side"]
    elif result != "-":
        victim = _pick(dfds, casualty, result in ("E", "F") if table == "mounted" else result == "E")
        before = hexes_of(victim)
        if table == "foot":
            {"D": effects.stun, "E": effects.wound, "F": effects.kill}[result](
                board, state, victim, ctx, "melee", rule)
        elif result == "D":
            effects.stun(board, state, victim, ctx, "melee: stunned and unhorsed", rule)
        elif result == "E":
            effects.wound(board, state, victim, ctx, "melee", rule)
        elif result == "F":
            effects.unhorse(board, state, victim, ctx, horse_dies=True, rule=rule)
            effects.wound(board, state, victim, ctx, "melee: horse killed", rule)
        elif result == "G":
            effects.kill(board, state, victim, ctx, "melee", rule)
        elif result == "H":
            hid = f"horse_{victim['id']}"
            effects.kill(board, state, victim, ctx, "melee: horse and rider killed", rule)
            if hid in state["horses"]:
                state["horses"][hid]["alive"] = False
        if victim["status"] in ("stunned", "dead") or not set(before) & set(hexes_of(victim)):
            vacated += before
            winner = atts[0]["side"]
    if result in BAD_FOR_DEFENDER[table]:
        for a in atts:
            if ctype(a).troop == "berserker":
                a["victorious"] = True
    if winner is not None and vacated:
        group = atts if winner == atts[0]["side"] else dfds
        able = [c["id"] for c in group if active(c) and not c.get("wall")]
        if able:
            state["advance"] = {"side": winner, "pieces": able, "vacated": sorted(set(vacated)),
                                "hexes": 2, "hexes_mounted": 3}
            if not advance_options(board, state):
                state["advance"] = None      # nobody can take a first step: no offer (the offer and the check agree)
                return
            ctx.emit("advance_offer", f"{winner} may advance one of {', '.join(able)} into "
                     f"{', '.join(sorted(set(vacated)))}", "VK 2.75", pieces=able)


def advance(board: Board, state: State, ctx: Context, cid: str, path: list[str]) -> None:
    """Advance after combat: up to 2 hexes on foot (3 mounted), first into a vacated hex (rule 2.75)."""
    from simulator.games.vikings.movement import _cost
    offer = state.get("advance")
    if not offer or cid not in offer["pieces"]:
        raise IllegalAction(f"{cid} may not advance now", "VK 2.75")
    ch = state["chars"][cid]
    limit = offer["hexes_mounted"] if ch.get("mounted") else offer["hexes"]
    if not path or len(path) > limit:
        raise IllegalAction(f"an advance is 1 to {limit} hexes", "VK 2.75")
    if path[0] not in offer["vacated"]:
        raise IllegalAction(f"the first hex must be one the enemy left: {', '.join(offer['vacated'])}", "VK 2.75")
    ships = fleet.ship_hexes(board, state)
    from simulator.games.vikings.pieces import living_at
    steps: list[tuple[str, str | None]] = []
    for i, to in enumerate(path):
        try:
            _cost(board, state, ch, to, ships, living_at(state))
        except Blocked as b:
            raise IllegalAction(b.reason, b.rule) from None
        if ch.get("mounted"):
            from simulator.games.vikings.movement import rider_step
            rs = rider_step(board, ch, to)
            ch["hex"], ch["front"] = rs[1], rs[2]   # type: ignore[index]
        else:
            ch["hex"] = to
        steps.append((ch["hex"], ch.get("front")))
        landed = ships.get(ch["hex"])
        ch["ship"], ch["slot"] = landed if landed else (None, None)
        if not landed:
            ch["duty"] = None
    if living_at(state).get(ch["hex"], [cid]) != [cid]:
        raise IllegalAction(f"{path[-1]} is occupied: an advance may pass through the hex of a stunned or dead "
                            "enemy but must end in a free hex (rules 2.6, 2.75)", "VK 2.75")
    state["advance"] = None
    ctx.emit("advance", f"{ch['name']} advances to {path[-1]}", "VK 2.75", pieces=[cid], path=path)
    # infiltration in every hex passed through, not from enemies who fought this phase (rule 2.75, 2.54.4)
    from simulator.games.vikings.movement import _infiltration
    final = ch["hex"], ch.get("front")
    for (rear, front), to in zip(steps[:-1], path[:-1]):
        ch["hex"], ch["front"] = rear, front
        _infiltration(board, state, ctx, ch, to, ships, after_combat=True)
        if not alive(ch):
            break
    if alive(ch):
        ch["hex"], ch["front"] = final
    landed = ships.get(ch["hex"])
    ch["ship"], ch["slot"] = landed if landed else (None, None)
    if not alive(ch):
        return
    if ctype(ch).troop == "berserker" and state["combat"]["round"] > 1 and not _enemy_adjacent(board, state, ch):
        ch["frenzy"] = False
        ctx.emit("berserk", f"{ch['name']} ends his advance out of contact and calms down", "VK 3.1", pieces=[cid])


def _enemy_adjacent(board: Board, state: State, ch: Char) -> bool:
    return any(touching(board, ch, e) for e in state["chars"].values() if e["side"] != ch["side"] and alive(e))


def advance_options(board: Board, state: State) -> list[tuple[str, list[str]]]:
    """Every (piece, path) of the pending advance (paths of 1 or 2 hexes; riders 1 only, for brevity)."""
    from simulator.games.vikings.movement import _cost
    from simulator.games.vikings.pieces import living_at
    offer = state.get("advance")
    if not offer:
        return []
    ships = fleet.ship_hexes(board, state)
    occ = living_at(state)
    out = []
    for cid in offer["pieces"]:
        ch = state["chars"][cid]
        for first in offer["vacated"]:
            if first in hexes_of(ch):
                continue
            try:
                _cost(board, state, ch, first, ships, occ)
            except Blocked:
                continue
            if not occ.get(first):
                if ch.get("mounted") or first in board.neighbours(ch["hex"]):
                    out.append((cid, [first]))
            elif not ch.get("mounted"):
                # the stunned (or dead) enemy still lies there: the advance passes through his hex into a
                # free one, since no hex may hold two living characters (rules 2.6, 2.75)
                probe = dict(ch, hex=first)
                for second in sorted(board.neighbours(first)):
                    if occ.get(second) or second in hexes_of(ch):
                        continue
                    try:
                        _cost(board, state, probe, second, ships, occ)
                    except Blocked:
                        continue
                    out.append((cid, [first, second]))
    return out


def must_advance(board: Board, state: State) -> bool:
    """A victorious berserker must advance if that brings him next to an enemy (rule 3.1)."""
    for cid, path in advance_options(board, state):
        ch = state["chars"][cid]
        if ctype(ch).troop != "berserker" or not ch.get("victorious"):
            continue
        to = path[-1]
        for e in state["chars"].values():
            if e["side"] != ch["side"] and alive(e) and any(h in board.neighbours(to) for h in hexes_of(e)):
                return True
    return False


def attack_options(board: Board, state: State) -> list[tuple[list[str], list[str]]]:
    """Attacks that are legal now (for legal_actions), in this order: each attacker alone against
    each defender; every able attacker next to a defender together against him (rule 2.72);
    one attacker against all the enemies he touches (several defenders, rule 2.73)."""
    ships = fleet.ship_hexes(board, state)
    rnd = state["combat"]["round"]
    chars = sorted(state["chars"].values(), key=lambda c: c["id"])
    pairs: list[tuple[Char, Char]] = []
    for a in chars:
        if a["side"] != state["phasing"] or not active(a) or a.get("attacked") or a.get("wall") or a.get("busy"):
            continue
        if rnd > 1 and not a.get("frenzy"):
            continue
        for d in chars:
            if d["side"] == a["side"] or not alive(d) or not touching(board, a, d):
                continue
            if may_attack_into(board, state, a, d, ships) is None:
                pairs.append((a, d))

    def ok(atts: list[Char], dfds: list[Char]) -> bool:
        return sum(attack_value(a) for a in atts) // max(sum(values(d)[1] for d in dfds), 1) >= 1

    out = [([a["id"]], [d["id"]]) for a, d in pairs if ok([a], [d])]
    for d in dict.fromkeys(d["id"] for _, d in pairs):
        atts = [a for a, x in pairs if x["id"] == d]
        if len(atts) > 1 and ok(atts, [state["chars"][d]]):
            out.append(([a["id"] for a in atts], [d]))
    for a in dict.fromkeys(a["id"] for a, _ in pairs):
        dfds = [x for y, x in pairs if y["id"] == a]
        if len(dfds) > 1 and ok([state["chars"][a]], dfds):
            out.append(([a], [x["id"] for x in dfds]))
    return out


def berserkers_owing(board: Board, state: State) -> list[str]:
    """Berserkers in contact who have not yet attacked though they could (rule 3.1)."""
    owing = set()
    for atts, _ in attack_options(board, state):
        if len(atts) > 1:
            continue
        a = state["chars"][atts[0]]
        if ctype(a).troop == "berserker":
            owing.add(a["id"])
    return sorted(owing)


def frenzy_rolls(board: Board, state: State, ctx: Context) -> bool:
    """After a round: every victorious berserker rolls; 4+ goes berserk again (rule 3.1).
    Returns True when a new round starts."""
    frenzied = []
    for ch in sorted(state["chars"].values(), key=lambda c: c["id"]):
        if not ch.get("victorious"):
            continue
        ch["victorious"] = False
        if not active(ch):
            continue
        if not _enemy_adjacent(board, state, ch):
            ch["frenzy"] = False
            ctx.emit("berserk", f"{ch['name']} has no enemy in reach and calms down", "VK 3.1", pieces=[ch["id"]])
            continue
        die = ctx.dice.d10(f"berserker frenzy of {ch['name']}")
        if die <= tables()["berserker"]["calms_at_most"]:
            ch["frenzy"] = False
            ctx.emit("berserk", f"{ch['name']} rolls {die}: calms down", "VK 3.1", pieces=[ch["id"]])
        else:
            ch["frenzy"] = True
            ch["attacked"] = False
            frenzied.append(ch["id"])
            ctx.emit("berserk", f"{ch['name']} rolls {die}: goes berserk and fights again", "VK 3.1",
                     pieces=[ch["id"]])
    for ch in state["chars"].values():
        if ch["id"] not in frenzied:
            ch["frenzy"] = False
    if frenzied:
        state["combat"]["round"] += 1
        return True
    return False
