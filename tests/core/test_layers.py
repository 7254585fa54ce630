"""The dependency direction of docs/architecture.md, checked on the source."""

from __future__ import annotations

import ast
from functools import cache
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


@cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a source file, parsed once for all the tests of this module."""
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


@cache
def imports(path: Path) -> frozenset[str]:
    out = set()
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return frozenset(out)


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


def _literals(path: Path) -> set[str]:
    return {node.value for node in _nodes(path) if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def test_the_computer_players_name_no_game_and_no_action_type():
    """Per-game knowledge reaches ``simulator/ai`` only through ``Game.ai_profile()``: no game id
    anywhere in its source, and no game's action type as a string (the profile names them)."""
    import re

    from simulator.core.registry import game_ids, get_game

    games = {game_id: get_game(game_id) for game_id in game_ids()}
    kinds = {kind for game in games.values() for kind in game.action_types()}
    bad = []
    for path in sorted((PKG / "ai").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for game_id in games:
            if re.search(rf"\b{re.escape(game_id)}\b", text):
                bad.append(f"{path.relative_to(PKG)} names the game {game_id!r}")
        for literal in sorted(_literals(path) & kinds):
            bad.append(f"{path.relative_to(PKG)} names the action type {literal!r}")
    assert not bad, "\n".join(bad)


def test_every_game_profile_is_typed_and_its_hooks_callable():
    from simulator.core.aiprofile import AIProfile
    from simulator.core.registry import game_ids, get_game
    from simulator.core.scenario import list_scenarios

    known = {sid for sid, _ in list_scenarios()}
    for game_id in game_ids():
        game = get_game(game_id)
        profile = game.ai_profile()
        assert isinstance(profile, AIProfile), game_id
        kinds = set(game.action_types())
        named = set(profile.pass_types + profile.eager_types + profile.keep_types + profile.resolve_types
                    + profile.fight_types + profile.resolve_after + profile.expand)
        assert named <= kinds | {"end_phase", "end_turn", "pass", "skip"}, (game_id, named - kinds)
        for hook in (profile.heuristic, profile.in_fight, profile.replies, profile.extra_actions):
            assert hook is None or callable(hook), game_id
        assert set(profile.bench_scenarios) <= known, (game_id, set(profile.bench_scenarios) - known)
