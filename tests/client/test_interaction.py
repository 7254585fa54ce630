"""Scripted pygame input drives the game scene; the checks are on the engine's state."""

import pygame

from tests.client.conftest import click, drag, key, make_scene, press_button, screen_of


def test_drag_moves_a_counter_to_the_hex_under_the_cursor():
    scene = make_scene("hex")
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1809"))
    assert scene.model.session.state["pieces"]["r1"]["at"] == "1809"
    assert scene.control.error is False
    assert [e.kind for e in scene.model.session.log][-2:] in (["dice", "move"], ["move", "dice"])


def test_refused_drag_snaps_back_and_shows_the_reason_and_rule():
    scene = make_scene("hex")
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "0314"))
    assert scene.model.session.state["pieces"]["r1"]["at"] == "1808"
    assert scene.control.error and "HX 2.1" in scene.control.message and "cannot reach" in scene.control.message
    assert scene.view.preview is None and scene.view.tools.move_range is None


def test_move_range_is_shown_while_dragging_and_cleared_after():
    scene = make_scene("hex")
    start, end = screen_of(scene, "1808"), screen_of(scene, "1809")
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
    assert "1809" in scene.view.tools.move_range.hexes
    scene.view.draw(pygame.display.get_surface())
    key(scene, pygame.K_ESCAPE)
    assert scene.view.tools.move_range is None
    assert scene.model.session.state["pieces"]["r1"]["at"] == "1808"


def test_rotate_with_keys_and_shift_wheel_then_confirm():
    scene = make_scene("hex")
    click(scene, screen_of(scene, "1808"))
    assert scene.view.selected == "r1"
    key(scene, pygame.K_e)
    key(scene, pygame.K_e)
    assert scene.model.session.state["pieces"]["r1"]["facing"] == 0   # a preview until confirmed
    key(scene, pygame.K_RETURN)
    assert scene.model.session.state["pieces"]["r1"]["facing"] == 2
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    try:
        scene.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    finally:
        pygame.key.set_mods(0)
    key(scene, pygame.K_RETURN)
    assert scene.model.session.state["pieces"]["r1"]["facing"] == 1


def test_line_of_sight_tool_reports_blockers_and_rule():
    scene = make_scene("hex")
    key(scene, pygame.K_l)
    click(scene, screen_of(scene, "1808"))
    click(scene, screen_of(scene, "1109"))
    los = scene.view.tools.los
    assert los is not None and not los.clear and los.rule == "HX 5.1"
    assert "HX 5.1" in scene.control.message
    scene.view.draw(pygame.display.get_surface())
    key(scene, pygame.K_ESCAPE)
    assert scene.view.tools.los is None and scene.control.mode == "select"


def test_measure_tool_counts_hexes():
    scene = make_scene("hex")
    key(scene, pygame.K_m)
    click(scene, screen_of(scene, "1808"))
    click(scene, screen_of(scene, "1811"))
    assert scene.view.tools.measure.value == 3


def test_undo_and_redo_keys():
    scene = make_scene("hex")
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1809"))
    key(scene, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.model.session.state["pieces"]["r1"]["at"] == "1808"
    key(scene, pygame.K_y, pygame.KMOD_CTRL)
    assert scene.model.session.state["pieces"]["r1"]["at"] == "1809"


def test_context_menu_lists_the_pieces_legal_actions_and_applies_one():
    import pygame_gui
    scene = make_scene("hex")
    click(scene, screen_of(scene, "1808"), button=3)
    menu = scene.dialog
    assert menu is not None and any("burn" in label for label in menu.actions)
    label = next(label for label in menu.actions if "burn" in label)
    scene.handle(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=menu.list, text=label))
    assert scene.model.session.state["burnt"] == ["1808"]
    assert scene.dialog is None


def test_clicking_a_log_entry_highlights_its_pieces():
    import pygame_gui
    scene = make_scene("hex")
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1809"))
    item = next(i["text"] for i in scene.panels.log.item_list if "moves" in i["text"])
    scene.handle(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=scene.panels.log,
                                    text=item))
    assert scene.view.tools.highlighted == {"r1"}


def test_end_phase_button_and_autosave(client_env):
    from simulator.client import paths
    scene = make_scene("hex")
    press_button(scene, scene.panels.buttons["end_phase"])
    assert scene.model.session.state["active"] == "blue"
    assert paths.autosave_path().exists()


