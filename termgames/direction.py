"""The one direction type every game and the runtime share: up, down, left, right, as a
step of (rows, columns) on a grid. Pure: cores and the runtime both import it."""

from __future__ import annotations

from enum import Enum

Square = tuple[int, int]
"""(row, column) on a grid."""


class Direction(Enum):
    """A step on a grid: its value is (rows, columns) moved."""

    UP = (-1, 0)
    DOWN = (1, 0)
    LEFT = (0, -1)
    RIGHT = (0, 1)

    @property
    def word(self) -> str:
        """'up', 'down', 'left' or 'right', as players read it."""
        return self.name.lower()

    @property
    def letter(self) -> str:
        """The LURD letter of a plain move this way (Sokoban's solutions: 'u')."""
        return self.name[0].lower()

    @property
    def opposite(self) -> Direction:
        """The way back."""
        return Direction((-self.value[0], -self.value[1]))

    def step(self, square: Square, distance: int = 1) -> Square:
        """The square ``distance`` steps this way from ``square``."""
        return square[0] + self.value[0] * distance, square[1] + self.value[1] * distance
