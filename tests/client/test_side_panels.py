"""Side panels under the board (Presentation.side_panels): SAGA's battle boards played with the
mouse alone: dice dragged from the rolled dice onto a box, a die clicked for a menu of boxes, a
box clicked to activate a unit, and the panel folded away."""

from __future__ import annotations

import random

import pygame
import pytest

from simulator.client.game_scene import GameScene
from simulator.core.session import Session
from tests.client.conftest import SIZE, click, drag, key


def orders_phase() -> Session:
    """The quick-start, played by seeded random choices up to the first Orders Phase's dice."""
    session = Session.new("saga/quickstart", 4)
    rng = random.Random(2)
    for _ in range(200):
        legal = session.legal_actions()
        if any(a["type"] == "place_die" for a in legal):
            return session
        session.apply(rng.choice(legal))
    raise AssertionError("no Orders Phase")


def centre(scene: GameScene, item: str | None = None, slot: str | None = None) -> tuple[int, int]:
    side = scene.side
    rect = side._items[item][1] if item is not None else side._slots[slot]
    return rect.center


def placed(session: Session, player: str, box: str) -> int:
    return sum(1 for d in session.state_data()["sides"][player]["dice"] if d["box"] == box)


def test_the_battle_board_shows_under_the_table_and_the_board_keeps_the_rest() -> None:
    scene = GameScene(None, orders_phase(), SIZE)
    assert scene.side.shown == "board:vikings" and scene.side.rect.height > 100
    assert scene.view.camera.viewport.bottom <= scene.side.rect.top
    pool = scene.model.presentation.side_panels(scene.model.state, None)[0].slots[0]
    assert len(pool.contents) == 4 and all(item.die == "saga-vikings" for item in pool.contents)
    screen = pygame.Surface(SIZE)
    scene.draw(screen)                                   # draws with the panel, no error


def test_a_die_dragged_onto_a_box_is_placed_there() -> None:
    session = orders_phase()
    scene = GameScene(None, session, SIZE)
    drag(scene, centre(scene, item="vikings/2"), centre(scene, slot="bondi"))
    assert placed(session, "vikings", "bondi") == 1
    assert len(scene.side.panel().slots[0].contents) == 3     # dice of one face are alike: one of them went
    # a drop where the die may not go changes nothing and says why
    before = len(session.steps)
    drag(scene, centre(scene, item="vikings/1"), centre(scene, slot="thralls"))   # Levies take Raven or hammer
    assert len(session.steps) == before and scene.control.error


def test_a_clicked_die_offers_its_boxes_and_a_clicked_box_activates() -> None:
    session = orders_phase()
    scene = GameScene(None, session, SIZE)
    click(scene, centre(scene, item="vikings/0"))
    menu = scene.dialog
    assert menu is not None and any("Place the Valknut die on Bondi" in label for label in menu.actions)
    action = next(a for label, a in menu.actions.items() if "on Bondi" in label)
    scene.close_dialog()
    scene.control.propose(action, "place")
    scene.end_phase()                                       # the Orders Phase ends: Ctrl+Enter's action
    scene.refresh_panels()
    click(scene, centre(scene, slot="bondi"))              # one action: activate the Bondi at once
    assert session.steps[-1].action["type"] == "activate" and session.steps[-1].action["source"] == "bondi"


def test_the_shown_tab_folds_the_panel_and_gives_the_board_its_room() -> None:
    scene = GameScene(None, orders_phase(), SIZE)
    tall = scene.view.camera.viewport.height
    click(scene, scene.side._tabs["board:vikings"].center)
    assert scene.side.folded and scene.view.camera.viewport.height > tall
    click(scene, scene.side._tabs["board:anglo_danes"].center)
    assert scene.side.shown == "board:anglo_danes" and not scene.side.folded


