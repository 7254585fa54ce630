"""The session: the one object a front end, a script or a computer player talks to.

It owns the action history, the dice, the event log, undo/redo and saves. The
state only changes through :meth:`Session.apply`; undo and load are replays of
the action log (with snapshots every few actions so long games stay fast).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from simulator.core.data import Document, load_yaml, schema, validate
from simulator.core.dice import Dice, DiceExhausted, Face
from simulator.core.errors import DataError, IllegalAction
from simulator.core.events import Event
from simulator.core.game import Action, Context, Game, Outcome, State
from simulator.core.plain import copy_plain, digest, freeze
from simulator.core.registry import get_game
from simulator.core.scenario import Scenario, load_scenario, scenario_from_data

SAVE_FORMAT = "simulator-save"
SAVE_VERSION = 1
SNAPSHOT_EVERY = 16

try:  # the C dumper is much faster; fall back to pure Python where libyaml is missing
    _Dumper: type = yaml.CSafeDumper
except AttributeError:  # pragma: no cover
    _Dumper = yaml.SafeDumper


@dataclass
class Step:
    """One applied action with everything needed to replay it exactly."""

    action: Action
    events: list[Event]
    dice: list[Face]
    tape_used: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action, "dice": list(self.dice), "tape_used": self.tape_used}


@dataclass
class _Replayed:
    state: State
    events: list[Event] = field(default_factory=list)


def normalise_action(action: Mapping[str, Any]) -> Action:
    """A plain-data copy of ``action``, or IllegalAction if it is not a proper action."""
    if not isinstance(action, Mapping):
        raise IllegalAction(f"an action is a mapping with a 'type', not {type(action).__name__}")
    if not isinstance(action.get("type"), str):
        raise IllegalAction("an action needs a 'type' naming what to do")
    try:
        return copy_plain(dict(action))
    except ValueError:
        raise IllegalAction("an action may hold only plain data (text, numbers, lists, mappings)") from None


class Session:
    """A game in progress.

    >>> # see tests/core for a complete example with a small game
    """

    def __init__(self, game: Game, scenario: Scenario, seed: int = 0,
                 tape: Sequence[Face] | None = None, autosave: str | Path | None = None) -> None:
        self.game = game
        self.scenario = scenario
        self.seed = int(seed)
        self.tape: list[Face] = list(tape or [])
        self.autosave_path = Path(autosave) if autosave else None
        self.dice = Dice(self.seed, self.tape)
        self._steps: list[Step] = []
        self._redo: list[Step] = []
        ctx = Context(self.dice, scenario)
        self.dice.begin_action(-1, use_tape=False)   # set-up randomness comes from the seed
        self._initial = game.setup(scenario, ctx)
        self._setup_step = Step({"type": "setup"}, ctx.events, [r.result for r in self.dice.take_records()],
                                self.dice.tape_position)
        self._state = copy_plain(self._initial)
        self._snapshots: dict[int, State] = {0: copy_plain(self._initial)}

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def new(cls, scenario: "str | Path | Scenario", seed: int = 0, *,
            tape: Sequence[Face] | None = None, autosave: str | Path | None = None) -> "Session":
        """Start ``scenario`` (an id, a path or a :class:`Scenario`) with ``seed``."""
        sc = load_scenario(scenario)
        return cls(get_game(sc.game), sc, seed, tape, autosave)

    # -- reading --------------------------------------------------------------------------
    @property
    def state(self) -> Mapping[str, Any]:
        """The current state, read-only."""
        return freeze(self._state)

    def state_data(self) -> State:
        """A plain, mutable copy of the current state (for printing or analysis)."""
        return copy_plain(self._state)

    def view(self, player: str | None) -> State:
        """What ``player`` may see of the current state (secret choices hidden)."""
        return self.game.visible_state(copy_plain(self._state), player)

    @property
    def log(self) -> list[Event]:
        """Every event so far, set-up first, in order."""
        out = list(self._setup_step.events)
        for step in self._steps:
            out.extend(step.events)
        return out

    @property
    def history(self) -> list[Action]:
        return [copy_plain(s.action) for s in self._steps]

    @property
    def steps(self) -> Sequence[Step]:
        return tuple(self._steps)

    def log_digest(self) -> str:
        """A hash of the whole log: equal for equal scenario, seed and actions."""
        return digest([e.as_dict() for e in self.log])

    def legal_actions(self) -> list[Action]:
        if self.outcome() is not None:
            return []
        return self.game.legal_actions(copy_plain(self._state))

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self._state)

    def active_player(self) -> str | None:
        return self.game.active_player(self._state)

    def check(self, action: Mapping[str, Any]) -> IllegalAction | None:
        """Why ``action`` would be refused now, or None if it is legal. Changes nothing."""
        try:
            self._run(self._state, normalise_action(action), len(self._steps), None, commit_tape=False)
        except IllegalAction as exc:
            return exc
        except DiceExhausted:
            return None
        return None

    # -- changing -------------------------------------------------------------------------
    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Carry out ``action``; returns its events. Raises :class:`IllegalAction` and
        leaves everything as it was if the rules forbid it."""
        act = normalise_action(action)
        if self.outcome() is not None:
            raise IllegalAction("the game is over")
        tape_before = self.dice.tape_position
        replayed = self._run(self._state, act, len(self._steps), None, commit_tape=True)
        rolls = [r.result for r in self.dice.take_records()]
        step = Step(act, replayed.events, rolls, self.dice.tape_position - tape_before)
        self._state = replayed.state
        self._steps.append(step)
        self._redo.clear()
        if len(self._steps) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self._steps)] = copy_plain(self._state)
        self._autosave()
        return list(step.events)

    def _run(self, state: State, action: Action, index: int, replay: list[Face] | None,
             commit_tape: bool) -> _Replayed:
        if action["type"] not in self.game.action_types():
            known = ", ".join(sorted(self.game.action_types()))
            raise IllegalAction(f"{self.game.name} has no action {action['type']!r} (its actions: {known})")
        tape_before = self.dice.tape_position
        self.dice.begin_action(index, replay)
        work = copy_plain(state)
        ctx = Context(self.dice, self.scenario)
        try:
            self.game.apply(work, copy_plain(action), ctx)
        except BaseException:
            self.dice.tape_position = tape_before
            self.dice.take_records()
            raise
        if not commit_tape:
            self.dice.tape_position = tape_before
            self.dice.take_records()
        return _Replayed(work, ctx.events)

    def can_undo(self) -> bool:
        return bool(self._steps)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> bool:
        """Take back the last action. Returns False when there is nothing to undo."""
        if not self._steps:
            return False
        step = self._steps.pop()
        self._redo.append(step)
        for k in [k for k in self._snapshots if k > len(self._steps)]:
            del self._snapshots[k]
        self._state = self._rebuild(len(self._steps))
        self.dice.tape_position -= step.tape_used
        self._autosave()
        return True

    def redo(self) -> bool:
        """Apply again the last undone action, with the same dice."""
        if not self._redo:
            return False
        step = self._redo.pop()
        replayed = self._run(self._state, step.action, len(self._steps), list(step.dice), commit_tape=True)
        self.dice.take_records()
        self.dice.tape_position += step.tape_used
        self._state = replayed.state
        self._steps.append(Step(step.action, replayed.events, step.dice, step.tape_used))
        if len(self._steps) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self._steps)] = copy_plain(self._state)
        self._autosave()
        return True

    def _rebuild(self, count: int) -> State:
        base = max(k for k in self._snapshots if k <= count)
        state = copy_plain(self._snapshots[base])
        for i in range(base, count):
            state = self._run(state, self._steps[i].action, i, list(self._steps[i].dice),
                              commit_tape=False).state
        return state

    # -- saving ---------------------------------------------------------------------------
    def to_save_data(self) -> dict[str, Any]:
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game.id,
            "scenario": {"id": self.scenario.id, "data": self.scenario.data},
            "seed": self.seed,
            "tape": list(self.tape),
            "steps": [s.as_dict() for s in self._steps],
            "redo": [s.as_dict() for s in reversed(self._redo)],
            "log_sha256": self.log_digest(),
        }
        data["sha256"] = digest(data)
        return data

    def save(self, path: str | Path) -> None:
        """Write the game to ``path`` atomically: a crash mid-write leaves the old file whole."""
        write_atomically(Path(path), yaml.dump(self.to_save_data(), Dumper=_Dumper, sort_keys=False,
                                               allow_unicode=True))

    def _autosave(self) -> None:
        if self.autosave_path is not None:
            self.save(self.autosave_path)

    @classmethod
    def load(cls, path: str | Path, *, autosave: str | Path | None = None) -> "Session":
        """Load a save written by :meth:`save`, replaying it and checking its log hash."""
        doc = load_yaml(path)
        if not isinstance(doc.data, dict) or doc.data.get("format") != SAVE_FORMAT:
            raise DataError(f"not a simulator save (expected 'format: {SAVE_FORMAT}' at the top)",
                            file=str(path), line=1)
        validate(doc, schema("save"))
        body = {k: v for k, v in doc.data.items() if k != "sha256"}
        if digest(body) != doc.data["sha256"]:
            raise doc.error(("sha256",), "the save was changed after it was written (checksum mismatch)")
        if doc.data["version"] > SAVE_VERSION:
            raise doc.error(("version",), f"written by a newer program (save version {doc.data['version']}, "
                                          f"this program reads up to {SAVE_VERSION})")
        return cls._from_save(doc, autosave)

    @classmethod
    def _from_save(cls, doc: Document, autosave: str | Path | None) -> "Session":
        data = doc.data
        try:
            scenario = scenario_from_data(data["scenario"]["data"], data["scenario"]["id"], file=doc.file)
        except DataError as exc:
            raise doc.error(("scenario", "data"), f"the embedded scenario is invalid: {exc.message}") from None
        if scenario.game != data["game"]:
            raise doc.error(("game",), f"says {data['game']!r} but its scenario is for {scenario.game!r}")
        session = cls(get_game(scenario.game), scenario, data["seed"], data.get("tape"))
        for i, raw in enumerate(data["steps"]):
            session._replay_saved(doc, ("steps", i), raw)
        if session.log_digest() != data["log_sha256"]:
            raise doc.error(("log_sha256",), "the save does not replay to the log it recorded "
                                             "(edited by hand, or written by a different rules version)")
        redo = []
        for i, raw in enumerate(data.get("redo", [])):
            redo.append(Step(raw["action"], [], list(raw["dice"]), raw.get("tape_used", 0)))
        session._redo = list(reversed(redo))
        session.autosave_path = Path(autosave) if autosave else None
        return session

    def _replay_saved(self, doc: Document, path: tuple[str | int, ...], raw: dict[str, Any]) -> None:
        index = len(self._steps)
        try:
            act = normalise_action(raw["action"])
            replayed = self._run(self._state, act, index, list(raw["dice"]), commit_tape=True)
        except IllegalAction as exc:
            raise doc.error(path + ("action",), f"this saved action is illegal when replayed: {exc}") from None
        except DiceExhausted:
            raise doc.error(path + ("dice",), "fewer recorded dice than the action needs") from None
        if self.dice.replay_left():
            raise doc.error(path + ("dice",), "more recorded dice than the action used")
        self.dice.take_records()
        tape_used = int(raw.get("tape_used", 0))
        self.dice.tape_position += tape_used
        self._state = replayed.state
        self._steps.append(Step(act, replayed.events, list(raw["dice"]), tape_used))
        if len(self._steps) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self._steps)] = copy_plain(self._state)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
