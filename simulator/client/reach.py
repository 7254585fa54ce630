"""``simulator reach``: which legal actions the window's gestures reach, over seeded random games.

For each game, random players play the game's shipped scenarios (seeded; at least ``actions``
actions in all, spread over the scenarios). At every state the gesture layer
(:mod:`simulator.client.gestures`, the code the window builds its menus, drags and panels from)
is asked which gestures it offers to the player to act, as that player sees the game; a legal
action no gesture proposes is listed with where it was met.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from simulator.client.gestures import TODO, Gesture, gestures, key, labeller, unreached
from simulator.core.game import Action
from simulator.core.scenario import list_scenarios
from simulator.core.session import Session


@dataclass
class Coverage:
    """Legal actions met and reached for one game, and the ones no gesture reached."""

    game: str
    legal: int = 0
    reached: int = 0
    states: int = 0
    missing: list[tuple[str, int, Action]] = field(default_factory=list)
    #: How the legal actions were reached: by the first gesture kind offering each.
    by_kind: Counter[str] = field(default_factory=Counter)


def kind_of(offered: Sequence[Gesture], legal: Sequence[Action]) -> Counter[str]:
    """For each legal action, the kind of the first gesture that reaches it (menus, drags and
    panels before the "to do now" list)."""
    first: dict[str, str] = {}
    for g in offered:
        first.setdefault(key(g.action), g.kind if not g.source.startswith(TODO) else "to do now")
    return Counter(first.get(key(a), "none") for a in legal)


def scenarios_of(game: str) -> list[str]:
    return sorted(sid for sid, _ in list_scenarios() if sid.startswith(f"{game}/"))


def cover_game(game: str, actions: int = 300, seed: int = 1, drags: bool = True,
               progress: Callable[[str], None] | None = None, scenarios: Sequence[str] = ()) -> Coverage:
    """Play ``game``'s scenarios (or ``scenarios``) at random, ``actions`` in all and at least 10
    each, and count."""
    ids = list(scenarios) or scenarios_of(game)
    out = Coverage(game)
    if not ids:
        return out
    each = max(10, -(-actions // len(ids)))
    for n, sid in enumerate(ids):
        if progress is not None:
            progress(f"{sid} ({n + 1}/{len(ids)})")
        session = Session.new(sid, seed + n)
        rng = random.Random(f"{seed}:{sid}")
        for step in range(each):
            if session.outcome() is not None:
                break
            legal = session.legal_actions()
            if not legal:
                break
            side = session.active_player()
            presentation = session.game.presentation()
            state = session.view(side)
            offered = gestures(presentation, state, legal, presentation.secret_choice(state), drags=drags,
                               label=labeller(session.game.action_specs(), state))
            missing = unreached(legal, offered)
            out.by_kind.update(kind_of(offered, legal))
            out.states += 1
            out.legal += len(legal)
            out.reached += len(legal) - len(missing)
            seen = {key(m) for _, _, m in out.missing}
            out.missing += [(sid, step, m) for m in missing if key(m) not in seen]
            session.apply(rng.choice(legal))
    return out


def report(results: Sequence[Coverage], shown: int = 40) -> list[str]:
    lines = []
    for r in results:
        lines.append(f"{r.game}: reachable: {r.reached}/{r.legal} legal actions ({r.states} states)")
        lines.append("  by " + ", ".join(f"{kind} {n}" for kind, n in r.by_kind.most_common()))
        for sid, step, action in r.missing[:shown]:
            lines.append(f"  not reached: {key(action)}  ({sid}, after {step} actions)")
        if len(r.missing) > shown:
            lines.append(f"  ... and {len(r.missing) - shown} more")
    lines.append(f"all games: {sum(r.reached for r in results)}/{sum(r.legal for r in results)}")
    return lines
