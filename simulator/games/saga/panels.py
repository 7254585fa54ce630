"""The SAGA battle boards beside the table (``Presentation.side_panels``): each player's boxes with
their costs and the dice on them, and the dice rolled but not yet placed (SAGA p.6-11).

A die is placed by dragging it from the rolled dice onto a box (or by clicking it: a menu of the
boxes it may go on); a box is clicked to use its ability or to activate a unit from it. Every
gesture stands for an action of the legal list: the dice of one face are alike, so a die dragged
stands for the listed placement of a die with its face.
"""

from __future__ import annotations

from typing import Any, Sequence

from simulator.core.view import PanelItem, PanelSlot, SidePanel
from simulator.games.saga import board
from simulator.games.saga import catalogue as cat

State = dict[str, Any]
Action = dict[str, Any]

POOL = "pool"
PREFIX = "board:"


def symbol(faction: str, face: str) -> str:
    """A face's symbol by its name on the faction's dice ("Valknut"), or the face itself."""
    name = str(cat.faction(faction).get("symbols", {}).get(face, face))
    return name.replace(" (assumed name)", "")


def _faces_in_words(faction: str, slot: str) -> str:
    if set(slot) >= {"C", "U", "R"}:
        return "any die"
    return " or ".join(symbol(faction, face) for face in slot)


def cost_words(box: dict[str, Any]) -> str:
    """A box's cost as a player reads it: "Valknut or Thor's hammer", "Raven + Raven"."""
    return " + ".join(_faces_in_words(box["faction"], slot) for slot in box["cost"])


def _die_item(state: State, player: str, i: int) -> PanelItem:
    d = board.dice(state, player)[i]
    faction = board.board_of_die(state, player, i)
    if d["face"] == "hidden":
        return PanelItem(f"{player}/{i}", hidden=True)
    return PanelItem(f"{player}/{i}", symbol(faction, d["face"]), die=cat.die_name(faction), face=d["face"])


def battle_boards(state: State) -> tuple[SidePanel, ...]:
    """Each player's battle board, the player to act first."""
    players = list(state["sides"])
    active = state.get("active")
    if active in players:
        players.remove(active)
        players.insert(0, active)
    out = []
    for player in players:
        side = state["sides"][player]
        factions = board.boards(state, player)
        pool = PanelSlot(POOL, "Rolled, not placed",
                           "drag a die onto a box whose symbol it shows" if state.get("phase") == "orders" else "",
                           tuple(_die_item(state, player, i) for i in board.rolled_unplaced(state, player)))
        slots = [pool]
        for box in board.board_boxes(state, player):
            if not board.box_in_play(state, box):
                continue
            column = "repeatable" if box["column"] == "repeatable" else "once a turn"
            timing = str(box.get('timing', '')).replace('_', ' ')
            detail = f"{cost_words(box)} - {timing}, {column}: {box.get('text', '')}"
            name = box["name"] if box["faction"] == side["faction"] else f"{cat.faction(box['faction'])['name']}: " \
                f"{box['name']}"
            slots.append(PanelSlot(box["id"], name, detail,
                                     tuple(_die_item(state, player, i) for i in board.box_dice(state, player, box["id"]))))
        names = " and ".join(cat.faction(f)["name"] for f in factions)
        out.append(SidePanel(PREFIX + player, "dice_board", f"{names} battle board", tuple(slots), owner=player))
    return tuple(out)


def _unit_name(state: State, uid: Any) -> str:
    unit = state.get("units", {}).get(uid) if isinstance(uid, str) else None
    return str(unit["name"]) if unit else str(uid)


def _box_name(state: State, player: str, ref: Any) -> str:
    box = board.find_box(state, player, str(ref)) if isinstance(ref, str) else None
    return str(box["name"]) if box else str(ref)


