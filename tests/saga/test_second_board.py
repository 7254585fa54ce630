"""Canute the Great (SAGA p.42): up to 7 SAGA dice, and while he lives the Viking battle board too,
with its own Viking dice (dice 8-15; its boxes named vikings.<box>)."""

import pytest

from simulator.core import IllegalAction
from simulator.core.errors import DataError
from tests.saga.helpers import session, to_activation

UNITS_A = [{"id": "lord", "class": "warlord", "at": [20, 3]},
           {"id": "hg", "class": "hearthguard", "figures": 12, "at": [10, 5], "columns": 4},
           {"id": "w1", "class": "warriors", "figures": 8, "at": [30, 5], "columns": 4},
           {"id": "w2", "class": "warriors", "figures": 8, "at": [40, 5], "columns": 4},
           {"id": "w3", "class": "warriors", "figures": 8, "at": [30, 10], "columns": 4}]
UNITS_B = [{"id": "el", "class": "warlord", "at": [40, 33]},
           {"id": "war", "class": "warriors", "figures": 8, "at": [10, 30], "columns": 4}]


def _canute(tape, lord=None, hero="canute_the_great", victory="warlords_fury"):
    units = [dict(UNITS_A[0], **(lord or {}))] + UNITS_A[1:]
    return session(units, UNITS_B, faction_a="anglo_danes", faction_b="vikings",
                   side_a={"hero": hero} if hero else None, tape=tape, victory=victory)


def test_the_great_rolls_seven_and_splits_them_between_two_boards() -> None:
    s = _canute(["C", "U", "R", "C", "U", "R", "U"])
    assert len(s.state["sides"]["A"]["dice"]) == 16
    assert {"type": "roll_dice", "keep": [], "second": 3} in s.legal_actions()
    s.apply({"type": "roll_dice", "keep": [], "second": 3})
    rolled = [i for i, d in enumerate(s.state["sides"]["A"]["dice"]) if d["face"]]
    assert rolled == [0, 1, 2, 3, 8, 9, 10]                      # 7 dice: 4 Anglo-Danish, 3 Viking
    legal = s.legal_actions()
    assert {"type": "place_die", "die": 8, "box": "vikings.hirdmen"} in legal
    assert not any(a.get("die") == 8 and "." not in a.get("box", ".") for a in legal if a["type"] == "place_die")
    with pytest.raises(IllegalAction, match="Viking.* die: it goes on that board only"):
        s.apply({"type": "place_die", "die": 8, "box": "huscarls"})
    with pytest.raises(IllegalAction, match="no box"):
        s.apply({"type": "place_die", "die": 8, "box": "vikings.nothing"})
    s.apply({"type": "place_die", "die": 8, "box": "vikings.hirdmen"})
    s.apply({"type": "place_die", "die": 9, "box": "vikings.vk14"})
    s.apply({"type": "place_die", "die": 10, "box": "vikings.vk14"})
    s.apply({"type": "use_ability", "box": "vikings.vk14"})       # a Viking ability for the Anglo-Danes
    assert any(e.kind == "ability" and e.data.get("box") == "vikings.vk14" for e in s.log)
    s.apply({"type": "end_orders"})
    acts = [a for a in s.legal_actions() if a["type"] == "activate" and a["source"] == "vikings.hirdmen"]
    assert {a["unit"] for a in acts} == {"hg", "lord"}            # Viking Hirdmen activate Hearthguard or Warlord
    s.apply({"type": "activate", "unit": "hg", "source": "vikings.hirdmen", "order": "move"})
    assert s.state["sides"]["A"]["dice"][8] == {"face": None, "box": None}


def test_a_plain_warlord_rolls_six_on_one_board() -> None:
    s = _canute(["C"] * 6, hero=None)
    assert len(s.state["sides"]["A"]["dice"]) == 8
    assert all("second" not in a for a in s.legal_actions())
    with pytest.raises(IllegalAction, match="second battle board"):
        s.apply({"type": "roll_dice", "keep": [], "second": 2})
    s.apply({"type": "roll_dice", "keep": []})
    assert sum(1 for d in s.state["sides"]["A"]["dice"] if d["face"]) == 6


