"""William the Bastard, Ivo Taillefer and Sven Forkbeard (SAGA p.42-45) with forced dice."""

import math

import pytest

from simulator.core import DataError, IllegalAction
from simulator.games.saga import board
from simulator.games.saga.units import base_armour
from tests.saga.helpers import give_dice, session, to_activation

WILLIAM = {"hero": "william_the_bastard"}
TAILLEFER = {"hero": "ivo_taillefer"}
SVEN = {"hero": "sven_forkbeard"}


def _hg(uid: str, at: list[float], **kw: object) -> dict[str, object]:
    return {"id": uid, "class": "hearthguard", "figures": 4, "at": at, "columns": 4, **kw}


def _pass_reactions(s: object) -> None:
    while s.state["pending"] and s.state["pending"]["kind"] == "reaction":     # type: ignore[attr-defined]
        s.apply({"type": "pass"})                                               # type: ignore[attr-defined]


def test_taillefer_song_of_roland_and_expert_rider() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [10, 10], "mounted": True},
                 _hg("near", [16, 10]), _hg("far", [40, 4])],
                [{"id": "el", "class": "warlord", "at": [10, 14.5]}], faction_a="normans", side_a=TAILLEFER,
                tape=["C"] * 5 + [1] * 12)
    u = s._state["units"]
    u["near"]["fatigue"] = u["far"]["fatigue"] = 2
    s.apply({"type": "roll_dice", "keep": []})           # Song of Roland comes before the roll
    assert s.state["units"]["near"]["fatigue"] == 1 and s.state["units"]["far"]["fatigue"] == 2
    assert board.generated(s.state_data(), "A") == 3 + 2
    give_dice(s, "A", [("C", "knights"), ("U", "sergeants"), ("C", "knights")])
    s.apply({"type": "end_orders"})
    with pytest.raises(IllegalAction, match="Side by Side"):
        s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move",
                 "we_obey": "near", "side_by_side": True})
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    _pass_reactions(s)
    s.apply({"type": "engage", "target": "el"})
    s.apply({"type": "melee_trade", "trade": False})
    assert {"type": "expert_rider", "dice": [0]} in s.legal_actions()
    with pytest.raises(IllegalAction, match="activation boxes"):
        s.apply({"type": "expert_rider", "dice": [5]})
    s.apply({"type": "expert_rider", "dice": [0, 1]})
    side = s.state["melee"]["sides"]["lord"]
    assert (side["attack"], side["defence"]) == (7, 2)
    assert s.state["sides"]["A"]["dice"][0]["box"] is None and s.state["sides"]["A"]["dice"][2]["box"] == "knights"
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})                           # 7 + 5 attack dice all miss
    assert s.state["units"]["lord"]["fatigue"] == 0 and s.state["units"]["el"]["fatigue"] == 1
    assert any(e.kind == "fatigue" and "Song of Roland" in e.text for e in s.log)


def test_expert_rider_needs_taillefer_mounted() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [10, 10]}],
                [{"id": "el", "class": "warlord", "at": [10, 13]}], faction_a="normans", side_a=TAILLEFER)
    to_activation(s)
    give_dice(s, "A", [("C", "knights")])
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    _pass_reactions(s)
    s.apply({"type": "engage", "target": "el"})
    s.apply({"type": "melee_trade", "trade": False})
    with pytest.raises(IllegalAction, match="mounted"):
        s.apply({"type": "expert_rider", "dice": [0]})


def test_william_strategist_bows() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [44, 8], "mounted": True},
                 _hg("hgb", [10, 4], weapon="bow"),
                 {"id": "wb", "class": "warriors", "figures": 8, "at": [24, 6], "weapon": "bow"},
                 _hg("kb", [10, 12], weapon="bow", mounted=True)],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="normans", side_a=WILLIAM)
    st = s.state_data()
    u = st["units"]
    assert u["hgb"]["weapon"] == "bow" and base_armour(st, u["hgb"], shooting=False) == 4
    assert base_armour(st, u["hgb"], shooting=True) == 4
    assert base_armour(st, u["wb"], shooting=False) == 3
    assert base_armour(st, u["kb"], shooting=False) == 5        # mounted bowmen keep their armour
    with pytest.raises(DataError, match="carry no bows"):
        session([{"id": "lord", "class": "warlord", "at": [44, 8]}, _hg("hgb", [10, 4], weapon="bow")],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="normans")


