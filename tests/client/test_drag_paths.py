"""A drag takes a whole path (issue 22 item 3): every destination the window lights up for a dragged
piece is accepted on drop (the move the presentation proposes there passes the engine's check), and
while dragging, the way the drop would take and what it costs are drawn by the pointer.

"Lit up" is what the client draws from ``Presentation.move_range`` when a drag of a movable piece
starts: on hex maps its hexes, every one of which must be accepted; on tables a circle (centre and
radius), the reach of the move in any direction, drawn only for a piece whose drag proposes a move
now. Inside it other bases, terrain and the table's edge may still refuse a drop (naming the rule),
so there a drop inside the circle must propose a move, and most lit-up units must have a short drop
that is accepted. (The circle is not exact: an ASOIAF March goes twice as far straight ahead, and a
SAGA drop beyond the reach may still bend the unit's move towards it.)
"""

from __future__ import annotations

import math
import random

import pygame
import pytest

from simulator.core.session import Session
from tests.client.conftest import SIZE, screen_of

#: Scenarios played at random to find states, a few per game: hex games check every lit-up hex of
#: every movable piece in the first ``HEX_STATES`` states of each that light any up (the village raid's
#: rider, whose 15 MP light up some 250 hexes, is checked hex by hex below).
HEX_SCENARIOS = {"vikings": ("vikings/beach_landing", "vikings/low_tide_raid"),
                 "dragon_rage": ("dragon_rage/esirien-1-fury", "dragon_rage/nurkott-2-raid",
                                 "dragon_rage/esirien-6-giants")}
HEX_STATES = 2
TABLE_SCENARIOS = {"saga": ("saga/quickstart", "saga/clash-of-steel"),
                   "asoiaf": ("asoiaf/clash-of-kings", "asoiaf/dance-with-dragons")}


def _states(sid: str, actions: int, seed: int):
    """(session, state as the player to act sees it) along a seeded random game."""
    session = Session.new(sid, seed)
    rng = random.Random(f"{sid}:{seed}")
    for _ in range(actions):
        legal = session.legal_actions()
        if session.outcome() is not None or not legal:
            return
        yield session, session.view(session.active_player())
        session.apply(rng.choice(legal))


def _lit(presentation, state):
    """(piece, MoveRange) of every movable piece the window lights something up for."""
    for piece in presentation.pieces(state):
        reach = presentation.move_range(state, piece.id) if piece.movable else None
        if reach is not None and (reach.hexes or reach.centre is not None and reach.radius > 0):
            yield piece, reach


@pytest.mark.parametrize("game", sorted(HEX_SCENARIOS))
def test_every_lit_up_hex_is_accepted_on_drop_and_its_path_leads_there(game: str) -> None:
    checked = states = 0
    for n, sid in enumerate(HEX_SCENARIOS[game]):
        met = 0
        for session, state in _states(sid, 60, n + 5):
            if met == HEX_STATES:
                break
            presentation = session.game.presentation()
            lit = list(_lit(presentation, state))
            if not lit:
                continue
            met += 1
            states += 1
            for piece, reach in lit:
                for to in reach.hexes:
                    action = presentation.drag_action(state, piece.id, to)
                    assert action is not None, (sid, piece.id, to)
                    why = session.check(action)
                    assert why is None, f"{sid}: drop of {piece.id} on lit-up {to}: {action} refused: {why}"
                    path = presentation.drag_path(state, piece.id, to)
                    if path is not None:     # the drawn way starts where the piece stands and ends on the drop
                        assert path[0] == piece.at and path[-1] == to, (sid, piece.id, to, path)
                    assert presentation.drag_cost(state, piece.id, to) is not None
                    checked += 1
    assert states >= 2 * HEX_STATES and checked > 300, (states, checked)


