"""Every demonstration under demos/dragon_rage runs headless and meets its expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.core.data import load_yaml
from simulator.core.script import run_script

DEMOS = sorted((Path(__file__).resolve().parents[2] / "demos" / "dragon_rage").glob("*.yaml"))


def test_there_are_at_least_five_demos() -> None:
    assert len(DEMOS) >= 5


@pytest.mark.parametrize("path", DEMOS, ids=[p.stem for p in DEMOS])
def test_demo(path: Path) -> None:
    data = load_yaml(path).data
    assert data.get("title") and data.get("description") and data.get("expect")
    assert all(a.get("note") for a in data["actions"]), "every step explains itself"
    result = run_script(path)
    assert result.ok, result.failures or result.stopped
