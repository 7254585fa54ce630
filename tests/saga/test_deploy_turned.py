"""Deploying a unit turned (SAGA p.48: the players place their units; the formation is theirs to
choose): ``deploy facing`` turns the unit's formation about its centre, checked as any
deployment; the client's turn gesture on a waiting unit records its facing (``turn_waiting``),
which its drag then deploys it with."""

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
    with pytest.raises(IllegalAction, match="facing.*angle in degrees"):           # the parameter check
        s.apply({"type": "deploy", "unit": "v-lev1", "at": [40.0, 5.0], "facing": "left"})
    s.apply({"type": "deploy", "unit": "v-lev1", "at": [40.0, 5.5], "facing": 90})
    placed = figures_of(s, "v-lev1")
    assert _spread(placed) == pytest.approx((deep, wide), abs=1e-3)
    centre = np.mean(list(placed.values()), axis=0)
    assert centre == pytest.approx([40.0, 5.5], abs=1e-3)
    # a quarter turn counter-clockwise: the first figure (left of the front rank) is now at the right
    dx, dy = sample["offsets"][0]
    assert placed[sample["figures"][0]] == pytest.approx((40.0 - dy, 5.5 + dx), abs=1e-3)


def test_turning_a_waiting_unit_records_its_facing_and_drag_keeps_it(chosen) -> None:  # type: ignore[no-untyped-def]
    _data, s = chosen
    _to_levies(s)
    waiting = {p.id: p for p in VIEW.pieces(s.state) if p.status}
    assert waiting["v-lev1.5"].has_facing                 # a waiting unit can be turned
    # the client turns it 90 degrees clockwise (its facing runs clockwise from up, y down)
    action = VIEW.rotate_action(s.state, "v-lev1.5", 90.0)
    assert action == {"type": "turn_waiting", "unit": "v-lev1", "facing": 270.0}   # clockwise on the table too
    events = s.apply(action)
    assert any(e.kind == "turn" and "v-lev1.5" in e.data["pieces"] for e in events)
    assert not s.state["units"]["v-lev1"]["deployed"]     # nothing is placed yet
    sample = s.state["set_up"]["samples"]["v-lev1"]
    wide, deep = _spread({f: (dx, dy) for f, (dx, dy) in zip(sample["figures"], sample["offsets"])})
    # the unit is drawn turned while it waits, with the facing the client turns it from
    shown = {p.id: p for p in VIEW.pieces(s.state) if p.stats.get("unit") == "v-lev1"}
    assert all(p.facing == 90.0 for p in shown.values())
    assert _spread({k: p.at for k, p in shown.items()}) == pytest.approx((deep, wide), abs=1e-3)
    # dragging it afterwards proposes the deployment so turned, the dragged figure at the drop point
    drop = (shown["v-lev1.5"].at[0] + 6.0, shown["v-lev1.5"].at[1])
    drag = VIEW.drag_action(s.state, "v-lev1.5", drop)
    assert drag is not None and drag["type"] == "deploy" and drag["facing"] == 270.0
    assert s.check(drag) is None
    s.apply(drag)
    placed = figures_of(s, "v-lev1")
    assert _spread(placed) == pytest.approx((deep, wide), abs=1e-3)
    assert placed["v-lev1.5"] == pytest.approx((drop[0], s.state["table"]["height"] - drop[1]), abs=1e-3)
    labels = [label for label, a in VIEW.piece_actions(s.state, [{**drag, "unit": "v-war1"}], "v-war1.1")]
    assert any("turned 270 degrees" in label for label in labels)
    # nothing to turn on the table: round bases have no facing
    assert VIEW.rotate_action(s.state, "v-lev1.5", 45.0) is None


def test_turn_waiting_is_refused_outside_the_units_step(chosen) -> None:  # type: ignore[no-untyped-def]
    _data, s = chosen
    _to_levies(s)
    with pytest.raises(IllegalAction, match="waiting to deploy in this step"):
        s.apply({"type": "turn_waiting", "unit": "v-war1", "facing": 90})      # Warriors come later (SAGA p.51)
    with pytest.raises(IllegalAction, match="facing.*angle in degrees"):
        s.apply({"type": "turn_waiting", "unit": "v-lev1", "facing": "left"})
    with pytest.raises(IllegalAction, match="only the terrain piece"):
        s.apply({"type": "turn_waiting", "piece": "wood-1", "facing": 90})
    # a typed deploy without facing keeps the recorded one; the legal list offers it turned
    s.apply({"type": "turn_waiting", "unit": "v-lev1", "facing": 90})
    legal = [a for a in s.legal_actions() if a.get("unit") == "v-lev1"]
    assert legal and all(a["facing"] == 90.0 for a in legal)
    s.apply({"type": "deploy", "unit": "v-lev1", "at": [40.0, 5.5]})
    sample = s.state["set_up"]["samples"]["v-lev1"]
    dx, dy = sample["offsets"][0]
    assert figures_of(s, "v-lev1")[sample["figures"][0]] == pytest.approx((40.0 - dy, 5.5 + dx), abs=1e-3)
