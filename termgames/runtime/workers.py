"""Work spread over worker processes for the command-line reports (``sokoban --solve``,
``2048 simulate``), ended cleanly however the report ends; and how wide a report's
terminal is, for its progress bar.

Two traps shape this module. Workers leave Ctrl-C to the main process (the terminal
sends SIGINT to the whole process group), which ends them. And workers must die at once
on the SIGTERM the pool ends them with: one that inherited a Python SIGTERM handler could
miss it while waiting for work and hang the program as it ended. So the pool is started
before ``terminations_unwind`` installs its handlers, and each worker resets SIGTERM and
SIGHUP to their defaults.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import TextIO, TypeVar

from termgames.runtime.output import echo

INTERRUPTED = 130
"""The shell's status for a program stopped by Ctrl-C (128 + SIGINT)."""

Job = TypeVar("Job")
Result = TypeVar("Result")


def report_interrupted(message: str) -> None:
    """Say on standard error, on a line of its own, that Ctrl-C stopped the report."""
    # On Ctrl-C the terminal driver discards output not yet read, which can swallow
    # the newline that ends the progress bar: return to the line's start and clear it.
    start = "\r\x1b[K" if sys.stderr.isatty() else ""
    echo(f"{start}{message}", err=True)


def report_width(stream: TextIO) -> int:
    """How many columns the terminal showing a command-line report (a progress bar) has.

    The one place besides the launch context that asks the terminal its size: a report
    is printed by a command on the player's own terminal, never drawn on a game screen,
    which must take its size from the LaunchContext (a served game's is the connection's).
    """
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError):
        return shutil.get_terminal_size().columns


def default_jobs() -> int:
    """How many worker processes to use unless ``--jobs`` says: one per core."""
    return os.cpu_count() or 1


def start_worker() -> None:
    """A worker's initializer: Ctrl-C ignored, SIGTERM and SIGHUP at their defaults."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)


@contextlib.contextmanager
def results_as_done(function: Callable[[Job], Result], work: Sequence[Job], jobs: int
                    ) -> Iterator[Iterator[Result]]:
    """``function`` of each job, as each finishes: here for one job, else from a pool of
    worker processes that is terminated when the block ends, however it ends."""
    jobs = min(jobs, len(work))
    if jobs <= 1:
        yield map(function, work)
        return
    with _sigint_ignored():  # the workers are born ignoring Ctrl-C
        pool = multiprocessing.Pool(jobs, initializer=start_worker)
    try:
        yield pool.imap_unordered(function, work)
    finally:
        with _sigint_ignored():
            pool.terminate()
            pool.join()


class Terminated(SystemExit):
    """SIGTERM or SIGHUP arrived: unwind (ending the workers), exit 128 + the signal."""


def _raise_terminated(signum: int, _frame: FrameType | None) -> None:
    raise Terminated(128 + signum)


@contextlib.contextmanager
def terminations_unwind() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into SystemExit for the block, so workers are ended too,
    and make Ctrl-C raise KeyboardInterrupt even if this process was started with it
    ignored (a background job of a shell is). Enter it after ``results_as_done``:
    workers must not inherit these handlers."""
    previous = {signal.SIGINT: signal.signal(signal.SIGINT, signal.default_int_handler)}
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None:
            previous[signum] = signal.signal(signum, _raise_terminated)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
