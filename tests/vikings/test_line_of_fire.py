"""Line of fire through building features on the village map (rules 2.4.7-2.4.11), on hex_los."""

from __future__ import annotations

from simulator.games.vikings import fire
from simulator.games.vikings.game import board_of
from tests.vikings.helpers import session

VILLAGE = [{"map": "vikings/village"}]


def sight(src: str, dst: str):
    s = session([{"id": "bowman1", "hex": "1415"}, {"id": "archer1", "hex": "1416"}], boards=VILLAGE)
    return fire.line_of_fire(board_of(s.state), s.state, src, dst)


def test_arrow_slit_only_in_line_and_gives_strong_cover():
    # slit between 0504 (tower) and 0604; 0804 lies on the straight row 0504-0604-0704-0804
    into = sight("0804", "0504")
    assert into.clear and into.cover == "strong"
    assert sight("0504", "0804").clear                      # shooting out through one's own slit
    skew = sight("0803", "0504")
    assert not skew.clear


def test_window_medium_cover_inside_and_walls_block():
    through = sight("0506", "0806")                         # window 0706/0806 right in front of the target
    assert through.clear and through.cover == "medium"
    assert sight("0806", "0506").clear                      # from inside through the window beside him
    wall = sight("0707", "0807")
    assert not wall.clear and wall.rule == "VK 2.4.9"


def test_embankment_crest_hides_the_lower_character():
    # crest 1911/1912 (upper 1911, embankment 1912): a target on the slope itself has medium cover
    on_slope = sight("1909", "1912")
    assert on_slope.clear and on_slope.cover == "medium"
    below = sight("1909", "1913")                           # beach just under the slope: hidden
    assert not below.clear and below.rule == "VK 2.4.11"
    assert not sight("1913", "1909").clear                   # and the same line the other way
