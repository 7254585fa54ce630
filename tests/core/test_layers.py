"""The dependency direction of docs/architecture.md, checked on the source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[2] / "simulator"

FORBIDDEN = {
    "core": ("pygame", "pygame_gui", "simulator.games", "simulator.client", "simulator.ai"),
    "geometry": ("pygame", "pygame_gui", "simulator.games", "simulator.client", "simulator.ai",
                 "simulator.core"),
    "ai": ("pygame", "pygame_gui", "simulator.games", "simulator.client"),
    "games": ("pygame", "pygame_gui", "simulator.client", "simulator.ai"),
    "client": ("simulator.games",),
}

#: The registry imports the games *package* (not a game) to discover the games by plug-in.
ALLOWED = {("core/registry.py", "simulator.games")}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_what_it_may(layer):
    bad = []
    for path in sorted((PKG / layer).rglob("*.py")):
        for name in imports(path):
            if (str(path.relative_to(PKG)), name) in ALLOWED:
                continue
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(PKG)} imports {name}")
    assert not bad, "\n".join(bad)


def test_a_game_imports_no_other_game():
    games = [p.name for p in (PKG / "games").iterdir() if (p / "__init__.py").exists()]
    bad = []
    for game in games:
        for path in sorted((PKG / "games" / game).rglob("*.py")):
            for name in imports(path):
                for other in games:
                    if other != game and name.startswith(f"simulator.games.{other}"):
                        bad.append(f"{path.relative_to(PKG)} imports {name}")
    assert not bad, "\n".join(bad)
