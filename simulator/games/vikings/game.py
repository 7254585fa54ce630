"""The Vikings rules engine: the :class:`Game` the session talks to."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context, Game, Outcome, ScenarioSummary, State
from simulator.core.scenario import Scenario
from simulator.games.vikings import evaluation, fire, horses, melee, movement, naval, phases, shipwork, tide, treasure
from simulator.games.vikings import animals, markers
from simulator.games.vikings.board import Board, check_vikings_map
from simulator.games.vikings.catalogue import characters_from, load_checked
from simulator.games.vikings.pieces import active, alive, ctype, hexes_of, living_at
from simulator.games.vikings.setup import RULES_SCHEMA, SETUP_SCHEMA, initial_state

ACTIONS: dict[str, str] = {
    "end_phase": "close the current step for the side acting in it",
    "assign_duty": "give a character aboard a crew duty (naval phase, duties step)",
    "set_speed": "choose a ship's speed marker in secret (naval phase, speed step)",
    "choose_pusher": "name one of the characters who push a beached boat off, when more stand ready than it needs",
    "ship_move": "move the ship whose turn it is: straight, lateral_left/right, turn_left/right",
    "ship_hold": "the ship to move has no legal move and stops",
    "throw_grapple": "a grapple handler throws his grapple at an enemy hull hex (between sequences)",
    "cut_rope": "a boarding-party character tries to cut a grapple's rope (between sequences)",
    "haul": "haul an enemy boat in on your manned grapples (end of the naval phase)",
    "fire": "offensive fire: an archer of the phasing side shoots (at an enemy character, riderless horse, goat "
            "or pig)",
    "defensive_fire": "the other side's archer shoots at a character that has started moving",
    "move": "move a character one hex (a rider: its front half)",
    "half_turn": "a rider turns about on the spot (3 MP)",
    "take_reins": "a character next to a riderless horse (or goat or pig) takes its reins; it follows him",
    "release_reins": "let go of a led horse (or goat or pig)",
    "take_treasure": "take up the treasure one stopped on in the previous movement (MP drop to 2)",
    "drop_treasure": "lay the carried treasure down in one's hex",
    "give_treasure": "hand the carried treasure to a friend on foot in one's hex or next to it (1 MP)",
    "carry_off": "a treasure carrier on one of his side's exit hexes leaves the map with it (1 MP)",
    "help_aboard": "a friend who has not moved helps a character short of MP onto a boat hex",
    "carry_grapple": "take up the grapple lying in one's deck hex (MP drop to 2)",
    "drop_grapple": "lay a carried grapple down in one's deck hex",
    "mount": "a rider mounts an adjacent riderless horse",
    "dismount": "a rider dismounts into an adjacent empty hex",
    "pick_up": "pick up a stunned character in one's hex",
    "put_down": "lay the carried character in an adjacent hex",
    "clear_bodies": "two characters drag bodies out of a hex",
    "axe": "take up (on: true) or put down the two-handed axe",
    "shield_wall": "huscarls form a shield wall facing a direction",
    "break_wall": "the shield wall breaks formation",
    "attack": "melee: attackers against defenders",
    "advance": "advance after combat into the hex the enemy left",
    "skip_advance": "decline the advance after combat",
}


def board_of(state: State) -> Board:
    """The board of the state's layout as it lies this turn (the sandbar may be dry, rule 5.5.5)."""
    return tide.board_for(state)


