"""Maze's challenge of the day, in memory on the real CLI: the day's maze is pinned for a
date and fits 80x24; a try out of it files its time and steps under the day; a second
start is practice; a helped try is filed apart, not dropped."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

from termgames.daily import seed
from termgames.maze.daily import DAILY_SIZE, daily_score, daily_steps, daily_time
from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from tests.harness.daily import DAY
from tests.harness.drivers import fake_program
from tests.harness.screens import maze_keys
from tests.harness.stores import store_at


def days_maze(day: date = DAY):  # type: ignore[no-untyped-def]
    return generate(*DAILY_SIZE, random.Random(seed("maze", day)))


def test_the_days_maze_is_pinned_for_a_date_and_fits_80x24() -> None:
    assert days_maze().key == "helped:51fbdd235d4ca5cb402840130bfdd4a8"
    assert days_maze(date(2026, 12, 6)).key != days_maze().key
    assert daily_time(daily_score(83_456, 57)) == 83_456
    assert daily_steps(daily_score(83_456, 57)) == 57
    assert daily_score(1000, 99) < daily_score(1001, 1)  # time first, then steps


def test_a_try_out_is_filed_under_the_day_and_a_second_is_practice(
        tmp_path: Path, store_clock: list[float]) -> None:
    maze = days_maze()
    keys = maze_keys(shortest_path(maze, maze.entrance))
    with fake_program(["maze", "--daily"], tmp_path, player="ann") as ann:
        ann.wait_for("Today's challenge #5")
        ann.press(*keys)
        ann.wait_for("You made it out!")
    with fake_program(["maze", "--daily"], tmp_path, player="ann") as again:
        again.wait_for("Practice: challenge #5")
        again.press(*keys)
        again.wait_for("You made it out!")
    store = store_at(tmp_path)
    try:
        filed = store.top("maze", limit=10, lowest=True)
    finally:
        store.close()
    assert [(s.player, s.variant) for s in filed] == [("ann", "daily 2026-12-05")]
    assert daily_steps(filed[0].score) == len(keys)


def test_a_helped_try_is_filed_apart(tmp_path: Path, store_clock: list[float]) -> None:
    maze = days_maze()
    with fake_program(["maze", "--daily"], tmp_path, player="bob") as bob:
        bob.wait_for("Today's challenge #5")
        bob.press("p")  # the shortest path shown: the walk is helped
        bob.wait_for("Shortest path from here")
        bob.press(*maze_keys(shortest_path(maze, maze.entrance)))
        bob.wait_for("You made it out!")
    store = store_at(tmp_path)
    try:
        filed = store.top("maze", "daily 2026-12-05", limit=10, lowest=True)
    finally:
        store.close()
    assert [(s.player, s.assisted) for s in filed] == [("bob", True)]


def test_practice_never_replaces_an_unfinished_ranked_try(
        tmp_path: Path, store_clock: list[float]) -> None:
    maze = days_maze()
    keys = maze_keys(shortest_path(maze, maze.entrance))
    with fake_program(["maze", "--daily"], tmp_path, player="ann") as ranked:
        ranked.wait_for("Today's challenge #5")
        ranked.press(*keys[:3])
        ranked.press("q")  # left part-way: kept
    with fake_program(["maze", "--date", "2026-12-03"], tmp_path, player="ann") as past:
        past.wait_for("Practice: challenge #3")
        past.press("right", "down")
        past.press("q")
    with fake_program(["maze", "--daily"], tmp_path, player="ann") as back:
        back.wait_for("Your unfinished maze is back")
        back.wait_for("Today's challenge #5")  # ranked still
        back.wait_for("steps 3")
