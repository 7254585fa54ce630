"""What the computer players know of Dragon Rage (``Game.ai_profile``; docs/ai.md)."""

from __future__ import annotations

from simulator.core.aiprofile import AIProfile
from simulator.games.dragon_rage.evaluation import heuristic

PROFILE = AIProfile(
    pass_types=("end_phase",),
    rank=60, width=4, samples=3, depth=0, follow=6,
    shape=0.1, heuristic=heuristic,
    # the heuristic rewards every step forward of each of many units: a step is worth less
    # than the usual fidget, or the player would rather pass than close in
    fidget=0.00002,
    # the rules have no turn limit; 16 turns end a benchmark game in a few hundred actions
    bench_scenarios=("dragon_rage/esirien-1-fury", "dragon_rage/nurkott-1-humans", "dragon_rage/esirien-2-horde",
                     "dragon_rage/nurkott-2-raid", "dragon_rage/esirien-3-arym", "dragon_rage/nurkott-3-dragons"),
    bench_turns=16,
)
