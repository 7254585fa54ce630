"""The path preview of a drag (``Presentation.drag_path``): the dragged figure's waypoints of
the bending move the drag proposes (SAGA p.12-13), in the client's coordinates (y down)."""

from __future__ import annotations

import pytest

from tests.saga.test_bending import _behind_the_pond


def test_drag_path_follows_the_bending_move_and_is_none_when_straight() -> None:
    s = _behind_the_pond()
    view = s.game.presentation()
    fid = s.state["units"]["lord"]["figures"][0]
    height = s.state["table"]["height"]
    drop = (25.0, height - 9.4)
    path = view.drag_path(s.state, fid, drop)
    action = view.drag_action(s.state, fid, drop)
    assert path is not None and len(path) == 1 + len(action["path"][fid])
    assert path[0] == pytest.approx((24.0, height - 5.0))                  # from where the figure stands
    assert path[-1] == pytest.approx(drop, abs=1e-3)                        # to the drop point
    for (x, y), (px, py) in zip(path[1:], action["path"][fid]):
        assert (x, y) == pytest.approx((px, height - py))                   # the action's table points, flipped
    assert all(not 22.5 < x < 25.5 or not height - 8 < y < height - 7 for x, y in path)   # not over the pond
    assert view.drag_path(s.state, fid, (20.0, height - 5.0)) is None      # straight: nothing to show
    assert view.drag_path(s.state, "nobody", drop) is None
