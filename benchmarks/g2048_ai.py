"""2048 AI: how far seeded games get, and how fast, at each node budget; baselines beside.

Usage: python -m benchmarks.g2048_ai [--games N] [--nodes K ...] [--seed S] [--jobs J]
       [--sample-games M] [--until TILE] [--no-hint] [--no-baselines]

Each row plays the same seeded games (the ones ``termgames 2048 simulate --seed S`` plays)
to the end, or with ``--until`` until they make that tile (the milestones past it are then
not measured, and the scores are the scores there). Speed is per core, from each game's
CPU time (so other work on the machine does not count against it): ms a move (mean over
all moves, and the median of the games' means), moves and positions a second. The first
line is the one-off cost of the row tables, built when the AI first thinks in a process.

Rows: a node budget (default autoplay's, ``PLAY_NODES`` a move on average with savings
carried; seeded games, the same on any machine) over N games; then the hint's time budget
over the first M games (default 5): time-bound games depend on the machine. All the AI's
games share one pool of workers. Then the baselines, over N.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from termgames.commands.workers import results_as_done
from termgames.g2048.ai import bitboard
from termgames.g2048.assist import HINT_BUDGET_MS
from termgames.g2048.board import Direction, Game2048, Grid, highest_tile, move
from termgames.g2048.simulate import (
    DEFAULT_NODES,
    MILESTONES,
    SimulatedGame,
    game_rng,
    play_game,
    summarize,
)

Strategy = Callable[[Grid, random.Random], Direction]
CORNER_ORDER = (Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP)


def corner(grid: Grid, _rng: random.Random) -> Direction:
    """Down, left, right, up: the first that moves."""
    return next(d for d in CORNER_ORDER if move(grid, d).changed)


def random_move(grid: Grid, rng: random.Random) -> Direction:
    """Any slide that moves."""
    return rng.choice([d for d in CORNER_ORDER if move(grid, d).changed])


def greedy(grid: Grid, _rng: random.Random) -> Direction:
    """The slide that scores most now (ties: the corner order)."""
    moving = [d for d in CORNER_ORDER if move(grid, d).changed]
    return max(moving, key=lambda d: move(grid, d).gained)


BASELINES: dict[str, Strategy] = {"corner (down, left, right, up)": corner,
                                  "random": random_move, "greedy-merge": greedy}


def play_baseline(job: tuple[int, int, str]) -> SimulatedGame:
    """Game ``number`` of seed ``seed`` played by the named baseline."""
    number, seed, name = job
    strategy, choices = BASELINES[name], random.Random(f"choices:{seed}:{number}")
    game = Game2048(4, 2048, game_rng(seed, number))
    started = time.perf_counter()
    while not game.over:
        game.slide(strategy(game.grid, choices))
    return SimulatedGame(number, game.score, highest_tile(game.grid), game.moves, 0,
                      time.perf_counter() - started)


AiJob = tuple[str, int, int, int, float | None, int | None]
"""A game of a row: (row, game number, seed, positions a move, or else ms a move, and the
tile it stops at, if any)."""


def play_ai(job: AiJob) -> tuple[str, SimulatedGame]:
    """A row's game: bounded by positions (as autoplay and the simulator play) or, given
    a time budget, by time (as the game's hint thinks)."""
    name, number, seed, nodes, budget_ms, until = job
    return name, play_game(number, seed, nodes, 4, budget_ms=budget_ms, until=until)


def row(name: str, results: list[SimulatedGame], seconds: float) -> list[str]:
    """One table row from a setting's games."""
    summary = summarize(results, seconds)
    tiles = " ".join(f"{tile}x{count}" for tile, count in
                     sorted(summary.max_tile.items(), reverse=True))
    per_game = statistics.median(1000 * r.seconds / r.moves for r in results if r.moves)
    ms = summary.ms_per_move
    return [name, str(summary.games), *(str(summary.reached[tile]) for tile in MILESTONES), tiles,
            f"{summary.median_score:,.0f}", f"{summary.best_score:,}", f"{ms:.2f}",
            f"{per_game:.2f}", f"{1000 / ms:,.0f}" if ms else "-",
            f"{summary.nodes_per_s:,.0f}" if summary.nodes else "-"]


def print_table(header: list[str], rows: list[list[str]]) -> None:
    """Rows under a header, each column as wide as its widest cell."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for cells in [header, [], *rows]:
        if not cells:
            print("  ".join("-" * w for w in widths))
            continue
        print("  ".join(c.ljust(w) if i in (0, 6) else c.rjust(w)
                        for i, (c, w) in enumerate(zip(cells, widths, strict=True))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--nodes", type=int, action="append",
                        help=f"a node budget a move (repeatable; default {DEFAULT_NODES})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--sample-games", type=int, default=5,
                        help="games for the hint's time-bound row (default 5)")
    parser.add_argument("--until", type=int, metavar="TILE",
                        help="stop each AI game once it makes this tile")
    parser.add_argument("--no-hint", action="store_true",
                        help="leave out the hint's time-bound row")
    parser.add_argument("--no-baselines", action="store_true")
    options = parser.parse_args()

    begun = started = time.perf_counter()
    bitboard.tables()  # the first call in this process builds them
    build = time.perf_counter() - started
    print(f"Row tables (bitboard.tables(), first call): {1000 * build:.0f} ms, once a process")
    until = f", each until it makes {options.until:,}" if options.until else ""
    print(f"{options.games} games a row{until}, seed {options.seed}, {options.jobs} jobs; "
          "speed is per core\n")

    header = ["player", "games", *(str(tile) for tile in MILESTONES), "largest tiles", "median",
              "best", "ms/move", "median ms/move", "moves/s", "nodes/s"]
    numbers = range(1, options.games + 1)
    # One pool for every AI game, the long time-bound samples first, so that no core
    # idles while another finishes a row's last game.
    jobs: list[AiJob] = []
    if not options.no_hint:
        hint = f"hint, {HINT_BUDGET_MS:g} ms a move"
        jobs += [(hint, n, options.seed, 0, HINT_BUDGET_MS, options.until)
                 for n in range(1, min(options.sample_games, options.games) + 1)]
    budgets = options.nodes or [DEFAULT_NODES]
    names = [f"AI, {nodes:,} nodes a move{' (autoplay)' if nodes == DEFAULT_NODES else ''}"
             for nodes in budgets]
    for name, nodes in zip(names, budgets, strict=True):
        jobs += [(name, n, options.seed, nodes, None, options.until) for n in numbers]
    found: dict[str, list[SimulatedGame]] = {}
    started = time.perf_counter()
    with results_as_done(play_ai, jobs, options.jobs) as results:
        for name, result in results:
            found.setdefault(name, []).append(result)
            print(f"{name}: game {result.number}, largest tile {result.max_tile:,}, "
                  f"{result.moves:,} moves, {1000 * result.seconds / result.moves:.2f} ms a "
                  "move", flush=True)
    seconds = time.perf_counter() - started
    order = [*names, *reversed(dict.fromkeys(job[0] for job in jobs if job[0] not in names))]
    rows = [row(name, found[name], seconds) for name in order if name in found]
    if not options.no_baselines:
        for name in BASELINES:
            started = time.perf_counter()
            with results_as_done(play_baseline, [(n, options.seed, name) for n in numbers],
                                 options.jobs) as played:
                baseline = list(played)
            rows.append(row(name, baseline, time.perf_counter() - started))
    print(f"\nAll rows ({(time.perf_counter() - begun) / 60:.1f} minutes in all):")
    print_table(header, rows)


if __name__ == "__main__":
    main()
