"""Army building on screen (digest §12): the client's force-selection contract
(:class:`simulator.core.view.ForceRules`) over the army checks of :func:`setup.army_problems`.

A scenario asks for it with a top-level ``force_selection`` mapping::

    force_selection:
      factions: {stark: stark}   # optional: a player's faction (default: its army's in setup)

Each player picks, in secret, from the cards its faction may field (§12.2, §12.4): Combat units,
attachments, one Commander and NCUs, each with its point cost; the budget is the scenario's
``setup.points`` (§12.1), neutral cards at most half of it (§12.4). The scenario's own armies stay
playable (scripts, ``Session.new`` of the file) and are the suggested force, the computer's pick.

A chosen force becomes a scenario army (:func:`army_of`):

* attachments need a Combat unit of their type on a unit tray, one attachment per unit (§4.5,
  §12.6). They are given out automatically: the Commander first, then the other attachments from
  the dearest, each to the dearest unit of its type still without one (ties: the order of the
  catalogue). An attachment with no free unit of its type is a problem of that row.
* units get ids ``<player's initial><n>`` (the full player id if two players share an initial)
  and no position: set-up places them in the deployment area (:mod:`placement`).
* A Storm of Swords: the Defender's cheapest units (the Commander's last), half of its units
  rounded up, start in Reserve (§16.3).
* Fire and Blood's marked units and opening ``hands`` name ids and cards of the scenario's own
  armies, so a built scenario drops them (nothing is marked).
"""

from __future__ import annotations

import copy
import dataclasses
from functools import lru_cache
from typing import Any, Mapping

from simulator.core.errors import DataError
from simulator.core.view import (ForceOption, ForceProblem, ForceRules, ForceSelection, basic_force_problems,
                                 greedy_forces)
from simulator.games.asoiaf.catalogue import catalogue
from simulator.games.asoiaf.setup import RULE_COMMANDER, RULE_UNITS, army_problems, team_character_clashes

RULE = 'ASOIAF "Army building" (12)'
GROUPS = {"commander": "Commander", "unit": "Combat units", "attachment": "Attachments", "ncu": "Non-Combat units"}
FACTIONS = ("stark", "lannister", "neutral")


def _settings(scenario: Any) -> dict[str, Any] | None:
    raw = scenario.data.get("force_selection")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise scenario.error(("force_selection",), "expected a mapping (optionally with factions)")
    unknown = sorted(set(raw) - {"factions"})
    if unknown:
        raise scenario.error(("force_selection", unknown[0]), "unknown key (known: factions)")
    players = [p["id"] for p in scenario.players]
    factions = {p: scenario.setup.get("armies", {}).get(p, {}).get("faction") for p in players}
    for p, f in (raw.get("factions") or {}).items():
        if p not in players:
            raise scenario.error(("force_selection", "factions", p), f"{p!r} is not a player ({', '.join(players)})")
        if f not in FACTIONS:
            raise scenario.error(("force_selection", "factions", p), f"expected one of {', '.join(FACTIONS)}, got {f!r}")
        factions[p] = f
    return {"factions": factions}


def _allowed(faction: str, card_faction: str) -> bool:
    """§12.2, §12.4: own faction and neutral cards; a neutral army takes neutral cards only."""
    return card_faction == "neutral" or (faction != "neutral" and card_faction == faction)


