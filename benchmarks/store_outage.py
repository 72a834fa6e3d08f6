"""What a game waits for at its start while PostgreSQL is down, against the same start
while it is up: measured the same way on both sides, in one run, interleaved.

Usage: python -m benchmarks.store_outage [--runs N]      (run it under ``nice -n 10``)

It starts a PostgreSQL server of its own (tests/harness/postgres.py: the binaries must be
installed, as for the tests), records one 2048 result of 96 for the player, and then, N
times (default 7), in turn with the server up and stopped (``pg_ctl stop -m fast``):

- served: a store broker runs as ``serve`` runs it (tests/harness/stores.py), and ``termgames
  2048`` starts on a pty at 80x24 as a served game does (its environment names the
  broker): the time from its start to its first whole frame, the header's best and the
  footer or, with the database down, the note over it (the bytes are searched as they
  come). The broker lives across the runs, as it does on a host: it read the best with
  the database up before the first run.
- local: a local game's store (``termgames --database-url``: the spool and a pusher over
  PostgreSQL directly), opened and read once with the server up, as the menu does; then
  the server stops or not, and the time of the game's first read of its best.

The table: each path and state, the median and longest time (ms), and whether the best
shown was the player's 96. To compare with another checkout, run the same command from
it (the server and the harness are the checkout's own).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from termgames.store import Store, open_store
from tests.harness.postgres import PostgresServer
from tests.harness.stores import PLAYER, RunningBroker, running_broker
from tests.harness.terminal import Terminal

VARIANT = "4x4, goal 2048"
SEEDED = 96


def first_frame(home: Path, socket: str) -> tuple[float, bool]:
    """Seconds from starting a served 2048 to its first whole frame; whether it showed
    the player's best."""
    started = time.monotonic()
    term = Terminal(["2048"], home, env={"TERMGAMES_STORE_BROKER": socket,
                                         "TERMGAMES_HOME": str(home / "host")})
    try:
        while not (b"Best:" in term.received and (
                b"q quit" in term.received or b"stale" in term.received)):
            term.drain(0.002)
            if time.monotonic() - started > 60:
                raise RuntimeError(f"no frame after 60 s: {bytes(term.received[-200:])!r}")
        seconds = time.monotonic() - started
        shown = f"Best: {SEEDED}".encode() in term.received
        term.press("q")
        term.wait_exit()
        return seconds, shown
    finally:
        term.close()


def best(store: Store) -> int | None:
    """The best the 2048 header reads."""
    found = store.best("2048", VARIANT, assisted=False)
    return None if found is None else found.score


def first_read(folder: Path, url: str, server: PostgresServer, down: bool
               ) -> tuple[float, bool]:
    """Seconds a local game's first read of its best takes, the server stopped first if
    ``down``; whether it found the player's best."""
    store = open_store(folder, owner=PLAYER, database_url=url)
    try:
        best(store)  # the menu read it, the database up
        if down:
            server.stop()
        started = time.perf_counter()
        found = best(store)
        return time.perf_counter() - started, found == SEEDED
    finally:
        store.close()
        server.start()


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    home = Path(tempfile.mkdtemp(prefix="termgames-bench-"))
    (home / "host").mkdir()
    timings: dict[tuple[str, str], list[tuple[float, bool]]] = {}
    with PostgresServer() as server:
        url = server.create_database("bench")
        with running_broker(home / "host", url) as broker:
            seed = broker.store()
            seed.record_score("seed", "2048", VARIANT, SEEDED, player=PLAYER)
            seed.close()
            while _spooled(home / "host"):
                time.sleep(0.05)
            first_frame(home, broker.socket)  # the broker reads the best, the server up
            measures: list[tuple[str, Callable[[bool], tuple[float, bool]]]] = [
                ("served first frame", lambda down: _served(home, broker, server, down)),
                ("local first read", lambda down: first_read(home / "local", url, server,
                                                             down)),
            ]
            for _ in range(runs):
                for down in (False, True):
                    for name, measure in measures:
                        timings.setdefault((name, "down" if down else "up"), []).append(
                            measure(down))
    print(f"{'what':<20}{'database':>9}{'runs':>6}{'median ms':>11}{'longest ms':>12}"
          f"{'best shown':>12}")
    for (name, state), found in timings.items():
        times = [seconds * 1000 for seconds, _ in found]
        shown = sum(ok for _, ok in found)
        print(f"{name:<20}{state:>9}{len(found):>6}{statistics.median(times):>11.1f}"
              f"{max(times):>12.1f}{f'{shown}/{len(found)}':>12}")


def _served(home: Path, broker: RunningBroker, server: PostgresServer, down: bool
            ) -> tuple[float, bool]:
    """``first_frame``, the server stopped first if ``down`` (then started again, and
    waited for until the broker reads from it again, so that the next run finds it up)."""
    if not down:
        return first_frame(home, broker.socket)
    server.stop()
    try:
        return first_frame(home, broker.socket)
    finally:
        server.start()
        reader = broker.store()
        while best(reader) is None or getattr(reader, "stale_since", None) is not None:
            time.sleep(0.05)
        reader.close()


def _spooled(folder: Path) -> int:
    import sqlite3

    with sqlite3.connect(folder / "spool.sqlite3") as spool:
        return int(spool.execute("SELECT count(*) FROM pending").fetchone()[0])


if __name__ == "__main__":
    main()
