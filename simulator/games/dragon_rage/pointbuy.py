"""Force selection (DR 3.3): what each side may buy, checking a chosen force, the VP objective,
the ranking handicap, and turning two chosen forces into a playable scenario.

Everything here is a pure function over plain data. Costs and counter limits are the
``points``/``count`` fields of ``data/units.yaml``; budgets, recruiting rules, default set-up
zones and objective modifiers are in ``data/pointbuy.yaml``. A chosen force ("choice") is
either ``{unit_type: count}`` or a list of set-up entries as in a scenario's ``setup.forces``
(``type``, ``count``, optional ``at``/``zone``/``facing``/``offmap``).

The result of :func:`build_scenario` is scenario data (``scenario/1``) that
``simulator.core.scenario.scenario_from_data`` and ``Session.new`` accept, or that
:func:`write_scenario` saves under ``scenarios/dragon_rage/``. From the command line::

    python -m simulator.games.dragon_rage.pointbuy FORCES.yaml -o scenarios/dragon_rage/my-battle.yaml
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import yaml

from simulator.core.data import Document, load_yaml, validate
from simulator.core.errors import DataError
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.rules_data import DATA_DIR, rules_data

SIDES = ("invader", "defender")
Choice = Mapping[str, int] | Sequence[Mapping[str, Any]]


@lru_cache(maxsize=1)
def schemas() -> dict[str, Any]:
    """The schemas of ``pointbuy.schema.yaml``, each usable on its own (``$defs`` attached)."""
    raw = load_yaml(DATA_DIR / "pointbuy.schema.yaml").data
    defs = raw["$defs"]
    return {k: {**v, "$defs": defs} for k, v in raw.items() if k != "$defs"}


@lru_cache(maxsize=1)
def pointbuy_data() -> dict[str, Any]:
    """``data/pointbuy.yaml``, checked against its schema."""
    doc = load_yaml(DATA_DIR / "pointbuy.yaml")
    validate(doc, schemas()["pointbuy"])
    return doc.data


# ---------------------------------------------------------------------------------- catalogue
@dataclass(frozen=True)
class Offer:
    """One purchasable unit type: its cost and how many counters exist (the counter mix)."""

    unit_type: str
    name: str
    cost: int
    max: int
    kind: str
    rule: str


def catalogue(map_name: str, side: str) -> list[Offer]:
    """What ``side`` may buy on ``map_name``, dearest first (DR 3.3.4 table, 4.3.1 recruiting)."""
    data = pointbuy_data()
    if map_name not in data["recruiting"]:
        raise DataError(f"no recruiting rules for map {map_name!r} "
                        f"(maps: {', '.join(sorted(data['recruiting']))})")
    counters = set(data["recruiting"][map_name][side]["counters"])
    excluded = set(data["recruiting"][map_name][side].get("exclude", []))
    offers = []
    for type_id, spec in rules_data().units.items():
        if type_id in data["not_for_sale"] or type_id in excluded or spec.get("points") is None or spec.get("count", 0) <= 0:
            continue
        if _is_alias(type_id):
            continue
        if spec.get("counter") in counters:
            offers.append(Offer(type_id, str(spec["name"]), int(spec["points"]), int(spec["count"]),
                                str(spec["kind"]), str(spec.get("rule", ""))))
    return sorted(offers, key=lambda o: (-o.cost, o.unit_type))


def _is_alias(type_id: str) -> bool:
    """A type declared ``same_as`` another is the same counter (e.g. wurm = great_wurm)."""
    return type_id in _aliases()


@lru_cache(maxsize=1)
def _aliases() -> frozenset[str]:
    raw = load_yaml(DATA_DIR / "units.yaml").data["units"]
    return frozenset(t for t, spec in raw.items() if "same_as" in spec)


# ------------------------------------------------------------------------------------ choices
def entries(choice: Choice) -> list[dict[str, Any]]:
    """A choice as a list of set-up entries (``{type: count}`` becomes ``[{type, count}]``)."""
    if isinstance(choice, Mapping):
        return [{"type": str(t), "count": int(n)} for t, n in choice.items()]
    return [dict(e) for e in choice]


def counts(choice: Choice) -> dict[str, int]:
    """Counters chosen per unit type."""
    out: dict[str, int] = {}
    for e in entries(choice):
        out[e["type"]] = out.get(e["type"], 0) + int(e.get("count", 1))
    return out


def cost(choice: Choice) -> int:
    """The points a choice costs; unknown or unpriced types count 0 (``check_force`` reports them)."""
    units = rules_data().units
    return sum(int(units.get(t, {}).get("points") or 0) * n for t, n in counts(choice).items())


@dataclass(frozen=True)
class Problem:
    """Why a chosen force is not allowed."""

    side: str
    message: str
    rule: str

    def __str__(self) -> str:
        return f"{self.side}: {self.message} ({self.rule})"


def check_force(map_name: str, side: str, choice: Choice, *, mode: str = "point_buy",
                budget: int | None = None, unit_cap: int | None = None) -> list[Problem]:
    """Every reason ``choice`` is not a legal force for ``side`` (empty list: it is legal).

    ``mode`` picks the budget of ``data/pointbuy.yaml`` (point_buy DR 3.3.2, planned DR 3.3.1);
    a campaign passes its own ``budget`` (availability points) and ``unit_cap`` (DR 4.3.1).
    """
    data = pointbuy_data()
    if mode not in data["modes"]:
        return [Problem(side, f"unknown selection mode {mode!r} (modes: {', '.join(data['modes'])})", "DR 3.3")]
    m = data["modes"][mode]
    rule = "DR 4.3.1" if budget is not None else m["rule"]
    offers = {o.unit_type: o for o in catalogue(map_name, side)}
    problems: list[Problem] = []
    chosen = counts(choice)
    for type_id, n in chosen.items():
        if type_id not in rules_data().units:
            problems.append(Problem(side, f"unknown unit type {type_id!r}", "DR 2.2"))
        elif type_id not in offers:
            problems.append(Problem(side, f"the {side} may not buy {type_id} on {map_name} "
                                          f"(may buy: {', '.join(sorted(offers))})", "DR 4.3.1"))
        elif n > offers[type_id].max:
            problems.append(Problem(side, f"{n} {type_id} chosen but only {offers[type_id].max} "
                                          "counters exist", "DR 2.2"))
    total = cost(choice)
    low, high = (0, budget) if budget is not None else (m["budget"][side].get("min", 0),
                                                         m["budget"][side]["max"])
    if total > high:
        problems.append(Problem(side, f"the force costs {total} points, more than the {high} allowed", rule))
    if total < low:
        problems.append(Problem(side, f"the force costs {total} points, less than the {low} required", rule))
    n_units = sum(chosen.values())
    if n_units == 0:
        problems.append(Problem(side, "a force needs at least one unit", rule))
    if unit_cap is not None and n_units > unit_cap:
        problems.append(Problem(side, f"{n_units} units chosen, more than the {unit_cap} allowed in this game",
                                "DR 4.3.1"))
    limits = m.get("defender_units")
    if side == "defender" and limits and budget is None:
        if not limits.get("min", 0) <= n_units <= limits.get("max", n_units):
            problems.append(Problem(side, f"{n_units} defender units chosen; a planned scenario needs "
                                          f"{limits.get('min', 0)}-{limits.get('max')}", m["rule"]))
    return problems


# ---------------------------------------------------------------------------------- objective
@dataclass(frozen=True)
class ObjectiveLine:
    """One line of the VP objective's calculation."""

    id: str
    text: str
    add: int


