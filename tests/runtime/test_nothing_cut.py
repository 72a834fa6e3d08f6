"""Nothing is cut without a sign (issue 13): at each screen's advertised minimum size
(what its "enlarge the window" message asks for), every header, footer, help line and
panel is shown whole, shortened with an ellipsis, or wrapped.

In memory, the canvas records any text it had to clip at the window's edge, over every
frame. On the pty, where only the screen is visible, the rows that are text (header,
footer, the rows of a panel) must not run into the last column unless they end in the
ellipsis or a panel's frame.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from termgames.runtime.runner import window_for
from termgames.sokoban.format.bundled import BUNDLED, load_bundled
from termgames.sokoban.progress import Record, record_solution
from tests.harness.drivers import DRIVERS, fake_program, program
from tests.harness.screens import maze_keys, nothing_cut
from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at

LEVEL = ("Title: A level whose title is far too long for a small window\n"
         "Author: Somebody with a long name as well\n#######\n#@ $ .#\n#######\n")


def advertised(args: list[str], tmp_path: Path) -> tuple[int, int]:
    """The window size the screen ``termgames ARGS`` opens asks for at least."""
    with fake_program(args, tmp_path / "probe") as run:
        return window_for(run.runner.stack[-1].min_size())


def with_level(tmp_path: Path) -> str:
    level = tmp_path / "long.txt"
    level.write_text(LEVEL)
    return str(level)


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("size", ["3", "4"])
def test_2048(driver: str, size: str, tmp_path: Path) -> None:
    args = ["2048", "--size", size, "--seed", "3"]
    rows, cols = advertised(args, tmp_path)
    with program(driver, args, tmp_path, rows, cols) as run:
        run.wait_for("0")
        nothing_cut(run, cols, "the game")
        run.press("?")
        run.wait_for("keys")
        nothing_cut(run, cols, "help")
        run.press("esc", "left", "up", "right", "down", "r")
        run.wait_for("Start a new game?")
        nothing_cut(run, cols, "the question")
        run.press("n")
        run.wait_for_gone("Start a new game?")


@pytest.mark.parametrize("driver", DRIVERS)
def test_sokoban(driver: str, tmp_path: Path) -> None:
    args = ["sokoban", with_level(tmp_path)]
    rows, cols = advertised(args, tmp_path)
    with program(driver, args, tmp_path, rows, cols) as run:
        run.wait_for("moves 0")
        nothing_cut(run, cols, "the game")
        run.press("?")
        run.wait_for("keys")
        nothing_cut(run, cols, "help")
        run.press("esc", "tab")
        run.wait_for("0 of 1 solved")
        nothing_cut(run, cols, "the level list")
        run.press("esc", "right", "right", "right")
        run.wait_for("Solved")
        nothing_cut(run, cols, "the solved panel")


@pytest.mark.parametrize("driver", DRIVERS)
def test_sokoban_collections(driver: str, tmp_path: Path) -> None:
    rows, cols = advertised(["sokoban"], tmp_path)
    with program(driver, ["sokoban"], tmp_path, rows, cols) as run:
        run.wait_for("Microban")
        nothing_cut(run, cols, "the collection menu")


@pytest.mark.parametrize("driver", DRIVERS)
def test_maze(driver: str, tmp_path: Path) -> None:
    args = ["maze", "--size", "3x2", "--seed", "2"]
    maze = generate(3, 2, random.Random(2))
    keys = maze_keys(shortest_path(maze, maze.entrance))
    rows, cols = advertised(args, tmp_path)
    with program(driver, args, tmp_path, rows, cols) as run:
        run.wait_for("steps 0")
        nothing_cut(run, cols, "the game")
        run.press(keys[0], "p")
        run.wait_for("Shortest path")
        nothing_cut(run, cols, "the game with a message")
        run.press("n")
        run.wait_for("Start a new maze?")
        nothing_cut(run, cols, "the question")
        run.press("n", "?")
        run.wait_for("keys")
        nothing_cut(run, cols, "help")
        run.press("esc", *keys[1:])
        run.wait_for("You made it out!")
        nothing_cut(run, cols, "the result")


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("mode", [["--first", "you"], ["--watch"]])
def test_reversi(driver: str, mode: list[str], tmp_path: Path) -> None:
    args = ["reversi", "--ai", "random", "--seed", "5", *mode]
    rows, cols = advertised(args, tmp_path)
    with program(driver, args, tmp_path, rows, cols) as run:
        run.wait_for("X")
        nothing_cut(run, cols, "the game")
        run.press("?")
        run.wait_for("keys")
        nothing_cut(run, cols, "help")
        run.press("esc")
        if "--watch" in mode:
            return
        run.press("5", "3")
        run.wait_for("You played 53")
        run.press("r")
        run.wait_for("Start a new game?")
        nothing_cut(run, cols, "the question")


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_launcher(driver: str, tmp_path: Path) -> None:
    rows, cols = advertised([], tmp_path)
    with program(driver, [], tmp_path, rows, cols) as run:
        run.wait_for("Sokoban")
        nothing_cut(run, cols, "the menu")
        run.press("?")
        run.wait_for("keys")
        nothing_cut(run, cols, "help")


def with_records(data: Path) -> None:
    """A record in every game, and Sokoban progress in every bundled collection: the
    launcher's longest lines of bests."""
    store = store_at(data)
    for entry in BUNDLED:
        for number, level in enumerate(load_bundled(entry).levels[:2], 1):
            record_solution(store, SOKOBAN_PROGRESS,
                            PLAYER, level.key, Record(30, 8, "x", entry.title, number, ""))
    store.record_score("a", "2048", "4x4 to 2048", 123_456, player="p")
    store.record_score("b", "maze", "31x11", 754, player="p")
    store.record_score("c", "reversi", "vs corner-best", 40, player="p")
    store.close()


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("cols", [None, 52, 64])
def test_the_launcher_with_a_record_in_every_game(driver: str, cols: int | None,
                                                   tmp_path: Path) -> None:
    """The best column is what is cut last, and then with a mark."""
    rows, least = advertised([], tmp_path)
    cols = cols or least
    with_records(tmp_path / "data")
    with program(driver, [], tmp_path, rows, cols) as run:
        run.wait_for("of 155")
        nothing_cut(run, cols, "the menu")
        menu = [line.rstrip() for line in run.text().splitlines()]
        for title in ("2048", "Sokoban", "Reversi", "Maze"):
            line = next(line for line in menu if title in line)
            assert line[-1:] != " " and (line.endswith("…") or line[-1].isalnum()
                                         or line[-1] in ")"), (title, menu)
