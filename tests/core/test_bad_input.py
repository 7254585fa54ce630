"""The malformed-data corpus: every file under tests/data/bad gives its expected one-line error."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.cli import check_file, main
from simulator.core import DataError

BAD = Path(__file__).resolve().parent.parent / "data" / "bad"
CASES = sorted(p for p in BAD.glob("*.yaml") if p.read_text().startswith("# expect:"))


def expectation(path: Path) -> tuple[str, int | None]:
    text = path.read_text()
    want = re.search(r"^# expect: (.*)$", text, re.M).group(1).strip()
    line = re.search(r"^# line: (\d+)$", text, re.M)
    return want, int(line.group(1)) if line else None


def test_corpus_is_large_enough():
    assert len(CASES) >= 20


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_bad_file_gives_its_message(race, path: Path):
    want, line = expectation(path)
    with pytest.raises(DataError) as err:
        check_file(str(path))
    message = str(err.value)
    assert want in message
    assert "\n" not in message
    assert err.value.file.endswith(path.name), message
    if line is not None:
        assert err.value.line == line, message


def test_check_command_exits_2_with_one_line_per_bad_file(race, capsys):
    files = [str(CASES[0]), str(CASES[1]), str(BAD / "race.yaml")]
    assert main(["check", *files]) == 2
    out, err = capsys.readouterr()
    assert "race.yaml: ok" in out
    assert len(err.strip().splitlines()) == 2


def test_cli_bad_input_has_no_traceback(tmp_path: Path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("scenario: [unclosed\n")
    for argv in (["run", str(broken)], ["check", str(broken)], ["run", str(tmp_path / "missing.yaml")]):
        proc = subprocess.run([sys.executable, "-m", "simulator", *argv], capture_output=True, text=True)
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr
        assert proc.stderr.count("\n") == 1


def test_a_reader_that_stops_early_is_not_an_error(monkeypatch) -> None:
    """`simulator list | head -2`: the pipe closes under the listing; no traceback, status 0."""
    import io
    import os

    from simulator.cli import main

    read_end, write_end = os.pipe()
    os.close(read_end)                                   # the reader has gone: writes fail (EPIPE)
    closed = io.TextIOWrapper(os.fdopen(write_end, "wb", buffering=0), write_through=True)
    monkeypatch.setattr("sys.stdout", closed)
    assert main(["list"]) == 0
