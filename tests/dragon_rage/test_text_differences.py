"""Rules that used to differ from the text (docs/dragon_rage.md "Still different from the text"),
through Session with forced dice: doors broken by a monster facing them (DR 2.5.5.1), Elowyn
escorted by Nurkott's orcs (DR 2.10.7), a sea serpent against a shore tower (DR 2.11.2.2), the
uncontrolled elemental's nearness along its ways and its choice of area (DR 2.8.9), breaches and
line of sight (DR 2.11.2.2, 2.7.6.2), land units over a serpent under a bridge (DR 2.11.2.1)."""

from __future__ import annotations

import pytest

from simulator.core import IllegalAction
from simulator.games.dragon_rage.board import board_for
from tests.dragon_rage.helpers import kinds, session, to_phase

ESIRIEN = board_for("dragon_rage/esirien")


def _id(s, type_id: str, hex_: str | None = None) -> str:
    return next(u["id"] for u in s.state["units"].values()
                if u["type"] == type_id and (hex_ is None or u["hex"] == hex_))


# ------------------------------------------------------------------- doors (DR 2.5.5.1)
def _door_session(facing: str):
    # tower 0706 has its door toward 0806; the dragon stands in 0806
    return session({"invader": [{"type": "dragon", "at": ["0806"], "facing": facing}],
                    "defender": [{"type": "infantry", "at": ["1805"]}]})


def test_a_monster_breaks_a_door_by_turning_to_face_it() -> None:
    s = _door_session("S")
    dragon = _id(s, "dragon")
    to_door = ESIRIEN.direction("0806", "0706")
    to_phase(s, "invader_move")
    ev = s.apply({"type": "rotate", "unit": dragon, "facing": to_door})
    broken = [e for e in ev if e.kind == "entrance_broken"]
    assert broken and broken[0].rule == "DR 2.5.5.1" and "dice" not in kinds(ev)
    assert s.state["entrances"]["0706/0806"]["broken"] is True


def test_a_walk_goes_through_a_closed_door_breaking_it() -> None:
    s = _door_session("S")
    dragon = _id(s, "dragon")
    to_phase(s, "invader_move")
    walk = next((a for a in s.legal_actions() if a["type"] == "walk" and a["path"][-1] == "0706"), None)
    assert walk == {"type": "walk", "unit": dragon, "path": ["0706"]}
    ev = s.apply(walk)
    assert "entrance_broken" in kinds(ev) and s.state["units"][dragon]["hex"] == "0706"


def test_a_monster_left_facing_a_door_breaks_it_at_the_end_of_its_move() -> None:
    s = _door_session(ESIRIEN.grid.directions[ESIRIEN.direction("0806", "0706")])
    to_phase(s, "invader_move")
    assert not s.state["entrances"]["0706/0806"]["broken"]
    ev = s.apply({"type": "end_phase"})
    assert "entrance_broken" in kinds(ev) and s.state["entrances"]["0706/0806"]["broken"]


def test_gates_are_not_broken_by_facing() -> None:
    # a gate (red) still needs the smash roll: facing the gateway 0606/0707 breaks nothing
    s = session({"invader": [{"type": "dragon", "at": ["0606"], "facing": "S"}],
                 "defender": [{"type": "infantry", "at": ["1805"]}]})
    dragon = _id(s, "dragon")
    to_phase(s, "invader_move")
    ev = s.apply({"type": "rotate", "unit": dragon, "facing": ESIRIEN.direction("0606", "0707")})
    assert "entrance_broken" not in kinds(ev)


# --------------------------------------------------------- Elowyn and the orcs (DR 2.10.7)
def _escort_session(extra_invaders=(), tape=None):
    return session({"invader": [{"type": "dragon", "at": ["0605"], "facing": "SE"}, *extra_invaders],
                    "defender": [{"type": "orcs", "at": ["1513"]}, {"type": "orcs", "at": ["0402"]}]},
                   map_="dragon_rage/nurkott", rules={"elowyn": True}, tape=tape)


def test_without_human_invaders_the_orcs_hold_elowyn_and_lead_her_away() -> None:
    s = _escort_session()
    elo = s.state["units"]["elowyn"]
    assert elo["side"] == "defender" and elo["hex"] == "1414" and s.state["elowyn"]["escort_variant"]
    to_phase(s, "defender_move")
    assert not [a for a in s.legal_actions() if a.get("unit") == "elowyn"]      # never on her own
    ev = s.apply({"type": "move", "unit": "orc1", "to": "1414"})
    assert "elowyn_escort" in kinds(ev) and s.state["elowyn"]["status"] == "escorted"
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    # the escort ends only in empty hexes: the other orc's hex is never offered
    for turn_moves in (["1213"], ["0914"], ["0615"], ["0516"]):
        for to in turn_moves:
            ev = s.apply({"type": "move", "unit": "orc1", "to": to})
            assert s.state["units"]["elowyn"]["hex"] in (to, None)
        if s.state["units"]["elowyn"]["hex"] is None:
            break
        to_phase(s, "invader_spell")
        to_phase(s, "defender_move")
    assert s.state["elowyn"]["status"] == "led_away" and not s.state["units"]["elowyn"]["alive"]
    adj = next(e for e in ev if e.kind == "vp_adjusted")
    assert adj.rule == "DR 2.10.7" and adj.data["delta"] == -3 and s.state["vp"]["score"] == -3


