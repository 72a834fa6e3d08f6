"""How long a game waits to record a result, on each store, and how fast a spool drains.

Usage: python -m benchmarks.store_latency --database-url postgresql://... [--writes N]

Records N results (default 500) one after another, as a game does at the end of each run,
into: the SQLite file; PostgreSQL directly (a transaction per result, what a game would
wait for without the spool); and PostgreSQL through the spool (what a game waits for
now). Then it stops the pusher, records N more into the spool, and times how long a fresh
pusher takes to send them all (what a host does after an outage). Each store starts
empty (a new data folder; the database's tables emptied first).

The table: store, writes, median, p95 and longest wait per result (ms), and the drain rate.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from termgames.store import Store, open_store
from termgames.store.remote.postgres import PostgresStore
from termgames.store.remote.spool import SPOOL_NAME, Pusher, Spool
from termgames.store.writes import ScoreWrite


def timed_writes(store: Store, count: int, prefix: str) -> list[float]:
    """Milliseconds each of ``count`` results took to record."""
    found = []
    for index in range(count):
        started = time.perf_counter()
        assert store.record_score(f"{prefix}{index}", "2048", "4x4", index, player="bench")
        found.append((time.perf_counter() - started) * 1000)
    return found


def empty_tables(url: str) -> None:
    """Start from an empty database (the schema made if new)."""
    store = PostgresStore.connect(url, "bench")
    with store.transaction() as execute:
        for table in ("scores", "progress", "marks"):
            execute(f"DELETE FROM {table}")
    store.close()


def drain_rate(url: str, count: int) -> tuple[float, float]:
    """Seconds a pusher takes to send ``count`` waiting results, and results a second."""
    folder = Path(tempfile.mkdtemp(prefix="termgames-bench-"))
    spool = Spool(folder / SPOOL_NAME)
    now = time.time()
    for index in range(count):
        spool.add(ScoreWrite(f"d{index}", "2048", "4x4", index, "bench", (), False, now))
    store = PostgresStore.connect(url, "bench")
    started = time.perf_counter()
    pusher = Pusher(spool, store)
    while spool.count():
        time.sleep(0.01)
    seconds = time.perf_counter() - started
    pusher.close()
    spool.close()
    store.close()
    return seconds, count / seconds


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--writes", type=int, default=500)
    options = parser.parse_args()
    count = options.writes
    stores: list[tuple[str, Callable[[Path], Store]]] = [
        ("sqlite", lambda folder: open_store(folder, owner="bench")),
        ("postgresql, direct", lambda folder: PostgresStore.connect(options.database_url,
                                                                     "bench")),
        ("postgresql, spooled", lambda folder: open_store(
            folder, owner="bench", database_url=options.database_url)),
    ]
    rows = []
    for name, opener in stores:
        empty_tables(options.database_url)
        store = opener(Path(tempfile.mkdtemp(prefix="termgames-bench-")))
        waits = sorted(timed_writes(store, count, name[:2]))
        store.close()
        rows.append((name, count, statistics.median(waits), waits[int(len(waits) * 0.95)],
                     waits[-1]))
    empty_tables(options.database_url)
    seconds, rate = drain_rate(options.database_url, count)
    print(f"{'store':<22}{'writes':>8}{'median ms':>11}{'p95 ms':>9}{'longest ms':>12}")
    for name, writes, median, p95, longest in rows:
        print(f"{name:<22}{writes:>8}{median:>11.2f}{p95:>9.2f}{longest:>12.2f}")
    print(f"\nspool drained: {count} results in {seconds:.2f} s ({rate:,.0f} a second)")


if __name__ == "__main__":
    main()
