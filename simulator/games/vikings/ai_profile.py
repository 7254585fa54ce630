"""What the computer players know of Vikings (``Game.ai_profile``; docs/ai.md)."""

from __future__ import annotations

from simulator.core.aiprofile import AIProfile
from simulator.games.vikings.evaluation import heuristic

PROFILE = AIProfile(
    pass_types=("end_phase", "skip_advance"),
    keep_types=("attack", "fire", "defensive_fire"),
    rank=40, width=6, samples=6, depth=0, follow=6,
    shape=0.1, heuristic=heuristic,
    normal_fidget=0.00005,
    bench_scenarios=("vikings/sea_fight", "vikings/village_raid"),
)
