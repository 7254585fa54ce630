"""Demonstrations: a script (``docs/scripting.md``) shown one action at a time.

A demo is an ordinary script with an optional ``title`` and ``description``; each
action may carry a ``note`` (what the step shows) and may be marked
``expect_illegal`` (the step shows the engine's refusal and its rule). Demos live in
``demos/<game>/<name>.yaml`` (or under the folder ``$SIMULATOR_DEMOS`` names) and are named
``<game>/<name>``.

The script runner does the work: :meth:`Demo.load` runs the whole script once with
:func:`~simulator.core.script.run_document` (a demo that does not replay is bad
input), :meth:`Demo.start` is the script's session before its first action, and
:meth:`Demo.at` is ``run_document(doc, until=n)``. Stepping forward applies the next
action to a live session (:meth:`Demo.apply`); stepping back is ``Session.undo``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator import ROOT
from simulator.core.data import Document
from simulator.core.errors import DataError, DiceExhausted, IllegalAction
from simulator.core.events import Event
from simulator.core.script import ScriptResult, load_script, run_document
from simulator.core.session import Session

DEMOS_DIR = ROOT / "demos"


def default_demos_dir() -> Path:
    """Where demo ids are looked up: ``$SIMULATOR_DEMOS`` if set, else ``demos/``."""
    return Path(os.environ.get("SIMULATOR_DEMOS") or DEMOS_DIR)


@dataclass(frozen=True)
class DemoStep:
    """One action of the demo, without its ``note`` and ``expect_illegal`` marks."""

    index: int
    action: dict[str, Any]
    note: str = ""
    expect_illegal: bool | str | None = None
    line: int = 0

    @property
    def pieces(self) -> list[str]:
        """Pieces the action names (for highlighting a refused action)."""
        out: list[str] = []
        for key in ("piece", "unit", "ship", "pieces", "units", "target", "targets"):
            value = self.action.get(key)
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and v not in out:
                    out.append(v)
        return out


@dataclass
class StepResult:
    """What one step did: its events, or the refusal it was meant to show."""

    step: DemoStep
    events: list[Event] = field(default_factory=list)
    refused: IllegalAction | None = None

    @property
    def pieces(self) -> list[str]:
        """The pieces to highlight: those named by the events' ``data["pieces"]``
        (for a refusal, those the action names)."""
        if self.refused is not None:
            return self.step.pieces
        out: list[str] = []
        for e in self.events:
            for p in e.data.get("pieces", []) or []:
                if isinstance(p, str) and p not in out:
                    out.append(p)
        return out


class Demo:
    """A loaded, checked demonstration."""

    def __init__(self, doc: Document, demo_id: str = "") -> None:
        self.doc = doc
        self.path = Path(doc.file)
        self.id = demo_id or self.path.stem
        data = doc.data
        self.title: str = data.get("title") or self.id
        self.description: str = data.get("description", "")
        self.steps: list[DemoStep] = []
        for i, raw in enumerate(data.get("actions", [])):
            action = dict(raw)
            note = action.pop("note", "") or ""
            expect = action.pop("expect_illegal", None)
            self.steps.append(DemoStep(i, action, note, expect, doc.line_of(("actions", i))))

    # -- loading --------------------------------------------------------------------------
    @classmethod
    def load(cls, ref: str | Path, demos_dir: Path | None = None) -> "Demo":
        """Load the demo ``ref`` (an id ``<game>/<name>``, ``demos/<game>/<name>``, or a
        path), and run it once: a demo that does not replay, or whose expectations
        fail, is a :class:`DataError` naming the file and line."""
        path, demo_id = resolve_demo(ref, demos_dir)
        doc = load_script(path)
        demo = cls(doc, demo_id)
        problem = replay_error(doc, run_document(doc), what="demo")
        if problem is not None:
            raise problem
        return demo

    # -- running --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.steps)

    def start(self) -> Session:
        """A fresh session before the first step (never autosaved)."""
        return run_document(self.doc, until=0).session

    def at(self, n: int) -> tuple[Session, StepResult | None]:
        """The session after the first ``n`` steps, and what step ``n`` did (None for 0)."""
        if not 0 <= n <= len(self.steps):
            raise DataError(f"step {n} is out of range: {self.title} has steps 0 to {len(self.steps)}",
                            file=self.doc.file)
        result = run_document(self.doc, until=n)
        if n == 0:
            return result.session, None
        step = self.steps[n - 1]
        refusal = next((r for r in result.refused if r["index"] == n - 1), None)
        if refusal is not None:
            return result.session, StepResult(step, refused=IllegalAction(refusal["reason"], refusal["rule"]))
        last = result.session.steps[-1].events if result.session.steps else []
        return result.session, StepResult(step, list(last))

    def apply(self, session: Session, n: int) -> StepResult:
        """Carry out step ``n`` (0-based) on ``session``. A refused step changes nothing."""
        step = self.steps[n]
        try:
            events = session.apply(step.action)
        except IllegalAction as exc:
            return StepResult(step, refused=exc)
        except DiceExhausted as exc:      # cannot happen for a demo that loaded
            return StepResult(step, refused=IllegalAction(str(exc)))
        return StepResult(step, events)


def replay_error(doc: Document, result: ScriptResult, *, what: str) -> DataError | None:
    """The problem of a script run as bad input, pointing at its action or expectation: an
    action that does not replay, and for a demo (``what="demo"``) a failing expectation too
    (a plain script's failing expectations are its result, not bad input)."""
    failed = result.failures[0] if result.failures and what == "demo" else ""
    problem = result.stopped or failed
    if not problem:
        return None
    how = "does not replay" if result.stopped else "checks fail"
    return doc.error(_path_of(problem), f"the {what} {how}: {_strip_where(problem)}")


def _path_of(message: str) -> tuple[str | int, ...]:
    """The place a runner message names: ``actions[3] (line 12): ...`` -> ("actions", 3)."""
    for key in ("actions", "expect"):
        if message.startswith(key + "["):
            head = message[len(key) + 1:].split("]", 1)[0]
            if head.isdigit():
                return (key, int(head))
    return ()


def _strip_where(message: str) -> str:
    """``actions[3] (line 12): illegal: x`` -> ``illegal: x`` (the error says where)."""
    for sep in ("): ", "]: "):
        head, found, rest = message.partition(sep)
        if found and head.startswith(("actions[", "expect[")):
            return rest
    return message


def list_demos(demos_dir: Path | None = None) -> list[tuple[str, Path]]:
    """Every demo under ``demos/`` as (id, path), sorted by id."""
    folder = demos_dir or default_demos_dir()
    if not folder.is_dir():
        return []
    return [(f"{p.parent.name}/{p.stem}", p) for p in sorted(folder.glob("*/*.yaml"))]


def is_demo_ref(ref: str) -> bool:
    """True for ``demos/<game>/<name>`` references (with or without ``.yaml``)."""
    return ref.replace("\\", "/").startswith("demos/")


def resolve_demo(ref: str | Path, demos_dir: Path | None = None) -> tuple[Path, str]:
    """The file of a demo reference and the demo's id."""
    folder = demos_dir or default_demos_dir()
    text = str(ref)
    path = Path(text)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        return path, _id_of(path)
    if not path.suffix and Path(text + ".yaml").is_file():
        return Path(text + ".yaml"), _id_of(Path(text + ".yaml"))
    name = text.replace("\\", "/")
    if name.startswith("demos/"):
        name = name[len("demos/"):]
    if name.endswith((".yaml", ".yml")):
        name = name.rsplit(".", 1)[0]
    candidate = folder / f"{name}.yaml"
    if name.count("/") == 1 and candidate.is_file():
        return candidate, name
    known = ", ".join(d for d, _ in list_demos(folder)) or "none"
    raise DataError(f"no such demo file or demo id (known demos: {known})", file=text)


def _id_of(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}" if path.parent.name else path.stem
