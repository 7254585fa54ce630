"""The game-agnostic engine: sessions, actions, events, dice, undo/redo, saves, scripts.

Imports neither pygame nor any game. The public API:

- :class:`Session` — ``Session.new(scenario, seed)``, ``apply``, ``legal_actions``,
  ``undo``/``redo``, ``save``/``Session.load``, read-only ``state``, ``log``.
- :class:`Game`, :class:`Context`, :class:`Outcome` — what a rule system implements.
- :class:`Event`, :class:`IllegalAction`, :class:`DataError`, :class:`Dice`.
"""

from simulator.core.dice import Dice, Die, Roll
from simulator.core.errors import DataError, DiceExhausted, IllegalAction
from simulator.core.events import Event
from simulator.core.game import Action, Context, Game, Outcome, State
from simulator.core.scenario import Scenario, list_scenarios, load_scenario
from simulator.core.session import Session

__all__ = [
    "Action", "Context", "DataError", "Dice", "DiceExhausted", "Die", "Event", "Game", "IllegalAction",
    "Outcome", "Roll", "Scenario", "Session", "State", "list_scenarios", "load_scenario",
]
