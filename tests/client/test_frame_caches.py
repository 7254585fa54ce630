"""What a frame draws again and again is measured once: wrapped panel text and fitted labels
(the side panel asked pygame for text widths thousands of times a frame). Never asserts on time."""

import pygame

from simulator.client import fonts


class Counting:
    def __init__(self, font: pygame.font.Font) -> None:
        self.font, self.calls = font, 0

    def size(self, text: str) -> tuple[int, int]:
        self.calls += 1
        return self.font.size(text)


def test_wrapped_text_is_measured_once(monkeypatch):
    text = "A unit that moves through rough ground loses one inch of every two it moves"
    first = fonts.wrap(text, 15, 120)
    counting = Counting(fonts.font(15))
    monkeypatch.setattr(fonts, "font", lambda size, bold=False: counting)
    again = fonts.wrap(text, 15, 120)
    assert again == first and len(first) > 1 and counting.calls == 0
    again.append("changed")                       # a caller's list is its own
    assert fonts.wrap(text, 15, 120) == first
    fonts.wrap(text, 15, 200)                     # another width is measured
    assert counting.calls > 0


def test_fitted_labels_are_measured_once(monkeypatch):
    from simulator.client import sidepanel

    label = "The Tactics board: zones and the cards that claim them"
    first = sidepanel._fit(label, 17, 90, True)
    counting = Counting(fonts.font(17, True))
    monkeypatch.setattr(fonts, "font", lambda size, bold=False: counting)
    assert sidepanel._fit(label, 17, 90, True) == first and first.endswith("...")
    assert counting.calls == 0


def test_a_bases_label_size_is_measured_once(monkeypatch):
    from simulator.client import piecedraw

    first = piecedraw.fit_size("Warlord of the Jomsvikings", 60.5, 40.2, True)
    counting = Counting(fonts.font(20, True))
    monkeypatch.setattr(fonts, "font", lambda size, bold=False: counting)
    assert piecedraw.fit_size("Warlord of the Jomsvikings", 60.5, 40.2, True) == first
    assert counting.calls == 0
