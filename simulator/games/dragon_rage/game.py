"""The Dragon Rage game object: the core's contract (setup, legal actions, apply, outcome)."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, Mapping

from simulator.core.game import Context, Game, Outcome, ScenarioSummary, State
from simulator.core.scenario import Scenario
from simulator.games.dragon_rage.actions import ACTION_TYPES, apply_action
from simulator.games.dragon_rage.legal import legal_actions
from simulator.games.dragon_rage.rules_data import DATA_DIR, rules_data
from simulator.games.dragon_rage.setup import build_state


def _check_rules_file(path: Any) -> None:
    """``simulator check`` of a rules file (``format: dragon_rage-rules/1``): its schema."""
    from simulator.core.data import load_yaml, validate
    validate(load_yaml(path), load_yaml(DATA_DIR / "schemas.yaml").data["rules"])


def _check_campaign_file(path: Any) -> None:
    """``simulator check`` of a campaign (``dragon_rage-campaign/1``): its schema, at most five
    games (DR 4.1), and its first game built from the starting availability (DR 4.3.1)."""
    from simulator.core.scenario import scenario_from_data
    from simulator.core.session import Session
    from simulator.games.dragon_rage.campaign import first_scenario, load_campaign
    Session(DragonRage(), scenario_from_data(first_scenario(load_campaign(path)), str(path)), 0)


def _check_forces_file(path: Any) -> None:
    """``simulator check`` of a force choice (``dragon_rage-forces/1``): its schema, each force
    against the budget and counters (DR 3.3), and the scenario it builds set up."""
    from simulator.core.scenario import scenario_from_data
    from simulator.core.session import Session
    from simulator.games.dragon_rage.pointbuy import load_choice, scenario_from_choice
    Session(DragonRage(), scenario_from_data(scenario_from_choice(load_choice(path)), str(path)), 0)


@lru_cache(maxsize=1)
def _setup_schema() -> Mapping[str, Any]:
    """The scenario schema, read once (every Session.new asks for it)."""
    from simulator.core.data import load_yaml
    return load_yaml(DATA_DIR / "scenario.schema.yaml").data


class DragonRage(Game):
    id = "dragon_rage"
    name = "Dragon Rage"
    rule_prefix = "DR"

    def setup(self, scenario: Scenario, ctx: Context) -> State:
        return build_state(scenario, ctx)

    def legal_actions(self, state: State) -> list[dict[str, Any]]:
        return legal_actions(state)

    def apply(self, state: State, action: dict[str, Any], ctx: Context) -> None:
        apply_action(state, action, ctx)

    def action_specs(self) -> Mapping[str, Any]:
        from simulator.games.dragon_rage.params import SPECS   # labels, parameters, rules (docs/actions.md)
        return SPECS

    def action_types(self) -> Mapping[str, str]:
        return ACTION_TYPES

    def scenario_summary(self, scenario: Scenario) -> ScenarioSummary:
        """DR 2.3: the invader scores the VP hexes it destroys toward the scenario's objective;
        the defender wins when every invader is gone or ten turns pass without a VP hex
        destroyed (or, with walls, without an invader inside them)."""
        graded = " (graded: marginal, normal, great)" if scenario.rules.get("graduated_victory") else ""
        return replace(super().scenario_summary(scenario),
                       victory=f"the invader destroys VP hexes to reach the objective{graded}; the defender wins "
                               "if every invader is gone or ten turns pass with no VP hex destroyed (DR 2.3)")

    def outcome(self, state: State) -> Outcome | None:
        over = state.get("game_over")
        if not over:
            return None
        return Outcome(over["winner"], over["text"], over.get("level", ""), over["rule"],
                       dict(over.get("scores", {})))

    def evaluate(self, state: State, player: str) -> float:
        from simulator.games.dragon_rage.evaluation import evaluate
        return evaluate(state, player)

    def setup_schema(self) -> Mapping[str, Any]:
        return _setup_schema()

    def check_map(self, hexmap: Any) -> None:
        data = rules_data()
        hexmap.check_vocabulary(data.terrain, data.features)
        from simulator.games.dragon_rage.board import check_map
        check_map(hexmap)         # VP values, bridge materials, tower entrances (the rules read them)

    def data_formats(self) -> Mapping[str, Any]:
        return {"dragon_rage-rules/1": _check_rules_file, "dragon_rage-campaign/1": _check_campaign_file,
                "dragon_rage-forces/1": _check_forces_file}

    # --- hook (forces.py: the force-selection screen, DR 3.3) ---
    def forces(self) -> Any:
        from simulator.games.dragon_rage.forces import DragonRageForces
        return DragonRageForces()
    # --- end hook ---

    def next_scenario(self, state: State, scenario: Scenario) -> dict[str, Any] | None:
        """The next game of a campaign (DR 4), see ``campaign.linked_next_scenario``."""
        from simulator.games.dragon_rage.campaign import linked_next_scenario
        return linked_next_scenario(state, scenario)

    def ai_profile(self) -> Any:
        """What the computer players know of this game (``ai_profile.PROFILE``)."""
        from simulator.games.dragon_rage.ai_profile import PROFILE

        return PROFILE

    def presentation(self) -> Any:
        from simulator.games.dragon_rage.presentation import DragonRagePresentation
        return DragonRagePresentation()


