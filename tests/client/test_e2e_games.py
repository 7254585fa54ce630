"""End to end, each real game in a real window under Xvfb, played with the mouse and the
keyboard only (xdotool): at least a full turn of both sides, then Esc -> "Back to the scenario
list". Where to click comes from the same layout code (``window_driver``); what happened is
read from the program's autosave; screenshots show the board and the panel drawn.

Each game starts from a save positioned just before its interesting step (the scripts of
docs/images/scripts, run to a save), so a run stays short. Skips when Xvfb or xdotool is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import pygame
import pytest

from simulator.client import gestures
from simulator.client.app import CAPTION as PICKER_TITLE
from simulator.core.game import Action
from simulator.core.script import run_script
from tests.client.window_driver import ROOT, WindowDriver, tools_missing

SIZE = (960, 600)
SCRIPTS = ROOT / "docs" / "images" / "scripts"

needs_x = pytest.mark.skipif(bool(tools_missing()), reason=tools_missing() or "-")


def positioned_save(script: str, folder: Path) -> Path:
    """The script's position as a save file to open with ``simulator play``."""
    result = run_script(SCRIPTS / f"{script}.yaml")
    assert not result.stopped and not result.failures, (result.stopped, result.failures)
    path = folder / f"{script}.yaml"
    result.session.save(path)
    return path


@pytest.fixture
def window(tmp_path: Path) -> Iterator[Callable[[str, str], WindowDriver]]:
    """``window(script, display)``: the program playing the script's position in a window."""
    drivers: list[WindowDriver] = []

    def open_window(script: str, display: str) -> WindowDriver:
        d = WindowDriver(positioned_save(script, tmp_path), tmp_path / "home", SIZE, display)
        drivers.append(d)
        d.start()
        return d

    yield open_window
    for d in drivers:
        d.stop()


