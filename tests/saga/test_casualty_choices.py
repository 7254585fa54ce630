"""The owner picks the figures that die to abilities (The Push, Crash, VK-13, Exhaustion) and the
Warlord's bodyguards (SAGA p.33): pending choices offered to the right player, the engine's pick
first, checked against the rules; none asked when only one choice is possible."""

import pytest

from simulator.core import IllegalAction
from simulator.games.saga import casualties
from tests.saga.helpers import engage_from, give_dice, session, to_activation

GUARD_TAPE = [6, 6, 6, 1, 1, 1, 1, 1,     # the Hearthguard's 8 dice: 3 hits on the Warlord (armour 5)
              1, 1, 1, 1, 1,              # the Warlord's 5 dice miss
              1, 1, 1]                    # his 3 defence dice fail: 1 hit ignored, 2 bodyguards die


def _guard_melee(guards_y: float = 15.4, choices: bool = True):
    """Hearthguard engage a Warlord with four Hearthguard just behind him (``guards_y``: their row)
    and Levies farther back; the melee stops at step 6."""
    s = session([{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [20, 3]}],
                [{"id": "el", "class": "warlord", "at": [10, 13.7]},
                 {"id": "bg", "class": "hearthguard", "figures": 4, "at": [10, guards_y], "columns": 4},
                 {"id": "lv", "class": "levies", "figures": 4, "at": [10, 18.5], "columns": 2}],
                faction_b="vikings", tape=list(GUARD_TAPE))
    s._state["rules"]["player_choices"] = choices
    to_activation(s)
    give_dice(s, "A", [("C", "hirdmen")])
    engage_from(s, "hg", "hirdmen", "el")
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})
    return s


def test_warlord_owner_picks_his_bodyguards_in_melee() -> None:
    s = _guard_melee()
    assert s.state["melee"]["step"] == "bodyguards" and s.state["active"] == "B"
    legal = s.legal_actions()
    assert all(a["type"] == "bodyguards" for a in legal) and len(legal) > 1
    # the engine's pick: the nearest guards whose loss keeps the Hearthguard in formation
    assert legal[0]["figures"] == ["bg.2", "bg.1"]
    for figures, why in ((["bg.2"], "2 different"), (["bg.2", "lv.1"], "non-Levy figure within VS"),
                         (["bg.2", "hg.1"], "non-Levy figure within VS"),
                         (["bg.2", "bg.3"], "formation")):
        with pytest.raises(IllegalAction, match=why):
            s.apply({"type": "bodyguards", "figures": figures})
    with pytest.raises(IllegalAction):
        s.apply({"type": "remove_casualties", "figures": ["bg.3"]})
    s.apply({"type": "bodyguards", "figures": ["bg.3", "bg.4"]})
    assert s.state["units"]["el"]["figures"] == ["el"]
    assert s.state["units"]["bg"]["figures"] == ["bg.1", "bg.2"]
    assert s.state["losses"]["B"]["hearthguard"] == 2
    assert s.state["melee"] is None or s.state["melee"]["step"] != "bodyguards"


def test_no_bodyguard_choice_when_only_one_set_exists() -> None:
    s = _guard_melee(guards_y=16)
    # exactly two guards within VS for two hits: nothing to choose, both die at once
    assert s.state["units"]["bg"]["figures"] == ["bg.1", "bg.4"]
    assert s.state["units"]["el"]["figures"] == ["el"]


def test_engine_picks_bodyguards_without_player_choices() -> None:
    s = _guard_melee(choices=False)
    assert s.state["units"]["bg"]["figures"] == ["bg.3", "bg.4"]     # the default kept formation


def test_push_victims_are_picked_by_their_owner() -> None:
    s = session([{"id": "war", "class": "warriors", "figures": 8, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 14], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}],
                tape=[1] * 8 + [6, 6] + [1] * 6 + [1, 1]       # 2 Warriors fall, they lose and disengage
                + [6, 6, 1, 1, 1, 1])                           # The Push: two rolls beat armour 4
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    give_dice(s, "B", [("C", "the_push")])
    engage_from(s, "war", "bondi", "hg")
    s.apply({"type": "ready"})
    s.apply({"type": "use_ability", "box": "the_push"})
    s.apply({"type": "ready"})
    s.apply(s.legal_actions()[0])                 # melee casualties: the engine's pick
    s.apply(s.legal_actions()[0])                 # the withdrawal: the engine's placement
    ch = s.state["choice"]
    assert ch["unit"] == "war" and ch["count"] == 2 and ch["why"] == "The Push" and s.state["active"] == "A"
    assert len(s.state["units"]["war"]["figures"]) == 6
    legal = s.legal_actions()
    assert all(a["type"] == "remove_casualties" for a in legal) and len(legal) > 1
    with pytest.raises(IllegalAction, match="first picks the 2 figure"):
        s.apply({"type": "end_turn"})
    with pytest.raises(IllegalAction, match="2 different"):
        s.apply({"type": "remove_casualties", "figures": ["war.1"]})
    pick = legal[-1]["figures"]
    s.apply({"type": "remove_casualties", "figures": pick})
    assert s.state["choice"] is None and s.state["active"] == "A"
    assert not set(pick) & set(s.state["units"]["war"]["figures"])
    assert len(s.state["units"]["war"]["figures"]) == 4 and s.state["kills"]["B"]["warriors"] == 4
    assert {"type": "end_turn"} in s.legal_actions()


