"""How a maze looks: walls, the walker, the trail and dead ends, the solver's search and
the shortest path, drawn for the part of the map in view with marks at the edges beyond
which it goes on; and the header's words."""

from __future__ import annotations

from collections.abc import Container

from termgames.maze.generate import Maze, Square
from termgames.maze.solve import SearchPlayback, Seen
from termgames.maze.walk import Walk
from termgames.runtime.draw import Canvas, Colour, Emphasis, Style
from termgames.runtime.grid import GridView, Viewport, draw_edge_marks
from termgames.runtime.layout import Rect
from termgames.scoreboard import minutes_seconds
from termgames.text import plural

WALL = Style(fg=67, fg8=Colour.BLUE)
# No bold in colour on the squares a step changes: switching bold costs a full reset.
TRAIL = Style(fg=130, fg8=Colour.YELLOW, mono=Emphasis.BOLD)
LEFT_BEHIND = Style(fg=241, fg8=Colour.WHITE, mono=Emphasis.DIM)
PLAYER = Style(fg=16, bg=51, fg8=Colour.BLACK, bg8=Colour.CYAN, mono=Emphasis.REVERSE)
FRONTIER = Style(fg=29, fg8=Colour.GREEN, emphasis=Emphasis.BOLD)
EXPLORED = Style(fg=25, fg8=Colour.BLUE)
PATH = Style(fg=201, fg8=Colour.MAGENTA, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
EXIT = Style(fg=16, bg=46, fg8=Colour.BLACK, bg8=Colour.GREEN, mono=Emphasis.REVERSE,
              emphasis=Emphasis.BOLD)


SQUARE_WIDTH = 2
"""Screen columns a map square takes: terminal cells are about twice as tall as wide, so
two make a square and the maze is not tall and narrow."""


def map_area(view: Viewport) -> Rect:
    """The cells the squares of a drawn map cover."""
    return Rect(view.y, view.x, view.rows, view.cols * SQUARE_WIDTH)


def map_size(maze: Maze, room: Rect) -> tuple[int, int]:
    """How big (height, width) the map is drawn in ``room``: all of it, or as much as
    fits (the rest scrolls)."""
    return min(maze.height, room.height), min(maze.width * SQUARE_WIDTH, room.width)


def draw_map(canvas: Canvas, grid: GridView, area: Rect, maze: Maze, walk: Walk,
             replay: SearchPlayback | None) -> Viewport:
    """Only the visible part of the map, centred in ``area``, scrolled to keep the walker
    in sight, marked where more lies beyond; where it went, for clicks."""
    view = grid.place(maze.height, maze.width, (area.top, area.left, area.height, area.width),
                      walk.position, cell=(1, SQUARE_WIDTH), marks=True)
    wall = canvas.glyphs.pick("█", "#") * SQUARE_WIDTH
    unicode = canvas.glyphs.unicode
    on_route, width = set(walk.route), maze.width
    on_path: Container[Square] = walk.guide if walk.guide is not None else ()
    for row in range(view.top, view.top + view.rows):
        y, x0 = view.cell_of(row, view.left)
        line = maze.grid[row * width + view.left: row * width + view.left + view.cols]
        # Walls first, as runs, so a row costs few writes.
        start = None
        for offset, value in enumerate([*line, 0]):
            if value and start is None:
                start = offset
            elif not value and start is not None:
                canvas.text(y, x0 + start * SQUARE_WIDTH, wall * (offset - start), WALL)
                start = None
        for offset, value in enumerate(line):
            if not value:
                look = square_look((row, view.left + offset), maze, walk, on_route, on_path,
                                   replay)
                if look is not None:
                    glyph = look[0] if unicode else ASCII.get(look[0], look[0])
                    canvas.text(y, x0 + offset * SQUARE_WIDTH, glyph, look[1])
    draw_edge_marks(canvas, view, maze.height, maze.width)
    return view


ASCII = {"··": ".."}


def square_look(square: Square, maze: Maze, walk: Walk, on_route: set[Square],
                on_path: Container[Square], replay: SearchPlayback | None
                ) -> tuple[str, Style] | None:
    """The glyph (a square's two columns) for an open square, or None for plain floor."""
    if square == walk.position:
        return "@@", PLAYER
    if square == maze.exit:  # the way out stays marked, whatever covers it
        return ">>", PATH if square in on_path else EXIT
    if square in on_path:
        return "**", PATH
    if replay is not None:
        seen = replay.seen(square)
        if seen is Seen.EXPLORED:
            return "::", EXPLORED
        if seen is Seen.FRONTIER:
            return "++", FRONTIER
    if square in on_route:
        return "··", TRAIL
    if square in walk.visited:
        return "xx", LEFT_BEHIND
    return None


HEADER_ROWS = 1


def fit_size(rows: int, columns: int) -> tuple[int, int]:
    """The largest maze (cells wide, cells high) whose map fits a game area of ``rows`` x
    ``columns`` under the header."""
    usable_rows = rows - HEADER_ROWS
    return max((columns // SQUARE_WIDTH - 1) // 2, 1), max((usable_rows - 1) // 2, 1)


def under_header(canvas: Canvas) -> Rect:
    """The part of the game's area the map may use: all but the header."""
    return Rect(HEADER_ROWS, 0, max(canvas.height - HEADER_ROWS, 1), canvas.width)


def draw_header(canvas: Canvas, walk: Walk, best_ms: int | None, title: str = "") -> None:
    """The maze's size (or ``title``: which day's challenge), the steps and the time, and
    the best time on record. Plain text, no bold: the counters change on every step and
    switching attributes costs bytes."""
    best = minutes_seconds(best_ms) if best_ms is not None else None
    canvas.fitted(0, header_forms(title or f"Maze {walk.maze.variant}", walk.steps,
                                  minutes_seconds(walk.elapsed_ms()), best, walk.helped))


def result_lines(walk: Walk, shortest: int) -> list[str]:
    """The result panel's words: steps against the shortest, the time, and whether the
    solver helped."""
    help_note = "with the solver's help" if walk.helped else "no help used"
    return ["You made it out!", f"{plural(walk.steps, 'step')} (shortest: {shortest:,})",
            f"time {minutes_seconds(walk.elapsed_ms())}, {help_note}"]


def header_forms(title: str, steps: int, time: str, best: str | None,
                 helped: bool) -> list[str]:
    """The header's forms, longest first: narrow windows lose the best time, then the
    title, then the wide spacing; "(helped)" beside the time, which it qualifies, stays
    in every form."""
    mark = " (helped)" if helped else ""
    counters = f"steps {steps:,}   time {time}{mark}"
    best_text = f"   best {best}" if best is not None else ""
    return [f"{title}   {counters}{best_text}", f"{title}   {counters}",
            f"{counters}{best_text}", counters, f"steps {steps:,} time {time}{mark}"]
