"""Scripts: a scenario, a seed, forced dice, a list of actions and expectations.

Scripts are the format of tests, bug reports and rules demonstrations; the
format is documented in ``docs/scripting.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator.core.data import Document, load_yaml, schema, validate
from simulator.core.errors import DataError, DiceExhausted, IllegalAction
from simulator.core.events import Event
from simulator.core.plain import canonical_json, get_path
from simulator.core.registry import get_game
from simulator.core.scenario import Scenario, load_scenario, scenario_from_data
from simulator.core.session import Session


@dataclass
class ScriptResult:
    """What running a script produced."""

    session: Session
    failures: list[str] = field(default_factory=list)
    stopped: str = ""               # the reason an unexpected illegal action stopped the run
    refused: list[dict[str, Any]] = field(default_factory=list)   # expected refusals, as they happened

    @property
    def ok(self) -> bool:
        return not self.failures and not self.stopped

    def as_dict(self) -> dict[str, Any]:
        out = self.session.outcome()
        return {
            "scenario": self.session.scenario.id,
            "seed": self.session.seed,
            "state": self.session.state_data(),
            "events": [e.as_dict() for e in self.session.log],
            "outcome": out.as_dict() if out else None,
            "refused": self.refused,
            "failures": self.failures,
            "stopped": self.stopped,
            "ok": self.ok,
        }


def load_script(path: str | Path) -> Document:
    doc = load_yaml(path)
    validate(doc, schema("script"))
    if "scenario" not in doc.data and "setup" not in doc.data:
        raise doc.error((), "a script needs 'scenario' (an id or a path) or an inline 'setup'")
    return doc


def script_scenario(doc: Document) -> Scenario:
    data = doc.data
    if "setup" in data and isinstance(data["setup"], dict) and "game" in data["setup"]:
        return scenario_from_data(data["setup"], data.get("scenario", "inline"), file=doc.file)
    if "scenario" not in data:
        raise doc.error(("setup",), "an inline 'setup' is a whole scenario: it needs 'game' (and name, "
                                    "description...)")
    ref = data["scenario"]
    if ref.endswith((".yaml", ".yml")):
        p = Path(ref)
        if not p.is_absolute():
            p = Path(doc.file).parent / p
        ref = str(p)
    try:
        return load_scenario(ref)
    except DataError as exc:
        if exc.file:
            raise
        raise doc.error(("scenario",), exc.message) from None


def run_script(path: str | Path) -> ScriptResult:
    """Run the script at ``path``. Data problems raise :class:`DataError`."""
    doc = load_script(path)
    return run_document(doc)


def run_document(doc: Document, *, until: int | None = None) -> ScriptResult:
    """Run a loaded script, optionally stopping after ``until`` actions."""
    data = doc.data
    scenario = script_scenario(doc)
    get_game(scenario.game)
    session = Session(get_game(scenario.game), scenario, data.get("seed", 0), data.get("dice"))
    result = ScriptResult(session)
    actions = data.get("actions", [])
    for i, action in enumerate(actions[:until] if until is not None else actions):
        action = dict(action)
        note = action.pop("note", None)
        expect_illegal = action.pop("expect_illegal", None)
        try:
            session.apply(action)
        except IllegalAction as exc:
            if expect_illegal is None:
                result.stopped = f"actions[{i}] (line {doc.line_of(('actions', i))}): illegal: {exc}"
                return result
            if isinstance(expect_illegal, str) and expect_illegal not in (exc.rule, exc.reason) \
                    and expect_illegal not in str(exc):
                result.failures.append(f"actions[{i}]: refused as expected, but by {exc} "
                                       f"instead of {expect_illegal!r}")
            result.refused.append({"index": i, "action": action, "reason": exc.reason, "rule": exc.rule,
                                   "note": note})
            continue
        except DiceExhausted as exc:
            result.stopped = f"actions[{i}] (line {doc.line_of(('actions', i))}): {exc}"
            return result
        if expect_illegal is not None:
            result.failures.append(f"actions[{i}] (line {doc.line_of(('actions', i))}): "
                                   f"expected to be refused, but it was allowed")
    if until is None:
        for j, check in enumerate(data.get("expect", [])):
            problem = check_expectation(session, check)
            if problem:
                result.failures.append(f"expect[{j}] (line {doc.line_of(('expect', j))}): {problem}")
    return result


def _event_matches(event: Event, pattern: dict[str, Any]) -> bool:
    if "kind" in pattern and event.kind != pattern["kind"]:
        return False
    if "rule" in pattern and not event.rule.startswith(pattern["rule"]):
        return False
    if "text" in pattern and pattern["text"].lower() not in event.text.lower():
        return False
    for key, value in pattern.get("data", {}).items():
        if event.data.get(key) != value:
            return False
    return True


def _at_least(value: Any, want: Any) -> bool:
    return _number(value) >= _number(want)


def _at_most(value: Any, want: Any) -> bool:
    return _number(value) <= _number(want)


def _number(value: Any) -> float:
    """A number to compare; text, lists and booleans are not (``"b" >= "a"`` is no count)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(value)
    return value


