"""The turn sequence (DR 2.6): ten phases, the invader's first except in "Scenario 2"
(DR 3.1.1), and what happens automatically as phases begin and end: per-turn flags, fog and
whirlwinds, reinforcements (DR 2.9), berserk monsters moving, attacking and dying
(DR 2.12.1.7.1, :mod:`.berserk`), uncontrolled elementals picking their target and attacking
(DR 2.8.9, :mod:`.elementals`), held lightning expiring (DR 2.8.8), dragons left on broken bridges
(DR 2.5.7.2), open entrances closing (DR 2.5.5.3) and the end-of-turn victory checks.
"""

from __future__ import annotations

from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.berserk import berserk_phase
from simulator.games.dragon_rage.casualties import kill_monster
from simulator.games.dragon_rage.doors import end_of_movement as doors_end_of_movement
from simulator.games.dragon_rage.elementals import start_of_movement as wild_start_of_movement
from simulator.games.dragon_rage.elementals import wild_melee_phase
from simulator.games.dragon_rage.magic import start_of_spell_phase
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.units import TURN_FLAGS, State, Unit, ground_units_at, living, make_unit
from simulator.games.dragon_rage.victory import adjust_vp, end_of_turn_checks
from simulator.games.dragon_rage.victory import declare_end as victory_declare_end  # the table (DR 2.3)


def phase_info(phase: str) -> dict[str, Any]:
    return next(p for p in rules_data().rules["phases"] if p["id"] == phase)


def reinforcement_plan(state: State) -> dict[str, Any]:
    """The game's reinforcement rate and place (built by setup; the rules' numbers unless the
    scenario changed them, DR 2.9). States saved before the plan existed get the rules' numbers."""
    plan = state.get("reinforcement_plan")
    if plan:
        return plan
    r = rules_data().rules["reinforcements"]
    return {"first_turn": r["first_turn"], "every": r["every"], "count": r[state["map_name"]]["count"],
            "arrival": list(board_for(state["map"]).edges.get("reinforcement_arrival", []))}


def is_reinforcement_turn(turn: int, plan: dict[str, Any] | None = None) -> bool:
    r = plan or rules_data().rules["reinforcements"]
    return turn >= r["first_turn"] and (turn - r["first_turn"]) % r["every"] == 0


def end_phase_block(state: State) -> tuple[str, str] | None:
    """Why the phase may not end yet: a wild elemental not yet moved (DR 2.8.9), an elemental
    owing an attack on its own hex (DR 2.8.9), a T-Rex owing its counter-attack (DR 2.11.3)."""
    if state["phase"].endswith("move"):
        from simulator.games.dragon_rage.elementals import owed_wild_move
        return owed_wild_move(state)
    if not state["phase"].endswith("melee"):
        return None
    from simulator.games.dragon_rage.elementals import owed_attack
    owed = owed_attack(state)
    if owed:
        return owed
    from simulator.games.dragon_rage.combat import COUNTER_RULE, counterattack_possible
    for u in living(state, state["active"]):
        if u.get("must_attack") and counterattack_possible(state, u):
            return (f"{u['id']} was attacked in melee and must first attack one of "
                    f"{', '.join(u['must_attack'])}", COUNTER_RULE)
    return None


def owed_actions(state: State) -> list[dict[str, Any]]:
    """The legal attacks that discharge the obligations blocking :func:`end_phase_block`
    (an elemental's attack on its own hex, a T-Rex's counter-attack), so that a blocked phase
    always offers a way forward; in a movement phase, the moves owed for wild elementals."""
    if state["phase"].endswith("move"):
        from simulator.games.dragon_rage.elementals import wild_move_actions
        return wild_move_actions(state)
    if not state["phase"].endswith("melee"):
        return []
    from simulator.games.dragon_rage.combat import counterattack_options
    from simulator.games.dragon_rage.elementals import owed_attack_options
    out: list[dict[str, Any]] = []
    for u in living(state, state["active"]):
        out += owed_attack_options(state, u)
        if u.get("must_attack"):
            out += counterattack_options(state, u)
    return out