def test_escort_ends_only_in_empty_hexes() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["0605"], "facing": "SE"}],
                 "defender": [{"type": "orcs", "at": ["1414"]}, {"type": "orcs", "at": ["1514"]},
                              {"type": "invader_hero", "at": ["1413"]}]},
                map_="dragon_rage/nurkott", rules={"elowyn": True})
    assert s.state["units"]["orc1"]["escorting"] == "elowyn"          # stood in her hex at the start
    to_phase(s, "defender_move")
    targets = {a["to"] for a in s.legal_actions()
               if a.get("unit") == "orc1" and a["type"] == "move" and not a.get("leave_elowyn")}
    assert targets and "1413" not in targets and "1514" not in targets
    hero = _id(s, "invader_hero")
    assert {"type": "move", "unit": hero, "to": "1414"} not in s.legal_actions()


def test_an_escort_hands_elowyn_over_to_another_orc_unit() -> None:
    # "a unit of Orcs" (DR 2.10.7, the title of DR 2.10.9): a troll stacking with her does not
    # take charge; the escort leaves her behind and another orc unit takes over.
    s = session({"invader": [{"type": "dragon", "at": ["0605"], "facing": "SE"}],
                 "defender": [{"type": "orcs", "at": ["1414"]}, {"type": "trolls", "at": ["1513"]},
                              {"type": "orcs", "at": ["1315"]}]},
                map_="dragon_rage/nurkott", rules={"elowyn": True})
    to_phase(s, "defender_move")
    with pytest.raises(IllegalAction, match="not escorting") as exc:
        s.apply({"type": "move", "unit": "orc2", "to": "1314", "leave_elowyn": True})
    assert exc.value.rule == "DR 2.10.7"
    leave = {"type": "move", "unit": "orc1", "to": "1413", "leave_elowyn": True}
    assert leave in s.legal_actions()
    ev = s.apply(leave)
    assert "elowyn_left" in kinds(ev) and s.state["units"]["elowyn"]["hex"] == "1414"
    assert s.state["elowyn"]["status"] == "held" and s.state["units"]["elowyn"]["escort"] is None
    ev = s.apply({"type": "move", "unit": "trl1", "to": "1414"})
    assert "elowyn_escort" not in kinds(ev) and s.state["units"]["elowyn"]["escort"] is None
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "trl1", "to": "1513"})
    ev = s.apply({"type": "move", "unit": "orc2", "to": "1414"})
    assert "elowyn_escort" in kinds(ev) and s.state["units"]["elowyn"]["escort"] == "orc2"
    assert s.state["units"]["orc2"]["escorting"] == "elowyn" and s.state["units"]["orc1"]["escorting"] is None


def test_elowyn_escapes_when_her_escort_dies() -> None:
    # the dragon's overrun-free melee: head group on the escort's hex (CRT roll forced to 6)
    s = session({"invader": [{"type": "dragon", "at": ["1314"], "facing": "SE"}],
                 "defender": [{"type": "orcs", "at": ["1414"]}, {"type": "orcs", "at": ["0402"]}]},
                map_="dragon_rage/nurkott", rules={"elowyn": True}, tape=[6] * 6)
    dragon = _id(s, "dragon")
    to_phase(s, "invader_melee")
    attack = next(a for a in s.legal_actions() if a["type"] == "monster_attack" and a["target"] == "1414")
    ev = s.apply(attack)
    assert not s.state["units"]["orc1"]["alive"]
    assert s.state["elowyn"]["status"] in ("escaped", "dead")
    adj = [e for e in ev if e.kind == "vp_adjusted"]
    assert adj and adj[0].data["delta"] == 2 and adj[0].rule == "DR 2.10.7"
    assert not s.state["units"]["elowyn"]["alive"] and dragon


def test_human_invaders_still_free_her_from_the_cell() -> None:
    s = _escort_session([{"type": "infantry", "at": ["0604"]}])
    assert s.state["units"]["elowyn"]["side"] == "invader" and not s.state["elowyn"]["escort_variant"]


# ---------------------------------------------------- serpent and shore tower (DR 2.11.2.2)
def test_sea_serpent_attacks_a_shore_tower_but_not_across_a_wall() -> None:
    s = session({"invader": [{"type": "sea_serpent", "at": ["1716"]}, {"type": "sea_serpent", "at": ["1403"]}],
                 "defender": [{"type": "infantry", "at": ["1815"]}, {"type": "infantry", "at": ["1503"]}]},
                tape=[6])
    shore = _id(s, "sea_serpent", "1716")
    walled = _id(s, "sea_serpent", "1403")
    to_phase(s, "invader_melee")
    assert {"type": "melee", "units": [shore], "target": "1815"} in s.legal_actions()
    with pytest.raises(IllegalAction) as exc:
        s.apply({"type": "melee", "units": [walled], "target": "1503"})
    assert exc.value.rule == "DR 2.7.1.3"
    ev = s.apply({"type": "melee", "units": [shore], "target": "1815"})
    assert "attack" in kinds(ev) and not s.state["units"]["inf1"]["alive"]


