"""The SAGA game: turn structure (SAGA p.5-11), activations, reactions, the Warlord's rules
(SAGA p.33-34), and the dispatch of every action type.

Flow of a player turn: ``roll_dice`` -> ``place_die``/``use_ability`` ... -> ``end_orders``
-> ``activate`` (-> the opponent's reaction window: ``slow_with_fatigue``/``use_ability``/
``pass``) -> ``move``/``engage``/``hold``/``shoot`` (-> melee or shooting steps) ... -> ``end_turn``.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, Context, Game, Outcome, ScenarioSummary
from simulator.core.scenario import Scenario
from simulator.games.saga import (abilities, bids, board, buildings, casualties, heroes, movement, placement,
                                  scenery, shooting, victory, wrath)
from simulator.games.saga import catalogue as cat
from simulator.games.saga import melee as melee_mod
from simulator.games.saga import setup as setup_mod
from simulator.games.saga.units import (CONTACT, EPS, add_fatigue, board_serves, enemies_of, exhausted,
                                        finite_number, free_activation, hero_spec, live_units,
                                        remove_fatigue, table_point, unit_gap, warlord)

State = dict[str, Any]

ACTIONS: dict[str, str] = {
    "roll_dice": "start the Orders Phase: leave the listed board dice (keep) and roll the rest (raider: Ragnar)",
    "place_die": "put a rolled SAGA die (die) on a box of your battle board (box)",
    "reroll_dice": "Gruffydd ap Llywelyn's High King: re-roll up to 3 rolled dice not yet placed (dice)",
    "end_orders": "end the Orders Phase (dice not placed are lost)",
    "wrath": "Orders Phase: put rolled dice (dice) beside your Jomsvikings (unit) for their Wrath (SAGA p.44)",
    "use_ability": "spend the dice on a box (box) for its ability, with its parameters",
    "activate": "activate a unit (unit) from a source (box id, 'determination' or 'free') to move, shoot or rest",
    "slow_with_fatigue": "reaction: spend a fatigue of the unit just activated to move to cut its move one step",
    "pass": "reaction window: let the activation go on",
    "move": "move the activated unit: to = {figure: [x, y]} (or dx, dy for the whole unit, or path = {figure: "
            "[[x, y], ...]} bending through waypoints)",
    "engage": "move the activated unit into melee with enemy unit target (engine places the figures)",
    "hold": "the activated unit stays where it is (still counts as a move)",
    "shoot": "the activated unit shoots at enemy unit target",
    "melee_trade": "melee step 2, defender: trade = true gives up half the attack dice for defence dice",
    "spend_fatigue": "melee step 3 or shooting step 2: discard an enemy fatigue (effect armour_up|armour_down)",
    "ready": "end your part of melee step 3 or shooting step 2",
    "end_turn": "end your Activation Phase",
    "bid": "scenario 5 set-up: your secret bid (points, 2-6) of the points you need to defend the village",
    "muster": "scenario 5 set-up, the defender: the units sent home (dismiss) to fit the warband to the bid",
    "scenery_number": "set-up: your secret number (number, 1-5) for how many terrain pieces (SAGA p.49)",
    "choose_terrain": "set-up: choose a terrain piece of the p.49 list (terrain: its type)",
    "roll_scenery": "set-up, scenario X with chosen scenery: roll D3+3, the number of terrain pieces (SAGA p.57)",
    "skip_terrain": "set-up, scenario 5's attacker: place no more of the two pieces he may add (SAGA p.55)",
    "choose_edge": "set-up: the roll-off winner chooses his long edge (edge: bottom or top)",
    "roll_off": "set-up: every player rolls a D6 (ties re-rolled); the highest sets up, deploys or plays first",
    "roll_terrain": "set-up: roll the D6 that says where the next terrain piece goes (SAGA p.49)",
    "place_terrain": "set-up: put the terrain piece (piece) with its centre at at = [x, y] (SAGA p.49)",
    "deploy": "set-up: put your unit (unit) with its centre at at = [x, y], its formation turned facing degrees "
              "counter-clockwise if given, else as turn_waiting left it (or to = {figure: [x, y]})",
    "choose_village": "set-up, scenario 5 with chosen scenery: the defender names his large building (large: a "
                      "building id, or null for none) before placing them (SAGA p.55)",
    "turn_waiting": "set-up: turn your unit waiting to deploy (unit) or the terrain piece you are placing (piece) "
                    "to facing degrees counter-clockwise; it is deployed or placed so turned",
    "deploy_suggested": "set-up: let the engine place the rest of your units, each at its suggested place when its "
                        "turn comes",
    "end_deployment": "set-up, Battle at the Ford: stop after deploying at least half your figures",
    "remove_casualties": "melee step 6, shooting step 5 or after an ability that kills: the figures (figures) of "
                         "your unit that die",
    "bodyguards": "melee step 6 or shooting step 5: the friendly figures (figures) that die in place of your "
                  "Warlord",
    "defend_building": "melee, before step 1, when several of your units hold the building the enemy engages: "
                       "the unit (unit) that defends it",
    "withdraw": "melee step 8: place your disengaging unit (to = {figure: [x, y]}, or dx, dy)",
    "expert_rider": "melee step 3, Ivo Taillefer mounted: discard dice on activation boxes (dice) for attack and "
                    "defence dice",
    "conqueror": "melee step 3, Sven Forkbeard's warband: a unit within S of Sven (for_unit) discards 3 attack dice "
                 "for +1 armour",
}


SETUP_ACTIONS = tuple(placement.ACTIONS)          # the players' set-up (placement.py, bids.py, scenery.py)


#: How each kind of SAGA scenario is won, in a line (``victory.outcome`` decides).
SCENARIO_VICTORY = {
    "warlords_fury": "kill the enemy Warlord; at the end the VP for enemy figures killed decide (SAGA p.51)",
    "quickstart": "kill the enemy Warlord; at the end the VP for enemy figures killed decide (quick-start)",
    "challenge": "kill the enemy Warlord; at the end the Warlord with more wounds left wins (SAGA p.54)",
    "ford": "at the end, VP for your figures across the river (SAGA p.52)",
    "sacred_ground": "VP for figures on the sacred ground, scored each turn (SAGA p.53)",
    "homeland": "the attacker must clear every building of defenders by the end; "
                "his Warlord's death loses (SAGA p.55)",
    "escort": "the escort gets its baggage off the table; the attacker destroys every baggage (SAGA p.56)",
    "feast": "at the end, VP for enemy figures killed (SAGA p.57)",
}


class Saga(Game):
    id = "saga"
    name = "SAGA"
    rule_prefix = "SAGA"

    # -- set-up -------------------------------------------------------------------------------
    def setup(self, scenario: Scenario, ctx: Context) -> State:
        return setup_mod.build_state(scenario, ctx)

    def setup_schema(self) -> Mapping[str, Any]:
        return {"setup": setup_mod.SETUP_SCHEMA, "rules": setup_mod.RULES_SCHEMA}

    def action_types(self) -> Mapping[str, str]:
        return ACTIONS

    def action_specs(self) -> Mapping[str, Any]:
        from simulator.games.saga.params import SPECS   # labels, parameters, rules (docs/actions.md)
        return SPECS

    def scenario_summary(self, scenario: Scenario) -> ScenarioSummary:
        """The scenario's victory (``setup.victory``) as :func:`victory.outcome` decides it; 6 turns
        when the scenario names none (setup)."""
        kind = scenario.setup.get("victory", "") if isinstance(scenario.setup, dict) else ""
        turns = scenario.data.get("turns", 6)
        return ScenarioSummary(super().scenario_summary(scenario).sides, f"{turns} turns",
                               SCENARIO_VICTORY.get(kind, ""))

    def outcome(self, state: State) -> Outcome | None:
        return victory.outcome(state)

    def evaluate(self, state: State, player: str) -> float:
        from simulator.games.saga.evaluation import evaluate
        return evaluate(state, player)

    def ai_profile(self) -> Any:
        """What the computer players know of this game (``ai_profile.PROFILE``)."""
        from simulator.games.saga.ai_profile import PROFILE

        return PROFILE

    def presentation(self) -> Any:
        from simulator.games.saga.presentation import SagaPresentation
        return SagaPresentation()

    # --- hook (forces.py: the warband builder on the force-selection screen, SAGA p.35) ---
    def forces(self) -> Any:
        from simulator.games.saga.forces import SagaForces
        return SagaForces()
    # --- end hook ---

    # -- apply --------------------------------------------------------------------------------
    def apply(self, state: State, action: Action, ctx: Context) -> None:
        if victory.outcome(state) is not None:
            raise IllegalAction("the game is over")
        player = state["active"]
        kind = action["type"]
        if state["phase"] == "setup" and kind not in SETUP_ACTIONS:
            raise IllegalAction(f"the set-up is not over: {', '.join(SETUP_ACTIONS)} only", "SAGA p.48")
        if state["phase"] != "setup" and kind in SETUP_ACTIONS:
            raise IllegalAction(f"{kind} is a set-up action, and the set-up is over", "SAGA p.48")
        handler = placement.ACTIONS.get(kind) or (getattr(self, f"_do_{kind}", None) if kind in ACTIONS else None)
        if handler is None:
            raise IllegalAction(f"unknown action type {kind!r} (known: {', '.join(ACTIONS)})")
        choice = state.get("choice")
        if choice is not None and kind != "remove_casualties":
            raise IllegalAction(f"{choice['player']} first picks the {choice['count']} figure(s) of "
                                f"{state['units'][choice['unit']]['name']} that die ({choice['why']}): "
                                "remove_casualties", choice["rule"])
        handler(state, player, action, ctx)
        choice = state.get("choice")
        if choice is not None and "resume" not in choice:   # an ability killed figures: their owner picks
            choice["resume"] = state["active"]
            state["active"] = choice["player"]

    @staticmethod
    def _actor(state: State) -> str:
        """The owner of the unit being activated now (the turn player, or a Hit and Run reactor)."""
        pend = state["pending"]
        return str(state["units"][pend["unit"]]["owner"]) if pend else str(state["turn_player"])

    def _require(self, ok: bool, reason: str, rule: str) -> None:
        if not ok:
            raise IllegalAction(reason, rule)

    def _idle(self, state: State) -> bool:
        return not state["pending"] and state["melee"] is None and state["shooting"] is None

    # orders ------------------------------------------------------------------------------------
    def _do_roll_dice(self, state: State, player: str, action: Action, ctx: Context) -> None:
        self._require(state["phase"] == "orders" and not state["orders_rolled"],
                      "the SAGA dice are rolled once, at the start of the Orders Phase", "SAGA p.6")
        keep = action.get("keep", [])
        self._require(isinstance(keep, list) and all(isinstance(i, int) for i in keep),
                      "keep lists die numbers (0-7) to leave on the board", "SAGA p.7")
        raider = bool(action.get("raider", False))
        second = action.get("second", 0)
        self._require(isinstance(second, int) and not isinstance(second, bool) and second >= 0,
                      "second is how many of the dice rolled go to your second battle board", "SAGA p.42")
        if raider:
            w = warlord(state, player)
            hero = cat.swords()["heroes"].get((w or {}).get("hero") or "")
            self._require(bool(hero and hero["raider"]), "only Ragnar Lothbrok, alive, may raid", "SAGA p.42")
        self._song_of_roland(state, player, ctx)
        wrath.start_turn(state, player, ctx)
        board.start_orders(state, player, keep, ctx, raider=raider, second=second)
        state["orders_rolled"] = True
        state["sides"][player]["rerolled"] = False
        if raider:
            for u in live_units(state, player):
                state["free"].append(free_activation(u, "The Raider"))
            ctx.emit("orders", f"The Raider: {player} rolled half the dice; every unit gets a free activation",
                     "SAGA p.42")

    @staticmethod
    def _song_of_roland(state: State, player: str, ctx: Context) -> None:
        """Taillefer (SAGA p.43): at the start of his turn, before the roll, every friendly unit
        within his range discards fatigue."""
        rally = hero_spec(state, player).get("rally")
        lord = warlord(state, player)
        if not rally or lord is None:
            return
        for u in live_units(state, player):
            if u["fatigue"] > 0 and unit_gap(state, u["id"], lord["id"]) <= cat.inches(rally["range"]) + EPS:
                gone = remove_fatigue(u, rally["fatigue"])
                ctx.emit("fatigue_spent", f"Song of Roland: {u['name']} discards {gone} fatigue ({u['fatigue']} left)",
                         "SAGA p.43", pieces=list(u["figures"]), unit=u["id"])

    def _do_place_die(self, state: State, player: str, action: Action, ctx: Context) -> None:
        self._require(state["phase"] == "orders" and state["orders_rolled"] and self._idle(state),
                      "dice are placed in the Orders Phase, after rolling", "SAGA p.7")
        die = action.get("die")
        self._require(isinstance(die, int), "die is a die number 0-7", "SAGA p.7")
        board.place(state, player, die, str(action.get("box")), ctx)

    def _do_wrath(self, state: State, player: str, action: Action, ctx: Context) -> None:
        self._require(self._idle(state), "dice go beside the Jomsvikings in your Orders Phase", "SAGA p.44")
        wrath.put(state, player, action, ctx)

    def _do_reroll_dice(self, state: State, player: str, action: Action, ctx: Context) -> None:
        self._require(state["phase"] == "orders" and state["orders_rolled"] and self._idle(state)
                      and state["turn_player"] == player, "dice are re-rolled in your Orders Phase", "SAGA p.43")
        which = action.get("dice")
        self._require(isinstance(which, list) and all(isinstance(i, int) for i in which),
                      "dice lists die numbers (0-7)", "SAGA p.43")
        board.reroll(state, player, which, ctx)

    def _do_end_orders(self, state: State, player: str, action: Action, ctx: Context) -> None:
        self._require(state["phase"] == "orders" and state["orders_rolled"], "roll your SAGA dice first", "SAGA p.6")
        lost = board.discard_unplaced(state, player)
        wrath.resolve(state, player, ctx)                  # the Jomsvikings' Wrath (SAGA p.44)
        for u in live_units(state, player):                # Flemish Foreigners (SAGA p.46)
            for _ in range(int(u.get("free_activations", 0))):
                state["free"].append(free_activation(u, u["name"]))
        note = f" ({lost} unplaced die/dice lost)" if lost else ""
        if state["rules"]["simultaneous_orders"]:
            seating = state["seating"]
            i = seating.index(player)
            if i + 1 < len(seating):                       # the next player's Orders Phase (SAGA p.57)
                nxt = seating[i + 1]
                state["turn_player"] = state["active"] = nxt
                state["orders_rolled"] = False
                ctx.emit("phase", f"{player} ends his Orders Phase{note}; {nxt}'s Orders Phase", "SAGA p.57")
                return
            ctx.emit("phase", f"{player} ends his Orders Phase{note}: every Orders Phase of the turn is done; "
                     + "; ".join(f"{p}: {board.board_text(state, p)}" for p in seating), "SAGA p.57")
            self._activation_roll(state, ctx)
            state["phase"] = "activation"
            return
        state["phase"] = "activation"
        ctx.emit("phase", f"{player}'s Activation Phase{note}", "SAGA p.10")

    @staticmethod
    def _activation_roll(state: State, ctx: Context) -> None:
        """Scenario X (SAGA p.57): each player rolls a D6, the highest activates first, then play
        goes to his left (the seating order). A tie for the highest gives the first activation to
        the player left of the previous turn's first player; in the first turn (no previous first
        player) the tied players roll again (engine decision)."""
        seating = list(state["seating"])
        rolls = {p: ctx.dice.d6(f"first activation: {p}") for p in seating}
        best = [p for p in seating if rolls[p] == max(rolls.values())]
        previous = state.get("first_of_round")
        while len(best) > 1 and previous is None:
            again = {p: ctx.dice.d6(f"first activation, tie: {p}") for p in best}
            best = [p for p in best if again[p] == max(again.values())]
        if len(best) > 1:
            first = seating[(seating.index(previous) + 1) % len(seating)]
            why = f"a tie: the first activation passes to the left of {previous}"
        else:
            first = best[0]
            why = "the highest roll"
        k = seating.index(first)
        state["order"] = seating[k:] + seating[:k]
        state["first_of_round"] = first
        state["turn_player"] = state["active"] = first
        ctx.emit("phase", f"activation roll {', '.join(f'{p} {v}' for p, v in rolls.items())}: {first} activates "
                 f"first ({why})", "SAGA p.57", rolls=rolls, first=first)

    def _do_use_ability(self, state: State, player: str, action: Action, ctx: Context) -> None:
        abilities.use_ability(state, player, action, ctx)
        if state.get("interrupt"):
            self._start_interrupt(state, ctx)
            return
        pend = state["pending"]
        if pend and pend["kind"] == "reaction" and pend["cancelled"]:
            self._proceed(state, ctx)
            return
        self._after_resolution(state, ctx)

    def _start_interrupt(self, state: State, ctx: Context) -> None:
        """Hit and Run (SAGA p.62): the reacting player's unit is activated in the middle of the
        enemy activation's reaction window. The window is set aside on ``state["interrupted"]``
        (a stack) and taken up again, with the reactor asked again, once the new activation is over."""
        intr = state.pop("interrupt")
        unit = state["units"][intr["unit"]]
        state.setdefault("interrupted", []).append(state["pending"])
        free = {**free_activation(unit, intr["source"]), "no_engage": True}
        ctx.emit("activate", f"{unit['name']} is activated to {intr['order']} ({intr['source']}, may not engage)",
                 "SAGA p.62", pieces=list(unit["figures"]), unit=unit["id"], order=intr["order"])
        self._start_activation(state, unit, intr["order"], ctx, paid=False, free=free)

    # activation ---------------------------------------------------------------------------------
    def _do_activate(self, state: State, player: str, action: Action, ctx: Context) -> None:
        self._require(state["phase"] == "activation" and state["turn_player"] == player and self._idle(state),
                      "units are activated in your Activation Phase, one at a time", "SAGA p.10")
        uid = action.get("unit")
        unit = state["units"].get(uid) if isinstance(uid, str) else None
        self._require(unit is not None and bool(unit["figures"]) and unit["owner"] == player,
                      "name one of your living units", "SAGA p.10")
        assert unit is not None
        order = action.get("order")
        self._require(order in ("move", "shoot", "rest"), "order is move, shoot or rest", "SAGA p.10")
        source = action.get("source")
        free = None
        paid = False
        if source == "determination":
            self._require(unit["cls"] == "warlord", "Determination activates the Warlord", "SAGA p.33")
            self._require(state["sides"][player]["determination"] < state["rules"]["determination"],
                          "Determination is used once per turn", "SAGA p.33")
        elif source == "free":
            free = next((f for f in state["free"] if f["unit"] == uid and order in f["orders"]), None)
            self._require(free is not None, f"{unit['name']} has no free activation to {order}", "SAGA p.61")
        else:
            box = board.find_box(state, player, str(source))
            self._require(box is not None and box["effect"]["kind"] == "activate",
                          "source is an activation box, 'determination' or 'free'", "SAGA p.10")
            assert box is not None
            cls = "baggage" if unit.get("baggage") else cat.classes()["classes"][unit["cls"]]["activated_as"]
            want = "hearthguard" if cls == "baggage" else cls
            any_box = bool(hero_spec(state, player).get("any_activation_box"))    # Maredudd (SAGA p.43)
            self._require(box["effect"]["class"] == want or any_box,
                          f"{box['name']} activates {box['effect']['class']}, not {unit['name']}", "SAGA p.10")
            self._require(board.ready(state, player, box["id"]), f"no die on {box['name']}", "SAGA p.10")
            self._require(board_serves(state, unit, box["faction"]),
                          f"{unit['name']} ignore your battle board, activation boxes included: they activate "
                          "for free" if unit.get("bypass_board") else
                          f"the {cat.faction(box['faction'])['name']} board does not activate {unit['name']}",
                          "SAGA p.45-46")
        self._check_order(state, unit, order, free)
        we_obey = action.get("we_obey")
        obeying = self._we_obey_orders(state, player, unit, order, we_obey, action.get("we_obey_order", "move"))
        side_by_side = bool(action.get("side_by_side", False))
        if side_by_side:
            self._require(len(obeying) <= 1, "Side by Side goes with one unit activated by We Obey", "SAGA p.34")
            self._check_side_by_side(state, unit, obeying[0][0] if obeying else None)
            self._require(obeying[0][1] == "move", "Side by Side: the unit obeying moves", "SAGA p.34")
        if source == "determination":
            state["sides"][player]["determination"] += 1
        elif free is not None:
            state["free"].remove(free)
        else:
            board.pay(state, player, str(source), ctx)
            paid = True
        if obeying:
            state["sides"][player]["we_obey"] += 1
            for other, other_order in obeying:        # William: two units, then neither may engage (SAGA p.42)
                state["queue"].append({"unit": other, "order": other_order, "source": "We Obey", "join": None,
                                       "no_engage": len(obeying) > 1})
        ctx.emit("activate", f"{unit['name']} is activated to {order}"
                 + (f" ({source})" if source in ("determination", "free") else ""),
                 "SAGA p.10" if source not in ("determination",) else "SAGA p.33",
                 pieces=list(unit["figures"]), unit=uid, order=order)
        self._start_activation(state, unit, order, ctx, paid=paid, free=free)
        if side_by_side:
            state["pending"]["side_by_side"] = obeying[0][0]

    def _check_side_by_side(self, state: State, unit: dict[str, Any], other: Any) -> None:
        """SAGA p.34: Side by Side goes with a We Obey move; some heroes never use it."""
        self._require(other is not None, "Side by Side needs a unit activated by We Obey (we_obey)", "SAGA p.34")
        self._require(not unit.get("lesser"), f"{unit['name']}, a second Warlord of 10 points, never fights Side by "
                      "Side", "SAGA p.58")
        hero = cat.swords()["heroes"].get(unit.get("hero") or "")
        self._require(not hero or hero.get("side_by_side", True), f"{unit['name']} never fights Side by Side",
                      "SAGA p.42-43")
        self._require(not state["units"][other].get("mercenary"), "mercenaries do not fight Side by Side",
                      "SAGA p.46")

    def _check_order(self, state: State, unit: dict[str, Any], order: str, free: dict[str, Any] | None) -> None:
        problem = abilities.order_problem(state, unit, order)
        if problem is not None:
            raise IllegalAction(*problem)

    def _we_obey_orders(self, state: State, player: str, unit: dict[str, Any], order: str, we_obey: Any,
                        we_obey_order: Any) -> list[tuple[str, str]]:
        """The units activated by the Warlord's We Obey and their orders (SAGA p.33): one unit to
        move; William the Bastard (SAGA p.42) two units, each to move or shoot. ``we_obey_order``
        is one order for all, or a map unit -> order."""
        if we_obey is None:
            return []
        ids = we_obey if isinstance(we_obey, list) else [we_obey]
        spec = hero_spec(state, player)
        most = int(spec.get("we_obey_units", 1))
        self._require(1 <= len(ids) <= most and len(set(map(str, ids))) == len(ids),
                      f"We Obey activates {'one unit' if most == 1 else f'one to {most} different units'}",
                      "SAGA p.33" if most == 1 else "SAGA p.42")
        allowed = spec.get("we_obey_orders", ["move"])
        out = []
        for other in ids:
            self._check_we_obey(state, player, unit, order, other)
            o = we_obey_order.get(other, "move") if isinstance(we_obey_order, dict) else we_obey_order
            self._require(o in allowed, f"a unit activated by We Obey may {' or '.join(allowed)}",
                          "SAGA p.33" if allowed == ["move"] else "SAGA p.42")
            if o != "move":
                problem = abilities.order_problem(state, state["units"][other], o)
                if problem is not None:
                    raise IllegalAction(*problem)
            out.append((str(other), str(o)))
        return out

    def _check_we_obey(self, state: State, player: str, unit: dict[str, Any], order: str, other: Any) -> None:
        self._require(unit["cls"] == "warlord" and order == "move", "We Obey goes with a Warlord's move", "SAGA p.33")
        self._require(not unit.get("lesser"), f"{unit['name']}, a second Warlord of 10 points, has no We Obey",
                      "SAGA p.58")
        self._require(state["sides"][player]["we_obey"] < state["rules"]["we_obey"], "We Obey is used once per turn",
                      "SAGA p.33")
        ou = state["units"].get(other) if isinstance(other, str) else None
        self._require(ou is not None and bool(ou["figures"]) and ou["owner"] == player and ou["id"] != unit["id"]
                      and not ou.get("baggage"), "We Obey names another of your units", "SAGA p.33")
        self._require(board_serves(state, ou, state["sides"][player]["faction"]), f"{ou['name']} do not obey your "
                      "Warlord", "SAGA p.45-46")
        assert ou is not None
        self._require(unit_gap(state, ou["id"], unit["id"]) <= cat.inches("S") + EPS,
                      f"{ou['name']} is not within S of the Warlord", "SAGA p.33")
        self._require(not exhausted(ou), f"{ou['name']} is exhausted", "SAGA p.25")

    def _start_activation(self, state: State, unit: dict[str, Any], order: str, ctx: Context,
                          paid: bool, free: dict[str, Any] | None, join: str | None = None) -> None:
        """Open the enemy's reaction window on ``unit``'s activation, then carry it out. ``join``:
        the foe of the Warlord this unit follows Side by Side (SAGA p.34), known before the move
        is (a second move's forced engagement must agree with it)."""
        pend = {"kind": "reaction", "unit": unit["id"], "order": order, "slow": 0, "paid_with_die": paid,
                "cancelled": False, "free": free or {}, "asked": [], "fatigue_slowed": False}
        if join:
            pend["join"] = join
        state["pending"] = pend
        self._next_reactor(state, ctx)

    def _reactors(self, state: State) -> list[str]:
        pend = state["pending"]
        unit = state["units"][pend["unit"]]
        out = []
        for p in state["players"]:
            if p == unit["owner"] or p in pend["asked"]:
                continue
            options = self._reaction_options(state, p)
            if options:
                out.append(p)
        return out

    def _reaction_options(self, state: State, player: str) -> list[Action]:
        pend = state["pending"]
        unit = state["units"][pend["unit"]]
        out: list[Action] = []
        if pend["order"] == "move" and unit["fatigue"] > 0 and not pend["fatigue_slowed"] \
                and state["mode"] != "quickstart":
            out.append({"type": "slow_with_fatigue"})
        saved = state["active"]
        state["active"] = player
        out += abilities.sample_uses(state, player)
        state["active"] = saved
        return out

    def _next_reactor(self, state: State, ctx: Context) -> None:
        pend = state["pending"]
        reactors = self._reactors(state) if not pend["cancelled"] else []
        if reactors:
            state["active"] = reactors[0]
            return
        self._proceed(state, ctx)

    def _do_slow_with_fatigue(self, state: State, player: str, action: Action, ctx: Context) -> None:
        pend = state["pending"]
        self._require(pend is not None and pend["kind"] == "reaction" and player != self._actor(state),
                      "fatigue is spent this way when an enemy unit is activated to move", "SAGA p.24")
        unit = state["units"][pend["unit"]]
        self._require(pend["order"] == "move" and unit["fatigue"] > 0 and not pend["fatigue_slowed"],
                      "spend one fatigue of a unit activated to move, once per move", "SAGA p.24")
        unit["fatigue"] -= 1
        pend["slow"] += 1
        pend["fatigue_slowed"] = True
        ctx.emit("fatigue_spent", f"{player} spends a fatigue of {unit['name']}: its move is one step shorter",
                 "SAGA p.24", unit=unit["id"])
        if not self._reaction_options(state, player):
            pend["asked"].append(player)
            self._next_reactor(state, ctx)

    def _do_pass(self, state: State, player: str, action: Action, ctx: Context) -> None:
        pend = state["pending"]
        self._require(pend is not None and pend["kind"] == "reaction" and player != self._actor(state),
                      "nothing to pass on", "SAGA p.47")
        pend["asked"].append(player)
        self._next_reactor(state, ctx)

    def _proceed(self, state: State, ctx: Context) -> None:
        """The reactions are over: carry the activation out (or drop it if cancelled)."""
        pend = state["pending"]
        unit = state["units"][pend["unit"]]
        state["active"] = unit["owner"]
        if pend["cancelled"] or not unit["figures"]:
            state["pending"] = None
            self._after_resolution(state, ctx)
            return
        unit["activations"] += 1
        if pend["order"] == "shoot":
            problem = abilities.order_problem(state, unit, "shoot")
            if problem is not None:
                # a reaction (Hit and Run) moved or killed every target: the activation is spent
                self._lose_activation(state, ctx, f"{unit['name']} has nothing to shoot at any more "
                                      f"({problem[0]})", problem[1])
                return
        if pend["order"] == "rest":
            remove_fatigue(unit, 1)
            unit["rested"] = True
            ctx.emit("rest", f"{unit['name']} rests and discards a fatigue ({unit['fatigue']} left)", "SAGA p.25",
                     pieces=list(unit["figures"]), unit=unit["id"])
            state["pending"] = None
            self._after_resolution(state, ctx)
            return
        if pend["order"] == "move":
            must = self._second_move_target(state, unit)
            pend["must_engage"] = must
            if must:
                try:
                    # the engage option the move would offer (a Side by Side partner, say, may
                    # engage only his Warlord's foe, SAGA p.34): without it the move cannot be made
                    self._engagement(state, pend, must)
                except IllegalAction as why:
                    self._lose_activation(state, ctx, f"{unit['name']} must engage {state['units'][must]['name']} "
                                          f"on a second move but cannot ({why})", "SAGA p.14")
                    return
        pend["kind"] = pend["order"]

    def _lose_activation(self, state: State, ctx: Context, why: str, rule: str) -> None:
        """The activated unit cannot carry out its order: the activation (and its die) is spent and nothing happens."""
        unit = state["units"][state["pending"]["unit"]]
        ctx.emit("activate", f"{why}: the activation is cancelled", rule, unit=unit["id"])
        state["pending"] = None
        self._after_resolution(state, ctx)

    def _second_move_target(self, state: State, unit: dict[str, Any]) -> str | None:
        """SAGA p.14: a second move with an enemy unit within S must engage the nearest one."""
        if unit["moves"] + unit["shots"] < 1 or unit["moves"] < 1 or state["mode"] == "quickstart":
            return None
        near = [(unit_gap(state, unit["id"], e["id"]), e["id"]) for e in enemies_of(state, unit["owner"])]
        near = [n for n in near if n[0] <= cat.inches("S") + EPS]
        return min(near)[1] if near else None

    def _move_rules(self, state: State, pend: dict[str, Any]) -> movement.MoveRules:
        return movement.activation_rules(pend)

    # carrying out moves and shots -----------------------------------------------------------------
    def _pending_of(self, state: State, player: str, kind: str) -> dict[str, Any]:
        pend = state["pending"]
        self._require(pend is not None and pend["kind"] == kind and player == self._actor(state)
                      and state["melee"] is None and state["shooting"] is None,
                      f"no unit is activated to {kind} now", "SAGA p.10")
        return pend

    def _do_move(self, state: State, player: str, action: Action, ctx: Context) -> None:
        pend = self._pending_of(state, player, "move")
        uid = pend["unit"]
        if "path" in action:
            path = action["path"]
            self._require(isinstance(path, dict) and all(isinstance(pts, list) and pts for pts in path.values()),
                          "path maps figure ids to lists of [x, y] points (the last is the end)", "SAGA p.12")
            points = {str(k): [table_point(p, "path", "SAGA p.12") for p in v] for k, v in path.items()}
            dest = {k: v[-1] for k, v in points.items()}
            via = {k: v[:-1] for k, v in points.items() if len(v) > 1}
            self._carry_move(state, uid, dest, ctx, via=via)
            return
        self._carry_move(state, uid, self._destinations(state, uid, action, "SAGA p.12"), ctx)

    @staticmethod
    def _destinations(state: State, uid: str, action: Action, rule: str) -> dict[str, tuple[float, float]]:
        """Where a move or a withdrawal puts the unit's figures: ``to`` (figure -> [x, y]) or the
        whole unit shifted by ``dx``, ``dy``; finite numbers only, else ``IllegalAction`` naming
        the parameter."""
        if "to" in action:
            to = action["to"]
            if not isinstance(to, dict):
                raise IllegalAction(f"to maps figure ids to [x, y]; got {to!r}", rule)
            return {str(k): table_point(v, "to", rule) for k, v in to.items()}
        dx = finite_number(action.get("dx", 0), "dx", "the shift in inches", rule)
        dy = finite_number(action.get("dy", 0), "dy", "the shift in inches", rule)
        return movement.translation(state, uid, dx, dy)

    def _do_engage(self, state: State, player: str, action: Action, ctx: Context) -> None:
        pend = self._pending_of(state, player, "move")
        target = action.get("target")
        tu = state["units"].get(target) if isinstance(target, str) else None
        self._require(tu is not None and bool(tu["figures"]) and tu["owner"] != player,
                      "target is an enemy unit", "SAGA p.20")
        dest, via = movement.engage_move(state, pend["unit"], str(target), self._move_rules(state, pend))
        self._carry_move(state, pend["unit"], dest, ctx, want=str(target), via=via)

    def _do_hold(self, state: State, player: str, action: Action, ctx: Context) -> None:
        pend = self._pending_of(state, player, "move")
        try:
            self._carry_move(state, pend["unit"], {}, ctx)
        except IllegalAction as why:
            if self._move_options(state, pend):
                raise
            # no move, engagement or hold is legal (rules that each forbid one thing together
            # forbid everything): the unit stays and its activation is spent, never a game stuck
            self._lose_activation(state, ctx, f"{state['units'][pend['unit']]['name']} has no legal move "
                                  f"(staying is refused too: {why.reason})", why.rule)

    def _carry_move(self, state: State, uid: str, dest: dict[str, tuple[float, float]], ctx: Context,
                    want: str | None = None, via: dict[str, list[tuple[float, float]]] | None = None) -> None:
        pend = state["pending"]
        unit = state["units"][uid]
        rules = self._move_rules(state, pend)
        res = movement.validate_move(state, uid, dest, rules, via=via)
        # a unit holding the building engaged: the building's owner picks its defender (SAGA p.27)
        inside = want is not None and res.engaged_building is not None \
            and state["units"][want].get("building") == res.engaged_building
        if want is not None and res.engaged != want and not inside:
            raise IllegalAction(f"{unit['name']} cannot reach {state['units'][want]['name']} this activation", "SAGA p.20")
        self._check_join(state, pend, res)
        self._warlords_pride(state, unit, res, rules)
        movement.apply_move(state, uid, res)
        foe, named = buildings.engaged_label(state, res.engaged, res.engaged_building) if res.engaged else ("", None)
        ctx.emit("move", f"{unit['name']} moves (up to {res.allowance:g}\""
                 + (", uneven terrain" if res.uneven else "") + ")"
                 + (f" and engages {foe}" if res.engaged else ""),
                 "SAGA p.12" if not res.engaged else "SAGA p.20", pieces=list(unit["figures"]), unit=uid,
                 engaged=named, building=res.engaged_building)
        free = pend.get("free") or {}
        if (unit["moves"] + unit["shots"]) >= 1 and not free.get("no_fatigue"):
            add_fatigue(state, unit, 1, ctx, "a move after another move or shot this turn", "SAGA p.24")
        unit["moves"] += 1
        self._baggage_exit(state, unit, ctx)
        state["pending"] = None
        if res.engaged and unit["figures"]:
            if free.get("engage_fatigue"):
                add_fatigue(state, state["units"][res.engaged], free["engage_fatigue"], ctx, "Terrified", "SAGA p.61")
            partner = pend.get("side_by_side")
            if partner is not None:
                # SAGA p.34: the Warlord has moved first; his We Obey unit may now join the same fight
                for q in state["queue"]:
                    if q["unit"] == partner:
                        q["join"] = res.engaged
                state["deferred_melee"] = {"attacker": uid, "defender": res.engaged, "partner": partner}
                ctx.emit("melee", f"{unit['name']} waits for {state['units'][partner]['name']} to join him "
                         "Side by Side", "SAGA p.34", unit=uid)
                self._after_resolution(state, ctx)
                return
            deferred = state.get("deferred_melee")
            if deferred and deferred["partner"] == uid and deferred["defender"] == res.engaged:
                state["deferred_melee"] = None
                if state["units"][deferred["attacker"]]["figures"]:
                    melee_mod.begin(state, deferred["attacker"], res.engaged, ctx, partner=uid)
                else:
                    melee_mod.begin(state, uid, res.engaged, ctx)
                return
            melee_mod.begin(state, uid, res.engaged, ctx)
            return
        if unit.get("weapon") == "javelin" and unit["figures"]:
            targets = [e["id"] for e in enemies_of(state, unit["owner"]) if shooting.eligible_shooters(state, uid, e["id"])]
            if targets:
                state["pending"] = {"kind": "javelin", "unit": uid, "targets": targets}
                return
        self._after_resolution(state, ctx)

    def _check_join(self, state: State, pend: dict[str, Any], res: movement.MoveResult) -> None:
        """While a Warlord waits for his Side by Side partner, that partner engages his foe or nobody."""
        join = pend.get("join")
        if join and res.engaged and res.engaged != join:
            raise IllegalAction(f"Side by Side: {state['units'][pend['unit']]['name']} may engage only "
                                f"{state['units'][join]['name']}, the unit its Warlord engaged", "SAGA p.34")

    def _warlords_pride(self, state: State, unit: dict[str, Any], res: movement.MoveResult,
                        rules: movement.MoveRules, foes: list[str] | None = None) -> None:
        """SAGA p.34: a Warlord moving who can engage the enemy Warlord must do so; with two
        enemy Warlords in his reach (a second Warlord, SAGA p.58) he engages one of them (``foes``:
        :meth:`_pride_foes`, when already known)."""
        if unit["cls"] != "warlord":
            return
        foes = self._pride_foes(state, unit, rules) if foes is None else foes
        if foes and res.engaged not in foes:
            raise IllegalAction("Warlord's Pride: he can engage the enemy Warlord, so he must "
                                f"(action engage, target {' or '.join(foes)})", "SAGA p.34")

    def _pride_foes(self, state: State, unit: dict[str, Any], rules: movement.MoveRules) -> list[str]:
        """The enemy Warlords the Warlord ``unit`` can engage this move (straight or round what
        is in the way, ``movement.engage_move``); none for another unit (SAGA p.34)."""
        if unit["cls"] != "warlord":
            return []
        out = []
        for foe in enemies_of(state, unit["owner"]):
            if foe["cls"] != "warlord":
                continue
            dest, via = movement.engage_move(state, unit["id"], foe["id"], rules)
            try:
                check = movement.validate_move(state, unit["id"], dest, rules, via=via)
            except IllegalAction:
                continue
            if check.engaged == foe["id"]:
                out.append(foe["id"])
        return out

    def _baggage_exit(self, state: State, unit: dict[str, Any], ctx: Context) -> None:
        """SAGA p.56: baggage leaves the table when it ends a move touching the far edge."""
        edge = state["exit_edge"].get(unit["owner"])
        if not unit.get("baggage") or edge is None:
            return
        f = state["figures"][unit["figures"][0]]
        # table coordinates have y up: the top edge is y = height, the bottom edge y = 0
        touching = f["y"] + f["r"] >= state["table"]["height"] - CONTACT if edge == "top" else \
            f["y"] - f["r"] <= CONTACT
        if touching:
            del state["figures"][unit["figures"][0]]
            unit["figures"] = []
            unit["exited"] = True
            state["exited"][unit["owner"]] += 1
            ctx.emit("exit", f"{unit['name']} leaves the table", "SAGA p.56", unit=unit["id"])

    def _do_shoot(self, state: State, player: str, action: Action, ctx: Context) -> None:
        pend = state["pending"]
        self._require(pend is not None and pend["kind"] in ("shoot", "javelin") and player == self._actor(state)
                      and state["shooting"] is None, "no unit is activated to shoot now", "SAGA p.15")
        target = action.get("target")
        tu = state["units"].get(target) if isinstance(target, str) else None
        self._require(tu is not None and bool(tu["figures"]), "target is a living enemy unit", "SAGA p.15")
        uid = pend["unit"]
        unit = state["units"][uid]
        javelin = pend["kind"] == "javelin"
        shooting.begin(state, uid, str(target), ctx, after_move=javelin)
        free = pend.get("free") or {}
        if not javelin:
            # the fatigue of a second activation comes once the shot is resolved (SAGA p.24), so
            # the target cannot spend it for armour against this very shot
            state["shooting"]["second_activation"] = (unit["moves"] + unit["shots"]) >= 1 \
                and not free.get("no_fatigue")
            unit["shots"] += 1
        state["pending"] = None

    # melee and shooting steps ----------------------------------------------------------------------
    def _do_melee_trade(self, state: State, player: str, action: Action, ctx: Context) -> None:
        m = state["melee"]
        self._require(m is not None and m["step"] == "trade" and player == m["players"][m["defender"]],
                      "only the defender, in melee step 2", "SAGA p.22")
        melee_mod.trade(state, bool(action.get("trade", False)), ctx)
        heroes.vengeful(state, ctx)                        # step 3 begins (SAGA p.45)

    def _do_expert_rider(self, state: State, player: str, action: Action, ctx: Context) -> None:
        heroes.expert_rider(state, player, action, ctx)

    def _do_conqueror(self, state: State, player: str, action: Action, ctx: Context) -> None:
        heroes.conqueror(state, player, action, ctx)

    def _do_spend_fatigue(self, state: State, player: str, action: Action, ctx: Context) -> None:
        if state["melee"] is not None:
            m = state["melee"]
            self._require(m["step"].startswith("abilities") and player in m["players"].values(),
                          "fatigue is spent in melee step 3", "SAGA p.24")
            melee_mod.spend_fatigue(state, player, str(action.get("effect")), ctx, for_unit=action.get("for_unit"),
                                    source=action.get("unit"))
        elif state["shooting"] is not None:
            self._require(state["shooting"]["step"] == "defender", "the target spends fatigue in step 2", "SAGA p.24")
            shooting.spend_fatigue(state, player, ctx)
        else:
            raise IllegalAction("no melee or shooting to spend fatigue in", "SAGA p.24")

    def _do_ready(self, state: State, player: str, action: Action, ctx: Context) -> None:
        if state["melee"] is not None:
            m = state["melee"]
            self._require(m["step"].startswith("abilities"), "the defender decides step 2 first "
                          "(melee_trade)", "SAGA p.22")
            if "at_warlord" in action:
                n = action["at_warlord"]
                self._require(bool(m.get("partner")) and player == m["players"][m["defender"]],
                              "at_warlord: the defender splits its dice against a Warlord fighting Side by Side",
                              "SAGA p.34")
                limit = melee_mod.split_limit(state, m, m["sides"][m["defender"]]["attack"])
                self._require(isinstance(n, int) and 0 <= n <= limit,
                              f"at most {limit} attack dice may strike the Warlord", "SAGA p.34")
                m["split"] = n
            melee_mod.done(state, player, ctx)
        elif state["shooting"] is not None:
            self._require(state["shooting"]["step"] in ("attacker", "defender"), "the shot is being resolved",
                          "SAGA p.17")
            shooting.done(state, ctx)
        elif state["pending"] and state["pending"]["kind"] == "javelin":
            state["pending"] = None                      # no javelin shot after the move
        else:
            raise IllegalAction("nothing to be ready for", "SAGA p.22")
        self._after_resolution(state, ctx)

    def _do_remove_casualties(self, state: State, player: str, action: Action, ctx: Context) -> None:
        """The owner picks the casualties of his unit (melee step 6, shooting step 5, an ability)."""
        m, sh = state["melee"], state["shooting"]
        figures = action.get("figures")
        if state.get("choice") is not None:
            casualties.settle(state, figures, ctx)
        elif m is not None and m["step"] == "casualties":
            entry = m["casualties"][0]
            uid = entry["unit"]
            self._require(player == state["units"][uid]["owner"], "the owner of the unit picks its casualties",
                          "SAGA p.22")
            chosen = casualties.check(state, uid, entry["hits"], figures, entry["by"], melee=True)
            melee_mod.next_casualties(state, ctx, chosen=chosen)
        elif sh is not None and sh["step"] == "casualties":
            uid = sh["target"]
            self._require(player == state["units"][uid]["owner"], "the owner of the unit picks its casualties",
                          "SAGA p.17")
            chosen = casualties.check(state, uid, sh["hits"], figures, sh["shooter"], melee=False)
            shooting.finish(state, ctx, chosen=chosen)
        else:
            raise IllegalAction("no casualties to choose now", "SAGA p.17, p.22")
        self._after_resolution(state, ctx)

    def _do_bodyguards(self, state: State, player: str, action: Action, ctx: Context) -> None:
        """The Warlord's owner picks the friendly figures that die in his place (SAGA p.33)."""
        m, sh = state["melee"], state["shooting"]
        figures = action.get("figures")
        if m is not None and m["step"] == "bodyguards":
            entry = m["casualties"][0]
            n = casualties.guard_choice(state, entry["unit"], entry["hits"])
            guards = casualties.check_guards(state, entry["unit"], n, figures)
            melee_mod.next_casualties(state, ctx, guards=guards)
        elif sh is not None and sh["step"] == "bodyguards":
            n = casualties.guard_choice(state, sh["target"], sh["hits"])
            guards = casualties.check_guards(state, sh["target"], n, figures)
            shooting.finish(state, ctx, guards=guards)
        else:
            raise IllegalAction("no Warlord needs bodyguards now", "SAGA p.33")
        self._after_resolution(state, ctx)

    def _do_defend_building(self, state: State, player: str, action: Action, ctx: Context) -> None:
        """The owner of the units holding an engaged building picks its defender (SAGA p.27)."""
        m = state["melee"]
        self._require(m is not None and m["step"] == "building" and player == m["players"][m["defender"]],
                      "no building's defender to pick now", "SAGA p.27")
        melee_mod.choose_defender(state, action.get("unit"), ctx)

    def _do_withdraw(self, state: State, player: str, action: Action, ctx: Context) -> None:
        """Melee step 8: the owner places his disengaging unit."""
        m = state["melee"]
        self._require(m is not None and m["step"] == "withdraw", "no unit is disengaging now", "SAGA p.22")
        w = m["withdrawing"]
        uid = w["unit"]
        self._require(player == state["units"][uid]["owner"], "the owner of the disengaging unit places it",
                      "SAGA p.22")
        dest = self._destinations(state, uid, action, "SAGA p.22")
        problem = movement.withdrawal_problem(state, uid, w["away_from"], dest)
        self._require(problem is None, f"{state['units'][uid]['name']} cannot disengage there: {problem}", "SAGA p.22")
        melee_mod.next_withdrawal(state, ctx, chosen=dest)
        self._after_resolution(state, ctx)

    def _after_resolution(self, state: State, ctx: Context) -> None:
        """When nothing is pending any more, start the next queued activation (We Obey)."""
        if state["melee"] is not None or state["shooting"] is not None or state["pending"] or state.get("choice"):
            return
        if state.get("interrupted"):                       # back to the window Hit and Run interrupted
            state["pending"] = state["interrupted"].pop()
            self._next_reactor(state, ctx)
            return
        state["active"] = state["turn_player"]
        while state["queue"]:
            nxt = state["queue"].pop(0)
            unit = state["units"][nxt["unit"]]
            if not unit["figures"] or exhausted(unit):
                continue
            order = nxt.get("order", "move")
            problem = abilities.order_problem(state, unit, order) if order != "move" else None
            if problem is not None:
                ctx.emit("activate", f"{unit['name']} cannot {order} any more ({problem[0]})", problem[1],
                         unit=unit["id"])
                continue
            ctx.emit("activate", f"{unit['name']} is activated to {order} ({nxt['source']}"
                     + (", may not engage" if nxt.get("no_engage") else "") + ")",
                     "SAGA p.33" if not nxt.get("no_engage") and order == "move" else "SAGA p.42",
                     pieces=list(unit["figures"]), unit=unit["id"])
            free = {**free_activation(unit, "We Obey"), "no_engage": True} if nxt.get("no_engage") else None
            self._start_activation(state, unit, order, ctx, paid=False, free=free, join=nxt.get("join"))
            return
        deferred = state.get("deferred_melee")
        if deferred:                    # the partner did not join: the Warlord fights alone
            state["deferred_melee"] = None
            if state["units"][deferred["attacker"]]["figures"] and state["units"][deferred["defender"]]["figures"]:
                melee_mod.begin(state, deferred["attacker"], deferred["defender"], ctx)

    # end of turn -------------------------------------------------------------------------------
    def _do_end_turn(self, state: State, player: str, action: Action, ctx: Context) -> None:
        self._require(state["phase"] == "activation" and state["turn_player"] == player and self._idle(state)
                      and not state["queue"] and not state.get("interrupted"), "end the turn in your Activation Phase, with nothing pending", "SAGA p.11")
        victory.end_of_player_turn(state, player, ctx)
        order = state["order"]
        i = order.index(player)
        nxt = order[(i + 1) % len(order)]
        round_over = i + 1 >= len(order)
        if round_over:
            state["turn"] += 1
        simultaneous = state["rules"]["simultaneous_orders"]
        if simultaneous and round_over:
            nxt = state["seating"][0]                  # every Orders Phase of the next turn (SAGA p.57)
        state["turn_player"] = nxt
        state["active"] = nxt
        state["phase"] = "activation" if simultaneous and not round_over else "orders"
        state["orders_rolled"] = state["phase"] == "activation"
        if simultaneous:                               # the others' free activations wait for their phases
            state["free"] = [f for f in state["free"] if state["units"][f["unit"]]["owner"] != player]
        else:
            state["free"] = []
        state["armour_down"] = {}
        for side in state["sides"].values():
            side.update(determination=0, we_obey=0, sons_of_the_land=False, double_bow_range=False)
        for u in state["units"].values():
            u.update(moves=0, shots=0, rested=False, activations=0, entered_building=None)
            if "bravery_used" in u:
                u["bravery_used"] = False                 # Harold's Bravery: once in each of his turns
        if state["turn"] > state["max_turns"]:
            ctx.emit("end", f"the {state['max_turns']} turns are played", "SAGA p.48")
        else:
            ctx.emit("turn", f"turn {state['turn']}: {nxt} to play", "SAGA p.5")

    # legal actions -----------------------------------------------------------------------------
    def legal_actions(self, state: State) -> list[Action]:
        if victory.outcome(state) is not None:
            return []
        if state["phase"] == "setup":
            return placement.legal(state)
        player = state["active"]
        m, sh, pend = state["melee"], state["shooting"], state["pending"]
        if state.get("choice") is not None:
            return [{"type": "remove_casualties", "figures": c} for c in casualties.choice_options(state)]
        if m is not None:
            if m["step"] == "casualties":
                e = m["casualties"][0]
                return [{"type": "remove_casualties", "figures": c}
                        for c in casualties.options(state, e["unit"], e["hits"], e["by"], melee=True)]
            if m["step"] == "bodyguards":
                e = m["casualties"][0]
                n = casualties.guard_choice(state, e["unit"], e["hits"])
                return [{"type": "bodyguards", "figures": c} for c in casualties.guard_options(state, e["unit"], n)]
            if m["step"] == "withdraw":
                return [{"type": "withdraw", "to": to} for to in melee_mod.withdrawal_options(state)]
            if m["step"] == "building":
                return [{"type": "defend_building", "unit": u} for u in buildings.defender_options(state, m["defender"])]
            if m["step"] == "trade":
                return [{"type": "melee_trade", "trade": False}, {"type": "melee_trade", "trade": True}]
            out: list[Action] = [{"type": "ready"}]
            mine = melee_mod.unit_of(state, player)
            if m.get("partner") and mine == m["defender"] and m["sides"][mine]["attack"] > 0:
                out.append({"type": "ready", "at_warlord": 0})               # all dice on the partner
            for unit_id in [u for u in m["players"] if m["players"][u] == player]:
                for foe in melee_mod.foes(m, unit_id):
                    if state["units"][foe]["fatigue"] <= 0:
                        continue
                    extra: dict[str, Any] = {}
                    if unit_id != mine:
                        extra["for_unit"] = unit_id
                    if foe != melee_mod.enemy_of(m, unit_id):
                        extra["unit"] = foe
                    for eff, key in (("armour_up", "spent_up"), ("armour_down", "spent_down")):
                        if not m["sides"][unit_id][key]:
                            out.append({"type": "spend_fatigue", "effect": eff, **extra})
            return out + heroes.options(state, player) + abilities.sample_uses(state, player)
        if sh is not None:
            if sh["step"] == "casualties":
                return [{"type": "remove_casualties", "figures": c}
                        for c in casualties.options(state, sh["target"], sh["hits"], sh["shooter"], melee=False)]
            if sh["step"] == "bodyguards":
                n = casualties.guard_choice(state, sh["target"], sh["hits"])
                return [{"type": "bodyguards", "figures": c} for c in casualties.guard_options(state, sh["target"], n)]
            out = [{"type": "ready"}]
            if sh["step"] == "defender" and not sh["spent"] and state["units"][sh["shooter"]]["fatigue"] > 0:
                out.append({"type": "spend_fatigue", "effect": "armour_up"})
            return out + abilities.sample_uses(state, player)
        if pend:
            if pend["kind"] == "reaction":
                return [{"type": "pass"}] + self._reaction_options(state, player)
            if pend["kind"] == "move":
                return self._move_options(state, pend) or [{"type": "hold"}]     # see _do_hold
            if pend["kind"] == "shoot":
                return [{"type": "shoot", "target": e["id"]} for e in enemies_of(state, player)
                        if shooting.eligible_shooters(state, pend["unit"], e["id"])]
            if pend["kind"] == "javelin":
                return [{"type": "ready"}] + [{"type": "shoot", "target": t} for t in pend["targets"]]
        if state["phase"] == "orders":
            if not state["orders_rolled"]:
                out = [{"type": "roll_dice", "keep": []}] + (
                    [{"type": "roll_dice", "keep": board.keepable(state, player)}] if board.keepable(state, player) else [])
                if len(board.boards(state, player)) > 1 and board.shares_dice_limit(state, player):   # Supreme King
                    n = board.roll_count(state, player, 0)
                    out += [{"type": "roll_dice", "keep": [], "second": k} for k in sorted({n // 3, n // 2} - {0})]
                return out
            out = [{"type": "end_orders"}]
            out += [{"type": "place_die", "die": d, "box": b} for d, b in board.placeable(state, player)]
            hand = board.rolled_unplaced(state, player)
            limit = hero_spec(state, player).get("orders_reroll", 0)
            if limit and hand and not state["sides"][player].get("rerolled"):
                out.append({"type": "reroll_dice", "dice": hand[:limit]})
            return out + wrath.options(state, player) + abilities.sample_uses(state, player)
        out = [] if state["queue"] else [{"type": "end_turn"}]
        out += self._activation_options(state, player)
        return out + abilities.sample_uses(state, player)

    def _activation_options(self, state: State, player: str) -> list[Action]:
        out: list[Action] = []
        ready_boxes: dict[str, list[dict[str, Any]]] = {}
        for b in board.board_boxes(state, player):             # every board in use (Canute, Egil: two)
            if b["effect"]["kind"] == "activate" and board.ready(state, player, b["id"]):
                ready_boxes.setdefault(b["effect"]["class"], []).append(b)
        any_box = bool(hero_spec(state, player).get("any_activation_box"))
        for u in live_units(state, player):
            cls = "hearthguard" if u.get("baggage") else cat.classes()["classes"][u["cls"]]["activated_as"]
            boxes = [b for bs in ready_boxes.values() for b in bs] if any_box else ready_boxes.get(cls, [])
            sources = [b["id"] for b in boxes if board_serves(state, u, b["faction"])]
            if u["cls"] == "warlord" and state["sides"][player]["determination"] < state["rules"]["determination"]:
                sources.append("determination")
            if any(f["unit"] == u["id"] for f in state["free"]):
                sources.append("free")
            for src in sources:
                for order in ("move", "shoot", "rest"):
                    free = None
                    if src == "free":
                        free = next((f for f in state["free"] if f["unit"] == u["id"] and order in f["orders"]), None)
                        if free is None:
                            continue
                    try:
                        self._check_order(state, u, order, free)
                    except IllegalAction:
                        continue
                    out.append({"type": "activate", "unit": u["id"], "source": src, "order": order})
                    if u["cls"] == "warlord" and order == "move" and not u.get("lesser"):
                        obeying: list[str] = []
                        for o in live_units(state, player):
                            try:
                                self._check_we_obey(state, player, u, order, o["id"])
                            except IllegalAction:
                                continue
                            obeying.append(o["id"])
                            out.append({"type": "activate", "unit": u["id"], "source": src, "order": "move",
                                        "we_obey": o["id"]})
                            if "shoot" in hero_spec(state, player).get("we_obey_orders", []) and \
                                    abilities.order_problem(state, o, "shoot") is None:
                                out.append({"type": "activate", "unit": u["id"], "source": src, "order": "move",
                                            "we_obey": o["id"], "we_obey_order": "shoot"})
                            if self._side_by_side_worth_offering(state, u, o):
                                out.append({"type": "activate", "unit": u["id"], "source": src, "order": "move",
                                            "we_obey": o["id"], "side_by_side": True})
                        if len(obeying) >= 2 and hero_spec(state, player).get("we_obey_units", 1) >= 2:
                            out.append({"type": "activate", "unit": u["id"], "source": src, "order": "move",
                                        "we_obey": obeying[:2]})       # William's The Bastard (SAGA p.42)
        return out

    def _side_by_side_worth_offering(self, state: State, warlord_unit: dict[str, Any], other: dict[str, Any]) -> bool:
        """Offer Side by Side in the legal list only when an enemy is within the Warlord's reach."""
        try:
            self._check_side_by_side(state, warlord_unit, other["id"])
        except IllegalAction:
            return False
        reach = cat.inches("L") + cat.inches("VS")
        return any(unit_gap(state, warlord_unit["id"], e["id"]) <= reach for e in enemies_of(state, warlord_unit["owner"]))

    def _engagement(self, state: State, pend: dict[str, Any], target: str,
                    pride: list[str] | None = None) -> movement.MoveResult:
        """The move of the activated unit that engages ``target`` (``movement.engage_move``), or
        ``IllegalAction``: it must be legal, reach ``target``, join a Side by Side Warlord's foe
        (SAGA p.34) and obey Warlord's Pride (``pride``: :meth:`_pride_foes`, when known)."""
        uid = pend["unit"]
        rules = self._move_rules(state, pend)
        dest, via = movement.engage_move(state, uid, target, rules)
        res = movement.validate_move(state, uid, dest, rules, via=via)
        if res.engaged != target:
            raise IllegalAction(f"{state['units'][uid]['name']} cannot reach {state['units'][target]['name']} "
                                "this activation", "SAGA p.20")
        self._check_join(state, pend, res)
        self._warlords_pride(state, state["units"][uid], res, rules, pride)
        return res

    def _move_options(self, state: State, pend: dict[str, Any]) -> list[Action]:
        uid = pend["unit"]
        rules = self._move_rules(state, pend)
        out: list[Action] = []
        unit = state["units"][uid]
        reach = movement.allowance(state, unit, False, rules) + cat.inches("VS")
        pride = self._pride_foes(state, unit, rules)
        for e in enemies_of(state, unit["owner"]):
            # the quick test of reach, figure to figure, is no test when walls are measured from
            # (SAGA p.27: a building's holders are engaged at its walls, left from its walls)
            if not (e.get("building") or unit.get("building")) and unit_gap(state, uid, e["id"]) > reach:
                continue
            try:
                self._engagement(state, pend, e["id"], pride)
            except IllegalAction:
                continue
            out.append({"type": "engage", "target": e["id"]})
        if rules.must_engage:
            return out
        for move in movement.sample_moves(state, uid, rules):
            try:
                self._check_join(state, pend, move.result)     # a Side by Side partner: his Warlord's foe or nobody
                self._warlords_pride(state, unit, move.result, rules, pride)
            except IllegalAction:
                continue
            out.append(movement.move_action(move.dest, move.via))
        try:
            res = movement.validate_move(state, uid, {}, rules)
            self._warlords_pride(state, unit, res, rules, pride)
            out.append({"type": "hold"})
        except IllegalAction:
            pass
        return out

    def visible_state(self, state: State, player: str | None) -> State:
        bids.hide(state, player)       # scenario 5's secret bids, until every bid is in
        scenery.hide(state, player)    # the secret terrain numbers (SAGA p.49), likewise
        board.hide_dice(state, player)  # scenario X: the others' dice during the Orders Phases (SAGA p.57)
        return state

