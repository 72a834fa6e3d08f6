"""What a maze dumps at exit for the key-storm tests, and what must hold of it."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any, NamedTuple

from termgames.maze.generate import Square
from termgames.maze.walk import Walk


class MazeState(NamedTuple):
    """The map, every square walked, the trail, the walker and the path on show."""

    width: int
    grid: str
    visited: list[Square]
    route: list[Square]
    player: Square
    path: list[Square]

    @classmethod
    def from_dump(cls, dumped: Mapping[str, Any]) -> MazeState:
        """The state from the plain data a game dumped (a path shown may be missing)."""
        def squares(key: str) -> list[Square]:
            return [(square[0], square[1]) for square in dumped.get(key, [])]

        player = dumped["player"]
        return cls(dumped["width"], dumped["grid"], squares("visited"), squares("route"),
                   (player[0], player[1]), squares("path"))

    def violations(self) -> list[str]:
        """What is wrong: every square walked must be open, the trail must be made of
        squares walked, and a path on show must be a line of open squares starting where
        the walker stood."""
        grid, width = self.grid, self.width
        visited = set(self.visited)
        problems = [f"walked into a wall at {square}" for square in sorted(visited)
                    if grid[square[0] * width + square[1]] != "\x00"]
        if not set(self.route) <= visited:
            problems.append("the trail holds a square never walked")
        path = self.path
        if any(grid[row * width + column] != "\x00" for row, column in path):
            problems.append("the path shown runs through a wall")
        if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in pairwise(path)):
            problems.append("the path shown has a gap")
        if path and path[0] not in visited:
            problems.append(f"the path shown starts at {path[0]}, where the walker never "
                            "stood")
        return problems


def dump(walk: Walk) -> MazeState:
    """The state of ``walk`` and its maze."""
    maze = walk.maze
    return MazeState(maze.width, maze.grid.decode("latin-1"), sorted(walk.visited),
                     list(walk.route), walk.position,
                     [] if walk.guide is None else list(walk.guide.shown))


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped maze state (see ``MazeState.violations``)."""
    return MazeState.from_dump(dumped).violations()
