"""Every demonstration script (demos/saga/*.yaml) and rulebook-example script
(tests/saga/scripts/*.yaml) runs headless with its forced dice and meets its expectations."""

from pathlib import Path

import pytest

from simulator.core.script import run_script

ROOT = Path(__file__).resolve().parents[2]
DEMOS = sorted((ROOT / "demos" / "saga").glob("*.yaml"))
SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.yaml"))


def test_there_are_enough_demos_and_scripts() -> None:
    assert len(DEMOS) >= 5 and len(SCRIPTS) >= 2


@pytest.mark.parametrize("path", DEMOS + SCRIPTS, ids=lambda p: p.name)
def test_script_runs_ok(path: Path) -> None:
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)
    assert all(a.get("note") for a in __import__("yaml").safe_load(path.read_text())["actions"]), \
        "every action explains itself with a note"
