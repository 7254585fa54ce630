"""Rulebook-style scripts with forced dice, and the client presentation."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.core import Session
from simulator.core.script import run_script

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.yaml"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script(path: Path) -> None:
    result = run_script(path)
    assert result.ok, (result.failures, result.stopped)


def test_presentation_describes_board_and_pieces() -> None:
    s = Session.new("dragon_rage/esirien-1-fury", seed=1)
    p = s.game.presentation()
    st = s.state_data()
    assert p.banner(st).startswith("Turn 1 - Invader: Invader spells")
    surface = p.surface(st)
    assert surface.hex_marks["1910"] == "5" and "wall" in surface.feature_styles
    pieces = {x.id: x for x in p.pieces(st)}
    assert pieces["inf1"].label == "INF" and pieces["inf1"].values == ("2", "2(3)", "e5") and pieces["dragon1"].facing in range(6)
    assert p.tools().snap == "hex" and p.tools().rotate_step == 60
    los = p.line_of_sight(st, "1208", "1608")
    assert not los.clear and los.rule == "DR 2.7.6.2" and los.blockers
    assert p.measure(st, "0606", "0707").value == 1
    s.apply({"type": "end_phase"})
    st = s.state_data()
    rng = p.move_range(st, "dragon1")
    assert rng is not None and rng.hexes and max(rng.hexes.values()) <= 4
    assert p.drag_action(st, "dragon1", "0902") == {"type": "walk", "unit": "dragon1", "path": ["0902"]}
    assert p.rotate_action(st, "dragon1", 2) == {"type": "rotate", "unit": "dragon1", "facing": 2}


def test_bad_scenario_gives_a_located_error(tmp_path: Path) -> None:
    from simulator.core import DataError
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: dragon_rage\nname: bad\ndescription: x\nmap: dragon_rage/esirien\n"
                   "setup:\n  objective: 5\n  forces:\n    invader:\n      - {type: dragonn, at: ['0101']}\n")
    with pytest.raises(DataError) as err:
        Session.new(str(bad))
    assert "unknown unit type 'dragonn'" in str(err.value) and ":9:" in str(err.value)
