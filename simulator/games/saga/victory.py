"""Victory points and the end of the game (SAGA p.50-57; quick-start objective)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulator.core.game import Outcome
from simulator.games.saga import catalogue as cat
from simulator.games.saga.units import live_units, warlord
from simulator.geometry.segments import points_in_polygon

State = dict[str, Any]


def vp_of(counts: dict[str, int]) -> int:
    """SAGA p.50: 1 per Hearthguard, 1 per 2 Warriors, 1 per 3 Levies (rounded up, totals across
    units), 3 for a Warlord; heroes 4 and mercenaries as data/swords.yaml says (SAGA p.41-46)."""
    total = 0
    for cls, n in counts.items():
        spec = cat.classes()["classes"].get(cls)
        vp = spec["vp"] if spec is not None else cat.swords()["vp"].get(cls)
        if vp is None or n <= 0:
            continue
        total += math.ceil(n / vp["per_figures"]) * vp["points"]
    return total


def kill_vp(state: State, player: str) -> int:
    """VP for the enemy figures ``player`` has killed."""
    if len(state["players"]) > 2:
        return vp_of(state["kills"].get(player, {}))
    foe = [p for p in state["players"] if p != player][0]
    return vp_of(state["losses"][foe])


def figures_on(state: State, player: str, polygon: list[list[float]]) -> dict[str, int]:
    """Figures of ``player`` whose base centre stands on the area (engine decision)."""
    out: dict[str, int] = {}
    for u in live_units(state, player):
        if u.get("baggage"):
            continue
        pts = np.array([[state["figures"][f]["x"], state["figures"][f]["y"]] for f in u["figures"]])
        n = int(points_in_polygon(pts, polygon, eps=0.0).sum())
        if n:
            out[u["cls"]] = out.get(u["cls"], 0) + n
    return out


def end_of_player_turn(state: State, player: str, ctx: Any) -> None:
    """Scenario 3 (SAGA p.53): at the end of each player's turn his opponent scores his own
    figures on each objective piece, piece by piece."""
    if state["victory"] != "sacred_ground":
        return
    for p in state["players"]:
        if p == player:
            continue
        gained = sum(vp_of(figures_on(state, p, t["polygon"])) for t in state["terrain"] if t.get("objective"))
        state["vp"][p] += gained
        ctx.emit("vp", f"{p} scores {gained} VP for figures on the sacred ground (total {state['vp'][p]})",
                 "SAGA p.53", player=p, vp=state["vp"][p])


def warlord_dead(state: State, player: str) -> bool:
    return warlord(state, player) is None


def outcome(state: State, at_limit: bool = False) -> Outcome | None:
    """The result of the game, or None while it goes on. With ``at_limit``, the result the turn
    limit would give if it were reached now (what the computer players weigh in the last turns)."""
    if state["phase"] == "setup":                 # the players are still placing terrain and units
        return None
    kind = state["victory"]
    players = state["players"]
    game_over = at_limit or state["turn"] > state["max_turns"]
    if kind in ("warlords_fury", "quickstart", "challenge"):
        dead = [p for p in players if warlord_dead(state, p)]
        rule = {"warlords_fury": "SAGA p.51", "quickstart": "SAGA QS", "challenge": "SAGA p.54"}[kind]
        if len(dead) == len(players):
            return Outcome(None, "both Warlords are dead: a draw", rule=rule)
        if dead:
            winner = [p for p in players if p not in dead][0]
            return Outcome(winner, f"{dead[0]}'s Warlord is dead", rule=rule)
        if not game_over:
            return None
        if kind == "challenge":
            w = state["wounds"]
            return _best(players, {p: w[p] for p in players}, "Warlord wounds left", rule)
        if kind == "quickstart":
            return _best(players, {p: kill_vp(state, p) for p in players}, "victory points (turn limit)", rule)
        return _best(players, {p: kill_vp(state, p) for p in players}, "victory points", rule)
    if kind == "ford":
        if not game_over:
            return None
        scores = {}
        for p in players:
            poly = state["far_side"].get(p)
            counts = figures_on(state, p, poly) if poly else {}
            w = warlord(state, p)
            if w and poly and points_in_polygon(np.array([[state["figures"][w["figures"][0]]["x"],
                                                                state["figures"][w["figures"][0]]["y"]]]), poly, eps=0.0)[0]:
                counts["warlord"] = 1
            scores[p] = vp_of(counts)
        return _best(players, scores, "VP for figures across the river", "SAGA p.52")
    if kind == "sacred_ground":
        if not game_over:
            return None
        return _best(players, dict(state["vp"]), "VP on the sacred ground", "SAGA p.53")
    if kind == "homeland":
        att = state["attacker"]
        dfd = [p for p in players if p != att][0]
        if warlord_dead(state, att):
            return Outcome(dfd, "the attacking Warlord is dead", rule="SAGA p.55")
        if not game_over:
            return None
        inside = any(u.get("building") for u in live_units(state, dfd))
        if inside:
            return Outcome(dfd, "defenders still hold a building", rule="SAGA p.55")
        return Outcome(att, "no defender is left inside a building", rule="SAGA p.55")
    if kind == "escort":
        esc = [p for p in players if p != state["attacker"]][0]
        need = state.get("baggage_to_exit", 2)      # saves from before the key: the book's two
        if state["exited"][esc] >= need:
            return Outcome(esc, f"{need} baggage have left the table", rule="SAGA p.56" if need == 2 else "SAGA p.58")
        bags = [u for u in state["units"].values() if u.get("baggage") and u["owner"] == esc]
        if bags and all(not u["figures"] and not u.get("exited") for u in bags):
            return Outcome(state["attacker"], "every baggage is destroyed", rule="SAGA p.56")
        if game_over:
            return Outcome(None, "the escort ran out of time: a draw (engine turn limit)", rule="SAGA p.56")
        return None
    if kind == "feast":
        if not game_over:
            return None
        return _best(players, {p: kill_vp(state, p) for p in players}, "VP for enemy figures killed", "SAGA p.57")
    return None


def _best(players: list[str], scores: dict[str, int], what: str, rule: str) -> Outcome:
    top = max(scores.values())
    leaders = [p for p in players if scores[p] == top]
    text = ", ".join(f"{p} {scores[p]}" for p in players)
    if len(leaders) > 1:
        return Outcome(None, f"a draw on {what} ({text})", rule=rule, scores=scores)
    return Outcome(leaders[0], f"{leaders[0]} wins on {what} ({text})", rule=rule, scores=scores)


def strength(state: State, player: str) -> int:
    """What ``player``'s living figures would be worth as victory points if killed (SAGA p.50)."""
    from simulator.games.saga.units import loss_key
    counts: dict[str, int] = {}
    for u in live_units(state, player):
        key = loss_key(u)
        counts[key] = counts.get(key, 0) + len(u["figures"])
    return vp_of(counts)