def test_exhaustion_victims_are_picked_by_the_enemy_then_the_orders_go_on() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 6, "at": [10, 30], "columns": 3},
                 {"id": "el", "class": "warlord", "at": [40, 33]}],
                faction_a="anglo_danes", faction_b="vikings")
    s._state["units"]["war"]["fatigue"] = 3
    s._state["orders_rolled"] = True
    give_dice(s, "A", [("U", "exhaustion")])
    s.apply({"type": "use_ability", "box": "exhaustion", "target": "war"})
    assert s.state["active"] == "B" and s.state["choice"]["player"] == "B"
    assert s.state["units"]["war"]["fatigue"] == 2            # the fatigue is discarded at once
    assert s.state["phase"] == "orders" and s.state["turn_player"] == "A"
    s.apply({"type": "remove_casualties", "figures": ["war.1", "war.2"]})
    assert s.state["units"]["war"]["figures"] == ["war.3", "war.4", "war.5", "war.6"]
    assert s.state["active"] == "A" and s.state["choice"] is None
    assert {"type": "end_orders"} in s.legal_actions()


def test_crash_kills_only_engaged_figures_picked_by_their_owner() -> None:
    s = session([{"id": "war", "class": "warriors", "figures": 12, "at": [10, 14], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "kn", "class": "hearthguard", "figures": 4, "mounted": True, "at": [10, 9.5], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}],
                faction_b="normans")
    to_activation(s)
    s._state["turn_player"] = s._state["active"] = "B"
    give_dice(s, "B", [("C", "knights"), ("C", "crash"), ("U", "crash")])
    engage_from(s, "kn", "knights", "war")
    engaged = s.state["melee"]["sides"]["war"]["fighting"]
    s.apply({"type": "use_ability", "box": "crash"})
    ch = s.state["choice"]
    assert ch["player"] == "A" and ch["count"] == 1 and s.state["active"] == "A"
    assert len(ch["among"]) == engaged < 12
    back = next(f for f in s.state["units"]["war"]["figures"] if f not in ch["among"])
    with pytest.raises(IllegalAction, match="engaged in the melee"):
        s.apply({"type": "remove_casualties", "figures": [back]})
    s.apply({"type": "remove_casualties", "figures": [ch["among"][0]]})
    assert s.state["active"] == "B" and s.state["melee"]["step"] == "abilities_attacker"
    assert len(s.state["units"]["war"]["figures"]) == 11


def test_vk13_sacrifice_picks_engaged_figures() -> None:
    s = session([{"id": "war", "class": "warriors", "figures": 12, "at": [10, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "hg", "class": "hearthguard", "figures": 4, "at": [10, 14.5], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}])
    to_activation(s)
    give_dice(s, "A", [("C", "bondi"), ("U", "vk13")])
    engage_from(s, "war", "bondi", "hg")
    attack = s.state["melee"]["sides"]["war"]["attack"]
    s.apply({"type": "use_ability", "box": "vk13", "figures": 2})
    ch = s.state["choice"]
    assert ch["player"] == "A" and ch["count"] == 2 and s.state["active"] == "A"
    assert s.state["melee"]["sides"]["war"]["attack"] == attack + 6
    assert s.legal_actions()[0]["figures"][0] in ch["among"]
    s.apply(s.legal_actions()[0])
    assert len(s.state["units"]["war"]["figures"]) == 10 and s.state["choice"] is None
    assert s.state["melee"]["step"] == "abilities_attacker"


def test_warlord_owner_picks_bodyguards_against_shooting() -> None:
    s = session([{"id": "lev", "class": "levies", "figures": 12, "at": [10, 7], "columns": 6},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "el", "class": "warlord", "at": [10, 13.7]},
                 {"id": "bg", "class": "hearthguard", "figures": 4, "at": [10, 15.4], "columns": 4},
                 ], faction_b="vikings",
                tape=[6, 6, 6, 1, 1, 1,       # 6 dice against armour 6: 3 hits
                      1, 1, 1])               # 3 defence dice fail: one ignored, two bodyguards
    to_activation(s)
    give_dice(s, "A", [("U", "thralls")])
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s.apply({"type": "shoot", "target": "el"})
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})
    assert s.state["shooting"]["step"] == "bodyguards" and s.state["active"] == "B"
    legal = s.legal_actions()
    assert legal[0] == {"type": "bodyguards", "figures": ["bg.2", "bg.1"]} and len(legal) > 1
    s.apply({"type": "bodyguards", "figures": ["bg.1", "bg.2"]})
    assert s.state["shooting"] is None and s.state["units"]["bg"]["figures"] == ["bg.3", "bg.4"]
    assert s.state["units"]["el"]["figures"] == ["el"] and s.state["active"] == "A"


def test_the_client_offers_the_choice_on_the_figures() -> None:
    from simulator.games.saga.presentation import SagaPresentation
    s = _guard_melee()
    view = SagaPresentation()
    legal = s.legal_actions()
    menu = view.piece_actions(s.state, legal, "bg.4")
    assert menu and all(a["type"] == "bodyguards" and "bg.4" in a["figures"] for _, a in menu)
    assert view.piece_actions(s.state, legal, "hg.1") == []
    assert "melee (bodyguards)" in view.banner(s.state)
