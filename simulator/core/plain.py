"""Plain data helpers: fast copies, read-only views, canonical hashes, path look-ups.

>>> view = freeze({"units": [{"hex": "0707"}]})
>>> view["units"][0]["hex"]
'0707'
>>> view["units"][0]["hex"] = "0808"
Traceback (most recent call last):
...
TypeError: 'FrozenDict' object does not support item assignment
>>> get_path({"a": [{"b": 3}]}, "a.0.b")
3
"""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Mapping, Sequence
from typing import Any, Iterator


def copy_plain(value: Any) -> Any:
    """A deep copy of plain data (dict, list, tuple, str, number, bool, None); fast."""
    return marshal.loads(marshal.dumps(value))


def thaw(value: Any) -> Any:
    """Plain, mutable data from a frozen view (or plain data, copied)."""
    if isinstance(value, FrozenDict):
        return copy_plain(value._data)
    if isinstance(value, FrozenList):
        return copy_plain(value._data)
    return copy_plain(value)


class FrozenDict(Mapping[str, Any]):
    """A read-only view of a dict whose children are read-only views too."""

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return freeze(self._data[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"


class FrozenList(Sequence[Any]):
    """A read-only view of a list."""

    __slots__ = ("_data",)

    def __init__(self, data: list[Any]) -> None:
        self._data = data

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return FrozenList(self._data[index])
        return freeze(self._data[index])

    def __len__(self) -> int:
        return len(self._data)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenList):
            return self._data == other._data
        return isinstance(other, (list, tuple)) and list(self._data) == list(other)

    def __repr__(self) -> str:
        return f"FrozenList({self._data!r})"


def freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return FrozenDict(value)
    if isinstance(value, list):
        return FrozenList(value)
    return value


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, (FrozenDict, FrozenList)):
        return value._data
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"not plain data: {type(value).__name__}")


def digest(value: Any) -> str:
    """SHA-256 of the canonical JSON of ``value``."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def get_path(value: Any, path: str) -> Any:
    """Follow a dotted path (``units.m1.hex``, list items by number); KeyError if absent."""
    cur = value
    for part in path.split(".") if path else []:
        if isinstance(cur, (list, tuple, FrozenList)):
            try:
                cur = cur[int(part)]
            except (ValueError, IndexError):
                raise KeyError(path) from None
        elif isinstance(cur, Mapping):
            if part not in cur:
                raise KeyError(path)
            cur = cur[part]
        else:
            raise KeyError(path)
    return cur
