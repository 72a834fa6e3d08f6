"""The command line outside curses: one-line errors, exit statuses, scores, help, version."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from termgames import __version__
from termgames.cli import cli
from termgames.store.sqlite import DATABASE_NAME
from tests.harness.processes import run_with_tty_stdin
from tests.harness.stores import store_at
from tests.harness.terminal import Start, base_environment


def assert_one_line_error(stderr: str, *needles: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    for needle in needles:
        assert needle in lines[0]


def test_piped_stdout_is_refused_in_one_line(tmp_path: Path) -> None:
    result = run_with_tty_stdin(["2048"], base_environment(tmp_path))
    assert result.returncode == 1
    assert_one_line_error(result.stderr, "standard output is not a terminal")


@pytest.mark.parametrize("term", ["dumb", "unknown"])
def test_an_unusable_term_is_refused_in_one_line(terminal: Start, term: str) -> None:
    session = terminal("2048", term=term)
    assert session.wait_exit() == 1
    output = bytes(session.received).decode()
    assert output.count("\n") == 1 and f"TERM={term}" in output
    assert [line for line in session.lines() if line] == [output.strip()]
    assert "Traceback" not in output


def test_no_term_at_all_is_refused_in_one_line(tmp_path: Path) -> None:
    env = base_environment(tmp_path)
    del env["TERM"]
    controller, tty = os.openpty()
    try:
        result = subprocess.run([sys.executable, "-m", "termgames", "2048"], stdin=tty,
                                stdout=tty, stderr=subprocess.PIPE, text=True, env=env,
                                timeout=30)
    finally:
        os.close(controller)
        os.close(tty)
    assert result.returncode == 1
    assert_one_line_error(result.stderr, "TERM is not set")


def test_an_unknown_option_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = run_with_tty_stdin(["2048", "--bogus"], base_environment(tmp_path))
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "--bogus", "termgames 2048 --help")


@pytest.mark.parametrize("args", [["2048", "--size", "9"], ["2048", "--goal", "100"],
                                  ["nosuchgame"], ["scores", "nosuchgame"]])
def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    result = run_with_tty_stdin(args, base_environment(tmp_path))
    assert result.returncode == 2
    assert_one_line_error(result.stderr)


def test_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


@pytest.mark.parametrize("command", [[], ["2048"], ["scores"]])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_command_has_help(command: list[str], flag: str) -> None:
    result = CliRunner().invoke(cli, [*command, flag])
    assert result.exit_code == 0
    assert result.output.startswith("Usage: ")


def command_paths(group: click.Group) -> list[list[str]]:
    """Every command of the arcade, by the words that name it (the group makes its
    commands when asked)."""
    context = click.Context(group)
    paths: list[list[str]] = [[]]
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if isinstance(command, click.Group):
            paths += [[name, *path] for path in command_paths(command)]
        else:
            paths.append([name])
    return paths


def test_every_default_reads_as_one_of_its_choices() -> None:
    """The report's polish: `--you [x|o]  [default: X]`."""
    paths = command_paths(cli)
    assert ["reversi", "simulate"] in paths and ["sokoban"] in paths
    for path in paths:
        output = CliRunner().invoke(cli, [*path, "--help"]).output
        for line in output.splitlines():
            found = re.match(r"\s+(--[\w-]+)(?:,\s*-\w)?\s+\[?([\w|-]+?)\]?\s+.*"
                             r"\[default: ([^\]]+)\]", line)
            if found and "|" in found.group(2):
                option, choices, default = found.groups()
                assert default in choices.split("|"), f"{' '.join(path)} {option}: {line}"


def test_scores_print_without_a_terminal(isolated_home: Path) -> None:
    store = store_at(isolated_home)
    store.record_score("a", "2048", "4x4, goal 2048", 1200, player="tester")
    store.record_score("b", "2048", "4x4, goal 2048", 3400, marks=["undo"], assisted=True,
                       player="tester")
    store.close()
    result = CliRunner().invoke(cli, ["scores", "2048"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "2048 · 4x4, goal 2048"
    assert lines[1].split() == ["#", "points", "player", "date", "help"]
    assert lines[2].split()[:2] == ["1.", "1,200"] and not lines[2].endswith("undo")
    # A result undo helped ranks apart, however high it is.
    assert lines[4] == "2048 · 4x4, goal 2048 · with help"
    assert lines[6].split()[:2] == ["1.", "3,400"] and lines[6].endswith("undo")


def test_scores_when_there_are_none() -> None:
    result = CliRunner().invoke(cli, ["scores"])
    assert result.exit_code == 0 and "No scores yet." in result.output


def test_scores_through_a_pipe(tmp_path: Path) -> None:
    env = base_environment(tmp_path)
    store_at(Path(env["TERMGAMES_HOME"])).record_score("a", "2048", "4x4, goal 8", 64,
                                                         player="tester")
    result = subprocess.run(
        f"{sys.executable} -m termgames scores | cat", shell=True, capture_output=True,
        text=True, env=env, timeout=30,
    )
    assert result.returncode == 0 and "64" in result.stdout and result.stderr == ""


def test_shell_completion_lists_the_games(tmp_path: Path) -> None:
    env = {**base_environment(tmp_path), "_TERMGAMES_COMPLETE": "bash_complete",
           "COMP_WORDS": "termgames ", "COMP_CWORD": "1"}
    result = subprocess.run([sys.executable, "-m", "termgames"], capture_output=True,
                            text=True, env=env, timeout=30)
    assert "2048" in result.stdout and "scores" in result.stdout


def test_the_launcher_lists_games_with_best_scores_and_plays_them(
    terminal: Start, tmp_path: Path
) -> None:
    store_at(tmp_path / "data").record_score("a", "2048", "4x4, goal 2048", 4321,
                                               player="tester")
    term = terminal()
    term.wait_for("termgames")
    term.wait_for("best 4,321")
    term.press("j", "k", "down", "up", "enter")
    term.wait_for("Score: 0")
    term.wait_for("Best: 4,321")
    term.press("q")  # back to the menu
    term.wait_for("best 4,321")
    term.press("q")
    assert term.wait_exit() == 0


def test_a_corrupt_database_warns_in_one_line_and_play_goes_on(
    terminal: Start, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / DATABASE_NAME).write_bytes(b"\x00garbage" * 512)
    term = terminal("2048")
    term.wait_for("database was damaged")
    term.press("left", "right", "up", "down")
    term.wait_for_gone("database was damaged")
    term.press("q")
    assert term.wait_exit() == 0
    assert list(data.glob(f"{DATABASE_NAME}.corrupt-*"))
