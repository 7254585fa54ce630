"""Fuzzing every kind of data file: a mutated file loads cleanly or is refused with a
:class:`DataError` naming the file and a line, never a traceback or a hang.

Hypothesis mutates shipped files (a hex map of each hex game, a scenario of each game, a demo
script, a game's rules file, a save) line by line and byte by byte, and drops hostile values
into them (NaN, huge numbers, anchors, control characters, wrong types). The loaders run in
this process (``check_file``, what ``simulator check`` runs); one subprocess confirms the exit
status. Seeded and derandomized: every run tries the same cases.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from simulator.cli import check_file
from simulator.core.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
FILES = {
    "hexmap": ["maps/vikings/the_coast.yaml", "maps/dragon_rage/nurkott.yaml"],
    "scenario": ["scenarios/dragon_rage/esirien-1-fury.yaml", "scenarios/vikings/sea_fight.yaml",
                 "scenarios/saga/clash-of-steel.yaml", "scenarios/asoiaf/sharp-and-ready.yaml",
                 "scenarios/dragon_rage/pointbuy-esirien-choose.yaml"],
    "script": ["demos/saga/01-saga-dice-and-orders.yaml", "demos/vikings/speeds-and-turns.yaml"],
    "rules": ["simulator/games/dragon_rage/data/rules.yaml"],
}
SOURCES = {path: (ROOT / path).read_text(encoding="utf-8") for kind in FILES.values() for path in kind}

HOSTILE_VALUES = [
    "", "~", "-1", "0", "-5", "1.0e+309", ".nan", "-.inf", "1e308", "9" * 60, "9" * 5000, "[]", "{}", "[1, 2]",
    "{a: 1}", '"\\0"', '"\\x1b[2J"', "'\U0001F409 \u05e9\u05dc\u05d5\u05dd e\u0301'", "&a x", "*nope", "&a [*a]",
    "!!binary aGVsbG8=", "!!python/object/apply:os.system [ls]", "2001-13-45", "yes", "null", "1:2:3",
    "'0707'", "0707", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]"
    "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "[0, 0]", "[[0, 0], [1, 1], [2, 2]]", "x" * 300,
]
HOSTILE_BYTES = [b"\x00", b"\xff", b"\t", b"\r", b":", b"- ", b"&", b"*", b"{", b"[", b"'", b'"', b"\xc3", b"#",
                 b"\n  ", b"\x1b", b"%YAML 1.1\n", b"---\n"]


@st.composite
def mutated(draw: st.DrawFn, sources: dict[str, str]) -> tuple[str, bytes]:
    """A shipped file with one to three mutations."""
    name = draw(st.sampled_from(sorted(sources)))
    lines = sources[name].split("\n")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        how = draw(st.sampled_from(["value", "value", "value", "delete", "duplicate", "swap", "indent", "cut",
                                    "bytes"]))
        if how == "value" and ":" in lines[i]:
            head = lines[i].split(":", 1)[0]
            lines[i] = f"{head}: {draw(st.sampled_from(HOSTILE_VALUES))}"
        elif how == "value" and lines[i].lstrip().startswith("- "):
            lines[i] = lines[i][:len(lines[i]) - len(lines[i].lstrip())] + "- " + draw(st.sampled_from(HOSTILE_VALUES))
        elif how == "delete" and len(lines) > 1:
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, lines[i])
        elif how == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif how == "indent":
            lines[i] = draw(st.sampled_from(["  ", " ", ""])) + lines[i].lstrip(" ")[draw(st.integers(0, 1)):]
        elif how == "cut":
            lines = lines[:i + 1]
    raw = "\n".join(lines).encode("utf-8")
    if draw(st.booleans()):
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.sampled_from(HOSTILE_BYTES)) + raw[at:]
    return name, raw


def loads_or_refuses(path: Path) -> None:
    """The property: a clean load, or a one-line DataError naming this file and a line."""
    try:
        check_file(str(path))
    except DataError as exc:
        message = str(exc)
        assert exc.file == str(path), message
        assert exc.line >= 1, message
        assert "\n" not in message, message


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@seed(20261127)
@settings(max_examples=170, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(case=mutated(SOURCES))
def test_mutated_data_files_load_or_are_refused_with_file_and_line(workdir, case):
    name, raw = case
    # the files refer to maps and scenarios by id, so they load from any folder
    target = workdir / Path(name).name
    target.write_bytes(raw)
    loads_or_refuses(target)


@pytest.fixture(scope="module")
def save_source(tmp_path_factory) -> str:
    from simulator.core.scenario import load_scenario
    from simulator.core.session import Session

    session = Session.new(load_scenario("vikings/sea_fight"), 3)
    path = tmp_path_factory.mktemp("save") / "save.yaml"
    session.save(path)
    return path.read_text(encoding="utf-8")


@seed(20261128)
@settings(max_examples=40, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_saves_load_or_are_refused_with_file_and_line(workdir, save_source, data):
    _, raw = data.draw(mutated({"save": save_source}))
    target = workdir / "save.yaml"
    target.write_bytes(raw)
    loads_or_refuses(target)


def test_check_exits_2_with_one_line_per_mutated_file(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(SOURCES["scenarios/saga/clash-of-steel.yaml"].replace("turns: 6", "turns: .nan"))
    nul = tmp_path / "nul.yaml"
    nul.write_bytes(SOURCES["maps/vikings/the_coast.yaml"].encode()[:200] + b"\0\0")
    proc = subprocess.run([sys.executable, "-m", "simulator", "check", str(broken), str(nul)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in proc.stderr
    assert lines[0].startswith(f"{broken}:") and "turns: '.nan' is not a finite number" in lines[0]
    assert lines[1].startswith(f"{nul}:") and "NUL" in lines[1]
