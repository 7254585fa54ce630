"""The action specifications of Dragon Rage: label, parameters and rule of every action type.

The rules are still carried out by ``actions.apply_action``; these declarations let the session
refuse malformed parameters before any rule runs, and generate docs/actions.md.
"""

from __future__ import annotations

from typing import Any, Mapping

from simulator.core.actions import (NO_PARAMS, ActionSpec, ActionTable, Label, boolean, either, hex_label, integer,
                                    list_of, params, piece, ruled, text)
from simulator.games.dragon_rage.magic import SPELLS

INTRO = """Every action is a mapping with `type` and the parameters below. Unit ids are those of the state
(`inf1`, `dragon2`, `wizard1`, ...). Hexes are quoted CCRR labels (`"0707"`). Facings and
directions are indices 0-5 = N, NE, SE, S, SW, NW. A refused action names the rule that forbids it."""

UNIT = piece("a unit id")
HEX = hex_label()
HEXES = list_of(HEX, "a list of hex labels", lo=1)
UNITS = list_of(UNIT, "a list of unit ids", lo=1)
FACING = integer(0, 5, "a facing 0-5 (N, NE, SE, S, SW, NW)")
AREAS = ("head", "wings", "legs", "belly", "body")


#: A facing or direction 0-5 in compass words (DR 2.4.1: hex sides from north, clockwise).
COMPASS = ("north", "north-east", "south-east", "south", "south-west", "north-west")


def compass(value: Any) -> str:
    """A facing 0-5 as a compass point; anything else as it is."""
    return COMPASS[value] if isinstance(value, int) and 0 <= value < 6 else str(value)


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _unit(state: Any, action: Mapping[str, Any]) -> Mapping[str, Any]:
    units = state.get("units") if isinstance(state, Mapping) else None
    found = units.get(action.get("unit")) if isinstance(units, Mapping) else None
    return found if isinstance(found, Mapping) else {}


def _walk_label(state: Any, action: Mapping[str, Any]) -> str:
    """Walk N hexes to (the end of {path}, or {to})"""
    path = action.get("path")
    if path:
        return f"Walk {_hexes(len(path))} to {path[-1]}"
    return f"Walk to {action.get('to')}"


def _bound_label(state: Any, action: Mapping[str, Any]) -> str:
    """Bound N hexes to {to}"""
    start, to = _unit(state, action).get("hex"), action.get("to")
    try:
        from simulator.games.dragon_rage.board import board_for
        return f"Bound {_hexes(board_for(state['map']).distance(start, to))} to {to}"
    except Exception:        # noqa: BLE001 - a label never stops a menu: without the distance
        return f"Bound to {to}"


def _fly_label(state: Any, action: Mapping[str, Any]) -> str:
    """Fly N hexes to (the end of {path}) (and land)"""
    path = action.get("path") or []
    end = f"Fly {_hexes(len(path))} to {path[-1]}" if path else "Fly"
    return end + (" and land" if action.get("land") else "")


def _breathe_label(state: Any, action: Mapping[str, Any]) -> str:
    """Breathe fire {direction} (as a compass point): the hexes it reaches"""
    way = compass(action.get("direction"))
    monster = _unit(state, action)
    try:
        from simulator.games.dragon_rage.monster_combat import fire_path
        reached = fire_path(state, monster, action["direction"]) if monster else []
    except Exception:        # noqa: BLE001 - a label never stops a menu: without the hexes
        reached = []
    return f"Breathe fire {way}: {', '.join(reached)}" if reached else f"Breathe fire {way}"


def _rotate_label(state: Any, action: Mapping[str, Any]) -> str:
    """Turn to face {facing} (as a compass point)"""
    return f"Turn to face {compass(action.get('facing'))}"


def _slither_label(state: Any, action: Mapping[str, Any]) -> str:
    """Slither straight ahead (or turning left / right first)"""
    turn = action.get("turn", 0)
    return {-1: "Slither, turning left first", 1: "Slither, turning right first"}.get(turn, "Slither straight ahead")


