"""Prim mazes are perfect and follow the entrance/exit rule; A* is optimal."""

from __future__ import annotations

import random
from collections import deque
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termgames.maze.generate import OPEN, WALL, Maze, MazeSizeError, Square, generate
from termgames.maze.solve import AStar, NoPath, SearchPlayback, Seen, shortest_path
from termgames.maze.walk import toward

SIZES = [(1, 1), (1, 7), (7, 1), (2, 2), (5, 3), (3, 9), (20, 11), (40, 40)]


def cells(maze: Maze) -> list[Square]:
    return [(2 * y + 1, 2 * x + 1) for y in range(maze.cells_high)
            for x in range(maze.cells_wide)]


def openings_between_cells(maze: Maze) -> int:
    total = 0
    for row, column in cells(maze):
        if column + 2 < maze.width and maze.is_open((row, column + 1)):
            total += 1
        if row + 2 < maze.height and maze.is_open((row + 1, column)):
            total += 1
    return total


def reachable(maze: Maze, start: Square) -> set[Square]:
    """Every open square reachable from ``start`` (one breadth-first search)."""
    seen = {start}
    queue = deque([start])
    while queue:
        row, column = queue.popleft()
        for nxt in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
            if nxt not in seen and maze.is_open(nxt):
                seen.add(nxt)
                queue.append(nxt)
    return seen


def bfs_distance(maze: Maze, start: Square, goal: Square) -> int | None:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if square == goal:
            return seen[square]
        row, column = square
        for nxt in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
            if nxt not in seen and maze.is_open(nxt):
                seen[nxt] = seen[square] + 1
                queue.append(nxt)
    return None


@pytest.mark.parametrize(("wide", "high"), SIZES)
@pytest.mark.parametrize("seed", range(6))
def test_every_maze_is_perfect_and_follows_the_rule(wide: int, high: int, seed: int) -> None:
    check_perfect_and_by_the_rule(generate(wide, high, random.Random(seed)), wide, high)


@pytest.mark.slow
@pytest.mark.parametrize(("wide", "high", "seeds"), [
    (40, 40, 40), (120, 60, 30), (250, 100, 10), (500, 3, 40)])
def test_many_large_mazes_are_perfect_and_follow_the_rule(wide: int, high: int,
                                                          seeds: int) -> None:
    """The soak: more seeds, up to the largest width (500)."""
    for seed in range(seeds):
        check_perfect_and_by_the_rule(generate(wide, high, random.Random(seed)), wide, high)


def check_perfect_and_by_the_rule(maze: Maze, wide: int, high: int) -> None:
    """Prim's maze: all cells open and reachable, no loops, a closed border but for the
    entrance and exit, which follow the rule (first and last open rows)."""
    assert (maze.width, maze.height) == (2 * wide + 1, 2 * high + 1)
    assert maze.width % 2 == 1 and maze.height % 2 == 1
    # Every cell is open and reachable; cells-1 openings between them means no loops.
    assert all(maze.is_open(cell) for cell in cells(maze))
    start = cells(maze)[0]
    assert set(cells(maze)) <= reachable(maze, start)
    assert openings_between_cells(maze) == wide * high - 1
    # Squares at even/even coordinates (wall corners) are never carved.
    assert all(maze.grid[r * maze.width + c] == WALL
               for r in range(0, maze.height, 2) for c in range(0, maze.width, 2))
    # The border is closed but for the entrance (left) and exit (right).
    border = ([(0, c) for c in range(maze.width)] + [(maze.height - 1, c)
              for c in range(maze.width)] + [(r, 0) for r in range(maze.height)]
              + [(r, maze.width - 1) for r in range(maze.height)])
    assert {square for square in border if maze.is_open(square)} == {maze.entrance, maze.exit}
    first = min(r for r in range(maze.height) if maze.grid[r * maze.width + 1] == OPEN)
    last = max(r for r in range(maze.height)
               if maze.grid[r * maze.width + maze.width - 2] == OPEN)
    assert maze.entrance == (first, 0) and maze.exit == (last, maze.width - 1)


