"""Action specifications: each game declares its actions once, as data plus small functions.

An :class:`ActionSpec` gives an action type its label in the players' words, the JSON Schema
of its parameters, the rule it follows, and (for games that move onto it) the functions that
offer, check and carry it out. A game returns its specifications from ``Game.action_specs()``
(an :class:`ActionTable`, which also carries the game's introduction for docs/actions.md).

The session checks every action's parameters against its schema before any rule runs
(:func:`check_params`): a wrong type, a missing or unknown parameter, a number that is not
finite or out of range is refused with one :class:`IllegalAction` naming the parameter, and
the state is unchanged. Validators are compiled once per game and type.

``python -m simulator.core.actiondocs [FILE]`` writes docs/actions.md from the specifications
of every game (:func:`render_docs`; to FILE, or to standard output).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence


from simulator.core.data import _message as schema_message
from simulator.core.data import format_path
from simulator.core.errors import IllegalAction

if TYPE_CHECKING:
    from simulator.core.game import Action, Context, Game, State

Schema = dict[str, Any]
#: A label: plain text, or a template over the action's parameters (``"{unit} bounds to {to}"``),
#: or a function of the state and the action.
Label = str | Callable[["State", "Action"], str]

#: Whole numbers beyond this are refused whatever the schema says: no rule counts that far,
#: and the engines would otherwise loop or overflow on them.
HUGE = 2 ** 31


@dataclass(frozen=True)
class ActionSpec:
    """One action type of a game (DESIGN.md, "Next contracts").

    ``params`` is the JSON Schema of the parameters (an object schema; ``type`` itself is
    added when it is compiled). ``offered``, ``check``, ``apply`` and ``options`` are for games
    whose rules move onto the specification; until then they are None and the game's own
    ``legal_actions`` and ``apply`` decide.
    """

    type: str
    label: Label
    params: Mapping[str, Any]
    rule: str
    #: What the action does, for docs/actions.md (the rule's effect, in our words).
    summary: str = ""
    offered: Callable[["State", str], bool] | None = None
    check: Callable[["State", "Action"], IllegalAction | None] | None = None
    apply: Callable[["State", "Action", "Context"], None] | None = None
    options: Callable[["State", str], list["Action"]] | None = None

    def describe(self, state: "State", action: "Action") -> str:
        """The action in the players' words."""
        if callable(self.label):
            return self.label(state, action)
        return self.label.format_map(_Blank(action))


class _Blank(dict[str, Any]):
    """Template values in words; a parameter the action lacks stays as its ``{name}``."""

    def __init__(self, action: Mapping[str, Any]) -> None:
        super().__init__({k: in_words(v) for k, v in action.items()})

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def in_words(value: Any) -> str:
    """A parameter's value as a label shows it: lists joined by commas, "none" for nothing."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return ", ".join(in_words(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(map(str, value)) or "none"
    return "none" if value is None else str(value)


class ActionTable(Mapping[str, ActionSpec]):
    """A game's action specifications by type, and the introduction of its docs section."""

    def __init__(self, specs: Iterable[ActionSpec], intro: str = "") -> None:
        self._specs: dict[str, ActionSpec] = {}
        for spec in specs:
            if spec.type in self._specs:
                raise ValueError(f"action type {spec.type!r} declared twice")
            self._specs[spec.type] = spec
        self.intro = intro

    def __getitem__(self, key: str) -> ActionSpec:
        return self._specs[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)


# --- schema fragments -------------------------------------------------------------------------
# Each phrases what the player should have written (``x-expected``, as data files do), so a
# refusal reads "expected a hex label (text), got a list".

def text(expected: str = "text", *, enum: Sequence[str] = (), doc: str = "") -> Schema:
    out: Schema = {"type": "string", "minLength": 1,
                   "x-expected": expected if expected == "text" else f"{expected} (text)"}
    if enum:
        out["enum"] = list(enum)
        out["x-expected"] = "one of " + ", ".join(enum)
    return _doc(out, doc)


def piece(expected: str = "a piece id", doc: str = "") -> Schema:
    return text(expected, doc=doc)


def hex_label(doc: str = "") -> Schema:
    return text("a hex label", doc=doc)


