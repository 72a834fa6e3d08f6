"""A walk's time, in the core with an injected clock: it starts at the first step, stops
at the exit, and goes back to zero with a restart; waiting before the first step costs
nothing."""

from __future__ import annotations

import itertools
import random

from termgames.direction import Direction
from termgames.maze.generate import generate
from termgames.maze.solve import AStar
from termgames.maze.walk import Walk


class Clock:
    """Time moved by hand."""

    def __init__(self) -> None:
        self.time = 100.0

    def __call__(self) -> float:
        return self.time


def walk_out(walk: Walk, clock: Clock) -> None:
    """Follow the shortest path out, a second a step."""
    search = AStar(walk.maze, walk.position)
    while not search.advance(10_000):
        pass
    path = search.path()
    for here, there in itertools.pairwise(path):
        clock.time += 1
        assert walk.step(there[0] - here[0], there[1] - here[1])


def test_the_clock_starts_at_the_first_step_and_stops_at_the_exit() -> None:
    clock = Clock()
    walk = Walk(generate(6, 4, random.Random(3)), clock=clock)
    clock.time += 50  # looking at the maze before the first step is free
    assert walk.elapsed() == 0 and not walk.timing
    walk_out(walk, clock)
    assert walk.out and not walk.timing
    steps = walk.steps
    assert walk.elapsed() == steps - 1  # timed from the first step, not before it
    clock.time += 30  # after the exit, the time stands
    assert walk.elapsed_ms() == (steps - 1) * 1000


def test_a_step_into_a_wall_does_not_start_the_clock() -> None:
    clock = Clock()
    walk = Walk(generate(6, 4, random.Random(3)), clock=clock)
    assert not walk.step(*Direction.LEFT.value)  # the entrance is on the left border
    clock.time += 5
    assert not walk.timing and walk.elapsed() == 0


def test_a_restart_sets_the_clock_back_to_zero() -> None:
    clock = Clock()
    walk = Walk(generate(6, 4, random.Random(3)), clock=clock)
    walk_out(walk, clock)
    walk.restart()
    clock.time += 7
    assert walk.elapsed() == 0 and not walk.timing
