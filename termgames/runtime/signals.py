"""The signals that end a run, and holding them back while a write that must finish is
under way."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


def terminating_signals() -> list[int]:
    """The signals that ask the program to end, beside Ctrl-C, that this system has:
    SIGTERM; SIGHUP (a terminal or SSH link gone); on Windows, Ctrl-Break's SIGBREAK,
    which by default ends a process without letting it save."""
    return [number for name in ("SIGTERM", "SIGHUP", "SIGBREAK")
            if (number := getattr(signal, name, None)) is not None]


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold back Ctrl-C and the terminating signals until the block is done."""
    catchable = [signal.SIGINT, *terminating_signals()]
    if not hasattr(signal, "pthread_sigmask"):  # Windows: nothing to hold back with
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, catchable)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
