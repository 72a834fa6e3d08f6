"""Stable discs: discs no sequence of moves can ever turn over, found by bitboard fills.

A disc can only be flipped along one of its four lines (row, column, two diagonals), and
only if that line still has an empty square. So a disc is safe along a line when the line
is full, when the board's edge is beside it on that line, or when a neighbour on the line
is a stable disc of its own colour (they would have to flip together). Stability is then
the largest set of a side's discs safe along all four lines, found by growing it from the
corners until nothing changes. It is a lower bound: a few stable discs (protected by a
stable disc of the other colour, say) are not found, but no disc found can ever flip.

The endgame solver uses it as a bound: the side to move can score at most
``64 - 2 * stable`` when its opponent has ``stable`` stable discs.
"""

from __future__ import annotations

from termgames.reversi.board import FULL, Bitboard

__all__ = ["full_lines", "stable_discs"]

_NOT_A: Bitboard = FULL ^ 0x0101010101010101  # a shift toward higher files must not wrap
_NOT_H: Bitboard = FULL ^ 0x8080808080808080  # nor one toward lower files
_FILES_A_H: Bitboard = 0x8181818181818181
_RANKS_1_8: Bitboard = 0xFF000000000000FF
_BORDER: Bitboard = _FILES_A_H | _RANKS_1_8

# The four lines, each as its shift and the squares a one-step shift may land on, going
# up the board; going down uses the mirror mask.
_LINES = (
    (1, _NOT_A, _NOT_H),   # the row
    (8, FULL, FULL),       # the column
    (9, _NOT_A, _NOT_H),   # the diagonal a1-h8
    (7, _NOT_H, _NOT_A),   # the diagonal h1-a8
)


def _fill_up(bits: Bitboard, shift: int, lands: Bitboard) -> Bitboard:
    """``bits`` spread any distance up the board along one line (Kogge-Stone)."""
    bits |= lands & (bits << shift)
    lands &= lands << shift
    bits |= lands & (bits << 2 * shift)
    lands &= lands << 2 * shift
    bits |= lands & (bits << 4 * shift)
    return bits & FULL


def _fill_down(bits: Bitboard, shift: int, lands: Bitboard) -> Bitboard:
    """``bits`` spread any distance down the board along one line."""
    bits |= lands & (bits >> shift)
    lands &= lands >> shift
    bits |= lands & (bits >> 2 * shift)
    lands &= lands >> 2 * shift
    bits |= lands & (bits >> 4 * shift)
    return bits


def full_lines(occupied: Bitboard) -> tuple[Bitboard, Bitboard, Bitboard, Bitboard]:
    """For the row, the column and the two diagonals: the squares whose line of that kind
    has no empty square."""
    empty = FULL ^ occupied
    row, column, rising, falling = (
        FULL ^ (_fill_up(empty, shift, up) | _fill_down(empty, shift, down))
        for shift, up, down in _LINES)
    return row, column, rising, falling


def stable_discs(discs: Bitboard, occupied: Bitboard) -> Bitboard:
    """The ``discs`` of one side (``occupied`` is both sides') that can never flip."""
    row, column, rising, falling = full_lines(occupied)
    row |= _FILES_A_H
    column |= _RANKS_1_8
    rising |= _BORDER
    falling |= _BORDER
    stable = discs & row & column & rising & falling
    grown = 0
    while stable != grown:
        grown = stable
        stable = discs & (
            (row | ((stable << 1) & _NOT_A) | ((stable >> 1) & _NOT_H))
            & (column | (stable << 8) | (stable >> 8))
            & (rising | ((stable << 9) & _NOT_A) | ((stable >> 9) & _NOT_H))
            & (falling | ((stable << 7) & _NOT_H) | ((stable >> 7) & _NOT_A)))
    return stable
