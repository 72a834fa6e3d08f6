"""The shortest path shown to a walker stays while they follow it, trimmed from their end;
a step off leaves it shown from where they left it (termgames.maze.guide, walk, state)."""

from __future__ import annotations

import random

from termgames.maze.generate import Square, generate
from termgames.maze.guide import Guide
from termgames.maze.solve import shortest_path
from termgames.maze.state import dump, violations
from termgames.maze.walk import Walk
from tests.harness.screens import fork


def step_to(walk: Walk, square: Square) -> None:
    here = walk.position
    assert walk.step(square[0] - here[0], square[1] - here[1]), (here, square)


def test_a_path_followed_is_trimmed_from_the_walkers_end_to_the_exit() -> None:
    maze = generate(12, 8, random.Random(4))
    path = shortest_path(maze, maze.entrance)
    walk = Walk(maze)
    walk.show_path(path)
    assert walk.helped and walk.guide is not None and walk.guide.shown == path
    for place, square in enumerate(path[1:], start=1):
        step_to(walk, square)
        assert walk.guide.shown == path[place:]
        assert walk.guide.steps_left() == len(path) - 1 - place
    assert walk.out and walk.guide.shown == [maze.exit]


def test_a_step_off_the_path_leaves_it_shown_from_where_the_walker_left_it() -> None:
    maze = generate(20, 12, random.Random(5))
    path = shortest_path(maze, maze.entrance)
    place, beside = fork(maze, path)
    walk = Walk(maze)
    walk.show_path(path)
    for square in path[1:place + 1]:
        step_to(walk, square)
    assert walk.guide is not None and walk.guide.shown == path[place:]
    step_to(walk, beside)  # off it, into a side branch
    assert walk.guide.shown == path[place:] and walk.guide.start == path[place]
    assert beside not in walk.guide and path[place] in walk.guide
    step_to(walk, path[place])  # back on: following again from there
    step_to(walk, path[place - 1])  # back along the part walked: still off it
    assert walk.guide.shown == path[place:] and path[place - 1] not in walk.guide
    for square in path[place:place + 3]:
        step_to(walk, square)
    assert walk.guide.shown == path[place + 2:]


def test_hiding_the_path_and_restarting_leave_none_shown_but_help_given_stays() -> None:
    maze = generate(6, 4, random.Random(3))
    walk = Walk(maze)
    assert not walk.helped and walk.guide is None
    walk.show_path(shortest_path(maze, maze.entrance))
    walk.hide_path()
    assert walk.guide is None and walk.helped
    walk.show_path(shortest_path(maze, maze.entrance))
    walk.restart()
    assert walk.guide is None and walk.helped


def test_a_guide_on_a_maze_with_a_loop_takes_up_the_path_where_the_walker_rejoins() -> None:
    # Not a Prim maze (those have no loops), but the rule holds: a step onto any square
    # further along trims up to it.
    guide = Guide([(1, 1), (1, 2), (1, 3), (2, 3), (3, 3)])
    guide.follow((2, 2))
    assert guide.shown == [(1, 1), (1, 2), (1, 3), (2, 3), (3, 3)]
    guide.follow((2, 3))
    assert guide.shown == [(2, 3), (3, 3)] and (1, 3) not in guide
    guide.follow((1, 1))
    assert guide.shown == [(2, 3), (3, 3)] and len(guide) == 2


def test_the_dumped_state_carries_the_path_and_a_broken_one_is_caught() -> None:
    maze = generate(6, 4, random.Random(3))
    walk = Walk(maze)
    path = shortest_path(maze, maze.entrance)
    walk.show_path(path)
    step_to(walk, path[1])
    state = dump(walk)
    assert state.path == path[1:] and not state.violations()
    assert violations(state._asdict()) == []  # as the key-storm tests read it
    gap = state._replace(path=[path[1], path[3]])
    assert gap.violations() == ["the path shown has a gap"]
    assert violations(gap._asdict()) == ["the path shown has a gap"]
    wall = state._replace(path=[(0, 0), *path[1:]])
    assert "the path shown runs through a wall" in wall.violations()
    unwalked = state._replace(path=path[2:])
    assert unwalked.violations() == [
        f"the path shown starts at {path[2]}, where the walker never stood"]
