"""Look and feel (issue 13) through the real program on a pty, read through pyte: Sokoban's
squares grow with the window and its goals stand out in 256 and in 8 colours; 2048's equal
neighbours stay apart, and in 8 colours tiles that share a colour differ in bold or
reverse; the maze solver's animation takes about the same time whatever the maze, and a
key skips it; and --no-mouse leaves the mouse to the terminal in every game."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from termgames.g2048.board import Direction, Game2048, move
from termgames.g2048.view import minimum_size
from termgames.runtime.runner import window_for
from tests.harness.boards import ROOM, level_file
from tests.harness.screens import (
    KEYS,
    TILE,
    moves_until,
    reversi_square_middle,
    sokoban_geometry,
    wait_for_game,
)
from tests.harness.terminal import Start, Terminal

# Sokoban: squares that grow ------------------------------------------------------------

def walled(width: int, height: int, player: tuple[int, int],
           boxes: list[tuple[int, int]], goals: list[tuple[int, int]]) -> str:
    """A level of ``width`` x ``height`` squares, all wall round the edge."""
    rows = [["#" if r in (0, height - 1) or c in (0, width - 1) else " "
             for c in range(width)] for r in range(height)]
    rows[player[0]][player[1]] = "@"
    for r, c in boxes:
        rows[r][c] = "$"
    for r, c in goals:
        rows[r][c] = "."
    return "".join("".join(row) + "\n" for row in rows)


BIG = walled(30, 16, (1, 1), [(3, 3), (5, 8), (10, 20)], [(3, 26), (12, 5), (14, 27)])
"""Thirty squares by sixteen: at 80x24 only the compact squares fit."""


def squares(term: Terminal, rows: int, cols: int) -> tuple[int, int] | None:
    """(height, width) in cells of one square of a walled ``rows`` x ``cols`` level, or
    None while no whole level is on the screen."""
    try:
        return sokoban_geometry(term, rows, cols)[2:]
    except (AssertionError, StopIteration, ValueError):
        return None


def wait_for_squares(term: Terminal, rows: int, cols: int, shape: tuple[int, int]) -> None:
    term.wait_until(lambda: squares(term, rows, cols) == shape,
                    f"squares {shape[1]} cells wide and {shape[0]} high (now "
                    f"{squares(term, rows, cols)})")


def test_sokoban_squares_grow_with_the_window(terminal: Start, tmp_path: Path) -> None:
    big = terminal("sokoban", level_file(tmp_path, BIG, "big.txt"))
    big.wait_for("moves 0")
    wait_for_squares(big, 16, 30, (1, 2))  # a big level at 80x24: two cells by one
    for (rows, cols), shape in (((44, 130), (2, 4)), ((60, 200), (3, 6)), ((24, 80), (1, 2))):
        big.resize(rows, cols)
        wait_for_squares(big, 16, 30, shape)  # grown with the window, and shrunk again
    small = terminal("sokoban", level_file(tmp_path, ROOM), rows=60, cols=200)
    small.wait_for("moves 0")
    wait_for_squares(small, 5, 7, (4, 8))  # a small level at 200x60: beyond four by two


# Sokoban: goals that stand out ---------------------------------------------------------

@pytest.mark.parametrize("term_type", ["xterm-256color", "xterm"])
def test_sokoban_goals_stand_out_in_a_big_level(terminal: Start, tmp_path: Path,
                                                term_type: str) -> None:
    term = terminal("sokoban", level_file(tmp_path, BIG, "big.txt"), term=term_type)
    term.wait_for("moves 0")
    wait_for_squares(term, 16, 30, (1, 2))
    top, left, _, _ = sokoban_geometry(term, 16, 30)
    buffer = term.screen.buffer
    floor = buffer[top + 2][left + 2 * 2]
    assert (floor.data, floor.fg, floor.bg, floor.bold) == (" ", "default", "default", False)
    for r, c in ((3, 26), (12, 5), (14, 27)):
        for x in (left + 2 * c, left + 2 * c + 1):
            cell = buffer[top + r][x]
            looks = f"goal {(r, c)} at {(top + r, x)}: {cell}\n{term.text()}"
            assert cell.data == "·", looks  # a mark, not an empty square
            assert cell.fg != "default", looks  # in a colour of its own
            assert cell.bg != "default" or cell.bold, looks  # on a ground, or bold
            if term_type == "xterm":  # eight colours: named colours, not xterm-256's
                assert not re.fullmatch(r"[0-9a-f]{6}", cell.fg), looks


# 2048: gaps between equal neighbours ---------------------------------------------------

def labels(term: Terminal, size: int) -> dict[tuple[int, int], tuple[int, int]]:
    """The screen cell (y, x) where each tile's label starts, by (row, column)."""
    found: dict[tuple[int, int], tuple[int, int]] = {}
    rows = [(y, list(re.finditer(r"\S+", line))) for y, line in enumerate(term.lines())]
    rows = [(y, tokens) for y, tokens in rows
            if len(tokens) == size and all(TILE.match(t.group()) for t in tokens)]
    assert len(rows) == size, term.text()
    for r, (y, tokens) in enumerate(rows):
        for c, token in enumerate(tokens):
            found[r, c] = (y, token.start())
    return found


