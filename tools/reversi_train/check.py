"""Check an evaluation offline, on games it was not fitted on, and print a table.

    python -m tools.reversi_train.check --wthor /work/data-wthor --since 2018

* error: the mean absolute difference, in discs, between the evaluation and the perfect-
  play score of each held-out position with 24 empties (WTHOR's theoretical score, exact
  there), and between the evaluation and the game's value by phase (what the trainer
  fits: the perfect-play score from 24 empties on where the record has one, else the
  final result), beside the error of always saying 0;
* agreement: how often the move that is best after 1 ply (and 2 plies) of the evaluation
  is the move the expert played.

termgames' classic evaluation (``termgames.reversi.engine.players.evaluate``) is measured beside the
trained one; its scale is not discs, so its errors are after the least-squares scale
that suits it best on the same positions (a fairer number than its own).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from termgames.reversi.board import Bitboard, Square, flips, legal_moves, squares
from termgames.reversi.engine import players as ai
from termgames.reversi.engine.patterns import PATH, WeightsError, evaluator
from tools.reversi_train.dataset import PERFECT_FROM, build
from tools.reversi_train.fit import targets
from tools.reversi_train.train import wthor_files
from tools.reversi_train.wthor import read

Evaluate = Callable[[Bitboard, Bitboard], int]
WIN = 10 ** 6


def search(own: Bitboard, opp: Bitboard, depth: int, evaluate: Evaluate) -> int:
    """Plain negamax to ``depth`` plies (a finished game scores its disc difference)."""
    if depth == 0:
        return evaluate(own, opp)
    moves = legal_moves(own, opp)
    if not moves:
        if not legal_moves(opp, own):
            return WIN * ((own.bit_count() > opp.bit_count()) - (own.bit_count()
                                                                  < opp.bit_count()))
        return -search(opp, own, depth - 1, evaluate)
    best = -WIN * 2
    for square in squares(moves):
        flipped = flips(own, opp, square)
        best = max(best, -search(opp & ~flipped, own | flipped | 1 << square, depth - 1,
                                 evaluate))
    return best


def choice(own: Bitboard, opp: Bitboard, depth: int, evaluate: Evaluate) -> Square:
    """The move best after ``depth`` plies (the first of equals)."""
    best, chosen = -WIN * 3, -1
    for square in squares(legal_moves(own, opp)):
        flipped = flips(own, opp, square)
        score = -search(opp & ~flipped, own | flipped | 1 << square, depth - 1, evaluate)
        if score > best:
            best, chosen = score, square
    return chosen


def scaled_error(predicted: npt.NDArray[np.float64], truth: npt.NDArray[np.float64]) -> float:
    """The mean absolute error after the least-squares scale of ``predicted``."""
    scale = float(predicted @ truth) / max(float(predicted @ predicted), 1e-9)
    return float(np.abs(scale * predicted - truth).mean())


def main(argv: list[str] | None = None) -> int:
    """Run the checks and print the table; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wthor", type=Path, required=True)
    parser.add_argument("--since", type=int, default=2018, help="the first held-out year")
    parser.add_argument("--weights", type=Path, default=PATH)
    parser.add_argument("--moves", type=int, default=60000, help="positions for 1 ply")
    parser.add_argument("--moves2", type=int, default=6000, help="positions for 2 plies")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        trained = evaluator(args.weights)
    except WeightsError as error:
        print(error, file=sys.stderr)
        return 2
    paths = wthor_files(args.wthor, None, args.since)
    if not paths:
        print(f"{args.wthor}: no .wtb files from {args.since}", file=sys.stderr)
        return 2
    built = build(game for path in paths for game in read(path))
    held = built.positions
    print(f"held out: {', '.join(path.name for path in paths)}: {built.games:,} games, "
          f"{len(held):,} positions ({built.skipped} skipped)")
    rows: list[tuple[str, str, str]] = []
    evaluations = {"trained": trained, "classic": ai.evaluate}
    exact = held.where(held.empties == PERFECT_FROM)
    truth = exact.perfect.astype(np.float64)
    for name, evaluate in evaluations.items():
        predicted = np.array([evaluate(int(o), int(p)) for o, p in zip(exact.own, exact.opp,
                                                                     strict=True)]) / 100
        mean = (float(np.abs(predicted - truth).mean()) if name == "trained"
                else scaled_error(predicted, truth))
        rows.append((f"{name}: |error| vs perfect play, 24 empties",
                     f"{mean:.2f}", f"discs, {len(exact):,} positions"))
    rows.append(("(always 0)", f"{np.abs(truth).mean():.2f}", "discs"))
    values = targets(held)
    for low, high in ((50, 60), (40, 49), (30, 39), (24, 29), (12, 23), (1, 11)):
        inside = np.nonzero((held.empties >= low) & (held.empties <= high))[0]
        picked = np.random.default_rng(args.seed).choice(inside, min(len(inside), 5000),
                                                         replace=False)
        part = held.where(np.isin(np.arange(len(held)), picked))
        truth = values[np.sort(picked)]
        for name, evaluate in evaluations.items():
            predicted = np.array([evaluate(int(o), int(p)) for o, p in
                                  zip(part.own, part.opp, strict=True)]) / 100
            mean = (float(np.abs(predicted - truth).mean()) if name == "trained"
                    else scaled_error(predicted, truth))
            rows.append((f"{name}: |error| vs game value, {low}-{high} empties", f"{mean:.2f}",
                         f"discs, {len(part):,} positions"))
        rows.append(("(always 0)", f"{np.abs(truth).mean():.2f}", "discs"))
    rng = random.Random(args.seed)
    for depth, count in ((1, args.moves), (2, args.moves2)):
        sample = rng.sample(range(len(held)), min(count, len(held)))
        for name, evaluate in evaluations.items():
            started = time.perf_counter()
            agree = sum(choice(int(held.own[i]), int(held.opp[i]), depth, evaluate)
                        == held.move[i] for i in sample)
            rows.append((f"{name}: {depth}-ply move = expert's", f"{100 * agree / len(sample):.1f}",
                         f"%, {len(sample):,} positions, "
                         f"{time.perf_counter() - started:.0f} s"))
    width = max(len(row[0]) for row in rows)
    for label, value, unit in rows:
        print(f"{label:<{width}}  {value:>7}  {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
