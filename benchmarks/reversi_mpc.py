"""Fit the Multi-ProbCut parameters of the Reversi engine (``engine.MPC``).

Usage: python -m benchmarks.reversi_mpc [--positions N] [--depth D] [--jobs J] [--seed S]

Plays games from the start (the engine at 3,000 positions a move, with a random move now
and then in the first 20 plies so the games differ but stay games the engine would
play), takes positions with 14 to 54 empties from them, and searches each one to every
depth up to D with Multi-ProbCut off. For each deep depth d and its shallow partner d'
(d - 2 up to depth 4, d - 4 beyond: the same parity), it fits the deep score on the
shallow one by least squares, deep ~ slope * shallow + intercept, and measures the
spread sigma of what is left, over all the positions and for three stages of the game.
It prints a table of the fit and, last, the ``MPC`` dictionary to paste into
termgames/reversi/engine/principal.py (depths beyond D reuse the deepest fit: the spread
does not grow with depth where it was measured, it shrinks).

Run it again whenever the evaluation changes: the parameters belong to the evaluation.
"""

from __future__ import annotations

import argparse
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

from termgames.reversi.board import Position
from termgames.reversi.engine.limits import Limits
from termgames.reversi.engine.principal import WIN, PrincipalVariation
from termgames.reversi.match import Match

TOP_DEPTH = 14
"""The deepest depth the printed table covers."""


def shallow_of(depth: int) -> int:
    """The shallow partner of ``depth``: of the same parity, cheap beside it."""
    return depth - 2 if depth <= 4 else depth - 4


class _Recording(PrincipalVariation):
    """A search that remembers each finished iteration's score."""

    def _complete(self, depth: int) -> None:
        super()._complete(depth)
        self.scores[depth] = self.score

    scores: dict[int, int]


def scores_by_depth(position: Position, depth: int) -> dict[int, int]:
    """The root score at each depth 1..``depth``, Multi-ProbCut off (proven results out)."""
    search = _Recording(position, Limits(seconds=None, max_depth=depth, endgame_empties=0),
                        probcut=False)
    search.scores = {}
    search.advance()
    return {d: s for d, s in search.scores.items() if abs(s) < WIN}


STAGES = ((14, 24), (25, 36), (37, 54))
"""The stages of the game (empties) the fit is also shown for."""
RANDOM_PLIES = 20
"""Random moves are played only this early, so that the games vary but stay close."""


def positions(count: int, seed: int) -> list[Position]:
    """``count`` positions with a choice of moves, 14 to 54 empties, from varied games
    the engine plays itself."""
    rng = random.Random(seed)
    found: list[Position] = []
    limits = Limits(seconds=None, nodes=3_000, endgame_empties=0)
    while len(found) < count:
        match = Match()
        plies = 0
        while not match.over:
            position = match.position
            if (STAGES[0][0] <= position.empties() <= STAGES[-1][1] and rng.random() < 0.08
                    and len(position.move_list()) > 1):
                found.append(position)
            if plies < RANDOM_PLIES and rng.random() < 0.1:
                move = rng.choice(position.move_list())
            else:
                # Multi-ProbCut off: the positions must not depend on the table being fitted.
                search = PrincipalVariation(position, limits, rng, probcut=False)
                search.advance()
                move = search.choice
            match.play(move)
            plies += 1
    return found[:count]


def _job(job: tuple[Position, int]) -> dict[int, int]:
    return scores_by_depth(*job)


def fit(results: list[dict[int, int]], depth: int) -> tuple[int, float, float, float] | None:
    """(shallow depth, slope, intercept, sigma) of ``depth``'s score on its shallow
    partner's, over ``results``; None with fewer than 10 pairs."""
    shallow = shallow_of(depth)
    pairs = [(r[shallow], r[depth]) for r in results if shallow in r and depth in r]
    if len(pairs) < 10:
        return None
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    slope, intercept = statistics.linear_regression(xs, ys)
    sigma = statistics.pstdev([y - (slope * x + intercept) for x, y in pairs])
    return shallow, slope, intercept, sigma


def report(chosen: list[Position], results: list[dict[int, int]], depth: int
           ) -> dict[int, tuple[int, float, float, float]]:
    """Print the fit of each depth up to ``depth`` over ``chosen``'s ``results`` (and by
    stage of the game); the fits, extended to ``TOP_DEPTH``."""
    stages = [[r for p, r in zip(chosen, results, strict=True) if low <= p.empties() <= high]
              for low, high in STAGES]
    sizes = ", ".join(f"{len(stage)} with {low}-{high}"
                      for stage, (low, high) in zip(stages, STAGES, strict=True))
    print(f"{len(chosen)} positions, depths 1-{depth}; sigma also by empties ({sizes})")
    print(f"{'depth':>5} {'shallow':>7} {'slope':>7} {'intercept':>9} {'sigma':>7} "
          + " ".join(f"{f'{low}-{high}':>7}" for low, high in STAGES))
    fits: dict[int, tuple[int, float, float, float]] = {}
    for deep in range(3, depth + 1):
        found = fit(results, deep)
        if found is None:
            continue
        fits[deep] = found
        shallow, slope, intercept, sigma = found
        by_stage = [fit(stage, deep) for stage in stages]
        print(f"{deep:>5} {shallow:>7} {slope:>7.3f} {intercept:>9.1f} {sigma:>7.1f} "
              + " ".join(f"{part[3]:>7.1f}" if part else f"{'-':>7}" for part in by_stage))
    deepest = max(fits)
    _, slope, intercept, sigma = fits[deepest]
    for deep in range(deepest + 1, TOP_DEPTH + 1):
        fits[deep] = (shallow_of(deep), slope, intercept, sigma)
    return fits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    chosen = positions(options.positions, options.seed)
    with ProcessPoolExecutor(options.jobs) as pool:
        results = list(pool.map(_job, [(p, options.depth) for p in chosen]))
    fits = report(chosen, results, options.depth)
    print("\nMPC = {")
    for depth, (shallow, slope, intercept, sigma) in sorted(fits.items()):
        print(f"    {depth}: ({shallow}, {slope:.3f}, {intercept:.1f}, {sigma:.1f}),")
    print("}")


if __name__ == "__main__":
    main()
