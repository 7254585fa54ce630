"""Vikings (Cry Havoc series): Norse raiders against the Anglo-Saxon coast, on hex maps with ships."""

from simulator.games.vikings.game import GAME, Vikings

__all__ = ["GAME", "Vikings"]
