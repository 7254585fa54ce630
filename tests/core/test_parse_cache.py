"""The parse cache of ``load_yaml``: a file read before gives the very document a fresh parse
gives; a changed file is parsed again; a broken file is never kept and fails the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.core import data
from simulator.core.data import CACHE_MIN_BYTES, PURE_LOADER, DataError, load_yaml, parse_yaml

#: A file big enough to be kept, with a number key (raw_keys) and nested lines.
TEXT = "name: test\n" + "".join(f"'{i:04d}': {{terrain: [clear, {i}], 0707: x}}\n" for i in range(120))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SIMULATOR_CACHE", str(folder))
    return folder


def _same(a: data.Document, b: data.Document) -> bool:
    return (a.data, a.lines, a.raw_keys, a.file) == (b.data, b.lines, b.raw_keys, b.file) \
        and list(a.data) == list(b.data)


def test_a_kept_file_reads_as_a_fresh_parse(tmp_path: Path, cache: Path) -> None:
    assert len(TEXT) > CACHE_MIN_BYTES
    path = tmp_path / "a.yaml"
    path.write_text(TEXT)
    first = load_yaml(path)
    assert len(list(cache.glob("*.bin"))) == 1
    again = load_yaml(path)
    fresh = parse_yaml(TEXT, str(path))
    assert _same(first, fresh) and _same(again, fresh)
    assert again.data is not first.data            # callers may change what they get
    copy = tmp_path / "b.yaml"                      # the same bytes elsewhere: its own name
    copy.write_text(TEXT)
    assert load_yaml(copy).file == str(copy)


def test_a_changed_file_is_parsed_again(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(TEXT)
    load_yaml(path)
    path.write_text(TEXT.replace("name: test", "name: changed"))
    assert load_yaml(path).data["name"] == "changed"


def test_a_broken_file_is_never_kept(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(TEXT + "bad: [\n")
    messages = set()
    for _ in range(2):
        with pytest.raises(DataError) as err:
            load_yaml(path)
        messages.add(str(err.value))
    assert len(messages) == 1 and "a.yaml:" in messages.pop()
    assert not list(cache.glob("*.bin"))


def test_a_damaged_cache_file_is_ignored(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(TEXT)
    load_yaml(path)
    (kept,) = cache.glob("*.bin")
    for junk in (b"", b"\x00garbage", kept.read_bytes()[:50]):
        kept.write_bytes(junk)
        assert _same(load_yaml(path), parse_yaml(TEXT, str(path)))


def test_no_cache_when_turned_off_or_a_loader_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    path = tmp_path / "a.yaml"
    path.write_text(TEXT)
    monkeypatch.setenv("SIMULATOR_CACHE", "0")
    load_yaml(path)
    monkeypatch.setenv("SIMULATOR_CACHE", str(folder))
    load_yaml(path, loader=PURE_LOADER)             # the loaders are compared on real parses
    assert not folder.exists()


def test_small_files_are_not_kept(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("a: 1\n")
    assert load_yaml(path).data == {"a": 1}
    assert not cache.exists()
