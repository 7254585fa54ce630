"""The action specifications of A Song of Ice and Fire: label, parameters and rule of every type.

The rules are still carried out by ``Asoiaf.apply`` (which also checks each parameter's shape by
name, ``arguments.py``, for callers that bypass the session); these declarations say which
parameters each action type takes, let the session refuse malformed ones before any rule runs,
and generate docs/actions.md.
"""

from __future__ import annotations

from typing import Any, Mapping

from simulator.core.actions import (ActionSpec, ActionTable, Label, angle, boolean, distance, integer, list_of,
                                    nullable, number, params, piece, text)
from simulator.games.asoiaf.rules import R
from simulator.games.asoiaf.units import CONDITIONS

INTRO = """Every action is a mapping with `type`. Distances are inches on the table (x east, y north),
facings degrees counter-clockwise from east (90 = north, 270 = south), as in
`simulator/geometry/table.py`; the client's drags and rotations are converted by the presentation. Rule numbers are
the sections of the rules digest (`ASOIAF "..." (N)`).
Every activation action (`maneuver`, `march`, `retreat`, `attack`, `charge`, `hold`, `attack_terrain`) may carry
`card` (a tactics card id: a card with trigger `activation` is played as the unit activates; a card with trigger
`attack` rides on `attack`/`charge`), `enter` (`[x, y, facing]`: a Storm of Swords Reserve unit enters, round 3+,
within 6" of a side edge, before its action; `hold` without `enter` keeps it in Reserve) and `vp_token` (Fire and
Blood, the Commander's unit's activation: an enemy Combat unit within 12" edge to edge, or null for none; without
the key: the nearest)."""

UNIT = piece("a unit id")
NCU = piece("an NCU id")
X = number(-1000, 1000, "a coordinate in inches")
Y = number(-1000, 1000, "a coordinate in inches")
FACING = angle("degrees counter-clockwise from east")
PIVOT = angle("facing before moving; default the current one")
DISTANCE = distance()
QUADRANT = integer(0, 3, "a quadrant 0-3", doc="0 NW, 1 NE, 2 SW, 3 SE")
ALIGN = text("an alignment", enum=("centre", "left", "right"),
             doc="face a lone flank/rear enemy and align 100%/50%")
DIRECTION = text("a direction", enum=("back", "left", "right", "forward"),
                 doc="`forward` only if engaged through flank/rear")
CARD = nullable(piece("a card id"), "a card id, or null")

#: What every activation action may carry besides its own parameters.
ACTIVATION = {
    "card": CARD,
    "enter": {"type": "array", "items": number(-3600, 3600), "minItems": 3, "maxItems": 3,
              "x-expected": "[x, y, facing]"},
    "vp_token": nullable(piece("a unit id"), "a unit id, or null"),
}
MOVE = {"pivot": PIVOT, "distance": DISTANCE, "facing": FACING}


def _units(state: Any) -> Mapping[str, Any]:
    units = state.get("units") if isinstance(state, Mapping) else None
    return units if isinstance(units, Mapping) else {}


def _name(state: Any, unit: Any) -> str:
    """A unit as the players call it: its card's name (and id when two share it)."""
    found = _units(state).get(unit)
    if not isinstance(found, Mapping) or not found.get("name"):
        return str(unit)
    same = sum(1 for u in _units(state).values() if isinstance(u, Mapping) and u.get("name") == found["name"])
    return f"{found['name']} ({unit})" if same > 1 else str(found["name"])


def _card(card: Any) -> str:
    try:
        from simulator.games.asoiaf.catalogue import catalogue
        return catalogue().full_name(str(card))
    except Exception:        # noqa: BLE001 - a label never stops a menu: the card's id then
        return str(card)


def _turn(start: Any, end: Any) -> str:
    """The turn from ``start`` to ``end`` (degrees counter-clockwise) as a player says it."""
    if not isinstance(start, (int, float)) or not isinstance(end, (int, float)):
        return ""
    d = (end - start + 180) % 360 - 180
    return "" if abs(d) < 0.5 else f"{abs(d):.0f}° {'left' if d > 0 else 'right'}"


