"""What a maze dumps at exit for the key-storm tests, and what must hold of it."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any, TypedDict, cast

from termgames.maze.generate import Square
from termgames.maze.walk import Walk


class MazeState(TypedDict):
    """The map, every square walked, the trail, the walker and the path on show."""

    width: int
    grid: str
    visited: list[Square]
    route: list[Square]
    player: Square
    path: list[Square]


def dump(walk: Walk) -> MazeState:
    """The state of ``walk`` and its maze."""
    maze = walk.maze
    return MazeState(width=maze.width, grid=maze.grid.decode("latin-1"),
                     visited=sorted(walk.visited), route=list(walk.route),
                     player=walk.position,
                     path=[] if walk.guide is None else walk.guide.shown)


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped maze state: every square walked must be open, the
    trail must be made of squares walked, and a path on show must be a line of open
    squares starting where the walker stood."""
    state = cast(MazeState, dumped)
    grid, width = state["grid"], state["width"]
    visited = {tuple(square) for square in state["visited"]}
    problems = [f"walked into a wall at {square}" for square in sorted(visited)
                if grid[square[0] * width + square[1]] != "\x00"]
    if not {tuple(square) for square in state["route"]} <= visited:
        problems.append("the trail holds a square never walked")
    path = [tuple(square) for square in state.get("path", [])]
    if any(grid[row * width + column] != "\x00" for row, column in path):
        problems.append("the path shown runs through a wall")
    if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in pairwise(path)):
        problems.append("the path shown has a gap")
    if path and path[0] not in visited:
        problems.append(f"the path shown starts at {path[0]}, where the walker never stood")
    return problems
