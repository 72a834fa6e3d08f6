"""The classic search engine (``search-classic``): negamax with alpha-beta, iterative
deepening under a time or node budget, move ordering by square and by the previous
iteration, and a hand-made evaluation of mobility, corners and stable edge discs; with
few squares left it searches to the end. It is kept unchanged as the baseline every new
engine is matched against, and as a gentler opponent."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from termgames.reversi.board import (
    BOTTOM_LEFT,
    BOTTOM_RIGHT,
    CORNERS,
    EAST,
    EDGES,
    FULL,
    NORTH,
    SOUTH,
    TOP_LEFT,
    TOP_RIGHT,
    WEST,
    Bitboard,
    Position,
    Ray,
    Square,
    bit,
    count,
    flips,
    legal_moves,
)
from termgames.reversi.engine.limits import Limits

__all__ = ["WIN", "ClassicSearch", "evaluate"]

WIN = 1_000_000
# The two edges leaving each corner, as rays: walked for discs that can never be flipped.
_EDGE_RAYS: dict[Square, tuple[Ray, Ray]] = {
    TOP_LEFT: (EAST, SOUTH), TOP_RIGHT: (WEST, SOUTH),
    BOTTOM_LEFT: (EAST, NORTH), BOTTOM_RIGHT: (WEST, NORTH)}
# Square classes for the positional term: corners, the squares beside them along the
# edges (C-squares), and the rest of the edges. X-squares (diagonal to a corner, a step
# along both its edges) give the corner away.
_X_SQUARES: Bitboard = 0
_C_SQUARES: Bitboard = 0
for _corner, (_along, _down) in _EDGE_RAYS.items():
    _X_SQUARES |= bit(_corner + _along + _down)
    _C_SQUARES |= bit(_corner + _along) | bit(_corner + _down)
_PLAIN_EDGES: Bitboard = EDGES & ~CORNERS & ~_C_SQUARES
_CORNER_NEIGHBOURS: dict[Square, Bitboard] = {
    corner: bit(corner + along) | bit(corner + down) | bit(corner + along + down)
    for corner, (along, down) in _EDGE_RAYS.items()}


def _stable_edge_discs(own: Bitboard) -> Bitboard:
    """Discs on an edge joined to an owned corner by an unbroken run of one's own discs."""
    stable = 0
    for corner, steps in _EDGE_RAYS.items():
        if not own >> corner & 1:
            continue
        stable |= 1 << corner
        for step in steps:
            square = corner + step
            for _ in range(7):
                if not own >> square & 1:
                    break
                stable |= 1 << square
                square += step
    return stable


def evaluate(own: Bitboard, opp: Bitboard) -> int:
    """How good the position is for the side to move (``own``), in centi-discs."""
    own_moves, opp_moves = count(legal_moves(own, opp)), count(legal_moves(opp, own))
    score = 80 * (own_moves - opp_moves)
    score += 800 * (count(own & CORNERS) - count(opp & CORNERS))
    score += 120 * (count(_stable_edge_discs(own)) - count(_stable_edge_discs(opp)))
    score += 20 * (count(own & _PLAIN_EDGES) - count(opp & _PLAIN_EDGES))
    empty = ~(own | opp) & FULL
    for corner, neighbours in _CORNER_NEIGHBOURS.items():
        if empty >> corner & 1:  # next to an empty corner, a disc hands it over
            x_square = neighbours & _X_SQUARES
            score -= 250 * (count(own & x_square) - count(opp & x_square))
            score -= 60 * (count(own & neighbours & ~x_square)
                           - count(opp & neighbours & ~x_square))
    return score


_ORDER_WEIGHT = [0] * 64
for _square in range(64):
    _bit = bit(_square)
    _ORDER_WEIGHT[_square] = (4 if _bit & CORNERS else 0 if _bit & _X_SQUARES else
                              1 if _bit & _C_SQUARES else 3 if _bit & EDGES else 2)


