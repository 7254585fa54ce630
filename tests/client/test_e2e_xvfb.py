"""End to end: the real program in a window under Xvfb, a piece dragged with xdotool,
then the autosave checked. Skips (never fails) when Xvfb or xdotool are missing. The games'
own real-window runs are in test_e2e_games.py; both drive the window with window_driver."""

import pytest

from simulator.core.session import Session
from tests.client.games import scenario_path
from tests.client.window_driver import WindowDriver, tools_missing

SIZE = (1100, 720)


@pytest.mark.skipif(bool(tools_missing()), reason=tools_missing() or "-")
def test_drag_a_counter_in_the_real_window(tmp_path):
    save = tmp_path / "hex.yaml"
    Session.new(str(scenario_path("hex")), 0).save(save)
    d = WindowDriver(save, tmp_path / "home", SIZE, ":87")
    try:
        d.start()
        d.drag(d.hex_pos("1808"), d.hex_pos("1809"))
        d.settle()
        assert d.played().state["pieces"]["r1"]["at"] == "1809"
        assert d.quit() == 0
    finally:
        d.stop()