class Vikings(Game):
    id = "vikings"
    name = "Vikings (Cry Havoc series)"
    rule_prefix = "VK"

    # -- set-up ---------------------------------------------------------------------
    def setup(self, scenario: Scenario, ctx: Context) -> State:
        state, board = initial_state(scenario)
        ctx.emit("setup", f"{scenario.name}: {state['order'][0]} play phase A"
                 + (f"; the game starts in turn {state['turn']}, {phases.PHASE_NAMES[state['phase_index']]}"
                    if (state["turn"], state["phase_index"]) != (1, 0) else ""), "VK 2.1")
        if tide.stage(state):
            ctx.emit("tide", f"low tide: the sandbar is dry until the end of turn {state['tide']['dry_turns']}",
                     tide.RULE, hexes=list(tide.sandbar(state)))
            tide.strand_ships(board, state, ctx)
        phases.start_phase(board, state, ctx)
        return state

    def setup_schema(self) -> Mapping[str, Any]:
        return {"setup": SETUP_SCHEMA, "rules": RULES_SCHEMA}

    def check_map(self, hexmap: Any) -> None:
        check_vikings_map(hexmap)

    def data_formats(self) -> Mapping[str, Callable[..., Any]]:
        return {"vikings-characters/1": lambda path: characters_from(load_checked("characters", path))}

    def action_types(self) -> Mapping[str, str]:
        return ACTIONS

    def action_specs(self) -> Mapping[str, Any]:
        from simulator.games.vikings.params import SPECS   # labels, parameters, rules (docs/actions.md)
        return SPECS

    def ai_profile(self) -> Any:
        """What the computer players know of this game (``ai_profile.PROFILE``)."""
        from simulator.games.vikings.ai_profile import PROFILE

        return PROFILE

    def presentation(self) -> Any:
        from simulator.games.vikings.presentation import VikingsPresentation
        return VikingsPresentation(self)

    # -- queries --------------------------------------------------------------------
    def active_player(self, state: State) -> str | None:
        if state.get("over"):
            return None
        if state.get("advance"):
            return state["advance"]["side"]
        return state["active"]

    def visible_state(self, state: State, player: str | None) -> State:
        for ship in state["ships"].values():
            if ship.get("pending") is not None and ship["side"] != player:
                ship["pending"] = evaluation.HIDDEN
        treasure.hide(state)
        return state

    def scenario_summary(self, scenario: Scenario) -> ScenarioSummary:
        """VK 2.1 as :meth:`outcome` reads it; 12 turns when the scenario names none (setup)."""
        turns = scenario.data.get("turns", 12)
        return ScenarioSummary(super().scenario_summary(scenario).sides, f"{turns} turns",
                               "the side left alone standing wins at once; else after the last turn the more "
                               "casualty points (2 per enemy dead, 1 per wounded, 3 per ship sunk) (VK 2.1)")

    def outcome(self, state: State) -> Outcome | None:
        scores = self.scores(state)
        a, b = state["order"]
        standing = {s: any(active(c) for c in state["chars"].values() if c["side"] == s) for s in (a, b)}
        if not state.get("over") and all(standing.values()):
            return None
        gone = {s: any(c.get("off_map") for c in state["chars"].values() if c["side"] == s) for s in (a, b)}
        if (not standing[a] and not gone[a]) or (not standing[b] and not gone[b]):
            winner = a if standing[a] else b if standing[b] else None
            return Outcome(winner, f"{winner or 'nobody'} holds the field: the other side has nobody left standing",
                           rule="VK 2.1", scores=scores)
        if scores[a] == scores[b]:
            return Outcome(None, f"draw after {state['turns']} turns ({scores[a]} points each)", rule="VK 2.1",
                           scores=scores)
        winner = a if scores[a] > scores[b] else b
        return Outcome(winner, f"{winner} win on casualties after {state['turns']} turns "
                       f"({scores[a]} to {scores[b]})", rule="VK 2.1", scores=scores)

    def evaluate(self, state: State, player: str) -> float:
        return evaluation.evaluate(state, player, self.outcome(state), self.scores(state))

    def determinize(self, visible: State, player: str, rng: Any) -> State:
        return evaluation.determinize(visible, player, rng)

    def scores(self, state: State) -> dict[str, int]:
        """Casualty points scored against the enemy: 2 per dead, 1 per wounded, 3 per sunk ship (our rule,
        the scenario book's victory conditions are not in the rules)."""
        pts = state.get("victory", {}).get("kill_points", {})
        out = {s: 0 for s in state["order"]}
        for ch in state["chars"].values():
            enemy = phases.other(state, ch["side"])
            if ch["status"] == "dead":
                out[enemy] += pts.get("dead", 2)
            elif ch["status"] == "wounded":
                out[enemy] += pts.get("wounded", 1)
        for ship in state["ships"].values():
            if ship.get("sunk") or ship.get("wrecked"):
                out[phases.other(state, ship["side"])] += pts.get("ship", 3)
        per_treasure = state.get("victory", {}).get("treasure_points", 0)
        for side, n in treasure.holders(state).items():
            out[side] += n * per_treasure
        return out

    # -- legal actions --------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        if state.get("over"):
            return []
        board = board_of(state)
        if state.get("advance"):
            opts: list[Action] = [{"type": "advance", "piece": c, "path": p}
                                  for c, p in melee.advance_options(board, state)]
            if not melee.must_advance(board, state):
                opts.append({"type": "skip_advance"})
            return opts
        if state["phase_index"] in (0, 2):
            return self._naval_actions(board, state)
        return self._player_actions(board, state)

    def _naval_actions(self, board: Board, state: State) -> list[Action]:
        nav = state["naval"]
        side = state["active"]
        out: list[Action] = []
        if nav["step"] == "duties":
            for ch in sorted(state["chars"].values(), key=lambda c: c["id"]):
                if ch["side"] == side and ch.get("ship") and alive(ch):
                    for duty in naval.DUTIES:
                        if duty != ch.get("duty") and naval.duty_problem(state, ch, duty) is None:
                            out.append({"type": "assign_duty", "piece": ch["id"], "duty": duty})
        elif nav["step"] == "speed":
            for sid, ship in sorted(state["ships"].items()):
                if ship["side"] == side and naval.afloat(ship):
                    for v in naval.speed_options(board, state, sid):
                        if ship.get("pending") == v:
                            continue                  # already chosen: setting it again changes nothing
                        if ship.get("beached") and v != 0 and naval.fleet.pushers(board, state, sid) < \
                                naval.ship_types()[ship["type"]]["pushers"]:
                            continue
                        out.append({"type": "set_speed", "ship": sid, "speed": v})
        elif nav["step"] == "pushers":
            return [{"type": "choose_pusher", "ship": sid, "piece": cid}
                    for sid, cid in naval.pusher_options(board, state)]
        elif nav["step"] == "movement":
            sid = nav["queue"][0]
            moves = naval.move_options(board, state, sid)
            out += [{"type": "ship_move", "ship": sid, "move": m} for m in moves]
            if not moves:
                out.append({"type": "ship_hold", "ship": sid})
            return out
        elif nav["step"] == "window":
            out += [{"type": "throw_grapple", "piece": c, "target": h} for c, h in naval.throw_options(board, state, side)]
            out += [{"type": "cut_rope", "piece": c, "grapple": g} for c, g in naval.cut_options(board, state, side)]
        elif nav["step"] == "haul":
            out += [{"type": "haul", "target": t} for t in naval.haul_options(board, state, side)]
        out.append({"type": "end_phase"})
        return out

    def _player_actions(self, board: Board, state: State) -> list[Action]:
        side = state["phasing"]
        out: list[Action] = []
        step = state["step"]
        chars = sorted(state["chars"].values(), key=lambda c: c["id"])
        if step == "fire":
            out += self._fire_actions(board, state, [c for c in chars if c["side"] == side], "fire", None)
            out += self._wall_actions(board, state, side)
        elif step == "move":
            occ = living_at(state)
            crowded = set(movement.stacking_problems(state))
            for ch in chars:
                if ch["side"] != side:
                    continue
                if movement.capped(ch):
                    continue
                unstack = bool(crowded & set(hexes_of(ch)))
                lift = not ch.get("carrying") and not ch.get("mounted")
                for to in sorted(movement.step_options(board, state, ch)):
                    # passing through friends is legal, but only moves into free hexes are offered
                    # (unless the character must get out of a crowded hex, or goes to lift a stunned one)
                    if unstack or not occ.get(to) or (lift and all(
                            state["chars"].get(i, {}).get("status") == "stunned" for i in occ[to])):
                        out.append({"type": "move", "piece": ch["id"], "to": to})
                for horse in sorted(state["horses"].values(), key=lambda h: h["id"]):
                    if ch["side"] == side and horses.reins_problem(board, state, ch, horse) is None:
                        out.append({"type": "take_reins", "piece": ch["id"], "horse": horse["id"]})
                for beast in animals.living(state):
                    if animals.reins_problem(board, state, ch, beast) is None:
                        out.append({"type": "take_reins", "piece": ch["id"], "horse": beast["id"]})
                for tr in treasure.lying(state):
                    if tr["hex"] == ch["hex"] and treasure.take_problem(board, state, ch, tr) is None:
                        out.append({"type": "take_treasure", "piece": ch["id"], "treasure": tr["id"]})
                if treasure.carried_by(state, ch["id"]):
                    if ch.get("ship"):
                        out.append({"type": "drop_treasure", "piece": ch["id"]})
                    if treasure.carry_off_problem(state, ch) is None:
                        out.append({"type": "carry_off", "piece": ch["id"]})
                    for friend in chars:
                        if friend["side"] == side and friend["id"] != ch["id"] and alive(friend) and \
                                treasure.give_problem(board, state, ch, friend) is None:
                            out.append({"type": "give_treasure", "piece": ch["id"], "target": friend["id"]})
                if ch["side"] == side and movement.can_act(state, ch) and ch.get("ship"):
                    if shipwork.carried(state, ch):
                        out.append({"type": "drop_grapple", "piece": ch["id"]})
                    elif shipwork.pick_up_problem(state, ch) is None:
                        out.append({"type": "carry_grapple", "piece": ch["id"]})
                if ch.get("carrying"):
                    out += [{"type": "put_down", "piece": ch["id"], "to": h}
                            for h in movement.put_down_hexes(board, state, ch)]
                for other in chars:
                    if other["status"] == "stunned" and other.get("hex") == ch["hex"] and \
                            movement.pick_up_problem(board, state, ch, other) is None:
                        out.append({"type": "pick_up", "piece": ch["id"], "target": other["id"]})
            out += [{"type": "help_aboard", "piece": h, "target": t, "to": to}
                    for h, t, to in movement.help_options(board, state)]
            movers = [c for c in chars if c["side"] == side and c.get("steps", 0) > 0 and alive(c)]
            if movers:
                out += self._fire_actions(board, state, [c for c in chars if c["side"] != side], "defensive_fire",
                                          movers)
            crowded_now = movement.stacking_problems(state)
            if crowded_now and crowded_now != movement.stuck_stacks(board, state):
                return out      # someone can still clear a crowded hex (offered above): no end yet
        elif step == "stationary_fire":
            out += [{"type": "defensive_fire", "piece": a, "target": t} for a, t in phases.stationary_targets(board, state)]
        elif step == "combat":
            for atts, dfds in melee.attack_options(board, state):
                out.append({"type": "attack", "attackers": atts, "defenders": dfds})
            for att, beast in animals.attack_options(board, state) + horses.attack_options(board, state):
                out.append({"type": "attack", "attackers": [att], "defenders": [beast]})
            if not any(c.get("attacked") for c in chars) and state["combat"]["round"] == 1:
                for ch in chars:
                    if ch["side"] == side and self._axe_ok(ch) and not ch.get("axe") and \
                            markers.shortage(state, "axe") is None:
                        if any(melee.touching(board, ch, e) for e in chars if e["side"] != side and alive(e)):
                            out.append({"type": "axe", "piece": ch["id"], "on": True})
            if melee.berserkers_owing(board, state):
                return out
        out.append({"type": "end_phase"})
        return out

    def _fire_actions(self, board: Board, state: State, shooters: list[dict[str, Any]], kind: str,
                      targets: list[dict[str, Any]] | None) -> list[Action]:
        out: list[Action] = []
        for s in shooters:
            if fire.can_shoot(board, state, s) is not None:
                continue
            pool = targets if targets is not None else [c for c in state["chars"].values()
                                                        if c["side"] != s["side"] and alive(c)]
            for t in sorted(pool, key=lambda c: c["id"]):
                if t["side"] == s["side"]:
                    continue
                src, dst = hexes_of(s)[-1], hexes_of(t)[-1]
                if board.distance(src, dst) > 50:
                    continue
                if fire.line_of_fire(board, state, src, dst, s, t).clear:
                    out.append({"type": kind, "piece": s["id"], "target": t["id"]})
            beasts = animals.living(state) if kind == "fire" else animals.moving(state, state["phasing"])
            for beast in beasts:
                src, dst = hexes_of(s)[-1], beast["hex"]
                if beast["side"] != s["side"] and board.distance(src, dst) <= 50 and \
                        fire.line_of_fire(board, state, src, dst, s, animals.as_target(beast)).clear:
                    out.append({"type": kind, "piece": s["id"], "target": beast["id"]})
            for horse in horses.living(state) if kind == "fire" else horses.moving(state, state["phasing"]):
                src, dst = hexes_of(s)[-1], horse["front"]
                if horse["side"] != s["side"] and board.distance(src, dst) <= 50 and \
                        fire.line_of_fire(board, state, src, dst, s, horses.as_target(horse)).clear:
                    out.append({"type": kind, "piece": s["id"], "target": horse["id"]})
        return out

    def _wall_actions(self, board: Board, state: State, side: str) -> list[Action]:
        out: list[Action] = []
        if any(c.get("wall") for c in state["chars"].values() if c["side"] == side):
            out.append({"type": "break_wall"})
        return out

    @staticmethod
    def _axe_ok(ch: dict[str, Any]) -> bool:
        return ctype(ch).axe and active(ch) and ch["status"] == "ok" and not ch.get("mounted")

    # -- apply ----------------------------------------------------------------------
    def apply(self, state: State, action: Action, ctx: Context) -> None:
        if state.get("over"):
            raise IllegalAction("the game is over", "VK 2.1")
        board = board_of(state)
        kind = action["type"]
        if state.get("advance") and kind not in ("advance", "skip_advance"):
            if melee.must_advance(board, state):
                raise IllegalAction("a victorious berserker must advance next to an enemy first", "VK 3.1")
            state["advance"] = None
        handler = getattr(self, f"_do_{kind}", None)
        if handler is None:
            raise IllegalAction(f"unknown action type {kind!r} (see docs/actions.md)", "VK 2.2")
        handler(board, state, action, ctx)
        horses.tidy(board, state, ctx)
        animals.tidy(board, state, ctx)
        shipwork.tidy(state, ctx)
        treasure.tidy(board, state, ctx)

    # helpers
    @staticmethod
    def _char(state: State, action: Action, key: str = "piece") -> dict[str, Any]:
        cid = action.get(key)
        if not isinstance(cid, str) or cid not in state["chars"]:
            raise IllegalAction(f"no character {cid!r} ({key})", "VK 1.31")
        return state["chars"][cid]

    @staticmethod
    def _text(action: Action, key: str, what: str, rule: str) -> str:
        """The parameter ``key`` as an id (text); anything else is refused naming it, so no rule below
        ever meets a list or a mapping where it looks an id up."""
        value = action.get(key)
        if not isinstance(value, str):
            got = "nothing" if value is None else f"a {type(value).__name__}"
            raise IllegalAction(f"{action['type']}.{key}: give {what} (text), not {got}", rule)
        return value

    @staticmethod
    def _ids(action: Action, key: str, rule: str) -> list[str]:
        value = action.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise IllegalAction(f"{action['type']}.{key}: give a list of character ids (text)", rule)
        return list(value)

    @staticmethod
    def _need(state: State, phase: str, step: str | tuple[str, ...], what: str) -> None:
        steps = (step,) if isinstance(step, str) else step
        if phase == "naval":
            ok = state["phase_index"] in (0, 2) and state["naval"]["step"] in steps
        else:
            ok = state["phase_index"] in (1, 3) and state["step"] in steps
        if not ok:
            raise IllegalAction(f"{what} is possible only in the {'/'.join(steps)} step of a {phase} phase",
                                "VK 2.2")

    def _mine(self, state: State, ch: dict[str, Any], side: str | None = None) -> None:
        want = side or state["active"]
        if ch["side"] != want:
            raise IllegalAction(f"{ch['name']} belongs to {ch['side']}; {want} acts now", "VK 2.2")

    # naval
    def _do_end_phase(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        if state["phase_index"] in (0, 2):
            if state["naval"]["step"] == "movement":
                raise IllegalAction("ships are moving: move or hold the ship whose turn it is", "VK 4.42")
            if state["naval"]["step"] == "pushers":
                raise IllegalAction("name the characters who push the boat off first (choose_pusher)", "VK 4.45")
        elif state["step"] == "move":
            stuck = movement.stuck_stacks(board, state)
            bad = [h for h in movement.stacking_problems(state) if h not in stuck]
            if bad:
                raise IllegalAction(f"more than one living character in {', '.join(bad)} at the end of movement",
                                    "VK 2.6")
            for h in stuck:
                ctx.emit("stacked", f"the characters in {h} cannot move apart any more (stopped by fire or "
                         "wounds while passing through): they stay together this turn", "VK 2.6",
                         pieces=[i for i in living_at(state)[h] if i in state["chars"]], hex=h)
        elif state["step"] == "combat":
            owing = melee.berserkers_owing(board, state)
            if owing:
                raise IllegalAction(f"berserkers in contact must attack: {', '.join(owing)}", "VK 3.1")
        phases.end_step(board, state, ctx)

    def _do_assign_duty(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "naval", "duties", "assigning duties")
        ch = self._char(state, action)
        self._mine(state, ch)
        naval.assign_duty(state, ctx, ch, str(action.get("duty")))

    def _do_set_speed(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "naval", "speed", "choosing speeds")
        speed = action.get("speed")
        if not isinstance(speed, int) or isinstance(speed, bool):
            raise IllegalAction("speed must be a whole number", "VK 4.3")
        naval.set_speed(board, state, ctx, str(action.get("ship")), speed, state["active"])

    def _do_choose_pusher(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "naval", "pushers", "naming pushers")
        naval.choose_pusher(board, state, ctx, str(action.get("ship")), str(action.get("piece")))
        phases.after_speeds(board, state, ctx)

    def _do_ship_move(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "naval", "movement", "moving ships")
        naval.ship_move(board, state, ctx, str(action.get("ship")), str(action.get("move")))
        phases.advance_movement(board, state, ctx)

    def _do_ship_hold(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "naval", "movement", "stopping a ship")
        naval.hold(board, state, ctx, str(action.get("ship")))
        phases.advance_movement(board, state, ctx)

    def _do_throw_grapple(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "naval", "window", "throwing grapples (between sequences)")
        ch = self._char(state, action)
        self._mine(state, ch)
        naval.throw(board, state, ctx, ch["id"], str(action.get("target")))

    def _do_cut_rope(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "naval", "window", "cutting ropes (between sequences)")
        ch = self._char(state, action)
        self._mine(state, ch)
        naval.cut(board, state, ctx, ch["id"], str(action.get("grapple")))

    def _do_haul(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "naval", "haul", "hauling")
        naval.haul(board, state, ctx, state["active"], str(action.get("target")))

    # player phase
    def _do_fire(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "fire", "offensive fire")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        target = self._text(action, "target", "a character, horse, goat or pig id", "VK 2.3")
        if target in state.get("animals", {}):
            fire.shoot_animal(board, state, ctx, ch, target)
            return
        if target in state["horses"]:
            fire.shoot_horse(board, state, ctx, ch, target)
            return
        fire.shoot(board, state, ctx, ch, self._char(state, action, "target"), defensive=False)

    def _do_defensive_fire(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", ("move", "stationary_fire"), "defensive fire")
        ch = self._char(state, action)
        if ch["side"] == state["phasing"]:
            raise IllegalAction("defensive fire is the non-moving side's", "VK 2.33")
        target_id = self._text(action, "target", "a character, horse, goat or pig id", "VK 2.33")
        if target_id in state["horses"]:
            if state["horses"][target_id] not in horses.moving(state, state["phasing"]) or state["step"] != "move":
                raise IllegalAction(f"the horse {target_id} has not followed a leader of the moving side this phase",
                                    "VK 2.33")
            fire.shoot_horse(board, state, ctx, ch, target_id, defensive=True)
            return
        beast = state.get("animals", {}).get(target_id)
        if beast is not None:
            if beast not in animals.moving(state, state["phasing"]) or state["step"] != "move":
                raise IllegalAction(f"{animals.label(beast)} has not followed a leader of the moving side this "
                                    "phase", "VK 2.33")
            fire.shoot_animal(board, state, ctx, ch, beast["id"], defensive=True)
            return
        target = self._char(state, action, "target")
        if target["side"] != state["phasing"]:
            raise IllegalAction(f"{target['name']} is not a character of the moving side", "VK 2.33")
        if state["step"] == "move" and target.get("steps", 0) == 0:
            raise IllegalAction(f"{target['name']} has not started moving (characters that stay put may be shot "
                                "once movement ends)", "VK 2.33")
        if state["step"] == "stationary_fire" and target.get("steps", 0) > 0:
            raise IllegalAction(f"{target['name']} moved this phase: he could be shot only while moving", "VK 2.33")
        fire.shoot(board, state, ctx, ch, target, defensive=True)

    def _do_move(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "movement")
        ch = self._char(state, action)
        path = action.get("path") or [action.get("to")]
        if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
            raise IllegalAction("give 'to' (a hex label) or 'path' (a list of hex labels)", "VK 2.5")
        for to in path:
            movement.move(board, state, ctx, ch, to)
            if not alive(ch):
                break

    def _do_half_turn(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "turning about")
        movement.half_turn(board, state, ctx, self._char(state, action))

    def _do_take_reins(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "taking the reins")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        if not movement.can_act(state, ch):
            raise IllegalAction(f"{ch['name']} cannot act now", "VK 2.57")
        if self._text(action, "horse", "a horse, goat or pig id", "VK 2.57") in state.get("animals", {}):
            animals.take_reins(board, state, ctx, ch, str(action["horse"]))
            return
        horses.take_reins(board, state, ctx, ch, str(action.get("horse")))

    def _do_release_reins(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", ("fire", "move", "combat"), "letting a horse go")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        if self._text(action, "horse", "a horse, goat or pig id", "VK 2.57") in state.get("animals", {}):
            animals.release(state, ctx, ch, str(action["horse"]))
            return
        horses.release(state, ctx, ch, str(action.get("horse")))

    def _do_take_treasure(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "taking up a treasure")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        treasure.take(board, state, ctx, ch, str(action.get("treasure")))

    def _do_drop_treasure(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", ("fire", "move", "combat"), "laying a treasure down")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        treasure.drop_action(board, state, ctx, ch)

    def _do_give_treasure(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "handing a treasure over")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        treasure.give(board, state, ctx, ch, self._char(state, action, "target"))

    def _do_carry_off(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "carrying a treasure off the map")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        treasure.carry_off(state, ctx, ch)

    def _do_help_aboard(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "helping aboard")
        helper = self._char(state, action)
        self._mine(state, helper, state["phasing"])
        helped = self._char(state, action, "target")
        self._mine(state, helped, state["phasing"])
        movement.help_aboard(board, state, ctx, helper, helped, str(action.get("to")))

    def _do_carry_grapple(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "carrying a grapple")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        if not movement.can_act(state, ch):
            raise IllegalAction(f"{ch['name']} cannot act now", "VK 4.66")
        shipwork.pick_up_grapple(state, ctx, ch)

    def _do_drop_grapple(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", ("fire", "move", "combat"), "laying a grapple down")
        ch = self._char(state, action)
        self._mine(state, ch, state["phasing"])
        shipwork.drop_grapple(state, ctx, ch)

    def _do_mount(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "mounting")
        ch = self._char(state, action)
        movement.mount(board, state, ctx, ch, str(action.get("horse")), str(action.get("front")))

    def _do_dismount(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "dismounting")
        movement.dismount(board, state, ctx, self._char(state, action), str(action.get("to")))

    def _do_pick_up(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "carrying")
        movement.pick_up(board, state, ctx, self._char(state, action), self._char(state, action, "target"))

    def _do_put_down(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "carrying")
        movement.put_down(board, state, ctx, self._char(state, action), str(action.get("to")))

    def _do_clear_bodies(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "move", "clearing bodies")
        pieces = action.get("pieces")
        if not isinstance(pieces, list) or len(pieces) != 2:
            raise IllegalAction("name the two characters in 'pieces'", "VK 2.52")
        a = self._char({"chars": state["chars"]}, {"piece": pieces[0]})
        b = self._char({"chars": state["chars"]}, {"piece": pieces[1]})
        movement.clear_bodies(board, state, ctx, a, b, str(action.get("from")), str(action.get("to")))

    def _do_axe(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        ch = self._char(state, action)
        on = bool(action.get("on", True))
        if on:
            self._need(state, "player", "combat", "taking up the two-handed axe")
            self._mine(state, ch, state["phasing"])
            if any(c.get("attacked") for c in state["chars"].values()) or state["combat"]["round"] > 1:
                raise IllegalAction("axes are taken up at the start of the combat step", "VK 3.3")
            if not ctype(ch).axe:
                raise IllegalAction(f"{ch['name']} has no two-handed axe (table 8.3)", "VK 3.3")
            if not self._axe_ok(ch):
                raise IllegalAction("the two-handed axe needs a character on foot at full strength", "VK 3.3")
            markers.need(state, "axe")
            ch["axe"] = True
            ctx.emit("axe", f"{ch['name']} swings a two-handed axe: attack doubled, defence worse", "VK 3.3",
                     pieces=[ch["id"]])
        else:
            self._need(state, "player", ("fire", "move"), "putting down the axe")
            self._mine(state, ch, state["phasing"])
            ch["axe"] = False
            ctx.emit("axe", f"{ch['name']} puts down the two-handed axe", "VK 3.3", pieces=[ch["id"]])

    def _do_shield_wall(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "fire", "forming a shield wall")
        ids = action.get("pieces")
        facing = action.get("facing")
        if not isinstance(ids, list) or len(ids) < 3:
            raise IllegalAction("a shield wall needs at least three huscarls", "VK 3.2")
        if not isinstance(facing, int) or not 0 <= facing <= 5:
            raise IllegalAction("facing is 0-5: the wall's front is the hexsides facing and facing+1", "VK 3.2")
        group = [self._char({"chars": state["chars"]}, {"piece": i}) for i in ids]
        for ch in group:
            self._mine(state, ch, state["phasing"])
            if not ctype(ch).shield_wall or not active(ch) or ch["status"] != "ok" or ch.get("mounted") \
                    or ch.get("ship"):
                raise IllegalAction(f"{ch['name']} is not a huscarl on foot at full strength on land", "VK 3.2")
        hexes = {ch["hex"] for ch in group}
        seen, todo = set(), [next(iter(hexes))]
        while todo:
            h = todo.pop()
            if h in seen:
                continue
            seen.add(h)
            todo += [n for n in board.neighbours(h) if n in hexes]
        if seen != hexes:
            raise IllegalAction("the huscarls of a shield wall stand side by side in one group", "VK 3.2")
        for ch in group:
            ch["wall"] = True
            ch["facing"] = facing
        ctx.emit("shield_wall", f"{', '.join(c['name'] for c in group)} lock shields", "VK 3.2", pieces=ids)

    def _do_break_wall(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "fire", "breaking the shield wall")
        members = [c for c in state["chars"].values() if c.get("wall") and c["side"] == state["phasing"]]
        if not members:
            raise IllegalAction("no shield wall to break", "VK 3.2")
        for c in members:
            c["wall"] = False
        ctx.emit("shield_wall", "the shield wall breaks formation", "VK 3.2", pieces=[c["id"] for c in members])

    def _do_attack(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        self._need(state, "player", "combat", "melee")
        atts, dfds = self._ids(action, "attackers", "VK 2.7"), self._ids(action, "defenders", "VK 2.7")
        fighters = [state["chars"][c] for c in atts + dfds if c in state["chars"]]
        mounted = [c for c in fighters if c.get("mounted")]
        if len(dfds) == 1 and dfds[0] in state.get("animals", {}):
            attackers = [self._char(state, {"piece": a}) for a in atts]
            animals.attack(board, state, ctx, attackers, dfds[0])
        elif len(dfds) == 1 and dfds[0] in state["horses"]:
            horses.attack(board, state, ctx, [self._char(state, {"piece": a}) for a in atts], dfds[0])
        else:
            melee.attack(board, state, ctx, atts, dfds, action.get("casualty"))
        horses.melee_loses_control(state, ctx, mounted)
        treasure.melee(board, state, ctx, fighters)

    def _do_advance(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        path = action.get("path") or ([action["to"]] if action.get("to") else None)
        if not isinstance(path, list):
            raise IllegalAction("give the advance 'path' (1-2 hexes)", "VK 2.75")
        melee.advance(board, state, ctx, str(action.get("piece")), path)

    def _do_skip_advance(self, board: Board, state: State, action: Action, ctx: Context) -> None:
        if not state.get("advance"):
            raise IllegalAction("no advance is pending", "VK 2.75")
        if melee.must_advance(board, state):
            raise IllegalAction("a victorious berserker must advance when that brings him next to an enemy",
                                "VK 3.1")
        state["advance"] = None
        ctx.emit("advance", "no advance after combat", "VK 2.75")


GAME = Vikings()