def test_william_we_obey_two_units_no_engaging_and_shooting() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [24, 10]},
                 _hg("hg", [18, 10]),
                 {"id": "wb", "class": "warriors", "figures": 8, "at": [30, 11], "weapon": "bow", "columns": 4},
                 _hg("far", [6, 30])],
                [{"id": "el", "class": "warlord", "at": [40, 33]}, _hg("foe", [18, 16])],
                faction_a="normans", side_a=WILLIAM)
    to_activation(s)
    with pytest.raises(IllegalAction, match="one to 2"):
        s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move",
                 "we_obey": ["hg", "wb", "far"]})
    with pytest.raises(IllegalAction, match="not within S"):
        s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move",
                 "we_obey": ["hg", "far"]})
    legal = s.legal_actions()
    assert {"type": "activate", "unit": "lord", "source": "determination", "order": "move",
            "we_obey": ["hg", "wb"]} in legal
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move",
             "we_obey": ["hg", "wb"], "we_obey_order": {"wb": "shoot"}})
    _pass_reactions(s)
    s.apply({"type": "hold"})
    _pass_reactions(s)
    assert s.state["pending"]["unit"] == "hg" and s.state["pending"]["kind"] == "move"
    with pytest.raises(IllegalAction):
        s.apply({"type": "engage", "target": "foe"})           # two units obeyed: neither may engage
    s.apply({"type": "hold"})
    _pass_reactions(s)
    assert s.state["pending"]["unit"] == "wb" and s.state["pending"]["kind"] == "shoot"
    assert {"type": "shoot", "target": "foe"} in s.legal_actions()


def test_we_obey_of_an_ordinary_warlord_is_one_unit_to_move() -> None:
    s = session([{"id": "lord", "class": "warlord", "at": [24, 10]}, _hg("hg", [18, 10]), _hg("h2", [30, 10])],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="normans")
    to_activation(s)
    with pytest.raises(IllegalAction, match="one unit"):
        s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move",
                 "we_obey": ["hg", "h2"]})
    with pytest.raises(IllegalAction, match="may move"):
        s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move",
                 "we_obey": "hg", "we_obey_order": "shoot"})


def test_sven_builder_axe_vengeful_and_conqueror() -> None:
    with pytest.raises(DataError, match="Sven Forkbeard has no Berserkers"):
        session([{"id": "lord", "class": "warlord", "at": [44, 8]}, _hg("b", [10, 4], berserker=True)],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], side_a=SVEN)
    s = session([{"id": "lord", "class": "warlord", "at": [10, 10]}],
                [_hg("hg", [10, 13.5]), {"id": "el", "class": "warlord", "at": [40, 33]}],
                faction_a="anglo_danes", faction_b="vikings", side_a=SVEN)
    st = s.state_data()
    lord = st["units"]["lord"]
    assert lord["dane_axe"] and base_armour(st, lord, shooting=False) == 4
    assert board.generated(st, "A") == 2
    to_activation(s)
    s.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move"})
    _pass_reactions(s)
    s.apply({"type": "engage", "target": "hg"})
    s.apply({"type": "melee_trade", "trade": False})
    figs = s.state["figures"]
    sven = figs["lord"]
    near = sum(1 for f in s.state["units"]["hg"]["figures"]
               if math.dist((figs[f]["x"], figs[f]["y"]), (sven["x"], sven["y"])) - figs[f]["r"] - sven["r"] <= 2 + 1e-6)
    assert near >= 1
    assert s.state["melee"]["sides"]["lord"]["attack"] == 5 + near
    assert any(e.kind == "hero" and "Vengeful" in e.text for e in s.log)
    assert {"type": "conqueror"} in s.legal_actions()
    s.apply({"type": "conqueror"})
    side = s.state["melee"]["sides"]["lord"]
    assert side["attack"] == 2 + near and side["own_armour"] == 1
    with pytest.raises(IllegalAction, match="once per melee"):
        s.apply({"type": "conqueror"})


HAROLD = {"hero": "harold_godwinson"}


