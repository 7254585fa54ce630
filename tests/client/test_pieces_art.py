"""Pieces a player recognises: type icons, names beside pieces, status markers and faction
liveries from the data (issue 23 items 1 and 2)."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from simulator.client import art, piecedraw
from simulator.client.board import HexBoard
from simulator.core.registry import get_game
from simulator.core.scenario import load_scenario
from simulator.core.session import Session
from simulator.core.view import PieceView

ASSETS = Path(art.ASSETS)


def _make_art():
    spec = importlib.util.spec_from_file_location("make_art", ASSETS / "make_art.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_icon_and_marker_make_art_draws_is_in_assets_and_loads():
    made = _make_art()
    names = [f"icons/{n}.svg" for n in made.ICONS] + [f"markers/{n}.svg" for n in made.MARKERS]
    assert set(names) == set(art.names("icons")) | set(art.names("markers"))
    before = art.problems()
    for name in names:
        assert art.picture(name, (40, 40)) is not None, name
    assert art.problems() == before


def test_an_icon_is_tinted_with_the_colour_asked():
    red = art.icon("icons/sword.svg", 32, (200, 0, 0))
    opaque = [red.get_at((x, y)) for x in range(32) for y in range(32) if red.get_at((x, y)).a > 200]
    assert all(c.g < 20 and c.b < 20 for c in opaque) and sum(c.r > 150 for c in opaque) > 100


def test_missing_art_is_one_line_naming_it_and_the_piece_is_still_drawn():
    assert art.icon("icons/no-such-icon.svg", 30, (255, 255, 255)) is None
    lines = [line for line in art.problems() if "no-such-icon.svg" in line]
    assert len(lines) == 1 and "missing" in lines[0]
    piece = PieceView("p", "a", "Jarl", "counter", "0101", (150, 40, 40), label="Jl", values=("9", "6", "6"),
                      icon="icons/no-such-icon.svg")
    face = piecedraw._counter_face(piece, 60)
    plain = piecedraw._counter_face(replace(piece, icon=""), 60)
    # the text face is drawn instead: the same as a counter without an icon
    assert pygame.image.tobytes(face, "RGBA") == pygame.image.tobytes(plain, "RGBA")
    marker = art.marker("markers/no-such-marker.svg", 20, "2")
    assert marker.get_size() == (20, 20)
    assert any("no-such-marker.svg" in line for line in art.problems())


@pytest.mark.parametrize("side", [24, 60])
def test_a_counter_with_an_icon_draws_the_icon_in_its_middle(side):
    piece = PieceView("p", "a", "Archers", "counter", "0101", (200, 120, 40), label="ARH", values=("1", "2(3)", "e5"),
                      text_colour=(255, 255, 255), icon="icons/bow.svg")
    bow = piecedraw._counter_face(piece, side)
    sword = piecedraw._counter_face(replace(piece, icon="icons/sword.svg"), side)
    middle = pygame.Rect(side // 4, side // 4, side // 2, side // 3)
    assert sum(1 for x in range(middle.left, middle.right) for y in range(middle.top, middle.bottom)
               if bow.get_at((x, y)) != sword.get_at((x, y))) > side // 2


def _hex_board() -> HexBoard:
    session = Session.new(load_scenario("vikings/village_raid"), 0)
    surface = get_game(session.game.id).presentation().surface(session.view(None))
    return HexBoard(surface)


def test_a_caption_and_markers_are_drawn_beside_a_counter_and_names_do_not_cover_each_other():
    board = _hex_board()
    sprites = piecedraw.PieceSprites()
    sprites.begin_frame()
    at = board.labels[0]
    piece = PieceView("p", "a", "Hallstein", "counter", at, (150, 40, 40), label="Hd", values=("8", "5", "6"),
                      icon="icons/helmet.svg", caption="Hallstein", markers=(("markers/wound.svg", ""),))
    centre = (200.0, 200.0)

    def draw(p: PieceView) -> pygame.Surface:
        target = pygame.Surface((400, 400))
        target.fill((0, 0, 0))
        piecedraw.draw_piece(target, board, p, lambda w: centre, 40.0, sprites)
        return target

    with_all = draw(piece)
    sprites.begin_frame()
    bare = draw(replace(piece, caption="", markers=()))
    half = int(piecedraw.COUNTER_SIDE * 40) // 2
    below = pygame.Rect(150, 200 + half + 1, 100, 14)
    right = pygame.Rect(200 + half, 200 - half - 12, 24, 24)
    diff = lambda r: sum(1 for x in range(r.left, r.right) for y in range(r.top, r.bottom)  # noqa: E731
                         if with_all.get_at((x, y)) != bare.get_at((x, y)))
    assert diff(below) > 40          # the name plate
    assert diff(right) > 40          # the wound token
    # a second piece at the same place: its name goes above, a third is left to the info panel
    sprites.begin_frame()
    draw(piece)
    draw(replace(piece, id="q"))
    draw(replace(piece, id="r"))
    assert len(sprites.captions) == 2 and sprites.captions[1].bottom <= 200 - half


def test_a_caption_is_left_out_when_the_counter_is_too_small_to_read():
    board = _hex_board()
    sprites = piecedraw.PieceSprites()
    sprites.begin_frame()
    at = board.labels[0]
    piece = PieceView("p", "a", "Svein", "counter", at, (150, 40, 40), caption="Svein")
    target = pygame.Surface((200, 200))
    piecedraw.draw_piece(target, board, piece, lambda w: (100.0, 100.0), 12.0, sprites)
    assert sprites.captions == []
    piecedraw.draw_piece(target, board, piece, lambda w: (100.0, 100.0), 30.0, sprites)
    assert len(sprites.captions) == 1


# -- the games --------------------------------------------------------------------------------------


def test_dragon_rage_counters_carry_type_icons_and_the_dragon_shows_the_mp_left():
    from simulator.games.dragon_rage.presentation import counter_face

    session = Session.new(load_scenario("dragon_rage/esirien-1-fury"), 0)
    pieces = get_game("dragon_rage").presentation().pieces(session.view(None))
    assert pieces and all(p.icon and (ASSETS / p.icon).is_file() for p in pieces)
    dragon = next(u for u in session.state_data()["units"].values() if u["type"] == "dragon")
    full = counter_face(dragon)[1][0]
    dragon["mp_used"] = 3
    left = counter_face(dragon)[1][0]
    assert full.endswith("MP") and int(left[:-2]) == int(full[:-2]) - 3


def test_vikings_counters_carry_the_characters_names_icons_and_wound_and_stun_markers():
    session = Session.new(load_scenario("vikings/village_raid"), 0)
    state = session.state_data()
    chars = sorted(state["chars"].items())
    chars[0][1]["status"] = "wounded"
    chars[1][1]["status"] = "stunned"
    pieces = {p.id: p for p in get_game("vikings").presentation().pieces(state)}
    for cid, ch in chars:
        if ch.get("hex") is not None:
            assert pieces[cid].caption == ch["name"] and (ASSETS / pieces[cid].icon).is_file()
    assert pieces[chars[0][0]].markers == (("markers/wound.svg", ""),)
    assert pieces[chars[1][0]].markers == (("markers/stun.svg", ""),)


def test_saga_figures_show_their_class_and_each_unit_its_name_and_fatigue_once():
    session = Session.new(load_scenario("saga/quickstart"), 0)
    state = session.state_data()
    for k, u in enumerate(state["units"].values()):
        u["fatigue"] = k % 3
    pieces = get_game("saga").presentation().pieces(state)
    assert all(p.icon and (ASSETS / p.icon).is_file() for p in pieces)
    for uid, u in state["units"].items():
        mine = [p for p in pieces if p.stats.get("unit") == uid]
        names = [p.caption for p in mine if p.caption]
        assert len(names) == 1 and names[0].lower().startswith(u["cls"])
        assert sum(len(p.markers) for p in mine) == u["fatigue"]
    classes = {p.icon for p in pieces}
    assert {"icons/crown.svg", "icons/helmet.svg", "icons/sword.svg"} <= classes


def test_asoiaf_trays_wear_their_factions_colours_from_the_data_with_names_and_tokens():
    from simulator.games.asoiaf.presentation import faction_colours, liveries

    data = liveries()["factions"]
    session = Session.new(load_scenario("asoiaf/game-of-thrones"), 0)
    state = session.state_data()
    units = list(state["units"].values())
    units[0]["conditions"] = ["panicked", "weakened"]
    units[0]["vp_tokens"] = 2
    pieces = {p.id: p for p in get_game("asoiaf").presentation().pieces(state)}
    seen = {}
    for uid, u in state["units"].items():
        if uid not in pieces:
            continue
        p = pieces[uid]
        livery = data[state["factions"][u["side"]]]
        assert p.colour == tuple(livery["colour"]) and p.accent == tuple(livery["accent"])
        assert p.caption and p.caption in u["name"] and p.caption != uid
        seen[u["side"]] = p.colour
    assert len(set(seen.values())) == 2          # Stark grey is not Lannister crimson
    first = pieces[units[0]["id"]]
    assert ("markers/panic.svg", "") in first.markers and ("markers/weakened.svg", "") in first.markers
    assert ("markers/vp.svg", "2") in first.markers
    # two armies of one faction: the second wears the faction's mirror livery
    mirror = {"players": ["a", "b"], "factions": {"a": "stark", "b": "stark"}}
    assert faction_colours(mirror, "a") != faction_colours(mirror, "b")
    assert faction_colours(mirror, "b")[0] == tuple(data["stark"]["mirror"]["colour"])


@pytest.mark.parametrize("scenario", ["dragon_rage/esirien-1-fury", "vikings/village_raid", "saga/quickstart",
                                      "asoiaf/game-of-thrones"])
def test_a_headless_render_draws_the_icons_names_and_no_art_is_missing(tmp_path, monkeypatch, scenario):
    from simulator.client.render import render

    drawn: dict[str, list[str]] = {"icons": [], "captions": []}
    real_icon, real_caption = art.icon, piecedraw.caption_box

    def icon(name, size, colour):
        drawn["icons"].append(name)
        return real_icon(name, size, colour)

    def caption(target, text, *a, **k):
        drawn["captions"].append(text)
        return real_caption(target, text, *a, **k)

    real_plate = piecedraw._tray_plate

    def plate(target, piece, *a, **k):
        drawn["captions"].append(piece.caption)
        return real_plate(target, piece, *a, **k)

    monkeypatch.setattr(art, "icon", icon)
    monkeypatch.setattr(piecedraw, "caption_box", caption)
    monkeypatch.setattr(piecedraw, "_tray_plate", plate)
    before = art.problems()
    render(scenario, tmp_path / "x.png", (1280, 800))
    # (an ASOIAF tray shows its icon beside its name only where the tray is wide enough)
    assert drawn["icons"] or scenario.startswith("asoiaf")
    if not scenario.startswith("dragon_rage"):
        assert drawn["captions"]
    assert art.problems() == before


def test_a_small_counter_with_an_icon_prints_its_first_two_values_only():
    piece = PieceView("p", "a", "Archers", "counter", "0101", (200, 120, 40), label="ARH", values=("1", "2(3)", "e5"),
                      icon="icons/bow.svg")
    two = replace(piece, values=("1", "2(3)"))
    face = lambda p, s: pygame.image.tobytes(piecedraw._counter_face(p, s), "RGBA")  # noqa: E731
    assert face(piece, 34) == face(two, 34)
    assert face(piece, 60) != face(two, 60)
