"""How soon one player's move at a Reversi table reaches the other player's screen, on one
host: a real server, two real SSH clients at a table, whole games of random legal moves.

Usage: python -m benchmarks.table_latency [--games N] [--seed S]

For each move the clock starts as the mover's keys are written to their SSH channel and
stops when the other player's screen shows the new discs in its first row (the move
recorded in the store by the mover's game, read there by the other's on its next look,
drawn, and carried over SSH). Both clients run in this process, one loop: the figure
includes the mover's own game recording the move. Prints the p50, p95 and largest.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

from termgames.reversi.board import Side, square_name
from termgames.reversi.match import Match
from tests.harness.serving import Seat, connect, sit, start_server


def shows(seat: Seat, x: int, o: int) -> bool:
    """Whether ``seat``'s first row shows these discs."""
    first = seat.text().splitlines()[0]
    return f"(X) {x} " in first and f"(O) {o} " in first


async def one_game(port: int, table: str, rng: random.Random) -> list[float]:
    """A whole game at ``table`` between ann and bob; each move's seconds."""
    took: list[float] = []
    async with await connect(port, user="ann") as first, \
            await connect(port, user="bob") as second:
        ann = await sit(first, f"reversi --table {table}")
        await ann.wait_for("waiting for an opponent")
        bob = await sit(second, f"reversi --table {table}")
        await bob.wait_for("ann to move.")
        await ann.wait_for("Your move.")
        model = Match(Side.X, frozenset(Side))
        while not model.over:
            legal = model.legal()
            square = rng.choice([s for s in range(64) if legal >> s & 1])
            mover, other = (ann, bob) if model.turn is Side.X else (bob, ann)
            model.play(square)
            x, o = model.position.score()
            started = time.monotonic()
            mover.press(*square_name(square))
            await other.wait_until(partial(shows, other, x, o), "the move", timeout=30)
            took.append(time.monotonic() - started)
            await mover.wait_until(partial(shows, mover, x, o), "the move", timeout=30)
        for seat in (ann, bob):
            seat.press("q")
            await seat.finish()
    return took


async def measure(games: int, seed: int) -> list[float]:
    """Every move's seconds over ``games`` games on a fresh server."""
    rng = random.Random(seed)
    server = start_server(Path(tempfile.mkdtemp(prefix="table-latency-")))
    try:
        took: list[float] = []
        for game in range(games):
            took += await one_game(server.port, f"bench{game}", rng)
        return took
    finally:
        server.stop()


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    took = sorted(asyncio.run(measure(options.games, options.seed)))
    ms = [t * 1000 for t in took]
    print(f"a move to the other player's screen, one host, {options.games} games")
    print("| moves | p50 | p95 | largest |")
    print("| --- | --- | --- | --- |")
    print(f"| {len(ms)} | {statistics.median(ms):.0f} ms | "
          f"{ms[int(0.95 * (len(ms) - 1))]:.0f} ms | {ms[-1]:.0f} ms |")


if __name__ == "__main__":
    main()
