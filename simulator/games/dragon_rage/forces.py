"""Force selection on screen (DR 3.3): the client's force-selection contract
(:class:`simulator.core.view.ForceRules`) on top of :mod:`pointbuy`.

A scenario asks for it with a top-level ``force_selection`` mapping::

    force_selection:
      mode: point_buy        # or planned (DR 3.3.1); the budgets of data/pointbuy.yaml
      objective: 19          # planned only: the designer's VP objective (optional)

A campaign game built by ``campaign.linked_next_scenario`` carries ``mode: campaign``: each
player recruits with his availability points under the game's unit cap (DR 4.3.1) and the
chosen forces are turned into the game by ``campaign.game_scenario``.

Its own ``setup.forces`` stay playable (``simulator play`` of the file without the screen,
scripts) and are the suggested force, which the computer takes in solo play when it is legal.
Each player (invader, defender) buys from ``pointbuy.catalogue`` in secret (DR 3.3.2: "choose
secretly, then reveal"); ``pointbuy.check_force`` decides, ``pointbuy.objective_lines`` gives
the live note and ``pointbuy.build_scenario`` the scenario that is played.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from simulator.core.errors import DataError
from simulator.core.view import ForceOption, ForceProblem, ForceRules, ForceSelection
from simulator.games.dragon_rage import pointbuy
from simulator.games.dragon_rage.rules_data import rules_data

#: The force-selection mode of a campaign game (DR 4.3.1): budget = the player's availability
#: points, unit cap by game number; the scenario is rebuilt by ``campaign.game_scenario``.
CAMPAIGN = "campaign"

GROUPS = {"major_monster": "Major monsters", "minor_monster": "Minor monsters", "character": "Characters",
          "troop": "Troops", "engine": "Siege engines"}


def _settings(scenario: Any) -> dict[str, Any] | None:
    raw = scenario.data.get("force_selection")
    if not raw:
        return None
    mode = raw.get("mode", "point_buy")
    modes = pointbuy.pointbuy_data()["modes"]
    if mode == CAMPAIGN:
        if not scenario.setup.get("campaign"):
            raise scenario.error(("force_selection", "mode"),
                                 "mode 'campaign' needs the campaign progress in setup.campaign (DR 4.3.1)")
        return {"mode": mode, "objective": None}
    if mode not in modes:
        raise scenario.error(("force_selection", "mode"), f"expected one of {', '.join(modes)}, got {mode!r}")
    objective = raw.get("objective")
    if objective is not None and (isinstance(objective, bool) or not isinstance(objective, int) or objective < 1):
        raise scenario.error(("force_selection", "objective"),
                             f"the VP objective is a whole number of points, at least 1; not {objective!r} (DR 3.3.1)")
    if raw.get("objective") is not None and mode != "planned":
        raise scenario.error(("force_selection", "objective"),
                             "only a planned scenario (DR 3.3.1) sets its own objective")
    return {"mode": mode, "objective": raw.get("objective")}


def _map_name(scenario: Any) -> str:
    return str(scenario.data.get("map", "")).split("/")[-1]


def _values(spec: Mapping[str, Any]) -> tuple[str, ...]:
    """What the counter shows, as far as the unit data has it."""
    out = []
    if spec.get("cf") is not None:
        out.append(f"CF {spec['cf']}")
    if spec.get("mp") is not None:
        road = spec.get("road_mp")
        out.append(f"MP {spec['mp']}" + (f"({road})" if road is not None else ""))
    move = spec.get("movement") or {}
    if move.get("fly") is not None:
        out.append(f"fly {move['fly']}")
    if "areas" in spec:
        out.append(f"{sum(a['hp'] * a.get('groups', 1) for a in spec['areas'].values())} body points")
    return tuple(out)


def _suggested(scenario: Any, player: str) -> dict[str, int]:
    forces = scenario.setup.get("forces", {}).get(player, [])
    return pointbuy.counts(forces) if forces else {}


class DragonRageForces(ForceRules):
    def force_selection(self, scenario: Any, player: str) -> ForceSelection | None:
        settings = _settings(scenario)
        if settings is None or player not in pointbuy.SIDES:
            return None
        units = rules_data().units
        options = tuple(ForceOption(o.unit_type, o.name, o.cost, o.max, group=GROUPS.get(o.kind, o.kind),
                                    values=_values(units[o.unit_type]), rule=o.rule)
                        for o in pointbuy.catalogue(_map_name(scenario), player))
        name = next((p.get("name", player) for p in scenario.players if p["id"] == player), player.capitalize())
        if settings["mode"] == CAMPAIGN:
            from simulator.games.dragon_rage.campaign import unit_cap
            rec = scenario.setup["campaign"]
            game, available = int(rec["game"]), int(rec["availability"][player])
            return ForceSelection(
                player=player, player_name=name, budget=available, options=options,
                unit_limit=(1, unit_cap(game)), secret=True, rule="DR 4.3.1",
                suggested=_suggested(scenario, player),
                note=f"Campaign game {game} (DR 4.3.1) on {_map_name(scenario).capitalize()}: recruit with your "
                     f"{available} availability points, at most {unit_cap(game)} units; choose in secret.")
        mode = pointbuy.pointbuy_data()["modes"][settings["mode"]]
        budget = mode["budget"][player]
        limits = mode.get("defender_units") if player == "defender" else None
        return ForceSelection(
            player=player, player_name=name, budget=budget["max"], budget_min=budget.get("min", 0),
            options=options,
            unit_limit=(limits.get("min", 0), limits["max"]) if limits else None,
            secret=True, rule=mode["rule"], suggested=_suggested(scenario, player),
            note=f"{'Planned' if settings['mode'] == 'planned' else 'Point-buy'} scenario ({mode['rule']}) "
                 f"on {_map_name(scenario).capitalize()}: choose in secret, the forces are revealed together.")

    def check_forces(self, scenario: Any, player: str, chosen: Mapping[str, int]) -> list[ForceProblem]:
        settings = _settings(scenario)
        if settings is None:
            return []
        chosen = {k: int(v) for k, v in chosen.items() if v}
        if settings["mode"] == CAMPAIGN:
            from simulator.games.dragon_rage.campaign import unit_cap
            rec = scenario.setup["campaign"]
            problems = pointbuy.check_force(_map_name(scenario), player, chosen,
                                            budget=int(rec["availability"][player]), unit_cap=unit_cap(int(rec["game"])))
        else:
            problems = pointbuy.check_force(_map_name(scenario), player, chosen, mode=settings["mode"])
        return [ForceProblem(p.message, p.rule, _option_of(p.message, chosen)) for p in problems]

    def forces_note(self, scenario: Any, player: str, chosen: Mapping[str, int]) -> str:
        """The VP objective as far as this player's own choice sets it (DR 3.3.3)."""
        map_name = _map_name(scenario)
        elowyn = bool(scenario.rules.get("elowyn", False))
        chosen = {k: int(v) for k, v in chosen.items() if v}
        settings = _settings(scenario) or {}
        if player == "invader" and settings.get("mode") == CAMPAIGN:
            game = int(scenario.setup["campaign"]["game"])
            lines = pointbuy.objective_lines(map_name, chosen, {}, elowyn=elowyn, table="campaign", game=game)
            calc = " ".join(f"{l.add:+d} ({l.text})" if i else f"{l.add} ({l.text})" for i, l in enumerate(lines))
            return f"VP objective: {sum(l.add for l in lines)} = {calc} (DR 4.3.2)"
        if player == "defender" and settings.get("mode") == CAMPAIGN:
            return f"{sum(chosen.values())} units (DR 4.3.1)"
        if player == "invader":
            lines = pointbuy.objective_lines(map_name, chosen, {}, elowyn=elowyn)
            calc = " ".join(f"{l.add:+d} ({l.text})" if i else f"{l.add} ({l.text})" for i, l in enumerate(lines))
            return (f"VP objective: {sum(l.add for l in lines)} = {calc}; "
                    "each defender unit above 20 takes 1 off (DR 3.3.3)")
        n = sum(chosen.values())
        above = max(0, n - 20)
        return (f"{n} units: the invader's VP objective goes down by {above} "
                "(1 for each defender unit above 20, DR 3.3.3)")

    def build_scenario(self, scenario: Any, chosen_by_player: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        settings = _settings(scenario)
        if settings is None:
            raise DataError(f"{scenario.name} has no force selection")
        forces = {side: {k: int(v) for k, v in chosen_by_player.get(side, {}).items() if v}
                  for side in pointbuy.SIDES}
        if settings["mode"] == CAMPAIGN:
            from simulator.games.dragon_rage import campaign
            return campaign.chosen_game_scenario(scenario, forces["invader"], forces["defender"])
        data = pointbuy.build_scenario(
            _map_name(scenario), forces["invader"], forces["defender"], mode=settings["mode"],
            elowyn=bool(scenario.rules.get("elowyn", False)), objective=settings["objective"],
            name=f"{scenario.name} (chosen forces)", description=scenario.description,
            turns=scenario.data.get("turns"))
        for key in ("graduated_victory", "literal_extreme_odds", "reinforcements"):
            if key in scenario.rules:
                data["rules"][key] = scenario.rules[key]
        if "first" in scenario.setup:
            data["setup"]["first"] = scenario.setup["first"]
        return data


def _option_of(message: str, chosen: Mapping[str, int]) -> str | None:
    """The unit type a check_force message is about: the chosen type named first in it."""
    best: tuple[int, str] | None = None
    for type_id in chosen:
        m = re.search(rf"(?<![\w']){re.escape(type_id)}(?![\w'])|'{re.escape(type_id)}'", message)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), type_id)
    return best[1] if best else None
