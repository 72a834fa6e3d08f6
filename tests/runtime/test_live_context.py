"""A game started from the menu is laid out for the window as it is then, not as it was
when the program started (issue 23): the runner builds each game's launch context as the
game starts, from the game's area (the window less the footer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from termgames.g2048.view import layout, minimum_size, under_header
from termgames.runtime.runner import FOOTER_ROWS, window_for
from tests.harness.drivers import DRIVERS, Driver, program

LAUNCHER_MINIMUM = window_for((8, 40))  # four games and the list's frame
"""The launcher's smallest window (Launcher's minimum for four games)."""


def choose(run: Driver, title: str) -> None:
    """Move the menu's cursor to ``title`` and play it."""
    run.wait_for("Sokoban")
    order = ["2048", "Maze", "Reversi", "Sokoban"]
    run.press("home", *["down"] * order.index(title), "enter")


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize(("window", "maze"), [((60, 200), "49x28"),
                                              (LAUNCHER_MINIMUM, "9x3")],
                         ids=["200x60", "minimum"])
def test_a_maze_from_the_menu_fits_the_window_it_starts_in(
        driver: str, tmp_path: Path, window: tuple[int, int], maze: str) -> None:
    with program(driver, [], tmp_path) as run:  # started at 80x24
        run.wait_for("Sokoban")
        run.resize(*window)
        choose(run, "Maze")
        run.wait_for(f"Maze {maze}")
        run.press("q")
        run.wait_for("Sokoban")
        run.resize(24, 80)  # and back: the next maze is the smaller window's
        choose(run, "Maze")
        run.wait_for("Maze 19x10")


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("window", [(60, 200), window_for(minimum_size(4))],
                         ids=["200x60", "minimum"])
def test_2048_from_the_menu_is_laid_out_for_the_window_it_starts_in(
        driver: str, tmp_path: Path, window: tuple[int, int]) -> None:
    """Each of the sixteen squares shows its label (a value, or the empty square's dot)
    where the layout for this window puts it: the roomiest tiles at 200x60, the compact
    ones at the smallest window."""
    rows, cols = window
    expected = layout(4, under_header(rows - FOOTER_ROWS, cols))
    middle = expected.cells.height // 2

    def every_square_labelled() -> bool:
        lines = run.text().splitlines()
        for r in range(4):
            for c in range(4):
                y, x = expected.tile(r, c)
                if y + middle >= len(lines):
                    return False
                label = lines[y + middle][x:x + expected.cells.width].strip()
                if not (label in ("·", ".") or label.isdigit()):
                    return False
        return True

    with program(driver, [], tmp_path) as run:  # started at 80x24
        run.wait_for("Sokoban")
        run.resize(rows, cols)
        choose(run, "2048")
        run.wait_for("Score: 0")
        run.wait_until(every_square_labelled, f"a 4x4 board of {expected.cells} tiles")
