"""Vikings (Cry Havoc series): Norse raiders against the Anglo-Saxon coast, on hex maps with ships."""

#: GAME.name, read by simulator.core.registry.game_name without importing the rules
NAME = "Vikings (Cry Havoc series)"

from simulator.games.vikings.game import GAME, Vikings

__all__ = ["GAME", "Vikings"]
