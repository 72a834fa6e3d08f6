"""Letting go of a finished search's memory a piece at a time.

A search on a large level keeps a million small objects in a few tables. Dropping it at
once frees them all in one call that no clock reading can interrupt: 150-200 ms measured
on XSokoban 12 and 13 when the greedy search used up its share of the positions, all of
it inside one 30 ms slice of a hint's search. Emptying the tables a bounded number of
entries at a time spreads that cost over the turns that follow.
"""

from __future__ import annotations

from typing import Any

Holding = dict[Any, Any] | list[Any]
"""A table a search keeps its positions in."""

PIECE = 5_000
"""Entries freed at a time: 2-8 ms (XSokoban 13's tables after 15 s of search, 190,000
entries: 17 ms for the slowest piece of 10,000)."""


class Release:
    """Tables to free, emptied from the end a piece at a time."""

    def __init__(self, piece: int = PIECE) -> None:
        self.holdings: list[Holding] = []
        self.piece = piece

    def __bool__(self) -> bool:
        """Whether anything is left to free."""
        return bool(self.holdings)

    def add(self, holdings: list[Holding]) -> None:
        """Take over these tables (nothing else may use them any more)."""
        self.holdings += holdings

    def step(self) -> None:
        """Free a piece: up to ``piece`` entries."""
        count = self.piece
        while count > 0 and self.holdings:
            held = self.holdings[-1]
            taken = min(count, len(held))
            if isinstance(held, list):
                del held[len(held) - taken:]
            else:
                for _ in range(taken):
                    held.popitem()
            count -= max(taken, 1)
            if not held:
                self.holdings.pop()
