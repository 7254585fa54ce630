"""What the board draws: ships over their footprint hexes with the bow at their facing,
counters readable at every zoom, each hexside feature style drawn its own way,
hexside overrides, and the picker's list of demonstrations."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame
import pytest

from simulator.client import fonts
from simulator.client.board import make_board
from simulator.client.mapdraw import _draw_feature, draw_hex_map, hexside_features
from simulator.client.piecedraw import (DECK, MIN_FONT, PieceSprites, _counter_face, draw_piece, main_value,
                                        ship_shape, value_lines)
from simulator.core.session import Session
from simulator.core.view import FeatureStyle, HexSurface, PieceView
from tests.client.conftest import SIZE
from tests.client.games import scenario_path

SEA = (10, 20, 200)
DATA = Path(__file__).resolve().parent / "data"


def _ship_board():
    session = Session.new(str(scenario_path("ship")), 1)
    pres = session.game.presentation()
    state = session.state_data()
    board = make_board(pres.surface(state))
    ship = next(p for p in pres.pieces(state) if p.shape == "ship")
    return board, ship


def _draw_alone(board, piece, scale=40.0):
    x0, y0, x1, y1 = board.bounds
    target = pygame.Surface((int((x1 - x0) * scale), int((y1 - y0) * scale)))
    target.fill(SEA)

    def to_screen(p):
        return ((p[0] - x0) * scale, (p[1] - y0) * scale)

    draw_piece(target, board, piece, to_screen, scale, PieceSprites())
    return target, to_screen


def _is_wood(c) -> bool:
    r, g, b = c[:3]
    return r > g > b and r > 90 and abs(r - DECK[0]) < 80


@pytest.mark.parametrize("facing", [0, 1, 3])
def test_the_ship_hull_covers_its_footprint_hexes_with_a_deck(facing):
    board, ship = _ship_board()
    ship = replace(ship, facing=facing, colour=(150, 40, 40), hexes=("0503", "0603", "0703", "0602"))
    target, to_screen = _draw_alone(board, ship)
    for label in ship.hexes:
        x, y = to_screen(board.world_of(label))
        for dx, dy in ((0, 0), (8, 5), (-8, -5)):
            assert _is_wood(target.get_at((int(x + dx), int(y + dy)))), (label, dx, dy)
    # far away from the footprint the sea is untouched
    far = to_screen(board.world_of("0110"))
    assert tuple(target.get_at((int(far[0]), int(far[1]))))[:3] == SEA


def test_the_bow_is_marked_towards_the_facing_and_not_behind():
    board, ship = _ship_board()
    ship = replace(ship, facing=1, hexes=("0503", "0603", "0703"))
    shape = ship_shape(board, ship)
    tip = shape.prow[1]
    ux, uy = shape.forward
    # the prow points along the facing, beyond the bow hex
    assert (tip[0] - shape.centre[0]) * ux + (tip[1] - shape.centre[1]) * uy > 1.5
    target, to_screen = _draw_alone(board, ship)
    ahead = to_screen((shape.bow[0] + ux * 1.2, shape.bow[1] + uy * 1.2))
    stern = min((board.world_of(h) for h in ship.hexes),
                key=lambda p: (p[0] - shape.centre[0]) * ux + (p[1] - shape.centre[1]) * uy)
    behind = to_screen((stern[0] - ux * 1.2, stern[1] - uy * 1.2))
    assert tuple(target.get_at((int(ahead[0]), int(ahead[1]))))[:3] != SEA
    assert tuple(target.get_at((int(behind[0]), int(behind[1]))))[:3] == SEA


def test_the_outline_is_the_union_of_the_hexes_not_each_hex():
    board, ship = _ship_board()
    shape = ship_shape(board, replace(ship, hexes=("0503", "0603", "0703")))
    # three hexes in a row: 18 edges, 2 shared (each counted from both sides)
    assert len(shape.outline) == 14 and len(shape.inner) == 2


def test_counter_values_wrap_onto_two_lines_and_never_print_below_the_minimum():
    lines, size = value_lines(("2", "6", "INF 2/3"), 40, 20)
    assert lines == ["2-6", "INF 2/3"] and size >= MIN_FONT
    lines, size = value_lines(("8", "(5)", "6"), 80, 20)
    assert lines == ["8-(5)-6"]
    piece = PieceView("a", "x", "Infantry", "counter", "0101", (230, 140, 40), label="INF", values=("2", "6", "INF 2/3"))
    assert main_value(piece, 30, MIN_FONT) == "2-6"
    # the label strip along the top of a small counter is text-coloured (readable on a stack)
    face = _counter_face(replace(piece, text_colour=(255, 255, 255)), 36)
    top = [face.get_at((x, y)) for x in range(36) for y in range(2, 12)]
    assert any(c[0] > 240 and c[1] > 240 and c[2] > 240 for c in top)


def test_counter_faces_show_more_as_they_grow():
    piece = PieceView("a", "x", "Infantry", "counter", "0101", (40, 90, 40), label="INF", values=("2", "6", "INF 2/3"))

    def inked(face):
        return sum(1 for x in range(face.get_width()) for y in range(face.get_height())
                   if face.get_at((x, y))[:3] == (255, 255, 255))

    small, large = _counter_face(piece, 30), _counter_face(piece, 90)
    assert inked(small) > 0 and inked(large) > inked(small) * 3


STYLES = ("wall", "gate", "door", "bank", "bridge", "road", "line", "dashed", "window")


def test_every_feature_style_is_drawn_and_drawn_differently():
    pictures = {}
    for style in STYLES:
        surf = pygame.Surface((80, 60))
        surf.fill((200, 200, 150))
        _draw_feature(surf, FeatureStyle(style, style, (180, 40, 40), 0.16, style),
                      np.array([10.0, 30.0]), np.array([70.0, 30.0]), 40.0)
        data = pygame.image.tobytes(surf, "RGB")
        assert len(set(data)) > 2, style
        pictures[style] = data
    assert len(set(pictures.values())) == len(STYLES)


def _hex_surface():
    session = Session.new(str(scenario_path("hex")), 1)
    pres = session.game.presentation()
    return pres.surface(session.state_data())


def _hexside_pixel(surface, pair, scale=40.0):
    board = make_board(surface)
    x0, y0, x1, y1 = board.bounds
    image = pygame.Surface((int((x1 - x0) * scale), int((y1 - y0) * scale)))
    origin = (-x0 * scale, -y0 * scale)
    draw_hex_map(image, board, scale, origin, False)
    a, b = (board.world_of(h) for h in pair)
    mid = ((a[0] + b[0]) / 2 * scale + origin[0], (a[1] + b[1]) / 2 * scale + origin[1])
    return {tuple(image.get_at((int(mid[0]) + dx, int(mid[1]) + dy)))[:3] for dx in range(-6, 7) for dy in range(-6, 7)}


def test_hexside_overrides_replace_the_drawn_feature():
    surface = _hex_surface()
    assert "hexside_overrides" in HexSurface.__dataclass_fields__
    wall = next(tuple(s["between"]) for s in surface.hexmap.hexsides if s["feature"] == "wall")
    gate_colour = (20, 200, 60)
    styles = {**surface.feature_styles, "broken": FeatureStyle("broken", "Broken gate", gate_colour, 0.16, "gate")}
    plain = _hexside_pixel(surface, wall)
    broken = replace(surface, feature_styles=styles, hexside_overrides={(wall[1], wall[0]): "broken"})
    assert hexside_features(broken)[wall] == "broken"
    assert gate_colour in _hexside_pixel(broken, wall) and gate_colour not in plain
    gone = replace(surface, hexside_overrides={wall: ""})
    assert wall not in hexside_features(gone)
    wall_colour = surface.feature_styles["wall"].colour
    assert wall_colour in plain and wall_colour not in _hexside_pixel(gone, wall)


def test_the_picker_lists_the_demonstrations_by_game_and_opens_one():
    import pygame_gui

    from simulator.client.picker import PickerScene
    from tests.client.conftest import press_button

    opened = []

    class Host:
        def start(self, scenario, solo=None): ...

        def resume(self, path, solo=None): ...

        def quit(self): ...

        def open_demo(self, demo, step=0):
            opened.append(demo)

    demos = [("client_hex/first-moves", DATA / "demos" / "client_hex" / "first-moves.yaml"),
             ("client_hex/broken", DATA / "bad_demos" / "bad-yaml.yaml")]
    picker = PickerScene(Host(), SIZE, scenarios=[("client_hex/hex", scenario_path("hex"))], demos=demos)
    assert not picker.demo_list.visible and picker.list.visible
    press_button(picker, picker.tab_buttons["demos"])
    assert picker.tab == "demos" and picker.demo_list.visible and not picker.list.visible
    assert not picker.mode_buttons["solo"].visible
    names = picker.demo_names()
    good = next(n for n in names if not n.startswith("(broken)"))
    assert good.startswith("Client test: hex skirmish: ") and any(n.startswith("(broken)") for n in names)
    entry = picker.demos[good]
    assert entry.title and entry.steps > 0
    picker.handle(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=picker.demo_list,
                                     text=good))
    assert entry.title in picker.about.html_text
    picker.draw(pygame.display.get_surface())
    press_button(picker, picker.start_button)
    assert [d.id for d in opened] == ["first-moves"] or opened[0].title == entry.title
    broken = next(n for n in names if n.startswith("(broken)"))
    picker.handle(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=picker.demo_list,
                                     text=broken))
    assert not picker.start_button.is_enabled
    press_button(picker, picker.tab_buttons["scenarios"])
    assert picker.list.visible and not picker.demo_list.visible


def test_fonts_are_reset_between_tests():
    assert fonts.font(MIN_FONT).get_height() >= 8


def test_counter_values_one_function_decides_size_and_lines():
    """A small counter whose values do not fit at the normal size but do at a smaller one
    prints them all (not only the first), and every layout fits its width."""
    from simulator.client import fonts
    from simulator.client.piecedraw import counter_values

    values = ("2", "2", "(3)")
    joined = "-".join(values)
    start = 30
    width = fonts.font(MIN_FONT + 3, True).size(joined)[0] + 1      # fits at a shrunk size only
    assert fonts.font(start, True).size(joined)[0] > width
    lines, size = counter_values(values, width, start, max_lines=1)
    assert lines == [joined] and MIN_FONT <= size < start
    piece = PieceView("a", "x", "Infantry", "counter", "0101", (230, 140, 40), label="INF", values=values)
    assert main_value(piece, width, start) == joined
    # too narrow for all of them even at the minimum: the longest leading run that fits
    narrow = fonts.font(MIN_FONT, True).size("2-2")[0] + 1
    assert counter_values(values, narrow, start, max_lines=1)[0] == ["2-2"]
    for vals in (("2", "6", "INF 2/3"), ("8", "(5)", "6"), ("4MP",), ("1-3(4)",), ("3", "2", "(4)", "F")):
        for w in range(24, 120, 7):
            for n in (1, 2):
                lines, size = counter_values(vals, w, w * 0.5, max_lines=n)
                assert size >= MIN_FONT and 1 <= len(lines) <= n
                f = fonts.font(size, True)
                if not all(f.size(line)[0] <= w for line in lines):   # only when nothing fits
                    assert size == MIN_FONT and f.size("-".join(vals))[0] > w, (vals, w, n, lines)


def test_a_piece_without_facing_has_no_notch_and_cannot_be_turned(tmp_path):
    import yaml

    from tests.client.conftest import click, key, screen_of

    board = make_board(_hex_surface())
    piece = PieceView("t", "x", "Troop", "counter", "1808", (230, 140, 40), label="INF", values=("2", "5"))

    def pixels(p):
        target, _ = _draw_alone(board, p)
        return pygame.image.tobytes(target, "RGB")

    with_notch = pixels(piece)
    assert pixels(replace(piece, facing=3)) != with_notch                   # the notch moves
    plain = pixels(replace(piece, has_facing=False))
    assert plain != with_notch
    assert pixels(replace(piece, has_facing=False, facing=3)) == plain     # facing is ignored
    # a counter without facing cannot be turned: the controller says so, nothing is proposed
    data = yaml.safe_load(scenario_path("hex").read_text())
    data["setup"]["pieces"][0]["has_facing"] = False
    path = tmp_path / "nofacing.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    from simulator.client.game_scene import GameScene
    from simulator.core.session import Session

    scene = GameScene(None, Session.new(str(path), 1), SIZE)
    assert scene.model.by_id["r1"].has_facing is False
    click(scene, screen_of(scene, "1808"))
    key(scene, pygame.K_e)
    assert scene.control.rotation is None and "no facing" in scene.control.message
    key(scene, pygame.K_RETURN)
    assert not scene.model.session.steps


def test_a_table_move_range_is_clipped_to_the_table():
    from simulator.client.overlays import RANGE
    from simulator.core.view import MoveRange
    from tests.client.conftest import make_scene

    scene = make_scene("table", autosave=False)
    screen = pygame.display.get_surface()
    scene.view.tools.move_range = MoveRange(centre=(1.0, 1.0), radius=6.0)
    scene.draw(screen)
    inside = scene.view.to_screen((2.0, 2.0))
    outside = scene.view.to_screen((-1.2, -1.2))            # within the reach, beyond the edge
    near = [screen.get_at((int(inside[0]) + dx, int(inside[1]) + dy))[:3] for dx in range(-2, 3) for dy in range(-2, 3)]
    assert any(c[1] > c[0] + 40 for c in near)                # the green reach on the table
    c = screen.get_at((int(outside[0]), int(outside[1])))[:3]
    assert c != RANGE and not c[1] > c[0] + 40, c


def test_the_los_tool_draws_the_games_own_sight_line_when_it_gives_one():
    """ASOIAF finds the line from any point of a front edge: the board draws that line, not
    only the one between the tool's two ends (hex games give labels: the ends are drawn)."""
    from simulator.client.overlays import _sight_line
    from simulator.core.view import LineOfSight

    assert _sight_line(LineOfSight(True, "clear", points=((1.0, 2.0), (3.5, 4.0)))) == ((1.0, 2.0), (3.5, 4.0))
    assert _sight_line(LineOfSight(True, "clear", points=("0101", "0305"))) is None
    assert _sight_line(LineOfSight(False, "blocked")) is None
    session = Session.new("asoiaf/game-of-thrones", 1)
    los = session.game.presentation().line_of_sight(session.state, "S4", "L4")
    assert los is not None and los.clear and _sight_line(los) is not None
