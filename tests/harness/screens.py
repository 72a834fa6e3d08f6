"""Reading games off the emulated screen by what a player sees (labels), not by fixed offsets,
so tests hold whatever size the board is drawn at; and the keys that play them there."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pyte

from termgames.g2048.board import Direction, Game2048, Grid
from termgames.maze.generate import Maze, Square
from tests.harness.drivers import Driver, FakeDriver, PtyDriver
from tests.harness.terminal import Terminal

# Any screen ---------------------------------------------------------------------------

def cell(term: Terminal, y: int, x: int) -> pyte.screens.Char:
    """The character and its attributes at (y, x)."""
    return term.screen.buffer[y][x]


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


EDGE_OK = set(" …│|┐┘+.")
"""What a text row may end with in the last column: nothing, a mark, a panel's frame."""


def text_rows(lines: list[str]) -> list[int]:
    """The header, the footer and every row of a framed panel."""
    framed = [y for y, line in enumerate(lines)
              if line.strip()[:1] in "│|" and line.rstrip()[-1:] in "│|"]
    last = max((y for y, line in enumerate(lines) if line.strip()), default=0)
    return sorted({0, last, *framed})


def nothing_cut(run: Driver, cols: int, where: str) -> None:
    """Check the screen as it is now (and, in memory, every frame so far)."""
    if isinstance(run, FakeDriver):
        run.runner.render()
        cuts = [(cut.y, cut.text) for cut in run.session.all_cuts]
        assert not cuts, f"{where}: text cut at the edge: {cuts}\n{run.text()}"
        return
    if isinstance(run, PtyDriver):
        run.term.wait_idle()  # the frame whole: read straight after wait_for, half may be
    lines = run.text().splitlines()
    footer = max(y for y, line in enumerate(lines) if line.strip())
    for y in text_rows(lines):
        line = lines[y].ljust(cols)
        # The footer's last entry is always q's: a footer cut short would lose it.
        whole = y == footer and line.endswith(("q quit", "q back"))
        assert whole or line[cols - 1] in EDGE_OK, (
            f"{where}: row {y} runs off the edge:\n{run.text()}")


# 2048 ---------------------------------------------------------------------------------

KEYS = {
    Direction.UP: ["up", "k", "w"],
    Direction.DOWN: ["down", "j", "s"],
    Direction.LEFT: ["left", "h", "a"],
    Direction.RIGHT: ["right", "l", "d"],
}
"""Every key bound to each direction, the arrow first."""


TILE = re.compile(r"^(?:\d+|·|\.)$")
"""A token of the board on screen: a tile's value or an empty cell's dot."""


def screen_grid(term: Driver | Terminal, size: int) -> Grid | None:
    """The tile values the screen shows, row by row, or None if no whole board is visible."""
    rows = []
    for line in term.lines():
        tokens = line.split()
        if len(tokens) == size and all(TILE.match(token) for token in tokens):
            rows.append(tuple(int(t) if t.isdigit() else 0 for t in tokens))
    return tuple(rows) if len(rows) == size else None


def score_shown(term: Driver | Terminal) -> int | None:
    """The score the header shows, or None if none is shown."""
    found = re.search(r"Score: ([\d,]+)", term.text())
    return int(found.group(1).replace(",", "")) if found else None


def wait_for_game(term: Driver | Terminal, game: Game2048) -> None:
    """Wait until the screen shows exactly the model game's grid and score."""
    term.wait_until(
        lambda: screen_grid(term, game.size) == game.grid and score_shown(term) == game.score,
        f"grid {game.grid} with score {game.score}",
    )


def moves_until(game: Game2048, done: Callable[[Game2048], bool]) -> list[str]:
    """Keys that cycle through the directions (and their bindings) until ``done``."""
    keys: list[str] = []
    bindings = {d: itertools.cycle(names) for d, names in KEYS.items()}
    for direction in itertools.cycle(list(Direction)):
        if done(game):
            return keys
        game.slide(direction)  # a move that changes nothing is sent too: it must do nothing
        keys.append(next(bindings[direction]))
    return keys


