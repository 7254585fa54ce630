"""Loading YAML data with line numbers, and validating it against a schema.

Every data file the program reads (maps, scenarios, unit catalogues, saves,
scripts) goes through :func:`load_yaml` and :func:`validate`, so every error names
the file, the line, the field, and what was expected.

Schemas are JSON Schema (draft 2020-12) documents, checked by the ``jsonschema``
library; an optional ``x-expected`` keyword on a schema node phrases what a
player should have written there ("a hex label such as '0707'"). Every program start
validates a dozen files, nearly always good ones: a schema made of the keywords the shipped
schemas use is compiled into a quick yes/no check (:func:`fast_check`), and ``jsonschema``
(a tenth of a second to import) is loaded only to phrase a refusal.

A data file may come from anyone (a scenario from a forum, a save passed round), so it is
bounded before it is trusted: at most :data:`MAX_FILE_BYTES` are read, the YAML events are
counted before any node tree is built (:data:`MAX_NODES` values after anchors are expanded,
so a "billion laughs" file is refused after a few thousand events; :data:`MAX_DEPTH` levels of
nesting), integers have at most :data:`MAX_INT_DIGITS` digits, numbers are finite and text
holds no control characters. YAML is read by libyaml (``yaml.CSafeLoader``) when PyYAML was
built with it, else by the pure-Python loader; both give the same nodes and lines.

A file that read well is kept, parsed, in a small cache (:func:`cache_dir`) under the hash of
its bytes, so the next start reads the maps, rules and demos it needs without parsing them
again; any change to a file changes its hash. A file that fails is never kept: its error is
found and phrased afresh each time.

>>> doc = parse_yaml("a: 1\\nb: [x, 2]\\n", "demo.yaml")
>>> doc.line_of(("b", 1))
2
>>> validate(doc, {"type": "object", "properties": {"a": {"type": "string"}}})
Traceback (most recent call last):
...
simulator.core.errors.DataError: demo.yaml:1: a: expected a string, got the integer 1
"""

from __future__ import annotations

import hashlib
import marshal
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

import yaml

from simulator.core.errors import DataError

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

PathKey = tuple[str | int, ...]

#: The largest data file read (bytes). The biggest shipped file is under 50 kB, a save of a
#: long game a few hundred kB.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: The largest save read (bytes): its journal of actions grows with the game (about 2 kB an
#: action with events and snapshots), and is read line by line as JSON, not as YAML nodes.
MAX_SAVE_BYTES = 16 * 1024 * 1024
#: Values (scalars, lists, mappings) a file may hold once its anchors (``&a`` / ``*a``) are
#: expanded: bounds the time and memory of reading any file to about a second and tens of MB.
MAX_NODES = 100_000
#: Lists and mappings nested in each other: the deepest shipped file has 9 levels.
MAX_DEPTH = 64
#: Digits of an integer (Python itself refuses to read more than 4300).
MAX_INT_DIGITS = 40

#: The YAML loaders: libyaml's when PyYAML has it (several times faster), else pure Python.
PURE_LOADER: type = yaml.SafeLoader
C_LOADER: type | None = getattr(yaml, "CSafeLoader", None) if getattr(yaml, "__with_libyaml__", False) else None
LOADER: type = C_LOADER or PURE_LOADER

_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_STR_TAG = "tag:yaml.org,2002:str"
#: Characters YAML refuses in a file (it allows tab, newline, carriage return and printable
#: text; a NUL is what a save torn by a crash ends with).
_BAD_FILE_CHAR = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
#: Control characters (and halves of surrogate pairs) a text value may still carry through
#: escapes (``"\\0"``, ``"\\x07"``, ``"\\ud800"``): no font draws them, a NUL ends a string in
#: the C libraries that draw text, and a lone surrogate cannot be written as UTF-8.
_BAD_TEXT_CHAR = re.compile("[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]")


@dataclass
class Document:
    """Parsed YAML: plain data plus the line of every mapping key and list item."""

    data: Any
    file: str
    lines: dict[PathKey, int] = field(default_factory=dict)
    #: Mapping keys YAML read as something other than text (``0707:`` is a number), by path.
    raw_keys: dict[PathKey, Any] = field(default_factory=dict)

    def line_of(self, path: Iterable[str | int]) -> int:
        """The line of the deepest known node on ``path`` (1-based; 0 if unknown)."""
        key = tuple(path)
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return self.lines.get((), 0)

    def error(self, path: Iterable[str | int], message: str) -> DataError:
        """A :class:`DataError` pointing at ``path`` in this document."""
        key = tuple(path)
        return DataError(message, file=self.file, line=self.line_of(key), field=format_path(key))


