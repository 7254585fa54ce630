"""Buildings in movement and melee (SAGA p.27, digest 9.3-9.4).

* Engaging a building: the occupants are attacked through the walls. A unit engages an
  enemy-occupied building when one of its figures ends in contact with the building's outline
  (gap <= CONTACT); its figures within VS of the building fight. Figures never overlap the
  walls of an enemy-occupied building.
* The VS rule: no figure moves within VS of an enemy-occupied building unless its unit engages
  that building (engine reading: friendly units may share a building, so a friendly-occupied
  one does not repel; a figure already within VS may stay or move away).
* The defender: when several units of its owner hold the engaged building, he picks the one
  that defends it (``defend_building``, before melee step 1; :func:`defender_options`).
* A unit that entered a building this turn cannot leave it the same turn; no figure's path
  passes through a building (it would enter and leave it in one move).
* Moves out are measured from the outside of the walls (the figures' places inside do not
  matter): :func:`exit_length`.
* Shooting at or from a building: range and line of sight to or from any part of it
  (``shooting.py``: ``lines_to_building``, ``lines_between_buildings``).

Positions are table inches, y up (``simulator/geometry/table.py``).
"""

from __future__ import annotations

import math
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.games.saga import catalogue as cat
from simulator.games.saga.units import CONTACT, EPS
from simulator.geometry.table import point_polygon_distance, segment_polygon_distance, segment_through_polygon

State = dict[str, Any]
Point = tuple[float, float]


def pieces(state: State) -> dict[str, dict[str, Any]]:
    """The buildings on the table (terrain pieces with a capacity)."""
    return {t["id"]: t for t in state["terrain"] if t.get("capacity")}


def occupants(state: State, building: str) -> list[str]:
    """The units (with figures left) inside ``building``."""
    return [u["id"] for u in state["units"].values() if u["figures"] and u.get("building") == building]


def occupancy_problem(state: State, unit: dict[str, Any], building: dict[str, Any],
                      figures: int) -> tuple[str, str] | None:
    """Why ``unit`` (with ``figures`` figures) may not occupy ``building`` (reason, rule), or
    None: never mounted or baggage, never beside the enemy, and only with room for every figure
    (SAGA p.27, p.38, p.56). A move and a deployment into a building both ask."""
    if unit["mounted"] or unit.get("baggage"):
        return "mounted units and baggage cannot occupy buildings", "SAGA p.38, p.56"
    others = [o for o in occupants(state, building["id"]) if o != unit["id"]]
    if any(state["units"][o]["owner"] != unit["owner"] for o in others):
        return f"{building['name']} is occupied by the enemy", "SAGA p.27"
    room = building["capacity"] - sum(len(state["units"][o]["figures"]) for o in others)
    if figures > room:
        return f"{building['name']} has room for {room} more figures", "SAGA p.27"
    return None


def defender_options(state: State, defender: str) -> list[str]:
    """SAGA p.27: the units of the defender's owner holding the building ``defender`` stands in,
    the engine's pick first (the most figures); empty when there is no choice to make."""
    unit = state["units"][defender]
    bid = unit.get("building")
    if not bid or not state["rules"].get("player_choices", True):
        return []
    held = [u for u in occupants(state, bid) if state["units"][u]["owner"] == unit["owner"]]
    if len(held) < 2:
        return []
    return sorted(held, key=lambda u: (len(state["units"][u]["figures"]), u), reverse=True)


def engaged_label(state: State, engaged: str, building: str | None) -> tuple[str, str | None]:
    """How an engaging move's event names what it engages, and the unit it names: the unit
    itself; or, when its owner is about to pick which of his units holding ``building`` defends it
    (:func:`defender_options`), the building and its holders, naming no defender yet (the
    ``defend_building`` answer names the chosen one)."""
    held = defender_options(state, engaged) if building else []
    if not held:
        return state["units"][engaged]["name"], engaged
    names = " and ".join(state["units"][u]["name"] for u in held)
    return f"{pieces(state)[str(building)]['name']} (held by {names}; their owner picks the defender)", None


def enemy_occupied(state: State, owner: str) -> dict[str, list[str]]:
    """Buildings holding units of another player than ``owner``: building id -> those units."""
    out: dict[str, list[str]] = {}
    for bid in pieces(state):
        foes = [u for u in occupants(state, bid) if state["units"][u]["owner"] != owner]
        if foes:
            out[bid] = foes
    return out


def wall_gap(state: State, building: str, p: Point, r: float) -> float:
    """Edge gap between a round base at ``p`` and the building (negative: it overlaps)."""
    return point_polygon_distance(p, pieces(state)[building]["polygon"]) - r


def touched(state: State, owner: str, ends: dict[str, Point], radii: dict[str, float]) -> list[str]:
    """Enemy-occupied buildings that a figure of the moving unit touches at the end of its move."""
    out = []
    for bid in enemy_occupied(state, owner):
        if any(wall_gap(state, bid, ends[f], radii[f]) <= CONTACT for f in ends):
            out.append(bid)
    return out


