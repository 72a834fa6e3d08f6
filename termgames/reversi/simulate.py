"""Computer against computer, many games: per-game results, tallies and a margin histogram.

Each game gets its own RNG seeded from (seed, game number), so the results of a seed
are the same whether the games run in one process or many.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from termgames.reversi.ai import SIMULATION_SEARCH, strategy
from termgames.reversi.board import Player
from termgames.reversi.match import Match


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


def play_game(number: int, x_name: str, o_name: str, seed: int) -> GameResult:
    """Play game ``number`` of a simulation; the first player is chosen at random."""
    rng = random.Random(f"{seed}:{number}")
    players = {Player.X: strategy(x_name, SIMULATION_SEARCH),
               Player.O: strategy(o_name, SIMULATION_SEARCH)}
    first = rng.choice([Player.X, Player.O])
    match = Match(first)
    while not match.over:
        match.play(players[match.turn](match.position, rng))
    x, o = match.position.score()
    return GameResult(number, x, o, first)


def _play(job: tuple[int, str, str, int]) -> GameResult:
    return play_game(*job)


def run(games: int, x_name: str, o_name: str, seed: int, jobs: int) -> Iterator[GameResult]:
    """Every game's result, in game order, over ``jobs`` processes."""
    work = [(number, x_name, o_name, seed) for number in range(1, games + 1)]
    if jobs <= 1:
        yield from map(_play, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play, work, chunksize=max(1, min(16, games // (jobs * 4) or 1)))


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
