"""The warband builder on the force-selection screen (SAGA p.35-36, p.41-46): the client's
contract :class:`simulator.core.view.ForceRules` on top of the set-up's own builder checks.

A scenario asks for it with a top-level ``force_selection`` mapping::

    force_selection:
      points: 6          # optional: the warband size; default the scenario's setup.points
      secret: true       # optional: chosen unseen (hotseat hand-over first); default true

Each player buys, within the points, from rows grouped by class:

* ``warlord-<option>``: Warlord options at no cost (mounted for Normans and Welsh; a Dane axe
  where a hero allows it);
* ``hero-<id>``: a Viking Age hero of the faction replacing the Warlord (1 point);
* ``warlord-extra``: in Clash of Steel games of 10 and 12 points, one or two more Warlords
  (1 point each, never heroes; the first Warlord is the General, SAGA p.58);
* ``<class>[-<variant>]-<size>``: one unit of 4 to 12 Hearthguard, Warriors or Levies, at its
  share of a point (1 point = 4 Hearthguard = 8 Warriors = 12 Levies; a class's figures must add
  up to whole points: 12 + 4 or 6 + 10 Warriors are two points, 5 + 7 Levies one); variants are
  the faction's equipment options and their combinations ("mounted_bow": mounted with bows under
  William, "mounted_no_javelins": mounted without javelins under Gruffydd, Varangians with Dane
  axes), one group of rows per class and variant, offered only when the set-up's
  :func:`setup.unit_problems` allows them for this faction, with ``requires`` naming the hero a
  variant needs;
* ``mercenary-<id>``: a Sword for Hire unit.

The rules are
the set-up's (:func:`setup.unit_problems`, :func:`setup.warband_problems`), so a chosen
warband is legal on the screen exactly when the built scenario sets up. The Warlord (free)
is always in the warband. ``build_scenario`` places the chosen units automatically in the
side's deployment zones (:mod:`deployment`); baggage and other units the scenario gives a side
outside the builder stay where the scenario put them. With ``rules: {deployment: players}`` these
places are only the suggestions of the players' set-up (``placement.py``), which takes the units
off the table and has the players deploy them.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import itertools
from typing import Any, Mapping

from simulator.core.errors import DataError
from simulator.core.view import ForceOption, ForceProblem, ForceRules, ForceSelection, basic_force_problems
from simulator.games.saga import catalogue as cat
from simulator.games.saga.deployment import DeploymentError, place_units
from simulator.games.saga.setup import (brothers, diameter_of, extra_warlord_rule, layout, unit_figures, unit_problems,
                                        warband_problems, weapon_of)

RULE = "SAGA p.35"
#: Unit sizes on the screen: a unit has 4 to 12 figures of one class (SAGA p.35).
SIZES = tuple(range(4, 13))
#: Row groups besides the units' (one group per class and variant: "Hearthguard mounted").
GROUPS = {"warlord": "Warlord and hero", "mercenary": "Swords for hire"}
#: Equipment options a unit row may carry (unit entry fields), in the order a combined variant
#: joins their ids and names; at most one weapon. Offered when the set-up allows them.
OPTIONS: dict[str, dict[str, Any]] = {"mounted": {"mounted": True}, "varangians": {"varangians": True},
                                      "berserker": {"berserker": True}, "dane_axe": {"dane_axe": True}}
WEAPONS: dict[str, dict[str, Any]] = {"crossbow": {"weapon": "crossbow"}, "bow": {"weapon": "bow"},
                                      "sling": {"weapon": "sling"}, "javelin": {"weapon": "javelin"},
                                      "no_javelins": {"weapon": "none"}}
OPTION_NAMES = {"dane_axe": "with Dane axes", "berserker": "Berserkers", "mounted": "mounted",
                "crossbow": "with crossbows", "bow": "with bows", "sling": "with slings",
                "javelin": "with javelins", "no_javelins": "without javelins", "varangians": "Varangians"}


def _variants() -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Every variant ("" plain, "mounted", "mounted_bow", "varangians_dane_axe"...): its unit entry
    fields and its name ("mounted with bows")."""
    fields: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    for n in range(len(OPTIONS) + 1):
        for combo in itertools.combinations(OPTIONS, n):
            for weapon in ("", *WEAPONS):
                ids = [*combo, weapon] if weapon else list(combo)
                key = "_".join(ids)
                fields[key] = {k: v for i in ids for k, v in (OPTIONS.get(i) or WEAPONS[i]).items()}
                names[key] = " ".join(OPTION_NAMES[i] for i in ids)
    return fields, names


VARIANTS, VARIANT_NAMES = _variants()
#: Unit fields a warband may field once (SAGA p.37, p.38, p.42): a row carrying one has max 1.
ONCE = (("berserker", True), ("weapon", "crossbow"), ("varangians", True))
WARLORD_VARIANTS = {"mounted": OPTIONS["mounted"], "dane_axe": OPTIONS["dane_axe"]}
#: The row of the Clash of Steel Warlords besides the General (SAGA p.58).
EXTRA = "warlord-extra"


