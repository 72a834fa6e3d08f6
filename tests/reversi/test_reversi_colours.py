"""Reversi's highlighted discs read on every palette (issue 23, P9): the computer's last
move and the discs it turned stand out from their square in 256 colours, in 8 colours as
xterm and the Linux console draw them (bold brightens a basic foreground there), and
apart from the plain board and each other without colour."""

from __future__ import annotations

from termgames.reversi.view import (
    FLIPPED_O,
    FLIPPED_X,
    LAST_O,
    LAST_X,
    X_DISC,
)
from termgames.runtime.draw import Emphasis, Style

RGB = tuple[int, int, int]
EIGHT = {  # the basic colours, then their bright forms
    "xterm": ["000000", "cd0000", "00cd00", "cdcd00", "0000ee", "cd00cd", "00cdcd", "e5e5e5",
              "7f7f7f", "ff0000", "00ff00", "ffff00", "5c5cff", "ff00ff", "00ffff", "ffffff"],
    "linux": ["000000", "aa0000", "00aa00", "aa5500", "0000aa", "aa00aa", "00aaaa", "aaaaaa",
              "555555", "ff5555", "55ff55", "ffff55", "5555ff", "ff55ff", "55ffff", "ffffff"],
}
READABLE = 2.5
"""The least contrast a highlighted disc keeps with its square (WCAG's ratio)."""


def hex_rgb(text: str) -> RGB:
    """'cd00cd' as (205, 0, 205)."""
    return int(text[:2], 16), int(text[2:4], 16), int(text[4:], 16)


def xterm_256(index: int) -> RGB:
    """The colour xterm shows for a 256-colour index (16 and up)."""
    if index >= 232:
        grey = 8 + 10 * (index - 232)
        return grey, grey, grey
    levels = [0, 95, 135, 175, 215, 255]
    index -= 16
    return levels[index // 36], levels[index // 6 % 6], levels[index % 6]


def contrast(first: RGB, second: RGB) -> float:
    """WCAG's contrast ratio of two colours, 1 to 21."""
    def luminance(rgb: RGB) -> float:
        linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4
                  for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def shown(style: Style, palette: str) -> tuple[RGB, RGB]:
    """(disc, square) colours of ``style`` on ``palette`` ('256', 'xterm' or 'linux')."""
    if palette == "256":
        return xterm_256(style.fg), xterm_256(style.bg)
    colours = EIGHT[palette]
    bright = 8 if Emphasis.BOLD in style.emphasis else 0
    return hex_rgb(colours[style.fg8 + bright]), hex_rgb(colours[style.bg8])


def test_a_highlighted_disc_stands_out_from_its_square_on_every_palette() -> None:
    for palette in ("256", "xterm", "linux"):
        for name, style in {"last X": LAST_X, "last O": LAST_O, "turned X": FLIPPED_X,
                            "turned O": FLIPPED_O}.items():
            ratio = contrast(*shown(style, palette))
            assert ratio >= READABLE, f"{name} on {palette}: {ratio:.2f}"


def test_black_discs_stay_black_in_eight_colours() -> None:
    """Bold turns black into grey there, which sinks into every square."""
    for style in (X_DISC, LAST_X, FLIPPED_X):
        assert Emphasis.BOLD not in style.emphasis and Emphasis.BOLD in style.mono


def test_each_highlight_differs_from_the_board_and_from_the_other() -> None:
    for x_style, o_style in ((LAST_X, LAST_O), (FLIPPED_X, FLIPPED_O)):
        assert (x_style.bg, x_style.bg8, x_style.mono & ~Emphasis.BOLD) == (
            o_style.bg, o_style.bg8, o_style.mono)
    squares = {(s.bg, s.bg8) for s in (X_DISC, LAST_X, FLIPPED_X)}
    assert len({bg for bg, _ in squares}) == 3 and len({bg8 for _, bg8 in squares}) == 3
    assert len({X_DISC.mono, LAST_X.mono, FLIPPED_X.mono}) == 3
