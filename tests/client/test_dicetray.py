"""The dice tray draws rolls as dice faces, grouped by roll with their purpose and rule; lots
(shuffles, random draws) are words, not dice; art comes from assets/ through one module."""

from __future__ import annotations

import pygame

from simulator.client import art, dicetray, fonts
from simulator.client.dicetray import draw_tray, rolls
from simulator.core.dice import Dice
from simulator.core.events import Event


def _dice(die: str, results: list[object], purpose: str, forced: bool = False) -> list[Event]:
    return [Event("dice", f"{die} for {purpose}: {r}", "", {"die": die, "result": r, "purpose": purpose,
                                                            "forced": forced}) for r in results]


def test_rolls_are_grouped_by_die_and_purpose_and_take_the_rule_of_their_outcome() -> None:
    log = (_dice("d6", [6, 1, 3], "melee attack") + [Event("combat", "two hits", "VK 6.2")]
           + _dice("d10", [7], "fire") + _dice("d6", [2], "morale") + [Event("rout", "routs", "VK 7.1")])
    got = [(r.die, r.faces, r.purpose, r.rule) for r in rolls(log)]
    assert got == [("d6", (6, 1, 3), "melee attack", "VK 6.2"), ("d10", (7,), "fire", ""),
                   ("d6", (2,), "morale", "VK 7.1")]


def test_a_shuffle_is_one_lot_not_dice() -> None:
    dice = Dice(seed=3)
    dice.begin_action(0)
    events: list[Event] = []
    dice.on_roll = lambda roll: events.append(Event("dice", "", "", roll.as_dict()))
    dice.shuffle(list("abcdefgh"), "the Tactics deck")
    (roll,) = rolls(events)
    assert roll.lot and len(roll.faces) == 8


def test_the_tray_draws_a_face_per_die_newest_roll_first() -> None:
    empty = draw_tray((340, 200), [])
    log = _dice("d6", [6, 6, 6], "attack") + [Event("combat", "hits", "DR 2.4")]
    tray = draw_tray((340, 200), log)
    assert pygame.image.tobytes(tray, "RGB") != pygame.image.tobytes(empty, "RGB")
    expected = pygame.Surface((26, 26))
    expected.fill(tray.get_at((1, 1)))
    expected.blit(art.die_face("d6", 6, 26), (0, 0))
    # the first die sits below the purpose line, at the tray's left margin
    window = tray.subsurface(pygame.Rect(6, 4 + fonts.font(dicetray.TEXT).get_linesize() + 2, 26, 26))
    assert pygame.image.tobytes(window, "RGB") == pygame.image.tobytes(expected, "RGB")


def test_every_die_face_the_games_roll_has_art() -> None:
    faces = [("d6", f) for f in range(1, 7)] + [("d10", f) for f in range(1, 11)] + [("d3", 2), ("d8", 5), ("d12", 11),
                                                                                    ("d20", 20)]
    faces += [(f"saga-{faction}", face) for faction in ("vikings", "anglo_danes", "normans", "welsh") for face in "CUR"]
    before = art.problems()
    for die, face in faces:
        surf = art.die_face(die, face, 24)
        assert surf.get_size() == (24, 24)
    assert art.problems() == before


def test_missing_or_damaged_art_is_one_line_naming_the_file(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(art, "ASSETS", tmp_path)
    monkeypatch.setattr(art, "_PICTURES", {})
    monkeypatch.setattr(art, "_REPORTED", [])
    assert art.die_face("d10", 7, 24).get_size() == (24, 24)      # drawn plain, not a crash
    (tmp_path / "dice").mkdir()
    (tmp_path / "dice" / "d12.svg").write_text("<svg this is not", encoding="utf-8")
    assert art.die_face("d12", 3, 24).get_size() == (24, 24)
    art.die_face("d10", 7, 24)                                    # reported once only
    lines = art.problems()
    assert len(lines) == 2
    assert str(tmp_path / "dice" / "d10.svg") in lines[0] and "missing" in lines[0]
    assert str(tmp_path / "dice" / "d12.svg") in lines[1] and "damaged" in lines[1]
    assert capsys.readouterr().err.count("\n") == 2


def test_the_panel_and_tray_examples_run() -> None:
    import doctest

    from simulator.client import dicetray, panels

    for module in (dicetray, panels):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__


def test_the_unit_panel_shows_words_not_python_values() -> None:
    from simulator.client.panels import stat_rows

    rows = dict(stat_rows({"name": "Guardsmen", "mounted": False, "leaks": {}, "conditions": [],
                           "wounds_left": 12, "abilities": [{"name": "Precision", "automated": True, "rule": "7.4"},
                                                            {"name": "Disrupt", "automated": False, "rule": ""}]}))
    assert rows == {"Mounted": ["no"], "Leaks": ["none"], "Conditions": ["none"], "Wounds left": ["12"],
                    "Abilities": ["Precision (applied, 7.4)", "Disrupt (not applied)"]}
    shown = " ".join(line for lines in rows.values() for line in lines)
    assert not any(word in shown for word in ("False", "True", "{}", "[]", "{'"))


def test_the_banner_is_never_cut_off_or_under_the_buttons() -> None:
    from simulator.client import fonts
    from simulator.client.panels import banner_layout

    long = ("A Game of Thrones - round 3 of 6 - stark: activation - stark 0 VP, lannister 0 VP (need 8) "
            "(to play: stark)")
    for width in (540, 860, 1500):                   # the banner's room at 1280, 1600 and 1920 wide
        size, lines = banner_layout(long, width, 38)
        assert all(fonts.font(size).size(line)[0] <= width for line in lines)
        assert len(lines) * fonts.font(size).get_linesize() <= 38
        assert " ".join(lines).split() == long.split()           # nothing lost
    size, lines = banner_layout("Turn 2 - Invader: movement", 540, 38)
    assert lines == ["Turn 2 - Invader: movement"] and size >= 22
    size, lines = banner_layout(long * 4, 540, 38)                    # past any size: shortened, marked
    assert lines[-1].endswith("...") and all(fonts.font(size).size(line)[0] <= 540 for line in lines)
