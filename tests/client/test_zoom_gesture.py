"""A zoom gesture scales the cached map instead of redrawing it, and the crisp map comes back
when the gesture stops (issue #24). Never asserts on time: on what is drawn and redrawn."""

import pygame
import pytest

from tests.client.conftest import SIZE, make_scene


def _diff(a: pygame.Surface, b: pygame.Surface, rect: pygame.Rect) -> float:
    """Mean absolute difference per channel (0..255) between two pictures inside ``rect``."""
    import numpy as np

    x = pygame.surfarray.pixels3d(a)[rect.x:rect.right, rect.y:rect.bottom].astype(int)
    y = pygame.surfarray.pixels3d(b)[rect.x:rect.right, rect.y:rect.bottom].astype(int)
    return float(np.abs(x - y).mean())


@pytest.mark.parametrize("name,factor", [("hex", 1.15), ("table", 1.15), ("ship", 1 / 1.15)])
def test_zoom_steps_scale_the_cached_map_and_the_crisp_one_follows(name, factor):
    scene = make_scene(name, autosave=False)
    view = scene.view
    screen = pygame.Surface(SIZE)
    view.draw(screen)
    before = screen.copy()
    renders, scale = view.cache.renders, view.camera.scale
    assert not view.needs_frame()
    centre = view.camera.viewport.center
    for _ in range(4):
        view.zoom_at(centre, factor)
        view.pan(5, -3)
        view.draw(screen)
    assert abs(view.camera.scale / scale - factor ** 4) < 1e-6
    # four zoom steps and pans: the map was not drawn again, it was scaled
    assert view.cache.renders == renders and view.zooming() and view.needs_frame()
    scaled = screen.copy()
    view.zoomed_at = -1e9                     # the gesture has stopped
    assert view.needs_frame()                 # the crisp map still owes a frame
    view.draw(screen)
    assert view.cache.renders == renders + 1 and not view.needs_frame()
    assert view.cache.drawn_at(view.camera.scale) and not view.sprites.scaled
    # the scaled picture is the crisp one up to resampling (same places, same colours): far
    # closer to it than the picture before the zoom
    vp = view.camera.viewport
    assert _diff(scaled, screen, vp) < _diff(before, screen, vp) / 3


def test_a_changed_board_during_a_gesture_is_drawn_crisp():
    """Only the scale may differ for the scaled map: a new surface (a moved piece that changes
    the map, a toggle) is drawn at once."""
    scene = make_scene("hex", autosave=False)
    view = scene.view
    screen = pygame.Surface(SIZE)
    view.draw(screen)
    renders = view.cache.renders
    view.zoom_at(view.camera.viewport.center, 1.15)
    view.labels = not view.labels
    view.draw(screen)
    assert view.cache.renders == renders + 1 and view.cache.drawn_at(view.camera.scale)


def test_zoom_settle_zero_redraws_at_every_step():
    """The benchmark's baseline: the map redrawn at each step, as before the scaled blit."""
    scene = make_scene("hex", autosave=False)
    view = scene.view
    view.zoom_settle = 0.0
    screen = pygame.Surface(SIZE)
    view.draw(screen)
    renders = view.cache.renders
    for _ in range(3):
        view.zoom_at(view.camera.viewport.center, 1.15)
        view.draw(screen)
    assert view.cache.renders == renders + 3


def test_a_zoom_step_scales_a_bounded_number_of_counter_faces(monkeypatch):
    """Past the per-frame budget a face keeps its nearest drawn size for that frame; the next
    frame scales more; the crisp faces come back when the gesture ends."""
    from simulator.client import piecedraw
    from simulator.core.view import PieceView

    sprites = piecedraw.PieceSprites()
    pieces = [PieceView(f"p{i}", "red", f"Unit {i}", "counter", "0101", (200, 40, 40), values=(str(i),))
              for i in range(20)]
    for p in pieces:
        sprites.counter(p, 40)
    scaled = []
    real = piecedraw.pygame.transform.scale
    monkeypatch.setattr(piecedraw.pygame.transform, "scale", lambda s, size: scaled.append(size) or real(s, size))
    sprites.set_quick(True)
    sprites.begin_frame()
    faces = [sprites.counter(p, 46) for p in pieces]
    assert len(scaled) == piecedraw.QUICK_SCALES_PER_FRAME
    assert sorted({f.get_width() for f in faces}) == [40, 46]
    sprites.begin_frame()
    faces = [sprites.counter(p, 46) for p in pieces]
    assert {f.get_width() for f in faces} == {46} and len(scaled) == 20
    sprites.set_quick(False)
    assert not sprites.scaled and sprites.counter(pieces[0], 46) is not faces[0]
