import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# CI (the CI environment variable set): derandomized, so every CI run tries the same examples
# and a failure reproduces; no deadline on shared runners; print the reproduction blob.
# Locally the default profile (random seeds, example database) stays in force.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture
def race():
    """The toy race game, registered with the core, and a scenario of it."""
    from simulator.core.registry import register
    from simulator.core.scenario import scenario_from_data
    from tests.core.toygame import GAME

    register(GAME)
    return scenario_from_data({"game": "race", "name": "Race", "description": "A toy race.",
                               "setup": {"goal": 200}}, "race/test")
