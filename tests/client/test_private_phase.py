"""A private phase (``Presentation.private_player``): SAGA scenario X's Orders Phases are played
in turn at one screen, each behind the hand-over screen, and each player sees only his own dice."""

from simulator.client.game_scene import GameScene
from simulator.core.session import Session
from tests.client.conftest import SIZE, press_button


def _orders_of(scene: GameScene, player: str) -> None:
    session = scene.model.session
    assert session.active_player() == player
    scene.control.propose({"type": "roll_dice", "keep": []}, "test")
    scene.control.propose({"type": "end_orders"}, "test")
    scene.refresh_panels()


def test_each_secret_orders_phase_begins_behind_the_handover():
    scene = GameScene(None, Session.new("saga/sx-feast-for-crows", 3), SIZE)
    order = ["vikings", "normans", "welsh"]
    for i, player in enumerate(order):
        assert scene.handover is not None and scene.handover.private_turn
        assert scene.handover.choice.player == player and not scene.handover.revealed
        assert scene.covered()
        press_button(scene, scene.handover.buttons[0][0])          # "I am <player>: show the board"
        assert scene.handover is None and not scene.covered()
        scene.refresh_panels()
        assert scene.handover is None                               # the same player keeps the screen
        # what the board shows: only this player's own rolled dice; the others' are hidden
        for other in order[:i]:
            assert all(d["face"] == "hidden" for d in scene.model.state["sides"][other]["dice"] if d["face"])
        _orders_of(scene, player)
    # the Orders Phases are over: the activations are not private, no more hand-over
    assert scene.model.session.state["phase"] == "activation"
    assert scene.handover is None and scene.model.private is None


def test_no_handover_for_a_game_without_private_phases():
    scene = GameScene(None, Session.new("saga/quickstart", 3), SIZE)
    assert scene.model.private is None and scene.handover is None