def format_path(path: Iterable[str | int]) -> str:
    """``("actions", 3, "type")`` -> ``"actions[3].type"``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


class _Constructor(yaml.constructor.SafeConstructor):
    pass


def _line(node_or_event: Any) -> int:
    mark = getattr(node_or_event, "start_mark", None)
    return mark.line + 1 if mark is not None else 0


def _count_values(text: str, file: str, loader: type) -> None:
    """Refuse a document nested too deep or too large once its anchors are expanded.

    Works on the parser's events, before any node exists: an alias counts as the size of the
    value its anchor names, so a "billion laughs" (nine aliases of nine aliases of ...) stops
    at the alias that passes :data:`MAX_NODES`, after a few thousand events.
    """
    sizes: dict[str, int] = {}          # values under each anchor, itself included
    open_values: list[list[Any]] = []   # [values so far, anchor] of each open list or mapping
    total = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(open_values) >= MAX_DEPTH:
                raise DataError(f"lists and mappings nested more than {MAX_DEPTH} levels deep",
                                file=file, line=_line(event))
            open_values.append([1, event.anchor])
            total += 1
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            count, anchor = open_values.pop()
            if anchor is not None:
                sizes[anchor] = count
            if open_values:
                open_values[-1][0] += count
            continue
        elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            # an alias of an anchor still open (``&a [*a]``) counts 1 here; _build stops it
            count = sizes.get(event.anchor, 1) if isinstance(event, yaml.AliasEvent) else 1
            if isinstance(event, yaml.ScalarEvent) and event.anchor is not None:
                sizes[event.anchor] = 1
            total += count
            if open_values:
                open_values[-1][0] += count
        else:
            continue
        if total > MAX_NODES:
            what = "with its anchors expanded " if isinstance(event, yaml.AliasEvent) else ""
            raise DataError(f"the file holds more than {MAX_NODES:,} values {what}(the limit for data files)",
                            file=file, line=_line(event))


class _Budget:
    """Values left to build: anchors used inside themselves would otherwise never end."""

    def __init__(self) -> None:
        self.left = MAX_NODES


def _scalar(node: yaml.ScalarNode, path: PathKey, file: str, ctor: _Constructor) -> Any:
    """A scalar's value, refusing what no data file needs and would break later code."""
    where = {"file": file, "line": _line(node), "field": format_path(path)}
    if node.tag == _INT_TAG:
        digits = sum(c.isalnum() for c in node.value)
        if digits > MAX_INT_DIGITS:
            raise DataError(f"a whole number of {digits} digits (at most {MAX_INT_DIGITS})", **where)
    try:
        value = ctor.construct_object(node, deep=True)
    except (ValueError, OverflowError) as exc:
        raise DataError(f"cannot read value {node.value[:40]!r}: {exc}", **where) from None
    if isinstance(value, float) and not math.isfinite(value):
        raise DataError(f"{node.value[:40]!r} is not a finite number", **where)
    if isinstance(value, str):
        bad = _BAD_TEXT_CHAR.search(value)
        if bad:
            raise DataError(f"text holds the control character U+{ord(bad.group()):04X}, "
                            "which cannot be shown", **where)
    return value


