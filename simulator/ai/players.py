"""Three computer players: random, easy (one-move look-ahead) and normal (sampled search).

They look ahead on a *determinized* copy of what their side can see
(``Game.determinize(Session.view(side))``), never on the real state, so secret
choices and hidden cards stay secret. Look-ahead rolls its own dice, forked
from the session's, so thinking never consumes the game's dice.

Every choice is a function of the session (scenario, seed, actions so far), the side and the
player's seed: the work a decision does is a fixed budget of look-ahead steps, not a time.
The time cap (``seconds``, counted in CPU time of the thinking thread) is a hard limit: past it
the look-ahead stops at its next step and the decision plays the best found so far. The shipped
budgets stay below it except in the longest SAGA decisions (docs/ai.md gives the measured times).
"""

from __future__ import annotations

import marshal
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from simulator.core.aiprofile import AIProfile
from simulator.core.dice import Dice
from simulator.core.errors import DiceExhausted, IllegalAction
from simulator.core.game import Action, Context, Game, State
from simulator.core.plain import copy_plain
from simulator.core.session import Session


def _clock() -> float:
    """Seconds of CPU used by this thread: the time cap counts the player's own work, so a
    decision is the same on a loaded machine (two benchmark games at once, or the client's
    drawing thread) as on an idle one."""
    return time.thread_time()


class OutOfTime(Exception):
    """The decision's time cap passed during a look-ahead: what that look-ahead was working out
    is dropped whole (a melee half resolved or a reply half played would mislead)."""


class NoLegalAction(Exception):
    """The side to act has no legal action although the game is not over (a rules-engine gap)."""


def _legal(session: Session) -> list[Action]:
    actions = session.legal_actions()
    if not actions:
        raise NoLegalAction(f"{session.active_player()} has no legal action after {len(session.steps)} actions "
                            "but the game is not over")
    return actions


class Player(Protocol):
    name: str
    #: How far the current ``choose`` has got, 0 to 1 (read by the client's progress bar
    #: from another thread; only ever assigned whole floats).
    progress: float

    def choose(self, session: Session, side: str) -> Action:
        """The action this player takes for ``side`` now."""


def _rng(seed: int, session: Session, salt: str) -> random.Random:
    return random.Random(f"{seed}:{salt}:{session.seed}:{len(session.steps)}")


class Simulator:
    """Applies actions to private copies of a state, with look-ahead dice."""

    def __init__(self, session: Session, rng: random.Random) -> None:
        self.game: Game = session.game
        self.scenario = session.scenario
        self._dice = session.dice
        self.rng = rng
        #: Look-ahead steps the game could not carry out on a guessed state (a game whose
        #: ``determinize`` leaves hidden parts unusable); they count as refusals.
        self.failures = 0
        #: Work done: states produced and legal-action lists asked for.
        self.steps = 0
        self.legals = 0
        self._legal_cache: dict[bytes, list[Action]] = {}
        #: The thread CPU time (``_clock``) past which ``step`` and ``legal`` raise ``OutOfTime``.
        self.deadline = math.inf
        self.shape = 0.0
        self._heuristic: Any = None
        #: What the game tells its computer players (``Game.ai_profile``).
        self.profile: AIProfile = self.game.ai_profile()
        #: The profile's ``replies(state, side, most)`` (the opponent's answers a position
        #: invites, each with a ``key``, an ``action``, ``start(state)``, ``final`` and the
        #: ``chance`` the opponent makes it) where it weighs them (``reply_weight``), else None.
        self.replies: Any = self.profile.replies if self.profile.asks_replies else None
        #: The profile's ``in_fight(state)`` (a fight is being resolved) where it names
        #: ``fight_types`` for the resolution to play first, else None.
        self.in_fight: Any = self.profile.in_fight if self.profile.tracks_fights else None

    def step(self, state: State, action: Action) -> State | None:
        """The state after ``action``, or None if the game refuses it (or fails on it);
        ``OutOfTime`` past the deadline."""
        if _clock() > self.deadline:
            raise OutOfTime
        self.steps += 1
        work = copy_plain(state)
        dice: Dice = self._dice.fork(self.rng.randrange(2**31))
        dice.begin_action(0)
        try:
            self.game.apply(work, copy_plain(action), Context(dice, self.scenario))
        except (IllegalAction, DiceExhausted):
            return None
        except Exception:   # look-ahead must never stop the computer from playing a legal move
            self.failures += 1
            return None
        return work

    def legal(self, state: State) -> list[Action]:
        """The legal actions in ``state``; remembered by the state's bytes, because playouts of
        a candidate without dice (activating a unit, say) reach the very same state.
        ``OutOfTime`` past the deadline, unless the list is remembered."""
        key = marshal.dumps(state)
        known = self._legal_cache.get(key)
        if known is not None:
            return known
        if _clock() > self.deadline:
            raise OutOfTime
        self.legals += 1
        try:
            out = [] if self.game.outcome(state) is not None else self.game.legal_actions(state)
        except Exception:
            self.failures += 1
            out = []
        self._legal_cache[key] = out
        return out

    def evaluate(self, state: State, side: str) -> float:
        try:
            value = float(self.game.evaluate(state, side))
        except Exception:
            self.failures += 1
            return -1.0
        if self.shape and self._heuristic is not None and -1.0 < value < 1.0 and self.game.outcome(state) is None:
            try:
                value += self.shape * float(self._heuristic(state, side))
            except Exception:
                self.failures += 1
        return value

    def shaped(self, weight: float) -> "Simulator":
        """Add ``weight`` x the profile's ``heuristic(state, side)`` (a player-side
        shaping term, -1..0, outside the zero-sum value) to every unfinished position."""
        self.shape = weight
        self._heuristic = self.profile.heuristic if weight else None
        return self


