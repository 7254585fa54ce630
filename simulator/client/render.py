"""``simulator render``: the game view drawn headless to a PNG, with optional overlays."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from simulator.core.data import load_yaml
from simulator.core.errors import DataError
from simulator.core.scenario import load_scenario
from simulator.core.savefile import is_save
from simulator.core.session import SAVE_FORMAT, Session


def demo_for_render(target: str, step: int | None) -> Any:
    """The :class:`~simulator.core.demo.Demo` ``target`` names, or None if it is not one:
    ``demos/<game>/<name>`` (with or without ``.yaml``), a script file with a ``title``,
    or (with ``--step``) a demo id ``<game>/<name>``."""
    from simulator.core.demo import Demo, is_demo_ref

    path = Path(target)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        doc = load_yaml(path)
        data = doc.data if isinstance(doc.data, dict) else {}
        if "title" in data and "game" not in data and "format" not in data:
            return Demo.load(path)
        return None
    if is_demo_ref(target):
        return Demo.load(target)
    if step is not None and not path.exists():
        try:
            load_scenario(target)
        except DataError:
            return Demo.load(target)
    return None


def load_for_render(target: str, step: int | None) -> tuple[Session, list[str]]:
    """The session to draw and the pieces to highlight (a script's last action)."""
    path = Path(target)
    if path.suffix in (".yaml", ".yml") and path.exists():
        if is_save(path):          # its first line: a long game's journal is read once, by the loader
            return Session.load(path), []
        doc = load_yaml(path)
        data = doc.data if isinstance(doc.data, dict) else {}
        if data.get("format") == SAVE_FORMAT:
            return Session.load(path), []
        if "game" not in data and {"actions", "scenario", "setup"} & set(data):
            from simulator.core.script import load_script, run_document

            result = run_document(load_script(path), until=step)
            session = result.session
            last = session.steps[-1].events if session.steps else []
            pieces = [p for e in last for p in e.data.get("pieces", []) if isinstance(p, str)]
            return session, pieces
    if step is not None:
        raise DataError("--step only applies to scripts")
    return Session.new(load_scenario(target), 0), []


def _ref(scene: Any, text: str, arg: str = "") -> str | tuple[float, float]:
    """A piece id, a hex label, or 'x,y' in inches on the table (``arg`` names the option)."""
    model = scene.model
    where = f"{arg}: " if arg else ""
    if text in model.by_id:
        return text
    if scene.view.is_hex:
        if model.board.contains(text):
            return text
        raise DataError(f"{where}{text!r} is neither a piece ({', '.join(sorted(model.by_id)[:12])}...) "
                        "nor a hex of the map")
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise DataError(f"{where}{text!r} is neither a piece ({', '.join(sorted(model.by_id)[:12])}) nor a "
                        "point 'x,y' in inches") from None
    # NaN or a point far off the table would reach the drawing code, which loops along the
    # whole line; place_at is None for both
    if model.board.place_at((x, y)) is None:
        w, h = model.board.surface.width, model.board.surface.height
        raise DataError(f"{where}{text!r} is not a point of the table (x from 0 to {w:g}, y from 0 to {h:g} inches)")
    return (x, y)


def render(target: str, out: Path, size: tuple[int, int], step: int | None = None,
           overlays: Mapping[str, Any] | None = None) -> None:
    """Draw ``target`` (scenario id or file, save, script, or demo) to the PNG ``out``.
    A demo is drawn as the demonstration scene shows step ``step`` (caption included)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from simulator.client.app import init_pygame
    from simulator.client.game_scene import GameScene

    overlays = overlays or {}
    demo = demo_for_render(target, step)
    if demo is not None:
        _render_demo(demo, out, size, step or 0, overlays)
        return
    session, highlight = load_for_render(target, step)
    screen = init_pygame(size)
    try:
        scene = GameScene(None, session, size)
        scene.view.tools.highlighted = set(highlight)
        _overlays(scene, overlays)
        waiting = scene.model.secret.player if scene.model.secret is not None else scene.model.private
        if waiting is not None:
            # the picture shows the board as the player to choose sees it, his choice under it
            scene.screen_holder = waiting
        scene.refresh_panels()
        for screen_over in (scene.handover, scene.end):
            if screen_over is not None:   # a picture shows the board, not the hotseat curtain
                screen_over.close()
        scene.handover = scene.end = None
        scene.end_dismissed_at = len(session.steps)
        outcome = session.outcome()
        if outcome is not None:
            scene.control.say(f"Game over: {outcome.text}" + (f" ({outcome.rule})" if outcome.rule else ""))
        scene.update(0.0)
        scene.draw(screen)
        _save(screen, out)
    finally:
        pygame.quit()


def _save(screen: Any, out: Path) -> None:
    import pygame

    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        pygame.image.save(screen, str(out))
    except (pygame.error, OSError) as exc:
        raise DataError(f"cannot write {out}: {exc}") from None


def _render_demo(demo: Any, out: Path, size: tuple[int, int], step: int, overlays: Mapping[str, Any]) -> None:
    """Step ``step`` of a demo as the demonstration scene shows it (caption included)."""
    import pygame

    from simulator.client.app import init_pygame
    from simulator.client.demo_scene import DemoScene

    if not 0 <= step <= len(demo):
        raise DataError(f"--step {step}: {demo.title} has steps 0 to {len(demo)}", file=str(demo.path))
    screen = init_pygame(size)
    try:
        scene = DemoScene(None, demo, size, step)
        _overlays(scene, overlays)
        scene.update(0.0)
        scene.draw(screen)
        _save(screen, out)
    finally:
        pygame.quit()


def _overlays(scene: Any, overlays: Mapping[str, Any]) -> None:
    """Labels, movement range, LOS and measurement on a game or demonstration scene."""
    view, control = scene.view, scene.control
    view.labels = bool(overlays.get("labels"))
    if overlays.get("range"):
        pid = overlays["range"]
        if pid not in scene.model.by_id:
            raise DataError(f"--range: no piece {pid!r} (pieces: {', '.join(sorted(scene.model.by_id))})")
        view.tools.move_range = scene.model.presentation.move_range(scene.model.state, pid)
        view.selected = pid
        if view.tools.move_range is None:
            raise DataError(f"--range: the game gives no movement range for {pid!r} now")
    for key, mode in (("los", "los"), ("measure", "measure")):
        ends = overlays.get(key)
        if ends:
            a, b = (_ref(scene, e, f"--{key}") for e in ends)
            control.set_mode(mode)  # type: ignore[arg-type]
            control.anchor = a
            control._tool_to(b)
            control.mode = "select"
            if (view.tools.los if key == "los" else view.tools.measure) is None:
                raise DataError(f"--{key}: the game cannot answer between {ends[0]} and {ends[1]}")
