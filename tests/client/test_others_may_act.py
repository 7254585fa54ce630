"""A side that may act during the other side's step (Vikings defensive fire, VK 2.33) is pointed
to it: the banner names the side and what it may do."""

from __future__ import annotations

from simulator.client.game_scene import GameScene
from tests.client.conftest import SIZE
from tests.vikings.helpers import session, to_step


def test_the_banner_points_the_other_side_to_its_defensive_fire() -> None:
    s = session([{"id": "svein", "hex": "1205"}, {"id": "hallstein", "hex": "1203"},
                 {"id": "archer1", "hex": "1209"}], tape=[1])
    to_step(s, "move")
    scene = GameScene(None, s, SIZE)
    assert "may act too" not in scene.panels.banner_text          # nobody has started moving yet
    s.apply({"type": "move", "piece": "hallstein", "to": "1303"})
    scene.model.refresh()
    scene.refresh_panels()
    assert s.active_player() == "vikings"
    assert "saxons may act too: defensive fire" in scene.panels.banner_text
