"""Elowyn escorted by the orcs of Nurkott (DR 2.10.7).

On Nurkott with the Princess in play and no human unit among the invaders, the orc defender
holds her: she starts in the slave cell as the defender's and never moves on her own. An orc
unit (type ``orcs``: the rule names "a unit of Orcs", the title of DR 2.10.9, so trolls, wargs,
goblins and the orc characters do not escort) that enters her hex (or stands there at the start)
becomes her escort; from then on she moves with it, hex for hex, and the escort may only end a
move in an empty hex (the stack stays two units, DR 2.4.3).

* Hand-over: the escort may move on without her (``move`` with ``leave_elowyn: true``); she
  waits in her hex, still the orcs' prisoner, until another orc unit (or the same one) enters
  it and takes charge. The rule lets the defender stack "an" orc unit with her and binds her to
  no particular one; only the death of the escort sets her free.

* The escort reaches a hex where a road leaves the map: she is led away, the invader loses
  3 VP.
* The escort dies: she escapes on her own and leaves the map, the invader gains 2 VP.
* She dies (she is wounded first, like a hero): the invader gains 2 VP (in ``casualties``).
"""

from __future__ import annotations

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.units import State, Unit
from simulator.games.dragon_rage.victory import adjust_vp

RULE = "DR 2.10.7"


def is_escort_type(unit: Unit) -> bool:
    return unit["type"] == "orcs" and unit["side"] == "defender" and unit["alive"]


def princess(state: State) -> Unit | None:
    """Elowyn when she is on the map in the escort variant."""
    elo = state["units"].get("elowyn")
    info = state.get("elowyn") or {}
    if elo is None or not elo["alive"] or elo["hex"] is None or not info.get("escort_variant"):
        return None
    return elo


def start_escort(state: State, elo: Unit, orc: Unit) -> None:
    elo["escort"] = orc["id"]
    orc["escorting"] = elo["id"]
    state["elowyn"]["status"] = "escorted"


def entered(state: State, ctx: Context, unit: Unit, hex_: str) -> None:
    """An orc stepping into her hex takes charge of her."""
    elo = princess(state)
    if elo is None or elo.get("escort") or hex_ != elo["hex"] or not is_escort_type(unit):
        return
    start_escort(state, elo, unit)
    ctx.emit("elowyn_escort", f"{unit['id']} takes charge of Elowyn: she moves with it", RULE,
             pieces=[unit["id"], "elowyn"])


def leave_behind(state: State, ctx: Context, unit: Unit) -> None:
    """The escort moves on without her: she waits in her hex for an orc unit to take charge."""
    elo = princess(state)
    if elo is None or elo.get("escort") != unit["id"]:
        raise IllegalAction(f"{unit['id']} is not escorting Elowyn: there is nobody to leave behind", RULE)
    elo["escort"] = None
    unit["escorting"] = None
    state["elowyn"]["status"] = "held"
    ctx.emit("elowyn_left", f"{unit['id']} leaves Elowyn in {elo['hex']}: an orc unit that enters her hex "
                            "takes charge of her", RULE, pieces=[unit["id"], "elowyn"])


def escort_moved(state: State, ctx: Context, unit: Unit, before: str | None, path: list[str]) -> None:
    """Elowyn follows her escort's move; off the map at a road exit (invader -3 VP)."""
    elo = princess(state)
    if elo is None or elo.get("escort") != unit["id"] or elo["hex"] != before or not unit["alive"]:
        return
    elo["hex"] = unit["hex"]
    state["elowyn"]["left_start"] = True
    ctx.emit("move", f"Elowyn moves with {unit['id']} -> {unit['hex']}", RULE, pieces=["elowyn", unit["id"]],
             path=path)
    if unit["hex"] in board_for(state["map"]).edges.get("road_exits", []):
        _leaves(state, elo, unit, "led_away")
        ctx.emit("elowyn", f"{unit['id']} leads Elowyn off the map by the road", RULE, pieces=["elowyn", unit["id"]])
        adjust_vp(state, ctx, -3, "the orcs take Elowyn away", RULE)


def escort_died(state: State, ctx: Context, unit: Unit) -> None:
    """Her escort is destroyed: she escapes on her own (invader +2 VP)."""
    elo = princess(state)
    if elo is None or elo.get("escort") != unit["id"]:
        return
    _leaves(state, elo, unit, "escaped")
    ctx.emit("elowyn", f"{unit['id']} is destroyed and Elowyn escapes on her own", RULE, pieces=["elowyn"])
    adjust_vp(state, ctx, 2, "Elowyn escapes her orc guards", RULE)


def _leaves(state: State, elo: Unit, orc: Unit, status: str) -> None:
    elo["alive"] = False
    elo["hex"] = None
    elo["escort"] = None
    orc["escorting"] = None
    state["elowyn"]["status"] = status


def escort_may_end(state: State, unit: Unit, hex_: str, occupied: set[str]) -> bool:
    """An escorting orc ends its move only in an empty hex (she comes along)."""
    return not unit.get("escorting") or hex_ not in occupied
