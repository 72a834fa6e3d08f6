"""The Sokoban solver on a whole collection: how many levels it solves within a time
limit per level (one core each), how long they take, how much memory, and how fast a hint
comes.

Each level is solved in a process of its own, forked for it, so its peak resident memory
(``ru_maxrss``) is that level's: it includes the interpreter and the solver's modules
(the "idle" row), shared with the parent.

A hint is a solve from the position the player is in; it is timed from the start of each
solved level and from halfway through its solution, run in 50 ms slices as the game runs
it, and counted as "within 1 s" if its answer came in time.

With ``--optimal pushes`` each level is solved by the push-optimal search instead (the
hints stay the game's own) and the table says how many solutions are proved optimal.

Usage: python -m benchmarks.sokoban_solver [--collection microban | PATH...]
       [--time-limit 30] [--jobs N] [--levels 1-20] [--no-hints] [--verbose]
       [--optimal pushes]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from termgames.sokoban.format.bundled import by_slug, load_bundled
from termgames.sokoban.format.files import load
from termgames.sokoban.format.levels import Level
from termgames.sokoban.solver import Optimal, Push, Solver, Verdict, solve

HINT_CAP_S = 5.0
SLICE_S = 0.05


@dataclass(frozen=True)
class Outcome:
    """One level's figures."""

    number: int
    name: str
    verdict: str
    seconds: float
    moves: int
    pushes: int
    hint_start: float | None
    hint_half: float | None
    peak_mb: float = 0.0
    optimal: bool = False


def hint_time(level: Level, pushes: tuple[Push, ...]) -> float:
    """Seconds to a solve from the position after ``pushes`` (capped at HINT_CAP_S)."""
    player, boxes = level.player, set(level.boxes)
    for push in pushes:
        boxes.remove(push.box)
        boxes.add(push.target)
        player = push.box
    started = time.monotonic()
    solver = Solver(level, player, boxes)
    while time.monotonic() - started < HINT_CAP_S:
        result = solver.advance(time.monotonic() + SLICE_S)
        if result is not None:
            return time.monotonic() - started if result.verdict is Verdict.SOLVED \
                else HINT_CAP_S
    return HINT_CAP_S


