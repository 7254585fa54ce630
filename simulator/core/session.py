"""The session: the one object a front end, a script or a computer player talks to.

It owns the action history, the dice, the event log, undo/redo and saves. The
state only changes through :meth:`Session.apply`; undo is a replay of the action log
from the nearest snapshot (one every few actions so long games stay fast). A save
(``core/savefile.py``) is a journal that autosaving appends to; loading starts from its
last state snapshot and replays only the actions after it.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from simulator.core.actions import check_params
from simulator.core.data import MAX_SAVE_BYTES, Document, load_yaml, read_limited, schema, validate
from simulator.core.dice import Dice, DiceExhausted, Face
from simulator.core.errors import DataError, IllegalAction
from simulator.core.events import Event
from simulator.core.game import Action, Context, Game, Outcome, State
from simulator.core.plain import canonical_json, copy_plain, digest, freeze
from simulator.core.registry import get_game
from simulator.core import savefile
from simulator.core.savefile import (SAVE_FORMAT, SAVE_VERSION, Journal, StaleJournal,
                                     clean_leftovers, header_text, read_journal, record_line,
                                     split_header, version1_text, write_atomically)
from simulator.core.scenario import Scenario, load_scenario, scenario_from_data

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "Session", "Step", "normalise_action", "write_atomically"]

SNAPSHOT_EVERY = 16
#: The autosave also stores a snapshot once the actions since the last one took this much CPU
#: time to apply, so loading never replays more than about this much.
SNAPSHOT_CPU = 0.05
#: A whole write keeps the snapshots every SNAPSHOT_EVERY actions over this many last actions,
#: and one every SPARSE_SNAPSHOTS actions before them: a long game's save stays small (an undo
#: that far back replays at most that many actions once).
DENSE_SNAPSHOTS = 512
SPARSE_SNAPSHOTS = 256
#: Appends may grow the autosave this much past twice its compact size before a rewrite.
COMPACT_BYTES = 1 << 20


@dataclass
class Step:
    """One applied action with everything needed to replay it exactly."""

    action: Action
    #: None for an undone step read from a version-1 save, until it is redone.
    events: list[Event] | None
    dice: list[Face]
    tape_used: int = 0
    #: The autosave file holds a state snapshot taken just after this step.
    snapshot_saved: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action, "dice": list(self.dice), "tape_used": self.tape_used}

    def record(self, index: int) -> dict[str, Any]:
        """The journal line of this step (``core/savefile.py``)."""
        events = None if self.events is None else [e.as_dict() for e in self.events]
        return {"op": "do", "n": index, "action": self.action, "dice": list(self.dice),
                "tape_used": self.tape_used, "events": events}


@dataclass
class _Attached:
    """The autosave file this session appends to, as it last wrote it."""

    path: Path
    size: int
    chain: str
    records: int
    #: Its size when it was last written whole (appends may grow it to about twice that).
    whole_size: int


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
        # at set-up a script's tape feeds the rolls of dice (a drowning test at load); deck
        # shuffles and random draws still come from the seed (docs/architecture.md)
        self.dice.begin_action(-1, lots_from_tape=False)
        self._initial = game.setup(scenario, ctx)
        self._setup_step = Step({"type": "setup"}, ctx.events, [r.result for r in self.dice.take_records()],
                                self.dice.tape_position)
        self._state = copy_plain(self._initial)
        self._snapshots: dict[int, State] = {0: copy_plain(self._initial)}
        #: The autosave file while its content is known; None: the next autosave rewrites it.
        self._journal: _Attached | None = None
        #: Journal lines of the changes made since the last autosave.
        self._pending: list[dict[str, Any]] = []
        #: Why the last autosave failed ("" once a save succeeds); the client keeps it on screen.
        self.autosave_error = ""
        self._unsaved = False
        #: CPU seconds the actions since the last saved snapshot took (what a load would replay).
        self._cost_since_snapshot = 0.0
        #: Set by :meth:`load` when the save's last line was cut off by an interrupted write.
        self.recovered = ""
        if self.autosave_path is not None:
            clean_leftovers(self.autosave_path.parent)

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
            out.extend(step.events or ())
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
        started = time.process_time()
        replayed = self._run(self._state, act, len(self._steps), None, commit_tape=True)
        self._cost_since_snapshot += time.process_time() - started
        rolls = [r.result for r in self.dice.take_records()]
        step = Step(act, replayed.events, rolls, self.dice.tape_position - tape_before)
        self._state = replayed.state
        self._steps.append(step)
        self._redo.clear()
        if len(self._steps) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self._steps)] = copy_plain(self._state)
        self._changed(step.record(len(self._steps) - 1))
        return list(replayed.events)

    def _run(self, state: State, action: Action, index: int, replay: list[Face] | None,
             commit_tape: bool) -> _Replayed:
        if action["type"] not in self.game.action_types():
            known = ", ".join(sorted(self.game.action_types()))
            raise IllegalAction(f"{self.game.name} has no action {action['type']!r} (its actions: {known})")
        check_params(self.game, action)   # the declared parameters, before any rule runs
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
        self._changed({"op": "undo", "n": len(self._steps)})
        return True

    def redo(self) -> bool:
        """Apply again the last undone action, with the same dice. A step that no longer
        replays (a save from another rules version, or edited) is refused with
        :class:`IllegalAction` and dropped, with the undone actions after it."""
        if not self._redo:
            return False
        step = self._redo[-1]
        started = time.process_time()
        replayed = self._replay_problem(self._state, step, len(self._steps))
        self._cost_since_snapshot += time.process_time() - started
        if isinstance(replayed, str):
            dropped = len(self._redo)
            self._redo.clear()
            try:
                self._changed({"op": "drop"})
            except OSError:
                pass            # autosave_error says so; the refusal matters more here
            raise IllegalAction(f"cannot redo {step.action.get('type')!r}: {replayed}; "
                                f"{'it was' if dropped == 1 else f'the {dropped} undone actions were'} "
                                "dropped (a save from another rules version, or edited by hand)")
        self._redo.pop()
        self.dice.tape_position += step.tape_used
        self._state = replayed.state
        step.events = replayed.events
        self._steps.append(step)
        if len(self._steps) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self._steps)] = copy_plain(self._state)
        self._changed({"op": "redo", "n": len(self._steps)})
        return True

    def _replay_problem(self, state: State, step: Step, index: int) -> "_Replayed | str":
        """``step`` replayed on ``state`` with its recorded dice, or why it cannot be.
        Game code may fail in any way on a step it never produced (an edited save): every
        failure is a reason, never a crash."""
        try:
            replayed = self._run(state, normalise_action(step.action), index, list(step.dice), commit_tape=False)
        except IllegalAction as exc:
            return f"it is illegal now ({exc})"
        except DiceExhausted:
            return "it needs more dice than were recorded"
        except Exception as exc:     # noqa: BLE001 - see above
            return f"the rules failed on it ({type(exc).__name__}: {exc})"
        finally:
            self.dice.take_records()
        if self.dice.replay_left():
            return "it uses fewer dice than were recorded"
        return replayed

    def redo_problem(self) -> str:
        """Why the undone actions could not all be redone ("" if they can); changes nothing."""
        state = self._state
        for n, step in enumerate(reversed(self._redo)):
            replayed = self._replay_problem(state, step, len(self._steps) + n)
            if isinstance(replayed, str):
                return f"undone action {n + 1} ({step.action.get('type')!r}) cannot be redone: {replayed}"
            state = replayed.state
        return ""

    def _rebuild(self, count: int) -> State:
        base = max(k for k in self._snapshots if k <= count)
        state = copy_plain(self._snapshots[base])
        for i in range(base, count):
            state = self._run(state, self._steps[i].action, i, list(self._steps[i].dice),
                              commit_tape=False).state
            if (i + 1) % SNAPSHOT_EVERY == 0:   # a long way back (after a load): the next undo is quick
                self._snapshots[i + 1] = copy_plain(state)
        return state

    # -- saving ---------------------------------------------------------------------------
    @property
    def unsaved(self) -> bool:
        """True when the last change is on no disk (the autosave failed, or there is none)."""
        return self._unsaved

    def version1_data(self) -> dict[str, Any]:
        """This game in the version-1 save format (the whole action list, replayed on load),
        which :meth:`load` still reads; the benchmark writes it as its baseline."""
        data = {
            "format": SAVE_FORMAT,
            "version": 1,
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

    def save_version1(self, path: str | Path) -> None:
        savefile.write_atomically(Path(path), version1_text(self.version1_data()))

    def save(self, path: str | Path) -> None:
        """Write the whole game to ``path`` atomically: a crash mid-write leaves the old file
        whole. Saving to the autosave file makes autosaving append to it again."""
        path = Path(path)
        clean_leftovers(path.parent)
        self._write_whole(path)
        self._unsaved = False
        self.autosave_error = ""

    def _changed(self, record: dict[str, Any]) -> None:
        self._unsaved = True
        if self._journal is not None:
            self._pending.append(record)
        self._autosave()

    def _autosave(self) -> None:
        """Append the pending journal lines (and a snapshot when one is due) to the autosave,
        or rewrite it whole when its content is not known. A failure is kept in
        :attr:`autosave_error` and raised; the game in memory is untouched and the next
        autosave rewrites the file whole."""
        if self.autosave_path is None:
            return
        try:
            j = self._journal
            if j is None or j.records > self._journal_limit() or j.size > 2 * j.whole_size + COMPACT_BYTES:
                self._write_whole(self.autosave_path)
            else:
                self._append(j)
        except OSError as exc:
            self._journal = None
            self._pending.clear()
            self.autosave_error = f"the autosave to {self.autosave_path} failed: {exc.strerror or exc}"
            raise
        self.autosave_error = ""
        self._unsaved = False

    def _journal_limit(self) -> int:
        """Undo and redo add lines: past this many the file is rewritten, compact (as it is
        when appended snapshots have made it twice as long as a compact one)."""
        live = len(self._steps) + len(self._redo)
        return 2 * live + live // SNAPSHOT_EVERY + 64

    def _append(self, j: _Attached) -> None:
        records = list(self._pending)
        top = self._steps[-1] if self._steps else None
        count = len(self._steps)
        if top is not None and not top.snapshot_saved and \
                (count % SNAPSHOT_EVERY == 0 or self._cost_since_snapshot >= SNAPSHOT_CPU):
            if count not in self._snapshots:
                self._snapshots[count] = copy_plain(self._state)
            snap = self._snapshot_record(count)
            if snap is not None:
                records.append(snap)
                top.snapshot_saved = True
                self._cost_since_snapshot = 0.0
        parts, chain = [], j.chain
        for rec in records:
            line, chain = record_line(chain, rec)
            parts.append(line)
        try:
            # through the module: its writes are the seam tests fail on purpose
            j.size = savefile.append_text(j.path, "".join(parts), j.size)
        except StaleJournal:
            self._write_whole(j.path)
            return
        j.chain, j.records = chain, j.records + len(records)
        self._pending.clear()

    def _snapshot_record(self, count: int) -> dict[str, Any] | None:
        """The snapshot line of the state after ``count`` steps, or None when the state does
        not survive JSON (then loading replays from an earlier snapshot instead)."""
        state = self._snapshots[count]
        try:
            if json.loads(json.dumps(state)) != state:
                return None
        except (TypeError, ValueError):
            return None
        return {"op": "snap", "n": count, "state": state}

    def _write_whole(self, path: Path) -> None:
        """The whole game as a fresh journal: every step (the undone ones too, then undone
        again), the snapshots in memory (thinned out: see DENSE_SNAPSHOTS) and one of the
        current state. Written to the autosave file, it becomes the file autosaving appends to."""
        head, chain = header_text(self.game.id, self.scenario.id, self.scenario.data, self.seed, self.tape)
        parts = [head]
        done = list(self._steps)
        everything = done + list(reversed(self._redo))
        snapped: list[Step] = []
        if done and len(done) not in self._snapshots:
            self._snapshots[len(done)] = copy_plain(self._state)
        for i, step in enumerate(everything):
            line, chain = record_line(chain, step.record(i))
            parts.append(line)
            k = i + 1
            kept = k % SNAPSHOT_EVERY == 0 and (k > len(done) - DENSE_SNAPSHOTS or k % SPARSE_SNAPSHOTS == 0)
            if i < len(done) and k in self._snapshots and (kept or k == len(done)):
                snap = self._snapshot_record(k)
                if snap is not None:
                    line, chain = record_line(chain, snap)
                    parts.append(line)
                    snapped.append(step)
        for n in range(len(everything) - 1, len(done) - 1, -1):
            line, chain = record_line(chain, {"op": "undo", "n": n})
            parts.append(line)
        text = "".join(parts)
        savefile.write_atomically(path, text)
        if self.autosave_path is not None and _same_file(path, self.autosave_path):
            size = len(text.encode("utf-8"))
            self._journal = _Attached(path, size, chain, len(parts) - 1, size)
            self._pending.clear()
            for step in everything:
                step.snapshot_saved = False
            for step in snapped:
                step.snapshot_saved = True
            self._cost_since_snapshot = 0.0

    @classmethod
    def load(cls, path: str | Path, *, autosave: str | Path | None = None) -> "Session":
        """Load a save written by :meth:`save`: from its last state snapshot, replaying only
        the actions after it (their events must be the recorded ones). Version-1 saves are
        replayed whole. :meth:`replay_check` replays any save from the start."""
        text = _read_text(path)
        if split_header(text) is None:
            return cls._from_version1(path, autosave)
        return cls._from_journal(read_journal(text, str(path)), Path(path), autosave)

    @classmethod
    def _from_version1(cls, path: str | Path, autosave: str | Path | None) -> "Session":
        doc = load_yaml(path)
        if not isinstance(doc.data, dict) or doc.data.get("format") != SAVE_FORMAT:
            raise DataError(f"not a simulator save (expected 'format: {SAVE_FORMAT}' at the top)",
                            file=str(path), line=1)
        if isinstance(doc.data.get("version"), int) and doc.data["version"] > 1:
            raise doc.error(("version",), "the save's journal is missing (the file was cut short or edited)")
        validate(doc, schema("save"))
        body = {k: v for k, v in doc.data.items() if k != "sha256"}
        if digest(body) != doc.data["sha256"]:
            raise doc.error(("sha256",), "the save was changed after it was written (checksum mismatch)")
        return cls._from_save(doc, autosave)

    @classmethod
    def _new_from_header(cls, data: Mapping[str, Any], file: str,
                         where: Callable[[tuple[str, ...], str], DataError]) -> "Session":
        try:
            scenario = scenario_from_data(data["scenario"]["data"], data["scenario"]["id"], file=file)
        except DataError as exc:
            raise where(("scenario", "data"), f"the embedded scenario is invalid: {exc.message}") from None
        if scenario.game != data["game"]:
            raise where(("game",), f"says {data['game']!r} but its scenario is for {scenario.game!r}")
        return cls(get_game(scenario.game), scenario, data["seed"], data.get("tape"))

    @classmethod
    def _from_save(cls, doc: Document, autosave: str | Path | None) -> "Session":
        """A version-1 save: every action replayed."""
        data = doc.data
        session = cls._new_from_header(data, doc.file, doc.error)
        for i, raw in enumerate(data["steps"]):
            try:
                act = normalise_action(raw["action"])
            except IllegalAction as exc:
                raise doc.error(("steps", i, "action"), str(exc)) from None
            session._replay_saved(Step(act, None, list(raw["dice"]), int(raw.get("tape_used", 0))),
                                  lambda f, m, i=i: doc.error(("steps", i, f), m))
        if session.log_digest() != data["log_sha256"]:
            raise doc.error(("log_sha256",), "the save does not replay to the log it recorded "
                                             "(edited by hand, or written by a different rules version)")
        redo = []
        for raw in data.get("redo", []):
            redo.append(Step(raw["action"], None, list(raw["dice"]), raw.get("tape_used", 0)))
        session._redo = list(reversed(redo))
        session._attach_autosave(autosave)
        return session

    @classmethod
    def _from_journal(cls, journal: Journal, path: Path, autosave: str | Path | None) -> "Session":
        """A version-2 save: the journal's operations redone on lists of steps (no rules run),
        then the state from the last snapshot that belongs to the final list of steps, and
        the actions after it replayed."""
        def fail(line: int) -> Callable[[str, str], DataError]:
            return lambda f, m: DataError(m, file=journal.file, line=line, field=f)

        header_error = fail(1)
        session = cls._new_from_header(journal.header, journal.file, lambda f, m: header_error(".".join(f), m))
        steps: list[Step] = []
        redo: list[Step] = []
        lines: dict[int, int] = {}
        snaps: dict[int, tuple[Step, State]] = {}
        for rec in journal.records:
            d, op = rec.data, rec.op
            expected = {"do": len(steps), "undo": len(steps) - 1, "redo": len(steps) + 1, "snap": len(steps)}
            if op in expected and (d["n"] != expected[op] or (op == "undo" and not steps)
                                   or (op == "redo" and not redo) or (op == "snap" and not steps)):
                raise journal.error(rec.line, f"a '{op}' line that does not follow from the lines before it "
                                              "(edited by hand?)")
            if op == "do":
                try:
                    act = normalise_action(d["action"])
                except IllegalAction as exc:
                    raise journal.error(rec.line, str(exc)) from None
                events = None if d.get("events") is None else [
                    Event(e["kind"], e["text"], str(e.get("rule", "")), dict(e.get("data") or {}))
                    for e in d["events"]]
                step = Step(act, events, list(d["dice"]), int(d.get("tape_used", 0)))
                lines[id(step)] = rec.line
                steps.append(step)
                redo.clear()
            elif op == "undo":
                redo.append(steps.pop())
            elif op == "redo":
                steps.append(redo.pop())
            elif op == "drop":
                redo.clear()
            else:
                snaps[len(steps)] = (steps[-1], d["state"])
                steps[-1].snapshot_saved = True
        # a snapshot is good for the final list when its step is still at its place (a step
        # only leaves the list by undo, so the steps under it are the ones it was taken after)
        valid = {k: state for k, (top, state) in snaps.items() if k <= len(steps) and steps[k - 1] is top}
        known = next((i for i, s in enumerate(steps) if s.events is None), len(steps))
        base = max(k for k in [0, *valid] if k <= known)
        session._snapshots.update(valid)
        if base:
            session._state = copy_plain(valid[base])
            session.dice.tape_position += sum(s.tape_used for s in steps[:base])
        session._steps = steps[:base]
        for step in steps[base:]:
            recorded = step.events
            session._replay_saved(step, fail(lines[id(step)]))
            if recorded is not None and _events_text(recorded) != _events_text(step.events):
                raise journal.error(lines[id(step)], "the save does not replay to the log it recorded "
                                                     "(edited by hand, or written by a different rules version)")
        session._redo = redo
        if journal.torn_line:
            session.recovered = (f"line {journal.torn_line} was cut off by an interrupted write and was "
                                 "ignored: the game is as it was saved just before")
        session._attach_autosave(autosave)
        if session.autosave_path is not None and _same_file(path, session.autosave_path) and not journal.torn_line:
            session._journal = _Attached(path, journal.size, journal.chain, len(journal.records), journal.size // 2)
        return session

    def _attach_autosave(self, autosave: str | Path | None) -> None:
        self.autosave_path = Path(autosave) if autosave else None
        if self.autosave_path is not None:
            clean_leftovers(self.autosave_path.parent)

    def _replay_saved(self, step: Step, where: Callable[[str, str], DataError]) -> None:
        """Replay a step read from a save onto the current state and keep it, with the
        events the replay produces."""
        index = len(self._steps)
        try:
            replayed = self._run(self._state, step.action, index, list(step.dice), commit_tape=True)
        except IllegalAction as exc:
            raise where("action", f"this saved action is illegal when replayed: {exc}") from None
        except DiceExhausted:
            raise where("dice", "fewer recorded dice than the action needs") from None
        if self.dice.replay_left():
            raise where("dice", "more recorded dice than the action used")
        self.dice.take_records()
        self.dice.tape_position += step.tape_used
        self._state = replayed.state
        step.events = replayed.events
        self._steps.append(step)
        if len(self._steps) % SNAPSHOT_EVERY == 0:
            self._snapshots[len(self._steps)] = copy_plain(self._state)

    @classmethod
    def replay_check(cls, path: str | Path) -> list[str]:
        """Replay a save from its first action (``simulator check --replay``): the problems
        found (the events or a state snapshot differ from the replay, an undone action no
        longer redoes); DataError when it does not load at all."""
        text = _read_text(path)
        if split_header(text) is None:
            session = cls._from_version1(path, None)
            problem = session.redo_problem()
            return [problem] if problem else []
        journal = read_journal(text, str(path))
        loaded = cls._from_journal(journal, Path(path), None)
        fresh = cls._new_from_header(journal.header, journal.file, lambda f, m: DataError(m, file=journal.file))
        problems = []
        for i, step in enumerate(loaded._steps):
            copy = Step(step.action, None, list(step.dice), step.tape_used)
            try:
                fresh._replay_saved(copy, lambda f, m: DataError(m, file=journal.file, field=f))
            except DataError as exc:
                problems.append(f"action {i + 1} ({step.action.get('type')!r}): {exc.message}")
                break
            if _events_text(copy.events) != _events_text(step.events):
                problems.append(f"action {i + 1} ({step.action.get('type')!r}) does not replay to the "
                                "events it recorded")
                break
            snap = loaded._snapshots.get(i + 1)
            if step.snapshot_saved and snap is not None and snap != fresh._state:
                problems.append(f"the state snapshot after action {i + 1} is not the replayed state")
                break
        problem = loaded.redo_problem()
        if problem:
            problems.append(problem)
        return problems


def _read_text(path: str | Path) -> str:
    try:
        raw = read_limited(path, MAX_SAVE_BYTES)     # a link to /dev/zero is not read to the end
    except FileNotFoundError:
        raise DataError("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise DataError("is a folder, expected a save", file=str(path)) from None
    except OSError as exc:
        raise DataError(f"cannot read the file: {exc.strerror}", file=str(path)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"not a UTF-8 text file (bad byte at offset {exc.start})", file=str(path),
                        line=raw[:exc.start].count(b"\n") + 1) from None


def _events_text(events: Sequence[Event] | None) -> str:
    """Events as the save holds them (JSON: a tuple reads back as a list), to compare."""
    return canonical_json([e.as_dict() for e in events or ()])


def _same_file(a: Path, b: Path) -> bool:
    return os.path.abspath(a) == os.path.abspath(b)
