"""The scenario picker: scenarios grouped by game with their descriptions, hotseat or
solo (your side and the computer's level), and the offer to resume the autosaved game;
a second tab lists the demonstrations (``simulator/core/demo.py``) by game."""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pygame
import pygame_gui
import yaml
from pygame_gui.elements import UIButton, UILabel, UISelectionList, UITextBox

from simulator.client import fonts, paths
from simulator.client.dialogs import menu_rows, themed
from simulator.client.panels import new_manager
from simulator.client.solo import LEVELS, SoloConfig, scenario_sides
from simulator.core.data import C_LOADER, PURE_LOADER, Document, load_yaml
from simulator.core.demo import Demo, list_demos
from simulator.core.errors import DataError
from simulator.core.registry import game_name, get_game
from simulator.core.scenario import Scenario, broken_reason, list_scenarios, load_scenario


class PickerHost(Protocol):
    def start(self, scenario: Scenario, solo: SoloConfig | None = None) -> None: ...
    def resume(self, path: Path, solo: SoloConfig | None = None) -> None: ...
    def quit(self) -> None: ...
    # optional: def open_demo(self, demo: Demo, step: int = 0) -> None


@dataclass(frozen=True)
class DemoEntry:
    """One demonstration as the picker lists it (the demo is loaded and checked on opening)."""

    id: str
    path: Path
    game: str
    title: str
    description: str = ""
    steps: int = 0
    error: str = ""


def _game_name(game_id: str) -> str:
    try:
        return game_name(game_id)    # read without importing the game
    except DataError:
        return game_id


def demo_entries(demos: list[tuple[str, Path]] | None = None) -> dict[str, DemoEntry]:
    """The demonstrations keyed by what the list shows: ``Game: title``. Only what the list
    shows is read (the file parsed, not checked): a demo is checked when it is opened."""
    out: dict[str, DemoEntry] = {}
    for demo_id, path in (demos if demos is not None else list_demos()):
        game = _game_name(demo_id.split("/")[0])
        try:
            demo = Demo(_mapping(load_yaml(path)), demo_id)
            entry = DemoEntry(demo_id, path, game, demo.title, demo.description, len(demo))
        except Exception as exc:        # noqa: BLE001 - one broken file never stops the picker
            entry = DemoEntry(demo_id, path, game, demo_id, error=broken_reason(exc))
        name = f"{game}: {entry.title}" if not entry.error else f"(broken) {demo_id}"
        if name in out:
            name = f"{name} ({demo_id})"
        out[name] = entry
    return out


def _mapping(doc: Document) -> Document:
    if not isinstance(doc.data, dict):
        raise DataError("expected a mapping at the top of the file", file=doc.file, line=1)
    return doc


#: A scenario file longer than this is listed through the full (bounded) loader.
HEADER_READ = 256 * 1024


def _header_lines(path: Path, keys: tuple[str, ...]) -> dict | None:
    """The top-level ``keys`` of a YAML file in block style, parsed on their own lines (and
    their indented continuations): a scenario's forces and terrain are most of its file and
    the list needs none of them. None when the file does not lend itself (the caller then
    reads it whole, with its checks and its error messages)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(HEADER_READ + 1)
        if len(raw) > HEADER_READ or b"\0" in raw:
            return None
        text = raw.decode("utf-8")
        taken, take = [], False
        for line in text.splitlines():
            if line[:1] not in ("", " ", "\t"):
                take = not line.startswith(("#", "---", "...", "{", "-")) and line.split(":", 1)[0] in keys
            if take:
                taken.append(line)
        data = yaml.load("\n".join(taken), Loader=C_LOADER or PURE_LOADER)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    return data if isinstance(data, dict) and all(isinstance(data.get(k), str) for k in keys) else None


def scenario_header(path: Path) -> tuple[str, str]:
    """A scenario file's game id and name, all the list needs (the scenario is loaded, and
    checked, when it is chosen)."""
    found = _header_lines(path, ("game", "name"))
    data = found if found is not None else _mapping(load_yaml(path)).data
    game, name = data.get("game"), data.get("name")
    if not isinstance(game, str) or not isinstance(name, str):
        raise DataError("a scenario needs a 'game' and a 'name'", file=str(path), line=1)
    return game, name


#: The heading of the scenario files that cannot be read.
BROKEN = "Cannot be loaded"


def grouped_rows(games: dict[str, str]) -> list[tuple[str, str | None]]:
    """The scenario list's rows from ``{shown name: game name}``: a heading per game (games and
    names sorted), the broken files last; a heading's row carries None."""
    rows: list[tuple[str, str | None]] = []
    game = None
    for name in sorted(games, key=lambda n: (games[n] == BROKEN, games[n], n)):
        if games[name] != game:
            game = games[name]
            rows.append((game, None))
        rows.append((name, name))
    return rows


