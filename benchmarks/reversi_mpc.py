"""Fit the Multi-ProbCut parameters of the Reversi engine (``engine.MPC``).

Usage: python -m benchmarks.reversi_mpc [--positions N] [--depth D] [--jobs J] [--seed S]

Plays games from the start (the engine at a small node budget, with a random move now
and then so the games differ), takes positions from them, and searches each one to every
depth up to D with Multi-ProbCut off. For each deep depth d and its shallow partner d'
(d - 2 up to depth 4, d - 4 beyond: the same parity), it fits the deep score on the
shallow one by least squares, deep ~ slope * shallow + intercept, and measures the
spread sigma of what is left. It prints a table of the fit and, last, the ``MPC``
dictionary to paste into termgames/reversi/engine/principal.py (depths beyond D reuse the
deepest fit, shifted: their sigma is a guess on the safe side).

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


def positions(count: int, seed: int) -> list[Position]:
    """``count`` positions from varied games, 14 to 50 empties."""
    rng = random.Random(seed)
    found: list[Position] = []
    limits = Limits(seconds=None, nodes=300, endgame_empties=0)
    while len(found) < count:
        match = Match()
        while not match.over:
            position = match.position
            if 14 <= position.empties() <= 50 and rng.random() < 0.12:
                found.append(position)
            if rng.random() < 0.25:
                move = rng.choice(position.move_list())
            else:
                search = PrincipalVariation(position, limits, rng, probcut=False)
                search.advance()
                move = search.choice
            match.play(move)
    return found[:count]


def _job(job: tuple[Position, int]) -> dict[int, int]:
    return scores_by_depth(*job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    chosen = [p for p in positions(options.positions, options.seed) if len(p.move_list()) > 1]
    with ProcessPoolExecutor(options.jobs) as pool:
        results = list(pool.map(_job, [(p, options.depth) for p in chosen]))
    print(f"{len(chosen)} positions, depths 1-{options.depth}")
    print(f"{'depth':>5} {'shallow':>7} {'pairs':>5} {'slope':>7} {'intercept':>9} "
          f"{'sigma':>7} {'corr':>5}")
    fits: dict[int, tuple[int, float, float, float]] = {}
    for depth in range(3, options.depth + 1):
        shallow = shallow_of(depth)
        pairs = [(r[shallow], r[depth]) for r in results if shallow in r and depth in r]
        if len(pairs) < 10:
            continue
        xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
        slope, intercept = statistics.linear_regression(xs, ys)
        sigma = statistics.pstdev([y - (slope * x + intercept) for x, y in pairs])
        fits[depth] = (shallow, slope, intercept, sigma)
        print(f"{depth:>5} {shallow:>7} {len(pairs):>5} {slope:>7.3f} {intercept:>9.1f} "
              f"{sigma:>7.1f} {statistics.correlation(xs, ys):>5.2f}")
    deepest = max(fits)
    _, slope, intercept, sigma = fits[deepest]
    for depth in range(deepest + 1, TOP_DEPTH + 1):  # extrapolated: a wider spread
        fits[depth] = (shallow_of(depth), slope, intercept, sigma * 1.1 ** (depth - deepest))
    print("\nMPC = {")
    for depth, (shallow, slope, intercept, sigma) in sorted(fits.items()):
        print(f"    {depth}: ({shallow}, {slope:.3f}, {intercept:.1f}, {sigma:.1f}),")
    print("}")


if __name__ == "__main__":
    main()
