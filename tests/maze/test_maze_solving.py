"""The maze's long searches, in memory: measuring gives the shortest way out, and the
solver's replay shows the share of its search that the time gone covers."""

from __future__ import annotations

import random

from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from termgames.maze.solving import ANIMATION_S, Measuring, Solving


def test_measuring_finishes_with_the_shortest_way_out() -> None:
    maze = generate(30, 20, random.Random(3))
    measuring = Measuring(maze)
    assert measuring.optimal is None
    assert measuring.finish() == len(shortest_path(maze, maze.entrance)) - 1
    assert measuring.advance() and measuring.optimal == measuring.finish()


def test_the_replay_follows_the_time_and_ends_after_its_length() -> None:
    maze = generate(30, 20, random.Random(4))
    solving = Solving(maze, maze.entrance)
    assert not solving.frame(100.0)  # nothing to play back before the search is done
    while not solving.advance():
        pass
    solving.play_back(10.0)
    assert solving.replay is not None
    assert not solving.frame(10.0 + ANIMATION_S / 2)
    assert solving.replay.shown == solving.replay.total // 2
    assert solving.frame(10.0 + ANIMATION_S)
    assert solving.path() == shortest_path(maze, maze.entrance)
