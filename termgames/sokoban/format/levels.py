"""The standard Sokoban level format: a level, its squares and what makes it playable.

Tiles are ``#`` wall, ``@`` player, ``+`` player on goal, ``$`` box, ``*`` box on goal,
``.`` goal and space (or ``-``/``_``) floor. Reading text is ``parse``'s work
(``termgames.sokoban.format.parse``), reading files is ``termgames.sokoban.format.files``'.
"""

from __future__ import annotations

import hashlib
import string
from dataclasses import dataclass, field
from enum import Enum, unique
from functools import cached_property

from termgames.text import shown_path

STDIN = "<stdin>"
"""The source a level read from standard input names (``-`` on the command line)."""

MAX_SIDE = 1000
WALL, FLOOR, GOAL, BOX, BOX_ON_GOAL, PLAYER, PLAYER_ON_GOAL = "#", " ", ".", "$", "*", "@", "+"
TILES = frozenset("#@+$*. -_")

Position = tuple[int, int]
"""(row, column) on a level, from the top left."""


@unique
class Problem(Enum):
    """Why a file or a level cannot be played. Each value is the message's words, with
    the details of one case (``{players}``, ``{row}`` ...) to fill in; ``{boxes:box|boxes}``
    is a count and the word that agrees with it ('1 box', '2 boxes')."""

    # The file
    NO_SUCH_FILE = "no such file"
    IS_A_FOLDER = "is a folder"
    NOT_A_REGULAR_FILE = "not a regular file"
    UNREADABLE = "{reason}"
    """The system's own words for why a file or folder cannot be read."""
    TOO_LARGE_FILE = "file is larger than 32 MiB"
    NOT_UTF16 = "not valid UTF-16 text"
    BINARY = "binary data, not a level file"
    LONG_LINE = "a line of {length:,} characters: not a level file"
    # What a file or folder holds
    NO_LEVELS_IN_FILE = "no levels in this file"
    NO_LEVEL_FILES = "no level files in this folder"
    NO_LEVELS = "no levels found"
    NO_PLAYABLE_LEVEL = "{first} (no playable level; {bad:,} bad)"
    """Every level was bad: the first one's message, and how many."""
    MISSING_BUNDLED = "missing from {folder}"
    # Run-length encoding
    UNBALANCED_RLE = "unbalanced ')' in run-length encoding at column {column}"
    RLE_COUNT_ALONE = "run-length count with nothing after it"
    UNCLOSED_RLE = "unclosed '(' in run-length encoding"
    RLE_TOO_LARGE = "run-length encoding expands beyond {side}x{side}"
    # A board
    UNKNOWN_CHARACTER = "unknown character {character!r} in a board row"
    TOO_LARGE_LEVEL = "level is larger than {side}x{side}"
    NO_PLAYER = "no player"
    PLAYERS = "{players:,} players (a level has exactly one)"
    NO_GOAL = "no goal"
    UNEVEN_BOXES = "{boxes:box|boxes} for {goals:goal|goals} (need at least as many boxes)"
    NOT_CLOSED = "not closed: the player can reach the edge at row {row}, column {column}"
    # A solution file
    BAD_SOLUTION = "in a solution: {error}"
    """Moves that do not read (their run-length encoding): the problem with them."""
    SOLUTION_FOR_NO_LEVEL = ("this solution names no level (write '; level N' or "
                             "'Title: NAME' before it)")

    def text(self, **details: object) -> str:
        """The message for this problem with ``details`` filled in."""
        return _WORDS.format(self.value, **details)


class _Counted(string.Formatter):
    """Formats ``{count:one|many}`` as the count and the word that agrees with it."""

    def format_field(self, value: object, format_spec: str) -> str:
        """'1 box', '2 boxes' for a spec 'box|boxes'; else as ``format`` does."""
        if "|" in format_spec and isinstance(value, int):
            one, many = format_spec.split("|", 1)
            return f"{value:,} {one if value == 1 else many}"
        return str(super().format_field(value, format_spec))


_WORDS = _Counted()


