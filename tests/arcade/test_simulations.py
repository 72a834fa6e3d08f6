"""The ``simulate`` commands' one output rule (commands/simulations.py) as Reversi follows
it, the progress line they and ``sokoban --solve`` share, and a run stopped by Ctrl-C or
SIGTERM keeping the games it finished. 2048's own side is in
tests/g2048/test_2048_simulate.py."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from termgames.cli import cli
from termgames.commands.options import OUTPUT_RULE
from termgames.commands.progress import BarGlyphs, Progress, duration
from termgames.text import text_width
from tests.harness.terminal import Start, base_environment

CLASSIC = ["--x", "corner-best", "--o", "corner-side-best"]
"""Classic strategies: a game takes milliseconds."""
GAME_LINE = re.compile(r"#(\d+): X scored \d+ points\. O scored \d+ points\.")


def game_number(line: str) -> int:
    """The number of the game a per-game line reports."""
    found = GAME_LINE.fullmatch(line)
    assert found is not None, line
    return int(found[1])


def reversi(*args: str) -> list[str]:
    """The lines of a piped Reversi simulation (which must succeed)."""
    result = CliRunner().invoke(cli, ["reversi", "simulate", *CLASSIC, *args])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_durations_read_as_lengths_of_time() -> None:
    assert [duration(s) for s in (0.4, 42, 59.6, 148, 3600, 7265)] == [
        "0 s", "42 s", "1 min 0 s", "2 min 28 s", "1 h 0 min", "2 h 1 min"]


@pytest.mark.parametrize(("width", "shown"), [
    (200, "Solving [#-----------------------]  4/90 levels · 2 min 28 s · about 53 min 2 s "
          "left · level 4 ('a title far too long for an eighty-column line'): solved"),
    (79, "Solving [----------]  4/90 levels · about 53 min 2 s left · level 4 ('a title…"),
    (60, "Solving [----------]  4/90 levels · about 53 min 2 s left"),
    (30, "Solving 4/90 levels"),
    (12, "Solving 4/9…"),
])
def test_the_progress_line_fits_and_marks_a_cut(width: int, shown: str) -> None:
    title = "level 4 ('a title far too long for an eighty-column line'): solved"
    line = Progress("Solving", 4, 90, "level", 148.0, detail=title).text(width)
    assert line == shown and text_width(line) <= width
    plain = Progress("Solving", 4, 90, "level", 148.0, detail=title).text(
        width, BarGlyphs("-", "..."))
    assert plain.isascii() and len(plain) <= width
    assert plain.endswith("...") == line.endswith("…")


def test_the_progress_line_counts_moves_before_a_game_ends() -> None:
    assert Progress("Playing", 0, 4, "game", 75.0, 2345).text(100) == (
        "Playing [------------------------]  0/4 games · 2,345 moves · 1 min 15 s")


def test_a_locale_without_utf8_gets_ascii_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "C")
    assert BarGlyphs.for_terminal() == BarGlyphs("-", "...")
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert BarGlyphs.for_terminal() == BarGlyphs("·", "…")


def test_both_commands_state_the_rule_in_the_same_words() -> None:
    for command in (["reversi", "simulate"], ["2048", "simulate"]):
        result = CliRunner().invoke(cli, [*command, "--help"])
        assert OUTPUT_RULE in " ".join(result.output.split()), command
        assert "--quiet Print the summary alone." in " ".join(result.output.split())


def test_piped_lines_come_in_game_order_then_the_summary_the_same_for_any_jobs() -> None:
    one = reversi("--games", "40", "--seed", "3", "--jobs", "1")
    two = reversi("--games", "40", "--seed", "3", "--jobs", "2")
    assert one == two
    assert [game_number(line) for line in one[:40]] == list(range(1, 41))
    assert one[40] == "40 games: X corner-best against O corner-side-best, seed 3"
    assert one[41].startswith("X wins: ") and one[44] == "Final margin (X - O):"
    assert reversi("--games", "40", "--seed", "4", "--jobs", "2")[:40] != one[:40]


def test_quiet_is_the_summary_alone() -> None:
    lines = reversi("--games", "5", "--jobs", "1", "--quiet")
    assert lines[0] == "5 games: X corner-best against O corner-side-best, seed 0"
    assert not any(GAME_LINE.fullmatch(line) for line in lines)
    result = CliRunner().invoke(cli, ["2048", "simulate", "--games", "2", "--size", "3",
                                      "--nodes", "5", "--jobs", "1", "--quiet"])
    assert result.exit_code == 0
    assert result.stdout.startswith("2 games of 2048 on a 3x3 board")


def tallied(lines: list[str]) -> int:
    """The games the 'X wins', 'O wins' and 'Ties' lines add up to."""
    return sum(int(line.split(": ")[1].split()[0]) for line in lines
               if line.startswith(("X wins: ", "O wins: ", "Ties: ")))


def test_sigterm_keeps_the_finished_games_lines_and_summary(tmp_path: Path) -> None:
    program = subprocess.Popen(
        [sys.executable, "-m", "termgames", "reversi", "simulate", *CLASSIC, "--games",
         "200000", "--jobs", "2"], env=base_environment(tmp_path), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    assert program.stdout is not None
    try:
        for _ in range(20):  # the games are being played
            assert GAME_LINE.fullmatch(program.stdout.readline().rstrip("\n"))
        program.send_signal(signal.SIGTERM)
        rest = program.stdout.read()  # not communicate(): it skips what readline buffered
        assert program.stderr is not None
        errors = program.stderr.read()
        program.wait(timeout=60)
    finally:
        program.kill()
    assert program.returncode == 143
    lines = rest.splitlines()
    played = [int(match[1]) for line in lines if (match := GAME_LINE.fullmatch(line))]
    count = 20 + len(played)
    title = next(index for index, line in enumerate(lines) if not GAME_LINE.fullmatch(line))
    assert lines[title] == (f"{count:,} of 200,000 games: X corner-best against O "
                            "corner-side-best, seed 0 (partial)")
    assert tallied(lines) == count  # every game whose line was printed, and no other
    assert lines[-1].startswith(("+", " ", "-"))  # the histogram ends the output
    assert errors == f"termgames: stopped by SIGTERM after {count:,} of 200,000 games\n"


def test_ctrl_c_on_a_terminal_keeps_the_tallies_so_far(terminal: Start) -> None:
    session = terminal("reversi", "simulate", *CLASSIC, "--games", "200000", "--seed", "1",
                       "--jobs", "2", cols=100)
    session.wait_until(lambda: re.search(r"[1-9][\d,]*/200,000 games", session.text())
                       is not None, "games played", timeout=30)
    session.press("ctrl-c")
    assert session.wait_exit(10) == 130
    lines = [line for line in session.lines() if line.strip()]
    stopped = next(line for line in lines if line.startswith("termgames: "))
    found = re.fullmatch(r"termgames: interrupted after ([\d,]+) of 200,000 games", stopped)
    assert found is not None
    count = int(found[1].replace(",", ""))
    at = lines.index(stopped)
    assert lines[at + 1] == (f"{count:,} of 200,000 games: X corner-best against O "
                             "corner-side-best, seed 1 (partial)")
    assert tallied(lines) == count and lines[at + 5] == "Final margin (X - O):"
    assert "Playing" not in session.text() and "Traceback" not in session.text()


def test_the_time_left_is_guessed_from_the_pace_and_dropped_once_overdue() -> None:
    assert Progress("Solving", 0, 4, "level", 30.0).left() is None  # no pace yet
    assert Progress("Solving", 1, 4, "level", 0.5).left() is None  # too soon to tell
    assert Progress("Solving", 2, 4, "level", 30.0).left() == 30.0
    assert Progress("Solving", 2, 4, "level", 40.0, last_done=30.0).left() == 20.0
    assert Progress("Solving", 3, 4, "level", 90.0, last_done=30.0).left() is None  # overdue
