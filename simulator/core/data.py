"""Loading YAML data with line numbers, and validating it against a schema.

Every data file the program reads (maps, scenarios, unit catalogues, saves,
scripts) goes through :func:`load_yaml` and :func:`validate`, so every error names
the file, the line, the field, and what was expected.

Schemas are JSON Schema (draft 2020-12) documents, checked by the ``jsonschema``
library; an optional ``x-expected`` keyword on a schema node phrases what a
player should have written there ("a hex label such as '0707'").

>>> doc = parse_yaml("a: 1\\nb: [x, 2]\\n", "demo.yaml")
>>> doc.line_of(("b", 1))
2
>>> validate(doc, {"type": "object", "properties": {"a": {"type": "string"}}})
Traceback (most recent call last):
...
simulator.core.errors.DataError: demo.yaml:1: a: expected a string, got the integer 1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from simulator.core.errors import DataError

PathKey = tuple[str | int, ...]


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


def _build(node: yaml.Node, path: PathKey, lines: dict[PathKey, int], file: str, ctor: _Constructor,
           raw_keys: dict[PathKey, Any]) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        ctor.flatten_mapping(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = ctor.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise DataError("mapping keys must be plain words or numbers", file=file,
                                line=key_node.start_mark.line + 1, field=format_path(path))
            if not isinstance(key, str):
                raw_keys[path + (str(key),)] = key
                key = str(key)
            if key in out:
                raise DataError(f"key {key!r} appears twice", file=file,
                                line=key_node.start_mark.line + 1, field=format_path(path))
            out[key] = _build(value_node, path + (key,), lines, file, ctor, raw_keys)
            lines[path + (key,)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), lines, file, ctor, raw_keys) for i, item in enumerate(node.value)]
    value = ctor.construct_object(node, deep=True)
    # Timestamps and binary would not survive a JSON round trip: keep their text.
    if not isinstance(value, (str, int, float, bool, type(None))):
        value = node.value
    return value


def parse_yaml(text: str, file: str = "<input>") -> Document:
    """Parse YAML text into a :class:`Document`, or raise :class:`DataError` with the line."""
    try:
        nodes = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        problem = exc.problem or exc.context or "not valid YAML"
        raise DataError(f"not valid YAML: {problem}", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise DataError(f"not valid YAML: {exc}", file=file) from None
    if len(nodes) > 1:
        raise DataError("the file holds several YAML documents; expected one", file=file)
    if not nodes or nodes[0] is None:
        raise DataError("the file is empty", file=file, line=1)
    lines: dict[PathKey, int] = {}
    raw_keys: dict[PathKey, Any] = {}
    ctor = _Constructor()
    try:
        data = _build(nodes[0], (), lines, file, ctor, raw_keys)
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        raise DataError(f"cannot read value: {exc.problem}", file=file,
                        line=mark.line + 1 if mark else 0) from None
    return Document(data, file, lines, raw_keys)


def load_yaml(path: str | Path) -> Document:
    """Read and parse a YAML file; a missing or unreadable file is a :class:`DataError`."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise DataError("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise DataError("is a folder, expected a YAML file", file=str(path)) from None
    except OSError as exc:
        raise DataError(f"cannot read the file: {exc.strerror}", file=str(path)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"not a UTF-8 text file (bad byte at offset {exc.start})", file=str(path)) from None
    return parse_yaml(text, str(path))


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


_SCHEMA_CACHE: dict[str, dict[str, Any]] = {}


def schema(name: str) -> dict[str, Any]:
    """A schema shipped with the core, by file name stem (``"script"``, ``"save"``...)."""
    if name not in _SCHEMA_CACHE:
        path = Path(__file__).with_name("schemas") / f"{name}.yaml"
        _SCHEMA_CACHE[name] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return _SCHEMA_CACHE[name]
