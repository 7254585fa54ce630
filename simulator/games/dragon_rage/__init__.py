"""Dragon Rage (revised edition): dragons and other invaders against the walled towns of
Esirien and Nurkott. Rules are code in this package; tables, units and maps are YAML."""

from simulator.games.dragon_rage.game import DragonRage

GAME = DragonRage()
