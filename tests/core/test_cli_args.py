"""Command-line arguments: bad numbers refused with exit status 2 naming the argument, pictures
written whole or not at all, every command stoppable with Ctrl+C, text no font draws."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.cli import main

ROOT = Path(__file__).resolve().parents[2]
TABLE = "saga/clash-of-steel"
SMALL = ["--size", "400x300"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def refused(argv: list[str], capsys, argument: str) -> str:
    code, out, err = run(argv, capsys)
    assert code == 2, (out, err)
    assert "wrote" not in out
    line = err.strip()
    assert "\n" not in line and "<input>" not in line and "Traceback" not in line, line
    assert argument in line, line
    return line


@pytest.mark.parametrize("size", ["nanxnan", "infx800", "1e3x800", "800", "100x800", "99999x800", "-800x800"])
def test_bad_sizes_are_refused_naming_the_option(size, capsys, tmp_path):
    refused(["render", TABLE, "--out", str(tmp_path / "a.png"), f"--size={size}"], capsys, "--size")
    assert not (tmp_path / "a.png").exists()


@pytest.mark.parametrize("option, ends", [
    ("--los", ["nan,nan", "3,3"]),
    ("--measure", ["3,3", "inf,2"]),
    ("--measure", ["70,3", "3,3"]),
])
def test_points_off_the_table_are_refused_naming_the_option(option, ends, capsys, tmp_path):
    # refused before drawing (a NaN point once made the drawing loop run for ever)
    line = refused(["render", TABLE, "--out", str(tmp_path / "a.png"), *SMALL, option, *ends], capsys, option)
    assert not (tmp_path / "a.png").exists(), line


def test_a_point_on_the_table_is_drawn(capsys, tmp_path):
    code, out, _ = run(["render", TABLE, "--out", str(tmp_path / "a.png"), *SMALL, "--measure", "3,3", "10,10"],
                       capsys)
    assert code == 0 and (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG")


def test_out_must_be_a_png(capsys, tmp_path):
    line = refused(["render", TABLE, "--out", str(tmp_path / "picture"), *SMALL], capsys, "--out")
    assert ".png" in line
    assert not list(tmp_path.iterdir())        # no Targa file, nothing at all


def test_out_in_a_folder_that_cannot_be_made_fails(capsys, tmp_path):
    (tmp_path / "file").write_text("x")
    refused(["render", TABLE, "--out", str(tmp_path / "file" / "a.png"), *SMALL], capsys, "--out")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_out_on_a_full_disk_fails_instead_of_saying_wrote(capsys, tmp_path):
    full = tmp_path / "full.png"
    full.symlink_to("/dev/full")
    line = refused(["render", TABLE, "--out", str(full), *SMALL], capsys, "--out")
    assert "No space left" in line


def test_render_step_must_not_be_negative(capsys, tmp_path):
    refused(["render", "demos/saga/01-saga-dice-and-orders", "--out", str(tmp_path / "a.png"), "--step", "-1"],
            capsys, "--step")


def test_bench_ai_refuses_an_unknown_scenario_before_playing(capsys):
    code, _, err = run(["bench-ai", "saga", "--scenario", "NOSUCH", "--games", "1"], capsys)
    assert code == 2 and "unknown scenario 'NOSUCH'" in err


def test_bench_ai_refuses_a_scenario_of_another_game(capsys):
    refused(["bench-ai", "saga", "--scenario", "vikings/sea_fight", "--games", "1"], capsys, "--scenario")


def test_names_no_font_draws_are_drawn_with_the_fallback_box(capsys, tmp_path):
    text = (ROOT / "scenarios/vikings/sea_fight.yaml").read_text(encoding="utf-8")
    odd = "Dragon \U0001F409 \u05e9\u05dc\u05d5\u05dd \u0639\u0631\u0628\u064a e\u0301\u0302 \U0010FFFD"
    assert "name: Vikings}" in text
    scenario = tmp_path / "odd.yaml"
    scenario.write_text(text.replace("name: Vikings}", f'name: "{odd}"}}'), encoding="utf-8")
    code, out, err = run(["render", str(scenario), "--out", str(tmp_path / "a.png"), *SMALL], capsys)
    assert code == 0, err
    assert code == 0 and (tmp_path / "a.png").exists()
    # a NUL (an escape in the file) is refused by check, render and play alike, with its line
    scenario.write_text(text.replace("name: Vikings}", 'name: "Vik\\0ings"}'), encoding="utf-8")
    line = text.split("name: Vikings}")[0].count("\n") + 1
    for argv in (["check", str(scenario)], ["render", str(scenario), "--out", str(tmp_path / "b.png"), *SMALL]):
        code, out, err = run(argv, capsys)
        assert code == 2 and f"odd.yaml:{line}:" in err and "U+0000" in err


def test_fonts_take_any_text():
    pygame = pytest.importorskip("pygame")
    from simulator.client import fonts

    fonts.reset()
    pygame.font.init()
    for value in ("a\x00b", "\ud800", "tab\there", "\U0001F409", "\u202eevil"):
        assert fonts.text(value, 16).get_width() > 0
        assert fonts.wrap(value + "\nnext", 16, 200)[-1] == "next"
    assert fonts.printable("a\x00b\x1b") == f"a{fonts.FALLBACK}b{fonts.FALLBACK}"


STOPPABLE = r"""
import sys, time
import simulator.client.render as render_module
from simulator.cli import main

def endless(target, out, size, step=None, overlays=None):
    from simulator.client.app import init_pygame
    init_pygame((300, 200))           # SDL set up, as in a real render
    print("ready", flush=True)
    while True:                       # a drawing that never ends
        time.sleep(0.01)

render_module.render = endless
sys.exit(main(["render", "saga/clash-of-steel", "--out", sys.argv[1]]))
"""


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)])
def test_a_command_busy_after_sdl_started_stops_on_ctrl_c_and_sigterm(sig, code, tmp_path):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("SDL_NO_SIGNAL_HANDLERS", None)
    proc = subprocess.Popen([sys.executable, "-c", STOPPABLE, str(tmp_path / "a.png")], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "ready" in proc.stdout.readline()
        proc.send_signal(sig)
        assert proc.wait(timeout=60) == code          # generous: a loaded machine is slow to unwind
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("option", ["--games", "--jobs", "--max-actions", "--turns"])
def test_bench_ai_counts_must_be_positive(option, capsys):
    refused(["bench-ai", "saga", f"{option}=0"], capsys, option)
