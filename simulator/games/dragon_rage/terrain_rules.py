"""Who may enter which hex across which hexside (DR 2.4, 2.5, Terrain Effects summary).

One function answers "may this unit step from ``a`` into adjacent ``b``, terrain and hexside
only" and says which rule forbids it. Stacking is separate (:mod:`.stacking`), so the same
answer serves walking monsters, troops and the client's movement highlight.
"""

from __future__ import annotations

from simulator.games.dragon_rage.board import Board, side_key
from simulator.games.dragon_rage.units import State, Unit, is_major, kind, spec

Block = tuple[str, str] | None   # (reason, rule) or None when allowed


_MOVE_CLASS: dict[str, str] = {}


def move_class(unit: Unit) -> str:
    """The terrain class of a unit: land, giant, serpent, t_rex, elemental, monster."""
    t = unit["type"]
    mc = _MOVE_CLASS.get(t)
    if mc is None:
        mc = _MOVE_CLASS[t] = _move_class(unit)
    return mc


def _move_class(unit: Unit) -> str:
    t = unit["type"]
    if t == "giant":
        return "giant"
    if t == "sea_serpent":
        return "serpent"
    if t == "t_rex":
        return "t_rex"
    if kind(unit) == "elemental":
        return "elemental"
    if is_major(unit):
        return "monster"
    return "land"


def bridge_state(state: State, hex_: str) -> str:
    """``intact``, ``broken`` (a marker: still usable) or ``burned`` (gone: river beneath)."""
    return state["bridges"].get(hex_, "intact")


def water_for(state: State, board: Board, hex_: str) -> str | None:
    """The water a hex presents to movement: ``sea``, ``river`` or None (land/bridge/ford/dock)."""
    ts = board.terrain[hex_]
    if "bridge" in ts and bridge_state(state, hex_) == "burned":
        return "river"
    if any(t not in ("river", "sea") for t in ts):
        return None
    return "sea" if "sea" in ts else "river"


def entrance_block(state: State, board: Board, unit: Unit, a: str, b: str) -> Block:
    """Passing the gate or door on hexside a|b (DR 2.5.3, 2.5.5; digest Q-GATE-1)."""
    ent = board.entrance(a, b)
    if ent is None:
        return None
    info = state["entrances"][ent.key]
    if info["broken"] or (info.get("open") and unit["side"] == "invader"):
        return None
    if move_class(unit) == "elemental" and ent.tower is None:
        return None   # elementals pass any wall entrance, even closed (DR 2.8.9)
    if ent.tower is not None:
        if unit["side"] == "defender":
            return None
        return (f"the {ent.feature.replace('_', ' ')} of tower {ent.tower} is closed to the invader until it is broken",
                "DR 2.5.5")
    if ent.inside is not None and a == ent.inside:
        return None   # outward through a wall gateway is always allowed
    if info["controller"] == unit["side"]:
        return None
    return (f"the {ent.feature} {ent.key} is controlled by the {info['controller']}; break it first", "DR 2.5.5")


#: Returned by the static step table when the hexside holds a gate or door (state-dependent).
_ENTRANCE = ("entrance", "DR 2.5.5")
#: Static step answers by (map id, move class) -> {(a, b): Block or _ENTRANCE}, filled lazily.
_STATIC_STEPS: dict[tuple[str, str], dict[tuple[str, str], Block]] = {}


#: The move class of an elemental's last step into a hex that destroys it (DR 2.8.9): every
#: other terrain and hexside rule still applies to that step.
FATAL_STEP = "elemental_fatal_step"


def elemental_doom(state: State, board: Board, hex_: str) -> str | None:
    """What destroys an elemental that enters ``hex_`` (DR 2.8.9): ``bridge``, ``dock``,
    ``ford``, ``river`` or ``sea``; None for a hex it may stand in (towers are simply closed)."""
    water = water_for(state, board, hex_)
    if water is not None:
        return water
    ts = board.terrain[hex_]
    return next((t for t in ("bridge", "dock", "ford") if t in ts), None)


def step_block(state: State, board: Board, unit: Unit, a: str, b: str, mc: str | None = None) -> Block:
    """Terrain and hexside rules for one step of a unit on the ground (``mc``: the move class,
    by default the unit's own; :data:`FATAL_STEP` for an elemental's last, fatal step).

    The terrain/hexside part depends only on the map and the unit's move class, so it is
    computed once per (map, class, hexside) and cached; what the state changes (dead monsters'
    hexes, burned bridges, gates and doors, occupied docks) is checked on every call.
    """
    if b not in board:
        return (f"hex {b} is not on the map", "DR 2.1")
    if b in state["impassable"]:
        return (f"hex {b} holds a dead monster and cannot be entered", "DR 2.12.1.8")
    mc = mc or move_class(unit)
    bridges = state["bridges"]
    if mc in RIVER_GOERS and side_key(a, b) in (state.get("broken_walls") or ()):
        block = _terrain_block(bridges, board, mc, a, b, breached=True)
    elif bridges.get(a) == "burned" or bridges.get(b) == "burned":
        block = _terrain_block(bridges, board, mc, a, b)
    else:
        table = _STATIC_STEPS.setdefault((state["map"], mc), {})
        key = (a, b)
        if key in table:
            block = table[key]
        else:
            block = table[key] = _terrain_block({}, board, mc, a, b)
    if mc == "serpent" and block is None and "dock" in board.terrain[b] and \
            any(u["alive"] and u["hex"] == b for u in state["units"].values()):
        return ("a sea serpent may enter only an empty dock", "DR 2.11.2.1")
    if block is _ENTRANCE:
        return entrance_block(state, board, unit, a, b)
    return block


