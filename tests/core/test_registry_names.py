"""Game names come from each game package's ``NAME`` without importing the rules (the
scenario list names every game at start-up), and agree with ``GAME.name``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from simulator import ROOT
from simulator.core.errors import DataError
from simulator.core.registry import _declared_name, game_ids, game_name, get_game


@pytest.mark.parametrize("game_id", game_ids())
def test_each_game_declares_the_name_its_game_object_has(game_id: str) -> None:
    assert _declared_name(game_id) is not None
    assert game_name(game_id) == get_game(game_id).name == _declared_name(game_id)


def test_naming_the_games_imports_none_of_them() -> None:
    code = ("import sys; from simulator.core.registry import game_ids, game_name; "
            "print([game_name(g) for g in game_ids()]); "
            "print(sorted(m for m in sys.modules if m.startswith('simulator.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), check=True)
    names, imported = out.stdout.strip().splitlines()
    assert "Dragon Rage" in names and "SAGA" in names
    assert imported == "[]"


def test_an_unknown_game_is_named_in_the_error() -> None:
    with pytest.raises(DataError, match="unknown game 'chess'"):
        game_name("chess")