def integer(lo: int | None = None, hi: int | None = None, expected: str = "", doc: str = "") -> Schema:
    out: Schema = {"type": "integer"}
    out["minimum"] = -HUGE if lo is None else lo
    out["maximum"] = HUGE if hi is None else hi
    out["x-expected"] = expected or _range_words("a whole number", lo, hi)
    return _doc(out, doc)


def number(lo: float | None = None, hi: float | None = None, expected: str = "", doc: str = "") -> Schema:
    """A finite number (NaN and infinities are refused before the schema is consulted)."""
    out: Schema = {"type": "number"}
    if lo is not None:
        out["minimum"] = lo
    if hi is not None:
        out["maximum"] = hi
    out["x-expected"] = expected or _range_words("a number", lo, hi)
    return _doc(out, doc)


def distance(expected: str = "a distance in inches, 0 or more", doc: str = "") -> Schema:
    return number(0, 1000, expected, doc)


def angle(doc: str = "") -> Schema:
    """Degrees counter-clockwise; any finite value (the engines take it modulo 360)."""
    return number(-3600, 3600, "an angle in degrees", doc)


def boolean(doc: str = "") -> Schema:
    return _doc({"type": "boolean", "x-expected": "true or false"}, doc)


def point(doc: str = "") -> Schema:
    return _doc({"type": "array", "items": number(-1000, 1000), "minItems": 2, "maxItems": 2,
                 "x-expected": "a point [x, y] in inches"}, doc)


def list_of(item: Schema, expected: str, *, lo: int = 0, hi: int | None = None, unique: bool = False,
            doc: str = "") -> Schema:
    out: Schema = {"type": "array", "items": item, "minItems": lo, "x-expected": expected}
    if hi is not None:
        out["maxItems"] = hi
    if unique:
        out["uniqueItems"] = True
    return _doc(out, doc)


def mapping_of(value: Schema, expected: str, *, lo: int = 0, doc: str = "") -> Schema:
    """A mapping from ids (text keys) to ``value``."""
    return _doc({"type": "object", "additionalProperties": value, "minProperties": lo, "x-expected": expected},
                doc)


def nullable(schema: Schema, expected: str = "") -> Schema:
    """``schema`` or null."""
    return {"anyOf": [schema, {"type": "null"}], "x-expected": expected or f"{schema['x-expected']} or null",
            **({"description": schema["description"]} if "description" in schema else {})}


def either(*schemas: Schema, expected: str, doc: str = "") -> Schema:
    return _doc({"anyOf": list(schemas), "x-expected": expected}, doc)


def params(required: Mapping[str, Schema] | None = None, optional: Mapping[str, Schema] | None = None, *,
           alternatives: Sequence[Sequence[str]] = ()) -> Schema:
    """The parameters of an action: ``required`` ones, ``optional`` ones, no others.

    ``alternatives`` lists groups of parameters of which one group must be given (``[["to"],
    ["path"]]``: a destination or a path); their parameters go in ``optional``.
    """
    req = dict(required or {})
    opt = dict(optional or {})
    out: Schema = {"type": "object", "properties": {**req, **opt}, "required": list(req),
                   "additionalProperties": False}
    if alternatives:
        out["anyOf"] = [{"required": list(group)} for group in alternatives]
        out["x-alternatives"] = [list(group) for group in alternatives]
    return out


NO_PARAMS: Schema = params()


def ruled(schema: Schema, rule: str) -> Schema:
    """A copy of a fragment whose refusal cites ``rule`` rather than the action's rule."""
    return {**schema, "x-rule": rule}


def described(schema: Schema, doc: str) -> Schema:
    """A copy of a shared fragment with what it is for in this action."""
    return {**schema, "description": doc}


def _doc(schema: Schema, doc: str) -> Schema:
    if doc:
        schema["description"] = doc
    return schema


def _range_words(what: str, lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"{what} from {lo:g} to {hi:g}"
    if lo is not None:
        return f"{what}, {lo:g} or more"
    if hi is not None:
        return f"{what}, {hi:g} or less"
    return what


# --- checking ---------------------------------------------------------------------------------

def _is_whole(checker: Any, value: Any) -> bool:
    # JSON Schema's "integer" takes 3.0; the engines index lists and count dice with it
    return isinstance(value, int) and not isinstance(value, bool)


_VALIDATOR: list[Any] = []


def _validator_class() -> Any:
    """jsonschema's validator, "integer" meaning whole numbers only. Imported on the first action
    checked, not at start-up: jsonschema takes a tenth of a second to import."""
    if not _VALIDATOR:
        from jsonschema import Draft202012Validator
        from jsonschema.validators import extend
        _VALIDATOR.append(extend(Draft202012Validator,
                                 type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole)))
    return _VALIDATOR[0]


