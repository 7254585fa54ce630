"""A Song of Ice and Fire: Tabletop Miniatures Game (rules digest: docs/asoiaf.md)."""

from simulator.games.asoiaf.rules import Asoiaf

GAME = Asoiaf()
