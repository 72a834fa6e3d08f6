"""Sets of small numbers kept as the bits of an int (board squares, in Reversi and in the
Sokoban solver)."""

from __future__ import annotations


def members(bits: int) -> list[int]:
    """The numbers set in ``bits``, lowest first."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found
