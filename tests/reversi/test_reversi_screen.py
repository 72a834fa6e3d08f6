"""Reversi as people expect it (issue 13), through the real program on a pty: a click
plays, moving the cursor drops a half-typed move, hints are marked squares, watching names
the colours and offers only the keys that work, a new game asks first, and the squares
grow with the window, grid lines and all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from termgames.reversi.thinking import THINK_SLICE_S
from tests.harness.drivers import DRIVERS, fake_program, program
from tests.harness.screens import reversi_square_middle
from tests.harness.terminal import Start


def test_a_click_on_a_square_plays_there(terminal: Start) -> None:
    term = terminal("reversi", "--level", "1", "--seed", "1")
    term.wait_for("You move first.")
    term.click(*reversi_square_middle(term, 3, 5))  # row 3, column 5: typed as 53
    term.wait_for("You played 53")
    term.wait_for("Computer played")
    term.click(*reversi_square_middle(term, 1, 1))  # not a legal move: nothing is played
    term.wait_for("11 is not a legal move.")
    assert re.search(r"\) 3 .*\) 3 ", term.lines()[0]), term.lines()[0]


@pytest.mark.parametrize("driver", DRIVERS)
def test_moving_the_cursor_drops_a_half_typed_move(driver: str, tmp_path: Path) -> None:
    with program(driver, ["reversi", "--level", "1", "--seed", "1"], tmp_path) as run:
        run.wait_for("You move first.")
        run.press("5")
        run.wait_for("Column 5: now type the row")
        run.press("right")
        run.wait_for_gone("Column 5")
        run.press("3")  # a new first digit, not 53's second
        run.wait_for("Column 3: now type the row")
        run.press("5")
        run.wait_for("You played 35")


def test_hints_mark_every_legal_square(terminal: Start) -> None:
    term = terminal("reversi", "--level", "1", "--seed", "1")
    term.wait_for("t hints (off)")
    assert "◆" not in term.text()
    term.press("t")
    term.wait_for("t hints (on)")
    term.wait_until(lambda: term.text().count("◆") == 4, "four marked squares")
    for row, column in ((3, 5), (4, 6), (5, 3), (6, 4)):  # X's four openings
        y, x = reversi_square_middle(term, row, column)
        assert term.lines()[y][x] == "◆", (row, column, term.text())


def test_watching_names_the_colours_and_offers_only_keys_that_work(terminal: Start) -> None:
    term = terminal("reversi", "--watch", "--level", "1", "--seed", "1")
    term.wait_for("X black")
    assert "O white" in term.lines()[0], term.text()
    # The header and the footer come in separate writes: read the footer once it is there.
    term.wait_until(lambda: "q quit" in term.lines()[-1], "the footer")
    footer = term.lines()[-1]
    assert "q quit" in footer and "? help" in footer, footer
    for key in ("hints", "undo", "play", "move"):
        assert key not in footer, footer
    term.press("?")
    term.wait_for("quit")
    help_text = term.text()
    for key in ("hints", "undo"):
        assert key not in help_text, help_text


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_new_game_mid_game_asks_first(driver: str, tmp_path: Path) -> None:
    with program(driver, ["reversi", "--level", "1", "--seed", "1"], tmp_path) as run:
        run.wait_for("You move first.")
        run.press("5", "3")
        run.wait_for("Computer played")
        run.press("r")
        run.wait_for("Start a new game?")
        run.press("n")
        run.wait_for_gone("Start a new game?")
        assert re.search(r"You \(X.*\) 4", run.lines()[0]) or "You played 53" in run.text()
        run.press("r")
        run.wait_for("Start a new game?")
        run.press("y")
        run.wait_for("You move first.")
        assert re.search(r"\) 2 .*\) 2 ", run.lines()[0]), run.lines()[0]


def test_squares_grow_with_the_window_and_keep_their_grid_lines(terminal: Start) -> None:
    pitches = []
    for rows, cols in ((24, 80), (60, 200)):
        term = terminal("reversi", "--level", "1", "--seed", "1", rows=rows, cols=cols)
        term.wait_for("You move first.")
        top_y, left_x = reversi_square_middle(term, 1, 1)
        next_y, next_x = reversi_square_middle(term, 2, 2)
        pitches.append((next_y - top_y, next_x - left_x))
        between = term.lines()[(top_y + next_y) // 2 + (next_y - top_y) % 2][left_x]
        assert between in "─+-" or term.lines()[top_y][(left_x + next_x) // 2] in "│|", \
            term.text()
        assert "┼" in term.text(), term.text()
        term.press("q")
        assert term.wait_exit() == 0
    (small_down, small_across), (big_down, big_across) = pitches
    assert big_down > small_down and big_across > small_across, pitches


def test_moving_the_cursor_drops_a_digit_typed_while_the_computer_thinks(
        tmp_path: Path) -> None:
    """In memory: each reading of the fake clock costs half a thinking slice, so the
    search's answer spans many slices and the keys surely land while it thinks."""
    with fake_program(["reversi", "--ai", "search", "--level", "5", "--seed", "1"],
                      tmp_path) as run:
        run.wait_for("You move first.")
        run.session.clock.tick_by(THINK_SLICE_S / 2)
        run.press("5", "3")
        run.wait_for("You played 53")
        run.press("4", "right")  # a column typed ahead, then the cursor instead
        assert "Computer played" not in run.text()  # still thinking: the keys waited
        run.wait_for_gone("Computer is thinking")
        assert "Column 4" not in run.text(), run.text()
        run.press("3")  # a new first digit, not the row of the dropped 4
        run.wait_for("Column 3: now type the row")
