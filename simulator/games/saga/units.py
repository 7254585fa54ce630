"""Units and figures in the state: profiles, armour, dice counts, positions, formation.

State shapes (plain data):

- ``state["units"][uid]``: ``{id, owner, cls, name, mounted, weapon, dane_axe, berserker,
  fatigue, figures: [fid...], moves, shots, rested, activations, armour_bonus}``
- ``state["figures"][fid]``: ``{id, unit, x, y, r}`` (only living figures)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from simulator.games.saga import catalogue as cat
from simulator.geometry.table import Shapes, circle_gaps, cohesion

State = dict[str, Any]

#: Bases whose edges are this close (inches) are in base contact.
CONTACT = 0.05
#: Tolerance of distance comparisons (inches).
EPS = 1e-6
Unit = dict[str, Any]


def finite_number(value: Any, name: str, what: str, rule: str) -> float:
    """An action parameter that must be a finite number (inches, degrees): the number, or
    ``IllegalAction`` naming the parameter (NaN and infinity never reach the geometry)."""
    from simulator.core.errors import IllegalAction
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise IllegalAction(f"{name} is {what}, a finite number; got {value!r}", rule)
    return float(value)


def table_point(value: Any, name: str, rule: str) -> tuple[float, float]:
    """An action parameter that must be a point [x, y] in table inches (finite numbers)."""
    from simulator.core.errors import IllegalAction
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise IllegalAction(f"{name} is a point [x, y] in inches; got {value!r}", rule)
    return (finite_number(value[0], name, "a point [x, y] in inches", rule),
            finite_number(value[1], name, "a point [x, y] in inches", rule))


def profile(unit: Unit) -> dict[str, Any]:
    return cat.classes()["classes"][unit["cls"]]


def alive(state: State, uid: str) -> bool:
    u = state["units"].get(uid)
    return bool(u and u["figures"])


def live_units(state: State, owner: str | None = None) -> list[Unit]:
    return [u for u in state["units"].values() if u["figures"] and (owner is None or u["owner"] == owner)]


def enemies_of(state: State, owner: str) -> list[Unit]:
    return [u for u in live_units(state) if u["owner"] != owner]


def warlord(state: State, owner: str) -> Unit | None:
    """The owner's Warlord while he lives: with several (Clash of Steel, SAGA p.58), the General,
    whom the scenarios mean by "the Warlord"."""
    for u in live_units(state, owner):
        if u["cls"] == "warlord" and not u.get("extra_warlord"):
            return u
    return None


def hero_spec(state: State, owner: str, alive: bool = True) -> dict[str, Any]:
    """The data (swords.yaml) of the Viking Age hero leading ``owner``'s warband, {} if none (or,
    with ``alive``, if he is dead)."""
    hero = state["sides"][owner].get("hero")
    if not hero or (alive and warlord(state, owner) is None):
        return {}
    return dict(cat.swords()["heroes"][hero])


def bases(state: State, uid: str) -> NDArray[np.float64]:
    """The unit's living figures as an n x 3 array (x, y, r)."""
    figs = state["figures"]
    return np.array([[figs[f]["x"], figs[f]["y"], figs[f]["r"]] for f in state["units"][uid]["figures"]],
                    dtype=float).reshape(-1, 3)


def unit_gap(state: State, a: str, b: str) -> float:
    """Edge-to-edge distance between the closest figures of units ``a`` and ``b``."""
    return float(circle_gaps(bases(state, a), bases(state, b)).min())


def within(state: State, a: str, b: str, name: str) -> bool:
    """SAGA p.5: a unit is within X when at least one of its figures is."""
    return unit_gap(state, a, b) <= cat.inches(name) + EPS


def exhausted(unit: Unit) -> bool:
    """SAGA p.25: fatigue at or above the class limit."""
    return unit["fatigue"] >= profile(unit)["fatigue_limit"]


def clamp_armour(value: int) -> int:
    """SAGA p.5: armour is never below 2 or above 6."""
    return max(2, min(6, value))


