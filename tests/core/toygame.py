"""A minimal game used only to test the core (never shipped): a dice race.

Two sides, A and B, each with a pawn on a track. On your turn you ``roll`` (a d6
moves your pawn) and then ``end_turn``. ``bet`` rolls a custom-faced die. The
first pawn to reach the goal wins.
"""

from __future__ import annotations

from typing import Any, Mapping

from simulator.core import Context, Die, Game, IllegalAction, Outcome, Scenario, State

COIN = Die("coin", ("heads", "tails"))


class Race(Game):
    id = "race"
    name = "Dice Race"
    rule_prefix = "RACE"

    def setup(self, scenario: Scenario, ctx: Context) -> State:
        setup = scenario.setup
        ctx.dice.register(COIN)
        return {"players": ["A", "B"], "active": "A", "pos": {"A": 0, "B": 0},
                "goal": setup.get("goal", 10), "rolled": False, "bets": []}

    def setup_schema(self) -> Mapping[str, Any]:
        return {"setup": {"type": "object", "additionalProperties": False,
                          "properties": {"goal": {"type": "integer", "minimum": 1}}}}

    def action_types(self) -> Mapping[str, str]:
        return {"roll": "roll a d6 and move", "end_turn": "pass to the other side",
                "bet": "toss the coin", "jump": "move a pawn a given number of spaces"}

    def legal_actions(self, state: State) -> list[dict[str, Any]]:
        if state["rolled"]:
            return [{"type": "end_turn"}]
        return [{"type": "roll"}, {"type": "bet"}]

    def apply(self, state: State, action: dict[str, Any], ctx: Context) -> None:
        me = state["active"]
        kind = action["type"]
        if kind == "roll":
            if state["rolled"]:
                raise IllegalAction("you have already rolled this turn", "RACE 2")
            state["rolled"] = True
            n = ctx.dice.d6("race move")
            state["pos"][me] += n
            ctx.emit("move", f"{me} moves {n}", "RACE 1", pieces=[me])
        elif kind == "jump":
            steps = action.get("steps")
            state["pos"][me] += 1      # changed before the check: the session must discard it
            if not isinstance(steps, int) or steps < 1:
                raise IllegalAction("a jump needs a positive number of steps", "RACE 3")
            state["pos"][me] += steps - 1
            ctx.emit("move", f"{me} jumps {steps}", "RACE 3", pieces=[me])
        elif kind == "bet":
            face = ctx.dice.roll("coin", "bet")
            state["bets"].append(face)
            ctx.emit("bet", f"{me} tosses {face}", "RACE 4")
        elif kind == "end_turn":
            if not state["rolled"]:
                raise IllegalAction("roll before ending your turn", "RACE 2")
            state["rolled"] = False
            state["active"] = "B" if me == "A" else "A"
            ctx.emit("turn", f"{state['active']} to play", "RACE 2")

    def outcome(self, state: State) -> Outcome | None:
        for side, pos in state["pos"].items():
            if pos >= state["goal"]:
                return Outcome(side, f"{side} reaches the goal", rule="RACE 5")
        return None


GAME = Race()
