"""The Tactics hands and the Tactics board beside the table (``Presentation.side_panels``; §8, §9).

Each player's hand shows face up to its owner only (the state a player sees holds only the size of
the other hands); a card is clicked for the actions it may be played with now. The Tactics board
shows its five zones, the NCU that holds each, and the NCUs still to act: a zone or an NCU is
clicked for the claims it offers.
"""

from __future__ import annotations

from typing import Any, Sequence

from simulator.core.view import PanelItem, PanelSlot, SidePanel
from simulator.games.asoiaf.catalogue import catalogue

State = dict[str, Any]
Action = dict[str, Any]

HAND = "hand:"
BOARD = "tactics-board"
READY = "ready"

#: Effect keys of a Tactics card, in words (the rest are written as they are named).
WORDS = {"trigger": "when", "heal": "heal", "draw": "draw", "assumed": ""}


def card_text(card_id: str) -> str:
    """What a card does, from its effect data; marked where the effect is our assumption."""
    effect = dict(catalogue().card_effects.get(card_id, {}))
    assumed = effect.pop("assumed", False)
    when = effect.pop("trigger", "")
    parts = []
    for key, value in effect.items():
        words = key.replace("_", " ")
        parts.append(words if value is True else f"{words} {', '.join(map(str, value)) if isinstance(value, list) else value}")
    text = (f"on {when}: " if when else "") + "; ".join(parts)
    return text + (" (assumed: the card text is not in the rulebook)" if assumed else "")


def _name(state: State, key: str, value: Any) -> str:
    units = state.get("units", {})
    if key in ("unit", "target") and isinstance(value, str) and value in units:
        name = str(units[value]["name"])
        # two trays of one kind are told apart as on the table, by their tray's label
        twins = sum(1 for u in units.values() if u["name"] == name)
        return f"{name} ({value})" if twins > 1 else name
    if key == "ncu" and isinstance(value, str) and value in state.get("ncus", {}):
        return str(state["ncus"][value]["name"]).split(",")[0]
    return str(value)


def label(state: State, action: Action) -> str:
    """A hand's or the board's action, in the players' words."""
    from simulator.games.asoiaf.params import SPECS     # the one label of each action type
    kind = str(action.get("type", ""))
    if kind == "claim":
        zone = next((z["name"] for z in catalogue().zones if z["id"] == action.get("zone")), action.get("zone"))
        words = f"{_name(state, 'ncu', action['ncu'])} claims {zone}"
        move = {k: action[k] for k in ("pivot", "distance", "facing") if k in action}
        extra = [k.replace("_", " ") if v is True else f"{k} {_name(state, k, v)}" for k, v in action.items()
                 if k not in ("type", "ncu", "zone", *move) and v is not False and v is not None]
        if move:      # the Maneuver zone's free maneuver of the target, as a maneuver reads
            extra.append(SPECS["maneuver"].describe(state, {"type": "maneuver", "unit": action.get("target"), **move}))
        return words + (f" ({', '.join(extra)})" if extra else "")
    if kind == "ncu_pass":
        return f"{_name(state, 'ncu', action.get('ncu'))} passes"
    if kind in SPECS:
        who = _name(state, "unit", action.get("unit")) if "unit" in action else ""
        said = SPECS[kind].describe(state, action)
        return f"{who}: {said}" if who else said
    card = action.get("card")
    head = f"Play {catalogue().full_name(card)}: " if isinstance(card, str) else ""
    unit = _name(state, "unit", action.get("unit")) if "unit" in action else ""
    rest = [f"{k} {_name(state, k, v)}" for k, v in action.items() if k not in ("type", "unit", "card")]
    return f"{head}{unit} {kind.replace('_', ' ')}".strip() + (f" ({', '.join(rest)})" if rest else "")


def hands(state: State) -> list[SidePanel]:
    out = []
    players = list(state.get("players", ()))
    active = state.get("active")
    for player in sorted(players, key=lambda p: p != active):
        hand = state["hands"].get(player, [])
        if isinstance(hand, list):
            slots = tuple(PanelSlot(card, catalogue().full_name(card), card_text(card)) for card in hand)
            title = f"{player.capitalize()}'s Tactics hand"
        else:
            slots = tuple(PanelSlot(f"{player}/{k}", "Tactics card", "face down: its owner's secret",
                                    (PanelItem(f"{player}/back{k}", hidden=True),)) for k in range(int(hand)))
            title = f"{player.capitalize()}'s hand ({int(hand)} cards)"
        out.append(SidePanel(HAND + player, "hand", title, slots, owner=player))
    return out


def tactics_board(state: State) -> SidePanel:
    slots = []
    for zone in catalogue().zones:
        held = state.get("board", {}).get(zone["id"])
        ncu = state.get("ncus", {}).get(held) if held else None
        items = (PanelItem(ncu["id"], _name(state, "ncu", ncu["id"])),) if ncu else ()
        effect = str(zone.get("effect", "")).replace("_", " ")
        slots.append(PanelSlot(zone["id"], str(zone["name"]), effect + (" (assumed)" if zone.get("assumed") else ""),
                               items))
    ready = tuple(PanelItem(n["id"], _name(state, "ncu", n["id"])) for n in state.get("ncus", {}).values()
                  if not n.get("zone") and not n.get("activated"))
    slots.insert(0, PanelSlot(READY, "NCUs to act", "click one for the zones it may claim", ready))
    return SidePanel(BOARD, "box", "Tactics board", tuple(slots))


def panels(state: State) -> tuple[SidePanel, ...]:
    if state.get("phase") == "deployment":
        return ()
    return tuple(hands(state)) + (tactics_board(state),)


def actions(state: State, legal: Sequence[Action], panel: str, slot: str, item: str | None) -> list[tuple[str, Action]]:
    if panel.startswith(HAND):
        return [(label(state, a), a) for a in legal if a.get("card") == slot]
    if panel == BOARD:
        if item is not None:
            return [(label(state, a), a) for a in legal if a.get("ncu") == item and a.get("type") in ("claim", "ncu_pass")]
        return [(label(state, a), a) for a in legal if a.get("type") == "claim" and a.get("zone") == slot]
    return []
