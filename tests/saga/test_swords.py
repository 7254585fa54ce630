"""Heroes of the Viking Age and Swords for Hire (SAGA p.41-46) with forced dice."""

import pytest

from simulator.core import DataError, IllegalAction
from simulator.games.saga import board, victory
from simulator.games.saga.units import base_armour
from tests.saga.helpers import engage_from, give_dice, session, to_activation

HARALD = {"hero": "harald_hardrada"}
RAGNAR = {"hero": "ragnar_lothbrok"}


def _hg(uid: str, at: list[float], **kw: object) -> dict[str, object]:
    return {"id": uid, "class": "hearthguard", "figures": 4, "at": at, "columns": 4, **kw}


def test_hero_costs_a_point_and_generates_three_dice() -> None:
    five = [_hg(f"h{i}", [6 + 8 * i, 4]) for i in range(5)]
    s = session([{"id": "lord", "class": "warlord", "at": [44, 8]}] + five,
                [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=HARALD, points=6)
    st = s.state_data()
    assert st["units"]["lord"]["name"] == "Harald Hardrada"
    assert board.generated(st, "A") == 3 + 5                   # hero 3 + one per Hearthguard unit
    with pytest.raises(DataError, match="costs 7 points"):
        session([{"id": "lord", "class": "warlord", "at": [44, 8]}] + five + [_hg("h5", [44, 14])],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=HARALD, points=6)


def test_harald_guard_varangians_and_dane_axes() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [44, 8], "dane_axe": True},
                 _hg("var", [10, 4], varangians=True, dane_axe=True), _hg("hg", [30, 4])],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=HARALD)
    st = s.state_data()
    u = st["units"]
    assert base_armour(st, u["lord"], shooting=True) == 6
    assert base_armour(st, u["lord"], shooting=False) == 5     # Guard 6, Dane axe -1 in melee
    assert base_armour(st, u["var"], shooting=True) == 6 and base_armour(st, u["hg"], shooting=True) == 5
    with pytest.raises(DataError, match="Varangians"):
        session([{"id": "lord", "class": "warlord", "at": [44, 8]}, _hg("var", [10, 4], varangians=True)],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=RAGNAR)
    with pytest.raises(DataError, match="Dane axes"):
        session([{"id": "lord", "class": "warlord", "at": [44, 8]}, _hg("hg", [10, 4], dane_axe=True)],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=HARALD)


def test_killing_a_hero_is_worth_four_vp() -> None:
    assert victory.vp_of({"hero": 1}) == 4 and victory.vp_of({"warlord": 1}) == 3
    assert victory.vp_of({"flemish": 3}) == 3


def test_ragnar_son_of_odin_ignores_two_hits() -> None:
    # 4 Hearthguard of B engage Ragnar: 3 hits, two ignored, the third kills (no bodyguard near)
    s = session([{"id": "lord", "class": "warlord", "at": [10, 13.7]}, _hg("far", [40, 4])],
                [_hg("hg", [10, 10]), {"id": "el", "class": "warlord", "at": [40, 33]}],
                faction_a="vikings", faction_b="vikings", side_a=RAGNAR,
                tape=[1, 1, 1, 1, 1,               # Ragnar's 5 dice miss
                      6, 6, 6, 1, 1, 1, 1, 1,      # 3 hits on Ragnar
                      1, 1, 1])                    # defence fails
    s._state["turn_player"] = s._state["active"] = "B"
    to_activation(s)
    give_dice(s, "B", [("C", "hirdmen")])
    engage_from(s, "hg", "hirdmen", "lord")
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})
    assert any(e.kind == "resilience" and "2 hits" in e.text for e in s.log)
    assert s.state["units"]["lord"]["figures"] == []
    assert s.outcome() is not None and s.outcome().winner == "B"


def test_ragnar_raider_halves_the_roll_and_frees_every_unit() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [44, 8]}, _hg("h1", [10, 4]), _hg("h2", [30, 4])],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=RAGNAR, tape=["C", "U", "R"])
    s.apply({"type": "roll_dice", "keep": [], "raider": True})
    assert sum(d["face"] is not None for d in s.state["sides"]["A"]["dice"]) == 3      # ceil(5 / 2)
    assert {f["unit"] for f in s.state["free"]} == {"lord", "h1", "h2"}
    s.apply({"type": "end_orders"})
    s.apply({"type": "activate", "unit": "h1", "source": "free", "order": "move"})
    s.apply({"type": "pass"}) if s.state["pending"]["kind"] == "reaction" else None
    s.apply({"type": "move", "dx": 0, "dy": 5})
    with pytest.raises(IllegalAction, match="raid"):
        s2 = session([{"id": "lord", "class": "warlord", "at": [44, 8]}],
                     [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=HARALD)
        s2.apply({"type": "roll_dice", "keep": [], "raider": True})


FLEMISH = {"id": "fl", "class": "warriors", "mercenary": "flemish", "at": [10, 4]}


def test_flemish_free_activation_move_s_shield_wall() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [44, 8]}, FLEMISH],
                [{"id": "el", "class": "warlord", "at": [40, 33]},
                 {"id": "bows", "class": "levies", "figures": 6, "at": [10, 14], "columns": 6}],
                faction_b="normans")
    st = s.state_data()
    assert len(st["units"]["fl"]["figures"]) == 8 and board.generated(st, "A") == 2
    assert base_armour(st, st["units"]["fl"], shooting=False) == 5
    s.apply({"type": "roll_dice", "keep": []})
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "end_orders"})
    with pytest.raises(IllegalAction, match="activate for free"):
        s.apply({"type": "activate", "unit": "fl", "source": "bondi", "order": "move"})
    s.apply({"type": "activate", "unit": "fl", "source": "free", "order": "move"})
    while s.state["pending"]["kind"] == "reaction":
        s.apply({"type": "pass"})
    with pytest.raises(IllegalAction, match="may move only 4"):
        s.apply({"type": "move", "dx": 5, "dy": 0})
    s.apply({"type": "move", "dx": 3.5, "dy": 0})
    with pytest.raises(IllegalAction, match="no free activation"):
        s.apply({"type": "activate", "unit": "fl", "source": "free", "order": "move"})
    from simulator.games.saga import shooting
    assert shooting.cover(s.state_data(), "fl", ["bows.1"]) == "heavy"