def _build(node: yaml.Node, path: PathKey, lines: dict[PathKey, int], file: str, ctor: _Constructor,
           raw_keys: dict[PathKey, Any], budget: _Budget) -> Any:
    budget.left -= 1
    if budget.left < 0 or len(path) > MAX_DEPTH:
        raise DataError("an anchor is used inside its own value (it would never end)", file=file,
                        line=_line(node), field=format_path(path[:4]))
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        ctor.flatten_mapping(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise DataError("mapping keys must be plain words or numbers", file=file,
                                line=key_node.start_mark.line + 1, field=format_path(path))
            key = _scalar(key_node, path, file, ctor)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise DataError("mapping keys must be plain words or numbers", file=file,
                                line=key_node.start_mark.line + 1, field=format_path(path))
            if not isinstance(key, str):
                raw_keys[path + (str(key),)] = key
                key = str(key)
            if key in out:
                raise DataError(f"key {key!r} appears twice", file=file,
                                line=key_node.start_mark.line + 1, field=format_path(path))
            out[key] = _build(value_node, path + (key,), lines, file, ctor, raw_keys, budget)
            lines[path + (key,)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), lines, file, ctor, raw_keys, budget) for i, item in enumerate(node.value)]
    value = _scalar(node, path, file, ctor)
    # Timestamps and binary would not survive a JSON round trip: keep their text.
    if not isinstance(value, (str, int, float, bool, type(None))):
        value = node.value
    return value


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _check_characters(text: str, file: str) -> None:
    """Name the first character YAML refuses, with its line (YAML's own message has none)."""
    bad = _BAD_FILE_CHAR.search(text)
    if bad is None:
        return
    line = text.count("\n", 0, bad.start()) + 1
    code = ord(bad.group())
    if code == 0:
        raise DataError("the file holds NUL bytes (a save cut short by a crash, or not a text file)",
                        file=file, line=line)
    raise DataError(f"the file holds the control character U+{code:04X}, which YAML does not allow",
                    file=file, line=line)