def objective_lines(map_name: str, invader: Choice, defender: Choice, *, elowyn: bool = False,
                    table: str = "point_buy", game: int | None = None) -> list[ObjectiveLine]:
    """The invader's VP objective as base + modifiers (DR 3.3.3; ``table='campaign'``: DR 4.3.2)."""
    spec = pointbuy_data()["objectives"][table]
    units = rules_data().units
    inv, dfd = counts(invader), counts(defender)
    lines = [ObjectiveLine("base", f"base ({spec['rule']})", int(spec["base"]))]
    for mod in spec["modifiers"]:
        if "games" in mod and (game is None or game not in mod["games"]):
            continue
        add, n = int(mod["add"]), 0
        if "per_unit" in mod:
            n = sum(c for t, c in inv.items() if t in mod["per_unit"])
            what = f"{n} x {'/'.join(mod['per_unit'])}"
        elif "per_kind" in mod:
            n = sum(c for t, c in inv.items() if units.get(t, {}).get("kind") in mod["per_kind"])
            what = f"{n} x {'/'.join(k.replace('_', ' ') for k in mod['per_kind'])}"
        elif "invader_units_at_least" in mod:
            n = int(sum(inv.values()) >= mod["invader_units_at_least"])
            what = f"invader has {mod['invader_units_at_least']}+ units"
        elif "defender_units_above" in mod:
            n = max(0, sum(dfd.values()) - int(mod["defender_units_above"]))
            what = f"{n} defender units above {mod['defender_units_above']}"
        elif "princess" in mod:
            n = int(elowyn)
            what = "the defender plays with Princess Elowyn"
        elif "map" in mod:
            n = int(map_name == mod["map"])
            what = f"{mod['map'].capitalize()} map"
        else:                                            # pragma: no cover - the schema forbids it
            continue
        if n:
            lines.append(ObjectiveLine(mod["id"], what, add * n))
    return lines


