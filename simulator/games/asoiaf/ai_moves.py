"""Extra move candidates for the normal computer player: the Attacker's way to the castle walls.

The rules' menu of moves (``options.move_samples``) aims each Maneuver at the nearest enemy or
free Objective, and each March straight on with the facing kept. In A Storm of Swords (§16.3) the
Attacker's targets are the castle walls, which are seldom the nearest enemy (the Defender's units
stand in front of them), and a March that keeps its facing never turns towards a wall for the next
one. These candidates add, for each of the Attacker's units free to move, Maneuvers pivoting
towards the spot in front of the two nearest standing walls (and 20 degrees either side, to go
round terrain and enemy trays) and Marches that end facing that spot. Each is checked with the
same geometry test the rules' own candidates use (``moves.plan_straight``), so every one is legal.
The computer's normal level asks for them through ``AIProfile.extra_actions`` (``ai_profile.py``).
"""

from __future__ import annotations

import math
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.games.asoiaf import modes, moves, space
from simulator.games.asoiaf.evaluation import attacker, standing_walls
from simulator.games.asoiaf.options import bearing
from simulator.games.asoiaf.units import Unit, speed

State = dict[str, Any]
Action = dict[str, Any]

#: How many of the nearest standing walls a unit gets candidates towards.
WALLS = 2
#: Pivots either side of the straight line to a wall (degrees), to go round what stands in the way.
SIDESTEP = 20.0
#: Gap left between the unit's tray and the wall's at the spot in front of a wall (inches).
GAP = 0.25


def front_spot(wall: Unit, u: Unit) -> tuple[float, float]:
    """Where ``u``'s centre stands squarely in front of ``wall`` (the wall's front faces the Attacker)."""
    f = space.forward(wall["facing"])
    reach = (wall["depth"] + u["depth"]) / 2 + GAP
    return float(wall["x"] + f[0] * reach), float(wall["y"] + f[1] * reach)


def _legal(state: State, u: Unit, pivot: float, distance: float, allowance: float, final: float, kind: str) -> bool:
    try:
        moves.plan_straight(state, u, pivot, space.forward(pivot), distance, allowance, final, kind,
                            "6.2" if kind == "maneuver" else "6.3")
    except IllegalAction:
        return False
    return True


def towards_walls(state: State, u: Unit, walls: list[Unit]) -> list[Action]:
    """Maneuvers and Marches of ``u`` towards the spots in front of ``walls``."""
    spd = speed(u, modes.mode(state).get("carrier_speed"))
    out: list[Action] = []
    for wall in walls:
        tx, ty = front_spot(wall, u)
        gap = math.hypot(tx - u["x"], ty - u["y"])
        if gap < 0.5:
            continue
        straight = bearing(u, tx, ty)
        for pivot in (straight, (straight + SIDESTEP) % 360, (straight - SIDESTEP) % 360):
            for d in dict.fromkeys((round(min(spd, gap), 2), round(spd / 2, 2))):
                f = space.forward(pivot)
                ex, ey = u["x"] + f[0] * d, u["y"] + f[1] * d
                if math.hypot(tx - ex, ty - ey) > 0.5:
                    final = bearing({"x": ex, "y": ey}, tx, ty)
                else:                                   # arrived: face the wall
                    final = round((wall["facing"] + 180) % 360, 1)
                if _legal(state, u, pivot, d, spd, final, "maneuver"):
                    out.append({"type": "maneuver", "unit": u["id"], "pivot": pivot, "distance": d, "facing": final})
                    break
        f = space.forward(u["facing"])
        for d in (2 * spd, spd, spd / 2):
            ex, ey = u["x"] + f[0] * d, u["y"] + f[1] * d
            final = bearing({"x": ex, "y": ey}, tx, ty)
            if _legal(state, u, u["facing"], d, 2 * spd, final, "march"):
                out.append({"type": "march", "unit": u["id"], "distance": d, "facing": final})
                break
    return out


def extra_actions(state: State, side: str) -> list[Action]:
    """Moves towards the castle walls for the Attacker of A Storm of Swords when it is to activate a
    unit (none otherwise: in other modes, for the Defender, or while a choice is pending)."""
    if state.get("result") or state.get("pending") or state.get("phase") == "deployment" \
            or state.get("active") != side or not attacker(state, side):
        return []
    walls = standing_walls(state)
    out: list[Action] = []
    for uid in state["order"]:
        u = state["units"][uid]
        if u["side"] != side or u["activated"] or u["destroyed"] or u.get("reserve") or u.get("structure") \
                or u.get("x") is None or space.engaged_with(state, u):
            continue
        near = sorted(walls, key=lambda w: math.hypot(w["x"] - u["x"], w["y"] - u["y"]))[:WALLS]
        out += towards_walls(state, u, near)
    return out
