"""The errors the engine raises: an illegal action, and bad input data."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules forbid. The session's state is left exactly as it was.

    >>> err = IllegalAction("walls cannot be crossed", rule="DR 2.5.3")
    >>> str(err)
    'walls cannot be crossed (DR 2.5.3)'
    """

    def __init__(self, reason: str, rule: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})" if self.rule else self.reason


class DataError(Exception):
    """Bad input: a data file, a save or a script that cannot be used.

    Carries the file, the line (1-based, 0 when unknown) and the field path, so
    the message points at the exact place to fix.

    >>> str(DataError("broken field", file="maps/x.yaml", line=12, field="grid.columns"))
    'maps/x.yaml:12: grid.columns: broken field'
    """

    def __init__(self, message: str, *, file: str = "", line: int = 0, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.field = field

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line:
            where += f":{self.line}"
        return f"{where}: {self.field + ': ' if self.field else ''}{self.message}"


class DiceExhausted(Exception):
    """A script's forced dice tape ran out: scripts never fall back to random rolls."""