def run_end(term: Terminal, y: int, x: int, dy: int, dx: int) -> tuple[int, int]:
    """The last cell from (y, x) going (dy, dx) with the background of (y, x)."""
    buffer, background = term.screen.buffer, term.screen.buffer[y][x].bg
    while (0 <= y + dy < term.screen.lines and 0 <= x + dx < term.screen.columns
           and buffer[y + dy][x + dx].bg == background):
        y, x = y + dy, x + dx
    return y, x


def assert_apart(term: Terminal, first: tuple[int, int], second: tuple[int, int]) -> None:
    """Between the labels at ``first`` and ``second`` (beside or below it) runs a line of
    cells, the tile's whole height or width, that are not the tile's colour."""
    (y, x), (y2, x2) = first, second
    assert term.screen.buffer[y][x].bg != "default", term.text()
    if y2 == y:  # side by side: no row of the tile runs on into its neighbour
        top, bottom = run_end(term, y, x, -1, 0)[0], run_end(term, y, x, 1, 0)[0]
        for row in range(top, bottom + 1):
            assert run_end(term, row, x, 0, 1)[1] < x2, f"row {row}:\n{term.text()}"
    else:  # one above the other: no column runs on into the one below
        left, right = run_end(term, y, x, 0, -1)[1], run_end(term, y, x, 0, 1)[1]
        for column in range(left, right + 1):
            assert run_end(term, y, column, 1, 0)[0] < y2, f"column {column}:\n{term.text()}"


@pytest.mark.parametrize("window", [window_for(minimum_size(4)), (24, 80), (60, 200)],
                         ids=["minimum", "80x24", "200x60"])
def test_2048_equal_neighbours_are_apart_both_ways(terminal: Start,
                                                   window: tuple[int, int]) -> None:
    model = Game2048(4, 2048, random.Random(18))
    keys = moves_until(model, lambda game: game.moves == 1)
    # Seed 18 after one slide up: 2 2 in the top row, and a 2 under the second of them.
    assert model.grid[0][:2] == (2, 2) and model.grid[1][1] == 2, model.grid
    term = terminal("2048", "--seed", "18", rows=window[0], cols=window[1])
    term.wait_for("Score: 0")
    term.press(*keys)
    wait_for_game(term, model)
    at = labels(term, 4)
    assert_apart(term, at[0, 0], at[0, 1])
    assert_apart(term, at[0, 1], at[1, 1])


# 2048: eight colours -------------------------------------------------------------------

