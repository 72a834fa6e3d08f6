"""The 2048 AI's row tables: building them against reading them from a file, and what a
player waits for the first hint of a session.

Prints three tables:
1. each way of getting the tables, timed in fresh processes (median and slowest of
   --runs): build time or read time, the memory the tables take (tracemalloc), the
   file's size and its size deflated (as the wheel carries it);
2. start-up to the first frame of `termgames 2048` against `python -c "import curses,
   click"` (the shipped file is read only when a hint is asked for, so this must not
   move);
3. the first hint on a pty from a fresh process: from the `t` key to the slide shown
   beside the board (after one slide, as a player would), and the second hint.

Usage: python -m benchmarks.g2048_tables [--runs N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from benchmarks.ptycost import print_table
from benchmarks.terminal_cost import spawn_time
from termgames.g2048.ai import bitboard, tablefile
from termgames.g2048.board import Direction, Game2048, move
from tests.harness.screens import KEYS, wait_for_game
from tests.harness.terminal import Terminal, base_environment

ALL = (*tablefile.STORED, ("left_heuristic", "f64"), ("right_heuristic", "f64"))
FIRST_PASS = tuple(entry for entry in tablefile.STORED if entry[0] in tablefile.FIRST_PASS)
FILES = {
    "file: the shipped set (9 tables, 2 made at read)": tablefile.STORED,
    "file: the first pass (5 tables, 6 made at read)": FIRST_PASS,
    "file: all 11 tables": ALL,
}
BUILD = """
import time, tracemalloc, sys
from termgames.g2048.ai import bitboard, tablefile
path = sys.argv[1]
if sys.argv[2] == "memory":
    tracemalloc.start()
started = time.perf_counter()
made = bitboard.build_tables() if path == "-" else tablefile.read(__import__("pathlib").Path(path))
seconds = time.perf_counter() - started
assert made is not None
print(tracemalloc.get_traced_memory()[0] if sys.argv[2] == "memory" else seconds)
"""
HINT_GLYPHS = "←→↑↓"


def in_fresh_process(path: str, what: str) -> float:
    """Seconds to build (``path`` '-') or read the tables, or with ``what`` 'memory'
    the bytes they take, in a new interpreter."""
    done = subprocess.run([sys.executable, "-c", BUILD, path, what], capture_output=True,
                          text=True, check=True)
    return float(done.stdout)


def table_rows(folder: Path, runs: int) -> list[tuple[str, str, str]]:
    """One row per way of getting the tables."""
    tables = bitboard.build_tables()
    rows: list[tuple[str, str, str]] = []
    ways: list[tuple[str, str, int, int]] = [("build (bitboard's builder)", "-", 0, 0)]
    for name, stored in FILES.items():
        data = tablefile.encode(tables, stored)
        file = folder / f"{len(ways)}.bin"
        file.write_bytes(data)
        ways.append((name, str(file), len(data), len(zlib.compress(data, 6))))
    for name, path, size, deflated in ways:
        seconds = [in_fresh_process(path, "time") for _ in range(runs)]
        memory = in_fresh_process(path, "memory")
        sizes = "-" if not size else f"{size / 1e6:.2f} MB · {deflated / 1e6:.2f} MB"
        rows.append((name, f"{statistics.median(seconds) * 1000:.0f} / "
                     f"{max(seconds) * 1000:.0f} ms", f"{memory / 1e6:.1f} MB · {sizes}"))
    return rows


def startup_rows(home: Path, runs: int) -> list[tuple[str, str, str]]:
    """Start-up to the first frame against the floor, interleaved."""
    env = base_environment(home)
    ours, floor = [], []
    for _ in range(runs):
        ours.append(spawn_time([sys.executable, "-m", "termgames", "2048"], env, b"q quit"))
        floor.append(spawn_time([sys.executable, "-c", "import curses, click"], env, None))
    median, base = statistics.median(ours), statistics.median(floor)
    return [("termgames 2048: first frame", f"{median * 1000:.0f} ms", "median"),
            ('python -c "import curses, click"', f"{base * 1000:.0f} ms", "median"),
            ("ratio", f"{median / base:.2f}", "")]


def hint_shown(term: Terminal) -> bool:
    """Whether the screen shows a hint's slide (its arrow), not 'thinking'."""
    text = term.text()
    return "Hint" in text and "thinking" not in text and any(g in text for g in HINT_GLYPHS)


def time_hint(term: Terminal) -> float:
    """Milliseconds from sending t to the hint on screen."""
    sent = time.perf_counter()
    term.send(b"t")
    while not hint_shown(term):
        if time.perf_counter() - sent > 10:
            raise RuntimeError(f"no hint:\n{term.text()}")
        term.pump(0.002)
    return (time.perf_counter() - sent) * 1000


def hint_rows(home: Path, runs: int) -> list[tuple[str, str, str]]:
    """The first and second hint of a session, each from a fresh process."""
    first: list[float] = []
    second: list[float] = []
    for _ in range(runs):
        term = Terminal(["2048", "--seed", "3"], home)
        model = Game2048(4, 2048, random.Random(3))
        try:
            term.wait_for("q quit")
            for times in (first, second):
                direction = next(d for d in Direction if move(model.grid, d).changed)
                model.slide(direction)
                term.press(KEYS[direction][0])  # a slide first, as a player would
                wait_for_game(term, model)
                term.pump(0.3)
                times.append(time_hint(term))
        finally:
            term.close()
    return [("first hint of a session", f"{statistics.median(first):.0f} ms",
             f"slowest {max(first):.0f} ms; budget 150 ms from the key"),
            ("second hint", f"{statistics.median(second):.0f} ms",
             f"slowest {max(second):.0f} ms")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(f"The row tables, in fresh processes ({options.runs} runs): time median / "
              "slowest; memory (tracemalloc) · file · deflated")
        print_table(table_rows(Path(folder), options.runs))
        print()
        print("Start-up (the tables are not read at start):")
        print_table(startup_rows(Path(folder), options.runs))
        print()
        print("Hints on a pty (80x24), each session a fresh process:")
        print_table(hint_rows(Path(folder), options.runs))


if __name__ == "__main__":
    main()
