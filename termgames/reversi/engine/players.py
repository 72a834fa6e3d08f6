"""Computer players: the classic strategies and two search engines, and ``think``, the
engine's public entry point.

The classic ones (corner-best, corner-side-best, random, worst) are exactly those of
the teaching program. It shuffled the legal moves and took the first best; choosing
uniformly among the best moves is the same choice, for one draw instead of a shuffle.
``search`` is the engine of ``engine``: principal variation search with a transposition
table, Multi-ProbCut and an exact endgame solver. ``search-classic`` is the engine it
replaced (``classic``), kept as the baseline and as a gentler opponent.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Protocol

from termgames.reversi.board import (
    CORNERS,
    EDGES,
    Position,
    Square,
    count,
    flips,
    squares,
)
from termgames.reversi.engine import classic, principal
from termgames.reversi.engine.classic import evaluate
from termgames.reversi.engine.limits import Limits

__all__ = ["CLASSIC", "LEVEL_STRATEGY", "PERFECT_LIMITS", "SEARCH_LIMITS", "SIMULATION_SEARCH",
           "STRATEGY_NAMES", "TOP_LEVEL", "Limits", "Opponent", "Strategy", "StrategyName",
           "Thinking", "Thought", "corner_best", "corner_side_best", "evaluate", "opponent_for",
           "random_move", "start_search", "strategy", "think", "worst"]

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


class Thinking(Protocol):
    """A search under way, as a UI drives it: a slice at a time, then its choice."""

    choice: Square
    depth: int
    nodes: int
    exact: bool
    score: int

    def advance(self, until: float = float("inf")) -> bool:
        """Search until ``until`` (a time on its clock) or the end; True once finished."""
        ...


SEARCH_LIMITS: dict[int, Limits] = {
    1: Limits(seconds=0.1, max_depth=1, endgame_empties=4),
    2: Limits(seconds=0.1, max_depth=2, endgame_empties=4),
    3: Limits(seconds=0.3, endgame_empties=9),
    4: Limits(seconds=0.3, endgame_empties=12),
    5: Limits(seconds=0.8, endgame_empties=14, wld_empties=18, keep_tables=True),
}
"""How hard the engines think at each --level: more time, more depth, an earlier exact
end (the new engine solves 14 empties in about a second)."""
TOP_LEVEL = max(SEARCH_LIMITS)
"""The strongest level: what ``think`` plays with no limit given."""
PERFECT_LIMITS = Limits(seconds=None, endgame_empties=64)
"""Perfect play: the exact endgame solver to the end, however long it takes (the daily
puzzles have at most 14 empty squares: about a second)."""


class StrategyName(str, Enum):
    """The computer players, by the names the command line and the records use (a str,
    so that a name compares equal to its spelling)."""

    CORNER_BEST = "corner-best"
    CORNER_SIDE_BEST = "corner-side-best"
    RANDOM = "random"
    WORST = "worst"
    SEARCH = "search"
    SEARCH_CLASSIC = "search-classic"

    @classmethod
    def named(cls, name: str) -> StrategyName:
        """The strategy spelt ``name``; ValueError, naming the choices, if none is."""
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"no strategy called {name!r} (choose from "
                             f"{', '.join(STRATEGY_NAMES)})") from None

    @property
    def searches(self) -> bool:
        """Whether it is an engine that thinks within limits (a level sets its strength)."""
        return self in (StrategyName.SEARCH, StrategyName.SEARCH_CLASSIC)


LEVEL_STRATEGY = {1: StrategyName.CORNER_BEST, 2: StrategyName.CORNER_SIDE_BEST,
                  3: StrategyName.SEARCH_CLASSIC, 4: StrategyName.SEARCH,
                  5: StrategyName.SEARCH}
"""The strategy each --level plays when --ai does not name one: the classic engine at 3,
the new one at 4 and, at full strength, 5."""

CLASSIC: dict[StrategyName, Strategy] = {
    StrategyName.CORNER_BEST: corner_best,
    StrategyName.CORNER_SIDE_BEST: corner_side_best,
    StrategyName.RANDOM: random_move,
    StrategyName.WORST: worst,
}
STRATEGY_NAMES = tuple(name.value for name in StrategyName)
"""Every strategy's spelling, for the command line's choices."""
SIMULATION_SEARCH = Limits(seconds=None, nodes=5_000, endgame_empties=8)
"""The engines in simulations: a node budget, so a seed gives the same games anywhere."""


def start_search(name: StrategyName | str, position: Position, limits: Limits,
                 rng: random.Random | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 kept: principal.KeptTables | None = None) -> Thinking:
    """A search of ``position`` by the engine called ``name``, to advance in slices
    (``kept``: the player's tables from its earlier moves, where its limits keep them)."""
    if StrategyName.named(name) is StrategyName.SEARCH_CLASSIC:
        return classic.ClassicSearch(position, limits, rng, clock)
    if StrategyName.named(name) is StrategyName.SEARCH:
        return principal.PrincipalVariation(position, limits, rng, clock, kept=kept)
    raise ValueError(f"{name} is not a search engine")


@dataclass(frozen=True)
class Opponent:
    """The computer player actually played: a strategy and, for an engine, its strength."""

    strategy: StrategyName
    level: int | None = None
    """1-5 for the engines; None for the classic strategies, which have no strength."""
    perfect: bool = False
    """The engine solves to the end, however long it takes (``PERFECT_LIMITS``)."""

    @property
    def name(self) -> str:
        """How the opponent is shown and recorded: 'worst', 'search level 5', 'perfect
        play'."""
        if self.perfect:
            return "perfect play"
        name = self.strategy.value
        return name if self.level is None else f"{name} level {self.level}"

    @property
    def limits(self) -> Limits:
        """How long the engine may think (the classic strategies ignore it)."""
        return PERFECT_LIMITS if self.perfect else SEARCH_LIMITS[self.level or TOP_LEVEL]

    def play(self) -> Strategy:
        """The strategy as a function."""
        return strategy(self.strategy, self.limits)


def opponent_for(level: int, ai: StrategyName | str | None = None) -> Opponent:
    """The opponent for ``--level`` and ``--ai``: ``--ai`` names the strategy, and the
    level sets an engine's strength (it means nothing to the classic strategies)."""
    if level not in SEARCH_LIMITS:
        raise ValueError(f"level must be 1 to {TOP_LEVEL}, not {level}")
    name = StrategyName.named(ai) if ai else LEVEL_STRATEGY[level]
    return Opponent(name, level if name.searches else None)


def _search_strategy(name: StrategyName, limits: Limits) -> Strategy:
    kept = principal.KeptTables()  # this strategy's own, whatever else runs beside it

    def choose(position: Position, rng: random.Random) -> Square:
        search = start_search(name, position, limits, rng, kept=kept)
        search.advance()
        return search.choice

    return choose


def strategy(name: StrategyName | str, limits: Limits | None = None) -> Strategy:
    """The strategy called ``name``; ``limits`` applies to the engines."""
    chosen = StrategyName.named(name)
    if chosen.searches:
        return _search_strategy(chosen, limits or SEARCH_LIMITS[TOP_LEVEL])
    return CLASSIC[chosen]


@dataclass(frozen=True)
class Thought:
    """What ``think`` decided: the square, and how it got there."""

    square: Square
    depth: int
    """Plies looked ahead by the deepest search finished (0: one legal move, no search)."""
    nodes: int
    """Positions searched (a budget may be passed by a few: the moves of a position next
    to the leaves are evaluated together)."""
    exact: bool
    """Whether the score is proven (searched to the end of the game)."""
    score: int
    """The final disc difference for the side to move, x100: proven if ``exact``, else
    as the evaluation predicts it."""


def think(position: Position, *, seconds: float | None = None, nodes: int | None = None,
          rng: random.Random | None = None, kept: principal.KeptTables | None = None
          ) -> Thought:
    """The engine's move in ``position``, within ``seconds`` of thinking or ``nodes``
    positions (then the same answer on any machine); with no limit given it thinks as
    the game's strongest level does, starting from the tables in ``kept`` (the same
    player's earlier moves of the game) if given. ValueError if the side to move has no
    move.

    >>> think(Position(), nodes=2000).square in Position().move_list()
    True
    """
    if not position.moves():
        raise ValueError("the side to move has no legal move")
    limits = SEARCH_LIMITS[TOP_LEVEL]
    if seconds is not None or nodes is not None:
        limits = replace(limits, seconds=seconds, nodes=nodes)
    search = principal.PrincipalVariation(position, limits, rng, kept=kept)
    search.advance()
    return Thought(search.choice, search.depth, search.nodes, search.exact,
                   _centi_discs(search.score))


def _centi_discs(score: int) -> int:
    """An engine score as a disc difference x100 (a proven one is WIN plus the discs)."""
    if score >= principal.WIN:
        return (score - principal.WIN) * 100
    if score <= -principal.WIN:
        return (score + principal.WIN) * 100
    return score
