"""The standard Sokoban level format, as real files write it: parse, check and write back.

Tiles are ``#`` wall, ``@`` player, ``+`` player on goal, ``$`` box, ``*`` box on goal,
``.`` goal and space (or ``-``/``_``) floor. Rows may be run-length encoded (``3#4-@``,
groups ``2(#-)``, ``|`` between rows). Titles come from ``Title:`` lines, from a bare
line above the board (``'Duh!'``) or from a ``;`` comment above it (``; 44``).
"""

from __future__ import annotations

import hashlib
import re
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum, auto
from functools import cached_property
from pathlib import Path

from termgames.text import sanitize, shown_path

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_SIDE = 1000
_EXPANSION_BUDGET = MAX_SIDE * (MAX_SIDE + 1)  # every cell of the largest level, plus '|'s

WALL, FLOOR, GOAL, BOX, BOX_ON_GOAL, PLAYER, PLAYER_ON_GOAL = "#", " ", ".", "$", "*", "@", "+"
TILES = frozenset("#@+$*. -_")
_RLE = TILES | frozenset("0123456789()|")
_SOLID = frozenset("#@+$*.")
_META = re.compile(r"^\s*(title|author|comment|collection|solution|date|email|url)\s*:\s?(.*)$",
                   re.IGNORECASE)

_RLE_MARK = re.compile(r"[0-9()|]")
_MOVES = re.compile(r"^[\sLURDlurd0-9()]+$")

Position = tuple[int, int]
"""(row, column) on a level, from the top left."""


class LevelError(ValueError):
    """A file or level that cannot be played, located by file, line, level and title."""

    def __init__(
        self, message: str, source: str = "", line: int = 0, number: int = 0, title: str = ""
    ) -> None:
        super().__init__(message)
        self.message, self.source, self.line = message, source, line
        self.number, self.title = number, title

    def __str__(self) -> str:
        where = shown_path(self.source) if self.source else "<input>"
        if self.line:
            where += f":{self.line}"
        if self.number:
            where += f": level {self.number}" + (f" ('{self.title}')" if self.title else "")
        return f"{where}: {self.message}"


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
        """'level 12' plus its title, for messages."""
        return f"level {self.number}" + (f" ('{self.title}')" if self.title else "")


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


# Reading files -------------------------------------------------------------------------

def decode(data: bytes, source: str) -> str:
    """Bytes to text: BOMs honoured, UTF-8 first, Latin-1 as the fallback; binary refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise LevelError("not valid UTF-16 text", source) from error
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    sample = data[:65536]
    controls = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 12, 13))
    if b"\x00" in data or controls > len(sample) * 3 // 10:
        raise LevelError("binary data, not a level file", source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_file(path: str) -> str:
    """The text of a level file (``-`` is stdin), refusing what is not a small text file."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        source = "<stdin>"
    else:
        source = path
        try:
            info = Path(path).stat()
            if not stat.S_ISREG(info.st_mode):
                raise LevelError("not a regular file", source)
            if info.st_size > MAX_FILE_BYTES:
                raise LevelError("file is larger than 32 MiB", source)
            with open(path, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError as error:
            raise LevelError("no such file", source) from error
        except IsADirectoryError as error:
            raise LevelError("is a folder", source) from error
        except OSError as error:
            raise LevelError(error.strerror or str(error), source) from error
    if len(data) > MAX_FILE_BYTES:
        raise LevelError("file is larger than 32 MiB", source)
    return decode(data, source)


# Run-length encoding ------------------------------------------------------------------

def expand_rle(text: str, source: str = "", line: int = 0) -> list[str]:
    """Expand counts and groups; ``|`` separates rows. Sizes are checked before expanding."""
    if not _RLE_MARK.search(text):
        return [text]
    expanded, end = _expand(text, 0, source, line)
    if end != len(text):
        raise LevelError(f"unbalanced ')' in run-length encoding at column {end + 1}",
                         source, line)
    return expanded.split("|")


def _expand(text: str, index: int, source: str, line: int) -> tuple[str, int]:
    parts: list[str] = []
    size = 0
    while index < len(text) and text[index] != ")":
        count = 1
        if text[index].isdigit():
            start = index
            while index < len(text) and text[index].isdigit():
                index += 1
            count = int(text[start:index]) if index - start < 9 else _EXPANSION_BUDGET + 1
            if index == len(text):
                raise LevelError("run-length count with nothing after it", source, line)
        if text[index] == "(":
            unit, index = _expand(text, index + 1, source, line)
            if index >= len(text):
                raise LevelError("unclosed '(' in run-length encoding", source, line)
            index += 1
        else:
            unit = text[index]
            index += 1
        size += len(unit) * count
        if size > _EXPANSION_BUDGET:
            raise LevelError(f"run-length encoding expands beyond {MAX_SIDE}x{MAX_SIDE}",
                             source, line)
        parts.append(unit * count)
    return "".join(parts), index


# Parsing -------------------------------------------------------------------------------

class _Kind(Enum):
    BLANK = auto()
    BOARD = auto()
    BAD_BOARD = auto()
    COMMENT = auto()
    META = auto()
    TEXT = auto()


def _classify(line: str) -> _Kind:
    stripped = line.strip()
    if not stripped:
        return _Kind.BLANK
    if stripped.startswith(";"):
        return _Kind.COMMENT
    chars = set(stripped)
    if chars <= _RLE and not chars.isdisjoint(TILES):
        return _Kind.BOARD
    if _META.match(line):
        return _Kind.META
    if stripped.startswith("#"):
        tiles = sum(1 for char in stripped if char in _RLE)
        if tiles * 10 >= len(stripped) * 7:
            return _Kind.BAD_BOARD
    return _Kind.TEXT


@dataclass
class _Block:
    rows: list[tuple[int, str]]  # (line number, raw text)
    preamble: list[list[tuple[_Kind, str, int]]]  # paragraphs before the board, with lines
    meta: dict[str, str] = field(default_factory=dict)


def _lines(text: str, source: str) -> Iterator[tuple[int, str, _Kind]]:
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):
        if len(line) > _EXPANSION_BUDGET:  # longer than any level written out in full
            raise LevelError(f"a line of {len(line):,} characters: not a level file",
                             source, number)
        kind = _classify(line)
        if kind is not _Kind.COMMENT and ";" in line:
            head = line[: line.index(";")]  # a board row may carry a comment after it
            if _classify(head) in (_Kind.BOARD, _Kind.BAD_BOARD):
                line, kind = head, _classify(head)
        yield number, line, kind


