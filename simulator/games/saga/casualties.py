"""The owner's choice of casualties (SAGA p.17 step 5 of shooting, p.22 step 6 of melee).

The owner of a unit that takes uncancelled hits picks which figures die, any figure of the
unit, fighting or not, as long as the figures left keep formation (SAGA p.12). The quick-start
adds that a figure must stay in base contact with the enemy (QS "Casualties").

Figures killed by abilities (The Push, Crash, VK-13, Exhaustion...) are picked the same way by
their owner: the ability leaves a pending choice in ``state["choice"]`` (:func:`kill`) that blocks
every other action until ``remove_casualties`` answers it (:func:`settle`).

The Warlord's bodyguards (SAGA p.33): when his Resilience needs friendly non-Levy figures within
VS to die in his place, his owner picks them (:func:`guard_choice`, :func:`guard_options`,
:func:`check_guards`), the ``bodyguards`` action of melee step 6 and shooting step 5.

A named leader (Jarl Sigvald, Egil, SAGA p.44-45) dies last: his owner may name him only when
the figures left could not keep formation otherwise, and then he swaps places with a survivor who
dies in his place (:func:`simulator.games.saga.units.leader_swap`).

Harold's brother unit and baggage follow their own rules (SAGA p.42, p.56): the engine removes
those. A choice is asked only when there is one: some but not all of the candidates die and the
rule switch ``player_choices`` is on. The engine's pick (``removal_order``: farthest from the
enemy first, never breaking formation) is the default and the first option of the legal actions.
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.saga import catalogue as cat
from simulator.games.saga.units import EPS, cohesive, figure_array, in_contact, remove_figures, removal_order
from simulator.geometry.table import circle_gaps

State = dict[str, Any]

#: How many alternatives to the default the legal-action list offers.
MAX_OPTIONS = 4
#: How many candidate sets are examined for those alternatives.
MAX_TRIES = 40


def needs_choice(state: State, uid: str, hits: int) -> bool:
    """True when the owner of ``uid`` picks ``hits`` casualties himself."""
    unit = state["units"][uid]
    if not state["rules"].get("player_choices", True):
        return False
    if unit["cls"] == "warlord" or unit.get("baggage"):
        return False
    return 0 < hits < len(unit["figures"])


def _foe_array(state: State, foe_unit: str | None) -> Any:
    if foe_unit is None or not state["units"][foe_unit]["figures"]:
        return None
    return figure_array(state, state["units"][foe_unit]["figures"])


def default_choice(state: State, uid: str, hits: int, foe_unit: str | None,
                   among: list[str] | None = None) -> list[str]:
    """The engine's pick: farthest from the enemy first, keeping formation (only figures of
    ``among`` when the rule limits the candidates, e.g. to those engaged in the melee)."""
    return removal_order(state, uid, _foe_array(state, foe_unit), among, limit=hits)


def problem(state: State, uid: str, hits: int, figures: Any, foe_unit: str | None, melee: bool,
            among: list[str] | None = None, default: list[str] | None = None) -> str | None:
    """Why ``figures`` is not a valid set of casualties, or None (``default``: the engine's
    pick, :func:`default_choice`, when the caller already has it)."""
    unit = state["units"][uid]

    def engine_pick() -> list[str]:
        return default if default is not None else default_choice(state, uid, hits, foe_unit, among)

    if not isinstance(figures, list) or not all(isinstance(f, str) for f in figures):
        return "figures lists figure ids"
    if len(set(figures)) != len(figures) or len(figures) != hits:
        return f"name {hits} different figure(s) of {unit['name']}"
    stranger = [f for f in figures if f not in unit["figures"]]
    if stranger:
        return f"{stranger[0]} is not a living figure of {unit['name']}"
    lead = unit.get("leader")
    if lead in figures and any(f not in figures for f in unit["figures"]) \
            and lead not in engine_pick():
        return f"{unit['figure_names'][lead]} dies last, after every other figure of {unit['name']} (SAGA p.44)"
    outside = [f for f in figures if among is not None and f not in among]
    if outside:
        return f"{outside[0]} is not one of the figures of {unit['name']} engaged in the melee"
    rest = [f for f in unit["figures"] if f not in figures]
    if not cohesive(figure_array(state, rest)):
        fallback = [f for f in unit["figures"] if f not in engine_pick()]
        if cohesive(figure_array(state, fallback)):
            return "the figures left must keep formation (each within VS of the unit)"
    if melee and foe_unit is not None and state["mode"] == "quickstart" and state["units"][foe_unit]["figures"]:
        foes = figure_array(state, state["units"][foe_unit]["figures"])
        touch = in_contact(state, figure_array(state, rest), foes)            # across a hedge too (SAGA p.20)
        before = in_contact(state, figure_array(state, unit["figures"]), foes)
        if before.any() and not touch.any():
            return "a figure must stay in base contact with the enemy (quick-start)"
    return None


def options(state: State, uid: str, hits: int, foe_unit: str | None, melee: bool,
            among: list[str] | None = None) -> list[list[str]]:
    """The default first, then a few other valid sets (nearest the enemy first)."""
    first = default_choice(state, uid, hits, foe_unit, among)
    out = [first]
    figs = [f for f in state["units"][uid]["figures"] if among is None or f in among]
    foe = _foe_array(state, foe_unit)
    near = list(figs)
    if foe is not None:
        gaps = circle_gaps(figure_array(state, figs), foe).min(axis=1)
        near = [figs[i] for i in np.argsort(gaps, kind="stable")]
    for tried, combo in enumerate(combinations(near, hits)):
        if len(out) > MAX_OPTIONS or tried >= MAX_TRIES:
            break
        pick = list(combo)
        if set(pick) != set(first) and problem(state, uid, hits, pick, foe_unit, melee, among, first) is None:
            out.append(pick)
    return out


def check(state: State, uid: str, hits: int, figures: Any, foe_unit: str | None, melee: bool,
          among: list[str] | None = None, rule: str | None = None) -> list[str]:
    """The chosen casualties, or IllegalAction naming the rule."""
    why = problem(state, uid, hits, figures, foe_unit, melee, among)
    if why is not None:
        raise IllegalAction(why, rule or ("SAGA p.22" if melee else "SAGA p.17"))
    return list(figures)


# -- figures killed by abilities ---------------------------------------------------------------
def kill(state: State, uid: str, count: int, ctx: Context, why: str, rule: str, killer: str | None = None,
         by: str | None = None, among: list[str] | None = None) -> None:
    """An ability kills ``count`` figures of ``uid`` (only figures of ``among`` if given; ``by``:
    the enemy unit they face, for the default). With a choice to make, it waits in
    ``state["choice"]`` for the owner's ``remove_casualties``; otherwise they die now."""
    unit = state["units"][uid]
    pool = [f for f in unit["figures"] if among is None or f in among]
    count = min(count, len(pool))
    if count <= 0:
        return
    if state["rules"].get("player_choices", True) and state.get("choice") is None and count < len(pool):
        state["choice"] = {"kind": "casualties", "unit": uid, "count": count, "among": among, "by": by,
                           "killer": killer, "why": why, "rule": rule, "player": unit["owner"]}
        ctx.emit("choice", f"{unit['owner']} picks the {count} figure(s) of {unit['name']} that die ({why})", rule,
                 pieces=list(pool), unit=uid)
        return
    chosen = default_choice(state, uid, count, by, among)
    remove_figures(state, uid, count, ctx, why, rule, killer=killer, chosen=chosen)