def end_phase(state: State, ctx: Context) -> None:
    _close_phase(state, ctx)
    if state["game_over"] is not None:
        return
    state["phase_index"] += 1
    if state["phase_index"] >= len(state["order"]):
        ctx.emit("turn_end", f"end of turn {state['turn']}: the turn pointer advances", "DR 2.6.1.10")
        end_of_turn_checks(state, ctx)
        if state["game_over"] is not None:
            return
        state["turn"] += 1
        state["phase_index"] = 0
        state["dragon_targets"] = {}
        for u in state["units"].values():
            if "damaged_by" in u:
                u["damaged_by"] = []
    state["phase"] = state["order"][state["phase_index"]]
    state["active"] = phase_info(state["phase"])["side"]
    _begin_phase(state, ctx)


def _close_phase(state: State, ctx: Context) -> None:
    """What ends with the current phase (refused while :func:`end_phase_block` holds)."""
    phase = state["phase"]
    block = end_phase_block(state)
    if block:
        raise IllegalAction(*block)
    if phase.endswith("melee"):
        for u in living(state, state["active"]):
            if u.get("must_attack"):
                u["must_attack"] = []    # the obligation lasts for the controller's next turn only
            if u.get("must_attack_here"):
                u["must_attack_here"] = None
    _finish_phase(state, ctx, phase)


def may_declare_end(state: State) -> tuple[str, str] | None:
    """Why the invader may not declare the game over now, or None: only with graduated results,
    in the last phase of his turn, once that phase could end (DR 2.3, Q-VP-9)."""
    rule = "DR 2.3"
    if not state["rules"].get("graduated_victory"):
        return ("only with the optional graduated results (rules.graduated_victory) may the invader "
                "declare the game over", rule)
    last = [p for p in state["order"] if p.startswith("invader")][-1]
    if state["phase"] != last:
        return (f"the invader declares the game over at the end of his turn: in the "
                f"{phase_info(last)['name']} phase", rule)
    return end_phase_block(state)


def declare_end(state: State, ctx: Context) -> None:
    """The invader ends his turn and the game; the graduated table gives the result (DR 2.3)."""
    refused = may_declare_end(state)
    if refused:
        raise IllegalAction(*refused)
    _close_phase(state, ctx)
    victory_declare_end(state, ctx)


def _finish_phase(state: State, ctx: Context, phase: str) -> None:
    if phase == "invader_move":
        doors_end_of_movement(state, ctx)
        for u in living(state, "invader"):
            hex_ = u.get("on_broken_bridge")
            if hex_ and u["hex"] == hex_ and state["turn"] >= u.get("bridge_deadline", 0):
                state["bridges"][hex_] = "burned"
                kill_monster(state, ctx, u, f"it stayed on the broken bridge {hex_} and fell into the river",
                             "DR 2.5.7.2")
    if phase == "invader_melee":
        need = int(rules_data().rules["berserk_death_on"])
        for u in living(state, "invader"):
            if u.get("berserk"):
                roll = ctx.dice.d6(f"berserk death roll of {u['id']}")
                if roll >= need:
                    kill_monster(state, ctx, u, f"berserk, it rolled {roll}", "DR 2.12.1.7.1")
                else:
                    ctx.emit("berserk", f"{u['id']} rages on (rolled {roll})", "DR 2.12.1.7.1", pieces=[u["id"]])
        for info in state["entrances"].values():
            if info.get("open") == "active":
                info["open"] = False
    if phase.endswith("melee"):
        for h in [h for h in state.get("held_lightning") or [] if h["side"] == state["active"]]:
            state["held_lightning"].remove(h)
            ctx.emit("lightning_lost", f"{h['caster']}'s lightning held for a melee on {h['unit']} is lost",
                     "DR 2.8.8", pieces=[h["caster"]])
    if phase == "defender_reinforce" and state["pending_reinforcements"] > 0:
        ctx.emit("reinforcements_delayed", f"{state['pending_reinforcements']} reinforcements wait for the next "
                                           "turn", "DR 2.9")


