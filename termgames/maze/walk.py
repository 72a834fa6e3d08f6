"""A walk through a maze: where the walker stands, the trail back to the entrance, every
square walked, the shortest path shown to them, and whether the solver has helped. Pure:
no terminal, no clock."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from termgames.direction import Direction
from termgames.maze.generate import Maze, Square
from termgames.maze.guide import Guide


@dataclass
class Walk:
    """One walk from the entrance. Stepping back onto the trail takes the last square
    off it (a dead end left behind), but every square walked stays visited."""

    maze: Maze
    position: Square = (0, 0)
    route: list[Square] = field(default_factory=list)
    visited: set[Square] = field(default_factory=set)
    steps: int = 0
    helped: bool = False
    """The solver has shown the way out; it stays so, replays included."""
    guide: Guide | None = None
    """The shortest path on show, trimmed as the walker follows it."""

    def __post_init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """Back to the entrance with no trail and no path shown; help once given stays
        given."""
        self.position = self.maze.entrance
        self.route = [self.position]
        self.visited = {self.position}
        self.steps = 0
        self.guide = None

    @property
    def out(self) -> bool:
        """The walker has reached the exit."""
        return self.position == self.maze.exit

    def step(self, d_row: int, d_col: int) -> bool:
        """One step if the square is open and the walk is not over; whether it moved."""
        target = (self.position[0] + d_row, self.position[1] + d_col)
        if self.out or not self.maze.is_open(target):
            return False
        self.steps += 1
        if len(self.route) > 1 and self.route[-2] == target:
            self.route.pop()
        else:
            self.route.append(target)
        self.visited.add(target)
        self.position = target
        if self.guide is not None:
            self.guide.follow(target)
        return True

    def show_path(self, path: Sequence[Square]) -> None:
        """Show ``path`` (from where the walker stands to the exit) until they hide it:
        the walk is helped from now on."""
        self.guide = Guide(path)
        self.helped = True

    def hide_path(self) -> None:
        """No path shown."""
        self.guide = None

    def left_behind(self) -> set[Square]:
        """Squares walked that are no longer on the trail: dead ends."""
        return self.visited - set(self.route)


def toward(maze: Maze, start: Square, target: Square) -> list[Square]:
    """The squares a click on ``target`` walks through: straight there when it is in line
    and nothing is in the way; else along the corridor that heads toward it, round its
    bends, stopping at a junction, a dead end, the exit or the target. It never finds a
    way out for the player: it only saves keys along a corridor already chosen."""
    if start == target or not maze.is_open(target):
        return []
    d_row, d_col = target[0] - start[0], target[1] - start[1]
    if d_row == 0 or d_col == 0:
        direction = ((d_row > 0) - (d_row < 0), (d_col > 0) - (d_col < 0))
        line, square = [], start
        while square != target and maze.is_open(_next(square, direction)):
            square = _next(square, direction)
            line.append(square)
        if square == target:
            return line
    ranked = sorted((((d_row > 0) - (d_row < 0), 0), (0, (d_col > 0) - (d_col < 0))),
                    key=lambda step: -abs(d_row if step[0] else d_col))
    heading = next((step for step in ranked if step != (0, 0)
                    and maze.is_open(_next(start, step))), None)
    if heading is None:
        return []
    squares, square = [], start
    while True:
        square = _next(square, heading)
        squares.append(square)
        if square in (target, maze.exit):
            return squares
        ways = [way.value for way in Direction if way.value != (-heading[0], -heading[1])
                and maze.is_open(_next(square, way.value))]
        if len(ways) != 1:
            return squares
        heading = ways[0]


def _next(square: Square, step: tuple[int, int]) -> Square:
    return square[0] + step[0], square[1] + step[1]