# --- the fast path ------------------------------------------------------------------------------
# jsonschema takes some 70 us to accept a small action; the session checks every action, and the
# computer players apply thousands. The schemas use a small part of JSON Schema, so each is
# compiled once into nested closures that only answer "valid or not" (a few us); jsonschema is
# consulted only for a refusal, to phrase it. Every number must also be finite and every whole
# number within HUGE, which is what _unplain_number reports.

Test = Callable[[Any], bool]
_ANNOTATIONS = {"x-expected", "x-alternatives", "x-rule", "description", "title"}
_TYPES: dict[str, Test] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool) and -HUGE <= v <= HUGE,
    "number": lambda v: (isinstance(v, float) and math.isfinite(v)) or
                        (isinstance(v, int) and not isinstance(v, bool) and -HUGE <= v <= HUGE),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def compile_schema(schema: Mapping[str, Any]) -> Test:
    """A function telling whether a value fits ``schema`` (the keywords the specifications use;
    any other keyword is refused here, so the fast path can never disagree with jsonschema)."""
    tests: list[Test] = []
    for key, want in schema.items():
        if key in _ANNOTATIONS:
            continue
        tests.append(_keyword(key, want, schema))
    if len(tests) == 1:
        return tests[0]
    return lambda v: all(t(v) for t in tests)


def _keyword(key: str, want: Any, schema: Mapping[str, Any]) -> Test:
    if key == "type":
        kinds = [_TYPES[t] for t in (want if isinstance(want, list) else [want])]
        return kinds[0] if len(kinds) == 1 else (lambda v: any(k(v) for k in kinds))
    if key == "enum":
        choices = list(want)
        return lambda v: any(v == c and type(v) is type(c) for c in choices)
    if key == "const":
        return lambda v: v == want and type(v) is type(want)
    if key == "minimum":
        return lambda v: not _TYPES["number"](v) or v >= want
    if key == "maximum":
        return lambda v: not _TYPES["number"](v) or v <= want
    if key == "minLength":
        return lambda v: not isinstance(v, str) or len(v) >= want
    if key == "minItems":
        return lambda v: not isinstance(v, list) or len(v) >= want
    if key == "maxItems":
        return lambda v: not isinstance(v, list) or len(v) <= want
    if key == "minProperties":
        return lambda v: not isinstance(v, dict) or len(v) >= want
    if key == "items":
        item = compile_schema(want)
        return lambda v: not isinstance(v, list) or all(item(x) for x in v)
    if key == "required":
        names = list(want)
        return lambda v: not isinstance(v, dict) or all(n in v for n in names)
    if key == "anyOf":
        options = [compile_schema(s) for s in want]
        return lambda v: any(o(v) for o in options)
    if key == "properties":
        props = {name: compile_schema(s) for name, s in want.items()}
        extra = schema.get("additionalProperties", True)
        if extra is False:
            return lambda v: not isinstance(v, dict) or all(k in props and props[k](x) for k, x in v.items())
        return lambda v: not isinstance(v, dict) or all(props[k](x) for k, x in v.items() if k in props)
    if key == "additionalProperties":
        if "properties" in schema:          # handled with the properties
            return lambda v: True
        if want is False:
            return lambda v: not isinstance(v, dict) or not v
        value = compile_schema(want)
        return lambda v: not isinstance(v, dict) or all(isinstance(k, str) and value(x) for k, x in v.items())
    raise ValueError(f"the action schemas' fast check does not know the keyword {key!r}")


