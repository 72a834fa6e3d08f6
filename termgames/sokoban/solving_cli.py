"""``termgames sokoban --solve``: the solver on the command line, one level a process.

Each level is solved in a worker process (``--jobs`` of them, all cores by default) and
reported as it finishes: on a terminal with a progress line and then a line a level (in
level order, also after Ctrl-C), piped with a line a level as each one ends. The
solutions, in level order and in the standard format ``--verify`` reads, go to ``--out
FILE`` or else to standard output; the report goes to standard error when standard
output carries the solutions, to standard output otherwise.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import click

from termgames.commands.output import echo
from termgames.commands.progress import ProgressLine
from termgames.commands.simulations import report_interrupted
from termgames.commands.workers import default_jobs as default_jobs
from termgames.commands.workers import results_as_done
from termgames.runtime.terminal import Stopped, signals_held, terminations_unwind
from termgames.sokoban.format import Level, LevelError
from termgames.sokoban.solver import Optimal, Verdict, solve
from termgames.text import plural, sanitize, shown_path

DEFAULT_TIME_LIMIT = 30.0
"""Seconds the solver may spend on one level unless ``--time-limit`` says otherwise."""


class OutFileError(click.ClickException):
    """The ``--out`` file cannot be written: one line, exit status 2."""

    exit_code = 2


@dataclass(frozen=True)
class LevelReport:
    """How the search for one level ended: its place in the list, the verdict (None if
    the solver failed, ``error`` saying how), the LURD solution (empty unless solved),
    the seconds the worker spent on it, and whether its push count is proved the least."""

    index: int
    verdict: Verdict | None
    lurd: str
    seconds: float
    error: str = ""
    optimal: bool = False

    @property
    def moves(self) -> int:
        """Steps in the solution, pushes included."""
        return len(self.lurd)

    @property
    def pushes(self) -> int:
        """Pushes in the solution (the uppercase letters)."""
        return sum(1 for letter in self.lurd if letter.isupper())


def check_time_limit(seconds: float | None) -> float:
    """The time limit to use; BadParameter unless it is a positive, finite number."""
    if seconds is None:
        return DEFAULT_TIME_LIMIT
    if not 0 < seconds < math.inf:
        raise click.BadParameter(f"{seconds} is not a positive number of seconds",
                                 param_hint="--time-limit")
    return seconds


def check_out_file(path: str) -> None:
    """Refuse, before any solving, an ``--out`` path that could not be written."""
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise OutFileError(f"{shown_path(path)}: is a folder")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutFileError(f"{shown_path(path)}: permission denied")
    if not parent.is_dir():
        raise OutFileError(f"{shown_path(path)}: no such folder {shown_path(str(parent))}")
    if not target.exists() and not os.access(parent, os.W_OK):
        raise OutFileError(f"{shown_path(path)}: cannot create a file in that folder")


def solve_one(job: tuple[int, Level, float, Optimal | None]) -> LevelReport:
    """Solve one level (in a worker): ``job`` is its index, the level, the time limit and
    what to keep to the fewest of (None: any solution)."""
    index, level, time_limit, optimal = job
    started = time.monotonic()
    try:
        result = solve(level, time_limit, optimal=optimal)
    except Exception as error:  # one level's failure must not lose the others' solutions
        return LevelReport(index, None, "", time.monotonic() - started,
                       f"{type(error).__name__}: {error}")
    return LevelReport(index, result.verdict, result.lurd, time.monotonic() - started,
                       optimal=result.optimal)


@contextlib.contextmanager
def level_reports(levels: Sequence[Level], time_limit: float, jobs: int,
             beat: Callable[[], None] | None = None, optimal: Optimal | None = None
             ) -> Iterator[Iterator[LevelReport]]:
    """Each level's report as it finishes, from ``jobs`` worker processes that are ended
    when the block ends, however it ends; ``beat`` is called while none finishes."""
    work = [(index, level, time_limit, optimal) for index, level in enumerate(levels)]
    with results_as_done(solve_one, work, jobs, beat=beat) as results:
        yield results


def level_name(level: Level, with_file: bool) -> str:
    """How report lines name a level: 'level 3 ('Title')', after its file's name when
    the levels come from several files."""
    name = level.label
    if with_file:
        name = f"{Path(level.source).name} {name}"
    return sanitize(shown_path(name), 300)


def describe(level: Level, ended: LevelReport, with_file: bool = False) -> str:
    """One report line: the level, whether it was solved, the time, moves and pushes."""
    name = level_name(level, with_file)
    seconds = f"{ended.seconds:.2f} s"
    if ended.verdict is Verdict.SOLVED:
        return (f"{name}: solved, {seconds}, {plural(ended.moves, 'move')}, "
                f"{plural(ended.pushes, 'push', 'pushes')}"
                f"{' (optimal)' if ended.optimal else ''}")
    if ended.verdict is None:
        return f"{name}: the solver failed ({sanitize(' '.join(ended.error.split()))}), " \
               f"{seconds}"
    return f"{name}: {ended.verdict.value}, {seconds}"


def solution_lines(level: Level, lurd: str, with_file: bool = False) -> list[str]:
    """A solution in the standard format: '; level N', the Title line, 'Solution: LURD';
    first '; file NAME' when the levels come from several files (--verify reads it)."""
    lines = [f"; file {sanitize(Path(level.source).name, 300)}"] if with_file else []
    lines.append(f"; level {level.number}")
    if level.title:
        lines.append(f"Title: {sanitize(level.title, 1000)}")
    lines.extend((f"Solution: {lurd}", ""))
    return lines


def summary(levels: int, found: Sequence[LevelReport], skipped: int, seconds: float) -> str:
    """The last report line: how many levels were solved, and what became of the rest."""
    def count(verdict: Verdict | None) -> int:
        return sum(1 for ended in found if ended.verdict is verdict)

    others = [f"{number:,} {what}" for number, what in (
        (count(Verdict.UNSOLVABLE), "unsolvable"),
        (count(Verdict.LIMIT), "not solved within the limit"),
        (count(None), "solver failure" if count(None) == 1 else "solver failures"),
        (skipped, "bad level skipped" if skipped == 1 else "bad levels skipped"),
    ) if number]
    solved = count(Verdict.SOLVED)
    detail = f" ({', '.join(others)})" if others else ""
    return f"{solved:,} of {plural(levels + skipped, 'level')} solved{detail} in {seconds:.1f} s"


class _Report:
    """Where the report goes and how: a progress line on a terminal, lines when piped."""

    def __init__(self, levels: Sequence[Level], err: bool) -> None:
        self.levels, self.err = levels, err
        self.with_file = len({level.source for level in levels}) > 1
        self.stream: TextIO = sys.stderr if err else sys.stdout
        self.on_terminal = self.stream.isatty()
        self.progress = None
        if self.on_terminal:
            self.progress = ProgressLine(self.stream, "Solving", len(levels), "level")
        self.done, self.last = 0, ""

    def line(self, ended: LevelReport) -> str:
        """The report line for one level."""
        return describe(self.levels[ended.index], ended, self.with_file)

    def beat(self) -> None:
        """Redraw the progress line (its time goes on while levels are being solved)."""
        if self.progress is not None:
            self.progress.show(self.done, detail=self.last)

    def collect(self, results: Iterator[LevelReport], found: list[LevelReport]) -> None:
        """Gather the levels' reports into ``found`` as they finish: each one's line when piped, a
        progress line naming the last one on a terminal (``finish`` prints the lines)."""
        if self.progress is None:
            for ended in results:
                with signals_held():  # a level's line is printed whole
                    found.append(ended)
                    echo(self.line(ended), err=self.err)
            return
        self.progress.show(0, now=True)
        try:
            for ended in results:
                found.append(ended)
                verdict = ended.verdict.value if ended.verdict else "the solver failed"
                self.done = len(found)
                self.last = f"{level_name(self.levels[ended.index], self.with_file)}: " \
                            f"{verdict}"
                self.beat()
        finally:
            self.progress.clear()

    def finish(self, found: list[LevelReport]) -> None:
        """On a terminal, the lines of the levels done, in level order (however the run
        ended: what was solved is never lost)."""
        if self.on_terminal:
            for ended in sorted(found, key=lambda ended: ended.index):
                echo(self.line(ended), err=self.err)


def run(levels: Sequence[Level], time_limit: float, jobs: int, out: str | None,
        problems: Sequence[LevelError] = (), optimal: Optimal | None = None) -> None:
    """Solve ``levels`` (with ``optimal``, each with the fewest pushes, or not at all),
    report each, write the solutions; exit 0 if every level was solved, 1 if not, 128 +
    the signal after Ctrl-C, SIGTERM or SIGHUP (the lines of the levels done and the
    solutions found so far are still written).
    ``out`` was checked with ``check_out_file`` before the levels were read."""
    report = _Report(levels, err=out is None)
    for problem in problems:
        echo(f"termgames: skipped: {sanitize(str(problem), 1000)}", err=True)
    found: list[LevelReport] = []
    started = time.monotonic()
    # The pool is entered before the handlers: its workers must not inherit them.
    with Stopped() as stopped, \
            level_reports(levels, time_limit, jobs, report.beat, optimal) as results, \
            terminations_unwind():
        report.collect(results, found)
    solved = sorted((o for o in found if o.verdict is Verdict.SOLVED), key=lambda o: o.index)
    lines = [line for o in solved
             for line in solution_lines(levels[o.index], o.lurd, report.with_file)]
    with stopped.guarded():
        report.finish(found)
        _write(lines, out)
    if stopped:
        where = f"; solutions so far in {shown_path(out)}" if out and solved else ""
        report_interrupted(f"termgames: {stopped.how}: {len(solved):,} of "
                           f"{plural(len(levels), 'level')} solved{where}")
        stopped.exit()
    echo(summary(len(levels), found, len(problems), time.monotonic() - started),
         err=report.err)
    sys.exit(0 if len(solved) == len(levels) and not problems else 1)


def _write(lines: list[str], out: str | None) -> None:
    """The solutions to ``out``, or to standard output without it."""
    if out is None:
        for line in lines:
            echo(line)
        return
    try:
        with open(out, "w", encoding="utf-8", newline="\n") as handle:
            handle.write("".join(line + "\n" for line in lines))
    except OSError as error:
        raise OutFileError(f"{shown_path(out)}: {error.strerror or error}") from error
