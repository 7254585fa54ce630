"""The action specifications of Vikings: label, parameters and rule of every action type.

The rules are still carried out by ``Vikings.apply`` (its ``_do_<type>`` handlers); these
declarations let the session refuse malformed parameters before any rule runs, and generate
docs/actions.md.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from simulator.core.actions import (NO_PARAMS, ActionSpec, ActionTable, boolean, hex_label, in_words, integer,
                                    list_of, params, piece, text)
from simulator.games.vikings.naval import DUTIES, MOVES

INTRO = """Every action is a mapping with `type`; rule references are the rulebook's sections (`VK 2.54`).
`end_phase` closes the current step for the side acting in it (in the `stationary_fire` step that is the
non-moving side) (see the turn sequence in `docs/vikings.md`). Character, ship, horse, animal, treasure
and grapple ids are those of the state; hexes are quoted CCRR labels (`"0707"`)."""

CHAR = piece("a character id")
SHIP = piece("a ship id")
HEX = hex_label()
CHARS = list_of(CHAR, "a list of character ids", lo=1)


def _spec(kind: str, label: str, schema: dict[str, Any], rule: str, summary: str) -> ActionSpec:
    return ActionSpec(kind, _named(label), schema, rule, summary)


def _word(state: Any, value: Any) -> str:
    """A parameter as the players say it: a character's, ship's or horse's name for its id, a
    ship move or duty with spaces (``lateral_left`` -> ``lateral left``), lists joined."""
    if isinstance(value, list):
        return ", ".join(_word(state, v) for v in value) or "none"
    if isinstance(value, str):
        for table in ("chars", "ships", "horses"):
            found = state.get(table, {}).get(value) if isinstance(state, Mapping) else None
            if isinstance(found, Mapping) and found.get("name"):
                return str(found["name"])
        return value.replace("_", " ")
    return in_words(value)


class _Kept(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _named(template: str) -> Callable[[Any, Mapping[str, Any]], str]:
    """``template`` over the action's parameters in words (:func:`_word`); its docstring, the
    template, is what docs/actions.md shows."""
    def label(state: Any, action: Mapping[str, Any]) -> str:
        return template.format_map(_Kept({k: _word(state, v) for k, v in action.items()}))
    label.__doc__ = template
    return label


SPECS = ActionTable([
    _spec("end_phase", "End the step", NO_PARAMS, "VK 2.2, 2.6",
          "close the current step (duties, speeds, grapple window, hauling; fire, movement, combat); the movement "
          "step is refused while a hex holds two living characters and one of them can still step out (a stack "
          "nobody can clear any more stays, with a `stacked` event)"),
    _spec("assign_duty", "{piece}: {duty}",
          params({"piece": CHAR, "duty": text("a crew duty", enum=DUTIES)}), "VK 4.2, 1.33",
          "crew duty of a character aboard, in the duties step (a bailer needs one of the box's 24 buckets)"),
    _spec("set_speed", "Speed {speed} for {ship}",
          params({"ship": SHIP, "speed": integer(-20, 20, doc="negative = astern")}), "VK 4.3-4.34, 4.45, 4.63",
          "secret speed marker, in the speed step; hidden from the other side until both are revealed. A beached "
          "boat needs its pushers (4 or 1) beside it; they are busy in their side's next player phase (with more "
          "candidates than needed the owner names them, `choose_pusher`). A galley or drakkar towing a rowboat "
          "gets one point less than its marker"),
    _spec("choose_pusher", "{piece} pushes {ship} off", params({"ship": SHIP, "piece": CHAR}), "VK 4.45",
          "after the speeds are revealed, when more characters stand beside a beached boat pushed off than it "
          "needs (4, a rowboat 1), its owner names them one at a time (step `pushers`); the named ones are busy "
          "in their side's next player phase"),
    _spec("ship_move", "{ship}: {move}", params({"ship": SHIP, "move": text("a ship move", enum=MOVES)}),
          "VK 4.41-4.5", "one move of the ship whose turn it is in the current sequence"),
    _spec("ship_hold", "{ship} stops", params({"ship": SHIP}), "VK 4.42, 4.63",
          "the ship to move has no legal move: it stops for the phase"),
    _spec("throw_grapple", "{piece} throws a grapple at {target}",
          params({"piece": CHAR, "target": hex_label("a hex of an enemy hull")}), "VK 4.62",
          "grapple handler throws, between sequences; success on d10 (-2 weak) >= 2 x distance"),
    _spec("cut_rope", "{piece} cuts the rope of {grapple}",
          params({"piece": CHAR, "grapple": piece("a grapple id", "such as `g1`")}), "VK 4.64, 4.7",
          "boarding party in the hook's (or rope's) hex cuts on 1-3 (+1 weak); also a rope still tied to a sunken "
          "boat"),
    _spec("haul", "Haul {target} in", params({"target": piece("a ship id")}), "VK 4.65",
          "haul the target in on your manned grapples: 1/2/3 hexes; each rope once per naval phase"),
    _spec("fire", "{piece} shoots at {target}",
          params({"piece": CHAR, "target": piece("a character, goat or pig id")}), "VK 2.3, 8.1-8.2, 5.5.3",
          "offensive fire of the phasing side; `target` may name an enemy goat or pig (foot table: A makes it "
          "retreat 2 hexes, B/C kill it)"),
    _spec("defensive_fire", "{piece} shoots at {target} (defensive fire)",
          params({"piece": CHAR, "target": piece("a character, goat or pig id")}), "VK 2.33, 5.5.3",
          "the other side shoots at a character that has started moving (movement step), or, in the "
          "`stationary_fire` step after the mover ends movement, at a character that did not move; `target` may "
          "name a goat or pig of the moving side that has followed its leader this phase (A: it stops after 2 "
          "hexes this phase, B/C kill it)"),
    _spec("move", "{piece} moves to {to}",
          params({"piece": CHAR}, {"to": hex_label("an adjacent hex"),
                                   "path": list_of(HEX, "a list of hex labels", lo=1, doc="one step each")},
                 alternatives=[["to"], ["path"]]),
          "VK 2.5-2.55, 2.6",
          "move one hex per step (a rider moves its front half); infiltration rolls when passing enemies; a "
          "friend's (or a stunned character's) hex may be entered only with the MP and steps left to get out of "
          "it again, or to lift the stunned one"),
    _spec("half_turn", "{piece} turns about", params({"piece": CHAR}), "VK 2.55",
          "a rider turns about on the spot (3 MP)"),
    _spec("take_reins", "{piece} takes the reins of {horse}",
          params({"piece": CHAR, "horse": piece("a horse, goat or pig id")}), "VK 2.57, 5.5.3",
          "take the reins of an adjacent riderless horse (3 on foot, 1 mounted); it follows as an extension of "
          "the leader. `horse` may also name a goat or pig: it then steps into each hex the leader leaves"),
    _spec("release_reins", "{piece} lets {horse} go",
          params({"piece": CHAR, "horse": piece("a horse, goat or pig id")}), "VK 2.57, 5.5.3",
          "let a led horse (or goat or pig) go"),
    _spec("take_treasure", "{piece} takes up {treasure}",
          params({"piece": CHAR, "treasure": piece("a treasure id")}), "VK 5.5.1",
          "take up the treasure in one's hex: after stopping on it at the end of the previous movement step (a "
          "dropped one at once), with no enemy able to attack; MP drop to 2"),
    _spec("drop_treasure", "{piece} lays the treasure down", params({"piece": CHAR}), "VK 5.5.1",
          "lay the carried treasure down in one's hex (offered aboard a boat; a carrier in a melee drops it by "
          "himself)"),
    _spec("give_treasure", "{piece} hands the treasure to {target}",
          params({"piece": piece("a character id", "the carrier"), "target": piece("a character id", "a friend")}),
          "VK 5.5.1",
          "hand the treasure to a friend on foot in one's hex or next to it (not across a wall, window or arrow "
          "slit; no enemy able to attack the friend); 1 MP of the giver, the friend's MP drop to 2"),
    _spec("carry_off", "{piece} carries the treasure off", params({"piece": CHAR}), "VK 5.5.1",
          "a treasure carrier standing on one of his side's exit hexes (`victory.treasure_exits`) leaves the map "
          "with it (1 MP): the treasure scores for his side, he is no casualty"),
    _spec("help_aboard", "{piece} helps {target} aboard",
          params({"piece": piece("a character id", "the helper"), "target": piece("a character id", "the helped"),
                  "to": hex_label("the boat hex")}), "VK 4.83.1",
          "a helper who has not moved lets a friend short of MP climb onto the boat hex (offered by "
          "`legal_actions`)"),
    _spec("carry_grapple", "{piece} takes up the grapple", params({"piece": CHAR}), "VK 4.66",
          "take up the ready grapple in one's deck hex (MP at most 2)"),
    _spec("drop_grapple", "{piece} lays the grapple down", params({"piece": CHAR}), "VK 4.66",
          "lay the carried grapple down in one's deck hex"),
    _spec("mount", "{piece} mounts {horse}",
          params({"piece": CHAR, "horse": piece("a horse id"),
                  "front": hex_label("which of the horse's two hexes is the head")}), "VK 2.56",
          "mount an adjacent riderless horse"),
    _spec("dismount", "{piece} dismounts into {to}", params({"piece": CHAR, "to": hex_label("an empty adjacent hex")}),
          "VK 2.56", "dismount into an empty adjacent hex"),
    _spec("pick_up", "{piece} picks up {target}",
          params({"piece": CHAR, "target": piece("a character id", "the stunned one")}), "VK 2.53",
          "a character on foot lifts a stunned character, friend or enemy, in the hex he has moved into (MP left "
          "halved); not with an enemy able to attack him or standing next to him"),
    _spec("put_down", "{piece} lays his burden in {to}", params({"piece": CHAR, "to": HEX}), "VK 2.53",
          "lay the carried character in an empty hex next to the carrier (not across a wall or window); ends his "
          "move. Whoever still carries someone when the movement step ends lays him in the first free hex beside "
          "him (dry ground first)"),
    _spec("clear_bodies", "Clear the bodies of {from} into {to}",
          params({"pieces": list_of(CHAR, "a list of character ids", doc="the two who drag"),
                  "from": HEX, "to": HEX}), "VK 2.52",
          "drag 3 bodies or a dead horse one hex; both do nothing else"),
    _spec("axe", "{piece}: two-handed axe", params({"piece": CHAR}, {"on": boolean("take it up (default) or not")}),
          "VK 3.3, 1.33",
          "take up the two-handed axe at the start of combat (attack x2; -1 position and -1 to shots at him) or "
          "put it down in fire/movement (the box has 26 axe markers)"),
    _spec("shield_wall", "Shield wall facing {facing}",
          params({"pieces": list_of(CHAR, "a list of character ids", doc="3+ huscarls"),
                  "facing": integer(0, 5, "a direction 0-5",
                                    doc="the front is the hexsides `facing` and `facing+1` (direction indices NE "
                                        "E SE SW W NW)")}),
          "VK 3.2", "form a shield wall"),
    _spec("break_wall", "Break the shield wall", NO_PARAMS, "VK 3.2",
          "the phasing side's shield wall breaks formation"),
    _spec("attack", "Attack",
          params({"attackers": CHARS, "defenders": list_of(piece("a character, goat or pig id"),
                                                           "a list of ids", lo=1)},
                 {"casualty": piece("a character id", "who takes a stun/wound on a side with several characters")}),
          "VK 2.7-2.76, 5.5.3",
          "melee; offered: singles, all neighbours of a defender together, one attacker against all he touches. "
          "A goat or pig as the only defender: defence 1, terrain shifts of its hex, D/E/F kill it, C makes it "
          "retreat 1 hex"),
    _spec("advance", "{piece} advances",
          params({"piece": CHAR}, {"path": list_of(HEX, "a list of hex labels",
                                                   doc="1-2 hexes, 3 mounted"),
                                   "to": hex_label("one hex: a path of one step")},
                 alternatives=[["path"], ["to"]]),
          "VK 2.75", "advance after combat, first into a hex the enemy left"),
    _spec("skip_advance", "No advance", NO_PARAMS, "VK 2.75, 3.1",
          "decline the advance (not allowed to a berserker who could reach an enemy)"),
], INTRO)