def run_one(job: tuple[Level, float, bool, Optimal | None]) -> Outcome:
    """Solve one level, then time its hints."""
    level, limit, hints, optimal = job
    started = time.monotonic()
    result = solve(level, time_limit=limit, optimal=optimal)
    seconds = time.monotonic() - started
    start = half = None
    if hints and result.verdict is Verdict.SOLVED:
        start = hint_time(level, ())
        half = hint_time(level, result.pushes[:len(result.pushes) // 2])
    return Outcome(level.number, level.shown_name, result.verdict.value, seconds,
                   result.moves, result.push_count, start, half, optimal=result.optimal)


def run_apart(job: tuple[Level, float, bool, Optimal | None]) -> Outcome:
    """``run_one`` in a process forked for it; with its peak resident memory."""
    reader, writer = multiprocessing.Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:
        try:
            writer.send(run_one(job))
        finally:
            os._exit(0)
    writer.close()
    outcome: Outcome = reader.recv()
    _, _, usage = os.wait4(pid, 0)
    return replace(outcome, peak_mb=usage.ru_maxrss / 1024)


def idle_mb() -> float:
    """Peak resident memory of a process forked from here that solves nothing."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    _, _, usage = os.wait4(pid, 0)
    return usage.ru_maxrss / 1024


def levels_of(options: argparse.Namespace) -> tuple[str, list[Level]]:
    """The collection named, or the files given."""
    if options.paths:
        collection = load(options.paths)
        return collection.name, collection.levels
    entry = by_slug(options.collection)
    if entry is None:
        raise SystemExit(f"no bundled collection {options.collection!r}")
    return entry.title, load_bundled(entry).levels


def chosen(levels: list[Level], spec: str | None) -> list[Level]:
    """Levels whose numbers fall in ``spec`` ('1-20' or '5'), or all."""
    if not spec:
        return levels
    first, _, last = spec.partition("-")
    low, high = int(first), int(last or first)
    return [level for level in levels if low <= level.number <= high]


def level_size(levels: list[Level], number: int) -> int:
    """How many squares the level numbered ``number`` has inside its walls."""
    level = next(level for level in levels if level.number == number)
    return len(level.inside)


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of them lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--collection", default="microban")
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--levels")
    parser.add_argument("--no-hints", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--optimal", choices=["pushes"])
    options = parser.parse_args()
    name, levels = levels_of(options)
    levels = chosen(levels, options.levels)
    started = time.monotonic()
    optimal = Optimal(options.optimal) if options.optimal else None
    jobs = [(level, options.time_limit, not options.no_hints, optimal) for level in levels]
    with ProcessPoolExecutor(options.jobs) as pool:
        outcomes = list(pool.map(run_apart, jobs))
        idle = pool.submit(idle_mb).result()  # forked as each level's process is
    wall = time.monotonic() - started
    solved = [outcome for outcome in outcomes if outcome.verdict == Verdict.SOLVED.value]
    if options.verbose:
        for outcome in outcomes:
            print(f"{outcome.number:>4} {outcome.verdict:<28} {outcome.seconds:7.2f} s "
                  f"{outcome.moves:>5} moves {outcome.pushes:>4} pushes "
                  f"{outcome.peak_mb:6.0f} MB{' optimal' if outcome.optimal else ''}  "
                  f"{outcome.name}")
    times = [outcome.seconds for outcome in solved]
    rows = [
        ("collection", f"{name} ({len(levels)} levels)"),
        ("time limit a level", f"{options.time_limit:g} s, one core each ({options.jobs} jobs)"),
        ("search", "push-optimal (--optimal pushes)" if optimal else "default"),
        ("solved", f"{len(solved)} of {len(levels)}"),
        ("time to solve, median", f"{statistics.median(times):.2f} s" if times else "-"),
        ("time to solve, p90", f"{percentile(times, 0.9):.2f} s" if times else "-"),
        ("time to solve, max", f"{max(times):.2f} s" if times else "-"),
        ("moves, total", f"{sum(outcome.moves for outcome in solved):,}"),
        ("pushes, total", f"{sum(outcome.pushes for outcome in solved):,}"),
    ]
    if optimal:
        proved = sum(1 for outcome in solved if outcome.optimal)
        rows.append(("solutions proved push-optimal", f"{proved} of {len(solved)}"))
    if solved:
        largest = max(solved, key=lambda outcome: level_size(levels, outcome.number))
        rows.append(("peak memory, largest level solved",
                     f"{largest.peak_mb:.0f} MB (level {largest.number}, "
                     f"{level_size(levels, largest.number)} squares)"))
        rows.append(("peak memory, most of any level solved",
                     f"{max(outcome.peak_mb for outcome in solved):.0f} MB"))
    rows.append(("peak memory, idle (the process alone)", f"{idle:.0f} MB"))
    if not options.no_hints and solved:
        for label, pick in (("from the start", "hint_start"), ("from halfway", "hint_half")):
            waits = [getattr(outcome, pick) for outcome in solved]
            fast = sum(1 for wait in waits if wait <= 1.0)
            rows.append((f"first hint {label}, within 1 s",
                         f"{fast} of {len(waits)} ({100 * fast / len(waits):.1f}%); "
                         f"p50 {statistics.median(waits):.2f} s, "
                         f"p90 {percentile(waits, 0.9):.2f} s"))
    unsolved: dict[str, list[str]] = {}
    for outcome in outcomes:
        if outcome.verdict != Verdict.SOLVED.value:
            unsolved.setdefault(outcome.verdict, []).append(str(outcome.number))
    rows.append(("not solved", "; ".join(f"{len(numbers)} {verdict}: {', '.join(numbers)}"
                                         for verdict, numbers in unsolved.items()) or "none"))
    rows.append(("wall time", f"{wall:.0f} s"))
    width = max(len(label) for label, _ in rows)
    print(f"{'measure':<{width}}  value")
    print("-" * (width + 50))
    for label, value in rows:
        print(f"{label:<{width}}  {value}")


if __name__ == "__main__":
    main()
