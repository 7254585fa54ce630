"""The shape of every action parameter, checked once before an action touches the state.

Each parameter name means the same thing in every ASOIAF action (``unit`` is always a unit id,
``facing`` always an angle in degrees...), so one table serves all action types. A value of the
wrong type or shape is refused with a one-line IllegalAction naming the parameter, instead of a
TypeError deep in the rules or NaN reaching the geometry (issue #26). Whether a well-formed value is
*legal* (a unit that exists, a distance within Speed) stays the rules' business.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping

from simulator.core.errors import IllegalAction

Check = Callable[[Any], str | None]     # None when the value fits, else what was expected


def _text(v: Any) -> str | None:
    return None if isinstance(v, str) else "a text id"


def _text_or_null(v: Any) -> str | None:
    return None if v is None or isinstance(v, str) else "a text id or null"


def _finite(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)


def _number(v: Any) -> str | None:
    return None if _finite(v) else "a finite number"


def _whole(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) else "a whole number"


def _flag(v: Any) -> str | None:
    return None if isinstance(v, bool) else "true or false"


def _texts(v: Any) -> str | None:
    return None if isinstance(v, list) and all(isinstance(x, str) for x in v) else "a list of text ids"


def _texts_or_null(v: Any) -> str | None:
    return None if v is None else _texts(v)


def _wholes(v: Any) -> str | None:
    ok = isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
    return None if ok else "a list of whole numbers (die positions)"


def _pose(v: Any) -> str | None:
    ok = isinstance(v, list) and len(v) == 3 and all(_finite(x) for x in v)
    return None if ok else "[x, y, facing], three finite numbers"


PARAMETERS: Mapping[str, Check] = {
    # ids
    "unit": _text, "ncu": _text, "zone": _text, "terrain": _text, "objective": _text, "player": _text,
    "area": _text, "kind": _text, "direction": _text, "shift_direction": _text, "align": _text,
    # ids that may be null ("none": no card, no target, no VP token, no tied arc chosen)
    "card": _text_or_null, "target": _text_or_null, "condition": _text_or_null, "vp_token": _text_or_null,
    "arc": _text_or_null,
    # measures: inches and degrees
    "x": _number, "y": _number, "distance": _number, "facing": _number, "pivot": _number, "shift": _number,
    "rotation": _number,
    # counts and indices
    "attack": _whole, "quadrant": _whole,
    # lists
    "dice": _wholes, "cards": _texts_or_null, "units": _texts,
    "enter": _pose,
    # yes / no
    "use": _flag, "give": _flag, "none": _flag, "fetch": _flag, "replace": _flag,
}


def check_parameters(action: Mapping[str, Any]) -> None:
    """Refuse an action whose parameters have the wrong type or shape, naming the first such one."""
    for key, value in action.items():
        check = PARAMETERS.get(key)
        if check is None:
            continue
        expected = check(value)
        if expected is not None:
            shown = repr(value)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise IllegalAction(f"'{action['type']}': parameter '{key}' must be {expected} (got {shown})",
                                'ASOIAF action parameters (docs/actions.md, "A Song of Ice and Fire")')
