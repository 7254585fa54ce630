"""What the picker does before its first frame (issue 24: start-up): it names the games
without importing them (nor numpy, which only maps need), and fills the hidden
demonstrations list only when it is shown."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from simulator import ROOT
from simulator.client.picker import PickerScene
from tests.client.conftest import SIZE
from tests.client.games import scenario_path

DATA = Path(__file__).resolve().parent / "data"


class Host:
    def start(self, scenario, solo=None): ...

    def resume(self, path, solo=None): ...

    def quit(self): ...


def test_the_demonstrations_list_is_filled_when_first_shown():
    demos = [("client_hex/first-moves", DATA / "demos" / "client_hex" / "first-moves.yaml"),
             ("client_hex/broken", DATA / "bad_demos" / "bad-yaml.yaml")]
    picker = PickerScene(Host(), SIZE, scenarios=[("client_hex/hex", scenario_path("hex"))], demos=demos)
    assert picker.demo_list.item_list == []
    picker.set_tab("demos")
    assert [item["text"] for item in picker.demo_list.item_list] == picker.demo_names()
    assert len(picker.demo_names()) == 2
    picker.set_tab("scenarios")
    picker.set_tab("demos")                 # shown again: the same rows, not twice
    assert len(picker.demo_list.item_list) == 2


def test_the_picker_opens_without_importing_a_game_or_numpy():
    code = ("import sys; from simulator.client.app import init_pygame; init_pygame((1280, 800)); "
            "from simulator.client.picker import PickerScene\n"
            "class Host:\n    def __getattr__(self, name): return lambda *a, **k: None\n"
            "p = PickerScene(Host(), (1280, 800)); assert p.entries and p.demos\n"
            "import pygame; p.update(0.02); p.draw(pygame.display.get_surface())\n"
            "print('numpy' in sys.modules)\n"
            "print(sorted(m for m in sys.modules if m.startswith('simulator.games.')))")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT),
                         env=env, check=True)
    assert out.stdout.strip().splitlines()[-2:] == ["False", "[]"]
