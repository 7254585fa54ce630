"""Jarl Sigvald's Jomsvikings (SAGA p.44): Sigvald's dice and last place, the Wrath of the
Jomsvikings (dice beside the unit, free activations, cumulative effects), the betrayal."""

import pytest

from simulator.core import IllegalAction
from simulator.games.saga import casualties, melee, wrath
from simulator.games.saga.units import base_armour, removal_order
from tests.saga.helpers import session

JOMS = {"id": "joms", "class": "hearthguard", "figures": 4, "mercenary": "jomsvikings", "at": [10, 10], "columns": 4}


def _joms(tape):
    return session([{"id": "lord", "class": "warlord", "at": [30, 3]}, JOMS],
                   [{"id": "el", "class": "warlord", "at": [40, 33]},
                    {"id": "war", "class": "warriors", "figures": 8, "at": [10, 14], "columns": 4}],
                   faction_b="vikings", tape=tape)


def test_sigvald_leads_and_dies_last() -> None:
    s = _joms([])
    u = s.state["units"]["joms"]
    assert u["leader"] == "joms.1" and u["figure_names"]["joms.1"] == "Jarl Sigvald"
    assert dict(u["figure_dice"]) == {"joms.1": 3, "joms.2": 1, "joms.3": 1, "joms.4": 1}
    assert base_armour(s.state, u, shooting=False) == 4
    st = s.state_data()
    assert removal_order(st, "joms", None)[-1] == "joms.1"
    assert "dies last" in casualties.problem(st, "joms", 2, ["joms.1", "joms.2"], "war", True)
    assert casualties.problem(st, "joms", 4, ["joms.1", "joms.2", "joms.3", "joms.4"], "war", True) is None


def test_wrath_dice_give_free_activations_and_effects() -> None:
    s = _joms(["C", "U", "R", "C", 5, 4, 3])
    s.apply({"type": "roll_dice", "keep": []})
    legal = s.legal_actions()
    assert {"type": "wrath", "unit": "joms", "dice": [0, 1, 2]} in legal
    assert not any(a.get("source") for a in legal)
    s.apply({"type": "wrath", "unit": "joms", "dice": [0, 1]})
    with pytest.raises(IllegalAction, match="at most 3"):
        s.apply({"type": "wrath", "unit": "joms", "dice": [2, 3]})
    s.apply({"type": "wrath", "unit": "joms", "dice": [2]})
    events = s.apply({"type": "end_orders"})
    assert any(e.kind == "wrath" and e.data.get("total") == 12 and e.data.get("free") == 3 for e in events)
    u = s.state["units"]["joms"]
    assert dict(u["wrath"]) == {"attack_per_figure": 1, "armour": 1, "defence": 3, "attack": 4}
    assert all(d["box"] is None for d in s.state["sides"]["A"]["dice"][:3])     # discarded
    assert base_armour(s.state, u, shooting=True) == 5
    st = s.state_data()
    for f in st["units"]["war"]["figures"][:4]:                     # the front rank touching them
        st["figures"][f]["y"] = 11.0
    side = melee._side(st, "joms", "war")
    assert (side["base"], side["attack"], side["defence"]) == (6, 6 + 4 + 4, 3)
    acts = [a for a in s.legal_actions() if a["type"] == "activate" and a["unit"] == "joms"]
    assert acts and all(a["source"] == "free" for a in acts)
    assert sum(1 for f in s.state["free"] if f["unit"] == "joms") == 3


def test_no_board_activation_and_effects_end_at_the_next_turn() -> None:
    s = _joms(["C", "C", "C", "C", 6, 6, 2] + ["C"] * 8)
    s.apply({"type": "roll_dice", "keep": []})
    s.apply({"type": "wrath", "unit": "joms", "dice": [0, 1, 2]})
    s._state["units"]["joms"]["fatigue"] = 2
    s.apply({"type": "end_orders"})                                 # 14: a fatigue off, the next one ignored
    u = s.state["units"]["joms"]
    assert u["fatigue"] == 1 and u["wrath"]["ignore_first_fatigue"] == 1
    with pytest.raises(IllegalAction):
        s.apply({"type": "activate", "unit": "joms", "source": "hirdmen", "order": "move"})
    s._state["units"]["joms"]["fatigue"] = 1
    from simulator.games.saga.units import add_fatigue
    add_fatigue(s._state, s._state["units"]["joms"], 1, type("C", (), {"emit": lambda *a, **k: None})(), "test", "x")
    assert s.state["units"]["joms"]["fatigue"] == 1                  # the first fatigue this turn is ignored
    s.apply({"type": "end_turn"})
    s.apply({"type": "roll_dice", "keep": []})                      # B's turn
    s.apply({"type": "end_orders"})
    s.apply({"type": "end_turn"})
    s.apply({"type": "roll_dice", "keep": []})                      # A's next turn: the effects end
    assert s.state["units"]["joms"]["wrath"] is None and "bravery" not in s.state["units"]["joms"]


