"""Holding signals back while a write that must finish is under way."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold back SIGINT, SIGTERM and SIGHUP until the block is done."""
    catchable = [signal.SIGINT, signal.SIGTERM]
    if hasattr(signal, "SIGHUP"):
        catchable.append(signal.SIGHUP)
    if not hasattr(signal, "pthread_sigmask"):  # Windows: nothing to hold back with
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, catchable)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
