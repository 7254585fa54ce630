"""Linked games (``Game.next_scenario``): the end screen offers *Next game*, which starts the
next scenario through the picker's path (force selection first when it asks for it), keeping
hotseat or solo. Driven with the ``client_hex`` test game's small campaign."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest
import yaml

from tests.client.conftest import SIZE, drag, screen_of
from tests.client.games import HexSkirmish, scenario_path


def campaign_file(tmp_path, **setup):
    data = yaml.safe_load(scenario_path("hex").read_text())
    data["setup"].update(setup)
    path = tmp_path / "campaign.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def app_with(path, solo=None):
    from simulator.client import paths
    from simulator.client.app import App
    from simulator.core.session import Session

    pygame.event.clear()
    app = App(SIZE, 3)
    app.open_session(Session.new(str(path), 3, autosave=paths.autosave_path()), solo)
    return app


def press(app, button) -> None:
    app.scene.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))


def win(scene) -> None:
    """Red's raiders reach the goal (1808 -> 1910): the end screen opens."""
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1910"))
    assert scene.end is not None, scene.control.message


def test_next_game_starts_the_linked_scenario_in_hotseat(tmp_path):
    from simulator.client.game_scene import GameScene

    app = app_with(campaign_file(tmp_path, campaign=1))
    first = app.scene
    win(first)
    assert first.end.next_button is not None and first.end.next_game_name.endswith("game 2")
    first.draw(pygame.display.get_surface())
    press(app, first.end.next_button)
    scene = app.scene
    assert isinstance(scene, GameScene) and scene is not first and scene.solo is None
    session = scene.model.session
    assert session.scenario.id == "client_hex/campaign-next"
    assert session.scenario.name == "Hex skirmish at Esirien - game 2"
    assert session.state["pieces"]["r1"]["at"] == "1910" and session.state["goal"] == "0807"
    assert not session.steps and scene.end is None
    # the last game of the campaign links to no next game
    state = session.state_data()
    state["pieces"]["r1"]["at"] = "0807"
    assert HexSkirmish().outcome(state) is not None
    assert HexSkirmish().next_scenario(state, session.scenario) is None


def test_a_game_without_a_next_game_shows_no_button(tmp_path):
    app = app_with(scenario_path("hex"))
    win(app.scene)
    assert app.scene.end.next_button is None
    app.scene.draw(pygame.display.get_surface())


def test_next_game_keeps_solo_and_opens_the_force_selection_it_asks_for(tmp_path):
    from simulator.client.forces_scene import ForceScene
    from simulator.client.game_scene import GameScene
    from simulator.client.solo import SoloConfig

    solo = SoloConfig("red", "easy")
    app = app_with(campaign_file(tmp_path, campaign=2, next_forces=True), solo)
    win(app.scene)
    press(app, app.scene.end.next_button)
    scene = app.scene
    assert isinstance(scene, ForceScene) and scene.flow.solo == solo
    assert scene.flow.current.player == "red" and scene.handover is None      # solo: no hand-over
    assert scene.flow.chosen["blue"] == {"scout": 1}                          # the computer's pick
    scene.draw(pygame.display.get_surface())
    scene.flow.counts = {"scout": 0, "guard": 2}
    press(app, scene.done_button)
    game = app.scene
    assert isinstance(game, GameScene) and game.solo == solo
    pieces = game.model.session.state["pieces"]
    assert {"r-guard1", "r-guard2", "b-scout1"} <= set(pieces) and pieces["r1"]["at"] == "1910"
    assert game.model.session.scenario.setup["campaign"] == 1                # one more game after this


def test_a_broken_next_game_is_reported_on_the_end_screen(tmp_path, monkeypatch):
    app = app_with(campaign_file(tmp_path, campaign=1))
    monkeypatch.setattr(HexSkirmish, "next_scenario",
                        lambda self, state, scenario: {"game": "client_hex", "name": "Broken"})
    scene = app.scene
    win(scene)
    press(app, scene.end.next_button)
    assert app.scene is scene and "description" in scene.end.problem
    scene.draw(pygame.display.get_surface())

    def boom(self, state, scenario):
        raise KeyError("units")

    monkeypatch.setattr(HexSkirmish, "next_scenario", boom)
    app = app_with(campaign_file(tmp_path, campaign=1))
    win(app.scene)
    assert app.scene.end.next_button is None and "KeyError" in app.scene.end.problem
    app.scene.draw(pygame.display.get_surface())


@pytest.mark.parametrize("own_id", ["client_hex/chapter-2", None])
def test_the_next_scenario_id_is_the_datas_own_or_campaign_next(tmp_path, monkeypatch, own_id):
    app = app_with(campaign_file(tmp_path, campaign=1))
    original = HexSkirmish.next_scenario

    def with_id(self, state, scenario):
        data = original(self, state, scenario)
        return {**data, "id": own_id} if own_id else data

    monkeypatch.setattr(HexSkirmish, "next_scenario", with_id)
    win(app.scene)
    press(app, app.scene.end.next_button)
    assert app.scene.model.session.scenario.id == (own_id or "client_hex/campaign-next")
