"""2048's rules: the DESIGN.md examples, an independent oracle, and properties over any grid."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termgames.g2048.board import (
    Direction,
    Game2048,
    Grid,
    RulesError,
    can_move,
    empty_cells,
    move,
    slide_row,
    spawn,
    tile_sum,
)

TILES = st.sampled_from([0, 0, 0, 2, 2, 4, 4, 8, 16, 32, 64, 128, 1024, 2048])


@st.composite
def grids(draw: st.DrawFn, min_size: int = 3, max_size: int = 8) -> Grid:
    size = draw(st.integers(min_size, max_size))
    rows = draw(st.lists(st.lists(TILES, min_size=size, max_size=size),
                         min_size=size, max_size=size))
    return tuple(tuple(row) for row in rows)


def classic_move(grid: Grid, direction: Direction) -> tuple[Grid, int]:
    """The original game's algorithm, tile by tile from the wall, as an independent oracle."""
    size = len(grid)
    cells = [list(row) for row in grid]
    merged = [[False] * size for _ in range(size)]
    dr, dc = {Direction.UP: (-1, 0), Direction.DOWN: (1, 0),
              Direction.LEFT: (0, -1), Direction.RIGHT: (0, 1)}[direction]
    rows = range(size - 1, -1, -1) if dr == 1 else range(size)
    cols = range(size - 1, -1, -1) if dc == 1 else range(size)
    gained = 0
    for r in rows:
        for c in cols:
            value = cells[r][c]
            if not value:
                continue
            cells[r][c] = 0
            nr, nc = r, c
            while 0 <= nr + dr < size and 0 <= nc + dc < size and not cells[nr + dr][nc + dc]:
                nr, nc = nr + dr, nc + dc
            ar, ac = nr + dr, nc + dc
            if (0 <= ar < size and 0 <= ac < size and cells[ar][ac] == value
                    and not merged[ar][ac]):
                cells[ar][ac] = value * 2
                merged[ar][ac] = True
                gained += value * 2
            else:
                cells[nr][nc] = value
    return tuple(tuple(row) for row in cells), gained


