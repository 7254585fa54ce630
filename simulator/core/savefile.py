"""The save file on disk: a header and an append-only journal.

A save (version 2) is one YAML document::

    format: simulator-save
    version: 2
    game: ...
    scenario: {id: ..., data: ...}     # the whole scenario, so an edited scenario file cannot break it
    seed: ...
    tape: [...]
    sha256: ...                        # checksum of the header above
    journal:
    - {"op":"do","n":0,"action":{...},"dice":[...],"tape_used":0,"events":[...],"chain":"..."}
    - {"op":"snap","n":16,"state":{...},"chain":"..."}
    - {"op":"undo","n":15,"chain":"..."}

Each journal line is one JSON object (JSON is YAML's flow style, so the file stays one YAML
document) and ends with ``chain``: the SHA-256 of the previous line's chain (the header's
checksum for the first line) followed by the line's own JSON without ``chain``. Changing any
line, a state snapshot included, breaks every chain from there on. Autosaving appends the new
lines (cost independent of the game's length); ``snap`` lines store the state every few actions
so loading replays only the actions after the last one. The operations are ``do`` (an action
with its dice and events), ``undo``, ``redo``, ``drop`` (the undone actions were discarded) and
``snap``.

A process killed mid-append leaves a last line without its newline: the reader ignores it
(the save is the one before that write). A whole-file write goes through a temporary file
``.NAME.PID-XXXX.tmp``, ``fsync`` and ``os.replace``; leftovers of killed writers are removed by
:func:`clean_leftovers`.

Version 1 saves (the whole action list, replayed on load) are still read by the session.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from simulator.core.data import parse_yaml, schema, validate
from simulator.core.errors import DataError
from simulator.core.plain import FrozenDict, FrozenList, digest, thaw

SAVE_FORMAT = "simulator-save"
SAVE_VERSION = 2
JOURNAL = "journal:\n"
OPS = ("do", "undo", "redo", "drop", "snap")
_CHAIN_TAIL = len(',"chain":"') + 64 + len('"}\n')

try:  # the C dumper and loader are much faster; fall back to pure Python where libyaml is missing
    _Dumper: type = yaml.CSafeDumper
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Dumper, _Loader = yaml.SafeDumper, yaml.SafeLoader


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


# -- writing ------------------------------------------------------------------------------
def header_text(game: str, scenario_id: str, scenario_data: Any, seed: int, tape: list[Any]) -> tuple[str, str]:
    """The header of a version-2 save (up to and including ``journal:``) and its checksum,
    which starts the journal's chain."""
    head: dict[str, Any] = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": game,
                            "scenario": {"id": scenario_id, "data": scenario_data},
                            "seed": seed, "tape": list(tape)}
    head["sha256"] = digest(head)
    return dump_yaml(head) + JOURNAL, head["sha256"]


def record_line(chain: str, record: dict[str, Any]) -> tuple[str, str]:
    """One journal line for ``record`` after the line whose chain is ``chain``; and its chain."""
    body = json.dumps(record, separators=(",", ":"), ensure_ascii=False, default=_plain_json)
    new = hashlib.sha256((chain + body).encode("utf-8")).hexdigest()
    return f'- {body[:-1]},"chain":"{new}"}}\n', new


def _plain_json(value: Any) -> Any:
    """What JSON cannot write itself: read-only views of plain data, and sets (sorted)."""
    if isinstance(value, (FrozenDict, FrozenList)):
        return thaw(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"not plain data: {type(value).__name__}")


def _tmp_prefix(path: Path) -> str:
    return f".{path.name}.{os.getpid()}-"


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: a crash mid-write
    leaves the previous file whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(path), suffix=".tmp", dir=str(path.parent))
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


class StaleJournal(OSError):
    """The file is not the one this session last wrote (changed by someone else, or gone)."""


def append_text(path: Path, text: str, expected_size: int) -> int:
    """Append ``text`` to ``path``, which must be ``expected_size`` bytes long; returns the
    new size. A failed write is cut back off the file when the file system allows it."""
    data = text.encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        raise StaleJournal(f"{path} is gone") from None
    try:
        if os.fstat(fd).st_size != expected_size:
            raise StaleJournal(f"{path} was changed by another program")
        try:
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fsync(fd)
        except OSError:
            try:
                os.ftruncate(fd, expected_size)
            except OSError:
                pass        # the reader ignores a last line without its newline
            raise
    finally:
        os.close(fd)
    return expected_size + len(data)


_LEFTOVER = re.compile(r"^\..+\.(\d+)-[^.]+\.tmp$")


