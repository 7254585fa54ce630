"""SAGA (1st edition) and its quick-start rules: skirmish battles on a table in inches.

See docs/saga.md for the rules coverage and engine decisions, docs/actions.md#saga for
the action types.
"""

#: GAME.name, read by simulator.core.registry.game_name without importing the rules
NAME = "SAGA"

from simulator.games.saga.rules import Saga

GAME = Saga()

__all__ = ["GAME", "Saga"]
