"""Navigation: the Esc menu of games and demonstrations (Esc first cancels what is in progress),
leaving a game for the scenario list without losing it, and the picker's keys, its games'
headings and each scenario's sides, length and victory."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui
import pytest

from simulator.client.demo_scene import DemoScene
from simulator.client.dialogs import PAUSE_ENTRIES, ContextMenu, LoadDialog, PauseMenu, QuitDialog, SaveDialog
from simulator.client.game_scene import GameScene
from simulator.client.picker import BROKEN, PickerScene, grouped_rows
from simulator.core.demo import Demo
from simulator.core.game import ScenarioSummary
from simulator.core.registry import get_game
from simulator.core.scenario import load_scenario
from simulator.core.session import Session
from tests.client.conftest import SIZE, click, key, make_scene, press_button, screen_of
from tests.client.games import scenario_path

DEMO = Path(__file__).resolve().parent / "data" / "demos" / "client_hex" / "first-moves.yaml"
CTRL = pygame.KMOD_CTRL


class Host:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.resumed: list[Path] = []

    def to_picker(self, tab: str = "scenarios") -> None:
        self.calls.append(f"picker:{tab}")

    def quit(self) -> None:
        self.calls.append("quit")

    def resume(self, path: Path, solo=None) -> None:
        self.resumed.append(path)

    def start(self, scenario, solo=None) -> None:
        self.calls.append(f"start:{scenario.id}")


def _game(host: Host, autosave: bool = True) -> GameScene:
    scene = make_scene("hex", autosave)
    scene.host = host
    return scene


def _pick(scene, entry: str) -> None:
    pause = scene.pause
    assert isinstance(pause, PauseMenu)
    press_button(scene, pause.buttons[entry])


def test_esc_cancels_first_then_opens_the_menu_of_five_entries() -> None:
    scene = _game(Host())
    piece = next(p.id for p in scene.model.presentation.pieces(scene.model.state))
    scene.control.select(piece)
    key(scene, pygame.K_ESCAPE)
    assert scene.pause is None and scene.view.selected is None       # the selection went first
    key(scene, pygame.K_l)
    key(scene, pygame.K_ESCAPE)
    assert scene.pause is None and scene.control.mode == "select"    # then the tool
    key(scene, pygame.K_ESCAPE)
    assert isinstance(scene.pause, PauseMenu)
    assert [b.text for b in scene.pause.buttons.values()] == [t if k != "list" else "Back to the scenario list"
                                                               for k, t in PAUSE_ENTRIES]
    assert list(scene.pause.buttons) == ["resume", "save", "load", "list", "quit"]
    key(scene, pygame.K_ESCAPE)                                      # Esc again: Resume
    assert scene.pause is None
    key(scene, pygame.K_ESCAPE)
    _pick(scene, "resume")
    assert scene.pause is None


def test_esc_closes_an_open_menu_before_anything_else() -> None:
    scene = _game(Host())
    piece = next(p.id for p in scene.model.presentation.pieces(scene.model.state))
    scene.open_context(piece, screen_of(scene, "0202"))
    assert isinstance(scene.dialog, ContextMenu)
    key(scene, pygame.K_ESCAPE)
    assert scene.dialog is None and scene.pause is None


def test_the_menus_save_load_and_quit() -> None:
    host = Host()
    scene = _game(host)
    key(scene, pygame.K_ESCAPE)
    _pick(scene, "save")
    assert isinstance(scene.dialog, SaveDialog) and scene.pause is None
    scene.close_dialog()
    key(scene, pygame.K_ESCAPE)
    _pick(scene, "load")
    assert isinstance(scene.dialog, LoadDialog)
    scene.close_dialog()
    key(scene, pygame.K_ESCAPE)
    _pick(scene, "quit")
    assert host.calls == ["quit"]                      # every change is autosaved: no question


def test_back_to_the_list_keeps_the_autosaved_game() -> None:
    host = Host()
    scene = _game(host)
    legal = scene.model.legal
    assert scene.control.propose(next(a for a in legal if a["type"] != "end_phase"), "a move").ok
    key(scene, pygame.K_ESCAPE)
    _pick(scene, "list")
    assert host.calls == ["picker:scenarios"]
    from simulator.client import paths
    again = Session.load(paths.autosave_path())                   # what "Resume the autosaved game" opens
    assert len(again.steps) == len(scene.model.session.steps) == 1


def test_back_to_the_list_with_unsaved_changes_asks_first() -> None:
    host = Host()
    scene = _game(host, autosave=False)
    assert scene.control.propose(next(a for a in scene.model.legal if a["type"] != "end_phase"), "a move").ok
    assert scene.model.session.unsaved
    key(scene, pygame.K_ESCAPE)
    _pick(scene, "list")
    assert host.calls == [] and isinstance(scene.quit_dialog, QuitDialog)
    assert scene.quit_dialog.window.window_display_title == "Leave without saving?"
    key(scene, pygame.K_ESCAPE)                                   # Stay
    assert scene.quit_dialog is None and host.calls == []
    key(scene, pygame.K_ESCAPE)
    _pick(scene, "list")
    press_button(scene, scene.quit_dialog.quit)                   # Leave without saving
    assert host.calls == ["picker:scenarios"]


def test_a_demonstration_has_the_menu_and_saves_its_position_as_a_game(tmp_path) -> None:
    host = Host()
    scene = DemoScene(host, Demo.load(DEMO), SIZE)
    key(scene, pygame.K_RIGHT)
    key(scene, pygame.K_ESCAPE)
    assert scene.pause is None and not scene.view.tools.highlighted    # the step's highlight went first
    key(scene, pygame.K_ESCAPE)
    assert isinstance(scene.pause, PauseMenu)
    assert scene.pause.buttons["list"].text == "Back to the demonstrations"
    press_button(scene, scene.pause.buttons["save"])
    assert isinstance(scene.dialog, SaveDialog)
    scene.dialog.entry.set_text("from-the-demo")
    press_button(scene, scene.dialog.ok)
    from simulator.client import paths
    saved = Session.load(paths.save_path("from-the-demo"))
    assert len(saved.steps) == 1 and scene.dialog is None
    key(scene, pygame.K_ESCAPE)
    press_button(scene, scene.pause.buttons["list"])
    assert host.calls == ["picker:demos"]
    key(scene, pygame.K_ESCAPE)
    press_button(scene, scene.pause.buttons["quit"])
    assert host.calls[-1] == "quit"


def _picker(host: Host) -> PickerScene:
    return PickerScene(host, SIZE, scenarios=[("client_hex/hex", scenario_path("hex"))], demos=[])


def test_the_picker_quits_on_ctrl_q_and_esc_never_quits() -> None:
    host = Host()
    picker = _picker(host)
    picker.set_tab("demos")
    key(picker, pygame.K_ESCAPE)
    assert picker.tab == "scenarios" and host.calls == []
    key(picker, pygame.K_ESCAPE)
    assert host.calls == [] and "Ctrl+Q" in picker.notice
    key(picker, pygame.K_q, CTRL)
    assert host.calls == ["quit"]


def test_the_picker_lists_scenarios_under_their_games_and_headings_do_nothing() -> None:
    rows = grouped_rows({"Fury": "Dragon Rage", "Raid": "Dragon Rage", "(broken) x/y": BROKEN,
                         "Sea fight": "Cry Havoc"})
    assert rows == [("Cry Havoc", None), ("Sea fight", "Sea fight"), ("Dragon Rage", None), ("Fury", "Fury"),
                    ("Raid", "Raid"), (BROKEN, None), ("(broken) x/y", "(broken) x/y")]
    host = Host()
    picker = _picker(host)
    texts = [i["text"] for i in picker.list.item_list]
    heading, name = texts[0], texts[1]
    assert name in picker.entries and heading not in picker.entries
    for kind in (pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION):
        picker.handle(pygame.event.Event(kind, ui_element=picker.list, text=heading))
    assert picker.chosen is None and host.calls == []
    picker.handle(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=picker.list, text=name))
    assert picker.chosen is not None
    shown = picker.about.html_text
    assert "Sides:" in shown and "Length:" in shown


@pytest.mark.parametrize("sid", ["dragon_rage/esirien-1-fury", "vikings/sea_fight", "saga/quickstart",
                                 "asoiaf/game-of-thrones"])
def test_each_game_says_its_scenarios_sides_length_and_victory(sid: str) -> None:
    scenario = load_scenario(sid)
    summary = get_game(scenario.game).scenario_summary(scenario)
    assert summary.sides == tuple(p.get("name") or p["id"] for p in scenario.players)
    assert summary.length.split()[-1] in ("turns", "rounds", "limit") and summary.victory


def test_a_game_without_its_own_summary_reads_players_and_turns() -> None:
    from dataclasses import replace

    scenario = load_scenario(str(scenario_path("hex")))
    game = get_game(scenario.game)
    assert game.scenario_summary(scenario) == ScenarioSummary((), "no turn limit", "")
    listed = replace(scenario, data={**scenario.data, "turns": 5,
                                     "players": [{"id": "red", "name": "Red raiders"}, {"id": "blue"}]})
    assert game.scenario_summary(listed) == ScenarioSummary(("Red raiders", "blue"), "5 turns", "")
