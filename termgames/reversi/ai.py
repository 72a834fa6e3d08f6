"""Computer players: the classic strategies and a real search engine.

The classic ones (corner-best, corner-side-best, random, worst) are exactly those of
the teaching program. It shuffled the legal moves and took the first best; choosing
uniformly among the best moves is the same choice, for one draw instead of a shuffle.
``search`` is negamax with alpha-beta, iterative deepening under a time or node budget,
move ordering, and an evaluation of mobility, corners and stable edge discs; with few
squares left it searches to the end and plays perfectly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

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
    squares,
)

Strategy = Callable[[Position, random.Random], Square]
"""Given a position with at least one legal move, and an RNG, the square to play."""


def _random_best(moves: list[Square], score: Callable[[Square], int], rng: random.Random
                 ) -> Square:
    """A uniformly random move among those with the highest score: the same choice as
    shuffling first and taking the first best, for one draw instead of a shuffle."""
    scores = [score(square) for square in moves]
    top = max(scores)
    best = [square for square, value in zip(moves, scores, strict=True) if value == top]
    return best[0] if len(best) == 1 else rng.choice(best)


def _flip_counter(position: Position, sign: int) -> Callable[[Square], int]:
    own, opp = position.own, position.opp
    return lambda square: sign * count(flips(own, opp, square))


def corner_best(position: Position, rng: random.Random) -> Square:
    """A corner if one is legal, else the move that flips the most (ties at random)."""
    legal = position.moves()
    if legal & CORNERS:
        return rng.choice(squares(legal & CORNERS))
    return _random_best(squares(legal), _flip_counter(position, 1), rng)


def corner_side_best(position: Position, rng: random.Random) -> Square:
    """A corner, else any side square, else the move that flips the most."""
    legal = position.moves()
    if legal & CORNERS:
        return rng.choice(squares(legal & CORNERS))
    if legal & EDGES:
        return rng.choice(squares(legal & EDGES))
    return _random_best(squares(legal), _flip_counter(position, 1), rng)


def random_move(position: Position, rng: random.Random) -> Square:
    """Any legal move."""
    return rng.choice(position.move_list())


def worst(position: Position, rng: random.Random) -> Square:
    """The move that flips the fewest (ties at random)."""
    return _random_best(position.move_list(), _flip_counter(position, -1), rng)


# Search ---------------------------------------------------------------------------------

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


@dataclass(frozen=True)
class Limits:
    """How long the engine may think: seconds (interactive), nodes (reproducible), depth."""

    seconds: float | None = 1.0
    nodes: int | None = None
    max_depth: int = 60
    endgame_empties: int = 12


class Search:
    """One search from one position, resumable in slices so a UI can stay responsive."""

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


def search_strategy(limits: Limits) -> Strategy:
    """A strategy that runs a whole search under ``limits``."""

    def choose(position: Position, rng: random.Random) -> Square:
        search = Search(position, limits, rng)
        search.advance()
        return search.choice

    return choose


SEARCH_LIMITS: dict[int, Limits] = {
    1: Limits(seconds=0.1, max_depth=1, endgame_empties=4),
    2: Limits(seconds=0.1, max_depth=2, endgame_empties=4),
    3: Limits(seconds=0.2, max_depth=2, endgame_empties=6),
    4: Limits(seconds=0.3, endgame_empties=9),
    5: Limits(seconds=0.8, endgame_empties=12),
}
"""How hard search thinks at each --level: more time, more depth, an earlier exact end."""


class StrategyName(str, Enum):
    """The computer players, by the names the command line and the records use (a str,
    so that a name compares equal to its spelling)."""

    CORNER_BEST = "corner-best"
    CORNER_SIDE_BEST = "corner-side-best"
    RANDOM = "random"
    WORST = "worst"
    SEARCH = "search"

    @classmethod
    def named(cls, name: str) -> StrategyName:
        """The strategy spelt ``name``; ValueError, naming the choices, if none is."""
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"no strategy called {name!r} (choose from "
                             f"{', '.join(STRATEGY_NAMES)})") from None


LEVEL_STRATEGY = {1: StrategyName.CORNER_BEST, 2: StrategyName.CORNER_SIDE_BEST,
                  3: StrategyName.SEARCH, 4: StrategyName.SEARCH, 5: StrategyName.SEARCH}
"""The strategy each --level plays when --ai does not name one."""

CLASSIC: dict[StrategyName, Strategy] = {
    StrategyName.CORNER_BEST: corner_best,
    StrategyName.CORNER_SIDE_BEST: corner_side_best,
    StrategyName.RANDOM: random_move,
    StrategyName.WORST: worst,
}
STRATEGY_NAMES = tuple(name.value for name in StrategyName)
"""Every strategy's spelling, for the command line's choices."""
SIMULATION_SEARCH = Limits(seconds=None, nodes=5_000, endgame_empties=8)
"""search in simulations: a node budget, so a seed gives the same games on any machine."""


@dataclass(frozen=True)
class Opponent:
    """The computer player actually played: a strategy and, for search, its strength."""

    strategy: StrategyName
    level: int | None = None
    """1-5 for search; None for the classic strategies, which have no strength to set."""

    @property
    def name(self) -> str:
        """How the opponent is shown and recorded: 'worst', 'search level 5'."""
        name = self.strategy.value
        return name if self.level is None else f"{name} level {self.level}"

    @property
    def limits(self) -> Limits:
        """How long search may think (the classic strategies ignore it)."""
        return SEARCH_LIMITS[self.level or 5]

    def play(self) -> Strategy:
        """The strategy as a function."""
        return strategy(self.strategy, self.limits)


def opponent_for(level: int, ai: StrategyName | str | None = None) -> Opponent:
    """The opponent for ``--level`` and ``--ai``: ``--ai`` names the strategy, and the
    level sets search's strength (it means nothing to the classic strategies)."""
    if level not in SEARCH_LIMITS:
        raise ValueError(f"level must be 1 to 5, not {level}")
    name = StrategyName.named(ai) if ai else LEVEL_STRATEGY[level]
    return Opponent(name, level if name is StrategyName.SEARCH else None)


def strategy(name: StrategyName | str, limits: Limits | None = None) -> Strategy:
    """The strategy called ``name``; ``limits`` applies to search."""
    chosen = StrategyName.named(name)
    if chosen is StrategyName.SEARCH:
        return search_strategy(limits or SEARCH_LIMITS[5])
    return CLASSIC[chosen]
