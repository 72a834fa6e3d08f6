"""Reversi: throughput against the classic approach, engine strength, classic tallies,
perft, and the two engines side by side (search-classic and search: positions a second
and depth reached at level 5's 0.8 s in the midgame, time to solve endgames exactly).

Usage: python -m benchmarks.reversi [--part throughput|strength|tallies|perft|engines ...]
       [--throughput-games N] [--strength-games N] [--tally-games N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from benchmarks import classic_reversi
from benchmarks.ptycost import percentile, print_table
from termgames.reversi.board import Position, Side, perft
from termgames.reversi.engine.players import SEARCH_LIMITS, Limits, corner_best, start_search
from termgames.reversi.engine.principal import KeptTables
from termgames.reversi.match import Match
from termgames.reversi.simulate import run, tally

PUBLISHED = {"worst": 82.4, "random": 78.0, "corner-side-best": 60.8}


def throughput(games: int) -> list[tuple[str, str, str]]:
    """Games per second, corner-best against corner-best: classic baseline and ours."""
    rng = random.Random(1)
    started = time.perf_counter()
    for _ in range(games):
        classic_reversi.play_game(rng)
    baseline = games / (time.perf_counter() - started)
    started = time.perf_counter()
    list(run(games, "corner-best", "corner-best", seed=1, jobs=1))
    one = games / (time.perf_counter() - started)
    cores = os.cpu_count() or 1
    many = games * cores * 3  # enough games that starting the worker processes is amortised
    started = time.perf_counter()
    list(run(many, "corner-best", "corner-best", seed=2, jobs=cores))
    every = many / (time.perf_counter() - started)
    return [
        ("classic baseline, 1 core", f"{baseline:.1f}", "games/s"),
        ("ours, 1 core", f"{one:.1f}", f"games/s, {one / baseline:.1f}x (target >= 4x)"),
        (f"ours, all {cores} cores", f"{every:.1f}",
         f"games/s, {every / baseline:.1f}x (target >= 10x)"),
    ]


def strength_game(number: int) -> tuple[int, int, list[float]]:
    """Search at level 5 against corner-best; the engine plays X in odd games."""
    rng = random.Random(number)
    engine_side = Side.X if number % 2 else Side.O
    limits = SEARCH_LIMITS[5]
    match = Match(Side.X)
    times = []
    kept = KeptTables()
    while not match.over:
        position = match.position
        if position.turn is engine_side:
            started = time.perf_counter()
            search = start_search("search", position, limits, rng, kept=kept)
            search.advance()
            times.append(time.perf_counter() - started)
            move = search.choice
        else:
            move = corner_best(position, rng)
        match.play(move)
    x, o = match.position.score()
    mine, theirs = (x, o) if engine_side is Side.X else (o, x)
    return mine, theirs, times


def strength(games: int) -> list[tuple[str, str, str]]:
    """Win rate and move times of search level 5 against corner-best, colours alternating."""
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(strength_game, range(1, games + 1)))
    wins = sum(1 for mine, theirs, _ in results if mine > theirs)
    ties = sum(1 for mine, theirs, _ in results if mine == theirs)
    times = [t for _, _, game_times in results for t in game_times]
    margin = statistics.mean(mine - theirs for mine, theirs, _ in results)
    return [
        ("search level 5 vs corner-best", f"{games}", "games, colours alternating"),
        ("engine win rate", f"{100 * wins / games:.1f}%",
         f"{wins} wins, {ties} ties (target >= 95%)"),
        ("engine mean disc margin", f"{margin:+.1f}", ""),
        ("engine move time: median", f"{statistics.median(times) * 1000:.0f} ms", ""),
        ("engine move time: p95", f"{percentile(times, 0.95) * 1000:.0f} ms",
         "target <= 1000 ms"),
        ("engine move time: max", f"{max(times) * 1000:.0f} ms", ""),
    ]


def tallies(games: int) -> list[tuple[str, str, str]]:
    """corner-best (X) against each classic opponent, beside the published tallies."""
    rows = []
    for opponent, published in PUBLISHED.items():
        results = list(run(games, "corner-best", opponent, seed=3, jobs=os.cpu_count() or 1))
        summary = tally(results)
        rows.append((f"corner-best vs {opponent}",
                     f"{100 * summary.x_wins / summary.games:.1f}%",
                     f"X wins over {games} games; O {100 * summary.o_wins / summary.games:.1f}%"
                     f"; published X {published}%"))
    return rows


def perft_row() -> list[tuple[str, str, str]]:
    started = time.perf_counter()
    leaves = perft(8)
    elapsed = time.perf_counter() - started
    return [("perft(8)", f"{leaves}", f"in {elapsed:.2f} s, {leaves / elapsed:,.0f} leaves/s")]


def _played(seed: int, empties: int) -> Position:
    """A position of a seeded game of random moves, ``empties`` squares left."""
    rng, match = random.Random(seed), Match()
    while match.position.empties() > empties and not match.over:
        match.play(rng.choice(match.position.move_list()))
    return match.position


def engines() -> list[tuple[str, str, str]]:
    """Both engines in the same run: midgame positions at 0.8 s (positions a second,
    depth), then endgames of 11 empties solved exactly (time, positions a second)."""
    rows = []
    midgame = [_played(seed, empties) for seed in range(1, 4) for empties in (48, 40, 30, 22)]
    endgames = [_played(seed, 11) for seed in range(1, 6)]
    for name in ("search-classic", "search"):
        nodes, seconds, depths = 0, 0.0, []
        for position in midgame:
            started = time.perf_counter()
            search = start_search(name, position, Limits(seconds=0.8, endgame_empties=0))
            search.advance()
            seconds += time.perf_counter() - started
            nodes += search.nodes
            depths.append(search.depth)
        rows.append((f"{name}: midgame, 0.8 s a move", f"{nodes / seconds:,.0f}",
                     f"positions/s; depth {min(depths)}-{max(depths)}, median "
                     f"{statistics.median(depths)} over {len(midgame)} positions"))
        nodes, seconds = 0, 0.0
        for position in endgames:
            started = time.perf_counter()
            search = start_search(name, position, Limits(seconds=None, endgame_empties=11))
            search.advance()
            seconds += time.perf_counter() - started
            nodes += search.nodes
            assert search.exact
        rows.append((f"{name}: endgame, 11 empties exact", f"{nodes / seconds:,.0f}",
                     f"positions/s; {seconds / len(endgames):.2f} s and "
                     f"{nodes // len(endgames):,} positions a solve ({len(endgames)} games)"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--part", action="append",
                        choices=["throughput", "strength", "tallies", "perft", "engines"])
    parser.add_argument("--throughput-games", type=int, default=100)
    parser.add_argument("--strength-games", type=int, default=200)
    parser.add_argument("--tally-games", type=int, default=1000)
    options = parser.parse_args()
    parts = options.part or ["perft", "throughput", "tallies", "strength"]
    rows: list[tuple[str, str, str]] = []
    for part in parts:
        if part == "perft":
            rows += perft_row()
        elif part == "throughput":
            rows += throughput(options.throughput_games)
        elif part == "tallies":
            rows += tallies(options.tally_games)
        elif part == "engines":
            rows += engines()
        else:
            rows += strength(options.strength_games)
    print_table(rows)


if __name__ == "__main__":
    main()
