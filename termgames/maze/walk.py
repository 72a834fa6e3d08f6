"""A walk through a maze: where the walker stands, the trail back to the entrance, every
square walked, the shortest path shown to them, whether the solver has helped, and its
time, from the first step to the exit. Pure: no terminal; the clock is injected."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from termgames.direction import Direction
from termgames.maze.generate import Maze, Square
from termgames.maze.guide import Guide
from termgames.outcome import Mark, Outcome, Result


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
    clock: Callable[[], float] = time.monotonic
    """Seconds from any start: the walk is timed on it."""
    started: float | None = None
    """When the first step was taken; None before it."""
    finished: float | None = None
    """When the exit was reached; None before it."""
    trail: list[str] = field(default_factory=list)
    """Every step taken, as its LURD letter: with the maze, the whole walk."""
    stepped_ms: int = 0
    """The time when the last step was taken: the clock as a saved walk keeps it."""

    def __post_init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """Back to the entrance with no trail and no path shown; help once given stays
        given."""
        self.position = self.maze.entrance
        self.route = [self.position]
        self.visited = {self.position}
        self.steps = 0
        self.trail = []
        self.stepped_ms = 0
        self.guide = None
        self.reset_clock()

    def reset_clock(self) -> None:
        """The time back to zero, waiting for a first step."""
        self.started = self.finished = None

    @property
    def out(self) -> bool:
        """The walker has reached the exit."""
        return self.position == self.maze.exit

    @property
    def timing(self) -> bool:
        """The clock runs: the first step is taken and the exit not reached."""
        return self.started is not None and self.finished is None

    def elapsed(self) -> float:
        """Seconds from the first step to the exit (or to now, on the way)."""
        if self.started is None:
            return 0.0
        end = self.finished if self.finished is not None else self.clock()
        return end - self.started

    def elapsed_ms(self) -> int:
        """The time, in whole milliseconds, as results record it."""
        return int(self.elapsed() * 1000)

    def step(self, d_row: int, d_col: int) -> bool:
        """One step if the square is open and the walk is not over; whether it moved. The
        first step starts the clock, and the step onto the exit stops it."""
        target = (self.position[0] + d_row, self.position[1] + d_col)
        if self.out or not self.maze.is_open(target):
            return False
        if self.started is None:
            self.started = self.clock()
        self.steps += 1
        if len(self.route) > 1 and self.route[-2] == target:
            self.route.pop()
        else:
            self.route.append(target)
        self.visited.add(target)
        self.position = target
        self.trail.append(Direction((d_row, d_col)).letter)
        if self.guide is not None:
            self.guide.follow(target)
        if self.out:
            self.finished = self.clock()
        self.stepped_ms = self.elapsed_ms()
        return True

    def resume_clock(self, elapsed_ms: int) -> None:
        """The clock as a saved walk left it: running on from ``elapsed_ms``."""
        self.started = self.clock() - elapsed_ms / 1000
        self.stepped_ms = elapsed_ms

    def outcome(self) -> Outcome | None:
        """Out of the maze: the time, marked if the solver helped; None before that."""
        if not self.out:
            return None
        marks = frozenset({Mark.HELPED}) if self.helped else frozenset()
        return Outcome(Result.WON, self.elapsed_ms(), self.maze.variant, marks)

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