def summary_html(scenario: Scenario) -> str:
    """The sides, length and victory of ``scenario`` (``Game.scenario_summary``), as the
    description panel shows them; empty if the game cannot say."""
    try:
        s = get_game(scenario.game).scenario_summary(scenario)
    except Exception:      # noqa: BLE001 - game code: the description still shows
        return ""
    sides = list(s.sides)
    if not sides:            # a scenario that lists no players: the sides of its first state
        try:
            sides = [name for _, name in scenario_sides(scenario)]
        except Exception:      # noqa: BLE001 - game code: the description still shows
            sides = []
    rows = []
    if sides:
        rows.append(f"<b>Sides:</b> {html.escape(' - '.join(sides))}")
    if s.length:
        rows.append(f"<b>Length:</b> {html.escape(s.length)}")
    if s.victory:
        rows.append(f"<b>Victory:</b> {html.escape(s.victory)}")
    return "<br>".join(rows)


LEVEL_TEXT = {"easy": "Easy", "normal": "Normal"}
OPTIONS_H = 150           # the mode / side / level rows under the description


class PickerScene:
    def __init__(self, host: PickerHost, size: tuple[int, int],
                 scenarios: list[tuple[str, Path]] | None = None, notice: str = "",
                 demos: list[tuple[str, Path]] | None = None) -> None:
        self.host = host
        self.size = size
        self.ui = new_manager(size)
        #: name shown -> the scenario (its Path until it is chosen and loaded), or why it is broken
        self.entries: dict[str, Scenario | Path | str] = {}
        #: name shown -> the game it is listed under
        self.games: dict[str, str] = {}
        for sid, path in (scenarios if scenarios is not None else list_scenarios()):
            try:
                game_id, name = scenario_header(path)
                game = _game_name(game_id)
            except Exception as exc:    # noqa: BLE001 - one broken file never stops the picker
                name, game, entry = f"(broken) {sid}", BROKEN, broken_reason(exc)
            else:
                entry = path
            if name in self.entries:
                name = f"{name} ({sid})"
            self.entries[name] = entry
            self.games[name] = game
        self.demos = demo_entries(demos)
        w, h = size
        self.tab_buttons = {
            "scenarios": UIButton(pygame.Rect(20, 12, 200, 40), "Scenarios", self.ui,
                                  tool_tip_text="Play a scenario: hotseat or solo"),
            "demos": UIButton(pygame.Rect(226, 12, 200, 40), "Demonstrations", self.ui,
                              tool_tip_text="Step through a rule, one action at a time"),
        }
        self.heading = UILabel(pygame.Rect(440, 12, w - 460, 40), "Choose a scenario", self.ui)
        self.tab = "scenarios"
        names = sorted(self.entries)
        self.list = UISelectionList(pygame.Rect(20, 60, w // 2 - 30, h - 150), menu_rows(grouped_rows(self.games)),
                                    themed(self.ui))
        # filled when first shown (_show_tab): the first frame shows the scenarios
        self.demo_list = UISelectionList(pygame.Rect(20, 60, w // 2 - 30, h - 150), [], self.ui)
        self.demo_list.hide()
        self._demo_list_filled = False
        self.chosen_demo: DemoEntry | None = None
        self.about = UITextBox("<i>Pick a scenario on the left to read about it.</i>",
                               pygame.Rect(w // 2 + 10, 60, w // 2 - 30, h - 150 - OPTIONS_H), self.ui)
        x, y = w // 2 + 10, h - 80 - OPTIONS_H
        col = 120
        bw = max(90, (w // 2 - 30 - col) // 2 - 6)
        self.players_label = UILabel(pygame.Rect(x, y, col, 40), "Players:", self.ui)
        self.mode_buttons = {
            "hotseat": UIButton(pygame.Rect(x + col, y, bw, 40), "Two at this screen", self.ui,
                                tool_tip_text="Hotseat: two players take turns at one screen"),
            "solo": UIButton(pygame.Rect(x + col + bw + 6, y, bw, 40), "Solo vs computer", self.ui,
                             tool_tip_text="Practise alone: the computer plays the other side(s)"),
        }
        self.side_label = UILabel(pygame.Rect(x, y + 50, col, 40), "Your side:", self.ui)
        self.side_row = pygame.Rect(x + col, y + 50, w // 2 - 30 - col, 40)
        self.side_buttons: dict[str, UIButton] = {}
        self.level_label = UILabel(pygame.Rect(x, y + 100, col, 40), "Computer:", self.ui)
        self.level_buttons = {
            level: UIButton(pygame.Rect(x + col + i * (bw + 6), y + 100, bw, 40), LEVEL_TEXT[level], self.ui)
            for i, level in enumerate(LEVELS)}
        self.mode = "hotseat"
        self.side: str | None = None
        self.level = "easy"
        self.start_button = UIButton(pygame.Rect(20, h - 76, 200, 50), "Start", self.ui)
        self.start_button.disable()
        self.autosave = paths.autosave_path()
        self.resume_button = UIButton(pygame.Rect(240, h - 76, 320, 50), "Resume the autosaved game", self.ui)
        if not self.autosave.exists():
            self.resume_button.disable()
        self.quit_button = UIButton(pygame.Rect(w - 160, h - 76, 140, 50), "Quit", self.ui)
        self.notice = notice or ("" if names else "No scenarios found under scenarios/.")
        self.chosen: Scenario | None = None
        self._show_options()
        self._show_tab()

    # -- scenarios or demonstrations --------------------------------------------------------
    def demo_names(self) -> list[str]:
        """The demonstrations as listed: by game, then in the order of their ids (01, 02...)."""
        return sorted(self.demos, key=lambda name: (self.demos[name].game, self.demos[name].id))

    def set_tab(self, tab: str) -> None:
        """Show the scenarios (``"scenarios"``) or the demonstrations (``"demos"``)."""
        if tab != self.tab:
            self.tab = tab
            self._show_tab()

    def _show_tab(self) -> None:
        demos = self.tab == "demos"
        if demos and not self._demo_list_filled:
            self.demo_list.set_item_list(self.demo_names())
            self._demo_list_filled = True
        for key, b in self.tab_buttons.items():
            (b.select if key == self.tab else b.unselect)()
        (self.demo_list.show if demos else self.demo_list.hide)()
        (self.list.hide if demos else self.list.show)()
        self.heading.set_text("Choose a demonstration" if demos else "Choose a scenario")
        self.start_button.set_text("Open demonstration" if demos else "Start")
        for b in self.mode_buttons.values():
            (b.hide if demos else b.show)()
        (self.players_label.hide if demos else self.players_label.show)()
        if demos:
            for widget in [self.side_label, self.level_label, *self.side_buttons.values(),
                           *self.level_buttons.values()]:
                widget.hide()
            self._describe_demo(self.chosen_demo)
        else:
            self._show_options()
            self._describe_scenario(self.chosen, None)

    def _describe_demo(self, entry: DemoEntry | None) -> None:
        if entry is None:
            self.about.set_text("<i>Pick a demonstration on the left: it replays a rule step by step, "
                                "with the events and their rule references.</i>")
            self.start_button.disable()
        elif entry.error:
            self.about.set_text(f"<b>This demonstration cannot be loaded:</b><br>{html.escape(entry.error)}")
            self.start_button.disable()
        else:
            self.about.set_text(f"<b>{html.escape(entry.title)}</b><br><i>{html.escape(entry.game)} - "
                                f"{entry.steps} steps - {html.escape(entry.id)}</i><br><br>"
                                f"{html.escape(entry.description)}")
            self.start_button.enable()

    def _describe_scenario(self, entry: Scenario | str | None, name: str | None) -> None:
        if isinstance(entry, Scenario):
            summary = summary_html(entry)
            self.about.set_text(f"<b>{html.escape(entry.name)}</b><br>" + (f"{summary}<br>" if summary else "")
                                + f"<br>{html.escape(entry.description)}")
            self.start_button.enable()
        elif entry is None:
            self.about.set_text("<i>Pick a scenario on the left to read about it.</i>")
            self.start_button.disable()
        else:
            self.about.set_text(f"<b>This scenario cannot be loaded:</b><br>{html.escape(str(entry))}")
            self.start_button.disable()

    def open_demo(self) -> None:
        """Load the chosen demonstration (it is replayed once and checked) and open it."""
        entry = self.chosen_demo
        if entry is None or entry.error:
            return
        opener = getattr(self.host, "open_demo", None)
        if opener is None:
            self.notice = "This window cannot show demonstrations."
            return
        try:
            demo = Demo.load(entry.path)
        except DataError as exc:
            self.notice = f"Cannot open the demonstration: {exc}"
            return
        opener(demo)

    # -- hotseat or solo ------------------------------------------------------------------
    def solo_config(self) -> SoloConfig | None:
        """The solo settings chosen, or None for hotseat."""
        if self.mode != "solo" or self.side is None:
            return None
        return SoloConfig(self.side, self.level)

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self._show_options()

    def _set_sides(self, scenario: Scenario | None) -> None:
        for b in self.side_buttons.values():
            b.kill()
        self.side_buttons = {}
        sides: list[tuple[str, str]] = []
        if scenario is not None:
            try:
                sides = scenario_sides(scenario)
            except DataError as exc:
                self.notice = f"Cannot list the sides: {exc}"
        if self.side not in [s for s, _ in sides]:
            self.side = sides[0][0] if sides else None
        r = self.side_row
        bw = max(60, min(220, (r.w - 6 * max(0, len(sides) - 1)) // max(1, len(sides))))
        for i, (sid, name) in enumerate(sides):
            self.side_buttons[sid] = UIButton(pygame.Rect(r.x + i * (bw + 6), r.y, bw, r.h), name, self.ui,
                                              tool_tip_text=f"play {name} ({sid})")
        self._show_options()

    def _show_options(self) -> None:
        solo = self.mode == "solo" and self.tab == "scenarios"
        for key, b in self.mode_buttons.items():
            (b.select if key == self.mode else b.unselect)()
        for widget in [self.side_label, self.level_label, *self.side_buttons.values(), *self.level_buttons.values()]:
            (widget.show if solo else widget.hide)()
        for sid, b in self.side_buttons.items():
            (b.select if sid == self.side else b.unselect)()
        for level, b in self.level_buttons.items():
            (b.select if level == self.level else b.unselect)()

    def _start(self) -> None:
        if self.chosen is None:
            return
        if self.mode == "solo" and self.side is None:
            self.notice = "This scenario names no sides to choose from: play it as hotseat."
            return
        self.host.start(self.chosen, self.solo_config())

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
            self.host.quit()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.escape()
            return
        self.ui.process_events(event)
        if event.type in (pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
                          pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION) \
                and event.ui_element is self.list and event.text not in self.entries:
            return                                  # a game's heading
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.list:
            entry = self.entries.get(event.text)
            if isinstance(entry, Path):            # loaded (and checked) when first chosen
                try:
                    entry = load_scenario(entry)
                except Exception as exc:    # noqa: BLE001 - one broken file never stops the picker
                    entry = broken_reason(exc)
                self.entries[event.text] = entry
            self.chosen = entry if isinstance(entry, Scenario) else None
            self._describe_scenario(entry, event.text)
            self._set_sides(self.chosen)
        elif event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is self.demo_list:
            self.chosen_demo = self.demos.get(event.text)
            self._describe_demo(self.chosen_demo)
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION and event.ui_element is self.demo_list:
            self.open_demo()
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION and self.chosen is not None:
            self._start()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, b in self.tab_buttons.items():
                if event.ui_element is b:
                    self.set_tab(key)
            if event.ui_element is self.start_button and self.tab == "demos":
                self.open_demo()
            elif event.ui_element is self.start_button and self.chosen is not None:
                self._start()
            elif event.ui_element is self.resume_button:
                self.host.resume(self.autosave, self.solo_config())
            elif event.ui_element is self.quit_button:
                self.host.quit()
            for key, b in self.mode_buttons.items():
                if event.ui_element is b:
                    self.set_mode(key)
            for sid, b in self.side_buttons.items():
                if event.ui_element is b:
                    self.side = sid
                    self._show_options()
            for level, b in self.level_buttons.items():
                if event.ui_element is b:
                    self.level = level
                    self._show_options()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN:
            if self.tab == "demos":
                self.open_demo()
            elif self.chosen is not None:
                self._start()

    def escape(self) -> None:
        """Esc: from the demonstrations back to the scenarios; on the scenarios it quits nothing
        and says how to (Ctrl+Q or Quit): Esc is pressed to back out, and the list is the start."""
        if self.tab == "demos":
            self.set_tab("scenarios")
        else:
            self.notice = "Ctrl+Q or the Quit button closes the program."

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, screen: pygame.Surface) -> None:
        screen.fill((28, 31, 37))
        self.ui.draw_ui(screen)
        if self.notice:
            fonts.blit_boxed(screen, self.notice, (20, self.size[1] - 20), 20, (255, 190, 120), anchor="bottomleft")
