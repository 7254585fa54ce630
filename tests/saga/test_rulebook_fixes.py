"""Rules the rulebook states that the engine once got wrong (issue #26), each played through
``Session`` with forced dice."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.core import IllegalAction, Session
from tests.saga.helpers import engage_from, give_dice, session, take_defaults, to_activation

#: a position in the middle of a game: turn 1, A's Activation Phase (units may have lost figures)
MID_GAME = {"start": {"turn": 1, "phase": "activation", "player": "A"}}


def _shot_at_warriors(tape: list[Any] | None = None) -> Session:
    """Viking levies (6, bows) 9" from Anglo-Danish warriors in the open."""
    s = session([{"id": "lev", "class": "levies", "figures": 6, "at": [10, 8], "columns": 6},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 4, "at": [10, 18], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], tape=tape)
    to_activation(s)
    return s


# -- abilities of the unit being shot (SAGA p.47) ---------------------------------------------------

def test_the_unit_being_shot_may_use_a_combat_shooting_box_for_defence() -> None:
    s = _shot_at_warriors(tape=[4, 4, 4, 1, 1, 1, 5, 5])
    give_dice(s, "A", [("U", "thralls")])
    s._state["sides"]["B"]["dice"][0] = {"face": "R", "box": "combat_pool"}
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s.apply({"type": "shoot", "target": "war"})
    s.apply({"type": "ready"})                                   # the shooter's step 2
    assert s.state["active"] == "B"
    use = {"type": "use_ability", "box": "combat_pool", "choice": "defence"}
    assert use in s.legal_actions()
    with pytest.raises(IllegalAction, match="the target defence dice"):
        s.apply({"type": "use_ability", "box": "combat_pool", "choice": "attack"})
    s.apply({**use, "face": "R"})
    assert s.state["shooting"]["defence"] == 2                   # two defence dice: the die was rare
    s.apply({"type": "ready"})
    # 3 hits (4, 4, 4 against armour 4); 3 + 2 defence dice: 1, 1, 1, 5, 5 save two: one casualty
    assert take_defaults(s) == 1
    assert len(s.state["units"]["war"]["figures"]) == 3


# -- the fatigue of a second activation comes after the shot (SAGA p.24) ------------------------------

def test_a_second_activation_shot_takes_its_fatigue_after_it_resolves() -> None:
    s = _shot_at_warriors(tape=[1, 1, 1])
    give_dice(s, "A", [("U", "thralls"), ("U", "thralls")])
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "move"})
    s.apply({"type": "move", "dx": 0, "dy": 1})
    assert s.state["units"]["lev"]["fatigue"] == 0
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s.apply({"type": "shoot", "target": "war"})
    assert s.state["units"]["lev"]["fatigue"] == 0               # not yet: the shot is being resolved
    s.apply({"type": "ready"})
    assert {"type": "spend_fatigue", "effect": "armour_up"} not in s.legal_actions()
    with pytest.raises(IllegalAction, match="no fatigue to spend"):
        s.apply({"type": "spend_fatigue", "effect": "armour_up"})
    before = len(s.log)
    s.apply({"type": "ready"})
    assert s.state["shooting"] is None and s.state["units"]["lev"]["fatigue"] == 1
    fatigue = [e for e in s.log[before:] if e.kind == "fatigue"]
    assert fatigue and fatigue[-1].rule == "SAGA p.24"
    assert [e.kind for e in s.log[before:]].index("shoot_attack") < s.log[before:].index(fatigue[-1])


# -- rare dice on boxes with a rare bonus --------------------------------------------------------------

def _knights_engage(tape: list[Any]) -> Session:
    s = session([{"id": "kn", "class": "hearthguard", "figures": 4, "at": [10, 10], "columns": 4, "mounted": True},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 8, "at": [10, 15], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], faction_a="normans", tape=tape)
    s._state["orders_rolled"] = True
    return s


def test_charge_paid_with_a_rare_die_gives_four_attack_dice() -> None:
    s = _knights_engage(tape=[])
    dice = s._state["sides"]["A"]["dice"]
    dice[0] = {"face": "C", "box": None}
    dice[1] = {"face": "R", "box": None}
    s.apply({"type": "place_die", "die": 1, "box": "charge"})   # once refused: "cannot hold R"
    s.apply({"type": "place_die", "die": 0, "box": "knights"})
    s.apply({"type": "end_orders"})
    engage_from(s, "kn", "knights", "war")
    base = s.state["melee"]["sides"]["kn"]["attack"]
    s.apply({"type": "use_ability", "box": "charge"})
    assert s.state["melee"]["sides"]["kn"]["attack"] == base + 4
    used = [e for e in s.log if e.kind == "ability"][-1]
    assert used.data["faces"] == ["R"] and used.rule == "SAGA p.61"


def test_charge_paid_with_an_uncommon_die_gives_three() -> None:
    s = _knights_engage(tape=[])
    to_activation(s)
    give_dice(s, "A", [("C", "knights"), ("U", "charge")])
    engage_from(s, "kn", "knights", "war")
    base = s.state["melee"]["sides"]["kn"]["attack"]
    s.apply({"type": "use_ability", "box": "charge"})
    assert s.state["melee"]["sides"]["kn"]["attack"] == base + 3


