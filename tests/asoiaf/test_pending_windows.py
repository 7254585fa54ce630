"""Every choice window the engine opens can be answered.

A computer-player game once raised ``KeyError: 'reroll'`` in ``Asoiaf._answer``: the table of
expected answers did not list the ``reroll`` window that the Attack sequence opens. The windows
are opened in several modules (``_ask(state, player, "<window>", ...)``, ``{"window": "<window>"}``,
``window="<window>"``); this test collects them from the source and requires an answer for each,
and answers a live ``reroll`` window with every offered action.
"""

from __future__ import annotations

import re
from pathlib import Path

from simulator.games.asoiaf import GAME
from tests.asoiaf.helpers import session
from tests.asoiaf.test_choices import charge_pair

PACKAGE = Path(GAME.__class__.__module__.replace(".", "/")).parent
OPENERS = (re.compile(r'_ask\(\s*state\s*,[^,]+,\s*"(\w+)"'), re.compile(r'"window"\s*:\s*"(\w+)"'),
           re.compile(r'\bwindow\s*=\s*"(\w+)"'))


def opened_windows() -> set[str]:
    root = Path(__file__).resolve().parents[2] / PACKAGE
    found: set[str] = set()
    for path in root.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in OPENERS:
            found.update(pattern.findall(text))
    return found


def test_every_window_the_engine_opens_has_an_expected_answer() -> None:
    windows = opened_windows()
    assert {"reroll", "panic_reroll", "order", "attacked", "discard", "push"} <= windows   # the scan works
    missing = sorted(w for w in windows if w not in GAME.EXPECTED)
    assert not missing, f"pending windows without an answer in Asoiaf.EXPECTED: {missing}"
    for w in windows:
        for answer in GAME.EXPECTED[w]:
            assert answer in GAME.action_types(), f"{w} expects {answer!r}, which is no action type"


def test_a_live_reroll_window_accepts_every_offered_answer() -> None:
    # charge roll 3; seven Attack dice 4 4 4 4 4 1 2: the charge bonus opens a reroll window
    for pick in range(2):
        s = session(charge_pair(), tape=[3, 4, 4, 4, 4, 4, 1, 2] + [3] * 8)
        s.apply({"type": "charge", "unit": "S1", "target": "L2", "facing": 90})
        s.apply({"type": "respond", "card": None})
        assert s.state["pending"][0]["window"] == "reroll"
        offered = s.legal_actions()
        assert len(offered) == 2 and all(s.check(a) is None for a in offered)
        s.apply(offered[pick])
        assert s.legal_actions() and all(s.check(a) is None for a in s.legal_actions())
