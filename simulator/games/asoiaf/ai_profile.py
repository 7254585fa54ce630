"""What the computer players know of A Song of Ice and Fire (``Game.ai_profile``; docs/ai.md)."""

from __future__ import annotations

from simulator.core.aiprofile import AIProfile
from simulator.games.asoiaf.ai_moves import extra_actions
from simulator.games.asoiaf.evaluation import heuristic

PROFILE = AIProfile(
    pass_types=("skip", "ncu_pass"),
    keep_types=("charge", "attack"),
    rank=24, width=4, samples=3, depth=0, follow=6, easy_sample=16,
    shape=0.1, heuristic=heuristic,
    # the Attacker's moves towards the castle walls in A Storm of Swords
    extra_actions=extra_actions,
    # the first four modes tournaments allow: A Storm of Swords (mode 3) is a one-sided siege
    # the rules keep out of tournament play (docs/ai.md has its own figures)
    bench_scenarios=("asoiaf/game-of-thrones", "asoiaf/clash-of-kings", "asoiaf/feast-for-crows",
                     "asoiaf/dance-with-dragons"),
)
