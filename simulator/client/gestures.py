"""Every gesture the window offers, computed without a window.

The game scene builds its right-click menus, its side panels' menus and drops, its End phase
button and its secret choices from these functions, and ``simulator reach`` asks the same
functions which legal actions some gesture reaches. A gesture is what a player does (right-click
a piece and pick an entry, click a die, drag it onto a box, press a button) and the action it
proposes; the engine still decides.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Sequence

from simulator.core.actions import in_words
from simulator.core.game import Action, State
from simulator.core.view import (PanelSlot, PieceView, Presentation, SecretChoice, SidePanel, describe_action,
                                 names_piece)

#: The side panel of a secret choice made with the board in view.
SECRET = "secret-choice"
#: The side panel of the legal actions no piece, panel or button offers (a set-up roll, an edge
#: to choose): "to do now", each in the players' words.
TODO = "to-do-now"

Label = Callable[[Action], str]


@dataclass(frozen=True)
class Gesture:
    """One thing a player can do with the mouse now, and the action it proposes."""

    kind: Literal["menu", "panel", "drop", "button", "choice", "drag"]
    #: What is acted on: a piece id, ``panel/slot`` or ``panel/slot/item``, "End phase".
    source: str
    #: Where to: a hex or a slot (drags and drops); "" otherwise.
    target: str
    label: str
    action: Action


def piece_menu(presentation: Presentation, state: State, legal: Sequence[Action], piece: str,
               label: Label | None = None) -> list[tuple[str, Action]]:
    """The right-click menu of ``piece``; with ``label``, in the players' words (:func:`worded`)."""
    entries = list(presentation.piece_actions(state, legal, piece))
    return worded(entries, label) if label is not None else entries


def worded(entries: Sequence[tuple[str, Action]], label: Label) -> list[tuple[str, Action]]:
    """Menu entries in the players' words: an entry the presentation left in engine syntax
    (``describe_action``) takes its action specification's label (``label``), a presentation's
    own wording stays; entries that would read alike get what tells them apart."""
    out = [(label(a) if text == describe_action(a) else text, a) for text, a in entries]
    counts: dict[str, int] = {}
    for text, _ in out:
        counts[text] = counts.get(text, 0) + 1
    if all(n == 1 for n in counts.values()):
        return out
    return [(text if counts[text] == 1 else _told_apart(text, a, [b for t, b in out if t == text]), a)
            for text, a in out]


def _told_apart(text: str, action: Action, alike: Sequence[Action]) -> str:
    """``text`` and the parameters in which ``action`` differs from the others that read alike."""
    keys = [k for k in action if k != "type" and any(other.get(k) != action.get(k) for other in alike)]
    extra = ", ".join(f"{k.replace('_', ' ')} {in_words(action[k])}" for k in keys)
    return f"{text} ({extra})" if extra else text


def secret_panel(secret: SecretChoice | None) -> tuple[SidePanel, ...]:
    """A secret choice of two options or more, as a chooser under the board."""
    if secret is None or len(secret.options) < 2:
        return ()
    slots = tuple(PanelSlot(str(i), label) for i, (label, _) in enumerate(secret.options))
    title = f"Secret: {secret.prompt}" if secret.prompt else f"{secret.player}: a secret choice"
    return (SidePanel(SECRET, "chooser", title, slots, owner=secret.player),)


def labeller(specs: Mapping[str, Any], state: State) -> Label:
    """An action's label from its game's specification (``ActionSpec.describe``), else its type
    and parameters."""
    def label(action: Action) -> str:
        spec = specs.get(str(action.get("type")))
        if spec is not None:
            try:
                text = str(spec.describe(state, action))
            except (KeyError, ValueError, TypeError, IndexError):
                text = ""
            if text and "{" not in text:
                return text[:1].upper() + text[1:]
        return describe_action(action)
    return label


def todo_panel(loose: Sequence[Action], label: Label) -> tuple[SidePanel, ...]:
    """The legal actions no other gesture offers, as a chooser under the board."""
    if not loose:
        return ()
    slots = tuple(PanelSlot(str(i), label(action)) for i, action in enumerate(loose))
    return (SidePanel(TODO, "chooser", "To do now", slots),)