class LevelError(ValueError):
    """A file or level that cannot be played: its ``problem`` (with the ``details`` its
    message needs), located by file, line, level and title."""

    def __init__(self, problem: Problem, source: str = "", line: int = 0, number: int = 0,
                 title: str = "", **details: object) -> None:
        self.problem, self.details = problem, details
        self.message = problem.text(**details)
        super().__init__(self.message)
        self.source, self.line = source, line
        self.number, self.title = number, title

    def at(self, source: str, line: int = 0, number: int = 0, title: str = "") -> LevelError:
        """The same problem, located at ``source``, ``line``, level ``number``, ``title``."""
        return LevelError(self.problem, source, line, number, title, **self.details)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole (to and from worker processes), reason and details included."""
        return _unpickle, (self.problem, self.source, self.line, self.number, self.title,
                           self.details)

    def __str__(self) -> str:
        where = shown_path(self.source) if self.source else "<input>"
        if self.line:
            where += f":{self.line}"
        if self.number:
            where += f": level {self.number:,}" + (f" ('{self.title}')" if self.title else "")
        return f"{where}: {self.message}"


def _unpickle(problem: Problem, source: str, line: int, number: int, title: str,
              details: dict[str, object]) -> LevelError:
    return LevelError(problem, source, line, number, title, **details)


@dataclass(frozen=True)
class Level:
    """One level: a rectangle of tiles plus what the file says about it."""

    rows: tuple[str, ...]
    title: str = ""
    author: str = ""
    number: int = 0
    source: str = ""
    line: int = 0
    solution: str = field(default="", compare=False)
    section: str = field(default="", compare=False)
    """The part of the file the level is in ('Sasquatch Set II'), where the file says."""
    name: str = field(default="", compare=False)
    """The title as players see it: qualified by its section where titles repeat."""

    @property
    def shown_name(self) -> str:
        """The name to show, or "" where it would only repeat the level's number."""
        name = self.name or self.title
        return "" if name == str(self.number) else name

    @property
    def height(self) -> int:
        """Rows in the level."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """Columns in the level."""
        return len(self.rows[0]) if self.rows else 0

    def _where(self, tiles: str) -> frozenset[Position]:
        return frozenset((r, c) for r, row in enumerate(self.rows)
                         for c, tile in enumerate(row) if tile in tiles)

    @cached_property
    def walls(self) -> frozenset[Position]:
        """Every wall square."""
        return self._where(WALL)

    @cached_property
    def goals(self) -> frozenset[Position]:
        """Every goal square (with or without a box or the player on it)."""
        return self._where(GOAL + BOX_ON_GOAL + PLAYER_ON_GOAL)

    @cached_property
    def boxes(self) -> frozenset[Position]:
        """Where the boxes start."""
        return self._where(BOX + BOX_ON_GOAL)

    @cached_property
    def player(self) -> Position:
        """Where the player starts."""
        return next(iter(self._where(PLAYER + PLAYER_ON_GOAL)))

    @cached_property
    def inside(self) -> frozenset[Position]:
        """Squares the player can ever stand on or push into: the walled-in interior."""
        return _flood(self.rows, self.player)

    @cached_property
    def key(self) -> str:
        """A hash of the board alone, so progress survives renaming or moving the file."""
        return hashlib.sha256("\n".join(self.rows).encode()).hexdigest()[:32]

    @property
    def label(self) -> str:
        """'level 12' plus its name, for messages."""
        shown = self.shown_name
        return f"level {self.number:,}" + (f" ('{shown}')" if shown else "")


@dataclass
class Collection:
    """The playable levels of one or more files, and the problems that kept others out."""

    name: str
    levels: list[Level]
    problems: list[LevelError] = field(default_factory=list)


def _reach(rows: tuple[str, ...], start: Position) -> tuple[list[int], int]:
    """Squares reachable from ``start`` through anything but walls, as flat indices."""
    width = len(rows[0])
    flat = "".join(rows)
    first = start[0] * width + start[1]
    seen = bytearray(len(flat))
    seen[first] = 1
    stack, found = [first], [first]
    size = len(flat)
    while stack:
        index = stack.pop()
        column = index % width
        for neighbour in (index - width, index + width,
                          index - 1 if column else -1, index + 1 if column < width - 1 else -1):
            if 0 <= neighbour < size and not seen[neighbour] and flat[neighbour] != WALL:
                seen[neighbour] = 1
                stack.append(neighbour)
                found.append(neighbour)
    return found, width


def _flood(rows: tuple[str, ...], start: Position) -> frozenset[Position]:
    found, width = _reach(rows, start)
    return frozenset(divmod(index, width) for index in found)


def check_board(rows: tuple[str, ...]) -> LevelError | None:
    """What makes these rows unplayable (an error to locate: ``at``), or None if they are
    a proper level."""
    board = "".join(rows)
    counts = {tile: board.count(tile) for tile in "@+$*."}
    players = counts["@"] + counts["+"]
    goals = counts["."] + counts["+"] + counts["*"]
    boxes = counts["$"] + counts["*"]
    if players == 0:
        return LevelError(Problem.NO_PLAYER)
    if players > 1:
        return LevelError(Problem.PLAYERS, players=players)
    if goals == 0:
        return LevelError(Problem.NO_GOAL)
    if boxes < goals:
        return LevelError(Problem.UNEVEN_BOXES, boxes=boxes, goals=goals)
    width = len(rows[0])
    found, width = _reach(rows, divmod(board.index("@" if counts["@"] else "+"), width))
    for index in found:
        r, c = divmod(index, width)
        if r in (0, len(rows) - 1) or c in (0, width - 1):
            return LevelError(Problem.NOT_CLOSED, row=r + 1, column=c + 1)
    return None


def format_level(level: Level) -> str:
    """The level in the standard format: its board, then Title and Author lines."""
    lines = [row.rstrip() for row in level.rows]
    if level.title:
        lines.append(f"Title: {level.title}")
    if level.author:
        lines.append(f"Author: {level.author}")
    return "\n".join(lines) + "\n"
