"""Randomized Prim mazes, as the teaching program builds them.

The map is a grid of odd width and height, all wall at first; maze cell (x, y) lives
at map square (2x+1, 2y+1). Start from a random cell with a list of cells to check:
pick a random cell from the list; if it has an unvisited neighbour, carve the wall
between them and add the neighbour to the list, otherwise drop the cell. The entrance
is on the left border at the first row whose square in column 1 is open; the exit is
on the right border at the last row whose square in the next-to-last column is open.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

MAX_CELLS = 500
WALL, OPEN = 1, 0

Square = tuple[int, int]
"""(row, column) on the map."""


class MazeSizeError(ValueError):
    """A maze size outside 1..500 cells a side."""


@dataclass(frozen=True)
class Maze:
    """A generated maze: the map (1 = wall) with its entrance and exit squares."""

    cells_wide: int
    cells_high: int
    grid: bytes
    entrance: Square
    exit: Square

    @property
    def width(self) -> int:
        """Map squares across (2 * cells + 1)."""
        return 2 * self.cells_wide + 1

    @property
    def height(self) -> int:
        """Map squares down."""
        return 2 * self.cells_high + 1

    @property
    def variant(self) -> str:
        """Its scoreboard variant: the size in cells ('19x10')."""
        return f"{self.cells_wide}x{self.cells_high}"

    @property
    def key(self) -> str:
        """Its mark in the player's records: its map, so the same seed finds it again."""
        import hashlib  # only once a maze is played

        return "helped:" + hashlib.sha256(self.grid).hexdigest()[:32]

    def is_open(self, square: Square) -> bool:
        """Whether ``square`` is on the map and not a wall."""
        row, column = square
        return (0 <= row < self.height and 0 <= column < self.width
                and self.grid[row * self.width + column] == OPEN)


def generate(cells_wide: int, cells_high: int, rng: random.Random) -> Maze:
    """A perfect maze of ``cells_wide`` x ``cells_high`` cells, the same for the same RNG."""
    builder = Builder(cells_wide, cells_high, rng)
    builder.advance()
    return builder.maze()


class Builder:
    """Randomized Prim in steps, so a big maze can be built between keys; ``advance``
    to the end gives exactly the maze ``generate`` gives for the same RNG."""

    def __init__(self, cells_wide: int, cells_high: int, rng: random.Random) -> None:
        if not (1 <= cells_wide <= MAX_CELLS and 1 <= cells_high <= MAX_CELLS):
            raise MazeSizeError(f"a maze is 1 to {MAX_CELLS} cells a side, not "
                                f"{cells_wide}x{cells_high}")
        self.cells_wide, self.cells_high, self.rng = cells_wide, cells_high, rng
        self.width = 2 * cells_wide + 1
        self.size = self.width * (2 * cells_high + 1)
        self.grid = bytearray([WALL]) * self.size
        # Work in map squares: a cell's neighbours are 2 squares away, and a cell square
        # is open exactly when the cell has been visited.
        y, x = divmod(rng.randrange(cells_wide * cells_high), cells_wide)
        start = (2 * y + 1) * self.width + 2 * x + 1
        self.grid[start] = OPEN
        self.to_check = [start]
        self.cells_done = 1

    @property
    def done(self) -> bool:
        """Every cell has been reached."""
        return not self.to_check

    @property
    def progress(self) -> float:
        """The share of cells reached, 0 to 1."""
        return self.cells_done / (self.cells_wide * self.cells_high)

    def advance(self, steps: int = -1) -> bool:
        """Work through up to ``steps`` picks (-1: to the end); True once done."""
        grid, to_check, width, size = self.grid, self.to_check, self.width, self.size
        draw = self.rng.random  # int(draw() * n) picks like randrange(n), far cheaper
        up, last_column = 2 * width, width - 2
        while to_check and steps != 0:
            steps -= 1
            index = int(draw() * len(to_check))
            square = to_check[index]
            column = square % width
            options = []
            if column > 1 and grid[square - 2]:
                options.append(square - 2)
            if column < last_column and grid[square + 2]:
                options.append(square + 2)
            if square > up and grid[square - up]:
                options.append(square - up)
            if square + up < size and grid[square + up]:
                options.append(square + up)
            if options:
                neighbour = options[int(draw() * len(options))] if len(options) > 1 else (
                    options[0])
                grid[neighbour] = OPEN
                grid[(square + neighbour) // 2] = OPEN  # the wall between them
                to_check.append(neighbour)
                self.cells_done += 1
            else:
                to_check[index] = to_check[-1]  # drop it: order does not matter
                to_check.pop()
        return not to_check

    def maze(self) -> Maze:
        """The finished maze, with its entrance and exit opened."""
        if not self.done:
            raise RuntimeError("the maze is not built yet")
        grid, width = bytearray(self.grid), self.width
        height = 2 * self.cells_high + 1
        entry_row = next(r for r in range(height) if grid[r * width + 1] == OPEN)
        exit_row = next(r for r in range(height - 1, -1, -1)
                        if grid[r * width + width - 2] == OPEN)
        grid[entry_row * width] = OPEN
        grid[exit_row * width + width - 1] = OPEN
        return Maze(self.cells_wide, self.cells_high, bytes(grid), (entry_row, 0),
                    (exit_row, width - 1))
