"""2048 as people expect it (issue 13), through the real program on a pty: tiles that grow
with the window with a gap between them, the goal in the header, a goal the board cannot
reach refused, and a lost game that stays in view and can still be taken back."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from termgames.g2048.board import Game2048
from tests.harness.drivers import DRIVERS, Driver, program
from tests.harness.screens import KEYS, moves_until, wait_for_game
from tests.harness.terminal import Start, Terminal, base_environment

DIRECTION_OF = {key: direction for direction, names in KEYS.items() for key in names}


def board_beside_panel(term: Driver | Terminal) -> tuple[tuple[int, ...], ...]:
    """The tiles shown left of the result panel's frame, row by row."""
    rows = []
    for line in term.lines()[1:]:
        tokens = re.split(r"[│┌└|+]", line)[0].split()
        if tokens and all(token.isdigit() or token in "·." for token in tokens):
            rows.append(tuple(int(token) if token.isdigit() else 0 for token in tokens))
    return tuple(rows)


def tile_box(term: Terminal, value: int) -> tuple[int, int, int, int]:
    """(top, left, height, width) of the first tile showing ``value``: the run of cells
    around its number that share the number's background colour."""
    buffer = term.screen.buffer
    for y, line in enumerate(term.lines()):
        x = f" {line} ".find(f" {value} ")
        if y > 0 and x >= 0:
            background = buffer[y][x].bg
            assert background != "default", term.text()
            left = x
            while left > 0 and buffer[y][left - 1].bg == background:
                left -= 1
            right = x
            while buffer[y][right + 1].bg == background:
                right += 1
            top = y
            while top > 1 and buffer[top - 1][x].bg == background:
                top -= 1
            bottom = y
            while bottom + 1 < term.screen.lines and buffer[bottom + 1][x].bg == background:
                bottom += 1
            return top, left, bottom - top + 1, right - left + 1
    raise AssertionError(f"no tile {value} on screen:\n{term.text()}")


def test_tiles_grow_with_the_window_and_equal_neighbours_stay_apart(terminal: Start) -> None:
    sizes = []
    for rows, cols in ((24, 80), (60, 200)):
        term = terminal("2048", "--seed", "7", rows=rows, cols=cols)
        wait_for_game(term, Game2048(4, 2048, random.Random(7)))
        top, left, height, width = tile_box(term, 2)
        # Seed 7 starts with two 2s, one above the other: a gap of another colour parts them.
        below = term.screen.buffer[top + height][left + width // 2].bg
        assert below != term.screen.buffer[top][left].bg, term.text()
        sizes.append((height, width))
        term.press("q")
        assert term.wait_exit() == 0
    (small_h, small_w), (big_h, big_w) = sizes
    assert small_w >= 5 and small_h >= 3, sizes  # several cells each way, even at 80x24
    assert big_w > small_w and big_h > small_h, sizes


def test_the_header_names_the_goal_in_use(terminal: Start) -> None:
    term = terminal("2048", "--size", "3", "--seed", "1")
    term.wait_for("goal 1,024")  # a 3x3 board's own goal, not 2048
    term.press("q")
    assert term.wait_exit() == 0
    term = terminal("2048", "--goal", "4096", "--seed", "1")
    term.wait_for("goal 4,096")


def test_a_goal_the_board_cannot_reach_is_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "termgames", "2048", "--size", "3", "--goal", "65536"],
        env=base_environment(tmp_path), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "65,536 cannot be made on a 3x3 board" in lines[0], done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_lost_game_stays_in_view_and_undo_takes_the_last_move_back(
    driver: str, tmp_path: Path
) -> None:
    with program(driver, ["2048", "--size", "3", "--seed", "3"], tmp_path) as run:
        model = Game2048(3, 1024, random.Random(3))
        wait_for_game(run, model)
        keys = moves_until(model, lambda game: game.over)
        run.press(*keys)
        run.wait_for("Game over")
        final = model.grid
        # The whole final board is readable beside the panel, not hidden under it.
        run.wait_until(lambda: board_beside_panel(run) == final, f"final board {final} in view")
        run.press("u")
        run.wait_for_gone("Game over")
        before = Game2048(3, 1024, random.Random(3))
        for key in keys[:-1]:
            before.slide(DIRECTION_OF[key])
        wait_for_game(run, before)
