"""The contract between the engine and a rule system.

A game is plain data plus pure-ish move functions: the session hands
:meth:`Game.apply` a private copy of the state to change, so an action that turns
out to be illegal halfway leaves the real state untouched. The framework owns
turn history, randomness (``ctx.dice``), the log (``ctx.emit``) and undo.

State is plain data (dicts, lists, strings, numbers, booleans, None), so it
copies, saves and prints without any game code.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping

from simulator.core.dice import Dice, Roll
from simulator.core.events import Event

if TYPE_CHECKING:
    from simulator.core.actions import ActionSpec
    from simulator.core.aiprofile import AIProfile
    from simulator.core.scenario import Scenario

State = dict[str, Any]
Action = dict[str, Any]
_NO_SPECS: Mapping[str, Any] = {}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (or None for a draw), the level of victory, why."""

    winner: str | None
    text: str
    level: str = ""
    rule: str = ""
    scores: Mapping[str, int | float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "text": self.text, "level": self.level,
                "rule": self.rule, "scores": dict(self.scores)}


class Context:
    """What a move function may use besides the state: dice, the scenario, the log."""

    def __init__(self, dice: Dice, scenario: "Scenario") -> None:
        self.dice = dice
        self.scenario = scenario
        self.events: list[Event] = []
        dice.on_roll = self._rolled

    def emit(self, kind: str, text: str, rule: str = "", **data: Any) -> Event:
        """Record that something happened, citing the rule that decided it."""
        event = Event(kind, text, rule, data)
        self.events.append(event)
        return event

    def _rolled(self, roll: Roll) -> None:
        self.events.append(Event("dice", f"{roll.die} for {roll.purpose}: {roll.result}", "",
                                 {"die": roll.die, "result": roll.result, "purpose": roll.purpose}))


@dataclass(frozen=True)
class ScenarioSummary:
    """What the scenario list tells of a scenario besides its description: its sides (as the
    players read them), its length ("8 turns", "no turn limit") and how it is won."""

    sides: tuple[str, ...]
    length: str
    victory: str = ""


class Game(ABC):
    """One rule system. Subclasses live in ``simulator/games/<id>/``."""

    id: ClassVar[str]
    name: ClassVar[str]
    #: How rule references of this game start ("DR", "VK", "SAGA", "ASOIAF").
    rule_prefix: ClassVar[str] = ""

    @abstractmethod
    def setup(self, scenario: "Scenario", ctx: Context) -> State:
        """The initial state of ``scenario`` (may roll dice for set-up)."""

    @abstractmethod
    def legal_actions(self, state: State) -> list[Action]:
        """Every legal action now, as concrete mappings (sampled for continuous ones)."""

    @abstractmethod
    def apply(self, state: State, action: Action, ctx: Context) -> None:
        """Carry out ``action`` on ``state`` (a private copy), or raise ``IllegalAction``."""

    @abstractmethod
    def action_types(self) -> Mapping[str, str]:
        """Every action type this game accepts, with a one-line description."""

    def action_specs(self) -> Mapping[str, "ActionSpec"]:
        """The specification of every action type (``simulator.core.actions``): label, parameter
        schema, rule. The session checks each action's parameters against it before any rule
        runs; a game without specifications (the default, empty) has its parameters unchecked."""
        return _NO_SPECS

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return None

    def active_player(self, state: State) -> str | None:
        """The side that must act now (None when nobody can act)."""
        return state.get("active")

    def players(self, state: State) -> list[str]:
        return list(state.get("players", []))

    def visible_state(self, state: State, player: str | None) -> State:
        """What ``player`` may see (hides secret choices); the default hides nothing."""
        return state

    def evaluate(self, state: State, player: str) -> float:
        """How good ``state`` looks for ``player``, from -1 (lost) to 1 (won).

        Computer players search with it; games override it with their own
        judgement (material, victory points, position). The default only knows
        finished games.
        """
        out = self.outcome(state)
        if out is None or out.winner is None:
            return 0.0
        return 1.0 if out.winner == player else -1.0

    def determinize(self, visible: State, player: str, rng: Any) -> State:
        """A full state consistent with what ``player`` sees (``visible_state``).

        Computer players search on this, so they never peek at secrets: a game
        that hides information fills the hidden parts with plausible guesses
        drawn from ``rng`` (a ``random.Random``). The default is for games
        without hidden information.
        """
        return visible

    def setup_schema(self) -> Mapping[str, Any]:
        """JSON Schema of the scenario's ``setup`` and ``rules`` sections."""
        return {"type": "object"}

    def data_formats(self) -> Mapping[str, Callable[..., Any]]:
        """Loaders of this game's own data files, by their ``format:`` value."""
        return {}

    def check_map(self, hexmap: Any) -> None:
        """Raise ``DataError`` if a hex map uses terrain or features this game lacks."""

    def forces(self) -> Any:
        """Force selection before a scenario starts (point-buy, warbands, army building):
        a ``simulator.core.view.ForceRules``, or None when this game has none (the default)."""
        return None

    def scenario_summary(self, scenario: "Scenario") -> ScenarioSummary:
        """Sides, length and victory of ``scenario`` for the scenario list. The default reads the
        scenario's ``players`` (their names) and ``turns`` and says nothing of victory; a game
        adds how its scenarios are won."""
        sides = tuple(str(p.get("name") or p.get("id")) for p in scenario.players if isinstance(p, dict))
        turns = scenario.data.get("turns")
        length = f"{turns} turns" if isinstance(turns, int) else "no turn limit"
        return ScenarioSummary(sides, length)

    def next_scenario(self, state: State, scenario: "Scenario") -> dict[str, Any] | None:
        """For linked games (a campaign): the data of the next scenario, built from this
        finished game's state and scenario, or None when there is no next game (the default).
        The client offers "Next game" on the end screen when this is not None."""
        return None

    def ai_profile(self) -> "AIProfile":
        """What this game tells the computer players: budgets, which of its action types pass or
        prepare, its search hooks (``simulator.core.aiprofile``). The default knows nothing."""
        from simulator.core.aiprofile import NO_PROFILE

        return NO_PROFILE

    def presentation(self) -> Any:
        """What the client draws and which tools apply (see ``simulator.core.view``)."""
        raise NotImplementedError(f"{self.name} has no client presentation yet")
