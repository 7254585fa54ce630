"""Rulebook-example scripts and the client presentation."""

from pathlib import Path

import pytest

from simulator.core.script import run_script
from simulator.core.session import Session
from simulator.games.asoiaf import GAME

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.yaml"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script(path):
    result = run_script(path)
    assert result.ok, (result.failures, result.stopped)


def test_presentation_draws_table_trays_and_tools():
    s = Session.new("asoiaf/game-of-thrones", seed=3)
    pres = GAME.presentation()
    state = s.state_data()
    surface = pres.surface(state)
    assert (surface.width, surface.height) == (48, 48) and len(surface.terrain) == 4
    pieces = pres.pieces(state)
    trays = {p.id: p for p in pieces}
    assert trays["S1"].shape == "tray" and (trays["S1"].ranks, trays["S1"].files) == (3, 4)
    assert trays["S4"].files == 2 and trays["S4"].depth > trays["S4"].width          # cavalry
    abilities = trays["L4"].stats["abilities"]
    assert {"name": "Horrific Visage", "automated": True} .items() <= abilities[1].items()
    assert any(not a["automated"] for a in trays["S1"].stats["abilities"])
    assert pres.tools().snap == "free" and pres.tools().rotate_step == 15
    assert "round 1" in pres.banner(state)
    m = pres.measure(state, "S1", "L2")
    assert m.unit == "in" and m.value == pytest.approx(40 - 4.72, abs=0.01)
    los = pres.line_of_sight(state, "S3", "L3")
    assert los is not None
    drag = pres.drag_action(state, "S1", (16, 40))        # client point, y down: 4" north of S1
    assert drag["type"] == "maneuver" and s.check(drag) is None


def test_presentation_converts_table_coordinates_for_the_client():
    """The game keeps y up and facings counter-clockwise from east; the client gets y down from the
    top edge and facings clockwise from up (the only conversion, in presentation.py)."""
    s = Session.new("asoiaf/game-of-thrones", seed=3)
    pres = GAME.presentation()
    state = s.state_data()
    s1, l1 = state["units"]["S1"], state["units"]["L1"]
    assert (s1["x"], s1["y"], s1["facing"]) == (16, 4, 90)          # south edge, facing north
    trays = {p.id: p for p in pres.pieces(state)}
    assert trays["S1"].at == (16, 44) and trays["S1"].facing == 0    # bottom of the screen, facing up
    assert trays["L1"].at == (32, 4) and trays["L1"].facing == 180
    assert l1["facing"] == 270
    turn = pres.rotate_action(state, "S1", 90)                      # the client turns it to face east
    assert turn["facing"] == 0 and s.check(turn) is None
    rng = pres.move_range(state, "S1")
    assert rng.centre == (16, 44)
    zones = dict((name, poly) for name, poly, _ in pres.surface(state).zones)
    assert max(y for _, y in zones["stark deployment"]) == 48       # Stark's strip is at the bottom
