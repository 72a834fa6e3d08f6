"""Text screenshots of every game at 80x24 and 200x60, taken from the real program on a
pty through pyte (tests/harness/terminal.py), into docs/screens/.

Usage: python docs/make_screens.py
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from termgames.g2048.board import Direction, Game2048, move  # noqa: E402
from tests.harness.terminal import Terminal  # noqa: E402

OUT = ROOT / "docs" / "screens"
SIZES = ((24, 80), (60, 200))
ARROW = {Direction.UP: "up", Direction.DOWN: "down", Direction.LEFT: "left",
         Direction.RIGHT: "right"}


def settle(term: Terminal) -> None:
    """Read until the program has been quiet for a moment (a clock on screen never is:
    then two seconds will do)."""
    deadline = time.monotonic() + 2
    while term.pump(0.3) and time.monotonic() < deadline:
        pass


def moves_2048(seed: int, size: int, enough: Callable[[Game2048], bool]) -> list[str]:
    """Arrow keys of a simple corner strategy, replayed on the model until ``enough``."""
    game = Game2048(size, 2048 if size == 4 else 1024, random.Random(seed))
    keys = []
    order = (Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP)
    while not enough(game) and not game.over:
        direction = next(d for d in order if move(game.grid, d).changed)
        game.slide(direction)
        keys.append(ARROW[direction])
    return keys


def launcher(term: Terminal) -> None:
    term.wait_for("q quit")


def play_2048(term: Terminal) -> None:
    term.wait_for("Score: 0")
    term.press(*moves_2048(7, 4, lambda game: game.moves >= 120))
    term.wait_until(lambda: "Score: 0 " not in term.text(), "a score")


def lost_2048(term: Terminal) -> None:
    term.wait_for("Score: 0")
    term.press(*moves_2048(3, 3, lambda game: False))
    term.wait_for("Game over")


def sokoban(term: Terminal) -> None:
    term.wait_for("moves 0")
    term.press("left", "left", "down", "down", "right")


def reversi(term: Terminal) -> None:
    term.wait_for("You move first.")
    term.press("5", "3")
    term.wait_for("Computer played")
    term.press("t")
    term.wait_for("hints (on)")


def maze(term: Terminal) -> None:
    term.wait_for("q quit")
    term.press("right", "right", ".")
    term.wait_for("Shortest path from here")


SCREENS: list[tuple[str, list[str], Callable[[Terminal], None]]] = [
    ("launcher", [], launcher),
    ("2048", ["2048", "--seed", "7"], play_2048),
    ("2048-over", ["2048", "--size", "3", "--seed", "3"], lost_2048),
    ("sokoban", ["sokoban", "--collection", "microban", "--level", "3"], sokoban),
    ("reversi", ["reversi", "--level", "1", "--seed", "1"], reversi),
    ("maze", ["maze", "--seed", "5"], maze),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        for name, args, script in SCREENS:
            for rows, cols in SIZES:
                term = Terminal(args, Path(home), rows=rows, cols=cols)
                try:
                    script(term)
                    settle(term)
                    path = OUT / f"{name}-{cols}x{rows}.txt"
                    path.write_text(term.text().rstrip("\n") + "\n")
                    print(path.relative_to(ROOT))
                finally:
                    term.close()


if __name__ == "__main__":
    main()
