"""Buildings (SAGA p.27): moves out of a building are measured from the outside of its walls;
shooting at (or from) a building sees and measures to (or from) any part of it."""

from __future__ import annotations

import math

import pytest

from simulator.core import IllegalAction, Session
from simulator.games.saga import GAME, shooting
from tests.saga.helpers import give_dice, session, to_activation

HALL = {"id": "hall", "type": "building", "polygon": [[8, 16], [14, 16], [14, 20], [8, 20]]}


def _in_the_hall() -> Session:
    """Four Warriors (0.5" bases, S out of a building: uneven terrain) inside the hall, their
    back rank 1.25" and their front rank 2.75" from the hall's top wall (y = 20); activated."""
    s = session([{"id": "w", "class": "warriors", "figures": 4, "at": [11, 18], "columns": 2},
                 {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [{"id": "el", "class": "warlord", "at": [40, 33]}], terrain=[HALL])
    assert s.state["units"]["w"]["building"] == "hall"
    to_activation(s)
    give_dice(s, "A", [("C", "bondi")])
    s.apply({"type": "activate", "unit": "w", "source": "bondi", "order": "move"})
    return s


def test_a_move_out_is_measured_from_the_walls() -> None:
    s = _in_the_hall()
    # 5.65" from where they stand, but the front figures end 3.9" beyond the wall: within S (4")
    s.apply({"type": "move", "dx": 0, "dy": 5.65})
    figs = s.state["figures"]
    assert figs["w.3"]["y"] == pytest.approx(24.4) and s.state["units"]["w"]["building"] is None
    assert figs["w.3"]["y"] - figs["w.3"]["r"] - 20 == pytest.approx(3.9)


def test_a_move_out_beyond_s_from_the_walls_is_refused_naming_the_rule() -> None:
    s = _in_the_hall()
    with pytest.raises(IllegalAction, match=r"w\.3 would move 4\.10\" from the walls but may move only 4") as e:
        s.apply({"type": "move", "dx": 0, "dy": 5.85})
    assert e.value.rule == "SAGA p.12-13, p.27"


def test_a_bending_move_out_counts_the_legs_beyond_the_walls() -> None:
    s = _in_the_hall()
    figs = s.state["figures"]

    def out_then_right(dx: float) -> dict[str, list[list[float]]]:
        """Every figure 3.5" up (the front rank's bases end 1.75" clear of the wall), then dx right."""
        return {f: [[figs[f]["x"], figs[f]["y"] + 3.5], [figs[f]["x"] + dx, figs[f]["y"] + 3.5]]
                for f in s.state["units"]["w"]["figures"]}

    with pytest.raises(IllegalAction, match=r"w\.3 would move 4\.15\" from the walls"):
        s.apply({"type": "move", "path": out_then_right(2.4)})      # 1.75" + 2.4"
    s.apply({"type": "move", "path": out_then_right(2.2)})          # 1.75" + 2.2": 5.7" of path
    assert s.state["figures"]["w.3"]["x"] == pytest.approx(12.45)



BARN = {"id": "barn", "type": "building", "polygon": [[15.5, 17.1], [17, 17.1], [17, 19], [15.5, 19]]}


def _shot_at_the_hall(shooters_at: list[float], terrain: list[dict] | None = None,
                      shooters_in_building: bool = False, activate: bool = True) -> Session:
    """Levies (bows, range L) and Warriors; with ``shooters_in_building`` the Levies hold the
    hall and the Warriors stand outside, else the Warriors hold it."""
    levies = {"id": "lev", "class": "levies", "figures": 4, "at": shooters_at, "columns": 2}
    war = {"id": "war", "class": "warriors", "figures": 4, "at": [11, 18], "columns": 2}
    if shooters_in_building:
        levies["at"], war["at"] = [11, 18], shooters_at
    s = session([levies, {"id": "lord", "class": "warlord", "at": [40, 3]}],
                [war, {"id": "el", "class": "warlord", "at": [40, 33]}], terrain=[HALL] + (terrain or []))
    to_activation(s)
    give_dice(s, "A", [("U", "thralls")])
    if activate:
        s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    return s


def _cannot_shoot(s: Session) -> None:
    """No Levy can shoot the Warriors: the shooting activation is refused, naming the rule."""
    assert shooting.eligible_shooters(s.state_data(), "lev", "war") == []
    with pytest.raises(IllegalAction, match="no enemy unit in range and sight") as e:
        s.apply({"type": "activate", "unit": "lev", "source": "thralls", "order": "shoot"})
    assert e.value.rule == "SAGA p.15"


def _nearest_figure_gap(st: dict, a: str, b: str) -> float:
    figs = st["figures"]
    return min(math.dist((figs[f]["x"], figs[f]["y"]), (figs[g]["x"], figs[g]["y"])) - figs[f]["r"] - figs[g]["r"]
               for f in st["units"][a]["figures"] for g in st["units"][b]["figures"])


def test_range_to_a_unit_in_a_building_is_measured_to_the_building() -> None:
    # the Levies' front rank stands 11.5" below the hall's wall, 12.25" from the nearest Warrior
    s = _shot_at_the_hall([11, 3.25])
    st = s.state_data()
    assert _nearest_figure_gap(st, "lev", "war") > 12
    assert shooting.eligible_shooters(st, "lev", "war") == ["lev.3", "lev.4"]
    s.apply({"type": "shoot", "target": "war"})
    assert s.state["shooting"]["cover"] == "heavy"
    _cannot_shoot(_shot_at_the_hall([11, 2.5], activate=False))     # the front rank 12.25" from the wall


def test_seeing_any_part_of_the_building_is_enough() -> None:
    # the barn hides every Warrior inside the hall from the Levies but not the hall's lower right corner
    s = _shot_at_the_hall([20.5, 18], terrain=[BARN])
    st = s.state_data()
    figs = st["figures"]
    for f in st["units"]["lev"]["figures"]:
        for g in st["units"]["war"]["figures"]:
            line = ((figs[f]["x"], figs[f]["y"]), (figs[g]["x"], figs[g]["y"]))
            assert "barn" in shooting.los_blockers(st, *line, {"lev", "war"})
    assert shooting.eligible_shooters(st, "lev", "war")
    a, b, blockers = shooting.sight_line(st, "lev.1", "war.1")
    assert not blockers and b[0] == pytest.approx(14.0) and b[1] < 17.1
    s.apply({"type": "shoot", "target": "war"})
    los = GAME.presentation().line_of_sight(st, "lev.1", "war.1")
    assert los is not None and los.clear


def test_a_building_hidden_all_round_is_not_seen() -> None:
    wide = {**BARN, "polygon": [[15.5, 15], [17, 15], [17, 21], [15.5, 21]]}
    s = _shot_at_the_hall([20.5, 18], terrain=[wide], activate=False)
    _cannot_shoot(s)
    los = GAME.presentation().line_of_sight(s.state_data(), "lev.1", "war.1")
    assert los is not None and not los.clear and "barn" in los.blockers


def test_occupants_shoot_from_the_walls_and_their_building_gives_no_cover() -> None:
    # the Warriors stand 11.8" above the hall's wall, about 13" from the Levies inside
    s = _shot_at_the_hall([11, 33.05], shooters_in_building=True)
    st = s.state_data()
    assert st["units"]["lev"]["building"] == "hall"
    assert _nearest_figure_gap(st, "lev", "war") > 12
    assert shooting.eligible_shooters(st, "lev", "war") == ["lev.1", "lev.2", "lev.3", "lev.4"]
    s.apply({"type": "shoot", "target": "war"})
    assert s.state["shooting"]["cover"] == "none"
