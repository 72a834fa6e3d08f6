"""The Reversi puzzles of the day: endgame positions from real games, each with the final
margin that perfect play gives the side to move, proven by the exact endgame solver.

They are shipped as ``termgames/reversi/data/daily-puzzles.txt`` (written once by
``python -m tools.daily_puzzles``; its header says from what). A line is ``BOARD SIDE
PERFECT SOURCE``: the 64 squares in order (``X``, ``O`` or ``-``), who is to move, the
perfect margin, and where the position comes from; lines starting with ``#`` and blank
lines are not puzzles. Which puzzle a day gets is the caller's choice, by its place in
the list, so the file is never edited, only ever added to at its end.

A room of its own rather than a module beside ``board``: the reversi folder holds as many
modules as one folder should (tests/rules/test_layout_rules.py).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from importlib.resources import files

from termgames.failures import DamagedInstall
from termgames.outcome import packed, unpacked
from termgames.reversi.board import Position, Side, bit
from termgames.scoreboard import ScoreKind, minutes_seconds

__all__ = ["FILE", "PUZZLE_KIND", "PUZZLE_WIDTHS", "Puzzle", "PuzzleFileError", "parse_puzzles",
           "puzzle_of", "puzzle_score", "puzzles"]

FILE = "termgames/reversi/data/daily-puzzles.txt"
"""The puzzle file, as messages name it (its place in a checkout or an install)."""
_SQUARES = 64
_MOST_MARGIN = 64


class PuzzleFileError(DamagedInstall):
    """The puzzle file is missing, or a line of it is not a puzzle: the message is one line
    that names the file and the line."""


@dataclass(frozen=True)
class Puzzle:
    """A position to play out against the solver, the final disc margin perfect play gives
    the side to move (0 or more), and where it comes from (``wthor:YEAR:N``)."""

    position: Position
    perfect: int
    source: str

    @property
    def side(self) -> Side:
        """The side to move: the player's side."""
        return self.position.turn


def _board(field: str) -> tuple[int, int] | str:
    """X's and O's discs as bitboards, or what is wrong with ``field``."""
    if len(field) != _SQUARES:
        return f"the board has {len(field)} squares, not {_SQUARES}"
    x = o = 0
    for square, mark in enumerate(field):
        if mark == "X":
            x |= bit(square)
        elif mark == "O":
            o |= bit(square)
        elif mark != "-":
            return f"square {square} of the board is {mark!r}, not X, O or -"
    return x, o


def _puzzle(line: str) -> Puzzle | str:
    """The puzzle of one line, or what is wrong with it."""
    fields = line.split()
    if len(fields) != 4:
        return f"{len(fields)} fields, not the 4 of BOARD SIDE PERFECT SOURCE"
    board, side, perfect, source = fields
    discs = _board(board)
    if isinstance(discs, str):
        return discs
    if side not in ("X", "O"):
        return f"the side to move is {side!r}, not X or O"
    if not (perfect.isascii() and perfect.isdigit()) or int(perfect) > _MOST_MARGIN:
        return f"the perfect margin is {perfect!r}, not a whole number from 0 to 64"
    position = Position(*discs, Side(side))
    if not position.moves():
        return f"{side} is to move but has no legal move"
    return Puzzle(position, int(perfect), source)


def parse_puzzles(text: str, name: str = FILE) -> tuple[Puzzle, ...]:
    """The puzzles in ``text``; PuzzleFileError naming ``name`` and the line for a bad line."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        puzzle = _puzzle(line)
        if isinstance(puzzle, str):
            raise PuzzleFileError(f"{name}, line {number}: {puzzle}")
        found.append(puzzle)
    if not found:
        raise PuzzleFileError(f"{name}: no puzzle in it")
    return tuple(found)


@functools.cache
def puzzles() -> tuple[Puzzle, ...]:
    """Every shipped puzzle, in the file's order (read once, from the installed package)."""
    resource = files("termgames.reversi") / "data" / "daily-puzzles.txt"
    try:
        text = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PuzzleFileError(f"{FILE}: cannot be read ({error})") from None
    return parse_puzzles(text)


def puzzle_of(day: date) -> Puzzle:
    """The puzzle of ``day``: one after another from the first day's, round again after
    the last."""
    from termgames.daily import index

    shipped = puzzles()
    return shipped[index(day, len(shipped))]


PUZZLE_WIDTHS = (6,)
"""A daily puzzle's result: the discs short of perfect play, then seconds in 6 digits."""


def puzzle_score(short: int, seconds: int) -> int:
    """A daily puzzle's result as one score (lower is better): the discs short of the
    perfect margin, then the time."""
    return packed([max(short, 0), seconds], PUZZLE_WIDTHS)


def _puzzle_shown(score: int) -> str:
    short, seconds = unpacked(score, PUZZLE_WIDTHS)
    said = "perfect" if short == 0 else f"{short} short of perfect"
    return f"{said}, {minutes_seconds(seconds * 1000)}"


PUZZLE_KIND = ScoreKind("result, time", lowest_wins=True, formatter=_puzzle_shown)
"""How a day's puzzle board ranks and reads its results."""
