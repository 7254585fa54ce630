"""The Vikings player-side heuristic (``simulator/games/vikings/evaluation.py``): what the normal
computer player is drawn to, at sea and on land."""

from __future__ import annotations

from typing import Any

from simulator.core.session import Session
from simulator.games.vikings import evaluation
from simulator.games.vikings.evaluation import approach, boarding, heuristic

State = dict[str, Any]


def _sea() -> State:
    return Session.new("vikings/sea_fight", seed=1).state_data()


def _village() -> State:
    return Session.new("vikings/village_raid", seed=1).state_data()


def test_heuristic_stays_within_its_range_on_both_benchmark_scenarios() -> None:
    for st in (_sea(), _village()):
        for side in st["order"]:
            assert -1.0 <= heuristic(st, side) <= 0.0


def test_a_faster_speed_marker_towards_the_enemy_boat_is_preferred() -> None:
    st = _sea()
    st["ships"]["wave_wolf"]["pending"] = 1
    slow = boarding(st, "vikings")
    st["ships"]["wave_wolf"]["pending"] = 3
    fast = boarding(st, "vikings")
    st["ships"]["wave_wolf"]["pending"] = -1
    astern = boarding(st, "vikings")
    assert fast is not None and slow is not None and astern is not None
    assert fast < slow < astern


def test_a_hooked_grapple_counts_as_closing_in() -> None:
    st = _sea()
    before = heuristic(st, "vikings")
    rope = next(g for g in st["grapples"].values() if g["side"] == "vikings")
    rope.update(status="hooked", hook_ship="sea_hall", hook_slot=0)
    assert heuristic(st, "vikings") > before
    # the rope binds the galley too: the Saxons' boat is as near the fight
    assert heuristic(st, "saxons") > heuristic(_sea(), "saxons")


def test_no_boat_term_without_enemy_boats() -> None:
    assert boarding(_village(), "vikings") is None


def test_a_rower_far_from_the_enemy_keeps_his_post() -> None:
    st = _sea()
    before = approach(st, "vikings")
    rower = st["chars"]["hallstein"]
    bow = st["chars"]["svein"]["hex"]          # the boarding party stands forward
    rower["hex"] = bow
    assert approach(st, "vikings") == before


def test_the_stronger_side_closes_in_the_weaker_holds_and_peasants_keep_away() -> None:
    st = _village()                            # the Vikings are the stronger side here
    base_vikings = approach(st, "vikings")
    st["chars"]["svein"]["hex"] = "1010"       # next to the Saxon line (row 9)
    assert approach(st, "vikings") < base_vikings
    st = _village()
    for bowman in ("bowman1", "bowman2"):
        st["chars"][bowman]["status"] = "dead"  # no Viking archer shoots the Saxons
    held = approach(st, "saxons")
    st["chars"]["wulfgar"]["hex"] = "1012"     # a huscarl next to the Viking line (row 13)
    assert approach(st, "saxons") == held
    st = _village()
    st["chars"]["peasant1"]["hex"] = "1012"    # next to the Vikings
    near = approach(st, "saxons")
    st["chars"]["peasant1"]["hex"] = "1603"    # behind the houses, out of the bowmen's sight
    assert approach(st, "saxons") > near


def test_the_weaker_side_goes_for_the_archers_who_shoot_it() -> None:
    from simulator.games.vikings.game import board_of

    st = _village()                            # the bowmen on the beach see the Saxon huscarls
    base = approach(st, "saxons")
    vikings = [c for c in st["chars"].values() if c["side"] == "vikings"]
    wulfgar = st["chars"]["wulfgar"]
    assert evaluation._archer_gap(board_of(st), st, wulfgar, vikings) == 6
    wulfgar["hex"] = "1012"                    # four hexes from the bowman who sees him
    assert evaluation._archer_gap(board_of(st), st, wulfgar, vikings) == 4
    assert approach(st, "saxons") < base
    wulfgar["ship"] = "wave_wolf"              # aboard a boat he keeps his post: no hunt
    assert evaluation._archer_gap(board_of(st), st, wulfgar, vikings) == 0


def test_an_archer_wants_an_enemy_in_sight() -> None:
    st = _village()
    archer = st["chars"]["archer1"]
    archer["hex"] = "0405"                     # the Saxon line is in the way of nothing: terrain only
    seen = approach(st, "saxons")
    hidden = [h for h in ("0101", "0201", "0102") if h != archer["hex"]]
    archer["hex"] = hidden[0]                  # far in a corner of the village map
    assert approach(st, "saxons") > seen


def test_a_swimmer_in_deep_water_counts_as_far_away() -> None:
    st = _sea()
    for ch in st["chars"].values():
        if ch["side"] == "vikings" and ch["id"] != "svein":
            ch["status"] = "dead"
    svein = st["chars"]["svein"]
    svein.update(ship=None, slot=None, hex="3708")   # overboard, next to the galley, in deep water
    drowning = approach(st, "vikings")
    svein["swimmer"] = True                           # one who swims (rule 5.5.2) is as near as he stands
    assert approach(st, "vikings") < drowning


