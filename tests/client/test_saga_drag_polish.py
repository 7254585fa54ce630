"""The client with the real SAGA game: the path preview drawn while a figure is dragged round an
obstacle (``Presentation.drag_path``), and the terrain piece being placed turned with the rotate
keys, then dragged into place (``turn_waiting``, ``place_terrain``)."""

from __future__ import annotations

import pygame

from simulator.client.game_scene import GameScene
from simulator.client.piecedraw import hit_test
from tests.client.conftest import SIZE, click, key, screen_of


def _press_and_move(scene: GameScene, start: tuple[int, int], points: list[tuple[int, int]]) -> None:
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for p in points:
        scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))


def test_a_bending_drag_shows_its_path_and_the_path_is_asked_only_after_a_few_pixels() -> None:
    from tests.saga.test_bending import _behind_the_pond

    s = _behind_the_pond()
    scene = GameScene(None, s, SIZE)
    fid = s.state["units"]["lord"]["figures"][0]
    height = s.state["table"]["height"]
    calls: list[object] = []
    pres = scene.model.presentation
    original = pres.drag_path
    pres.drag_path = lambda *a: calls.append(a) or original(*a)   # type: ignore[method-assign]
    start = screen_of(scene, (24.0, height - 5.0))
    end = screen_of(scene, (25.0, height - 9.4))
    _press_and_move(scene, start, [(start[0], start[1] - 10), end, (end[0] + 1, end[1])])
    assert len(calls) == 2                   # the last move was under PATH_STEP pixels: not asked again
    path = scene.view.preview.path
    assert path is not None and len(path) == 4 and path[-1][1] < path[0][1]   # round the pond's corners
    surface = pygame.display.get_surface()
    scene.view.draw(surface)                 # the polyline is drawn with the preview
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    assert scene.view.preview is None
    f = s.state["figures"][fid]
    assert abs(f["x"] - 25.0) < 0.1 and abs(f["y"] - 9.4) < 0.1


def test_straight_drag_has_no_path() -> None:
    from tests.saga.test_bending import _behind_the_pond

    s = _behind_the_pond()
    scene = GameScene(None, s, SIZE)
    height = s.state["table"]["height"]
    start = screen_of(scene, (24.0, height - 5.0))
    _press_and_move(scene, start, [screen_of(scene, (21.0, height - 5.0))])
    assert scene.view.preview is not None and scene.view.preview.path is None


def test_the_terrain_piece_being_placed_is_turned_by_keys_then_dragged() -> None:
    from tests.saga.test_turn_waiting_terrain import _at_wood

    s = _at_wood()
    scene = GameScene(None, s, SIZE)
    wood = scene.model.by_id["wood"]
    assert hit_test(scene.view.board, wood, wood.at)
    click(scene, screen_of(scene, wood.at))
    assert scene.view.selected == "wood"
    key(scene, pygame.K_e)                   # 15 degrees clockwise on the screen
    scene.view.draw(pygame.display.get_surface())
    key(scene, pygame.K_RETURN)
    assert s.state["set_up"]["facings"]["pieces"]["wood"] == 345.0, scene.control.message
    assert scene.model.by_id["wood"].facing == 15.0
    target = (24.0, s.state["table"]["height"] - 18.0)
    start = screen_of(scene, scene.model.by_id["wood"].at)
    _press_and_move(scene, start, [screen_of(scene, target)])
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=screen_of(scene, target), button=1))
    assert [t["id"] for t in s.state["terrain"]] == ["wood"], scene.control.message
    placed = s.state["terrain"][0]["polygon"]
    cx = sum(p[0] for p in placed) / len(placed)
    cy = sum(p[1] for p in placed) / len(placed)
    assert abs(cx - 24.0) < 0.1 and abs(cy - 18.0) < 0.1
