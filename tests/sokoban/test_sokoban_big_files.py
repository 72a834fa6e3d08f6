"""Sokoban with files of many levels and folders of files (issue 39: B7, UX 7): a typed
number highlights the row Enter opens; a folder's rows and header name the file; levels
are read as they are needed, and what needs them all (bad levels, counts, --check) is
still found and told. How fast: benchmarks/level_list.py."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import termgames.sokoban.cli as sokoban_cli
from termgames.cli import cli
from tests.harness.boards import TINY
from tests.harness.drivers import fake_program
from tests.harness.terminal import Start, Terminal

BAD = "#####\n#@  #\n#####\n"
"""A level with no goal."""


def copies(folder: Path, count: int, name: str = "many.txt", bad_at: int = 0) -> Path:
    """A file of ``count`` copies of the smallest level, the one numbered ``bad_at``
    (if any) without its goal."""
    path = folder / name
    path.write_text("\n".join(BAD if number == bad_at else TINY
                              for number in range(1, count + 1)))
    return path


def is_highlighted(term: Terminal, row: str) -> bool:
    """Whether the list's highlighted row is the one numbered ``row``."""
    return highlighted(term) == row


def highlighted(term: Terminal) -> str:
    """The number at the start of the list's highlighted row ('' if none is)."""
    for y, line in enumerate(term.screen.display):
        cells = term.screen.buffer[y]
        if any(cells[x].bg != "default" and cells[x].data.strip() for x in range(len(line))):
            found = re.search(r"\d[\d,]*", line)
            return "" if found is None else found.group()
    return ""


def test_a_typed_number_highlights_the_row_enter_opens(terminal: Start, tmp_path: Path
                                                       ) -> None:
    term = terminal("sokoban", str(copies(tmp_path, 20_000)))
    term.wait_for("level 1 (1 of 20,000)")
    term.press("tab")
    term.wait_for("many: 0 of 20,000 solved")
    for typed, row in (("1", "1"), ("5", "15"), ("0", "150"), ("0", "1,500"),
                       ("0", "15,000")):
        term.press(typed)
        term.wait_until(functools.partial(is_highlighted, term, row), f"row {row} highlighted")
        term.wait_idle()
        assert highlighted(term) == row, term.text()  # and it stays: nothing else comes
    term.press("enter")
    term.wait_for("many · level 15,000 (15,000 of 20,000)")


FIRST = "; A\n" + TINY + "\n; B\n" + TINY
SECOND = "; C\n" + TINY + "\n; D\n" + TINY + "\n; E\n" + TINY


def folder_of_two(tmp_path: Path) -> Path:
    """A folder of two level files: a.txt of two levels, b.txt of three."""
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "a.txt").write_text(FIRST)
    (folder / "b.txt").write_text(SECOND)
    return folder


def test_a_folder_names_each_file_and_numbers_rows_through_the_list(tmp_path: Path
                                                                    ) -> None:
    with fake_program(["sokoban", str(folder_of_two(tmp_path)), "--level", "C"],
                      tmp_path) as run:
        run.wait_for("files · b.txt · level 1 (3 of 5) · C")
        run.press("tab")
        run.wait_for("files: 0 of 5 solved")
        rows = [line.strip() for line in run.text().splitlines()
                if re.match(r"\s+\d+\s+[ab]\.txt", line)]
        assert [re.split(r"\s+", row)[:3] for row in rows] == [
            ["1", "a.txt", "1"], ["2", "a.txt", "2"], ["3", "b.txt", "1"],
            ["4", "b.txt", "2"], ["5", "b.txt", "3"]], run.text()
        run.press("4", "enter")  # the row numbered 4: the second level of b.txt
        run.wait_for("files · b.txt · level 2 (4 of 5) · D")
        run.press("p", "p")
        run.wait_for("files · a.txt · level 2 (2 of 5) · B")


def test_a_bad_level_read_after_the_first_frame_is_told_then(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sokoban_cli, "SURVEY_FIRST_S", 0.0)  # read none before the game
    path = copies(tmp_path, 3_000, bad_at=2_999)
    with fake_program(["sokoban", str(path)], tmp_path) as run:
        run.wait_for("1 bad level skipped (first: many.txt:11993: level 2,999: no goal)")
        run.press("tab")
        run.wait_for("many: 0 of 2,999 solved, 1 bad level")
        run.press("2", "9", "9", "9")
        run.wait_for("✗ 2,999  cannot be played: no goal")
        run.press("enter")
        run.wait_for("Level 2,999 cannot be played: no goal")
        run.press("end", "enter")
        run.wait_for("level 3,000 (3,000 of 3,000)")
        run.press("p")
        run.wait_for("Passed over 1 level that cannot be played (Tab lists them)")
        run.wait_for("level 2,998 (2,998 of 3,000)")


def test_check_counts_and_names_every_level_of_a_large_file(tmp_path: Path) -> None:
    path = copies(tmp_path, 20_000, bad_at=19_999)
    result = CliRunner().invoke(cli, ["sokoban", "--check", str(path)])
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"{path}:79993: level 19,999: no goal",
                                          "19,999 levels OK, 1 problem"]


def test_a_file_of_bad_levels_only_is_refused_as_before(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(BAD + "\n" + BAD)
    result = CliRunner().invoke(cli, ["sokoban", str(path)])
    assert result.exit_code == 2
    assert f"{path}:1: level 1: no goal (no playable level; 2 bad)" in result.output
