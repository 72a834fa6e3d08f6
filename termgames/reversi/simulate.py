"""Computer against computer, many games: per-game results, tallies and a margin histogram.

Each game gets its own RNG seeded from (seed, game number), so the results of a seed
are the same whether the games run in one process or many.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from termgames.reversi.ai import SIMULATION_SEARCH, strategy
from termgames.reversi.board import Player
from termgames.reversi.match import Match
from termgames.runtime.workers import count_work, results_as_done


@dataclass(frozen=True)
class GameResult:
    """One finished game: its number, the final discs and who moved first."""

    number: int
    x: int
    o: int
    first: Player

    @property
    def margin(self) -> int:
        """X's discs minus O's."""
        return self.x - self.o

    def line(self) -> str:
        """The classic per-game line."""
        return f"#{self.number}: X scored {self.x} points. O scored {self.o} points."


def play_game(number: int, x_name: str, o_name: str, seed: int,
              on_move: Callable[[], None] | None = None) -> GameResult:
    """Play game ``number`` of a simulation; the first player is chosen at random.
    ``on_move`` is called after each move (to count them for a progress line)."""
    rng = random.Random(f"{seed}:{number}")
    players = {Player.X: strategy(x_name, SIMULATION_SEARCH),
               Player.O: strategy(o_name, SIMULATION_SEARCH)}
    first = rng.choice([Player.X, Player.O])
    match = Match(first)
    while not match.over:
        match.play(players[match.turn](match.position, rng))
        if on_move is not None:
            on_move()
    x, o = match.position.score()
    return GameResult(number, x, o, first)


def play_job(job: tuple[int, str, str, int]) -> GameResult:
    """``play_game`` for a worker process, its moves counted: ``job`` is (number, X's
    strategy, O's strategy, seed)."""
    return play_game(*job, on_move=count_work)


def chunk_size(games: int, jobs: int, x_name: str, o_name: str) -> int:
    """Games a worker takes at a time: a classic game takes a few milliseconds, so one at
    a time would spend more on passing them than on playing them; a search game takes
    seconds, so chunks of them would leave a worker idle and the progress line still."""
    if "search" in (x_name, o_name):
        return 1
    return max(1, min(16, games // (jobs * 4)))


def jobs_of(games: int, x_name: str, o_name: str, seed: int) -> list[tuple[int, str, str, int]]:
    """The jobs of a simulation, one a game, numbered from 1."""
    return [(number, x_name, o_name, seed) for number in range(1, games + 1)]


def run(games: int, x_name: str, o_name: str, seed: int, jobs: int) -> Iterator[GameResult]:
    """Every game's result, in game order, over ``jobs`` processes."""
    work = jobs_of(games, x_name, o_name, seed)
    waiting: dict[int, GameResult] = {}
    following = 1
    with results_as_done(play_job, work, jobs, chunk_size(games, jobs, x_name, o_name)
                         ) as results:
        for result in results:
            waiting[result.number] = result
            while following in waiting:
                yield waiting.pop(following)
                following += 1


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


def tally(results: list[GameResult]) -> Tally:
    """Count wins and ties."""
    return Tally(sum(1 for r in results if r.margin > 0), sum(1 for r in results if r.margin < 0),
                 sum(1 for r in results if r.margin == 0))


def histogram(results: list[GameResult], width: int = 50, bucket: int = 8) -> list[str]:
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