# Reversi ------------------------------------------------------------------------------

def parse_square(name: str) -> int:
    """'53' (column 5, row 3, as the game types it) to a square number."""
    return (int(name[1]) - 1) * 8 + int(name[0]) - 1


def reversi_square(term: Terminal, square: int) -> tuple[int, int] | None:
    """(y, x) of the cell showing ``square``'s disc: under its column label, on the line
    that its row label marks; None if no whole board is on screen."""
    return reversi_squares(term.screen.display).get(square)


def reversi_squares(lines: list[str]) -> dict[int, tuple[int, int]]:
    """``reversi_square`` for every square of the board on screen ``lines`` (rendered
    once: a whole board read square by square rendered the screen 64 times)."""
    columns: list[int] | None = None
    header = -1
    for y, line in enumerate(lines):
        tokens = line.split()
        if tokens == [str(n) for n in range(1, 9)]:
            columns = [line.index(str(n)) for n in range(1, 9)]
            header = y
            break
    if columns is None:
        return {}
    found: dict[int, tuple[int, int]] = {}
    for row in range(8):
        for y in range(header + 1, len(lines)):
            tokens = lines[y].split()
            if len(tokens) >= 2 and tokens[0] == str(row + 1):  # the row's number on its left
                found.update({row * 8 + column: (y, x) for column, x in enumerate(columns)})
                break
    return found


def reversi_cell(term: Terminal, square: int) -> pyte.screens.Char:
    """The character (with its colours) that shows ``square``'s disc."""
    found = reversi_square(term, square)
    assert found is not None, f"no board on screen:\n{term.text()}"
    return cell(term, *found)


def reversi_square_middle(term: Terminal, row: int, column: int) -> tuple[int, int]:
    """The screen cell (y, x) at the middle of board square (row, column), both 1-8, read
    off the coordinates drawn beside the board."""
    lines = term.lines()
    heading = next(y for y, line in enumerate(lines) if re.fullmatch(r"\s*1\s+2\s+3.*8", line))
    x = lines[heading].index(str(column))
    y = next(y for y, line in enumerate(lines)
             if y > heading and re.match(rf"\s*{row} [│|]", line))
    height = 1
    while not re.match(r"\s*[├└+]", lines[y + height]) and lines[y + height].strip():
        height += 1
    return y + (height - 1) // 2, x


# Sokoban ------------------------------------------------------------------------------

def sokoban_geometry(term: Terminal, rows: int, cols: int) -> tuple[int, int, int, int]:
    """(top, left, cell height, cell width) of a level whose outer squares are all wall,
    read off the screen once the whole frame is there (the footer is drawn last): its
    top row of wall and its left column of wall."""
    term.wait_until(lambda: "q quit" in term.lines()[-1], "the whole first frame")
    lines = term.lines()
    top = next(y for y, line in enumerate(lines) if y > 1 and "█" in line)
    left = lines[top].index("█")
    width = len(lines[top]) - left
    height = 0
    while top + height < len(lines) and lines[top + height][left:left + 1] == "█":
        height += 1
    assert width % cols == 0 and height % rows == 0, term.text()
    return top, left, height // rows, width // cols


# Maze ---------------------------------------------------------------------------------

def maze_keys(path: list[tuple[int, int]]) -> list[str]:
    """The arrow keys that walk ``path``, square by square."""
    names = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
    return [names[(b[0] - a[0], b[1] - a[1])] for a, b in itertools.pairwise(path)]


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


def tiles_shown(text: str) -> list[str]:
    """The rows of tiles a 2048 screen's text shows (no header, panel or footer)."""
    return [line.strip() for line in text.splitlines()
            if re.fullmatch(r"\s*([·\d]+\s+){3}[·\d]+\s*", line)]
