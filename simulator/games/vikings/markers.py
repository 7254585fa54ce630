"""The box's marker inventory (rule 1.33): how many grapples, buckets, axe markers and treasure
markers exist (``data/markers.yaml``), and the checks made wherever one is placed.

A scenario that needs more markers than the box holds is refused at load; an action that would
put one more marker on the map than the box holds (a 25th bailer's bucket, a 27th axe marker) is
refused with the rule's reason.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.games.vikings.catalogue import load_checked
from simulator.games.vikings.pieces import alive

State = dict[str, Any]


@lru_cache(maxsize=None)
def inventory() -> dict[str, Any]:
    return load_checked("markers").data["markers"]


def in_use(state: State, kind: str) -> int:
    """Markers of ``kind`` on the map now."""
    if kind == "grapple":
        return sum(1 for g in state["grapples"].values() if g["status"] != "lost")
    if kind == "bucket":
        return sum(1 for c in state["chars"].values() if c.get("duty") == "bailer" and alive(c))
    if kind == "axe":
        return sum(1 for c in state["chars"].values() if c.get("axe") and alive(c))
    if kind == "treasure":
        return sum(1 for t in state.get("treasures", {}).values() if not t.get("lost") and not t.get("off_map"))
    return 0


def shortage(state: State, kind: str, adding: int = 1) -> str | None:
    """Why ``adding`` more markers of ``kind`` cannot be placed (None: the box has them)."""
    entry = inventory()[kind]
    if entry["count"] is None:
        return None
    used = in_use(state, kind)
    if used + adding > entry["count"]:
        return f"the box holds {entry['count']} {kind} markers and {used} are in play ({entry['what']})"
    return None


def need(state: State, kind: str, adding: int = 1) -> None:
    """Raise :class:`IllegalAction` when the box has no more markers of ``kind``."""
    why = shortage(state, kind, adding)
    if why:
        raise IllegalAction(why, str(inventory()[kind]["rule"]))
