"""The maze screen: the shortest path stays while walked, a helped maze says so in the
header, and a maze larger than the window marks the edges that hide more of it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from tests.harness.drivers import DRIVERS, Driver, fake_program, program
from tests.harness.screens import fork, maze_keys


def stars(run: Driver) -> int:
    """Squares of the path on screen (each is two '*'; the exit keeps its '>>')."""
    return run.text().count("*") // 2


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_path_stays_trimmed_while_walked_and_p_hides_it(driver: str,
                                                            tmp_path: Path) -> None:
    maze = generate(10, 5, random.Random(1))
    path = shortest_path(maze, maze.entrance)
    keys = maze_keys(path)
    place, beside = fork(maze, path)
    with program(driver, ["maze", "--size", "10x5", "--seed", "1"], tmp_path) as run:
        run.wait_for("steps 0")
        run.press("p")
        run.wait_for(f"Shortest path from here: {len(keys)} steps.")
        assert stars(run) == len(path) - 2  # less the walker's square and the exit
        run.press(*keys[:place])
        run.wait_for(f"steps {place}")
        run.wait_until(lambda: stars(run) == len(path) - 2 - place, "the path trimmed")
        run.press(*maze_keys([path[place], beside]))  # off it, into a side branch
        run.wait_for(f"steps {place + 1}")
        # Still shown, from the square left: that square is a '*' again.
        run.wait_until(lambda: stars(run) == len(path) - 1 - place, "the path kept")
        run.press("p")
        run.wait_for("Path hidden")
        run.wait_until(lambda: stars(run) == 0, "the path hidden")
        run.press("p")  # again: from where the walker is now
        run.wait_for(f"Shortest path from here: {len(keys) - place + 1} steps.")
        run.press(*maze_keys([beside, path[place]]))
        run.wait_for(f"steps {place + 2}")
        run.wait_until(lambda: stars(run) == len(path) - 2 - place, "the new path trimmed")
        run.press(".")  # the solver's path, when its animation ends, stays the same way
        run.wait_for(f"Shortest path from here: {len(keys) - place} steps.")
        run.press(*keys[place:place + 3])
        run.wait_for(f"steps {place + 5}")
        run.wait_until(lambda: stars(run) == len(path) - 5 - place, "the solver's path trimmed")
        run.press("q")
        assert run.finish() == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_helped_maze_says_so_from_the_first_frame_of_a_later_session(
        driver: str, tmp_path: Path) -> None:
    args = ["maze", "--size", "10x5", "--seed", "1"]
    with program(driver, args, tmp_path) as run:
        run.wait_for("steps 0")
        assert "(helped)" not in run.text()
        run.press("p")
        run.wait_for("time 0:00.0 (helped)")
        run.press("q")
        assert run.finish() == 0
    with program(driver, args, tmp_path) as run:
        run.wait_for("steps 0")
        run.wait_for("steps 0   time 0:00.0 (helped)")  # no key pressed
        run.press("q")
        assert run.finish() == 0
    with program(driver, ["maze", "--size", "10x5", "--seed", "2"], tmp_path) as run:
        run.wait_for("steps 0")  # another maze: not helped
        assert "(helped)" not in run.text()
        run.press("q")
        assert run.finish() == 0


def test_a_narrow_window_keeps_the_helped_mark(tmp_path: Path) -> None:
    with fake_program(["maze", "--size", "200x200", "--seed", "1"], tmp_path,
                      rows=8, cols=40) as run:
        run.wait_for("Maze 200x200   steps 0   time 0:00.0")
        run.press(".")
        run.wait_for("Shortest path from here")
        header = run.text().splitlines()[0].strip()
        assert header == "steps 0   time 0:00.0 (helped)"


def edges(text: str) -> dict[str, bool]:
    """Which edge marks an 80x24 maze screen shows, each where it belongs: above and
    below the map (rows 1 and 22), in the outer columns beside it."""
    lines = [line.ljust(80) for line in text.splitlines()]
    return {"above": "more" in lines[1], "below": "more" in lines[22],
            "left": any(line[0] in "◀<" for line in lines[2:22]),
            "right": any(line[79] in "▶>" for line in lines[2:22])}


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_maze_larger_than_the_window_marks_the_edges_that_hide_more(
        driver: str, tmp_path: Path) -> None:
    maze = generate(200, 200, random.Random(1))
    keys = maze_keys(shortest_path(maze, maze.entrance))
    with program(driver, ["maze", "--size", "200x200", "--seed", "1"], tmp_path) as run:
        run.wait_for("steps 0")
        run.wait_for("▼ more")
        assert edges(run.text()) == {"above": False, "below": True, "left": False,
                                     "right": True}
        lines = [line.ljust(80) for line in run.text().splitlines()]
        # The map keeps clear of the marks' room: row 1, row 22, two columns each side.
        assert not lines[1].strip() and lines[22].strip() == "▼ more"
        assert all(not line[:2].strip() and line[78] == " " for line in lines[2:22])
        run.press(*keys[:300])
        run.wait_for("steps 300")
        run.wait_until(lambda: all(edges(run.text()).values()), "a mark on every edge")
        assert "▲ more" in run.text() and "◀" in run.text() and "▶" in run.text()
        run.press("q")
        assert run.finish() == 0


def test_the_marks_have_ascii_forms_and_a_maze_that_fits_has_none(tmp_path: Path) -> None:
    maze = generate(200, 200, random.Random(1))
    keys = maze_keys(shortest_path(maze, maze.entrance))
    with fake_program(["maze", "--size", "200x200", "--seed", "1", "--ascii"],
                      tmp_path) as run:
        run.wait_for("steps 0")
        run.press(*keys[:300])
        assert all(edges(run.text()).values())
        assert "^ more" in run.text() and "v more" in run.text()
    with fake_program(["maze", "--seed", "1"], tmp_path) as run:  # sized to fit
        run.wait_for("steps 0")
        assert edges(run.text()) == dict.fromkeys(("above", "below", "left", "right"), False)


def map_rows(text: str) -> list[str]:
    """The map as drawn: every row with a wall in it, stripped."""
    return [line.strip() for line in text.splitlines() if "█" in line or "#" in line]


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_fit_maze_started_in_a_small_window_grows_with_it(driver: str,
                                                           tmp_path: Path) -> None:
    """The report's UX 1: started at 30x8 ('enlarge to'), then enlarged to 80x24, it stayed
    a 7x2 maze. Untouched, it is the maze the same seed gives at the new size."""
    with program(driver, ["maze", "--seed", "3"], tmp_path / "big", 24, 80) as there:
        there.wait_until(lambda: len(map_rows(there.text())) == 2 * 10 + 1, "the whole map")
        wanted = map_rows(there.text())
    with program(driver, ["maze", "--seed", "3"], tmp_path / "small", 8, 30) as run:
        run.wait_for("enlarge to")
        run.resize(24, 80)
        run.wait_for("Maze 19x10   steps 0")
        run.wait_until(lambda: map_rows(run.text()) == wanted, "the seed's 19x10 maze")


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_new_fit_maze_fits_the_window_as_it_is_then(driver: str, tmp_path: Path) -> None:
    maze = generate(19, 10, random.Random(3))
    with program(driver, ["maze", "--seed", "3"], tmp_path, 24, 80) as run:
        run.wait_for("Maze 19x10")
        run.press(maze_keys(shortest_path(maze, maze.entrance))[0])
        run.wait_for("steps 1")
        run.resize(60, 200)
        run.wait_for("Maze 19x10   steps 1")  # a walk under way keeps its maze
        run.press("n")
        run.wait_for("Start a new maze?")
        run.press("y")
        run.wait_for("Maze 49x28   steps 0")
