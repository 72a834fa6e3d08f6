"""Colours readable on dark and light terminals alike (issue 13), measured as WCAG
contrast ratios on the xterm 256-colour palette: text on a coloured ground at least 4.5,
shapes (discs, boxes, walls, marks) at least 3; a colour drawn on the terminal's own
background, which may be black or white, at least 3 against both."""

from __future__ import annotations

import importlib

import pytest

from termgames.g2048.view import EMPTY_STYLE, tile_style
from termgames.runtime.draw import BANNER, SELECTED, WARNING, Style

VIEWS = ["termgames.runtime.draw", "termgames.g2048.view", "termgames.sokoban.view",
         "termgames.reversi.view", "termgames.maze.view"]
TEXT = 4.5
SHAPE = 3.0
BLACK, WHITE = (0, 0, 0), (255, 255, 255)


def xterm_rgb(index: int) -> tuple[int, int, int]:
    """The colour xterm shows for a 256-colour index."""
    basic = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
             (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
             (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
    if index < 16:
        return basic[index]
    if index < 232:
        steps = [0, 95, 135, 175, 215, 255]
        index -= 16
        return steps[index // 36], steps[index // 6 % 6], steps[index % 6]
    grey = 8 + (index - 232) * 10
    return grey, grey, grey


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(value) for value in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def every_style() -> dict[str, Style]:
    styles = {}
    for name in VIEWS:
        for attribute, value in vars(importlib.import_module(name)).items():
            if isinstance(value, Style) and value.fg >= 0:
                styles[f"{name.split('.')[-2]}.{attribute}"] = value
    return styles


def test_the_palette_is_xterms() -> None:
    assert xterm_rgb(16) == BLACK and xterm_rgb(231) == WHITE
    assert xterm_rgb(202) == (255, 95, 0) and xterm_rgb(244) == (128, 128, 128)
    assert contrast(BLACK, WHITE) == pytest.approx(21.0)


@pytest.mark.parametrize("value", [2 ** power for power in range(1, 18)])
def test_every_tile_number_reads_as_text(value: int) -> None:
    style = tile_style(value)
    assert contrast(xterm_rgb(style.fg), xterm_rgb(style.bg)) >= TEXT, value


@pytest.mark.parametrize("style", [BANNER, WARNING, SELECTED], ids=["banner", "warning",
                                                                    "selected"])
def test_panels_and_highlights_read_as_text(style: Style) -> None:
    assert contrast(xterm_rgb(style.fg), xterm_rgb(style.bg)) >= TEXT


@pytest.mark.parametrize("name", sorted(every_style()))
def test_every_colour_pair_and_lone_colour_stands_out(name: str) -> None:
    style = every_style()[name]
    fg = xterm_rgb(style.fg)
    if style.bg >= 0:
        assert contrast(fg, xterm_rgb(style.bg)) >= SHAPE, name
    else:  # on the terminal's own background, dark or light
        assert min(contrast(fg, BLACK), contrast(fg, WHITE)) >= SHAPE, name


def test_an_empty_square_is_still_marked() -> None:
    assert contrast(xterm_rgb(EMPTY_STYLE.fg), xterm_rgb(EMPTY_STYLE.bg)) >= SHAPE
