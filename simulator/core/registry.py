"""Finding games and scenarios.

The core knows no game by name: a game is any package under ``simulator.games``
that exposes a ``GAME`` object (a :class:`~simulator.core.game.Game`). Tests may
:func:`register` a game of their own.

A game package may also declare ``NAME = "..."`` (its ``GAME.name``) at the top of its
``__init__.py``: :func:`game_name` reads it there without importing the game, so the
scenario list names four games without loading four rule systems.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil

from simulator.core.errors import DataError
from simulator.core.game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> None:
    """Make ``game`` available by its id (used by tests and plug-ins)."""
    _GAMES[game.id] = game


def game_ids() -> list[str]:
    """Ids of every game that can be loaded, in alphabetical order."""
    import simulator.games as pkg

    found = {m.name for m in pkgutil.iter_modules(pkg.__path__) if m.ispkg}
    return sorted(found | set(_GAMES))


def get_game(game_id: str) -> Game:
    """The game with this id, or a :class:`DataError` naming the known ones."""
    if game_id in _GAMES:
        return _GAMES[game_id]
    if game_id in game_ids():
        module = importlib.import_module(f"simulator.games.{game_id}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            _GAMES[game_id] = game
            return game
    raise DataError(f"unknown game {game_id!r} (known games: {', '.join(game_ids()) or 'none'})")


def game_name(game_id: str) -> str:
    """The name of the game with this id, as ``get_game(game_id).name`` gives it, read from its
    package's ``NAME`` when it declares one (without importing the game); a
    :class:`DataError` for an unknown game."""
    if game_id not in _GAMES:
        if game_id not in _NAMES:       # the picker asks once per scenario and demo
            _NAMES[game_id] = _declared_name(game_id) if game_id in game_ids() else None
        name = _NAMES[game_id]
        if name is not None:
            return name
    return get_game(game_id).name


#: Names read from the game packages (None: the package declares none), by game id.
_NAMES: dict[str, str | None] = {}


def _declared_name(game_id: str) -> str | None:
    """The text assigned to ``NAME`` at the top level of the game package's ``__init__.py``."""
    try:
        spec = importlib.util.find_spec(f"simulator.games.{game_id}")
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            return None
        with open(spec.origin, encoding="utf-8") as f:
            tree = ast.parse(f.read(), spec.origin)
    except (ImportError, OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == "NAME" and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            return node.value.value
    return None
