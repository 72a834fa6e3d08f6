"""Feature tests: each script runs twice, in memory and as the real program on a pty."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from termgames.g2048.board import Direction, Game2048
from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from tests.harness.drivers import DRIVERS, FakeDriver, fake_program, program
from tests.harness.screens import maze_keys

TWO_LEVELS = """; First
#######
#@ $ .#
#######

; Second
######
#@$ .#
######
"""


@pytest.mark.parametrize("driver", DRIVERS)
def test_2048_win_keep_going_and_quit(driver: str, tmp_path: Path) -> None:
    model = Game2048(4, 8, random.Random(11))
    keys = {Direction.UP: "up", Direction.DOWN: "down", Direction.LEFT: "left",
            Direction.RIGHT: "right"}
    with program(driver, ["2048", "--goal", "8", "--seed", "11"], tmp_path) as run:
        run.wait_for("Score: 0")
        directions = iter([Direction.LEFT, Direction.UP, Direction.RIGHT, Direction.DOWN] * 50)
        while not model.won:
            direction = next(directions)
            model.slide(direction)
            run.press(keys[direction])
        run.wait_for("You made 8!")
        run.wait_for("c keep going")
        run.press("c")
        run.wait_for_gone("You made 8!")
        run.press("q")
        assert run.finish() == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_sokoban_solve_next_level_and_the_list(driver: str, tmp_path: Path) -> None:
    levels = tmp_path / "two.txt"
    levels.write_text(TWO_LEVELS)
    with program(driver, ["sokoban", str(levels)], tmp_path) as run:
        run.wait_for("level 1 (1 of 2)")
        run.press("right", "right", "right")
        run.wait_for("Solved level 1 ('First')!")
        run.press("enter")
        run.wait_for("level 2 (2 of 2)")
        run.press("tab")
        run.wait_for("two: 1 of 2 solved")
        run.press("q")  # back from the list to the level
        run.wait_for("level 2 (2 of 2)")
        run.press("q")
        assert run.finish() == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_reversi_move_reply_and_take_back(driver: str, tmp_path: Path) -> None:
    args = ["reversi", "--ai", "random", "--first", "you", "--seed", "1", "--ascii"]
    with program(driver, args, tmp_path) as run:
        run.wait_for("You move first.")
        run.press("5", "3")
        run.wait_for("You played 53, turning 1.")
        run.wait_for("Computer played")
        run.press("u")
        run.wait_for("Took back your last move.")
        run.press("q")
        assert run.finish() == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_maze_walk_out_then_a_new_maze(driver: str, tmp_path: Path) -> None:
    maze = generate(5, 3, random.Random(2))
    with program(driver, ["maze", "--size", "5x3", "--seed", "2"], tmp_path) as run:
        run.wait_for("steps 0")
        run.press(*maze_keys(shortest_path(maze, maze.entrance)))
        run.wait_for("You made it out!")
        run.wait_for("no help used")
        run.press("n")
        run.wait_for("steps 0")
        run.press("q")
        assert run.finish() == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_launcher_plays_a_game_and_comes_back(driver: str, tmp_path: Path) -> None:
    with program(driver, [], tmp_path) as run:
        run.wait_for("Sokoban")
        run.press("enter")  # the first game: 2048
        run.wait_for("Score: 0")
        run.press("q")
        run.wait_for("push every box onto a goal")
        run.press("q")
        assert run.finish() == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_any_key_ends_the_solver_animation(driver: str, tmp_path: Path) -> None:
    with program(driver, ["maze", "--size", "39x10", "--seed", "3"], tmp_path) as run:
        run.wait_for("steps 0")
        run.press(".")
        if isinstance(run, FakeDriver):
            run.step()
            assert ":" in run.text() and "Shortest path" not in run.text()
            before = run.clock
            run.press("z")  # bound to nothing: the animation still ends at once
            assert "Shortest path from here:" in run.text()
            assert run.clock - before < 0.001
        else:
            run.press("z")
            run.wait_for("Shortest path from here:")
        run.press("q")
        assert run.finish() == 0


@pytest.mark.parametrize("size", ["3x2", "39x10", "150x100"])
def test_the_solver_animation_runs_by_itself_for_a_while(tmp_path: Path, size: str) -> None:
    """The other half of the test above: without a key, the search replays in 1-2 s,
    whether it visits a few squares or thousands."""
    with fake_program(["maze", "--size", size, "--seed", "3"], tmp_path) as run:
        run.wait_for("steps 0")
        run.press(".")
        started = run.clock
        run.wait_for("Shortest path from here:")
        assert 1.0 < run.clock - started < 2.0


def test_a_big_new_maze_is_built_between_keys(tmp_path: Path) -> None:
    """500x500 cells take half a second to build: the screen answers meanwhile."""
    with fake_program(["maze", "--size", "500x500", "--seed", "1"], tmp_path) as run:
        run.wait_for("steps 0")
        run.press("n")
        run.wait_for("Building a new maze")
        run.press("right")
        assert "Building the next maze: a moment" in run.text()
        run.wait_for_gone("Building a new maze")
        run.press("q")
        assert run.finish() == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_click_on_the_menu_starts_that_game(driver: str, tmp_path: Path) -> None:
    with program(driver, [], tmp_path) as run:
        run.wait_for("Sokoban")
        row = next(y for y, line in enumerate(run.text().splitlines())
                   if line.strip().startswith("Reversi"))
        column = run.text().splitlines()[row].index("Reversi")
        run.click(row, column)
        run.wait_for("vs corner-best")
        run.press("q")
        run.wait_for("Sokoban")
        run.press("q")
        assert run.finish() == 0
