"""Pure numpy geometry for the simulator: hex grids, hex movement and LOS, ship footprints,
free-form tables in inches.  No pygame, no imports from ``simulator.core`` or games.

Modules: :mod:`.hexgrid`, :mod:`.hexmove`, :mod:`.hexlos`, :mod:`.footprint`, :mod:`.table`,
:mod:`.segments` (vectorised segment primitives shared by LOS code), :mod:`.visibility` (exact
visibility from a segment to a polygon among convex blockers), :mod:`.paths` (shortest paths of a
translating piece among convex obstacles).
"""

from .hexgrid import HexGrid, HexLine, Hexside, LineStep

__all__ = ["HexGrid", "HexLine", "Hexside", "LineStep"]
