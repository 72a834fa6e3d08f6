"""What a player's terminal pays: bytes per key, key-to-settled latency, start-up time.

Runs the real program on a pty at 80x24 (TERM=xterm-256color) for 200 seeded 2048
moves and prints a table. Usage: python -m benchmarks.terminal_cost [--moves N]
"""

from __future__ import annotations

import argparse
import os
import random
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ptyprocess import PtyProcess

from benchmarks.ptycost import key_cost, percentile, print_table, read_until_quiet
from termgames.g2048.board import Direction, Game2048, move
from tests.harness.terminal import Terminal, base_environment, terminfo_keys

SEED = 2048
KEYS = {Direction.UP: "up", Direction.DOWN: "down", Direction.LEFT: "left",
        Direction.RIGHT: "right"}


def measure_moves(home: Path, moves: int) -> tuple[list[int], list[float], int]:
    """Play ``moves`` moves that change the board; bytes and latency (ms) of each, restarts."""
    term = Terminal(["2048", "--seed", str(SEED)], home)
    term.wait_for("q quit")
    read_until_quiet(term.process.fd, 0.2)
    keys = terminfo_keys("xterm-256color")
    model = Game2048(4, 2048, random.Random(SEED))
    chooser = random.Random(1)
    sizes: list[int] = []
    latencies: list[float] = []
    restarts = 0
    while len(sizes) < moves:
        if model.over:  # keep measuring moves, not banners: start a new game
            term.send(b"r")
            read_until_quiet(term.process.fd, 1.0)
            model = Game2048(4, 2048, model.rng)
            restarts += 1
            continue
        options = [d for d in Direction if move(model.grid, d).changed]
        direction = chooser.choice(options)
        model.slide(direction)
        size, latency = key_cost(term.process.fd, keys[KEYS[direction]])
        sizes.append(size)
        if latency is not None:
            latencies.append(latency)
    term.send(b"q")
    term.wait_exit()
    return sizes, latencies, restarts


def spawn_time(argv: list[str], env: dict[str, str], until_text: bytes | None) -> float:
    """Seconds from spawning ``argv`` on a pty to ``until_text`` (or to its exit)."""
    started = time.perf_counter()
    process = PtyProcess.spawn(argv, env=env, dimensions=(24, 80))
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([process.fd], [], [], 5)
            if not ready:
                raise RuntimeError(f"no output from {argv}")
            try:
                data = os.read(process.fd, 65536)
            except OSError:
                data = b""
            if not data:
                return time.perf_counter() - started
            seen += data
            if until_text is not None and until_text in seen:
                return time.perf_counter() - started
    finally:
        process.terminate(force=True)


def measure_startup(home: Path, runs: int) -> tuple[float, float]:
    """Median seconds to our first full frame, and to importing click and curses."""
    env = base_environment(home)
    ours, baseline = [], []
    for _ in range(runs):
        ours.append(spawn_time([sys.executable, "-m", "termgames", "2048"], env, b"q quit"))
        baseline.append(spawn_time([sys.executable, "-c", "import click, curses"], env, None))
    return statistics.median(ours), statistics.median(baseline)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--startup-runs", type=int, default=15)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        sizes, latencies, restarts = measure_moves(home, options.moves)
        ours, baseline = measure_startup(home, options.startup_runs)
    rows = [
        ("2048 moves measured", f"{len(sizes)}", f"({restarts} restarts after game over)"),
        ("bytes per key: median", f"{statistics.median(sizes):.0f}", "target <= 300"),
        ("bytes per key: p95 / max", f"{percentile(sizes, 0.95):.0f} / {max(sizes)}", ""),
        ("key-to-settled latency: median", f"{statistics.median(latencies):.2f} ms", ""),
        ("key-to-settled latency: p95", f"{percentile(latencies, 0.95):.2f} ms",
         "target <= 15 ms"),
        ("start-up to first full frame", f"{ours * 1000:.1f} ms", "median"),
        ("python -c 'import click, curses'", f"{baseline * 1000:.1f} ms", "median"),
        ("start-up ratio", f"{ours / baseline:.2f}", "target <= 1.5"),
    ]
    print_table(rows)


if __name__ == "__main__":
    main()