def test_nurkott_invaders_wait_in_a_box_and_enter_by_drag() -> None:
    session = Session.new("dragon_rage/nurkott-1-humans", 1)
    session.apply({"type": "end_phase"})                   # spells: to the invader's movement
    scene = GameScene(None, session, SIZE)
    assert scene.side.shown == "offmap:invader"
    slots = {slot.id: slot for slot in scene.side.panel().slots}
    assert "invader/Cavalry (knights)" in slots and len(slots["invader/Cavalry (knights)"].contents) == 4
    assert all(item.piece for slot in slots.values() for item in slot.contents)
    target = scene.view.to_screen(scene.model.board.world_of("0202"))
    drag(scene, centre(scene, item="cav1"), (int(target[0]), int(target[1])))
    assert session.state_data()["units"]["cav1"]["hex"] == "0202"
    assert "cav1" not in {i.id for slot in scene.side.panel().slots for i in slot.contents}


def test_a_waiting_piece_clicked_offers_its_ways_in() -> None:
    session = Session.new("dragon_rage/nurkott-1-humans", 1)
    session.apply({"type": "end_phase"})
    scene = GameScene(None, session, SIZE)
    click(scene, centre(scene, item="inf1"))
    assert scene.dialog is not None
    labels = list(scene.dialog.actions)
    assert labels and all("Enter the map to " in label for label in labels)


def test_tab_selects_only_pieces_that_can_act() -> None:
    session = Session.new("dragon_rage/nurkott-1-humans", 1)
    session.apply({"type": "end_phase"})                   # the invader moves; every invader is off the map
    scene = GameScene(None, session, SIZE)
    key(scene, pygame.K_TAB)
    assert scene.view.selected is None and "panel under the board" in scene.control.message
    drag(scene, centre(scene, item="cav1"), tuple(int(v) for v in scene.view.to_screen(
        scene.model.board.world_of("0202"))))
    key(scene, pygame.K_TAB)
    assert scene.view.selected == "cav1"                  # the one invader on the map, not a defender


def test_the_tactics_hand_is_its_owners_and_a_card_is_played_from_it() -> None:
    session = Session.new("asoiaf/game-of-thrones", 1)
    scene = GameScene(None, session, SIZE)
    active = session.active_player()
    assert scene.side.shown == f"hand:{active}"
    mine = scene.side.panel()
    assert mine.slots and all(not item.hidden for slot in mine.slots for item in slot.contents)
    other = next(p for p in scene.side.panels if p.id.startswith("hand:") and p.owner != active)
    assert other.slots and all(item.hidden for slot in other.slots for item in slot.contents)
    assert not any(slot.id in session.state_data()["hands"][other.owner] for slot in other.slots)
    card = next(slot.id for slot in mine.slots
                if any(a.get("card") == slot.id for a in scene.model.legal))
    click(scene, centre(scene, slot=card))
    assert scene.dialog is not None
    label, action = next((text, a) for text, a in scene.dialog.actions.items() if a is not None)  # past a heading
    assert "playing " in label and action["card"] == card
    scene._handle_dialog(pygame.event.Event(__import__("pygame_gui").UI_SELECTION_LIST_NEW_SELECTION,
                                            ui_element=scene.dialog.list, text=label))
    assert session.steps[-1].action.get("card") == card


DOCS = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "images"


@pytest.mark.parametrize("name, kind", [("saga-battle-board", "dice_board"), ("asoiaf-hand", "hand"),
                                        ("nurkott-invaders", "box"), ("vikings-speed", "chooser")])
def test_each_kind_of_side_panel_renders_headless(tmp_path, name: str, kind: str) -> None:
    """The pictures in docs/images are these renders (docs/client.md, "Headless pictures")."""
    from simulator.client.render import load_for_render, render

    script = DOCS / "scripts" / f"{name}.yaml"
    out = tmp_path / f"{name}.png"
    render(str(script), out, SIZE)
    from simulator.client.app import init_pygame

    init_pygame(SIZE)                                   # render closes pygame when it is done
    picture = pygame.image.load(str(out))
    assert picture.get_size() == SIZE
    session, _ = load_for_render(str(script), None)
    scene = GameScene(None, session, SIZE)
    if scene.handover is not None:                       # as render does: the chooser's own view
        scene.screen_holder = scene.handover.choice.player
        scene.refresh_panels()
    assert kind in {p.kind for p in scene.side.panels}
    panel = scene.side.rect
    colours = {picture.get_at((x, y))[:3] for x in range(panel.x, panel.right, 7) for y in range(panel.y, panel.bottom, 5)}
    assert len(colours) > 12, "the panel area is blank"