def test_a_pool_paid_with_its_last_rare_die() -> None:
    """The only R die on the Attack Pool pays it: two attack dice (once refused, "no R die on
    Attack Pool", because the die had gone when the effect was applied)."""
    s = _knights_engage(tape=[])
    to_activation(s)
    give_dice(s, "A", [("C", "knights"), ("C", "attack_pool"), ("R", "attack_pool")])
    engage_from(s, "kn", "knights", "war")
    base = s.state["melee"]["sides"]["kn"]["attack"]
    s.apply({"type": "use_ability", "box": "attack_pool", "face": "R"})
    assert s.state["melee"]["sides"]["kn"]["attack"] == base + 2
    with pytest.raises(IllegalAction, match="no R die on Attack Pool"):
        s.apply({"type": "use_ability", "box": "attack_pool", "face": "R"})
    s.apply({"type": "use_ability", "box": "attack_pool", "face": "C"})
    assert s.state["melee"]["sides"]["kn"]["attack"] == base + 3
    assert not any(d["box"] == "attack_pool" for d in s.state["sides"]["A"]["dice"])


def test_a_rare_bonus_box_whose_cost_takes_no_rare_die_is_a_data_error(tmp_path: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from simulator.core.errors import DataError
    from simulator.games.saga import catalogue as cat
    text = (cat.DATA / "factions" / "normans.yaml").read_text()
    (tmp_path / "factions").mkdir()
    (tmp_path / "schemas").mkdir()
    for f in (cat.DATA / "schemas").iterdir():
        (tmp_path / "schemas" / f.name).write_text(f.read_text())
    (tmp_path / "factions" / "normans.yaml").write_text(
        text.replace("id: charge, name: Charge!, column: once, timing: combat, cost: [UR]",
                     "id: charge, name: Charge!, column: once, timing: combat, cost: [U]"))
    monkeypatch.setattr(cat, "DATA", tmp_path)
    cat.faction.cache_clear()
    try:
        with pytest.raises(DataError, match="rare_attack.*R"):
            cat.faction("normans")
    finally:
        monkeypatch.undo()
        cat.faction.cache_clear()


# -- line of sight through a mixed gap (SAGA p.15) --------------------------------------------------

def _levies_beside_their_warlord(warlord_at: list[float]) -> Session:
    """Two Viking levies (bows) at (10, 8) and (11.5, 8); their Warlord at ``warlord_at``; the
    enemy Warlord alone at (18, 14). The line from the first levy to him runs between the
    second levy and a Warlord standing at (11.5, 10), clear of both bases."""
    s = session([{"id": "lev", "class": "levies", "positions": [[10, 8], [11.5, 8]]},
                 {"id": "lord", "class": "warlord", "at": warlord_at}],
                [{"id": "el", "class": "warlord", "at": [18, 14]}], extra=MID_GAME)
    give_dice(s, "A", [("U", "thralls")])
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    return s


def test_a_gap_between_a_figure_of_the_shooting_unit_and_another_blocks_the_line() -> None:
    from simulator.games.saga import shooting
    s = _levies_beside_their_warlord([11.5, 10])
    assert shooting.sight_line(s.state_data(), "lev.1", "el")[2] == ["gap between figures"]
    s.apply({"type": "shoot", "target": "el"})
    shot = [e for e in s.log if e.kind == "shoot"][-1]
    assert shot.data["dice"] == 1 and "1 figure(s) in range and sight" in shot.text
    assert "lev.1" not in shot.data["pieces"] and "lev.2" in shot.data["pieces"]


def test_with_the_warlord_away_both_levies_see() -> None:
    s = _levies_beside_their_warlord([40, 3])
    s.apply({"type": "shoot", "target": "el"})
    shot = [e for e in s.log if e.kind == "shoot"][-1]
    assert "2 figure(s) in range and sight" in shot.text


def test_two_figures_of_the_shooting_unit_leave_no_gap_that_blocks() -> None:
    """A line from the first levy between the second and a third of the same unit is clear."""
    from simulator.games.saga import shooting
    s = session([{"id": "lev", "class": "levies", "positions": [[10, 8], [11.5, 8], [11.5, 10]]},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "el", "class": "warlord", "at": [18, 14]}], extra=MID_GAME)
    assert shooting.sight_line(s.state_data(), "lev.1", "el")[2] == []


# -- contact across a hedge (SAGA p.20) -------------------------------------------------------------

HEDGE = [{"id": "hedge", "type": "hedge", "line": [[0, 18], [48, 18]]}]


def _hedge_between(offset: float) -> Session:
    """Four Viking warriors (y 15.5) below a hedge along y = 18; four Anglo-Danish hearthguard
    touching its far side (y 18.5), shifted ``offset`` inches along it."""
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [20, 15.5], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "hg", "class": "hearthguard", "figures": 4, "at": [20 + offset, 18.5], "columns": 4},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], terrain=HEDGE)
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    return s


