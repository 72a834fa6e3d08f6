"""How a game ended, as a value: the runtime records it, the screen shows it."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple


class Result(Enum):
    """What a run came to."""

    WON = "won"
    LOST = "lost"
    DRAW = "draw"
    UNFINISHED = "unfinished"
    """Stopped part-way, yet a result all the same (2048 past its first moves)."""


class Mark(Enum):
    """What helped a result, shown beside it and never hidden."""

    UNDO = "undo"
    AUTOPLAY = "autoplay"
    HELPED = "helped"
    UNVERIFIED = "unverified"

    @property
    def assists(self) -> bool:
        """Whether it is help (a result with it ranks apart), rather than a note about
        who played (an unverified name)."""
        return self is not Mark.UNVERIFIED


ASSISTING = frozenset(mark.value for mark in Mark if mark.assists)
"""The names of the marks that are help, as the store keeps them."""


class Outcome(NamedTuple):
    """A run's result: ranked by ``score`` within ``variant``; ``detail`` carries what a
    game records beyond a score (Sokoban's solution)."""

    result: Result
    score: int
    variant: str
    marks: frozenset[Mark] = frozenset()
    detail: object = None
    filed: bool = True
    """False for a result no record takes (two people at one keyboard, one account)."""

    @property
    def finished(self) -> bool:
        """The run has ended (won, lost or drawn), rather than been left part-way."""
        return self.result is not Result.UNFINISHED

    def carries_on(self, ended: Outcome, lowest_wins: bool) -> bool:
        """Whether this is the run that ended with ``ended`` going on forward (2048 played
        on past its win): the same variant, no help since, and no worse. Anything else
        after an end (an undo, a take-back) looks back, and is a result of its own."""
        if self.variant != ended.variant or not self.marks <= ended.marks:
            return False
        return self.score <= ended.score if lowest_wins else self.score >= ended.score


def packed(values: Sequence[int], widths: Sequence[int]) -> int:
    """Numbers that rank one after another (the first first) as one score: each after the
    first in as many decimal digits as ``widths`` gives it (capped there)."""
    score = values[0]
    for value, width in zip(values[1:], widths, strict=True):
        score = score * 10 ** width + min(max(value, 0), 10 ** width - 1)
    return score


def unpacked(score: int, widths: Sequence[int]) -> list[int]:
    """The numbers ``packed`` made one score of."""
    values: list[int] = []
    for width in reversed(widths):
        score, value = divmod(score, 10 ** width)
        values.append(value)
    return [score, *reversed(values)]
