"""The 2048 simulation lab: the AI plays whole games, and a summary says how well.

Each game's tiles spawn from an RNG seeded from (seed, game number), and the AI's
thinking is bounded by a count of positions, not by time, so a seed gives the same games
on any machine and whether the games run in one process or many. Only the timings differ.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from termgames.g2048.ai import HINT, PLAY, tables, think
from termgames.g2048.assist import PLAY_NODES, Allowance
from termgames.g2048.board import DEFAULT_GOAL, Game2048, highest_tile, largest_possible

DEFAULT_NODES = PLAY_NODES
"""Positions the AI may search a move, on average, unless ``--nodes`` says otherwise."""
MILESTONES = (2048, 4096, 8192, 16384)
"""The tiles whose games the summary counts."""


@dataclass(frozen=True)
class SimulatedGame:
    """One finished game: its number, score, largest tile, moves, the positions the AI
    searched and the seconds of CPU it took (thinking and sliding: a game's cost on one
    core, whatever else the machine runs)."""

    number: int
    score: int
    max_tile: int
    moves: int
    nodes: int
    seconds: float

    def line(self) -> str:
        """The per-game report line (no timings, so it is the same for any ``--jobs``)."""
        return (f"#{self.number}: score {self.score:,}, largest tile {self.max_tile:,}, "
                f"{self.moves:,} moves")


def game_rng(seed: int, number: int) -> random.Random:
    """The spawns' RNG of game ``number`` of a simulation seeded with ``seed``."""
    return random.Random(f"2048:{seed}:{number}")


def play_game(number: int, seed: int, nodes: int, size: int = 4,
              budget_ms: float | None = None, until: int | None = None,
              on_move: Callable[[], None] | None = None) -> SimulatedGame:
    """Let the AI play game ``number`` of a simulation to the end (or until it makes the
    tile ``until``), on a ``size`` x ``size`` board, searching ``nodes`` positions a move
    on average as autoplay does: a move may also spend what the moves before it left
    unspent (up to ``SAVINGS_CAP`` moves' worth), so the crowded positions that need a deep
    look get one. With ``budget_ms``, each move thinks within that time instead, and as far
    ahead, as the game's hint does: the games then depend on the machine. ``on_move`` is
    called after each move (to count them for a progress line)."""
    if size == 4:
        tables()  # built once a process, before the clock starts
    game = Game2048(size, min(DEFAULT_GOAL, largest_possible(size)), game_rng(seed, number))
    allowance = Allowance(nodes)
    searched = 0
    started = time.process_time()
    while until is None or highest_tile(game.grid) < until:
        decision = think(game.grid, budget_ms=budget_ms,
                         nodes=None if budget_ms is not None else allowance.now(),
                         lookahead=PLAY if budget_ms is None else HINT)
        if decision is None:
            break
        searched += decision.nodes
        allowance.spend(decision.nodes)
        game.slide(decision.direction)
        if on_move is not None:
            on_move()
    seconds = time.process_time() - started
    return SimulatedGame(number, game.score, highest_tile(game.grid), game.moves, searched,
                      seconds)


def play_job(job: tuple[int, int, int, int]) -> SimulatedGame:
    """``play_game`` for a worker process, its moves counted: ``job`` is (number, seed,
    nodes, size)."""
    # Imported here, not at the top: `termgames 2048` imports this module, and a game
    # should not pay for multiprocessing at start-up.
    from termgames.commands.workers import count_work

    number, seed, nodes, size = job
    return play_game(number, seed, nodes, size, on_move=count_work)


@dataclass(frozen=True)
class Summary:
    """What a simulation's games add up to. ``seconds`` is the wall-clock time of the
    whole run; the games' own seconds are the time spent per move."""

    games: int
    reached: dict[int, int]
    max_tile: dict[int, int]
    median_score: float
    best_score: int
    moves: int
    nodes: int
    game_seconds: float
    seconds: float

    @property
    def ms_per_move(self) -> float:
        """Milliseconds a move on one core (thinking and sliding)."""
        return 1000 * self.game_seconds / self.moves if self.moves else 0.0

    @property
    def moves_per_s(self) -> float:
        """Moves a second, all worker processes together (wall clock)."""
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    @property
    def nodes_per_s(self) -> float:
        """Positions searched a second on one core."""
        return self.nodes / self.game_seconds if self.game_seconds > 0 else 0.0

    def share(self, count: int) -> str:
        """``count`` games and their percentage of all, to one decimal."""
        return f"{count:,} ({100 * count / self.games:.1f}%)" if self.games else "0"

    def lines(self) -> list[str]:
        """The summary as text: milestones, the largest tiles, scores and speed."""
        width = len(f"{max(self.max_tile, default=2):,}")
        lines = [f"Reached {tile:>5}: {self.share(self.reached[tile])}" for tile in MILESTONES]
        lines.append("Largest tile:")
        lines.extend(f"  {tile:>{width},}: {self.share(count)}"
                     for tile, count in sorted(self.max_tile.items(), reverse=True))
        lines.append(f"Median score: {self.median_score:,.0f}   Best score: "
                     f"{self.best_score:,}")
        lines.append(f"{self.ms_per_move:.2f} ms a move on one core, "
                     f"{self.moves_per_s:,.0f} moves a second in all "
                     f"({self.moves:,} moves in {self.seconds:.1f} s)")
        return lines

    def as_json(self) -> dict[str, Any]:
        """The summary with stable keys, for ``--json`` (tiles as strings, as JSON wants)."""
        return {
            "games": self.games,
            "reached": {str(tile): self.reached[tile] for tile in MILESTONES},
            "max_tile": {str(tile): count for tile, count in sorted(self.max_tile.items())},
            "median_score": self.median_score,
            "best_score": self.best_score,
            "moves": self.moves,
            "ms_per_move": round(self.ms_per_move, 3),
            "moves_per_s": round(self.moves_per_s, 1),
            "nodes_per_s": round(self.nodes_per_s),
            "seconds": round(self.seconds, 3),
        }


def summarize(results: list[SimulatedGame], seconds: float) -> Summary:
    """Add up finished games; ``seconds`` is how long the whole run took."""
    return Summary(
        games=len(results),
        reached={tile: sum(1 for r in results if r.max_tile >= tile) for tile in MILESTONES},
        max_tile=dict(Counter(r.max_tile for r in results)),
        median_score=float(statistics.median(r.score for r in results)) if results else 0.0,
        best_score=max((r.score for r in results), default=0),
        moves=sum(r.moves for r in results),
        nodes=sum(r.nodes for r in results),
        game_seconds=sum(r.seconds for r in results),
        seconds=seconds,
    )
