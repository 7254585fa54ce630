"""Engaging a building held by several units (SAGA p.27): the engaging move's event names the
building and its holders, not a defender the owner has not picked yet; the defend_building
answer names the chosen one; an engage aimed at any holder engages the building."""

from tests.saga.helpers import give_dice, session, to_activation
from tests.saga.test_buildings import HALL


def _two_hold_the_hall(choices: bool = True):
    s = session([{"id": "hg", "class": "hearthguard", "figures": 4, "at": [11, 10], "columns": 4},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "war", "class": "warriors", "figures": 4, "at": [9.5, 18], "columns": 2},
                 {"id": "bhg", "class": "hearthguard", "figures": 4, "at": [12.5, 18], "columns": 2},
                 {"id": "el", "class": "warlord", "at": [40, 33]}],
                terrain=[HALL], faction_b="vikings")
    s._state["rules"]["player_choices"] = choices
    to_activation(s)
    give_dice(s, "A", [("C", "hirdmen")])
    s.apply({"type": "activate", "unit": "hg", "source": "hirdmen", "order": "move"})
    return s


def _engaging_move(s):
    return [e for e in s.log if e.kind == "move" and e.rule == "SAGA p.20"][-1]


def test_the_move_names_the_building_until_its_owner_picks_the_defender() -> None:
    s = _two_hold_the_hall()
    s.apply({"type": "engage", "target": "war"})
    move = _engaging_move(s)
    names = {u: s.state["units"][u]["name"] for u in ("war", "bhg")}
    assert move.text.endswith(f"engages Building (held by {names['war']} and {names['bhg']}; their owner picks "
                              "the defender)")
    assert move.data["engaged"] is None and move.data["building"] == "hall"
    s.apply({"type": "defend_building", "unit": "bhg"})
    chosen = [e for e in s.log if e.kind == "melee" and "defends the building" in e.text]
    assert [e.text for e in chosen] == [f"{names['bhg']} defends the building"] and chosen[0].data["unit"] == "bhg"
    assert s.state["melee"]["defender"] == "bhg"


def test_engaging_the_other_holder_engages_the_building() -> None:
    s = _two_hold_the_hall()
    s.apply({"type": "engage", "target": "bhg"})            # not the engine's pick: still the building
    assert s.state["melee"]["step"] == "building"
    assert _engaging_move(s).data["building"] == "hall"


def test_without_a_choice_the_move_names_the_defender() -> None:
    s = _two_hold_the_hall(choices=False)
    s.apply({"type": "engage", "target": "bhg"})
    move = _engaging_move(s)
    assert move.text.endswith(f"engages {s.state['units']['war']['name']}") and move.data["engaged"] == "war"
    assert s.state["melee"]["defender"] == "war"
