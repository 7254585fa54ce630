"""The enemy's charges a position invites, for the normal computer player's reply ply.

The normal player looks no further than its own turn (``depth`` 0 and the expansion of an
activation). Without a look at the reply it moved a unit twice into the reach of an enemy that
plays next (tiring it to 3 or 4 fatigue, and then it was wiped out) and pulled units forward in
the last turn into the charge range of an army that still had a turn (docs/ai.md). The player
asks :func:`replies` for the charges the enemy could make at the start of its next turn against
the position after a move, resolves each with the rules engine, and counts the worst
(``AIProfile.replies`` (``ai_profile.py``)).

Each reply is a copy of the position as the enemy's next Activation Phase would find it (the
turn's moves, shots and activations forgotten, SAGA p.11) with one enemy unit activated to move,
and the ``engage`` action of that unit against one of the player's units in its reach (its
move and VS, SAGA p.12 and p.20). The enemy's dice are not known yet: every unit that is not
exhausted is taken as able to activate. The engine checks the charge itself, as for any
``engage``; one it refuses is simply no threat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.core.plain import copy_plain
from simulator.games.saga import catalogue as cat
from simulator.games.saga import movement
from simulator.games.saga.evaluation import player_turns_left
from simulator.games.saga.units import exhausted, live_units, unit_gap

State = dict[str, Any]
Action = dict[str, Any]


def _from_foes_next(state: State, side: str) -> int:
    """The player-turns left from an opponent's next one on, that one included (0: none before
    the turn limit): the next player-turn is an opponent's, so one fewer if ``side`` is playing
    now."""
    return player_turns_left(state) - (1 if state.get("turn_player") == side else 0)


def _fingerprint(state: State, uid: str) -> tuple[Any, ...]:
    unit = state["units"][uid]
    figures = tuple((round(state["figures"][f]["x"], 2), round(state["figures"][f]["y"], 2))
                    for f in unit["figures"] if f in state["figures"])
    return uid, unit["fatigue"], figures


def _reply_state(state: State, foe: str, uid: str) -> State:
    """``state`` as ``foe``'s next Activation Phase finds it, ``uid`` just activated to move."""
    out = copy_plain(state)
    out.update(phase="activation", turn_player=foe, active=foe, melee=None, shooting=None, queue=[],
               free=[], choice=None, armour_down={}, deferred_melee=None, orders_rolled=True)
    out.pop("interrupted", None)
    for side in out["sides"].values():
        side.update(determination=0, we_obey=0)
    for u in out["units"].values():
        u.update(moves=0, shots=0, rested=False, activations=0, entered_building=None)
    out["units"][uid]["activations"] = 1
    out["pending"] = {"kind": "move", "unit": uid, "order": "move", "slow": 0, "paid_with_die": True,
                      "cancelled": False, "free": {}, "asked": [], "fatigue_slowed": False, "must_engage": None}
    return out


@dataclass(frozen=True)
class Reply:
    """One charge the enemy could make: ``key`` names what its outcome depends on (the two units'
    figures and fatigue; for a Warlord, every figure of his side too, his bodyguards, SAGA p.33),
    so a player may remember outcomes between positions; :meth:`start` builds the position."""

    key: tuple[Any, ...]
    foe: str
    unit: str
    action: Action
    #: The charge comes in the game's last player-turn: nothing can answer it.
    final: bool = False
    #: How likely the enemy is to make this charge at all (:func:`reply_chance`).
    chance: float = 1.0

    def start(self, state: State) -> State:
        """``state`` (the one :func:`replies` was asked about) with the charging unit activated."""
        return _reply_state(state, self.foe, self.unit)


#: About how many of his units a SAGA player activates for a purpose in a turn (six SAGA dice,
#: some spent on abilities, some on a second activation of the same unit).
REPLY_ACTIVATIONS = 3


def reply_chance(state: State, foe: str) -> float:
    """How likely ``foe`` is to charge with one particular unit next turn: certain with at most
    ``REPLY_ACTIVATIONS`` units (the quick-start's three), less the more units share his dice. A
    reply weighed as if certain in a seven-unit army kept the player from crossing the ford; one
    weighed at a quarter in the quick-start let it walk its hearthguard into the reach of an army
    of three that charged them twice (docs/ai.md)."""
    units = [u for u in live_units(state, foe) if not u.get("baggage")]
    return min(1.0, REPLY_ACTIVATIONS / max(1, len(units)))


def replies(state: State, side: str, most: int = 6) -> list[Reply]:
    """The charges the enemy could open its next turn with against ``side``'s units: at most
    ``most`` of them, the closest pairs first; none when the game ends before an opponent plays
    again."""
    if state.get("phase") == "setup":
        return []
    left = _from_foes_next(state, side)
    if left <= 0:
        return []
    mine = live_units(state, side)
    pairs: list[tuple[float, str, str, str]] = []
    for foe in state["players"]:
        if foe == side:
            continue
        for enemy in live_units(state, foe):
            if enemy.get("baggage") or exhausted(enemy):
                continue
            reach = movement.allowance(state, enemy, False, movement.MoveRules()) + cat.inches("VS")
            for target in mine:
                gap = unit_gap(state, enemy["id"], target["id"])
                if gap <= reach:
                    pairs.append((gap, foe, enemy["id"], target["id"]))
    pairs.sort()
    out: list[Reply] = []
    everyone = tuple(_fingerprint(state, u["id"]) for u in mine)
    final = left == 1
    chances = {foe: reply_chance(state, foe) for foe in state["players"] if foe != side}
    for _, foe, eid, tid in pairs[:most]:
        key: tuple[Any, ...] = (_fingerprint(state, eid), _fingerprint(state, tid))
        if state["units"][tid]["cls"] == "warlord":
            key += everyone
        out.append(Reply(key, foe, eid, {"type": "engage", "target": tid}, final, chances[foe]))
    return out


def in_fight(state: State) -> bool:
    """A melee or a shot is being resolved: the normal player's look-ahead then plays the
    abilities the battle boards offer (``AIProfile.fight_types``). The dice on a board
    are open to both players, and a look-ahead that never used them charged an Earl whose board
    held The Push and Stubbornness as if he had none (a read quick-start game, lost)."""
    return state.get("melee") is not None or state.get("shooting") is not None