def extra_moves(profile: AIProfile, visible: State, side: str) -> list[Action]:
    """The profile's ``extra_actions(state, side)``: candidates the normal player looks at
    besides the legal-action list's sample (each must be legal: it is tried on a guessed state
    first and only a tried one can be chosen); none where the game has no such hook."""
    if profile.extra_actions is None:
        return []
    return list(profile.extra_actions(copy_plain(visible), side))


@dataclass
class RandomPlayer:
    """Picks uniformly among the legal actions."""

    seed: int = 0
    name: str = "random"
    progress: float = 0.0

    def choose(self, session: Session, side: str) -> Action:
        actions = _legal(session)
        self.progress = 1.0
        return _rng(self.seed, session, self.name).choice(actions)


@dataclass
class EasyPlayer:
    """Tries each legal action once (a sample of them when there are many) and keeps
    the one whose result the game's evaluation likes best: one roll of the dice per
    action, no look further ahead. ``sample`` is the most actions tried (a game's profile
    may set fewer, ``AIProfile.easy_sample``, where its moves are slow to try)."""

    seed: int = 0
    sample: int = 40
    name: str = "easy"
    progress: float = 0.0

    def choose(self, session: Session, side: str) -> Action:
        self.progress = 0.0
        rng = _rng(self.seed, session, self.name)
        actions = _legal(session)
        if len(actions) == 1:
            self.progress = 1.0
            return actions[0]
        sim = Simulator(session, rng)
        root = session.game.determinize(session.view(side), side, rng)
        profile = session.game.ai_profile()
        sample = self.sample if profile.easy_sample is None else int(profile.easy_sample)
        candidates = actions if len(actions) <= sample else rng.sample(actions, sample)
        best, best_score = candidates[0], -math.inf
        for i, action in enumerate(candidates):
            self.progress = i / len(candidates)
            after = sim.step(root, action)
            if after is None:
                continue
            score = sim.evaluate(after, side) - profile.fidget_of(action) + rng.random() * 1e-6
            if score > best_score:
                best, best_score = action, score
        self.progress = 1.0
        return best