def base_armour(state: State, unit: Unit, shooting: bool, crossbow: bool = False) -> int:
    """Armour before situational bonuses (fatigue, abilities, cover), faction rules included."""
    prof = profile(unit)
    armour = prof["armour_shooting"] if shooting else prof["armour"]
    if unit.get("armour_override"):
        armour = unit["armour_override"]["shooting" if shooting else "melee"]
    if unit.get("berserker"):
        armour = 3                                     # SAGA p.37
    if shooting:
        if unit.get("javelin_penalty"):
            armour -= 1                                # Welsh javelins, SAGA p.40
        if unit["mounted"]:
            armour -= 1                                # mounted, SAGA p.38
        if crossbow:
            armour -= 1                                # target of crossbows, SAGA p.18
    elif unit.get("dane_axe"):
        armour -= 1                                    # Dane axe: no shield, SAGA p.39
    if unit.get("weapon") == "crossbow":
        armour -= 1                                    # crossbowmen, SAGA p.18
    if state.get("armour_down", {}).get(unit["owner"]):
        armour -= 1                                    # VK-14 until the end of the turn
    armour += int((unit.get("wrath") or {}).get("armour", 0))   # the Jomsvikings' Wrath, SAGA p.44
    return armour


def attack_dice_melee(unit: Unit, fighting: int) -> int:
    """SAGA p.21: dice from the figures that fight (rounded up)."""
    if fighting <= 0:
        return 0
    if unit.get("berserker"):
        return 4 * fighting
    spec = profile(unit)["melee_dice"]
    if spec.get("per") == "unit":
        return spec["dice"]
    if spec.get("per") == "figure":
        return spec["dice"] * fighting
    return math.ceil(fighting / spec["per_figures"]) * spec["dice"]


def attack_dice_shooting(unit: Unit, shooters: int) -> int:
    """SAGA p.16: shooting dice from the figures in range and sight (rounded up)."""
    if shooters <= 0:
        return 0
    spec = profile(unit)["shooting_dice"]
    if spec.get("per") == "unit":
        return spec["dice"]
    if spec.get("per") == "figure":
        return spec["dice"] * shooters
    return math.ceil(shooters / spec["per_figures"]) * spec["dice"]


def cohesive(b: NDArray[np.float64]) -> bool:
    """SAGA p.12 with the engine's reading: the 'within VS' graph of the unit is connected."""
    return cohesion(Shapes.circles(b), cat.inches("VS"))[0]


def _nearest_on_line(points: NDArray[np.float64], line: NDArray[np.float64]) -> tuple[NDArray[np.float64],
                                                                                       NDArray[np.float64]]:
    """For each point, its distance to the polyline ``line`` and the nearest point of it."""
    a, b = line[:-1], line[1:]
    ab = b - a
    t = np.clip(((points[:, None, :] - a[None]) * ab[None]).sum(axis=2) / np.maximum((ab * ab).sum(axis=1), 1e-12),
                0.0, 1.0)
    near = a[None] + t[..., None] * ab[None]
    d = np.hypot(*(points[:, None, :] - near).transpose(2, 0, 1))
    k = d.argmin(axis=1)
    rows = np.arange(len(points))
    return d[rows, k], near[rows, k]