def test_betrayal_hands_the_jomsvikings_to_the_enemy() -> None:
    s = _joms(["C", "C", "C", "C", 6, 6, 5] + ["C"] * 8)
    s.apply({"type": "roll_dice", "keep": []})
    s.apply({"type": "wrath", "unit": "joms", "dice": [0, 1, 2]})
    s.apply({"type": "end_orders"})                                 # 17: betrayal
    u = s.state["units"]["joms"]
    assert u["betray_to"] == "B" and u["wrath"] is None and not any(f["unit"] == "joms" for f in s.state["free"])
    s.apply({"type": "end_turn"})
    events = s.apply({"type": "roll_dice", "keep": []})
    assert s.state["units"]["joms"]["owner"] == "B" and any("betray" in e.text for e in s.log)
    assert {"type": "wrath", "unit": "joms", "dice": [0]} in s.legal_actions()
    assert events


def test_effects_table_is_cumulative() -> None:
    assert wrath.effects_of(1) == {}
    assert wrath.effects_of(3) == {"attack_per_figure": 1, "armour": 1}
    assert wrath.effects_of(16) == {"attack_per_figure": 1, "armour": 2, "defence": 3, "attack": 4,
                                    "discard_fatigue": 1, "ignore_first_fatigue": 1, "reroll": True}


class _Log:
    """A context that only records events (the leader's swap needs no dice)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, dict]] = []

    def emit(self, kind: str, text: str, rule: str = "", **data) -> None:
        self.events.append((kind, rule, data))


def _joms_in_line(s):
    """Sigvald at the end of a chain of his unit: each figure within VS of the next only."""
    st = s.state_data()
    for i, f in enumerate(st["units"]["joms"]["figures"]):
        st["figures"][f]["x"], st["figures"][f]["y"] = 5.0 + 2.5 * i, 10.0
    return st


def test_sigvald_last_without_breaking_formation() -> None:
    from simulator.games.saga.units import cohesive, figure_array
    st = _joms_in_line(_joms([]))
    order = removal_order(st, "joms", None)
    assert order == ["joms.4", "joms.3", "joms.2", "joms.1"]
    for n in range(1, 4):
        assert cohesive(figure_array(st, order[n:]))
    assert "dies last" in casualties.problem(st, "joms", 1, ["joms.1"], None, False)


def test_sigvald_swaps_places_when_his_place_must_empty() -> None:
    st = _joms_in_line(_joms([]))
    among = ["joms.1", "joms.2"]                  # only Sigvald (an end) and his neighbour may die
    assert casualties.default_choice(st, "joms", 1, None, among) == ["joms.1"]
    assert casualties.problem(st, "joms", 1, ["joms.2"], None, False, among) is not None   # breaks formation
    log = _Log()
    casualties.kill(st, "joms", 1, log, "a test ability", "SAGA p.59", among=among)
    assert st["choice"]["kind"] == "casualties"
    assert casualties.choice_options(st)[0] == ["joms.1"]
    casualties.settle(st, ["joms.1"], log)
    assert st["units"]["joms"]["figures"] == ["joms.1", "joms.3", "joms.4"]
    assert (st["figures"]["joms.1"]["x"], st["figures"]["joms.1"]["y"]) == (7.5, 10.0)
    assert st["losses"]["A"] == {"jomsvikings": 1}
    swap = [e for e in log.events if e[0] == "swap"]
    assert swap and swap[0][1] == "SAGA p.44" and swap[0][2]["pieces"] == ["joms.1", "joms.2"]
