"""The long soak: key storms of 100,000 keys per game, signals in every state over many
rounds, hostile files with their time and memory, a million mutated level files through
the parser, and the store under repeated SIGKILLs. Prints one table of figures.

Usage: python -m benchmarks.soak [--keys N] [--fuzz N] [--rounds N] [--kills N]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.ptycost import print_table
from termgames.games import GAMES
from termgames.sokoban.format.files import decode
from termgames.sokoban.format.levels import LevelError
from termgames.sokoban.format.parse import parse
from tests.harness.boards import HOSTILE_FILES, INSERTS, level_chunks
from tests.harness.processes import run_check
from tests.harness.states import SIGNALS, STATES
from tests.harness.stores import kill_a_writer_mid_write
from tests.harness.storm import check_invariants, storm, storm_args
from tests.harness.terminal import Start, Terminal


def storms(keys: int) -> list[tuple[str, str, str]]:
    rows = []
    for spec in GAMES:
        game = spec.name
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder)
            dump = home / "state.jsonl"
            term = Terminal(storm_args(spec), home,
                            env={"TERMGAMES_STATE_DUMP": str(dump)})
            term.wait_for("q")  # the key line of the first frame
            started = time.perf_counter()
            report = storm(term, spec, keys, random.Random(f"soak-{game}"), dump)
            seconds = time.perf_counter() - started
            term.close()
            problems = []
            if report.traceback:
                problems.append("traceback")
            if report.exit_status != 0:
                problems.append(f"exit {report.exit_status}")
            try:
                check_invariants(spec, report.state)
            except (AssertionError, KeyError) as error:
                problems.append(f"invariant broken: {error!r}")
            rows.append((f"storm {game}", f"{keys} keys",
                         f"{report.resizes} resizes, {seconds:.1f} s, "
                         f"{report.bytes_received:,} bytes out; "
                         + ("; ".join(problems) if problems else "alive, invariant holds")))
    return rows


def _starter(home: Path, started: list[Terminal]) -> Start:
    """A stand-in for the tests' ``terminal`` fixture."""

    def start(*args: str, **options: Any) -> Terminal:
        term = Terminal(args, home, **options)
        started.append(term)
        return term

    return start


def signals(rounds: int) -> list[tuple[str, str, str]]:
    failures, total = [], 0
    for _ in range(rounds):
        for state, enter in STATES.items():
            for signum in SIGNALS:
                with tempfile.TemporaryDirectory() as folder:
                    started: list[Terminal] = []
                    term = enter(_starter(Path(folder), started), Path(folder))
                    term.signal(signum)
                    status = term.wait_exit()
                    total += 1
                    restored = b"\x1b[?1049l" in term.received[-300:]
                    if status != 128 + signum or not restored:
                        failures.append(f"{state}/{signum.name}: exit {status}")
                    for each in started:
                        each.close()
    return [("signals in every state", f"{total - len(failures)}/{total}",
             "terminal restored, conventional status" if not failures
             else "; ".join(failures[:3]))]


def hostile() -> list[tuple[str, str, str]]:
    rows = []
    for name, (make, message) in HOSTILE_FILES.items():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "hostile.txt"
            make(path)
            status, output, seconds, peak_kb = run_check(path)
            verdict = "clear error" if status == 2 and message in output else "UNEXPECTED"
            rows.append((f"hostile: {name}", f"{seconds * 1000:.0f} ms",
                         f"{peak_kb / 1024:.0f} MB peak, {verdict}"))
    return rows


def mutate(rng: random.Random) -> bytes:
    data = bytearray(rng.choice(level_chunks()).encode())
    for _ in range(rng.randint(1, 8)):
        kind, at = rng.randint(0, 3), rng.randint(0, max(len(data) - 1, 0))
        if kind == 0 and data:
            data[at] = rng.randint(0, 255)
        elif kind == 1:
            data[at:at] = os.urandom(rng.randint(0, 8))
        elif kind == 2:
            del data[at:at + rng.randint(1, 20)]
        else:
            data[at:at] = rng.choice(INSERTS)
    return bytes(data)


def fuzz_batch(job: tuple[int, int]) -> tuple[int, int, list[str]]:
    """Parse ``count`` mutated chunks; (cases, level errors, unexpected exceptions)."""
    seed, count = job
    rng = random.Random(seed)
    errors, unexpected = 0, []
    for _ in range(count):
        data = mutate(rng)
        try:
            parse(decode(data, "fuzz"), "fuzz")
        except LevelError:
            errors += 1
        except Exception as error:  # the one thing this soak looks for
            unexpected.append(f"{type(error).__name__}: {error}"[:120])
    return count, errors, unexpected


def fuzz(cases: int) -> list[tuple[str, str, str]]:
    started = time.perf_counter()
    batch = 5000
    jobs = [(seed, min(batch, cases - seed * batch)) for seed in range(-(-cases // batch))]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(fuzz_batch, jobs))
    done = sum(r[0] for r in results)
    errors = sum(r[1] for r in results)
    unexpected = [u for r in results for u in r[2]]
    seconds = time.perf_counter() - started
    return [("parser fuzz: mutated real levels", f"{done:,}",
             f"{errors:,} LevelError, {len(unexpected)} other exceptions, {seconds:.0f} s"
             + (f"; first: {unexpected[0]}" if unexpected else ""))]


def kills(rounds: int) -> list[tuple[str, str, str]]:
    ok = 0
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            try:
                kill_a_writer_mid_write(Path(folder))
                ok += 1
            except AssertionError:
                pass
    return [("store: writer SIGKILLed mid-write", f"{ok}/{rounds}",
             "database opens with every committed row")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keys", type=int, default=100_000)
    parser.add_argument("--fuzz", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kills", type=int, default=20)
    options = parser.parse_args()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    rows = storms(options.keys) + signals(options.rounds) + hostile()
    rows += kills(options.kills) + fuzz(options.fuzz)
    print_table(rows)


if __name__ == "__main__":
    main()
