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


def beside(board: Rect, panel: tuple[int, int], area: Rect, gap: int = 2,
           report_rows: int = 0) -> Rect | None:
    """Where a ``panel`` (height, width) fits in ``area`` without covering ``board``, nor
    the ``report_rows`` under it that run the window's width (Reversi's account of the
    last moves): to its right, else below it all, else to its left; None if nowhere."""
    height, width = panel
    middle = board.top + max((board.height - height) // 2, 0)
    lowest = board.bottom if report_rows else area.bottom
    side_top = min(middle, lowest - height)
    if area.right - board.right - gap >= width and side_top >= area.top:
        left = board.right + gap + max((area.right - board.right - gap - width) // 2, 0)
        return Rect(side_top, left, height, width)
    under = board.bottom + report_rows
    if area.bottom - under - 1 >= height:
        left = area.left + max((area.width - width) // 2, 0)
        return Rect(under + 1, left, height, width)
    if board.left - area.left - gap >= width and side_top >= area.top:
        left = area.left + max((board.left - area.left - gap - width) // 2, 0)
        return Rect(side_top, left, height, width)
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
NARROWEST_PANEL = 28
"""Columns the narrowest result panel takes beside a board, with its gap (26 + 2)."""
PANEL_ROWS = 8
"""Rows a short result panel takes below a board, frame included."""
EDGE = 2
"""Columns a board slid aside for a panel keeps from the window's edge."""

BoardIn = Callable[[Rect], tuple[int, int]]
"""How big (height, width) a game's board is drawn in a given room."""


def panel_room(area: Rect, board_in: BoardIn, panel_width: int = NARROWEST_PANEL) -> Rect:
    """The one policy for where a board goes while a result panel is up: all of ``area``
    if the board drawn there (``board_in`` gives its height and width) leaves room for the
    panel beside or below it, so nothing shrinks or moves; else, keeping the board's size,
    the top part (the panel below) or a part slid left just as far as the panel needs
    (``panel_width`` columns beside it, gap included: its lines unwrapped); else
    whichever keeps the board bigger, the top part or the left part."""
    full = board_in(area)
    height, width = full
    if (area.width - width) // 2 >= PANEL_ROOM or (area.height - height) // 2 >= PANEL_ROWS:
        return area
    top = Rect(area.top, area.left, max(area.height - PANEL_ROWS, 1), area.width)
    if board_in(top) == full and top.height >= height:
        return top
    centred = (area.width - width) // 2
    moved = max(min(centred, area.width - width - PANEL_ROOM), min(centred, EDGE))
    slid = Rect(area.top, area.left, area.height, 2 * moved + width)
    if area.width - (moved + width) >= panel_width and board_in(slid) == full:
        return slid
    left = Rect(area.top, area.left, area.height, max(area.width - PANEL_ROOM, 1))

    def size(room: Rect) -> int:
        rows, cols = board_in(room)
        return rows * cols
    return top if size(top) >= size(left) else left
