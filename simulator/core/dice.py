"""Seeded, recorded, forcible dice.

Every random number in a game comes from here. Each action gets its own random
stream derived from the session seed and the action's index, so replaying the
action log (undo, redo, load) reproduces every roll, and undoing an action does not
let a player fish for a different result. A script can force the exact results
with a dice tape; running out of forced results is an error, never a silent roll.

>>> dice = Dice(seed=7)
>>> dice.begin_action(0)
>>> dice.roll("d6", "attack") in range(1, 7)
True
>>> forced = Dice(seed=7, tape=[0, 5])
>>> forced.begin_action(0)
>>> forced.roll("d10", "fire"), forced.roll("d6", "escape")
(10, 5)
>>> [r.purpose for r in forced.take_records()]
['fire', 'escape']
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from simulator.core.errors import DiceExhausted

Face = int | str


@dataclass(frozen=True)
class Die:
    """A die: its name and the faces it can show, in order.

    Custom-faced dice (SAGA's faction dice) list their symbols as faces.
    ``zero_reads`` lets a tape give ``0`` for a d10, which reads as 10.
    """

    name: str
    faces: tuple[Face, ...]
    zero_reads: Face | None = None

    def face_from_tape(self, value: Any) -> Face:
        if value == 0 and self.zero_reads is not None:
            return self.zero_reads
        if value not in self.faces:
            raise DiceExhausted(
                f"forced result {value!r} is not a face of a {self.name} "
                f"(faces: {', '.join(map(str, dict.fromkeys(self.faces)))})"
            )
        return value


D3 = Die("d3", (1, 2, 3))
D6 = Die("d6", (1, 2, 3, 4, 5, 6))
D8 = Die("d8", tuple(range(1, 9)))
D10 = Die("d10", tuple(range(1, 11)), zero_reads=10)
D12 = Die("d12", tuple(range(1, 13)))
D20 = Die("d20", tuple(range(1, 21)))

STANDARD_DICE: dict[str, Die] = {d.name: d for d in (D3, D6, D8, D10, D12, D20)}

#: The name prefix of the dice ``Dice.choice`` and ``Dice.shuffle`` draw lots with: a lot of
#: ``n`` is recorded like a die of ``n`` faces, but no player would call it a die.
LOT = "pick"


def is_lot(die_name: str) -> bool:
    """Whether ``die_name`` names a drawing of lots (a choice or a shuffle), not a die.

    >>> is_lot("pick5"), is_lot("d6"), is_lot("saga-vikings")
    (True, False, False)
    """
    return die_name.startswith(LOT) and die_name[len(LOT):].isdigit()


@dataclass(frozen=True)
class Roll:
    """One die rolled: which die, what it showed, what it was for, whether forced."""

    die: str
    result: Face
    purpose: str
    forced: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"die": self.die, "result": self.result, "purpose": self.purpose, "forced": self.forced}


class Dice:
    """The session's dice. Games call :meth:`roll` (or the shorthands) with a purpose."""

    def __init__(self, seed: int, tape: Sequence[Face] | None = None) -> None:
        self.seed = seed
        self._tape: list[Face] = list(tape or [])
        self._tape_pos = 0
        self._use_tape = True
        self._lots_from_tape = True
        self._replay: list[Face] | None = None
        self._rng = random.Random(f"{seed}:setup")
        self._records: list[Roll] = []
        self._custom: dict[str, Die] = {}
        #: Called with every :class:`Roll` as it happens (the session logs it).
        self.on_roll: Callable[[Roll], None] | None = None

    # -- set-up ------------------------------------------------------------------------
    def register(self, die: Die) -> None:
        """Make a custom-faced die available by name (e.g. a SAGA faction die)."""
        self._custom[die.name] = die

    def fork(self, seed: int) -> "Dice":
        """New dice with their own seed that know the same custom dice (for look-ahead)."""
        other = Dice(seed)
        other._custom = dict(self._custom)
        return other

    def die(self, name: str | Die) -> Die:
        if isinstance(name, Die):
            return name
        found = self._custom.get(name) or STANDARD_DICE.get(name)
        if found is None:
            raise KeyError(f"unknown die {name!r}")
        return found

    # -- the session drives these ----------------------------------------------------------
    def begin_action(self, index: int, replay: Iterable[Face] | None = None, *, use_tape: bool = True,
                     lots_from_tape: bool = True) -> None:
        """Start the random stream of action ``index``; ``replay`` forces recorded results.

        ``use_tape=False`` draws from the seed even when a tape is loaded.
        ``lots_from_tape=False`` keeps the tape for dice only: lots (``is_lot``: deck
        shuffles, random draws) come from the seed, as at set-up.
        """
        self._use_tape = use_tape
        self._lots_from_tape = lots_from_tape
        self._rng = random.Random(f"{self.seed}:{index}")
        self._records = []
        self._replay = list(replay) if replay is not None else None

    def take_records(self) -> list[Roll]:
        records, self._records = self._records, []
        return records

    def replay_left(self) -> int:
        return len(self._replay) if self._replay else 0

    @property
    def tape_position(self) -> int:
        return self._tape_pos

    @tape_position.setter
    def tape_position(self, pos: int) -> None:
        self._tape_pos = pos

    @property
    def tape_left(self) -> int:
        return len(self._tape) - self._tape_pos

    # -- games call these ----------------------------------------------------------------
    def roll(self, die: str | Die, purpose: str) -> Face:
        """Roll one die for ``purpose`` and record it."""
        d = self.die(die)
        forced = False
        if self._replay is not None:
            if not self._replay:
                raise DiceExhausted("the recorded dice of this action ran out while replaying it")
            result = d.face_from_tape(self._replay.pop(0))
            forced = True
        elif self._tape and self._use_tape and (self._lots_from_tape or not is_lot(d.name)):
            if self._tape_pos >= len(self._tape):
                raise DiceExhausted(
                    f"the forced dice tape ran out ({len(self._tape)} results used) "
                    f"when a {d.name} was needed for: {purpose}"
                )
            result = d.face_from_tape(self._tape[self._tape_pos])
            self._tape_pos += 1
            forced = True
        else:
            result = self._rng.choice(d.faces)
        record = Roll(d.name, result, purpose, forced)
        self._records.append(record)
        if self.on_roll is not None:
            self.on_roll(record)
        return result

    def roll_many(self, die: str | Die, count: int, purpose: str) -> list[Face]:
        return [self.roll(die, purpose) for _ in range(count)]

    def d6(self, purpose: str) -> int:
        return int(self.roll(D6, purpose))

    def d10(self, purpose: str) -> int:
        return int(self.roll(D10, purpose))

    def d3(self, purpose: str) -> int:
        return int(self.roll(D3, purpose))

    def two_d6(self, purpose: str) -> int:
        """Roll 2d6 and return the total; both dice are recorded."""
        return self.d6(purpose) + self.d6(purpose)

    def choice(self, options: Sequence[Any], purpose: str) -> Any:
        """Pick one of ``options`` at random (e.g. shuffling a deck), recorded as a die roll
        of a lot die (``is_lot``)."""
        die = Die(f"{LOT}{len(options)}", tuple(range(1, len(options) + 1)))
        return options[int(self.roll(die, purpose)) - 1]

    def shuffle(self, items: list[Any], purpose: str) -> list[Any]:
        """A recorded Fisher-Yates shuffle, returning a new list."""
        pool = list(items)
        out = []
        while pool:
            out.append(pool.pop(self.choice(range(len(pool)), purpose)))
        return out
