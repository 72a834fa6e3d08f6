"""Reading the standard level format as real files write it: boards among titles,
comments and metadata, run-length encoding, and a clear error for each bad level.

Rows may be run-length encoded (``3#4-@``, groups ``2(#-)``, ``|`` between rows).
Titles come from ``Title:`` lines, from a bare line above the board (``'Duh!'``) or from
a ``;`` comment above it (``; 44``).
"""

from __future__ import annotations

import re
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import Enum, auto
from pathlib import Path

from termgames.sokoban.format.levels import (
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


def _line_kind(line: str) -> tuple[str, _Kind]:
    """A line's kind, and the line as read: a board row may carry a comment after it,
    which is dropped."""
    kind = _classify(line)
    if kind is not _Kind.COMMENT and ";" in line:
        head = line[: line.index(";")]
        if _classify(head) in (_Kind.BOARD, _Kind.BAD_BOARD):
            return head, _classify(head)
    return line, kind


def _lines(text: str, source: str, first: int = 1) -> Iterator[tuple[int, str, _Kind]]:
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), first):
        if len(line) > _EXPANSION_BUDGET:  # longer than any level written out in full
            raise LevelError(Problem.LONG_LINE, source, number, length=len(line))
        line, kind = _line_kind(line)
        yield number, line, kind


def _blocks(lines: Iterable[tuple[int, str, _Kind]], after_board: bool = False
            ) -> Iterator[_Block]:
    """Boards with what surrounds them; a board is handed on once its trailing lines
    (metadata up to the next blank line) have been read. ``after_board``: the lines
    follow a board's rows (an empty stand-in for it is handed on first)."""
    paragraphs: list[list[tuple[_Kind, str, int]]] = [[]]
    current: _Block | None = None
    # the board whose trailing lines are being read
    finished: _Block | None = _Block([], []) if after_board else None
    pending_meta: dict[str, str] = {}
    for number, line, kind in lines:
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
    return LevelText(text, source).collection()


def _level(block: _Block, number: int, source: str, section: str) -> Level | LevelError:
    """The level a board's block makes, or why it is not one."""
    title = sanitize(_title_from(block))
    first_line = block.rows[0][0]
    try:
        rows = _board(block, number, source, title)
    except LevelError as error:
        return error
    unplayable = check_board(rows)
    if unplayable is not None:
        return unplayable.at(source, first_line, number, title)
    return Level(rows, title, sanitize(block.meta.get("author", "")), number, source,
                 first_line, block.meta.get("solution", "").strip(), section, title)


# Finding the levels at once, reading each when asked --------------------------------------
#
# A file of 100,000 levels is indexed in a blink: plain board rows (tiles only, as nearly
# every file writes them) and the lines that cannot start a board row (blank lines,
# comments, titles, metadata) are passed over by regular expressions, a run at a time;
# only the other lines go through the line grammar here. A level's own lines are read
# when the level is asked for, by the same grammar from the line after the board before
# it, so a level read alone is the level read with the whole file.

_PLAIN_ROW = r" *[#@+$*.\-_][#@+$*.\-_ ]*\n"
"""A board row of tiles alone (``_classify`` reads every such line as a board row)."""
_BLANK = r"[^\S\n]*\n"
_TEXT = r"[^\S\n]*[^\s#@+$*.\-_0-9()|][^\n]*\n"
"""A line no board row can be: it first shows a character no row starts with."""
_NO_ROWS = re.compile(f"(?:{_BLANK}|{_TEXT})*")
_STEP = re.compile(f"(?:{_TEXT})*(?:(?P<blank>{_BLANK})(?:{_BLANK}|{_TEXT})*)?"
                   f"(?P<rows>(?:{_PLAIN_ROW})+)")