def _inches(d: Any) -> str:
    return f'{round(d, 1):g}"' if isinstance(d, (int, float)) else str(d)


def _with_card(action: Mapping[str, Any]) -> str:
    return f", playing {_card(action['card'])}" if action.get("card") else ""


def _attack_name(state: Any, action: Mapping[str, Any]) -> str:
    found = _units(state).get(action.get("unit"))
    attacks = found.get("attacks") if isinstance(found, Mapping) else None
    i = action.get("attack", 0)
    if isinstance(attacks, (list, tuple)) and len(attacks) > 1 and isinstance(i, int) and 0 <= i < len(attacks):
        return f" with {attacks[i].get('name', f'attack {i + 1}')}"
    return ""


def _maneuver_label(state: Any, action: Mapping[str, Any]) -> str:
    """Maneuver: pivot N° left/right, D" forward, then turn N° left/right (playing a card)"""
    found = _units(state).get(action.get("unit"))
    now = found.get("facing") if isinstance(found, Mapping) else None
    pivot = action.get("pivot", now)
    steps = [f"pivot {_turn(now, pivot)}" if _turn(now, pivot) else "",
             f"{_inches(action['distance'])} forward" if action.get("distance") else "",
             f"then turn {_turn(pivot, action.get('facing'))}" if _turn(pivot, action.get("facing")) else ""]
    steps = [s for s in steps if s]
    verb = "Free maneuver" if action.get("type") == "free_maneuver" else "Maneuver"
    return f"{verb}: {', '.join(steps) or 'stay in place'}{_with_card(action)}"


def _march_label(state: Any, action: Mapping[str, Any]) -> str:
    """March D" forward (then turn N° left/right) (playing a card)"""
    turn = _turn(action.get("pivot"), action.get("facing"))
    if not turn:
        found = _units(state).get(action.get("unit"))
        turn = _turn(found.get("facing") if isinstance(found, Mapping) else None, action.get("facing"))
    return f"March {_inches(action.get('distance'))} forward" + (f", then turn {turn}" if turn else "") \
        + _with_card(action)


def _attack_label(state: Any, action: Mapping[str, Any]) -> str:
    """Attack {target}'s name (with the named attack) (playing a card)"""
    return f"Attack {_name(state, action.get('target'))}{_attack_name(state, action)}{_with_card(action)}"


def _charge_label(state: Any, action: Mapping[str, Any]) -> str:
    """Charge {target}'s name (with the named attack) (playing a card)"""
    return f"Charge {_name(state, action.get('target'))}{_attack_name(state, action)}{_with_card(action)}"


def _hold_label(state: Any, action: Mapping[str, Any]) -> str:
    """Hold (playing a card)"""
    return f"Hold{_with_card(action)}"


def _respond_label(state: Any, action: Mapping[str, Any]) -> str:
    """Respond with {card}'s name, or play no card"""
    return f"Respond with {_card(action['card'])}" if action.get("card") else "Play no card"


def _free_pivot_label(state: Any, action: Mapping[str, Any]) -> str:
    """Free pivot N° left/right"""
    found = _units(state).get(action.get("unit"))
    turn = _turn(found.get("facing") if isinstance(found, Mapping) else None, action.get("facing"))
    return f"Free pivot {turn}" if turn else "Free pivot (keep the facing)"


def _discard_label(state: Any, action: Mapping[str, Any]) -> str:
    """Discard {cards}' names (or nothing)"""
    return "Discard " + (", ".join(_card(c) for c in action.get("cards") or []) or "nothing")


def _activate_label(state: Any, action: Mapping[str, Any]) -> str:
    """Activate {unit} (or {ncu})"""
    return f"Activate {action.get('unit') or action.get('ncu')}"


def _area_label(state: Any, action: Mapping[str, Any]) -> str:
    """Take the {area} area (or give the choice)"""
    return "Give the choice of area" if action.get("give") else f"Take the {action.get('area')} area"


def _spec(kind: str, label: Label, schema: dict[str, Any], rule: str, summary: str) -> ActionSpec:
    return ActionSpec(kind, label, schema, rule, summary)


