"""Dragon Rage (revised edition): dragons and other invaders against the walled towns of
Esirien and Nurkott. Rules are code in this package; tables, units and maps are YAML."""

#: GAME.name, read by simulator.core.registry.game_name without importing the rules
NAME = "Dragon Rage"

from simulator.games.dragon_rage.game import DragonRage

GAME = DragonRage()
