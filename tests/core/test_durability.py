"""No action is lost without the player's consent: processes killed while saving, full disks
and read-only folders.

``KILL_TRIES`` sets how many times the saving process is killed (30 by default, to keep the
suite quick; the report's figure was measured with ``KILL_TRIES=200``)."""

from __future__ import annotations

import errno
import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from simulator.core import Session, savefile
from simulator.core.savefile import clean_leftovers
from tests.core.toygame import GAME

TURN = [{"type": "roll"}, {"type": "end_turn"}]


def _save_for_ever(race, path: Path, seed: int) -> None:
    """The child: play, undo and redo with autosave, and now and then save whole, until killed."""
    rng = random.Random(seed)
    s = Session(GAME, race, seed=seed, autosave=path)
    while True:
        r = rng.random()
        if r < 0.15:
            s.undo()
        elif r < 0.25:
            s.redo()
        elif r < 0.28:
            s.save(path)                       # a whole write (temporary file and rename)
        elif s.outcome() is None:
            s.apply(rng.choice(s.legal_actions()))
        else:
            s = Session(GAME, race, seed=rng.randrange(1000), autosave=path)


def test_killing_the_process_while_saving_always_leaves_a_loadable_save(race, tmp_path: Path):
    tries = int(os.environ.get("KILL_TRIES", "30"))
    path = tmp_path / "auto.yaml"
    rng = random.Random(7)
    loaded_steps = []
    torn = leftovers = 0
    for i in range(tries):
        pid = os.fork()
        if pid == 0:                            # pragma: no cover - the child is killed
            try:
                _save_for_ever(race, path, i)
            finally:
                os._exit(0)
        time.sleep(0.02 + rng.random() * 0.08)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        if not path.exists():
            continue                            # killed before its first save
        leftovers += any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
        session = Session.load(path, autosave=path)   # never raises: the previous save is whole
        loaded_steps.append(len(session.steps))
        torn += bool(session.recovered)
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")], "a leftover survived"
    assert len(loaded_steps) >= tries // 2
    print(f"\n{tries} kills: {len(loaded_steps)} saves loaded, {torn} with a cut-off last line, "
          f"{leftovers} killed mid whole write (temporary file left)")


def test_leftover_temporary_files_are_removed_at_the_next_start(race, tmp_path: Path):
    dead = tmp_path / ".auto.yaml.999999999-abcd.tmp"
    old_style = tmp_path / ".auto.yaml.k2j3h4.tmp"
    living = tmp_path / f".auto.yaml.{os.getppid()}-wxyz.tmp"      # a writer still at work
    other = tmp_path / ".notes.txt.tmp"
    for p in (dead, old_style, living, other):
        p.write_text("half a save")
    Session(GAME, race, seed=1, autosave=tmp_path / "auto.yaml")
    assert not dead.exists() and not old_style.exists()
    assert living.exists() and other.exists()
    assert clean_leftovers(tmp_path / "missing") == []


@pytest.fixture
def full_disk(monkeypatch):
    """Every write through the save module fails as on a full disk, until ``.free()``."""

    class Disk:
        full = True

        def free(self) -> None:
            self.full = False

    disk = Disk()
    real_write, real_append = savefile.write_atomically, savefile.append_text

    def write(path, text):
        if disk.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(path, text)

    def append(path, text, size):
        if disk.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_append(path, text, size)

    monkeypatch.setattr("simulator.core.savefile.write_atomically", write)
    monkeypatch.setattr("simulator.core.savefile.append_text", append)
    return disk


def test_a_full_disk_loses_nothing_in_memory_and_the_next_save_writes_it_all(race, tmp_path: Path, full_disk):
    auto = tmp_path / "auto.yaml"
    full_disk.free()
    s = Session(GAME, race, seed=3, autosave=auto)
    s.apply({"type": "roll"})
    assert not s.unsaved and s.autosave_error == ""
    full_disk.full = True
    for action in [{"type": "end_turn"}] + TURN * 3:
        with pytest.raises(OSError):
            s.apply(action)                     # the action stands; the error is reported
    assert len(s.steps) == 8 and s.unsaved and "No space left" in s.autosave_error
    with pytest.raises(OSError):
        s.undo()
    assert len(s.steps) == 7 and s.unsaved and s.autosave_error
    assert len(Session.load(auto).steps) == 1   # the last good save is whole
    full_disk.free()
    s.redo()
    assert not s.unsaved and s.autosave_error == ""
    loaded = Session.load(auto)
    assert loaded.state_data() == s.state_data() and loaded.log_digest() == s.log_digest()


def test_a_failed_append_is_cut_back_off_the_file(race, tmp_path: Path, monkeypatch):
    auto = tmp_path / "auto.yaml"
    s = Session(GAME, race, seed=3, autosave=auto)
    s.apply({"type": "roll"})
    size = auto.stat().st_size
    real_write = os.write

    def half_then_fail(fd, data):
        real_write(fd, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(savefile.os, "write", half_then_fail)
    with pytest.raises(OSError):
        s.apply({"type": "end_turn"})
    monkeypatch.setattr(savefile.os, "write", real_write)
    assert auto.stat().st_size == size and len(Session.load(auto).steps) == 1


def test_a_read_only_folder(race, tmp_path: Path):
    """chmod makes the folder read-only for a user; root ignores it, so there the folder is
    made immutable (chattr +i) when the system allows it."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    immutable = False
    try:
        if _writable(folder):
            immutable = subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0 \
                if shutil.which("chattr") else False
            if not immutable or _writable(folder):
                pytest.skip("no way to make a folder read-only here: the full-disk test covers it")
        s = Session(GAME, race, seed=3, autosave=folder / "auto.yaml")
        with pytest.raises(OSError):
            s.apply({"type": "roll"})
        assert s.unsaved and s.autosave_error and len(s.steps) == 1
        with pytest.raises(OSError):
            s.undo()
        assert s.unsaved and s.can_redo()
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
        folder.chmod(0o700)


def _writable(folder: Path) -> bool:
    probe = folder / "probe"
    try:
        probe.write_text("x")
    except OSError:
        return False
    probe.unlink()
    return True