def test_touching_a_hedge_is_contact_with_the_enemy_touching_its_other_side() -> None:
    s = _hedge_between(0.8)             # the bases do not meet (gap 0.28") but face each other
    s.apply({"type": "move", "dx": 0, "dy": 2})                          # every figure against the hedge
    moved = [e for e in s.log if e.kind == "move"][-1]
    assert "engages" in moved.text and moved.rule == "SAGA p.20"
    assert s.state["melee"] is not None and s.state["melee"]["defender"] == "hg"
    fight = [e for e in s.log if e.kind == "melee" and "A warriors" in e.text][-1]
    assert "4 figure(s) fight" in fight.text
    # the move crossed nothing: it stayed M, not S (SAGA p.13)
    assert "uneven" not in moved.text


def _warlord_behind_the_hedge(x: float) -> Session:
    """Four Viking warriors (y 15.5, x 17.75 to 22.25) below the hedge; the enemy Warlord alone
    touching its far side at (``x``, 18.6)."""
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [20, 15.5], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "el", "class": "warlord", "at": [x, 18.6]}], terrain=HEDGE, extra=MID_GAME)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    return s


def test_against_the_hedge_but_not_facing_the_enemy_is_no_contact() -> None:
    # the nearest of ours ends 1.75" along the hedge from him: within VS, not facing him
    s = _warlord_behind_the_hedge(24.0)
    with pytest.raises(IllegalAction, match="within VS") as why:
        s.apply({"type": "move", "dx": 0, "dy": 2})
    assert why.value.rule == "SAGA p.12"
    # 0.95" along it the two bases face each other across the hedge: contact, a melee
    s = _warlord_behind_the_hedge(23.2)
    s.apply({"type": "move", "dx": 0, "dy": 2})
    assert s.state["melee"] is not None and s.state["melee"]["defender"] == "el"


def test_the_engage_action_places_figures_against_the_hedge() -> None:
    s = _hedge_between(0.8)
    s.apply({"type": "engage", "target": "hg"})
    assert s.state["melee"] is not None
    below = [f for f in s.state["units"]["w"]["figures"] if s.state["figures"][f]["y"] < 18.0]
    assert len(below) >= 3


# -- exact sight lines to a building (SAGA p.27) -------------------------------------------------

def test_a_building_seen_through_a_slit_narrower_than_any_sampling() -> None:
    """A palisade along y = 10 leaves a slit 0.07" wide; through it a levy at (14, 5) sees a strip
    of the hall's near wall from x 14.2 to 14.34 (and of its far wall from 14.28 to 14.48), between
    the points a 0.5" sampling of the walls tried."""
    terrain = [{"id": "hall", "type": "building", "polygon": [[10, 15], [18, 15], [18, 19], [10, 19]]},
               {"id": "west", "type": "palisade", "line": [[0, 10], [14.1, 10]]},
               {"id": "east", "type": "palisade", "line": [[14.17, 10], [48, 10]]}]
    s = session([{"id": "lev", "class": "levies", "positions": [[14, 5]]},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "positions": [[13, 17], [15, 17]]},
                 {"id": "el", "class": "warlord", "at": [40, 33]}], terrain=terrain, extra=MID_GAME)
    from simulator.games.saga import shooting
    st = s.state_data()
    a, b, blockers = shooting.sight_line(st, "lev", "war.1")
    assert blockers == [] and b[1] == pytest.approx(15) and 14.2 < b[0] < 14.34
    give_dice(s, "A", [("U", "thralls")])
    s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    s.apply({"type": "shoot", "target": "war"})
    assert s.state["shooting"]["cover"] == "heavy"
    # close the slit: nothing of the hall is seen any more
    terrain[2]["line"] = [[14.1, 10], [48, 10]]
    closed = session([{"id": "lev", "class": "levies", "positions": [[14, 5]]},
                      {"id": "lord", "class": "warlord", "at": [40, 3]}],
                     [{"id": "war", "class": "warriors", "positions": [[13, 17], [15, 17]]},
                      {"id": "el", "class": "warlord", "at": [40, 33]}], terrain=terrain, extra=MID_GAME)
    assert shooting.sight_line(closed.state_data(), "lev", "war.1")[2]


def test_the_engaging_figure_stays_on_its_side_of_the_hedge_when_it_can() -> None:
    """The enemy Warlord touches the far side of the hedge; our own Warlord stands right below
    him, so the warrior cannot face him straight across. It stands against the hedge a little to
    the side, still facing him (SAGA p.20), rather than crossing the hedge to his flank, which
    would have slowed the move to S (SAGA p.13)."""
    s = session([{"id": "w", "class": "warriors", "positions": [[19.3, 15.5]]},
                 {"id": "lord", "class": "warlord", "at": [20.2, 17.3]}],
                [{"id": "el", "class": "warlord", "at": [20, 18.6]}], terrain=HEDGE, extra=MID_GAME)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    s.apply({"type": "engage", "target": "el"})
    moved = [e for e in s.log if e.kind == "move"][-1]
    assert s.state["melee"] is not None and "uneven" not in moved.text
    assert s.state["figures"]["w"]["y"] < 18.0
