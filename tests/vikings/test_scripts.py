"""Every script under tests/vikings/scripts runs and meets its expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.core.script import run_script

SCRIPTS = sorted(Path(__file__).with_name("scripts").glob("*.yaml"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script(path):
    result = run_script(path)
    assert result.ok, result.failures or result.stopped