def _settings(scenario: Any) -> dict[str, Any] | None:
    raw = scenario.data.get("force_selection")
    if not raw:
        return None
    unknown = sorted(set(raw) - {"points", "secret"})
    if unknown:
        raise scenario.error(("force_selection", unknown[0]), "expected only 'points' and 'secret'")
    points = raw.get("points", scenario.setup.get("points"))
    if not isinstance(points, int) or not 2 <= points <= 12:
        raise scenario.error(("force_selection",), "a warband size in points (2-12) is needed: give "
                                                   "force_selection.points or setup.points")
    return {"points": points, "secret": bool(raw.get("secret", True))}


def _faction(scenario: Any, player: str) -> dict[str, Any]:
    return cat.faction(scenario.setup["sides"][player]["faction"])


def _heroes(faction: dict[str, Any]) -> list[str]:
    return [h for h, spec in cat.swords()["heroes"].items() if faction["id"] in spec["factions"]]


def _needs(faction: dict[str, Any], entry: dict[str, Any]) -> tuple[str, ...] | None:
    """None if ``entry`` is never allowed; else the hero options it requires (empty: none)."""
    if not unit_problems(faction, entry, None):
        return ()
    for h in _heroes(faction):
        if not unit_problems(faction, entry, h):
            return (f"hero-{h}",)
    return None


def _unit_entry(cls: str, variant: str, size: int) -> dict[str, Any]:
    return {"class": cls, "figures": size, **VARIANTS[variant]}


def _row_id(cls: str, variant: str, size: int) -> str:
    return f"{cls}-{variant}-{size}" if variant else f"{cls}-{size}"


@functools.lru_cache(maxsize=None)
def _options(faction_id: str) -> tuple[ForceOption, ...]:
    """The rows of a faction's warband (the data are read once: they do not change while running)."""
    faction = cat.faction(faction_id)
    per_point = {c: v["figures_per_point"] for c, v in cat.classes()["classes"].items()}
    names = {c: v["name"] for c, v in cat.classes()["classes"].items()}
    out: list[ForceOption] = []
    for key, fields in WARLORD_VARIANTS.items():
        default = bool(faction.get("dane_axe", {}).get("warlord")) if key == "dane_axe" else False
        needs = None if default else _needs(faction, {"class": "warlord", **fields})
        if needs is not None:
            out.append(ForceOption(f"warlord-{key}", f"Warlord {VARIANT_NAMES[key]}", 0, 1,
                                   group=GROUPS["warlord"], requires=needs, rule="SAGA p.38-42"))
    for h in _heroes(faction):
        spec = cat.swords()["heroes"][h]
        out.append(ForceOption(f"hero-{h}", spec["name"], spec["cost"], 1, group=GROUPS["warlord"],
                               values=(f"{spec['saga_dice']} SAGA dice", "replaces the Warlord"),
                               rule="SAGA p.41"))
    for cls in ("hearthguard", "warriors", "levies"):
        for variant, fields in VARIANTS.items():
            if "weapon" in fields and weapon_of(faction, {"class": cls, **fields}) == weapon_of(faction, {"class": cls}):
                continue                                # the class's own weapon: the plain row
            label = f"{names[cls]} {VARIANT_NAMES[variant]}".strip()
            once = any(fields.get(k) == v for k, v in ONCE)
            for size in SIZES:                  # the size rules only cap a unit: stop at the first refusal
                needs = _needs(faction, _unit_entry(cls, variant, size))
                if needs is None:
                    break
                out.append(ForceOption(_row_id(cls, variant, size), f"{label}, unit of {size}",
                                       size / per_point[cls], 1 if once else None, group=label,
                                       requires=needs, rule=RULE,
                                       values=(f"{size} figures", f"{per_point[cls]} a point")))
    for m, spec in cat.swords()["mercenaries"].items():
        entry = {"class": spec["class"], "figures": spec["figures"], "mercenary": m}
        if not unit_problems(faction, entry, None):
            out.append(ForceOption(f"mercenary-{m}", spec["name"], spec["cost"], 1, group=GROUPS["mercenary"],
                                   values=(f"{spec['figures']} {spec['class']}",), rule="SAGA p.45"))
    return tuple(out)


