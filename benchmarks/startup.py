"""Start-up: how long `termgames 2048` and the launcher take to their first whole frame,
against the floor of a Python that imports curses and click and writes a marker, in one
run, interleaved, measured the same way on both sides.

By default it builds the wheel of this checkout and installs it (non-editable, as a user
would) in a fresh virtual environment, so an editable install's import hooks do not
count. Each program runs on a pty at 80x24 as a user would run it: no TERMGAMES_HOME, so
the data folder is looked up in a fresh HOME (the unmeasured first start of each makes
the database, as a user's first game does). A first frame is whole once its bytes carry
the game's title and the footer's `q quit` (the footer is drawn last); the floor is done
once its marker arrives, read by the same code from the same pty (never by polling for
its exit, which adds the interpreter's shutdown and the harness's polling to one side
only). The bytes are searched as they come, not emulated, so the measuring costs next to
nothing. Prints one table with the medians and each program's ratio to the floor.

Usage: python -m benchmarks.startup [--runs N] [--python PATH]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from tests.harness.terminal import Terminal  # noqa: E402

TARGET = 1.5
"""The ratio to the floor that the launcher and a game must stay within (issue 23)."""


def installed_python(folder: Path) -> Path:
    """A fresh venv in ``folder`` with this checkout's wheel installed; its python."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(folder / "wheel"), str(ROOT)], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
    python = folder / "venv" / "bin" / "python"
    wheel = next((folder / "wheel").glob("termgames-*.whl"))
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True)
    return python


def timed(program: list[str], home: Path, done: Callable[[Terminal], bool]) -> float:
    """Seconds from starting ``program`` on a pty until ``done`` holds for its output."""
    started = time.monotonic()
    term = Terminal([], home, program=program, env=NEW_USER)
    try:
        while not done(term):
            term.drain(0.002)
            if time.monotonic() - started > 60:
                raise RuntimeError(f"{' '.join(program)}: nothing after 60 s: "
                                   f"{bytes(term.received[-200:])!r}")
        return time.monotonic() - started
    finally:
        term.close()


NEW_USER: dict[str, str] = {"TERMGAMES_HOME": ""}
"""No data folder named (an empty TERMGAMES_HOME is none): it is looked up as for anyone."""


FLOOR_MARKER = "floor: curses and click imported"
FLOOR = f"import curses, click; print({FLOOR_MARKER!r}, flush=True)"
"""The floor: what any curses program with click must do, then a marker, which the
harness waits for exactly as it waits for a game's first frame."""


def frame_with(*words: str) -> Callable[[Terminal], bool]:
    """A whole first frame: ``words``, then the footer's 'q quit', are in its bytes."""
    wanted = [word.encode() for word in (*words, "q quit")]

    def whole(term: Terminal) -> bool:
        received = bytes(term.received)
        first = received.find(wanted[0])
        return first >= 0 and all(received.find(word, first) >= 0 for word in wanted[1:])
    return whole


def frame_with_marker(marker: str) -> Callable[[Terminal], bool]:
    """The floor's marker has arrived."""
    wanted = marker.encode()
    return lambda term: wanted in term.received


def main() -> None:
    """Time the runs and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="Runs of each program.")
    parser.add_argument("--python", type=Path, default=None,
                        help="A python with termgames installed (default: a fresh venv "
                             "with this checkout's wheel).")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        python = options.python or installed_python(folder)
        bin_dir = python.parent
        programs = {
            'floor: python -c "import curses, click; print(marker)"':
                ([str(python), "-c", FLOOR], frame_with_marker(FLOOR_MARKER)),
            "termgames 2048": ([str(bin_dir / "termgames"), "2048"], frame_with("Score")),
            "termgames (the launcher)": ([str(bin_dir / "termgames")], frame_with("Sokoban")),
        }
        times: dict[str, list[float]] = {name: [] for name in programs}
        for program, done in programs.values():  # one unmeasured start each
            timed(program, folder, done)
        for _ in range(options.runs):
            for name, (program, done) in programs.items():
                times[name].append(timed(program, folder, done))
    floor = statistics.median(next(iter(times.values())))
    print(f"start-up to the first whole frame, 80x24, {options.runs} runs each, interleaved")
    print(f"| program | median | p90 | ratio to the floor (target <= {TARGET}) |")
    print("| --- | --- | --- | --- |")
    for name, runs in times.items():
        median = statistics.median(runs)
        p90 = sorted(runs)[int(0.9 * (len(runs) - 1))]
        print(f"| {name} | {median * 1000:.0f} ms | {p90 * 1000:.0f} ms | "
              f"{median / floor:.2f} |")


if __name__ == "__main__":
    main()
