"""At each game's smallest size, the footer and every result panel still say how to get
help and how to quit, and a yes/no prompt how to get help and go back.

On the pty a frame arrives in pieces, so each check waits (with a deadline) for a footer
or a whole panel that says so, rather than reading the screen once."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from termgames.g2048.board import Direction, Game2048
from termgames.g2048.view import minimum_size
from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from termgames.reversi.board import Side, square_name
from termgames.reversi.match import Match
from termgames.runtime.runner import window_for
from tests.harness.drivers import DRIVERS, Driver, program
from tests.harness.screens import maze_keys

LEVEL = "#######\n#@ $ .#\n#######\n"


def says_help_and_quit(text: str, quit_word: str = "quit") -> bool:
    flat = " ".join(text.split())
    return "? help" in flat and f"q {quit_word}" in flat


def panels(text: str) -> list[str]:
    """The text inside each whole framed panel on screen: a top border, rows framed at
    the same columns, and a bottom border (a panel still being drawn has none)."""
    lines = text.splitlines()
    found: list[str] = []
    for top, line in enumerate(lines):
        for border in re.finditer(r"[┌+][─-]{3,}[┐+]", line):
            left, right = border.start(), border.end()
            inside: list[str] = []
            for below in lines[top + 1:]:
                row = below[left:right]
                if len(row) == right - left and re.fullmatch(r"[└+][─-]+[┘+]", row):
                    found.append("\n".join(inside))
                    break
                if len(row) != right - left or row[0] not in "│|" or row[-1] not in "│|":
                    break
                inside.append(row[1:-1])
    return found


def footer(text: str) -> str:
    """The bottom line of text on screen."""
    return ([line for line in text.splitlines() if line.strip()] or [""])[-1]


def wait_for_footer(run: Driver) -> None:
    """Until the footer is drawn in full and names ? help and q quit: a frame still being
    drawn on the pty can have anything on its lowest line, so only a deadline fails."""
    run.wait_until(lambda: says_help_and_quit(footer(run.text())),
                   "a footer with ? help and q quit")


def wait_for_panel(run: Driver, quit_word: str = "quit") -> None:
    """Until a whole panel is on screen that names ? help and q quit (q back on a yes/no
    prompt, where q goes back to the game)."""
    run.wait_until(lambda: any(says_help_and_quit(inside, quit_word)
                               for inside in panels(run.text())),
                   f"a whole panel with ? help and q {quit_word}")


@pytest.mark.parametrize("driver", DRIVERS)
def test_2048_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    rows, cols = window_for(minimum_size(3))
    model = Game2048(3, 1024, random.Random(3))
    with program(driver, ["2048", "--size", "3", "--seed", "3"], tmp_path, rows, cols) as run:
        run.wait_for("Score: 0")
        wait_for_footer(run)
        for direction in [Direction.LEFT, Direction.UP, Direction.RIGHT, Direction.DOWN] * 200:
            if model.over:
                break
            if model.slide(direction).changed:
                run.press(direction.word)
        run.wait_for("Game over")
        wait_for_panel(run)


@pytest.mark.parametrize("driver", DRIVERS)
def test_sokoban_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    level = tmp_path / "one.txt"
    level.write_text(LEVEL)
    with program(driver, ["sokoban", str(level)], tmp_path, 12, 44) as run:
        run.wait_for("moves 0")
        wait_for_footer(run)
        run.press("right", "right", "right")
        run.wait_for("Solved level 1")
        wait_for_panel(run)


@pytest.mark.parametrize("driver", DRIVERS)
def test_maze_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    maze = generate(3, 2, random.Random(2))
    with program(driver, ["maze", "--size", "3x2", "--seed", "2"], tmp_path, 8, 40) as run:
        run.wait_for("steps 0")
        wait_for_footer(run)
        run.press(*maze_keys(shortest_path(maze, maze.entrance)))
        run.wait_for("You made it out!")
        wait_for_panel(run)


@pytest.mark.parametrize("driver", DRIVERS)
def test_reversi_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    args = ["reversi", "--ai", "random", "--first", "you", "--seed", "5", "--ascii"]
    rng, match = random.Random(5), Match(Side.X)
    with program(driver, args, tmp_path, 16, 44) as run:
        run.wait_for("You move first.")
        wait_for_footer(run)
        while not match.over:
            if match.turn is Side.O:
                match.play(rng.choice(match.position.move_list()))
                continue
            square = match.position.move_list()[0]
            match.play(square)
            run.press(*square_name(square))
            run.wait_for(f"You played {square_name(square)}")
        x, o = match.position.score()
        run.wait_for(f"X {x}  O {o}")
        wait_for_panel(run)


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_launcher_at_its_minimum_size(driver: str, tmp_path: Path) -> None:
    with program(driver, [], tmp_path, 9, 40) as run:
        run.wait_for("Sokoban")
        wait_for_footer(run)


def first_move_2048() -> list[str]:
    model = Game2048(3, 1024, random.Random(3))
    return [next(d.word for d in Direction if model.slide(d).changed)]


def first_step_in_maze() -> list[str]:
    maze = generate(3, 2, random.Random(2))
    return maze_keys(shortest_path(maze, maze.entrance))[:1]


# What starts each game at its smallest size, what shows it is up, and a first move (a
# game under way asks before r throws it away).
UNDER_WAY = {
    "2048": (["2048", "--size", "3", "--seed", "3"], window_for(minimum_size(3)), "Score: 0",
             first_move_2048),
    "maze": (["maze", "--size", "3x2", "--seed", "2"], (8, 40), "steps 0",
             first_step_in_maze),
    "reversi": (["reversi", "--ai", "random", "--first", "you", "--seed", "5", "--ascii"],
                (16, 44), "You move first.", lambda: ["5", "3"]),
}


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("game", sorted(UNDER_WAY))
def test_a_yes_no_prompt_at_the_minimum_size_says_help_and_q_back(
    game: str, driver: str, tmp_path: Path,
) -> None:
    args, (rows, cols), started, first_move = UNDER_WAY[game]
    with program(driver, args, tmp_path, rows, cols) as run:
        run.wait_for(started)
        run.press(*first_move(), "r")
        wait_for_panel(run, "back")
        run.press("n")
        run.wait_for_gone("y yes")
        wait_for_footer(run)
