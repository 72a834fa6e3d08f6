"""What keeping an unfinished game costs a move: bytes written and time, for each game.

Usage: python -m benchmarks.saved_games [--moves N] [--seed S]

Each game is played by a seeded random player for N moves (default 400: Reversi plays
whole games, one after another), and after every move its state is kept exactly as the
runner keeps it (``GameScreen.saved_state`` is these same core functions; ``Slot.put``
then encodes the envelope and writes it to a real SQLite store in a fresh folder, with
the store's own durability settings; a move within ``STORE_EVERY_S`` of the last stored
one goes to the game's journal instead, as when played). The table gives, per game: the
moves played, the median and largest text written a move, the median and
95th-percentile time a move of state plus keeping, and the median of a journal write and
of a store write alone, with how many moves took each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from pathlib import Path

from termgames.direction import Direction
from termgames.g2048.board import Run
from termgames.maze.generate import generate
from termgames.maze.saving import saved as maze_saved
from termgames.maze.walk import Walk
from termgames.reversi.board import Side
from termgames.reversi.match import Match
from termgames.reversi.saving import saved as reversi_saved
from termgames.reversi.settings import Settings
from termgames.sokoban.format import BUNDLED, load_bundled
from termgames.sokoban.game import Sokoban
from termgames.sokoban.saving import saved as sokoban_saved
from termgames.store import open_store
from termgames.store.saved import Slot

State = Callable[[], Mapping[str, object] | None]
"""The game's state as it would be kept after the move just played."""


def g2048(rng: random.Random, moves: int) -> Iterator[State]:
    """Random slides that move, on a 4x4 board dealt again whenever one ends."""
    run = Run.dealt(4, 2048, rng.getrandbits(64))
    for _ in range(moves):
        if run.game.over:
            run = Run.dealt(4, 2048, rng.getrandbits(64))
        while not run.slide(rng.choice(list(Direction))).changed:
            pass
        yield run.saved


def reversi(rng: random.Random, moves: int) -> Iterator[State]:
    """Random legal moves by both sides, game after game."""
    settings = Settings(you=Side.X)
    match = Match(Side.X, frozenset({Side.X}))
    for _ in range(moves):
        if match.over:
            match = Match(Side.X, frozenset({Side.X}))
        legal = match.legal()
        squares = [square for square in range(64) if legal >> square & 1]
        match.play(rng.choice(squares))
        yield partial(reversi_saved, settings, match, False, False, rng)


def maze(rng: random.Random, moves: int) -> Iterator[State]:
    """A random walk through the 80x24 window's maze (a new one once out)."""
    walk = Walk(generate(38, 10, rng))
    for _ in range(moves):
        if walk.out:
            walk = Walk(generate(38, 10, rng))
        while not walk.step(*rng.choice(list(Direction)).value):
            pass
        yield partial(maze_saved, walk)


def sokoban(rng: random.Random, moves: int) -> Iterator[State]:
    """Random steps on Microban's level 60, with an undo one step in ten."""
    level = load_bundled(next(entry for entry in BUNDLED if entry.slug == "microban")).levels[59]
    game = Sokoban(level)
    for _ in range(moves):
        if rng.random() < 0.1 and game.history:
            game.undo()
        else:
            while game.move(rng.choice(list(Direction))) is None:
                pass
        yield partial(sokoban_saved, "Microban", 59, game)


GAMES: dict[str, Callable[[random.Random, int], Iterator[State]]] = {
    "2048": g2048, "reversi": reversi, "maze": maze, "sokoban": sokoban}


def measure(name: str, moves: int, seed: int, folder: Path) -> list[str]:
    """One row of the table: ``name`` played ``moves`` moves, each kept."""
    store = open_store(folder, owner="bench")
    slot = Slot(store, "bench", name)
    sizes: list[int] = []
    whole: list[float] = []
    journalled: list[float] = []
    stored: list[float] = []
    try:
        for state in GAMES[name](random.Random(seed), moves):
            started = time.perf_counter()
            kept = state()
            before_write = time.perf_counter()
            slot.put("run", kept, time.time())
            done = time.perf_counter()
            whole.append(done - started)
            (stored if slot.pending is None else journalled).append(done - before_write)
            text = slot.pending or store.progress("bench", "saved", name) or ""
            sizes.append(len(text.encode()))
    finally:
        slot.close()
        store.close()

    def ms(values: list[float], share: float) -> str:
        if not values:
            return "-"
        return f"{sorted(values)[int(share * (len(values) - 1))] * 1000:.2f}"

    return [name, f"{len(sizes)}", f"{statistics.median(sizes):,.0f} B", f"{max(sizes):,} B",
            f"{ms(whole, 0.5)} / {ms(whole, 0.95)} ms",
            f"{ms(journalled, 0.5)} ms ({len(journalled)})",
            f"{ms(stored, 0.5)} ms ({len(stored)})"]


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    rows = [["game", "moves", "written a move (median)", "largest", "state + keep p50 / p95",
             "journal write p50 (moves)", "store write p50 (moves)"]]
    with tempfile.TemporaryDirectory() as folder:
        for name in GAMES:
            rows.append(measure(name, arguments.moves, arguments.seed, Path(folder) / name))
    print(f"keeping an unfinished game, {arguments.moves} moves each, SQLite store")
    print("| " + " | ".join(rows[0]) + " |")
    print("|" + " --- |" * len(rows[0]))
    for row in rows[1:]:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