class ParamChecker:
    """The compiled parameter schemas of one game, by action type."""

    def __init__(self, specs: Mapping[str, ActionSpec]) -> None:
        self._validators: dict[str, Any] = {}
        self._fast: dict[str, Test] = {}
        self._rules = {kind: spec.rule for kind, spec in specs.items()}
        #: A parameter whose schema names its own rule (``x-rule``) is refused citing that rule.
        self._param_rules = {kind: {name: s["x-rule"] for name, s in spec.params.get("properties", {}).items()
                                    if "x-rule" in s} for kind, spec in specs.items()}
        for kind, spec in specs.items():
            schema = dict(spec.params)
            schema["properties"] = {"type": {"const": kind}, **schema.get("properties", {})}
            _validator_class().check_schema(schema)
            self._validators[kind] = _validator_class()(schema)
            self._fast[kind] = compile_schema(schema)

    def full_check_agrees(self, action: Mapping[str, Any]) -> bool:
        """Whether jsonschema (with the finite-number rule) gives ``action`` the fast path's
        verdict: tests use it to keep the two in step."""
        kind = action.get("type")
        if kind not in self._fast:
            return True
        slow = _unplain_number(action, ()) is None and self._validators[kind].is_valid(action)
        return slow == self._fast[kind](action)

    def problem(self, action: Mapping[str, Any]) -> IllegalAction | None:
        """Why the parameters of ``action`` do not fit its type's schema (citing the action's
        rule), or None."""
        kind = action.get("type")
        fast = self._fast.get(kind)                 # type: ignore[arg-type]
        if fast is None or fast(action):
            return None
        errors = list(self._validators[kind].iter_errors(action))   # type: ignore[index]
        if errors:
            err = min(errors, key=_order)
            return IllegalAction(_phrase(kind, err), self._rule(kind, _param_of(err)))  # type: ignore[arg-type]
        # what jsonschema lets through: NaN, infinities and huge whole numbers where numbers go
        where, value = _unplain_number(action, ()) or ((), None)
        size = "a finite number" if isinstance(value, float) else f"a whole number within ±{HUGE}"
        return IllegalAction(f"{_where(kind, where)}: expected {size}, got {value!r}",  # type: ignore[arg-type]
                             self._rule(kind, where[0] if where else None))  # type: ignore[arg-type]

    def _rule(self, kind: str, param: Any) -> str:
        return self._param_rules[kind].get(param, self._rules[kind])


def _param_of(err: Any) -> str | None:
    """The parameter an error is about (None: the action as a whole)."""
    path = list(err.absolute_path)
    if path:
        return str(path[0])
    if err.validator == "required":
        missing = [k for k in err.validator_value if k not in err.instance]
        return missing[0] if missing else None
    return None


def _unplain_number(value: Any, where: tuple[str | int, ...]) -> tuple[tuple[str | int, ...], Any] | None:
    """The first NaN, infinity or huge whole number in ``value`` (JSON Schema's "number"
    accepts NaN and infinities in Python)."""
    if isinstance(value, float):
        return None if math.isfinite(value) else (where, value)
    if isinstance(value, int):
        return None if -HUGE <= value <= HUGE or isinstance(value, bool) else (where, value)
    if isinstance(value, dict):
        for k, v in value.items():
            found = _unplain_number(v, where + (k,))
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _unplain_number(v, where + (i,))
            if found is not None:
                return found
    return None


def _order(err: Any) -> tuple[int, int]:
    # the outermost problem first; at one level a missing or unknown parameter before its value
    first = err.validator in ("required", "additionalProperties")
    return (len(err.absolute_path), 0 if first else 1)


def _phrase(kind: str, err: Any) -> str:
    if err.validator == "anyOf" and "x-alternatives" in err.schema:
        groups = [" and ".join(g) for g in err.schema["x-alternatives"]]
        return f"{kind}: give {' or '.join(groups)}"
    if err.validator in ("anyOf", "oneOf") and "x-expected" in err.schema:
        path = tuple(err.absolute_path)
        return f"{_where(kind, path)}: expected {err.schema['x-expected']}, got {_got(err.instance)}"
    path, message = schema_message(err)
    if err.validator == "additionalProperties" and len(path) == 1:
        allowed = [p for p in err.schema.get("properties", {}) if p != "type"]
        takes = f"{kind} takes {', '.join(allowed)}" if allowed else f"{kind} takes no parameters"
        return f"{kind}.{path[0]}: unknown parameter ({takes})"
    if err.validator == "required":
        missing = [k for k in err.validator_value if k not in err.instance]
        if missing:
            prop = err.schema.get("properties", {}).get(missing[0], {})
            what = f" ({prop['x-expected']})" if "x-expected" in prop else ""
            return f"{_where(kind, path + (missing[0],))}: missing{what}"
    if err.validator == "type" or "x-expected" in err.schema:
        expected = err.schema.get("x-expected")
        if expected:
            return f"{_where(kind, path)}: expected {expected}, got {_got(err.instance)}"
    return f"{_where(kind, path)}: {message}"


