"""Dragon Rage unit catalogue and rule tables against the values the rules give (digest §3, §9, §14, §16)."""
from pathlib import Path

import pytest
import yaml

DATA = Path(__file__).resolve().parents[2] / "simulator" / "games" / "dragon_rage" / "data"


def load(name):
    return yaml.safe_load((DATA / name).read_text())


UNITS = load("units.yaml")["units"]
CRT = load("crt.yaml")

ALL_TYPES = ["militia", "infantry", "cavalry", "archers", "ballista", "catapult", "hero", "wizard", "elowyn",
             "orcs", "trolls", "wargs", "goblins", "invader_hero", "invader_wizard", "giant", "sea_serpent",
             "t_rex", "fire_elemental", "earth_elemental", "dragon", "young_dragon", "roc", "wurm", "great_wurm"]


def test_every_unit_type_present_dr_3_3():
    assert set(ALL_TYPES) <= set(UNITS)


@pytest.mark.parametrize("unit", ALL_TYPES)
def test_unit_fields_well_formed(unit):
    u = UNITS[unit]
    assert u["rule"].startswith("DR ")
    assert u["side"] in ("invader", "defender", "either")
    assert isinstance(u["count"], int) and u["count"] >= 1
    for f in u.get("assumed", []):
        assert f in u, (unit, f)
    if u.get("assumed"):
        assert u.get("why")


# values printed or stated in the rules (digest §3.3, unit sections)
GIVEN = {
    "goblins": {"cf": 1, "escape": 6, "mp": 3, "road_mp": 4},
    "orcs": {"escape": 5, "mp": 2, "road_mp": 3},
    "trolls": {"cf": 2, "escape": 5, "mp": 2, "road_mp": 3},
    "wargs": {"mp": 2, "road_mp": 4},
    "militia": {"cf": 1, "escape": 6, "mp": 1, "road_mp": 2},
    "infantry": {"escape": 5},
    "cavalry": {"cf": 3, "escape": 4, "mp": 2, "road_mp": 4},
    "ballista": {"cf": 2, "defence": 1, "escape": None, "mp": None},
    "catapult": {"cf": 2, "defence": 1, "escape": None, "mp": None},
    "wizard": {"cf": 0, "spell_points": 10},
    "invader_wizard": {"cf": 0, "spell_points": 10},
    "elowyn": {"cf": 0, "defence": 2, "mp": 3, "road_mp": 4},
    "giant": {"hp": 10, "hit_on": 6},
    "sea_serpent": {"hp": 15, "hit_on": 5},
    "t_rex": {"cf": 8, "defence": 4, "hp": 10, "hit_on": 6},
    "fire_elemental": {"hp": None},
    "earth_elemental": {"hp": None},
    "great_wurm": {"points": 45, "overrun_cf": 9},
    "roc": {"points": 25},
    "invader_hero": {"points": 17},
    "hero": {"points": 15},
    "dragon": {"overrun_cf": 6},
    "young_dragon": {"overrun_cf": None},
}


@pytest.mark.parametrize("unit,field,value", [(u, f, v) for u, d in GIVEN.items() for f, v in d.items()])
def test_given_value(unit, field, value):
    assert UNITS[unit][field] == value
    assert field not in UNITS[unit].get("assumed", [])


def test_ballista_catapult_ranges_dr_2_10_8():
    b, c = UNITS["ballista"]["missile"], UNITS["catapult"]["missile"]
    assert (b["range"], b["range_from_tower"]) == (3, 4)
    assert b["vs_monster_to_hit"] == {1: 4, 2: 5, 3: 6, 4: 6}
    assert b["cf_at_range"] == {1: 2, 2: 2, 3: 1, 4: 1}
    assert (c["range_min"], c["range"], c["needs_los"], c["vs_monster_to_hit"]) == (2, 4, False, 6)


@pytest.mark.parametrize("unit", ["goblins", "archers"])
def test_missile_ranges_dr_2_7_6(unit):
    m = UNITS[unit]["missile"]
    assert (m["range"], m["range_from_tower"]) == (2, 3)


def areas(unit):
    return {k: (v["groups"], v["hp"], v["cf"], v["hit_on"]) for k, v in UNITS[unit]["areas"].items()}


def test_dragon_sheet_dr_2_12_1():
    assert areas("dragon") == {"head": (1, 8, 3, 6), "wings": (2, 6, 2, 4), "legs": (4, 3, 1, 5),
                               "belly": (1, 6, 0, 4)}
    d = UNITS["dragon"]
    assert d["movement"]["fly"] == 6 and d["movement"]["bound"] == 3
    assert d["breath"] == {"uses": 2, "range": 2}
    assert sum(g * cf for g, _, cf, _ in areas("dragon").values()) == 11


def test_young_dragon_sheet_dr_2_12_2():
    assert areas("young_dragon") == {"head": (1, 3, 2, 6), "wings": (2, 3, 1, 4), "legs": (2, 4, 1, 5),
                                     "belly": (1, 3, 0, 4)}
    y = UNITS["young_dragon"]
    assert y["movement"]["fly"] == 4 and y["breath"]["uses"] == 1 and y["breath"]["range"] == 1
    assert y["crash_damage"] == "1d6"


