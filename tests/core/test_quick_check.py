"""The quick schema check (``simulator.core.data.fast_check``) gives jsonschema's verdict.

``validate`` trusts a quick "yes" without asking jsonschema, so a quick check that let through
what jsonschema refuses would let a broken file in. Each shipped schema is tried on the shipped
files it checks, and on those files with one value changed or removed, or a key added.
"""

from __future__ import annotations

import base64
import copy
import os
import pickle
import random
import subprocess
import sys
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from simulator import ROOT
from simulator.core.data import DataError, fast_check, parse_yaml, validate

PathKey = tuple[Any, ...]

#: Values put in place of a value of a file: every JSON type, and the edge cases of each.
REPLACEMENTS: list[Any] = [None, True, False, 0, 1, -1, 3.0, 2.5, "", "x", "0707", [], ["x"], {}, {"a": 1}]


def _paths(value: Any, at: PathKey = ()) -> Iterator[PathKey]:
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, at + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, at + (i,))


def _changed(value: Any, path: PathKey, new: Any, *, delete: bool = False) -> Any:
    out = copy.deepcopy(value)
    holder = out
    for key in path[:-1]:
        holder = holder[key]
    if delete:
        del holder[path[-1]]
    else:
        holder[path[-1]] = new
    return out


def _variants(value: Any, rng: random.Random, count: int) -> Iterator[Any]:
    paths = [p for p in _paths(value) if p]
    for path in rng.sample(paths, min(count, len(paths))):
        yield _changed(value, path, rng.choice(REPLACEMENTS))
        yield _changed(value, path, None, delete=True)
        holder = value
        for key in path[:-1]:
            holder = holder[key]
        if isinstance(holder, dict):
            yield _changed(value, path[:-1] + ("no_such_key",), 1)


#: Run in a fresh process (the games cache their data once loaded): records, for each schema
#: used, the first value validated against it while the maps, a scenario of each game with its
#: set-up data, and some demos are loaded.
RECORD = """
import base64, copy, pickle, sys
from pathlib import Path
from simulator import ROOT
from simulator.core import data
seen = {}
real = data.fast_check

def recording(schema):
    check = real(schema)
    def record(value):
        seen.setdefault(id(schema), (copy.deepcopy(value), schema))
        return check(value) if check is not None else False
    return record

data.fast_check = recording     # validate() looks it up in the module at each call
from simulator.core.hexmap import load_hexmap
from simulator.core.scenario import load_scenario
from simulator.core.script import load_script
from simulator.core.session import Session
for path in sorted((ROOT / "maps").glob("*/*.yaml")):
    load_hexmap(path)
for ref in ("dragon_rage/esirien-1-fury", "vikings/beach_landing", "saga/s1-warlords-fury",
            "asoiaf/game-of-thrones"):
    Session.new(load_scenario(ref), seed=1)
for path in sorted((ROOT / "demos").glob("*/*.yaml"))[:8]:
    load_script(path)
sys.stdout.write(base64.b64encode(pickle.dumps(list(seen.values()))).decode())
"""


@pytest.fixture(scope="module")
def shipped() -> list[tuple[Any, dict[str, Any]]]:
    """(value, schema): one value for each schema the shipped files are checked against."""
    out = subprocess.run([sys.executable, "-c", RECORD], capture_output=True, text=True, cwd=str(ROOT),
                         env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, check=True)
    return pickle.loads(base64.b64decode(out.stdout))    # noqa: S301 - written by the line above


def test_the_quick_check_covers_the_shipped_schemas(shipped: list[tuple[Any, dict[str, Any]]]) -> None:
    assert len(shipped) >= 10
    assert all(fast_check(schema) is not None for _, schema in shipped)


def test_the_quick_check_agrees_with_jsonschema(shipped: list[tuple[Any, dict[str, Any]]]) -> None:
    rng = random.Random(24)
    tried = 0
    for value, schema in shipped:
        check = fast_check(schema)
        assert check is not None
        full = Draft202012Validator(schema)
        for variant in [value, *_variants(value, rng, 6)]:
            tried += 1
            assert check(variant) == full.is_valid(variant), (schema.get("title"), variant)
    assert tried > 150


@pytest.mark.parametrize("schema, good, bad", [
    ({"type": "integer"}, [3, 3.0, -2], [True, 2.5, "3", None]),
    ({"enum": [1, "a", None]}, [1, 1.0, "a", None], [True, "b", 2]),
    ({"const": False}, [False], [0, None, ""]),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False,
      "required": ["a"]}, [{"a": "x"}], [{}, {"a": 1}, {"a": "x", "b": 1}, []]),
    ({"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}},
     [{}, {"x": 1}], [{"x": 0}, {"x": "1"}]),
    ({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}, "maxItems": 3},
     [[], ["a"], ["a", 1, 2]], [[1], ["a", "b"], ["a", 1, 2, 3]]),
    ({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}, [-1, 0.5], [1, "x"]),
    ({"$defs": {"h": {"type": "string", "pattern": "^[0-9]{4}$"}}, "type": "array",
      "items": {"$ref": "#/$defs/h"}}, [["0707"], []], [["707"], [707]]),
    ({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1},
     [{"ab": 1}], [{}, {"A": 1}]),
    ({"type": "array", "uniqueItems": True}, [[1, True], [[1], [2]], ["a", "b"]], [[1, 1.0], [True, True], [{"a": 1}, {"a": 1}]]),
    ({"exclusiveMinimum": 0, "exclusiveMaximum": 5}, [1, 4.5, "x"], [0, 5]),
])
def test_keywords(schema: dict[str, Any], good: list[Any], bad: list[Any]) -> None:
    check = fast_check(schema)
    assert check is not None
    full = Draft202012Validator(schema)
    for value in good:
        assert check(value) and full.is_valid(value), value
    for value in bad:
        assert not check(value) and not full.is_valid(value), value


def test_keywords_it_does_not_know_go_to_jsonschema() -> None:
    assert fast_check({"type": "array", "contains": {"type": "integer"}}) is None
    assert fast_check({"$ref": "other.yaml#/x"}) is None
    doc = parse_yaml("a: [x, y]\n", "u.yaml")
    with pytest.raises(DataError, match=r"u\.yaml:1: a"):
        validate(doc, {"properties": {"a": {"contains": {"type": "integer"}}}})


def test_a_refusal_reads_as_before() -> None:
    doc = parse_yaml("a: 1\nb: [x, 2]\n", "demo.yaml")
    with pytest.raises(DataError) as err:
        validate(doc, {"type": "object", "properties": {"b": {"type": "array", "items": {"type": "string"}}}})
    assert str(err.value) == "demo.yaml:2: b[1]: expected a string, got the integer 2"


def test_data_does_not_import_jsonschema_to_accept_a_file() -> None:
    code = ("import sys; from simulator.core.data import parse_yaml, validate, schema; "
            "validate(parse_yaml('game: x\\nname: y\\n', 'a.yaml'), {'type': 'object', 'required': ['game']}); "
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), check=True)
    assert out.stdout.strip() == "False"
