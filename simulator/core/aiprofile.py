"""What a game tells the computer players about itself: search budgets, which of its action
types pass or prepare, and its optional search hooks.

The players in ``simulator.ai`` know no game: everything game-specific they use comes from
``Game.ai_profile()``, an :class:`AIProfile`. A game without one plays with the defaults
(every action ranked alike, no shaping, no hooks), through ``Game`` alone.

>>> profile = AIProfile(pass_types=("end_phase",), eager_types=("roll",), fidget=0.001)
>>> profile.fidget_of({"type": "end_phase"}), profile.fidget_of({"type": "roll"})
(0.0, -0.001)
>>> profile.fidget_of({"type": "move"})
0.001
>>> profile.budget({"rank": 40, "width": 5})
{'rank': 40, 'width': 5}
>>> AIProfile(width=3).budget({"rank": 40, "width": 5})
{'rank': 40, 'width': 3}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

State = dict[str, Any]
Action = dict[str, Any]

#: The action types that give up doing something now, for a game whose profile names none.
DEFAULT_PASS: tuple[str, ...] = ("end_phase", "end_turn", "pass", "skip")
#: What a non-passing action must gain on the evaluation to be preferred to passing.
FIDGET = 0.0005


class Reply(Protocol):
    """An answer the opponent may give to a position (``AIProfile.replies``)."""

    key: Any
    action: Action
    final: bool
    chance: float

    def start(self, state: State) -> State:
        """The state the answer is played from (the opponent's turn begun)."""


@dataclass(frozen=True)
class AIProfile:
    """A game's knowledge for the computer players (docs/ai.md explains each field's use).

    Budgets left None take the normal player's defaults. Action types are the game's own.
    """

    #: Action types that give up doing something now (end a phase or a turn): they pay no
    #: ``fidget``, so an action that changes nothing the evaluation sees is not preferred to them.
    pass_types: tuple[str, ...] = DEFAULT_PASS
    #: Action types that prepare later ones (placing a SAGA die): preferred by ``fidget``.
    eager_types: tuple[str, ...] = ()
    #: Action types the normal player always looks at, whatever its sample of the others.
    keep_types: tuple[str, ...] = ()
    #: The handicap of any other action; ``normal_fidget`` replaces it for the normal level only.
    fidget: float = FIDGET
    normal_fidget: float | None = None

    #: Normal-player budgets (``NormalPlayer`` documents them); None keeps its default.
    rank: int | None = None
    width: int | None = None
    samples: int | None = None
    depth: int | None = None
    follow: int | None = None
    resolve: int | None = None
    #: The most actions the easy player tries (None: its own default).
    easy_sample: int | None = None

    #: Weight of ``heuristic`` (a player-side shaping term, -1..0) in the normal level's value.
    shape: float = 0.0
    heuristic: Callable[[State, str], float] | None = None

    #: Resolving what an action started (a melee) by a cheap fixed policy: the first legal action
    #: of ``resolve_types``, in order; while ``in_fight`` says a fight is on, ``fight_types`` first.
    resolve_types: tuple[str, ...] = ()
    fight_types: tuple[str, ...] = ()
    in_fight: Callable[[State], bool] | None = None
    #: Action types resolved at once when looked at (a charge or a shot), over ``resolve_samples`` rolls.
    resolve_after: tuple[str, ...] = ()
    resolve_samples: int = 1

    #: Action types worth their best follow-up (a SAGA activation), grouped by ``expand_key`` fields.
    expand: tuple[str, ...] = ()
    expand_key: tuple[str, ...] = ()
    expand_follow: int = 0
    expand_keep: int = 3
    expand_most: int | None = None
    #: Keep one candidate per ``expand_key`` among the playouts' survivors.
    distinct: bool = False

    #: The opponent's answers a position invites, weighed by ``reply_weight`` (0: not asked).
    replies: Callable[[State, str, int], Sequence[Reply]] | None = None
    reply_weight: float = 0.0
    reply_most: int = 6
    reply_samples: int | None = None
    reply_final_weight: float | None = None

    #: More candidate moves than the legal list's sample (each still checked by the rules).
    extra_actions: Callable[[State, str], list[Action]] | None = None

    #: The scenarios ``simulator bench-ai`` plays for this game, and their turn limit (None: their own).
    bench_scenarios: tuple[str, ...] = ()
    bench_turns: int | None = None

    def fidget_of(self, action: Mapping[str, Any], level: str = "easy") -> float:
        """The handicap of ``action`` in a ranking: 0 for passing, minus the fidget for an eager
        type, the fidget for anything else (``normal_fidget`` at the normal ``level``)."""
        amount = self.fidget
        if level == "normal" and self.normal_fidget is not None:
            amount = self.normal_fidget
        kind = action.get("type")
        if kind in self.eager_types:
            return -amount
        return 0.0 if kind in self.pass_types else amount

    def budget(self, defaults: Mapping[str, int]) -> dict[str, int]:
        """``defaults`` with this profile's budgets where it sets them."""
        return {key: value if getattr(self, key, None) is None else int(getattr(self, key))
                for key, value in defaults.items()}

    @property
    def asks_replies(self) -> bool:
        return self.replies is not None and bool(self.reply_weight)

    @property
    def tracks_fights(self) -> bool:
        return self.in_fight is not None and bool(self.fight_types)


#: The profile of a game that declares none.
NO_PROFILE = AIProfile()
