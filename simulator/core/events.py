"""Events: what happened, in words, with the rule that decided it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened, as the client and the log show it.

    ``rule`` cites the rulebook section (``"DR 2.4.3"``, ``"VK 4.52"``, ``"SAGA p.20"``);
    ``data`` is plain data (names the pieces involved under ``pieces`` so the client can
    highlight them).

    >>> Event("move", "Militia moves to 0707", "DR 2.4", {"pieces": ["m1"]}).as_dict()["rule"]
    'DR 2.4'
    """

    kind: str
    text: str
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "rule": self.rule, "data": self.data}