@pytest.mark.parametrize("game", sorted(TABLE_SCENARIOS))
def test_a_table_drop_inside_the_lit_circle_proposes_a_move_the_engine_accepts_or_explains(game: str) -> None:
    units = moved = 0
    for n, sid in enumerate(TABLE_SCENARIOS[game]):
        rng = random.Random(sid)
        for session, state in _states(sid, 18, n + 5):
            presentation = session.game.presentation()
            surface = presentation.surface(state)
            for piece, reach in _lit(presentation, state):
                assert reach.centre is not None
                cx, cy = reach.centre
                inside, accepted = 0, 0
                for i in range(8):
                    angle = i * math.pi / 4 + rng.uniform(0, 0.3)
                    to = (cx + 0.4 * reach.radius * math.cos(angle), cy + 0.4 * reach.radius * math.sin(angle))
                    if not (0.5 < to[0] < surface.width - 0.5 and 0.5 < to[1] < surface.height - 0.5):
                        continue
                    action = presentation.drag_action(state, piece.id, to)
                    assert action is not None, (sid, piece.id, to)
                    why = session.check(action)
                    inside += 1
                    accepted += why is None
                    if why is not None:
                        assert why.rule, why     # a refusal names its rule
                    assert presentation.drag_cost(state, piece.id, to) is not None
                if inside:
                    units += 1
                    moved += accepted > 0
    # a unit may be hemmed in (its own figures, an enemy it must engage): most are not
    assert units >= 3 and moved >= 3 * units // 4, (units, moved)


def _rider_moving() -> Session:
    """Vikings' village raid at the Vikings' movement step: Ragnar rides (15 MP) on 1612-1712."""
    session = Session.new("vikings/village_raid", 1)
    while not (session.state["step"] == "move" and session.state["phasing"] == "vikings"):
        session.apply({"type": "end_phase"})
    rider = session.state["chars"]["ragnar"]
    assert rider["mounted"] and rider["mp"] == 15 and (rider["hex"], rider["front"]) == ("1612", "1712")
    return session


def test_a_mounted_rider_dropped_far_away_rides_the_cheapest_way_there() -> None:
    session = _rider_moving()
    presentation = session.game.presentation()
    state = session.view("vikings")
    reach = presentation.move_range(state, "ragnar")
    assert reach is not None
    for to in reach.hexes:                 # every lit-up hex is a ride the engine accepts
        assert session.check(presentation.drag_action(state, "ragnar", to)) is None, to
    far = max(reach.hexes, key=lambda h: (reach.hexes[h], h))
    assert reach.hexes[far] > 6            # not one hex per drag any more
    action = presentation.drag_action(state, "ragnar", far)
    assert action["type"] == "move" and len(action["path"]) > 2
    path = presentation.drag_path(state, "ragnar", far)
    assert path == ("1712", *action["path"])
    assert presentation.drag_cost(state, "ragnar", far) == f"{reach.hexes[far]:g} MP"
    session.apply(action)
    rider = session.state["chars"]["ragnar"]
    assert rider["front"] == far and rider["mp"] == 15 - reach.hexes[far]


def test_dragging_draws_the_path_and_its_cost_by_the_pointer() -> None:
    from simulator.client.game_scene import GameScene

    session = _rider_moving()
    scene = GameScene(None, session, SIZE)
    state = scene.model.state
    reach = scene.model.presentation.move_range(state, "ragnar")
    assert reach is not None
    to = next(h for h in sorted(reach.hexes) if 4 <= reach.hexes[h] <= 8)
    start, end = screen_of(scene, "1712"), screen_of(scene, to)
    scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)))
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for i in range(1, 7):
        p = (start[0] + (end[0] - start[0]) * i // 6, start[1] + (end[1] - start[1]) * i // 6)
        scene.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(1, 1), buttons=(1, 0, 0)))
    preview = scene.view.preview
    assert preview is not None and preview.cost == f"{reach.hexes[to]:g} MP"
    assert preview.path is not None and len(preview.path) >= 3
    board = scene.model.board
    assert preview.path[0] == board.world_of("1712") and preview.path[-1] == board.world_of(to)
    surface = pygame.display.get_surface()
    scene.view.draw(surface)
    label = (int(end[0] + max(14.0, scene.view.camera.scale * 0.45)) + 8,
             int(end[1] + max(14.0, scene.view.camera.scale * 0.45)) + 4)
    # the cost's box (dark) is drawn below and right of the dragged counter
    assert sum(surface.get_at(label)[:3]) < 200
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    assert scene.model.session.state["chars"]["ragnar"]["front"] == to
