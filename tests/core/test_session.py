"""The core contracts, exercised with the toy race game."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.core import DataError, DiceExhausted, IllegalAction, Session
from simulator.core.plain import thaw
from tests.core.toygame import GAME


def play(session: Session, actions):
    for a in actions:
        session.apply(a)
    return session


TURN = [{"type": "roll"}, {"type": "end_turn"}]


def test_same_seed_same_actions_same_log(race):
    a = play(Session(GAME, race, seed=3), TURN * 3 + [{"type": "bet"}])
    b = play(Session(GAME, race, seed=3), TURN * 3 + [{"type": "bet"}])
    assert a.log_digest() == b.log_digest()
    assert [e.as_dict() for e in a.log] == [e.as_dict() for e in b.log]
    c = play(Session(GAME, race, seed=4), TURN * 3 + [{"type": "bet"}])
    assert c.state_data() != a.state_data() or c.log_digest() != a.log_digest()


def test_every_roll_is_logged_with_its_purpose(race):
    s = play(Session(GAME, race, seed=1), [{"type": "roll"}])
    dice = [e for e in s.log if e.kind == "dice"]
    assert len(dice) == 1 and dice[0].data["purpose"] == "race move"
    assert dice[0].data["result"] == s.state["pos"]["A"]


def test_illegal_action_leaves_state_unchanged(race):
    s = play(Session(GAME, race, seed=1), [{"type": "roll"}])
    before, log_before = s.state_data(), s.log_digest()
    with pytest.raises(IllegalAction) as err:
        s.apply({"type": "jump", "steps": 0})      # the game changes its copy before refusing
    assert err.value.rule == "RACE 3" and "positive" in err.value.reason
    assert s.state_data() == before and s.log_digest() == log_before
    with pytest.raises(IllegalAction):
        s.apply({"type": "roll"})
    with pytest.raises(IllegalAction, match="no action 'fly'"):
        s.apply({"type": "fly"})
    with pytest.raises(IllegalAction):
        s.apply({"steps": 3})
    assert s.state_data() == before


def test_state_is_read_only(race):
    s = Session(GAME, race, seed=1)
    with pytest.raises(TypeError):
        s.state["pos"]["A"] = 99  # type: ignore[index]
    assert thaw(s.state)["pos"]["A"] == 0


def test_undo_redo_round_trip(race):
    s = play(Session(GAME, race, seed=9), TURN * 20)
    final, digest = s.state_data(), s.log_digest()
    for _ in range(40):
        assert s.undo()
    assert not s.undo()
    assert s.state_data() == Session(GAME, race, seed=9).state_data()
    for _ in range(40):
        assert s.redo()
    assert not s.redo()
    assert s.state_data() == final and s.log_digest() == digest


def test_new_action_clears_redo_and_undo_keeps_dice(race):
    s = play(Session(GAME, race, seed=5), [{"type": "roll"}])
    first = s.state_data()
    s.undo()
    assert s.can_redo()
    s.apply({"type": "roll"})
    assert not s.can_redo()
    assert s.state_data() == first      # the same action after undo gets the same dice


def test_forced_dice_tape(race):
    s = Session(GAME, race, seed=0, tape=[6, 0, "tails"])
    s.apply({"type": "roll"})
    assert s.state["pos"]["A"] == 6
    s.apply({"type": "end_turn"})
    with pytest.raises(DiceExhausted):
        s.apply({"type": "roll"})      # 0 is not a d6 face
    s2 = Session(GAME, race, seed=0, tape=[2])
    s2.apply({"type": "roll"})
    s2.apply({"type": "end_turn"})
    before = s2.state_data()
    with pytest.raises(DiceExhausted, match="ran out"):
        s2.apply({"type": "roll"})
    assert s2.state_data() == before
    s3 = Session(GAME, race, seed=0, tape=["tails"])
    s3.apply({"type": "bet"})
    assert s3.state["bets"] == ["tails"]


def test_d10_zero_reads_ten():
    from simulator.core.dice import Dice

    d = Dice(0, [0, 7])
    d.begin_action(0)
    assert d.d10("x") == 10 and d.d10("y") == 7


def test_tape_position_follows_undo(race):
    s = Session(GAME, race, seed=0, tape=[3, 4])
    s.apply({"type": "roll"})
    s.undo()
    s.apply({"type": "roll"})
    assert s.state["pos"]["A"] == 3
    s.apply({"type": "end_turn"})
    s.apply({"type": "roll"})
    assert s.state["pos"]["B"] == 4


def test_save_load_round_trip(race, tmp_path: Path):
    s = play(Session(GAME, race, seed=11), TURN * 5 + [{"type": "roll"}])
    s.undo()
    path = tmp_path / "game.yaml"
    s.save(path)
    loaded = Session.load(path)
    assert loaded.state_data() == s.state_data()
    assert loaded.log_digest() == s.log_digest()
    assert loaded.can_redo()
    loaded.redo()
    s.redo()
    assert loaded.state_data() == s.state_data()


def test_autosave_after_every_action(race, tmp_path: Path):
    auto = tmp_path / "auto.yaml"
    s = Session(GAME, race, seed=2, autosave=auto)
    s.apply({"type": "roll"})
    assert Session.load(auto).state_data() == s.state_data()
    s.undo()
    assert Session.load(auto).state_data() == s.state_data()


def test_damaged_saves_give_one_line_errors(race, tmp_path: Path):
    s = play(Session(GAME, race, seed=11), TURN * 3)
    good = tmp_path / "good.yaml"
    s.save(good)
    text = good.read_text()

    truncated = tmp_path / "truncated.yaml"          # cut inside the header
    truncated.write_text(text[: text.index("journal:") // 2])
    edited = tmp_path / "edited.yaml"
    edited.write_text(text.replace("seed: 11", "seed: 12"))
    foreign = tmp_path / "foreign.yaml"
    foreign.write_text("name: my shopping list\nitems: [milk]\n")
    for path in (truncated, edited, foreign):
        with pytest.raises(DataError) as err:
            Session.load(path)
        message = str(err.value)
        assert "\n" not in message and str(path) in message


def _slow_writer(path: str) -> None:
    from simulator.core import session as session_module

    real_fdopen = os.fdopen

    class Slow:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, text):
            self.fh.write(text[:10])
            self.fh.flush()
            time.sleep(30)          # killed here, mid-write

        def flush(self):
            self.fh.flush()

        def fileno(self):
            return self.fh.fileno()

    session_module.os.fdopen = lambda fd, *a, **k: Slow(real_fdopen(fd, *a, **k))
    session_module.write_atomically(Path(path), "format: simulator-save\nbroken: [")


def test_killed_write_leaves_old_save_intact(race, tmp_path: Path):
    s = play(Session(GAME, race, seed=11), TURN * 2)
    path = tmp_path / "save.yaml"
    s.save(path)
    before = path.read_bytes()
    proc = multiprocessing.get_context("fork").Process(target=_slow_writer, args=(str(path),))
    proc.start()
    time.sleep(0.5)
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    assert path.read_bytes() == before
    assert Session.load(path).state_data() == s.state_data()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["roll", "end_turn", "bet", "jump", "undo", "redo"]), max_size=30),
       st.integers(0, 2**16))
def test_any_sequence_replays_identically(race_scenario, moves, seed):
    s = Session(GAME, race_scenario, seed=seed)
    for m in moves:
        if m == "undo":
            s.undo()
        elif m == "redo":
            s.redo()
        else:
            try:
                s.apply({"type": m, "steps": 2})
            except IllegalAction:
                pass
    replay = Session(GAME, race_scenario, seed=seed)
    for a in s.history:
        replay.apply(a)
    assert replay.state_data() == s.state_data()
    assert replay.log_digest() == s.log_digest()


@pytest.fixture
def race_scenario(race):
    return race
