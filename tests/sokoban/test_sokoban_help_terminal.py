"""Sokoban that helps (issue 14), through the real program on a pty: the hint marks the
next push and a second press makes it, the replay plays on until a key stops it, pushes
into a corner (or into a lost position) are warned about, dead squares show on x, and a
solve that was helped is marked in the level list and in ``termgames scores``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness.boards import ROOM, level_file
from tests.harness.drivers import DRIVERS, Driver, program
from tests.harness.screens import nothing_cut
from tests.harness.terminal import Start, Terminal, base_environment

LONG = "\n".join(["#" * 17, "#@" + " " * 14 + "#", "# $" + " " * 11 + ". #",
                  "#" + " " * 15 + "#", "#" * 17, ""])
"""A box pushed twelve squares to its goal: a replay long enough to stop part-way."""
LOST = "#####\n#  .#\n#.$ #\n#$ ##\n#@  #\n#####\n"  # lost once pushed up
"""The player can only push the box away from its goal: nothing cheap shows it lost."""
CORNER = ("right", "right", "right", "down", "left", "left")
"""Round the box in ROOM, then two pushes left, against a wall with no goal."""
ARROWS = {"up": ("▲", "^"), "down": ("▼", "v"), "left": ("◀", "<"), "right": ("▶", ">")}
HINT_BG = "af00af"  # xterm 127, the hinted box's ground


def counts(term: Driver | Terminal) -> tuple[int, int]:
    """(moves, pushes) as the header shows them."""
    found = re.search(r"moves (\d+)\s+pushes (\d+)", term.text())
    assert found is not None, term.text()
    return int(found[1]), int(found[2])


def board_rows(term: Driver | Terminal) -> list[str]:
    """The rows between the header and the footer."""
    return term.lines()[2:-1]


def hinted_direction(term: Terminal) -> str:
    term.wait_for("Next push: the marked box")
    found = re.search(r"the marked box (up|down|left|right)", term.text())
    assert found is not None, term.text()
    return found[1]


def test_a_hint_marks_the_box_and_its_way_and_a_second_t_pushes_it(
        terminal: Start, tmp_path: Path) -> None:
    term = terminal("sokoban", level_file(tmp_path, ROOM))
    term.wait_for("moves 0")
    term.press("t")
    direction = hinted_direction(term)
    assert any(ARROWS[direction][0] in row for row in board_rows(term)), term.text()
    boxes = [char for row in term.screen.buffer.values() for char in row.values()
             if char.data == "┌"]
    assert [box.bg for box in boxes] == [HINT_BG], [box.bg for box in boxes]
    assert "(helped)" in term.text()  # the hint has been seen: this solve is helped
    term.press("t")
    term.wait_for("pushes 1")
    assert not any(ARROWS[direction][0] in row for row in board_rows(term)), term.text()
    moves, _ = counts(term)
    assert moves >= 1
    term.press("u")  # the walk and the push were one step
    term.wait_for("moves 0   pushes 0")


def test_the_hint_in_ascii_and_without_colour(terminal: Start, tmp_path: Path) -> None:
    term = terminal("sokoban", "--ascii", "--no-color", level_file(tmp_path, ROOM))
    term.wait_for("moves 0")
    term.press("t")
    direction = hinted_direction(term)
    assert any(ARROWS[direction][1] * 2 in row for row in board_rows(term)), term.text()
    corners = [char for row in term.screen.buffer.values() for char in row.values()
               if char.data == "+"]
    # The one box, marked by an underline; reverse video would say it stands on a goal.
    assert corners and all(char.underscore and not char.reverse for char in corners), term.text()
    assert all(char.bg == "default" for char in corners)
    term.press("x")
    term.wait_for("Dead squares marked")
    assert sum(row.count("x") for row in board_rows(term)) >= 5, term.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_replay_plays_on_until_a_key_stops_it_and_undo_takes_it_back(
    driver: str, tmp_path: Path
) -> None:
    with program(driver, ["sokoban", level_file(tmp_path, LONG)], tmp_path) as run:
        run.wait_for("moves 0")
        run.press("v")
        run.wait_for("Solving from here: any key stops it")
        run.wait_for("pushes 2")
        run.press("space")  # any key: it stops, and does nothing else
        run.wait_for("Stopped: u undoes the replay a push at a time")
        moves, pushes = counts(run)
        assert 2 <= pushes < 12, run.text()
        run.press("u")  # one push (and the walk to it) at a time
        run.wait_for(f"pushes {pushes - 1}")
        assert counts(run)[0] < moves
        run.press("v")
        run.wait_for("Solved level 1!")
        run.wait_for("first solution, helped")


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_box_pushed_into_a_corner_is_warned_about_and_undo_offered(
    driver: str, tmp_path: Path
) -> None:
    with program(driver, ["sokoban", level_file(tmp_path, ROOM)], tmp_path) as run:
        run.wait_for("moves 0")
        run.press(*CORNER)
        run.wait_for("That box can never reach a goal from there: u undoes it")
        assert counts(run) == (6, 2)
        run.press("t")
        run.wait_for("No hint: that box can never reach a goal from there (u undoes it)")
        run.press("u")
        run.wait_for("moves 5   pushes 1")
        assert "never reach" not in run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_position_a_search_proves_lost_is_warned_about(driver: str, tmp_path: Path) -> None:
    with program(driver, ["sokoban", level_file(tmp_path, LOST)], tmp_path) as run:
        run.wait_for("moves 0")
        run.press("up")
        run.wait_for("This position cannot be solved: u undoes the last push")


@pytest.mark.parametrize("driver", DRIVERS)
def test_dead_squares_show_and_hide_on_x(driver: str, tmp_path: Path) -> None:
    with program(driver, ["sokoban", level_file(tmp_path, ROOM)], tmp_path) as run:
        run.wait_for("moves 0")
        assert "×" not in run.text()
        run.press("x")
        run.wait_for("Dead squares marked: a box pushed onto one never reaches a goal")
        # The left wall's square below the start (the start is one too, under the player),
        # and the whole bottom row.
        assert sum(row.count("×") for row in board_rows(run)) == 6, run.text()
        run.press("x")
        run.wait_for("Dead squares hidden")
        assert "×" not in run.text()
        run.press("?")
        run.wait_for("show or hide dead squares")
        assert "hint: mark the next push; again, make it (helped)" in run.text()


def test_a_helped_solve_is_marked_in_the_level_list_and_the_scores(
        terminal: Start, tmp_path: Path) -> None:
    path = level_file(tmp_path, ROOM + "\n" + LONG)
    term = terminal("sokoban", path)
    term.wait_for("moves 0")
    term.press("v")
    term.wait_for("Solved level 1!")
    term.press("tab")
    term.wait_for("1 of 2 solved, 1 with help")
    term.wait_until(lambda: re.search(r"✓ +1 .*pushes? \(helped\)", term.text()) is not None,
                    "level 1's row marked helped")
    term.press("q", "q")
    assert term.wait_exit() == 0
    scores = subprocess.run([sys.executable, "-m", "termgames", "scores", "sokoban"],
                            capture_output=True, text=True, check=True,
                            env=base_environment(tmp_path))
    lines = scores.stdout.splitlines()
    assert any(re.fullmatch(r"\s*tester\s+\S*levels\.txt\s+1\s+1", line) for line in lines), \
        scores.stdout
    row = next(line for line in lines if re.match(r"\s+1\s", line))
    assert row.rstrip().endswith("helped"), scores.stdout


@pytest.mark.parametrize("size", [(12, 44), (24, 80), (60, 200)])
@pytest.mark.parametrize("driver", DRIVERS)
def test_help_messages_fit_or_end_in_a_mark(
    driver: str, tmp_path: Path, size: tuple[int, int]
) -> None:
    rows, cols = size
    with program(driver, ["sokoban", level_file(tmp_path, ROOM)], tmp_path, rows, cols) as run:
        run.wait_for("moves 0")
        run.press("t")
        run.wait_for("Next push")
        nothing_cut(run, cols, "the hint")
        run.press("t", "u", "x")
        run.wait_for("Dead squares")
        nothing_cut(run, cols, "dead squares")
        run.press(*CORNER)
        run.wait_for("u undoes it")
        nothing_cut(run, cols, "the warning")
