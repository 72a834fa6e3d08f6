"""Small random Sokoban rooms and the ground truth about them (every position by single
steps, no pruning), for the tests that check the solver's verdicts."""

from __future__ import annotations

import random

from termgames.sokoban.format.levels import Level
from termgames.sokoban.game import Direction


def brute_force_solvable(played: Level) -> bool:
    """Every position reachable by single steps, no pruning at all: the ground truth."""
    start = (played.player, frozenset(played.boxes))
    seen, frontier = {start}, [start]
    floor = played.inside - played.walls
    while frontier:
        player, boxes = frontier.pop()
        if played.goals <= boxes:
            return True
        for direction in Direction:
            there = direction.step(player)
            if there not in floor:
                continue
            moved = boxes
            if there in boxes:
                beyond = direction.step(there)
                if beyond not in floor or beyond in boxes:
                    continue
                moved = (boxes - {there}) | {beyond}
            state = (there, moved)
            if state not in seen:
                seen.add(state)
                frontier.append(state)
    return False


def random_level(rng: random.Random, boxes_count: int = 2, goals_count: int = 2) -> Level:
    """A small walled room with a few inner walls, boxes and goals."""
    height, width = rng.randint(3, 5), rng.randint(3, 6)
    cells = [(r, c) for r in range(1, height + 1) for c in range(1, width + 1)]
    grid = [["#"] * (width + 2) for _ in range(height + 2)]
    for r, c in cells:
        grid[r][c] = "#" if rng.random() < 0.2 else " "
    open_cells = [cell for cell in cells if grid[cell[0]][cell[1]] == " "]
    if len(open_cells) < boxes_count + 1:
        open_cells = cells
        for r, c in cells:
            grid[r][c] = " "
    player, *boxes = rng.sample(open_cells, boxes_count + 1)
    goals = rng.sample(open_cells, goals_count)
    for r, c in goals:
        grid[r][c] = "."
    for r, c in boxes:
        grid[r][c] = "*" if grid[r][c] == "." else "$"
    grid[player[0]][player[1]] = "+" if grid[player[0]][player[1]] == "." else "@"
    return Level(tuple("".join(row) for row in grid))
