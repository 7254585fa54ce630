"""Force selection (DR 3.3): catalogue, force checks, VP objective, ranking, scenario builder."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from simulator import ROOT
from simulator.core.errors import DataError
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.dragon_rage import pointbuy as pb
from simulator.games.dragon_rage.board import board_for

SCEN = ROOT / "scenarios" / "dragon_rage"
E1_DEFENDERS = {"cavalry": 4, "infantry": 8, "archers": 4, "militia": 4, "hero": 1, "wizard": 1}


def types(map_name: str, side: str) -> set[str]:
    return {o.unit_type for o in pb.catalogue(map_name, side)}


def test_catalogue_follows_counter_colours_and_mix() -> None:
    assert types("esirien", "defender") == {"militia", "infantry", "cavalry", "archers", "ballista",
                                            "catapult", "hero", "wizard"}
    assert types("nurkott", "defender") == {"orcs", "trolls", "wargs", "goblins", "invader_hero", "invader_wizard"}
    inv = types("esirien", "invader")
    assert {"dragon", "young_dragon", "roc", "great_wurm", "giant", "sea_serpent", "t_rex", "orcs"} <= inv
    assert not inv & types("esirien", "defender")
    assert "wurm" not in inv and "elowyn" not in inv and "fire_elemental" not in inv   # alias / optional / summoned
    assert {"hero", "infantry"} <= types("nurkott", "invader") and "catapult" not in types("nurkott", "invader")
    offers = pb.catalogue("esirien", "invader")
    assert [o.cost for o in offers] == sorted((o.cost for o in offers), reverse=True)
    dragon = next(o for o in offers if o.unit_type == "dragon")
    assert (dragon.cost, dragon.max) == (40, 2)
    assert next(o for o in offers if o.unit_type == "great_wurm").cost == 45     # printed (DR 3.3.4 table)
    with pytest.raises(DataError, match="no recruiting rules"):
        pb.catalogue("atlantis", "invader")


def test_costs_reproduce_the_budget_reconstruction() -> None:
    assert pb.cost({"dragon": 2}) == 80                                           # Esirien 1 invader
    assert pb.cost({"giant": 6, "goblins": 2}) == 80                              # Esirien 6 invader
    assert pb.cost({"dragon": 1, "young_dragon": 1, "giant": 1, "orcs": 5}) == 80  # Esirien 5 invader
    assert pb.cost(E1_DEFENDERS) == 74
    assert pb.cost([{"type": "dragon", "count": 1, "at": ["0901"]}, {"type": "giant"}]) == 53


def test_legal_point_buy_forces() -> None:
    assert pb.check_force("esirien", "invader", {"dragon": 2}) == []
    assert pb.check_force("esirien", "defender", E1_DEFENDERS) == []


@pytest.mark.parametrize("side, choice, expected", [
    ("invader", {"dragon": 2, "goblins": 1}, "costs 81 points, more than the 80 allowed"),
    ("defender", {"hero": 1, "wizard": 1, "cavalry": 5, "infantry": 16}, "more than the 75 allowed"),
    ("invader", {"giant": 7}, "only 6 counters exist"),
    ("invader", {"infantry": 2}, "may not buy infantry on esirien"),
    ("defender", {"orcs": 2}, "may not buy orcs on esirien"),
    ("invader", {"balrog": 1}, "unknown unit type 'balrog'"),
    ("invader", {}, "at least one unit"),
])
def test_illegal_point_buy_forces(side: str, choice: dict[str, int], expected: str) -> None:
    problems = pb.check_force("esirien", side, choice)
    assert any(expected in p.message for p in problems), problems


def test_planned_scenarios_need_budget_ranges_and_defender_unit_count() -> None:
    assert pb.check_force("esirien", "invader", {"dragon": 2, "goblins": 5}, mode="planned") == []
    low = pb.check_force("esirien", "invader", {"dragon": 1, "giant": 2}, mode="planned")
    assert any("less than the 80 required" in p.message for p in low)
    few = pb.check_force("esirien", "defender", {"hero": 1, "wizard": 1, "cavalry": 5, "infantry": 12}, mode="planned")
    assert any("needs 20-22" in p.message and p.rule == "DR 3.3.1" for p in few)
    ok = {"hero": 1, "wizard": 1, "cavalry": 4, "infantry": 8, "archers": 4, "militia": 4}     # 22 units, 74 pts
    assert pb.check_force("esirien", "defender", ok, mode="planned") == []


def test_vp_objective_modifiers() -> None:
    base = {"infantry": 10}
    assert pb.vp_objective("esirien", {"giant": 6}, base) == 17
    assert pb.vp_objective("esirien", {"dragon": 2}, base) == 21                   # +2 per dragon
    assert pb.vp_objective("esirien", {"roc": 1, "young_dragon": 1, "great_wurm": 1}, base) == 20
    assert pb.vp_objective("esirien", {"orcs": 6, "goblins": 5}, base) == 18        # 11 invader units
    assert pb.vp_objective("esirien", {"orcs": 6, "goblins": 4}, base) == 17
    assert pb.vp_objective("esirien", {"giant": 1}, base, elowyn=True) == 18        # the Princess
    assert pb.vp_objective("esirien", {"giant": 1}, {"militia": 8, "infantry": 15}) == 14   # 3 above 20
    assert pb.vp_objective("nurkott", {"giant": 1}, base) == 18                     # Nurkott
    assert pb.vp_objective("esirien", {"giant": 1}, base, handicap=-3) == 14
    lines = pb.objective_lines("nurkott", {"dragon": 1, "infantry": 10}, {"orcs": 21})
    assert [(line.id, line.add) for line in lines] == [("base", 17), ("dragons", 2), ("big_invader_force", 1),
                                                       ("big_defender_force", -1), ("nurkott", 1)]


def test_ratings_and_handicap() -> None:
    games = [("ann", "bob"), ("ann", "bob"), ("ann", "cid"), ("cid", "ann"), ("ann", "bob"), (None, None)]
    assert pb.ratings_from_results(games) == {"ann": 3, "bob": -3, "cid": 0}
    assert pb.ratings_from_results(games, pair=("ann", "cid")) == {"ann": 0, "cid": 0}
    r = {"ann": 7, "bob": 2}
    assert pb.handicap(r, invader="ann", defender="bob") == 2          # (7-2)//2, better player invades
    assert pb.handicap(r, invader="bob", defender="ann") == -2         # better player defends
    assert pb.handicap({"ann": 1}, invader="ann", defender="new") == 0


def test_built_scenario_plays_with_the_objective_and_forces() -> None:
    inv = {"dragon": 1, "young_dragon": 1, "giant": 1, "orcs": 5}
    dfd = {"hero": 1, "wizard": 1, "cavalry": 4, "infantry": 10, "archers": 4, "militia": 1}
    data = pb.build_scenario("esirien", inv, dfd)
    s = Session.new(scenario_from_data(data, "dragon_rage/pb-test"))
    st = s.state_data()
    assert st["vp"]["objective"] == pb.vp_objective("esirien", inv, dfd) == 19      # 17 +2 +1 -1 (21 defenders)
    have: dict[tuple[str, str], int] = {}
    for u in st["units"].values():
        have[(u["side"], u["type"])] = have.get((u["side"], u["type"]), 0) + 1
    assert have == {**{("invader", t): n for t, n in inv.items()}, **{("defender", t): n for t, n in dfd.items()}}
    assert all(u["hex"] for u in st["units"].values())
    assert s.legal_actions()


def test_princess_bonus_is_added_once_by_the_engine() -> None:
    inv, dfd = {"dragon": 2}, E1_DEFENDERS
    data = pb.build_scenario("esirien", inv, dfd, elowyn=True)
    assert data["setup"]["point_built"] and data["rules"]["elowyn"]
    s = Session.new(scenario_from_data(data, "dragon_rage/pb-elowyn"))
    assert s.state["vp"]["objective"] == pb.vp_objective("esirien", inv, dfd, elowyn=True) == 20   # 17 +4 +1 -2


def test_nurkott_invaders_start_off_map_and_goblins_in_settlements() -> None:
    data = pb.build_scenario("nurkott", {"roc": 1, "infantry": 20}, {"goblins": 8, "orcs": 12, "trolls": 1},
                             check=False)
    s = Session.new(scenario_from_data(data, "dragon_rage/pb-nurkott"))
    st = s.state_data()
    assert all(u.get("offmap") for u in st["units"].values() if u["side"] == "invader")
    goblin_hexes = {u["hex"] for u in st["units"].values() if u["type"] == "goblins"}
    edges = board_for("dragon_rage/nurkott").edges
    assert goblin_hexes <= set(edges["goblin_settlement_west"]) | set(edges["goblin_settlement_south"])


def test_builder_keeps_players_hexes_and_refuses_illegal_forces() -> None:
    data = pb.build_scenario("esirien", [{"type": "dragon", "count": 2, "at": ["0901", "2506"], "facing": ["S", "SW"]}],
                             E1_DEFENDERS)
    s = Session.new(scenario_from_data(data, "dragon_rage/pb-at"))
    assert sorted(u["hex"] for u in s.state_data()["units"].values() if u["type"] == "dragon") == ["0901", "2506"]
    with pytest.raises(DataError, match="more than the 80 allowed"):
        pb.build_scenario("esirien", {"dragon": 2, "orcs": 1}, E1_DEFENDERS)
    with pytest.raises(DataError, match="only a planned scenario"):
        pb.build_scenario("esirien", {"dragon": 2}, E1_DEFENDERS, objective=12)
    planned = pb.build_scenario("esirien", {"dragon": 2, "goblins": 2}, E1_DEFENDERS,
                                mode="planned", objective=12)
    assert planned["setup"]["objective"] == 12


@pytest.mark.parametrize("map_name", ["esirien", "nurkott"])
def test_example_scenarios_are_the_builders_output(map_name: str) -> None:
    choice = pb.load_choice(SCEN / "pointbuy" / f"{map_name}.yaml")
    built = pb.scenario_from_choice(choice)
    on_disk = yaml.safe_load((SCEN / f"pointbuy-{map_name}.yaml").read_text())
    assert built == on_disk, "regenerate with python -m simulator.games.dragon_rage.pointbuy (see the file header)"
    sc = load_scenario(f"dragon_rage/pointbuy-{map_name}")
    s = Session.new(sc)
    assert s.state["vp"]["objective"] == pb.vp_objective(map_name, choice.data["invader"], choice.data["defender"])
    assert pb.cost(choice.data["invader"]) == 80 and pb.cost(choice.data["defender"]) == 75


def test_choice_file_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: dragon_rage-forces/1\nmap: esirien\ninvader:\n  dragon: 3\ndefender:\n  hero: 1\n")
    with pytest.raises(DataError) as err:
        pb.scenario_from_choice(pb.load_choice(bad))
    assert "bad.yaml:3" in str(err.value) and "only 2 counters" in str(err.value)
    bad.write_text("format: dragon_rage-forces/1\nmap: atlantis\ninvader: {dragon: 1}\ndefender: {hero: 1}\n")
    with pytest.raises(DataError, match="bad.yaml:2"):
        pb.load_choice(bad)


def test_command_line_writes_a_loadable_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "battle.yaml"
    assert pb.main([str(SCEN / "pointbuy" / "esirien.yaml"), "-o", str(out)]) == 0
    assert Session.new(out).state["vp"]["objective"] == yaml.safe_load(out.read_text())["setup"]["objective"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: dragon_rage-forces/1\nmap: esirien\ninvader: {dragon: 1}\n"
                   "defender: [{type: hero, at: ['0101']}]\n")
    assert pb.main([str(bad)]) == 1
    assert "cannot be set up in 0101" in capsys.readouterr().err