def chosen_warband(chosen: Mapping[str, int]) -> tuple[list[dict[str, Any]], list[str], list[str | None]]:
    """The unit entries (Warlord first, no positions), the heroes, and for each entry the row
    it comes from (None for the Warlord when no Warlord option was chosen)."""
    warlord: dict[str, Any] = {"id": "warlord", "class": "warlord"}
    warlord_rows = [k for k, n in chosen.items() if n and k.startswith("warlord-") and k != EXTRA]
    for k in warlord_rows:
        warlord.update(WARLORD_VARIANTS.get(k.removeprefix("warlord-"), {}))
    units = [warlord]
    rows: list[str | None] = [warlord_rows[0] if warlord_rows else None]
    heroes = [k.removeprefix("hero-") for k, n in chosen.items() if n and k.startswith("hero-")]
    if len(heroes) == 1 and brothers(heroes[0]):
        warlord["figures"] = unit_figures(warlord, heroes[0])      # Harold and his brothers (SAGA p.42)
    for k in range(int(chosen.get(EXTRA, 0))):                     # Clash of Steel Warlords (SAGA p.58)
        units.append({"id": f"warlord{k + 2}", "class": "warlord"})
        rows.append(EXTRA)
    for key in sorted(chosen, key=_sort_key):
        n = int(chosen[key])
        if n <= 0 or key.startswith(("warlord-", "hero-")):
            continue
        if key.startswith("mercenary-"):
            m = key.removeprefix("mercenary-")
            spec = cat.swords()["mercenaries"].get(m)
            entry = {"class": spec["class"], "figures": spec["figures"], "mercenary": m} if spec else None
        else:
            entry = _parse_row(key)
        if entry is None:
            continue
        for _ in range(n):
            units.append({"id": f"{entry['class'][:3]}{sum(1 for u in units if u['class'] == entry['class']) + 1}",
                          **copy.deepcopy(entry)})
            rows.append(key)
    return units, heroes, rows


def _sort_key(key: str) -> tuple[int, str]:
    order = ("hearthguard", "warriors", "levies", "mercenary")
    return next((i for i, p in enumerate(order) if key.startswith(p)), len(order)), key


def _parse_row(key: str) -> dict[str, Any] | None:
    parts = key.split("-")
    if len(parts) not in (2, 3) or parts[0] not in ("hearthguard", "warriors", "levies") or not parts[-1].isdigit():
        return None
    variant = parts[1] if len(parts) == 3 else ""
    if variant not in VARIANTS:
        return None
    return _unit_entry(parts[0], variant, int(parts[-1]))


def _row_of_entry(faction: dict[str, Any], u: dict[str, Any]) -> str | None:
    """The row a scenario's unit entry is (None: the screen cannot offer it)."""
    if u.get("mercenary"):
        return f"mercenary-{u['mercenary']}"
    if u["class"] not in ("hearthguard", "warriors", "levies"):
        return None
    fields = {k: u[k] for k in ("dane_axe", "berserker", "mounted", "weapon", "varangians") if u.get(k)}
    if "weapon" in fields and weapon_of(faction, u) == weapon_of(faction, {"class": u["class"]}):
        del fields["weapon"]                            # the class's own weapon, written out: the plain row
    variant = next((v for v, f in VARIANTS.items() if f == fields), None)
    if variant is None:
        return None
    return _row_id(u["class"], variant, unit_figures(u))


def _suggested(scenario: Any, player: str, options: list[ForceOption]) -> dict[str, int]:
    side = scenario.setup["sides"][player]
    offered = {o.id for o in options}
    out: dict[str, int] = {}
    if side.get("hero"):
        out[f"hero-{side['hero']}"] = 1
    generals = 0
    for u in side["units"]:
        if u["class"] == "baggage":
            continue
        if u["class"] == "warlord" and generals:                   # an extra Warlord (SAGA p.58)
            if EXTRA not in offered:
                return {}
            out[EXTRA] = out.get(EXTRA, 0) + 1
            continue
        if u["class"] == "warlord":
            generals = 1
            for key, fields in WARLORD_VARIANTS.items():
                if all(u.get(k) == v for k, v in fields.items()) and f"warlord-{key}" in offered:
                    out[f"warlord-{key}"] = 1
            continue
        row = _row_of_entry(_faction(scenario, player), u)
        if row is None or row not in offered:
            return {}
        out[row] = out.get(row, 0) + 1
    return out


