"""The A Song of Ice and Fire game: set-up, the round, activations and every action (digest §3, §6, §8)."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context, Game, Outcome, ScenarioSummary, State
from simulator.core.scenario import Scenario
from simulator.games.asoiaf import combat, modes, moves, sides, space, tactics
from simulator.games.asoiaf.arguments import check_parameters
from simulator.games.asoiaf.catalogue import NOT_AUTOMATED, catalogue
from simulator.games.asoiaf.setup import build_state, setup_schema
from simulator.games.asoiaf.units import Unit, CONDITIONS, polygon, speed
from simulator.geometry.table import polygon_distance

ACTIONS: dict[str, str] = {
    "maneuver": "unit: pivot, move straight forward up to Speed, pivot (pivot, distance, facing; card)",
    "march": "unit: move straight forward up to 2x Speed, then pivot (distance, facing; card)",
    "retreat": "engaged unit: roll D6, move back/sideways up to Speed+D6, pivot (direction, distance, facing; card)",
    "attack": "unit attacks: melee when engaged (align) or ranged (shift_direction, shift); target, attack, card",
    "charge": "unit charges a target in sight: pivot (facing), roll D6, move Speed+D6, align, melee attack",
    "hold": "unit takes no action this activation",
    "activate": "team games: pick a teammate's unit or NCU for the team's activation (unit or ncu); its owner "
                "then takes the activation (chooses the action, plays his own Tactics cards)",
    "claim": "NCU claims an empty Tactics-board zone (zone, target, condition, move parameters; Cersei: "
             "fetch false keeps her token)",
    "place_ncu": "Here We Stand: NCU is placed in a quadrant (quadrant 0-3) instead of claiming a zone",
    "ncu_pass": "NCU takes no action",
    "respond": "answer a pending window: play a Tactics card (card) or pass (card: null)",
    "free_pivot": "a unit set free (retreat, momentum) pivots for free (unit, facing)",
    "free_maneuver": "Unstoppable Momentum: the attacker makes a free Maneuver (pivot, distance, facing)",
    "skip": "decline the pending free pivot or free maneuver (unit)",
    "discard": "Cleanup: discard any Tactics cards from hand (cards: [ids]) before drawing up to 3; "
               "above 5 cards in hand: the cards to discard down to 5 (cards: [ids])",
    "quadrant": "Here We Stand: the opponent puts a unit lying exactly between quadrants in one of them "
                "(unit, quadrant 0-3)",
    "reroll": "choose which dice a reroll takes (dice: [positions], [] = none / keep the token)",
    "order": "use an Order whose trigger has come (use: true/false), e.g. Lannister Supremacy",
    "push": "place your unit pushed aside by a charge (unit, x, y: at most 1\" from where it stood)",
    "place_objective": "place a dropped Objective token (objective, x, y)",
    "place_pile": "A Feast for Crows: put the corpse pile of your destroyed infantry unit (x, y: its centre)",
    "redeploy": "start of round: put a destroyed unit back on the table (unit, x, y, facing)",
    "attack_terrain": "melee Attack action against a Destructible terrain piece within 1\" (unit, terrain)",
    "deploy": "deployment phase: put one Combat unit in the own deployment area (unit, x, y, facing)",
    "take_objective": "choose which of the engaged units claims a dropped Objective token (unit)",
    "first_player": "after deployment: the player who did not choose its area picks the first player (player)",
    "area": "deployment: take a deployment area (area: south|north, free-for-all: SW|NW|NE|SE) or give: true",
    "reserve": "A Storm of Swords deployment: the Defender's units that start in Reserve (units: [ids])",
    "place_terrain": "set-up (rules: terrain players|random): place a terrain piece (kind, x, y, rotation; "
                     "none: true when nothing fits)",
}


def R(section: str, name: str) -> str:
    return f'ASOIAF "{name}" ({section})'


class Asoiaf(Game):
    id = "asoiaf"
    name = "A Song of Ice and Fire"
    rule_prefix = "ASOIAF"

    # -- set-up -------------------------------------------------------------------------------
    def setup(self, scenario: Scenario, ctx: Context) -> State:
        state = build_state(scenario, ctx)
        if state["phase"] != "deployment":
            self._begin(state, ctx)
        return state

    def _begin(self, state: State, ctx: Context) -> None:
        """Round 1 starts (after set-up, or once the deployment phase is over, §15.5)."""
        m = modes.mode(state)
        for what in m.get("not_automated", []):
            ctx.emit("not_automated", f"{m['name']}: {what} - {NOT_AUTOMATED}", R(m["rule"], m["name"]))
        ctx.emit("round", f"Round {state['round']}: {state['first_player']} is the first player",
                 R("3", "The game round"))
        if state["flags"].pop("start_in_cleanup", False):      # a script's position (setup.phase)
            self._cleanup(state, ctx)
        elif state["phase"] == "activation" and not self._ready(state, state["active"]):
            self._next_turn(state, ctx)

    # --- hook (forces.py: army building on screen, §12) ---
    def forces(self) -> Any:
        from simulator.games.asoiaf.forces import AsoiafForces
        return AsoiafForces()
    # --- end hook ---

    def setup_schema(self) -> Mapping[str, Any]:
        return setup_schema()

    def action_types(self) -> Mapping[str, str]:
        return ACTIONS

    def action_specs(self) -> Mapping[str, Any]:
        from simulator.games.asoiaf.params import SPECS   # labels, parameters, rules (docs/actions.md)
        return SPECS

    def players(self, state: State) -> list[str]:
        return list(state["players"])

    def active_player(self, state: State) -> str | None:
        if state.get("result"):
            return None
        if state.get("pending"):
            return state["pending"][0]["player"]
        return state["active"]

    def scenario_summary(self, scenario: Scenario) -> ScenarioSummary:
        """§15.2 as ``modes.check_victory`` reads it; 6 rounds when the scenario names no
        ``max_rounds`` (setup)."""
        setup = scenario.setup if isinstance(scenario.setup, dict) else {}
        rounds = setup.get("max_rounds", 6)
        mode = str(setup.get("mode", "")).replace("_", " ")
        mode = mode[:1].upper() + mode[1:]
        return ScenarioSummary(super().scenario_summary(scenario).sides, f"{rounds} rounds",
                               (f"{mode} scoring: " if mode else "")
                               + "the VP needed and more than every opponent at the end of a round wins; "
                               "destroying every enemy Combat unit wins at once (15.2)")

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if not r:
            return None
        return Outcome(r["winner"], r["text"], rule=r["rule"], scores=sides.scores(state))

    def visible_state(self, state: State, player: str | None) -> State:
        """Hands are secret (only their size shows); decks are face down (§9.3: discards are open)."""
        for side in state["players"]:
            state["decks"][side] = len(state["decks"][side])
            if side != player:
                state["hands"][side] = len(state["hands"][side])
        pend = state.get("pending") or []
        for p in pend:
            if p.get("player") != player:
                p.pop("options", None)
        return state

    def evaluate(self, state: State, player: str) -> float:
        """VP towards the target and the strength left on the table (see evaluation.py)."""
        from simulator.games.asoiaf.evaluation import evaluate
        return evaluate(state, player)

    def determinize(self, visible: State, player: str, rng: Any) -> State:
        """The other hand and the deck orders guessed from the unseen cards (see evaluation.py)."""
        from simulator.games.asoiaf.evaluation import determinize
        return determinize(visible, player, rng)

    def ai_profile(self) -> Any:
        """What the computer players know of this game (``ai_profile.PROFILE``)."""
        from simulator.games.asoiaf.ai_profile import PROFILE

        return PROFILE

    def presentation(self) -> Any:
        from simulator.games.asoiaf.presentation import AsoiafPresentation
        return AsoiafPresentation()

    # -- legal actions ------------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        from simulator.games.asoiaf.options import legal_actions
        if state.get("result"):
            return []
        if state["phase"] == "deployment":
            from simulator.games.asoiaf import placement
            return placement.options(state)
        return legal_actions(state)

    # -- apply --------------------------------------------------------------------------------
    def apply(self, state: State, action: Action, ctx: Context) -> None:
        if state.get("result"):
            raise IllegalAction("the game is over", R("15.2", "Victory"))
        check_parameters(action)
        kind = action["type"]
        if state["phase"] == "deployment":
            from simulator.games.asoiaf import placement
            placement.apply(state, action, ctx, self._begin)
        elif state.get("pending"):
            self._answer(state, action, ctx)
        elif kind in ("maneuver", "march", "retreat", "attack", "charge", "hold", "attack_terrain"):
            self._activate_unit(state, action, ctx)
        elif kind in ("claim", "ncu_pass", "place_ncu"):
            self._activate_ncu(state, action, ctx)
        elif kind == "activate":
            self._hand_over(state, action, ctx)
        else:
            raise IllegalAction(f"'{kind}' answers a pending choice, and none is waiting", R("3.1", "Activation phase"))
        self._settle(state, ctx)

    # -- activations ----------------------------------------------------------------------------
    def _unit(self, state: State, uid: Any) -> Unit:
        u = state["units"].get(uid) if isinstance(uid, str) else None
        if u is None:
            raise IllegalAction(f"no unit {uid!r}", "")
        return u

    def _activate_unit(self, state: State, action: Action, ctx: Context) -> None:
        u = self._unit(state, action.get("unit"))
        me = state["active"]
        self._check_turn(state, u["id"], u["side"])
        if u["destroyed"] or (u.get("reserve") and "enter" not in action and action["type"] != "hold"):
            raise IllegalAction(f"{u['id']} is not on the table" + (" (a Reserve unit enters with 'enter': "
                                "[x, y, facing])" if u.get("reserve") else ""), R("3.1", "Activation phase"))
        if u["activated"]:
            raise IllegalAction(f"{u['id']} has already activated this round", R("3.1", "Activation phase"))
        if u.get("structure") and action["type"] not in ("attack", "hold"):
            raise IllegalAction("a castle wall may only shoot Arrows or take no action", R("16.3", "Castle walls"))
        cat = catalogue()
        if u.get("reserve") and "enter" not in action:
            u["activated"] = True
            ctx.emit("hold", f"{u['id']} stays in Reserve this round", R("16.3", "A Storm of Swords: Reserve"),
                     pieces=[u["id"]])
            self._next_turn(state, ctx)
            return
        if u.get("reserve"):
            from simulator.games.asoiaf import deployment
            deployment.enter_reserve(state, ctx, u, action["enter"])
        elif "enter" in action:
            raise IllegalAction(f"{u['id']} is already on the table", R("16.3", "A Storm of Swords: Reserve"))
        state["turn"] = {"player": me, "unit": u["id"], "no_cards": None}
        ctx.emit("activate", f"{me} activates {u['id']} ({u['name']}) for a {action['type']}",
                 R("3.1", "Activation phase"), pieces=[u["id"]], unit=u["id"])
        kind = action["type"]
        card = action.get("card")
        attack_card: str | None = None
        if card is not None:
            trigger = tactics.effect(card)["trigger"] if card in cat.card_effects else "?"
            if trigger == "attack" and kind in ("attack", "charge"):
                tactics.check_playable(state, me, card, "attack")
                attack_card = card
            else:
                tactics.activation_card(state, ctx, u, card)
        self._dangerous_action(state, ctx, u)
        if u["destroyed"]:
            self._end_activation(state, ctx, u)
            return
        modes.commander_vp_token(state, ctx, u, action)
        spd = speed(u, modes.mode(state).get("carrier_speed"))
        if kind == "hold":
            ctx.emit("hold", f"{u['id']} takes no action", R("6", "Actions"), pieces=[u["id"]])
        elif kind == "maneuver":
            moves.maneuver(state, ctx, u, action, spd, R("6.2", "Maneuver"))
            modes.after_move(state, ctx, u)
        elif kind == "march":
            if modes.mode(state).get("carrier_speed") and u["objective"] is not None:
                raise IllegalAction("a unit carrying an Objective cannot March", R("16.5", "A Dance with Dragons"))
            moves.march(state, ctx, u, action, spd)
            modes.after_move(state, ctx, u)
        elif kind == "retreat":
            freed = moves.retreat(state, ctx, u, action, spd)
            modes.after_move(state, ctx, u)
            for eid in freed:
                state["pending"].append({"player": state["units"][eid]["side"], "window": "free_pivot", "unit": eid,
                                         "why": "left unengaged by a Retreat", "rule": R("6.4", "Retreat")})
        elif kind == "attack_terrain":
            self._attack_terrain(state, ctx, u, action)
        elif kind == "attack":
            self._attack(state, ctx, u, action, attack_card)
            return
        elif kind == "charge":
            self._charge(state, ctx, u, action, attack_card, spd)
            return
        self._end_activation(state, ctx, u)

    @staticmethod
    def _check_turn(state: State, piece: str, owner: str) -> None:
        """Only the active player's own units and NCUs act; in a team game a teammate's piece is
        first handed over with ``activate`` (§13.1), and then only that piece may act."""
        me = state["active"]
        chosen = state["turn"].get("chosen")
        if chosen is not None and chosen != piece:
            raise IllegalAction(f"the team chose {chosen} for this activation", R("13.1", "Team games"))
        if owner == me:
            return
        if sides.friendly(state, owner, me):
            raise IllegalAction(f"{piece} belongs to your teammate {owner}: pick it with 'activate' and "
                                f"{owner} takes the activation", R("13.1", "Team games"))
        raise IllegalAction(f"{piece} belongs to {owner}; it is {me}'s turn", R("3.1", "Activation phase"))

    def _hand_over(self, state: State, action: Action, ctx: Context) -> None:
        """§13.1: on the team's turn its players pick any of the team's units; the owner of the
        piece picked (a teammate of the player in turn) takes the activation."""
        rule = R("13.1", "Team games")
        me = state["active"]
        if state["turn"].get("chosen") is not None:
            raise IllegalAction(f"the team already chose {state['turn']['chosen']} for this activation", rule)
        pid = action.get("unit", action.get("ncu"))
        piece = state["units"].get(pid) if "unit" in action and isinstance(pid, str) else \
            state["ncus"].get(pid) if isinstance(pid, str) else None
        if piece is None:
            raise IllegalAction(f"no unit or NCU {pid!r}", rule)
        owner = piece["side"]
        if owner == me or not sides.friendly(state, owner, me):
            raise IllegalAction(f"'activate' hands a teammate's piece over; {pid} belongs to {owner}" +
                                (" (act with it directly)" if owner == me else ""), rule)
        if not self._can_activate(state, piece):
            raise IllegalAction(f"{pid} cannot activate now (activated, destroyed or in Reserve)",
                                R("3.1", "Activation phase"))
        state["active"] = owner
        state["turn"] = {"player": owner, "unit": None, "no_cards": None, "chosen": pid}
        ctx.emit("activate", f"{me} picks {pid} for {sides.team(state, me)}'s activation: {owner} takes it",
                 rule, pieces=[pid] if "unit" in action else [], player=owner)

    def _attack_terrain(self, state: State, ctx: Context, u: Unit, action: Action) -> None:
        """A melee Attack action against a Destructible piece within 1" removes it (§14.1)."""
        rule = R("14.1", "Destructible")
        tid = action.get("terrain")
        piece = next((t for t in state["terrain"] if t["id"] == tid), None)
        if piece is None:
            raise IllegalAction(f"no terrain piece {tid!r}", rule)
        if "destructible" not in piece["keywords"]:
            raise IllegalAction(f"{piece['name']} ({tid}) is not Destructible", rule)
        if u.get("structure") or not any(a["range"] == "melee" for a in u["attacks"]):
            raise IllegalAction(f"{u['id']} has no melee Attack", rule)
        d = polygon_distance(polygon(u), space.tpoly(piece))
        if d > 1.0 + 1e-9:
            raise IllegalAction(f"{piece['name']} ({tid}) is {d:.2f}\" away; it must be within 1\"", rule)
        state["terrain"].remove(piece)
        ctx.emit("terrain", f"{u['id']} destroys the {piece['name']} ({tid}): it is removed from the game", rule,
                 pieces=[u["id"]], unit=u["id"], terrain=tid)

    def _dangerous_action(self, state: State, ctx: Context, u: Unit) -> None:
        """Taking an action in Dangerous terrain: 1D3+1 Wounds first (§14.1)."""
        if u.get("structure"):
            return
        for t in space.terrain_with(state, "dangerous"):
            if space.inside_terrain(polygon(u), t) and not u["destroyed"]:
                n = ctx.dice.d3(f"dangerous terrain ({t['name']})") + 1
                combat.apply_wounds(state, ctx, catalogue(), u, n, None, R("14.1", "Dangerous"))

    def _target(self, state: State, u: Unit, tid: Any) -> Unit:
        t = self._unit(state, tid)
        if sides.friendly(state, t["side"], u["side"]) or t["destroyed"] or t.get("reserve"):
            raise IllegalAction(f"{tid} is not an enemy unit on the table", R("6.5", "Attack"))
        return t

    def _attack_index(self, u: Unit, action: Action, ranged: bool) -> int:
        wanted = [i for i, a in enumerate(u["attacks"]) if (a["range"] != "melee") == ranged]
        if not wanted:
            raise IllegalAction(f"{u['id']} has no {'ranged' if ranged else 'melee'} Attack", R("6.5", "Attack"))
        i = action.get("attack", wanted[0])
        if i not in wanted:
            raise IllegalAction(f"attack {i!r} is not one of {u['id']}'s {'ranged' if ranged else 'melee'} "
                                f"Attacks ({wanted})", R("6.5", "Attack"))
        return int(i)

    def _attack(self, state: State, ctx: Context, u: Unit, action: Action, card: str | None) -> None:
        target = self._target(state, u, action.get("target"))
        # castle walls follow only their own rules (16.3): an enemy touching a wall does not
        # stop its Arrows, the only Attack a wall has
        engaged = [] if u.get("structure") else space.engaged_with(state, u)
        if engaged:
            if target not in engaged:
                raise IllegalAction(f"{u['id']} is engaged and may only attack enemies it touches", R("6.5.2", "Melee attack"))
            idx = self._attack_index(u, action, ranged=False)
            align = action.get("align")
            if align is not None:
                self._refacing(state, ctx, u, target, engaged, str(align))
        else:
            idx = self._attack_index(u, action, ranged=True)
            rng = space.SHORT if u["attacks"][idx]["range"] == "short" else space.LONG
            if "shift" in action:
                if u.get("structure"):
                    raise IllegalAction("castle walls do not shift", R("16.3", "Castle walls"))
                moves.shift(state, ctx, u, str(action.get("shift_direction", "forward")), moves.number(action, "shift"),
                            2.0, R("6.5.1", "Ranged attack"))
            sight = space.line_of_sight(state, u, polygon(target), target["id"], ranged=True)
            if not sight.clear:
                raise IllegalAction(f"{u['id']} cannot see {target['id']}: {sight.why}", R("5", "Line of sight"))
            d = space.range_to(u, polygon(target))
            if d > rng + 1e-9:
                raise IllegalAction(f"{target['id']} is {d:.1f}\" from the front arrow, beyond {rng:g}\"",
                                    R("6.5.1", "Ranged attack"))
        if card is not None and tactics.effect(card).get("melee_only") and not engaged:
            raise IllegalAction("that card only helps a melee Attack", R("9.2", "Trigger"))
        if card is not None and tactics.effect(card).get("charge_only"):
            raise IllegalAction("that card is played only for a Charge", R("9.2", "Trigger"))
        self._open_attack(state, ctx, u, target, {"attack": idx, "charge": False, "card": card})

    def _refacing(self, state: State, ctx: Context, u: Unit, target: Unit, engaged: list[Unit], align: str) -> None:
        """Before a melee Attack: turn to face a lone enemy on the flank/rear and align (§6.5.2)."""
        moves.place(u, *moves.melee_alignment(state, u, target, engaged, align))
        ctx.emit("align", f"{u['id']} faces {target['id']} and aligns ({align})", R("6.5.2", "Melee attack"),
                 pieces=[u["id"], target["id"]], unit=u["id"], x=u["x"], y=u["y"], facing=u["facing"])

    def _charge(self, state: State, ctx: Context, u: Unit, action: Action, card: str | None, spd: float) -> None:
        rule = R("6.6", "Charge")
        if u.get("structure"):
            raise IllegalAction("castle walls cannot charge", R("16.3", "Castle walls"))
        if space.engaged_with(state, u):
            raise IllegalAction(f"{u['id']} is engaged and cannot Charge", rule)
        target = self._target(state, u, action.get("target"))
        idx = self._attack_index(u, action, ranged=False)
        arc, tied = space.arc_of(target, polygon(u))
        if action.get("arc") is not None:
            if action["arc"] not in tied:
                raise IllegalAction(f"{u['id']} is in {target['id']}'s {arc} arc; it may choose only among {tied}", rule)
            arc = str(action["arc"])
        reach = spd + 6
        self._charge_checks(state, u, target, arc, reach, "at the start of the action")
        facing = moves.number(action, "facing", u["facing"])
        old = u["facing"]
        u["facing"] = facing % 360
        try:
            self._charge_checks(state, u, target, None, reach, "after the pivot")
            space.check_final(state, u, polygon(u), charge=True)
        except IllegalAction:
            u["facing"] = old
            raise
        ctx.emit("charge", f"{u['id']} charges {target['id']} into its {space.arc_label(arc)}", rule,
                 pieces=[u["id"], target["id"]], unit=u["id"], target=target["id"], arc=arc)
        roll = ctx.dice.d6(f"charge distance of {u['id']}")
        length = spd + roll
        disordered = roll == 1
        start = polygon(u)
        path = moves.charge_path(state, u, target, length)
        rough = space.rough_penalty(state, start, start + space.forward(u["facing"]) * path.distance)
        if rough and path.distance > length - rough:
            path = moves.charge_path(state, u, target, length - rough)
        ctx.emit("charge_roll", f"{u['id']} rolls {roll}: charge distance {length - rough:g}\""
                 + (" (Disordered)" if disordered else ""), rule, pieces=[u["id"]], roll=roll, disordered=disordered)
        if disordered:
            state["turn"]["no_cards"] = u["side"]
            ctx.emit("disordered", f"Disordered charge: {u['id']} loses its charge bonus and {u['side']} plays no "
                     "more Tactics cards this turn", R("6.6", "Disordered charge"), pieces=[u["id"]])
            if card is not None:
                ctx.emit("card", "the card cannot be played after a Disordered charge and stays in hand",
                         R("6.6", "Disordered charge"))
                card = None
        moves.place(u, *(np.array([u["x"], u["y"]]) + space.forward(u["facing"]) * path.distance), u["facing"])
        crossed = [t for t in state["terrain"] if t["id"] in path.crossed]
        if not path.success:
            ctx.emit("charge_failed", f"{u['id']} falls short of {target['id']} after {path.distance:.1f}\""
                     + (f" ({path.stop_reason})" if path.stop_reason else ""), R("6.6", "Failed charge"),
                     pieces=[u["id"]], unit=u["id"], x=u["x"], y=u["y"])
            self._charge_dangerous(state, ctx, u, start, crossed)
            if not u["destroyed"]:
                combat.panic_test(state, ctx, catalogue(), u, 0, "failed charge")
            modes.after_move(state, ctx, u)
            self._end_activation(state, ctx, u)
            return
        pose = moves.try_flush(state, u, target, arc, str(action.get("align", "centre")))
        if pose is not None:
            moves.place(u, *pose)
        ctx.emit("charge_hit", f"{u['id']} contacts {target['id']} and aligns on its {space.arc_label(arc)}",
                 R("6.6", "Align with the enemy"), pieces=[u["id"], target["id"]], unit=u["id"],
                 x=u["x"], y=u["y"], facing=u["facing"])
        self._push_others(state, ctx, u, target)
        self._charge_dangerous(state, ctx, u, start, crossed)
        if u["destroyed"]:
            self._end_activation(state, ctx, u)
            return
        difficult = any("difficult" in t["keywords"] for t in crossed)
        fortified = any("fortified" in t["keywords"] for t in crossed)
        if difficult:
            ctx.emit("terrain", "the charge crossed Difficult terrain: no charge bonus", R("14.1", "Difficult"))
        modes.after_move(state, ctx, u)
        spec = {"attack": idx, "charge": True, "disordered": disordered, "difficult": difficult,
                "fortified": fortified, "card": card}
        if any(p["window"] == "push" for p in state["pending"]):
            state["charge_next"] = dict(spec, attacker=u["id"], defender=target["id"])
            return
        self._open_attack(state, ctx, u, target, spec)

    def _charge_checks(self, state: State, u: Unit, target: Unit, arc: str | None, reach: float, when: str) -> None:
        rule = R("6.6", "Charge")
        sight = space.line_of_sight(state, u, polygon(target), target["id"], ranged=False)
        if not sight.clear:
            raise IllegalAction(f"{target['id']} is not in {u['id']}'s line of sight {when}: {sight.why}", rule)
        d = space.tray_distance(u, target)
        if d > reach + 1e-9:
            raise IllegalAction(f"{target['id']} is {d:.1f}\" away, beyond the longest possible charge "
                                f"({reach:g}\")", rule)
        if arc is not None and moves.try_flush(state, u, target, arc, "centre") is None:
            raise IllegalAction(f"no room along {target['id']}'s {space.arc_label(arc)} for a 50% contact", rule)

    def _charge_dangerous(self, state: State, ctx: Context, u: Unit, start: np.ndarray, crossed: list[dict[str, Any]]) -> None:
        """A charging unit is hurt by Dangerous terrain only once (§14.1)."""
        for t in crossed:
            if "dangerous" in t["keywords"] and not space.overlap(start, space.tpoly(t)):
                n = ctx.dice.d3(f"dangerous terrain ({t['name']})") + 1
                combat.apply_wounds(state, ctx, catalogue(), u, n, None, R("14.1", "Dangerous"))
                return

    def _push_others(self, state: State, ctx: Context, u: Unit, target: Unit) -> None:
        """Other enemies the charger touches (§6.6 call-out "Engaging several enemies").

        Reading (digest §21 q.10): the arcs are the charger's. An enemy mostly in the charger's
        Front arc (where the Defender is) lines up 50% with the charger's front edge
        (``moves.line_up_poses``); one in a Flank or the Rear arc, or one that has no room to line
        up, is moved 1" away by its owner: the default move (straight away from the charger, 1",
        else 0.5" or 0.25") is made at once, then the owner is asked (``push`` window) and may put
        the unit elsewhere within that reach."""
        me = polygon(u)
        rule = R("6.6", "Engaging several enemies")
        for e in space.enemies_of(state, u):
            if e["id"] == target["id"] or not space.near(me, polygon(e), space.CONTACT):
                continue
            if self._line_up(state, ctx, u, e):
                continue
            origin = [e["x"], e["y"]]
            away = np.array([e["x"] - u["x"], e["y"] - u["y"]])
            away = away / (np.linalg.norm(away) or 1.0)
            for d in (1.0, 0.5, 0.25):
                x, y = float(e["x"] + away[0] * d), float(e["y"] + away[1] * d)
                try:
                    space.check_final(state, e, polygon(e, x, y), charge=True)
                except IllegalAction:
                    continue
                moves.place(e, x, y, e["facing"])
                ctx.emit("push", f"{e['id']} moves {d:g}\" away from {u['id']} so it is not engaged",
                         rule, pieces=[e["id"]], unit=e["id"], x=x, y=y)
                state["pending"].append({"player": e["side"], "window": "push", "unit": e["id"], "origin": origin,
                                         "charger": u["id"], "default": [x, y], "rule": rule})
                break

    @staticmethod
    def _line_up(state: State, ctx: Context, u: Unit, e: Unit) -> bool:
        """An enemy touched in the charger's Front arc lines up 50% with it, if there is room."""
        arc, _ = space.arc_of(u, polygon(e))
        if arc != "front":
            return False
        for x, y, f in moves.line_up_poses(e, u):
            try:
                space.check_final(state, e, polygon(e, x, y, f), charge=True)
            except IllegalAction:
                continue
            moves.place(e, x, y, f)
            ctx.emit("line_up", f"{e['id']} lines up 50% with {u['id']}, which touched it in its Front arc beside "
                     "the Defender", R("6.6", "Engaging several enemies"), pieces=[e["id"], u["id"]], unit=e["id"],
                     x=e["x"], y=e["y"], facing=e["facing"])
            return True
        return False

    def _place_pushed(self, state: State, ctx: Context, p: dict[str, Any], action: Action) -> None:
        """The owner's choice where its pushed unit goes: a straight move of at most 1" from where it
        stood, same facing, legal, and no longer touching the charger (§6.6)."""
        e = state["units"][p["unit"]]
        rule = p["rule"]
        x, y = float(moves.number(action, "x", p["default"][0])), float(moves.number(action, "y", p["default"][1]))
        d = float(np.hypot(x - p["origin"][0], y - p["origin"][1]))
        if d > 1.0 + 1e-6:
            raise IllegalAction(f"a unit pushed aside moves at most 1\" (this is {d:.2f}\")", rule)
        charger = state["units"][p["charger"]]
        poly = polygon(e, x, y)
        if not charger["destroyed"] and space.near(poly, polygon(charger), space.CONTACT):
            raise IllegalAction(f"{e['id']} would still touch {charger['id']}", rule)
        old = (e["x"], e["y"])
        moves.place(e, *p["origin"], e["facing"])
        try:
            space.check_final(state, e, poly, charge=True)
        except IllegalAction:
            moves.place(e, old[0], old[1], e["facing"])
            raise
        moves.place(e, x, y, e["facing"])
        if [x, y] != p["default"]:
            ctx.emit("push", f"{e['id']}'s owner places it at ({x:.2f}, {y:.2f})", rule, pieces=[e["id"]],
                     unit=e["id"], x=x, y=y)

    def _open_attack(self, state: State, ctx: Context, u: Unit, target: Unit, spec: dict[str, Any]) -> None:
        """Ask the defender for an "attacked" card behind the hand-over screen, if it has one."""
        spec.update({"attacker": u["id"], "defender": target["id"]})
        if spec.get("card") and tactics.effect(spec["card"]).get("charge_only") and not spec.get("charge"):
            raise IllegalAction("that card is played only for a Charge", R("9.2", "Trigger"))
        if spec.get("card"):
            tactics.check_names(spec["card"], u, target)
            tactics.discard_played(state, ctx, u["side"], spec["card"], u["id"])
        side = target["side"]
        if not target.get("structure") and any(tactics.effect(c)["trigger"] == "attacked"
                                               for c in state["hands"][side] if c in catalogue().card_effects):
            state["pending"].insert(0, {"player": side, "window": "attacked", "attack": spec,
                                        "rule": R("10", "Trigger windows")})
            ctx.emit("window", f"{side} may answer the attack on {target['id']} with a Tactics card",
                     R("11.3", "Simultaneous actions"), pieces=[target["id"]])
            return
        self._finish_attack(state, ctx, spec, None)

    def _finish_attack(self, state: State, ctx: Context, spec: dict[str, Any], defender_card: str | None) -> None:
        att, dfn = state["units"][spec["attacker"]], state["units"][spec["defender"]]
        cat = catalogue()
        if dfn.get("structure"):
            self._attack_wall(state, ctx, att, dfn, spec)
            self._after_attack(state, ctx, att, dfn, spec, False)
            return
        combat.start_attack(state, ctx, cat, att, dfn, spec,
                            tactics.effect(spec["card"]) if spec.get("card") else {},
                            tactics.effect(defender_card) if defender_card else {})
        self._drive_attack(state, ctx)

    def _drive_attack(self, state: State, ctx: Context) -> None:
        """Run the Attack in progress until a choice is pending or it is complete."""
        if not combat.run_attack(state, ctx, catalogue()):
            return
        rec = state.pop("attack")
        combat.end_attack(state, rec)
        att, dfn = state["units"][rec["attacker"]], state["units"][rec["defender"]]
        if rec["melee"]:
            modes.after_melee(state, ctx, att, dfn)
        self._after_attack(state, ctx, att, dfn, rec, rec["killed"])

    def _after_attack(self, state: State, ctx: Context, att: Unit, dfn: Unit, spec: dict[str, Any],
                      killed: bool) -> None:
        melee = att["attacks"][spec["attack"]]["range"] == "melee"
        if killed and melee and not att["destroyed"]:
            ctx.emit("momentum", f"Unstoppable Momentum: {att['id']} destroyed {dfn['id']}",
                     R("7", "Unstoppable Momentum"), pieces=[att["id"]])
            if not space.engaged_with(state, att):
                state["pending"].append({"player": att["side"], "window": "momentum", "unit": att["id"],
                                         "rule": R("7", "Unstoppable Momentum")})
            for f in space.alive(state, att["side"]):
                if f["id"] != att["id"] and not space.engaged_with(state, f) and \
                        space.near(polygon(f), polygon(dfn), space.CONTACT):
                    state["pending"].append({"player": f["side"], "window": "free_pivot", "unit": f["id"],
                                             "why": "its enemy was destroyed", "rule": R("7", "Unstoppable Momentum")})
        self._end_activation(state, ctx, att)

    def _attack_wall(self, state: State, ctx: Context, att: Unit, wall: Unit, spec: dict[str, Any]) -> bool:
        """Castle walls: no Defense rolls, no Morale tests, 5 VP when destroyed (§16.3)."""
        attack = att["attacks"][spec["attack"]]
        if attack["range"] != "melee":
            raise IllegalAction("castle walls are damaged only by melee Attacks", R("16.3", "Castle walls"))
        from simulator.games.asoiaf.units import attack_dice
        n = attack_dice(att, attack)
        faces = [ctx.dice.d6(f"attack dice of {att['id']} against a wall") for _ in range(n)]
        hits = sum(combat._hits(faces, attack["hit"]))
        ctx.emit("attack_roll", f"{att['id']} strikes {wall['id']}: {faces} -> {hits} hit(s), no Defense roll",
                 R("16.3", "Castle walls"), pieces=[att["id"], wall["id"]])
        from simulator.games.asoiaf.units import wound
        wound(wall, hits)
        if wall["destroyed"]:
            ctx.emit("destroyed", f"{wall['id']} is breached", R("16.3", "Castle walls"), pieces=[wall["id"]])
            modes.add_vp(state, ctx, att["side"], int(modes.mode(state)["wall_vp"]), f"{att['id']} breaches a wall",
                         R("16.3", "Castle walls"))
        return False

    # -- NCUs -----------------------------------------------------------------------------------
    def _activate_ncu(self, state: State, action: Action, ctx: Context) -> None:
        nid = action.get("ncu")
        ncu = state["ncus"].get(nid) if isinstance(nid, str) else None
        if ncu is None:
            raise IllegalAction(f"no NCU {nid!r}", R("8.2", "NCU actions"))
        me = state["active"]
        self._check_turn(state, ncu["id"], ncu["side"])
        if ncu["activated"]:
            raise IllegalAction(f"{nid} has already activated this round", R("3.1", "Activation phase"))
        state["turn"] = {"player": me, "unit": nid, "no_cards": None}
        ncu["activated"] = True
        kind = action["type"]
        if kind == "ncu_pass":
            full = all(v is not None for v in state["board"].values())
            ctx.emit("ncu", f"{nid} takes no action" + (" (the Tactics board is full)" if full else ""),
                     R("8.2", "Full Tactics board") if full else R("8.2", "NCU actions"))
        elif kind == "place_ncu":
            if state["mode"] != "here_we_stand":
                raise IllegalAction("NCUs go into quadrants only in Here We Stand", R("16.9", "Here We Stand"))
            q = action.get("quadrant")
            if q not in (0, 1, 2, 3):
                raise IllegalAction("quadrant must be 0 (NW), 1 (NE), 2 (SW) or 3 (SE)", R("16.9", "Here We Stand"))
            if any(n["quadrant"] == q and n["side"] == me for n in state["ncus"].values()):
                raise IllegalAction(f"{me} already has an NCU in quadrant {q}", R("16.9", "Here We Stand"))
            ncu["quadrant"] = q
            ctx.emit("ncu", f"{nid} is placed in quadrant {q}", R("16.9", "Here We Stand"))
        else:
            self._claim(state, ctx, ncu, action)
        if kind != "ncu_pass":
            self._unautomated_note(ctx, ncu)
        self._next_turn(state, ctx)

    @staticmethod
    def _unautomated_note(ctx: Context, ncu: dict[str, Any]) -> None:
        """Say in the log which of the NCU's abilities nothing applies (their card texts are not in
        the rulebook, 4.6, 8.3): the players settle them by hand, never silently."""
        cat = catalogue()
        missing = cat.unautomated(cat.ncus[ncu["card"]]["abilities"])
        if missing:
            ctx.emit("not_automated", f"{ncu['id']} ({ncu['name']}): {', '.join(missing)} - {NOT_AUTOMATED}; "
                     "apply it by agreement if you know the card", R("4.6", "Non-Combat Units"), side=ncu["side"],
                     ncu=ncu["id"], abilities=missing)

    def _claim(self, state: State, ctx: Context, ncu: dict[str, Any], action: Action) -> None:
        z = tactics.zone(str(action.get("zone")))
        if state["board"][z["id"]] is not None:
            raise IllegalAction(f"the {z['name']} zone is already claimed", R("8.2", "NCU actions"))
        me = ncu["side"]
        rule = R("8.1", f"Tactics board: {z['name']}")
        cat = catalogue()
        eff = z["effect"]
        tid = action.get("target")
        target = state["units"].get(tid) if isinstance(tid, str) else None
        if target is not None and (target["destroyed"] or target.get("reserve") or target.get("structure")):
            target = None
        condition = action.get("condition")
        if action.get("replace"):
            self._replaced_zone(state, ctx, ncu, z, target, action.get("fetch", True))
            return
        if eff in ("enemy_panic_test", "enemy_condition", "draw_and_condition", "remove_condition", "free_move"):
            if target is None:
                raise IllegalAction(f"the {z['name']} zone needs a target unit on the table", rule)
        if eff in ("enemy_panic_test", "enemy_condition", "draw_and_condition") and sides.friendly(state, target["side"], me):
            raise IllegalAction(f"the {z['name']} zone targets an enemy unit", rule)
        if eff == "free_move" and not sides.friendly(state, target["side"], me):
            raise IllegalAction(f"the {z['name']} zone targets a friendly unit", rule)
        if eff in ("draw_and_condition", "enemy_condition"):
            condition = condition or z.get("condition")
            if condition not in CONDITIONS:
                raise IllegalAction(f"condition must be one of {', '.join(CONDITIONS)}", rule)
        if eff == "remove_condition":
            if condition is None and target["conditions"]:
                condition = target["conditions"][0]
            if condition not in target["conditions"]:
                raise IllegalAction(f"{target['id']} carries no {condition} token", rule)
        state["board"][z["id"]] = ncu["id"]
        ncu["zone"] = z["id"]
        ctx.emit("ncu", f"{ncu['id']} claims the {z['name']} zone", rule, side=me, zone=z["id"],
                 pieces=[target["id"]] if target else [])
        if eff == "enemy_panic_test":
            combat.panic_test(state, ctx, cat, target, int(z.get("modifier", 0)), f"{z['name']} zone")
        elif eff == "remove_condition":
            target["conditions"].remove(condition)
            ctx.emit("condition", f"{target['id']} loses its {condition} token", rule, pieces=[target["id"]])
        elif eff == "draw_and_condition":
            tactics.draw(state, ctx, me, int(z.get("draw", 2)))
            combat.give_condition(target, condition, ctx, f"{z['name']} zone", rule)
        elif eff == "enemy_condition":
            combat.give_condition(target, condition, ctx, f"{z['name']} zone", rule)
        elif eff == "free_move":
            if space.engaged_with(state, target):
                moves.retreat(state, ctx, target, action, speed(target))
            else:
                moves.maneuver(state, ctx, target, action, speed(target), rule)
            modes.after_move(state, ctx, target)
        tactics.cersei(state, ctx, ncu, z["id"], action.get("fetch", True))

    def _replaced_zone(self, state: State, ctx: Context, ncu: dict[str, Any], z: dict[str, Any],
                       target: Unit | None, fetch: Any) -> None:
        """Sharp and Ready: the claimed zone's effect may be replaced by 1D3+2 hits on a unit that
        controls an Objective other than the centre one (§16.7)."""
        rule = R("16.7", "Sharp and Ready")
        if state["mode"] != "sharp_and_ready":
            raise IllegalAction("a zone's effect is replaced only in Sharp and Ready (Dark Wings' Mission "
                                "swaps need the Mission cards, which are not in the rulebook)", rule)
        if target is None or target["id"] not in self._side_holders(state):
            raise IllegalAction("the target must control an Objective other than the centre one", rule)
        state["board"][z["id"]] = ncu["id"]
        ncu["zone"] = z["id"]
        ctx.emit("ncu", f"{ncu['id']} claims the {z['name']} zone and uses Sharp and Ready's effect instead", rule,
                 side=ncu["side"], zone=z["id"], pieces=[target["id"]])
        n = ctx.dice.d3("Sharp and Ready arrows") + 2
        combat.automatic_hits(state, ctx, catalogue(), target, n, None, "arrows (zone effect)", rule)
        tactics.cersei(state, ctx, ncu, z["id"], fetch)

    @staticmethod
    def _side_holders(state: State) -> list[str]:
        out = []
        for i, ob in enumerate(state["objectives"]):
            u = modes.controller(state, ob) if i != 0 else None
            if u is not None:
                out.append(u["id"])
        return out

    # -- pending windows ------------------------------------------------------------------------
    EXPECTED = {"attacked": ("respond",), "free_pivot": ("free_pivot", "skip"), "momentum": ("free_maneuver", "skip"),
                "discard": ("discard",), "reroll": ("reroll",), "order": ("order",), "push": ("push",),
                "place_objective": ("place_objective",), "redeploy": ("redeploy", "skip"),
                "panic_reroll": ("reroll",), "take_objective": ("take_objective",), "hand_limit": ("discard",),
                "quadrant": ("quadrant",), "place_pile": ("place_pile",)}

    def _answer(self, state: State, action: Action, ctx: Context) -> None:
        p = state["pending"][0]
        kind = action["type"]
        window = p["window"]
        expected = self.EXPECTED.get(window)
        if expected is None:        # every window the engine opens is listed (tests/asoiaf/test_pending_windows.py)
            raise IllegalAction(f"the pending {window!r} choice has no known answer", p.get("rule", ""))
        if kind not in expected:
            raise IllegalAction(f"{p['player']} must first answer the pending {window.replace('_', ' ')} "
                                f"({' or '.join(expected)})", p.get("rule", ""))
        if window == "attacked":
            card = action.get("card")
            if card is not None:
                tactics.check_playable(state, p["player"], card, "attacked")
                tactics.check_names(card, state["units"][p["attack"]["defender"]],
                                    state["units"][p["attack"]["attacker"]])
                tactics.discard_played(state, ctx, p["player"], card, p["attack"]["defender"])
            state["pending"].pop(0)
            self._finish_attack(state, ctx, p["attack"], card)
            return
        if window in ("reroll", "order"):
            combat.answer(state, ctx, action)
            self._drive_attack(state, ctx)
            return
        if window == "discard":
            cards = action.get("cards") or []
            tactics.discard_from_hand(state, p["player"], cards, R("3.2", "Cleanup phase"))
            ctx.emit("discard", f"{p['player']} discards {len(cards)} card(s)", R("3.2", "Cleanup phase"),
                     side=p["player"])
            state["pending"].pop(0)
            if not state["pending"]:
                self._new_round(state, ctx)
            return
        if window == "redeploy":
            from simulator.games.asoiaf import deployment
            deployment.answer(self, state, ctx, p, action)
            return
        if window == "panic_reroll":
            combat.answer_panic(state, ctx, catalogue(), action)
        elif window == "take_objective":
            modes.answer_take(state, ctx, p, action)
        elif window == "quadrant":
            modes.answer_quadrant(state, ctx, p, action)
            if not state["pending"]:
                self._cleanup(state, ctx)
            return
        elif window == "place_pile":
            modes.place_pile(state, ctx, p, action)
        elif window == "hand_limit":
            tactics.discard_to_limit(state, ctx, p["player"], action.get("cards"))
            state["pending"].pop(0)
        elif window == "place_objective":
            modes.place_objective(state, ctx, p, action)
            state["pending"].pop(0)
        elif window == "push":
            if action.get("unit", p["unit"]) != p["unit"]:
                raise IllegalAction(f"the pending choice is for {p['unit']}", p["rule"])
            self._place_pushed(state, ctx, p, action)
            state["pending"].pop(0)
            nxt = state.get("charge_next")
            if nxt and not any(q["window"] == "push" for q in state["pending"]):
                state["charge_next"] = None
                self._open_attack(state, ctx, state["units"][nxt.pop("attacker")],
                                  state["units"][nxt.pop("defender")], nxt)
                return
        else:
            u = state["units"][p["unit"]]
            if action.get("unit", u["id"]) != u["id"]:
                raise IllegalAction(f"the pending choice is for {u['id']}", p.get("rule", ""))
            state["pending"].pop(0)
            if kind == "skip" or u["destroyed"]:
                ctx.emit("skip", f"{u['id']} does not use its free move", p.get("rule", ""), pieces=[u["id"]])
            elif kind == "free_pivot":
                moves.pivot(state, ctx, u, moves.number(action, "facing"), p.get("rule", ""))
            else:
                moves.maneuver(state, ctx, u, action, speed(u), R("7", "Unstoppable Momentum"))
                modes.after_move(state, ctx, u)
        if not state["pending"] and state["phase"] == "activation" and state.get("after_pending") == "next_turn":
            state["after_pending"] = None
            self._next_turn(state, ctx)
        elif not state["pending"] and state["phase"] == "cleanup" and not state.get("result"):
            self._new_round(state, ctx)

    # -- turn and round flow ----------------------------------------------------------------------
    def _end_activation(self, state: State, ctx: Context, u: Unit) -> None:
        """Activation token on; then the next player's turn once pending choices are answered."""
        if state["pending"] and any(p["window"] == "attacked" for p in state["pending"]):
            return
        u["activated"] = True
        u["speed_bonus"] = 0
        modes.after_action(state, ctx, u)
        modes.check_victory(state, ctx, end_of_round=False)
        if state["pending"]:
            state["after_pending"] = "next_turn"
            return
        self._next_turn(state, ctx)

    def _ready(self, state: State, side: str) -> bool:
        """``side`` (a player) has a unit or NCU left to activate (an eliminated player has none)."""
        if sides.team(state, side) in state.get("eliminated", []):
            return False
        return any(self._can_activate(state, p) for p in [*state["units"].values(), *state["ncus"].values()]
                   if p["side"] == side)

    @staticmethod
    def _can_activate(state: State, piece: dict[str, Any]) -> bool:
        """A unit or NCU that may still take an activation this round (Reserves from round 3)."""
        return not piece["activated"] and not piece.get("destroyed") and \
            (not piece.get("reserve") or state["round"] >= 3)

    def _member(self, state: State, team: str) -> str | None:
        """The player who takes ``team``'s turn: its players in rotation, skipping those with
        nothing left to activate (§13.1; the only player outside team games)."""
        ms = sides.members(state, team)
        rot = state.setdefault("rotation", {})
        start = rot.get(team, -1) + 1
        for k in range(len(ms)):
            i = (start + k) % len(ms)
            if self._ready(state, ms[i]):
                rot[team] = i
                return ms[i]
        return None

    def _next_turn(self, state: State, ctx: Context) -> None:
        """Turns pass to the next team (to the left in a free-for-all); a team with nothing left to
        activate is skipped, the others go on in turn (§3.1, §13)."""
        if state.get("result"):
            return
        order = sides.team_order(state, sides.team(state, state["active"]))
        for team in order[1:] + order[:1]:
            p = self._member(state, team)
            if p is not None:
                state["active"] = p
                state["turn"] = {"player": p, "unit": None, "no_cards": None}
                return
        self._cleanup(state, ctx)

    def _cleanup(self, state: State, ctx: Context) -> None:
        """Cleanup phase, steps 1-7 then the discard windows (§3.2). Before scoring, units lying
        exactly between quadrants are placed by their opponents (``quadrant`` windows, §16.9);
        answering the last one comes back here."""
        if state["phase"] != "cleanup":
            state["phase"] = "cleanup"
            ctx.emit("cleanup", f"Round {state['round']} ends: Cleanup phase", R("3.2", "Cleanup phase"))
            if modes.ask_quadrant_ties(state, ctx):
                return
        modes.score_round(state, ctx)
        modes.check_victory(state, ctx, end_of_round=True)
        if state.get("result"):
            return
        for u in state["units"].values():
            u["activated"] = False
            u["orders_used"] = []
            u["influence"] = {}
        for n in state["ncus"].values():
            n["activated"] = False
            n["zone"] = None
        state["board"] = {z: None for z in state["board"]}
        for side in self._order_from_first(state):
            if state["hands"][side]:
                state["pending"].append({"player": side, "window": "discard", "rule": R("3.2", "Cleanup phase")})
        if not state["pending"]:
            self._new_round(state, ctx)

    def _order_from_first(self, state: State) -> list[str]:
        return sides.players_from_first(state)

    def _new_round(self, state: State, ctx: Context) -> None:
        for side in self._order_from_first(state):
            need = tactics.HAND_DRAW - len(state["hands"][side])
            if need > 0:
                tactics.draw(state, ctx, side, need)
        order = sides.team_order(state, state["first_player"])
        state["first_player"] = order[1 % len(order)]          # to the left / to the other team (§13)
        state["round"] += 1
        state["phase"] = "activation"
        state["active"] = self._member(state, state["first_player"]) or sides.members(state, state["first_player"])[0]
        state["turn"] = {"player": state["active"], "unit": None, "no_cards": None}
        ctx.emit("round", f"Round {state['round']}: {state['first_player']} is the first player",
                 R("3.2", "Cleanup phase"))
        from simulator.games.asoiaf import deployment
        deployment.start_of_round(state, ctx, self._order_from_first(state))
        if not self._ready(state, state["active"]):
            self._next_turn(state, ctx)

    def _settle(self, state: State, ctx: Context) -> None:
        modes.refresh_holders(state)
        modes.check_victory(state, ctx, end_of_round=False)
