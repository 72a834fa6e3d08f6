"""Maze: generation plus A* at 50², 200² and 500² cells, against mazelib where it is
installed (pip install -e '.[bench]'), and bytes and latency per step on a pty at 80x24.

Usage: python -m benchmarks.maze [--mazelib-cap SECONDS] [--steps N]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.ptycost import key_cost, percentile, print_table, read_until_quiet
from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from tests.harness.screens import maze_keys
from tests.harness.terminal import Terminal, terminfo_keys

SIZES = (50, 200, 500)
MAZELIB_RUN = """
import sys, time
from random import seed
from mazelib import Maze
from mazelib.generate.Prims import Prims
from mazelib.solve.ShortestPath import ShortestPath
n = int(sys.argv[1])
seed(1)
maze = Maze()
maze.generator = Prims(n, n)
started = time.perf_counter()
maze.generate()
generated = time.perf_counter()
maze.start, maze.end = (1, 0), (2 * n - 1, 2 * n)
maze.solver = ShortestPath()
maze.solve()
print(generated - started, time.perf_counter() - generated)
"""


def ours(cells: int) -> tuple[float, float, int]:
    """Seconds to generate, seconds to solve, path length."""
    started = time.perf_counter()
    maze = generate(cells, cells, random.Random(1))
    generated = time.perf_counter()
    path = shortest_path(maze, maze.entrance)
    return generated - started, time.perf_counter() - generated, len(path) - 1


def mazelib(cells: int, cap: float) -> tuple[float, float] | str:
    """mazelib's Prims and ShortestPath on the same size, in a subprocess cut off at ``cap``."""
    if importlib.util.find_spec("mazelib") is None:
        return "not installed (pip install -e '.[bench]')"
    try:
        result = subprocess.run([sys.executable, "-c", MAZELIB_RUN, str(cells)],
                                capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return f"> {cap:.0f} s (stopped)"
    if result.returncode != 0:
        return f"failed: {result.stderr.strip().splitlines()[-1][:60]}"
    generation, solving = (float(value) for value in result.stdout.split())
    return generation, solving


def pty_steps(home: Path, steps: int) -> tuple[list[int], list[float]]:
    """Walk the shortest path of a big seeded maze (it scrolls), timing each step."""
    maze = generate(150, 150, random.Random(4))
    keys = maze_keys(shortest_path(maze, maze.entrance))[:steps]
    term = Terminal(["maze", "--size", "150x150", "--seed", "4"], home)
    term.wait_for("q quit")
    read_until_quiet(term.process.fd, 0.2)
    codes = terminfo_keys("xterm-256color")
    sizes, latencies = [], []
    for key in keys:
        size, latency = key_cost(term.process.fd, codes[key])
        sizes.append(size)
        if latency is not None:
            latencies.append(latency)
    term.send(b"q")
    term.wait_exit()
    return sizes, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mazelib-cap", type=float, default=120.0)
    parser.add_argument("--steps", type=int, default=200)
    options = parser.parse_args()
    rows = []
    for cells in SIZES:
        generation, solving, length = ours(cells)
        total = generation + solving
        rows.append((f"ours {cells}x{cells}: generate + A*", f"{total:.3f} s",
                     f"{generation:.3f} + {solving:.3f}, path {length} steps"
                     + ("  (target < 2 s)" if cells == 500 else "")))
        theirs = mazelib(cells, options.mazelib_cap)
        if isinstance(theirs, str):
            rows.append((f"mazelib {cells}x{cells}", theirs, ""))
        else:
            their_total = sum(theirs)
            rows.append((f"mazelib {cells}x{cells}: Prims + ShortestPath",
                         f"{their_total:.3f} s",
                         f"{theirs[0]:.3f} + {theirs[1]:.3f}; ours is "
                         f"{their_total / total:.1f}x as fast"))
    with tempfile.TemporaryDirectory() as folder:
        sizes, latencies = pty_steps(Path(folder), options.steps)
    rows += [
        ("steps measured (150x150, scrolling)", f"{len(sizes)}", ""),
        ("bytes per step: median", f"{statistics.median(sizes):.0f}", "target <= 60"),
        ("bytes per step: p95 / max", f"{percentile(sizes, 0.95):.0f} / {max(sizes)}", ""),
        ("key-to-settled latency: median", f"{statistics.median(latencies):.2f} ms", ""),
        ("key-to-settled latency: p95", f"{percentile(latencies, 0.95):.2f} ms",
         "target <= 15 ms"),
    ]
    print_table(rows)


if __name__ == "__main__":
    main()
