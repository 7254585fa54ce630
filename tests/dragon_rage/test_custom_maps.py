"""Maps other than the two shipped ones (issue 25): a small custom map plays, a shipped map given
by its file path plays by its own town's rules, and a map lacking what set-up needs, or giving a
value the rules do not allow, is refused by ``simulator check`` with file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.cli import check_file
from simulator.core import Session
from simulator.core.errors import DataError
from simulator.core.scenario import scenario_from_data

ROOT = Path(__file__).resolve().parents[2]

HAMLET = """\
format: hexmap/1
id: hamlet
name: Hamlet
game: dragon_rage
description: a test hamlet by a river
grid: {orientation: flat, offset: even-q, labels: CCRR, columns: 8, rows: 6}
default_terrain: clear
terrain:
  town: "0403 0404 0503 0504"
  river: "0601 0602 0604 0605 0606"
  bridge: "0603"
  tower: "0303"
hexes:
  "0403": {vp: 3}
  "0404": {vp: VPVALUE}
  "0603": {bridge: wooden}
hexsides:
  - {between: ["0503", "0603"], feature: bridge_access, bridge: "0603"}
  - {between: ["0603", "0703"], feature: bridge_access, bridge: "0603"}
  - {between: ["0303", "0403"], feature: tower_door, tower: "0303"}
edges:
  invader_setup: "0101 0102 0103"
ARRIVAL
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _hamlet(tmp_path: Path, vp: str = "2", arrival: bool = True) -> Path:
    text = HAMLET.replace("VPVALUE", vp).replace(
        "ARRIVAL", '  reinforcement_arrival: "0405 0406"' if arrival else "")
    return _write(tmp_path, "hamlet.yaml", text)


def _scenario(map_ref: str, setup: dict | None = None) -> dict:
    return {"game": "dragon_rage", "name": "hamlet", "description": "custom map", "map": map_ref,
            "setup": {"objective": 4, "forces": {
                "invader": [{"type": "dragon", "at": ["0402"], "facing": "S"}],
                "defender": [{"type": "infantry", "at": ["0504"]}]}, **(setup or {})}}


def test_a_small_custom_map_plays(tmp_path: Path) -> None:
    path = _hamlet(tmp_path)
    s = Session.new(scenario_from_data(_scenario(str(path), {"reinforcements": {"first_turn": 1}}), "hamlet"),
                    seed=1)
    assert s.state["map_name"] == "esirien"              # a new map plays by the standard rules
    s.apply({"type": "end_phase"})
    s.apply({"type": "walk", "unit": "dragon1", "path": ["0403"]})
    ev = s.apply({"type": "ravage", "unit": "dragon1"})
    assert any(e.kind == "vp_destroyed" and e.rule == "DR 2.3" for e in ev) and s.state["vp"]["score"] == 3
    while s.state["phase"] != "defender_reinforce":
        s.apply({"type": "end_phase"})
    assert {"type": "reinforce", "to": "0405"} in s.legal_actions()
    s.apply({"type": "reinforce", "to": "0405"})
    assert any(u["type"] == "infantry" and u["hex"] == "0405" for u in s.state["units"].values())


def test_a_custom_map_may_play_by_nurkotts_rules(tmp_path: Path) -> None:
    path = _hamlet(tmp_path)
    data = _scenario(str(path), {"town": "nurkott", "reinforcements": {"first_turn": 1}})
    data["setup"]["forces"]["defender"] = [{"type": "orcs", "at": ["0504"]}]
    s = Session.new(scenario_from_data(data, "hamlet"), seed=1)
    while s.state["phase"] != "defender_reinforce":
        s.apply({"type": "end_phase"})
    s.apply({"type": "reinforce", "to": "0406"})
    assert sum(u["type"] == "orcs" for u in s.state["units"].values()) == 2     # orcs arrive (DR 2.9)


def test_a_map_without_walls_has_no_ten_turns_outside_the_walls(tmp_path: Path) -> None:
    """DR 2.3's "ten turns without an invader inside the walls" needs walls: the hamlet names no
    `inside_walls`, so only the ten turns without a VP hex destroyed can end the game."""
    path = _hamlet(tmp_path)
    s = Session.new(scenario_from_data(_scenario(str(path), {"turn": 20, "phase": "invader_move"}), "hamlet"),
                    seed=1)
    s.apply({"type": "walk", "unit": "dragon1", "path": ["0403"]})
    s.apply({"type": "ravage", "unit": "dragon1"})                   # last VP on turn 20
    while s.state["turn"] < 30 and s.outcome() is None:
        s.apply({"type": "end_phase"})
    assert s.outcome() is None and s.state["turn"] == 30            # turn 29 passed: 10 turns since turn 19
    while s.outcome() is None:
        s.apply({"type": "end_phase"})
    assert s.state["turn"] == 30 and "VP hex" in s.outcome().text    # turn 30: ten turns without VP


@pytest.mark.parametrize("name", ["esirien", "nurkott"])
def test_a_shipped_map_given_by_its_file_path(name: str) -> None:
    path = ROOT / "maps" / "dragon_rage" / f"{name}.yaml"
    data = _scenario(str(path))
    data["setup"]["forces"] = {"invader": [{"type": "dragon", "offmap": True} if name == "nurkott" else
                                           {"type": "dragon", "zone": "invader_setup"}],
                               "defender": [{"type": "orcs" if name == "nurkott" else "infantry",
                                             "zone": "inside_walls"}]}
    s = Session.new(scenario_from_data(data, name), seed=1)
    assert s.state["map_name"] == name and s.legal_actions()


def test_check_refuses_a_map_without_reinforcement_hexes(tmp_path: Path) -> None:
    path = _hamlet(tmp_path, arrival=False)
    scenario = _write(tmp_path, "sc.yaml", f"""\
game: dragon_rage
name: no arrival
description: reinforcements with nowhere to land
map: {path}
setup:
  objective: 4
  forces:
    invader: [{{type: dragon, at: ["0402"], facing: S}}]
    defender: [{{type: infantry, at: ["0504"]}}]
""")
    with pytest.raises(DataError) as exc:
        check_file(str(scenario))
    assert exc.value.field == "map" and exc.value.line == 4 and "reinforcement_arrival" in exc.value.message
    _write(tmp_path, "sc.yaml", scenario.read_text() + "rules: {reinforcements: false}\n")
    assert check_file(str(scenario)).startswith("scenario")


def test_check_refuses_a_vp_value_the_rules_do_not_allow(tmp_path: Path) -> None:
    path = _hamlet(tmp_path, vp="7")
    scenario = _write(tmp_path, "sc.yaml", f"""\
game: dragon_rage
name: bad vp
description: a VP hex worth 7
map: {path}
setup:
  objective: 4
  forces:
    invader: [{{type: dragon, at: ["0402"], facing: S}}]
    defender: [{{type: infantry, at: ["0504"]}}]
""")
    with pytest.raises(DataError) as exc:
        check_file(str(scenario))
    assert exc.value.field == "hexes.0404.vp" and exc.value.file.endswith("hamlet.yaml") and exc.value.line == 15
    with pytest.raises(DataError) as exc:
        check_file(str(path))                                  # the map file on its own
    assert exc.value.field == "hexes.0404.vp" and exc.value.line == 15
    assert check_file(str(_hamlet(tmp_path))).startswith("hex map Hamlet")
