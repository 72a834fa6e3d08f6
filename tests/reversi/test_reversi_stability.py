"""Stable discs: every disc called stable stays put through every sequence of moves (by
either side, in any order) from random endgames, the line fills agree with a square by
square reference, and the solver's stability cutoff keeps its scores exact."""

from __future__ import annotations

import random

import pytest

from termgames.reversi import board
from termgames.reversi.board import FULL, Bitboard
from termgames.reversi.engine.endgame import EndgameSolver
from termgames.reversi.engine.stability import full_lines, stable_discs
from tests.harness.boards import alpha_beta, endgame

_LINES = ((0, 1), (1, 0), (1, 1), (1, -1))  # row, column, rising and falling diagonal


def slow_full_lines(occupied: Bitboard) -> list[Bitboard]:
    """For each kind of line, the squares whose line has no empty, square by square."""
    found = []
    for d_row, d_col in _LINES:
        full = 0
        for square in range(64):
            line = [square]
            for sign in (1, -1):
                row, col = square // 8 + sign * d_row, square % 8 + sign * d_col
                while 0 <= row < 8 and 0 <= col < 8:
                    line.append(row * 8 + col)
                    row, col = row + sign * d_row, col + sign * d_col
            if all(occupied >> each & 1 for each in line):
                full |= 1 << square
        found.append(full)
    return found


def never_flipped(x: Bitboard, o: Bitboard, watched_x: Bitboard, watched_o: Bitboard,
                  seen: set[tuple[int, int]]) -> bool:
    """True if no sequence of legal moves, by either side in any order, turns over a
    watched disc (X's ``watched_x``, O's ``watched_o``)."""
    if (x, o) in seen:
        return True
    seen.add((x, o))
    if watched_x & ~x or watched_o & ~o:
        return False
    for own, opp, x_moves in ((x, o, True), (o, x, False)):
        for square in board.squares(board.legal_moves(own, opp)):
            flipped = board.flips(own, opp, square)
            mine, theirs = own | flipped | 1 << square, opp & ~flipped
            after = (mine, theirs) if x_moves else (theirs, mine)
            if not never_flipped(*after, watched_x, watched_o, seen):
                return False
    return True


@pytest.mark.parametrize("seed", range(40))
def test_the_line_fills_agree_with_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    occupied = rng.getrandbits(64) | rng.getrandbits(64) | rng.getrandbits(64)
    assert list(full_lines(occupied)) == slow_full_lines(occupied)
    assert full_lines(FULL) == (FULL, FULL, FULL, FULL)


def test_stable_discs_are_never_flipped() -> None:
    found = 0
    for seed in range(30):
        position = endgame(seed, 6)
        x, o = position.x, position.o
        stable_x, stable_o = stable_discs(x, x | o), stable_discs(o, x | o)
        assert stable_x & ~x == 0 and stable_o & ~o == 0
        found += (stable_x | stable_o).bit_count()
        assert never_flipped(x, o, stable_x, stable_o, set()), seed
    assert found > 30 * 8  # the corners and the full edges are found, not just nothing


def test_what_the_fills_must_find() -> None:
    corners = 0x8100000000000081
    assert stable_discs(corners, corners) == corners
    assert stable_discs(FULL, FULL) == FULL
    first_rank = 0xFF  # a full edge is stable wherever its corners are
    assert stable_discs(first_rank, first_rank) == first_rank
    assert stable_discs(0x7E, 0x7E) == 0  # the same edge without its corners: none
    b1, b2 = 1 << 1, 1 << 9  # beside a1 on the edge: held; diagonally in: not
    assert stable_discs(1 | b1, 1 | b1) == 1 | b1
    assert stable_discs(1 | b2, 1 | b2) == 1


@pytest.mark.parametrize("seed", range(12))
def test_the_solver_is_exact_where_the_stability_cutoff_fires(seed: int) -> None:
    # Null windows above the score (alpha high) are where the cutoff is tried.
    position = endgame(1000 + seed, 9)
    exact = alpha_beta(position.own, position.opp)
    for alpha in (exact - 1, exact, exact + 2, 20, 40):
        if alpha > 63:
            continue
        score = EndgameSolver().solve(position.own, position.opp, alpha, alpha + 1)
        if exact <= alpha:
            assert score <= alpha and score >= exact
        else:
            assert score > alpha and score <= exact
