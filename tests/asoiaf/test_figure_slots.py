"""Figures tracked slot by slot (issue #26): losses go from the rear rank, right to left (4.1); the
attachment stands on the front rank's leftmost slot and is the last figure to go (4.5); healing
brings back the figure removed last; the presentation carries the slots and the client draws an
empty slot as an empty ring."""

from __future__ import annotations

import os

import pygame
import pytest

from simulator.core.view import PieceView
from simulator.games.asoiaf.presentation import AsoiafPresentation
from tests.asoiaf.helpers import guards, scenario, session, sworn

F, A, X = "figure", "attachment", None


def test_losses_go_from_the_rear_rank_right_to_left():
    # L2 (no attachment) hits S1 (Robb) 6 times, all saves fail; S1 passes its Panic test.
    sc = scenario([sworn("S1", (24, 18), 90), sworn("S9", (6, 4), robb=False)],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first="lannister")
    s = session(sc, tape=[6] * 6 + [1] * 6 + [6, 6, 1])
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})
    if s.state["pending"] and s.state["pending"][0]["window"] == "attacked":
        s.apply({"type": "respond", "card": None})
    u = s.state["units"]["S1"]
    assert u["figures"] == 6
    assert u["slots"] == [[A, F, F, F], [F, F, X, X], [X, X, X, X]]
    piece = next(p for p in AsoiafPresentation().pieces(s.state_data()) if p.id == "S1")
    assert (piece.ranks, piece.files) == (3, 4)
    assert piece.slots == ("A", "*", "*", "*", "*", "*", "", "", "", "", "", "")


def test_the_captain_is_removed_last_and_the_leftmost_rear_figure_stays():
    sc = scenario([sworn("S1", (24, 18), 90) | {"wounds": 3}, sworn("S9", (6, 4), robb=False)],
                  [guards("L2", (24, 30), jaime=False) | {"attachment": "20102", "wounds": 11},
                   guards("L9", (44, 44))])
    s = session(sc)
    assert s.state["units"]["S1"]["slots"][2] == [F, X, X, X]          # the leftmost rear figure remains
    assert s.state["units"]["L2"]["slots"] == [[A, X, X, X], [X] * 4, [X] * 4]   # the Guard Captain last


def test_healing_brings_back_the_figure_removed_last():
    # Robb's Superior Positioning (40209, assumed stand-in: discard Condition tokens, heal 1).
    sc = scenario([sworn("S1", (24, 18), 90) | {"wounds": 3}, sworn("S9", (6, 4), robb=False)],
                  [guards("L2", (24, 30), jaime=False), guards("L9", (44, 44))],
                  hands={"stark": ["40209"], "lannister": []})
    s = session(sc)
    s.apply({"type": "hold", "unit": "S1", "card": "40209"})
    u = s.state["units"]["S1"]
    assert u["figures"] == 10 and u["slots"][2] == [F, F, X, X]


def test_other_games_draw_full_trays_as_before():
    assert PieceView("p", "a", "p", "tray", (0.0, 0.0), (1, 2, 3)).slots == ()


def test_an_empty_slot_is_drawn_as_an_empty_ring():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.init()
    try:
        from simulator.client.board import make_board
        from simulator.client.piecedraw import PieceSprites, draw_piece, tray_corners
        sc = scenario([sworn("S1", (24, 18), 90) | {"wounds": 3}, sworn("S9", (6, 4), robb=False)],
                      [guards("L2", (24, 30), jaime=False), guards("L9", (44, 44))])
        s = session(sc)
        pres = AsoiafPresentation()
        state = s.state_data()
        board = make_board(pres.surface(state))
        piece = next(p for p in pres.pieces(state) if p.id == "S1")
        scale = 20.0
        target = pygame.Surface((48 * 20, 48 * 20))
        target.fill((0, 0, 0))

        def to_screen(p):
            return (p[0] * scale, p[1] * scale)

        draw_piece(target, board, piece, to_screen, scale, PieceSprites())
        fl, fr, br, bl = (to_screen(p) for p in tray_corners(piece, piece.at))

        def slot_pixel(rank: int, file: int) -> tuple[int, int, int]:
            u, v = (file + 0.5) / 4, (rank + 0.5) / 3
            front = (fl[0] + (fr[0] - fl[0]) * u, fl[1] + (fr[1] - fl[1]) * u)
            back = (bl[0] + (br[0] - bl[0]) * u, bl[1] + (br[1] - bl[1]) * u)
            x, y = front[0] + (back[0] - front[0]) * v, front[1] + (back[1] - front[1]) * v
            return tuple(target.get_at((int(x), int(y))))[:3]

        assert slot_pixel(2, 0) == piece.colour                  # the rear rank's leftmost figure
        assert slot_pixel(2, 3) != piece.colour                  # its rightmost slot is empty
        assert slot_pixel(0, 3) == piece.colour
    finally:
        pygame.quit()


def test_clash_of_kings_redeploys_the_commanders_unit_at_full_strength():
    """A Clash of Kings (16.2): the destroyed Commander's unit comes back at the start of the next
    round, in its deployment area or within 6" of a side edge, every slot filled again, the
    Commander on the front rank's leftmost slot."""
    from simulator.core.errors import IllegalAction
    from tests.asoiaf.helpers import finish_round
    sc = scenario([sworn("S1", (24, 18), 90) | {"wounds": 11}, sworn("S9", (6, 4), robb=False)],
                  [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], first="lannister",
                  mode="clash_of_kings")
    s = session(sc, tape=[6] * 6 + [1] * 6)
    s.apply({"type": "attack", "unit": "L2", "target": "S1", "attack": 0})
    if s.state["pending"] and s.state["pending"][0]["window"] == "attacked":
        s.apply({"type": "respond", "card": None})
    assert s.state["units"]["S1"]["destroyed"]
    while s.state["pending"]:
        s.apply(s.legal_actions()[0])
    finish_round(s)
    p = s.state["pending"][0]
    assert (p["window"], p["player"]) == ("redeploy", "stark") and p["rule"].endswith("(16.2)")
    with pytest.raises(IllegalAction, match="wholly inside one of its areas"):
        s.apply({"type": "redeploy", "unit": "S1", "x": 24, "y": 30, "facing": 90})
    s.apply({"type": "redeploy", "unit": "S1", "x": 24, "y": 5, "facing": 90})
    u = s.state["units"]["S1"]
    assert not u["destroyed"] and u["figures"] == 12 and u["commander"]
    assert u["slots"] == [[A, F, F, F], [F] * 4, [F] * 4]
