"""Line of sight for missiles (DR 2.7.6.2), computed with the geometry package's
:class:`~simulator.geometry.hexlos.HexObstacleMap`: a centre-to-centre line that touches any
wall hexside or any tower hexagon (other than the firer's and target's own) is blocked.
A firer in a tower sees every hex; a target in a tower or in flight is always seen; a wall
entrance may be shot through only at the hex directly beyond it; Nurkott archers and goblins
shoot through the wooden walls of their own hex; a wall breached by a sea serpent (Nurkott,
DR 2.11.2.2) is a gap in the wall and no longer blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from simulator.games.dragon_rage.board import Board, board_for, side_key
from simulator.geometry.hexgrid import Hexside
from simulator.geometry.hexlos import HexObstacleMap

RULE = "DR 2.7.6.2"


@dataclass(frozen=True)
class Sight:
    clear: bool
    reason: str
    blocker: str | None = None      # "0606/0707" (a wall hexside) or a tower label


@lru_cache(maxsize=8)
def obstacles(map_ref: str) -> tuple[HexObstacleMap, tuple[str, ...]]:
    board = board_for(map_ref)
    keys = tuple(sorted(board.walls))
    walls = [Hexside.parse(k, board.grid) for k in keys]
    return HexObstacleMap(board.grid, walls=walls, towers=sorted(board.towers)), keys


def sight(map_ref: str, a: str, b: str, *, target_up: bool = False, through_own_walls: bool = False,
          breaches: tuple[str, ...] = ()) -> Sight:
    """Can a firer in ``a`` see ``b``? ``target_up``: the target is in a tower or flying;
    ``breaches``: wall hexsides (``"1210/1211"``) broken open, which no longer block (DR 2.11.2.2)."""
    board = board_for(map_ref)
    if a == b:
        return Sight(True, "same hex")
    if a in board.towers:
        return Sight(True, "a firer in a tower sees every hex", None)
    if target_up or b in board.towers:
        return Sight(True, "a target in a tower or in flight is always in sight", None)
    omap, keys = obstacles(map_ref)
    ignore: list[int] = []
    if board.direction(a, b) is not None:
        key = side_key(a, b)
        if key in board.entrances and key in keys:
            ignore.append(keys.index(key))
    ignore += [keys.index(key) for key in breaches if key in keys]
    if through_own_walls:
        for d, n in board.all_hexsides(a):
            key = side_key(a, n)
            if key in keys:
                ignore.append(keys.index(key))
    visible, blocker = omap.los(a, b, ignore=ignore or None)
    if visible:
        return Sight(True, "clear line between the hex centres")
    what = f"wall {blocker}" if blocker and "/" in blocker else f"tower {blocker}"
    return Sight(False, f"the line from {a} to {b} touches the {what}", blocker)


def board_of(map_ref: str) -> Board:
    return board_for(map_ref)