def test_roc_sheet_dr_2_12_3():
    assert areas("roc") == {"head": (1, 6, 2, 6), "wings": (2, 8, 2, 4), "legs": (2, 4, 1, 5),
                            "belly": (1, 12, 0, 5)}
    r = UNITS["roc"]
    assert r["movement"]["fly"] == 8 and r["movement"]["bound"] == 4 and r["movement"]["slither"] is False
    assert r["areas"]["legs"]["cf_when_bounding_or_landing"] == 3


@pytest.mark.parametrize("unit", ["wurm", "great_wurm"])
def test_wurm_sheet_dr_2_12_4(unit):
    assert areas(unit) == {"head": (1, 8, 8, 6), "legs": (6, 3, 1, 5), "belly": (1, 4, 0, 4)}
    assert UNITS[unit]["climb"] == {"need": 4, "need_if_no_enemy_adjacent": 3}


# counter mix minimums implied by the scenarios (digest §3.4)
@pytest.mark.parametrize("unit,minimum", [("infantry", 12), ("cavalry", 5), ("archers", 4), ("militia", 4),
                                          ("orcs", 10), ("goblins", 8), ("wargs", 5), ("trolls", 4),
                                          ("giant", 6), ("dragon", 2), ("young_dragon", 1), ("sea_serpent", 1),
                                          ("roc", 1), ("t_rex", 1), ("ballista", 1), ("catapult", 1),
                                          ("elowyn", 1), ("hero", 1), ("wizard", 1)])
def test_counter_mix_dr_3_4(unit, minimum):
    assert UNITS[unit]["count"] >= minimum


def test_point_values_order_dr_16_4():
    order = ["great_wurm", "dragon", "roc", "invader_wizard", "invader_hero", "young_dragon", "hero", "wizard",
             "giant", "t_rex", "sea_serpent", "wargs", "trolls", "cavalry", "ballista", "catapult", "infantry",
             "orcs", "archers", "goblins", "militia"]
    pts = [UNITS[u]["points"] for u in order]
    assert pts == sorted(pts, reverse=True)
    assert 2 * UNITS["dragon"]["points"] == 80          # Esirien 1 = the invader budget


# ---------------------------------------------------------------- CRT (DR 2.7.5, digest §9.2)
def expected(a, d):
    if d >= 2 * a:
        return "M"
    if a < d:
        return "11"
    r = a // d
    return "D" if r >= 6 else str(7 - r)


def test_crt_has_every_cell():
    t = CRT["table"]
    assert sorted(t) == list(range(1, 31))
    for a in range(1, 31):
        assert len(t[a]) == 15


@pytest.mark.parametrize("a", range(1, 31))
def test_crt_row(a):
    assert CRT["table"][a] == [expected(a, d) for d in range(1, 16)]


@pytest.mark.parametrize("a,d,cell", [(1, 1, "6"), (2, 3, "11"), (6, 1, "D"), (8, 2, "3"), (15, 3, "2"),
                                      (20, 15, "6"), (23, 5, "3"), (30, 5, "D"), (30, 6, "2"), (7, 14, "M")])
def test_crt_spot_cells_from_digest(a, d, cell):
    assert CRT["table"][a][d - 1] == cell


def test_crt_results_and_extreme_odds():
    assert set(CRT["results"]) == {"D", "M", "11", "2", "3", "4", "5", "6"}
    assert CRT["results"]["11"]["need"] == 11
    assert CRT["out_of_table"]["default"] == "formula"


def test_scaling_table_dr_2_5_8():
    s = load("scaling_smashing.yaml")["rows"]
    assert s["giants_wurms"]["climb"] == 4 and s["giants_wurms"]["gate"] == 9 and s["giants_wurms"]["door"] == "auto"
    assert s["sea_serpents"]["climb"] is None and s["sea_serpents"]["gate"] == 9
    assert s["human_troops"] == {"units": ["infantry", "cavalry", "militia", "archers"], "climb": None,
                                 "door": 10, "gate": None}
    assert s["others"]["climb"] is None and s["others"]["door"] is None
    for row in s.values():
        for f in row.get("assumed", []):
            assert f in row


def test_spell_costs_dr_2_8():
    sp = load("spells.yaml")["spells"]
    assert sp["boost_morale"]["cost"] == {"radius_0": 1, "radius_1": 2, "radius_2": 3}
    assert (sp["fog"]["cost"], sp["fog"]["range"]) == (2, 3)
    assert (sp["whirlwind"]["cost"], sp["whirlwind"]["range"]) == (2, 4)
    assert (sp["lightning"]["cost"], sp["lightning"]["range"]) == (3, 4)
    assert (sp["summon_elemental"]["cost"], sp["summon_elemental"]["range"]) == (5, 2)
    assert sp["whirlwind"]["drift"] == {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}


def test_dragonfire_numbers_dr_2_12_1_5():
    f = load("combat_rules.yaml")["dragonfire"]
    assert f["range_hexes"] == 2 and f["uses_per_game"] == {"dragon": 2, "young_dragon": 1}
    assert f["escape_modifiers"]["in_tower"] == 2 and f["escape_modifiers"]["boost_morale"] == 1