def _begin_phase(state: State, ctx: Context) -> None:
    phase, side = state["phase"], state["active"]
    first_of_side = state["order"].index(phase) == min(i for i, p in enumerate(state["order"]) if p.startswith(side))
    ctx.emit("phase", f"turn {state['turn']}: {phase_info(phase)['name']}", phase_info(phase)["rule"],
             phase=phase, turn=state["turn"])
    if first_of_side:
        for u in state["units"].values():
            if u["side"] == side:
                for k, v in TURN_FLAGS.items():
                    u[k] = list(v) if isinstance(v, list) else v
                u["turn_start_hex"] = u["hex"]
                u["boosted"] = False
                u["no_attack"] = False
        if side == "invader":
            for info in state["entrances"].values():
                if info.get("open"):
                    info["open"] = "active"
    if phase.endswith("spell"):
        start_of_spell_phase(state, ctx, side)
    if phase.endswith("move"):
        wild_start_of_movement(state, ctx)
    if phase.endswith("melee"):
        wild_melee_phase(state, ctx)
    if phase.endswith("move") or phase.endswith("melee"):
        berserk_phase(state, ctx, phase)
    if phase == "defender_reinforce":
        _reinforcement_turn(state, ctx)


def _reinforcement_turn(state: State, ctx: Context) -> None:
    plan = reinforcement_plan(state)
    if not is_reinforcement_turn(state["turn"], plan):
        return
    elo = state["units"].get("elowyn")
    board = board_for(state["map"])
    if elo is not None and elo["alive"] and state["map_name"] == "esirien" and \
            board.attrs.get(elo["hex"] or "", {}).get("elowyn_safe_on_reinforcement_turn"):
        elo["alive"] = False
        elo["hex"] = None
        state["elowyn"]["status"] = "saved"
        ctx.emit("elowyn", "Elowyn sails away with the reinforcement fleet", "DR 2.10.7", pieces=["elowyn"])
        adjust_vp(state, ctx, -3, "Elowyn is saved", "DR 2.10.7")
    if not state["rules"].get("reinforcements", True):
        return
    state["pending_reinforcements"] += int(plan["count"])
    ctx.emit("reinforcements", f"{state['pending_reinforcements']} reinforcements may be placed", "DR 2.9",
             count=state["pending_reinforcements"])


def arrival_hexes(state: State) -> list[str]:
    out = []
    for h in reinforcement_plan(state)["arrival"]:
        if state["bridges"].get(h) == "burned":
            continue
        if not ground_units_at(state, h) and h not in state["impassable"]:
            out.append(h)
    return out


def reinforcement_type(state: State) -> str | None:
    """Infantry (orcs), or militia (goblins) when none are left, or None (DR 2.9)."""
    group = rules_data().rules["reinforcements"][state["map_name"]]
    for t in (group["units"], group["substitute"]):
        count = int(rules_data().units[t].get("count", 0))
        in_play = sum(1 for u in state["units"].values() if u["type"] == t and u["alive"])
        if in_play < count:
            return t
    return None


def reinforce(state: State, ctx: Context, to: Any) -> None:
    rule = "DR 2.9"
    if state["phase"] != "defender_reinforce":
        raise IllegalAction("reinforcements are placed in the defender's reinforcement phase", rule)
    if state["pending_reinforcements"] <= 0:
        raise IllegalAction("no reinforcements are due", rule)
    if to not in arrival_hexes(state):
        raise IllegalAction(f"{to} is not a vacant arrival hex ({', '.join(arrival_hexes(state)) or 'none free'})",
                            rule)
    type_id = reinforcement_type(state)
    if type_id is None:
        raise IllegalAction("every infantry and militia counter is in play: none can arrive", rule)
    n = 1 + sum(1 for u in state["units"].values() if u["type"] == type_id)
    code = (rules_data().units[type_id].get("code") or type_id).lower()
    uid = f"{code}{n}"
    while uid in state["units"]:
        n += 1
        uid = f"{code}{n}"
    unit: Unit = make_unit(uid, type_id, "defender", to)
    unit["turn_start_hex"] = to
    state["units"][uid] = unit
    state["pending_reinforcements"] -= 1
    ctx.emit("reinforcement", f"{uid} arrives at {to}", rule, pieces=[uid])
