"""The hexes a walking monster is offered (``walk_reach``, also the client's move range) and the
walks the engine accepts (``walk``) come from one rule check, ``walk_occupants`` (issue 21): every
destination offered is accepted along its path, and every other hex in reach of the MP is refused."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.core import IllegalAction
from simulator.games.dragon_rage.legal import is_legal
from simulator.games.dragon_rage.monster_moves import walk_reach
from tests.dragon_rage.helpers import session, to_phase

POSITIONS: list[tuple[str, dict[str, list[dict[str, Any]]], str]] = [
    # a dragon among enemies in the open, a friend, a lone hero, a tower next door
    ("dragon_rage/esirien", {"invader": [{"type": "dragon", "at": ["1005"], "facing": "S"},
                                         {"type": "orcs", "at": ["1104"]}],
                             "defender": [{"type": "infantry", "at": ["1006"]}, {"type": "militia", "at": ["1106"]},
                                          {"type": "hero", "at": ["0906"]}, {"type": "archers", "at": ["1007"]}]},
     "dragon1"),
    # by the wall gate 0606/0707 and the tower 0706, enemies inside the town
    ("dragon_rage/esirien", {"invader": [{"type": "dragon", "at": ["0605"], "facing": "SE"}],
                             "defender": [{"type": "infantry", "at": ["0707"]}, {"type": "cavalry", "at": ["0807"]},
                                          {"type": "earth_elemental", "at": ["0604"]}]},
     "dragon1"),
    # a young dragon (no overrun) and a great wurm (overrun) by the bridges of Esirien
    ("dragon_rage/esirien", {"invader": [{"type": "young_dragon", "at": ["1312"], "facing": "S"},
                                         {"type": "sea_serpent", "at": ["1412"]}],
                             "defender": [{"type": "infantry", "at": ["1314"]}]}, "young_dragon1"),
    ("dragon_rage/esirien", {"invader": [{"type": "great_wurm", "at": ["1312"], "facing": "S"},
                                         {"type": "sea_serpent", "at": ["1412"]}],
                             "defender": [{"type": "infantry", "at": ["1314"]}, {"type": "militia", "at": ["1213"]}]},
     "great_wurm1"),
    # Nurkott's doors and wooden walls
    ("dragon_rage/nurkott", {"invader": [{"type": "dragon", "at": ["1610"], "facing": "S"}],
                             "defender": [{"type": "orcs", "at": ["1611"]}, {"type": "goblins", "at": ["1711"]}]},
     "dragon1"),
]


@pytest.mark.parametrize("map_,forces,mover", POSITIONS)
def test_every_offered_walk_is_accepted_and_nothing_else(map_: str, forces: dict[str, Any], mover: str) -> None:
    s = session(forces, map_=map_)
    to_phase(s, "invader_move")
    serpent = next((u["id"] for u in s.state["units"].values() if u["type"] == "sea_serpent"), None)
    if serpent:
        s.apply({"type": "move", "unit": serpent, "to": "1413"})        # under the bridge (DR 2.11.2.1)
    state = s.state_data()
    unit = state["units"][mover]
    reach = walk_reach(state, unit)
    assert reach, "the position offers no walk at all"
    for h, (mp, path, _) in reach.items():
        assert path[-1] == h
        assert is_legal(state, {"type": "walk", "unit": mover, "path": path}), f"{h} offered by {path} but refused"
    for h in _near(s, unit["hex"], 1):
        if h not in reach and h != unit["hex"]:
            assert not is_legal(state, {"type": "walk", "unit": mover, "path": [h]}), f"{h} accepted, not offered"
    walks = sorted(a["path"][-1] for a in s.legal_actions() if a["type"] == "walk" and a["unit"] == mover)
    assert walks == sorted(reach)


def _near(s, hex_: str, radius: int) -> list[str]:
    from simulator.games.dragon_rage.board import board_for
    return board_for(s.state["map"]).within(hex_, radius)


def test_a_walking_dragon_passes_over_its_own_serpent_under_a_bridge() -> None:
    """Units on a bridge's deck and a serpent in the water below ignore each other (DR 2.11.2.1)."""
    s = session({"invader": [{"type": "great_wurm", "at": ["1313"], "facing": "SE"},
                             {"type": "sea_serpent", "at": ["1412"]}],
                 "defender": [{"type": "infantry", "at": ["1609"]}]})
    to_phase(s, "invader_move")
    s.apply({"type": "move", "unit": "sea_serpent1", "to": "1413"})
    assert "1413" in walk_reach(s.state_data(), s.state["units"]["great_wurm1"])
    s.apply({"type": "walk", "unit": "great_wurm1", "path": ["1413"]})
    assert s.state["units"]["great_wurm1"]["hex"] == "1413" == s.state["units"]["sea_serpent1"]["hex"]


def test_a_friend_still_blocks_a_walk() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["1005"], "facing": "S"}, {"type": "orcs", "at": ["1006"]}],
                 "defender": [{"type": "infantry", "at": ["1609"]}]})
    to_phase(s, "invader_move")
    assert "1006" not in walk_reach(s.state_data(), s.state["units"]["dragon1"])
    with pytest.raises(IllegalAction, match="friendly") as exc:
        s.apply({"type": "walk", "unit": "dragon1", "path": ["1006"]})
    assert exc.value.rule == "DR 2.4.3"