def _length(value: Any, want: Any) -> bool:
    if not isinstance(value, (str, list, dict)):
        raise TypeError(value)
    return len(value) == want


def _contains(value: Any, want: Any) -> bool:
    if not isinstance(value, (str, list, dict)) or (isinstance(value, str) and not isinstance(want, str)):
        raise TypeError(value)
    return want in value


def _within(value: Any, want: Any) -> bool:
    if not isinstance(want, (str, list, dict)) or (isinstance(want, str) and not isinstance(value, str)):
        raise TypeError(want)
    return value in want


#: The comparisons a ``state`` expectation may make (docs/scripting.md).
_OPS: dict[str, Any] = {
    "equals": lambda value, want: value == want,
    "not_equals": lambda value, want: value != want,
    "in": _within,
    "contains": _contains,
    "at_least": _at_least,
    "at_most": _at_most,
    "length": _length,
}


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing"


def check_expectation(session: Session, check: dict[str, Any]) -> str:
    """Empty string if ``check`` holds on ``session``, else what was wrong."""
    if "state" in check:
        path = check["state"]
        try:
            value = get_path(session.state_data(), path)
        except KeyError:
            return "" if check.get("exists") is False else f"state has no {path!r}"
        if check.get("exists") is False:
            return f"state {path!r} exists (= {canonical_json(value)}) but was expected absent"
        for op, want in check.items():
            if op in ("state", "exists"):
                continue
            test = _OPS.get(op)
            if test is None:
                return f"unknown expectation {op!r} (expected one of: {', '.join(_OPS)})"
            try:
                ok = test(value, want)
            except TypeError:
                # at_least on text, length of a number, in on a number...: the script asks a
                # question the value cannot answer; say so instead of stopping the runner
                return (f"{op} {canonical_json(want)} does not apply to state {path!r}, which is "
                        f"{_kind(value)} ({canonical_json(value)})")
            if not ok:
                return f"state {path!r} is {canonical_json(value)}; expected {op} {canonical_json(want)}"
        return ""
    if "event" in check:
        hits = [e for e in session.log if _event_matches(e, check["event"])]
        want = check.get("count")
        if want is None and not hits:
            return f"no event matching {canonical_json(check['event'])}"
        if want is not None and len(hits) != want:
            return f"{len(hits)} events match {canonical_json(check['event'])}; expected {want}"
        return ""
    if "no_event" in check:
        hits = [e for e in session.log if _event_matches(e, check["no_event"])]
        return f"unexpected event: {hits[0].text} ({hits[0].rule})" if hits else ""
    if "outcome" in check:
        out = session.outcome()
        want = check["outcome"]
        if want is None:
            return f"the game ended ({out.text}) but was expected to go on" if out else ""
        if out is None:
            return "the game has not ended"
        for key, value in want.items():
            if out.as_dict().get(key) != value:
                return f"outcome {key} is {out.as_dict().get(key)!r}; expected {value!r}"
        return ""
    if "dice_left" in check:
        left = session.dice.tape_left
        return "" if left == check["dice_left"] else f"{left} forced dice left; expected {check['dice_left']}"
    return "unknown expectation"
