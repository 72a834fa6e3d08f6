"""What a Sokoban hint achieves on big levels: each level's first hint (a search from its
start, the hardest place to ask) run as the game runs it, in slices within the hint's
budget of time and positions, and then for further budgets, as a later ``t`` from the same
position resumes the search. It prints each level's size (boxes, floor squares) beside
how long its hint took, then the share answered by level size: the figures behind the
game's early notice that a level looks too big for hints (``assist.too_big``).

Usage: python -m benchmarks.sokoban_hints [--collection NAME]... [PATH]...
       [--levels 1-20] [--rounds 3] [--jobs 1] [--clock cpu|wall] [--no-freeze] [--quiet]

Several collections (bundled by name, or files) make one table, so the line is drawn
from all of them: ``--collection microban --collection starpusher XSokoban_90.xsb``.

The budget is counted on the process's CPU time by default, so the figures are what a
hint achieves on an idle core whatever else the machine is doing (the game counts wall
time: on a busy machine it gets less done); ``--clock wall`` counts as the game does. The
XSokoban set is not bundled; pass its file.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from termgames.sokoban.format.bundled import by_slug, load_bundled
from termgames.sokoban.format.files import load
from termgames.sokoban.format.levels import Level
from termgames.sokoban.hints.assist import (
    FREEZE_FROM,
    HINT_NODES,
    HINT_SECONDS,
    SLICE_S,
)
from termgames.sokoban.hints.budget import Size, band_of, size_of, too_big
from termgames.sokoban.hints.heap import HEAP
from termgames.sokoban.solver import HintSearch, Verdict


@dataclass(frozen=True)
class Outcome:
    """One level's first hint."""

    number: int
    boxes: int
    floor: int
    verdict: str
    seconds: float
    """Search time to the answer (or to giving up)."""
    rounds: int
    """Budgets it took: 1 is an answer within the first ``t``'s search."""
    nodes: int
    longest_slice_ms: float
    drop_ms: float
    """CPU time of the longest turn in letting go of the search once it is done with, a
    piece a turn as the game does (the loop waits that long)."""
    flagged: bool
    """Whether the game says up front that the level looks too big."""


def first_hint(job: tuple[Level, int, bool, bool]) -> Outcome:
    """The hint from ``level``'s start, in slices, for up to ``rounds`` budgets; each
    slice's CPU time (the game's loop waits that long), the heap frozen after each slice
    as the game does unless ``freeze`` is off."""
    level, rounds, cpu, freeze = job
    clock = time.process_time if cpu else time.monotonic
    search = HintSearch(level, level.player, level.boxes, HINT_NODES, HINT_SECONDS)
    longest, used = 0.0, 1
    while True:
        started, spent = clock(), time.process_time()
        result = search.advance(started + SLICE_S, clock)
        if freeze and search.solver.nodes >= FREEZE_FROM:
            HEAP.freeze()
        longest = max(longest, time.process_time() - spent)
        if result is None:
            continue
        if result.verdict is Verdict.LIMIT and used < rounds and search.solver.result is None:
            used += 1
            search.widen(HINT_NODES, HINT_SECONDS * used)
            continue
        break
    # A solver that filled its room has let go of its searches: the result counts them.
    seconds, nodes = search.solver.seconds, max(search.solver.nodes, result.nodes)
    HEAP.let_go(search)  # let go of as the game does, with the heap given back after
    HEAP.thaw()
    del search
    dropped = 0.0
    while True:
        piece = time.process_time()
        done = HEAP.free_some()
        dropped = max(dropped, time.process_time() - piece)
        if done:
            break
    size = size_of(level, level.boxes)
    return Outcome(level.number, size.boxes, size.floor, result.verdict.value, seconds,
                   used, nodes, longest * 1000, dropped * 1000, too_big(size))


def levels_of(options: argparse.Namespace) -> list[tuple[str, Level]]:
    """(collection, level) for each level of the collections named and files given."""
    found = []
    for slug in options.collection or ([] if options.paths else ["microban"]):
        entry = by_slug(slug)
        if entry is None:
            raise SystemExit(f"no bundled collection {slug!r}")
        found += [(entry.title, level) for level in load_bundled(entry).levels]
    for path in options.paths:
        collection = load([path])
        found += [(collection.name, level) for level in collection.levels]
    return found


def chosen(levels: list[tuple[str, Level]], spec: str | None
           ) -> list[tuple[str, Level]]:
    """Levels whose numbers fall in ``spec`` ('1-20' or '5'), or all."""
    if not spec:
        return levels
    first, _, last = spec.partition("-")
    low, high = int(first), int(last or first)
    return [(name, level) for name, level in levels if low <= level.number <= high]


