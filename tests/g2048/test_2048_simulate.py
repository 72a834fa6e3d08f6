"""``termgames 2048 simulate``: the same games for a seed whatever --jobs, the summary, the
piped lines, --json, one-line errors, the progress bar on a terminal and Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from termgames.cli import cli, main
from termgames.g2048.simulate import SimulatedGame, play_game, summarize
from tests.harness.processes import session_processes
from tests.harness.terminal import Start

QUICK = ["--size", "3", "--nodes", "5"]
"""3x3 games with a small search: a few hundred moves at most, well under a second."""
TIMING = re.compile(r"^[\d.]+ ms a move on one core, ")


def simulate(*args: str) -> list[str]:
    """The lines of a piped simulation (which must succeed)."""
    result = CliRunner().invoke(cli, ["2048", "simulate", *args])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def untimed(lines: list[str]) -> list[str]:
    """The lines without the one that carries timings."""
    return [line for line in lines if not TIMING.match(line)]


def test_a_game_is_the_same_every_time() -> None:
    first, second = play_game(3, 7, 5, 3), play_game(3, 7, 5, 3)
    assert first.moves > 0
    assert (first.score, first.max_tile, first.moves, first.nodes) \
        == (second.score, second.max_tile, second.moves, second.nodes)
    assert play_game(4, 7, 5, 3) != first


def test_jobs_1_and_2_give_the_same_games() -> None:
    one = simulate("--games", "6", "--seed", "5", "--jobs", "1", *QUICK)
    two = simulate("--games", "6", "--seed", "5", "--jobs", "2", *QUICK)
    assert untimed(one) == untimed(two)
    assert len(untimed(one)) == len(one) - 1  # only the timing line differs
    assert simulate("--games", "6", "--seed", "6", "--jobs", "2", *QUICK)[:6] != one[:6]


def test_piped_output_is_a_line_a_game_in_order_then_the_summary() -> None:
    lines = simulate("--games", "5", "--seed", "1", *QUICK)
    for number, line in enumerate(lines[:5], start=1):
        assert re.fullmatch(rf"#{number}: score [\d,]+, largest tile [\d,]+, [\d,]+ moves",
                            line), line
    assert lines[5] == "5 games of 2048 on a 3x3 board, seed 1, 5 positions a move"
    assert [line.split(":")[0] for line in lines[6:10]] == [
        "Reached  2048", "Reached  4096", "Reached  8192", "Reached 16384"]
    assert lines[10] == "Largest tile:"
    shares = [line for line in lines if re.match(r"^ +[\d,]+: \d+ \(", line)]
    assert sum(int(line.split(": ")[1].split()[0]) for line in shares) == 5
    assert lines[-2].startswith("Median score: ") and "Best score: " in lines[-2]
    assert TIMING.match(lines[-1]) and "moves a second in all" in lines[-1]


def test_json_is_one_object_whose_counts_add_up() -> None:
    lines = simulate("--games", "7", "--seed", "2", "--json", "--jobs", "2", *QUICK)
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert list(report) == ["games", "partial", "seed", "nodes", "size", "reached", "max_tile",
                            "median_score", "best_score", "moves", "ms_per_move",
                            "moves_per_s", "nodes_per_s", "seconds"]
    assert (report["games"], report["seed"], report["nodes"], report["size"]) == (7, 2, 5, 3)
    assert report["partial"] is False
    assert list(report["reached"]) == ["2048", "4096", "8192", "16384"]
    assert sum(report["max_tile"].values()) == 7
    tiles = [int(tile) for tile in report["max_tile"]]
    assert tiles == sorted(tiles) and all(tile & (tile - 1) == 0 for tile in tiles)
    assert report["best_score"] >= report["median_score"] > 0
    assert report["moves"] > 0 and report["ms_per_move"] > 0 and report["moves_per_s"] > 0


def test_the_summary_counts_milestones_and_largest_tiles() -> None:
    results = [SimulatedGame(1, 100, 2048, 10, 5, 1.0), SimulatedGame(2, 300, 8192, 30, 5, 2.0),
               SimulatedGame(3, 200, 2048, 20, 5, 1.0), SimulatedGame(4, 50, 16384, 40, 5, 1.0)]
    summary = summarize(results, seconds=2.5)
    assert summary.reached == {2048: 4, 4096: 2, 8192: 2, 16384: 1}
    assert summary.max_tile == {2048: 2, 8192: 1, 16384: 1}
    assert (summary.median_score, summary.best_score) == (150.0, 300)
    assert summary.ms_per_move == pytest.approx(50.0)  # 5 s over 100 moves
    assert summary.moves_per_s == pytest.approx(40.0)  # 100 moves in 2.5 s
    assert "Reached  4096: 2 (50.0%)" in summary.lines()
    assert "  16,384: 1 (25.0%)" in summary.lines()


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "0"], "--games"),
    (["--games", "many"], "'many' is not a valid integer"),
    (["--jobs", "0"], "--jobs"),
    (["--nodes", "0"], "--nodes"),
    (["--size", "9"], "--size"),
    (["--size", "2"], "--size"),
    (["--seed", "x"], "--seed"),
    (["--fast"], "No such option '--fast'"),
])
def test_bad_arguments_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["2048", "simulate", *args])
    captured = capsys.readouterr()
    assert stopped.value.code == 2
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert message in lines[0] and "Traceback" not in captured.err


def test_help_says_other_sizes_are_slower() -> None:
    result = CliRunner().invoke(cli, ["2048", "simulate", "--help"])
    assert result.exit_code == 0
    assert "Sizes other than 4 use a much slower search" in " ".join(result.output.split())


def test_a_terminal_gets_a_progress_line_then_the_summary(terminal: Start) -> None:
    session = terminal("2048", "simulate", "--games", "4", "--jobs", "2", *QUICK, cols=100)
    assert session.wait_exit(30) == 0
    received = bytes(session.received).decode()
    assert re.search(r"Playing \[[#-]{24}\]  [0-4]/4 games · [\d,]+ moves · \d+ s", received)
    lines = [line.rstrip() for line in session.lines() if line.strip()]
    assert "#1: " not in received  # a progress line, not a line a game
    assert "Playing" not in session.text()  # rubbed out before the summary
    assert lines[-1].startswith(tuple("0123456789")) and "ms a move" in lines[-1]
    assert "4 games of 2048 on a 3x3 board, seed 0, 5 positions a move" in lines


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc to find workers")
def test_ctrl_c_ends_the_workers_and_says_so_in_one_line(terminal: Start) -> None:
    session = terminal("2048", "simulate", "--games", "50", "--jobs", "2", "--nodes",
                       "100000", cols=100)
    leader = session.process.pid
    try:
        # No game ends for a long while, but the moves of the games under way are counted.
        session.wait_until(lambda: re.search(r"0/50 games · [1-9][\d,]* moves", session.text())
                           is not None, "moves counted", timeout=30)
        workers = [pid for pid in session_processes(leader) if pid != leader]
        assert len(workers) >= 2
        started = time.monotonic()
        session.press("ctrl-c")
        assert session.wait_exit(10) == 130
        assert time.monotonic() - started < 5
        assert session_processes(leader) == []
    finally:
        for pid in session_processes(leader):  # whatever this test started and left
            os.kill(pid, signal.SIGKILL)
    lines = [line.rstrip() for line in session.lines() if line.strip()]
    assert lines[-1] == "termgames: interrupted after 0 of 50 games"  # nothing to sum up
    assert "Traceback" not in bytes(session.received).decode()


def test_one_game_is_a_game_not_games() -> None:
    lines = simulate("--games", "1", "--nodes", "50", "--size", "3", "--jobs", "1")
    assert any(line.startswith("1 game of 2048 on a 3x3 board") for line in lines), lines
