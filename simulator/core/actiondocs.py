"""``python -m simulator.core.actiondocs [FILE]``: docs/actions.md from the games' action
specifications (``simulator.core.actions.render_docs``), to FILE or to standard output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from simulator.core.actions import render_docs
from simulator.core.game import Game
from simulator.core.registry import game_ids, get_game


def shipped_games() -> list[Game]:
    return [get_game(g) for g in game_ids()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simulator.core.actiondocs",
                                     description="Write docs/actions.md from the games' action specifications.")
    parser.add_argument("file", nargs="?", help="where to write it (default: standard output)")
    args = parser.parse_args(argv)
    text = render_docs(shipped_games())
    if args.file:
        Path(args.file).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
