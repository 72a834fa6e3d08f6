"""Layout as data: the largest cells a board fits in, where a panel can go without hiding
it, and a memo so each is worked out once per window size."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")


class Rect(NamedTuple):
    """A block of screen cells."""

    top: int
    left: int
    height: int
    width: int

    @property
    def bottom(self) -> int:
        """The first row below it."""
        return self.top + self.height

    @property
    def right(self) -> int:
        """The first column right of it."""
        return self.left + self.width

    def contains(self, y: int, x: int) -> bool:
        """Whether cell (y, x) is inside."""
        return self.top <= y < self.bottom and self.left <= x < self.right


class Cells(NamedTuple):
    """How one square of a board is drawn: ``height`` x ``width`` cells, ``gap`` cells
    between squares (rows and columns), ``border`` for grid lines around them."""

    height: int
    width: int
    gap_rows: int = 0
    gap_cols: int = 0
    border: bool = False

    def span(self, count: int, size: int, gap: int) -> int:
        """Cells taken by ``count`` squares of ``size`` cells with ``gap`` between."""
        if self.border:
            return count * (size + 1) + 1
        return count * size + max(count - 1, 0) * gap

    def board(self, rows: int, cols: int) -> tuple[int, int]:
        """(height, width) in cells of a ``rows`` x ``cols`` board."""
        return (self.span(rows, self.height, self.gap_rows),
                self.span(cols, self.width, self.gap_cols))


@functools.lru_cache(maxsize=256)
def largest(shapes: tuple[Cells, ...], rows: int, cols: int, room: tuple[int, int]) -> Cells:
    """The first of ``shapes`` (largest first) whose ``rows`` x ``cols`` board fits in
    ``room`` (height, width); the last (the compact form) if none does. Remembered, so
    a screen that asks on every frame works it out once per window size."""
    for shape in shapes:
        height, width = shape.board(rows, cols)
        if height <= room[0] and width <= room[1]:
            return shape
    return shapes[-1]


def beside(board: Rect, panel: tuple[int, int], area: Rect, gap: int = 2) -> Rect | None:
    """Where a ``panel`` (height, width) fits in ``area`` without covering ``board``: to
    its right, else below it, else to its left; None if nowhere."""
    height, width = panel
    middle = board.top + max((board.height - height) // 2, 0)
    if area.right - board.right - gap >= width:
        left = board.right + gap + max((area.right - board.right - gap - width) // 2, 0)
        return Rect(min(middle, area.bottom - height), left, height, width)
    if area.bottom - board.bottom - 1 >= height:
        left = area.left + max((area.width - width) // 2, 0)
        return Rect(board.bottom + 1, left, height, width)
    if board.left - area.left - gap >= width:
        left = area.left + max((board.left - area.left - gap - width) // 2, 0)
        return Rect(min(middle, area.bottom - height), left, height, width)
    return None


class Memo(Generic[T]):
    """Remembers one layout, worked out again only when its key (the window size and
    whatever else it depends on) changes: once per resize, not once per frame."""

    def __init__(self) -> None:
        self._key: Hashable = None
        self._value: T | None = None

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The layout for ``key``."""
        if self._value is None or key != self._key:
            self._key, self._value = key, compute()
        return self._value


PANEL_ROOM = 42
"""Columns a result panel takes beside a board, with its gap: Panel's widest unwrapped
form of a short result."""


PANEL_ROWS = 8
"""Rows a short result panel takes below a board, frame included."""


def room_for_panel(area: Rect, board_in: Callable[[Rect], tuple[int, int]],
                   least_width: int) -> Rect:
    """Where a board goes when a result panel must fit too: all of ``area`` if the board
    drawn there (``board_in`` gives its height and width) leaves room for the panel beside
    or below it, so nothing shrinks or moves; else whichever keeps the board bigger, the
    top part (the panel below) or the left part (as ``leave_room`` gives it for a board
    at least ``least_width`` wide)."""
    height, width = board_in(area)
    if (area.width - width) // 2 >= PANEL_ROOM or (area.height - height) // 2 >= PANEL_ROWS:
        return area
    top = Rect(area.top, area.left, max(area.height - PANEL_ROWS, 1), area.width)
    left = leave_room(area, least_width)

    def size(room: Rect) -> int:
        rows, cols = board_in(room)
        return rows * cols
    return top if size(top) >= size(left) else left


def leave_room(area: Rect, board_width: int, panel_width: int = PANEL_ROOM) -> Rect:
    """The left part of ``area`` for a board ``board_width`` wide, leaving ``panel_width``
    columns on the right for a panel beside it; ``area`` itself where both do not fit."""
    if board_width + panel_width > area.width:
        return area
    return Rect(area.top, area.left, area.height, area.width - panel_width)
