"""Reversi engine A against engine B from balanced openings, both colours: a score and its
95% interval.

Usage: python -m benchmarks.reversi_match A B [--seconds S | --nodes N] [--openings K]
       [--games G] [--jobs J] [--seed S] [--file PATH] [--ntest PATH] [--edax PATH]

Engines are named as benchmarks/reversi_engines.py says: termgames' strategies
(``search``, ``search-classic``, ``corner-best``, ...; ``search@0.2s`` or
``search@20000n`` for a budget of its own) or external ones (``ntest:4``, ``edax:2``).
Each of the first K openings (default: all of benchmarks/data/reversi-openings.txt) is
played twice, A as X and then A as O, so no side gains from an unbalanced opening;
``--games`` cuts the run shorter still. Both engines of ours get the same budget: the
wall time a move (default 0.8 s, the game's top level) or, with ``--nodes``, the
positions a move, which makes a run the same on any machine. The time is measured in
the worker around each move and reported (mean and longest) for each side.

Games run in ``--jobs`` worker processes (default one a core); Ctrl-C stops the run and
prints the table of the games finished. The score counts a win 1 and a draw 1/2; its 95%
interval is Wilson's score interval on that proportion over the games played (a draw
counted as half a win), which stays within 0-100% near the ends. Games from the same
opening are paired, so the interval is, if anything, a little wide.
"""

from __future__ import annotations

import argparse
import atexit
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.reversi_engines import Budget, Engine, Programs, check_spec, make_engine, timed
from benchmarks.reversi_openings import OPENINGS, Opening, load_openings
from termgames.commands.workers import WorkCount, count_work, default_jobs, results_as_done
from termgames.reversi.board import Side
from termgames.reversi.match import Match
from termgames.runtime.terminal.signals import Stopped, signals_held, terminations_unwind

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Job:
    """A game to play: its number, opening, which side A takes, and the engines."""

    number: int
    opening: Opening
    a_side: Side
    a: str
    b: str
    budget: Budget
    programs: Programs
    seed: int


@dataclass
class EnginePlay:
    """What one engine did in one game: its moves' wall times, positions and depths."""

    times: list[float] = field(default_factory=list)
    nodes: int = 0
    depths: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class GameResult:
    """A finished game: A's discs and B's, and what each side did."""

    number: int
    a_side: Side
    a_discs: int
    b_discs: int
    a: EnginePlay
    b: EnginePlay

    @property
    def points(self) -> float:
        """A's points: 1 a win, 1/2 a draw."""
        return 1.0 if self.a_discs > self.b_discs else 0.5 if self.a_discs == self.b_discs \
            else 0.0


_ENGINES: dict[str, Engine] = {}
"""This process's engines, started at their first game and kept for the next ones (an
external engine's process starts once per worker)."""


def close_engines() -> None:
    """Close this process's engines (at exit, and when a run in this process ends)."""
    for engine in _ENGINES.values():
        engine.close()
    _ENGINES.clear()


atexit.register(close_engines)


def _engine(spec: str, budget: Budget, programs: Programs) -> Engine:
    key = f"{spec}|{budget}"
    if key not in _ENGINES:
        _ENGINES[key] = make_engine(spec, budget, programs)
    return _ENGINES[key]


def play(job: Job) -> GameResult:
    """Play one game: the opening's moves, then the engines in turn to the end."""
    rng = random.Random(f"{job.seed}:{job.number}")
    engines = {job.a_side: _engine(job.a, job.budget, job.programs),
               job.a_side.other: _engine(job.b, job.budget, job.programs)}
    sides = {job.a_side: EnginePlay(), job.a_side.other: EnginePlay()}
    match = Match(Side.X)
    for square in job.opening.moves:
        match.play(square)
    while (result := match.result()) is None:
        side = match.turn
        choice, seconds = timed(engines[side], match.position, rng)
        match.play(choice.square)
        record = sides[side]
        record.times.append(seconds)
        record.nodes += choice.nodes or 0
        if choice.depth is not None:
            record.depths.append(choice.depth)
        count_work()
    a_discs, b_discs = (result.x, result.o) if job.a_side is Side.X else (result.o, result.x)
    return GameResult(job.number, job.a_side, a_discs, b_discs, sides[job.a_side],
                      sides[job.a_side.other])


def jobs_for(a: str, b: str, openings: Sequence[Opening], games: int | None, budget: Budget,
             programs: Programs, seed: int) -> list[Job]:
    """Each opening twice, A as X then as O, cut to ``games`` if given."""
    work = [Job(2 * index + turn + 1, opening, side, a, b, budget, programs, seed)
            for index, opening in enumerate(openings)
            for turn, side in enumerate((Side.X, Side.O))]
    return work[:games] if games is not None else work


def wilson(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion of ``points`` out of ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.mean(values):.0f} / {1000 * max(values):.0f}" if values else "-"


def _depth(values: list[int]) -> str:
    return f"{statistics.mean(values):.1f}" if values else "-"


OVERRUN_S = 0.1
"""A timed move is counted as late once it is this much over the budget (the game's top
level must answer within 0.9 s of its 0.8)."""


