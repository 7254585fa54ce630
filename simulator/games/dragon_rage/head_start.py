"""The campaign head start, chosen in play (DR 4.3.3).

When the defender's availability exceeds the invader's by 15 or more, the invader places
"destroyed VP hex" markers worth 1 VP per full 5 points of the gap before play; the rules leave
the hexes to him (digest §17, INF). A campaign game built without a choice carries
``setup.head_start_vp``: the game then opens with a set-up step in which the invader marks VP
hexes one at a time (action ``head_start``, any VP hex not yet destroyed whose value still
fits), until the head start is spent or no hex fits any more. ``end_phase`` during the step
places the rest by the default rule (:func:`default_hexes`: the most valuable hexes that still
fit, in label order). Nothing else may be done before the step is over; the invader is the
active player throughout, then the first phase of turn 1 goes on as usual.

The state holds ``head_start: {vp, left, marked}`` while the step is open, None after.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.phases import phase_info
from simulator.games.dragon_rage.units import State

RULE = "DR 4.3.3"


def default_hexes(values: Mapping[str, int], vp: int, taken: Iterable[str] = ()) -> list[str]:
    """The default choice: the most valuable VP hexes not in ``taken`` that still fit within
    ``vp``, in label order among equal values (reaches ``vp`` exactly whenever the 1-VP hexes
    allow it)."""
    skip = set(taken)
    out, left = [], vp
    for hex_, value in sorted(values.items(), key=lambda hv: (-hv[1], hv[0])):
        if hex_ not in skip and 0 < value <= left:
            out.append(hex_)
            left -= value
    return out


def is_open(state: State) -> bool:
    """True while the invader still marks his head start (nothing else may happen)."""
    return bool(state.get("head_start"))


def open_step(state: State, ctx: Context, vp: int) -> None:
    """Start the set-up step (called by setup): the invader is to mark ``vp`` VP of hexes."""
    state["head_start"] = {"vp": vp, "left": vp, "marked": []}
    state["active"] = "invader"
    ctx.emit("head_start", f"campaign head start: the invader marks {vp} VP of VP hexes as destroyed before play",
             RULE, vp=vp)
    _close_if_spent(state, ctx)


def choices(state: State) -> list[str]:
    """The VP hexes the invader may mark now (not destroyed, value within what is left)."""
    step = state.get("head_start")
    if not step:
        return []
    destroyed = state["vp"]["destroyed"]
    return sorted(h for h, v in board_for(state["map"]).vp.items() if h not in destroyed and 0 < v <= step["left"])


def mark(state: State, ctx: Context, hex_: object) -> None:
    """The ``head_start`` action: mark one VP hex destroyed, its value counted for the invader."""
    step = state.get("head_start")
    if not step:
        raise IllegalAction("the head-start markers are placed before play, only in a campaign game that grants "
                            "them", RULE)
    values = board_for(state["map"]).vp
    if not isinstance(hex_, str) or values.get(hex_, 0) <= 0:
        raise IllegalAction(f"{hex_!r} is not a VP hex of this map ('hex' must name one)", RULE)
    if hex_ in state["vp"]["destroyed"]:
        raise IllegalAction(f"{hex_} is already destroyed", RULE)
    if values[hex_] > step["left"]:
        raise IllegalAction(f"{hex_} is worth {values[hex_]} VP but only {step['left']} VP of head start are left",
                            RULE)
    _place(state, ctx, hex_, values[hex_], "chosen")
    _close_if_spent(state, ctx)


def finish_by_default(state: State, ctx: Context) -> None:
    """``end_phase`` during the step: the rest of the head start goes to the default hexes."""
    step = state["head_start"]
    values = board_for(state["map"]).vp
    for hex_ in default_hexes(values, step["left"], state["vp"]["destroyed"]):
        _place(state, ctx, hex_, values[hex_], "by default")
    _close(state, ctx)


def _place(state: State, ctx: Context, hex_: str, value: int, how: str) -> None:
    step = state["head_start"]
    state["vp"]["destroyed"][hex_] = value
    state["vp"]["score"] += value
    step["left"] -= value
    step["marked"].append(hex_)
    ctx.emit("head_start_hex", f"VP hex {hex_} ({value} VP) starts destroyed ({how}); invader VP "
                               f"{state['vp']['score']}, {step['left']} VP of head start left", RULE,
             hex=hex_, vp=value, left=step["left"])


def _close_if_spent(state: State, ctx: Context) -> None:
    if not choices(state):
        _close(state, ctx)


def _close(state: State, ctx: Context) -> None:
    step = state["head_start"]
    state["head_start"] = None
    state["active"] = phase_info(state["phase"])["side"]
    marked = ", ".join(step["marked"]) or "none"
    ctx.emit("head_start_done", f"head start placed: {step['vp'] - step['left']} VP in {marked}; play begins",
             RULE, hexes=list(step["marked"]))
