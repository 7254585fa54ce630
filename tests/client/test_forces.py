"""The force-selection screen (simulator/client/forces_scene.py), driven by pygame events:
the picker starts a scenario that asks for force selection, each player chooses behind the
hand-over screen, problems show with their rules, and the game starts with the chosen forces."""

from __future__ import annotations

from collections import Counter

import pygame
import pygame_gui
import pytest

from tests.client.conftest import SIZE

SID = "dragon_rage/pointbuy-esirien-choose"


def pump(app) -> None:
    """Deliver the events pygame_gui posted (button presses) to the current scene."""
    app.scene.update(0.02)
    for event in pygame.event.get():
        app.scene.handle(event)


def click(app, widget) -> None:
    """A real mouse click on ``widget`` (pygame_gui turns it into a button press)."""
    assert widget.visible, widget
    pos = widget.rect.center
    app.scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.scene.update(0.02)
    app.scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    pump(app)
    app.scene.draw(pygame.display.get_surface())


def add(app, option, times=1, sign="plus"):
    for _ in range(times):
        click(app, app.scene.rows[option][sign])


def counts(session, side):
    return Counter(u["type"] for u in session.state["units"].values() if u["side"] == side)


@pytest.fixture
def app():
    from simulator.client.app import App
    from simulator.client.picker import PickerScene
    from simulator.core.scenario import SCENARIOS_DIR

    pygame.event.clear()
    a = App(SIZE, 3)
    a.scene = PickerScene(a, SIZE, scenarios=[(SID, SCENARIOS_DIR / f"{SID}.yaml"),
                                              ("dragon_rage/esirien-1-fury",
                                               SCENARIOS_DIR / "dragon_rage/esirien-1-fury.yaml")])
    return a


def pick(app, name_part, mode="hotseat", side=None):
    picker = app.scene
    label = next(n for n in picker.entries if name_part in n)
    picker.handle(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=picker.list, text=label))
    if mode == "solo":
        click(app, picker.mode_buttons["solo"])
        click(app, picker.side_buttons[side])
    click(app, picker.start_button)


def test_hotseat_both_players_choose_behind_the_handover_and_the_game_starts(app):
    from simulator.client.forces_scene import ForceScene
    from simulator.client.game_scene import GameScene

    pick(app, "choose your forces")
    scene = app.scene
    assert isinstance(scene, ForceScene)
    assert scene.handover is not None and not scene.rows            # the curtain: nothing shown yet
    assert scene.handover.choice.player == "Invader"
    click(app, scene.handover.buttons[0][0])                         # "I am Invader: ..."
    assert scene.handover is None and "dragon" in scene.rows
    assert not scene.done_button.is_enabled                          # an empty force: a problem
    assert "at least one unit" in scene.problems[0].message

    add(app, "dragon", 2)
    assert not scene.rows["dragon"]["plus"].is_enabled               # only 2 dragon counters
    add(app, "goblins")                                              # 81 points: over the budget
    assert [(p.rule, p.option) for p in scene.problems] == [("DR 3.3.2", None)]
    assert "81 points" in scene.summary.html_text and "DR 3.3.2" in scene.summary.html_text
    assert not scene.done_button.is_enabled
    click(app, scene.done_button)
    assert app.scene is scene and scene.flow.index == 0              # Done refused
    add(app, "goblins", sign="minus")                                # fixed: 80 points
    assert scene.problems == [] and scene.done_button.is_enabled
    assert "VP objective: 21" in scene.summary.html_text             # the live note
    click(app, scene.done_button)

    # the defender: hand-over first, the invader's choice is not on screen
    assert scene.handover is not None and scene.handover.choice.player == "Defender" and not scene.rows
    click(app, scene.handover.buttons[0][0])
    assert "infantry" in scene.rows and "dragon" not in scene.rows
    click(app, scene.suggest_button)                                 # 75 points, 23 units
    assert scene.problems == []
    add(app, "infantry")                                             # 77: over
    assert scene.problems and not scene.done_button.is_enabled
    add(app, "militia", 2, sign="minus")
    assert scene.problems == []
    click(app, scene.done_button)

    assert isinstance(app.scene, GameScene) and app.scene.solo is None
    session = app.scene.model.session
    assert counts(session, "invader") == Counter({"dragon": 2})
    assert counts(session, "defender") == Counter({"hero": 1, "wizard": 1, "cavalry": 4, "infantry": 9,
                                                   "archers": 4, "militia": 3})
    assert session.state["vp"]["objective"] == 21 - 2                # 22 defender units: -2 (DR 3.3.3)
    assert session.scenario.name.endswith("(chosen forces)")