def panel_click(presentation: Presentation, state: State, legal: Sequence[Action], secret: SecretChoice | None,
                panel: str, slot: str, item: str | None, loose: Sequence[Action] = (),
                label: Label = describe_action) -> list[tuple[str, Action]]:
    """What a click on a side panel's slot (or a thing in it) offers."""
    if panel == SECRET:
        if secret is not None and slot.isdigit() and int(slot) < len(secret.options):
            return [secret.options[int(slot)]]
        return []
    if panel == TODO:
        return [(label(loose[int(slot)]), loose[int(slot)])] if slot.isdigit() and int(slot) < len(loose) else []
    return worded(presentation.panel_actions(state, legal, panel, slot, item), label)


def gestures(presentation: Presentation, state: State, legal: Sequence[Action],
             secret: SecretChoice | None = None, *, drags: bool = True, label: Label = describe_action
             ) -> list[Gesture]:
    """Every gesture offered in ``state`` (as the player to act sees it), the "to do now" list of
    what nothing else offers last."""
    offered = _offered(presentation, state, legal, secret, drags, label)
    loose = unreached(legal, offered)
    for i, action in enumerate(loose):
        offered.append(Gesture("choice", f"{TODO}/{i}", "", label(action), action))
    return offered


def loose_actions(presentation: Presentation, state: State, legal: Sequence[Action],
                  secret: SecretChoice | None = None) -> list[Action]:
    """The legal actions that no piece's menu or drag, no panel and no button offers: the window
    lists them under the board, "to do now"."""
    return unreached(legal, _offered(presentation, state, legal, secret, drags=False))


def _offered(presentation: Presentation, state: State, legal: Sequence[Action], secret: SecretChoice | None,
             drags: bool, words: Label = describe_action) -> list[Gesture]:
    out: list[Gesture] = []
    pieces = presentation.pieces(state)
    for piece in pieces:
        for label, action in piece_menu(presentation, state, legal, piece.id, words):
            out.append(Gesture("menu", piece.id, "", label, action))
    if drags:
        for piece in pieces:
            reach = presentation.move_range(state, piece.id) if piece.movable else None
            for to in (reach.hexes if reach is not None else {}):
                action = presentation.drag_action(state, piece.id, to)
                if action is not None:
                    out.append(Gesture("drag", piece.id, str(to), f"drag to {to}", action))
    panels = secret_panel(secret) + tuple(presentation.side_panels(state, None))
    for panel in panels:
        for slot in panel.slots:
            for label, action in panel_click(presentation, state, legal, secret, panel.id, slot.id, None,
                                             label=words):
                out.append(Gesture("panel" if panel.id != SECRET else "choice", f"{panel.id}/{slot.id}", "",
                                   label, action))
            for item in slot.contents:
                for label, action in panel_click(presentation, state, legal, secret, panel.id, slot.id, item.id,
                                                 label=words):
                    out.append(Gesture("panel", f"{panel.id}/{slot.id}/{item.id}", "", label, action))
                if item.piece:
                    continue
                for other in panel.slots:
                    if other.id == slot.id:
                        continue
                    action = presentation.panel_drop(state, legal, panel.id, item.id, other.id)
                    if action is not None:
                        out.append(Gesture("drop", f"{panel.id}/{slot.id}/{item.id}", other.id, "", action))
    end = presentation.end_phase_action(state)
    if end is not None:
        out.append(Gesture("button", "End phase", "", "End phase", end))
    return out


def others_may_act(pieces: Sequence[PieceView], legal: Sequence[Action], active: str | None
                   ) -> dict[str, list[str]]:
    """The sides other than ``active`` whose pieces a legal action names now (a Vikings archer's
    defensive fire during the other side's movement), with those actions' kinds in words.

    >>> from simulator.core.view import PieceView
    >>> archer = PieceView("a1", "saxons", "Archer", "counter", "0101", (0, 0, 0))
    >>> others_may_act([archer], [{"type": "defensive_fire", "piece": "a1", "target": "v1"}], "vikings")
    {'saxons': ['defensive fire']}
    """
    out: dict[str, list[str]] = {}
    for piece in pieces:
        if piece.side == active or active is None:
            continue
        for action in legal:
            if names_piece(action, piece.id):
                kind = str(action.get("type", "")).replace("_", " ")
                kinds = out.setdefault(piece.side, [])
                if kind not in kinds:
                    kinds.append(kind)
    return out


def key(action: Any) -> str:
    """An action as comparable text (parameters in any order)."""
    return json.dumps(action, sort_keys=True, default=str)


def unreached(legal: Sequence[Action], offered: Sequence[Gesture]) -> list[Action]:
    """The legal actions that no gesture proposes."""
    reached = {key(g.action) for g in offered}
    return [a for a in legal if key(a) not in reached]