def choice_options(state: State) -> list[list[str]]:
    """The sets of figures the pending ability choice may name, the engine's pick first."""
    ch = state["choice"]
    return options(state, ch["unit"], ch["count"], ch["by"], False, ch["among"])


def settle(state: State, figures: Any, ctx: Context) -> None:
    """The owner's answer to the pending ability choice: those figures die."""
    ch = state["choice"]
    chosen = check(state, ch["unit"], ch["count"], figures, ch["by"], False, ch["among"], ch["rule"])
    state["choice"] = None
    remove_figures(state, ch["unit"], len(chosen), ctx, ch["why"], ch["rule"], killer=ch["killer"], chosen=chosen)
    state["active"] = ch.get("resume", state["active"])


# -- the Warlord's bodyguards (SAGA p.33) ------------------------------------------------------
def bodyguards(state: State, warlord_uid: str) -> list[str]:
    """Friendly non-Levy figures within VS of the Warlord (SAGA p.33), nearest first."""
    w = state["units"][warlord_uid]
    wf = state["figures"][w["figures"][0]]
    out = []
    for f, v in state["figures"].items():
        u = state["units"][v["unit"]]
        if u["owner"] != w["owner"] or u["id"] == warlord_uid or u["cls"] == "levies" or u.get("baggage"):
            continue
        gap = math.dist((v["x"], v["y"]), (wf["x"], wf["y"])) - v["r"] - wf["r"]
        if gap <= cat.inches("VS") + EPS:
            out.append((gap, f))
    return [f for _, f in sorted(out)]