def test_flemish_builder_rules() -> None:
    with pytest.raises(DataError, match="never serve a Viking Age hero"):
        session([{"id": "lord", "class": "warlord", "at": [44, 8]}, FLEMISH],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=HARALD)
    with pytest.raises(DataError, match="8 figures"):
        session([{"id": "lord", "class": "warlord", "at": [44, 8]}, {**FLEMISH, "figures": 6}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}])


MAREDUDD = {"hero": "maredudd_ab_owain"}
GRUFFYDD = {"hero": "gruffydd_ap_llywelyn"}


def test_maredudd_penny_cuts_the_enemy_rolls_and_any_box_activates_any_unit() -> None:
    five = [_hg(f"h{i}", [6 + 8 * i, 30]) for i in range(4)]
    s = session([{"id": "lord", "class": "warlord", "at": [44, 8]}, _hg("hg", [10, 4]),
                 {"id": "lev", "class": "levies", "figures": 12, "at": [24, 6], "columns": 6}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}] + five, faction_a="welsh", side_a=MAREDUDD,
                tape=["C"] * 3 + ["U"] * 3 + ["C"] * 6)
    s.apply({"type": "roll_dice", "keep": []})          # A: 3 + 1 = 4 dice (levies none)
    assert len([d for d in s.state["sides"]["A"]["dice"] if d["face"]]) == 4
    s.apply({"type": "place_die", "die": 0, "box": "teulu"})
    s.apply({"type": "end_orders"})
    # the Levies are activated from the Hearthguard box (Maredudd's Raider)
    acts = s.legal_actions()
    assert {"type": "activate", "unit": "lev", "source": "teulu", "order": "move"} in acts
    s.apply({"type": "activate", "unit": "lev", "source": "teulu", "order": "move"})
    s.apply({"type": "hold"})
    s.apply({"type": "end_turn"})
    # B is allowed 6 dice (2 + 4) and rolls a third of them in his first turn
    s.apply({"type": "roll_dice", "keep": []})
    assert len([d for d in s.state["sides"]["B"]["dice"] if d["face"]]) == 2
    assert any(e.kind == "orders" and "The Penny" in e.text for e in s.log)


def test_gruffydd_high_king_reroll_scouts_and_powys_archers() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [44, 8]},
                 {"id": "lev", "class": "levies", "figures": 12, "at": [24, 6], "columns": 6},
                 {"id": "pow", "class": "warriors", "figures": 8, "at": [8, 6], "weapon": "bow"},
                 {"id": "gw", "class": "warriors", "figures": 8, "at": [8, 14], "weapon": "none"}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="welsh", side_a=GRUFFYDD,
                tape=["C"] * 6 + ["R", "R"])
    st = s.state_data()
    assert board.generated(st, "A") == 3 + 1 + 1 + 1      # the Levies generate a die (Scouts of Deheubarth)
    u = st["units"]
    assert u["pow"]["weapon"] == "bow" and base_armour(st, u["pow"], shooting=False) == 3
    assert base_armour(st, u["pow"], shooting=True) == 3
    assert base_armour(st, u["gw"], shooting=True) == 4        # no javelins: no shooting penalty
    s.apply({"type": "roll_dice", "keep": []})
    assert {"type": "reroll_dice", "dice": [0, 1, 2]} in s.legal_actions()
    with pytest.raises(IllegalAction, match="1 to 3"):
        s.apply({"type": "reroll_dice", "dice": [0, 1, 2, 3]})
    s.apply({"type": "reroll_dice", "dice": [0, 1]})
    assert [d["face"] for d in s.state["sides"]["A"]["dice"][:3]] == ["R", "R", "C"]
    with pytest.raises(IllegalAction, match="once per Orders Phase"):
        s.apply({"type": "reroll_dice", "dice": [2]})
    with pytest.raises(DataError, match="Archers of Powys"):
        session([{"id": "lord", "class": "warlord", "at": [44, 8]},
                 {"id": "pow", "class": "warriors", "figures": 8, "at": [8, 6], "weapon": "bow"}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="welsh", side_a=MAREDUDD)
