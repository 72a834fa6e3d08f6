"""How a maze looks: walls, the walker, the trail and dead ends, the solver's search and
the shortest path, drawn for the part of the map in view."""

from __future__ import annotations

from termgames.maze.generate import Maze, Square
from termgames.maze.solve import AStar
from termgames.maze.walk import Walk
from termgames.runtime.draw import Canvas, Colour, Emphasis, Style
from termgames.runtime.grid import GridView

WALL = Style(fg=67, fg8=Colour.BLUE)
# No bold in colour on the squares a step changes: switching bold costs a full reset.
TRAIL = Style(fg=214, fg8=Colour.YELLOW, mono=Emphasis.BOLD)
LEFT_BEHIND = Style(fg=241, fg8=Colour.WHITE, mono=Emphasis.DIM)
PLAYER = Style(fg=51, fg8=Colour.CYAN, mono=Emphasis.REVERSE)
FRONTIER = Style(fg=41, fg8=Colour.GREEN, emphasis=Emphasis.BOLD)
EXPLORED = Style(fg=25, fg8=Colour.BLUE)
PATH = Style(fg=201, fg8=Colour.MAGENTA, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
EXIT = Style(fg=46, fg8=Colour.GREEN, emphasis=Emphasis.BOLD)


def draw_map(canvas: Canvas, grid: GridView, top: int, maze: Maze, walk: Walk,
             path: list[Square], solver: AStar | None) -> None:
    """Only the visible part of the map, below row ``top``, scrolled to keep the walker
    in sight."""
    view = grid.place(maze.height, maze.width, (top, 0, canvas.height - top, canvas.width),
                      walk.position, cell=(1, 1))
    wall = canvas.glyphs.pick("█", "#")
    on_route, on_path, width = set(walk.route), set(path), maze.width
    for row in range(view.top, view.top + view.rows):
        y, x0 = view.cell(row, view.left)
        line = maze.grid[row * width + view.left: row * width + view.left + view.cols]
        # Walls first, as runs, so a row costs few writes.
        start = None
        for offset, value in enumerate([*line, 0]):
            if value and start is None:
                start = offset
            elif not value and start is not None:
                canvas.text(y, x0 + start, wall * (offset - start), WALL)
                start = None
        for offset, value in enumerate(line):
            if not value:
                look = square_look((row, view.left + offset), maze, walk, on_route, on_path,
                                   solver)
                if look is not None:
                    canvas.text(y, x0 + offset, look[0], look[1])


def square_look(square: Square, maze: Maze, walk: Walk, on_route: set[Square],
                on_path: set[Square], solver: AStar | None) -> tuple[str, Style] | None:
    """The glyph for an open square, or None for plain floor."""
    if square == walk.position:
        return "@", PLAYER
    if square == maze.exit:  # the way out stays marked, whatever covers it
        return ">", PATH if square in on_path else EXIT
    if square in on_path:
        return "*", PATH
    if solver is not None:
        index = square[0] * maze.width + square[1]
        if solver.closed[index]:
            return ":", EXPLORED
        if solver.cost[index] >= 0:
            return "+", FRONTIER
    if square in on_route:
        return ".", TRAIL
    if square in walk.visited:
        return "x", LEFT_BEHIND
    return None