def _breaks_formation(state: State, figures: list[str]) -> bool:
    """True when removing ``figures`` leaves one of their units out of formation."""
    for uid in {state["figures"][f]["unit"] for f in figures}:
        rest = [f for f in state["units"][uid]["figures"] if f not in figures]
        if rest and not cohesive(figure_array(state, rest)):
            return True
    return False


def default_guards(state: State, warlord_uid: str, n: int) -> list[str]:
    """The engine's bodyguards: the nearest whose loss keeps their unit in formation, then the nearest."""
    guards = bodyguards(state, warlord_uid)
    picked: list[str] = []
    for g in guards:
        if len(picked) < n and not _breaks_formation(state, picked + [g]):
            picked.append(g)
    return picked + [g for g in guards if g not in picked][:n - len(picked)]


def guard_choice(state: State, warlord_uid: str, hits: int) -> int:
    """How many bodyguards the Warlord's owner picks for ``hits`` uncancelled hits; 0 when there
    is nothing to choose (no Warlord, a hit he ignores, too few guards to save him, or exactly
    as many as needed, or Harold's brothers still standing, or scenario 4's wounds)."""
    unit = state["units"][warlord_uid]
    if not state["rules"].get("player_choices", True) or unit["cls"] != "warlord" or len(unit["figures"]) != 1 \
            or state["victory"] == "challenge":
        return 0
    need = hits - int(unit.get("ignore_hits", 1))
    return need if need >= 1 and len(bodyguards(state, warlord_uid)) > need else 0


def guard_problem(state: State, warlord_uid: str, n: int, figures: Any) -> str | None:
    """Why ``figures`` cannot be the Warlord's ``n`` bodyguards, or None."""
    if not isinstance(figures, list) or not all(isinstance(f, str) for f in figures):
        return "figures lists figure ids"
    if len(set(figures)) != len(figures) or len(figures) != n:
        return f"name {n} different bodyguard figure(s)"
    guards = bodyguards(state, warlord_uid)
    wrong = [f for f in figures if f not in guards]
    if wrong:
        return f"{wrong[0]} is not a friendly non-Levy figure within VS of the Warlord"
    if _breaks_formation(state, figures) and not _breaks_formation(state, default_guards(state, warlord_uid, n)):
        return "the units losing bodyguards must keep formation (each figure within VS of its unit)"
    return None


def guard_options(state: State, warlord_uid: str, n: int) -> list[list[str]]:
    """The engine's bodyguards first, then a few other valid sets."""
    first = default_guards(state, warlord_uid, n)
    out = [first]
    for tried, combo in enumerate(combinations(bodyguards(state, warlord_uid), n)):
        if len(out) > MAX_OPTIONS or tried >= MAX_TRIES:
            break
        pick = list(combo)
        if set(pick) != set(first) and guard_problem(state, warlord_uid, n, pick) is None:
            out.append(pick)
    return out


def check_guards(state: State, warlord_uid: str, n: int, figures: Any) -> list[str]:
    why = guard_problem(state, warlord_uid, n, figures)
    if why is not None:
        raise IllegalAction(why, "SAGA p.33")
    return list(figures)
