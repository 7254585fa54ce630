"""Automatic placement of a warband in its deployment zone (used when players choose their
warbands on the force-selection screen, ``forces.py``).

The rulebook has the players deploy unit by unit (SAGA p.48); a warband chosen on the screen
has no positions yet, so the engine lays it out: each unit in ranks of up to four (the set-up's
:func:`setup.layout`), placed in list order (Warlord first) at the grid point nearest the
middle of the side's zone where every figure centre is inside one of its zones, every base on
the table, clear of impassable terrain and at least ``UNIT_GAP`` from every figure already
placed. Positions that keep every base out of all terrain are preferred; terrain that is not
impassable is used only when nothing else fits. The positions are a legal deployment that the
players may edit in the built scenario (``setup.sides.*.units.*.at``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.games.saga.setup import diameter_of, layout
from simulator.geometry.segments import point_segment_distance, points_in_polygon
from simulator.geometry.table import circle_gaps, circles_inside_rect, point_polygon_distance

UNIT_GAP = 1.0        # inches kept between bases of different units
GRID_STEP = 0.5       # inches between candidate unit centres


class DeploymentError(ValueError):
    """A unit does not fit in its zone."""


def _candidates(zones: list[list[list[float]]]) -> np.ndarray:
    """Candidate unit centres inside the zones, nearest the zones' middle first."""
    pts = np.concatenate([np.asarray(z, dtype=float) for z in zones])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    xs = np.arange(lo[0], hi[0] + 1e-9, GRID_STEP)
    ys = np.arange(lo[1], hi[1] + 1e-9, GRID_STEP)
    grid = np.array([(x, y) for y in ys for x in xs])
    inside = np.zeros(len(grid), dtype=bool)
    for z in zones:
        inside |= points_in_polygon(grid, z, eps=0.0)
    grid = grid[inside]
    middle = pts.mean(axis=0)
    order = np.lexsort((grid[:, 0], np.hypot(*(grid - middle).T)))
    return grid[order]


def _clear_of(circles: np.ndarray, terrain: list[dict[str, Any]], impassable_only: bool) -> bool:
    """No base overlaps a terrain piece (only impassable ones if ``impassable_only``)."""
    for t in terrain:
        if impassable_only and t["movement"] != "impassable":
            continue
        if "polygon" in t:
            if any(point_polygon_distance((x, y), t["polygon"]) < r for x, y, r in circles):
                return False
        else:
            line = np.asarray(t["line"], dtype=float)
            if any(float(point_segment_distance([x, y], line[:-1], line[1:]).min()) < r for x, y, r in circles):
                return False
    return True


def place_units(units: list[dict[str, Any]], zones: list[list[list[float]]], width: float, height: float,
                terrain: list[dict[str, Any]], occupied: list[tuple[float, float, float]]) -> list[list[float]]:
    """The ``at`` of each unit entry (``setup.sides.*.units`` items without ``at``), in order.

    ``zones`` are the side's deployment polygons, ``terrain`` the scenario's pieces
    (``setup.terrain`` entries with their type's ``movement``), ``occupied`` the circles
    (x, y, r) already on the table. Raises :class:`DeploymentError` naming the unit that
    does not fit."""
    if not zones:
        raise DeploymentError("the scenario gives this side no deployment zone to place its units in")
    cands = _candidates(zones)
    placed = [list(c) for c in occupied]
    out: list[list[float]] = []
    for u in units:
        count = 1 if u["class"] == "baggage" else int(u.get("figures", 1))
        diameter = diameter_of(u)
        columns = int(u.get("columns", min(count, 4)))
        where = None
        for impassable_only in (False, True):
            for cx, cy in cands:
                centres = np.array(layout((float(cx), float(cy)), count, columns, diameter))
                circles = np.column_stack([centres, np.full(count, diameter / 2)])
                if not circles_inside_rect(circles, width, height).all():
                    continue
                ok = np.zeros(count, dtype=bool)
                for z in zones:
                    ok |= points_in_polygon(centres, z, eps=0.0)
                if not ok.all():
                    continue
                if placed and float(circle_gaps(circles, np.array(placed)).min()) < UNIT_GAP:
                    continue
                if not _clear_of(circles, terrain, impassable_only):
                    continue
                where = [round(float(cx), 3), round(float(cy), 3)]
                placed.extend(circles.tolist())
                break
            if where is not None:
                break
        if where is None:
            raise DeploymentError(f"no room for {u['id']} ({count} {u['class']}) in the deployment zone")
        out.append(where)
    return out
