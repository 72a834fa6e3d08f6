"""Evaluations a second: the trained pattern evaluation against termgames' classic one,
on the same positions in the same run, and print a table.

    python -m tools.reversi_train.speed [--positions N] [--rounds R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from termgames.reversi.board import Bitboard, flips, legal_moves, squares
from termgames.reversi.engine import players as ai
from termgames.reversi.engine.patterns import WeightsError, evaluator


def positions(count: int, seed: int) -> list[tuple[Bitboard, Bitboard]]:
    """``count`` positions from random games, spread over every phase."""
    rng = random.Random(seed)
    found: list[tuple[Bitboard, Bitboard]] = []
    while len(found) < count:
        own, opp = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)
        while True:
            moves = legal_moves(own, opp)
            if not moves:
                if not legal_moves(opp, own):
                    break
                own, opp = opp, own
                continue
            square = rng.choice(squares(moves))
            flipped = flips(own, opp, square)
            own, opp = opp & ~flipped, own | flipped | 1 << square
            found.append((own, opp))
    return found[:count]


def rate(evaluate: Callable[[Bitboard, Bitboard], int], boards: list[tuple[Bitboard, Bitboard]],
         rounds: int) -> float:
    """The best of ``rounds`` timings, in evaluations a second."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for own, opp in boards:
            evaluate(own, opp)
        best = min(best, time.perf_counter() - started)
    return len(boards) / best


def main(argv: list[str] | None = None) -> int:
    """Time both evaluations and print the table; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        trained = evaluator()
    except WeightsError as error:
        print(error, file=sys.stderr)
        return 1
    loading = time.perf_counter() - started
    boards = positions(args.positions, 1)
    rows = []
    for name, evaluate in (("classic (ai.evaluate)", ai.evaluate), ("trained (patterns)", trained)):
        per_second = rate(evaluate, boards, args.rounds)
        rows.append((name, f"{per_second:,.0f}", f"{1e6 / per_second:.1f}"))
    print(f"{'evaluation':<24}{'evals/s':>12}{'us/eval':>10}")
    for name, shown, micro in rows:
        print(f"{name:<24}{shown:>12}{micro:>10}")
    print(f"(weights read and tables built in {loading:.2f} s; {len(boards):,} positions from "
          f"random games, best of {args.rounds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