def vp_objective(map_name: str, invader: Choice, defender: Choice, *, elowyn: bool = False,
                 table: str = "point_buy", game: int | None = None, handicap: int = 0) -> int:
    """The VP objective (never below 1), including a ranking ``handicap`` (DR 3.3.4)."""
    lines = objective_lines(map_name, invader, defender, elowyn=elowyn, table=table, game=game)
    return max(1, sum(line.add for line in lines) + handicap)


# ------------------------------------------------------------------------------------ ranking
def update_ratings(ratings: Mapping[str, int], winner: str | None, loser: str | None) -> dict[str, int]:
    """Ratings after one game (DR 3.3.4): the winner +1, the loser -1; a drawn game changes nothing."""
    r = pointbuy_data()["ranking"]
    out = dict(ratings)
    if winner is None or loser is None:
        return out
    out[winner] = out.get(winner, 0) + int(r["win"])
    out[loser] = out.get(loser, 0) + int(r["loss"])
    return out


def ratings_from_results(results: Iterable[tuple[str | None, str | None]],
                         start: Mapping[str, int] | None = None, pair: tuple[str, str] | None = None
                         ) -> dict[str, int]:
    """A rating table from ``(winner, loser)`` results, pooled, or kept for one ``pair`` only."""
    ratings = dict(start or {})
    for winner, loser in results:
        if pair is not None and {winner, loser} != set(pair):
            continue
        ratings = update_ratings(ratings, winner, loser)
    return ratings


def handicap(ratings: Mapping[str, int], invader: str, defender: str) -> int:
    """The change to the invader's objective for a rating gap (DR 3.3.4): half the gap, rounded
    down, added when the better player invades and taken off when he defends."""
    div = int(pointbuy_data()["ranking"]["handicap_divisor"])
    gap = ratings.get(invader, 0) - ratings.get(defender, 0)
    return abs(gap) // div * (1 if gap > 0 else -1)


# ------------------------------------------------------------------------------------ builder
def placed_entries(map_name: str, side: str, choice: Choice) -> list[dict[str, Any]]:
    """Set-up entries with a default zone for every unit the chooser did not place (DR 3.1.1, 3.2.1)."""
    rules = pointbuy_data()["placement"][map_name][side]
    zones = board_for(f"dragon_rage/{map_name}").edges
    used: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    for e in entries(choice):
        n = int(e.get("count", 1))
        if "zone" in e or "offmap" in e or len(e.get("at", [])) >= n:
            out.append(e)
            continue
        spec = rules_data().units.get(e["type"], {})
        where = rules.get(e["type"]) or rules.get(spec.get("kind", "")) or rules["default"]
        if "zones" not in where:
            out.append({**e, **where})
            continue
        left = n - len(e.get("at", []))
        first = True
        for zone in where["zones"]:
            room = len(zones.get(zone, [])) - used.get(zone, 0)
            take = left if zone == where["zones"][-1] else min(left, room)
            if take <= 0:
                continue
            part = {"type": e["type"], "count": take + (len(e.get("at", [])) if first else 0), "zone": zone}
            if first and e.get("at"):
                part["at"] = list(e["at"])
            out.append(part)
            used[zone] = used.get(zone, 0) + take
            left -= take
            first = False
            if left == 0:
                break
    return out


