"""Sokoban as people expect it (issue 13), through the real program on a pty: the mouse
walks and pushes, restart and level changes lose nothing, the bundled collections are
named and reached without a path, and the level's edges say when more lies beyond."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from termgames.sokoban.format.bundled import levels_folder
from tests.harness.boards import ROOM, level_file
from tests.harness.drivers import DRIVERS, program
from tests.harness.screens import sokoban_geometry
from tests.harness.terminal import Start, Terminal, base_environment

TWO = "; One\n#####\n#@$.#\n#####\n\n; Two\n######\n#@ $.#\n######\n"


def click_square(term: Terminal, shape: tuple[int, int, int, int], square: tuple[int, int]
                 ) -> None:
    top, left, cell_h, cell_w = shape
    term.click(top + square[0] * cell_h + cell_h // 2, left + square[1] * cell_w + 1)


def test_a_click_walks_the_shortest_way_and_one_undo_takes_it_back(
        terminal: Start, tmp_path: Path) -> None:
    term = terminal("sokoban", level_file(tmp_path, ROOM))
    term.wait_for("moves 0")
    shape = sokoban_geometry(term, 5, 7)
    click_square(term, shape, (3, 2))  # round nothing: two down, one right
    term.wait_for("moves 3   pushes 0")
    click_square(term, shape, (2, 3))  # a box: chosen, nobody moves
    click_square(term, shape, (0, 0))  # a wall: the choice is dropped
    click_square(term, shape, (1, 4))
    term.wait_for("moves 7   pushes 0")  # walked round the box, not through it
    term.press("u")
    term.wait_for("moves 3   pushes 0")
    term.press("u")
    term.wait_for("moves 0   pushes 0")


def test_a_click_on_a_box_then_a_square_pushes_it_there(terminal: Start,
                                                         tmp_path: Path) -> None:
    term = terminal("sokoban", level_file(tmp_path, ROOM))
    term.wait_for("moves 0")
    shape = sokoban_geometry(term, 5, 7)
    # Both clicks are sent at once, as when the program was busy: ncurses hands such
    # events out newest first, and both must still be taken, in order.
    click_square(term, shape, (2, 3))
    click_square(term, shape, (1, 5))  # two pushes right, one up
    term.wait_for("Solved level 1!")
    assert re.search(r"pushes 3\b", term.text()), term.text()
    term.press("u")  # the whole push path is one step back
    term.wait_for("moves 0   pushes 0")


def test_a_box_that_cannot_go_there_says_so(terminal: Start, tmp_path: Path) -> None:
    stuck = "#######\n#@    #\n#$   .#\n#######\n"  # the box is in a corner for good
    term = terminal("sokoban", level_file(tmp_path, stuck))
    term.wait_for("moves 0")
    shape = sokoban_geometry(term, 4, 7)
    click_square(term, shape, (2, 1))
    click_square(term, shape, (2, 5))
    term.wait_for("That box cannot be pushed there")
    assert "moves 0" in term.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_restart_is_one_more_step_that_undo_takes_back(driver: str, tmp_path: Path) -> None:
    with program(driver, ["sokoban", level_file(tmp_path, ROOM)], tmp_path) as run:
        run.wait_for("moves 0")
        run.press("right", "down")
        run.wait_for("moves 2")
        run.press("r")
        run.wait_for("moves 0")
        run.press("u")
        run.wait_for("moves 2")
        run.press("U")
        run.wait_for("moves 0")


@pytest.mark.parametrize("driver", DRIVERS)
def test_l_walks_right_and_tab_opens_the_list(driver: str, tmp_path: Path) -> None:
    with program(driver, ["sokoban", level_file(tmp_path, ROOM)], tmp_path) as run:
        run.wait_for("moves 0")
        run.press("l")
        run.wait_for("moves 1")
        run.press("tab")
        run.wait_for("0 of 1 solved")
        run.press("tab")
        run.wait_for("moves 1")


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_next_level_and_back_keep_the_moves(driver: str, tmp_path: Path) -> None:
    with program(driver, ["sokoban", level_file(tmp_path, TWO)], tmp_path) as run:
        run.wait_for("level 1 (1 of 2) · One")
        run.press("right")  # solves level 1
        run.wait_for("Solved level 1")
        run.press("enter")
        run.wait_for("level 2 (2 of 2) · Two")
        run.press("right")
        run.wait_for("moves 1")
        run.press("p")
        run.wait_for("level 1 (1 of 2)")
        run.press("n")
        run.wait_for("level 2 (2 of 2)")
        run.wait_for("moves 1")  # as it was left
        run.press("n")  # the last level: said, not wrapped round to the first
        run.wait_for("That is the last level of levels (1 of 2 solved; Tab lists them)")
        assert "level 2 (2 of 2)" in run.text()
        run.press("right")
        run.wait_for("Solved level 2")
        run.wait_for("all 2 levels of levels are solved!")  # the last level's panel says so
        run.press("enter")  # and Enter opens the list, there being no next level
        run.wait_for("levels: 2 of 2 solved")


def test_a_bundled_level_by_collection_and_number(terminal: Start) -> None:
    term = terminal("sokoban", "--collection", "Microban", "--level", "10")
    term.wait_for("Microban · level 10 (10 of 155)")
    term.press("q")
    assert term.wait_exit() == 0


def test_an_unknown_collection_is_one_line_naming_the_choices(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "termgames", "sokoban", "--collection",
                             "nope"], capture_output=True, text=True,
                            env=base_environment(tmp_path))
    assert result.returncode == 2
    message = result.stderr.strip().splitlines()[-1]
    assert "nope" in message and "microban" in message and "starpusher" in message
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("driver", DRIVERS)
def test_star_pushers_sasquatch_levels_are_named_by_their_set(
    driver: str, tmp_path: Path
) -> None:
    args = ["sokoban", "--collection", "starpusher", "--level", "150"]
    with program(driver, args, tmp_path) as run:
        run.wait_for("Star Pusher · level 150 (150 of 201) · Sasquatch Set III · 49")
        run.press("tab")
        run.wait_for("Sasquatch Set III · 49")
        run.press("home")
        run.wait_for("Starting demo level")
        assert "::" not in run.text() and "level:" not in run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_edges_show_that_more_of_the_level_lies_beyond(driver: str, tmp_path: Path) -> None:
    wide = "#" * 60 + "\n#@" + " " * 55 + "$.#\n" + "#" * 60 + "\n"
    with program(driver, ["sokoban", level_file(tmp_path, wide)], tmp_path) as run:
        run.wait_for("moves 0")
        run.wait_until(lambda: "▶" in run.text(), "a mark on the right: more lies beyond")
        assert "◀" not in run.text()
        run.press(*["right"] * 40)
        run.wait_for("moves 40")
        run.wait_until(lambda: "◀" in run.text(), "a mark on the left once scrolled")


def run_check(tmp_path: Path, *paths: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "termgames", "sokoban", "--check", *paths],
                          capture_output=True, text=True, env=base_environment(tmp_path))


def test_check_on_the_bundled_folder_passes_over_what_is_not_a_level_file(
        tmp_path: Path) -> None:
    folder = levels_folder()
    names = {entry.name for entry in folder.iterdir()}
    assert {"CREDITS", "LICENSE-skinner-levels.txt"} <= names
    result = run_check(tmp_path, str(folder))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "356 levels OK\n"


@pytest.mark.parametrize("extra", [[], ["README", "notes.txt"]])
def test_check_or_play_on_a_folder_without_levels_says_so(tmp_path: Path,
                                                        extra: list[str]) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    for name in extra:
        (folder / name).write_text("Nothing to see here.\n")
    checked = run_check(tmp_path, str(folder))
    assert checked.returncode == 2
    assert checked.stderr.strip().endswith("no levels found"), checked.stderr
    played = subprocess.run([sys.executable, "-m", "termgames", "sokoban", str(folder)],
                            capture_output=True, text=True, env=base_environment(tmp_path))
    assert played.returncode == 2
    assert played.stderr.strip().splitlines() == [
        f"termgames: {folder}: no level files in this folder"], played.stderr


@pytest.mark.parametrize("driver", DRIVERS)
def test_counts_of_one_read_in_the_singular(driver: str, tmp_path: Path) -> None:
    path = level_file(tmp_path, "#####\n#@$.#\n#####\n")
    checked = subprocess.run([sys.executable, "-m", "termgames", "sokoban", "--check", path],
                             capture_output=True, text=True, env=base_environment(tmp_path))
    assert checked.returncode == 0 and checked.stdout.strip() == "1 level OK", checked
    with program(driver, ["sokoban", path], tmp_path) as run:
        run.wait_for("moves 0")
        run.press("right")
        run.wait_for("1 move, 1 push: first solution!")