def table(a: str, b: str, results: list[GameResult], condition: str,
          late_after: float | None = None) -> list[str]:
    """The summary: games, A's wins/draws/losses, score and interval, disc margin, and
    each side's move times (and how many took longer than ``late_after`` seconds),
    positions a second and depth."""
    games = len(results)
    wins = sum(1 for r in results if r.points == 1.0)
    draws = sum(1 for r in results if r.points == 0.5)
    losses = games - wins - draws
    points = wins + draws / 2
    low, high = wilson(points, games)
    margins = [r.a_discs - r.b_discs for r in results]
    score = f"{100 * points / games:.1f}%" if games else "-"
    margin = f"{statistics.mean(margins):+.1f}" if games else "-"
    by_colour = []
    for side in (Side.X, Side.O):
        mine = [r for r in results if r.a_side is side]
        if mine:
            by_colour.append(f"A as {side.value}: "
                             f"{100 * sum(r.points for r in mine) / len(mine):.1f}% of {len(mine)}")
    late_header = "" if late_after is None else f"over {late_after:g} s  "
    lines = [f"{a} (A) against {b} (B), {condition}", "",
             f"{'games':>5}  {'A wins':>6}  {'draws':>5}  {'A losses':>8}  {'A score':>7}  "
             f"{'95% interval (Wilson)':>21}  {'A disc margin':>13}",
             f"{games:>5}  {wins:>6}  {draws:>5}  {losses:>8}  {score:>7}  "
             f"{f'{100 * low:.1f}% - {100 * high:.1f}%':>21}  {margin:>13}",
             "  ".join(by_colour), "",
             f"{'engine':<24}  {'moves':>6}  {'ms a move: mean / max':>21}  "
             f"{late_header}{'positions/s':>11}  {'mean depth':>10}"]
    for name, sides in ((f"A {a}", [r.a for r in results]), (f"B {b}", [r.b for r in results])):
        times = [t for s in sides for t in s.times]
        nodes = sum(s.nodes for s in sides)
        spent = sum(times, 0.0)
        rate = f"{nodes / spent:,.0f}" if nodes and spent else "-"
        late = "" if late_after is None else \
            f"{sum(1 for t in times if t > late_after):>{len(late_header) - 2}}  "
        lines.append(f"{name:<24}  {len(times):>6}  {_ms(times):>21}  {late}{rate:>11}  "
                     f"{_depth([d for s in sides for d in s.depths]):>10}")
    return lines


def run(work: list[Job], jobs: int, progress: bool) -> tuple[list[GameResult], Stopped, float]:
    """Play the games on ``jobs`` processes, with a progress line; stop cleanly on Ctrl-C."""
    done: list[GameResult] = []
    count = WorkCount()
    started = time.monotonic()

    def beat() -> None:
        if not progress:
            return
        points = sum(r.points for r in done)
        share = f"{100 * points / len(done):.1f}%" if done else "-"
        print(f"\r\x1b[K{len(done)}/{len(work)} games, A {points:g} points ({share}), "
              f"{count.value:,} moves, {time.monotonic() - started:.0f} s",
              end="", file=sys.stderr, flush=True)

    beat()
    with Stopped() as stopped, results_as_done(play, work, jobs, 1, count, beat) as results, \
            terminations_unwind():
        for result in results:
            with signals_held():
                done.append(result)
                beat()
    if progress:
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    close_engines()
    return sorted(done, key=lambda r: r.number), stopped, time.monotonic() - started


def main() -> None:
    """Play the match and print its table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", help="engine A (the one measured)")
    parser.add_argument("b", help="engine B (the baseline)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--seconds", type=float, default=0.8, help="wall time a move (0.8)")
    limit.add_argument("--nodes", type=int, help="positions a move, for reproducible runs")
    parser.add_argument("--openings", type=int, help="play only the first K openings")
    parser.add_argument("--games", type=int, help="play only the first G games")
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--file", type=Path, default=OPENINGS, help="the openings file")
    parser.add_argument("--ntest", help="NTest's binary (or TERMGAMES_NTEST)")
    parser.add_argument("--edax", help="Edax's binary (or TERMGAMES_EDAX)")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    options = parser.parse_args()
    budget = (Budget(seconds=None, nodes=options.nodes) if options.nodes is not None
              else Budget(seconds=options.seconds))
    programs = Programs(options.ntest, options.edax)
    try:
        if (budget.nodes is not None and budget.nodes < 1) or (
                budget.seconds is not None and budget.seconds <= 0):
            raise ValueError("the budget a move must be positive")
        for spec in (options.a, options.b):
            check_spec(spec, programs)
        openings = load_openings(options.file)[:options.openings]
        if options.jobs < 1 or (options.games is not None and options.games < 1):
            raise ValueError("--jobs and --games must be at least 1")
    except (ValueError, OSError) as error:
        print(f"reversi_match: {error}", file=sys.stderr)
        sys.exit(2)
    work = jobs_for(options.a, options.b, openings, options.games, budget, programs,
                    options.seed)
    results, stopped, seconds = run(work, options.jobs,
                                    not options.quiet and sys.stderr.isatty())
    condition = (f"{budget.describe()} unless named, {len(openings)} openings from "
                 f"{options.file.name}, seed {options.seed}, {options.jobs} jobs, "
                 f"{seconds:.0f} s")
    with stopped.guarded():
        if stopped:
            print(f"reversi_match: {stopped.how} after {len(results)} of {len(work)} games",
                  file=sys.stderr)
        late_after = None if budget.seconds is None else budget.seconds + OVERRUN_S
        print("\n".join(table(options.a, options.b, results, condition, late_after)))
    stopped.exit()


if __name__ == "__main__":
    main()