def test_a_seed_gives_the_same_maze() -> None:
    assert generate(30, 12, random.Random(5)) == generate(30, 12, random.Random(5))
    assert generate(30, 12, random.Random(5)) != generate(30, 12, random.Random(6))


def test_sizes_are_checked() -> None:
    for wide, high in ((0, 3), (3, 0), (501, 2)):
        with pytest.raises(MazeSizeError):
            generate(wide, high, random.Random(0))


@given(st.integers(1, 25), st.integers(1, 25), st.integers(0, 10**6), st.data())
@settings(max_examples=80, deadline=None)
def test_a_star_is_valid_and_as_short_as_bfs_from_any_square(
    wide: int, high: int, seed: int, data: st.DataObject
) -> None:
    maze = generate(wide, high, random.Random(seed))
    open_squares = [(r, c) for r in range(maze.height) for c in range(maze.width)
                    if maze.is_open((r, c))]
    start = data.draw(st.sampled_from(open_squares))
    path = shortest_path(maze, start)
    assert path[0] == start and path[-1] == maze.exit
    assert all(maze.is_open(square) for square in path)
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in pairwise(path))
    assert len(path) - 1 == bfs_distance(maze, start, maze.exit)


def test_a_walled_off_exit_gives_no_path() -> None:
    maze = generate(6, 4, random.Random(1))
    row, column = maze.exit
    grid = bytearray(maze.grid)
    grid[row * maze.width + column - 1] = WALL  # block the square in front of the exit
    blocked = Maze(maze.cells_wide, maze.cells_high, bytes(grid), maze.entrance, maze.exit)
    with pytest.raises(NoPath, match="no path"):
        shortest_path(blocked, blocked.entrance)
    with pytest.raises(NoPath, match="wall"):
        AStar(maze, (0, 0))


def test_the_search_can_be_run_in_steps() -> None:
    maze = generate(15, 15, random.Random(2))
    whole = shortest_path(maze, maze.entrance)
    stepped = AStar(maze, maze.entrance)
    rounds = 0
    while not stepped.advance(5):
        rounds += 1
        assert stepped.explored and len(stepped.explored) <= 2 * 5 * rounds  # cell + passage
    assert rounds > 3 and stepped.path() == whole


def test_a_walk_keeps_its_trail_and_marks_dead_ends() -> None:
    from termgames.maze.walk import Walk

    maze = generate(6, 4, random.Random(3))
    walk = Walk(maze)
    assert walk.position == maze.entrance and walk.route == [maze.entrance]
    assert not walk.step(0, -1)  # out of the entrance is off the map
    assert walk.step(0, 1) and walk.steps == 1
    assert walk.step(0, -1)  # back over the trail
    assert walk.route == [maze.entrance] and walk.left_behind() == {(maze.entrance[0], 1)}
    walk.helped = True
    walk.restart()
    assert walk.helped and walk.steps == 0 and walk.visited == {maze.entrance}


def test_a_walk_ends_at_the_exit() -> None:
    from termgames.maze.walk import Walk

    maze = generate(4, 3, random.Random(7))
    walk = Walk(maze)
    path = shortest_path(maze, maze.entrance)
    for (r0, c0), (r1, c1) in pairwise(path):
        assert not walk.out
        assert walk.step(r1 - r0, c1 - c0)
    assert walk.out and walk.steps == len(path) - 1
    assert not walk.step(0, -1)  # out means out


