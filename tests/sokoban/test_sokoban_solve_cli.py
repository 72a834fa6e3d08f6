"""``termgames sokoban --solve``: report lines, solutions that --verify accepts, exit
statuses, one-line errors, worker processes, the progress bar and Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from termgames.cli import cli, main
from termgames.sokoban.format.bundled import by_slug, load_bundled
from termgames.sokoban.format.levels import Level, format_level
from termgames.sokoban.solver.found import Verdict
from termgames.sokoban.solver.schedule import solve
from tests.harness.processes import session_processes
from tests.harness.terminal import Start

ROOM = """\
#######
#     #
# $ . #
#@    #
#######
Title: Room
"""
CORRIDOR = """\
######
#@$ .#
######
Title: Corridor
"""
STUCK = """\
#####
#.###
#   #
##$@#
#   #
#####
Title: Stuck
"""
"""The box can only go up and then sideways: it never reaches the goal's column and row."""


def write(path: Path, *levels: str) -> Path:
    path.write_text("\n".join(levels))
    return path


def microban(*numbers: int) -> list[Level]:
    entry = by_slug("microban")
    assert entry is not None
    levels = load_bundled(entry).levels
    return [levels[number - 1] for number in numbers]


def untimed(text: str) -> list[str]:
    """The lines of ``text`` with each time ('0.03 s') written as 'T s'."""
    return [re.sub(r"\b\d+\.\d\d s\b", "T s", line) for line in text.splitlines()]


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The program as the console script runs it: status, stdout, stderr."""
    with pytest.raises(SystemExit) as stopped:
        main(args)
    captured = capsys.readouterr()
    return int(stopped.value.code or 0), captured.out, captured.err


def test_the_stuck_level_really_is_unsolvable() -> None:
    rows = tuple(STUCK.splitlines()[:-1])
    assert solve(Level(rows), time_limit=5).verdict is Verdict.UNSOLVABLE


def test_piped_solutions_go_to_stdout_and_the_report_to_stderr(tmp_path: Path) -> None:
    levels = write(tmp_path / "levels.txt", ROOM, STUCK, CORRIDOR)
    result = CliRunner().invoke(cli, ["sokoban", "--solve", str(levels), "--jobs", "1"])
    assert result.exit_code == 1  # Stuck is not solved
    assert result.stdout == ("; level 1\nTitle: Room\nSolution: uRR\n\n"
                             "; level 3\nTitle: Corridor\nSolution: RR\n\n")
    report = untimed(result.stderr)
    assert report[0] == "level 1 ('Room'): solved, T s, 3 moves, 2 pushes"
    assert report[1] == "level 2 ('Stuck'): unsolvable, T s"
    assert report[2] == "level 3 ('Corridor'): solved, T s, 2 moves, 2 pushes"
    assert report[3].startswith("2 of 3 levels solved (1 unsolvable) in ")
    assert len(report) == 4


def test_every_level_solved_exits_0(tmp_path: Path) -> None:
    levels = write(tmp_path / "levels.txt", ROOM, CORRIDOR)
    result = CliRunner().invoke(cli, ["sokoban", "--solve", str(levels)])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1].startswith("2 of 2 levels solved in ")


def test_level_picks_one_by_title_or_number(tmp_path: Path) -> None:
    levels = write(tmp_path / "levels.txt", ROOM, STUCK, CORRIDOR)
    by_title = CliRunner().invoke(cli, ["sokoban", "--solve", str(levels), "--level",
                                        "corridor"])
    by_number = CliRunner().invoke(cli, ["sokoban", "--solve", str(levels), "--level", "3"])
    for result in (by_title, by_number):
        assert result.exit_code == 0
        assert result.stdout == "; level 3\nTitle: Corridor\nSolution: RR\n\n"
        assert result.stderr.splitlines()[0].startswith("level 3 ('Corridor'): solved")


def test_a_level_not_solved_within_the_time_limit() -> None:
    result = CliRunner().invoke(cli, ["sokoban", "--solve", "--collection", "microban",
                                      "--level", "144", "--time-limit", "0.01"])
    assert result.exit_code == 1
    assert result.stdout == ""
    line, total = untimed(result.stderr)
    assert line == "level 144: not solved within the limit, T s"
    assert total.startswith("0 of 1 level solved (1 not solved within the limit) in ")


def test_optimal_pushes_finds_fewer_pushes_and_says_they_are_optimal() -> None:
    args = ["sokoban", "--solve", "--collection", "microban", "--level", "24", "--jobs", "1"]
    first = CliRunner().invoke(cli, args)
    best = CliRunner().invoke(cli, [*args, "--optimal", "pushes"])
    assert first.exit_code == 0 and best.exit_code == 0, best.output
    assert untimed(best.stderr)[0] == "level 24: solved, T s, 35 moves, 9 pushes (optimal)"
    solution = best.stdout.split("Solution: ")[1].split()[0]
    assert sum(letter.isupper() for letter in solution) == 9
    # The default search's first solution has more pushes, and claims nothing.
    line = untimed(first.stderr)[0]
    assert line.startswith("level 24: solved, T s, ") and line.endswith(" pushes")
    assert int(line.split()[-2]) > 9


def test_out_writes_solutions_that_verify_accepts(tmp_path: Path) -> None:
    levels = tmp_path / "micro.txt"
    levels.write_text("\n".join(format_level(level) for level in microban(1, 2, 3, 155)))
    out = tmp_path / "solutions.txt"
    solved = CliRunner().invoke(cli, ["sokoban", "--solve", str(levels), "--out", str(out)])
    assert solved.exit_code == 0, solved.output
    assert solved.stderr == ""
    report = solved.stdout.splitlines()  # with --out, the report is on stdout
    assert len(report) == 5 and report[-1].startswith("4 of 4 levels solved in ")
    assert "level 4 ('The Dungeon'): solved, " in solved.stdout
    verified = CliRunner().invoke(cli, ["sokoban", "--verify", str(levels), "--solutions",
                                        str(out)])
    assert verified.exit_code == 0, verified.output
    assert verified.output.splitlines()[-1] == "4 of 4 solutions solve their level"
    # --verify's own count of moves and pushes is the one the report gave.
    for line in verified.output.splitlines()[:-1]:
        name, counts = line.split(": solved in ")
        assert f"{name}: solved, " in solved.stdout
        assert solved.stdout.split(f"{name}: solved, ")[1].split("\n")[0].endswith(counts)


def test_jobs_1_and_2_write_the_same_solutions(tmp_path: Path) -> None:
    levels = tmp_path / "micro.txt"
    levels.write_text("\n".join(format_level(level) for level in microban(*range(1, 9))))
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.txt"
        result = CliRunner().invoke(cli, ["sokoban", "--solve", str(levels), "--jobs", jobs,
                                          "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert len(result.stdout.splitlines()) == 9
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    assert outs[0].count("Solution: ") == 8


def test_levels_from_several_files_name_their_file(tmp_path: Path) -> None:
    first = write(tmp_path / "first.txt", ROOM)
    second = write(tmp_path / "second.txt", CORRIDOR)
    result = CliRunner().invoke(cli, ["sokoban", "--solve", str(first), str(second),
                                      "--jobs", "1"])
    assert result.exit_code == 0
    assert untimed(result.stderr)[:2] == [
        "first.txt level 1 ('Room'): solved, T s, 3 moves, 2 pushes",
        "second.txt level 1 ('Corridor'): solved, T s, 2 moves, 2 pushes"]


def test_solutions_for_several_files_say_which_file_and_verify(tmp_path: Path) -> None:
    # Both files have a level 1: without the file named, --verify could not tell them
    # apart.
    first = write(tmp_path / "first.txt", ROOM)
    second = write(tmp_path / "second.txt", CORRIDOR)
    out = tmp_path / "solutions.txt"
    solved = CliRunner().invoke(cli, ["sokoban", "--solve", str(first), str(second),
                                      "--jobs", "1", "--out", str(out)])
    assert solved.exit_code == 0, solved.output
    assert out.read_text().startswith("; file first.txt\n; level 1\nTitle: Room\n")
    assert "; file second.txt\n; level 1\nTitle: Corridor\n" in out.read_text()
    verified = CliRunner().invoke(cli, ["sokoban", "--verify", str(first), str(second),
                                        "--solutions", str(out)])
    assert verified.exit_code == 0, verified.output
    assert verified.output.splitlines() == [
        "level 1 ('Room'): solved in 3 moves, 2 pushes",
        "level 1 ('Corridor'): solved in 2 moves, 2 pushes",
        "2 of 2 solutions solve their level"]


def test_levels_from_stdin(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["sokoban", "--solve", "-"], input=CORRIDOR)
    assert result.exit_code == 0
    assert result.stdout == "; level 1\nTitle: Corridor\nSolution: RR\n\n"


def test_a_bad_level_is_skipped_and_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    levels = write(tmp_path / "levels.txt", ROOM, "#####\n#@@.#\n#$  #\n#####\n")
    status, out, err = run_main(["sokoban", "--solve", str(levels)], capsys)
    assert status == 1
    assert out == "; level 1\nTitle: Room\nSolution: uRR\n\n"
    lines = err.splitlines()
    assert lines[0].startswith("termgames: skipped: ") and "2 players" in lines[0]
    assert lines[-1].startswith("1 of 2 levels solved (1 bad level skipped) in ")


@pytest.mark.parametrize(("args", "message"), [
    (["--solve", "missing.txt"], "missing.txt: no such file"),
    (["--solve"], "--solve needs a PATH or --collection"),
    (["--solve", "LEVELS", "--collection", "microban"], "a PATH or --collection, not both"),
    (["--solve", "LEVELS", "--level", "9"], "no playable level '9'"),
    (["--solve", "LEVELS", "--time-limit", "0"], "0.0 is not a positive number of seconds"),
    (["--solve", "LEVELS", "--time-limit", "nan"], "nan is not a positive number"),
    (["--solve", "LEVELS", "--time-limit", "soon"], "'soon' is not a valid float"),
    (["--solve", "LEVELS", "--jobs", "0"], "--jobs"),
    (["--solve", "LEVELS", "--out", "OUTDIR"], "is a folder"),
    (["--solve", "LEVELS", "--out", "OUTDIR/missing/x.txt"], "no such folder"),
    (["--solve", "LEVELS", "--check"], "--solve does not go with --check"),
    (["LEVELS", "--time-limit", "5"], "--time-limit, --jobs and --out go with --solve"),
    (["LEVELS", "--out", "x.txt"], "--time-limit, --jobs and --out go with --solve"),
    (["LEVELS", "--optimal", "pushes"], "--optimal goes with --solve"),
    (["--solve", "LEVELS", "--optimal", "moves"], "'moves' is not 'pushes'"),
])
def test_bad_arguments_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    levels = write(tmp_path / "levels.txt", ROOM)
    (tmp_path / "outdir").mkdir()
    args = [arg.replace("LEVELS", str(levels)).replace("OUTDIR", str(tmp_path / "outdir"))
            for arg in args]
    status, out, err = run_main(["sokoban", *args], capsys)
    assert status == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert message in lines[0] and "Traceback" not in err


@pytest.mark.parametrize(("text", "line"), [
    ("; 1\nSolution: uRR\n", 2),
    ("Level 1\nSolution:\nuRR\n", 2),
    ("Solution: uRR\n", 1),
    ("; file levels.txt\nSolution: uRR\n", 2),
    ("; level 1\nSolution: uRR\n\nLevel 1\nSolution: uRR\n", 5),  # the second one
])
def test_a_solution_that_names_no_level_is_one_line_naming_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int
) -> None:
    levels = write(tmp_path / "levels.txt", ROOM)
    solutions = tmp_path / "solutions.txt"
    solutions.write_text(text)
    status, out, err = run_main(["sokoban", "--verify", str(levels), "--solutions",
                                 str(solutions)], capsys)
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith("termgames: ") and "Traceback" not in err
    assert err.rstrip("\n").endswith(
        f"solutions.txt:{line}: this solution names no level "
        "(write '; level N' or 'Title: NAME' before it)")


def test_a_terminal_gets_a_progress_line_then_the_lines(terminal: Start, tmp_path: Path
                                                        ) -> None:
    levels = write(tmp_path / "levels.txt", ROOM, STUCK, CORRIDOR)
    out = tmp_path / "solutions.txt"
    session = terminal("sokoban", "--solve", str(levels), "--out", str(out), "--jobs", "2",
                       cols=100)
    assert session.wait_exit(30) == 1
    received = bytes(session.received).decode()
    assert re.search(r"Solving \[-{24}\]  0/3 levels · 0 s", received)  # the progress line
    lines = [line for line in untimed(session.text()) if line]
    assert lines[-4:-1] == [
        "level 1 ('Room'): solved, T s, 3 moves, 2 pushes",
        "level 2 ('Stuck'): unsolvable, T s",
        "level 3 ('Corridor'): solved, T s, 2 moves, 2 pushes"]
    assert lines[-1].startswith("2 of 3 levels solved (1 unsolvable) in ")
    assert out.read_text().count("Solution: ") == 2


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc to find workers")
def test_ctrl_c_ends_the_workers_and_says_so_in_one_line(terminal: Start, tmp_path: Path
                                                         ) -> None:
    levels = tmp_path / "levels.txt"
    levels.write_text("\n".join(format_level(level) for level in microban(1, 144)))
    out = tmp_path / "solutions.txt"
    session = terminal("sokoban", "--solve", "levels.txt", "--out", "solutions.txt",
                       "--jobs", "2", "--time-limit", "300", cols=100, cwd=tmp_path)
    leader = session.process.pid
    try:
        session.wait_for("1/2", timeout=30)  # level 1 is solved; 144 goes on in its worker
        workers = [pid for pid in session_processes(leader) if pid != leader]
        assert len(workers) >= 2  # the pool's two workers at least
        started = time.monotonic()
        session.press("ctrl-c")
        assert session.wait_exit(10) == 130
        assert time.monotonic() - started < 5
        assert session_processes(leader) == []
    finally:
        for pid in session_processes(leader):  # whatever this test started and left
            os.kill(pid, signal.SIGKILL)
    lines = [line for line in untimed(session.text()) if line.strip()]
    assert lines[-2:] == ["level 1: solved, T s, 33 moves, 8 pushes",  # never lost
                          "termgames: interrupted: 1 of 2 levels solved; solutions so far "
                          "in solutions.txt"]
    assert "Traceback" not in bytes(session.received).decode()
    assert out.read_text().startswith("; level 1\nTitle: 1\nSolution: ")


def test_a_solver_failure_on_one_level_keeps_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from termgames.sokoban import solving_cli

    def failing(level: Level, time_limit: float, optimal: None = None) -> object:
        if level.title == "Room":
            raise AssertionError("the solver's step 'R' breaks the rules")
        return solve(level, time_limit, optimal=optimal)

    monkeypatch.setattr(solving_cli, "solve", failing)
    levels = write(tmp_path / "levels.txt", ROOM, CORRIDOR)
    result = CliRunner().invoke(cli, ["sokoban", "--solve", str(levels), "--jobs", "1"])
    assert result.exit_code == 1
    assert result.stdout == "; level 2\nTitle: Corridor\nSolution: RR\n\n"
    report = untimed(result.stderr)
    assert report[0] == ("level 1 ('Room'): the solver failed (AssertionError: the solver's "
                         "step 'R' breaks the rules), T s")
    assert report[2].startswith("1 of 2 levels solved (1 solver failure) in ")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the patched solver reaches forked workers")
def test_workers_ignore_ctrl_c_and_die_at_once_on_sigterm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that kept a Python SIGTERM handler could miss the pool's SIGTERM while
    waiting for work and hang the program as it ended."""
    from termgames.sokoban import solving_cli

    def checking(level: Level, time_limit: float, optimal: None = None) -> object:
        assert os.getpid() != parent, "not in a worker"
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        return solve(level, time_limit, optimal=optimal)

    parent = os.getpid()
    monkeypatch.setattr(solving_cli, "solve", checking)
    levels = write(tmp_path / "levels.txt", ROOM, CORRIDOR)
    for _ in range(3):
        result = CliRunner().invoke(cli, ["sokoban", "--solve", str(levels), "--jobs", "2"])
        assert result.exit_code == 0, result.output