def evaluate(state: State, player: str) -> float:
    """How good ``state`` looks for ``player`` in [-1, 1] (computer players search with it).

    A finished game is 1 / -1 / 0. Otherwise a weighted sum of three differences between
    ``player`` and the average opponent, each normalised to [-1, 1]: living strength (figures
    valued as victory points, 60 %), victory points scored by kills and by the scenario (30 %), and
    fatigue on the units (10 %, less is better). Kept inside (-0.95, 0.95) so that a won game
    always ranks above any unfinished one.
    """
    out = outcome(state)
    if out is not None:
        return 0.0 if out.winner is None else (1.0 if out.winner == player else -1.0)
    foes = [p for p in state["players"] if p != player]
    if not foes:
        return 0.0

    def diff(mine: float, theirs: list[float]) -> float:
        avg = sum(theirs) / len(theirs)
        total = mine + avg
        return 0.0 if total <= 0 else (mine - avg) / total

    material = diff(strength(state, player), [strength(state, p) for p in foes])
    scored = diff(kill_vp(state, player) + state["vp"].get(player, 0),
                  [kill_vp(state, p) + state["vp"].get(p, 0) for p in foes])

    def tiredness(p: str) -> float:
        units = live_units(state, p)
        return sum(u["fatigue"] for u in units) / max(1, len(units))

    fatigue = -diff(tiredness(player), [tiredness(p) for p in foes])
    value = 0.6 * material + 0.3 * scored + 0.1 * fatigue
    return max(-0.95, min(0.95, value))
