"""What the computer players know of SAGA (``Game.ai_profile``; docs/ai.md)."""

from __future__ import annotations

from simulator.core.aiprofile import AIProfile
from simulator.games.saga.ai_moves import in_fight, replies
from simulator.games.saga.evaluation import heuristic

PROFILE = AIProfile(
    pass_types=("end_orders", "pass", "end_turn"),
    # placing dice and activating prepare the moves that score: preferred to passing
    eager_types=("roll_dice", "place_die", "activate", "ready"),
    rank=30, width=4, samples=4, depth=0, follow=6, easy_sample=20,
    shape=0.1, heuristic=heuristic,
    # a melee is resolved at once when looked at: trade, fatigue, casualties, withdraw
    resolve_types=("melee_trade", "spend_fatigue", "ready", "remove_casualties", "bodyguards", "withdraw"),
    resolve=20, fight_types=("use_ability",), in_fight=in_fight,
    resolve_after=("engage", "shoot"), resolve_samples=3,
    # an activation is worth its best follow-up; one per unit and order, whatever die pays
    expand=("activate",), expand_key=("unit", "order"),
    expand_follow=6, expand_keep=2, expand_most=4, distinct=True,
    replies=replies, reply_weight=0.5, reply_most=3, reply_samples=2, reply_final_weight=1.0,
    bench_scenarios=("saga/quickstart", "saga/s1-warlords-fury", "saga/s2-ford", "saga/clash-of-steel"),
)
