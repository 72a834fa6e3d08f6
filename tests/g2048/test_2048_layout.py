"""2048's layout and header where space is short (issue 23): the labels Score and Best
kept at the 40x10 minimum, the board centred whether or not a result panel is up and
hidden, an 8x8 board centred between the header and the footer, and in eight colours no
two tiles alike and empty cells that show on a black terminal."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from termgames.g2048.board import Game2048
from termgames.g2048.view import EMPTY_STYLE, band_style, header_forms, minimum_size, tile_style
from termgames.runtime.draw import Colour
from termgames.runtime.runner import window_for
from termgames.scoreboard import Best
from tests.harness.drivers import fake_program
from tests.harness.screens import moves_until

AUTO, BOTH = frozenset({"autoplay"}), frozenset({"autoplay", "undo"})


def fitted(forms: list[str], width: int) -> str:
    """The form Canvas.fitted would draw."""
    return next(form for form in forms if len(form) <= width)


@pytest.mark.parametrize(("run", "best", "shown"), [
    (Best(2240, AUTO), None, "Score 2,240 (autoplay) = Best"),
    (Best(150_344, BOTH), None, "Score 150,344 (autoplay) (undo) = Best"),
    (Best(56, frozenset({"undo"})), Best(150_344, AUTO),
     "Score 56 (undo)  Best 150,344 (autoplay)"),
    (Best(150_344, BOTH), Best(160_344, BOTH), "Score 150,344 (auto, undo)  Best 160,344"),
], ids=["autoplay best", "both marks best", "undo under autoplay", "both under both"])
def test_a_40_column_header_keeps_score_and_best(run: Best, best: Best | None,
                                                 shown: str) -> None:
    assert fitted(header_forms(run, best or run, best is None, 2048), 40) == shown


@pytest.mark.parametrize(("run", "best"), [
    (Best(2228, BOTH), None), (Best(2228, BOTH), Best(9_999_999, BOTH)),
    (Best(150_344, BOTH), Best(160_344, AUTO)), (Best(9_999_999, BOTH), None),
], ids=["the report's case", "best helped too", "best autoplayed", "seven digits"])
def test_an_80_column_header_keeps_the_games_name(run: Best, best: Best | None) -> None:
    """The report's UX 8: marks piling up pushed '2048' out at 80 columns."""
    shown = fitted(header_forms(run, best or run, best is None, 1024), 80)
    assert shown.startswith("2048   Score: ") and "Best" in shown and "goal 1,024" in shown


def board_rows(text: str) -> list[str]:
    """The rows of the screen that hold tiles (numbers and dots only)."""
    return [line for line in text.splitlines()
            if line.split() and all(re.fullmatch(r"\d+|·", t) for t in line.split())]


def test_a_hidden_result_panel_leaves_the_board_where_esc_does(tmp_path: Path) -> None:
    model = Game2048(3, 1024, random.Random(3))
    keys = moves_until(model, lambda g: g.over)
    rows, cols = window_for(minimum_size(3))
    places = []
    for close in ("space", "esc"):
        with fake_program(["2048", "--size", "3", "--seed", "3"], tmp_path / close, rows,
                          max(cols, 40)) as run:
            run.press(*keys)
            run.wait_for("Game over")
            run.press(close)
            run.wait_for_gone("Final score")
            places.append(board_rows(run.text()))
    assert places[0] == places[1] and len(places[0]) == 3, places
    first = places[0][0]
    left, right = len(first) - len(first.lstrip()), 40 - len(first)
    assert abs(left - right) <= 1, places  # centred


def test_an_8x8_board_at_80x24_is_centred_between_header_and_footer(tmp_path: Path) -> None:
    with fake_program(["2048", "--size", "8", "--seed", "3"], tmp_path, 24, 80) as run:
        lines = run.text().splitlines()
        tiles = [y for y, line in enumerate(lines) if line in board_rows(run.text())]
        above, below = tiles[0] - 1, len(lines) - 1 - tiles[-1] - 1
        assert abs(above - below) <= 1, (above, below, run.text())


VALUES = [2 ** power for power in range(1, 13)] + [4096]
"""Every tile look: 2 to 2048, and the one all larger tiles share."""


def eight_colour_look(value: int) -> tuple[int, int, int]:
    """(tile colour, the number's ground, the number's colour) in eight colours."""
    tile, band = tile_style(value), band_style(value)
    return tile.bg8, band.bg8, band.fg8


def test_in_eight_colours_no_two_tiles_look_alike() -> None:
    looks = {value: eight_colour_look(value) for value in VALUES}
    assert len(set(looks.values())) == len(looks), looks
    for value, (tile, ground, number) in looks.items():
        assert tile not in (Colour.BLACK, Colour.DEFAULT) and number != ground, value
    assert EMPTY_STYLE.bg8 not in (Colour.BLACK, Colour.DEFAULT, *(t for t, _, _ in
                                                                  looks.values()))


@pytest.mark.parametrize("value", VALUES)
def test_rings_change_nothing_in_256_colours_or_without_colour(value: int) -> None:
    tile, band = tile_style(value), band_style(value)
    assert (band.fg, band.bg, band.mono, band.emphasis) == (tile.fg, tile.bg, tile.mono,
                                                            tile.emphasis)
