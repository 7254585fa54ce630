"""SAGA dice and the battle board: how many dice are rolled, placing them, paying for boxes.

Each player owns 8 faction dice (SAGA p.7): ``state["sides"][p]["dice"]`` holds one entry
per die: ``{"face": None, "box": None}`` (in the bag), ``{"face": "U", "box": None}``
(rolled, not yet placed) or ``{"face": "U", "box": "bondi"}`` (on a box). Faces are
``C`` (common, 3 faces), ``U`` (uncommon, 2), ``R`` (rare, 1).
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.saga import catalogue as cat
from simulator.games.saga.units import hero_spec, live_units, profile

State = dict[str, Any]


def generated(state: State, player: str) -> int:
    """SAGA p.6: one die per Hearthguard or Warriors unit, two for the Warlord, none for Levies;
    a hero's or a mercenary unit's own number (SAGA p.41-46) when it has one."""
    total = 0
    for u in live_units(state, player):
        total += 1 if u.get("baggage") else u.get("saga_dice", profile(u)["saga_dice"])
    return total


def dice(state: State, player: str) -> list[dict[str, Any]]:
    return state["sides"][player]["dice"]


def on_board(state: State, player: str) -> list[int]:
    return [i for i, d in enumerate(dice(state, player)) if d["box"] is not None]


def rolled_unplaced(state: State, player: str) -> list[int]:
    return [i for i, d in enumerate(dice(state, player)) if d["face"] is not None and d["box"] is None]


def in_bag(state: State, player: str) -> list[int]:
    return [i for i, d in enumerate(dice(state, player)) if d["face"] is None]


def roll_count(state: State, player: str, kept: int) -> int:
    """SAGA p.6-9: min(generated, cap) minus the dice left on the board (never below 0)."""
    if state["mode"] == "quickstart":
        return max(0, generated(state, player) - kept)     # the quick-start states no cap
    return max(0, min(generated(state, player), state["dice_cap"]) - kept)


def roll_into_hand(state: State, player: str, count: int, ctx: Context, purpose: str) -> list[int]:
    """Roll ``count`` dice from the bag (as many as the bag holds); returns their indices."""
    ctx.dice.register(_die(state, player))
    got = []
    for i in in_bag(state, player)[:count]:
        face = str(ctx.dice.roll(cat.die_name(state["sides"][player]["faction"]), purpose))
        dice(state, player)[i] = {"face": face, "box": None}
        got.append(i)
    return got


def _die(state: State, player: str) -> Any:
    from simulator.core.dice import Die
    return Die(cat.die_name(state["sides"][player]["faction"]), ("C", "C", "C", "U", "U", "R"))


def start_orders(state: State, player: str, keep: list[int], ctx: Context, raider: bool = False) -> None:
    """Pick up every die on the board except ``keep``, then roll the allowed number (half of it,
    rounded up, for Ragnar's Raider, SAGA p.42)."""
    board = on_board(state, player)
    for i in keep:
        if i not in board:
            raise IllegalAction(f"die {i} is not on your battle board, so it cannot be left there", "SAGA p.7")
    for i, d in enumerate(dice(state, player)):
        if i not in keep:
            d["face"], d["box"] = None, None
    count = roll_count(state, player, len(keep))
    count = max(0, min(count, count - state["sides"][player].pop("penalty", 0)))
    if raider:
        count = -(-count // 2)
    count = _penny(state, player, count, ctx)
    got = roll_into_hand(state, player, count, ctx, "orders roll")
    faces = "".join(dice(state, player)[i]["face"] for i in got)
    ctx.emit("orders", f"{player} leaves {len(keep)} die/dice on the board and rolls {len(got)} SAGA dice: "
             f"{faces or 'none'}", "SAGA p.6", rolled=len(got), kept=len(keep))


def _penny(state: State, player: str, count: int, ctx: Context) -> int:
    """Maredudd ab Owain's Penny (SAGA p.43): in their first and second turns his enemies roll a
    third, then half, of the dice they are allowed (rounded up)."""
    for other in state["players"]:
        if other == player:
            continue
        divisors = hero_spec(state, other, alive=False).get("penny", [])
        if 1 <= state["turn"] <= len(divisors):
            cut = -(-count // divisors[state["turn"] - 1])
            ctx.emit("orders", f"The Penny: {player} rolls {cut} of {count} dice this turn", "SAGA p.43")
            return cut
    return count


def reroll(state: State, player: str, which: list[int], ctx: Context) -> None:
    """Gruffydd ap Llywelyn's High King (SAGA p.43): once per Orders Phase, re-roll up to
    ``orders_reroll`` rolled dice not yet placed."""
    limit = hero_spec(state, player).get("orders_reroll", 0)
    if not limit:
        raise IllegalAction("only Gruffydd ap Llywelyn, alive, lets you re-roll SAGA dice", "SAGA p.43")
    if state["sides"][player].get("rerolled"):
        raise IllegalAction("High King: the dice are re-rolled once per Orders Phase", "SAGA p.43")
    hand = rolled_unplaced(state, player)
    if not which or len(which) > limit or len(set(which)) != len(which) or any(i not in hand for i in which):
        raise IllegalAction(f"'dice' lists 1 to {limit} rolled dice not yet placed", "SAGA p.43")
    ctx.dice.register(_die(state, player))
    for i in which:
        dice(state, player)[i]["face"] = str(ctx.dice.roll(cat.die_name(state["sides"][player]["faction"]), "High King"))
    state["sides"][player]["rerolled"] = True
    ctx.emit("orders", f"High King: {player} re-rolls {len(which)} die/dice: "
             f"{''.join(dice(state, player)[i]['face'] for i in which)}", "SAGA p.43")


def box_dice(state: State, player: str, box_id: str) -> list[int]:
    return [i for i, d in enumerate(dice(state, player)) if d["box"] == box_id]


def _fits(faces: list[str], cost: list[str]) -> bool:
    """Whether ``faces`` can pay (part of) ``cost`` one die per slot."""
    if len(faces) > len(cost):
        return False
    for slots in permutations(cost, len(faces)):
        if all(f in s for f, s in zip(faces, slots)):
            return True
    return False


def place(state: State, player: str, die: int, box_id: str, ctx: Context) -> None:
    """SAGA p.7: put a rolled die on a box whose symbol it shows; once-per-turn boxes hold one set."""
    side = state["sides"][player]
    box = cat.box(side["faction"], box_id)
    if box is None:
        raise IllegalAction(f"the {cat.faction(side['faction'])['name']} board has no box {box_id!r}", "SAGA p.7")
    if not (0 <= die < 8) or die not in rolled_unplaced(state, player):
        raise IllegalAction(f"die {die} is not a rolled die waiting to be placed", "SAGA p.7")
    if not box_in_play(state, box):
        raise IllegalAction(f"{box['name']} has no effect in 10- and 12-point Clash of Steel games", "SAGA p.58")
    face = dice(state, player)[die]["face"]
    if box["column"] == "repeatable":
        if face not in box["cost"][0]:
            raise IllegalAction(f"{box['name']} takes {_cost_text(box)}; this die shows {face}", "SAGA p.7")
    else:
        faces = [dice(state, player)[i]["face"] for i in box_dice(state, player, box_id)] + [face]
        if not _fits(faces, box["cost"]):
            raise IllegalAction(f"{box['name']} is a once-per-turn box that takes one set of "
                                f"{_cost_text(box)}; it cannot hold {'+'.join(faces)}", "SAGA p.7")
    dice(state, player)[die]["box"] = box_id
    ctx.emit("place", f"{player} places a {face} die on {box['name']}", "SAGA p.7", box=box_id, face=face)


def box_in_play(state: State, box: dict[str, Any]) -> bool:
    """False for the Activation Pool when the scenario switches it off (Clash of Steel at 10 and
    12 points, SAGA p.58: rules ``activation_pool: false``)."""
    return box["effect"]["kind"] != "activation_pool" or bool(state["rules"].get("activation_pool", True))


def _cost_text(box: dict[str, Any]) -> str:
    return " + ".join("/".join(slot) for slot in box["cost"])


def ready(state: State, player: str, box_id: str) -> bool:
    """Whether the box holds a full payment now."""
    box = cat.box(state["sides"][player]["faction"], box_id)
    if box is None:
        return False
    need = len(box["cost"])
    return len(box_dice(state, player, box_id)) >= need


def pay(state: State, player: str, box_id: str, ctx: Context) -> list[str]:
    """Discard one payment from the box (back to the bag); returns the faces paid."""
    box = cat.box(state["sides"][player]["faction"], box_id)
    if box is None or not ready(state, player, box_id):
        name = box["name"] if box else box_id
        raise IllegalAction(f"{name} holds no full set of SAGA dice to spend", "SAGA p.7")
    idx = box_dice(state, player, box_id)
    if box["column"] == "repeatable":
        # pay with the rarest die first only when asked; default: the commonest
        order = sorted(idx, key=lambda i: "CUR".index(dice(state, player)[i]["face"]))
        idx = order[:1]
    faces = []
    for i in idx:
        faces.append(dice(state, player)[i]["face"])
        dice(state, player)[i] = {"face": None, "box": None}
    return faces


def pay_face(state: State, player: str, box_id: str, face: str | None, ctx: Context) -> list[str]:
    """Like :func:`pay`, but a repeatable box may be paid with a die of a chosen face (a rare
    die gives the bigger bonus on pool boxes)."""
    if face is None:
        return pay(state, player, box_id, ctx)
    for i in box_dice(state, player, box_id):
        if dice(state, player)[i]["face"] == face:
            dice(state, player)[i] = {"face": None, "box": None}
            return [face]
    raise IllegalAction(f"no {face} die on that box", "SAGA p.7")


def discard_unplaced(state: State, player: str) -> int:
    """End of the Orders Phase: rolled dice not placed go back to the bag (engine decision)."""
    lost = rolled_unplaced(state, player)
    for i in lost:
        dice(state, player)[i] = {"face": None, "box": None}
    return len(lost)


def placeable(state: State, player: str) -> list[tuple[int, str]]:
    """(die, box) pairs a player could place now (one die per distinct face)."""
    side = state["sides"][player]
    out = []
    seen_faces: set[str] = set()
    for i in rolled_unplaced(state, player):
        face = dice(state, player)[i]["face"]
        if face in seen_faces:
            continue
        seen_faces.add(face)
        for box in cat.faction(side["faction"])["boxes"]:
            if not box_in_play(state, box):
                continue
            if box["column"] == "repeatable":
                if face in box["cost"][0]:
                    out.append((i, box["id"]))
            else:
                faces = [dice(state, player)[j]["face"] for j in box_dice(state, player, box["id"])] + [face]
                if _fits(faces, box["cost"]):
                    out.append((i, box["id"]))
    return out
