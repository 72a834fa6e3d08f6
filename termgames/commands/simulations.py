"""The one output rule of the ``simulate`` commands (2048's and Reversi's), and the run of
their games over worker processes that keeps every finished game however the run ends.

The rule, which both commands' help states in the same words (``options.OUTPUT_RULE``): on a
terminal a progress line runs (on standard error) and the per-game lines are left out;
piped, each game's line comes in game order as soon as it and the games before it are
done. The summary always comes last, on standard output. ``--quiet`` leaves only the
summary. Ctrl-C, SIGTERM or SIGHUP stop the run early: the games finished so far are
summed up all the same, marked partial, and the status is 128 + the signal.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from termgames.commands.output import echo
from termgames.text import plural

if TYPE_CHECKING:
    from termgames.runtime.terminal import Stopped

Job = TypeVar("Job")
Result = TypeVar("Result")


@dataclass(frozen=True)
class Simulation(Generic[Result]):
    """The games a run finished, in game order, out of ``total``; the seconds it took;
    and whether a signal stopped it."""

    results: list[Result]
    total: int
    seconds: float
    stopped: Stopped

    @property
    def partial(self) -> bool:
        """Whether a signal stopped the run before every game was played."""
        return bool(self.stopped)

    def played(self, noun: str = "game") -> str:
        """'250 games', or '12 of 250 games' for a partial run."""
        if self.partial:
            return f"{len(self.results):,} of {plural(self.total, noun)}"
        return plural(self.total, noun)

    def mark(self) -> str:
        """What ends a partial run's first summary line: ' (partial)' (standard error has
        already said what stopped it)."""
        return " (partial)" if self.partial else ""

    def finish(self, lines: Callable[[], Sequence[str]]) -> None:
        """Print the summary ``lines`` make (none if no game finished), then exit with
        the stopping signal's status if one stopped the run."""
        if self.results:
            with self.stopped.guarded():
                for line in lines():
                    echo(line)
        self.stopped.exit()


def report_interrupted(message: str) -> None:
    """Say on standard error, on a line of its own, why the report stopped early."""
    # On Ctrl-C the terminal driver discards output not yet read, which can swallow
    # the newline that ends the progress line: return to the line's start and clear it.
    start = "\r\x1b[K" if sys.stderr.isatty() else ""
    with contextlib.suppress(OSError):  # a terminal that hung up: the rest still matters
        echo(f"{start}{message}", err=True)


def simulate(function: Callable[[Job], Result], work: Sequence[Job], jobs: int, *,
             number: Callable[[Result], int], line: Callable[[Result], str] | None,
             quiet: bool, chunksize: int = 1) -> Simulation[Result]:
    """Play a game for each job of ``work`` on ``jobs`` processes, following OUTPUT_RULE
    up to the summary, which is the caller's (``Simulation.finish``). ``number`` tells a
    result's game (numbered from 1), ``line`` its line (None: the summary is all, as for
    JSON). The games count their moves with ``workers.count_work``."""
    # Imported here: the game commands import this module for their help, and a game
    # should not pay at start-up for multiprocessing.
    from termgames.commands.progress import ProgressLine
    from termgames.commands.workers import WorkCount, results_as_done
    from termgames.runtime.terminal import Stopped, signals_held, terminations_unwind

    lines = line is not None and not quiet and not sys.stdout.isatty()
    progress = None
    if not quiet and not lines and sys.stderr.isatty():
        progress = ProgressLine(sys.stderr, "Playing", len(work), "game")
    done: dict[int, Result] = {}
    count = WorkCount()

    def beat() -> None:
        if progress is not None:
            progress.show(len(done), count.value)

    following = 1
    started = time.monotonic()
    if progress is not None:
        progress.show(0, 0, now=True)
    # The pool is entered before the handlers: its workers must not inherit them.
    with Stopped() as stopped, results_as_done(
            function, work, jobs, chunksize, count, beat if progress else None) as results, \
            terminations_unwind():
        for result in results:
            with signals_held():  # a game's line is printed whole and counted as printed
                done[number(result)] = result
                beat()
                while line is not None and lines and following in done:
                    echo(line(done[following]))
                    following += 1
    seconds = time.monotonic() - started
    if progress is not None:
        progress.clear()
    finished = [done[key] for key in sorted(done)]
    if stopped:
        with stopped.guarded():
            if line is not None and lines:  # the finished games after a gap, in order
                for result in finished:
                    if number(result) >= following:
                        echo(line(result))
        report_interrupted(f"termgames: {stopped.how} after {len(done):,} of "
                           f"{plural(len(work), 'game')}")
    return Simulation(finished, len(work), seconds, stopped)