"""Lines that are not board rows (the first blank one marked), then plain board rows:
most of a file, a level at a time."""
_TWO_PARAGRAPHS = re.compile(r"\S[^\n]*\n(?:[^\S\n]*\n)+[^\S\n]*\S")
"""Lines above a board that may hold a section heading (``_section_from`` needs two
paragraphs); others cannot."""
_KEPT = 4096
"""Levels kept once read, the most recently asked for (a screen of the level list needs
a few dozen)."""
_LINES_EVERY = 4096
"""Characters between the offsets whose line numbers are kept (for a level's lines)."""


class _Index:
    """Where each block of board rows is in a text (the offsets of its first row and of
    the line after it), and which blocks are levels (those with a wall)."""

    def __init__(self, text: str, source: str) -> None:
        self.starts, self.ends, self.levels = array("q"), array("q"), array("q")
        self.maybe_sections: list[int] = []
        """Levels with two paragraphs above them: one may name a section."""
        self.block, self.walled = -1, False  # where the block being read begins
        self.after_block = False  # reading a block's trailing lines
        self.preamble = 0  # where the paragraphs above the next block begin
        self.bad_row = -1  # where a bad row just above begins
        long = re.search(rf"(?m)^[^\n]{{{_EXPANSION_BUDGET + 1}}}", text)
        if long is not None:
            end = text.find("\n", long.start())
            raise LevelError(Problem.LONG_LINE, source, text.count("\n", 0, long.start()) + 1,
                             length=(len(text) if end < 0 else end) - long.start())
        self._scan(text)
        self.lines = array("q", [1])
        """The line number at every ``_LINES_EVERY`` characters."""
        for offset in range(_LINES_EVERY, len(text), _LINES_EVERY):
            self.lines.append(self.lines[-1] + text.count("\n", offset - _LINES_EVERY, offset))

    def line_at(self, text: str, offset: int) -> int:
        """The number of the line ``offset`` is on."""
        near = offset // _LINES_EVERY
        return self.lines[near] + text.count("\n", near * _LINES_EVERY, offset)

    def _scan(self, text: str) -> None:
        """One pass through the text, keeping the line grammar's state for where blocks
        begin and end: inside one, just after one (its trailing lines), or between."""
        position, size, step_at, find = 0, len(text), _STEP.match, text.find
        while position < size:
            step = step_at(text, position)
            if step is None:
                position = self._no_rows(text, position)
                if position < size:
                    position = self._one_line(text, position)
                continue
            rows, end = step.start("rows"), step.end()
            if rows > position:
                self._end_block(position, text)
                self.bad_row = -1
                if self.after_block and step.start("blank") >= 0:
                    self.after_block, self.preamble = False, step.end("blank")
            self._rows(rows, find(WALL, rows, end) >= 0)
            position = end
        self._end_block(position, text)

    def _no_rows(self, text: str, start: int) -> int:
        """Lines that are not board rows from ``start``: where they end."""
        passed = _NO_ROWS.match(text, start)
        end = start if passed is None else passed.end()
        if end > start:
            self._end_block(start, text)
            self.bad_row = -1
            if self.after_block:
                blank = re.compile(f"(?m)^{_BLANK}").search(text, start, end)
                if blank is not None:
                    self.after_block, self.preamble = False, blank.end()
        return end

    def _one_line(self, text: str, start: int) -> int:
        """A line the expressions pass by (an encoded row, a bad one, a row with a
        comment, a title that starts like a row), read by the line grammar itself;
        where the next line begins."""
        end = text.find("\n", start) + 1
        row, kind = _line_kind(text[start:end - 1])
        if kind is _Kind.BOARD or (kind is _Kind.BAD_BOARD and self.block >= 0):
            self._rows(start, WALL in row)
            return end
        self._end_block(start, text)
        if kind is _Kind.BLANK and self.after_block:
            self.after_block, self.preamble = False, end
        self.bad_row = start if kind is _Kind.BAD_BOARD and not self.after_block else -1
        return end

    def _rows(self, start: int, walled: bool) -> None:
        """Board rows from offset ``start``: a block begins or goes on."""
        if self.block < 0:
            self.block, self.walled = start, walled
            if self.bad_row >= 0:  # the bad row just above is the block's first
                self.block, self.walled = self.bad_row, True
            self.after_block = False
        else:
            self.walled = self.walled or walled
        self.bad_row = -1

    def _end_block(self, end: int, text: str) -> None:
        """The block being read, if any, ends before offset ``end``."""
        if self.block < 0:
            return
        if self.walled:
            above = text[self.preamble:self.block].strip()
            if above.count("\n") > 1 and _TWO_PARAGRAPHS.search(above) is not None:
                self.maybe_sections.append(len(self.levels))
            self.levels.append(len(self.starts))
        self.starts.append(self.block)
        self.ends.append(end)
        self.block, self.after_block = -1, True
        self.preamble = end  # no paragraphs above the next block until a blank line


