"""Non-Combat units (digest §4.6, §8): which abilities the engine applies, and how the others are
shown as not automated (on the panel, in the force-selection screen and in the log)."""

from simulator.games.asoiaf.catalogue import NOT_AUTOMATED, catalogue
from simulator.games.asoiaf.forces import options_for
from simulator.games.asoiaf.presentation import AsoiafPresentation
from tests.asoiaf.helpers import guards, scenario, session, sworn


def pair(**kw):
    return scenario([sworn("S1", (24, 18), 90, robb=False), sworn("S9", (6, 4))],
                    [guards("L2", (24, 22.72), jaime=False), guards("L9", (44, 44))], **kw)


def test_only_ncu_abilities_with_rulebook_text_are_automated():
    # The digest prints one NCU card (Cersei, 18.4); every other NCU's ability has only its name.
    cat = catalogue()
    automated = {cid for cid, n in cat.ncus.items() if not cat.unautomated(n["abilities"])}
    assert automated == {"30105"}
    assert len(cat.ncus) >= 25                 # the three armies' NCUs are all listed
    rows = cat.ability_rows(cat.ncus["30201"]["abilities"])
    assert rows == [{"name": "Family, Duty, Honor", "automated": False, "rule": NOT_AUTOMATED}]


def test_claiming_zone_with_unautomated_ncu_says_so_in_the_log():
    s = session(pair(first_player="stark", ncus=True))
    s.apply({"type": "claim", "ncu": "stark-N1", "zone": "tactics", "target": "L2", "condition": "weakened"})
    notes = [e for e in s.log if e.kind == "not_automated" and e.data.get("ncu")]
    assert len(notes) == 1 and "Family, Duty, Honor" in notes[0].text and notes[0].rule.endswith("(4.6)")
    assert s.state["units"]["L2"]["conditions"] == ["weakened"]     # the zone's own effect still applies


def test_cersei_claim_has_no_not_automated_note():
    s = session(pair(first="lannister", ncus=True))
    s.apply({"type": "claim", "ncu": "lannister-N1", "zone": "crown", "target": "S1"})
    assert not any(e.kind == "not_automated" and e.data.get("ncu") for e in s.log)
    assert any(e.kind == "ncu" and "fetches" in e.text for e in s.log)


def test_panel_lists_the_sides_ncus_with_their_abilities_marked():
    s = session(pair(first="lannister", ncus=True))
    pres = AsoiafPresentation()
    stark = pres.stats(s.state, "S1")["ncus"]
    assert len(stark) == 1 and "Catelyn Stark" in stark[0] and NOT_AUTOMATED in stark[0]
    lannister = pres.stats(s.state, "L2")["ncus"]
    assert "Playing The Game (automated, 18.4)" in lannister[0] and "2 Order token(s)" in lannister[0]
    s.apply({"type": "claim", "ncu": "lannister-N1", "zone": "crown", "target": "S1"})
    assert "claims crown" in pres.stats(s.state, "L2")["ncus"][0]


def test_force_selection_marks_ncus_whose_ability_is_not_automated():
    opts = {o.id: o for o in options_for("lannister")}
    assert "ability not automated" not in opts["ncu:30105"].values
    assert "ability not automated" in opts["ncu:30101"].values


def test_ncus_count_as_characters_in_the_army_and_the_team():
    from simulator.games.asoiaf.setup import army_problems, team_character_clashes
    army = {"faction": "stark", "commander": "20210",
            "units": [{"card": "10201", "attachment": "20210"}], "ncus": ["30204"]}     # Eddard twice
    assert any("Eddard Stark is a Character" in p.message for p in army_problems(army, 40))
    assert not any("Character" in p.message for p in army_problems(dict(army, ncus=["30201"]), 40))
    robb = {"units": [{"card": "10201", "attachment": "20201"}], "ncus": ["30201"]}
    eddard = {"units": [{"card": "10201", "attachment": "20210"}], "ncus": ["30201"]}    # Catelyn twice
    clashes = team_character_clashes({"robb": "north", "eddard": "north"}, {"robb": robb, "eddard": eddard})
    assert clashes == [(("eddard", "ncus", 0), "Catelyn Stark is a Character already in robb's army: a "
                        "Character appears once in the whole team (13.1)")]
    assert team_character_clashes({"robb": "north", "eddard": "south"}, {"robb": robb, "eddard": eddard}) == []


def test_game_mode_cards_without_text_are_marked_not_automated():
    from simulator.core.scenario import load_scenario
    from simulator.core.session import Session
    s = Session.new(load_scenario("asoiaf/winds-of-winter"), 1)
    notes = [e for e in s.log if e.kind == "not_automated"]
    assert len(notes) == 1 and "Mission cards" in notes[0].text and notes[0].rule.endswith("(16.6)")
    panel = AsoiafPresentation().stats(s.state, next(iter(s.state["units"])))["not automated (game mode)"]
    assert len(panel) == 1 and NOT_AUTOMATED in panel[0]
    plain = Session.new(load_scenario("asoiaf/dance-with-dragons"), 1)      # every rule of 16.5 is known
    assert not any(e.kind == "not_automated" for e in plain.log)
