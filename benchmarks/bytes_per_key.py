"""Bytes per key and key-to-settled latency for every game, on a pty at 80x24.

The per-game measures are the ones each game's own benchmark uses (2048: seeded moves
that change the board; Sokoban: legal steps on Sasquatch 5; Maze: steps along the
shortest path of a 150x150 maze, which scrolls), plus Reversi: typed moves (two digits)
against 'random', the computer's reply included. Prints one table to compare runs.

Usage: python -m benchmarks.bytes_per_key [--keys N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path

from benchmarks.maze import pty_steps
from benchmarks.ptycost import key_cost, percentile, read_until_quiet
from benchmarks.sokoban import measure_moves as sokoban_moves
from benchmarks.terminal_cost import measure_moves as moves_2048
from termgames.reversi.board import Side, square_name
from termgames.reversi.match import Match
from tests.harness.terminal import Terminal


def reversi_moves(home: Path, moves: int) -> tuple[list[int], list[float]]:
    """Typed moves (column digit, row digit) against 'random', replayed in a model that
    draws from the same seeded RNG; bytes and latency of each move and its reply."""
    seed = 7
    sizes: list[int] = []
    latencies: list[float] = []
    while len(sizes) < moves:
        term = Terminal(["reversi", "--ai", "random", "--first", "you", "--seed", str(seed)],
                        home)
        term.wait_for("q quit")
        read_until_quiet(term.process.fd, 0.2)
        rng, match = random.Random(seed), Match(Side.X)
        while not match.over and len(sizes) < moves:
            if match.turn is Side.O:
                match.play(rng.choice(match.position.move_list()))
                continue
            square = match.position.move_list()[0]
            match.play(square)
            name = square_name(square).encode()
            key_cost(term.process.fd, name[:1])  # the column: a prompt, not counted
            size, latency = key_cost(term.process.fd, name[1:])
            sizes.append(size)
            if latency is not None:
                latencies.append(latency)
        term.send(b"q")
        term.wait_exit()
        seed += 1
    return sizes, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keys", type=int, default=200)
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        results = {
            "2048 move": moves_2048(home, options.keys)[:2],
            "Sokoban step": sokoban_moves(home, options.keys)[:2],
            "Reversi move + reply": reversi_moves(home, options.keys),
            "Maze step": pty_steps(home, options.keys),
        }
    for name, (sizes, latencies) in results.items():
        rows.append((name, len(sizes), statistics.mean(sizes), statistics.median(sizes),
                     percentile(sizes, 0.95),
                     statistics.median(latencies), percentile(latencies, 0.95)))
    print(f"{'game (80x24)':<22} {'keys':>5} {'bytes mean':>10} {'bytes p50':>10} "
          f"{'bytes p95':>10} {'ms p50':>8} {'ms p95':>8}")
    print("-" * 79)
    for name, keys, mean, bytes50, bytes95, ms50, ms95 in rows:
        print(f"{name:<22} {keys:>5} {mean:>10.0f} {bytes50:>10.0f} {bytes95:>10.0f} "
              f"{ms50:>8.2f} {ms95:>8.2f}")


if __name__ == "__main__":
    main()
