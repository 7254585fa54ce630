"""10,000 random mouse and key events on each kind of board must raise nothing."""

import random

import pygame
import pytest

from tests.client.conftest import SIZE, make_scene, press_button

KEYS = [pygame.K_ESCAPE, pygame.K_F1, pygame.K_l, pygame.K_m, pygame.K_r, pygame.K_q, pygame.K_e, pygame.K_RETURN,
        pygame.K_h, pygame.K_g, pygame.K_f, pygame.K_TAB, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN,
        pygame.K_PLUS, pygame.K_MINUS, pygame.K_a]
CTRL_KEYS = [pygame.K_z, pygame.K_y, pygame.K_s, pygame.K_RETURN]


def _event(rng: random.Random, held: set[int]) -> pygame.event.Event:
    pos = (rng.randrange(-20, SIZE[0] + 20), rng.randrange(-20, SIZE[1] + 20))
    roll = rng.random()
    if roll < 0.45:
        return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(1 in held, 2 in held, 3 in held))
    if roll < 0.6:
        b = rng.choice([1, 1, 1, 2, 3])
        held.add(b)
        return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=b)
    if roll < 0.75:
        b = rng.choice(sorted(held) or [1])
        held.discard(b)
        return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=b)
    if roll < 0.82:
        return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice([-2, -1, 1, 2]), flipped=False)
    if roll < 0.86:
        return pygame.event.Event(pygame.KEYDOWN, key=rng.choice(CTRL_KEYS), mod=pygame.KMOD_CTRL, unicode="",
                                  scancode=0)
    return pygame.event.Event(pygame.KEYDOWN, key=rng.choice(KEYS), mod=0, unicode="", scancode=0)


@pytest.mark.parametrize("name", ["hex", "table"])
def test_monkey(name):
    rng = random.Random(1234)
    scene = make_scene(name, autosave=False)
    screen = pygame.display.get_surface()
    held: set[int] = set()
    buttons = [k for k in scene.panels.buttons if k not in ("save", "load")]
    for i in range(10_000):
        if i % 400 == 399:
            press_button(scene, scene.panels.buttons[rng.choice(buttons)])
        if rng.random() < 0.02:
            pygame.key.set_mods(pygame.KMOD_SHIFT if rng.random() < 0.5 else 0)
        scene.handle(_event(rng, held))
        if i % 200 == 0:
            scene.update(0.016)
            scene.draw(screen)
    pygame.key.set_mods(0)
    scene.draw(screen)
    assert len(scene.model.session.log) >= 0   # reached the end without an exception