def ranked_pool(actions: list[Action], rank: int, keep: tuple[str, ...], rng: random.Random) -> list[Action]:
    """The actions the normal player looks at once: all of them, or a sample of ``rank``. A game's
    profile may name action types to ``keep`` (``AIProfile.keep_types``): those are always looked
    at and the sample fills the rest of the ``rank`` places (a profile without it samples exactly as
    before)."""
    if len(actions) <= rank:
        return actions
    if not keep:
        return rng.sample(actions, rank)
    kept = [a for a in actions if a.get("type") in keep]
    rest = [a for a in actions if a.get("type") not in keep]
    return kept + rng.sample(rest, max(0, min(len(rest), rank - len(kept))))


@dataclass
class NormalPlayer:
    """Sampled search with the game's evaluation, in three rounds:

    1. every legal action (a sample of ``rank`` of them when there are more) is tried once
       and scored by the evaluation;
    2. the best ``width`` get ``samples`` playouts each: the action with fresh dice on a fresh
       guess of the hidden information, then up to ``depth`` further actions of the same side
       (its turn continues), each the best of ``follow`` sampled legal actions after one look
       (a greedy roll-out), and the evaluation of where that ends;
    3. the better half get ``samples`` more playouts; the best mean wins.

    Averaging over dice is what the easy player lacks: it takes the move whose single trial
    roll happened to be lucky. ``seconds`` caps the decision's CPU time: past it the look-ahead
    stops at its next step or legal-action list (``OutOfTime``), drops what it was working out,
    and the best candidate so far plays.
    """

    seed: int = 0
    rank: int | None = None
    width: int | None = None
    samples: int | None = None
    depth: int | None = None
    follow: int | None = None
    resolve: int | None = None
    #: The cap, under the 2 s a decision may take: one legal-action list can still run past it,
    #: and the slowest measured (a SAGA charge planned round the ford's river) took about 0.2 s.
    seconds: float = 1.6
    name: str = "normal"
    stats: dict[str, Any] = field(default_factory=dict)
    progress: float = 0.0
    _answers: dict[Any, float] = field(default_factory=dict, repr=False)

    def _budget(self, profile: AIProfile) -> dict[str, int]:
        out = profile.budget({"rank": 40, "width": 5, "samples": 4, "depth": 1, "follow": 6, "resolve": 0})
        for key in out:
            if getattr(self, key) is not None:
                out[key] = int(getattr(self, key))
        return out

    def choose(self, session: Session, side: str) -> Action:
        self.progress = 0.0
        start = _clock()
        self._answers = {}
        rng = _rng(self.seed, session, self.name)
        actions = _legal(session)
        if len(actions) == 1:
            self.progress = 1.0
            self.stats = {"candidates": 1, "steps": 0, "legals": 0, "seconds": 0.0}
            return actions[0]
        game = session.game
        profile = game.ai_profile()
        b = self._budget(profile)
        sim = Simulator(session, rng).shaped(float(profile.shape))
        deadline = sim.deadline = start + self.seconds
        visible = session.view(side)

        def guess() -> State:
            return game.determinize(copy_plain(visible), side, sim.rng)

        # 1. one look at every action (or a sample)
        pool = ranked_pool(actions, b["rank"], profile.keep_types, rng)
        if profile.extra_actions is not None:
            pool = pool + [a for a in extra_moves(profile, visible, side) if a not in pool]
        expand = profile.expand
        expand_key = profile.expand_key
        follow_ups: dict[int, list[Action]] = {}
        root = guess()
        scored: list[tuple[float, int]] = []
        openers: list[tuple[float, int, State]] = []
        repeat = int(profile.resolve_samples)
        for i, action in enumerate(pool):
            try:
                looked = self._look(sim, root, action, side, b, repeat)
            except OutOfTime:
                break
            if looked is not None:
                after = looked[1]
                value = looked[0] - profile.fidget_of(action, "normal") + rng.random() * 1e-6
                scored.append((value, i))
                if action.get("type") in expand and game.active_player(after) == side:
                    openers.append((value, i, after))
        if openers:
            # an ``expand`` action (a SAGA activation) is worth its best follow-up. Candidates alike
            # in the profile's ``expand_key`` fields (a unit and order, whatever die pays) open the
            # same follow-ups: expanded once, the gain shared; at most ``expand_most`` keys, the
            # best-looking first (the others keep their own score)
            most = int(len(openers) if profile.expand_most is None else profile.expand_most)
            gains: dict[Any, tuple[float, list[Action]]] = {}
            plus: dict[int, float] = {}
            for value, i, after in sorted(openers, key=lambda o: -o[0]):
                key = tuple(str(pool[i].get(k)) for k in expand_key) if expand_key else i
                if key not in gains:
                    if len(gains) >= most or _clock() > deadline:
                        continue
                    try:
                        here = self._value(sim, after, side, b)
                        best_value, best_follow = self._expand(sim, after, side, b)
                    except OutOfTime:
                        continue
                    gains[key] = (best_value - here, best_follow)
                plus[i], follow_ups[i] = gains[key]
            scored = [(value + plus.get(i, 0.0), i) for value, i in scored]
        if not scored:
            self.progress = 1.0
            self.stats = {"candidates": len(pool), "stopped": _clock() > deadline}
            return pool[0]
        scored.sort(reverse=True)
        self.progress = 0.3
        if profile.distinct:
            survivors = self._distinct(pool, [i for _, i in scored], expand, expand_key, max(1, b["width"]))
        else:
            survivors = [i for _, i in scored[: max(1, b["width"])]]
        if len(survivors) == 1 or b["samples"] <= 0:
            self.progress = 1.0
            self.stats = {"candidates": len(pool), "stopped": _clock() > deadline}
            return pool[survivors[0]]
        # a candidate's playout total by follow-up (one for a candidate without follow-ups): the
        # follow-up is chosen before its dice are rolled, so the candidate is worth its best
        # follow-up's mean, not the mean of the best after each roll (which counts a charge that
        # wins one roll in three as if the player knew beforehand which roll it was)
        totals = {i: [0.0] * max(1, len(follow_ups.get(i) or ())) for i in survivors}
        visits = {i: 0 for i in survivors}

        def mean(i: int) -> float:
            return max(totals[i]) / visits[i] if visits[i] else -math.inf

        # 2 and 3. playouts for the best, then for the better half of them
        # Common random numbers: the j-th playout of every candidate guesses the hidden
        # information and rolls its dice from the same stream, so candidates are compared
        # on the same luck.
        base = rng.randrange(2**62)
        rounds = [survivors]
        for r in range(2):
            current = rounds[-1]
            for i in current:
                for j in range(b["samples"]):
                    if _clock() > deadline:
                        break
                    sim.rng = random.Random(f"{base}:{r}:{j}")
                    try:
                        values = self._playout(sim, guess(), pool[i], side, b, follow_ups.get(i))
                    except OutOfTime:
                        break
                    for k, value in enumerate(values):
                        totals[i][k] += value - profile.fidget_of(pool[i], "normal")
                    visits[i] += 1
            ranked = sorted(current, key=mean, reverse=True)
            rounds.append(ranked[: max(1, (len(ranked) + 1) // 2)])
            self.progress = 0.3 + 0.35 * (r + 1)
        final = rounds[-2]
        best = max(final, key=lambda i: (mean(i), -i))
        self.stats = {"candidates": len(pool), "steps": sim.steps, "legals": sim.legals,
                      "seconds": _clock() - start, "failures": sim.failures,
                      "stopped": _clock() > deadline}
        self.progress = 1.0
        return pool[best]

    def _resolve(self, sim: Simulator, current: State, b: dict[str, int]) -> State:
        """Resolve what an action started (a SAGA melee: trade, ready, casualties, withdraw),
        whoever's turn it is, by a cheap fixed policy: the first legal action of the profile's
        ``resolve_types``, in their order, for at most ``resolve`` actions. Without this an
        attack is worth nothing until its dice are rolled, several actions later, and the
        player never attacks."""
        profile = sim.profile
        kinds = profile.resolve_types
        fighting = profile.fight_types + kinds
        for _ in range(b["resolve"] if kinds else 0):
            legal = sim.legal(current)
            chosen = None
            # while a fight is resolved, the profile's ``fight_types`` first (SAGA: the abilities
            # the battle boards hold dice for; whoever has them uses them)
            for kind in fighting if sim.in_fight is not None and sim.in_fight(current) else kinds:
                chosen = next((a for a in legal if a.get("type") == kind), None)
                if chosen is not None:
                    break
            if chosen is None:
                break
            after = sim.step(current, chosen)
            if after is None:
                break
            current = after
        return current

    def _look(self, sim: Simulator, state: State, action: Action, side: str, b: dict[str, int],
              repeat: int = 1) -> tuple[float, State] | None:
        """The evaluation after ``action`` and the state it reaches, or None if the game refuses it.
        An action of the profile's ``resolve_after`` types (a SAGA charge or shot) is resolved
        (``_resolve``) and, with ``repeat`` above 1 (the profile's opt-in ``resolve_samples``),
        scored by the mean of that many resolutions with fresh dice: one roll made a charge that
        kills the enemy Warlord one time in three look like a sure win or a sure loss."""
        fight = action.get("type") in sim.profile.resolve_after
        n = max(1, repeat) if fight else 1
        total = 0.0
        after: State | None = None
        for _ in range(n):
            after = sim.step(state, action)
            if after is None:
                return None
            if fight:
                after = self._resolve(sim, after, b)
            total += self._value(sim, after, side, b)
        assert after is not None
        return total / n, after

    def _value(self, sim: Simulator, state: State, side: str, b: dict[str, int]) -> float:
        """The evaluation of a position the look-ahead ends in, less what the opponent's best
        answer to it costs (the profile's opt-in ``reply_weight``): each answer the game's
        ``ai_moves.replies`` names (a SAGA charge at the start of the enemy's next turn) is played
        and resolved (``_resolve``, the mean of ``reply_samples`` rolls, or ``resolve_samples``),
        at most ``reply_most`` of them, and the worst change of the evaluation counts, if it is a
        loss, ``reply_weight`` times the answer's ``chance`` (how likely the game deems the opponent
        to make it), or ``reply_final_weight`` times for an answer in the game's last player-turn
        (``final``: nothing can answer it back). Every candidate's end position
        pays it, so a move is compared with passing on the same footing. Answers are remembered
        by their ``key`` for the rest of the decision: moving one unit leaves the charges on the
        others as they were. Without it the player
        moved a unit twice into an enemy's reach, because the search never saw the enemy's turn."""
        value = sim.evaluate(state, side)
        if sim.replies is None or not -1.0 < value < 1.0 or sim.game.outcome(state) is not None:
            return value
        profile = sim.profile
        weight = float(profile.reply_weight)
        # an answer in the game's last player-turn is one nothing can answer back
        final_weight = weight if profile.reply_final_weight is None else float(profile.reply_final_weight)
        repeat = max(1, int(profile.resolve_samples if profile.reply_samples is None else profile.reply_samples))
        worst = 0.0
        for answer in sim.replies(state, side, int(profile.reply_most)):
            delta = self._answers.get(answer.key)
            if delta is None:
                start = answer.start(state)
                here = sim.evaluate(start, side)
                total, n = 0.0, 0
                # the answer's own dice, from its key: where it is first met does not shift the
                # dice of the candidates compared on the same luck (the playouts' common numbers)
                looking, sim.rng = sim.rng, random.Random(marshal.dumps((self.seed, answer.key)))
                try:
                    for _ in range(repeat):
                        after = sim.step(start, answer.action)
                        if after is None:
                            break
                        total += sim.evaluate(self._resolve(sim, after, b), side) - here
                        n += 1
                finally:
                    sim.rng = looking
                delta = self._answers[answer.key] = total / n if n else 0.0
            worst = min(worst, (final_weight if answer.final else weight * answer.chance) * delta)
        return value + worst

    @staticmethod
    def _distinct(pool: list[Action], ranked: list[int], expand: tuple[str, ...], expand_key: tuple[str, ...],
                  width: int) -> list[int]:
        """The best ``width`` of ``ranked`` (pool indices, best first), one for each ``expand_key``
        (a profile's opt-in ``distinct``): a SAGA unit activated from two dice boxes is one move,
        and two of them in the playouts left out the third-best real choice."""
        seen: set[Any] = set()
        out: list[int] = []
        for i in ranked:
            action = pool[i]
            key = tuple(str(action.get(k)) for k in expand_key) if action.get("type") in expand else ("#", i)
            if key in seen:
                continue
            seen.add(key)
            out.append(i)
            if len(out) >= width:
                break
        return out

    def _expand(self, sim: Simulator, state: State, side: str, b: dict[str, int]) -> tuple[float, list[Action]]:
        """Score a state whose next action is still ``side``'s by its best follow-up (a profile's
        ``expand`` types: a SAGA activation, worth what the move or shot it opens is worth):
        every legal follow-up (a sample of ``expand_follow``, attacks always) is tried, melees and
        shots resolved (the profile's ``resolve_after``, the mean of ``resolve_samples`` rolls),
        and the best ``expand_keep`` come back, best first, for the playouts to weigh with fresh
        dice (``_playout``). Without legal follow-ups the state itself counts."""
        profile = sim.profile
        resolve_after = profile.resolve_after
        legal = sim.legal(state)
        plain = set(profile.expand) | set(profile.pass_types)
        if all(option.get("type") in plain for option in legal):
            return self._value(sim, state, side, b), []      # a new decision of the same kind, not a follow-up
        limit = int(profile.expand_follow)
        if limit and len(legal) > limit:
            # the follow-ups that resolve (attacks) always, a sample of the others
            fights = [o for o in legal if o.get("type") in resolve_after]
            others = [o for o in legal if o.get("type") not in resolve_after]
            legal = fights + sim.rng.sample(others, max(0, min(len(others), limit - len(fights))))
        scored: list[tuple[float, int]] = []
        repeat = int(profile.resolve_samples)
        for k, option in enumerate(legal):
            looked = self._look(sim, state, option, side, b, repeat)
            if looked is None:
                continue
            scored.append((looked[0] - profile.fidget_of(option, "normal"), k))
        if not scored:
            return self._value(sim, state, side, b), []
        scored.sort(key=lambda sk: (-sk[0], sk[1]))
        return scored[0][0], [legal[k] for _, k in scored[: int(profile.expand_keep)]]

    def _playout(self, sim: Simulator, state: State, action: Action, side: str, b: dict[str, int],
                 follow_ups: list[Action] | None = None) -> list[float]:
        """One playout of ``action``: its value, or for an expanded action (``_expand``) the
        value of each of its ``follow_ups`` (the best found in the first round) after this
        playout's dice, in their order (a follow-up the game refuses is worth the state itself)."""
        current = sim.step(state, action)
        if current is None:
            return [-1.0] * max(1, len(follow_ups or ()))
        game = sim.game
        if follow_ups:
            looked = [self._look(sim, current, option, side, b) for option in follow_ups]
            here = self._value(sim, current, side, b) if any(seen is None for seen in looked) else 0.0
            return [here if seen is None else seen[0] - sim.profile.fidget_of(option, "normal")
                    for seen, option in zip(looked, follow_ups)]
        for _ in range(b["depth"]):
            if game.active_player(current) != side:
                break
            legal = sim.legal(current)
            if not legal:
                break
            options = legal if len(legal) <= b["follow"] else sim.rng.sample(legal, b["follow"])
            best, best_score = None, -math.inf
            for option in options:
                after = sim.step(current, option)
                if after is None:
                    continue
                score = sim.evaluate(after, side) - sim.profile.fidget_of(option, "normal")
                if score > best_score:
                    best, best_score = after, score
            if best is None:
                break
            current = best
        current = self._resolve(sim, current, b)
        return [self._value(sim, current, side, b)]


def make_player(level: str, seed: int = 0) -> Player:
    """``"random"``, ``"easy"`` or ``"normal"``."""
    players = {"random": RandomPlayer, "easy": EasyPlayer, "normal": NormalPlayer}
    if level not in players:
        raise ValueError(f"unknown computer level {level!r} (expected one of: {', '.join(players)})")
    return players[level](seed=seed)
