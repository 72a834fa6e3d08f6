"""Write the list of levels Sokoban's daily challenge chooses from, with their pars:

    nice -n 10 python -m tools.daily_levels [--out FILE] [--quick-budget WORK] ...

Every level of every bundled collection goes to the solver (its public face). A level is
eligible if it fits the smallest terminal at the game's smallest squares (80x24: drawn
whole, no scrolling), starts with at most ``--most-boxes`` boxes off their goals (40, past
which a single position can stall the game's hints for a second: ``hints.budget.STALLS``;
such a level is not searched), and the solver solves it within the quick budget; its par
is then the push-optimal search's solution if that search finishes within its budget
(proved: the fewest pushes; the quick solve's instead if it has as few pushes in fewer
moves), else the quick solve's (the best found, said so). A par of fewer than
``--min-pushes`` pushes is too trivial for a day. The list is ordered by a shuffle keyed
by SHA-256, and written once: the file's header says so, and what made it.

The budgets are work, not time, so that the same solver writes the same list on any
machine, however loaded: work is positions searched times boxes on the level, since a
position costs about as much more as the level has more boxes (its bound is a matching of
boxes to goals): 50,000 to 120,000 units a second of one core on the bundled levels of up
to 30 boxes, where positions alone ran from 1,000 to 30,000 a second. Measured by the run
that wrote the shipped list (CPU seconds, two shared cores): the quick budget, 300,000,
took 3.3 s at the median on the 151 levels that used it all (2.4 to 6.4 s on 80% of them,
25 s at most, on a level of 40 boxes), and the optimal budget, 2,000,000, 20 to 43 s on
the 6 that used it all; the whole run, 18 minutes.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from termgames import __version__
from termgames.runtime.grid import MARK_COLUMNS, MARK_ROWS
from termgames.runtime.runner import FOOTER_ROWS
from termgames.sokoban.daily import DailyLevel, daily_line
from termgames.sokoban.daily.levels import DATA
from termgames.sokoban.format import BUNDLED, BundledCollection, Level, load_bundled
from termgames.sokoban.hints.budget import STALLS, size_of
from termgames.sokoban.solver import Found, Optimal, Solver, Verdict
from termgames.sokoban.view import HEADER_ROWS, SHAPES

OUT = Path(__file__).resolve().parents[1] / "termgames" / "sokoban" / Path(*DATA)
"""The list the game ships."""


@dataclass(frozen=True)
class Settings:
    """What makes a level eligible, and how hard its par is looked for."""

    quick_budget: int = 300_000
    optimal_budget: int = 2_000_000
    min_pushes: int = 10
    most_boxes: int = STALLS
    lines: int = 24
    columns: int = 80


@dataclass(frozen=True)
class Judged:
    """What became of one level: its entry if it is eligible, else why not, and the CPU
    seconds its two searches took."""

    collection: str
    number: int
    entry: DailyLevel | None
    why: str
    quick_seconds: float = 0.0
    optimal_seconds: float = 0.0
    quick: tuple[int, int] | None = None
    """The quick solve's moves and pushes, when it solved the level."""

    def told(self) -> str:
        """One line of the run's progress: the level, what became of it, the counts and
        the CPU seconds of each search."""
        counts = "" if self.entry is None else f", par {self.entry.moves}/{self.entry.pushes}"
        quick = "" if self.quick is None else f", quick solve {self.quick[0]}/{self.quick[1]}"
        return (f"{self.collection} {self.number}: {self.why}{counts}{quick} "
                f"({self.quick_seconds:.1f} + {self.optimal_seconds:.1f} s)")


def fits(level: Level, lines: int, columns: int) -> bool:
    """Whether the level is drawn whole, with no scrolling, at the smallest squares in a
    window of ``lines`` x ``columns`` (as the game's screen lays it out: the header above,
    the footer below, and room for the marks at the board's edges)."""
    rows = lines - FOOTER_ROWS - HEADER_ROWS - 2 * MARK_ROWS
    cols = columns - 2 * MARK_COLUMNS
    height, width = SHAPES[-1].board(level.height, level.width)
    return height <= rows and width <= cols


