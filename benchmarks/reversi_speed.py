"""Reversi engines' speed: positions a second and depth reached, midgame and endgame, in one run.

Usage: python -m benchmarks.reversi_speed [ENGINE ...] [--seconds S] [--positions N]
       [--seed S] [--file PATH] [--ntest PATH] [--edax PATH]

ENGINE is named as the match takes it (default: ``search``, and ``search-classic`` too
once it exists), so the old engine and the new are measured on the same machine at the
same moment. The positions are made here, the same for a seed on any machine: from each
of the first N openings (default 12) both sides play on with a depth-2 search of today's
engine (seeded), and the game is caught once at a disc count drawn from 20 to 40
(midgame) and once at 12 to 16 empty squares (endgame). Each engine thinks for S
seconds (default 0.5) on every position, one process, the engines taking turns position
by position so that a change in the machine's load falls on all of them alike.

The table: engine, phase, positions, positions searched, seconds in all, the longest
single search (wall time around the call: how far past its S seconds an engine runs),
positions a second, the mean depth reached in the time, and how many endgame positions
it solved exactly.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.reversi_engines import Budget, Engine, Programs, check_spec, make_engine, timed
from benchmarks.reversi_openings import OPENINGS, Opening, load_openings, replay
from termgames.reversi.board import Position
from termgames.reversi.engine import classic as search_classic
from termgames.reversi.engine import players as ai

MIDGAME_DISCS = (20, 40)
ENDGAME_EMPTIES = (12, 16)
_PLAYER = dataclasses.replace(ai.SEARCH_LIMITS[5], seconds=None, max_depth=2,
                              endgame_empties=4)
"""How the positions are reached: today's search two plies deep, quick and sensible."""


def positions(openings: list[Opening], seed: int) -> dict[str, list[Position]]:
    """The midgame and endgame positions reached from ``openings`` (see the docstring)."""
    found: dict[str, list[Position]] = {"midgame": [], "endgame": []}
    for number, opening in enumerate(openings):
        rng = random.Random(f"{seed}:{number}")
        discs = rng.randint(*MIDGAME_DISCS)
        empties = rng.randint(*ENDGAME_EMPTIES)
        position = replay(list(opening.moves))
        midgame: Position | None = None
        while not position.over():
            if position.must_pass():
                position = position.pass_turn()
                continue
            filled = 64 - position.empties()
            if midgame is None and filled >= discs:
                midgame = position
                found["midgame"].append(position)
            if position.empties() <= empties:
                found["endgame"].append(position)
                break
            search = search_classic.ClassicSearch(position, _PLAYER, rng)
            search.advance()
            position, _ = position.play(search.choice)
    return found


@dataclass
class Tally:
    """One engine's work on one phase's positions."""

    positions: int = 0
    nodes: int = 0
    counted: bool = False
    seconds: float = 0.0
    longest: float = 0.0
    depths: list[int] = field(default_factory=list)
    exact: int = 0


def measure(engines: list[Engine], sets: dict[str, list[Position]]
            ) -> dict[tuple[str, str], Tally]:
    """Each engine on each position, taking turns position by position."""
    tallies = {(engine.name, phase): Tally() for engine in engines for phase in sets}
    rng = random.Random(0)
    total = sum(len(found) for found in sets.values()) * len(engines)
    done = 0
    for phase, found in sets.items():
        for position in found:
            for engine in engines:
                choice, seconds = timed(engine, position, rng)
                tally = tallies[engine.name, phase]
                tally.positions += 1
                tally.seconds += seconds
                tally.longest = max(tally.longest, seconds)
                if choice.nodes is not None:
                    tally.nodes += choice.nodes
                    tally.counted = True
                if choice.depth is not None:
                    tally.depths.append(choice.depth)
                tally.exact += bool(choice.exact)
                done += 1
                if sys.stderr.isatty():
                    print(f"\r\x1b[K{done}/{total} searches", end="", file=sys.stderr,
                          flush=True)
    if sys.stderr.isatty():
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    return tallies


def table(tallies: dict[tuple[str, str], Tally]) -> list[str]:
    """The table's lines."""
    header = ["engine", "phase", "positions", "nodes", "seconds", "longest", "nodes/s",
              "mean depth", "exact"]
    rows = []
    for (name, phase), tally in tallies.items():
        rate = tally.nodes / tally.seconds if tally.counted and tally.seconds else None
        rows.append([name, phase, str(tally.positions),
                     f"{tally.nodes:,}" if tally.counted else "-", f"{tally.seconds:.1f}",
                     f"{tally.longest:.3f}", f"{rate:,.0f}" if rate is not None else "-",
                     f"{statistics.mean(tally.depths):.1f}" if tally.depths else "-",
                     str(tally.exact) if phase == "endgame" else ""])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(cell.ljust(width) if i < 2 else cell.rjust(width)
                         for i, (cell, width) in enumerate(zip(cells, widths, strict=True)))

    return [line(header), "  ".join("-" * width for width in widths), *map(line, rows)]


def default_engines() -> list[str]:
    """``search``, and ``search-classic`` beside it once termgames has it."""
    return ["search", *(["search-classic"] if "search-classic" in ai.STRATEGY_NAMES else [])]


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engines", nargs="*", help="engines to measure")
    parser.add_argument("--seconds", type=float, default=0.5, help="time a position (0.5)")
    parser.add_argument("--positions", type=int, default=12, help="openings to start from")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--file", type=Path, default=OPENINGS)
    parser.add_argument("--ntest")
    parser.add_argument("--edax")
    options = parser.parse_args()
    names = options.engines or default_engines()
    programs = Programs(options.ntest, options.edax)
    try:
        if options.seconds <= 0 or options.positions < 1:
            raise ValueError("--seconds and --positions must be positive")
        for name in names:
            check_spec(name, programs)
        openings = load_openings(options.file)[:options.positions]
    except (ValueError, OSError) as error:
        print(f"reversi_speed: {error}", file=sys.stderr)
        sys.exit(2)
    sets = positions(openings, options.seed)
    engines = [make_engine(name, Budget(seconds=options.seconds), programs) for name in names]
    try:
        tallies = measure(engines, sets)
    except KeyboardInterrupt:
        print("reversi_speed: interrupted", file=sys.stderr)
        sys.exit(130)
    finally:
        for engine in engines:
            engine.close()
    print(f"{options.seconds:g} s a position, {len(openings)} openings, seed {options.seed}")
    print("\n".join(table(tallies)))


if __name__ == "__main__":
    main()
