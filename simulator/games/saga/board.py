"""SAGA dice and the battle board: how many dice are rolled, placing them, paying for boxes.

Each player owns 8 faction dice (SAGA p.7): ``state["sides"][p]["dice"]`` holds one entry
per die: ``{"face": None, "box": None}`` (in the bag), ``{"face": "U", "box": None}``
(rolled, not yet placed) or ``{"face": "U", "box": "bondi"}`` (on a box). Faces are
``C`` (common, 3 faces), ``U`` (uncommon, 2), ``R`` (rare, 1).

A second battle board (Canute the Great's Supreme King, SAGA p.42: ``second_board`` in
``data/swords.yaml``) brings 8 more dice of its own faction: dice 8-15 of the same list. Its
boxes are named ``<faction>.<box>`` (``vikings.hirdmen``) wherever a box is named (actions, dice
on boxes); :func:`find_box` resolves both kinds. The board is used only while the hero lives
(:func:`boards`), and never more than 8 dice are in use at once (SAGA p.7).
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from simulator.core.errors import IllegalAction
from simulator.core.game import Context
from simulator.games.saga import catalogue as cat
from simulator.games.saga.units import hero_spec, live_units, profile

State = dict[str, Any]


def generated(state: State, player: str, board: str | None = None) -> int:
    """SAGA p.6: one die per Hearthguard or Warriors unit, two for the Warlord, none for Levies;
    a hero's or a mercenary unit's own number (SAGA p.41-46) when it has one. Units tied to a board
    of their own (Egil's Hirdmen: ``board``) generate dice for that board only, outside the cap."""
    total = 0
    for u in live_units(state, player):
        if u.get("board") == board:
            total += 1 if u.get("baggage") else u.get("saga_dice", profile(u)["saga_dice"])
    return total


#: Dice per battle board, and the most dice in use at once, whatever the boards (SAGA p.7, p.42).
BOARD_DICE = 8
IN_USE = 8


def dice(state: State, player: str) -> list[dict[str, Any]]:
    return state["sides"][player]["dice"]


def secret_orders(state: State) -> bool:
    """Scenario X's Orders Phases (SAGA p.57): played at once, so each player's dice are his
    secret until every Orders Phase of the turn is over (events then name no face nor box)."""
    return bool(state["rules"].get("simultaneous_orders")) and state["phase"] == "orders"


def hide_dice(state: State, viewer: str | None) -> None:
    """During secret Orders Phases, the other players' dice show as ``hidden``."""
    if not secret_orders(state):
        return
    for p, side in state["sides"].items():
        if p != viewer:
            side["dice"] = [d if d["face"] is None else {"face": "hidden", "box": "hidden"} for d in side["dice"]]


def board_text(state: State, player: str) -> str:
    """The dice on ``player``'s boxes, as the reveal after secret Orders Phases tells them."""
    on = [d for d in dice(state, player) if d["box"] is not None]
    return ", ".join(f"{d['face']} on {d['box']}" for d in on) or "no dice"


def boards(state: State, player: str) -> list[str]:
    """The factions whose battle boards ``player`` uses now: his own, then a hero's second board
    while the hero lives (Supreme King, SAGA p.42)."""
    side = state["sides"][player]
    second = side.get("second_board")
    used = second and (hero_spec(state, player).get("second_board") or generated(state, player, second) or
                       any(u.get("board") == second for u in live_units(state, player)))
    return [side["faction"]] + ([second] if used else [])


def shares_dice_limit(state: State, player: str) -> bool:
    """Canute's two boards share the 8 dice in use (SAGA p.42); Egil's Viking dice are a set of
    their own (SAGA p.45)."""
    return bool(hero_spec(state, player, alive=False).get("second_board"))


def board_of_die(state: State, player: str, i: int) -> str:
    side = state["sides"][player]
    return str(side["faction"] if i < BOARD_DICE else side["second_board"])


def box_ref(state: State, player: str, faction: str, box_id: str) -> str:
    """How a box is named: plain on the player's own board, ``<faction>.<box>`` on a second one."""
    return box_id if faction == state["sides"][player]["faction"] else f"{faction}.{box_id}"


def find_box(state: State, player: str, ref: str) -> dict[str, Any] | None:
    """The box named ``ref`` on a board ``player`` uses now (a copy whose ``id`` is ``ref`` and
    ``faction`` its board), or None."""
    faction, _, box_id = ref.rpartition(".")
    faction = faction or state["sides"][player]["faction"]
    if faction not in boards(state, player):
        return None
    box = cat.box(faction, box_id)
    return None if box is None else {**box, "id": ref, "faction": faction}


def board_boxes(state: State, player: str) -> list[dict[str, Any]]:
    """Every box of the boards ``player`` uses now (as :func:`find_box` gives them)."""
    return [{**b, "id": box_ref(state, player, f, b["id"]), "faction": f}
            for f in boards(state, player) for b in cat.faction(f)["boxes"]]


def on_board(state: State, player: str) -> list[int]:
    return [i for i, d in enumerate(dice(state, player)) if d["box"] is not None]


def keepable(state: State, player: str) -> list[int]:
    """Dice on a board the player still uses: those he may leave there at the next roll."""
    used = boards(state, player)
    return [i for i in on_board(state, player) if board_of_die(state, player, i) in used]


def rolled_unplaced(state: State, player: str) -> list[int]:
    return [i for i, d in enumerate(dice(state, player)) if d["face"] is not None and d["box"] is None]


def in_bag(state: State, player: str, faction: str | None = None) -> list[int]:
    """Dice in the bag (of one board's faction, if given)."""
    return [i for i, d in enumerate(dice(state, player)) if d["face"] is None
            and (faction is None or board_of_die(state, player, i) == faction)]


def dice_cap(state: State, player: str) -> int:
    """The most dice rolled at the start of a turn: the scenario's cap (6; 8 in big Clash of
    Steel games), or Canute the Great's own while he lives (The Great: 7, SAGA p.42)."""
    return max(int(state["dice_cap"]), int(hero_spec(state, player).get("dice_cap", 0)))


def roll_count(state: State, player: str, kept: int) -> int:
    """SAGA p.6-9: min(generated, cap) minus the dice left on the board (never below 0)."""
    if state["mode"] == "quickstart":
        return max(0, generated(state, player) - kept)     # the quick-start states no cap
    return max(0, min(generated(state, player), dice_cap(state, player)) - kept)


def roll_into_hand(state: State, player: str, count: int, ctx: Context, purpose: str,
                   faction: str | None = None) -> list[int]:
    """Roll ``count`` dice of a board (``faction``, default the player's own) from the bag: as
    many as the bag holds and the 8 dice in use allow; returns their indices."""
    faction = faction or state["sides"][player]["faction"]
    ctx.dice.register(faction_die(faction))
    shared = shares_dice_limit(state, player)
    in_use = sum(1 for i, d in enumerate(dice(state, player))
                 if d["face"] is not None and (shared or board_of_die(state, player, i) == faction))
    got = []
    for i in in_bag(state, player, faction)[:max(0, min(count, IN_USE - in_use))]:
        face = str(ctx.dice.roll(cat.die_name(faction), purpose))
        dice(state, player)[i] = {"face": face, "box": None}
        got.append(i)
    return got


def faction_die(faction: str) -> Any:
    """The SAGA die of a faction (3 common, 2 uncommon, 1 rare face, SAGA p.7)."""
    from simulator.core.dice import Die
    return Die(cat.die_name(faction), ("C", "C", "C", "U", "U", "R"))


def start_orders(state: State, player: str, keep: list[int], ctx: Context, raider: bool = False,
                 second: int = 0) -> None:
    """Pick up every die on the board except ``keep``, then roll the allowed number (half of it,
    rounded up, for Ragnar's Raider, SAGA p.42); ``second`` of them are dice of the second board
    (Canute's Supreme King: the split is chosen at the start of each turn, SAGA p.42)."""
    board = on_board(state, player)
    used = boards(state, player)
    for i in keep:
        if i not in board or board_of_die(state, player, i) not in used:
            raise IllegalAction(f"die {i} is not on a battle board you use, so it cannot be left there", "SAGA p.7")
    for i, d in enumerate(dice(state, player)):
        if i not in keep:
            d["face"], d["box"] = None, None
    shared = shares_dice_limit(state, player)
    count = roll_count(state, player, sum(1 for i in keep if shared or board_of_die(state, player, i) == used[0]))
    count = max(0, min(count, count - state["sides"][player].pop("penalty", 0)))
    if raider:
        count = -(-count // 2)
    count = _penny(state, player, count, ctx)
    if second and (len(used) < 2 or not shares_dice_limit(state, player)):
        raise IllegalAction("second: dice for a second battle board, which you do not use (Canute the Great's "
                            "Supreme King, while he lives)", "SAGA p.42")
    second = min(second, count)          # more than are rolled: all of them
    got = roll_into_hand(state, player, count - second, ctx, "orders roll")
    if second:
        got += roll_into_hand(state, player, second, ctx, "orders roll (second board)", used[1])
    if len(used) > 1 and not shares_dice_limit(state, player):    # Egil's Viking dice, outside the cap
        kept = sum(1 for i in keep if board_of_die(state, player, i) == used[1])
        own = max(0, generated(state, player, used[1]) - kept)
        got += roll_into_hand(state, player, own, ctx, f"orders roll ({cat.faction(used[1])['name']} dice)", used[1])
    faces = "".join(dice(state, player)[i]["face"] for i in got)
    if secret_orders(state):
        faces = "faces hidden until every Orders Phase is over"
    ctx.emit("orders", f"{player} leaves {len(keep)} die/dice on the board and rolls {len(got)} SAGA dice: "
             f"{faces or 'none'}" + (f" ({second} on the {cat.faction(used[1])['name']} board)" if second else ""),
             "SAGA p.6", rolled=len(got), kept=len(keep))


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
    for i in which:
        faction = board_of_die(state, player, i)
        ctx.dice.register(faction_die(faction))
        dice(state, player)[i]["face"] = str(ctx.dice.roll(cat.die_name(faction), "High King"))
    state["sides"][player]["rerolled"] = True
    faces = "hidden" if secret_orders(state) else "".join(dice(state, player)[i]["face"] for i in which)
    ctx.emit("orders", f"High King: {player} re-rolls {len(which)} die/dice: {faces}", "SAGA p.43")


def box_dice(state: State, player: str, box_id: str) -> list[int]:
    return [i for i, d in enumerate(dice(state, player)) if d["box"] == box_id]


def fits(faces: list[str], cost: list[str]) -> bool:
    """Whether ``faces`` can pay (part of) ``cost`` one die per slot."""
    if len(faces) > len(cost):
        return False
    for slots in permutations(cost, len(faces)):
        if all(f in s for f, s in zip(faces, slots)):
            return True
    return False


def place(state: State, player: str, die: int, box_id: str, ctx: Context) -> None:
    """SAGA p.7: put a rolled die on a box whose symbol it shows; once-per-turn boxes hold one set."""
    box = find_box(state, player, box_id)
    if box is None:
        names = " or ".join(cat.faction(f)["name"] for f in boards(state, player))
        raise IllegalAction(f"the {names} board has no box {box_id!r}", "SAGA p.7")
    if die not in rolled_unplaced(state, player):
        raise IllegalAction(f"die {die} is not a rolled die waiting to be placed", "SAGA p.7")
    if board_of_die(state, player, die) != box["faction"]:
        raise IllegalAction(f"die {die} is a {cat.faction(board_of_die(state, player, die))['name']} die: it goes "
                            f"on that board only", "SAGA p.42")
    if not box_in_play(state, box):
        raise IllegalAction(f"{box['name']} has no effect in 10- and 12-point Clash of Steel games", "SAGA p.58")
    face = dice(state, player)[die]["face"]
    if box["column"] == "repeatable":
        if face not in box["cost"][0]:
            raise IllegalAction(f"{box['name']} takes {cost_text(box)}; this die shows {face}", "SAGA p.7")
    else:
        faces = [dice(state, player)[i]["face"] for i in box_dice(state, player, box_id)] + [face]
        if not fits(faces, box["cost"]):
            raise IllegalAction(f"{box['name']} is a once-per-turn box that takes one set of "
                                f"{cost_text(box)}; it cannot hold {'+'.join(faces)}", "SAGA p.7")
    dice(state, player)[die]["box"] = box_id
    if secret_orders(state):
        ctx.emit("place", f"{player} places a die (hidden until every Orders Phase is over)", "SAGA p.57")
    else:
        ctx.emit("place", f"{player} places a {face} die on {box['name']}", "SAGA p.7", box=box_id, face=face)


def box_in_play(state: State, box: dict[str, Any]) -> bool:
    """False for the Activation Pool when the scenario switches it off (Clash of Steel at 10 and
    12 points, SAGA p.58: rules ``activation_pool: false``)."""
    return box["effect"]["kind"] != "activation_pool" or bool(state["rules"].get("activation_pool", True))


def cost_text(box: dict[str, Any]) -> str:
    return " + ".join("/".join(slot) for slot in box["cost"])


def ready(state: State, player: str, box_id: str) -> bool:
    """Whether the box holds a full payment now."""
    box = find_box(state, player, box_id)
    if box is None:
        return False
    need = len(box["cost"])
    return len(box_dice(state, player, box_id)) >= need


def pay(state: State, player: str, box_id: str, ctx: Context) -> list[str]:
    """Discard one payment from the box (back to the bag); returns the faces paid."""
    box = find_box(state, player, box_id)
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
    out = []
    seen_faces: set[tuple[str, str]] = set()
    boxes = board_boxes(state, player)
    for i in rolled_unplaced(state, player):
        face = dice(state, player)[i]["face"]
        faction = board_of_die(state, player, i)
        if (faction, face) in seen_faces:
            continue
        seen_faces.add((faction, face))
        for box in boxes:
            if box["faction"] != faction or not box_in_play(state, box):
                continue
            if box["column"] == "repeatable":
                if face in box["cost"][0]:
                    out.append((i, box["id"]))
            else:
                faces = [dice(state, player)[j]["face"] for j in box_dice(state, player, box["id"])] + [face]
                if fits(faces, box["cost"]):
                    out.append((i, box["id"]))
    return out
