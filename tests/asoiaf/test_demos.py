"""Every ASOIAF demonstration (demos/asoiaf/*.yaml) runs headless with its forced dice and meets
its expectations; each step explains itself with a note."""

from pathlib import Path

import pytest
import yaml

from simulator.core.script import run_script

ROOT = Path(__file__).resolve().parents[2]
DEMOS = sorted((ROOT / "demos" / "asoiaf").glob("*.yaml"))


def test_there_are_enough_demos() -> None:
    assert len(DEMOS) >= 5


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.name)
def test_demo_runs_ok(path: Path) -> None:
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)
    doc = yaml.safe_load(path.read_text())
    assert doc.get("title") and doc.get("description") and doc.get("expect")
    assert all(a.get("note") for a in doc["actions"]), "every action explains itself with a note"
