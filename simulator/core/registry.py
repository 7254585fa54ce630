"""Finding games and scenarios.

The core knows no game by name: a game is any package under ``simulator.games``
that exposes a ``GAME`` object (a :class:`~simulator.core.game.Game`). Tests may
:func:`register` a game of their own.
"""

from __future__ import annotations

import importlib
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
