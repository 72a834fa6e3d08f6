"""Reading the standard level format as real files write it: boards among titles,
comments and metadata, run-length encoding, and a clear error for each bad level.

Rows may be run-length encoded (``3#4-@``, groups ``2(#-)``, ``|`` between rows).
Titles come from ``Title:`` lines, from a bare line above the board (``'Duh!'``) or from
a ``;`` comment above it (``; 44``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum, auto
from pathlib import Path

from termgames.sokoban.levels import (
    MAX_SIDE,
    TILES,
    WALL,
    Collection,
    Level,
    LevelError,
    Problem,
    check_board,
)
from termgames.text import sanitize, shown_path

_EXPANSION_BUDGET = MAX_SIDE * (MAX_SIDE + 1)  # every cell of the largest level, plus '|'s
_RLE = TILES | frozenset("0123456789()|")
_META = re.compile(r"^\s*(title|author|comment|collection|solution|date|email|url)\s*:\s?(.*)$",
                   re.IGNORECASE)
_RLE_MARK = re.compile(r"[0-9()|]")
_MOVES = re.compile(r"^[\sLURDlurd0-9()]+$")


# Run-length encoding ------------------------------------------------------------------

def expand_rle(text: str, source: str = "", line: int = 0) -> list[str]:
    """Expand counts and groups; ``|`` separates rows. Sizes are checked before expanding."""
    if not _RLE_MARK.search(text):
        return [text]
    expanded, end = _expand(text, 0, source, line)
    if end != len(text):
        raise LevelError(Problem.UNBALANCED_RLE, source, line, column=end + 1)
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
                raise LevelError(Problem.RLE_COUNT_ALONE, source, line)
        if text[index] == "(":
            unit, index = _expand(text, index + 1, source, line)
            if index >= len(text):
                raise LevelError(Problem.UNCLOSED_RLE, source, line)
            index += 1
        else:
            unit = text[index]
            index += 1
        size += len(unit) * count
        if size > _EXPANSION_BUDGET:
            raise LevelError(Problem.RLE_TOO_LARGE, source, line, side=MAX_SIDE)
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
            raise LevelError(Problem.LONG_LINE, source, number, length=len(line))
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
    comments = [text for text in comments if text]
    if not comments:
        return ""
    # A comment title reads as a heading: "; Starting demo level:" has no colon to keep.
    title = comments[-1].rstrip(":").rstrip()
    if len(comments) > 1 and comments[-2].isdigit() and title.startswith("'"):
        return f"{comments[-2]} {title}"  # "; 41" over ";'MS46 v2'", as "; 49 'Parallel Logic'"
    return title


def _board(block: _Block, number: int, source: str, title: str) -> tuple[str, ...]:
    rows: list[str] = []
    for line_number, raw in block.rows:
        raw = raw.rstrip()
        unknown = set(raw) - _RLE
        if unknown:
            bad = next(char for char in raw if char in unknown)
            raise LevelError(Problem.UNKNOWN_CHARACTER, source, line_number, number, title,
                             character=bad)
        try:
            expanded = expand_rle(raw, source, line_number)
        except LevelError as error:
            raise error.at(source, line_number, number, title) from None
        for row in expanded:
            if "-" in row or "_" in row:
                row = row.replace("-", " ").replace("_", " ").rstrip()
            if len(row) > MAX_SIDE or len(rows) >= MAX_SIDE:
                raise LevelError(Problem.TOO_LARGE_LEVEL, source, line_number, number, title,
                                 side=MAX_SIDE)
            rows.append(row)
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    width = max((len(row) for row in rows), default=0)
    return tuple(row.ljust(width) for row in rows)


def parse(text: str, source: str = "") -> Collection:
    """Every level in ``text``: the good ones, and a LevelError for each bad one."""
    levels: list[Level] = []
    problems: list[LevelError] = []
    number = 0
    section = ""
    for block in _blocks(text, source):
        if not any(WALL in raw for _, raw in block.rows):
            continue  # a stray line of dots or dashes, not a board
        number += 1
        section = _section_from(block) or section
        title = sanitize(_title_from(block))
        first_line = block.rows[0][0]
        try:
            rows = _board(block, number, source, title)
        except LevelError as error:
            problems.append(error)
            continue
        unplayable = check_board(rows)
        if unplayable is not None:
            problems.append(unplayable.at(source, first_line, number, title))
            continue
        levels.append(Level(rows, title, sanitize(block.meta.get("author", "")), number,
                            source, first_line, block.meta.get("solution", "").strip(),
                            section))
    return Collection(shown_path(Path(source).stem) if source else "levels", named(levels),
                      problems)


def named(levels: list[Level]) -> list[Level]:
    """The levels with the names players see. Where titles repeat ('7' in each of four
    sets), every level in a section is named by it, so that names read one way through
    the file: 'Sasquatch Set II · 7' and 'Sasquatch Set I · 49 'Parallel Logic''."""
    titles = [level.title for level in levels if level.title]
    by_section = len(set(titles)) < len(titles)
    return [replace(level, name=f"{level.section} · {level.title}"
                    if by_section and level.title and level.section else level.title)
            for level in levels]


def _section_from(block: _Block) -> str:
    """A one-line comment paragraph just above the title's, naming a part of the file."""
    paragraphs = [p for p in block.preamble if p]
    if len(paragraphs) < 2:
        return ""
    heading = paragraphs[-2]
    if len(heading) != 1 or heading[0][0] is not _Kind.COMMENT:
        return ""
    return sanitize(heading[0][1].lstrip(";").strip().rstrip(":").strip())


