"""A result panel takes room from the board only when it must: the board stays where it
was (centred) if the panel fits beside or below it, and otherwise gives up as little as
it can (issue 13: panels never hide the final position, and a board is not left stranded
at one edge of a big screen)."""

from __future__ import annotations

from termgames.g2048.view import layout
from termgames.runtime.layout import PANEL_ROOM, PANEL_ROWS, Rect, room_for_panel
from termgames.sokoban.levels import Level
from termgames.sokoban.view import level_size, room_beside

SMALL = Level(("########", "#@ $  .#", "#      #", "########"))


def test_a_2048_board_with_room_for_the_panel_stays_centred() -> None:
    playing, over = layout(4, 60, 200), layout(4, 60, 200, leave_room=True)
    assert over.board == playing.board
    assert 200 - over.board.right >= PANEL_ROOM


def test_a_2048_board_moves_left_only_as_far_as_the_panel_needs() -> None:
    playing, over = layout(4, 24, 100), layout(4, 24, 100, leave_room=True)
    assert over.board.left < playing.board.left
    assert 100 - over.board.right >= PANEL_ROOM or over.board.left <= 2


def test_a_board_that_leaves_room_below_is_untouched() -> None:
    area = Rect(2, 0, 40, 80)
    assert room_for_panel(area, lambda room: (10, 70), 20) == area


def test_with_no_room_the_board_keeps_the_bigger_of_top_and_left() -> None:
    area = Rect(2, 0, 22, 80)
    # A wide board loses less by giving up rows than columns: the panel goes below.
    assert room_for_panel(area, lambda room: (room.height, room.width), 20) == Rect(
        2, 0, 22 - PANEL_ROWS, 80)
    # One whose size does not change either way keeps the whole width too.
    assert room_for_panel(area, lambda room: (22, 70), 20).width == 80


def test_a_solved_sokoban_level_stays_centred_above_its_panel() -> None:
    area = Rect(2, 0, 22, 80)
    room = room_beside(SMALL, area)
    assert room.width == area.width  # centred across the screen, not pushed left
    height, width = level_size(SMALL, room)
    assert area.height - height >= PANEL_ROWS and width > len(SMALL.rows[0]) * 2
