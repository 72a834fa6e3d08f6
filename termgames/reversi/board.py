"""Reversi (Othello) rules on bitboards: legal moves, flips, passes, game over, perft.

A ``Square`` is numbered 0-63, row by row from the top left: square = row * 8 + column.
A ``Bitboard`` is a set of squares, one Python int with bit ``square`` set for each: a
side's discs, the legal moves, the discs a move flips. A ``Ray`` is a direction on the
board, as the step from a square to its neighbour that way.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from termgames.bitset import members

Square = int
"""A square, 0-63: row * 8 + column, from the top left (square 0 is '11' as typed)."""
Bitboard = int
"""A set of squares: bit ``square`` is set for each square in it."""
Ray = int
"""A direction on the board: what a step that way adds to a square."""

SIDE = 8
"""Squares along each side of the board."""
EAST, WEST = 1, -1
SOUTH, NORTH = SIDE, -SIDE
SOUTH_EAST, NORTH_WEST = SIDE + 1, -SIDE - 1
SOUTH_WEST, NORTH_EAST = SIDE - 1, -SIDE + 1
RAYS: tuple[Ray, ...] = (EAST, SOUTH, SOUTH_WEST, SOUTH_EAST)
"""Half the eight directions: each with its opposite (the negative) is every direction,
and a Bitboard moves along one by a shift (left for these, right for their opposites)."""

TOP_LEFT, TOP_RIGHT, BOTTOM_LEFT, BOTTOM_RIGHT = 0, SIDE - 1, SIDE * (SIDE - 1), SIDE * SIDE - 1
"""The corners, as squares."""


def bit(square: Square) -> Bitboard:
    """The set of one square."""
    return 1 << square


FULL: Bitboard = (1 << 64) - 1
CORNERS: Bitboard = bit(TOP_LEFT) | bit(TOP_RIGHT) | bit(BOTTOM_LEFT) | bit(BOTTOM_RIGHT)
EDGES: Bitboard = 0xFF818181818181FF
START_X: Bitboard = bit(27) | bit(36)  # 44 and 55 as the classic game types squares
START_O: Bitboard = bit(28) | bit(35)  # 54 and 45


class Side(Enum):
    """The two sides; X moves first from the standard start."""

    X = "X"
    O = "O"  # noqa: E741 - the game's own name for the side

    @property
    def other(self) -> Side:
        """The opponent."""
        return Side.O if self is Side.X else Side.X


class IllegalMove(ValueError):
    """A move to a square that flips nothing, is taken, or is off the board."""


_INNER: Bitboard = 0x7E7E7E7E7E7E7E7E  # columns 1-6: a run going sideways cannot wrap


def legal_moves(own: Bitboard, opp: Bitboard) -> Bitboard:
    """Every square where ``own`` may play, as a bitboard."""
    # Unrolled by direction: in Python the loop and call overhead would cost more than
    # the shifts. Bits shifted past square 63 are dropped by the final "& empty".
    empty = ~(own | opp) & FULL
    inner = opp & _INNER
    moves = 0
    for step, run_mask in ((EAST, inner), (SOUTH, opp), (SOUTH_WEST, inner),
                           (SOUTH_EAST, inner)):
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


def flips(own: Bitboard, opp: Bitboard, square: Square) -> Bitboard:
    """The opposing discs a move at ``square`` turns over (0 if it is not a legal move)."""
    move = 1 << square
    if (own | opp) & move:
        return 0
    inner = opp & _INNER
    flipped = 0
    # A run of opposing discs must stay in columns 1-6 sideways (no wrapping), and the
    # square after its last disc must be one's own.
    for step, run_mask in ((EAST, inner), (SOUTH, opp), (SOUTH_WEST, inner),
                           (SOUTH_EAST, inner)):
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


def count(bits: Bitboard) -> int:
    """How many squares are set."""
    return bits.bit_count()


def square_name(square: Square) -> str:
    """'col,row' as the classic game types it, 1-based: square 0 is '11'."""
    return f"{square % SIDE + 1}{square // SIDE + 1}"


@dataclass(frozen=True)
class Position:
    """Whose turn it is and where every disc stands."""

    x: Bitboard = START_X
    o: Bitboard = START_O
    turn: Side = Side.X

    @property
    def own(self) -> Bitboard:
        """The discs of the side to move."""
        return self.x if self.turn is Side.X else self.o

    @property
    def opp(self) -> Bitboard:
        """The discs of the side not to move."""
        return self.o if self.turn is Side.X else self.x

    @cached_property
    def legal(self) -> Bitboard:
        """Legal moves for the side to move, as a bitboard (worked out once)."""
        return legal_moves(self.own, self.opp)

    def moves(self) -> Bitboard:
        """Legal moves for the side to move, as a bitboard."""
        return self.legal

    def move_list(self) -> list[Square]:
        """Legal moves for the side to move, as squares."""
        return squares(self.moves())

    def must_pass(self) -> bool:
        """The side to move has no move but the game goes on."""
        return not self.moves() and bool(legal_moves(self.opp, self.own))

    def over(self) -> bool:
        """Neither side can move."""
        return not self.moves() and not legal_moves(self.opp, self.own)

    def play(self, square: Square) -> tuple[Position, Bitboard]:
        """The position after the side to move plays ``square``, and the discs it flipped."""
        if not 0 <= square < 64:
            raise IllegalMove(f"square {square} is off the board")
        flipped = flips(self.own, self.opp, square)
        if not flipped:
            raise IllegalMove(f"{square_name(square)} is not a legal move for {self.turn.value}")
        own = self.own | flipped | (1 << square)
        opp = self.opp & ~flipped
        x, o = (own, opp) if self.turn is Side.X else (opp, own)
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

    def at(self, square: Square) -> Side | None:
        """Who holds ``square``, if anyone."""
        if self.x >> square & 1:
            return Side.X
        if self.o >> square & 1:
            return Side.O
        return None


def perft(depth: int, position: Position | None = None) -> int:
    """Leaves of the legal-move tree: a pass uses a ply, a finished game is one leaf."""
    position = position or Position()
    return 1 if depth <= 0 else _perft(position.own, position.opp, depth)


def _perft(own: Bitboard, opp: Bitboard, depth: int) -> int:
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
