"""Computer against computer, many games: per-game results, tallies and a margin histogram.

Each game gets its own RNG seeded from (seed, game number), so the results of a seed
are the same whether the games run in one process or many.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from termgames.commands.workers import count_work, in_order, results_as_done
from termgames.reversi.board import Side
from termgames.reversi.engine import SIMULATION_SEARCH, StrategyName, strategy
from termgames.reversi.match import Match, MatchResult

Job = tuple[int, StrategyName, StrategyName, int]
"""A game of a simulation: its number, X's strategy, O's strategy and the seed."""


@dataclass(frozen=True)
class SimulatedMatch:
    """One game of a simulation: its number, who moved first, and how it ended."""

    number: int
    first: Side
    result: MatchResult

    @property
    def x(self) -> int:
        """X's discs at the end."""
        return self.result.x

    @property
    def o(self) -> int:
        """O's discs at the end."""
        return self.result.o

    @property
    def margin(self) -> int:
        """X's discs minus O's."""
        return self.result.margin(Side.X)

    def line(self) -> str:
        """The classic per-game line."""
        return f"#{self.number}: X scored {self.x} points. O scored {self.o} points."


def play_game(number: int, x_name: StrategyName | str, o_name: StrategyName | str, seed: int,
              on_move: Callable[[], None] | None = None) -> SimulatedMatch:
    """Play game ``number`` of a simulation; the first player is chosen at random.
    ``on_move`` is called after each move (to count them for a progress line)."""
    rng = random.Random(f"{seed}:{number}")
    players = {Side.X: strategy(x_name, SIMULATION_SEARCH),
               Side.O: strategy(o_name, SIMULATION_SEARCH)}
    first = rng.choice([Side.X, Side.O])
    match = Match(first)
    while (result := match.result()) is None:
        match.play(players[match.turn](match.position, rng))
        if on_move is not None:
            on_move()
    return SimulatedMatch(number, first, result)


def play_job(job: Job) -> SimulatedMatch:
    """``play_game`` for a worker process, its moves counted."""
    return play_game(*job, on_move=count_work)


def chunk_size(games: int, jobs: int, x_name: StrategyName | str,
               o_name: StrategyName | str) -> int:
    """Games a worker takes at a time: a classic game takes a few milliseconds, so one at
    a time would spend more on passing them than on playing them; a search game takes
    seconds, so chunks of them would leave a worker idle and the progress line still."""
    if StrategyName.named(x_name).searches or StrategyName.named(o_name).searches:
        return 1
    return max(1, min(16, games // (jobs * 4)))


def jobs_of(games: int, x_name: StrategyName | str, o_name: StrategyName | str, seed: int
            ) -> list[Job]:
    """The jobs of a simulation, one a game, numbered from 1."""
    x, o = StrategyName.named(x_name), StrategyName.named(o_name)
    return [(number, x, o, seed) for number in range(1, games + 1)]


def run(games: int, x_name: StrategyName | str, o_name: StrategyName | str, seed: int,
        jobs: int) -> Iterator[SimulatedMatch]:
    """Every game's result, in game order, over ``jobs`` processes."""
    with results_as_done(play_job, jobs_of(games, x_name, o_name, seed), jobs,
                         chunk_size(games, jobs, x_name, o_name)) as results:
        yield from in_order(results, lambda result: result.number)


@dataclass(frozen=True)
class Tally:
    """Wins for each side and ties, over a simulation."""

    x_wins: int
    o_wins: int
    ties: int

    @property
    def games(self) -> int:
        """Games counted."""
        return self.x_wins + self.o_wins + self.ties

    def lines(self) -> list[str]:
        """The classic summary, percentages to one decimal."""
        def share(n: int) -> str:
            return f"{n} ({100 * n / self.games:.1f}%)" if self.games else "0"

        return [f"X wins: {share(self.x_wins)}", f"O wins: {share(self.o_wins)}",
                f"Ties: {share(self.ties)}"]


def tally(results: list[SimulatedMatch]) -> Tally:
    """Count wins and ties."""
    winners = [simulated.result.winner for simulated in results]
    return Tally(winners.count(Side.X), winners.count(Side.O), winners.count(None))


def histogram(results: list[SimulatedMatch], width: int = 50, bucket: int = 8) -> list[str]:
    """A text histogram of final margins (X minus O), in buckets of ``bucket`` discs."""
    if not results:
        return []
    counts: dict[int, int] = {}
    for result in results:
        low = (result.margin + 64) // bucket * bucket - 64
        counts[low] = counts.get(low, 0) + 1
    top = max(counts.values())
    lines = ["Final margin (X - O):"]
    for low in range(min(counts), max(counts) + 1, bucket):
        high = min(low + bucket - 1, 64)
        n = counts.get(low, 0)
        bar = "#" * round(width * n / top)
        lines.append(f"{low:>+4} to {high:>+3} | {bar} {n}")
    return lines