def _blocks(text: str, source: str) -> Iterator[_Block]:
    """Boards with what surrounds them; a board is handed on once its trailing lines
    (metadata up to the next blank line) have been read."""
    paragraphs: list[list[tuple[_Kind, str, int]]] = [[]]
    current: _Block | None = None
    finished: _Block | None = None  # the board whose trailing lines are being read
    pending_meta: dict[str, str] = {}
    for number, line, kind in _lines(text, source):
        if kind is _Kind.BOARD or (kind is _Kind.BAD_BOARD and current is not None):
            if finished is not None:
                yield finished
                finished = None
            if current is None:
                current = _Block([], paragraphs, pending_meta)
                last = paragraphs[-1]
                if last and last[-1][0] is _Kind.BAD_BOARD and last[-1][2] == number - 1:
                    current.rows.append((number - 1, last.pop()[1]))  # a bad first row
                paragraphs, pending_meta = [[]], {}
            current.rows.append((number, line))
            continue
        if current is not None:
            finished, current = current, None
        if kind is _Kind.BLANK:
            if finished is not None:
                yield finished
                finished = None
            if paragraphs[-1]:
                paragraphs.append([])
        elif kind is _Kind.META:
            found = _META.match(line)
            if found is not None:
                key, value = found.group(1).lower(), found.group(2).strip()
                (finished.meta if finished else pending_meta).setdefault(key, value)
        elif finished is not None and "solution" in finished.meta and _MOVES.match(line):
            finished.meta["solution"] += line.strip()  # a solution wrapped over lines
        elif finished is None:
            paragraphs[-1].append((kind, line.strip(), number))
    if current is not None:
        yield current
    if finished is not None:
        yield finished


def _title_from(block: _Block) -> str:
    if "title" in block.meta:
        return block.meta["title"]
    last = next((p for p in reversed(block.preamble) if p), [])
    bare = [text for kind, text, _ in last if kind in (_Kind.TEXT, _Kind.BAD_BOARD)]
    if bare:
        text = bare[-1]
        return text[1:-1].strip() if len(text) > 1 and text[0] == text[-1] == "'" else text
    comments = [text.lstrip(";").strip() for kind, text, _ in last if kind is _Kind.COMMENT]
    return next((text for text in reversed(comments) if text), "")