def _water(bridges: dict[str, str], board: Board, hex_: str) -> str | None:
    ts = board.terrain[hex_]
    if "bridge" in ts and bridges.get(hex_) == "burned":
        return "river"
    if any(t not in ("river", "sea") for t in ts):
        return None
    return "sea" if "sea" in ts else "river"


#: Move classes able to enter river hexes, who may use a breach in a wooden wall (DR 2.11.2.2).
RIVER_GOERS = ("giant", "serpent")


def _terrain_block(bridges: dict[str, str], board: Board, mc: str, a: str, b: str, breached: bool = False) -> Block:
    """The map's answer for a step a -> b by a unit of move class ``mc`` (entrances: _ENTRANCE);
    ``breached``: the wall on this hexside is broken (DR 2.11.2.2)."""
    water = _water(bridges, board, b)
    ts = board.terrain[b]
    key = side_key(a, b)
    # water
    if mc == "serpent":
        if water is None and "bridge" not in ts and "dock" not in ts:
            return (f"a sea serpent never leaves the water ({b} is land)", "DR 2.11.2.1")
        if _water(bridges, board, a) is None and "dock" not in board.terrain[a] and "bridge" not in board.terrain[a]:
            return (f"a sea serpent cannot cross land from {a}", "DR 2.11.2.1")
        return None
    fatal = mc == FATAL_STEP     # the elemental may step in, and is destroyed there (DR 2.8.9)
    if water == "sea" and not fatal:
        return (f"{b} is sea: only sea serpents enter it", "DR 2.5.1")
    if water == "river" and mc not in ("giant", FATAL_STEP):
        return (f"{b} is river: only giants and sea serpents enter it", "DR 2.5.2")
    if key in board.river_banks and mc != "giant":
        return (f"river between {a} and {b}: no crossing by land", "DR 2.1.2")
    if mc in ("elemental", FATAL_STEP):
        for t in (("tower",) if fatal else ("bridge", "dock", "ford", "tower")):
            if t in ts:
                return (f"an elemental may not enter a {t} hex", "DR 2.8.9")
    if "ford" in ts:
        if mc == "monster":
            return ("grounded dragons and major monsters may not enter a ford", "DR 2.12.1.2")
        if a not in board.ford_access.get(b, set()):
            return (f"ford {b} is entered only from its banks", "DR 2.5.2")
    if "ford" in board.terrain[a] and b not in board.ford_access.get(a, set()) and mc != "giant":
        return (f"ford {a} is left only onto its banks", "DR 2.5.2")
    if "bridge" in ts and mc != "giant" and a not in board.bridge_access.get(b, set()):
        return (f"bridge {b} is entered only across the hexsides joining it to the banks", "DR 2.5.2")
    if "bridge" in board.terrain[a] and mc != "giant" and _water(bridges, board, a) is None \
            and b not in board.bridge_access.get(a, set()):
        return (f"bridge {a} is left only onto its banks", "DR 2.5.2")
    # walls, entrances and towers
    if board.entrance(a, b) is not None:
        return _ENTRANCE
    if key in board.walls and not breached:
        return (f"a wall stands between {a} and {b} (climbing is a separate action)", "DR 2.5.3")
    if b in board.towers or a in board.towers:
        tower = b if b in board.towers else a
        return (f"tower {tower} is entered and left only through its entrances", "DR 2.5.4")
    return None


def may_end_in(state: State, board: Board, unit: Unit, hex_: str) -> Block:
    """Places a unit may pass but not stop in."""
    if unit["type"] == "cavalry" and hex_ in board.towers:
        return ("cavalry may not end a move in a tower", "DR 2.10.3.1")
    return None


def monster_land_block(state: State, board: Board, unit: Unit, hex_: str) -> Block:
    """May a monster come down (bound, land, crash aside) in ``hex_``: terrain only."""
    if hex_ not in board:
        return (f"hex {hex_} is not on the map", "DR 2.1")
    if hex_ in state["impassable"]:
        return (f"hex {hex_} holds a dead monster", "DR 2.12.1.8")
    water = water_for(state, board, hex_)
    if water is not None:
        return (f"a grounded dragon cannot stand in {water} ({hex_})", "DR 2.12.1.2")
    if "ford" in board.terrain[hex_]:
        return ("a dragon may not enter a ford", "DR 2.12.1.2")
    return None
