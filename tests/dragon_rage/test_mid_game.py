"""Mid-game positions a script's set-up can give (issue 26): the turn and phase, wounds, damage
to monsters, a monster in flight, spell points and breaths left, a campaign's progress; each value
the rules do not allow is refused by ``simulator check`` naming the field."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from simulator.cli import check_file
from simulator.core.errors import DataError
from simulator.core.script import run_script
from tests.dragon_rage.helpers import session

ROOT = Path(__file__).resolve().parents[2]


def test_the_scripting_example_runs(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(# Dragon Rage mid-game example.*?)```", text, re.S)
    assert found, "docs/scripting.md has no Dragon Rage mid-game example"
    path = tmp_path / "example.yaml"
    path.write_text(found.group(1), encoding="utf-8")
    result = run_script(path)
    assert result.ok, (result.stopped, result.failures)


def test_turn_phase_and_worn_units_are_set_up() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["1003"], "facing": "S", "damage": {"head": 8}},
                             {"type": "giant", "at": ["0904"], "damage": 7}],
                 "defender": [{"type": "hero", "at": ["1609"], "wounded": True}]},
                turns=20, setup={"turn": 14, "phase": "defender_reinforce"})
    units = s.state["units"]
    assert (s.state["turn"], s.state["phase"], s.state["active"]) == (14, "defender_reinforce", "defender")
    assert units["dragon1"]["berserk"] and units["dragon1"]["breaths_left"] == 0     # no head (DR 2.12.1.7.1)
    assert units["giant1"]["damage_taken"] == 7 and units["hero1"]["wounded"]
    assert s.state["pending_reinforcements"] == 4                   # turn 14 brings them (DR 2.9)
    assert s.state["last_vp_turn"] == 13


def _check(tmp_path: Path, setup: dict[str, Any], turns: int | None = None) -> DataError:
    import yaml
    data: dict[str, Any] = {"game": "dragon_rage", "name": "mid", "description": "mid-game", "map":
                            "dragon_rage/esirien", "setup": {"objective": 19, **setup}}
    if turns:
        data["turns"] = turns
    path = tmp_path / "mid.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        check_file(str(path))
    return exc.value


DRAGON = {"type": "dragon", "at": ["1003"], "facing": "S"}
HERO = {"type": "hero", "at": ["1609"]}


@pytest.mark.parametrize("setup,turns,field,words", [
    ({"forces": {"invader": [DRAGON], "defender": [{"type": "infantry", "at": ["1609"], "wounded": True}]}},
     None, "setup.forces.defender[0].wounded", "DR 2.10.5.3"),
    ({"forces": {"invader": [DRAGON], "defender": [{"type": "wizard", "at": ["1609"], "spell_points": 11}]}},
     None, "setup.forces.defender[0].spell_points", "DR 2.8"),
    ({"forces": {"invader": [{**DRAGON, "breaths": 3}], "defender": [HERO]}},
     None, "setup.forces.invader[0].breaths", "DR 2.12.1.5.3"),
    ({"forces": {"invader": [{**DRAGON, "damage": {"belly": 6}}], "defender": [HERO]}},
     None, "setup.forces.invader[0].damage", "DR 2.12.1.7.4"),
    ({"forces": {"invader": [{**DRAGON, "damage": {"tail": 1}}], "defender": [HERO]}},
     None, "setup.forces.invader[0].damage.tail", "no tail area"),
    ({"forces": {"invader": [{**DRAGON, "damage": {"legs": [3, 4, 0, 0]}}], "defender": [HERO]}},
     None, "setup.forces.invader[0].damage.legs", "0 to 3"),
    ({"forces": {"invader": [{**DRAGON, "flying": True, "damage": {"wings": [6, 0]}}], "defender": [HERO]}},
     None, "setup.forces.invader[0].damage", "DR 2.12.1.1.5"),
    ({"forces": {"invader": [{"type": "giant", "at": ["0904"], "damage": 10}], "defender": [HERO]}},
     None, "setup.forces.invader[0].damage", "DR 2.11"),
    ({"forces": {"invader": [{"type": "orcs", "at": ["0904"], "flying": True}], "defender": [HERO]}},
     None, "setup.forces.invader[0].flying", "cannot fly"),
    ({"turn": 9, "forces": {"invader": [DRAGON], "defender": [HERO]}}, 8, "setup.turn", "last turn"),
    ({"phase": "invader_lunch", "forces": {"invader": [DRAGON], "defender": [HERO]}}, None, "setup.phase", ""),
    ({"campaign": {"campaign": "c", "game": 6, "availability": {"invader": 60, "defender": 60}, "history": []},
      "forces": {"invader": [DRAGON], "defender": [HERO]}}, None, "setup.campaign.game", ""),
    ({"campaign": {"campaign": "c", "game": 2, "availability": {"invader": -5, "defender": 60}, "history": []},
      "forces": {"invader": [DRAGON], "defender": [HERO]}}, None, "setup.campaign.availability.invader", ""),
])
def test_check_refuses_what_the_rules_do_not_allow(tmp_path: Path, setup: dict[str, Any], turns: int | None,
                                                   field: str, words: str) -> None:
    err = _check(tmp_path, setup, turns)
    assert err.field == field and words in err.message and err.line is not None


def test_a_flying_monster_is_set_up_over_water() -> None:
    s = session({"invader": [{"type": "dragon", "at": ["1406"], "facing": "S", "flying": True}],
                 "defender": [HERO]}, setup={"phase": "invader_move"})
    assert s.state["units"]["dragon1"]["flying"] and s.state["units"]["dragon1"]["hex"] == "1406"
    assert any(a["type"] == "land" for a in s.legal_actions()) is False       # no landing on the river
    assert any(a["type"] == "fly" for a in s.legal_actions())


# ------------------------------------------- a campaign's and a point-buy's starting values
def test_check_refuses_a_campaign_whose_first_game_breaks_its_starting_availability(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "dragon_rage" / "campaign" / "esirien-decade.yaml").read_text(encoding="utf-8")
    assert check_file(str(ROOT / "scenarios" / "dragon_rage" / "campaign" / "esirien-decade.yaml")).endswith("data")
    path = tmp_path / "camp.yaml"
    path.write_text(text.replace("players: {invader: Invader, defender: Defender}",
                                 "players: {invader: Invader, defender: Defender}\n"
                                 "start_availability: {invader: 30, defender: 60}"), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        check_file(str(path))
    assert exc.value.field == "games[0].invader" and "DR 4.3.1" in exc.value.message and exc.value.line


def test_check_refuses_a_point_buy_force_over_its_budget(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "dragon_rage" / "pointbuy" / "esirien.yaml").read_text(encoding="utf-8")
    path = tmp_path / "forces.yaml"
    path.write_text(text.replace("  dragon: 1          # 40", "  dragon: 2"), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        check_file(str(path))
    assert "DR 3.3.2" in exc.value.message and exc.value.line
