"""A game of Reversi as it is played: turns, passes, take-backs and the result, as values.

The screen, the simulation and the tests all play through a Match, so a pass is
handled in one place: after every move, a side with no legal move passes at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from termgames.reversi.board import Bitboard, Position, Side, Square, count


class First(str, Enum):
    """Who moves first in a game against the computer (``--first``; a str, so that it
    compares equal to its spelling)."""

    YOU = "you"
    COMPUTER = "computer"
    RANDOM = "random"
    """Chosen at random for each game, as the classic game did."""


@dataclass(frozen=True)
class Played:
    """``side`` put a disc on ``square`` and turned the discs in ``flipped``."""

    side: Side
    square: Square
    flipped: Bitboard

    @property
    def turned(self) -> int:
        """How many discs it turned."""
        return count(self.flipped)


@dataclass(frozen=True)
class Passed:
    """``side`` had no legal move, so the other side moves again."""

    side: Side


Event = Played | Passed


@dataclass(frozen=True)
class MatchResult:
    """The final discs; ``winner`` is None for a draw."""

    x: int
    o: int

    @property
    def winner(self) -> Side | None:
        """The side with more discs, or None."""
        return Side.X if self.x > self.o else Side.O if self.o > self.x else None

    def margin(self, side: Side) -> int:
        """``side``'s discs minus the other side's."""
        return self.x - self.o if side is Side.X else self.o - self.x


@dataclass
class _Saved:
    position: Position
    moves: int
    events: int


@dataclass
class Match:
    """Position, whose turn, and everything that happened. ``takeback_sides`` are the
    sides whose moves can be taken back (the people at the board)."""

    first: Side = Side.X
    takeback_sides: frozenset[Side] = frozenset()
    position: Position = field(init=False)
    events: list[Event] = field(default_factory=list)
    moves: int = 0
    _saved: list[_Saved] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.position = Position(turn=self.first)
        self._settle()

    @classmethod
    def from_position(cls, position: Position,
                      takeback_sides: frozenset[Side] = frozenset()) -> Match:
        """A game that starts at ``position`` (a puzzle's) rather than the usual start."""
        match = cls(position.turn, takeback_sides)
        match.position = position
        match._settle()
        return match

    @property
    def turn(self) -> Side:
        """The side to move (meaningless once the game is over)."""
        return self.position.turn

    @property
    def over(self) -> bool:
        """Neither side can move."""
        return self.position.over()

    def legal(self) -> Bitboard:
        """The side to move's legal squares, as a bitboard."""
        return self.position.moves()

    def play(self, square: Square) -> list[Event]:
        """The side to move plays ``square`` (IllegalMove if it may not); returns what
        happened, passes included."""
        side = self.position.turn
        before = _Saved(self.position, self.moves, len(self.events))
        self.position, flipped = self.position.play(square)
        if side in self.takeback_sides:
            self._saved.append(before)
        self.moves += 1
        start = len(self.events)
        self.events.append(Played(side, square, flipped))
        self._settle()
        return self.events[start:]

    def _settle(self) -> None:
        """A side with no move passes, so the side to move can always move (or it is over)."""
        if self.position.must_pass():
            self.events.append(Passed(self.position.turn))
            self.position = self.position.pass_turn()

    @property
    def can_take_back(self) -> bool:
        """Whether a take-back side has a move to take back."""
        return bool(self._saved)

    def take_back(self) -> bool:
        """Back to before the last move of a take-back side, and everything after it."""
        if not self._saved:
            return False
        saved = self._saved.pop()
        self.position, self.moves = saved.position, saved.moves
        del self.events[saved.events:]
        return True

    def result(self) -> MatchResult | None:
        """The final discs once the game is over, else None."""
        if not self.over:
            return None
        return MatchResult(*self.position.score())