def label(state: State, player: str, action: Action) -> str:
    """An action a battle board offers, in the players' words."""
    kind = action.get("type")
    if kind == "place_die":
        i = action["die"]
        d = board.dice(state, player)[i]
        return f"Place the {symbol(board.board_of_die(state, player, i), d['face'])} die on " \
               f"{_box_name(state, player, action['box'])}"
    if kind == "use_ability":
        extra = []
        if action.get("face"):
            extra.append(f"paying {symbol(state['sides'][player]['faction'], action['face'])}")
        if action.get("choice"):
            extra.append(f"for {action['choice']}")
        for key in ("target", "unit", "for_unit"):
            if key in action:
                extra.append(f"{key.replace('_', ' ')} {_unit_name(state, action[key])}")
        if "targets" in action:
            extra.append("targets " + ", ".join(_unit_name(state, t) for t in action["targets"]))
        for key in ("amount", "attack", "figures", "order", "set_face"):
            if key in action:
                extra.append(f"{key.replace('_', ' ')} {action[key]}")
        return f"Use {_box_name(state, player, action['box'])}" + (f" ({', '.join(extra)})" if extra else "")
    if kind == "activate":
        return f"Activate {_unit_name(state, action['unit'])} to {action['order']} " \
               f"(from {_box_name(state, player, action['source'])})"
    if kind == "roll_dice":
        kept = len(action.get("keep", ()))
        words = "Roll the SAGA dice" + (f", leaving {kept} on their boxes" if kept else ", picking them all up")
        return words + (" (as a raider)" if action.get("raider") else "") + \
            (f" ({action['second']} for the second board)" if "second" in action else "")
    if kind == "reroll_dice":
        return "Reroll " + ", ".join(symbol(board.board_of_die(state, player, i), board.dice(state, player)[i]["face"])
                                     for i in action.get("dice", ()))
    return str(kind)


def _player_of(surface: str) -> str | None:
    return surface[len(PREFIX):] if surface.startswith(PREFIX) else None


def _face_of(state: State, player: str, item: str | None) -> tuple[int, str] | None:
    if not item or "/" not in item:
        return None
    owner, _, index = item.rpartition("/")
    if owner != player or not index.isdigit() or int(index) >= len(board.dice(state, player)):
        return None
    return int(index), str(board.dice(state, player)[int(index)]["face"])


def _same_die(state: State, player: str, action: Action, face: str, i: int) -> bool:
    """Whether ``action`` places a die alike to die ``i``: its face, on the same board."""
    j = action.get("die")
    if not isinstance(j, int) or j >= len(board.dice(state, player)):
        return False
    return board.dice(state, player)[j]["face"] == face and \
        board.board_of_die(state, player, j) == board.board_of_die(state, player, i)


def actions(state: State, legal: Sequence[Action], surface: str, slot: str,
            item: str | None) -> list[tuple[str, Action]]:
    """What a click on a slot (or a die in it) of a battle board offers."""
    player = _player_of(surface)
    if player is None or player not in state["sides"] or player != state.get("active"):
        return []
    out: list[tuple[str, Action]] = []
    if slot == POOL:
        die = _face_of(state, player, item)
        for action in legal:
            if die is not None and action.get("type") == "place_die" and _same_die(state, player, action, die[1], die[0]):
                out.append((label(state, player, action), action))
            elif die is None and action.get("type") in ("roll_dice", "reroll_dice"):
                out.append((label(state, player, action), action))
        return out
    for action in legal:
        kind = action.get("type")
        if kind == "place_die" and action.get("box") == slot or kind == "use_ability" and action.get("box") == slot \
                or kind == "activate" and action.get("source") == slot:
            out.append((label(state, player, action), action))
    return out


def drop(state: State, legal: Sequence[Action], surface: str, item: str, slot: str) -> Action | None:
    """A rolled die dragged onto a box: the listed placement of a die alike on that box."""
    player = _player_of(surface)
    if player is None or player != state.get("active"):
        return None
    die = _face_of(state, player, item)
    if die is None:
        return None
    alike = [a for a in legal if a.get("type") == "place_die" and a.get("box") == slot
             and _same_die(state, player, a, die[1], die[0])]
    exact = [a for a in alike if a.get("die") == die[0]]
    return (exact or alike or [None])[0]