def _board(block: _Block, number: int, source: str, title: str) -> tuple[str, ...]:
    rows: list[str] = []
    for line_number, raw in block.rows:
        raw = raw.rstrip()
        unknown = set(raw) - _RLE
        if unknown:
            bad = next(char for char in raw if char in unknown)
            raise LevelError(f"unknown character {bad!r} in a board row", source,
                             line_number, number, title)
        try:
            expanded = expand_rle(raw, source, line_number)
        except LevelError as error:
            raise LevelError(error.message, source, line_number, number, title) from None
        for row in expanded:
            if "-" in row or "_" in row:
                row = row.replace("-", " ").replace("_", " ").rstrip()
            if len(row) > MAX_SIDE or len(rows) >= MAX_SIDE:
                raise LevelError(f"level is larger than {MAX_SIDE}x{MAX_SIDE}", source,
                                 line_number, number, title)
            rows.append(row)
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    width = max((len(row) for row in rows), default=0)
    return tuple(row.ljust(width) for row in rows)


def check_board(rows: tuple[str, ...]) -> str | None:
    """What makes these rows unplayable, or None if they are a proper level."""
    board = "".join(rows)
    counts = {tile: board.count(tile) for tile in "@+$*."}
    players = counts["@"] + counts["+"]
    goals = counts["."] + counts["+"] + counts["*"]
    boxes = counts["$"] + counts["*"]
    if players == 0:
        return "no player"
    if players > 1:
        return f"{players} players (a level has exactly one)"
    if goals == 0:
        return "no goal"
    if boxes < goals:
        return f"{boxes} boxes for {goals} goals (need at least as many boxes)"
    width = len(rows[0])
    found, width = _reach(rows, divmod(board.index("@" if counts["@"] else "+"), width))
    for index in found:
        r, c = divmod(index, width)
        if r in (0, len(rows) - 1) or c in (0, width - 1):
            return f"not closed: the player can reach the edge at row {r + 1}, column {c + 1}"
    return None


def parse(text: str, source: str = "") -> Collection:
    """Every level in ``text``: the good ones, and a LevelError for each bad one."""
    levels: list[Level] = []
    problems: list[LevelError] = []
    number = 0
    for block in _blocks(text, source):
        if not any(WALL in raw for _, raw in block.rows):
            continue  # a stray line of dots or dashes, not a board
        number += 1
        title = sanitize(_title_from(block))
        first_line = block.rows[0][0]
        try:
            rows = _board(block, number, source, title)
        except LevelError as error:
            problems.append(error)
            continue
        message = check_board(rows)
        if message is not None:
            problems.append(LevelError(message, source, first_line, number, title))
            continue
        levels.append(Level(rows, title, sanitize(block.meta.get("author", "")), number,
                            source, first_line, block.meta.get("solution", "").strip()))
    return Collection(shown_path(Path(source).stem) if source else "levels", levels, problems)


def parse_each(paths: list[str]) -> Iterator[tuple[str, Collection | LevelError, bool]]:
    """Each file of ``paths`` (folders give their files) with its levels or the error that
    stopped it, and whether it was named itself rather than found in a folder."""
    for path in paths:
        named = path == "-" or not Path(path).is_dir()
        for file in [path] if named else level_files(path):
            try:
                yield file, parse(read_file(file), found_source(file)), named
            except LevelError as error:
                yield file, error, named


def load(paths: list[str]) -> Collection:
    """Levels from files, folders (their files, sorted) and ``-``; raise if none is playable."""
    levels: list[Level] = []
    problems: list[LevelError] = []
    for file, found, named in parse_each(paths):
        if isinstance(found, LevelError):
            if named:
                raise found  # a file asked for by name must be readable
            problems.append(found)
        elif not found.levels and not found.problems and named:
            raise LevelError("no levels in this file", found_source(file))
        else:
            levels.extend(found.levels)
            problems.extend(found.problems)
    if not levels:
        if problems:
            first = problems[0]
            raise LevelError(f"{first.message} (no playable level; {len(problems)} bad)",
                             first.source, first.line, first.number, first.title)
        raise LevelError("no levels found", ", ".join(paths))
    name = shown_path(Path(paths[0]).stem) if len(paths) == 1 and paths[0] != "-" else "levels"
    return Collection(name, levels, problems)


def found_source(path: str) -> str:
    """How a path is named in messages."""
    return "<stdin>" if path == "-" else path


def level_files(folder: str) -> list[str]:
    """The visible regular files in ``folder``, sorted by name."""
    try:
        names = sorted(entry.name for entry in Path(folder).iterdir()
                       if not entry.name.startswith(".") and entry.is_file())
    except OSError as error:
        raise LevelError(error.strerror or str(error), folder) from error
    return [str(Path(folder) / name) for name in names]


def format_level(level: Level) -> str:
    """The level in the standard format: its board, then Title and Author lines."""
    lines = [row.rstrip() for row in level.rows]
    if level.title:
        lines.append(f"Title: {level.title}")
    if level.author:
        lines.append(f"Author: {level.author}")
    return "\n".join(lines) + "\n"
