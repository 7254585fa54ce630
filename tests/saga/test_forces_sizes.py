"""The force-selection screen's unit sizes (4 to 12 figures, a point split between units) and
combined equipment variants (simulator/games/saga/forces.py, SAGA p.35-43)."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from simulator.core.errors import DataError
from simulator.core.registry import get_game
from simulator.core.scenario import load_scenario, scenario_from_data
from simulator.core.session import Session
from simulator.games.saga import catalogue as cat
from simulator.games.saga.forces import SIZES, VARIANTS, _parse_row
from simulator.games.saga.setup import unit_problems, weapon_of

RULES = get_game("saga").forces()
FACTIONS = ("vikings", "normans", "anglo_danes", "welsh")


@pytest.fixture(scope="module")
def choose():
    return load_scenario("saga/s1-warlords-fury-choose")


def as_faction(scenario, faction: str, units: list | None = None, hero: str | None = None):
    data = copy.deepcopy(dict(scenario.data))
    side = data["setup"]["sides"]["vikings"]
    side["faction"] = faction
    if units is not None:
        side["units"] = units
    side.pop("hero", None)
    if hero:
        side["hero"] = hero
    return scenario_from_data(data, scenario.id)


def messages(scenario, chosen):
    return [(p.message, p.option) for p in RULES.check_forces(scenario, "vikings", chosen)]


def test_every_size_from_4_to_12_at_its_share_of_a_point(choose):
    sel = RULES.force_selection(choose, "vikings")
    for size in SIZES:
        assert sel.option(f"hearthguard-{size}").cost == pytest.approx(size / 4)
        assert sel.option(f"warriors-{size}").cost == pytest.approx(size / 8)
        assert sel.option(f"levies-{size}").name == f"Levies, unit of {size}"
    assert sel.option("warriors-3") is None and sel.option("warriors-13") is None
    assert sel.option("hearthguard-berserker-5") is None          # Berserkers: a unit of 4 (SAGA p.37)
    groups = [o.group for o in sel.options]
    assert groups.count("Hearthguard") == 9 and groups.count("Levies with slings") == 9


def test_a_point_may_be_split_between_units_of_one_class(choose):
    assert messages(choose, {"warriors-6": 1, "warriors-10": 1}) == []                # 16 Warriors: 2 points
    assert messages(choose, {"levies-5": 1, "levies-7": 1, "hearthguard-5": 1, "hearthguard-7": 1}) == []
    assert messages(choose, {"warriors-6": 1}) == [("6 warriors: a point buys exactly 8 warriors", "warriors-6")]
    assert messages(choose, {"hearthguard-9": 1, "hearthguard-11": 1, "warriors-5": 1, "warriors-11": 1}) == [
        ("the warband costs 7 points; the scenario allows 6", None)]


def test_a_split_warband_builds_and_plays(choose):
    chosen = {"vikings": {"hearthguard-5": 1, "hearthguard-7": 1, "warriors-6": 1, "warriors-10": 1,
                          "levies-sling-5": 1, "levies-sling-7": 1},
              "anglo_danes": {"hearthguard-dane_axe-6": 1, "hearthguard-10": 1, "warriors-9": 1, "warriors-7": 1}}
    s = Session.new(scenario_from_data(RULES.build_scenario(choose, chosen), choose.id), 2)
    sizes = Counter((u["owner"], u["cls"], len(u["figures"])) for u in s.state["units"].values() if u["cls"] != "warlord")
    assert sizes == Counter({("vikings", "hearthguard", 5): 1, ("vikings", "hearthguard", 7): 1,
                             ("vikings", "warriors", 6): 1, ("vikings", "warriors", 10): 1,
                             ("vikings", "levies", 5): 1, ("vikings", "levies", 7): 1,
                             ("anglo_danes", "hearthguard", 6): 1, ("anglo_danes", "hearthguard", 10): 1,
                             ("anglo_danes", "warriors", 9): 1, ("anglo_danes", "warriors", 7): 1})
    assert sum(u["dane_axe"] for u in s.state["units"].values() if u["cls"] == "hearthguard") == 1
    assert s.legal_actions()


def test_a_scenarios_units_of_any_size_are_its_suggested_rows(choose):
    units = [{"id": "wl", "class": "warlord", "at": [10, 3]},
             {"id": "w1", "class": "warriors", "figures": 6, "at": [20, 3]},
             {"id": "w2", "class": "warriors", "figures": 10, "weapon": "javelin", "at": [30, 3]},
             {"id": "h1", "class": "hearthguard", "figures": 8, "mounted": True, "weapon": "none", "at": [40, 3]}]
    welsh = as_faction(choose, "welsh", units, hero="gruffydd_ap_llywelyn")
    sel = RULES.force_selection(welsh, "vikings")
    assert dict(sel.suggested) == {"hero-gruffydd_ap_llywelyn": 1, "warriors-6": 1, "warriors-10": 1,
                                   "hearthguard-mounted_no_javelins-8": 1}
    assert RULES.check_forces(welsh, "vikings", sel.suggested) == []


def test_combined_variants_follow_the_heroes_options(choose):
    normans = as_faction(choose, "normans")
    sel = RULES.force_selection(normans, "vikings")
    # The Strategist: any Hearthguard or Warriors may use bows; mounted bowmen allowed (digest q.32)
    assert sel.option("hearthguard-mounted_bow-6").requires == ("hero-william_the_bastard",)
    assert sel.option("warriors-mounted_bow-12").name == "Warriors mounted with bows, unit of 12"
    assert sel.option("warriors-mounted_crossbow-4") is None                    # crossbows: foot only
    assert [sel.option(f"warriors-crossbow-{n}") is not None for n in (8, 9)] == [True, False]
    assert sel.option("warriors-crossbow-6").max == 1
    assert any("needs William" in m for m, _o in messages(normans, {"hearthguard-mounted_bow-4": 1}))
    picks = {"vikings": {"hero-william_the_bastard": 1, "hearthguard-mounted_bow-6": 1, "hearthguard-6": 1,
                         "warriors-mounted_bow-8": 1},
             "anglo_danes": {"warriors-8": 2}}
    s = Session.new(scenario_from_data(RULES.build_scenario(normans, picks), choose.id), 4)
    archers = [u for u in s.state["units"].values() if u["owner"] == "vikings" and u["weapon"] == "bow"]
    assert sorted((u["cls"], u["mounted"], len(u["figures"])) for u in archers) == [
        ("hearthguard", True, 6), ("warriors", True, 8)]
    welsh = RULES.force_selection(as_faction(choose, "welsh"), "vikings")
    # Spearmen of Gwynedd: any Warriors or Hearthguard may leave their javelins, mounted or not
    assert welsh.option("hearthguard-mounted_no_javelins-4").requires == ("hero-gruffydd_ap_llywelyn",)
    # Archers of Powys: dismounted Warriors only, so no mounted Welsh archers
    assert welsh.option("warriors-bow-7") is not None and welsh.option("warriors-mounted_bow-7") is None
    assert welsh.option("hearthguard-bow-4") is None
    vikings = RULES.force_selection(choose, "vikings")
    assert vikings.option("hearthguard-varangians_dane_axe-12").requires == ("hero-harald_hardrada",)
    assert vikings.option("hearthguard-varangians_berserker-4") is None


def test_berserkers_are_never_varangians() -> None:
    entry = {"class": "hearthguard", "figures": 4, "berserker": True, "varangians": True}
    assert ("varangians", "a unit is Berserkers (armour 3) or Varangians (armour 6), not both (SAGA p.37, p.42)") \
        in unit_problems(cat.faction("vikings"), entry, "harald_hardrada")


@pytest.mark.parametrize("faction", FACTIONS)
def test_a_row_is_offered_exactly_when_the_setup_allows_the_unit(choose, faction):
    """Every (class, variant, size) against setup.unit_problems, with and without each hero."""
    sel = RULES.force_selection(as_faction(choose, faction), "vikings")
    heroes = [h for h, spec in cat.swords()["heroes"].items() if faction in spec["factions"]]
    fac = cat.faction(faction)
    for cls in ("hearthguard", "warriors", "levies"):
        for variant in VARIANTS:
            for size in SIZES:
                row = f"{cls}-{variant}-{size}" if variant else f"{cls}-{size}"
                entry = _parse_row(row)
                allowed = [h for h in (None, *heroes) if not unit_problems(fac, entry, h)]
                option = sel.option(row)
                if option is None:
                    # the class's own weapon written out is the plain row
                    own = "weapon" in entry and weapon_of(fac, entry) == weapon_of(fac, {"class": cls})
                    assert not allowed or own, row
                else:
                    assert allowed, row
                    assert option.requires == (() if None in allowed else (f"hero-{allowed[0]}",)), row


def test_a_built_warband_with_an_unoffered_row_is_refused(choose):
    with pytest.raises(DataError, match="cannot be chosen here"):
        RULES.build_scenario(choose, {"vikings": {"warriors-13": 1}, "anglo_danes": {"warriors-8": 1}})
