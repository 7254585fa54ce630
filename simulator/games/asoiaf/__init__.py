"""A Song of Ice and Fire: Tabletop Miniatures Game (rules digest: docs/asoiaf.md)."""

#: GAME.name, read by simulator.core.registry.game_name without importing the rules
NAME = "A Song of Ice and Fire"

from simulator.games.asoiaf.rules import Asoiaf

GAME = Asoiaf()