def _cast_label(state: Any, action: Mapping[str, Any]) -> str:
    """Cast {spell} (radius, target hex or unit, element)"""
    spell = str(action.get("spell", "")).replace("_", " ")
    extra = [f"radius {action['radius']}" if "radius" in action else "",
             f"at {action['target']}" if action.get("target") else "",
             f"on {action['target_unit']}" if action.get("target_unit") else "",
             f"of {action['element']}" if action.get("element") else "",
             "added to the first melee" if action.get("add_to_melee") else ""]
    extra = [e for e in extra if e]
    return f"Cast {spell}" + (f" ({', '.join(extra)})" if extra else "")


def _spec(kind: str, label: Label, schema: dict, rule: str, summary: str) -> ActionSpec:
    return ActionSpec(kind, label, schema, rule, summary)


SPECS = ActionTable([
    _spec("end_phase", "End the phase", NO_PARAMS, "DR 2.6, 2.11.3, 2.8.9, 2.12.1.7.1, 4.3.3",
          "ends the phase (during a campaign head start: marks the rest of it by default, see `head_start`); "
          "after the last phase the turn pointer advances and the end-of-turn victory checks run; refused while "
          "a T-Rex owes a possible counter-attack, a controlled elemental has not attacked the enemies it stopped "
          "on, or (movement phase) an uncontrolled elemental has not been moved. Beginning a movement phase makes "
          "every uncontrolled elemental pick its target (the phasing player then moves it) and moves the side's "
          "berserk monsters; beginning a melee phase makes uncontrolled elementals and the side's berserk "
          "monsters attack (automatic)"),
    _spec("move", "Move to {to}",
          params({"unit": UNIT, "to": HEX},
                 {"leave_elowyn": boolean("an orc escorting Elowyn moves on without her"),
                  "path": list_of(HEX, "a list of hex labels", lo=1,
                                  doc="uncontrolled elemental only: the hexes after its own, ending in `to`")}),
          "DR 2.4, 2.5, 2.8.9, 2.10.7",
          "moves a troop, character, minor monster or elemental to `to` by the cheapest legal path (road MP only "
          "if it started on the road and every step follows it); may be repeated until the MP are spent. An "
          "uncontrolled elemental is moved by the phasing player, whoever summoned it, once per movement phase "
          "and only to the ends of its shortest ways toward the unit it picked at the start of the phase (the "
          "phase cannot end before; DR 2.8.9); `path` picks one of the equally short ways there, else it takes "
          "the cheapest; the legal list (and the piece's menu, which names each way and the VP or gate hexes it "
          "enters) offers, besides that default, one `path` for every other shortest way that enters different "
          "VP or gate hexes. On Nurkott an orc escorting Elowyn takes her along and ends only in empty hexes (off "
          "the map at a road exit: invader -3 VP); with `leave_elowyn: true` it moves on without her and the next "
          "orc unit entering her hex takes charge of her"),
    _spec("walk", _walk_label,
          params({"unit": UNIT}, {"path": list_of(HEX, "a list of adjacent hex labels", lo=1,
                                                  doc="the legal list offers the cheapest path to every "
                                                      "reachable hex"),
                                  "to": hex_label("one hex: a path of one step")},
                 alternatives=[["path"], ["to"]]),
          "DR 2.12.1.1.1, 2.4.7, 2.5.5.1",
          "a major monster walks hex by hex: 1 MP per hex + 1 per extra 60° turn; enemy hexes on the way are "
          "overrun moves, an enemy hex at the end is an overrun attack (+1 MP, CF 6 / 9); an invader monster may "
          "walk through a closed door, breaking it as it turns to face it"),
    _spec("rotate", _rotate_label, params({"unit": UNIT, "facing": FACING}),
          "DR 2.12.1.1.1", "a walking monster turns in place, 1 MP per 60°"),
    _spec("slither", _slither_label,
          params({"unit": UNIT}, {"turn": integer(-1, 1, doc="0 = one hex ahead (the default), -1/1 = turn")}),
          "DR 2.12.1.1.2", "the monster's whole move; no attack this turn; entering a VP hex destroys it"),
    _spec("bound", _bound_label, params({"unit": UNIT, "to": HEX}), "DR 2.12.1.1.3",
          "optional 60° turn and 1-3 (roc 4) hexes straight on; lands on an empty hex or heroes/wizards; "
          "destroys an empty VP hex, wrecks a wooden bridge"),
    _spec("fly", _fly_label,
          params({"unit": UNIT, "path": HEXES},
                 {"land": boolean("land at the end (not in the take-off phase); default false")}),
          "DR 2.12.1.1.4",
          "flight (take-off if grounded): straight legs of 2+ hexes joined by 60° turns, max 6/4/8 hexes; "
          "whirlwinds force a crash roll"),
    _spec("land", "{unit} lands", params({"unit": UNIT}), "DR 2.12.1.1.4", "a flyer lands where it starts"),
    _spec("jump_off", "{unit} jumps off the tower into {to}", params({"unit": UNIT, "to": HEX}), "DR 2.12.1.1.5",
          "a monster on a tower throws itself into an adjacent hex (crash)"),
    _spec("enter", "{unit} enters the map at {to}", params({"unit": UNIT, "to": HEX, "facing": FACING}),
          "DR 3.2.1", "an off-map major monster walks onto an entry hex (1 MP)"),
    _spec("smash", "{unit} smashes the entrance toward {toward}",
          params({"unit": UNIT, "toward": HEX},
                 {"mp": either(integer(0, 99), {"type": "null"}, expected="a whole number of MP, or null",
                               doc="monsters at gates only: the MP spent on it")}),
          "DR 2.5.5, 2.5.8, 2.11.2.2",
          "breaks the gate/door toward `toward`: monsters break doors by facing them (automatic after any walk "
          "step, turn, slither, bound or entry facing a door and at the end of the invader movement phase, so "
          "`smash` on a door is only the same free break), gates with 1d6 ≤ MP spent (1 MP if unguarded); troops "
          "roll 2d6 on the scaling table at the end of their move (unguarded gate: 1 MP); on Nurkott a sea "
          "serpent may smash a plain wall hexside as a red gate (1 MP unguarded, else 2d6 9+), opening a breach"),
    _spec("climb", "{unit} climbs the wall into {to}", params({"unit": UNIT, "to": HEX}), "DR 2.5.3.1, 2.5.8",
          "an invader unit scales the wall into `to` (1d6 on the scaling table, +1 if no defender near); "
          "orcs/goblins once per game and no attack that turn; `to` may hold only enemy heroes/wizards, who step "
          "aside on success"),
    _spec("burn_bridge", "{unit} sets the bridge alight", params({"unit": UNIT}), "DR 2.5.7.1",
          "a troop unit on a wooden bridge starts wrecking it; the bridge burns when it moves off next turn"),
    _spec("ravage", "{unit} ravages its hex", params({"unit": UNIT}, {"hex": hex_label("sea serpent only")}),
          "DR 2.3, 2.11.2",
          "destroys the VP hex: monsters spend 1 MP in it (movement), troops/heroes instead of attacking (invader "
          "melee), sea serpents an empty adjacent shore hex"),
    _spec("open_entrance", "{unit} opens the entrance toward {toward}", params({"unit": UNIT, "toward": HEX}),
          "DR 2.5.5.3",
          "a defender opens a tower entrance or controlled gate in his melee phase; it stays open through the "
          "invader's next player-turn"),
    _spec("melee", "{units} melee against {target}",
          params({"units": UNITS, "target": HEX},
                 {"boost_instead": ruled(list_of(UNIT, "a list of unit ids", doc="attacking units that count "
                                                                                 "as boosted instead of doubled"),
                                         "DR 2.8.5")}),
          "DR 2.7.1, 2.7.5, 2.8.5, 2.11.3, 2.11.2.2",
          "units combine their CF against all military units in `target` on the CRT (hero doubling, Boost +1 "
          "when at least half the attacking CF is boosted, missile units add their CF if in range and sight); a "
          "boosted unit stacked with an unwounded hero takes the doubling (not counted as boosted) unless named "
          "in `boost_instead`, then it attacks with its own CF and counts as boosted (the legal list offers these "
          "variants only when some attacker has both); a T-Rex attacked in melee must strike one of its "
          "attackers; a sea serpent in the water may attack a shore tower unless across a wall"),
    _spec("fire", "{units} fire at {target}", params({"units": UNITS, "target": HEX}), "DR 2.7.6",
          "missile units fire together at a hex of military units on the CRT (range 2, 3 from a tower; sight "
          "needed except catapults)"),
    _spec("attack_monster", "{unit} attacks the {area} of {monster}",
          params({"unit": UNIT, "monster": UNIT, "area": text("a monster area", enum=AREAS,
                                                              doc="`body` for minor monsters")}),
          "DR 2.7.2, 2.7.3",
          "one unit's melee attack on a monster area reachable from its position; hit = damage equal to its CF"),
    _spec("fire_at_monster", "{unit} shoots at the {area} of {monster}",
          params({"unit": UNIT, "monster": UNIT, "area": text("a monster area", enum=AREAS)}),
          "DR 2.7.6.1, 2.7.6.3, 2.12.1.9",
          "one missile unit shoots (missile or melee phase): 5+ adjacent to a grounded monster, 6+ otherwise; "
          "1 point, or 2 to the belly of a flyer"),
    _spec("monster_attack", "{unit} attacks {target}",
          params({"unit": UNIT, "target": HEX,
                  "groups": list_of(text("an attack group"), "a list of attack groups such as \"head.0\"", lo=1)}),
          "DR 2.12.1.6", "a major monster's groups attack one hex on the CRT (slayers ×3)"),
    _spec("breathe", _breathe_label, params({"unit": UNIT, "direction": FACING}), "DR 2.12.1.5",
          "dragonfire into a front direction: two hexes (young dragon one), escape rolls, VP destroyed"),
    _spec("cast", _cast_label,
          params({"unit": piece("a wizard's unit id"), "spell": text("a spell", enum=SPELLS)},
                 {"radius": integer(0, 9, doc="boost_morale"),
                  "target": hex_label("fog, whirlwind, lightning, summon_elemental"),
                  "target_unit": piece("a unit id", "lightning, dismiss_elemental"),
                  "element": text("an element", enum=("fire", "earth"), doc="summon_elemental"),
                  "max_cost": either(integer(0, 99), {"type": "null"}, expected="a number of spell points, or null",
                                     doc="dismissing another's elemental: the most SP to pay"),
                  "add_to_melee": boolean("lightning on a non-monster: hold the power and add it to this turn's "
                                          "first melee of the caster's side against that unit's hex")}),
          "DR 2.8, 2.8.8", "casts one spell per turn paying spell points"),
    _spec("reinforce", "Reinforcement at {to}", params({"to": HEX}), "DR 2.9",
          "places one reinforcement (infantry, or militia when none are left; Nurkott orcs/goblins) on a vacant "
          "arrival hex"),
    _spec("declare_end", "Declare the end of the game", NO_PARAMS, "DR 2.3",
          "only with the optional graduated results (`rules.graduated_victory`), in the invader's last phase of "
          "his turn (his melee phase) when it could end: closes the phase like `end_phase` and ends the game; the "
          "graduated table gives the result (the invader's level for his VP, or the defender's win below "
          "objective - 4). With graduated results reaching the objective does not end the game (the invader may "
          "play on toward \"maximum\"); every VP hex destroyed and the defender's end conditions still do"),
    _spec("head_start", "Head start: {hex} destroyed", params({"hex": HEX}), "DR 4.3.3",
          "only before turn 1 of a campaign game that grants the invader a head start (scenario "
          "`setup.head_start_vp`): the invader marks one VP hex destroyed (not yet destroyed, worth no more than "
          "the head start left), its VP counted for him; the step ends by itself when nothing more fits, and "
          "until then nothing else may be done. `end_phase` during the step marks the rest by default (the most "
          "valuable hexes that fit) and play begins"),
], INTRO)
