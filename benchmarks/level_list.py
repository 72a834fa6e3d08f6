"""Sokoban's level list in files of any size: the first frame, and each key in the list
(key to settled screen), for Microban's 155 levels, 20,000 copies of one level (all
solved, as the new user had them: issue 39, B7) and 100,000 small levels.

Every file is measured the same way, on the same pty harness (tests/harness/terminal.py) at
80x24: the first frame from starting `termgames sokoban FILE` until its bytes carry the
header and then the footer's `q quit` (the footer is drawn last); a key from writing it
until the program's output has been quiet for 40 ms (benchmarks/ptycost.py), the time of
its last byte. "Tab, counting" is the first Tab, pressed as soon as the first frame is
whole, while the game still reads every level between keys to count the solved ones;
the other keys come once it has (the list's heading then shows the counts). Each typed
number's highlighted row is checked to be the one Enter then opens.

Usage: python -m benchmarks.level_list [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import select
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.ptycost import SETTLE_S
from termgames.sokoban.format.bundled import levels_folder
from termgames.sokoban.format.parse import parse
from termgames.sokoban.progress import record_solution
from termgames.sokoban.solved import Record
from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at
from tests.harness.terminal import Terminal

TARGET_KEY_MS = 20.0
TARGET_FIRST_FRAME_S = 1.0
ONE_PUSH = "#####\n#@$.#\n#####"
"""Microban 44, 'Duh!': one push solves it."""


def copies_of_one_level(path: Path, count: int) -> None:
    """``count`` copies of a one-push level."""
    path.write_text("\n\n".join([ONE_PUSH] * count) + "\n")


def small_levels(path: Path, count: int, seed: int = 7) -> None:
    """``count`` different small rooms (5-8 rows, 5-9 columns, 1-3 boxes), each under a
    '; N' comment, as generated collections write them."""
    chooser = random.Random(seed)
    levels = []
    for number in range(1, count + 1):
        height, width = chooser.randint(5, 8), chooser.randint(5, 9)
        rows = [["#"] * width] + [["#", *[" "] * (width - 2), "#"] for _ in range(height - 2)]
        rows.append(["#"] * width)
        inside = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
        boxes = chooser.randint(1, 3)
        player, *rest = chooser.sample(inside, 2 * boxes + 1)
        rows[player[0]][player[1]] = "@"
        for index, (r, c) in enumerate(rest):
            rows[r][c] = "$" if index < boxes else "."
        levels.append(f"; {number}\n\n" + "\n".join("".join(row) for row in rows))
    path.write_text("\n\n".join(levels) + "\n")


def solve_every_copy(home: Path) -> None:
    """Record a solution of the one-push level for the player: every copy is solved."""
    level = parse(ONE_PUSH + "\n").levels[0]
    store = store_at(home / "data")
    try:
        record_solution(store, SOKOBAN_PROGRESS, PLAYER, level.key,
                        Record(1, 1, "R", "many", 1, "", ""))
    finally:
        store.close()


def settle(term: Terminal, first_wait: float = 1.0) -> float | None:
    """Read (and emulate) the program's output until it has been quiet ``SETTLE_S``;
    the arrival time of its last byte."""
    last, wait = None, first_wait
    while True:
        ready, _, _ = select.select([term.process.fd], [], [], wait)
        if not ready:
            return last
        data = os.read(term.process.fd, 65536)
        last = time.perf_counter()
        term.received += data
        term.stream.feed(data)
        wait = SETTLE_S


def key_ms(term: Terminal, *names: str) -> float:
    """Milliseconds from sending the keys ``names`` until the screen settled."""
    data = b"".join(term.key_bytes(name) for name in names)
    sent = time.perf_counter()
    os.write(term.process.fd, data)
    last = settle(term)
    return 0.0 if last is None else (last - sent) * 1000


def first_frame_s(term: Terminal, started: float) -> float:
    """Seconds from ``started`` until the first frame is whole: the header on the top
    line and the footer's 'q quit' on the bottom one (the footer is drawn last)."""
    while True:
        lines = term.screen.display
        if "level " in lines[0] and "q quit" in lines[-1]:
            return time.perf_counter() - started
        ready, _, _ = select.select([term.process.fd], [], [], 60)
        if not ready:
            raise RuntimeError(f"no first frame:\n{term.text()}")
        data = os.read(term.process.fd, 65536)
        term.received += data
        term.stream.feed(data)


