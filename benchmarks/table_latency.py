"""How soon one player's move at a Reversi table reaches the other player's screen: real
servers, two real SSH clients at a table, whole games of random legal moves, on one host
(its SQLite file), on one host with PostgreSQL, and across two hosts sharing PostgreSQL
(a server the benchmark starts: tests/harness/postgres.py; the binaries must be on PATH
or in the usual places).

Usage: python -m benchmarks.table_latency [--games N] [--seed S] [--one-host-only]

For each move the clock starts as the mover's keys are written to their SSH channel and
stops when the other player's screen shows the new discs in its first row (the move
recorded in the store by the mover's game, announced, read by the other's game on its
next look, drawn, and carried over SSH). Both clients run in this process, one loop: the
figure includes the mover's own game recording the move. The set-ups take turns, a game
each, so they share whatever else the machine does. Prints the p50, p95 and largest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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


async def one_game(ports: tuple[int, int], table: str, rng: random.Random) -> list[float]:
    """A whole game at ``table`` between ann (on the first port's host) and bob (on the
    second's); each move's seconds."""
    took: list[float] = []
    async with await connect(ports[0], user="ann") as first, \
            await connect(ports[1], user="bob") as second:
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


SETUPS = ("one host, SQLite", "one host, PostgreSQL", "two hosts, one PostgreSQL")


async def measure(games: int, seed: int, setups: tuple[str, ...]) -> dict[str, list[float]]:
    """Every move's seconds over ``games`` games in each set-up, taking turns."""
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="table-latency-"))
    with contextlib.ExitStack() as stack:
        ports: dict[str, tuple[int, int]] = {}
        for number, setup in enumerate(setups):
            options: tuple[str, ...] = ()
            if "PostgreSQL" in setup:
                from tests.harness.postgres import PostgresServer

                database = stack.enter_context(PostgresServer())
                options = ("--database-url", database.create_database(f"bench{number}"))
            hosts = []
            for host in range(2 if setup.startswith("two") else 1):
                home = folder / f"{number}-{host}"
                home.mkdir()
                server = start_server(home, *options)
                stack.callback(server.stop)
                hosts.append(server.port)
            ports[setup] = (hosts[0], hosts[-1])
        took: dict[str, list[float]] = {setup: [] for setup in setups}
        for game in range(games):
            for setup in setups:
                took[setup] += await one_game(ports[setup], f"bench{game}", rng)
        return took


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--one-host-only", action="store_true",
                        help="only the one host on its SQLite file (no PostgreSQL needed)")
    options = parser.parse_args()
    setups = SETUPS[:1] if options.one_host_only else SETUPS
    took = asyncio.run(measure(options.games, options.seed, setups))
    print(f"a move to the other player's screen, {options.games} games each")
    print("| set-up | moves | p50 | p95 | largest |")
    print("| --- | --- | --- | --- | --- |")
    for setup in setups:
        ms = sorted(t * 1000 for t in took[setup])
        print(f"| {setup} | {len(ms)} | {statistics.median(ms):.0f} ms | "
              f"{ms[int(0.95 * (len(ms) - 1))]:.0f} ms | {ms[-1]:.0f} ms |")


if __name__ == "__main__":
    main()