def test_without_canute_the_viking_board_is_gone() -> None:
    s = _canute(["C"] * 7, victory="sacred_ground")            # his death does not end this game
    s.apply({"type": "roll_dice", "keep": [], "second": 2})
    s.apply({"type": "place_die", "die": 8, "box": "vikings.bondi"})
    s.apply({"type": "place_die", "die": 0, "box": "ceorls"})
    s._state["units"]["lord"]["figures"] = []                     # Canute falls
    del s._state["figures"]["lord"]
    s._state["orders_rolled"] = False
    assert s.legal_actions()[1] == {"type": "roll_dice", "keep": [0]}
    with pytest.raises(IllegalAction, match="not on a battle board you use"):
        s.apply({"type": "roll_dice", "keep": [8]})
    with pytest.raises(IllegalAction, match="second battle board"):
        s.apply({"type": "roll_dice", "keep": [], "second": 1})
    to_activation(s)
    assert not any(a.get("source", "").startswith("vikings.") for a in s.legal_actions())


def test_canute_rides_or_carries_a_dane_axe() -> None:
    s = _canute(["C"] * 7, lord={"mounted": True})
    assert s.state["units"]["lord"]["mounted"] and not s.state["units"]["lord"]["dane_axe"]
    assert _canute([], lord={"dane_axe": True}).state["units"]["lord"]["dane_axe"]
    with pytest.raises(DataError, match="Dane axe on foot only"):
        _canute([], lord={"mounted": True, "dane_axe": True})
    with pytest.raises(DataError, match="mounted"):
        _canute([], lord={"mounted": True}, hero=None)


EGIL = {"id": "egil", "class": "hearthguard", "figures": 4, "mercenary": "egil", "at": [24, 10], "columns": 4}
NORMANS = [{"id": "lord", "class": "warlord", "at": [20, 3]},
           {"id": "kn", "class": "hearthguard", "figures": 4, "at": [10, 5], "columns": 4},
           {"id": "w1", "class": "warriors", "figures": 8, "at": [35, 5], "columns": 4}, EGIL]


def _egil(tape, units=None, faction="normans", side=None):
    return session(units or NORMANS, UNITS_B, faction_a=faction, faction_b="vikings", side_a=side, tape=tape,
                   victory="sacred_ground")


def test_egil_rolls_his_own_viking_dice_outside_the_cap() -> None:
    s = _egil(["C", "U", "R", "C", "C", "U"])
    u = s.state["units"]["egil"]
    assert u["board"] == "vikings" and u["figure_names"]["egil.1"] == "Egil Skalagrimsson"
    assert dict(u["figure_dice"]) == {"egil.1": 4, "egil.2": 2, "egil.3": 2, "egil.4": 2}
    assert all("second" not in a for a in s.legal_actions())           # no split: his dice are his own
    s.apply({"type": "roll_dice", "keep": []})
    rolled = [i for i, d in enumerate(s.state["sides"]["A"]["dice"]) if d["face"]]
    assert rolled == [0, 1, 2, 3, 8, 9]                                # 4 Norman dice, 2 Viking (Egil's)
    s.apply({"type": "place_die", "die": 8, "box": "vikings.hirdmen"})
    s.apply({"type": "place_die", "die": 0, "box": "knights"})
    s.apply({"type": "end_orders"})
    acts = {(a["unit"], a["source"]) for a in s.legal_actions() if a["type"] == "activate"}
    assert ("egil", "vikings.hirdmen") in acts and ("kn", "knights") in acts
    assert ("kn", "vikings.hirdmen") not in acts and ("egil", "knights") not in acts
    with pytest.raises(IllegalAction, match="Vikings board does not activate"):
        s.apply({"type": "activate", "unit": "kn", "source": "vikings.hirdmen", "order": "move"})
    with pytest.raises(IllegalAction, match="do not obey"):
        s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move", "we_obey": "egil"})


def test_egil_is_worth_three_and_serves_no_viking_dice_warband() -> None:
    from simulator.games.saga import victory
    from simulator.games.saga.units import remove_figures
    s = _egil([])
    st = s.state_data()
    remove_figures(st, "egil", 4, type("C", (), {"emit": lambda *a, **k: None})(), "test", "x", killer="B")
    assert st["losses"]["A"] == {"hearthguard": 3, "egil": 1} and victory.vp_of(st["losses"]["A"]) == 6
    with pytest.raises(DataError, match="without Vikings SAGA dice"):
        _egil([], units=UNITS_A[:1] + [EGIL], faction="vikings")
    with pytest.raises(DataError, match="without Vikings SAGA dice"):
        _egil([], units=UNITS_A[:1] + [EGIL], faction="anglo_danes", side={"hero": "canute_the_great"})
