"""Every cell of the Combat Resolution Table (DR 2.7.5) through the engine's ``melee`` action.

For each attack total 1-30 and defence total 1-15 a melee is built on Esirien: the defender's
units stand in 0604 (clear), the invader's attackers in some of its six neighbours (clear or
forest, no wall, no tower). No hero, no Boost Morale, no lightning: the totals are the plain
printed factors. The dice tape forces one roll that just succeeds and one that just fails
(DR 2.7.1: 1d6 needing the number or more; 2.7.1.1: "11" = 2d6 needing 11, "D" and "M" with no
roll). The expected cell comes from the rule as written in ``test_rules.formula`` (digest §9.2),
never from the game's table.
"""

from __future__ import annotations

from typing import Any

import pytest

from simulator.core import Session
from tests.dragon_rage.helpers import session, to_phase
from tests.dragon_rage.test_rules import formula

TARGET = "0604"
RING = ["0603", "0704", "0705", "0605", "0505", "0504"]     # the six neighbours of TARGET

#: Invader attackers by the attack factor the test relies on (units.yaml; the event's total checks it).
#: Goblins are missile troops: adjacent, they melee with their plain CF 1.
ATTACKERS = {8: "t_rex", 4: "giant", 3: "wargs", 2: "orcs", 1: "goblins"}
#: Defender troops by defence factor; elementals (defence 4) ignore stacking (DR 2.8.9) and
#: raise a hex's total defence above what one troop and one character can reach.
TROOPS = {1: "militia", 2: "infantry", 3: "cavalry"}
ELEMENTALS = ["fire_elemental", "earth_elemental"]
ELEMENTAL_DEFENCE = 4


def attack_parts(attack: int) -> list[int]:
    """Split ``attack`` into at most six attacker factors (one unit per ring hex)."""
    parts: list[int] = []
    for cf in sorted(ATTACKERS, reverse=True):
        while attack >= cf:
            parts.append(cf)
            attack -= cf
    assert len(parts) <= len(RING), parts
    return parts


def defence_units(defence: int) -> list[str]:
    """Unit types standing together in TARGET whose defence factors add up to ``defence``."""
    elementals, troop = divmod(defence, ELEMENTAL_DEFENCE)
    types = [TROOPS[troop]] if troop else []
    return types + [ELEMENTALS[i % 2] for i in range(elementals)]


def melee_session(attack: int, defence: int, tape: list[int]) -> tuple[Session, list[str]]:
    """A session in the invader's melee phase; returns it and the attacking unit ids."""
    invader = [{"type": ATTACKERS[cf], "at": [hex_]} for cf, hex_ in zip(attack_parts(attack), RING)]
    defender = [{"type": t, "at": [TARGET]} for t in defence_units(defence)]
    s = session({"invader": invader, "defender": defender}, tape=tape)
    to_phase(s, "invader_melee")
    attackers = [u["id"] for u in s.state["units"].values() if u["side"] == "invader"]
    return s, attackers


def rolls_for(cell: str) -> list[tuple[list[int], bool]]:
    """Forced dice and whether the defender must die: the boundary rolls of the cell (DR 2.7.1)."""
    if cell == "D":
        return [([], True)]
    if cell == "M":
        return [([], False)]
    if cell == "11":
        return [([5, 6], True), ([5, 5], False)]
    need = int(cell)
    return [([need], True), ([need - 1], False)]


def resolve(attack: int, defence: int, tape: list[int]) -> tuple[dict[str, Any], bool]:
    """Apply the melee; returns the attack event's data and whether the whole hex was destroyed."""
    s, attackers = melee_session(attack, defence, tape)
    targets = [u["id"] for u in s.state["units"].values() if u["hex"] == TARGET]
    events = s.apply({"type": "melee", "units": attackers, "target": TARGET})
    data = [e.data for e in events if e.kind == "attack"]
    assert len(data) == 1, [e.kind for e in events]
    assert s.dice.tape_left == 0, f"{attack} vs {defence}: forced dice {tape} not all used"
    alive = [s.state["units"][t]["alive"] for t in targets]
    assert all(alive) or not any(alive), f"{attack} vs {defence}: the hex is attacked as one group (DR 2.7.1.2)"
    return data[0], not any(alive)


def test_the_positions_give_every_total() -> None:
    for attack in range(1, 31):
        assert sum(attack_parts(attack)) == attack
    for defence in range(1, 16):
        assert len(defence_units(defence)) >= 1


@pytest.mark.parametrize("attack", range(1, 31))
def test_every_crt_cell_through_a_melee(attack: int) -> None:
    for defence in range(1, 16):
        cell = formula(attack, defence)
        for tape, destroyed in rolls_for(cell):
            data, gone = resolve(attack, defence, tape)
            where = f"{attack} vs {defence} with dice {tape}"
            assert (data["attack"], data["defence"]) == (attack, defence), where
            assert data["result"] == cell, f"{where}: engine gives {data['result']}, the rule {cell}"
            assert data["success"] is destroyed and gone is destroyed, where