def test_the_scales_are_positive() -> None:
    assert evaluation.REACH > evaluation.BOW_REACH > 0 and evaluation.HOOK_HEXES > 0
    assert 0.0 < evaluation.SEA_SHARE < 1.0




def _no_bows(st: State) -> State:
    for ch in st["chars"].values():
        if ch["kind"].startswith("bowman") or ch["id"].startswith("bowman"):
            ch["status"] = "dead"
    return st


def _free_next_to(st: State, label: str) -> list[str]:
    from simulator.games.vikings.game import board_of

    return [h for h in board_of(st).neighbours(label) if all(c.get("hex") != h for c in st["chars"].values())]


def test_a_man_left_where_the_enemy_attacks_at_two_to_one_is_exposed() -> None:
    from simulator.games.vikings.evaluation import exposure

    st = _no_bows(_village())
    assert exposure(st, "saxons") == 0.0
    st["chars"]["archer1"]["hex"] = _free_next_to(st, st["chars"]["svein"]["hex"])[0]
    exposed = exposure(st, "saxons")                # defence 3 next to Svein's attack 9: 3-1
    assert 0.0 < exposed < 1.0
    assert heuristic(st, "saxons") < 0.0
    st = _village()
    for ch in st["chars"].values():
        if ch["id"] not in ("bowman1", "wulfgar"):
            ch["status"] = "dead"
    # attack 3 against a huscarl's defence 5 is below 2-1: only the bowman's shot counts
    st["chars"]["wulfgar"]["hex"] = _free_next_to(st, st["chars"]["bowman1"]["hex"])[0]
    assert exposure(st, "saxons") == evaluation.ARROW_SHARE

def test_exposure_counts_only_enemies_that_can_fight() -> None:
    from simulator.games.vikings.evaluation import exposure

    st = _no_bows(_village())
    st["chars"]["archer1"]["hex"] = _free_next_to(st, st["chars"]["svein"]["hex"])[0]
    for ch in st["chars"].values():
        if ch["side"] == "vikings" and ch["id"] != "svein":
            ch["status"] = "dead"
    assert exposure(st, "saxons") > 0.0
    st["chars"]["svein"]["status"] = "stunned"
    assert exposure(st, "saxons") == 0.0


def _facing_the_bowman(saxon: str) -> State:
    """The village with only the Viking bowman at 0714 and ``saxon`` three hexes from him, in the open."""
    st = _village()
    for ch in st["chars"].values():
        if ch["id"] not in ("bowman1", saxon):
            ch["status"] = "dead"
    st["chars"][saxon]["hex"] = "0711"
    return st


def test_a_man_in_an_enemy_archers_sight_is_exposed_by_the_range() -> None:
    from simulator.games.vikings.evaluation import exposure

    st = _facing_the_bowman("aethelwulf")
    assert exposure(st, "saxons") == evaluation.ARROW_SHARE
    st["chars"]["aethelwulf"]["hex"] = "0701"   # thirteen hexes: beyond short range, a medium-range shot
    assert exposure(st, "saxons") == evaluation.ARROW_SHARE * evaluation.MEDIUM_SHARE
    st["chars"]["bowman1"]["hex"] = "1530"      # far beyond medium range
    assert exposure(st, "saxons") == 0.0


def test_the_normal_players_own_pass_handicap_leaves_the_easy_player_alone() -> None:
    from simulator.core.aiprofile import FIDGET
    from simulator.core.registry import get_game

    vikings, saga = get_game("vikings").ai_profile(), get_game("saga").ai_profile()
    move = {"type": "move", "piece": "svein", "to": "1012"}
    assert vikings.fidget == FIDGET
    assert vikings.fidget_of(move) == FIDGET                       # the easy player's, unchanged
    assert vikings.fidget_of(move, "normal") == vikings.normal_fidget < FIDGET
    assert vikings.fidget_of({"type": "end_phase"}, "normal") == 0.0
    assert saga.fidget_of(move, "normal") == saga.fidget_of(move)  # a profile without normal_fidget


def test_a_man_overboard_in_deep_water_is_in_peril_unless_he_swims() -> None:
    from simulator.games.vikings.evaluation import peril

    st = _sea()
    assert peril(st, "vikings") == 0.0
    before = heuristic(st, "vikings")
    torgrim = st["chars"]["torgrim"]                 # the skiff's boarder, far from the galley
    torgrim.update(ship=None, slot=None, duty=None, hex="1005")     # off the skiff, deep water
    assert 0.0 < peril(st, "vikings") < 0.2
    assert heuristic(st, "vikings") < before
    torgrim["swimmer"] = True
    assert peril(st, "vikings") == 0.0


def test_leaving_a_boat_far_from_the_enemy_does_not_bring_the_fleet_nearer() -> None:
    st = _sea()
    before = boarding(st, "vikings")
    st["chars"]["torgrim"].update(ship=None, slot=None, duty=None, hex="1005")
    assert boarding(st, "vikings") == before         # boats weigh by their size, not the crew aboard


def test_an_archer_in_the_enemy_bowmens_sight_is_not_exposed_he_shoots_back() -> None:
    from simulator.games.vikings.evaluation import exposure

    st = _facing_the_bowman("archer1")
    assert exposure(st, "saxons") == 0.0
