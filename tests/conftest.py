import os
import sys
from pathlib import Path

import pytest

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
