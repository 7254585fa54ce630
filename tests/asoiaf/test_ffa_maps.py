"""Free-for-all maps (digest §13.2 with §16.7 and §16.9), mode-specific terrain placement and force
selection that knows the teammate's army (§13.1)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from simulator.core.errors import DataError, IllegalAction
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.asoiaf import modes
from simulator.games.asoiaf.forces import AsoiafForces
from simulator.games.asoiaf.placement import CORNERS, area_rect


def ffa(mode: str, rules: dict | None = None, **setup_changes):
    sc = load_scenario("asoiaf/free-for-all-3")
    return scenario_from_data(dict(sc.data, rules=rules or {}, setup={**sc.setup, "mode": mode, **setup_changes}),
                              "asoiaf/ffa")


def _inside(poly, rect) -> bool:
    x0, y0, x1, y1 = rect
    p = np.array(poly)
    return bool(p[:, 0].max() > x0 and p[:, 0].min() < x1 and p[:, 1].max() > y0 and p[:, 1].min() < y1)


def test_sharp_and_ready_free_for_all_map_has_an_objective_and_wall_by_each_edge():
    s = Session.new(ffa("sharp_and_ready"), 1)
    st = s.state
    assert [(o["x"], o["y"]) for o in st["objectives"]] == [(24, 24), (6, 24), (42, 24), (24, 6), (24, 42)]
    walls = [t for t in st["terrain"] if t["kind"] == "castle_wall"]
    assert len(walls) == 4
    turned = np.array(walls[2]["polygon"])
    assert np.ptp(turned[:, 0]) == pytest.approx(6) and np.ptp(turned[:, 1]) == pytest.approx(1.5)
    for corner in CORNERS:                    # nothing of the map inside a corner area
        rect = area_rect(st, corner, "stark")
        assert not any(_inside(w["polygon"], rect) for w in walls)
        # every corner is equally near its two nearest side Objectives
        cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        d = sorted(round(float(np.hypot(o["x"] - cx, o["y"] - cy)), 3) for o in st["objectives"][1:])
        assert d[0] == d[1]
    duel = Session.new(load_scenario("asoiaf/sharp-and-ready"), 1).state       # the duel map is unchanged
    assert len(duel["objectives"]) == 3 and sum(t["kind"] == "castle_wall" for t in duel["terrain"]) == 2


def test_here_we_stand_free_for_all_each_player_scores_its_own_quadrant():
    s = Session.new(ffa("here_we_stand"), 1)
    st = s.state_data()
    events = []
    ctx = SimpleNamespace(emit=lambda kind, text, rule, **data: events.append(text), dice=None)
    st["round"] = 2
    modes.score_round(st, ctx)
    # each army sits in its own corner: the quadrant holding it is its own (5+ points, more than anyone)
    scorers = {p for p in st["players"] if st["vp"][p] >= 1}
    assert scorers == set(st["players"])
    assert all("controls quadrant" in e for e in events)


def test_mode_terrain_rules_edges_and_no_impassable():
    s = Session.new(ffa("here_we_stand", {"terrain": "players", "deployment": "players"}), 1)
    with pytest.raises(IllegalAction, match="6\" from every table edge"):
        s.apply({"type": "place_terrain", "kind": "forest", "x": 5, "y": 24})
    s.apply({"type": "place_terrain", "kind": "forest", "x": 10, "y": 10})   # in a corner area: allowed (16.9)
    sr = Session.new(ffa("sharp_and_ready", {"terrain": "players"}, terrain=[]), 1)
    assert all(a.get("kind") != "palisade" for a in sr.legal_actions())
    with pytest.raises(IllegalAction, match="kind must be one of"):
        sr.apply({"type": "place_terrain", "kind": "palisade", "x": 30, "y": 30})
    # the walls are ignored for the 6" spacing, but nothing within 1" of them (16.7)
    with pytest.raises(IllegalAction, match="from a castle wall: at least 1\""):
        sr.apply({"type": "place_terrain", "kind": "hedge", "x": 13, "y": 24, "rotation": 90})
    sr.apply({"type": "place_terrain", "kind": "hedge", "x": 14, "y": 24, "rotation": 90})   # 1.75" from W1


def test_force_selection_refuses_a_character_twice_in_one_team():
    sc = load_scenario("asoiaf/team-game-2v2")
    sc = scenario_from_data(dict(sc.data, force_selection={}), "asoiaf/team-choose")
    rules = AsoiafForces()
    picks = {p: rules.computer_forces(sc, p) for p in ("robb", "jaime", "eddard", "tywin")}
    rules.build_scenario(sc, picks)                                 # the suggested armies are fine
    picks["robb"] = {"commander:20201": 1, "unit:10201": 1, "unit:10212": 1}
    picks["eddard"] = {"commander:20210": 1, "unit:10201": 1, "unit:10212": 1}
    for p in ("robb", "eddard"):
        assert rules.check_forces(sc, p, picks[p]) == []            # each army is legal on its own
    with pytest.raises(DataError, match="eddard: .*Character already in robb's army"):
        rules.build_scenario(sc, picks)
