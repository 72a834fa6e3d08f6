"""Sokoban's costs: parse throughput, and bytes and latency per move on a pty at 80x24.

Usage: python -m benchmarks.sokoban [--moves N] [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.ptycost import key_cost, percentile, print_table, read_until_quiet
from termgames.sokoban.format.bundled import BUNDLED, by_slug, levels_folder, load_bundled
from termgames.sokoban.format.parse import parse
from termgames.sokoban.game import Direction, Sokoban
from tests.harness.terminal import Terminal, terminfo_keys

KEYS = {Direction.UP: "up", Direction.DOWN: "down", Direction.LEFT: "left",
        Direction.RIGHT: "right"}


def parse_throughput(repeat: int) -> tuple[int, float]:
    """Levels parsed and seconds taken for every bundled level, concatenated ``repeat`` times."""
    folder = levels_folder()
    text = "\n\n".join((folder / entry.filename).read_text(encoding="utf-8")
                       for entry in BUNDLED)
    big = "\n\n".join([text] * repeat)
    started = time.perf_counter()
    collection = parse(big, "bundled")
    elapsed = time.perf_counter() - started
    assert not collection.problems
    return len(collection.levels), elapsed


def measure_moves(home: Path, moves: int) -> tuple[list[int], list[float], int]:
    """Walk a Sasquatch level with legal random moves; bytes and latency of each."""
    sasquatch = by_slug("sasquatch")
    assert sasquatch is not None
    level = load_bundled(sasquatch).levels[4]
    term = Terminal(["sokoban", "--collection", "sasquatch", "--level", "5"], home)
    term.wait_for("q quit")
    read_until_quiet(term.process.fd, 0.2)
    keys = terminfo_keys("xterm-256color")
    model = Sokoban(level)
    chooser = random.Random(5)
    sizes: list[int] = []
    latencies: list[float] = []
    restarts = 0
    while len(sizes) < moves:
        legal = []
        for direction in Direction:
            if model.move(direction) is not None:
                model.undo()
                legal.append(direction)
        direction = chooser.choice(legal)
        model.move(direction)
        if model.solved:  # never leave the board for the solved screen
            model.undo()
            continue
        size, latency = key_cost(term.process.fd, keys[KEYS[direction]])
        sizes.append(size)
        if latency is not None:
            latencies.append(latency)
        if model.moves >= 150:  # keep the history short: restart from time to time
            model.restart()
            key_cost(term.process.fd, b"r")
            restarts += 1
    term.send(b"q")
    term.wait_exit()
    return sizes, latencies, restarts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    count, elapsed = parse_throughput(options.repeat)
    with tempfile.TemporaryDirectory() as folder:
        sizes, latencies, restarts = measure_moves(Path(folder), options.moves)
    print_table([
        (f"parse: bundled levels x{options.repeat}", f"{count}", f"in {elapsed:.3f} s"),
        ("parse throughput", f"{count / elapsed:,.0f}", "levels per second"),
        ("moves measured (Sasquatch 5)", f"{len(sizes)}", f"({restarts} restarts)"),
        ("bytes per move: median", f"{statistics.median(sizes):.0f}", "target <= 80"),
        ("bytes per move: p95 / max", f"{percentile(sizes, 0.95):.0f} / {max(sizes)}", ""),
        ("key-to-settled latency: median", f"{statistics.median(latencies):.2f} ms", ""),
        ("key-to-settled latency: p95", f"{percentile(latencies, 0.95):.2f} ms",
         "target <= 15 ms"),
    ])


if __name__ == "__main__":
    main()
