"""The owner's choice of casualties (SAGA p.17 step 5 of shooting, p.22 step 6 of melee).

The owner of a unit that takes uncancelled hits picks which figures die, any figure of the
unit, fighting or not, as long as the figures left keep formation (SAGA p.12). The quick-start
adds that a figure must stay in base contact with the enemy (QS "Casualties").

Warlords, Harold's brother unit and baggage follow their own rules (Resilience, bodyguards,
SAGA p.33, p.42, p.56): the engine removes those. A choice is asked only when there is one:
some but not all of the unit's figures die and the rule switch ``player_choices`` is on.
The engine's pick (``removal_order``: farthest from the enemy first, never breaking formation)
is the default and the first option of the legal actions.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.games.saga.units import CONTACT, cohesive, figure_array, removal_order
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


def _foe_array(state: State, foe_unit: str) -> Any:
    return figure_array(state, state["units"][foe_unit]["figures"]) if state["units"][foe_unit]["figures"] else None


def default_choice(state: State, uid: str, hits: int, foe_unit: str) -> list[str]:
    """The engine's pick: farthest from the enemy first, keeping formation."""
    return removal_order(state, uid, _foe_array(state, foe_unit))[:hits]


def problem(state: State, uid: str, hits: int, figures: Any, foe_unit: str, melee: bool) -> str | None:
    """Why ``figures`` is not a valid set of casualties, or None."""
    unit = state["units"][uid]
    if not isinstance(figures, list) or not all(isinstance(f, str) for f in figures):
        return "figures lists figure ids"
    if len(set(figures)) != len(figures) or len(figures) != hits:
        return f"name {hits} different figure(s) of {unit['name']}"
    stranger = [f for f in figures if f not in unit["figures"]]
    if stranger:
        return f"{stranger[0]} is not a living figure of {unit['name']}"
    rest = [f for f in unit["figures"] if f not in figures]
    if not cohesive(figure_array(state, rest)):
        fallback = [f for f in unit["figures"] if f not in default_choice(state, uid, hits, foe_unit)]
        if cohesive(figure_array(state, fallback)):
            return "the figures left must keep formation (each within VS of the unit)"
    if melee and state["mode"] == "quickstart" and state["units"][foe_unit]["figures"]:
        touch = circle_gaps(figure_array(state, rest), figure_array(state, state["units"][foe_unit]["figures"]))
        before = circle_gaps(figure_array(state, unit["figures"]),
                             figure_array(state, state["units"][foe_unit]["figures"]))
        if (before <= CONTACT).any() and not (touch <= CONTACT).any():
            return "a figure must stay in base contact with the enemy (quick-start)"
    return None


def options(state: State, uid: str, hits: int, foe_unit: str, melee: bool) -> list[list[str]]:
    """The default first, then a few other valid sets (nearest the enemy first)."""
    first = default_choice(state, uid, hits, foe_unit)
    out = [first]
    figs = state["units"][uid]["figures"]
    foe = _foe_array(state, foe_unit)
    near = list(figs)
    if foe is not None:
        gaps = circle_gaps(figure_array(state, figs), foe).min(axis=1)
        near = [figs[i] for i in np.argsort(gaps, kind="stable")]
    for tried, combo in enumerate(combinations(near, hits)):
        if len(out) > MAX_OPTIONS or tried >= MAX_TRIES:
            break
        pick = list(combo)
        if set(pick) != set(first) and problem(state, uid, hits, pick, foe_unit, melee) is None:
            out.append(pick)
    return out


def check(state: State, uid: str, hits: int, figures: Any, foe_unit: str, melee: bool) -> list[str]:
    """The chosen casualties, or IllegalAction naming the rule."""
    why = problem(state, uid, hits, figures, foe_unit, melee)
    if why is not None:
        raise IllegalAction(why, "SAGA p.22" if melee else "SAGA p.17")
    return list(figures)
