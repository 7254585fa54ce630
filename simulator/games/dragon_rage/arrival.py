"""What happens when a unit enters or leaves a hex: gate control (DR 2.5.5), VP hexes taken
by monsters, trolls and elementals (DR 2.3, 2.8.9), the T-Rex on a wooden bridge
(DR 2.5.7.3), bridges wrecked behind a unit (DR 2.5.7.1) and Elowyn (DR 2.10.7).
"""

from __future__ import annotations

from simulator.core.game import Context
from simulator.games.dragon_rage import escort
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.units import State, Unit, ground_units_at, is_human, kind, spec
from simulator.games.dragon_rage.victory import adjust_vp, destroy_vp, end_game


def entered_hex(state: State, ctx: Context, unit: Unit, hex_: str) -> None:
    board = board_for(state["map"])
    for key, ent in board.entrances.items():
        if ent.inside == hex_ and ent.tower is None:
            info = state["entrances"][key]
            if info["controller"] != unit["side"]:
                info["controller"] = unit["side"]
                ctx.emit("gate_control", f"the {unit['side']} now controls {ent.feature} {key}", "DR 2.5.5",
                         pieces=[unit["id"]], hexside=key)
    rules = spec(unit).get("rules", {})
    takes_vp = unit["side"] == "invader" and (rules.get("destroys_vp_by_entering") or
                                              rules.get("destroys_vp_like_monster"))
    if kind(unit) == "elemental":
        # an elemental destroys a VP hex by entering it, occupied or not (DR 2.8.9)
        destroy_vp(state, ctx, hex_, f"{unit['id']} entering", "DR 2.8.9", [unit["id"]])
    elif takes_vp and not any(u["side"] == "defender" and u["id"] != unit["id"]
                              for u in ground_units_at(state, hex_)):
        destroy_vp(state, ctx, hex_, f"{unit['id']} entering", "DR 2.3", [unit["id"]])
    if rules.get("drowns_on_wooden_bridge") and state["bridges"].get(hex_) in ("intact", "broken"):
        from simulator.games.dragon_rage.casualties import eliminate
        state["bridges"][hex_] = "burned"
        ctx.emit("bridge_burned", f"the wooden bridge {hex_} gives way under {unit['id']}", "DR 2.5.7.3",
                 pieces=[unit["id"]], hex=hex_)
        eliminate(state, ctx, unit, "it falls into the river and drowns", "DR 2.11.3.1")
        return
    escort.entered(state, ctx, unit, hex_)
    _elowyn(state, ctx, unit, hex_)


def _elowyn(state: State, ctx: Context, unit: Unit, hex_: str) -> None:
    elo = state["units"].get("elowyn")
    if elo is None or not elo["alive"] or state["elowyn"]["status"] not in ("captive", "in play", "free"):
        return
    board = board_for(state["map"])
    if unit["id"] == "elowyn":
        if hex_ != state["elowyn"]["start"]:
            state["elowyn"]["left_start"] = True
        if hex_ in board.edges.get("road_exits", []):
            elo["alive"] = False
            elo["hex"] = None
            if state["map_name"] == "nurkott":
                state["elowyn"]["status"] = "escaped"
                ctx.emit("elowyn", "Elowyn is taken off the map by the invader", "DR 2.10.7", pieces=["elowyn"])
                end_game(state, ctx, "invader", "the invader frees Elowyn and leads her off the map", "DR 2.10.7")
            else:
                state["elowyn"]["status"] = "saved"
                ctx.emit("elowyn", "Elowyn escapes the city by the road", "DR 2.10.7", pieces=["elowyn"])
                adjust_vp(state, ctx, -3, "Elowyn is saved", "DR 2.10.7")
        return
    if elo.get("captive") and hex_ == elo["hex"] and unit["side"] == "invader" and is_human(unit):
        elo["captive"] = False
        state["elowyn"]["status"] = "free"
        ctx.emit("elowyn", f"{unit['id']} frees Elowyn from the slave cell", "DR 2.10.7",
                 pieces=[unit["id"], "elowyn"])


def left_hex(state: State, ctx: Context, unit: Unit, hex_: str | None) -> None:
    """A unit moving off a bridge it was wrecking brings it down (DR 2.5.7.1)."""
    if hex_ is not None and unit.get("demolishing") == hex_ and unit.get("demolish_turn", -1) < state["turn"]:
        state["bridges"][hex_] = "burned"
        unit["demolishing"] = None
        ctx.emit("bridge_burned", f"bridge {hex_} burns behind {unit['id']}", "DR 2.5.7.1",
                 pieces=[unit["id"]], hex=hex_)
