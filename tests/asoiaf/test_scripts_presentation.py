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
    drag = pres.drag_action(state, "S1", (16, 40))
    assert drag["type"] == "maneuver" and s.check(drag) is None
