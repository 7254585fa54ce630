"""`simulator render` draws scenarios, saves and scripts to PNG, with overlays."""

import pygame
import pytest

from simulator.client.render import render
from simulator.core.errors import DataError
from tests.client.games import scenario_path


def _image(path):
    img = pygame.image.load(str(path))
    colours = {img.get_at((x, y))[:3] for x in range(0, img.get_width(), 37) for y in range(0, img.get_height(), 29)}
    return img, colours


@pytest.mark.parametrize("name", ["hex", "table", "ship"])
def test_render_scenario(tmp_path, name):
    out = tmp_path / f"{name}.png"
    render(str(scenario_path(name)), out, (900, 600), overlays={"labels": True})
    img, colours = _image(out)
    assert img.get_size() == (900, 600) and len(colours) > 20


def test_render_overlays_change_the_picture(tmp_path):
    plain, los = tmp_path / "plain.png", tmp_path / "los.png"
    render(str(scenario_path("hex")), plain, (900, 600))
    render(str(scenario_path("hex")), los, (900, 600), overlays={"los": ["r1", "b2"], "range": "r1",
                                                                 "measure": ["r1", "1811"]})
    a, b = pygame.image.load(str(plain)), pygame.image.load(str(los))
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")


def test_render_table_point_overlays(tmp_path):
    render(str(scenario_path("table")), tmp_path / "t.png", (900, 600),
           overlays={"los": ["hearth", "40,30"], "measure": ["hearth", "bluelord"]})
    assert (tmp_path / "t.png").exists()


def test_render_bad_overlay_reference_is_a_clear_error(tmp_path):
    with pytest.raises(DataError, match="neither a piece"):
        render(str(scenario_path("hex")), tmp_path / "x.png", (900, 600), overlays={"los": ["r1", "nowhere"]})
    with pytest.raises(DataError, match="no piece"):
        render(str(scenario_path("hex")), tmp_path / "x.png", (900, 600), overlays={"range": "zz"})


def test_render_script_step_highlights_the_last_action(tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text(f"scenario: {scenario_path('hex')}\nseed: 1\nactions:\n"
                      "  - {type: move, piece: r1, to: '1809'}\n  - {type: end_phase}\n")
    from simulator.client.render import load_for_render
    session, highlight = load_for_render(str(script), 1)
    assert len(session.steps) == 1 and highlight == ["r1"]
    render(str(script), tmp_path / "s.png", (900, 600), step=1)
    assert (tmp_path / "s.png").exists()


def test_render_a_save(tmp_path):
    from simulator.core.session import Session
    s = Session.new(str(scenario_path("hex")), 2)
    s.apply({"type": "move", "piece": "r1", "to": "1809"})
    s.save(tmp_path / "g.yaml")
    render(str(tmp_path / "g.yaml"), tmp_path / "g.png", (900, 600))
    assert (tmp_path / "g.png").exists()
