"""A grid of squares in a window: centred when it fits, scrolled in jumps around a point
of focus when it does not, with a mark at each edge beyond which it goes on. Sokoban and
Maze both draw their boards through it."""

from __future__ import annotations

from dataclasses import dataclass

from termgames.runtime.draw import DIM, Canvas

MARK_ROWS = 1
MARK_COLUMNS = 2
"""The room an edge mark takes: a row above or below the grid, two columns beside it."""


@dataclass
class Scroller:
    """Which slice of a long row (or column) is in view, following a point of focus.

    It moves in jumps, re-centring only when the focus comes within a quarter of the
    room of an edge: scrolling by one cell per step would repaint the whole screen
    on every step, which over SSH is the slowest thing a game can do.
    """

    offset: int = 0

    def follow(self, size: int, room: int, focus: int) -> int:
        """The first index to show of ``size`` in ``room`` cells, keeping ``focus`` in view."""
        if size <= room:
            self.offset = 0
            return 0
        margin = room // 4
        if not self.offset + margin <= focus < self.offset + room - margin:
            self.offset = focus - room // 2
        self.offset = min(max(self.offset, 0), size - room)
        return self.offset


@dataclass(frozen=True)
class Viewport:
    """The part of the grid on screen: squares ``top``..``top+rows`` down and
    ``left``..``left+cols`` across, the first drawn at cell (``y``, ``x``)."""

    top: int
    left: int
    rows: int
    cols: int
    y: int
    x: int
    cell_width: int
    cell_height: int

    def cell_of(self, row: int, col: int) -> tuple[int, int]:
        """The screen cell (y, x) where grid square (row, col) starts."""
        return (self.y + (row - self.top) * self.cell_height,
                self.x + (col - self.left) * self.cell_width)

    def square_at(self, y: int, x: int) -> tuple[int, int] | None:
        """The grid square (row, col) drawn at screen cell (y, x), if any: for clicks."""
        dy, dx = y - self.y, x - self.x
        if dy < 0 or dx < 0:
            return None
        row, col = dy // self.cell_height, dx // self.cell_width
        if row >= self.rows or col >= self.cols:
            return None
        return self.top + row, self.left + col

    @property
    def more_above(self) -> bool:
        """Squares lie above the view."""
        return self.top > 0

    def more_below(self, height: int) -> bool:
        """Squares lie below the view."""
        return self.top + self.rows < height

    @property
    def more_left(self) -> bool:
        """Squares lie left of the view."""
        return self.left > 0

    def more_right(self, width: int) -> bool:
        """Squares lie right of the view."""
        return self.left + self.cols < width


class GridView:
    """Keeps a grid's scroll position between frames."""

    def __init__(self) -> None:
        self.rows = Scroller()
        self.cols = Scroller()

    def place(self, height: int, width: int, area: tuple[int, int, int, int],
              focus: tuple[int, int], cell: tuple[int, int] = (1, 2),
              marks: bool = False) -> Viewport:
        """Where a ``height`` x ``width`` grid of ``cell`` (rows, cols) cells goes in
        ``area`` (top, left, rows, cols), keeping square ``focus`` in view. With
        ``marks``, a way the grid does not fit keeps room at both ends for
        draw_edge_marks (both, so the grid does not shift as it scrolls); a way it fits
        is all the grid's. Without, the caller keeps that room itself."""
        area_top, area_left, area_rows, area_cols = area
        cell_height, cell_width = cell
        if marks and height * cell_height > area_rows:
            area_top, area_rows = area_top + MARK_ROWS, area_rows - 2 * MARK_ROWS
        if marks and width * cell_width > area_cols:
            area_left, area_cols = area_left + MARK_COLUMNS, area_cols - 2 * MARK_COLUMNS
        fit_rows = max(area_rows // cell_height, 1)
        fit_cols = max(area_cols // cell_width, 1)
        top = self.rows.follow(height, fit_rows, focus[0])
        left = self.cols.follow(width, fit_cols, focus[1])
        shown_rows, shown_cols = min(height, fit_rows), min(width, fit_cols)
        y = area_top + max((area_rows - shown_rows * cell_height) // 2, 0)
        x = area_left + max((area_cols - shown_cols * cell_width) // 2, 0)
        return Viewport(top, left, shown_rows, shown_cols, y, x, cell_width, cell_height)


def draw_edge_marks(canvas: Canvas, view: Viewport, height: int, width: int) -> None:
    """A mark just outside each side of ``view`` beyond which the ``height`` x ``width``
    grid goes on: "more" above and below, an arrow at either side."""
    glyphs = canvas.glyphs
    shown_height, shown_width = view.rows * view.cell_height, view.cols * view.cell_width
    middle_y, middle_x = view.y + shown_height // 2, view.x + shown_width // 2
    if view.more_above:
        canvas.text(view.y - MARK_ROWS, middle_x - 3, glyphs.pick("▲ more", "^ more"), DIM)
    if view.more_below(height):
        canvas.text(view.y + shown_height, middle_x - 3, glyphs.pick("▼ more", "v more"), DIM)
    if view.more_left:
        canvas.text(middle_y, view.x - MARK_COLUMNS, glyphs.pick("◀", "<"), DIM)
    if view.more_right(width):
        canvas.text(middle_y, view.x + shown_width + 1, glyphs.pick("▶", ">"), DIM)
