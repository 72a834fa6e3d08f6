"""The deadlock check Sokoban makes after each push, on every bundled level: random legal
pushes (a push that deadlocks is taken back, as a warned player would), each timed
through ``after_push`` alone and through the whole check the game makes (every box, the
one just pushed first); and the per-level analysis (``Board`` and the tables the check
reads), built once when a level opens. Target: the check under 50 ms at p95.

Usage: python -m benchmarks.sokoban_deadlock [--pushes N] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import deque
from collections.abc import Sequence

from termgames.sokoban.format.bundled import BUNDLED, load_bundled
from termgames.sokoban.format.levels import Level, Position
from termgames.sokoban.game import Direction
from termgames.sokoban.solver.board.analysis import Board
from termgames.sokoban.solver.board.deadlock import after_push
from termgames.sokoban.solver.plan import deadlock_of

TARGET_MS = 50.0


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[min(round(fraction * (len(ordered) - 1)), len(ordered) - 1)]


def reachable(level: Level, boxes: set[Position], player: Position) -> set[Position]:
    """The squares the player can walk to."""
    seen, queue = {player}, deque([player])
    while queue:
        here = queue.popleft()
        for direction in Direction:
            there = direction.step(here)
            if (there not in seen and there not in boxes and there in level.inside
                    and there not in level.walls):
                seen.add(there)
                queue.append(there)
    return seen


def legal_pushes(level: Level, boxes: set[Position], player: Position
                 ) -> list[tuple[Position, Direction]]:
    """Every push the player could make from here (walking to it first)."""
    walk = reachable(level, boxes, player)
    pushes = []
    for box in sorted(boxes):
        for direction in Direction:
            target = direction.step(box)
            step = direction.value
            if ((box[0] - step[0], box[1] - step[1]) in walk and target not in boxes
                    and target in level.inside and target not in level.walls):
                pushes.append((box, direction))
    return pushes


def measure(level: Level, pushes: int, chooser: random.Random
            ) -> tuple[float, list[float], list[float], int]:
    """(ms to build the level's analysis, ms per after_push, ms per whole check,
    deadlocks found) over ``pushes`` random legal pushes."""
    started = time.perf_counter()
    board = Board(level)
    deadlock_of(board, frozenset(level.boxes))  # what opening a level builds
    built = (time.perf_counter() - started) * 1000
    single: list[float] = []
    whole: list[float] = []
    found = 0
    boxes, player = set(level.boxes), level.player
    for _ in range(pushes):
        choices = legal_pushes(level, boxes, player)
        if not choices or level.goals <= boxes:
            boxes, player = set(level.boxes), level.player  # stuck or solved: start again
            choices = legal_pushes(level, boxes, player)
            if not choices:
                break
        box, direction = chooser.choice(choices)
        target = direction.step(box)
        boxes.remove(box)
        boxes.add(target)
        started = time.perf_counter()
        after_push(board, boxes, target)
        single.append((time.perf_counter() - started) * 1000)
        frozen_boxes = frozenset(boxes)
        started = time.perf_counter()
        deadlock = deadlock_of(board, frozen_boxes, [target], box)
        whole.append((time.perf_counter() - started) * 1000)
        if deadlock is not None:
            found += 1
            boxes.remove(target)  # taken back, as the warning offers
            boxes.add(box)
        else:
            player = box
    return built, single, whole, found


def spread(values: Sequence[float]) -> str:
    """p50 / p95 / max, in ms."""
    if not values:
        return "-"
    return (f"{percentile(values, 0.5):.3f} / {percentile(values, 0.95):.3f} / "
            f"{max(values):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pushes", type=int, default=60, help="random pushes per level")
    parser.add_argument("--seed", type=int, default=14)
    options = parser.parse_args()
    chooser = random.Random(options.seed)
    rows = []
    every_built: list[float] = []
    every_single: list[float] = []
    every_whole: list[float] = []
    every_found = 0
    for entry in BUNDLED:
        levels = load_bundled(entry).levels
        built, single, whole, found = [], [], [], 0
        for level in levels:
            one_built, one_single, one_whole, one_found = measure(level, options.pushes,
                                                                  chooser)
            built.append(one_built)
            single += one_single
            whole += one_whole
            found += one_found
        rows.append((entry.title, str(len(levels)), f"{len(single):,}", str(found),
                     spread(single), spread(whole), spread(built)))
        every_built += built
        every_single += single
        every_whole += whole
        every_found += found
    rows.append(("all", str(sum(int(row[1]) for row in rows)), f"{len(every_single):,}",
                 str(every_found), spread(every_single), spread(every_whole),
                 spread(every_built)))
    headers = ("collection", "levels", "pushes checked", "deadlocks",
               "after_push ms p50/p95/max", "whole check ms p50/p95/max",
               "Board per level ms p50/p95/max")
    widths = [max(len(str(row[i])) for row in (headers, *rows)) for i in range(len(headers))]
    for row in (headers, *rows):
        print("  ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                        for i, (cell, width) in enumerate(zip(row, widths, strict=True))))
    worst = percentile(every_whole, 0.95)
    verdict = "met" if worst < TARGET_MS else "MISSED"
    print(f"\ntarget: the whole check under {TARGET_MS:.0f} ms at p95: {verdict} "
          f"({worst:.3f} ms)")


if __name__ == "__main__":
    main()