def search(level: Level, budget: int, optimal: Optimal | None) -> tuple[Found | None, float]:
    """The solver's answer within ``budget`` work (positions searched times boxes; None
    if it had none by then), and the CPU seconds it took. The solver's clock is the work
    done, so the answer is the same on any machine."""
    started = time.process_time()
    solver = Solver(level, optimal=optimal)
    boxes = len(level.boxes)
    found = solver.advance(budget, clock=lambda: solver.nodes * boxes)
    return found, time.process_time() - started


def judge(entry: BundledCollection, level: Level, settings: Settings) -> Judged:
    """Whether ``level`` is eligible and, if so, its par."""
    slug, number = entry.slug, level.number
    if not fits(level, settings.lines, settings.columns):
        return Judged(slug, number, None, f"larger than {settings.columns}x{settings.lines}")
    if size_of(level, level.boxes).boxes > settings.most_boxes:
        return Judged(slug, number, None, f"more than {settings.most_boxes} boxes off goals")
    quick, quick_seconds = search(level, settings.quick_budget, None)
    if quick is None or quick.verdict is not Verdict.SOLVED:
        why = "unsolvable" if quick is not None and quick.verdict is Verdict.UNSOLVABLE \
            else "not solved within the quick budget"
        return Judged(slug, number, None, why, quick_seconds)
    best, optimal_seconds = search(level, settings.optimal_budget, Optimal.PUSHES)
    par, proven = par_of(quick, best)
    counts = (quick.moves, quick.push_count)
    if par.push_count < settings.min_pushes:
        return Judged(slug, number, None, f"trivial (under {settings.min_pushes} pushes)",
                      quick_seconds, optimal_seconds, counts)
    daily = DailyLevel(slug, number, par.moves, par.push_count, proven, par.lurd)
    return Judged(slug, number, daily, "optimal" if proven else "found", quick_seconds,
                  optimal_seconds, counts)


def par_of(quick: Found, best: Found | None) -> tuple[Found, bool]:
    """The par, and whether its push count is proved the least: the push-optimal search's
    solution (``best``) if it found one, or the quick solve's if that has as few pushes
    in fewer moves (the game ranks moves first, and the optimal search counts only
    pushes); else the quick solve's, not proved."""
    if best is None or best.verdict is not Verdict.SOLVED or not best.optimal:
        return quick, False
    if quick.push_count == best.push_count and quick.moves < best.moves:
        return quick, True
    return best, True


def judged(settings: Settings) -> Iterator[Judged]:
    """Every bundled level judged, in the collections' order; a board already met (the
    same level in two collections) is judged once."""
    met: set[str] = set()
    for entry in BUNDLED:
        for level in load_bundled(entry).levels:
            if level.key in met:
                yield Judged(entry.slug, level.number, None, "a board already listed")
                continue
            met.add(level.key)
            yield judge(entry, level, settings)


def shuffled(entries: Sequence[DailyLevel]) -> list[DailyLevel]:
    """The entries in the order of the SHA-256 of 'COLLECTION NUMBER': a shuffle that
    depends on nothing else."""
    return sorted(entries, key=lambda daily: hashlib.sha256(
        f"{daily.collection} {daily.number}".encode()).hexdigest())


def header(settings: Settings) -> list[str]:
    """The comment lines at the top of the list: what it is, what made it, and that it is
    never edited."""
    command = ("nice -n 10 python -m tools.daily_levels"
               f" --quick-budget {settings.quick_budget}"
               f" --optimal-budget {settings.optimal_budget}"
               f" --min-pushes {settings.min_pushes} --most-boxes {settings.most_boxes}"
               f" --lines {settings.lines} --columns {settings.columns}")
    return [
        "# The levels Sokoban's daily challenge chooses from, one a line, with their pars.",
        "# A day's level is chosen by its place in this list, so the list is never edited:",
        "# a longer list may only add lines past its end.",
        "#",
        "# COLLECTION NUMBER MOVES PUSHES PROVEN SOLUTION: the bundled collection (as",
        "# --collection names it), the level's number in it (as --level does), the par's",
        "# moves and pushes, PROVEN 'optimal' (no solution has fewer pushes, proved) or",
        "# 'found' (the best the solver found, not proved), and the par in LURD (lower case",
        "# a move, upper case a push).",
        "#",
        f"# Written by termgames {__version__}'s solver: {command}",
        "# Eligible: every bundled level drawn whole in "
        f"{settings.columns}x{settings.lines} at the smallest squares,",
        f"# with at most {settings.most_boxes} boxes off their goals, that the solver solves "
        "within the quick",
        f"# budget, with a par of {settings.min_pushes} pushes or more.",
        "# The par: the push-optimal search's solution within the optimal budget (or the",
        "# quick solve's, if it has as few pushes in fewer moves), else the quick solve's.",
        "# Budgets are work: positions searched times boxes on the level.",
        "# Order: by the SHA-256 of 'COLLECTION NUMBER'.",
    ]