class TestDesignExamples:
    def test_four_twos_left_make_two_fours(self) -> None:
        assert slide_row((2, 2, 2, 2)) == ((4, 4, 0, 0), 8)

    def test_twos_and_fours_right(self) -> None:
        grid = ((2, 2, 4, 4), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
        result = move(grid, Direction.RIGHT)
        assert result.grid[0] == (0, 0, 4, 8)
        assert result.gained == 12

    def test_a_tile_merges_once_per_move(self) -> None:
        assert slide_row((4, 4, 8, 0)) == ((8, 8, 0, 0), 8)
        assert slide_row((2, 2, 4, 0)) == ((4, 4, 0, 0), 4)

    def test_merges_count_from_the_wall(self) -> None:
        assert slide_row((2, 2, 2, 0)) == ((4, 2, 0, 0), 4)
        column_grid = ((2, 0, 0), (2, 0, 0), (2, 0, 0))
        assert move(column_grid, Direction.DOWN).grid == ((0, 0, 0), (2, 0, 0), (4, 0, 0))
        assert move(column_grid, Direction.UP).grid == ((4, 0, 0), (2, 0, 0), (0, 0, 0))

    def test_a_full_grid_without_equal_neighbours_is_over(self) -> None:
        grid = ((2, 4, 2), (4, 2, 4), (2, 4, 2))
        assert not can_move(grid)
        assert can_move(((2, 4, 2), (4, 2, 4), (2, 4, 4)))
        assert can_move(((2, 4, 2), (4, 0, 4), (2, 4, 2)))

    def test_a_new_game_has_two_tiles(self) -> None:
        game = Game2048(4, 2048, random.Random(3))
        assert sum(1 for row in game.grid for value in row if value) == 2

    def test_sizes_and_goals_are_checked(self) -> None:
        for size in (2, 9):
            with pytest.raises(RulesError, match="size"):
                Game2048(size)
        for goal in (4, 100):
            with pytest.raises(RulesError, match="goal"):
                Game2048(4, goal)

    def test_making_the_goal_wins_and_play_goes_on(self) -> None:
        game = Game2048(3, 8, random.Random(0), grid=((4, 4, 0), (0, 0, 0), (0, 0, 0)))
        game.slide(Direction.LEFT)
        assert game.won and game.grid[0][0] == 8
        game.slide(Direction.DOWN)
        assert game.won and game.moves == 2

    def test_undo_restores_grid_score_and_win_and_marks_the_game(self) -> None:
        game = Game2048(3, 8, random.Random(0), grid=((4, 4, 0), (0, 0, 0), (0, 0, 0)))
        before = game.grid
        game.slide(Direction.LEFT)
        assert game.undo()
        assert (game.grid, game.score, game.won, game.moves) == (before, 0, False, 0)
        assert game.used_undo
        assert not game.undo()

    def test_fours_spawn_about_one_time_in_ten(self) -> None:
        rng = random.Random(12345)
        spawned = [sum(spawn(((0, 0, 0),) * 3, rng), ()) for _ in range(5000)]
        fours = sum(1 for grid in spawned if 4 in grid)
        assert all(sorted(grid)[-2:] in ([0, 2], [0, 4]) for grid in spawned)
        assert 0.08 < fours / 5000 < 0.12


@given(grids(), st.sampled_from(list(Direction)))
def test_a_slide_matches_the_original_algorithm(grid: Grid, direction: Direction) -> None:
    result = move(grid, direction)
    assert (result.grid, result.gained) == classic_move(grid, direction)


@given(grids(), st.sampled_from(list(Direction)))
def test_a_slide_keeps_the_sum_of_tiles(grid: Grid, direction: Direction) -> None:
    assert tile_sum(move(grid, direction).grid) == tile_sum(grid)


@given(grids(), st.sampled_from(list(Direction)), st.integers(0, 2**32))
def test_the_score_grows_by_exactly_the_merged_tiles(
    grid: Grid, direction: Direction, seed: int
) -> None:
    game = Game2048(len(grid), 2048, random.Random(seed), grid=grid, score=100)
    game.slide(direction)
    _, merged_sum = classic_move(grid, direction)
    assert game.score == 100 + merged_sum
    # Each merge of two v tiles into 2v removes one tile: the merged values are the
    # difference the merges make, so the count of tiles falls by the number of merges.
    before = sum(1 for row in grid for v in row if v)
    after_slide = sum(1 for row in move(grid, direction).grid for v in row if v)
    assert (merged_sum == 0) == (before == after_slide)


@given(grids(), st.sampled_from(list(Direction)), st.integers(0, 2**32))
def test_a_move_that_changes_nothing_spawns_nothing(
    grid: Grid, direction: Direction, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game2048(len(grid), 2048, rng, grid=grid)
    state = rng.getstate()
    changed = move(grid, direction).changed
    game.slide(direction)
    if changed:
        assert game.moves == 1
        assert len(empty_cells(game.grid)) == len(empty_cells(move(grid, direction).grid)) - 1
    else:
        assert (game.grid, game.moves, game.history) == (grid, 0, [])
        assert rng.getstate() == state


@given(grids())
def test_game_over_exactly_when_no_move_changes_the_board(grid: Grid) -> None:
    any_change = any(move(grid, direction).changed for direction in Direction)
    assert can_move(grid) == any_change
    assert Game2048(len(grid), grid=grid).over == (not any_change)


@given(grids(), st.integers(0, 2**32))
def test_a_spawn_is_a_two_or_four_in_an_empty_cell(grid: Grid, seed: int) -> None:
    after = spawn(grid, random.Random(seed))
    changes = [(r, c) for r, row in enumerate(grid) for c, value in enumerate(row)
               if after[r][c] != value]
    if not empty_cells(grid):
        assert after == grid
        return
    assert len(changes) == 1
    r, c = changes[0]
    assert grid[r][c] == 0 and after[r][c] in (2, 4)


@given(st.integers(0, 2**32), st.lists(st.sampled_from(list(Direction)), max_size=60),
       st.integers(3, 8))
def test_a_seeded_rng_gives_the_same_game_twice(
    seed: int, directions: list[Direction], size: int
) -> None:
    def play() -> list[tuple[Grid, int]]:
        game = Game2048(size, 2048, random.Random(seed))
        trace = [(game.grid, game.score)]
        for direction in directions:
            game.slide(direction)
            trace.append((game.grid, game.score))
        return trace

    assert play() == play()