def _where(kind: str, path: tuple[str | int, ...]) -> str:
    inner = format_path(path)
    if not inner:
        return kind
    return f"{kind}{inner}" if inner.startswith("[") else f"{kind}.{inner}"


def _got(value: Any) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value!r}" if value else "empty text"
    if isinstance(value, list):
        return "a list" if value else "an empty list"
    if isinstance(value, dict):
        return "a mapping"
    return "null" if value is None else type(value).__name__


_CHECKERS: "weakref.WeakKeyDictionary[Game, ParamChecker]" = weakref.WeakKeyDictionary()


def checker_for(game: "Game") -> ParamChecker:
    """The game's compiled parameter checker (built on first use, then kept)."""
    found = _CHECKERS.get(game)
    if found is None:
        found = _CHECKERS[game] = ParamChecker(game.action_specs())
    return found


def check_params(game: "Game", action: Mapping[str, Any]) -> None:
    """Raise :class:`IllegalAction` naming the parameter if ``action`` does not fit its
    type's declared parameters; actions of types the game declares no spec for pass."""
    problem = checker_for(game).problem(action)
    if problem is not None:
        raise problem


# --- docs/actions.md --------------------------------------------------------------------------

DOC_INTRO = """# Actions

The single list of action types, per game. An action is a plain mapping `{type: ..., ...}`
(YAML or JSON); `simulator run` scripts, saves and the client all use these. A refused action
raises `IllegalAction` with the reason and the rule that forbids it, and changes nothing.
Each game accepts only the action types of its section; anything else is refused with the list.

This file is generated from the games' action specifications (`Game.action_specs()`, in
`simulator/games/<game>/params.py`): do not edit it by hand, change the specification and run
`python -m simulator.core.actiondocs docs/actions.md` (a test fails when it is stale).
Every action's parameters are checked against the schema its row describes before any rule
runs: a missing parameter, an unknown one, a value of the wrong type, a number that is not
finite or out of range is refused naming the parameter (`fire.target: expected a hex label
(text), got a list`). *Label* is the action in the players' words, `{name}` standing for the
parameter's value.
"""


def describe_param(name: str, schema: Mapping[str, Any], required: bool) -> str:
    """One parameter for the docs: name, optional or not, what it holds, what it is for."""
    words = f"`{name}`" + ("" if required else " (optional)")
    expected = schema.get("x-expected")
    if expected:
        words += f": {expected}"
    if schema.get("description"):
        words += f"; {schema['description']}"
    if schema.get("x-rule"):
        words += f" ({schema['x-rule']})"
    return words


def describe_params(schema: Mapping[str, Any]) -> str:
    props = schema.get("properties", {})
    if not props:
        return "-"
    required = set(schema.get("required", ()))
    parts = [describe_param(n, s, n in required) for n, s in props.items()]
    text = "<br>".join(parts)
    if schema.get("x-alternatives"):
        groups = [" + ".join(f"`{p}`" for p in g) for g in schema["x-alternatives"]]
        text += "<br>give " + " or ".join(groups)
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def game_docs(name: str, table: Mapping[str, ActionSpec]) -> str:
    intro = getattr(table, "intro", "").strip()
    lines = [f"## {name}", ""]
    if intro:
        lines += [intro, ""]
    lines += ["| type | parameters | what it does | label | rule |", "|---|---|---|---|---|"]
    for spec in table.values():
        label = spec.label if isinstance(spec.label, str) else (spec.label.__doc__ or "").strip()
        lines.append(f"| `{spec.type}` | {_cell(describe_params(spec.params))} | {_cell(spec.summary)} | "
                     f"{_cell(label)} | {_cell(spec.rule)} |")
    return "\n".join(lines) + "\n"


def render_docs(games: Sequence["Game"]) -> str:
    """docs/actions.md: the introduction, then each game with specifications, by game id."""
    sections = [game_docs(g.name, g.action_specs()) for g in sorted(games, key=lambda g: g.id)
                if g.action_specs()]
    return DOC_INTRO + "\n" + "\n".join(sections)