@lru_cache(maxsize=None)
def options_for(faction: str) -> tuple[ForceOption, ...]:
    """Every card a ``faction`` army may field, grouped, with costs and limits."""
    cat = catalogue()
    out: list[ForceOption] = []
    for cid, a in cat.attachments.items():
        if a.get("commander") and _allowed(faction, a["faction"]):
            out.append(ForceOption(f"commander:{cid}", cat.full_name(cid), 0, 1, group=GROUPS["commander"],
                                   values=(f"{a['type']} attachment", "Character" if a.get("character") else ""),
                                   rule=RULE_COMMANDER))
    for cid, u in cat.units.items():
        if _allowed(faction, u["faction"]):
            values = (f"{u['type']}", f"Speed {u['speed']}", f"Defense {u['defense']}+", f"Morale {u['morale']}+") \
                + (("neutral",) if u["faction"] == "neutral" else ()) + (("Character",) if u.get("character") else ())
            out.append(ForceOption(f"unit:{cid}", cat.full_name(cid), u["cost"], 1 if u.get("character") else None,
                                   group=GROUPS["unit"], values=values, rule=RULE_UNITS))
    for cid, a in cat.attachments.items():
        if not a.get("commander") and _allowed(faction, a["faction"]):
            values = (f"joins {a['type']}",) + (("neutral",) if a["faction"] == "neutral" else ()) \
                + (("Character",) if a.get("character") else ())
            out.append(ForceOption(f"attachment:{cid}", cat.full_name(cid), a["cost"],
                                   1 if a.get("character") else None, group=GROUPS["attachment"], values=values,
                                   rule=RULE_UNITS))
    for cid, n in cat.ncus.items():
        if _allowed(faction, n["faction"]):
            manual = ("ability not automated",) if cat.unautomated(n["abilities"]) else ()
            out.append(ForceOption(f"ncu:{cid}", cat.full_name(cid), n["cost"], 1, group=GROUPS["ncu"],
                                   values=(("neutral",) if n["faction"] == "neutral" else ()) + manual,
                                   rule=RULE_UNITS))
    return tuple(out)


def counts_of(army: Mapping[str, Any]) -> dict[str, int]:
    """A scenario army as force-selection counts (the suggested force)."""
    out: dict[str, int] = {f"commander:{army['commander']}": 1}
    for u in army.get("units", []):
        out[f"unit:{u['card']}"] = out.get(f"unit:{u['card']}", 0) + 1
        att = u.get("attachment")
        if att and att != army["commander"]:
            out[f"attachment:{att}"] = out.get(f"attachment:{att}", 0) + 1
    for n in army.get("ncus", []):
        out[f"ncu:{n}"] = out.get(f"ncu:{n}", 0) + 1
    return out


def army_of(faction: str, chosen: Mapping[str, int], prefix: str,
            preferred: tuple[tuple[str, str], ...] = ()) -> tuple[dict[str, Any] | None, list[ForceProblem]]:
    """The scenario army of a choice (None if it cannot be built) and the problems found on the
    way: the number of Commanders and attachments without a free unit of their type.
    ``preferred`` (unit card, attachment card) pairs, the scenario's own, are made first."""
    cat = catalogue()
    picked: dict[str, list[str]] = {"commander": [], "unit": [], "attachment": [], "ncu": []}
    for key, n in chosen.items():
        kind, _, cid = key.partition(":")
        if kind in picked and int(n) > 0:
            picked[kind] += [cid] * int(n)
    problems: list[ForceProblem] = []
    if len(picked["commander"]) != 1:
        problems.append(ForceProblem(f"choose exactly one Commander ({len(picked['commander'])} chosen)",
                                     RULE_COMMANDER))
    rank = {cid: i for i, cid in enumerate(cat.units)}
    units = sorted(picked["unit"], key=lambda c: (-cat.units[c]["cost"], rank[c]))
    specs = [{"id": f"{prefix}{i + 1}", "card": c} for i, c in enumerate(units)]
    arank = {cid: i for i, cid in enumerate(cat.attachments)}
    atts = picked["commander"][:1] + sorted(picked["attachment"], key=lambda c: (-cat.attachments[c]["cost"], arank[c]))
    for att in atts:
        kind = cat.attachments[att]["type"]
        free = [s for s in specs if "attachment" not in s and cat.units[s["card"]]["type"] == kind
                and cat.units[s["card"]]["tray"] not in ("solo", "warmachine")]
        liked = [s for s in free if (s["card"], att) in preferred]
        spec = (liked or free or [None])[0]
        if spec is None:
            option = f"commander:{att}" if att in picked["commander"] else f"attachment:{att}"
            problems.append(ForceProblem(f"{cat.full_name(att)} needs a free {kind} unit (with no attachment yet) "
                                         "- one attachment per unit, none on individual trays", RULE_UNITS, option))
            continue
        spec["attachment"] = att
    if not picked["commander"] or not specs:
        if not specs:
            problems.append(ForceProblem("choose at least one Combat unit", RULE_UNITS))
        return None, problems
    army = {"faction": faction, "commander": picked["commander"][0], "units": specs, "ncus": sorted(picked["ncu"])}
    return army, problems


