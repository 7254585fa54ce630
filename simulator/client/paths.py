"""Where the client keeps autosaves and saves: ``$SIMULATOR_HOME`` or ``~/.local/share/simulator``."""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    env = os.environ.get("SIMULATOR_HOME")
    return Path(env).expanduser() if env else Path.home() / ".local" / "share" / "simulator"


def autosave_path() -> Path:
    """The one autosave, rewritten after every action."""
    return home() / "autosave.yaml"


def saves_dir() -> Path:
    return home() / "saves"


def list_saves() -> list[Path]:
    folder = saves_dir()
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.yaml"), key=lambda p: p.stat().st_mtime, reverse=True)


def save_path(name: str) -> Path:
    """A save file in the saves folder; ``name`` is cleaned to a safe file name."""
    clean = "".join(ch if ch.isalnum() or ch in "-_ ." else "_" for ch in name.strip()).strip(". ")
    if not clean:
        raise ValueError("a save needs a name (letters, digits, - and _)")
    if not clean.endswith(".yaml"):
        clean += ".yaml"
    return saves_dir() / clean
