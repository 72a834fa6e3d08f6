"""2048 AI: the search's speed against an earlier revision's, on the same positions.

Usage: python -m benchmarks.g2048_search_speed --against REV [--seed S] [--games 3 7]
       [--every 40] [--rounds 4]

Both searches run in this one process, in turn, ``--rounds`` times each, over the same
positions: every ``--every``-th position of the seeded games (the simulator's, played by
today's player at 4 slides, which is quick), each decided with no budget (6 slides down to
1 in 50 on crowded boards: autoplay's lookahead, without its cut). The earlier search is
``termgames/g2048/ai/search.py`` as it was at ``REV`` (read with ``git show``), loaded
beside today's and using today's row tables, so a revision whose tables differ cannot be
compared. Times are CPU time; the least of the rounds is the figure (the other work of the
machine only ever adds to it), the median beside it. The table also says how many
decisions chose the same slide at the same depth, and the positions each counted.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from termgames.g2048.ai import bitboard, search
from termgames.g2048.board import DEFAULT_GOAL, Game2048, Grid, highest_tile
from termgames.g2048.simulate import game_rng

SOURCE = "termgames/g2048/ai/search.py"


def search_at(revision: str) -> ModuleType:
    """The search module as it was at ``revision``, loaded under a name of its own."""
    root = Path(__file__).resolve().parent.parent
    text = subprocess.run(["git", "show", f"{revision}:{SOURCE}"], cwd=root, check=True,
                          capture_output=True, text=True).stdout
    name = f"g2048_search_at_{revision.replace('~', '_').replace('^', '_')}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    exec(compile(text, f"{revision}:{SOURCE}", "exec"), module.__dict__)
    return module


def positions(seed: int, games: list[int], every: int) -> list[Grid]:
    """Every ``every``-th position of the seeded games, until each makes 8192 or ends."""
    found = []
    for number in games:
        game = Game2048(4, DEFAULT_GOAL, game_rng(seed, number))
        while highest_tile(game.grid) < 8192 and not game.over:
            if game.moves % every == 0:
                found.append(game.grid)
            decision = search.think(game.grid, budget_ms=None, nodes=10 ** 9,
                                    lookahead=search.Lookahead(4, 0.02, 3, 1))
            assert decision is not None
            game.slide(decision.direction)
    return found


def decide_all(module: Any, grids: list[Grid]) -> tuple[float, list[tuple[str, int]], int]:
    """CPU seconds to decide every grid with no budget, the decisions, and positions."""
    decisions, counted = [], 0
    started = time.process_time()
    for grid in grids:
        decision = module.think(grid, budget_ms=None, nodes=10 ** 9)
        decisions.append((decision.direction.name, decision.depth))
        counted += decision.nodes
    return time.process_time() - started, decisions, counted


def main() -> None:
    """Time both searches in turn and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, metavar="REV")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, nargs="+", default=[3, 7])
    parser.add_argument("--every", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    bitboard.tables()
    earlier = search_at(args.against)
    grids = positions(args.seed, args.games, args.every)
    sides: dict[str, Any] = {args.against: earlier, "today": search}
    seconds: dict[str, list[float]] = {name: [] for name in sides}
    chosen: dict[str, list[tuple[str, int]]] = {}
    counted: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, module in sides.items():
            spent, chosen[name], counted[name] = decide_all(module, grids)
            seconds[name].append(spent)
    same = sum(a == b for a, b in zip(chosen[args.against], chosen["today"], strict=True))
    print(f"{len(grids)} positions (seed {args.seed}, games {args.games}, every "
          f"{args.every}th), {args.rounds} rounds each, in turn; CPU time")
    print(f"{'search':<12}  {'positions':>9}  {'least s':>8}  {'median s':>8}  "
          f"{'positions/s':>11}")
    for name in sides:
        least = min(seconds[name])
        print(f"{name:<12}  {counted[name]:>9,}  {least:>8.3f}  "
              f"{statistics.median(seconds[name]):>8.3f}  {counted[name] / least:>11,.0f}")
    ratio = min(seconds["today"]) / min(seconds[args.against])
    print(f"today / {args.against}: {ratio:.3f} of the time; the same slide at the same "
          f"depth in {same} of {len(grids)}")


if __name__ == "__main__":
    main()