def open_neighbours(maze: Maze, square: Square) -> list[Square]:
    return [(square[0] + dr, square[1] + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if maze.is_open((square[0] + dr, square[1] + dc))]


def test_a_click_in_line_with_nothing_in_the_way_walks_straight_there() -> None:
    maze = generate(6, 4, random.Random(3))  # its top row is one open corridor
    assert all(maze.is_open((1, column)) for column in range(12))
    assert toward(maze, (1, 0), (1, 11)) == [(1, column) for column in range(1, 12)]
    assert toward(maze, (1, 11), (1, 11)) == []
    assert toward(maze, (1, 5), (0, 5)) == []  # a wall: nowhere to go


@pytest.mark.parametrize("seed", range(8))
def test_a_click_walks_a_corridor_round_its_bends_and_stops_at_a_choice(seed: int) -> None:
    maze = generate(12, 8, random.Random(seed))
    rng = random.Random(seed)
    open_squares = [(r, c) for r in range(maze.height) for c in range(maze.width)
                    if maze.is_open((r, c))]
    for _ in range(60):
        start, target = rng.choice(open_squares), rng.choice(open_squares)
        squares = toward(maze, start, target)
        for before, after in pairwise([start, *squares]):
            assert abs(before[0] - after[0]) + abs(before[1] - after[1]) == 1
            assert maze.is_open(after)
        if not squares or start[0] == target[0] or start[1] == target[1]:
            continue
        # It never chooses at a fork: every square passed has only the way on and back.
        for square in squares[:-1]:
            assert len(open_neighbours(maze, square)) == 2
        end = squares[-1]
        assert end in (target, maze.exit) or len(open_neighbours(maze, end)) != 2


def test_a_click_never_finds_the_way_out_through_a_fork() -> None:
    maze = generate(20, 12, random.Random(5))
    path = shortest_path(maze, maze.entrance)
    forks = [square for square in path[1:-1] if len(open_neighbours(maze, square)) > 2]
    assert forks, "this maze's way out passes a fork"
    assert maze.exit not in toward(maze, maze.entrance, maze.exit)


def test_a_replay_shows_the_search_growing_to_what_it_explored() -> None:
    maze = generate(20, 12, random.Random(2))
    search = AStar(maze, maze.entrance)
    with pytest.raises(ValueError, match="finished"):
        SearchPlayback(search)
    search.advance()
    replay = SearchPlayback(search)
    squares = [(r, c) for r in range(maze.height) for c in range(maze.width)]

    def seen_at(shown: int) -> tuple[set[Square], set[Square]]:
        replay.shown = shown
        looks = {square: replay.seen(square) for square in squares}
        return ({s for s, look in looks.items() if look is Seen.EXPLORED},
                {s for s, look in looks.items() if look is Seen.FRONTIER})

    assert seen_at(0) == (set(), set())
    explored_before: set[Square] = set()
    for shown in range(1, replay.total + 1, max(replay.total // 10, 1)):
        explored, frontier = seen_at(shown)
        assert explored == {divmod(s, maze.width) for s in search.explored[:shown]}
        assert explored_before <= explored and not explored & frontier
        assert frontier, "a search under way has a frontier"
        for square in frontier:  # each frontier square was reached from an explored one
            near = {(square[0] + dr, square[1] + dc) for dr in range(-2, 3)
                    for dc in range(-2, 3) if abs(dr) + abs(dc) <= 2}
            assert near & explored
        explored_before = explored
    assert seen_at(replay.total)[0] == {divmod(s, maze.width) for s in search.explored}


def test_counts_are_grouped_and_words_agree_in_number() -> None:
    """The report's polish: numbers grouped everywhere, words agreeing with them."""
    from termgames.maze.view import header_forms, result_lines
    from termgames.maze.walk import Walk

    assert header_forms("Maze 500x500", 123_456, "1:02.3", None, False)[0] == (
        "Maze 500x500   steps 123,456   time 1:02.3")
    maze = generate(2, 1, random.Random(1))
    walk = Walk(maze, clock=lambda: 0.0)
    walk.step(0, 1)
    assert result_lines(walk, 1_234)[1] == "1 step (shortest: 1,234)"