def test_a_problem_highlights_its_option_row(app):
    pick(app, "choose your forces")
    scene = app.scene
    click(app, scene.handover.buttons[0][0])
    scene.flow.counts["giant"] = 7                                   # more than the 6 counters
    scene.refresh()
    scene.draw(pygame.display.get_surface())
    assert scene.row_problem("giant") and not scene.row_problem("dragon")
    assert scene.rows["giant"]["flag"] == "#problem_row" and "DR 2.2" in scene.summary.html_text
    x, y = scene.rows["giant"]["name"].rect.topleft
    assert pygame.display.get_surface().get_at((x - 3, y + 10))[:3] == (255, 110, 100)   # the red frame
    add(app, "giant", sign="minus")
    assert not scene.row_problem("giant") and scene.rows["giant"]["flag"] == "#option_name"


def test_solo_the_computer_takes_its_suggested_force_and_no_handover(app):
    from simulator.client.game_scene import GameScene

    pick(app, "choose your forces", mode="solo", side="defender")
    scene = app.scene
    assert scene.handover is None and scene.flow.current.player == "defender"
    assert scene.flow.chosen["invader"] == {"dragon": 1, "young_dragon": 1, "giant": 1, "trolls": 2, "goblins": 2}
    add(app, "infantry", 16)
    add(app, "hero")
    click(app, scene.done_button)
    assert isinstance(app.scene, GameScene) and app.scene.solo.human == "defender"
    session = app.scene.model.session
    assert counts(session, "defender") == Counter({"infantry": 16, "hero": 1})
    assert counts(session, "invader")["dragon"] == 1


def test_back_resize_and_plain_scenarios(app):
    from simulator.client.forces_scene import ForceScene
    from simulator.client.game_scene import GameScene
    from simulator.client.picker import PickerScene

    pick(app, "choose your forces")
    click(app, app.scene.handover.buttons[0][0])
    add(app, "dragon")
    app.resize((1024, 700))                                          # the choice survives a resize
    assert isinstance(app.scene, ForceScene) and app.scene.flow.counts["dragon"] == 1
    app.scene.draw(pygame.display.get_surface())
    click(app, app.scene.back_button)
    assert isinstance(app.scene, PickerScene)
    pick(app, "Fury")                                                # no selection: straight in
    assert isinstance(app.scene, GameScene)


def test_play_command_opens_the_selection_for_a_choose_scenario(monkeypatch):
    from simulator.client import app as app_module
    from simulator.client.forces_scene import ForceScene

    seen = {}

    def run(self, max_frames=None):
        seen["scene"] = self.scene
        return 0

    monkeypatch.setattr(app_module.App, "run", run)
    assert app_module.play(SID, 1, SIZE, solo="invader") == 0
    scene = seen["scene"]
    assert isinstance(scene, ForceScene) and scene.flow.current.player == "invader"
    assert scene.handover is None and "defender" in scene.flow.chosen


def test_a_dragon_rage_campaign_starts_with_the_force_selection():
    """The first game of a Dragon Rage campaign (DR 4.3.1) opens the same screen as the later
    games: 60 availability points and at most 15 units each, then game 1 with the chosen forces."""
    from simulator.client.app import App
    from simulator.client.forces_scene import ForceScene
    from simulator.client.game_scene import GameScene
    from simulator.client.picker import PickerScene
    from simulator.core.scenario import SCENARIOS_DIR

    sid = "dragon_rage/campaign-esirien-decade"
    pygame.event.clear()
    app = App(SIZE, 3)
    app.scene = PickerScene(app, SIZE, scenarios=[(sid, SCENARIOS_DIR / f"{sid}.yaml")])
    pick(app, "game 1")
    scene = app.scene
    assert isinstance(scene, ForceScene)
    click(app, scene.handover.buttons[0][0])
    assert scene.flow.current.budget == 60 and scene.flow.current.unit_limit == (1, 15)
    add(app, "goblins", 8)
    add(app, "orcs", 8)                                              # 16 units: over the cap
    assert [p.rule for p in scene.problems] == ["DR 4.3.1"] and not scene.done_button.is_enabled
    add(app, "orcs", 6, sign="minus")
    assert scene.problems == [] and "VP objective: 17" in scene.summary.html_text
    click(app, scene.done_button)
    click(app, scene.handover.buttons[0][0])
    click(app, scene.suggest_button)
    click(app, scene.done_button)
    assert isinstance(app.scene, GameScene)
    session = app.scene.model.session
    assert counts(session, "invader") == Counter({"goblins": 8, "orcs": 2})
    assert session.scenario.setup["campaign"]["game"] == 1 and "game 1" in session.scenario.name


def test_prices_show_shares_of_a_point_as_fractions() -> None:
    from simulator.client.forces_scene import points_text
    assert [points_text(p) for p in (6, 5 / 12, 0.75, 1 + 3 / 8, -0.25, 0.7071)] == \
        ["6", "5/12", "3/4", "1 3/8", "-1/4", "0.7071"]
