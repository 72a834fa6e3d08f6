"""A result panel takes room from the board only when it must, by one policy for every
game (``layout.panel_room``, through ``Screen.board_room``): the board stays where it
was (centred) if the panel fits beside or below it; else it keeps its size, moved up or
slid left just as far as the panel needs; and only otherwise gives up as little as it
can (issue 13: panels never hide the final position, and a board is not left stranded
at one edge of a big screen)."""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

import pytest

from termgames.g2048 import view as g2048_view
from termgames.maze import view as maze_view
from termgames.maze.generate import generate
from termgames.reversi import view as reversi_view
from termgames.reversi.screen import ReversiScreen
from termgames.runtime.layout import (
    NARROWEST_PANEL,
    PANEL_ROOM,
    PANEL_ROWS,
    BoardIn,
    Rect,
    panel_room,
)
from termgames.sokoban.format.levels import Level
from termgames.sokoban.view import level_size
from tests.harness.drivers import fake_program

SMALL = Level(("########", "#@ $  .#", "#      #", "########"))
WINDOWS = {"80x24": (23, 80), "120x30": (29, 120), "200x60": (59, 200)}
"""Game areas (the window less the footer)."""


def games(rows: int, cols: int) -> dict[str, tuple[Rect, BoardIn]]:
    """Each game's board area in a game area of ``rows`` x ``cols`` and its board's size."""
    import random

    maze = generate(*(max((cols // 2 - 1) // 2, 1), max((rows - 2) // 2, 1)),
                    random.Random(1))
    return {
        "2048": (g2048_view.under_header(rows, cols), g2048_view.board_in(4)),
        "reversi": (Rect(1, 0, rows - 4, cols), reversi_view.board_in),
        "sokoban": (Rect(2, 0, rows - 2, cols), lambda room: level_size(SMALL, room)),
        "maze": (Rect(1, 0, rows - 1, cols), lambda room: maze_view.map_size(maze, room)),
    }


def placed(area: Rect, size: tuple[int, int]) -> Rect:
    """A board of ``size`` centred in ``area``, as every game places it."""
    height, width = size
    return Rect(area.top + max((area.height - height) // 2, 0),
                area.left + max((area.width - width) // 2, 0), height, width)


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("game", ["2048", "reversi", "sokoban", "maze"])
def test_every_game_keeps_its_board_clear_of_the_panel(game: str, window: str) -> None:
    """Beside or below the board as the policy places it, there is room for a panel, and
    the board is never smaller than the policy's bigger of top and left parts gives."""
    area, board_in = games(*WINDOWS[window])[game]
    room = panel_room(area, board_in)
    board = placed(room, board_in(room))
    beside = area.right - board.right >= NARROWEST_PANEL
    below = area.bottom - board.bottom >= PANEL_ROWS
    assert beside or below, (game, window, room, board)
    if room == area:
        return
    if board_in(room) != board_in(area):  # it shrank: only where it had to
        assert area.width - board_in(area)[1] < NARROWEST_PANEL + 4 or (
            area.height - board_in(area)[0] < PANEL_ROWS)


def test_a_2048_board_with_room_for_the_panel_stays_centred() -> None:
    area = g2048_view.under_header(59, 200)
    assert panel_room(area, g2048_view.board_in(4)) == area


def test_a_2048_board_keeps_its_tiles_and_moves_left_only_as_far_as_the_panel_needs(
        ) -> None:
    area = g2048_view.under_header(23, 100)
    playing = g2048_view.layout(4, area)
    over = g2048_view.layout(4, panel_room(area, g2048_view.board_in(4)))
    assert over.cells == playing.cells and over.board.left < playing.board.left
    assert 100 - over.board.right >= PANEL_ROOM or over.board.left <= 2


def test_a_reversi_board_on_a_big_screen_is_not_stranded_at_one_edge() -> None:
    area = Rect(1, 0, 55, 200)
    assert panel_room(area, reversi_view.board_in) == area


def test_a_board_that_leaves_room_below_is_untouched() -> None:
    area = Rect(2, 0, 40, 80)
    assert panel_room(area, lambda room: (10, 70)) == area


def test_with_no_room_the_board_keeps_the_bigger_of_top_and_left() -> None:
    area = Rect(2, 0, 22, 80)
    # A wide board loses less by giving up rows than columns: the panel goes below.
    assert panel_room(area, lambda room: (room.height, room.width)) == Rect(
        2, 0, 22 - PANEL_ROWS, 80)
    # One whose size does not change either way keeps the whole width too.
    assert panel_room(area, lambda room: (22, 70)).width == 80


def test_a_solved_sokoban_level_stays_centred_above_its_panel() -> None:
    area = Rect(2, 0, 22, 80)
    room = panel_room(area, lambda room: level_size(SMALL, room))
    assert room.width == area.width  # centred across the screen, not pushed left
    height, width = level_size(SMALL, room)
    assert area.height - height >= PANEL_ROWS and width > len(SMALL.rows[0]) * 2


def end_of_a_lost_reversi_game(rows: int, cols: int) -> list[str]:
    """The report's B4: at the end, the computer has the last word, and its line is long."""
    with TemporaryDirectory() as home, fake_program(
            ["reversi", "--seed", "1", "--first", "computer"], Path(home), rows, cols) as run:
        screen = run.runner.stack[0]
        assert isinstance(screen, ReversiScreen)
        while not screen.match.over:  # the player's highest legal square, each turn
            run.wait_until(lambda: screen.match.over or not screen.turns.busy, "a turn")
            legal = screen.match.legal()
            if legal and not screen.match.over:
                square = legal.bit_length() - 1
                run.press(str(square % 8 + 1), str(square // 8 + 1))
        run.wait_for("r new game")
        return run.text().splitlines()


@pytest.mark.parametrize("window", WINDOWS)
def test_the_reversi_result_panel_cuts_no_line_of_the_report(window: str) -> None:
    """The panel went below the board, onto the report's row, leaving 'You played 6┌──┐have
    no move.'; it keeps clear of the report, and the report is whole."""
    rows, cols = WINDOWS[window]
    lines = end_of_a_lost_reversi_game(rows + 1, cols)
    report = [line for line in lines if "You played" in line or "turning 1." in line]
    assert report, "\n".join(lines)
    assert not any(glyph in line for line in report for glyph in "┌│└┐┘"), "\n".join(lines)
    said = " ".join(" ".join(report).split())
    assert said.endswith("Computer played 13, turning 1."), "\n".join(lines)