def check_move(state: State, uid: str, starts: dict[str, Point], ends: dict[str, Point],
               legs: list[tuple[str, Point, Point]], engaged_building: str | None, ends_in: str | None) -> None:
    """The building rules of a move (SAGA p.27), ``legs`` being the (figure, from, to) straight
    legs of the figures' paths; raises IllegalAction naming the rule."""
    moved = list(dict.fromkeys(leg[0] for leg in legs))
    unit = state["units"][uid]
    figs = state["figures"]
    vs = cat.inches("VS")
    entered = unit.get("entered_building")
    if entered and moved and ends_in != entered:
        raise IllegalAction(f"{unit['name']} entered a building this turn and cannot leave it before the "
                            "turn ends", "SAGA p.27")
    for bid, piece in pieces(state).items():
        poly = piece["polygon"]
        for f, a, b in legs:
            inside_turn = b != ends[f] and point_polygon_distance(b, poly) == 0.0 and \
                point_polygon_distance(ends[f], poly) > 0.0
            if segment_through_polygon(a, b, poly) or inside_turn:
                raise IllegalAction(f"{f} would pass through {piece['name']} (no unit passes through a "
                                    "building in one move)", "SAGA p.27")
    for bid in enemy_occupied(state, unit["owner"]):
        if bid == engaged_building:
            for f in unit["figures"]:
                if wall_gap(state, bid, ends[f], figs[f]["r"]) < -CONTACT:
                    raise IllegalAction(f"{f} would stand inside the walls of {pieces(state)[bid]['name']}, "
                                        "held by the enemy", "SAGA p.27")
            continue
        poly = pieces(state)[bid]["polygon"]
        for f in moved:
            r = figs[f]["r"]
            start_gap = wall_gap(state, bid, starts[f], r)
            end_gap = wall_gap(state, bid, ends[f], r)
            path_gap = min(segment_polygon_distance(a, b, poly) for g, a, b in legs if g == f) - r
            closer = end_gap <= vs + EPS and end_gap < start_gap - EPS
            enters = start_gap > vs + EPS and path_gap <= vs + EPS
            if closer or enters:
                raise IllegalAction(f"{f} would move within VS of {pieces(state)[bid]['name']}, held by the "
                                    "enemy, without engaging it", "SAGA p.27")


def exit_length(state: State, building: str, path: list[Point], r: float) -> float:
    """SAGA p.27: the length of a figure's move out of ``building`` (``path``: its start inside,
    its waypoints, its end outside), measured from the outside of the walls. Engine reading: the
    figure starts as if placed outside, its base touching the walls, so what counts is the gap
    between the walls and the base at the first point of the path where the base is clear of
    them, plus the legs from there on (a straight move out: the end base's gap to the walls).
    0 when the base never clears the walls (it ends against them)."""
    poly = pieces(state)[building]["polygon"]
    for k in range(1, len(path)):
        gap = point_polygon_distance(path[k], poly) - r
        if gap >= 0.0:
            return gap + sum(math.dist(a, b) for a, b in zip(path[k:-1], path[k + 1:]))
    return 0.0


def near_figures(state: State, uid: str, building: str) -> list[str]:
    """The unit's figures within VS of the building: they fight its occupants (SAGA p.27)."""
    figs = state["figures"]
    return [f for f in state["units"][uid]["figures"]
            if wall_gap(state, building, (figs[f]["x"], figs[f]["y"]), figs[f]["r"]) <= cat.inches("VS") + EPS]


def plan_engage(state: State, uid: str, building: str, allow: float) -> dict[str, Point]:
    """The engine's engagement of a building: the whole unit slides straight toward the
    building's centre, as far as it may without a base overlapping the walls (at most
    ``allow``), so the nearest figure ends touching them and formation is kept."""
    figs = state["figures"]
    poly = pieces(state)[building]["polygon"]
    mine = state["units"][uid]["figures"]
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    ox = sum(figs[f]["x"] for f in mine) / len(mine)
    oy = sum(figs[f]["y"] for f in mine) / len(mine)
    d = math.dist((ox, oy), (cx, cy))
    if d < EPS:
        return {}
    ux, uy = (cx - ox) / d, (cy - oy) / d

    def clear(t: float) -> bool:
        return all(wall_gap(state, building, (figs[f]["x"] + ux * t, figs[f]["y"] + uy * t), figs[f]["r"]) >= 0.01
                   for f in mine)

    lo, hi = 0.0, min(allow, d)
    if clear(hi):
        lo = hi
    else:
        for _ in range(30):                                       # bisection on the wall gap
            mid = (lo + hi) / 2
            if clear(mid):
                lo = mid
            else:
                hi = mid
    return {f: (figs[f]["x"] + ux * lo, figs[f]["y"] + uy * lo) for f in mine}
