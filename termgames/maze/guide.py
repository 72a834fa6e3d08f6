"""The shortest way out as shown to a walker: it stays on the map while they follow it,
shortened from their end at each step. Pure: no terminal, no clock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from termgames.maze.generate import Square


class Guide:
    """A path shown from one square to the exit.

    A step along it takes the squares walked off its near end. A step off it leaves it
    shown from the square where the walker left it: one key too many at a junction, or
    a click that ran down a corridor past the turn, must not throw away what the player
    asked for, and the way back is their own trail. Stepping back onto it takes up the
    following from there. Only the player hides it (or a restart).
    """

    def __init__(self, squares: Sequence[Square]) -> None:
        self.squares = list(squares)
        self.first = 0
        """Where the shown part starts: the squares before it were walked."""
        # A square's place on the path, so a step costs a look-up, not a scan of a path
        # that may run to tens of thousands of squares.
        self.places = {square: place for place, square in enumerate(self.squares)}

    def __contains__(self, square: object) -> bool:
        place = self.places.get(cast(Square, square))
        return place is not None and place >= self.first

    def __len__(self) -> int:
        return len(self.squares) - self.first

    @property
    def shown(self) -> list[Square]:
        """The squares still shown, from the near end to the exit."""
        return self.squares[self.first:]

    @property
    def start(self) -> Square | None:
        """The near end: where the walker is on it, or where they left it."""
        return self.squares[self.first] if self.first < len(self.squares) else None

    def follow(self, position: Square) -> None:
        """The walker is now at ``position``: trim the path up to it if it is further
        along; anywhere else (off the path, or on a part already walked) changes
        nothing."""
        place = self.places.get(position)
        if place is not None and place > self.first:
            self.first = place

    def steps_left(self) -> int:
        """Steps from the near end to the exit."""
        return max(len(self) - 1, 0)
