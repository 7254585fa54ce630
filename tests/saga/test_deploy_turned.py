"""Deploying a unit turned (SAGA p.48: the players place their units; the formation is theirs to
choose): ``deploy facing`` turns the unit's formation about its centre, checked as any
deployment; the client's turn gesture on a waiting unit proposes it."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.core import IllegalAction, Session
from tests.saga.test_deploy_players import VIEW, chosen, figures_of, to_deployment  # noqa: F401 (fixture)


def _to_levies(s: Session) -> None:
    """On to the Vikings' Levies step (the Warlords placed first, SAGA p.51)."""
    to_deployment(s)
    s.apply({"type": "deploy", "unit": "v-warlord", "at": [10.0, 5.0]})
    s.apply({"type": "deploy_suggested"})             # the Anglo-Danes' Warlord
    assert s.state["set_up"]["steps"][0]["classes"] == ["levies"]


def _spread(points: dict[str, tuple[float, float]]) -> tuple[float, float]:
    a = np.array(list(points.values()))
    return float(np.ptp(a[:, 0])), float(np.ptp(a[:, 1]))


def test_deploy_facing_turns_the_formation_about_its_centre(chosen) -> None:  # type: ignore[no-untyped-def]
    _data, s = chosen
    _to_levies(s)
    sample = s.state["set_up"]["samples"]["v-lev1"]
    wide, deep = _spread({f: (dx, dy) for f, (dx, dy) in zip(sample["figures"], sample["offsets"])})
    assert wide > deep                                 # twelve Levies in ranks of four
    # turned a quarter, the formation is deeper than the zone near the table edge allows
    with pytest.raises(IllegalAction, match="on the table"):
        s.apply({"type": "deploy", "unit": "v-lev1", "at": [40.0, 2.0], "facing": 90})
    with pytest.raises(IllegalAction, match="facing is the formation's turn"):
        s.apply({"type": "deploy", "unit": "v-lev1", "at": [40.0, 5.0], "facing": "left"})
    s.apply({"type": "deploy", "unit": "v-lev1", "at": [40.0, 5.5], "facing": 90})
    placed = figures_of(s, "v-lev1")
    assert _spread(placed) == pytest.approx((deep, wide), abs=1e-3)
    centre = np.mean(list(placed.values()), axis=0)
    assert centre == pytest.approx([40.0, 5.5], abs=1e-3)
    # a quarter turn counter-clockwise: the first figure (left of the front rank) is now at the right
    dx, dy = sample["offsets"][0]
    assert placed[sample["figures"][0]] == pytest.approx((40.0 - dy, 5.5 + dx), abs=1e-3)


def test_turning_a_waiting_unit_proposes_its_turned_deployment(chosen) -> None:  # type: ignore[no-untyped-def]
    _data, s = chosen
    _to_levies(s)
    waiting = {p.id: p for p in VIEW.pieces(s.state) if p.status}
    assert waiting["v-lev1.5"].has_facing                 # a waiting unit can be turned
    # the client turns it 90 degrees clockwise (its facing runs clockwise from up, y down)
    action = VIEW.rotate_action(s.state, "v-lev1.5", 90.0)
    assert action is not None and action["type"] == "deploy" and action["unit"] == "v-lev1"
    assert action["facing"] == 270.0                     # clockwise on the screen = clockwise on the table
    assert s.check(action) is None
    s.apply(action)
    sample = s.state["set_up"]["samples"]["v-lev1"]
    wide, deep = _spread({f: (dx, dy) for f, (dx, dy) in zip(sample["figures"], sample["offsets"])})
    assert _spread(figures_of(s, "v-lev1")) == pytest.approx((deep, wide), abs=1e-3)
    labels = [label for label, a in VIEW.piece_actions(s.state, [{**action, "unit": "v-war1"}], "v-war1.1")]
    assert any("turned 270 degrees" in label for label in labels)
    # nothing to turn on the table: round bases have no facing
    assert VIEW.rotate_action(s.state, "v-lev1.5", 45.0) is None