def summary(verdicts: Sequence[Judged], seconds: float) -> list[str]:
    """The run told in a few lines: per collection, the levels eligible and proved, and
    why the others are not; the total time."""
    lines = []
    for entry in BUNDLED:
        own = [verdict for verdict in verdicts if verdict.collection == entry.slug]
        eligible = [verdict.entry for verdict in own if verdict.entry is not None]
        proven = sum(1 for daily in eligible if daily.proven)
        left = Counter(verdict.why for verdict in own if verdict.entry is None)
        lines.append(f"{entry.slug}: {len(eligible)} of {len(own)} eligible, {proven} "
                     "of them proved optimal; left out: "
                     + (", ".join(f"{count} {why}" for why, count in left.most_common())
                        or "none"))
    longer = sum(1 for verdict in verdicts if verdict.entry is not None
                 and verdict.quick is not None and verdict.quick[0] < verdict.entry.moves)
    lines.append(f"{longer} pars have more moves than the quick solve's solution: the "
                 "fewest pushes need not take the fewest moves")
    quick = sum(verdict.quick_seconds for verdict in verdicts)
    optimal = sum(verdict.optimal_seconds for verdict in verdicts)
    lines.append(f"{seconds:.0f} s in all ({quick:.0f} s of CPU quick, {optimal:.0f} s "
                 "optimal)")
    return lines


def parser() -> argparse.ArgumentParser:
    """The command line."""
    parse = argparse.ArgumentParser(prog="python -m tools.daily_levels",
                                    description=(__doc__ or "").split("\n\n")[0])
    defaults = Settings()
    parse.add_argument("--out", type=Path, default=OUT,
                       help="the file to write (default: the one the game ships)")
    parse.add_argument("--quick-budget", type=int, default=defaults.quick_budget,
                       metavar="WORK", help="work within which the solver must solve a "
                       "level for it to be eligible (positions searched times boxes)")
    parse.add_argument("--optimal-budget", type=int, default=defaults.optimal_budget,
                       metavar="WORK", help="work the push-optimal search may do")
    parse.add_argument("--min-pushes", type=int, default=defaults.min_pushes,
                       metavar="N", help="the fewest pushes a par may have")
    parse.add_argument("--most-boxes", type=int, default=defaults.most_boxes,
                       metavar="N", help="the most boxes off their goals a level may start "
                       "with (default: where the game's hints may stall)")
    parse.add_argument("--lines", type=int, default=defaults.lines,
                       help="the smallest terminal's height")
    parse.add_argument("--columns", type=int, default=defaults.columns,
                       help="the smallest terminal's width")
    return parse


def main(argv: Sequence[str] | None = None) -> int:
    """Judge every bundled level, write the list, and tell how it went; the exit status."""
    options = parser().parse_args(argv)
    settings = Settings(options.quick_budget, options.optimal_budget, options.min_pushes,
                        options.most_boxes, options.lines, options.columns)
    started = time.monotonic()
    verdicts = []
    for verdict in judged(settings):
        verdicts.append(verdict)
        print(verdict.told(), file=sys.stderr, flush=True)
    entries = shuffled([verdict.entry for verdict in verdicts if verdict.entry is not None])
    text = "\n".join([*header(settings), *(daily_line(daily) for daily in entries)]) + "\n"
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(text, encoding="utf-8")
    print(f"{shlex.quote(str(options.out))}: {len(entries)} levels", file=sys.stderr)
    for line in summary(verdicts, time.monotonic() - started):
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
