"""The documentation promises: every action type is listed; the scripting example runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator.core.registry import game_ids, get_game

ROOT = Path(__file__).resolve().parents[2]
ACTIONS = ROOT / "docs" / "actions.md"


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}[ \t]*\n.*?(?=^## |\Z)", text, re.M | re.S)
    return match.group(0) if match else ""


@pytest.mark.parametrize("game_id", [g for g in game_ids() if g != "race"])
def test_every_action_type_is_in_docs_actions(game_id):
    game = get_game(game_id)
    section = _section(ACTIONS.read_text(encoding="utf-8"), game.name)
    assert section, f"docs/actions.md has no section '## {game.name}'"
    missing = [t for t in game.action_types() if f"`{t}`" not in section]
    assert not missing, f"docs/actions.md ({game.name}) lacks: {', '.join(missing)}"


def test_docs_actions_is_generated_from_the_specifications():
    """docs/actions.md is written by ``python -m simulator.core.actiondocs docs/actions.md``."""
    from simulator.core.actiondocs import shipped_games
    from simulator.core.actions import render_docs

    expected = render_docs([g for g in shipped_games() if g.id != "race"])
    assert ACTIONS.read_text(encoding="utf-8") == expected, \
        "docs/actions.md is stale: run python -m simulator.core.actiondocs docs/actions.md"


def test_scripting_example_runs(tmp_path):
    from simulator.core.script import run_script

    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    example = re.search(r"```yaml\n(# example.*?)```", text, re.S)
    assert example, "docs/scripting.md has no ```yaml block starting with '# example'"
    path = tmp_path / "example.yaml"
    path.write_text(example.group(1), encoding="utf-8")
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)