class _OutOfBudget(Exception):
    """The search ran out of time or nodes in the middle of an iteration."""


class ClassicSearch:
    """One search from one position, resumable in slices so a UI can stay responsive:
    the classic engine, kept as the baseline new engines are matched against."""

    def __init__(self, position: Position, limits: Limits, rng: random.Random | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.root = position
        self.limits = limits
        self.clock = clock
        self.started = clock()
        self.deadline = (self.started + limits.seconds) if limits.seconds else float("inf")
        self.nodes = 0
        self.best_move: dict[tuple[Bitboard, Bitboard], Square] = {}
        moves = position.move_list()
        (rng or random.Random(0)).shuffle(moves)
        moves.sort(key=lambda square: -_ORDER_WEIGHT[square])
        self.moves: list[Square] = moves
        self.choice: Square = moves[0]
        self.score = 0
        self.depth = 0
        self.exact = False
        empties = position.empties()
        if empties <= limits.endgame_empties:
            self.depths = [min(2, empties), empties]  # a quick answer, then the exact one
        else:
            self.depths = list(range(1, min(limits.max_depth, empties) + 1))
        self.finished = len(moves) <= 1
        self._iteration: list[tuple[int, Square]] = []  # (score, move) searched this depth
        self._alpha = -WIN * 2

    def _charge(self) -> None:
        self.nodes += 1
        if self.limits.nodes is not None and self.nodes > self.limits.nodes:
            raise _OutOfBudget
        if self.nodes & 255 == 0 and self.clock() > self.deadline:
            raise _OutOfBudget

    def advance(self, until: float = float("inf")) -> bool:
        """Search until ``until`` (a time on its clock) or the end; True once finished."""
        while not self.finished:
            if self.clock() >= until:
                return False
            if not self._iteration and not self.depths:
                self.finished = True
                break
            depth = self.depths[0]
            index = len(self._iteration)
            square = self.moves[index]
            try:
                own, opp = self.root.own, self.root.opp
                flipped = flips(own, opp, square)
                score = -self._negamax(opp & ~flipped, own | flipped | (1 << square),
                                       depth - 1, -WIN * 2, -self._alpha)
            except _OutOfBudget:
                self.finished = True
                break
            self._iteration.append((score, square))
            self._alpha = max(self._alpha, score)
            if len(self._iteration) == len(self.moves):
                self._complete(depth)
        return True

    def _complete(self, depth: int) -> None:
        ranked = sorted(self._iteration, key=lambda item: -item[0])
        self.score, self.choice = ranked[0]
        self.moves = [square for _, square in ranked]
        self.depth = depth
        self.exact = depth >= self.root.empties()
        self._iteration = []
        self._alpha = -WIN * 2
        self.depths.pop(0)
        if self.exact or abs(self.score) >= WIN or self.clock() > self.deadline:
            self.finished = True

    def _negamax(self, own: Bitboard, opp: Bitboard, depth: int, alpha: int, beta: int
                 ) -> int:
        self._charge()
        moves = legal_moves(own, opp)
        if not moves:
            if not legal_moves(opp, own):
                difference = count(own) - count(opp)
                return WIN * (1 if difference > 0 else -1 if difference < 0 else 0) + difference
            return -self._negamax(opp, own, depth, -beta, -alpha)
        if depth <= 0:
            return evaluate(own, opp)
        ordered: list[Square] = []
        while moves:
            low = moves & -moves
            moves ^= low
            ordered.append(low.bit_length() - 1)
        hinted = self.best_move.get((own, opp))
        ordered.sort(key=lambda sq: (sq != hinted, -_ORDER_WEIGHT[sq]))
        best, best_square = -WIN * 2, ordered[0]
        for square in ordered:
            flipped = flips(own, opp, square)
            score = -self._negamax(opp & ~flipped, own | flipped | (1 << square), depth - 1,
                                   -beta, -alpha)
            if score > best:
                best, best_square = score, square
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        self.best_move[(own, opp)] = best_square
        return best
