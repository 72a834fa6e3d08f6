"""A* (Manhattan heuristic) over the open squares of a maze, runnable in steps to animate."""

from __future__ import annotations

import heapq
from itertools import count as counter

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
        self._order = counter()
        self.heap = [(self._estimate(self.start), 0, next(self._order), self.start)]
        self.explored: list[int] = []  # in the order they were closed, for animation
        self.done = False
        self.found = False

    def _estimate(self, square: int) -> int:
        row, column = divmod(square, self.width)
        goal_row, goal_column = divmod(self.goal, self.width)
        return abs(row - goal_row) + abs(column - goal_column)

    def advance(self, expansions: int = -1) -> bool:
        """Close up to ``expansions`` squares (-1: until the end); True once finished."""
        grid, width, cost, parent, closed = (self.maze.grid, self.width, self.cost,
                                             self.parent, self.closed)
        heap, goal, size = self.heap, self.goal, len(grid)
        goal_row, goal_column = divmod(goal, width)
        while expansions != 0 and heap and not self.done:
            _, _, _, square = heapq.heappop(heap)
            if closed[square]:
                continue
            closed[square] = 1
            self.explored.append(square)
            expansions -= 1
            if square == goal:
                self.done = self.found = True
                break
            step = cost[square] + 1
            column = square % width
            for neighbour in (square - width, square + width,
                              square - 1 if column else -1,
                              square + 1 if column < width - 1 else -1):
                if (0 <= neighbour < size and grid[neighbour] == OPEN
                        and not closed[neighbour]
                        and (cost[neighbour] < 0 or step < cost[neighbour])):
                    cost[neighbour] = step
                    parent[neighbour] = square
                    row, col = divmod(neighbour, width)
                    guess = abs(row - goal_row) + abs(col - goal_column)
                    # Ties go to the square nearer the goal, which keeps the frontier lean.
                    heapq.heappush(heap, (step + guess, guess, next(self._order), neighbour))
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


def shortest_path(maze: Maze, start: Square, goal: Square | None = None) -> list[Square]:
    """The optimal path from ``start`` to ``goal`` (default: the exit); NoPath if none."""
    return AStar(maze, start, goal).path()