def build_scenario(map_name: str, invader: Choice, defender: Choice, *, mode: str = "point_buy",
                   elowyn: bool = False, handicap: int = 0, objective: int | None = None,
                   name: str | None = None, description: str | None = None, turns: int | None = None,
                   check: bool = True) -> dict[str, Any]:
    """Scenario data (``scenario/1``) for two chosen forces (DR 3.3).

    The objective follows DR 3.3.3 (applied strictly for point-buy); a planned scenario's
    designer may give ``objective`` instead. The Princess's +1 is left to the engine, which adds
    it when ``rules.elowyn`` is on in a ``point_built`` scenario, so the switch stays editable.
    Raises :class:`DataError` listing every problem when ``check`` finds an illegal force.
    """
    if check:
        problems = check_force(map_name, "invader", invader, mode=mode) + \
            check_force(map_name, "defender", defender, mode=mode)
        if problems:
            raise DataError("illegal force selection: " + "; ".join(map(str, problems)))
    lines = objective_lines(map_name, invader, defender, elowyn=elowyn)
    if objective is not None and mode != "planned":
        raise DataError("only a planned scenario (DR 3.3.1) may set its own objective; "
                        "point-buy applies the DR 3.3.3 guideline strictly")
    princess = sum(line.add for line in lines if line.id == "princess")
    base = objective if objective is not None else sum(line.add for line in lines) + handicap
    rule = pointbuy_data()["modes"][mode]["rule"]
    calc = " ".join(f"{line.add:+d} ({line.text})" if i else f"{line.add} ({line.text})"
                    for i, line in enumerate(lines))
    if handicap:
        calc += f" {handicap:+d} ranking handicap (DR 3.3.4)"
    forces = {"invader": placed_entries(map_name, "invader", invader),
              "defender": placed_entries(map_name, "defender", defender)}
    return scenario_data(
        map_name, forces, objective=max(1, base - princess), elowyn=elowyn, turns=turns,
        name=name or f"{map_name.capitalize()}: {mode.replace('_', '-')} battle",
        description=description or f"Forces chosen by the players within a points budget ({rule}).",
        notes=(f"{mode.replace('_', '-')} scenario ({rule}): invader {cost(invader)} points, defender "
               f"{cost(defender)} points. Objective: "
               + (f"set by the designer ({objective})" if objective is not None else calc)
               + (f" (the Princess's {princess:+d} is added by the engine)" if princess else "")
               + ". Generated by simulator/games/dragon_rage/pointbuy.py."),
    )


def scenario_data(map_name: str, forces: dict[str, list[dict[str, Any]]], *, objective: int, elowyn: bool,
                  name: str, description: str, notes: str, turns: int | None = None,
                  extra_setup: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A ``scenario/1`` mapping in the layout of the hand-written Dragon Rage scenarios."""
    data: dict[str, Any] = {
        "format": "scenario/1", "game": "dragon_rage", "name": name, "description": description,
        "map": f"dragon_rage/{map_name}",
        "players": [{"id": "invader", "name": "Invader"}, {"id": "defender", "name": "Defender"}],
    }
    if turns is not None:
        data["turns"] = int(turns)
    data["setup"] = {"objective": int(objective), "first": "invader", "point_built": True,
                     **dict(extra_setup or {}), "forces": forces}
    data["rules"] = {"elowyn": bool(elowyn), "graduated_victory": False}
    data["notes"] = notes
    data["assumed"] = ("Units without 'at' hexes are spread over the map's set-up zones (DR 3.1.1, 3.2.1); "
                       "the players may place them anywhere the rules allow by editing 'at'/'zone'.")
    return data


def load_choice(path: str | Path) -> Document:
    """A force-choice file (``dragon_rage-forces/1``), validated."""
    doc = load_yaml(path)
    validate(doc, schemas()["forces"])
    return doc


def scenario_from_choice(doc: Document) -> dict[str, Any]:
    """Scenario data for a force-choice file; problems are reported at their line."""
    c = doc.data
    mode = c.get("mode", "point_buy")
    for side in SIDES:
        problems = check_force(c["map"], side, c[side], mode=mode)
        if problems:
            raise doc.error((side,), "; ".join(f"{p.message} ({p.rule})" for p in problems))
    try:
        return build_scenario(c["map"], c["invader"], c["defender"], mode=mode, elowyn=c.get("elowyn", False),
                              handicap=c.get("handicap", 0), objective=c.get("objective"), name=c.get("name"),
                              description=c.get("description"), turns=c.get("turns"))
    except DataError as exc:
        raise doc.error(("objective",), exc.message) from None


def write_scenario(data: Mapping[str, Any], path: str | Path, header: str = "") -> Path:
    """Save scenario data as YAML (hex labels stay quoted text)."""
    out = Path(path)
    text = yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True, width=100)
    out.write_text((f"# {header}\n" if header else "") + text, encoding="utf-8")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m simulator.games.dragon_rage.pointbuy FORCES.yaml [-o OUT.yaml]``."""
    parser = argparse.ArgumentParser(description="Build a Dragon Rage scenario from two chosen forces (DR 3.3).")
    parser.add_argument("forces", help="a dragon_rage-forces/1 file")
    parser.add_argument("-o", "--output", help="where to write the scenario (default: print it)")
    args = parser.parse_args(argv)
    try:
        data = scenario_from_choice(load_choice(args.forces))
        from simulator.core.scenario import scenario_from_data
        from simulator.core.session import Session
        Session.new(scenario_from_data(data, "dragon_rage/pointbuy"))     # proves the set-up is legal
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.output:
        write_scenario(data, args.output, f"Generated from {args.forces} by simulator/games/dragon_rage/pointbuy.py")
        print(f"wrote {args.output}")
    else:
        print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
    return 0


if __name__ == "__main__":      # pragma: no cover
    raise SystemExit(main())