def highlighted(term: Terminal) -> str:
    """The number of the row drawn highlighted in the list."""
    for y in range(term.screen.lines):
        cells = term.screen.buffer[y]
        if any(cells[x].bg not in ("default", "black") and cells[x].data.strip()
               for x in range(term.screen.columns)):
            found = re.search(r"\d[\d,]*", term.screen.display[y])
            return "" if found is None else found.group().replace(",", "")
    return ""


def wait_for(term: Terminal, test: Callable[[str], bool], what: str) -> None:
    """Read until the screen passes ``test`` (a generous deadline)."""
    deadline = time.monotonic() + 120
    while not test(term.text()):
        if time.monotonic() > deadline:
            raise RuntimeError(f"never saw {what}:\n{term.text()}")
        settle(term, 0.2)


def measure(path: Path, home: Path, typed: str, repeat: int) -> dict[str, float]:
    """The first frame, and the keys in the list, for the level file at ``path``."""
    started = time.perf_counter()
    term = Terminal(["sokoban", str(path)], home)
    try:
        found = {"first frame (s)": first_frame_s(term, started)}
        settle(term)
        found["Tab, counting"] = key_ms(term, "tab")
        wait_for(term, lambda text: " solved" in text and "counting" not in text,
                 "the counts")
        keys: dict[str, list[float]] = {"Tab": [], "Down": [], "digit": [], "End": []}
        for _ in range(repeat):
            key_ms(term, "tab")  # back to the game
            keys["Tab"].append(key_ms(term, "tab"))
            keys["Down"] += [key_ms(term, "down") for _ in range(5)]
            keys["digit"] += [key_ms(term, digit) for digit in typed]
            if highlighted(term) != typed:
                raise RuntimeError(f"typed {typed}, row {highlighted(term)!r} highlighted")
            key_ms(term, "enter")
            wait_for(term, lambda text: f"level {typed} (" in text.replace(",", ""),
                     f"level {typed}")
            key_ms(term, "tab")
            keys["End"].append(key_ms(term, "end"))
        found.update({name: statistics.median(values) for name, values in keys.items()})
        found["worst key"] = max(max(values) for values in keys.values())
        return found
    finally:
        term.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    rows: list[tuple[str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        many, small = folder / "many.txt", folder / "small.txt"
        copies_of_one_level(many, 20_000)
        small_levels(small, 100_000)
        cases = [("Microban, 155", levels_folder() / "Microban_155.xsb", "150", False),
                 ("one level x 20,000, solved", many, "15000", True),
                 ("small levels, 100,000", small, "15000", False)]
        for name, path, typed, solved in cases:
            home = folder / f"home-{len(rows)}"
            home.mkdir()
            if solved:
                solve_every_copy(home)
            rows.append((name, measure(Path(str(path)), home, typed, options.repeat)))
    columns = list(rows[0][1])
    print(f"{'file':<28}" + "".join(f"{column:>16}" for column in columns))
    print("-" * (28 + 16 * len(columns)))
    for name, found in rows:
        cells = [f"{value:.2f}" if column.endswith("(s)") else f"{value:.1f} ms"
                 for column, value in found.items()]
        print(f"{name:<28}" + "".join(f"{cell:>16}" for cell in cells))
    print(f"\nkeys: medians of {options.repeat} rounds (Down 5 a round, each digit typed); "
          f"'worst key' the slowest of them; targets: a key <= {TARGET_KEY_MS:.0f} ms, "
          f"the first frame <= {TARGET_FIRST_FRAME_S:.0f} s")


if __name__ == "__main__":
    main()