def corner_moves(game: Game2048, done: Callable[[Game2048], bool]) -> list[str]:
    """Keys of the corner strategy (down, else left, else right, else up) until ``done``."""
    keys = []
    while not done(game):
        assert not game.over, game.grid
        direction = next(d for d in (Direction.DOWN, Direction.LEFT, Direction.RIGHT,
                                     Direction.UP) if move(game.grid, d).changed)
        game.slide(direction)
        keys.append(KEYS[direction][0])
    return keys


def test_2048_in_eight_colours_no_two_tiles_look_alike_and_empty_cells_show(
        terminal: Start) -> None:
    model = Game2048(4, 2048, random.Random(25))
    keys = corner_moves(model, lambda game: {8, 256} <= {v for row in game.grid for v in row})
    term = terminal("2048", "--seed", "25", term="xterm")  # xterm: eight colours
    term.wait_for("Score: 0")
    term.press(*keys)
    wait_for_game(term, model)
    looks: dict[int, set[tuple[str, str, str]]] = {}
    for (r, c), (y, x) in labels(term, 4).items():
        # (the number's colour, its ground, the tile's colour a row above the number)
        number, ground = term.screen.buffer[y][x], term.screen.buffer[y - 1][x]
        assert not re.fullmatch(r"[0-9a-f]{6}", number.bg), number  # a named colour
        looks.setdefault(model.grid[r][c], set()).add((number.fg, number.bg, ground.bg))
    assert all(len(seen) == 1 for seen in looks.values()), looks
    look = {value: next(iter(seen)) for value, seen in looks.items()}
    # Eight colours cannot give every tile its own: from 128 on they come round again as
    # rings, the number in the tile's colour on black (8 and 256 shared yellow before).
    assert len(set(look.values())) == len(look), look
    assert look[256][1] == "black" and look[256][0] == look[256][2] != "black", look
    assert look[8][1] == look[8][2] != "black", look
    assert look[0][2] not in ("black", "default"), look  # empty cells show on black


# Maze: the solver's animation ----------------------------------------------------------

def seconds_until_the_path(term: Terminal, *keys: str) -> float:
    """From pressing ``keys`` to the shortest path being shown."""
    term.wait_for("steps 0")
    started = time.monotonic()
    term.press(*keys)
    term.wait_for("Shortest path from here:")
    return time.monotonic() - started


@pytest.mark.parametrize("size", ["3x2", "150x100"])
def test_the_solver_animation_takes_a_second_or_two_and_a_key_skips_it(
        terminal: Start, size: str) -> None:
    watched = seconds_until_the_path(terminal("maze", "--size", size, "--seed", "3"), ".")
    skipped = seconds_until_the_path(terminal("maze", "--size", size, "--seed", "3"),
                                     ".", "z")  # z is bound to nothing
    assert 1.0 <= watched <= 5.0, watched  # about as long for six squares as for 15,000
    assert skipped <= watched - 0.75, (skipped, watched)  # the key cut it short


# The mouse switch, in every game -------------------------------------------------------

MOUSE_MODES = {9, 1000, 1001, 1002, 1003, 1005, 1006, 1015}
"""xterm's private modes for mouse reports (X10, normal, highlight, button, any, UTF-8,
SGR, urxvt)."""


def mouse_modes(received: bytes, turned: str) -> set[int]:
    """The mouse modes the program turned on ('h') or off ('l') in what it sent."""
    modes = set()
    for found in re.finditer(rb"\x1b\[\?([\d;]+)" + turned.encode(), received):
        modes |= {int(mode) for mode in found.group(1).split(b";") if mode}
    return modes & MOUSE_MODES


def game_started(term: Terminal) -> bool:
    return any(sign in term.text() for sign in ("Score: 0", "vs corner-best", "steps 0",
                                                "moves 0"))