def drawn_board(d: WindowDriver, shot: Path) -> None:
    """The board and the side panel (when there is one) are drawn in the window (not blank,
    not one colour)."""
    if not d.live:
        return
    pixels = d.screenshot(shot)
    board = d.scene.view.camera.viewport
    panel = d.scene.side.rect
    for name, rect in (("board", board), ("side panel", panel)) if d.scene.side.panels else (("board", board),):
        part = pixels[rect.top:rect.bottom, rect.left:rect.right].reshape(-1, 3)
        colours = len(np.unique(part[:: max(1, len(part) // 4000)], axis=0))
        assert colours > 12, f"the {name} looks blank in {shot} ({colours} colours)"


def end_phases_while(d: WindowDriver, going: Callable[[], bool], most: int = 12) -> None:
    """Ctrl+Enter while ``going()``: each press must end something."""
    session = d.scene.model.session
    for _ in range(most):
        if not going():
            return
        n = len(session.history)
        d.end_phase()
        d.settle()
        assert len(session.history) > n, f"Ctrl+Enter ended nothing: {d.scene.control.message}"
    raise AssertionError(f"still going after {most} presses of Ctrl+Enter: {d.scene.model.banner}")


def secret_choice(d: WindowDriver, want: Callable[[Action], bool]) -> Action:
    """The secret choice waiting now: the hand-over screen first when it belongs to another
    player than the one at the screen ("I am ...: show my choice"), then its option clicked in
    the chooser under the board."""
    s = d.scene
    secret = s.model.secret
    assert secret is not None, f"no secret choice waits ({s.model.banner})"
    before = None
    if s.handover is not None:
        assert s.handover.choice.player == secret.player
        before = d.screenshot_array()
        d.press(s.handover.buttons[0][0])
        assert s.handover is None, "the hand-over screen stayed"
    assert s.side.shown == gestures.SECRET, f"no chooser under the board ({s.side.shown})"
    slot = next((sl.id for sl in s.side.panel().slots if want(secret.options[int(sl.id)][1])), None)
    assert slot is not None, f"no such option: {secret.options}"
    if before is not None:
        d.drawn(d.slot_rect(slot), before)      # the board and its chooser instead of the curtain
    d.click(d.slot_rect(slot).center)
    d.settle()
    return secret.options[int(slot)][1]


def back_to_picker(d: WindowDriver) -> None:
    """Esc (again while it cancels something: a selection, a menu): the Esc menu; "Back to the
    scenario list": the picker."""
    for _ in range(3):
        before = d.screenshot_array()
        d.key("Escape", pygame.K_ESCAPE)
        if d.scene.pause is not None:
            break
    assert d.scene.pause is not None, "Esc did not open the Esc menu"
    d.drawn(d.scene.pause.window.rect, before)
    d.press(d.scene.pause.buttons["list"])
    if not d.live:
        return
    d._until(lambda: d.title() == PICKER_TITLE, "the scenario list (the window's title names no game)")
    assert d.quit() == 0


# ---------------------------------------------------------------------------------- Dragon Rage
@needs_x
def test_nurkott_invader_enters_from_its_box_and_both_sides_play_a_turn(window, tmp_path):
    play_nurkott(window("nurkott-invaders", ":93"), tmp_path)


def play_nurkott(d: WindowDriver, tmp_path: Path) -> None:
    s = d.scene
    assert s.side.shown == "offmap:invader"
    drawn_board(d, tmp_path / "nurkott-start.png")
    # the Lord waits in the invader's box: dragged onto a hex he may reach, he enters the map
    d.drag(d.item_rect("hero2").center, d.hex_pos("0103"))
    d.settle()
    assert d.played().state["units"]["hero2"]["hex"] == "0103"
    # the invader's remaining phases, then every phase of the defender, with Ctrl+Enter
    end_phases_while(d, lambda: s.model.state["active"] == "invader")
    turn = s.model.state["turn"]
    end_phases_while(d, lambda: s.model.state["active"] == "defender")
    state = d.played().state
    assert state["turn"] == turn + 1 and state["active"] == "invader" and state["phase_index"] == 0
    drawn_board(d, tmp_path / "nurkott-next-turn.png")
    back_to_picker(d)


# ----------------------------------------------------------------------------------------- SAGA
@needs_x
def test_saga_dice_on_the_battle_board_an_ability_and_a_turn_of_each_side(window, tmp_path):
    play_saga(window("saga-battle-board", ":92"), tmp_path)


def play_saga(d: WindowDriver, tmp_path: Path) -> None:
    s = d.scene
    assert s.side.shown == "board:vikings"
    drawn_board(d, tmp_path / "saga-start.png")
    # the Vikings' Orders Phase: a rolled die dragged onto the Activation Pool box...
    d.drag(d.item_rect("vikings/2").center, d.slot_rect("activation_pool").center)
    d.settle()
    assert d.played().state["sides"]["vikings"]["dice"][2]["box"] == "activation_pool"
    # ...and the box clicked: its menu offers its ability (roll two extra SAGA dice)
    d.open_menu(lambda: d.click(d.slot_rect("activation_pool").center))
    d.choose(lambda a: a["type"] == "use_ability")
    d.settle()
    assert d.played().history[-1] == {"type": "use_ability", "box": "activation_pool"}
    drawn_board(d, tmp_path / "saga-ability.png")
    # the Activation Phase: the Bondi's die activates the warriors (one action: made at once)
    d.end_phase()
    d.settle()
    d.click(d.slot_rect("bondi").center)
    d.settle()
    assert d.played().history[-1]["type"] == "activate"
    # they move: a right-click on one of them, a move from its menu
    d.open_menu(lambda: d.click(d.spot_of("v-bondi.1"), button=3))
    moved = d.choose(lambda a: a["type"] == "move")
    d.settle()
    figures = d.played().state["figures"]
    assert all([figures[f]["x"], figures[f]["y"]] == list(at) for f, at in moved["to"].items())
    end_phases_while(d, lambda: s.model.state["turn_player"] == "vikings")
    # the Anglo-Danes: the End phase button rolls their dice; a die clicked offers its boxes
    assert s.side.shown == "board:anglo_danes"
    d.press(s.panels.buttons["end_phase"])
    d.settle()
    assert d.played().history[-1]["type"] == "roll_dice"
    die = next(i.id for sl in s.side.panel().slots if sl.id == "pool" for i in sl.contents)
    d.open_menu(lambda: d.click(d.item_rect(die).center))
    placed = d.choose(lambda a: a["type"] == "place_die")
    d.settle()
    box = placed["box"]
    assert d.played().state["sides"]["anglo_danes"]["dice"][placed["die"]]["box"] == box
    end_phases_while(d, lambda: s.model.state["turn_player"] == "anglo_danes")
    state = d.played().state
    assert state["turn"] == 2 and state["turn_player"] == "vikings"
    drawn_board(d, tmp_path / "saga-turn-2.png")
    back_to_picker(d)


# ---------------------------------------------------------------------------------------- ASOIAF
@needs_x
def test_asoiaf_a_tactics_card_played_and_a_round_of_both_sides(window, tmp_path):
    play_asoiaf(window("asoiaf-hand", ":93"), tmp_path)


def play_asoiaf(d: WindowDriver, tmp_path: Path) -> None:
    s = d.scene
    assert s.side.shown == "hand:stark"
    drawn_board(d, tmp_path / "asoiaf-start.png")
    # Stark's first activation: a card of his hand clicked, played with a unit's hold
    d.open_menu(lambda: d.click(d.slot_rect("40205").center))
    played = d.choose(lambda a: a["type"] == "hold" and a.get("card") == "40205")
    d.settle()
    assert d.played().history[-1] == played
    assert "40205" not in d.played().state["hands"]["stark"]
    drawn_board(d, tmp_path / "asoiaf-card.png")
    # then each side in turn: every unit activated (a right-click, "hold"), then each NCU
    # from the Tactics board's box, then the cleanup, until the next round
    for _ in range(40):
        state = s.model.state
        if state["round"] != 1:
            break
        who = s.model.active
        units = [a["unit"] for a in s.model.legal if a["type"] == "hold"]
        if units:
            d.open_menu(lambda: d.click(d.spot_of(units[0]), button=3))
            d.choose(lambda a: a["type"] == "hold" and "card" not in a)
        elif any(a["type"] in ("claim", "ncu_pass") for a in s.model.legal):
            ncu = next(a["ncu"] for a in s.model.legal if a["type"] == "ncu_pass")
            d.show_panel("tactics-board")
            d.open_menu(lambda: d.click(d.item_rect(ncu).center))
            d.choose(lambda a: a["type"] == "claim" if who == "stark" else a["type"] == "ncu_pass")
        else:
            break
        d.settle()
    # the cleanup: each keeps his cards, a secret choice (the other player's behind the hand-over)
    for _ in range(2):
        secret_choice(d, lambda a: a == {"type": "discard", "cards": []})
    state = d.played().state
    assert state["round"] == 2 and state["phase"] == "activation"
    kinds = [a["type"] for a in d.played().history]
    assert kinds.count("hold") >= 8 and "claim" in kinds and "ncu_pass" in kinds and kinds.count("discard") == 2
    drawn_board(d, tmp_path / "asoiaf-round-2.png")
    back_to_picker(d)


# --------------------------------------------------------------------------------------- Vikings
@needs_x
def test_vikings_ships_move_at_their_secret_speeds_through_a_turn_of_both_sides(window, tmp_path):
    play_vikings(window("vikings-speed", ":92"), tmp_path)


def play_vikings(d: WindowDriver, tmp_path: Path) -> None:
    s = d.scene
    assert s.handover is not None, "the Vikings' secret speeds did not start behind the hand-over screen"
    chosen: dict[str, int] = {}
    start = {ship: v["pivot"] for ship, v in s.model.state["ships"].items()}
    for _ in range(60):
        state = s.model.state
        if state["turn"] != 1:
            break
        kinds = {a["type"] for a in s.model.legal}
        if s.model.secret is not None:
            # each captain's speed: the slower one offered (a ship at speed 0 would not move)
            options = [a for _, a in s.model.secret.options]
            slow = min((a for a in options if a["speed"] > 0), key=lambda a: a["speed"])
            secret_choice(d, lambda a: a == slow)
            chosen[slow["ship"]] = slow["speed"]
        elif "ship_move" in kinds:
            # a ship at its chosen speed: right-click it, a move from its menu
            ship = next(a["ship"] for a in s.model.legal if a["type"] == "ship_move")
            d.open_menu(lambda: d.click(d.spot_of(ship), button=3))
            d.choose(lambda a: a["type"] == "ship_move" and a["ship"] == ship)
            d.settle()
            if len([a for a in d.played().history if a["type"] == "ship_move"]) == 1:
                drawn_board(d, tmp_path / "vikings-ship-moved.png")
        else:
            end_phases_while(d, lambda: s.model.state["turn"] == 1 and s.model.secret is None and not any(
                a["type"] == "ship_move" for a in s.model.legal), most=20)
    played = d.played()
    assert played.state["turn"] == 2
    ships = played.state["ships"]
    assert set(chosen) == {"skiff", "wave_wolf", "sea_hall"}
    for ship, speed in chosen.items():       # the last naval phase: as many hexes as chosen
        assert ships[ship]["speed"] == speed and ships[ship]["moves"] == speed, ships[ship]
        assert ships[ship]["pivot"] != start[ship], f"{ship} did not move"
    drawn_board(d, tmp_path / "vikings-turn-2.png")
    back_to_picker(d)


# ---------------------------------------------------------------------- found by these tests
def test_a_tap_repeated_before_its_release_is_taken_once(tmp_path):
    """A slow frame kept a tap's release unread past pygame's key-repeat delay: the repeats of
    one Ctrl+Enter ended the next phases too (the Nurkott defender's phases ran by in one
    press), one Esc opened the Esc menu and closed it. Held arrows and Ctrl+Z still repeat."""
    from simulator.client.app import KeyRepeats
    from simulator.client.game_scene import GameScene
    from simulator.core.session import Session

    def key(kind: int, k: int, mod: int = 0) -> pygame.event.Event:
        return pygame.event.Event(kind, key=k, mod=mod, unicode="", scancode=0)

    scene = GameScene(None, Session.load(positioned_save("nurkott-invaders", tmp_path)), SIZE)
    repeats = KeyRepeats()
    ctrl = pygame.KMOD_CTRL
    steps = len(scene.model.session.history)
    # the press, repeats, Ctrl released before Enter, a repeat, then Enter's release
    for event in (key(pygame.KEYDOWN, pygame.K_LCTRL, ctrl), key(pygame.KEYDOWN, pygame.K_RETURN, ctrl),
                  key(pygame.KEYDOWN, pygame.K_RETURN, ctrl), key(pygame.KEYUP, pygame.K_LCTRL),
                  key(pygame.KEYDOWN, pygame.K_RETURN, ctrl), key(pygame.KEYUP, pygame.K_RETURN)):
        if not repeats.once_repeated(event):
            scene.handle(event)
    assert len(scene.model.session.history) == steps + 1
    for event in (key(pygame.KEYDOWN, pygame.K_RETURN, ctrl), key(pygame.KEYUP, pygame.K_RETURN)):
        if not repeats.once_repeated(event):       # pressed again: the next phase ends
            scene.handle(event)
    assert len(scene.model.session.history) == steps + 2
    for event in (key(pygame.KEYDOWN, pygame.K_ESCAPE), key(pygame.KEYDOWN, pygame.K_ESCAPE)):
        if not repeats.once_repeated(event):
            scene.handle(event)
    assert scene.pause is not None, "the repeat of Esc closed the Esc menu"
    assert not repeats.once_repeated(key(pygame.KEYDOWN, pygame.K_LEFT))
    assert not repeats.once_repeated(key(pygame.KEYDOWN, pygame.K_LEFT))       # held: the view pans on
    assert not repeats.once_repeated(key(pygame.KEYDOWN, pygame.K_z, ctrl))
    assert not repeats.once_repeated(key(pygame.KEYDOWN, pygame.K_z, ctrl))    # held Ctrl+Z: undo on
    repeats.once_repeated(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert not repeats.once_repeated(key(pygame.KEYDOWN, pygame.K_ESCAPE))    # a release lost with the focus


def test_the_scenario_list_title_names_no_game(tmp_path):
    """Back on the list from a game, the window's title named the game left."""
    from simulator.client import app
    from simulator.core.session import Session

    program = app.App(SIZE, 0, picker=False)
    program.open_session(Session.load(positioned_save("nurkott-invaders", tmp_path)))
    assert pygame.display.get_caption()[0].startswith("Nurkott 1")
    program.to_picker()
    assert pygame.display.get_caption()[0] == PICKER_TITLE
