"""Menus in the players' words: the right-click menu's layout (inside the window, as wide as its
longest label up to the window, cut with an ellipsis beyond, scrolling when long, grouped by
kind under headings), and every menu, panel and choice label of every game free of engine
syntax over a few seeded states."""

from __future__ import annotations

import random
import re

import pygame
import pygame_gui
import pytest

from simulator.client import gestures
from simulator.client.dialogs import MENU_ROWS, ContextMenu, grouped, menu_rect
from simulator.client.panels import new_manager
from simulator.core.session import Session
from simulator.core.view import describe_action
from tests.client.conftest import SIZE

#: Engine syntax a player would not write: parameters (``unit=``), Python dicts, lists and
#: strings, JSON, and Python's words for nothing and truth.
ENGINE = re.compile(r"=|\{|\}|\[|\]|FrozenDict|\bNone\b|\bTrue\b|\bFalse\b|'\w+':")


def _menu(actions, pos=(10, 10), size=SIZE) -> ContextMenu:
    return ContextMenu(new_manager(size), size, pos, actions)


def _inside(rect: pygame.Rect, size=SIZE) -> bool:
    return pygame.Rect(0, 0, *size).contains(rect)


def test_the_menu_is_as_wide_as_its_longest_label_and_stays_inside_the_window() -> None:
    short = _menu([("Walk 1 hex to 0202", {"type": "walk", "path": ["0202"]})])
    longer = _menu([("Walk 1 hex to 0202 " + "and further " * 6, {"type": "walk", "path": ["0202"]})])
    assert longer.rect.w > short.rect.w
    for pos in [(0, 0), (SIZE[0] - 5, SIZE[1] - 5), (SIZE[0] - 40, 10), (10, SIZE[1] - 3)]:
        m = _menu([(f"Entry {i} " + "x" * (i * 7), {"type": "t", "i": i}) for i in range(12)], pos)
        assert _inside(m.rect), (pos, m.rect)


def test_a_label_wider_than_the_window_ends_in_an_ellipsis_and_fits() -> None:
    size = (640, 480)
    label = "Charge Lannister Guardsmen (L2) with Short Sword, playing " + "A Very Long Tactics Card " * 8
    m = _menu([(label, {"type": "charge"}), ("Hold", {"type": "hold"})], (600, 100), size)
    assert _inside(m.rect, size) and m.rect.w <= size[0]
    shown = next(text for text, a in m.actions.items() if a == {"type": "charge"})
    assert shown.endswith("\u2026") and m.full[shown] == f"1. {label}"
    font = new_manager(size).get_theme().get_font(["selection_list", "#item_list_item"])
    assert font.size(shown)[0] <= m.rect.w - 24


def test_a_long_menu_scrolls_inside_the_window() -> None:
    actions = [(f"Walk {i} hexes to {i:04d}", {"type": "walk", "i": i}) for i in range(80)]
    m = _menu(actions, (400, 700))
    assert _inside(m.rect) and m.rect.h <= MENU_ROWS * 20 + 8
    assert m.list.scroll_bar is not None                # the rest is reached by scrolling
    assert len([a for a in m.actions.values() if a is not None]) == 80
    assert menu_rect((0, 0), (200, 100), 1000, 50, 20).size == (192, 92)   # a tiny window still holds it


def test_entries_are_grouped_by_kind_under_headings_numbered_in_order() -> None:
    acts = [("Walk to 0101", {"type": "walk", "n": 1}), ("Breathe fire north", {"type": "breathe"}),
            ("Walk to 0102", {"type": "walk", "n": 2}), ("Fly 2 hexes to 0303", {"type": "fly"})]
    rows = grouped(acts)
    assert [t for t, a in rows] == ["\u2014 Walk", "1. Walk to 0101", "2. Walk to 0102", "\u2014 Breathe",
                                    "3. Breathe fire north", "\u2014 Fly", "4. Fly 2 hexes to 0303"]
    assert [t for t, _ in grouped(acts[:1])] == ["1. Walk to 0101"]        # one kind: no heading
    m = _menu(acts)
    heading = pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=m.list, text="\u2014 Walk")
    assert m.chosen(heading) is None
    entry = pygame.event.Event(pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=m.list,
                               text="3. Breathe fire north")
    assert m.chosen(entry) == {"type": "breathe"}


def test_engine_syntax_takes_the_spec_label_and_a_presentations_own_words_stay() -> None:
    walk = {"type": "walk", "unit": "dragon1", "path": ["0801", "0802"]}
    wild = {"type": "move", "unit": "elemental", "to": "0303"}
    said = gestures.worded([(describe_action(walk), walk), ("The elemental runs wild to 0303", wild)],
                           lambda a: "Walk 2 hexes to 0802" if a is walk else "x")
    assert said == [("Walk 2 hexes to 0802", walk), ("The elemental runs wild to 0303", wild)]
    a, b = {"type": "cast", "spell": "fog", "radius": 1}, {"type": "cast", "spell": "fog", "radius": 2}
    alike = gestures.worded([(describe_action(a), a), (describe_action(b), b)], lambda _: "Cast fog")
    assert [t for t, _ in alike] == ["Cast fog (radius 1)", "Cast fog (radius 2)"]   # told apart


def test_dragon_rage_menus_read_as_a_player_writes() -> None:
    s = Session.new("dragon_rage/esirien-1-fury", 1)
    s.apply({"type": "end_phase"})                              # to the invader's movement
    state, legal = s.view(s.active_player()), s.legal_actions()
    menu = gestures.piece_menu(s.game.presentation(), state, legal, "dragon1",
                               gestures.labeller(s.game.action_specs(), state))
    labels = [t for t, _ in menu]
    assert any(re.fullmatch(r"Walk \d hexes? to \d{4}", t) for t in labels)
    assert any(re.fullmatch(r"Bound \d hexes? to \d{4}", t) for t in labels), labels[:5]
    assert not [t for t in labels if ENGINE.search(t)]


SAMPLES = {"dragon_rage": ("dragon_rage/esirien-1-fury", "dragon_rage/nurkott-3-dragons"),
           "vikings": ("vikings/sea_fight",),
           "saga": ("saga/quickstart",),
           "asoiaf": ("asoiaf/game-of-thrones",)}


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_no_menu_or_panel_label_shows_engine_syntax(game: str) -> None:
    """Every gesture's label (menus, panels, choices, the to-do list) over seeded play."""
    bad: dict[str, str] = {}
    for sid in SAMPLES[game]:
        s = Session.new(sid, 2)
        rng = random.Random(sid)
        for _ in range(14):
            if s.outcome() is not None or not s.legal_actions():
                break
            p, state = s.game.presentation(), s.view(s.active_player())
            label = gestures.labeller(s.game.action_specs(), state)
            for g in gestures.gestures(p, state, s.legal_actions(), p.secret_choice(state), drags=False,
                                       label=label):
                if g.kind != "drop" and ENGINE.search(g.label):
                    bad.setdefault(str(g.action.get("type")), g.label)
            s.apply(rng.choice(s.legal_actions()))
    assert not bad, bad


def test_a_presentations_own_wording_builds_on_the_spec_label() -> None:
    """Dragon Rage's melee where a boosted unit takes Boost's +1 instead of the hero's doubling."""
    s = Session.new("dragon_rage/esirien-1-fury", 1)
    action = {"type": "melee", "units": ["hero1", "inf1"], "target": "1610", "boost_instead": ["inf1"]}
    text = s.game.presentation()._label(s.state, "hero1", describe_action(action), action)
    assert text.startswith("hero1, inf1 melee against 1610 (inf1: Boost +1") and not ENGINE.search(text)