class SagaForces(ForceRules):
    def force_selection(self, scenario: Any, player: str) -> ForceSelection | None:
        settings = _settings(scenario)
        if settings is None or player not in scenario.setup.get("sides", {}):
            return None
        faction = _faction(scenario, player)
        options = list(_options(faction["id"]))
        extra = extra_warlord_rule(int(settings["points"]))
        if extra is not None:
            options.append(ForceOption(EXTRA, "Another Warlord (never a hero; the first is the General)",
                                       extra["cost"], extra["most"], group=GROUPS["warlord"],
                                       values=("2 SAGA dice", "2 VP") + (("no We Obey, no Side by Side",)
                                                                         if extra["lesser"] else ()),
                                       rule="SAGA p.58"))
        name = next((p.get("name", player) for p in scenario.players if p["id"] == player), player)
        return ForceSelection(
            player=player, player_name=name, budget=settings["points"], options=tuple(options),
            secret=settings["secret"], rule=RULE, suggested=_suggested(scenario, player, options),
            note=f"{faction['name']}, {settings['points']} points: the Warlord is free; 1 point buys 4 Hearthguard, "
                 "8 Warriors or 12 Levies (a class's figures add up to whole points); "
                 + ("you deploy your units after the terrain (the engine suggests places)."
                    if scenario.rules.get("deployment") == "players" else
                    "units are placed in your deployment zone."))

    def check_forces(self, scenario: Any, player: str, chosen: Mapping[str, int]) -> list[ForceProblem]:
        selection = self.force_selection(scenario, player)
        if selection is None:
            return []
        chosen = {k: int(v) for k, v in chosen.items() if v}
        # The cost is the builder's rule (warband_problems): the generic check leaves it out.
        out = basic_force_problems(dataclasses.replace(selection, budget=float("inf")), chosen)
        units, heroes, rows = chosen_warband({k: v for k, v in chosen.items() if selection.option(k)})
        faction = _faction(scenario, player)
        hero = heroes[0] if len(heroes) == 1 else None
        for u, row in zip(units, rows):
            for _field, message in unit_problems(faction, u, hero):
                out.append(ForceProblem(message, RULE, row))
        for p in warband_problems(units, heroes, int(selection.budget)):
            named = [rows[i] for i in p.units if rows[i]]
            out.append(ForceProblem(p.message, p.rule, named[0] if named else None))
        unique: list[ForceProblem] = []
        for p in out:
            if p not in unique:
                unique.append(p)
        return unique

    def forces_note(self, scenario: Any, player: str, chosen: Mapping[str, int]) -> str:
        selection = self.force_selection(scenario, player)
        if selection is None:
            return ""
        units, heroes, _rows = chosen_warband({k: int(v) for k, v in chosen.items() if v and selection.option(k)})
        figures = sum(unit_figures(u) for u in units)
        dice = sum(cat.classes()["classes"][u["class"]]["saga_dice"] for u in units
                   if u["class"] in cat.classes()["classes"] and not u.get("mercenary"))
        leader = cat.swords()["heroes"][heroes[0]]["name"] if len(heroes) == 1 else "the Warlord"
        return (f"{len(units)} units, {figures} figures led by {leader}; about {min(dice, 6)} SAGA dice a turn "
                "(SAGA p.6)")

    def build_scenario(self, scenario: Any, chosen_by_player: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        settings = _settings(scenario)
        if settings is None:
            raise DataError(f"{scenario.name} has no force selection")
        data = copy.deepcopy(dict(scenario.data))
        data.pop("force_selection", None)
        setup = data["setup"]
        setup["points"] = settings["points"]
        types = cat.terrain_types()
        terrain = [{**t, "movement": types[t["type"]]["movement"]} for t in setup.get("terrain", [])
                   if t["type"] in types]
        width, height = float(setup["table"]["width"]), float(setup["table"]["height"])
        kept = {p: [u for u in side["units"] if u["class"] == "baggage"] for p, side in setup["sides"].items()}
        occupied = _circles([u for us in kept.values() for u in us])
        for player in [p["id"] for p in scenario.players] or list(setup["sides"]):
            chosen = {k: int(v) for k, v in chosen_by_player.get(player, {}).items() if v}
            problems = self.check_forces(scenario, player, chosen)
            if problems:
                raise DataError(f"{scenario.name}: the warband of {player} is not legal: "
                                + "; ".join(str(p) for p in problems))
            units, heroes, _rows = chosen_warband(chosen)
            prefix = "".join(w[0] for w in player.replace("-", "_").split("_"))[:2]
            for u in units:
                u["id"] = f"{prefix}-{u['id']}"
            zones = [z["polygon"] for z in setup.get("zones", []) if z["side"] == player]
            try:
                spots = place_units(units, zones, width, height, terrain, occupied)
            except DeploymentError as e:
                raise DataError(f"{scenario.name}: {player}: {e}") from None
            for u, at in zip(units, spots):
                u["at"] = at
            occupied += _circles(units)
            side = setup["sides"][player]
            side["units"] = units + kept[player]
            side.pop("hero", None)
            if heroes:
                side["hero"] = heroes[0]
        data["name"] = f"{scenario.name} (chosen warbands)"
        return data


def _circles(units: list[dict[str, Any]]) -> list[tuple[float, float, float]]:
    """The bases (x, y, r) of placed unit entries."""
    out = []
    for u in units:
        count = 1 if u["class"] == "baggage" else int(u.get("figures", 1))
        d = diameter_of(u)
        out += [(x, y, d / 2) for x, y in layout(tuple(u["at"]), count, int(u.get("columns", min(count, 4))), d)]
    return out