class LevelText:
    """The levels of one text, found at once and each read when first asked for: a
    ``Level``, or the ``LevelError`` that keeps it out. A text whose levels fall into
    sections is read whole at once, since its names depend on every title."""

    def __init__(self, text: str, source: str = "") -> None:
        self.source = source
        self.text = text.replace("\r\n", "\n").replace("\r", "\n")
        if not self.text.endswith("\n"):
            self.text += "\n"
        self.index = _Index(self.text, source)
        self.kept: OrderedDict[int, Level | LevelError] = OrderedDict()
        self.whole: list[Level | LevelError] | None = None
        if any(_section_from(self._block(self.index.levels[level]))
               for level in self.index.maybe_sections):
            self.whole = self._read_whole()

    def __len__(self) -> int:
        """How many levels the text holds, good and bad."""
        return len(self.index.levels)

    def read(self, index: int) -> Level | LevelError:
        """The level at ``index`` (0-based), or why it cannot be played."""
        if self.whole is not None:
            return self.whole[index]
        found = self.kept.get(index)
        if found is not None:
            self.kept.move_to_end(index)
            return found
        found = _level(self._block(self.index.levels[index]), index + 1, self.source, "")
        self.kept[index] = found
        if len(self.kept) > _KEPT:
            self.kept.popitem(last=False)
        return found

    def collection(self) -> Collection:
        """Every level read: the good ones, and the problems with the others."""
        found = list(self.each())
        return Collection(shown_path(Path(self.source).stem) if self.source else "levels",
                          [level for level in found if isinstance(level, Level)],
                          [level for level in found if isinstance(level, LevelError)])

    def each(self) -> Iterator[Level | LevelError]:
        """Every level in order, read in one pass through the text."""
        if self.whole is not None:
            yield from self.whole
            return
        for number, block in enumerate(_walled(_blocks(_lines(self.text, self.source))), 1):
            yield _level(block, number, self.source, "")

    def _block(self, block: int) -> _Block:
        """The block of board rows numbered ``block`` in the text, with the lines around
        it, read from the line after the block before it to the next one's first row."""
        index = self.index
        start = index.ends[block - 1] if block else 0
        stop = index.starts[block + 1] if block + 1 < len(index.starts) else len(self.text)
        first = index.line_at(self.text, start)
        found = list(_blocks(_lines(self.text[start:stop], self.source, first), block > 0))
        return found[-1]

    def _read_whole(self) -> list[Level | LevelError]:
        """Every level, each in the section it falls in, named as ``named`` names them."""
        found: list[Level | LevelError] = []
        section = ""
        for number, block in enumerate(_walled(_blocks(_lines(self.text, self.source))), 1):
            section = _section_from(block) or section
            found.append(_level(block, number, self.source, section))
        names = iter(named([level for level in found if isinstance(level, Level)]))
        return [next(names) if isinstance(level, Level) else level for level in found]


def _walled(blocks: Iterable[_Block]) -> Iterator[_Block]:
    """The blocks that are levels: a stray line of dots or dashes is not a board."""
    return (block for block in blocks if any(WALL in raw for _, raw in block.rows))


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


