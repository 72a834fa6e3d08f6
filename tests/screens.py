"""Reading games off the emulated screen by what a player sees (labels), not by fixed offsets,
so tests hold whatever size the board is drawn at."""

from __future__ import annotations

import itertools

import pyte

from termgames.maze.generate import Maze, Square
from tests.terminal import Terminal


def reversi_square(term: Terminal, square: int) -> tuple[int, int] | None:
    """(y, x) of the cell showing ``square``'s disc: under its column label, on the line
    that its row label marks; None if no whole board is on screen."""
    lines = term.screen.display
    columns: list[int] | None = None
    header = -1
    for y, line in enumerate(lines):
        tokens = line.split()
        if tokens == [str(n) for n in range(1, 9)]:
            columns = [line.index(str(n)) for n in range(1, 9)]
            header = y
            break
    if columns is None:
        return None
    row, column = divmod(square, 8)
    for y in range(header + 1, len(lines)):
        tokens = lines[y].split()
        if len(tokens) >= 2 and tokens[0] == str(row + 1):  # the row's number on its left
            return y, columns[column]
    return None


def cell(term: Terminal, y: int, x: int) -> pyte.screens.Char:
    """The character and its attributes at (y, x)."""
    return term.screen.buffer[y][x]


def reversi_cell(term: Terminal, square: int) -> pyte.screens.Char:
    """The character (with its colours) that shows ``square``'s disc."""
    found = reversi_square(term, square)
    assert found is not None, f"no board on screen:\n{term.text()}"
    return cell(term, *found)


def parse_square(name: str) -> int:
    """'53' (column 5, row 3, as the game types it) to a square number."""
    return (int(name[1]) - 1) * 8 + int(name[0]) - 1


def maze_keys(path: list[tuple[int, int]]) -> list[str]:
    """The arrow keys that walk ``path``, square by square."""
    names = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
    return [names[(b[0] - a[0], b[1] - a[1])] for a, b in itertools.pairwise(path)]


def panel_text(lines: list[str]) -> str | None:
    """The words inside the framed panel on screen (its border a plain run of horizontal
    lines between two corners, unlike a board's ruled lines), as one line; None if none."""
    corners, across = "┌+", "─-"
    for y, line in enumerate(lines):
        for x0, char in enumerate(line):
            if char not in corners:
                continue
            x1 = x0 + 1
            while x1 < len(line) and line[x1] in across:
                x1 += 1
            if x1 - x0 < 10 or x1 >= len(line) or line[x1] not in "┐+":
                continue
            inside = []
            for below in lines[y + 1:]:
                if len(below) <= x1 or below[x0] in "└+":
                    break
                inside.append(below[x0 + 1:x1])
            return " ".join(" ".join(inside).split())
    return None


def fork(maze: Maze, path: list[Square]) -> tuple[int, Square]:
    """The first place on ``path`` (past its start) with an open square beside it that is
    not on the path, and that square."""
    on_path = set(path)
    for place, (row, column) in enumerate(path[1:-1], start=1):
        for beside in ((row - 1, column), (row + 1, column), (row, column - 1),
                       (row, column + 1)):
            if maze.is_open(beside) and beside not in on_path:
                return place, beside
    raise AssertionError("a path with no fork")
