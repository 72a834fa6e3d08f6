"""Reading games off the emulated screen by what a player sees (labels), not by fixed offsets,
so tests hold whatever size the board is drawn at."""

from __future__ import annotations

import itertools

import pyte

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
        if len(tokens) >= 2 and tokens[0] == tokens[-1] == str(row + 1):
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
