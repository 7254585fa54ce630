"""Every rules demonstration (demos/<game>/*.yaml) and every rulebook-example script
(tests/<game>/scripts/*.yaml) runs headless with its forced dice and meets its expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.core.data import load_yaml
from simulator.core.registry import game_ids
from simulator.core.script import run_script

ROOT = Path(__file__).resolve().parents[1]
GAMES = [g for g in game_ids() if (ROOT / "scenarios" / g).is_dir()]
DEMOS = sorted((ROOT / "demos").glob("*/*.yaml"))
SCRIPTS = sorted((ROOT / "tests").glob("*/scripts/*.yaml"))


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_at_least_five_demos(game: str) -> None:
    assert len(list((ROOT / "demos" / game).glob("*.yaml"))) >= 5


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_demo_explains_every_step_and_runs(path: Path) -> None:
    data = load_yaml(path).data
    assert data.get("title") and data.get("description") and data.get("expect")
    assert all(a.get("note") for a in data["actions"]), "every step explains itself with a note"
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parents[1].name}/{p.stem}")
def test_rulebook_example_script_runs(path: Path) -> None:
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)
