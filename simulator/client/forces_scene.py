"""The force-selection screen: before a scenario that asks for it, each player buys a force
within a budget (Dragon Rage point-buy, SAGA warbands, ASOIAF armies).

Everything the screen shows comes from the game's :class:`simulator.core.view.ForceRules`
(``Game.forces()``): the options (grouped, with cost, count and limits), the live problems
with their rules, the note, and the scenario that is built from the chosen forces. Nothing here
knows any game. In hotseat a secret selection is made behind the hand-over screen; in solo the
computer's forces are ``ForceRules.computer_forces`` and the human chooses at once.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIScrollingContainer, UITextBox

from simulator.client import fonts
from simulator.client.overlay_screens import Handover
from simulator.client.panels import new_manager
from simulator.client.solo import SoloConfig
from simulator.core.errors import DataError
from simulator.core.registry import get_game
from simulator.core.scenario import Scenario, scenario_from_data
from simulator.core.view import (ForceProblem, ForceRules, ForceSelection, SecretChoice, force_cost,
                                 force_selections, force_units)

ROW = 38
HEAD = 30
PROBLEM = (255, 110, 100)
THEME = {"#option_name": {"misc": {"text_horiz_alignment": "left"}},
         "#problem_row": {"colours": {"normal_text": "#FF8A80"}, "misc": {"text_horiz_alignment": "left"}},
         "#group_heading": {"colours": {"normal_text": "#FFD76E"}, "misc": {"text_horiz_alignment": "left"}}}


def points_text(points: float) -> str:
    """A price or total as a player reads it: whole numbers plainly, shares of a point as a
    fraction (5 Levies at 1/12 point each: "5/12", not "0.416667").

    >>> points_text(2.0), points_text(5 / 12), points_text(1.75), points_text(0.7071)
    ('2', '5/12', '1 3/4', '0.7071')
    """
    frac = Fraction(points).limit_denominator(24)
    if abs(float(frac) - points) > 1e-9 or frac.denominator == 1:
        return f"{points:g}"
    whole, rest = divmod(abs(frac.numerator), frac.denominator)
    sign = "-" if frac < 0 else ""
    return f"{sign}{whole} {rest}/{frac.denominator}" if whole else f"{sign}{rest}/{frac.denominator}"


def grouped(selection: ForceSelection) -> list[tuple[str, list[Any]]]:
    """The options under their group headings, groups in the order they first appear."""
    out: dict[str, list[Any]] = {}
    for o in selection.options:
        out.setdefault(o.group, []).append(o)
    return list(out.items())


class ForceHost(Protocol):
    def launch(self, scenario: Scenario, solo: SoloConfig | None = None) -> None: ...
    def to_picker(self) -> None: ...
    def quit(self) -> None: ...


@dataclass
class ForceFlow:
    """Where the choosing stands (kept apart from the widgets, so it survives a resize):
    the selections still to make, the forces chosen so far, the counts on screen."""

    scenario: Scenario
    solo: SoloConfig | None
    rules: ForceRules
    queue: list[ForceSelection]
    chosen: dict[str, dict[str, int]] = field(default_factory=dict)
    index: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    revealed: bool = False

    @classmethod
    def start(cls, scenario: Scenario, solo: SoloConfig | None = None) -> "ForceFlow":
        """Raises ``DataError`` when the game cannot offer the selection the scenario asks for."""
        rules = get_game(scenario.game).forces()
        selections = force_selections(scenario)
        if rules is None or not selections:
            raise DataError(f"{scenario.name} has no force selection")
        flow = cls(scenario, solo, rules, [])
        for sel in selections:
            if solo is not None and sel.player != solo.human:
                flow.chosen[sel.player] = dict(rules.computer_forces(scenario, sel.player))
            else:
                flow.queue.append(sel)
        flow._begin()
        return flow

    @property
    def current(self) -> ForceSelection | None:
        return self.queue[self.index] if self.index < len(self.queue) else None

    def _begin(self) -> None:
        sel = self.current
        self.counts = {o.id: o.min for o in sel.options} if sel else {}
        # hotseat: a secret choice waits for its player; solo: nobody else is at the screen
        self.revealed = sel is None or not sel.secret or self.solo is not None

    def chosen_now(self) -> dict[str, int]:
        return {k: v for k, v in self.counts.items() if v}

    def problems(self) -> list[ForceProblem]:
        sel = self.current
        return self.rules.check_forces(self.scenario, sel.player, self.chosen_now()) if sel else []

    def note(self) -> str:
        sel = self.current
        return self.rules.forces_note(self.scenario, sel.player, self.chosen_now()) if sel else ""

    def change(self, option_id: str, steps: int) -> None:
        sel = self.current
        o = sel.option(option_id) if sel else None
        if o is None:
            return
        n = self.counts.get(o.id, 0) + steps * o.step
        if n < o.min or (o.max is not None and n > o.max):
            return
        self.counts[o.id] = n

    def set_counts(self, counts: dict[str, int]) -> None:
        sel = self.current
        if sel is not None:
            self.counts = {o.id: int(counts.get(o.id, o.min)) for o in sel.options}

    def done(self) -> bool:
        """Record the current force (only when it has no problem); True when all are chosen."""
        sel = self.current
        if sel is None:
            return True
        if self.problems():
            return False
        self.chosen[sel.player] = self.chosen_now()
        self.index += 1
        self._begin()
        return self.current is None

    def build(self) -> Scenario:
        data = self.rules.build_scenario(self.scenario, self.chosen)
        return scenario_from_data(data, self.scenario.id, file=f"<{self.scenario.id}: chosen forces>")


class ForceScene:
    """One player's force selection (or the hand-over screen before it)."""

    def __init__(self, host: ForceHost | None, flow: ForceFlow, size: tuple[int, int]) -> None:
        self.host = host
        self.flow = flow
        self.size = size
        self.ui = new_manager(size)
        self.ui.get_theme().load_theme(THEME)
        self.notice = ""
        self.handover: Handover | None = None
        self.rows: dict[str, dict[str, Any]] = {}
        self.widgets: list[Any] = []
        self.problems: list[ForceProblem] = []
        self._build()

    # -- widgets --------------------------------------------------------------------------
    def _clear(self) -> None:
        if self.handover is not None:
            self.handover.close()
            self.handover = None
        for wdg in self.widgets:
            wdg.kill()
        self.widgets = []
        self.rows = {}

    def _build(self) -> None:
        self._clear()
        sel = self.flow.current
        if sel is None:
            return
        if not self.flow.revealed:
            choice = SecretChoice(sel.player_name, f"{sel.player_name} chooses a force in secret.", ())
            self.handover = Handover(self.ui, self.size, choice)
            return
        w, h = self.size
        list_w = int(w * 0.58)
        top = 70
        self.list_rect = pygame.Rect(20, top, list_w, h - top - 90)
        self.container = UIScrollingContainer(self.list_rect, self.ui, allow_scroll_x=False)
        self.widgets.append(self.container)
        inner = self.container.get_container()
        cw = list_w - 24
        y = 0
        for group, options in grouped(sel):
            if group:
                self.widgets.append(UILabel(pygame.Rect(4, y + 4, cw - 8, HEAD - 4), group, self.ui,
                                            container=inner, object_id="#group_heading"))
                y += HEAD
            for o in options:
                y = self._row(o, inner, cw, y)
        self.container.set_scrollable_area_dimensions((list_w - 20, max(y, 10)))
        x = list_w + 40
        side_w = w - x - 20
        self.summary = UITextBox("", pygame.Rect(x, top, side_w, h - top - 90), self.ui)
        self.widgets.append(self.summary)
        bw = 150
        self.done_button = UIButton(pygame.Rect(w - 20 - bw, h - 70, bw, 50), "Done", self.ui,
                                    tool_tip_text="enabled when the force has no problem")
        self.clear_button = UIButton(pygame.Rect(w - 20 - 2 * bw - 10, h - 70, bw, 50), "Clear", self.ui)
        self.suggest_button = UIButton(pygame.Rect(w - 20 - 3 * bw - 20, h - 70, bw, 50), "Suggested", self.ui,
                                       tool_tip_text="the force the scenario suggests")
        self.back_button = UIButton(pygame.Rect(20, h - 70, bw, 50), "Back", self.ui,
                                    tool_tip_text="back to the scenario picker")
        self.widgets += [self.done_button, self.clear_button, self.suggest_button, self.back_button]
        if not sel.suggested:
            self.suggest_button.disable()
        self.refresh()

    def _row(self, o: Any, inner: Any, cw: int, y: int) -> int:
        """One option's row: name and values, cost, -, count / max, +."""
        room = int((cw - 300) / 7.6)                # characters that fit (noto_sans 14)
        name = o.name + (f"  ({', '.join(o.values)})" if o.values else "")
        if len(name) > room:
            name = o.name if len(o.name) <= room else o.name[:max(4, room - 3)] + "..."
        step = f" x{o.step}" if o.step > 1 else ""
        row = {
            "y": y,
            "name": UILabel(pygame.Rect(4, y, cw - 300, ROW - 4), name, self.ui, container=inner,
                            object_id="#option_name"),
            "cost": UILabel(pygame.Rect(cw - 296, y, 80, ROW - 4),
                            f"{points_text(o.cost)} pt{'' if o.cost == 1 else 's'}{step}", self.ui,
                            container=inner),
            "minus": UIButton(pygame.Rect(cw - 210, y, 40, ROW - 4), "-", self.ui, container=inner,
                              tool_tip_text=f"one less {o.name}"),
            "count": UILabel(pygame.Rect(cw - 166, y, 70, ROW - 4), "", self.ui, container=inner),
            "plus": UIButton(pygame.Rect(cw - 92, y, 40, ROW - 4), "+", self.ui, container=inner,
                             tool_tip_text=f"one more {o.name}"),
            "flag": "#option_name",
        }
        self.rows[o.id] = row
        self.widgets.extend(v for k, v in row.items() if k not in ("y", "flag"))
        return y + ROW

    def refresh(self) -> None:
        """Counts, buttons, budget, problems and note after every change."""
        flow, sel = self.flow, self.flow.current
        if sel is None or not self.rows:
            return
        self.problems = flow.problems()
        flagged = {p.option for p in self.problems if p.option}
        for o in sel.options:
            row = self.rows[o.id]
            n = flow.counts.get(o.id, 0)
            row["count"].set_text(f"{n}" + (f" / {o.max}" if o.max is not None else ""))
            (row["minus"].enable if n - o.step >= o.min else row["minus"].disable)()
            (row["plus"].enable if o.max is None or n + o.step <= o.max else row["plus"].disable)()
            want = "#problem_row" if o.id in flagged else "#option_name"
            if row.get("flag") != want:
                row["name"].change_object_id(want)
                row["flag"] = want
        (self.done_button.enable if not self.problems else self.done_button.disable)()
        chosen = flow.chosen_now()
        used = force_cost(sel, chosen)
        left = (f"{points_text(sel.budget - used)} left" if used <= sel.budget
                else f"{points_text(used - sel.budget)} over")
        parts = [f"<b>Points:</b> {points_text(used)} of {points_text(sel.budget)} ({left})"]
        if sel.budget_min:
            parts.append(f"<b>At least:</b> {points_text(sel.budget_min)} points")
        units = force_units(chosen)
        limit = f" (allowed: {sel.unit_limit[0]}-{sel.unit_limit[1]})" if sel.unit_limit else ""
        parts.append(f"<b>Units:</b> {units}{limit}")
        note = flow.note()
        if note:
            parts.append(f"<i>{html.escape(note)}</i>")
        if self.problems:
            parts.append("<b>Problems:</b>")
            parts += [f"<font color='#FF8A80'>- {html.escape(p.message)}"
                      + (f" ({html.escape(p.rule)})" if p.rule else "") + "</font>" for p in self.problems]
        else:
            parts.append("<font color='#9BE38A'>This force is legal: press Done.</font>")
        self.summary.set_text("<br>".join(parts))

    # -- events ---------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame.KEYDOWN and event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
            if self.host is not None:
                self.host.quit()
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.rows:
            self.done()
            return
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        element = event.ui_element
        if self.handover is not None:
            self.handover.click(element)
            if self.handover.revealed:
                self.flow.revealed = True
                self._build()
            return
        for oid, row in self.rows.items():
            if element is row["plus"] or element is row["minus"]:
                self.flow.change(oid, 1 if element is row["plus"] else -1)
                self.notice = ""
                self.refresh()
                return
        if element is self.done_button:
            self.done()
        elif element is self.clear_button:
            self.flow.set_counts({})
            self.refresh()
        elif element is self.suggest_button and self.flow.current is not None:
            self.flow.set_counts(dict(self.flow.current.suggested))
            self.refresh()
        elif element is self.back_button and self.host is not None:
            self.host.to_picker()

    def done(self) -> None:
        """Accept this player's force; after the last one, build the scenario and start it."""
        flow = self.flow
        if flow.current is None or not self.rows:
            return
        if flow.problems():
            self.refresh()
            return
        if not flow.done():
            self._build()                       # the next player (behind the hand-over screen)
            return
        try:
            scenario = flow.build()
        except DataError as exc:
            # every force was checked, so this is a game's bug: go back to the last force, say why
            flow.index = len(flow.queue) - 1
            flow.counts = dict(flow.chosen.pop(flow.queue[flow.index].player, {}))
            flow.revealed = True
            self._build()
            self.notice = f"Cannot build the scenario: {exc}"
            return
        if self.host is not None:
            self.host.launch(scenario, flow.solo)

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, screen: pygame.Surface) -> None:
        sel = self.flow.current
        if self.handover is not None:
            self.handover.draw(screen)
            self.ui.draw_ui(screen)
            return
        screen.fill((28, 31, 37))
        if sel is not None:
            title = f"{sel.player_name}: choose your force"
            if sel.rule:
                title += f"  ({sel.rule})"
            screen.blit(fonts.text(title, 30, (255, 215, 110), True), (20, 18))
            sub = self.flow.scenario.name
            if len(self.flow.queue) > 1:
                sub += f" - player {self.flow.index + 1} of {len(self.flow.queue)}"
            screen.blit(fonts.text(sub, 18, (200, 205, 210)), (20 + int(self.size[0] * 0.58) + 20, 28))
        self.ui.draw_ui(screen)
        self._draw_flags(screen)
        if self.notice:
            fonts.blit_boxed(screen, self.notice, (190, self.size[1] - 30), 20, PROBLEM, anchor="bottomleft")

    def _draw_flags(self, screen: pygame.Surface) -> None:
        """A red frame round every row a problem names (inside the visible list)."""
        flagged = {p.option for p in self.problems if p.option}
        if not flagged or not self.rows:
            return
        clip = screen.get_clip()
        screen.set_clip(self.list_rect)
        for oid in flagged:
            row = self.rows.get(oid)
            if row is None:
                continue
            r = row["name"].rect.union(row["plus"].rect).inflate(8, 4)
            pygame.draw.rect(screen, PROBLEM, r, 2, border_radius=4)
        screen.set_clip(clip)

    def row_problem(self, option_id: str) -> bool:
        """True when a live problem names ``option_id`` (its row is highlighted)."""
        return any(p.option == option_id for p in self.problems)