def test_counts_are_grouped_alike() -> None:
    from termgames.sokoban.solving_cli import LevelReport, summary

    found = [LevelReport(index, Verdict.SOLVED, "RR", 0.01) for index in range(1000)]
    assert summary(1000, found, 0, 8.6) == "1,000 of 1,000 levels solved in 8.6 s"


def test_verify_groups_its_count_too(tmp_path: Path) -> None:
    levels = write(tmp_path / "levels.txt", *[CORRIDOR] * 1000)
    solutions = tmp_path / "solutions.txt"
    solutions.write_text("".join(f"; level {number}\nSolution: RR\n\n"
                                 for number in range(1, 1001)))
    result = CliRunner().invoke(cli, ["sokoban", "--verify", str(levels), "--solutions",
                                      str(solutions)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "1,000 of 1,000 solutions solve their level"


def test_export_and_verify_take_a_bundled_collection(tmp_path: Path) -> None:
    from termgames.sokoban.game import replay
    from termgames.sokoban.progress import Record, record_solution
    from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at

    first = microban(1)[0]
    lurd = solve(first, 10).lurd
    game = replay(first, lurd)
    store = store_at(tmp_path / "data")  # the isolated TERMGAMES_HOME
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, first.key, Record(game.moves, game.pushes, game.lurd))
    store.close()
    exported = CliRunner().invoke(cli, ["sokoban", "--export-solutions", "--collection",
                                        "microban"])
    assert exported.exit_code == 0, exported.output
    assert exported.stdout == f"; level 1\nTitle: 1\nSolution: {lurd}\n\n"
    solutions = tmp_path / "solutions.txt"
    solutions.write_text(exported.stdout)
    verified = CliRunner().invoke(cli, ["sokoban", "--verify", "--collection", "microban",
                                        "--solutions", str(solutions)])
    assert verified.exit_code == 0, verified.output
    assert verified.output.splitlines()[-1] == "1 of 1 solution solves its level"


def test_an_export_with_nothing_solved_says_so_and_exits_0(tmp_path: Path) -> None:
    levels = write(tmp_path / "levels.txt", ROOM)
    for args, where in (([str(levels)], str(levels)), (["--collection", "microban"],
                                                       "Microban")):
        result = CliRunner().invoke(cli, ["sokoban", "--export-solutions", *args])
        assert result.exit_code == 0
        assert result.stdout == ""  # still a whole (empty) solutions file
        assert result.stderr == f"termgames: no solved levels in {where}\n"
