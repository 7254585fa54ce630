"""Computer players. They see the game only through ``Session`` (its legal actions,
its ``view`` for their side) and play through ``Session.apply``, like a person.
"""

from simulator.ai.players import EasyPlayer, NormalPlayer, Player, RandomPlayer, make_player

__all__ = ["EasyPlayer", "NormalPlayer", "Player", "RandomPlayer", "make_player"]