SPECS = ActionTable([
    _spec("maneuver", _maneuver_label, params({"unit": UNIT}, {**MOVE, **ACTIVATION}),
          f'{R("6.1", "Actions")}, {R("6.2", "Maneuver")}, {R("14.1", "Terrain")}',
          "pivot, straight forward (`distance` <= Speed, -1\" through Rough), pivot (`facing`, final); not while "
          "engaged; may not end within 1\" of an enemy, overlapping a tray, off table, on Impassable"),
    _spec("march", _march_label,
          params({"unit": UNIT}, {"pivot": angle("must be the current facing (no pivot before a march)"),
                                  "distance": DISTANCE, "facing": FACING, **ACTIVATION}),
          f'{R("6.3", "March")}, {R("16.5", "A Dance with Dragons")}',
          "straight forward (`distance` <= 2 x Speed) with no pivot first, then pivot; not while engaged; not "
          "while carrying in A Dance with Dragons"),
    _spec("retreat", "{unit} retreats",
          params({"unit": UNIT}, {"direction": DIRECTION,
                                  "distance": distance(doc="wanted; clamped to Speed + D6"),
                                  "facing": FACING, "pivot": PIVOT, **ACTIVATION}),
          R("6.4", "Retreat"),
          "only when engaged; rolls D6; then enemies left unengaged get a `free_pivot` window"),
    _spec("attack", _attack_label,
          params({"unit": UNIT, "target": piece("an enemy unit id")},
                 {"attack": integer(0, 9, doc="index into the card's attacks"), "align": ALIGN,
                  "shift_direction": text("a shift direction", doc="ranged: the shift before shooting"),
                  "shift": distance(doc="ranged: at most 2\""), **ACTIVATION}),
          f'{R("6.5", "Attack")}, {R("7", "Combat")}',
          "melee only when engaged (any touching enemy, no LOS needed); ranged only when unengaged, target in LOS "
          "and range from the front arrow (Short 6\", Long 12\")"),
    _spec("charge", _charge_label,
          params({"unit": UNIT, "target": piece("an enemy unit id")},
                 {"attack": integer(0, 9, doc="melee attack index"), "facing": angle("pivot before moving"),
                  "arc": nullable(text("an arc", enum=("front", "right", "rear", "left"))),
                  "align": ALIGN, **ACTIVATION}),
          f'{R("6.6", "Charge")}, {R("7.1", "Charge bonus")}',
          "declaration checks (LOS, room for 50% contact on the arc, reach Speed + 6 edge to edge), D6, straight "
          "move of Speed + D6 (stops 1\" short of other units / Impassable), flush alignment, melee attack with "
          "the charge reroll; a 1 = Disordered; a miss = Panic test. `arc` only breaks an exact tie"),
    _spec("hold", _hold_label, params({"unit": UNIT}, ACTIVATION), R("6", "Actions"),
          "the unit takes no action (an `activation` card may still be played)"),
    _spec("activate", _activate_label,
          params(optional={"unit": UNIT, "ncu": NCU}, alternatives=[["unit"], ["ncu"]]),
          R("13.1", "Team games"),
          "team games: the player in turn picks a teammate's unit or NCU for the team's activation; its owner "
          "becomes the active player and takes the activation (chooses its action, plays only his own Tactics "
          "cards); then only that piece may act"),
    _spec("claim", "{ncu} claims the {zone} zone",
          params({"ncu": NCU, "zone": text("a zone", enum=("crown", "wealth", "tactics", "combat", "maneuver"))},
                 {"target": nullable(piece("a unit id"), "a unit id, or null"),
                  "condition": nullable(text("a condition", enum=CONDITIONS)),
                  "fetch": boolean("Cersei: default true; false keeps her Order token"),
                  "replace": boolean("Sharp and Ready: instead of the zone's effect, 1D3+2 hits on `target`, a "
                                     "unit controlling a non-centre Objective (16.7)"),
                  "direction": DIRECTION, **MOVE}),
          f'{R("8.1", "Tactics board")}, {R("8.2", "NCU actions")}, {R("18.4", "NCU abilities")}, '
          f'{R("4.6", "Abilities")}',
          "NCU claims an empty Tactics-board zone and its effect happens at once (for `maneuver`: the "
          "maneuver/retreat parameters of the target; Cersei may spend a token to fetch a card here); an NCU "
          "whose ability has no rulebook text logs a `not_automated` event naming it"),
    _spec("place_ncu", "{ncu} to quadrant {quadrant}", params({"ncu": NCU, "quadrant": QUADRANT}),
          R("16.9", "Here We Stand"), "Here We Stand: the NCU counts its points in a quadrant"),
    _spec("ncu_pass", "{ncu} passes", params({"ncu": NCU}), R("8.2", "NCU actions"), "the NCU takes no action"),
    _spec("respond", _respond_label, params({"card": CARD}),
          f'{R("9.3", "Tactics cards")}, {R("11.3", "Attacked")}',
          "the attacked player answers behind the hand-over screen with an `attacked` card, or passes (null)"),
    _spec("free_pivot", _free_pivot_label, params({"facing": FACING}, {"unit": UNIT}),
          f'{R("6.4", "Retreat")}, {R("7", "Unstoppable Momentum")}',
          "free pivot of a unit left unengaged (Retreat, Unstoppable Momentum)"),
    _spec("free_maneuver", _maneuver_label, params(optional={"unit": UNIT, **MOVE}),
          R("7", "Unstoppable Momentum"),
          "Unstoppable Momentum: free Maneuver of the attacker that destroyed its enemy"),
    _spec("skip", "Skip", params(optional={"unit": UNIT}),
          f'{R("6.4", "Retreat")}, {R("7", "Unstoppable Momentum")}, {R("16.2", "Redeploy")}',
          "decline the pending free pivot / free maneuver, or a redeployment"),
    _spec("reroll", "Re-roll dice {dice}",
          params({"dice": list_of(integer(0, 99), "a list of die positions",
                                  doc="from 0; `[]` = none / keep the token; window `panic_reroll`: 0-1 the "
                                      "2D6, 2 the D3")}),
          f'{R("7.1", "Charge bonus")}, {R("7.2", "Panic test")}, {R("11.4", "Rerolls")}, {R("11.8", "Panicked")}',
          "answer a `reroll` window: charge bonus or card (attacker, any Attack dice), Weakened (enemy, Attack "
          "dice), Vulnerable (enemy, Defense dice), Panicked in an Attack (enemy; 0-1 = 2D6, 2 = D3); or a "
          "`panic_reroll` window: a Panicked unit passed a Panic test outside an Attack and its enemy may spend "
          "the token"),
    _spec("order", "Use the Order", params({"use": boolean()}), f'{R("11.7", "Orders")}, {R("18.2", "Orders")}',
          "use an Order whose trigger has come (Lannister Supremacy after an enemy completes an Attack), or not"),
    _spec("push", "Place {unit}", params({"x": X, "y": Y}, {"unit": UNIT}), R("6.6", "Charge"),
          "place your unit pushed aside by a charge (an enemy other than the target touched in the charger's "
          "Flank or Rear arc, or with no room to line up 50% in its Front arc; one that has room lines up "
          "automatically, event `line_up`): at most 1\" from where it stood, same facing, not touching the "
          "charger"),
    _spec("place_objective", "Place {objective}", params({"x": X, "y": Y}, {"objective": piece("an objective id")}),
          f'{R("16.4", "A Feast for Crows")}, {R("16.5", "A Dance with Dragons")}',
          "place a dropped carried token: within 2\" of the tray (Feast out of contact: touching its corpse pile), "
          "not on a tray or Impassable terrain"),
    _spec("redeploy", "Redeploy {unit}", params({"x": X, "y": Y}, {"unit": UNIT, "facing": FACING}),
          f'{R("16.2", "Clash of Kings")}, {R("16.3", "A Storm of Swords")}, {R("16.9", "Here We Stand")}',
          "start of round: put a destroyed unit back (Clash of Kings Commander, Here We Stand one unit, Storm of "
          "Swords attacker); `skip` declines"),
    _spec("attack_terrain", "{unit} attacks {terrain}",
          params({"unit": UNIT, "terrain": piece("a terrain piece id")}, ACTIVATION), R("14.1", "Terrain"),
          "melee Attack action against a Destructible piece within 1\": removes it"),
    _spec("deploy", "Deploy {unit}",
          params({"unit": UNIT}, {"x": X, "y": Y, "facing": FACING}), f'{R("15.4", "Deployment")}',
          "deployment phase (`rules: {deployment: players}`): put one Combat unit wholly inside the own "
          "deployment area (defaults: the suggested spot, facing the enemy edge); teams alternate (free-for-all: "
          "to the left), a team's players in rotation"),
    _spec("first_player", "{player} plays first", params({"player": piece("a player or team id")}),
          f'{R("15.4", "Deployment")}, {R("15.5", "First player")}, {R("13.1", "Team games")}',
          "after deployment, the player (team) who did not choose its area picks the first player"),
    _spec("area", _area_label,
          params(optional={"area": text("an area", enum=("south", "north", "SW", "NW", "NE", "SE")),
                           "give": boolean("give the choice to the other team (once)")},
                 alternatives=[["area"], ["give"]]),
          f'{R("15.4", "Deployment")}, {R("13.2", "Free-for-all")}',
          "deployment phase: the higher roller's team takes a deployment area or gives the choice to the other "
          "team (once); free-for-all: each player, from the first player to the left, takes a free corner. The "
          "current area is offered first"),
    _spec("reserve", "Units in Reserve",
          params({"units": list_of(UNIT, "a list of unit ids",
                                   doc="half the player's Combat units, rounded up")}),
          f'{R("16.3", "A Storm of Swords")}, {R("13.1", "Team games")}',
          "A Storm of Swords deployment phase: the Defender chooses which units start in Reserve (the scenario's "
          "marks offered first); by teams each defending player in turn, for its own army"),
    _spec("place_terrain", "Place a terrain piece",
          params(optional={"kind": piece("a terrain id of data/terrain.yaml",
                                         "random method: the rolled kind, default"),
                           "x": X, "y": Y, "rotation": angle("degrees counter-clockwise, default 0"),
                           "none": boolean("only when no sampled spot fits")}),
          R("15.3", "Terrain"),
          "set-up step `terrain` (`rules: {terrain: players | random}`): the roll-off winner's team first, then "
          "alternately; players' choice: a piece of the pool, each once, until 4 (`setup.terrain_pieces`); "
          "random: 1D3+2 pieces, each kind rolled on 2D6 (7: any kind). The piece lies on the table, outside "
          "every deployment area, 6\" from every other piece, off the trays, Impassable never on an Objective "
          "token"),
    _spec("take_objective", "{unit} takes the token",
          params({"unit": piece("a unit id", "one of the engaged enemies listed in the window")}),
          f'{R("16.4", "A Feast for Crows")}, {R("16.5", "A Dance with Dragons")}',
          "a dropped token went to the first engaged enemy; its owner may give it to another engaged unit "
          "instead"),
    _spec("discard", _discard_label,
          params(optional={"cards": nullable(list_of(piece("a card id"), "a list of card ids"),
                                             "a list of card ids, or null")}),
          R("3.2", "Cleanup phase"),
          "Cleanup step 8, first player first: discard cards before drawing back to 3; window `hand_limit`: a "
          "draw (zone, card, Cersei's fetch) took the hand above 5 and the player discards down to 5 at once, any "
          "cards (exactly the number above 5; the ones just drawn offered first)"),
    _spec("place_pile", "Place the corpse pile", params({"x": X, "y": Y}), R("16.4", "A Feast for Crows"),
          "A Feast for Crows: the owner of a destroyed infantry unit puts its corpse pile (and the new Objective "
          "token at its centre), already placed at the first legal spot around the unit, anywhere entirely within "
          "12\" of the unit's tray, on the table, at least 1\" from other terrain and trays"),
    _spec("quadrant", "{unit} in quadrant {quadrant}",
          params({"quadrant": QUADRANT}, {"unit": UNIT}), R("16.9", "Here We Stand"),
          "Here We Stand, Cleanup before scoring (round 2+): the owner's opponent decides the quadrant of each "
          "unit lying exactly between quadrants (one of the tied quadrants)"),
], INTRO)