def table(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    """Columns as wide as their widest cell, numbers right-aligned."""
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]
    for index, row in enumerate([headers, *rows]):
        print("  ".join(cell.rjust(width) if cell[:1].isdigit() or cell == "-"
                        else cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
        if index == 0:
            print("  ".join("-" * width for width in widths))


def bucket(boxes: int) -> str:
    """A band of box counts."""
    for low, high in ((1, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 16), (17, 99)):
        if low <= boxes <= high:
            return f"{low}-{high}" if high < 99 else f"{low}+"
    return str(boxes)


FLOORS = ((0, 60), (61, 100), (101, 140), (141, 10_000))
"""Bands of room size, as ``budget.MANAGED`` draws its line."""


def grid(outcomes: list[Outcome]) -> None:
    """Found / levels for each number of boxes (rows) in each band of floor (columns)."""
    rows = []
    for boxes in sorted({o.boxes for o in outcomes}):
        cells = [str(boxes)]
        for low, high in FLOORS:
            here = [o for o in outcomes if o.boxes == boxes and low <= o.floor <= high]
            found = sum(1 for o in here if o.verdict == Verdict.SOLVED.value)
            cells.append(f"{found}/{len(here)}" if here else "-")
        rows.append(tuple(cells))
    table(("boxes", *(f"floor {low}-{high}" if high < 10_000 else f"floor {low}+"
                      for low, high in FLOORS)), rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--collection", action="append")
    parser.add_argument("--levels")
    parser.add_argument("--rounds", type=int, default=3,
                        help="budgets a level gets, as later presses of t resume it")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--no-freeze", action="store_true",
                        help="leave the collector on the search's positions (as before)")
    parser.add_argument("--quiet", action="store_true", help="no per-level table")
    options = parser.parse_args()
    levels = chosen(levels_of(options), options.levels)
    names = list(dict.fromkeys(name for name, _ in levels))
    started = time.monotonic()
    cpu = options.clock == "cpu"
    outcomes = []
    with ProcessPoolExecutor(options.jobs) as pool:
        for outcome in pool.map(first_hint, [(level, options.rounds, cpu,
                                              not options.no_freeze) for _, level in levels]):
            outcomes.append(outcome)
            if not options.quiet:  # as they come, for a long run
                print(f"level {outcome.number}: {outcome.verdict} in "
                      f"{outcome.seconds:.1f} s", file=sys.stderr, flush=True)
    wall = time.monotonic() - started
    solved = Verdict.SOLVED.value
    print(f"{', '.join(names)}: {len(levels)} levels; first hint from each start, budget "
          f"{HINT_SECONDS:g} s ({options.clock} time) and {HINT_NODES:,} positions a "
          f"press, up to {options.rounds} presses; {options.jobs} job(s); "
          f"wall {wall:.0f} s\n")
    if not options.quiet:
        table(("collection", "level", "boxes", "floor", "hint", "after", "presses",
               "positions", "longest slice", "letting go", "flagged"),
              [(name, str(o.number), str(o.boxes), str(o.floor),
                "found" if o.verdict == solved else
                "none" if o.verdict == Verdict.UNSOLVABLE.value else "not found",
                f"{o.seconds:.1f} s", str(o.rounds), f"{o.nodes:,}",
                f"{o.longest_slice_ms:.0f} ms", f"{o.drop_ms:.0f} ms",
                "yes" if o.flagged else "")
               for (name, _), o in zip(levels, outcomes, strict=True)])
        print()
    rows = []
    for band in dict.fromkeys(bucket(o.boxes) for o in sorted(outcomes,
                                                                key=lambda o: o.boxes)):
        group = [o for o in outcomes if bucket(o.boxes) == band]
        found = [o for o in group if o.verdict == solved]
        cells = [band, str(len(group)),
                 f"{statistics.median(o.floor for o in group):.0f}"]
        for presses in range(1, options.rounds + 1):
            cells.append(str(sum(1 for o in found if o.rounds <= presses)))
        flagged = [o for o in group if o.flagged]
        cells += [str(len(flagged)), str(sum(1 for o in flagged if o.verdict == solved))]
        rows.append(tuple(cells))
    table(("boxes", "levels", "median floor",
           *(f"found, {n} press{'es' * (n > 1)}" for n in range(1, options.rounds + 1)),
           "flagged", "flagged but found"), rows)
    print("\nfound with the first press / levels, by boxes off their goals and floor "
          "squares:\n")
    grid(outcomes)
    reach: dict[tuple[int, int], tuple[int, int]] = {}
    for o in outcomes:
        hits, tried = reach.get(band_of(Size(o.boxes, o.floor)), (0, 0))
        reach[band_of(Size(o.boxes, o.floor))] = (hits + (o.verdict == solved), tried + 1)
    print(f"\nas budget.REACH counts them (first press): {dict(sorted(reach.items()))}")
    slices = [o.longest_slice_ms for o in outcomes]
    heap = "left to the collector" if options.no_freeze else "frozen after each slice"
    print(f"\nlongest slice (CPU), heap {heap}: median {statistics.median(slices):.0f} ms, "
          f"max {max(slices):.0f} ms (a slice asks for {SLICE_S * 1000:.0f} ms); letting "
          f"go of a search, longest turn: max {max(o.drop_ms for o in outcomes):.0f} ms")


if __name__ == "__main__":
    main()
