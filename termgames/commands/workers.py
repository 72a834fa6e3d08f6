"""Work spread over worker processes for the command-line reports (``sokoban --solve``,
the ``simulate`` commands), ended cleanly however the report ends; the work done inside
jobs, counted across processes for a progress line; and how wide a report's terminal is.

Two traps shape this module. Workers leave Ctrl-C to the main process (the terminal sends
SIGINT to the whole process group), which ends them. And workers must die at once on the
SIGTERM the pool ends them with: one that inherited a Python SIGTERM handler could miss it
while waiting for work and hang the program as it ended. So the pool is started before
``signals.terminations_unwind`` installs its handlers, and each worker resets SIGTERM and
SIGHUP to their defaults.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TextIO, TypeVar

from termgames.runtime.terminal import terminating_signals

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

BEAT_S = 0.2
"""How often, with nothing finished, the pool's results wake the caller to redraw."""
FLUSH_S = 0.05
"""How often a worker adds the work it counted to the shared count: a lock a move would
cost a fast game (a Reversi move takes tens of microseconds) more than the count is worth."""

Job = TypeVar("Job")
Result = TypeVar("Result")


class WorkCount:
    """Units of work done inside jobs (moves played), added up over every process."""

    def __init__(self) -> None:
        import multiprocessing  # only for a report: not on every start

        self.shared: Any = multiprocessing.Value("q", 0)

    @property
    def value(self) -> int:
        """The units counted so far (those a worker has not yet added come later)."""
        return int(self.shared.value)

    def add(self, units: int) -> None:
        """Count ``units`` more."""
        with self.shared.get_lock():
            self.shared.value += units


class _Counting:
    """What ``count_work`` does in this process: nothing, until a pool or an in-process
    run gives it a count (and, in-process, a beat to redraw with)."""

    count: WorkCount | None = None
    beat: Callable[[], None] | None = None
    pending = 0
    flushed = 0.0


def count_work(units: int = 1) -> None:
    """Count work done inside a job (a move played), for the progress line; nothing
    unless the job runs under ``results_as_done`` with a WorkCount."""
    counting = _Counting
    if counting.count is None:
        return
    counting.pending += units
    now = time.monotonic()
    if counting.beat is not None or now - counting.flushed >= FLUSH_S:
        counting.count.add(counting.pending)
        counting.pending, counting.flushed = 0, now
        if counting.beat is not None:
            counting.beat()


def report_width(stream: TextIO) -> int:
    """How many columns the terminal showing a command-line report (a progress bar) has.

    The one place besides the launch context that asks the terminal its size: a report
    is printed by a command on the player's own terminal, never drawn on a game screen,
    which must take its size from the LaunchContext (a served game's is the connection's).
    """
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError):
        import shutil  # only for a report: not on every game's start

        return shutil.get_terminal_size().columns


def default_jobs() -> int:
    """How many worker processes to use unless ``--jobs`` says: one per core."""
    return os.cpu_count() or 1


def start_worker(count: WorkCount | None = None) -> None:
    """A worker's initializer: Ctrl-C ignored, the terminating signals at their defaults, and
    the work its jobs count added to ``count``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in terminating_signals():
        signal.signal(signum, signal.SIG_DFL)
    _Counting.count, _Counting.beat, _Counting.pending = count, None, 0


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)


@contextlib.contextmanager
def results_as_done(function: Callable[[Job], Result], work: Sequence[Job], jobs: int,
                    chunksize: int = 1, count: WorkCount | None = None,
                    beat: Callable[[], None] | None = None) -> Iterator[Iterator[Result]]:
    """``function`` of each job, as each finishes: here for one job, else from a pool of
    worker processes that is terminated when the block ends, however it ends. The work
    the jobs count (``count_work``) goes to ``count``; ``beat`` is called while they run
    (at every count here, every BEAT_S with nothing finished from a pool)."""
    jobs = min(jobs, len(work))
    if jobs <= 1:
        saved = (_Counting.count, _Counting.beat)
        _Counting.count, _Counting.beat = count, beat
        try:
            yield map(function, work)
        finally:
            _Counting.count, _Counting.beat = saved
        return
    with _sigint_ignored():  # the workers are born ignoring Ctrl-C
        pool: Pool = _pool(jobs, count)
    try:
        # Chunks made here, not by imap_unordered: its iterator over chunks is a plain
        # generator, which cannot wait with a timeout between beats.
        chunks = [work[start:start + chunksize] for start in range(0, len(work), chunksize)]
        yield (result for chunk in _beating(pool.imap_unordered(_Chunk(function), chunks), beat)
               for result in chunk)
    finally:
        with _sigint_ignored():
            pool.terminate()
            pool.join()


def _pool(jobs: int, count: WorkCount | None) -> Pool:
    """``jobs`` worker processes, each started by ``start_worker``."""
    import multiprocessing  # only for a report: not on every start

    return multiprocessing.Pool(jobs, initializer=start_worker, initargs=(count,))


def in_order(results: Iterable[Result], number: Callable[[Result], int]
             ) -> Iterator[Result]:
    """``results``, which come as their jobs finish, in the order of their ``number``
    (numbered from 1, as the jobs of a simulation are)."""
    waiting: dict[int, Result] = {}
    following = 1
    for result in results:
        waiting[number(result)] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1


class _Chunk(Generic[Job, Result]):
    """``function`` over a chunk of jobs, in a worker (a class, so that it pickles)."""

    def __init__(self, function: Callable[[Job], Result]) -> None:
        self.function = function

    def __call__(self, chunk: Sequence[Job]) -> list[Result]:
        return [self.function(job) for job in chunk]


def _beating(results: Any, beat: Callable[[], None] | None) -> Iterator[Any]:
    """The pool's results as they come, calling ``beat`` whenever BEAT_S passes without."""
    from multiprocessing import TimeoutError as PoolTimeout

    while True:
        try:
            yield results.next(timeout=BEAT_S if beat else None)
        except StopIteration:
            return
        except PoolTimeout:
            assert beat is not None
            beat()