def test_reaching_the_goal_shows_the_end_screen_and_undo_leaves_it():
    scene = make_scene("hex")
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1910"))
    assert scene.model.session.outcome() is not None
    assert scene.end is not None and scene.covered()
    scene.draw(pygame.display.get_surface())
    key(scene, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.end is None and scene.model.session.outcome() is None


def test_table_drag_is_free_and_a_too_long_move_is_refused():
    scene = make_scene("table")
    drag(scene, screen_of(scene, (20.0, 12.0)), screen_of(scene, (23.0, 13.0)))
    x, y = scene.model.session.state["pieces"]["levy"]["at"]
    assert abs(x - 23) < 0.2 and abs(y - 13) < 0.2
    drag(scene, screen_of(scene, (x, y)), screen_of(scene, (x + 10, y)))
    assert scene.model.session.state["pieces"]["levy"]["at"] == [x, y]
    assert "TB 2.1" in scene.control.message


def test_table_rotation_snaps_to_15_degrees():
    scene = make_scene("table")
    click(scene, screen_of(scene, (28.0, 5.0)))
    assert scene.view.selected == "spears"
    key(scene, pygame.K_e)
    key(scene, pygame.K_e)
    key(scene, pygame.K_q)
    click(scene, screen_of(scene, (40.0, 20.0)))      # a click elsewhere confirms the turn
    assert scene.model.session.state["pieces"]["spears"]["facing"] == 15


def choose(scene, label: str) -> None:
    """Click the option ``label`` of the secret choice under the board."""
    from simulator.client.gestures import SECRET

    assert scene.side.shown == SECRET, scene.side.shown
    slot = next(s.id for s in scene.side.panel().slots if s.label == label)
    click(scene, scene.side._slots[slot].center)


def test_secret_choice_hands_the_screen_over_then_keeps_the_board_in_view():
    scene = make_scene("ship")
    assert scene.handover is not None and scene.covered()           # nobody has the screen yet
    assert scene.handover.choice.player == "red"
    press_button(scene, scene.handover.buttons[0][0])              # "I am red: show the board"
    assert scene.handover is None and not scene.covered()           # the board, and the choice under it
    choose(scene, "speed 2")
    assert scene.model.session.state["speeds"]["red"] == 2
    assert scene.handover is not None and scene.handover.choice.player == "blue"   # another human: curtain
    press_button(scene, scene.handover.buttons[0][0])
    assert scene.handover is None
    choose(scene, "speed 1")
    assert scene.handover is None and not scene.covered()
    scene.draw(pygame.display.get_surface())


def test_ship_drag_sails_the_whole_footprint():
    scene = make_scene("ship")
    for _ in range(2):
        press_button(scene, scene.handover.buttons[0][0])
        choose(scene, "speed 3")
    drag(scene, screen_of(scene, "0506"), screen_of(scene, "0705"))
    assert scene.model.session.state["ships"]["raven"]["at"] == "0705", scene.control.message


def test_loading_a_broken_save_keeps_the_current_game(client_env):
    scene = make_scene("hex")
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1809"))
    bad = client_env / "bad.yaml"
    bad.write_text("format: simulator-save\nversion: 1\n")
    session = scene.model.session
    scene.load(bad)
    assert scene.model.session is session and session.state["pieces"]["r1"]["at"] == "1809"
    scene.load(client_env / "missing.yaml")
    assert scene.model.session is session


def test_save_then_load_restores_the_game(client_env):
    from simulator.client import paths
    scene = make_scene("hex")
    drag(scene, screen_of(scene, "1808"), screen_of(scene, "1809"))
    scene.save_as("mid game")
    path = paths.saves_dir() / "mid game.yaml"
    assert path.exists()
    other = make_scene("hex")
    other.load(path)
    assert other.model.session.state["pieces"]["r1"]["at"] == "1809"


def test_help_overlay_toggles_with_f1():
    scene = make_scene("hex")
    key(scene, pygame.K_F1)
    assert scene.show_help
    scene.draw(pygame.display.get_surface())
    key(scene, pygame.K_ESCAPE)
    assert not scene.show_help


def test_camera_zoom_pan_and_fit():
    scene = make_scene("hex")
    cam = scene.view.camera
    before = cam.scale
    scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(400, 400), rel=(0, 0), buttons=(0, 0, 0)))
    world = scene.view.to_world((400, 400))
    scene.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False))
    assert cam.scale > before
    after = scene.view.to_world((400, 400))
    assert abs(after[0] - world[0]) < 1e-6 and abs(after[1] - world[1]) < 1e-6
    ox = cam.ox
    drag(scene, (500, 500), (600, 500), button=3)
    assert cam.ox < ox
    key(scene, pygame.K_f)
    assert abs(cam.scale - before) < 1e-6


def test_a_secret_choice_with_one_option_makes_itself(monkeypatch):
    from tests.client import games

    def only_speed_one(self, state):
        who = next((p for p in state["players"] if state["speeds"][p] is None), None)
        return None if who is None else games.SecretChoice(
            who, "choose your speed", [("speed 1", {"type": "set_speed", "player": who, "speed": 1})])

    monkeypatch.setattr(games.ShipRace, "secret_choice", only_speed_one, raising=False)
    monkeypatch.setattr(type(games.ShipRace().presentation()), "secret_choice", only_speed_one)
    scene = make_scene("ship")
    state = scene.model.session.state
    assert state["speeds"] == {"red": 1, "blue": 1}              # both made at once, no screen
    assert scene.handover is None and "the only choice" in scene.control.message
