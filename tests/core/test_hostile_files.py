"""Hostile data files: bounded before they are parsed, refused in one line with file and line.

The one-line messages of single bad files are in the corpus (tests/data/bad/hostile_*.yaml,
checked by test_bad_input.py); here: the limits themselves (size, time, memory), the two YAML
loaders giving the same documents, text a font cannot draw, script expectations of the wrong
type, and listings that go on past a broken file.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.core import data as data_module
from simulator.core.data import (C_LOADER, MAX_DEPTH, MAX_FILE_BYTES, MAX_INT_DIGITS, MAX_NODES, PURE_LOADER,
                                 load_yaml, parse_yaml)
from simulator.core.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p for folder in ("scenarios", "maps", "demos", "simulator")
                 for p in (ROOT / folder).rglob("*.yaml"))
LAUGHS = (ROOT / "tests/data/bad/hostile_billion_laughs.yaml").read_text()


def refused(text: str, loader: type | None = None) -> DataError:
    with pytest.raises(DataError) as err:
        parse_yaml(text, "hostile.yaml", loader=loader)
    message = str(err.value)
    assert "\n" not in message and message.startswith("hostile.yaml:"), message
    return err.value


# -- the two loaders --------------------------------------------------------------------------
@pytest.mark.skipif(C_LOADER is None, reason="PyYAML without libyaml")
def test_libyaml_is_the_loader_when_installed():
    assert data_module.LOADER is C_LOADER


@pytest.mark.skipif(C_LOADER is None, reason="PyYAML without libyaml")
def test_both_loaders_give_the_same_document_for_every_shipped_file():
    assert len(SHIPPED) > 100
    for path in SHIPPED:
        fast, slow = load_yaml(path, loader=C_LOADER), load_yaml(path, loader=PURE_LOADER)
        assert (fast.data, fast.lines, fast.raw_keys) == (slow.data, slow.lines, slow.raw_keys), path


@pytest.mark.parametrize("loader", [C_LOADER, PURE_LOADER], ids=["libyaml", "pure"])
def test_both_loaders_refuse_the_same_way(loader):
    if loader is None:
        pytest.skip("PyYAML without libyaml")
    assert refused(LAUGHS, loader).line == 9
    assert refused("a: [1,\n  2\n", loader).line == 3
    assert refused("a: 1\nb: 'x\x00'\n", loader).line == 2


# -- limits -----------------------------------------------------------------------------------
def test_billion_laughs_is_refused_fast_and_small():
    assert len(LAUGHS.encode()) < 700
    err = refused(LAUGHS)            # refused by counting, before anything is expanded (0.3 ms measured)
    assert f"more than {MAX_NODES:,} values with its anchors expanded" in err.message


def test_an_anchor_inside_itself_is_refused():
    assert "used inside its own value" in refused("a: &x [1, *x]\n").message


def test_nesting_depth_is_limited_before_the_composer_recurses():
    deep = "a: " + "[" * 50_000 + "]" * 50_000 + "\n"
    err = refused(deep)
    assert f"nested more than {MAX_DEPTH} levels" in err.message and err.line == 1
    parse_yaml("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n")      # the limit itself is fine


def test_integer_digits_are_limited_below_pythons_own_limit():
    err = refused("a: 1\nb: " + "9" * 4301 + "\n")
    assert err.line == 2 and err.field == "b" and f"at most {MAX_INT_DIGITS}" in err.message
    assert parse_yaml("b: " + "9" * MAX_INT_DIGITS + "\n").data["b"] == int("9" * MAX_INT_DIGITS)


@pytest.mark.parametrize("text", ["a: .nan\n", "a: -.inf\n", "a: 1.0e+999\n"])
def test_numbers_are_finite(text):
    assert "not a finite number" in refused(text).message


@pytest.mark.parametrize("escape, code", [("\\0", "U+0000"), ("\\x1b", "U+001B"), ("\\x7f", "U+007F")])
def test_text_with_control_characters_is_refused(escape, code):
    err = refused(f'name: ok\nnotes: "a{escape}b"\n')
    assert err.line == 2 and err.field == "notes" and code in err.message


def test_a_torn_save_names_the_line_of_its_nul_bytes(tmp_path):
    torn = tmp_path / "torn.yaml"
    torn.write_bytes(b"format: simulator-save\nversion: 2\nsteps:\n- a\n" + b"\0" * 4096)
    with pytest.raises(DataError) as err:
        load_yaml(torn)
    assert err.value.line == 5 and "NUL" in err.value.message


def test_a_file_larger_than_the_limit_is_refused_naming_the_limit(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" + b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    with pytest.raises(DataError) as err:
        load_yaml(big)
    assert f"{MAX_FILE_BYTES // 2**20} MB limit" in err.value.message and err.value.line > 1


def test_a_link_to_dev_zero_is_read_only_up_to_the_limit(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(DataError) as err:
        load_yaml(link)
    assert "MB limit" in err.value.message
    # ru_maxrss is in kB on Linux: at most the limit and a little was read
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 3 * MAX_FILE_BYTES // 1024


def test_a_pipe_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="pipe"):
        load_yaml(fifo)


def test_the_largest_file_allowed_is_read_and_one_value_more_is_refused():
    # how long it takes is measured, not asserted (tests never assert on time): about 1 s of CPU
    text = "a:\n" + "  - 0\n" * (MAX_NODES - 3)
    assert len(parse_yaml(text).data["a"]) == MAX_NODES - 3
    assert "more than" in refused(text + "  - 1\n  - 2\n").message


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc")
def test_check_of_hostile_files_is_fast_and_small_as_a_command(tmp_path):
    """The command itself: exit status 2, one line each, well under 200 MB."""
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    files = [str(ROOT / "tests/data/bad" / n) for n in ("hostile_billion_laughs.yaml", "hostile_deep_nesting.yaml",
                                                        "hostile_long_integer.yaml", "hostile_torn_save.yaml")]
    # VmHWM, the peak memory of this program (ru_maxrss would count the forking pytest's too)
    code = ("import re, sys, time; from simulator.cli import main; t = time.process_time(); "
            "r = main(['check', *sys.argv[1:]]); "
            "peak = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1); "
            "print(peak, time.process_time() - t); sys.exit(r)")
    proc = subprocess.run([sys.executable, "-c", code, *files, str(zero)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 5 and "Traceback" not in proc.stderr
    rss_kb, _cpu = proc.stdout.split()[-2:]          # the CPU time is printed, not asserted on
    assert int(rss_kb) < 200 * 1024


# -- scripts: expectations on the wrong kind of value ------------------------------------------
@pytest.mark.parametrize("expectation, words", [
    ({"at_least": 3}, "at_least 3 does not apply"),
    ({"at_most": 3}, "at_most 3 does not apply"),
    ({"length": 2}, None),
])
def test_expectations_of_the_wrong_type_fail_with_a_message(race, expectation, words):
    from simulator.core.script import check_expectation
    from simulator.core.session import Session

    session = Session.new(race, 0)
    text_path = next(k for k, v in session.state_data().items() if isinstance(v, str))
    number_path = next(k for k, v in session.state_data().items()
                       if isinstance(v, int) and not isinstance(v, bool))
    path = number_path if "length" in expectation else text_path
    problem = check_expectation(session, {"state": path, **expectation})
    assert "does not apply" in problem and path in problem
    if words:
        assert words in problem


def test_run_reports_a_wrong_type_expectation_instead_of_crashing(race, tmp_path, capsys):
    from simulator.cli import main
    from simulator.core.session import Session

    state = Session.new(race, 0).state_data()
    text_path = next(k for k, v in state.items() if isinstance(v, str))
    script = tmp_path / "s.yaml"
    script.write_text(f"setup: {{game: race, name: R, description: x, setup: {{goal: 5}}}}\n"
                      f"expect:\n  - {{state: {text_path}, at_least: 2}}\n")
    assert main(["run", str(script)]) == 1
    assert "expect[0] (line 3): at_least 2 does not apply" in capsys.readouterr().err


# -- listings go on past a broken file ---------------------------------------------------------
GOOD = "game: race\nname: Good race\ndescription: fine\nsetup: {goal: 3}\n"
ODD_NAME = "'<i>Dragon</i> \U0001F409 \u05e9\u05dc\u05d5\u05dd e\u0301 & co'"


@pytest.fixture
def folders(race, tmp_path, monkeypatch):
    scen, demos = tmp_path / "scenarios", tmp_path / "demos"
    (scen / "race").mkdir(parents=True)
    (demos / "race").mkdir(parents=True)
    (scen / "race" / "good.yaml").write_text(GOOD)
    (scen / "race" / "broken.yaml").write_text("game: race\nname: [\n")
    (scen / "race" / "laughs.yaml").write_text(LAUGHS)
    (scen / "race" / "odd.yaml").write_text(GOOD.replace("Good race", ODD_NAME), encoding="utf-8")
    (demos / "race" / "good.yaml").write_text("title: A good demo\nsetup:\n  " + GOOD.replace("\n", "\n  ")
                                              + "\nactions: []\n")
    (demos / "race" / "broken.yaml").write_bytes(b"title: torn\n\0\0\0")
    monkeypatch.setenv("SIMULATOR_SCENARIOS", str(scen))
    monkeypatch.setenv("SIMULATOR_DEMOS", str(demos))
    return scen, demos


def test_list_shows_broken_scenarios_with_their_reason_and_goes_on(folders, capsys):
    from simulator.cli import main

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "race/good" in out and "Good race" in out
    broken = [line for line in out.splitlines() if "race/broken" in line][0]
    assert "(broken: " in broken and "broken.yaml:3: not valid YAML" in broken
    laughs = [line for line in out.splitlines() if "race/laughs" in line][0]
    assert "anchors expanded" in laughs


def test_demo_list_shows_broken_demos_and_goes_on(folders, capsys):
    from simulator.cli import main

    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "A good demo" in out
    assert "broken.yaml:2: the file holds NUL bytes" in out


def test_picker_lists_broken_files_and_goes_on(folders):
    pygame = pytest.importorskip("pygame")
    from simulator.client.app import init_pygame
    from simulator.client.picker import PickerScene, demo_entries

    class Host:
        def start(self, *a): ...
        def resume(self, *a): ...
        def quit(self): ...

    screen = init_pygame((1000, 700))
    try:
        scene = PickerScene(Host(), (1000, 700))
        odd = next(name for name in scene.entries if "\U0001F409" in name)
        scene._describe_scenario(scene.entries[odd], odd)      # what choosing it in the list shows
        scene._describe_scenario(scene.entries["(broken) race/broken"], "(broken) race/broken")
        scene.update(0.05)
        scene.draw(screen)
    finally:
        pygame.quit()
    assert any(name.endswith("Good race") for name in scene.entries)
    assert any("\U0001F409" in name for name in scene.entries)       # listed, and drawn below
    assert "not valid YAML" in scene.entries["(broken) race/broken"]
    entries = demo_entries()
    assert "NUL bytes" in entries["(broken) race/broken"].error
    assert any(e.title == "A good demo" and not e.error for e in entries.values())


def test_scenario_ids_are_looked_up_in_the_chosen_folder(folders):
    from simulator.core.scenario import load_scenario

    assert load_scenario("race/good").name == "Good race"
    with pytest.raises(DataError, match="not valid YAML"):
        load_scenario("race/broken")


# -- saves: read bounded, the header checked before yaml.load ---------------------------------
@pytest.fixture
def save_text(race, tmp_path) -> bytes:
    from simulator.core.session import Session

    session = Session.new(race, 1)
    session.apply({"type": "roll"})
    session.save(tmp_path / "save.yaml")
    return (tmp_path / "save.yaml").read_bytes()


def test_a_save_with_nul_bytes_inside_names_the_line(save_text, tmp_path):
    from simulator.cli import check_file

    torn = tmp_path / "torn.yaml"
    middle = save_text.index(b"\nseed:") + 1
    torn.write_bytes(save_text[:middle] + b"\0" * 64 + save_text[middle:])
    with pytest.raises(DataError) as err:
        check_file(str(torn))
    assert err.value.line > 1 and err.value.file == str(torn)


def test_a_save_whose_header_holds_a_billion_laughs_is_refused_fast(save_text, tmp_path):
    from simulator.core.session import Session

    at = save_text.index(b"\nscenario:") + 1
    laughs = LAUGHS.split("\n", 3)[3].strip().splitlines()
    bad = tmp_path / "laughs.yaml"
    bad.write_bytes(save_text[:at] + b"x:\n" + "".join(f"  {line}\n" for line in laughs).encode() + save_text[at:])
    with pytest.raises(DataError, match="anchors expanded"):
        Session.load(bad)


def test_a_save_that_links_to_dev_zero_is_read_only_up_to_its_limit(tmp_path):
    from simulator.core.data import MAX_SAVE_BYTES
    from simulator.core.session import Session

    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(DataError, match=f"{MAX_SAVE_BYTES // 2**20} MB limit"):
        Session.load(link)


def test_check_of_a_pipe_is_refused_without_waiting(tmp_path, capsys):
    from simulator.cli import main

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert main(["check", str(fifo)]) == 2
    assert "pipe" in capsys.readouterr().err


def test_two_vikings_characters_with_one_id_are_refused_by_check(tmp_path):
    from simulator.cli import check_file

    text = (ROOT / "scenarios/vikings/sea_fight.yaml").read_text(encoding="utf-8")
    assert "id: tor," in text
    twice = tmp_path / "twice.yaml"
    twice.write_text(text.replace("id: tor,", "id: svein,"), encoding="utf-8")
    with pytest.raises(DataError) as err:
        check_file(str(twice))
    assert "the id 'svein' is used twice" in err.value.message
    assert err.value.line == text.split("id: tor,")[0].count("\n") + 1


@pytest.mark.parametrize("value, words", [("!!binary aGVsbG8=", "checksum"), ("2001-13-45", "cannot read value"),
                                          ("&x [1, *x]", "inside its own value")])
def test_a_save_header_with_objects_yaml_would_build_is_refused_with_a_line(save_text, tmp_path, value, words):
    """yaml.load built bytes, dates and self-containing lists there, which broke the checksum code."""
    from simulator.core.session import Session

    goal = re.search(rb"\n( +goal: )\d+\n", save_text)       # inside the embedded scenario's set-up
    bad = tmp_path / "odd.yaml"
    bad.write_bytes(save_text[:goal.start(1)] + goal.group(1) + value.encode() + save_text[goal.end() - 1:])
    with pytest.raises(DataError) as err:
        Session.load(bad)
    assert words in err.value.message and err.value.line >= 1
