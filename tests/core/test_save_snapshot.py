"""The journal save: loading from its last state snapshot, appending on autosave, detecting
changes, version-1 saves still read, and undone actions that no longer replay."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from simulator.cli import check_file
from simulator.core import DataError, IllegalAction, Session
from simulator.core import savefile
from tests.core.toygame import GAME

DATA = Path(__file__).resolve().parent.parent / "data"
TURN = [{"type": "roll"}, {"type": "end_turn"}]


def play(session: Session, actions) -> Session:
    for a in actions:
        session.apply(a)
    return session


def count_rules(monkeypatch) -> list[str]:
    """The actions the rules are asked to carry out from now on."""
    calls: list[str] = []
    real = type(GAME).apply

    def counting(self, state, action, ctx):
        calls.append(action["type"])
        return real(self, state, action, ctx)

    monkeypatch.setattr(type(GAME), "apply", counting)
    return calls


def rechain(text: str, edit) -> str:
    """``text`` with ``edit`` applied to the journal lines (JSON records) and every chain
    recomputed: a hand edit by someone who knows the format."""
    header, body = savefile.split_header(text)
    chain = savefile.read_header(header, "x")["sha256"]
    out = [header]
    for raw in body.splitlines(keepends=True):
        inner = raw[2:-len(',"chain":"') - 64 - 3] + "}"
        record = edit(json.loads(inner))
        line, chain = savefile.record_line(chain, record)
        out.append(line)
    return "".join(out)


def test_a_version_1_save_still_loads_and_is_rewritten_as_a_journal(race, tmp_path: Path):
    old = DATA / "save-v1-race.yaml"
    assert "version: 1" in old.read_text()
    loaded = Session.load(old)
    assert len(loaded.steps) == 12 and loaded.can_redo()
    assert loaded.log_digest() == "22e5bb4369e12998dc1c94d6046addda607757405606342e4c81730a5dc68d89"
    assert loaded.state_data()["pos"] == {"A": 8, "B": 11}
    path = tmp_path / "new.yaml"
    loaded.save(path)
    again = Session.load(path)
    assert "version: 2" in path.read_text()
    assert again.state_data() == loaded.state_data() and again.log_digest() == loaded.log_digest()
    loaded.redo()
    again.redo()
    assert again.state_data() == loaded.state_data() and again.log_digest() == loaded.log_digest()


def test_loading_replays_only_the_actions_after_the_last_snapshot(race, tmp_path: Path, monkeypatch):
    auto = tmp_path / "auto.yaml"
    s = play(Session(GAME, race, seed=5, autosave=auto), TURN * 20 + [{"type": "roll"}])   # 41 actions
    calls = count_rules(monkeypatch)
    loaded = Session.load(auto)
    assert loaded.state_data() == s.state_data() and loaded.log_digest() == s.log_digest()
    assert 0 < len(calls) < savefile_snapshot_every()       # from the snapshot at 32 (or later)
    calls.clear()
    whole = tmp_path / "whole.yaml"
    s.save(whole)                                           # a whole write ends with a snapshot
    assert Session.load(whole).state_data() == s.state_data() and calls == []


def savefile_snapshot_every() -> int:
    from simulator.core.session import SNAPSHOT_EVERY

    return SNAPSHOT_EVERY


def test_autosave_appends_instead_of_rewriting(race, tmp_path: Path, monkeypatch):
    auto = tmp_path / "auto.yaml"
    s = Session(GAME, race, seed=5, autosave=auto)
    s.apply({"type": "roll"})                      # the first autosave writes the file
    whole: list[Path] = []
    appended: list[int] = []
    real_write, real_append = savefile.write_atomically, savefile.append_text
    monkeypatch.setattr("simulator.core.savefile.write_atomically", lambda p, t: whole.append(p) or real_write(p, t))
    monkeypatch.setattr("simulator.core.savefile.append_text",
                        lambda p, t, n: appended.append(0 if '"op":"snap"' in t else len(t))
                        or real_append(p, t, n))
    play(s, [{"type": "end_turn"}] + TURN * 40)
    assert whole == [] and len(appended) == 81
    # what one action appends does not grow with the game (snapshot lines aside)
    plain = [n for n in appended if n]
    assert max(plain[-10:]) <= max(plain[:10]) + 20
    assert Session.load(auto).state_data() == s.state_data()


def test_any_undo_redo_sequence_autosaves_to_the_same_game(race, tmp_path: Path):
    auto = tmp_path / "auto.yaml"
    s = Session(GAME, race, seed=9, autosave=auto)
    rng = random.Random(4)
    for i in range(220):
        move = rng.choice(["act", "act", "undo", "undo", "redo"])
        if move == "undo":
            s.undo()
        elif move == "redo":
            s.redo()
        else:
            s.apply(rng.choice(s.legal_actions()))
        if i % 20 == 19:
            loaded = Session.load(auto)
            assert loaded.state_data() == s.state_data() and loaded.log_digest() == s.log_digest()
            assert [st.action for st in loaded._redo] == [st.action for st in s._redo]
    assert Session.replay_check(auto) == []


def test_a_changed_snapshot_is_detected(race, tmp_path: Path):
    path = tmp_path / "game.yaml"
    s = play(Session(GAME, race, seed=5), TURN * 10)
    s.save(path)
    text = path.read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith('- {"op":"snap"'))
    tampered = line.replace('"A":', '"A":1', 1)
    assert tampered != line
    path.write_text(text.replace(line, tampered))
    with pytest.raises(DataError, match="checksum mismatch") as err:
        Session.load(path)
    assert err.value.line == text.splitlines().index(line) + 1

    # the same change with every checksum recomputed loads, but the full replay finds it
    def edit(record):
        if record["op"] == "snap" and record["n"] == 16:
            record["state"]["pos"]["A"] += 1
        return record

    path.write_text(rechain(text, edit))
    problems = Session.replay_check(path)
    assert problems and "snapshot after action 16" in problems[0]
    assert check_file(str(path)).startswith("save of Race after 20 actions")
    with pytest.raises(DataError, match="snapshot after action 16"):
        check_file(str(path), replay=True)


def test_a_cut_off_last_line_is_ignored_and_rewritten(race, tmp_path: Path):
    auto = tmp_path / "auto.yaml"
    s = play(Session(GAME, race, seed=5, autosave=auto), TURN * 3)
    before = Session.load(auto).state_data()
    s.apply({"type": "roll"})
    text = auto.read_text()
    auto.write_text(text[:-25])                    # the last append was interrupted
    loaded = Session.load(auto, autosave=auto)
    assert loaded.state_data() == before and "cut off" in loaded.recovered
    loaded.apply({"type": "bet"})                  # the file is written whole again
    assert Session.load(auto).state_data() == loaded.state_data()
    assert not Session.load(auto).recovered


def test_an_edited_header_or_a_newer_version_is_refused(race, tmp_path: Path):
    path = tmp_path / "game.yaml"
    play(Session(GAME, race, seed=5), TURN).save(path)
    text = path.read_text()
    edited = tmp_path / "edited.yaml"
    edited.write_text(text.replace("seed: 5", "seed: 6"))
    with pytest.raises(DataError, match="checksum mismatch"):
        Session.load(edited)
    header, body = savefile.split_header(text)
    data = savefile.read_header(header, "x")
    data.pop("sha256")
    data.pop("journal")
    data["version"] = 99
    data["sha256"] = savefile.digest(data)
    newer = tmp_path / "newer.yaml"
    newer.write_text(savefile.dump_yaml(data) + savefile.JOURNAL)
    with pytest.raises(DataError, match="newer program"):
        Session.load(newer)


def test_an_undone_action_that_no_longer_replays_is_refused_and_dropped(race, tmp_path: Path):
    path = tmp_path / "game.yaml"
    s = play(Session(GAME, race, seed=5), TURN * 3)
    s.undo()
    s.undo()
    s.save(path)

    def edit(record):     # the undone roll becomes a jump of no steps (illegal: RACE 3)
        if record["op"] == "do" and record["n"] == 4:
            record["action"] = {"type": "jump", "steps": 0}
        return record

    path.write_text(rechain(path.read_text(), edit))
    loaded = Session.load(path)
    assert loaded.can_redo()
    assert "cannot be redone" in loaded.redo_problem()
    assert any("cannot be redone" in p for p in Session.replay_check(path))
    with pytest.raises(DataError, match="cannot be redone"):
        check_file(str(path))                      # `simulator check` reports it
    before = loaded.state_data()
    with pytest.raises(IllegalAction, match="cannot redo 'jump'.*positive.*dropped"):
        loaded.redo()
    assert not loaded.can_redo() and loaded.state_data() == before
    loaded.apply({"type": "roll"})                 # the game goes on


def test_the_journal_records_follow_from_each_other(race, tmp_path: Path):
    path = tmp_path / "game.yaml"
    play(Session(GAME, race, seed=5), TURN).save(path)
    header, body = savefile.split_header(path.read_text())
    chain = savefile.read_header(header, "x")["sha256"]
    line, _ = savefile.record_line(chain, {"op": "undo", "n": 7})
    path.write_text(header + line)
    with pytest.raises(DataError, match="does not follow"):
        Session.load(path)


def test_event_data_that_json_reads_back_differently_still_replays(race, tmp_path: Path, monkeypatch):
    real = type(GAME).apply

    def apply(self, state, action, ctx):
        real(self, state, action, ctx)
        ctx.emit("note", "a pair and a set", "RACE 9", pair=(1, 2), sides={"B", "A"})

    monkeypatch.setattr(type(GAME), "apply", apply)
    auto = tmp_path / "auto.yaml"
    s = play(Session(GAME, race, seed=5, autosave=auto), TURN * 9)     # 2 actions after the snapshot
    loaded = Session.load(auto)
    assert loaded.log_digest() == s.log_digest()
    assert Session.replay_check(auto) == []


def test_a_long_game_stays_compact(race, tmp_path: Path, monkeypatch):
    from simulator.core import session as session_module

    monkeypatch.setattr(session_module, "DENSE_SNAPSHOTS", 32)
    monkeypatch.setattr(session_module, "SPARSE_SNAPSHOTS", 64)
    monkeypatch.setattr(session_module, "COMPACT_BYTES", 0)
    auto = tmp_path / "auto.yaml"
    s = Session(GAME, race, seed=5, autosave=auto)
    whole: list[int] = []
    real_write = savefile.write_atomically
    monkeypatch.setattr(savefile, "write_atomically", lambda p, t: whole.append(len(s.steps)) or real_write(p, t))
    for _ in range(100):
        if s.outcome() is not None:
            break
        play(s, TURN)
    # appended snapshots grow the file; past twice its compact size it is written whole again
    assert len(whole) >= 3 and whole[0] == 1
    compact = tmp_path / "compact.yaml"
    s.save(compact)
    n = len(s.steps)
    snaps = [int(line.split('"n":')[1].split(",")[0]) for line in compact.read_text().splitlines()
             if line.startswith('- {"op":"snap"')]
    assert snaps == sorted({k for k in range(16, n, 16) if k > n - 32 or k % 64 == 0} | {n})
    assert Session.load(compact).state_data() == s.state_data()
    assert Session.load(auto).state_data() == s.state_data()


def test_resuming_the_autosave_appends_to_it(race, tmp_path: Path, monkeypatch):
    auto = tmp_path / "auto.yaml"
    play(Session(GAME, race, seed=5, autosave=auto), TURN * 5)
    resumed = Session.load(auto, autosave=auto)
    whole: list[Path] = []
    real_write = savefile.write_atomically
    monkeypatch.setattr(savefile, "write_atomically", lambda p, t: whole.append(p) or real_write(p, t))
    play(resumed, TURN * 3)
    resumed.undo()
    assert whole == []
    again = Session.load(auto)
    assert again.state_data() == resumed.state_data() and again.log_digest() == resumed.log_digest()
    assert again.can_redo()


def test_an_edited_action_before_the_snapshot_is_found_by_the_full_replay(race, tmp_path: Path):
    path = tmp_path / "game.yaml"
    s = play(Session(GAME, race, seed=5), TURN * 10)
    s.save(path)

    def edit(record):          # the first roll's die, with the checksums recomputed
        if record["op"] == "do" and record["n"] == 0:
            record["dice"] = [1 if record["dice"][0] != 1 else 2]
        return record

    path.write_text(rechain(path.read_text(), edit))
    assert Session.load(path).state_data() == s.state_data()        # the snapshot is taken on trust
    problems = Session.replay_check(path)
    assert problems and "action 1 ('roll') does not replay to the events it recorded" in problems[0]
    with pytest.raises(DataError, match="action 1"):
        check_file(str(path), replay=True)
