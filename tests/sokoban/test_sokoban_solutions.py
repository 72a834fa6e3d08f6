"""Sokoban solutions read the way files write them: ``--verify`` joins a solution wrapped
over lines and takes it in lower case, says when one is empty and when a title names two
levels; a level file's own ``Solution:`` metadata is read whole. Each test failed before
its fix (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

# --verify reads solutions the way files write them --------------------------------------

MICROBAN_1 = """\
####
# .#
#  ###
#*@  #
#  $ #
#  ###
####
"""


@pytest.mark.parametrize("solutions", [
    "; level 1\nSolution:\ndlUrrrdLullddrUluR\nuulDrddrruLdlUU\n",
    "; level 1\nSolution: dlUrrrdLullddrUluR\nuulDrddrruLdlUU\n",
    "; level 1\nSolution: dlurrrdlullddrulur\nuuldrddrru ldluu\n",
])
def test_verify_joins_wrapped_solutions_and_accepts_lowercase(
    tmp_path: Path, solutions: str
) -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    levels, answers = tmp_path / "one.txt", tmp_path / "answers.txt"
    levels.write_text(MICROBAN_1)
    answers.write_text(solutions)
    result = CliRunner().invoke(cli, ["sokoban", "--verify", str(levels), "--solutions",
                                      str(answers)])
    assert result.exit_code == 0, result.output
    assert "level 1: solved in 33 moves, 8 pushes" in result.output


def test_verify_reports_an_empty_solution_as_empty(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    levels, answers = tmp_path / "one.txt", tmp_path / "answers.txt"
    levels.write_text(MICROBAN_1)
    answers.write_text("; level 1\nSolution:\n\n")
    result = CliRunner().invoke(cli, ["sokoban", "--verify", str(levels), "--solutions",
                                      str(answers)])
    assert result.exit_code == 1
    assert "level 1: the solution is empty" in result.output
    assert "boxes left off goals" not in result.output


def test_verify_names_an_ambiguous_title(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    levels, answers = tmp_path / "two.txt", tmp_path / "answers.txt"
    levels.write_text(f"Title: Twin\n{MICROBAN_1}\nTitle: Twin\n{MICROBAN_1}")
    answers.write_text("Title: Twin\nSolution: dlUrrrdLullddrUluRuulDrddrruLdlUU\n")
    result = CliRunner().invoke(cli, ["sokoban", "--verify", str(levels), "--solutions",
                                      str(answers)])
    assert result.exit_code == 1
    assert "'Twin': 2 levels have this title (levels 1, 2)" in result.output


def test_a_solution_wrapped_in_a_level_file_is_read_whole() -> None:
    """As with --verify above: a level file's own Solution: metadata, wrapped."""
    from termgames.sokoban.format.parse import parse

    level, = parse(MICROBAN_1 + "Title: One\nSolution: dlUrrrdLullddrUluR\nuulDrddrruLdlUU\n"
                   ).levels
    assert level.solution == "dlUrrrdLullddrUluRuulDrddrruLdlUU"
