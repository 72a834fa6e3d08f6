"""The classic typed move, a column digit then a row digit (5 then 3 plays 53), and the
keys a player types while the computer moves, which wait their turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

A = TypeVar("A")


@dataclass
class Typing(Generic[A]):
    """What the player typed and has not played yet: a column waiting for its row, and
    the actions typed while the computer moved (``digit_of`` tells a digit's)."""

    digit_of: Callable[[A], int | None]
    column: int | None = None
    ahead: list[A] = field(default_factory=list)

    def half_typed(self) -> int | None:
        """The column typed with no row yet (typed ahead or not), if any."""
        if self.column is not None:
            return self.column
        digits = [digit for digit in map(self.digit_of, self.ahead) if digit]
        return digits[-1] if len(digits) % 2 else None

    def forget_half_typed(self) -> int | None:
        """Drop the column typed with no row yet (typed ahead or not); which it was."""
        column = self.half_typed()
        digits = [index for index, action in enumerate(self.ahead) if self.digit_of(action)]
        if len(digits) % 2:
            del self.ahead[digits[-1]]
        self.column = None
        return column

    def clear(self) -> None:
        """Forget everything typed."""
        self.column, self.ahead = None, []

    def take_ahead(self) -> list[A]:
        """The actions typed ahead, to play now; none are left."""
        ahead, self.ahead = self.ahead, []
        return ahead


def no_such_square(digit: str, column: int | None) -> str:
    """Why ``digit`` (9 or 0) starts or ends no square, ``column`` typed before it."""
    if column is None:
        return f"There is no column {digit}: columns and rows are 1-8 (53 is column 5, row 3)."
    return f"There is no row {digit}: rows are 1-8. Type the row for column {column}, or Esc."
