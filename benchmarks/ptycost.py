"""Shared measuring for the pty benchmarks: settled output after a key, percentiles, tables."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Sequence

SETTLE_S = 0.04
"""A frame is settled once the program has been quiet this long."""


def read_until_quiet(fd: int, first_wait: float) -> tuple[int, float | None]:
    """Bytes read and the arrival time of the last one, once output has settled."""
    total, last = 0, None
    wait = first_wait
    while True:
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            return total, last
        data = os.read(fd, 65536)
        if not data:
            return total, last
        total += len(data)
        last = time.perf_counter()
        wait = SETTLE_S


def key_cost(fd: int, key: bytes) -> tuple[int, float | None]:
    """Send one key; the bytes it caused and the milliseconds until they settled."""
    sent = time.perf_counter()
    os.write(fd, key)
    size, last = read_until_quiet(fd, 1.0)
    return size, None if last is None else (last - sent) * 1000


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[min(round(fraction * (len(ordered) - 1)), len(ordered) - 1)]


def print_table(rows: list[tuple[str, str, str]]) -> None:
    """Rows of (measure, value, note) as an aligned table."""
    width = max(len(name) for name, _, _ in rows)
    print(f"{'measure':<{width}}  {'value':>14}  note")
    print("-" * (width + 40))
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>14}  {note}")
