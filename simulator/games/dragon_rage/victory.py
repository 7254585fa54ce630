"""Victory points and the end of the game (DR 2.3, 2.2.4.2, 2.10.7).

The invader scores a VP hex once (a destroyed marker is placed); the last-damage pointer
records the turn of the latest destruction. The game ends when the invader reaches his
objective, when every invader is gone, or after ten quiet turns (no VP destroyed, or no
invader inside the walls), or at a scenario's turn limit.

With the optional graduated results (``rules.graduated_victory``, DR 2.3, digest Q-VP-9) the
objective does not end the game: the invader may play on toward "maximum" (every VP hex
destroyed, which does end it) and declares the game over himself at the end of one of his
turns (:func:`declare_end`, offered through the ``declare_end`` action); the defender's end
conditions still end it, and every end applies the graduated table.
"""

from __future__ import annotations

from typing import Any

from simulator.core.game import Context
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.rules_data import rules_data
from simulator.games.dragon_rage.units import State, living


def vp_value(state: State, hex_: str) -> int:
    """A hex's current VP value (the Citadel drops to 4 once Elowyn left it, DR 2.10.7)."""
    board = board_for(state["map"])
    value = board.vp.get(hex_, 0)
    low = board.attrs.get(hex_, {}).get("vp_after_elowyn_leaves")
    if low is not None and state.get("elowyn") and state["elowyn"].get("left_start"):
        return int(low)
    return value


def destroy_vp(state: State, ctx: Context, hex_: str, how: str, rule: str, pieces: list[str]) -> bool:
    """Destroy the VP hex ``hex_`` for the invader; False when it is no VP hex or already gone."""
    value = vp_value(state, hex_)
    if value <= 0 or hex_ in state["vp"]["destroyed"]:
        return False
    state["vp"]["destroyed"][hex_] = value
    state["vp"]["score"] += value
    state["last_vp_turn"] = state["turn"]
    ctx.emit("vp_destroyed", f"{how} destroys VP hex {hex_} ({value} VP); the invader has "
                             f"{state['vp']['score']} of {state['vp']['objective']} VP",
             rule, pieces=pieces, hex=hex_, value=value, score=state["vp"]["score"])
    check_instant_victory(state, ctx)
    return True


def adjust_vp(state: State, ctx: Context, delta: int, why: str, rule: str) -> None:
    state["vp"]["score"] += delta
    ctx.emit("vp_adjusted", f"{why}: the invader's VP change by {delta:+d} to {state['vp']['score']}",
             rule, delta=delta, score=state["vp"]["score"])
    check_instant_victory(state, ctx)


def total_vp(state: State) -> int:
    board = board_for(state["map"])
    return sum(vp_value(state, h) if h not in state["vp"]["destroyed"] else state["vp"]["destroyed"][h]
               for h in board.vp)


def end_game(state: State, ctx: Context, winner: str | None, text: str, rule: str, level: str = "") -> None:
    if state["game_over"] is not None:
        return
    if state["rules"].get("graduated_victory") and winner == "defender":
        lvl = graduated_level(state)
        if lvl is not None:
            winner, level = "invader", lvl["level"]
            text += f"; but with {state['vp']['score']} VP the invader earns '{lvl['title']}'"
            rule = "DR 2.3"
    state["game_over"] = {"winner": winner, "text": text, "rule": rule, "level": level,
                          "scores": {"invader_vp": state["vp"]["score"]}}
    ctx.emit("game_over", text, rule, winner=winner, level=level)


def graduated_level(state: State) -> dict[str, Any] | None:
    """The optional graduated result for the invader's VP (DR 2.3 note), or None for a defeat."""
    score, objective = state["vp"]["score"], state["vp"]["objective"]
    for lvl in rules_data().rules["victory_levels"]:
        if lvl.get("need") == "all":
            if score >= total_vp(state) and all_vp_destroyed(state):
                return lvl
        elif score >= objective - int(lvl["below_objective"]):
            return lvl
    return None


def all_vp_destroyed(state: State) -> bool:
    return len(state["vp"]["destroyed"]) == len(board_for(state["map"]).vp)


def check_instant_victory(state: State, ctx: Context) -> None:
    """Objective reached (with graduated results: every VP hex destroyed), or every invader
    destroyed."""
    if state["game_over"] is not None:
        return
    score, objective = state["vp"]["score"], state["vp"]["objective"]
    if state["rules"].get("graduated_victory"):
        if all_vp_destroyed(state):
            graduated_end(state, ctx, "every VP hex on the map is destroyed")
            return
        if score >= objective and not state["vp"].get("objective_reached"):
            state["vp"]["objective_reached"] = True
            ctx.emit("objective_reached", f"the invader reaches his objective ({score} of {objective} VP): "
                                          "with graduated results he may declare the game over at the end of "
                                          "one of his turns or play on toward the maximum victory", "DR 2.3",
                     score=score, objective=objective)
    elif score >= objective:
        level = "maximum" if all_vp_destroyed(state) else "great"
        end_game(state, ctx, "invader", f"the invader reaches {score} VP (objective {objective})", "DR 2.3", level)
        return
    invaders = [u for u in living(state, "invader") if u["type"] != "elowyn"]
    if not invaders:
        end_game(state, ctx, "defender", "every invading unit has been destroyed", "DR 2.3")


def declare_end(state: State, ctx: Context) -> None:
    """The invader declares the game over (DR 2.3, Q-VP-9; graduated results only)."""
    graduated_end(state, ctx, "the invader declares the game over")


def graduated_end(state: State, ctx: Context, why: str) -> None:
    """End the game on the graduated table (DR 2.3): the invader's level for his VP, or the
    defender's win below the lowest level."""
    score, objective = state["vp"]["score"], state["vp"]["objective"]
    lvl = graduated_level(state)
    if lvl is None:
        lowest = max(int(x.get("below_objective", 0)) for x in rules_data().rules["victory_levels"])
        end_game(state, ctx, "defender", f"{why} with the invader at {score} VP, fewer than {objective - lowest} "
                                         f"(objective {objective}): the invader is defeated", "DR 2.3")
        return
    end_game(state, ctx, "invader", f"{why} with the invader at {score} VP (objective {objective}): "
                                    f"'{lvl['title']}'", "DR 2.3", lvl["level"])


def end_of_turn_checks(state: State, ctx: Context) -> None:
    """Ten quiet turns and the turn limit, checked when the turn pointer advances."""
    if state["game_over"] is not None:
        return
    board = board_for(state["map"])
    inside = board.inside_walls()
    if any(u["hex"] in inside for u in living(state, "invader") if u["type"] != "elowyn"):
        state["last_inside_turn"] = state["turn"]
    quiet = int(rules_data().rules["quiet_turns_for_defender_win"])
    turn = state["turn"]
    if turn - state["last_vp_turn"] >= quiet:
        end_game(state, ctx, "defender", f"{quiet} turns have passed without a VP hex destroyed "
                                         f"(last damage on turn {state['last_vp_turn']})", "DR 2.2.4.2")
    elif inside and turn - state["last_inside_turn"] >= quiet:      # a map without walls has no such end
        end_game(state, ctx, "defender", f"{quiet} turns have passed without an invader inside the walls",
                 "DR 2.3")
    elif state["turn_limit"] is not None and turn >= state["turn_limit"]:
        end_game(state, ctx, "defender", f"the scenario's turn limit ({state['turn_limit']}) is reached "
                                         "without the invader reaching his objective", "DR 2.3")