def clean_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files that killed writers left in ``folder`` (those of living
    processes are kept: they may be writing now). Returns what was removed."""
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if not (name.startswith(".") and name.endswith(".tmp") and ".yaml." in name):
            continue
        m = _LEFTOVER.match(name)
        if m and int(m.group(1)) != os.getpid() and _alive(int(m.group(1))):
            continue
        try:
            os.unlink(folder / name)
            removed.append(folder / name)
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True          # exists, but belongs to someone else
    return True


# -- reading ------------------------------------------------------------------------------
def is_save(path: str | Path) -> bool:
    """True when ``path`` starts like a save (cheap: reads the first line only)."""
    try:
        if not Path(path).is_file():    # a pipe would block the open; a device is no save
            return False
        with open(path, "rb") as fh:
            first = fh.read(64)
    except OSError:
        return False
    return first.startswith(f"format: {SAVE_FORMAT}".encode())


@dataclass
class Record:
    op: str
    line: int
    data: dict[str, Any]


@dataclass
class Journal:
    """A version-2 save as read: the header and the checked journal records."""

    header: dict[str, Any]
    records: list[Record]
    file: str
    #: Bytes of the file that hold whole, checked lines; the chain of the last one.
    size: int = 0
    chain: str = ""
    #: Set when the last line was cut off by an interrupted write (and ignored).
    torn_line: int = 0

    def error(self, line: int, message: str) -> DataError:
        return DataError(message, file=self.file, line=line)


def split_header(text: str) -> tuple[str, str] | None:
    """(header, journal text) of a version-2 save, or None for an older save."""
    at = text.find("\n" + JOURNAL)
    if at < 0:
        return None
    return text[:at + 1 + len(JOURNAL)], text[at + 1 + len(JOURNAL):]


def read_header(header: str, file: str) -> dict[str, Any]:
    """The header's data, checked against the schema and its checksum."""
    # parse_yaml, not yaml.load: it bounds the text (a "billion laughs" header), keeps plain data
    # only (a timestamp stays text; !!binary and an anchor inside itself are refused, where
    # yaml.load's objects broke the checksum code) and knows the line of every value
    doc = parse_yaml(header, file)
    validate(doc, schema("save-journal"))
    data = doc.data
    body = {k: v for k, v in data.items() if k not in ("sha256", "journal")}
    if digest(body) != data["sha256"]:
        raise doc.error(("sha256",), "the save was changed after it was written (checksum mismatch)")
    if data["version"] > SAVE_VERSION:
        raise doc.error(("version",), f"written by a newer program (save version {data['version']}, "
                                      f"this program reads up to {SAVE_VERSION})")
    return data


def read_journal(text: str, file: str) -> Journal:
    """Parse and check a version-2 save's text (see the module's description)."""
    parts = split_header(text)
    assert parts is not None
    header, body = parts
    data = read_header(header, file)
    first_line = header.count("\n") + 1
    journal = Journal(data, [], file, size=len(header.encode("utf-8")), chain=data["sha256"])
    lines = body.split("\n")
    last = len(lines) - 1          # the text after the final newline: empty unless cut off
    for i, raw in enumerate(lines):
        if i == last:
            if raw:
                journal.torn_line = first_line + i
            break
        line = raw + "\n"
        number = first_line + i
        if not (line.startswith("- {") and line[-_CHAIN_TAIL:-67] == ',"chain":"' and line.endswith('"}\n')):
            raise journal.error(number, "not a journal line of a save (edited by hand?)")
        inner = line[2:-_CHAIN_TAIL] + "}"
        chain = line[-67:-3]
        if hashlib.sha256((journal.chain + inner).encode("utf-8")).hexdigest() != chain:
            raise journal.error(number, "the save was changed after it was written (checksum mismatch)")
        try:
            record = json.loads(inner)
        except ValueError:
            raise journal.error(number, "a journal line that is not JSON") from None
        problem = _record_problem(record)
        if problem:
            raise journal.error(number, problem)
        journal.records.append(Record(record["op"], number, record))
        journal.chain = chain
        journal.size += len(line.encode("utf-8"))
    return journal


def _record_problem(record: Any) -> str:
    if not isinstance(record, dict) or record.get("op") not in OPS:
        return f"a journal line needs 'op', one of {', '.join(OPS)}"
    op = record["op"]
    if op != "drop" and (not isinstance(record.get("n"), int) or isinstance(record.get("n"), bool)):
        return f"a '{op}' line needs 'n', the number of actions"
    if op == "do":
        action = record.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return "a 'do' line needs 'action', a mapping with a 'type'"
        dice = record.get("dice")
        if not isinstance(dice, list) or not all(isinstance(d, (int, str)) for d in dice):
            return "a 'do' line needs 'dice', a list of results"
        used = record.get("tape_used", 0)
        if not isinstance(used, int) or used < 0:
            return "'tape_used' must be a whole number, 0 or more"
        events = record.get("events")
        if events is not None and not (isinstance(events, list) and all(
                isinstance(e, dict) and isinstance(e.get("kind"), str) and isinstance(e.get("text"), str)
                for e in events)):
            return "'events' must be a list of events (kind, text, rule, data)"
    if op == "snap" and not isinstance(record.get("state"), dict):
        return "a 'snap' line needs 'state', a mapping"
    return ""


def version1_text(data: dict[str, Any]) -> str:
    """The text of a version-1 save (whole action list, replayed on load) for ``data`` as
    :meth:`Session.version1_data` builds it. The loader still reads this format; the
    benchmark writes it as the baseline the journal is measured against."""
    return dump_yaml(data)
