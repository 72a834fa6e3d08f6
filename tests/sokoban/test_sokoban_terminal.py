"""Sokoban through the real program on a pty, and its command-line tools through CliRunner."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from termgames.cli import cli
from tests.harness.drivers import DRIVERS, program
from tests.harness.processes import run_with_tty_stdin
from tests.harness.terminal import Start, Terminal

TWO_LEVELS = """; First
#######
#@ $ .#
#######

; Second
######
#@$ .#
######
"""
BIG = "; Big\n" + "#" * 120 + "\n#@$" + " " * 115 + ".#\n" + "#" * 120 + "\n"


@pytest.fixture
def level_file(tmp_path: Path) -> Path:
    path = tmp_path / "two.txt"
    path.write_text(TWO_LEVELS)
    return path


def counters(term: Terminal) -> tuple[int, int]:
    found = re.search(r"moves (\d+)\s+pushes (\d+)", term.text())
    assert found, term.text()
    return int(found.group(1)), int(found.group(2))


def test_solve_a_level_by_keys_undo_there_and_go_on(terminal: Start, level_file: Path) -> None:
    term = terminal("sokoban", str(level_file))
    term.wait_for("level 1 (1 of 2)")
    term.wait_for("First")
    term.press("right")
    term.wait_for("moves 1   pushes 0")
    term.press("d", "right")
    term.wait_for("Solved level 1 ('First')!")
    term.wait_for("3 moves, 2 pushes: first solution!")
    term.press("u")
    term.wait_for_gone("Solved level 1")
    term.wait_for("moves 2   pushes 1")
    term.press("right")
    term.wait_for("Solved level 1")
    term.wait_for("3 moves, 2 pushes: your best stays 3 moves, 2 pushes")
    term.press("enter")
    term.wait_for("level 2 (2 of 2)")
    term.wait_for("Second")
    term.press("q")
    assert term.wait_exit() == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_undo_redo_restart_and_level_keys(driver: str, tmp_path: Path, level_file: Path) -> None:
    with program(driver, ["sokoban", str(level_file)], tmp_path) as run:
        run.wait_for("First")
        run.press("right", "right")
        run.wait_for("moves 2   pushes 1")
        run.press("u", "u")
        run.wait_for("moves 0   pushes 0")
        run.press("U")
        run.wait_for("moves 1   pushes 0")
        run.press("ctrl-r")
        run.wait_for("moves 2   pushes 1")
        run.press("r")
        run.wait_for("moves 0   pushes 0")
        run.press("n")
        run.wait_for("Second")
        run.press("p")
        run.wait_for("First")


def test_progress_lasts_across_runs_and_file_names(
    terminal: Start, level_file: Path, tmp_path: Path
) -> None:
    term = terminal("sokoban", str(level_file))
    term.wait_for("First")
    term.press("right", "right", "right")
    term.wait_for("Solved")
    term.press("q")
    assert term.wait_exit() == 0
    moved = tmp_path / "elsewhere" / "renamed.xsb"
    moved.parent.mkdir()
    level_file.rename(moved)
    term = terminal("sokoban", str(moved))
    term.wait_for("level 2 (2 of 2)")  # resumes at the first unsolved level
    term.press("tab")
    term.wait_for("renamed: 1 of 2 solved")
    term.wait_for("✓    1  First")
    term.wait_for("3 moves    2 pushes")
    term.press("up", "enter")
    term.wait_for("level 1 (1 of 2)")
    term.wait_for("best 3 moves, 2 pushes")
    result = CliRunner().invoke(cli, ["sokoban", "--export-solutions", str(moved)],
                                env={"TERMGAMES_HOME": str(tmp_path / "data")})
    assert result.exit_code == 0
    assert result.output == "; level 1\nTitle: First\nSolution: rRR\n\n"


def test_a_resize_mid_level_keeps_the_game(terminal: Start, level_file: Path) -> None:
    term = terminal("sokoban", str(level_file))
    term.wait_for("First")
    term.press("right")
    term.wait_for("moves 1")
    term.resize(8, 30)
    term.wait_for("enlarge to")
    term.resize(24, 80)
    term.wait_for("moves 1   pushes 0")
    term.press("right")
    term.wait_for("moves 2   pushes 1")


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_level_wider_than_the_terminal_scrolls_with_the_player(
    driver: str, tmp_path: Path
) -> None:
    path = tmp_path / "big.txt"
    path.write_text(BIG)
    with program(driver, ["sokoban", str(path)], tmp_path) as run:
        run.wait_for("Big")
        run.press(*["right"] * 60)
        run.wait_for("moves 60   pushes 60")
        row = next(line for line in run.lines() if "@@" in line)
        assert "@@[]" in row and not row.startswith("██  ")  # scrolled: the left wall is gone
        assert 20 <= row.index("@@") // 2 <= 60


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_bundled_collections_menu(driver: str, tmp_path: Path) -> None:
    with program(driver, ["sokoban"], tmp_path) as run:
        for name in ("Star Pusher", "Microban"):
            run.wait_for(name)
        lines = run.text().splitlines()
        first = [row for row, line in enumerate(lines) if "Microban" in line]
        second = [row for row, line in enumerate(lines) if "Star Pusher" in line]
        assert first[0] < second[0], "the beginners' set comes first"
        assert "Sasquatch" in run.text()  # named as part of Star Pusher ...
        assert not any(line.lstrip().startswith("Sasquatch") for line in lines)  # ... not its own
        run.press("enter")
        run.wait_for("Microban · level 1 (1 of 155)")


def test_check_reports_every_problem(tmp_path: Path, level_file: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("; One\n#####\n#@  #\n#####\n\n; Two\n#####\n#@$.#\n#####\n\n#@$.#\n")
    result = CliRunner().invoke(cli, ["sokoban", "--check", str(level_file), str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:2: level 1 ('One'): no goal" in result.output
    assert f"{bad}:11: level 3: not closed" in result.output
    good = CliRunner().invoke(cli, ["sokoban", "--check", str(level_file)])
    assert (good.exit_code, good.output) == (0, "2 levels OK\n")


def test_verify_replays_solutions(tmp_path: Path, level_file: Path) -> None:
    solutions = tmp_path / "solutions.txt"
    solutions.write_text("; level 1\nTitle: First\nSolution: rRR\n\nTitle: Second\n"
                         "Solution: RR\n\n; level 2\nSolution: R\n")
    result = CliRunner().invoke(cli, ["sokoban", "--verify", str(level_file),
                                      "--solutions", str(solutions)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "level 1 ('First'): solved in 3 moves, 2 pushes"
    assert lines[1] == "level 2 ('Second'): solved in 2 moves, 2 pushes"
    assert lines[2] == "level 2 ('Second'): does not solve it (boxes left off goals)"
    assert lines[3] == "2 of 3 solutions solve their level"


@pytest.mark.parametrize(("args", "message"), [
    (["sokoban", "missing.txt"], "missing.txt: no such file"),
    (["sokoban", "--level", "9", "LEVEL"], "no playable level '9'"),
])
def test_bad_files_and_levels_are_one_line_and_exit_2(
    tmp_path: Path, level_file: Path, args: list[str], message: str
) -> None:
    from tests.harness.terminal import base_environment

    args = [str(level_file) if arg == "LEVEL" else arg for arg in args]
    result = run_with_tty_stdin(args, base_environment(tmp_path))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


@pytest.mark.parametrize("driver", DRIVERS)
def test_bad_levels_are_skipped_with_a_notice(driver: str, tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("; Broken\n#####\n#@  #\n#####\n\n" + TWO_LEVELS)
    with program(driver, ["sokoban", str(path)], tmp_path) as run:
        run.wait_for("1 bad level skipped")
        run.wait_for("mixed.txt:2: level 1 ('Broken'): no goal")
        run.wait_for("level 2 (2 of 3)")  # a bad level keeps its place: row 2 is level 2
        run.press("p")
        run.wait_for("That is the first playable level of mixed (0 of 2 solved; Tab lists them)")
        run.press("tab")
        run.wait_for("mixed: 0 of 2 solved, 1 bad level")
        run.wait_for("✗    1  cannot be played: no goal")
        run.press("home", "enter")
        run.wait_for("Level 1 cannot be played: no goal")
        run.press("down", "enter")
        run.wait_for("level 2 (2 of 3)")


def test_levels_from_stdin_are_played_with_keys_from_the_terminal(
    terminal: Start, level_file: Path
) -> None:
    term = terminal("-c", f"exec {sys.executable} -m termgames sokoban - < {level_file}",
                    program=["sh"])
    term.wait_for("First")
    term.press("right", "right", "right")
    term.wait_for("Solved level 1")


def test_check_reads_stdin(level_file: Path) -> None:
    result = CliRunner().invoke(cli, ["sokoban", "--check", "-"], input=level_file.read_text())
    assert (result.exit_code, result.output) == (0, "2 levels OK\n")
