"""The action specifications of SAGA: label, parameters and rule of every action type.

The rules are still carried out by ``Saga.apply`` (its ``_do_<type>`` handlers and
``placement.ACTIONS``); these declarations let the session refuse malformed parameters before
any rule runs, and generate docs/actions.md.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from simulator.core.actions import (NO_PARAMS, ActionSpec, ActionTable, angle, boolean, described, either, integer,
                                    list_of, mapping_of, nullable, number, params, piece, point, text)
from simulator.games.saga import bids, scenery

INTRO = """Positions are inches from the table's bottom-left corner, y up (the convention of
`simulator/geometry/table.py`; the client's y-down view is converted in `presentation.py` only). Die numbers are 0-7
(each player owns 8 faction dice; a second board's dice are 8-15). `source` of an activation is an activation box id of
the faction board (e.g. `hirdmen`, `bondi`), `determination` (the Warlord, once per
turn) or `free` (an activation granted by an ability, e.g. Storm of Arrows, We Obey, Pursuit, by
Ragnar's Raider, or the Flemish mercenaries' once-per-turn free activation)."""

UNIT = piece("a unit id")
DIE = integer(0, 15, "a die number 0-15")
FIGURES = list_of(piece("a figure id"), "a list of figure ids")
ORDER = text("an order", enum=("move", "shoot", "rest"))
PLACES = mapping_of(point(), "a mapping of figure ids to points [x, y]", lo=1)
PATHS = mapping_of(list_of(point(), "a list of points [x, y]", lo=1), "a mapping of figure ids to lists of points",
                   lo=1)
DX = number(-1000, 1000, "a distance in inches", "the whole unit's shift along x")
DY = number(-1000, 1000, "a distance in inches", "the whole unit's shift along y")
FOR_UNIT = piece("a unit id", "Side by Side: which of your two units it is for (default the Warlord)")
TERRAIN = ("wood", "brush", "rocky", "building", "large_building", "hill", "steep_hill", "marsh")


COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")


def _way(dx: float, dy: float) -> str:
    """A shift as a compass point, north being the table's top edge (y up)."""
    return COMPASS[round(math.degrees(math.atan2(dy, dx)) / 45) % 8]


def _unit_name(state: Any, unit: Any) -> str:
    units = state.get("units") if isinstance(state, Mapping) else None
    found = units.get(unit) if isinstance(units, Mapping) else None
    return str(found.get("name") or unit).replace("_", " ") if isinstance(found, Mapping) else str(unit)


def _activate_label(state: Any, action: Mapping[str, Any]) -> str:
    """Activate to {order} ({source}) (and We Obey: the units activated with the Warlord)"""
    source = str(action.get("source", "")).split(".")[-1].replace("_", " ")
    text = f"Activate to {action.get('order')} ({source[:1].upper() + source[1:]})"
    obey = action.get("we_obey")
    if obey:
        names = ", ".join(_unit_name(state, u) for u in (obey if isinstance(obey, list) else [obey]))
        order = action.get("we_obey_order")
        text += f"; We Obey: {names}" + (f" to {order}" if isinstance(order, str) else "")
        if action.get("side_by_side"):
            text += ", side by side"
    return text


def _move_label(state: Any, action: Mapping[str, Any]) -> str:
    """Move D" toward a compass point (round obstacles), or Move"""
    figures = state.get("figures", {}) if isinstance(state, Mapping) else {}
    try:
        if action.get("path"):
            fig, points = next(iter(action["path"].items()))
            here = (figures[fig]["x"], figures[fig]["y"])
            legs = [here, *[tuple(p) for p in points]]
            length = sum(math.dist(a, b) for a, b in zip(legs, legs[1:]))
            end = legs[-1]
            bend = ", round what is in the way" if len(points) > 1 else ""
            return f'Move {length:.1f}" {_way(end[0] - here[0], end[1] - here[1])}{bend}'
        if action.get("to"):
            fig, point = next(iter(action["to"].items()))
            dx, dy = point[0] - figures[fig]["x"], point[1] - figures[fig]["y"]
        else:
            dx, dy = action.get("dx", 0), action.get("dy", 0)
        return f'Move {math.hypot(dx, dy):.1f}" {_way(dx, dy)}' if dx or dy else "Move (stay in place)"
    except (KeyError, TypeError, ValueError, StopIteration, IndexError):
        return "Move"


def _deploy_label(state: Any, action: Mapping[str, Any]) -> str:
    """Deploy {unit} at (x, y) (turned N°)"""
    at = action.get("at")
    where = f" at ({at[0]:g}, {at[1]:g})" if isinstance(at, (list, tuple)) and len(at) == 2 else ""
    turned = f" turned {action['facing']:g}°" if action.get("facing") else ""
    return f"Deploy {_unit_name(state, action.get('unit'))}{where}{turned}"


def _spec(kind: str, label: Any, schema: dict[str, Any], rule: str, summary: str) -> ActionSpec:
    return ActionSpec(kind, label, schema, rule, summary)


SPECS = ActionTable([
    _spec("roll_dice", "Roll the SAGA dice",
          params(optional={"keep": list_of(DIE, "a list of die numbers",
                                           doc="the dice left on their boxes"),
                           "raider": boolean("Ragnar Lothbrok alive: raid"),
                           "second": integer(0, 16, doc="Canute the Great alive: how many of the dice rolled are "
                                                        "Viking dice for the Viking board; more than are rolled "
                                                        "means all; Egil's Viking dice are rolled besides, outside "
                                                        "the cap")}),
          "SAGA p.6-9, p.42",
          "Start of the Orders Phase: leave the listed dice on their boxes, pick up the rest, roll min(generated, "
          "6) minus the dice left (Canute: 7; big Clash of Steel games: 8; never more than 8 dice in use); with "
          "`raider`, half of that (rounded up) and every unit gets one free activation"),
    _spec("place_die", "Die {die} on {box}",
          params({"die": DIE, "box": text("a box id", doc="a second board's boxes are `<faction>.<box>`")}),
          "SAGA p.7, p.42",
          "Put a rolled die on a box whose symbol it shows; a once-per-turn box holds one set. A second board's "
          "dice (numbers 8-15) go only on its boxes, named `<faction>.<box>` (`vikings.hirdmen`); so are they "
          "named in `use_ability box` and `activate source`"),
    _spec("reroll_dice", "Re-roll dice {dice}",
          params({"dice": list_of(DIE, "a list of die numbers",
                                  doc="rolled dice not placed")}),
          "SAGA p.43", "Gruffydd ap Llywelyn's High King, once per Orders Phase while he lives"),
    _spec("end_orders", "End the Orders Phase", NO_PARAMS, "SAGA p.9 (engine decision)",
          "End the Orders Phase; rolled dice not placed are lost"),
    _spec("wrath", "Dice beside {unit}",
          params({"unit": piece("a unit id", "your Jomsvikings"),
                  "dice": list_of(DIE, "a list of die numbers", lo=1,
                                  doc="rolled dice not yet placed, any faces")}),
          "SAGA p.44",
          "Orders Phase: put the dice beside the Jomsvikings, 3 at most a turn; at the end of the phase they are "
          "discarded and a D6 rolled for each (free activations and effects, or betrayal: data/wrath.yaml)"),
    _spec("use_ability", "Use {box}",
          params({"box": text("a box id")},
                 {"face": text("a die face", doc="pay a repeatable box with this face, e.g. `R` for the bigger bonus"),
                  "choice": text("attack or defence", enum=("attack", "defence"), doc="pools"),
                  "target": piece("a unit id", "Exhaustion, VK-12, Taunts"),
                  "targets": list_of(UNIT, "a list of unit ids", lo=1, doc="Trapped"),
                  "unit": piece("a unit id", "Terrified, Gallop; Hit and Run: your unit within M of the enemy "
                                             "unit just activated, activated at once, may not engage"),
                  "dice": list_of(DIE, "a list of die numbers", doc="Noble Lineage"),
                  "set_face": text("a face", enum=("C", "U", "R"), doc="Noble Lineage: the one die's new face"),
                  "figures": integer(1, 99, doc="VK-13: how many figures"),
                  "amount": integer(1, 99, doc="War Dance"),
                  "attack": integer(0, 99, doc="Lords of Battle: how many of the 3 dice attack"),
                  "order": ORDER,
                  "for_unit": FOR_UNIT}),
          "SAGA p.47, p.59-62", "Spend the box's dice for its ability, at its timing"),
    _spec("activate", _activate_label,
          params({"unit": UNIT, "source": text("an activation source",
                                               doc="an activation box id, `determination` or `free`"),
                  "order": ORDER},
                 {"we_obey": either(UNIT, list_of(UNIT, "a list of unit ids", lo=1),
                                    {"type": "null"}, expected="a unit id, a list of unit ids, or null",
                                    doc="the Warlord moving: the unit his We Obey activates (William the Bastard: "
                                        "a list of up to two units, who then may not engage)"),
                  "we_obey_order": either(text("an order", enum=("move", "shoot")),
                                          mapping_of(text("an order", enum=("move", "shoot")),
                                                     "a mapping of unit ids to orders"),
                                          expected="move or shoot, or a mapping of unit ids to orders",
                                          doc="William only: shoot"),
                  "side_by_side": boolean("with one `we_obey` unit")}),
          "SAGA p.10, p.33-34",
          "Activate a unit; opens the opponent's reaction window. Side by Side: if the Warlord engages, his melee "
          "waits for the We Obey unit, which may engage only the same enemy unit; both then fight it together"),
    _spec("slow_with_fatigue", "Slow it with fatigue", NO_PARAMS, "SAGA p.24",
          "Reaction: discard a fatigue of the unit just activated to move; its move is one step shorter"),
    _spec("pass", "Pass", NO_PARAMS, "SAGA p.47", "Reaction window: no (more) reactions"),
    _spec("move", _move_label,
          params(optional={"to": described(PLACES, "figures not named stay"), "dx": DX, "dy": DY,
                           "path": described(PATHS, "waypoints, the last point is the end; figures not named stay")}),
          "SAGA p.12-14",
          "Move the activated unit; checked for distance (the legs of a path add up), terrain, formation, bases, "
          "gaps, VS zone, buildings (a move out of a building is measured from its walls); each leg of a bending "
          "path is checked like a straight move. The legal list offers straight moves and `path` moves round "
          "obstacles toward the crossings, enemy units and objectives; a drag the straight move cannot make "
          "proposes the `path` round what is in the way"),
    _spec("engage", "Engage {target}", params({"target": piece("an enemy unit id")}), "SAGA p.20, p.27",
          "Move the activated unit into melee with that enemy unit (a unit inside a building: the building); the "
          "engine places the figures by the engagement procedure, in a straight line, or round impassable "
          "terrain, buildings and other bases in the way when only that reaches the target"),
    _spec("hold", "Hold", NO_PARAMS, "SAGA p.12", "The activated unit does not move (still counts as a move)"),
    _spec("shoot", "Shoot at {target}", params({"target": piece("an enemy unit id")}), "SAGA p.15-18, p.27",
          "The activated unit (or a javelin unit after its move) shoots; figures in range of and seeing a target "
          "figure shoot (a unit inside a building shoots, and is shot at, from and to any part of the building: "
          "range to its walls, a line to any point of them)"),
    _spec("defend_building", "{unit} defends the building",
          params({"unit": piece("a unit id", "one of your units in the building")}), "SAGA p.27",
          "Before melee step 1, when the enemy engages a building held by several of your units (rule switch "
          "`player_choices` on): the unit that defends it; every other action waits. First legal option: the "
          "engine's pick (the unit with the most figures)"),
    _spec("melee_trade", "Trade attack dice", params(optional={"trade": boolean("default false")}), "SAGA p.22",
          "Melee step 2 (defender): give up half the attack dice (rounded up) for one defence die per two"),
    _spec("spend_fatigue", "Spend a fatigue: {effect}",
          params({"effect": text("an effect", enum=("armour_up", "armour_down"))},
                 {"for_unit": piece("a unit id", "Side by Side melee, attacker: which of your units"),
                  "unit": piece("a unit id", "Side by Side melee, defender: whose marker; the effect counts only "
                                             "against that unit")}),
          "SAGA p.24",
          "Melee step 3 (either side) or shooting step 2 (target): discard an enemy fatigue for the effect"),
    _spec("ready", "Ready",
          params(optional={"at_warlord": integer(0, 99, doc="defender in a Side by Side melee: attack dice at the "
                                                            "Warlord, at most half rounded up unless the defender "
                                                            "is a Warlord; default that maximum")}),
          "SAGA p.17, p.22",
          "End your part of melee step 3 / shooting step 2 (the engine rolls when both are ready); after a javelin "
          "unit's move: decline the shot"),
    _spec("expert_rider", "Expert Rider",
          params({"dice": list_of(DIE, "a list of die numbers", lo=1,
                                  doc="dice lying on activation boxes")}), "SAGA p.43",
          "Melee step 3, Ivo Taillefer mounted and in the melee: discard those dice for +1 attack and +1 defence "
          "die each"),
    _spec("conqueror", "Conqueror", params(optional={"for_unit": FOR_UNIT}), "SAGA p.45",
          "Melee step 3, Sven Forkbeard alive: your unit within S of him (or Sven) discards 3 attack dice for +1 "
          "armour, once per melee"),
    _spec("remove_casualties", "Casualties {figures}",
          params({"figures": described(FIGURES, "exactly one per uncancelled hit or per figure the ability kills, "
                                              "figures of your unit")}),
          "SAGA p.17, p.22, p.59-61",
          "Melee step 6 (defender first) or shooting step 5: the figures of your unit that die; those left must "
          "keep formation (quick-start: one stays in contact). A named leader (Sigvald, Egil) may be named while "
          "others live only when his place must empty to keep formation: he then swaps places with the nearest "
          "survivor, who dies (SAGA p.44). Also after an ability kills some (not all) figures of your unit (The "
          "Push, Crash, VK-13, Exhaustion): every other action waits for this choice; Crash and VK-13 take only "
          "figures engaged in the melee. First legal option: the engine's pick"),
    _spec("bodyguards", "Bodyguards {figures}",
          params({"figures": described(FIGURES, "one per hit after the one Resilience ignores")}), "SAGA p.33",
          "Melee step 6 or shooting step 5, when more friendly non-Levy figures stand within VS of your Warlord "
          "than the hits that would kill him: the figures that die in his place; their units must keep formation "
          "if some choice allows it. Not asked when exactly enough (or too few) stand near him. First legal "
          "option: the engine's pick (nearest, keeping formation)"),
    _spec("withdraw", "Withdraw",
          params(optional={"to": described(PLACES, "every figure"), "dx": DX, "dy": DY}), "SAGA p.22",
          "Melee step 8: place your disengaging unit: up to S per figure, every figure farther from the unit it "
          "fought, none within VS of an enemy, formation kept. First legal option: the engine's placement"),
    _spec("end_turn", "End the turn", NO_PARAMS, "SAGA p.11, p.57",
          "End your Activation Phase; the next player's turn begins (scenario X: the next player in the "
          "activation order; after the last, every Orders Phase of the next turn)"),
    _spec("bid", "Bid", params({"points": integer(bids.LOWEST, bids.HIGHEST)}), "SAGA p.55",
          "Scenario 5 set-up (`rules: {bids: true}`), each player in turn, secret until both bid: the points you "
          "need to defend the village; the lower bid defends with that many points (equal bids: a roll-off, the "
          "winner defends), and takes the zone by the buildings"),
    _spec("muster", "Send {dismiss} home",
          params(optional={"dismiss": list_of(UNIT, "a list of unit ids", doc="may be empty")}),
          "SAGA p.55",
          "Scenario 5 set-up, the defender after the bids: the units sent home so that the warband left obeys the "
          "builder's rules for the bid (never the Warlord). First legal option: the dismissal keeping the most "
          "points"),
    _spec("scenery_number", "Terrain number", params({"number": integer(scenery.LOWEST, scenery.HIGHEST)}),
          "SAGA p.49",
          "Set-up with `rules: {scenery: chosen}`, each player in turn, secret until both wrote: the pieces are "
          "half the sum rounded up, shared equally, the odd one to the higher number (equal numbers: a roll-off)"),
    _spec("choose_terrain", "Take a {terrain}", params({"terrain": text("a terrain type", enum=TERRAIN)}),
          "SAGA p.49, p.53, p.55, p.57",
          "Set-up with chosen scenery: the players in turn (the one with more pieces first; equal shares: a "
          "roll-off) take a piece of the p.49 list, never more of a type than its maximum for both players; then "
          "each places his own pieces in turn (`roll_terrain`, `place_terrain`). Scenario X: the winner of the "
          "piece's 2D6 chooses it; scenario 3: each player one piece, not a building; scenario 5: the attacker up "
          "to two, not buildings"),
    _spec("roll_scenery", "Roll for the number of terrain pieces", NO_PARAMS, "SAGA p.57",
          "Set-up of scenario X with chosen scenery (`sx-feast-for-crows-players`): roll D3+3, the number of "
          "terrain pieces; each is then claimed by the highest 2D6 (`roll_terrain`)"),
    _spec("choose_village", "The large building: {large}",
          params({"large": nullable(piece("a building id"), "a building id, or null for none")}), "SAGA p.55",
          "Set-up of scenario 5 with chosen scenery (`s5-homeland-players`), the defender before placing his "
          "buildings: which of them is the large one, or none; a building that changes kind takes that kind's "
          "outline (`piece` in `data/terrain.yaml`) about its centre. First legal option: the scenario's village"),
    _spec("turn_waiting", "Turn it to {facing}°",
          params({"facing": angle("degrees, counter-clockwise")},
                 {"unit": piece("a unit id", "a unit waiting to deploy in the current step"),
                  "piece": piece("a terrain piece id", "the piece being placed, after its location roll")},
                 alternatives=[["unit"], ["piece"]]),
          "SAGA p.48, p.49",
          "Set-up: turn it before putting it down; nothing is placed, the unit or piece is drawn so turned and its "
          "`deploy` / `place_terrain` without a `facing` keeps this one (dragging it proposes it with this "
          "facing). The client's turn gesture on a waiting unit or piece proposes it. Not offered in the legal "
          "actions (it changes nothing in the game)"),
    _spec("skip_terrain", "Place no more terrain", NO_PARAMS, "SAGA p.55",
          "Set-up of scenario 5 with chosen scenery, the attacker: place no more of the two pieces he may add "
          "(offered last while he may)"),
    _spec("choose_edge", "Take the {edge} edge",
          params({"edge": text("an edge", enum=("bottom", "top"), doc="y = 0 or y = table height")}), "SAGA p.49",
          "Set-up, two-player scenarios whose zones lie along opposite long edges: the set-up roll-off winner "
          "takes that long edge; choosing the other player's swaps the deployment zones (and scenario 2's far "
          "banks). First legal option: keep the scenario's"),
    _spec("roll_off", "Roll off", NO_PARAMS, "SAGA p.49, p.51-54",
          "Set-up (`rules: {deployment: players}`): every player rolls a D6, ties re-rolled; the highest sets up "
          "first, deploys the first unit (The Challenge, after the Warlords) or plays first (scenarios 1 and 2)"),
    _spec("roll_terrain", "Roll for the terrain piece", NO_PARAMS, "SAGA p.49, p.57",
          "Set-up: roll the D6 for the next terrain piece: 1-2 part of it within L of a corner, 3-5 no part within "
          "L of an edge, 6 the table centre (a piece that then fits nowhere is discarded); scenario X: every "
          "player first rolls 2D6, the highest places the piece (with chosen scenery he first chooses its type, "
          "then rolls again for its place). Scenarios 3 and 5 with chosen scenery have no location roll"),
    _spec("place_terrain", "Place the terrain piece at {at}",
          params({"at": point("the piece's new centre: the mean of its points")},
                 {"facing": angle("degrees, counter-clockwise: the piece turned about its centre first; default: "
                                  "as `turn_waiting` left it, else 0"),
                  "piece": piece("a terrain piece id", "must be the current one")}),
          "SAGA p.49, p.53-55, p.58",
          "Set-up: put the piece there, where the roll allows, on the table, overlapping no other piece, and (The "
          "Challenge) not within M of the centre. With chosen scenery, scenario 3: wholly between L and 2L from a "
          "long edge; scenario 5: the defender's buildings wholly between M and L from his long edge, at least L "
          "from the short edges, none within M of another; the attacker's pieces at least L from every building; "
          "scenario 2 at 10-12 points: the players' crossings across the river from bank to bank, at least L from "
          "every other crossing (the river is cut anew around them). The legal actions offer the piece as "
          "`turn_waiting` left it (unturned, and turned a quarter at the first place, if it was not turned; where "
          "it fits nowhere so, unturned). The client shows the piece being placed; dragging it proposes this "
          "action at the drop point"),
    _spec("deploy", _deploy_label,
          params({"unit": UNIT},
                 {"at": point("the unit's centre; the figures keep the scenario's formation"),
                  "facing": angle("degrees counter-clockwise about the centre; by default as `turn_waiting` left "
                                  "it"),
                  "to": described(PLACES, "every figure")},
                 alternatives=[["at"], ["to"]]),
          "SAGA p.48, p.51-57",
          "Set-up: deploy a unit the current step allows (scenario 1: by class in the book's order; 3, 4, "
          "quick-start: one unit each in turn; 2, 5, 6, X: whole warbands), bases on the table, in formation, "
          "inside the side's zone, not overlapping, out of impassable terrain, wholly in or out of a building; "
          "scenario 4: first Warlord in the centre, the second within S of him; 5: the attacker farther than L "
          "from buildings and enemy units; X: the Warlord exactly M from his corner toward the centre, every unit "
          "within M of him"),
    _spec("end_deployment", "End the deployment", NO_PARAMS, "SAGA p.52",
          "Set-up, Battle at the Ford: the first player stops after at least half his figures"),
    _spec("deploy_suggested", "Deploy the rest as suggested", NO_PARAMS, "SAGA p.48",
          "Set-up: the rest of your deployment is the engine's: each of your units still off the table is put, "
          "when the scenario's order reaches it, at its suggested place (its scenario or force-selection position "
          "if legal, else the nearest legal 1\" grid point; the place the client shows it at). A unit with no "
          "place found is handed back to you. Offered last among the deployment actions; dragging a waiting "
          "unit's figure proposes `deploy` with the unit's formation (turned as `turn_waiting` left it) around "
          "the drop point"),
], INTRO)
