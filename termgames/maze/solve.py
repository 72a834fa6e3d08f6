"""A* (Manhattan heuristic) over the open squares of a maze, runnable in steps to animate."""

from __future__ import annotations

import heapq
from array import array
from enum import Enum

from termgames.maze.generate import OPEN, Maze, Square


class NoPath(ValueError):
    """The exit cannot be reached from the start."""


class AStar:
    """One search from ``start`` to the maze's exit; ``advance`` it, or ``run`` it whole."""

    def __init__(self, maze: Maze, start: Square, goal: Square | None = None) -> None:
        if not maze.is_open(start):
            raise NoPath(f"the start {start} is a wall")
        self.maze = maze
        self.width = maze.width
        goal = goal or maze.exit
        self.goal = goal[0] * self.width + goal[1]
        self.start = start[0] * self.width + start[1]
        size = maze.width * maze.height
        self.cost = [-1] * size
        self.parent = [-1] * size
        self.closed = bytearray(size)
        self.cost[self.start] = 0
        self.heap = [(self._estimate(self.start), 0, self.start)]
        self.explored: list[int] = []  # in the order they were closed, for animation
        self.done = False
        self.found = False

    def _estimate(self, square: int) -> int:
        row, column = divmod(square, self.width)
        goal_row, goal_column = divmod(self.goal, self.width)
        return abs(row - goal_row) + abs(column - goal_column)

    def advance(self, expansions: int = -1) -> bool:
        """Close up to ``expansions`` squares (-1: until the end); True once finished.

        Edges run from cell to cell: a passage square between two cells (a square with
        an even coordinate) is crossed in one edge of cost 2, which halves the work on
        a Prim map without changing any path or its length.
        """
        grid, width, cost, parent, closed = (self.maze.grid, self.width, self.cost,
                                             self.parent, self.closed)
        heap, goal, size = self.heap, self.goal, len(grid)
        goal_row, goal_column = divmod(goal, width)
        pop, push, explored = heapq.heappop, heapq.heappush, self.explored
        while expansions != 0 and heap and not self.done:
            square = pop(heap)[-1]
            if closed[square]:
                continue
            closed[square] = 1
            via = parent[square]
            if via >= 0 and not closed[via]:  # the passage crossed to get here
                closed[via] = 1
                explored.append(via)
            explored.append(square)
            expansions -= 1
            if square == goal:
                self.done = self.found = True
                break
            row, column = divmod(square, width)
            for d_row, d_column in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                next_row, next_column = row + d_row, column + d_column
                if not (0 <= next_column < width and next_row >= 0):
                    continue
                step = next_row * width + next_column
                if step >= size or grid[step] != OPEN or closed[step]:
                    continue
                target, target_row, target_column, extra = step, next_row, next_column, 1
                if step != goal and not (next_row & 1 and next_column & 1):
                    # A passage: go on through it to the square beyond.
                    beyond_row, beyond_column = next_row + d_row, next_column + d_column
                    beyond = beyond_row * width + beyond_column
                    if (0 <= beyond_column < width and 0 <= beyond < size
                            and grid[beyond] == OPEN):
                        target, target_row, target_column, extra = (
                            beyond, beyond_row, beyond_column, 2)
                if closed[target]:
                    continue
                total = cost[square] + extra
                if cost[target] < 0 or total < cost[target]:
                    cost[target] = total
                    parent[target] = step if extra == 2 else square
                    if extra == 2:
                        cost[step], parent[step] = total - 1, square
                    guess = abs(target_row - goal_row) + abs(target_column - goal_column)
                    # Ties go to the square nearer the goal, which keeps the frontier lean.
                    push(heap, (total + guess, guess, target))
        if not heap and not self.done:
            self.done = True
        return self.done

    def path(self) -> list[Square]:
        """The optimal path from start to exit, both included; NoPath if there is none."""
        self.advance()
        if not self.found:
            raise NoPath("no path: the exit cannot be reached from here")
        squares = [self.goal]
        while squares[-1] != self.start:
            squares.append(self.parent[squares[-1]])
        return [divmod(square, self.width) for square in reversed(squares)]


class Seen(Enum):
    """How a square looked at one moment of a search."""

    EXPLORED = "explored"
    FRONTIER = "frontier"


class SearchPlayback:
    """A finished search played back: how the squares looked when the first ``shown``
    had been explored, so an animation can take the same time whatever share of the
    maze the search visits."""

    def __init__(self, search: AStar) -> None:
        if not search.done:
            raise ValueError("a replay needs a finished search")
        self.search = search
        self.total = len(search.explored)
        self.shown = 0
        never = self.total + 1
        self.order = array("i", [never]) * len(search.closed)
        for position, square in enumerate(search.explored):
            self.order[square] = position

    def seen(self, square: Square) -> Seen | None:
        """Whether ``square`` was explored, on the frontier, or not yet reached."""
        index = square[0] * self.search.width + square[1]
        if self.order[index] < self.shown:
            return Seen.EXPLORED
        opener = self._opener(index)
        if opener >= 0 and self.order[opener] < self.shown:
            return Seen.FRONTIER
        return None

    def _opener(self, index: int) -> int:
        """The explored square whose expansion reached ``index`` (a passage crossed on the
        way is closed with what lies beyond it, so it cannot be the one)."""
        parent = self.search.parent[index]
        if parent < 0 or parent == self.search.start:
            return parent
        row, column = divmod(parent, self.search.width)
        if row & 1 and column & 1:
            return parent
        return self.search.parent[parent]


def shortest_path(maze: Maze, start: Square, goal: Square | None = None) -> list[Square]:
    """The optimal path from ``start`` to ``goal`` (default: the exit); NoPath if none."""
    return AStar(maze, start, goal).path()
