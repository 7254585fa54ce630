"""The authored scenarios together put every rule of the issue's list on the table: every terrain and
hexside feature on a board some scenario plays on, coastal and deep water, joined boards, every troop
type, riders and riderless horses, every ship type, beached boats and grapples, every optional rule
switch (5.1-5.4) and every scenario rule (5.5.1-5.5.5) including treasure exits; and, through the
engine, a treasure carried off the low-tide raid's exit hexes."""

from __future__ import annotations

from pathlib import Path

from simulator.core.scenario import load_scenario
from simulator.core.session import Session
from simulator.games.vikings import GAME, treasure
from simulator.games.vikings.board import FEATURES, MAP_TERRAINS
from simulator.games.vikings.catalogue import characters
from simulator.games.vikings.game import board_of
from simulator.games.vikings.setup import RULES_SCHEMA
from tests.vikings.helpers import to_side_step
from tests.vikings.test_shipwork import _Ctx

NAMES = sorted(p.stem for p in Path("scenarios/vikings").glob("*.yaml"))


def _scenarios():
    return {n: load_scenario(f"vikings/{n}") for n in NAMES}


def test_the_scenarios_use_every_terrain_feature_and_water_class():
    terrains, features, kinds = set(), set(), set()
    for name in NAMES:
        board = board_of(Session.new(f"vikings/{name}", seed=1).state_data())
        terrains |= set(board.terrain.values())
        features |= {board.feature(a, b) for a in board.terrain for b in board.neighbours(a)} - {None}
        kinds |= set(board.water.values())
    assert terrains == set(MAP_TERRAINS)
    assert features == set(FEATURES)
    assert kinds == {"coastal", "deep"}
    assert sum(len(sc.setup["boards"]) > 1 for sc in _scenarios().values()) >= 3      # boards join


def test_the_scenarios_field_every_troop_type_riders_and_horses():
    cat = characters()
    types = {cat[c["id"]].troop for sc in _scenarios().values() for c in sc.setup["characters"]}
    assert types == {c.troop for c in cat.values()}
    chars = [c for sc in _scenarios().values() for c in sc.setup["characters"]]
    assert any(c.get("mounted") for c in chars)
    assert any(sc.setup.get("horses") for sc in _scenarios().values())
    assert any(c.get("move") == 8 and c["id"] == "hilda" for c in chars)               # 5.5.4


def test_the_scenarios_sail_every_ship_type_beach_boats_and_carry_grapples():
    ships = [s for sc in _scenarios().values() for s in sc.setup.get("ships", [])]
    assert {s["type"] for s in ships} == {"drakkar", "galley", "rowboat"}
    assert any(s.get("beached") for s in ships)
    assert sum(len({s["side"] for s in sc.setup.get("ships", [])}) == 2 for sc in _scenarios().values()) >= 2
    assert any(sc.setup.get("grapples") for sc in _scenarios().values())


def test_every_optional_and_scenario_rule_is_switched_on_somewhere():
    switched = {k for sc in _scenarios().values() for k, v in sc.rules.items() if v}
    assert switched == set(RULES_SCHEMA["properties"])
    setups = [sc.setup for sc in _scenarios().values()]
    assert any(s.get("treasures") and s.get("victory", {}).get("treasure_exits") for s in setups)
    assert {a["kind"] for s in setups for a in s.get("animals", [])} == {"goat", "pig"}
    assert any(s.get("sandbar") for s in setups)


def test_a_villager_drags_the_silver_off_the_north_edge_of_the_low_tide_raid():
    s = Session.new("vikings/low_tide_raid", seed=1)
    to_side_step(s, "saxons", "move")
    st = s.state_data()
    exits = st["victory"]["treasure_exits"]["saxons"]
    peasant, silver = st["chars"]["peasant1"], st["treasures"]["silver1"]
    peasant["hex"] = exits[0]
    silver.update(carried_by="peasant1", hex=exits[0], revealed=True)
    offered = {"type": "carry_off", "piece": "peasant1"}
    assert offered in GAME.legal_actions(st)
    ctx = _Ctx([])
    before = GAME.scores(st)["saxons"]
    GAME.apply(st, offered, ctx)
    assert st["chars"]["peasant1"]["off_map"] and st["treasures"]["silver1"]["off_map"] == "saxons"
    assert GAME.scores(st)["saxons"] == before and treasure.holders(st) == {"saxons": 1}   # scores off the map
    assert ctx.events[-1][2] == "VK 5.5.1"