def test_harold_and_his_brothers_fight_as_one_warlord_unit() -> None:
    # B's 4 Hearthguard engage Harold's unit (Harold in the middle): Harold 5 + 3 + 3 attack dice;
    # 4 hits: the two brothers fall, Harold's Resilience ignores the third, the fourth kills him
    s = session([{"id": "lord", "class": "warlord", "at": [10, 13.8]}, _hg("far", [40, 4])],
                [_hg("hg", [10, 10]), {"id": "el", "class": "warlord", "at": [40, 33]}],
                faction_a="anglo_danes", faction_b="vikings", side_a=HAROLD,
                tape=[6] * 4 + [1] * 4 + [1] * 11 + [1] * 4)   # B attacks, A attacks, A defends
    st = s.state_data()
    lord = st["units"]["lord"]
    assert len(lord["figures"]) == 3 and lord["dane_axe"] and board.generated(st, "A") == 3 + 1
    assert lord["figure_names"]["lord.2"] == "Gyrth"
    s._state["turn_player"] = s._state["active"] = "B"
    to_activation(s)
    give_dice(s, "B", [("C", "hirdmen")])
    s.apply({"type": "activate", "unit": "hg", "source": "hirdmen", "order": "move"})
    _pass_reactions(s)
    s.apply({"type": "engage", "target": "lord"})
    s.apply({"type": "melee_trade", "trade": False})
    m = s.state["melee"]
    fighting = m["sides"]["lord"]["fighting"]
    assert fighting == 3 and m["sides"]["lord"]["attack"] == 11
    assert m["sides"]["hg"]["attack"] == 8
    s.apply({"type": "ready"})
    s.apply({"type": "ready"})                        # B: 4 hits of 8 dice; A saves none
    assert s.state["units"]["lord"]["figures"] == []
    assert s.state["losses"]["A"] == {"hearthguard": 2, "hero": 1}
    assert any(e.kind == "resilience" for e in s.log)
    assert s.outcome() is not None and s.outcome().winner == "B"


def test_harold_is_the_last_to_fall_and_bravery_ignores_a_fatigue() -> None:
    from simulator.games.saga import melee
    from tests.saga.helpers import session as mk
    s = mk([{"id": "lord", "class": "warlord", "at": [10, 10], "columns": 1}],
           [_hg("hg", [30, 10]), {"id": "el", "class": "warlord", "at": [40, 33]}],
           faction_a="anglo_danes", faction_b="vikings", side_a=HAROLD)
    st = s._state
    figs = st["units"]["lord"]["figures"]
    # Harold (lord.1) is nearest the enemy; the brothers fall first, Harold never before them
    class Ctx:
        def emit(self, *a: object, **k: object) -> None:
            return None
    melee.take_hits(st, "lord", 1, Ctx(), "test", killer_unit="hg")
    assert "lord.1" in st["units"]["lord"]["figures"] and len(st["units"]["lord"]["figures"]) == 2
    melee.take_hits(st, "lord", 1, Ctx(), "test", killer_unit="hg")
    assert st["units"]["lord"]["figures"] == ["lord.1"] and figs
    from simulator.games.saga.units import add_fatigue
    unit = st["units"]["lord"]
    add_fatigue(st, unit, 1, Ctx(), "test", "SAGA p.24")       # A's own turn: ignored once
    add_fatigue(st, unit, 1, Ctx(), "test", "SAGA p.24")
    assert unit["fatigue"] == 1
    with pytest.raises(DataError, match="Harold and his brothers"):
        mk([{"id": "lord", "class": "warlord", "at": [10, 10], "figures": 1}],
           [{"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="anglo_danes", side_a=HAROLD)
    with pytest.raises(IllegalAction, match="Side by Side"):
        s2 = mk([{"id": "lord", "class": "warlord", "at": [10, 10]}, _hg("h", [10, 15])],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="anglo_danes", side_a=HAROLD)
        to_activation(s2)
        s2.apply({"type": "activate", "unit": "lord", "source": "determination", "order": "move",
                  "we_obey": "h", "side_by_side": True})


@pytest.mark.parametrize("a,b,fa,fb", [(HAROLD, WILLIAM, "anglo_danes", "normans"),
                                       (SVEN, TAILLEFER, "vikings", "normans")])
def test_random_playout_with_heroes(a: dict, b: dict, fa: str, fb: str) -> None:
    import random
    mounted_b = {"mounted": True} if b is TAILLEFER else {}
    s = session([{"id": "lord", "class": "warlord", "at": [20, 12]}, _hg("hg", [12, 10]),
                 {"id": "war", "class": "warriors", "figures": 8, "at": [30, 10]}],
                [{"id": "el", "class": "warlord", "at": [20, 22], **mounted_b},
                 _hg("bh", [12, 24], **({"weapon": "bow"} if b is WILLIAM else {})),
                 {"id": "bw", "class": "warriors", "figures": 8, "at": [30, 24]}],
                faction_a=fa, faction_b=fb, side_a=a, side_b=b, seed=3)
    assert s.state["units"]["el"]["hero"] == b["hero"]
    rng = random.Random(5)
    for _ in range(300):
        legal = s.legal_actions()
        if not legal:
            break
        s.apply(rng.choice(legal))
        for u in s.state["units"].values():
            assert u["fatigue"] >= 0 and all(s.state["figures"][f]["unit"] == u["id"] for f in u["figures"])
    assert s.state["turn"] > 1