# ------------------------------------------------------------ elementals (DR 2.8.9)
def test_wild_elemental_counts_nearness_along_the_ways_it_can_walk() -> None:
    # 0710 is 2 hexes from 0509 but behind the merchant quarter's wall (7 hexes of walking);
    # 0209 is 3 hexes away in the open: the elemental goes for 0209.
    s = session({"invader": [{"type": "orcs", "at": ["0710"]}, {"type": "orcs", "at": ["0209"]}],
                 "defender": [{"type": "wizard", "at": ["0404"]}]})
    behind, open_ = _id(s, "orcs", "0710"), _id(s, "orcs", "0209")
    to_phase(s, "defender_spell")
    s.apply({"type": "cast", "unit": "wizard1", "spell": "summon_elemental", "target": "0406", "element": "earth"})
    to_phase(s, "invader_spell")
    to_phase(s, "defender_move")
    s.apply({"type": "move", "unit": "elm1", "to": "0509"})
    ev = s.apply({"type": "move", "unit": "wizard1", "to": "0703"})
    assert "elemental_free" in kinds(ev)
    to_phase(s, "invader_move")                 # freed mid-phase: it acts from the next movement phase
    picked = next(e for e in s.log if e.kind == "elemental_target")
    assert open_ in picked.data["pieces"] and behind not in picked.data["pieces"]
    assert s.state["units"]["elm1"]["wild_target"] == open_
    move = next(a for a in s.legal_actions() if a.get("unit") == "elm1")
    s.apply(move)
    assert ESIRIEN.distance(s.state["units"]["elm1"]["hex"], "0209") < 3


def test_elemental_takes_only_a_dragons_belly_and_other_monsters_elsewhere() -> None:
    from simulator.games.dragon_rage.elementals import _monster_area
    s = session({"invader": [{"type": "dragon", "at": ["0508"], "facing": "N"},
                             {"type": "roc", "at": ["0308"], "facing": "N"}],
                 "defender": [{"type": "wizard", "at": ["0404"]}]})
    st = s.state_data()
    el = {"id": "elm9", "type": "earth_elemental", "side": "defender", "hex": "0408", "alive": True}
    dragon, roc = st["units"][_id(s, "dragon")], st["units"][_id(s, "roc")]
    assert _monster_area(st, el, dragon) is None                     # belly only, from its own hex
    assert _monster_area(st, dict(el, hex="0508"), dragon) == "belly"
    assert _monster_area(st, el, roc) in ("wings", "legs", "head")


# ------------------------------------------------------- breaches and sight (DR 2.11.2.2)
def test_a_breach_opens_the_line_of_sight() -> None:
    units = {"invader": [{"type": "sea_serpent", "at": ["1210"]}, {"type": "archers", "at": ["1209"]}],
             "defender": [{"type": "orcs", "at": ["1211"]}]}
    s = session(units, map_="dragon_rage/nurkott", tape=[5, 4, 6])
    archer = _id(s, "archers")
    view = s.game.presentation()
    assert not view.line_of_sight(s.state_data(), "1209", "1211").clear
    to_phase(s, "invader_move")
    s.apply({"type": "smash", "unit": _id(s, "sea_serpent"), "toward": "1211"})      # 9: breached
    assert s.state["broken_walls"] == ["1210/1211"]
    assert view.line_of_sight(s.state_data(), "1209", "1211").clear
    to_phase(s, "invader_fire")
    s.apply({"type": "fire", "units": [archer], "target": "1211"})
    # without the breach the same shot is refused
    s2 = session(units, map_="dragon_rage/nurkott")
    to_phase(s2, "invader_fire")
    with pytest.raises(IllegalAction) as exc:
        s2.apply({"type": "fire", "units": [archer], "target": "1211"})
    assert exc.value.rule == "DR 2.7.6.2"


# ------------------------------------------------- a serpent under a bridge (DR 2.11.2.1)
def test_land_units_cross_a_bridge_over_an_enemy_serpent() -> None:
    s = session({"invader": [{"type": "sea_serpent", "at": ["1414"]}],
                 "defender": [{"type": "infantry", "at": ["1313"]}]})
    to_phase(s, "invader_move")
    s.apply({"type": "move", "unit": _id(s, "sea_serpent"), "to": "1413"})
    to_phase(s, "defender_move")
    move = {"type": "move", "unit": "inf1", "to": "1413"}
    assert move in s.legal_actions()
    s.apply(move)
    from simulator.games.dragon_rage.stacking import stack_ok
    assert s.state["units"]["inf1"]["hex"] == "1413" and stack_ok(s.state_data(), "1413")
