"""At each game's smallest size, the footer and every result panel still say how to get
help and how to quit."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from termgames.g2048.board import Direction, Game2048
from termgames.g2048.view import minimum_size
from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from termgames.reversi.board import Player, square_name
from termgames.reversi.match import Match
from tests.drivers import Driver, program
from tests.screens import maze_keys

DRIVERS = ["fake", "pty"]
LEVEL = "#######\n#@ $ .#\n#######\n"


def says_help_and_quit(text: str) -> bool:
    flat = " ".join(text.split())
    return "? help" in flat and "q quit" in flat


def panel(run: Driver) -> str:
    """The text inside the framed panel on screen (not the footer below it)."""
    inside = [line for line in run.text().splitlines()
              if re.match(r"^\s*[│|].*[│|]\s*$", line)]
    assert inside, f"no panel on screen:\n{run.text()}"
    return "\n".join(inside)


def footer(run: Driver) -> str:
    return [line for line in run.text().splitlines() if line.strip()][-1]


@pytest.mark.parametrize("driver", DRIVERS)
def test_2048_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    rows, cols = minimum_size(3)
    model = Game2048(3, 1024, random.Random(3))
    with program(driver, ["2048", "--size", "3", "--seed", "3"], tmp_path, rows, cols) as run:
        run.wait_for("Score: 0")
        assert says_help_and_quit(footer(run)), run.text()
        for direction in [Direction.LEFT, Direction.UP, Direction.RIGHT, Direction.DOWN] * 200:
            if model.over:
                break
            if model.slide(direction).changed:
                run.press(direction.value)
        run.wait_for("Game over")
        assert says_help_and_quit(panel(run)), run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_sokoban_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    level = tmp_path / "one.txt"
    level.write_text(LEVEL)
    with program(driver, ["sokoban", str(level)], tmp_path, 12, 44) as run:
        run.wait_for("moves 0")
        assert says_help_and_quit(footer(run)), run.text()
        run.press("right", "right", "right")
        run.wait_for("Solved level 1")
        assert says_help_and_quit(panel(run)), run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_maze_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    maze = generate(3, 2, random.Random(2))
    with program(driver, ["maze", "--size", "3x2", "--seed", "2"], tmp_path, 8, 40) as run:
        run.wait_for("steps 0")
        assert says_help_and_quit(footer(run)), run.text()
        run.press(*maze_keys(shortest_path(maze, maze.entrance)))
        run.wait_for("You made it out!")
        assert says_help_and_quit(panel(run)), run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_reversi_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    args = ["reversi", "--ai", "random", "--first", "you", "--seed", "5", "--ascii"]
    rng, match = random.Random(5), Match(Player.X)
    with program(driver, args, tmp_path, 16, 44) as run:
        run.wait_for("You move first.")
        assert says_help_and_quit(footer(run)), run.text()
        while not match.over:
            if match.turn is Player.O:
                match.play(rng.choice(match.position.move_list()))
                continue
            square = match.position.move_list()[0]
            match.play(square)
            run.press(*square_name(square))
            run.wait_for(f"You played {square_name(square)}")
        x, o = match.position.score()
        run.wait_for(f"X {x}  O {o}")
        assert says_help_and_quit(panel(run)), run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_launcher_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    with program(driver, [], tmp_path, 9, 40) as run:
        run.wait_for("Sokoban")
        assert says_help_and_quit(footer(run)), run.text()
