"""The shipped Reversi puzzles of the day (termgames/reversi/data/daily-puzzles.txt): the
file loads, every puzzle is one (10 to 14 empties, a choice of legal moves for the side to
move, won or drawn with perfect play), a few have their perfect margin proven again, the
first puzzle is pinned literally and all of them by a hash, so that an edit to a shipped
line fails here, and a damaged line is named in one line."""

from __future__ import annotations

import hashlib
import re

import pytest

from termgames.failures import DamagedInstall
from termgames.reversi.board import Position, Side
from termgames.reversi.engine.endgame import EndgameSolver
from termgames.reversi.puzzles import FILE, Puzzle, PuzzleFileError, parse_puzzles, puzzles
from tests.harness.boards import alpha_beta

COUNT = 1000
FIRST_BOARD = "--OO----XXOOOO--XXXOOOOXOOXXXOOXOOXXOOOXOOOXXXOX--OOXXO----OOOOO"
"""The first puzzle's board, copied from the file by hand: squares 0-63, row by row."""
GOOD = f"{FIRST_BOARD} X 20 wthor:2003:3311"
SHIPPED_SHA256 = "041010e182b4bd1dcb01753f7d87c1fde87665f96e8ae8c9a813b5f1567f21ea"
"""SHA-256 of the first 1000 puzzles as lines (BOARD SIDE PERFECT SOURCE, each ending in a
newline): any edit to one of them fails, and puzzles added at the end do not."""


def board_of(position: Position) -> str:
    """The 64 squares of ``position`` as the file writes them."""
    return "".join({Side.X: "X", Side.O: "O", None: "-"}[position.at(square)]
                   for square in range(64))


def first_of_each_empties() -> list[Puzzle]:
    """The first puzzle with each number of empties, 10 to 14."""
    return [next(puzzle for puzzle in puzzles() if puzzle.position.empties() == empties)
            for empties in range(10, 15)]


def test_the_file_is_read_once_and_holds_every_puzzle_once() -> None:
    assert len(puzzles()) == COUNT
    assert puzzles() is puzzles()  # read once
    assert len({(puzzle.position.x, puzzle.position.o) for puzzle in puzzles()}) == COUNT


def test_no_shipped_puzzle_was_edited_or_moved() -> None:
    lines = "".join(f"{board_of(puzzle.position)} {puzzle.side.value} {puzzle.perfect} "
                    f"{puzzle.source}\n" for puzzle in puzzles()[:COUNT])
    assert hashlib.sha256(lines.encode()).hexdigest() == SHIPPED_SHA256


def test_every_puzzle_is_an_endgame_won_or_drawn_with_a_choice_of_moves() -> None:
    for number, puzzle in enumerate(puzzles(), start=1):
        position = puzzle.position
        assert 10 <= position.empties() <= 14, number
        assert position.x & position.o == 0, number
        assert len(position.move_list()) >= 2, number
        assert puzzle.side is position.turn
        assert 0 <= puzzle.perfect <= 64, number
        assert puzzle.source.startswith("wthor:"), number


def test_the_first_puzzle_is_pinned() -> None:
    first = puzzles()[0]
    assert board_of(first.position) == FIRST_BOARD
    assert first.position.at(2) is Side.O and first.position.at(8) is Side.X  # c1, a2
    assert first.side is Side.X
    assert first.perfect == 20
    assert first.source == "wthor:2003:3311"


@pytest.mark.parametrize("empties", range(10, 15))
def test_a_perfect_margin_is_proven_again_by_the_solver(empties: int) -> None:
    puzzle = first_of_each_empties()[empties - 10]
    position = puzzle.position
    assert EndgameSolver(winner_takes_empties=False).solve(position.own, position.opp) == \
        puzzle.perfect


def test_the_first_puzzle_has_a_choice_and_its_best_move_makes_the_perfect_margin() -> None:
    puzzle = puzzles()[0]
    scores = []
    for square in puzzle.position.move_list():
        after, _ = puzzle.position.play(square)
        scores.append(-EndgameSolver().solve(after.own, after.opp))
    assert max(scores) == puzzle.perfect
    assert min(scores) < puzzle.perfect, scores  # a wrong move to make: a puzzle


def test_a_perfect_margin_is_proven_again_by_plain_alpha_beta() -> None:
    """Nothing shared with the solver that made the file but the rules."""
    puzzle = first_of_each_empties()[0]
    assert alpha_beta(puzzle.position.own, puzzle.position.opp) == puzzle.perfect


BAD_LINES = {
    "three fields": (f"{FIRST_BOARD} X 20", "3 fields, not the 4 of BOARD SIDE PERFECT SOURCE"),
    "a short board": (GOOD[1:], "the board has 63 squares, not 64"),
    "a bad square": ("." + GOOD[1:], "square 0 of the board is '.', not X, O or -"),
    "a bad side": (GOOD.replace(" X ", " B "), "the side to move is 'B', not X or O"),
    "a negative margin": (GOOD.replace(" 20 ", " -2 "),
                          "the perfect margin is '-2', not a whole number from 0 to 64"),
    "a margin past the board": (GOOD.replace(" 20 ", " 65 "),
                                "the perfect margin is '65', not a whole number from 0 to 64"),
    "no move": (f"{'X' * 63}- O 0 wthor:0:0", "O is to move but has no legal move"),
}


@pytest.mark.parametrize("name", BAD_LINES)
def test_a_damaged_line_is_named_in_one_line(name: str) -> None:
    line, problem = BAD_LINES[name]
    text = f"# a comment\n\n{GOOD}\n{line}\n{GOOD}\n"
    with pytest.raises(PuzzleFileError) as raised:
        parse_puzzles(text, "puzzles.txt")
    assert str(raised.value) == f"puzzles.txt, line 4: {problem}"
    assert isinstance(raised.value, DamagedInstall)  # the CLI's one line, never a traceback


def test_a_file_without_a_puzzle_is_refused_by_its_name() -> None:
    with pytest.raises(PuzzleFileError, match=f"^{re.escape(FILE)}: no puzzle in it$"):
        parse_puzzles("# only comments\n\n")


def test_comments_and_blank_lines_are_not_puzzles() -> None:
    parsed = parse_puzzles(f"# a comment\n\n{GOOD}\n   \n#{GOOD}\n", "puzzles.txt")
    assert [(board_of(puzzle.position), puzzle.side, puzzle.perfect, puzzle.source)
            for puzzle in parsed] == [(FIRST_BOARD, Side.X, 20, "wthor:2003:3311")]
