"""The ``simulator`` command: play, demo, run, render, check, list.

Bad input exits with status 2 and a one-line message naming the file, line and
field; a script whose expectations fail (or that hits an illegal action) exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Sequence

from simulator.core.errors import DataError, DiceExhausted
from simulator.core.scenario import broken_reason


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="simulator", description="Tabletop wargame simulator.")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="open the program (scenario picker, or a scenario or save)")
    play.add_argument("target", nargs="?", help="scenario id (see `simulator list`), scenario file or save")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--size", default="1280x800", help="window size WxH")
    play.add_argument("--solo", metavar="SIDE", help="play SIDE against the computer (it plays the other sides)")
    play.add_argument("--level", choices=("easy", "normal"), default="easy", help="the computer's level (solo)")

    demo = sub.add_parser("demo", help="list demonstrations, or step through one in the window")
    demo.add_argument("name", nargs="?", help="demo id <game>/<name> (see `simulator demo`), or a demo file")
    demo.add_argument("--size", default="1280x800", help="window size WxH")

    run = sub.add_parser("run", help="run a script (docs/scripting.md)")
    run.add_argument("script")
    run.add_argument("--json", action="store_true", help="print state and events as JSON")

    render = sub.add_parser("render", help="draw a scenario, save or script to a PNG (headless)")
    render.add_argument("target", help="scenario id, scenario file, save, script, or demo (demos/<game>/<name>)")
    render.add_argument("--out", required=True, help="PNG file to write")
    render.add_argument("--size", default="1600x1000", help="image size WxH")
    render.add_argument("--step", type=int, default=None,
                        help="for scripts and demos: draw after this many actions")
    render.add_argument("--los", nargs=2, metavar=("FROM", "TO"), help="overlay line of sight between two pieces")
    render.add_argument("--range", dest="move_range", metavar="PIECE", help="overlay a piece's movement range")
    render.add_argument("--measure", nargs=2, metavar=("FROM", "TO"), help="overlay a measurement")
    render.add_argument("--labels", action="store_true", help="show hex labels")

    check = sub.add_parser("check", help="validate data files (maps, scenarios, saves, scripts)")
    check.add_argument("files", nargs="+")
    check.add_argument("--replay", action="store_true",
                       help="saves: replay every action from the start and compare with what the save recorded")

    sub.add_parser("list", help="list scenarios by game")

    reach = sub.add_parser("reach", help="check that the window's gestures reach every legal action "
                                         "(seeded random games, no window)")
    reach.add_argument("games", nargs="*", help="game ids (default: every game)")
    reach.add_argument("--actions", type=int, default=300, help="actions played per game, over its scenarios")
    reach.add_argument("--seed", type=int, default=1)
    reach.add_argument("--no-drags", action="store_true", help="leave out drags on the board (faster)")

    bench = sub.add_parser("bench-ai", help="play seeded games between computer levels and print win rates")
    bench.add_argument("game", help="game id, e.g. dragon_rage")
    bench.add_argument("--scenario", help="scenario id (default: every scenario of the game in turn)")
    bench.add_argument("--games", type=int, default=50, help="games per pairing (sides alternate)")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--max-actions", type=int, default=3000)
    bench.add_argument("--turns", type=int, default=None,
                       help="replace every scenario's turn limit (default: the game's benchmark set, docs/ai.md)")
    bench.add_argument("--jobs", type=int, default=2, help="games played at once, one process each (default 2)")
    bench.add_argument("--pairing", action="append", metavar="LEVEL-AGAINST",
                       help="only this pairing, e.g. normal-easy (repeatable; default: normal-easy, "
                            "normal-random, easy-random)")
    bench.add_argument("--each", action="store_true",
                       help="also list every game's result (its number replays it with the same --seed)")
    return p


def _render_out(text: str, draw: Callable[[Path], None]) -> None:
    """Draw a picture with ``draw(path)`` and write it to the file ``--out`` names.

    pygame writes to a file of our own first: it can leave a short file on a full disk without
    a word, and it picks the format from the name (``x`` alone would be a Targa file). The
    picture is checked whole and copied with every write checked, so a full disk or a folder
    that cannot be written is a failure, never "wrote".
    """
    out = Path(text)
    if out.suffix.lower() != ".png":
        raise DataError(f"the picture is written as PNG: name the file with .png (such as {out.name or 'board'}.png), "
                        f"not {text!r}", field="--out")
    with tempfile.TemporaryDirectory(prefix="simulator-render-") as folder:
        drawn = Path(folder) / "board.png"
        draw(drawn)
        try:
            picture = drawn.read_bytes()
        except OSError as exc:
            raise DataError(f"the picture was not written: {exc.strerror or exc}", field="--out") from None
    if not picture.endswith(_PNG_END):
        raise DataError("the picture could not be written whole (is the disk full?)", field="--out")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "wb") as fh:
            fh.write(picture)
            fh.flush()
            if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                os.fsync(fh.fileno())
    except OSError as exc:
        raise DataError(f"cannot write {text}: {exc.strerror or exc}", field="--out") from None


#: The last chunk of every PNG file (IEND and its checksum).
_PNG_END = b"IEND\xaeB`\x82"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise DataError(f"expected WIDTHxHEIGHT in pixels such as 1280x800, not {text!r}", field="--size") from None
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise DataError(f"{text} is out of range (200 to 8000 pixels a side)", field="--size")
    return w, h


def cmd_list() -> int:
    from simulator.core.registry import get_game
    from simulator.core.scenario import list_scenarios, load_scenario

    by_game: dict[str, list[tuple[str, str]]] = {}
    for sid, path in list_scenarios():
        try:
            sc = load_scenario(path)
            by_game.setdefault(sc.game, []).append((sid, sc.name))
        except Exception as exc:        # noqa: BLE001 - one broken file never stops the list
            by_game.setdefault(sid.split("/")[0], []).append((sid, f"(broken: {broken_reason(exc)})"))
    if not by_game:
        print("no scenarios found")
    for game_id in sorted(by_game):
        try:
            title = get_game(game_id).name
        except DataError:
            title = game_id
        print(f"{title}:")
        for sid, name in by_game[game_id]:
            print(f"  {sid:40s} {name}")
    return 0


def check_save(path: str, replay: bool = False) -> str:
    """Load a save (``replay``: replay it whole) and find the undone actions that no longer
    redo; DataError for any problem."""
    from simulator.core.session import Session

    session = Session.load(path)
    if replay:
        problems = Session.replay_check(path)
    else:
        problems = [p for p in [session.redo_problem()] if p]
    if problems:
        raise DataError("; ".join(problems), file=path)
    note = f" (note: {session.recovered})" if session.recovered else ""
    how = ", every action replayed" if replay else ""
    return f"save of {session.scenario.name} after {len(session.steps)} actions{how}{note}"


def check_file(path: str, replay: bool = False) -> str:
    """Validate one data file; returns a short description of what it is."""
    from simulator.core.savefile import is_save

    if is_save(path):       # before parsing: a long game's journal is read once, by the loader
        return check_save(path, replay)
    from simulator.core.data import load_yaml
    from simulator.core.hexmap import hexmap_from_document
    from simulator.core.registry import game_ids, get_game
    from simulator.core.scenario import scenario_from_document
    from simulator.core.script import load_script, script_scenario
    from simulator.core.session import SAVE_FORMAT, Session

    doc = load_yaml(path)
    data = doc.data
    if not isinstance(data, dict):
        raise DataError("expected a mapping at the top of the file", file=path, line=1)
    fmt = data.get("format")
    if fmt is not None and not isinstance(fmt, str):
        raise doc.error(("format",), "expected the kind of file as text, such as 'scenario/1' or 'hexmap/1'")
    if fmt == "hexmap/1":
        hexmap = hexmap_from_document(doc)
        try:
            game = get_game(data["game"])
        except DataError as exc:
            raise doc.error(("game",), exc.message) from None
        game.check_map(hexmap)
        return f"hex map {hexmap.meta.get('name')} ({len(hexmap.labels)} hexes)"
    if isinstance(fmt, str) and fmt.startswith(SAVE_FORMAT):
        return check_save(path, replay)
    if fmt == "scenario/1" or (fmt is None and {"game", "name", "description"} <= set(data)):
        sc = scenario_from_document(doc, Path(path).stem)
        from simulator.core.session import Session as S
        S(get_game(sc.game), sc, 0)   # the game checks the set-up when it builds the state
        forces = get_game(sc.game).forces()
        for player in sc.players if forces is not None else ():
            forces.force_selection(sc, player["id"])    # its force-selection settings (budgets, objectives)
        return f"scenario {sc.name}"
    if fmt is None and ({"actions", "scenario", "setup", "dice", "expect"} & set(data)) and "game" not in data:
        doc = load_script(path)
        sc = script_scenario(doc)
        Session(get_game(sc.game), sc, 0)   # an inline set-up is checked by its game too
        # the actions are replayed, so run, render and demo find no illegal action check missed
        from simulator.core.demo import Demo, replay_error
        from simulator.core.script import run_document

        if "title" in data:
            Demo.load(path)                 # a demo: its expectations must hold too
            return f"demonstration with {len(data.get('actions', []))} steps"
        problem = replay_error(doc, run_document(doc), what="script")
        if problem is not None:
            raise problem
        return f"script with {len(data.get('actions', []))} actions"
    for game_id in game_ids():
        loaders = get_game(game_id).data_formats()
        if fmt in loaders:
            loaders[fmt](path)      # a game's loader takes the file's path (Game.data_formats)
            return f"{fmt} data"
    raise DataError(f"unknown kind of data file (format {fmt!r}); expected a hex map, scenario, save, "
                    "script or a game's data file", file=path, line=doc.line_of(("format",)) or 1)


def cmd_demo(name: str | None, size: tuple[int, int]) -> int:
    """Without a name: list the demos by game. With one: open it in the window."""
    from simulator.core.demo import Demo, list_demos

    if name:
        Demo.load(name)            # bad input is reported before a window opens
        from simulator.client.app import play

        return play(None, seed=None, size=size, demo=name)
    demos = list_demos()
    if not demos:
        print("no demonstrations found (they live in demos/<game>/<name>.yaml)")
        return 0
    by_game: dict[str, list[str]] = {}
    for demo_id, path in demos:
        try:
            title = Demo(_load_demo_doc(path), demo_id).title
        except Exception as exc:        # noqa: BLE001 - one broken file never stops the list
            title = f"(broken: {broken_reason(exc)})"
        by_game.setdefault(demo_id.split("/")[0], []).append(f"  {demo_id:40s} {title}")
    for game_id in sorted(by_game):
        print(f"{_game_title(game_id)}:")
        print("\n".join(by_game[game_id]))
    return 0


def _load_demo_doc(path: Path) -> Any:
    from simulator.core.script import load_script

    return load_script(path)


def _game_title(game_id: str) -> str:
    from simulator.core.registry import get_game

    try:
        return get_game(game_id).name
    except DataError:
        return game_id


def cmd_reach(games: Sequence[str], actions: int, seed: int, drags: bool) -> int:
    """Print, for each game, how many legal actions a gesture of the window reaches: exit 0 when
    every one is, 1 when some are not (each listed with the state it was met in)."""
    from simulator.client.reach import cover_game, report
    from simulator.core.registry import game_ids

    known = game_ids()
    for game in games:
        if game not in known:
            raise DataError(f"unknown game {game!r} (known: {', '.join(known)})", field="GAME")
    if actions < 1:
        raise DataError(f"expected 1 action or more, not {actions}", field="--actions")
    results = []
    for game in games or known:
        result = cover_game(game, actions, seed, drags, progress=lambda where: print(f"  {where}", file=sys.stderr))
        results.append(result)
    for line in report(results):
        print(line)
    return 0 if all(r.reached == r.legal for r in results) else 1


def cmd_check(files: Sequence[str], replay: bool = False) -> int:
    bad = 0
    for f in files:
        try:
            print(f"{f}: ok, {check_file(f, replay)}")
        except DataError as exc:
            bad += 1
            print(str(exc), file=sys.stderr)
    return 2 if bad else 0


def cmd_run(script: str, as_json: bool) -> int:
    from simulator.core.script import run_script

    result = run_script(script)
    if as_json:
        print(json.dumps(result.as_dict(), indent=1, ensure_ascii=False))
    else:
        for e in result.session.log:
            rule = f"  [{e.rule}]" if e.rule else ""
            print(f"{e.kind:>10}: {e.text}{rule}")
        for r in result.refused:
            print(f"   refused: {r['reason']}  [{r['rule']}]")
        out = result.session.outcome()
        if out:
            print(f"   outcome: {out.text}")
    if result.stopped:
        print(f"stopped: {result.stopped}", file=sys.stderr)
    for f in result.failures:
        print(f"failed: {f}", file=sys.stderr)
    return 0 if result.ok else 1


def cmd_bench_ai(game_id: str, scenario: str | None, games: int, seed: int, max_actions: int,
                 turns: int | None = None, jobs: int = 2, pairings: Sequence[str] | None = None,
                 each: bool = False) -> int:
    """Seeded games between computer levels, sides alternated; prints the win rates."""
    import datetime
    import time

    from simulator.ai.match import run_pairings
    from simulator.core.registry import get_game
    from simulator.core.scenario import list_scenarios

    game = get_game(game_id)
    profile = game.ai_profile()
    default_ids, default_turns = profile.bench_scenarios, profile.bench_turns
    if scenario:
        from simulator.core.scenario import load_scenario

        chosen_scenario = load_scenario(scenario)       # an unknown or broken one stops here
        if chosen_scenario.game != game_id:
            raise DataError(f"{scenario!r} is a scenario of {chosen_scenario.game}, not of {game_id}",
                            field="--scenario")
        scenarios = [scenario]
    elif default_ids:
        scenarios = list(default_ids)
    else:
        scenarios = [sid for sid, _ in list_scenarios() if sid.startswith(f"{game_id}/")]
    if not scenarios:
        raise DataError(f"{game.name} has no scenarios to play")
    if turns is None and not scenario:
        turns = default_turns
    for option, value in (("--games", games), ("--jobs", jobs), ("--max-actions", max_actions), ("--turns", turns)):
        if value is not None and value < 1:
            raise DataError(f"must be at least 1, not {value}", field=option)
    chosen: list[tuple[str, str]] = []
    for text in pairings or ("normal-easy", "normal-random", "easy-random"):
        level, _, against = text.partition("-")
        if level not in ("random", "easy", "normal") or against not in ("random", "easy", "normal"):
            raise DataError(f"--pairing {text!r}: expected LEVEL-AGAINST with levels random, easy, normal")
        chosen.append((level, against))
    limit = f"turn limit {turns}" if turns else "the scenarios' own turn limits"
    print(f"{game.name}: {games} games per pairing, sides alternated, seed {seed}, {limit}, "
          f"{datetime.date.today().isoformat()}")
    print(f"  scenarios: {', '.join(scenarios)}")
    start = time.monotonic()
    for level, against in chosen:
        # games 2k and 2k+1 play the same scenario with the sides swapped (side = game % 2),
        # so every scenario is played from both sides
        tasks = [(scenarios[(g // 2) % len(scenarios)], level, against, g, seed, max_actions, turns)
                 for g in range(games)]
        played = run_pairings(tasks, jobs)
        everything = [(score, res) for _, _, _, score, res in played]
        for _, res in everything:
            if res.error:
                print(f"  error: {res.error}", file=sys.stderr)
        rows = [(score, res) for score, res in everything if not res.error]
        if not rows:
            print(f"  {level:>6} vs {against:<6}: no result, all {len(everything)} games failed in the rules engine",
                  flush=True)
            continue
        n = len(rows)
        total = sum(score for score, _ in rows)
        wins = sum(1 for score, _ in rows if score == 1.0)
        draws = sum(1 for score, _ in rows if score == 0.5)
        finished = sum(res.finished for _, res in rows)
        actions = sum(res.actions for _, res in rows)
        think = [res.think.get(level, [0, 0.0, 0.0, 0.0, 0.0, 0]) for _, res in rows]
        decisions = sum(t[0] for t in think)
        mean = sum(t[1] for t in think) / decisions if decisions else 0.0
        longest = max((t[2] for t in think), default=0.0)
        cpu_mean = sum(t[3] for t in think) / decisions if decisions else 0.0
        cpu_longest = max((t[4] for t in think), default=0.0)
        capped = sum(t[5] for t in think)
        print(f"  {level:>6} vs {against:<6}: {100 * total / n:5.1f}%  ({wins} won, {draws} drawn, "
              f"{n - wins - draws} lost; {finished}/{n} finished, {actions / n:.0f} actions a game; "
              f"{level} decision mean {1000 * mean:.0f} ms, longest {1000 * longest:.0f} ms wall, "
              f"CPU mean {1000 * cpu_mean:.0f} ms, longest {1000 * cpu_longest:.0f} ms, "
              f"{capped} of {decisions} stopped at the time cap"
              + (f"; {len(everything) - len(rows)} games failed in the rules engine, not counted"
                 if len(rows) < len(everything) else "")
              + ")", flush=True)
        by_side: dict[str, list[int]] = {}
        for score, res in rows:
            rec = by_side.setdefault(res.side, [0, 0])
            rec[0] += score == 1.0
            rec[1] += 1
        print("           " + ", ".join(f"as {side} won {w}/{k}" for side, (w, k) in sorted(by_side.items())),
              flush=True)
        # won-drawn-lost by scenario and side
        table: dict[str, dict[str, list[int]]] = {}
        for task, (_, _, _, score, res) in zip(tasks, played):
            if res.error:
                continue
            rec = table.setdefault(task[0], {}).setdefault(res.side, [0, 0, 0])
            rec[0 if score == 1.0 else 1 if score == 0.5 else 2] += 1
        for sid, sides in table.items():
            cells = ", ".join(f"as {side} {w}-{d}-{l}" for side, (w, d, l) in sorted(sides.items()))
            print(f"           {sid}: {cells}", flush=True)
        if each:
            # enough to replay one game: play_pairing(scenario, level, against, game, seed)
            for task, (_, _, g, score, res) in zip(tasks, played):
                verdict = "failed" if res.error else {1.0: "won", 0.5: "drawn"}.get(score, "lost")
                print(f"           game {g} {task[0]} as {res.side or '?'}: {verdict}, {res.actions} actions",
                      flush=True)
        for task, (_, _, g, _, res) in zip(tasks, played):
            if res.cut_off:
                where = f" (saved to {res.saved})" if res.saved else ""
                print(f"  cut off: game {g} {task[0]}: {res.cut_off}{where}",
                      file=sys.stderr, flush=True)
    print(f"  ({time.monotonic() - start:.0f} s on {jobs} process{'es' if jobs > 1 else ''})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # SDL would turn Ctrl+C and SIGTERM into a quit event that a drawing or a computation in
    # progress never reads: keep Python's handling (KeyboardInterrupt, exit status 130)
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    try:
        if args.command in (None, "play"):
            from simulator.client.app import play

            target = getattr(args, "target", None)
            size = _size(getattr(args, "size", "1280x800"))
            return play(target, seed=getattr(args, "seed", None), size=size, solo=getattr(args, "solo", None),
                        level=getattr(args, "level", "easy"))
        if args.command == "demo":
            return cmd_demo(args.name, _size(args.size))
        if args.command == "list":
            return cmd_list()
        if args.command == "reach":
            return cmd_reach(args.games, args.actions, args.seed, not args.no_drags)
        if args.command == "check":
            return cmd_check(args.files, args.replay)
        if args.command == "bench-ai":
            return cmd_bench_ai(args.game, args.scenario, args.games, args.seed, args.max_actions,
                                args.turns, args.jobs, args.pairing, args.each)
        if args.command == "run":
            return cmd_run(args.script, args.json)
        if args.command == "render":
            from simulator.client.render import render

            overlays: dict[str, Any] = {"los": args.los, "range": args.move_range, "measure": args.measure,
                                        "labels": args.labels}
            size = _size(args.size)
            if args.step is not None and args.step < 0:
                raise DataError(f"expected 0 or more actions, not {args.step}", field="--step")
            _render_out(args.out, lambda path: render(args.target, path, size, step=args.step, overlays=overlays))
            print(f"wrote {args.out}")
            return 0
    except DataError as exc:
        # a file's problem names the file and line; a command-line one names the option
        print(f"error: {exc if exc.file else (exc.field + ': ' if exc.field else '') + exc.message}",
              file=sys.stderr)
        return 2
    except DiceExhausted as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader stopped early (`simulator list | head`): not an error of ours; keep Python
        # from complaining again when it flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0