def contacts_across_obstacles(state: State, a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
    """SAGA p.20: a figure touching a linear obstacle (a hedge, a fence, a wall) is in contact
    with an enemy touching its other side, when they could touch were it not there. Engine
    reading (the obstacles are lines, the bases may overlap them): both bases reach the line
    (edge within CONTACT of it), their centres lie on its two sides (the line between them
    crosses it) and they face each other across it (their nearest points on it are closer than
    the sum of their radii). ``a`` (n, 3) and ``b`` (m, 3): x, y, r; returns (n, m)."""
    from simulator.geometry.table import segment_crosses_polyline
    out = np.zeros((len(a), len(b)), dtype=bool)
    if not len(a) or not len(b):
        return out
    for t in state["terrain"]:
        if "line" not in t or t["movement"] == "impassable":
            continue
        line = np.asarray(t["line"], dtype=np.float64)
        da, na = _nearest_on_line(a[:, :2], line)
        db, nb = _nearest_on_line(b[:, :2], line)
        ta, tb = da <= a[:, 2] + CONTACT, db <= b[:, 2] + CONTACT
        if not ta.any() or not tb.any():
            continue
        ii, jj = np.nonzero(ta[:, None] & tb[None, :])
        facing = np.hypot(*(na[ii] - nb[jj]).T) < a[ii, 2] + b[jj, 2]
        ii, jj = ii[facing], jj[facing]
        if len(ii):
            across = segment_crosses_polyline(a[ii, :2], b[jj, :2], line)
            out[ii[across], jj[across]] = True
    return out


def in_contact(state: State, a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Base contact between the figures ``a`` (n, 3) and ``b`` (m, 3): bases touching (edge gap
    at most CONTACT), or touching a linear obstacle from its two sides facing each other
    (:func:`contacts_across_obstacles`, SAGA p.20)."""
    return (circle_gaps(a, b) <= CONTACT) | contacts_across_obstacles(state, a, b)


def figure_array(state: State, fids: list[str]) -> NDArray[np.float64]:
    figs = state["figures"]
    return np.array([[figs[f]["x"], figs[f]["y"], figs[f]["r"]] for f in fids], dtype=float).reshape(-1, 3)


def all_other_figures(state: State, exclude_unit: str) -> tuple[list[str], NDArray[np.float64]]:
    ids = [f for f, v in state["figures"].items() if v["unit"] != exclude_unit]
    return ids, figure_array(state, ids)


def add_fatigue(state: State, unit: Unit, amount: int, ctx: Any, why: str, rule: str) -> None:
    """Put ``amount`` fatigue on a unit (no cap, SAGA p.24)."""
    if amount <= 0 or not unit["figures"]:
        return
    if unit.get("bravery") and not unit.get("bravery_used") and state.get("turn_player") == unit["owner"]:
        unit["bravery_used"] = True                     # Harold's Bravery (SAGA p.42)
        ignored = min(amount, int(unit["bravery"]))
        amount -= ignored
        ctx.emit("fatigue", f"{unit['name']} ignores {ignored} fatigue ({why}; Bravery)", "SAGA p.42",
                 pieces=list(unit["figures"]), unit=unit["id"], fatigue=unit["fatigue"])
        if amount <= 0:
            return
    if unit.get("fatigue_immune"):
        ctx.emit("fatigue", f"{unit['name']} would gain {amount} fatigue ({why}): cancelled (Song of Roland)",
                 "SAGA p.43", pieces=list(unit["figures"]), unit=unit["id"], fatigue=unit["fatigue"])
        return
    unit["fatigue"] += amount
    ctx.emit("fatigue", f"{unit['name']} gains {amount} fatigue ({why}); now {unit['fatigue']}", rule,
             pieces=list(unit["figures"]), unit=unit["id"], fatigue=unit["fatigue"])


def free_activation(unit: Unit, source: str) -> dict[str, Any]:
    """A free activation (no SAGA die) with any order, to spend with ``activate source: free``."""
    return {"unit": unit["id"], "orders": ["move", "shoot", "rest"], "no_fatigue": False, "no_engage": False,
            "engage_fatigue": 0, "extra": 0.0, "through_friends": False, "source": source}


def remove_fatigue(unit: Unit, amount: int) -> int:
    taken = min(amount, unit["fatigue"])
    unit["fatigue"] -= taken
    return taken


def removal_order(state: State, uid: str, away_from: NDArray[np.float64] | None,
                  among: list[str] | None = None, limit: int | None = None) -> list[str]:
    """Figures in the order the engine removes casualties (only figures of ``among`` when a rule
    limits the candidates): farthest from the enemy first, skipping any whose removal would
    break formation (SAGA p.22). A named leader (Jarl Sigvald,
    Egil) comes only when no other figure can go without breaking formation: then his place is
    the one to empty, and :func:`remove_figures` swaps him with a figure of his unit (SAGA p.44).
    ``limit``: only the first so many (each pick depends only on the figures left, so the order
    is the same prefix; every pick costs a formation check per figure)."""
    order: list[str] = []
    lead = state["units"][uid].get("leader")
    remaining = list(state["units"][uid]["figures"])
    while remaining and (limit is None or len(order) < limit):
        arr = figure_array(state, remaining)
        if away_from is not None and len(away_from):
            score = circle_gaps(arr, away_from).min(axis=1)
        else:
            score = np.zeros(len(remaining))
        ranked = [int(i) for i in np.argsort(-score, kind="stable") if among is None or remaining[i] in among]
        if not ranked:
            break
        keeps = [i for i in ranked if cohesive(np.delete(arr, i, axis=0))]
        others = [i for i in ranked if remaining[i] != lead or len(remaining) == 1]
        pick = next((i for i in keeps if i in others), None)
        if pick is None:
            pick = keeps[0] if keeps else (others or ranked)[0]
        order.append(remaining.pop(pick))
    return order


def leader_swap(state: State, uid: str, victims: list[str], ctx: Any, lead: str | None = None,
                rule: str = "SAGA p.44") -> list[str]:
    """The leader's rule (SAGA p.44; Harold among his brothers, p.42): a named leader (``lead``,
    else the unit's ``leader``) dies only after every other figure of his unit. When his place is
    the one to empty to keep formation, he swaps places with the surviving figure nearest to him,
    which dies in his place. Returns the figures that die."""
    unit = state["units"][uid]
    lead = lead or unit.get("leader")
    survivors = [f for f in unit["figures"] if f not in victims]
    if lead not in victims or not survivors:
        return victims
    figs = state["figures"]
    here = figs[lead]
    swap = min(survivors, key=lambda f: (figs[f]["x"] - here["x"]) ** 2 + (figs[f]["y"] - here["y"]) ** 2)
    for key in ("x", "y"):
        here[key], figs[swap][key] = figs[swap][key], here[key]
    name = unit.get("figure_names", {}).get(lead, lead)
    ctx.emit("swap", f"{name} swaps places with {swap} to keep {unit['name']} in formation; {swap} dies in his place",
             rule, pieces=[lead, swap], unit=uid)
    return [swap if f == lead else f for f in victims]


def loss_key(unit: Unit) -> str:
    """Under which heading a casualty is counted for victory points (SAGA p.50): baggage, a
    hero or mercenary's own heading (data/swords.yaml ``vp``), else the class."""
    return "baggage" if unit.get("baggage") else str(unit.get("vp_key") or unit["cls"])


def bypasses_board(unit: Unit) -> bool:
    """Mercenaries that no friendly battle-board ability affects (SAGA p.45-47)."""
    return bool(unit.get("bypass_board"))


def board_serves(state: State, unit: Unit, faction: str) -> bool:
    """Whether the battle board of ``faction`` activates and helps ``unit``: its owner's own board
    (and Canute's second one, SAGA p.42), or for a unit tied to a board of its own (Egil's Hirdmen:
    the Viking board, SAGA p.45) that board only; no board for mercenaries who ignore them all
    (Flemish, Jomsvikings)."""
    if bypasses_board(unit):
        return False
    if unit.get("board"):
        return faction == unit["board"]
    return faction in (state["sides"][unit["owner"]]["faction"], hero_spec(state, unit["owner"]).get("second_board"))


def remove_figures(state: State, uid: str, count: int, ctx: Any, why: str, rule: str,
                   away_from: NDArray[np.float64] | None = None, killer: str | None = None,
                   chosen: list[str] | None = None) -> int:
    """Remove ``count`` figures as casualties (``chosen`` by their owner, else the engine's
    ``removal_order``); returns how many were removed."""
    unit = state["units"][uid]
    victims = list(chosen) if chosen is not None else removal_order(state, uid, away_from, limit=count)
    victims = leader_swap(state, uid, victims, ctx)
    for fid in victims:
        unit["figures"].remove(fid)
        del state["figures"][fid]
        key = unit.get("figure_vp", {}).get(fid) or loss_key(unit)    # a named figure's own VP (Egil)
        losses = state["losses"][unit["owner"]]
        losses[key] = losses.get(key, 0) + 1
        if killer is not None:
            k = state["kills"].setdefault(killer, {})
            k[key] = k.get(key, 0) + 1
    if victims:
        ctx.emit("casualties", f"{unit['name']} loses {len(victims)} figure(s) ({why})"
                 + ("; the unit is wiped out" if not unit["figures"] else ""), rule,
                 pieces=victims, unit=uid, removed=len(victims))
    return len(victims)