def click_in_launcher(term: Terminal, mouse: bool) -> None:
    term.wait_for("no level solved yet")  # the whole menu, bests and all
    lines = term.lines()
    y = next(y for y, line in enumerate(lines) if line.strip().startswith("Reversi"))
    term.click(y, lines[y].index("Reversi"))
    if mouse:
        term.wait_for("vs corner-best")
        term.press("q")
    else:
        term.press("?")
        term.wait_for("termgames: keys")  # the menu's help: still in the menu
        assert not game_started(term), term.text()
        term.press("esc")
    term.wait_for("push every box onto a goal")
    term.press("q")


def click_in_sokoban(term: Terminal, mouse: bool) -> None:
    term.wait_for("moves 0")
    term.wait_for("q quit")  # the footer: the whole frame is in
    top, left, height, width = sokoban_geometry(term, 5, 7)
    term.click(top + 3 * height + height // 2, left + 2 * width + 1)  # two down, one right
    if mouse:
        term.wait_for("moves 3   pushes 0")
    else:
        term.press("right")
        term.wait_for("moves 1   pushes 0")  # only the key moved: a walk would make 4
    term.press("q")


def click_in_reversi(term: Terminal, mouse: bool) -> None:
    term.wait_for("You move first.")
    term.click(*reversi_square_middle(term, 3, 5))
    if mouse:
        term.wait_for("You played 53")
    else:
        term.press("t")
        term.wait_for("t hints (on)")
        # Nor are the report's digits typed as keys (see the test after these).
        assert "You played " not in term.text(), term.text()
    term.press("q")


def click_in_maze(term: Terminal, mouse: bool) -> None:
    term.wait_for("steps 0")
    term.wait_for("@@")  # the map, drawn after the header
    y, x = next((y, line.index("@@")) for y, line in enumerate(term.lines()) if "@@" in line)
    term.click(y, x + 2 * 11 + 1)  # eleven squares along the corridor
    if mouse:
        term.wait_for("steps 11")
    else:
        term.press("d")
        term.wait_for("steps 1 ")  # only the key walked
    term.press("q")


GAMES: dict[str, tuple[tuple[str, ...], Callable[[Terminal, bool], None]]] = {
    "launcher": ((), click_in_launcher),
    "sokoban": (("sokoban", "ROOM"), click_in_sokoban),
    "reversi": (("reversi", "--level", "1", "--seed", "1"), click_in_reversi),
    "maze": (("maze", "--size", "6x4", "--seed", "3"), click_in_maze),
}
"""(2048's mouse switch is test_lists_and_mouse's.)"""


@pytest.mark.parametrize("mouse", [True, False], ids=["mouse", "no-mouse"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_mouse_leaves_the_mouse_to_the_terminal_in_every_game(
        terminal: Start, tmp_path: Path, game: str, mouse: bool) -> None:
    arguments, click = GAMES[game]
    arguments = tuple(level_file(tmp_path, ROOM) if a == "ROOM" else a for a in arguments)
    term = terminal(*arguments, *(() if mouse else ("--no-mouse",)))
    click(term, mouse)  # a click acts with the mouse, and does nothing without it
    assert term.wait_exit() == 0
    received = bytes(term.received)
    if mouse:
        assert {1000, 1006} <= mouse_modes(received, "h")
        assert {1000, 1006} <= mouse_modes(received, "l")  # the terminal's own mouse back
    else:
        assert mouse_modes(received, "h") == set() == mouse_modes(received, "l")


def test_with_no_mouse_a_mouse_report_that_arrives_anyway_is_not_typed(
        terminal: Start) -> None:
    """A terminal left reporting the mouse (by a program killed before it could turn
    reports off) still sends them: with --no-mouse they should be dropped, not typed."""
    term = terminal("--no-mouse")
    term.wait_for("no level solved yet")
    term.click(2, 2)  # "ESC [ < 0 ; 3 ; 3 M": its 3s, typed, would choose row 3, Reversi
    term.press("enter")  # the row chosen before the click: the first, 2048
    term.wait_until(lambda: game_started(term), "a game to start")
    assert "Score: 0" in term.text(), term.text()