def check_bounds(text: str, file: str, *, loader: type | None = None) -> None:
    """Refuse YAML text that any loader would choke on: characters YAML does not allow, too many
    values once anchors are expanded, too deep. For code that loads YAML itself (a save's
    header) before trusting ``yaml.load``; :func:`parse_yaml` does this on its own."""
    _check_characters(text, file)
    try:
        _count_values(text, file, loader or LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise DataError(f"not valid YAML: {_one_line(exc.problem or exc.context or '')}", file=file,
                        line=mark.line + 1 if mark else 1) from None
    except yaml.YAMLError as exc:
        raise DataError(f"not valid YAML: {_one_line(str(exc))}", file=file, line=1) from None


def parse_yaml(text: str, file: str = "<input>", *, loader: type | None = None) -> Document:
    """Parse YAML text into a :class:`Document`, or raise :class:`DataError` with the line.

    ``loader`` is the PyYAML loader class (default :data:`LOADER`: libyaml's when present).
    """
    loader = loader or LOADER
    if len(text) > MAX_FILE_BYTES:
        raise DataError(f"the text is larger than the {MAX_FILE_BYTES // 2**20} MB limit for data files",
                        file=file, line=1)
    _check_characters(text, file)
    try:
        _count_values(text, file, loader)
        nodes = list(yaml.compose_all(text, Loader=loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        problem = _one_line(exc.problem or exc.context or "not valid YAML")
        raise DataError(f"not valid YAML: {problem}", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise DataError(f"not valid YAML: {_one_line(str(exc))}", file=file, line=1) from None
    if len(nodes) > 1:
        raise DataError("the file holds several YAML documents; expected one", file=file,
                        line=_line(nodes[1]) or 1)
    if not nodes or nodes[0] is None:
        raise DataError("the file is empty", file=file, line=1)
    lines: dict[PathKey, int] = {}
    raw_keys: dict[PathKey, Any] = {}
    ctor = _Constructor()
    try:
        data = _build(nodes[0], (), lines, file, ctor, raw_keys, _Budget())
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        raise DataError(f"cannot read value: {_one_line(exc.problem or '')}", file=file,
                        line=mark.line + 1 if mark else 0) from None
    return Document(data, file, lines, raw_keys)


def read_limited(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a data file, reading at most ``limit`` + 1 of them (a link to /dev/zero
    or a huge file is refused without filling the memory); :class:`DataError` otherwise."""
    p = Path(path)
    try:
        if stat.S_ISFIFO(p.stat().st_mode) or stat.S_ISSOCK(p.stat().st_mode):
            raise DataError("is a pipe or socket, expected a YAML file", file=str(path), line=1)
        with p.open("rb") as fh:
            raw = fh.read(limit + 1)
    except FileNotFoundError:
        raise DataError("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise DataError("is a folder, expected a YAML file", file=str(path)) from None
    except OSError as exc:
        raise DataError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from None
    if len(raw) > limit:
        raise DataError(f"the file is larger than the {limit // 2**20} MB limit for data files "
                        "(it reaches the limit on this line)", file=str(path), line=raw[:limit].count(b"\n") + 1)
    return raw


def load_yaml(path: str | Path, *, loader: type | None = None) -> Document:
    """Read and parse a YAML file; a missing, unreadable, oversized or malformed file is a
    :class:`DataError` naming the file and line. With the default loader, a file read before
    comes from the parse cache (a ``loader`` named on purpose always parses)."""
    raw = read_limited(path)
    if loader is None:
        cached = _cached(raw, str(path))
        if cached is not None:
            return cached
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"not a UTF-8 text file (bad byte at offset {exc.start})", file=str(path),
                        line=raw[:exc.start].count(b"\n") + 1) from None
    doc = parse_yaml(text, str(path), loader=loader)
    if loader is None:
        _keep(raw, doc)
    return doc


# --- the parse cache ---------------------------------------------------------------------------

#: Files smaller than this are parsed each time (a fraction of a millisecond).
CACHE_MIN_BYTES = 2048
#: Files kept at most; past it the older half is removed.
CACHE_MAX_FILES = 1000
#: What a cached parse depends on besides the bytes: the parser, the limits, this format.
_CACHE_TAG = (f"simulator-data-1 yaml {yaml.__version__} {LOADER.__name__} "
              f"{MAX_NODES} {MAX_DEPTH} {MAX_INT_DIGITS} {MAX_FILE_BYTES}")


def cache_dir() -> Path | None:
    """Where parsed data files are kept: ``$SIMULATOR_CACHE`` (``0`` or empty: nowhere), else
    ``$XDG_CACHE_HOME/simulator/data`` or ``~/.cache/simulator/data``."""
    env = os.environ.get("SIMULATOR_CACHE")
    if env is not None:
        return None if env.strip() in ("", "0", "off") else Path(env).expanduser()
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:            # no home folder
        return None
    return base / "simulator" / "data"


def _cache_file(raw: bytes) -> Path | None:
    folder = cache_dir()
    if folder is None or len(raw) < CACHE_MIN_BYTES:
        return None
    digest = hashlib.blake2b(raw, digest_size=20, person=b"simulator-data").hexdigest()
    return folder / f"{digest}.bin"


def _cached(raw: bytes, file: str) -> Document | None:
    """The kept parse of these bytes, or None (not kept, unreadable, or from another version)."""
    target = _cache_file(raw)
    if target is None:
        return None
    try:
        kept = marshal.loads(target.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(kept, tuple) and len(kept) == 4 and kept[0] == _CACHE_TAG
            and isinstance(kept[2], dict) and isinstance(kept[3], dict)):
        return None
    return Document(kept[1], file, kept[2], kept[3])


def _keep(raw: bytes, doc: Document) -> None:
    """Keep the parse of a file that read well (quietly nothing if the cache cannot be written)."""
    target = _cache_file(raw)
    if target is None:
        return
    try:
        blob = marshal.dumps((_CACHE_TAG, doc.data, doc.lines, doc.raw_keys))
        target.parent.mkdir(parents=True, exist_ok=True)
        entries = list(os.scandir(target.parent))
        if len(entries) >= CACHE_MAX_FILES:
            for entry in sorted(entries, key=lambda e: e.stat().st_mtime)[:len(entries) // 2]:
                os.unlink(entry.path)
        part = target.with_name(f"{target.name}.{os.getpid()}.part")
        part.write_bytes(blob)
        os.replace(part, target)            # another process reads the whole file or none
    except (OSError, ValueError):
        return


_TYPE_WORDS = {
    "string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
    "object": "a mapping (key: value)", "array": "a list", "null": "nothing (null)",
}


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else repr(value)


def _message(err: ValidationError) -> tuple[PathKey, str]:
    path: PathKey = tuple(err.absolute_path)
    expected = err.schema.get("x-expected") if isinstance(err.schema, Mapping) else None
    v = err.validator
    if v == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(allowed))
        hint = f" (expected one of: {', '.join(allowed)})" if allowed else ""
        if extra:
            return path + (extra[0],), f"unknown key {extra[0]!r}{hint}"
    if v == "required":
        missing = [k for k in err.validator_value if k not in err.instance]
        return path, f"missing field {missing[0]!r}" if missing else err.message
    if expected:
        return path, f"expected {expected}, got {_describe(err.instance)}"
    if v == "type":
        types = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        words = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        return path, f"expected {words}, got {_describe(err.instance)}"
    if v == "enum":
        return path, f"expected one of: {', '.join(map(str, err.validator_value))}; got {_describe(err.instance)}"
    if v == "const":
        return path, f"expected {err.validator_value!r}, got {_describe(err.instance)}"
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return path, f"{_describe(err.instance)} is out of range ({v} {err.validator_value})"
    if v in ("minItems", "maxItems", "minLength", "maxLength", "minProperties"):
        return path, f"{v} is {err.validator_value}; got {_describe(err.instance)}"
    if v == "pattern":
        return path, f"{_describe(err.instance)} does not have the expected form ({err.validator_value})"
    if v in ("oneOf", "anyOf") and err.context:
        best = min(err.context, key=lambda e: len(list(e.absolute_path)) * -1)
        return _message(best)
    return path, err.message


def validate(doc: Document, schema: Mapping[str, Any], at: PathKey = ()) -> None:
    """Check ``doc.data`` (or the part at path ``at``) against a JSON Schema.

    Raises a :class:`DataError` for the first problem, in document order.
    """
    instance = doc.data
    for key in at:
        instance = instance[key]
    check = fast_check(schema)
    if check is not None and check(instance):
        return
    from jsonschema import Draft202012Validator     # only to phrase a refusal (slow to import)

    errors = list(Draft202012Validator(schema).iter_errors(instance))
    if not errors:
        return
    found = []
    for err in errors:
        path, msg = _message(err)
        full = at + path
        found.append((doc.line_of(full), full, msg))
    line, path, msg = min(found, key=lambda f: (f[0], -len(f[1])))
    raise DataError(msg, file=doc.file, line=line, field=format_path(path))


# --- the quick check ---------------------------------------------------------------------------
# It answers "valid or not" exactly as jsonschema's Draft202012Validator (without a format
# checker) does, for the keywords below; a schema using any other keyword, or a reference other
# than "#/..." inside the schema, gets no quick check and goes to jsonschema. A quick "no" is
# only a hint: jsonschema then finds (and phrases) the problem, or lets the value through.
# (simulator/core/actions.py has its own compiler: actions count 3.0 as no whole number.)

Check = Callable[[Any], bool]


class _NoQuickCheck(Exception):
    """The schema uses something the quick check does not do."""


#: Keywords that never refuse a value (annotations), for the quick check.
_ANNOTATIONS = frozenset({"$schema", "$comment", "$defs", "definitions", "title", "description",
                          "default", "examples", "format", "deprecated", "readOnly", "writeOnly"})


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_TYPE_CHECKS: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    # draft 2020-12 counts 3.0 as an integer
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": _is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _equal(a: Any, b: Any) -> bool:
    """JSON Schema's equality (``enum``, ``const``): true is not 1, 1 is 1.0."""
    if a is b:
        return True
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return bool(a == b)


def _compile(node: Any, root: Mapping[str, Any], refs: dict[str, Check]) -> Check:
    if node is True:
        return lambda v: True
    if node is False:
        return lambda v: False
    if not isinstance(node, dict):
        raise _NoQuickCheck
    if "$id" in node and node is not root:
        raise _NoQuickCheck                 # "#/..." inside would name this node, not the root
    tests: list[Check] = []
    for key, want in node.items():
        if key == "$id" or key in _ANNOTATIONS or (isinstance(key, str) and key.startswith("x-")):
            continue
        if key == "additionalProperties" and "properties" in node:
            continue                        # checked with the properties
        tests.append(_keyword(key, want, node, root, refs))
    if not tests:
        return lambda v: True
    if len(tests) == 1:
        return tests[0]
    return lambda v: all(t(v) for t in tests)


def _keyword(key: str, want: Any, node: Mapping[str, Any], root: Mapping[str, Any],
             refs: dict[str, Check]) -> Check:
    sub = lambda s: _compile(s, root, refs)    # noqa: E731
    if key == "type":
        names = want if isinstance(want, list) else [want]
        if not all(isinstance(n, str) and n in _TYPE_CHECKS for n in names):
            raise _NoQuickCheck
        kinds = [_TYPE_CHECKS[n] for n in names]
        return kinds[0] if len(kinds) == 1 else (lambda v: any(k(v) for k in kinds))
    if key == "enum" and isinstance(want, list):
        return lambda v: any(_equal(c, v) for c in want)
    if key == "const":
        return lambda v: _equal(v, want)
    if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") and _is_number(want):
        compare: Callable[[Any], bool] = {
            "minimum": lambda v: v >= want, "maximum": lambda v: v <= want,
            "exclusiveMinimum": lambda v: v > want, "exclusiveMaximum": lambda v: v < want}[key]
        return lambda v: not _is_number(v) or compare(v)
    if key in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties") \
            and isinstance(want, int) and not isinstance(want, bool):
        kind = str if key.endswith("Length") else list if key.endswith("Items") else dict
        if key.startswith("min"):
            return lambda v: not isinstance(v, kind) or len(v) >= want
        return lambda v: not isinstance(v, kind) or len(v) <= want
    if key == "uniqueItems" and isinstance(want, bool):
        return lambda v: not want or not isinstance(v, list) or all(
            not _equal(a, b) for i, a in enumerate(v) for b in v[i + 1:])
    if key == "pattern" and isinstance(want, str):
        regex = re.compile(want)
        return lambda v: not isinstance(v, str) or regex.search(v) is not None
    if key == "required" and isinstance(want, list):
        return lambda v: not isinstance(v, dict) or all(n in v for n in want)
    if key == "properties" and isinstance(want, dict) and "patternProperties" not in node:
        props = {name: sub(s) for name, s in want.items()}
        extra = node.get("additionalProperties", True)
        if extra is True:
            return lambda v: not isinstance(v, dict) or all(t(v[k]) for k, t in props.items() if k in v)
        rest = sub(extra)
        return lambda v: not isinstance(v, dict) or all(
            props[k](x) if k in props else rest(x) for k, x in v.items())
    if key == "additionalProperties" and "patternProperties" not in node:
        rest = sub(want)
        return lambda v: not isinstance(v, dict) or all(rest(x) for x in v.values())
    if key == "propertyNames":
        names = sub(want)
        return lambda v: not isinstance(v, dict) or all(names(k) for k in v)
    if key == "items":
        item = sub(want)
        skip = len(node.get("prefixItems", []))
        return lambda v: not isinstance(v, list) or all(item(x) for x in v[skip:])
    if key == "prefixItems" and isinstance(want, list):
        firsts = [sub(s) for s in want]
        return lambda v: not isinstance(v, list) or all(t(x) for t, x in zip(firsts, v))
    if key in ("allOf", "anyOf", "oneOf") and isinstance(want, list) and want:
        options = [sub(s) for s in want]
        if key == "allOf":
            return lambda v: all(o(v) for o in options)
        if key == "anyOf":
            return lambda v: any(o(v) for o in options)
        return lambda v: sum(1 for o in options if o(v)) == 1
    if key == "$ref" and isinstance(want, str):
        return _reference(want, root, refs)
    raise _NoQuickCheck


def _reference(ref: str, root: Mapping[str, Any], refs: dict[str, Check]) -> Check:
    """A ``#/...`` reference inside the schema, compiled once (and able to refer to itself)."""
    if ref not in refs:
        if not ref.startswith("#/") or "~" in ref or "%" in ref:
            raise _NoQuickCheck
        target: Any = root
        for part in ref[2:].split("/"):
            if not isinstance(target, dict) or part not in target:
                raise _NoQuickCheck
            target = target[part]
        compiled: list[Check] = []
        refs[ref] = lambda v: compiled[0](v)
        compiled.append(_compile(target, root, refs))
    return refs[ref]


#: Quick checks by schema object (the schema itself is kept, so its id is not reused).
_QUICK: dict[int, tuple[Mapping[str, Any], Check | None]] = {}


def fast_check(schema: Mapping[str, Any]) -> Check | None:
    """A function telling, as ``jsonschema`` would, whether a value fits ``schema``; None if the
    schema uses a keyword the quick check does not do (then only ``jsonschema`` can tell)."""
    known = _QUICK.get(id(schema))
    if known is not None and known[0] is schema:
        return known[1]
    try:
        check: Check | None = _compile(schema, schema, {})
    except (_NoQuickCheck, re.error):
        check = None
    if len(_QUICK) >= 256:         # schemas built on the fly (one per call) must not pile up
        _QUICK.clear()
    _QUICK[id(schema)] = (schema, check)
    return check


_SCHEMA_CACHE: dict[str, dict[str, Any]] = {}


def schema(name: str) -> dict[str, Any]:
    """A schema shipped with the core, by file name stem (``"script"``, ``"save"``...)."""
    if name not in _SCHEMA_CACHE:
        path = Path(__file__).with_name("schemas") / f"{name}.yaml"
        _SCHEMA_CACHE[name] = yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)
    return _SCHEMA_CACHE[name]
