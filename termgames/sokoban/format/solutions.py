"""Solutions in the standard format, as files and exporters write them.

A solution is a ``Solution:`` line whose LURD moves may follow on the same line, on
lines after it, or both, wrapped at any width and with or without the case that marks
pushes. Run-length counts (``3r2U``, groups ``2(lu)``) are expanded. A ``; level N``
comment or a ``Title:`` line before it says which level it solves (one of them must),
and a ``; file NAME`` comment before those which of several files it is in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from termgames.sokoban.format.levels import Level, LevelError, Problem
from termgames.sokoban.format.parse import expand_rle
from termgames.text import shown_path

_SOLUTION = re.compile(r"^\s*solution\b[^:]*:\s*(.*)$", re.IGNORECASE)
_LEVEL_NUMBER = re.compile(r"^\s*;\s*level\s+(\d+)", re.IGNORECASE)
_FILE = re.compile(r"^\s*;\s*file\s+(.+?)\s*$", re.IGNORECASE)
_TITLE = re.compile(r"^\s*title\s*:\s*(.*)$", re.IGNORECASE)
_LURD_LINE = re.compile(r"^[\sLURDlurd0-9()]+$")


@dataclass(frozen=True)
class SolutionEntry:
    """One solution in a file: which level it names, its LURD moves and where it starts."""

    number: int | None
    title: str
    moves: str
    line: int
    file: str = ""
    """The name of the file the level is in, when the solutions name one."""

    @property
    def name(self) -> str:
        """How messages name the level it is for."""
        name = f"level {self.number:,}" if self.number is not None else f"'{self.title}'"
        return f"{self.file} {name}" if self.file else name


def normalise_moves(text: str, source: str = "", line: int = 0) -> str:
    """LURD with whitespace removed and run-length counts expanded."""
    compact = "".join(text.split())
    if not re.search(r"[0-9()]", compact):
        return compact
    try:
        return "".join(expand_rle(compact, source, line))
    except LevelError as error:
        raise LevelError(Problem.BAD_SOLUTION, source, line, error=error.message) from None


def parse_solutions(text: str, source: str = "") -> list[SolutionEntry]:
    """Every solution in ``text``, continuation lines joined, in file order; LevelError
    (naming ``source`` and the line) for one that names no level or has bad moves."""
    entries: list[SolutionEntry] = []
    number: int | None = None
    title = file = ""
    collecting: list[str] | None = None
    start = 0

    def finish() -> None:
        nonlocal collecting, number, title, file
        if collecting is not None:
            if number is None and not title:
                raise LevelError(Problem.SOLUTION_FOR_NO_LEVEL, source, start)
            moves = normalise_moves("".join(collecting), source, start)
            entries.append(SolutionEntry(number, title, moves, start, file))
            collecting, number, title, file = None, None, "", ""

    for line_number, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):
        if collecting is not None and line.strip() and _LURD_LINE.match(line):
            collecting.append(line)
            continue
        finish()
        found = _SOLUTION.match(line)
        if found:
            collecting, start = [found.group(1)], line_number
        elif (named := _FILE.match(line)) is not None:
            file, number, title = named.group(1), None, ""
        elif (numbered := _LEVEL_NUMBER.match(line)) is not None:
            number, title = int(numbered.group(1)), ""
        elif (titled := _TITLE.match(line)) is not None:
            title = titled.group(1).strip()
    finish()
    return entries


class AmbiguousLevel(LookupError):
    """Several levels answer to the number or title given; the message names them."""


def pick_level(levels: list[Level], number: int | None = None, title: str = "") -> Level | None:
    """The one level with ``number`` (its number in its file) or else ``title`` (exact
    case first, then any case); None if there is none, AmbiguousLevel if more than one."""
    if number is not None:
        matches = [level for level in levels if level.number == number]
        if len(matches) > 1:
            files = ", ".join(shown_path(level.source) for level in matches)
            raise AmbiguousLevel(f"{len(matches):,} files have a level {number:,} ({files}); "
                                 "give one file")
        return matches[0] if matches else None
    if not title:
        return None
    matches = [level for level in levels if level.title == title] or [
        level for level in levels if level.title.casefold() == title.casefold()]
    if len(matches) > 1:
        numbers = ", ".join(str(level.number) for level in matches)
        raise AmbiguousLevel(f"{len(matches)} levels have this title (levels {numbers}); "
                             "number the solution with '; level N'")
    return matches[0] if matches else None


def find_level(levels: list[Level], entry: SolutionEntry) -> Level | None:
    """The level ``entry`` is for, by number or else by title (see ``pick_level``), in
    the file it names if it names one."""
    if entry.file:
        levels = [level for level in levels if Path(level.source).name == entry.file]
    return pick_level(levels, entry.number, entry.title)
