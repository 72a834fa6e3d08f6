"""Reversi (Othello) rules on bitboards: legal moves, flips, passes, game over, perft.

Squares are numbered 0-63, row by row from the top left: square = row * 8 + column.
A side's discs are one Python int with bit ``square`` set for each disc.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from termgames.bitset import members

FULL = (1 << 64) - 1
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
EDGES = 0xFF818181818181FF
START_X = (1 << 27) | (1 << 36)  # 44 and 55 as the classic game types squares
START_O = (1 << 28) | (1 << 35)  # 54 and 45


class Player(Enum):
    """The two sides; X moves first from the standard start."""

    X = "X"
    O = "O"  # noqa: E741 - the game's own name for the side

    @property
    def other(self) -> Player:
        """The opponent."""
        return Player.O if self is Player.X else Player.X


class IllegalMove(ValueError):
    """A move to a square that flips nothing, is taken, or is off the board."""


_INNER = 0x7E7E7E7E7E7E7E7E  # columns 1-6: a run of discs that moves sideways cannot wrap


def legal_moves(own: int, opp: int) -> int:
    """Every square where ``own`` may play, as a bitboard."""
    # Unrolled by direction: in Python the loop and call overhead would cost more than
    # the shifts. Bits shifted past square 63 are dropped by the final "& empty".
    empty = ~(own | opp) & FULL
    inner = opp & _INNER
    moves = 0
    for step, run_mask in ((1, inner), (8, opp), (7, inner), (9, inner)):
        run = run_mask & (own << step)
        run |= run_mask & (run << step)
        run |= run_mask & (run << step)
        run |= run_mask & (run << step)
        run |= run_mask & (run << step)
        run |= run_mask & (run << step)
        moves |= (run << step) & empty
        run = run_mask & (own >> step)
        run |= run_mask & (run >> step)
        run |= run_mask & (run >> step)
        run |= run_mask & (run >> step)
        run |= run_mask & (run >> step)
        run |= run_mask & (run >> step)
        moves |= (run >> step) & empty
    return moves


def flips(own: int, opp: int, square: int) -> int:
    """The opposing discs a move at ``square`` turns over (0 if it is not a legal move)."""
    move = 1 << square
    if (own | opp) & move:
        return 0
    inner = opp & _INNER
    flipped = 0
    # A run of opposing discs must stay in columns 1-6 sideways (no wrapping), and the
    # square after its last disc must be one's own.
    for step, run_mask in ((1, inner), (8, opp), (7, inner), (9, inner)):
        line, last, probe = 0, 0, (move << step) & run_mask
        while probe:
            line |= probe
            last = probe
            probe = (probe << step) & run_mask
        if line and (last << step) & own:
            flipped |= line
        line, last, probe = 0, 0, (move >> step) & run_mask
        while probe:
            line |= probe
            last = probe
            probe = (probe >> step) & run_mask
        if line and (last >> step) & own:
            flipped |= line
    return flipped


squares = members
"""The squares set in a bit board, lowest first."""


def count(bits: int) -> int:
    """How many squares are set."""
    return bits.bit_count()


def square_name(square: int) -> str:
    """'col,row' as the classic game types it, 1-based: square 0 is '11'."""
    return f"{square % 8 + 1}{square // 8 + 1}"


@dataclass(frozen=True)
class Position:
    """Whose turn it is and where every disc stands."""

    x: int = START_X
    o: int = START_O
    turn: Player = Player.X

    @property
    def own(self) -> int:
        """The discs of the side to move."""
        return self.x if self.turn is Player.X else self.o

    @property
    def opp(self) -> int:
        """The discs of the side not to move."""
        return self.o if self.turn is Player.X else self.x

    @cached_property
    def legal(self) -> int:
        """Legal moves for the side to move, as a bitboard (worked out once)."""
        return legal_moves(self.own, self.opp)

    def moves(self) -> int:
        """Legal moves for the side to move, as a bitboard."""
        return self.legal

    def move_list(self) -> list[int]:
        """Legal moves for the side to move, as squares."""
        return squares(self.moves())

    def must_pass(self) -> bool:
        """The side to move has no move but the game goes on."""
        return not self.moves() and bool(legal_moves(self.opp, self.own))

    def over(self) -> bool:
        """Neither side can move."""
        return not self.moves() and not legal_moves(self.opp, self.own)

    def play(self, square: int) -> tuple[Position, int]:
        """The position after the side to move plays ``square``, and the discs it flipped."""
        if not 0 <= square < 64:
            raise IllegalMove(f"square {square} is off the board")
        flipped = flips(self.own, self.opp, square)
        if not flipped:
            raise IllegalMove(f"{square_name(square)} is not a legal move for {self.turn.value}")
        own = self.own | flipped | (1 << square)
        opp = self.opp & ~flipped
        x, o = (own, opp) if self.turn is Player.X else (opp, own)
        return Position(x, o, self.turn.other), flipped

    def pass_turn(self) -> Position:
        """The same discs with the other side to move."""
        return Position(self.x, self.o, self.turn.other)

    def score(self) -> tuple[int, int]:
        """(X discs, O discs)."""
        return count(self.x), count(self.o)

    def empties(self) -> int:
        """Empty squares left."""
        return 64 - count(self.x | self.o)

    def at(self, square: int) -> Player | None:
        """Who holds ``square``, if anyone."""
        if self.x >> square & 1:
            return Player.X
        if self.o >> square & 1:
            return Player.O
        return None


def perft(depth: int, position: Position | None = None) -> int:
    """Leaves of the legal-move tree: a pass uses a ply, a finished game is one leaf."""
    position = position or Position()
    return 1 if depth <= 0 else _perft(position.own, position.opp, depth)


def _perft(own: int, opp: int, depth: int) -> int:
    moves = legal_moves(own, opp)
    if depth == 1 or not moves:
        if moves:
            return count(moves)
        if depth == 1 or not legal_moves(opp, own):
            return 1  # a pass (one leaf at the last ply) or a finished game
        return _perft(opp, own, depth - 1)
    total = 0
    while moves:
        low = moves & -moves
        moves ^= low
        flipped = flips(own, opp, low.bit_length() - 1)
        total += _perft(opp & ~flipped, own | flipped | low, depth - 1)
    return total