def _preferred(scenario: Any, player: str) -> tuple[tuple[str, str], ...]:
    army = scenario.setup.get("armies", {}).get(player) or {}
    return tuple((u["card"], u["attachment"]) for u in army.get("units", []) if u.get("attachment"))


def _option_of(p: Any) -> str | None:
    """The row of an army problem: the card it is about, as whichever option holds that card."""
    if p.card is None:
        return None
    cat = catalogue()
    if p.card in cat.units:
        return f"unit:{p.card}"
    if p.card in cat.ncus:
        return f"ncu:{p.card}"
    if p.card in cat.attachments:
        return f"{'commander' if cat.attachments[p.card].get('commander') else 'attachment'}:{p.card}"
    return None


class AsoiafForces(ForceRules):
    def force_selection(self, scenario: Any, player: str) -> ForceSelection | None:
        settings = _settings(scenario)
        if settings is None or player not in settings["factions"]:
            return None
        faction = settings["factions"][player]
        if faction is None:
            raise scenario.error(("force_selection", "factions"), f"no faction for {player!r}")
        points = int(scenario.setup["points"])
        army = scenario.setup.get("armies", {}).get(player)
        suggested = counts_of(army) if army and army.get("faction") == faction else {}
        name = next((p.get("name", player) for p in scenario.players if p["id"] == player), player.capitalize())
        return ForceSelection(
            player=player, player_name=name, budget=points, options=options_for(faction), secret=True, rule=RULE,
            suggested=suggested,
            note=f"{faction.capitalize()} army of {points} points (12.1): one Commander (free, 12.3), at most "
                 f"{points / 2:g} points of neutral cards (12.4), one attachment per unit of its type (12.6). "
                 "Attachments are given to the dearest free unit of their type; the army is placed in its "
                 "deployment area automatically.")

    def computer_forces(self, scenario: Any, player: str) -> dict[str, int]:
        """The suggested army when legal; else the suggested (or first) Commander with the cheapest
        unit it can join, then, greedily, the dearest cards that keep the army legal
        (``greedy_forces`` alone would never pick a Commander, which costs nothing)."""
        selection = self.force_selection(scenario, player)
        if selection is None:
            return {}
        suggested = {k: int(v) for k, v in selection.suggested.items() if v}
        if suggested and not self.check_forces(scenario, player, suggested):
            return suggested
        commanders = [o.id for o in selection.options if o.id.startswith("commander:")]
        cmd = next((k for k in suggested if k.startswith("commander:")), commanders[0] if commanders else None)
        cat = catalogue()
        base = None
        if cmd is not None:
            kind = cat.attachments[cmd.partition(":")[2]]["type"]
            bearers = [o for o in selection.options if o.id.startswith("unit:")
                       and cat.units[o.id[5:]]["type"] == kind and cat.units[o.id[5:]]["tray"] == kind]
            base = min(bearers, key=lambda o: (o.cost, o.id)).id if bearers else None
        options = tuple(dataclasses.replace(o, min=1) if o.id in (cmd, base) else o for o in selection.options
                        if not o.id.startswith("commander:") or o.id == cmd)
        return greedy_forces(dataclasses.replace(selection, options=options),
                             lambda c: self.check_forces(scenario, player, c))

    def check_forces(self, scenario: Any, player: str, chosen: Mapping[str, int]) -> list[ForceProblem]:
        selection = self.force_selection(scenario, player)
        if selection is None:
            return []
        chosen = {k: int(v) for k, v in chosen.items() if v}
        problems = basic_force_problems(selection, chosen)
        army, built = army_of(_settings(scenario)["factions"][player], chosen, "X", _preferred(scenario, player))
        problems += built
        flagged = {p.option for p in problems if p.option}
        if army is not None:
            for p in army_problems(army, int(scenario.setup["points"])):
                option = _option_of(p)
                if p.key == "points" or option in flagged:
                    continue              # the budget line and the row's own limit say it already
                problems.append(ForceProblem(p.message, p.rule, option))
        return problems

    def forces_note(self, scenario: Any, player: str, chosen: Mapping[str, int]) -> str:
        """The neutral share and who carries which attachment, live."""
        settings = _settings(scenario)
        if settings is None:
            return ""
        cat = catalogue()
        faction = settings["factions"][player]
        army, _ = army_of(faction, {k: int(v) for k, v in chosen.items() if v}, "", _preferred(scenario, player))
        neutral = sum(catalogue().card(k.partition(":")[2])["cost"] * int(n) for k, n in chosen.items()
                      if n and cat.card(k.partition(":")[2])["faction"] == "neutral" and faction != "neutral")
        limit = int(scenario.setup["points"])
        text = f"neutral cards: {neutral} of {limit / 2:g} points allowed (12.4)"
        if army is not None:
            pairs = [f"{cat.full_name(u['attachment'])} with {cat.full_name(u['card'])}"
                     for u in army["units"] if "attachment" in u]
            if pairs:
                text += "; " + "; ".join(pairs)
        return text

    def build_scenario(self, scenario: Any, chosen_by_player: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        settings = _settings(scenario)
        if settings is None:
            raise DataError(f"{scenario.name} has no force selection")
        data = copy.deepcopy(dict(scenario.data))
        data.pop("force_selection", None)
        setup = data["setup"]
        setup.pop("hands", None)
        setup.pop("marked", None)
        players = [p["id"] for p in scenario.players]
        initials = [p[:1].upper() for p in players]
        armies: dict[str, Any] = {}
        errors: list[str] = []
        for player in players:
            chosen = {k: int(v) for k, v in chosen_by_player.get(player, {}).items() if v}
            problems = self.check_forces(scenario, player, chosen)
            if problems:
                errors += [f"{player}: {p}" for p in problems]
                continue
            prefix = player[:1].upper() if initials.count(player[:1].upper()) == 1 else player
            army, _ = army_of(settings["factions"][player], chosen, prefix, _preferred(scenario, player))
            assert army is not None
            armies[player] = army
        if not errors and setup.get("teams"):
            teams = {p: t for p in players for t, ms in setup["teams"].items() if p in ms}
            errors += [f"{path[0]}: {message}" for path, message in team_character_clashes(teams, armies)]
        if errors:
            raise DataError("illegal forces: " + "; ".join(errors), file=scenario.file or scenario.id)
        if setup.get("mode") == "storm_of_swords":
            defender = setup.get("defender", players[1])
            teams = setup.get("teams", {})
            team = teams.get(defender) or next((ms for ms in teams.values() if defender in ms), [defender])
            for p in team:             # by teams every defending player's army (16.3, 13.1)
                _reserves(armies[p])
        setup["armies"] = armies
        data["name"] = f"{scenario.name} (chosen armies)"
        return data


def _reserves(army: dict[str, Any]) -> None:
    """A Storm of Swords: half the Defender's units, rounded up, the cheapest first and the
    Commander's last, start in Reserve (§16.3)."""
    cat = catalogue()
    units = army["units"]
    need = (len(units) + 1) // 2
    pool = sorted(units, key=lambda u: (u.get("attachment") == army["commander"], cat.units[u["card"]]["cost"]))
    for u in pool[:need]:
        u["reserve"] = True
