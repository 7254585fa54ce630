"""Computer players choose legal actions through the session only, and never peek."""

from __future__ import annotations

from simulator.ai import make_player
from simulator.ai.match import play_match
from simulator.core import Session
from tests.core.toygame import GAME


def test_every_level_plays_a_race_to_its_end(race):
    for level in ("random", "easy", "normal"):
        players = {"A": make_player(level, 1), "B": make_player("random", 2)}
        if level == "normal":
            players["A"].samples = 2  # type: ignore[attr-defined]
        session, result = play_match(race, players, seed=3)
        assert result.finished and result.winner in ("A", "B")
        assert session.outcome() is not None


def test_players_choose_only_legal_actions(race):
    session = Session(GAME, race, seed=1)
    for level in ("random", "easy", "normal"):
        choice = make_player(level, 0).choose(session, "A")
        assert session.check(choice) is None


def test_look_ahead_does_not_touch_the_game(race):
    session = Session(GAME, race, seed=1, tape=[4])
    before = session.state_data()
    player = make_player("normal", 0)
    player.samples = 2  # type: ignore[attr-defined]
    player.choose(session, "A")
    assert session.state_data() == before and session.dice.tape_left == 1


def test_unknown_level_is_refused():
    import pytest

    with pytest.raises(ValueError, match="unknown computer level"):
        make_player("grandmaster")


def test_a_game_failing_in_look_ahead_does_not_stop_the_player(race, monkeypatch):
    """A game whose ``apply`` breaks on a guessed state (say, a ``determinize`` that leaves
    a hidden deck as a count) still gets a legal move from every level."""
    session = Session(GAME, race, seed=1)
    legal = session.legal_actions()

    def broken(self, state, action, ctx):
        raise AttributeError("'int' object has no attribute 'pop'")

    monkeypatch.setattr(type(GAME), "apply", broken)
    for level in ("easy", "normal"):
        player = make_player(level, 0)
        if level == "normal":
            player.samples = 2  # type: ignore[attr-defined]
        assert player.choose(session, "A") in legal


def test_a_game_cut_off_keeps_why_and_a_save_of_where_it_stuck(tmp_path, monkeypatch):
    """A side with no legal action is a rules-engine gap: the match stops, says why, and saves
    the stuck game so that it can be read even if a replay takes another road."""
    from simulator.ai.players import NoLegalAction

    class Stuck:
        name = "stuck"

        def choose(self, session, side):
            raise NoLegalAction(f"{side} has no legal action")

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    session, result = play_match("saga/quickstart", {"vikings": Stuck(), "anglo_danes": Stuck()}, 3)
    assert not result.finished and result.cut_off == "vikings has no legal action"
    assert result.saved and Session.load(result.saved).steps == session.steps
