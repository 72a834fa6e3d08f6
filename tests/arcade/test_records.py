"""Records that tell the truth (issue 11): `termgames scores`, the launcher and the store."""

from __future__ import annotations

import itertools
import os
import pwd
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from termgames.cli import cli
from termgames.g2048.board import DEFAULT_GOAL, DEFAULT_SIZE, Direction, Game2048
from termgames.outcome import Mark
from termgames.reversi.screen import ReversiScreen
from termgames.scoreboard import minutes_seconds
from termgames.settings import player_name
from termgames.sokoban.format.bundled import BUNDLED, load_bundled
from termgames.sokoban.progress import Record, record_solution
from termgames.store.schema import MIGRATIONS
from termgames.store.sql import SQLITE
from termgames.store.sqlite import DATABASE_NAME
from tests.harness.drivers import DRIVERS, FakeDriver, fake_program, program
from tests.harness.screens import maze_keys
from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at
from tests.harness.terminal import Start, base_environment

MICROBAN = next(entry for entry in BUNDLED if entry.title == "Microban")


def scores(*args: str) -> list[str]:
    result = CliRunner().invoke(cli, ["scores", *args])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_sokoban_appears_in_scores_per_collection_and_per_level(isolated_home: Path) -> None:
    microban = load_bundled(MICROBAN).levels
    store = store_at(isolated_home)
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, microban[0].key, Record(33, 8, "x", "Microban", 1, ""))
    # An old record, made before records said where they were played: found by its board.
    store.save_progress(PLAYER, "sokoban", microban[1].key,
                        '{"moves": 17, "pushes": 5, "solution": "x"}')
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, "0" * 32, Record(12, 3, "x", "mine", 4, "Corner"))
    store.close()
    lines = scores()
    start = lines.index("Sokoban · levels solved")
    assert re.split(r"\s{2,}", lines[start + 1].strip()) == [
        "player", "collection", "solved", "levels"]
    table = lines[start + 2:start + 6]
    assert any(re.fullmatch(r"\s*tester\s+Microban\s+2\s+155", line) for line in table), table
    assert any(re.fullmatch(r"\s*tester\s+mine\s+1", line) for line in table), table
    detail = scores("sokoban")
    at = detail.index("Sokoban · Microban · best solutions by tester")
    assert re.split(r"\s{2,}", detail[at + 1].strip()) == ["level", "title", "moves", "pushes"]
    assert re.split(r"\s{2,}", detail[at + 2].strip()) == ["1", microban[0].title, "33", "8"]
    assert re.split(r"\s{2,}", detail[at + 3].strip()) == ["2", microban[1].title, "17", "5"]
    assert "Sokoban · mine · best solutions by tester" in detail


def test_an_unverified_name_has_a_column_of_its_own_not_the_help_column(
        isolated_home: Path) -> None:
    """The report's UX 9: '1.  52  bob  2026-12-05  unverified' under the header 'help'."""
    store = store_at(isolated_home)
    store.record_score("a", "2048", "4x4, goal 2048", 52, player="bob", marks=["unverified"])
    store.record_score("b", "2048", "4x4, goal 2048", 40, player="tester")
    store.record_score("c", "2048", "4x4, goal 2048", 90, player="bob", assisted=True,
                       marks=["undo", "unverified"])
    store.close()
    lines = scores("2048")
    unhelped = lines.index("2048 · 4x4, goal 2048")
    header, bob, tester = (re.split(r"\s{2,}", line.strip())
                           for line in lines[unhelped + 1:unhelped + 4])
    assert header == ["#", "points", "player", "date", "help", "name"]
    assert bob[:3] == ["1.", "52", "bob"] and bob[-1] == "unverified" and len(bob) == 5
    assert tester[:3] == ["2.", "40", "tester"] and len(tester) == 4
    helped = lines[lines.index("2048 · 4x4, goal 2048 · with help") + 2]
    assert re.split(r"\s{2,}", helped.strip())[-2:] == ["undo", "unverified"]


def test_the_launcher_and_scores_agree_on_sokoban(terminal: Start, tmp_path: Path) -> None:
    microban = load_bundled(MICROBAN).levels
    store = store_at(tmp_path / "data")
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, microban[0].key, Record(33, 8, "x", "Microban", 1, ""))
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, microban[1].key, Record(17, 5, "x", "Microban", 2, ""))
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, "a level of my own", Record(3, 1, "x", "mine", 1, "", "/x/mine"))
    store.close()
    term = terminal()
    term.wait_for("Microban 2 of 155, 1 from your files")
    line = next(line for line in term.lines() if "Sokoban" in line)
    assert line.endswith("Microban 2 of 155, 1 from your files"), line  # whole, at 80
    term.press("q")
    assert term.wait_exit() == 0
    listed = subprocess.run([sys.executable, "-m", "termgames", "scores"], check=True,
                            capture_output=True, text=True, env=base_environment(tmp_path))
    assert re.search(r"Microban\s+2\s+155", listed.stdout), listed.stdout


def test_results_that_do_not_compare_are_ranked_apart(isolated_home: Path) -> None:
    store = store_at(isolated_home)
    store.record_score("a", "2048", "4x4, goal 2048", 1200, player="tester")
    store.record_score("b", "2048", "4x4, goal 2048", 3400, marks=["undo"], assisted=True,
                       player="tester")
    store.record_score("c", "2048", "5x5, goal 2048", 9000, player="tester")
    store.record_score("d", "2048", "4x4, goal 512", 5000, player="tester")
    store.record_score("e", "maze", "39x10", 61_234, player="tester")
    store.record_score("f", "maze", "10x5", 5_000, player="tester")
    store.record_score("g", "reversi", "vs worst", 40, player="tester")
    store.record_score("h", "reversi", "vs search level 5", 2, player="tester")
    store.close()
    lines = scores()
    tables: dict[str, list[str]] = {}
    for line in lines:
        if line and not line.startswith(" "):
            tables[line] = []
            current = tables[line]
        elif line:
            current.append(line.strip())
    assert set(tables) == {
        "2048 · 4x4, goal 2048", "2048 · 4x4, goal 2048 · with help",
        "2048 · 5x5, goal 2048", "2048 · 4x4, goal 512",
        "Maze · 39x10", "Maze · 10x5", "Reversi · vs worst", "Reversi · vs search level 5"}
    assert re.split(r"\s{2,}", tables["2048 · 4x4, goal 2048"][0]) == [
        "#", "points", "player", "date", "help"]
    [alone] = tables["2048 · 4x4, goal 2048"][1:]
    assert alone.split()[:2] == ["1.", "1,200"] and "undo" not in alone
    [helped] = tables["2048 · 4x4, goal 2048 · with help"][1:]
    assert helped.split() == ["1.", "3,400", "tester", helped.split()[3], "undo"]
    assert tables["Maze · 39x10"][0].split()[:2] == ["#", "time"]
    assert tables["Maze · 39x10"][1].split()[:2] == ["1.", "1:01.2"]
    assert tables["Reversi · vs worst"][0].split()[:3] == ["#", "result", "player"]
    assert tables["Reversi · vs worst"][1].split()[:4] == ["1.", "won", "by", "40"]


PANEL_TIME = r"time (\d+:\d\d\.\d), no help used"


def test_a_maze_time_reads_the_same_in_game_launcher_and_scores(
    terminal: Start, tmp_path: Path
) -> None:
    term = terminal("maze", "--size", "3x2", "--seed", "2")
    term.wait_for("steps 0")

    from termgames.maze.generate import generate
    from termgames.maze.solve import shortest_path
    maze = generate(3, 2, random.Random(2))
    term.press(*maze_keys(shortest_path(maze, maze.entrance)))
    # The panel's lines come in several writes: wait for the line with the time itself
    # (it once was read while only the panel's first line had arrived).
    term.wait_until(lambda: re.search(PANEL_TIME, term.text()) is not None, PANEL_TIME)
    shown = re.search(PANEL_TIME, term.text())
    assert shown, term.text()
    term.press("q")
    assert term.wait_exit() == 0
    store = store_at(tmp_path / "data")
    recorded = store.best("maze", "3x2", lowest=True)
    store.close()
    assert recorded is not None and minutes_seconds(recorded.score) == shown.group(1)
    listed = subprocess.run([sys.executable, "-m", "termgames", "scores", "maze"], check=True,
                            capture_output=True, text=True, env=base_environment(tmp_path))
    assert re.search(rf"1\.\s+{re.escape(shown.group(1))}\s", listed.stdout), listed.stdout
    launcher = terminal()
    launcher.wait_for(f"best {shown.group(1)} (3x2)")


def test_a_2048_game_abandoned_in_its_first_moves_is_not_recorded(
    terminal: Start, tmp_path: Path
) -> None:
    term = terminal("2048", "--seed", "3")
    term.wait_for("Score: 0")
    for key in ["left", "right", "up", "down", "left", "right"]:
        term.press(key)
    term.wait_until(lambda: re.search(r"Score: [1-9]", term.text()) is not None
                    or "Score: 0" in term.text(), "moves to settle")
    term.press("q")
    assert term.wait_exit() == 0
    store = store_at(tmp_path / "data")
    try:
        assert store.count_scores("2048") == 0
    finally:
        store.close()


def _2048_moves(seed: int, moves: int) -> list[tuple[str, int]]:
    """The keys of ``moves`` slides that each change the board (a slide that changes
    nothing is not a move) in the default 2048 started with ``seed``, each with the score
    after it: the program plays the same game from the same seed."""
    game = Game2048(DEFAULT_SIZE, DEFAULT_GOAL, random.Random(seed))
    played: list[tuple[str, int]] = []
    for direction in itertools.cycle([Direction.LEFT, Direction.DOWN, Direction.RIGHT,
                                      Direction.UP]):
        if len(played) == moves or game.over:
            break
        if game.slide(direction).changed:
            played.append((direction.word, game.score))
    assert len(played) == moves, played
    return played


def _scores_of(home: Path, game: str) -> list[int]:
    store = store_at(home)
    try:
        return [score.score for score in store.top(game)]
    finally:
        store.close()


def test_a_2048_game_restarted_in_its_first_moves_is_not_recorded(
    terminal: Start, tmp_path: Path
) -> None:
    """README, "Your results": a 2048 game restarted before its tenth move is not a result
    (it has points, so only the rule keeps it out)."""
    moves = _2048_moves(3, 9)
    assert moves[-1][1] > 0
    term = terminal("2048", "--seed", "3")
    term.wait_for("Score: 0 ")
    term.press(*(key for key, _ in moves))
    term.wait_for(f"Score: {moves[-1][1]:,} ")
    term.press("r")
    term.wait_for("Start a new game?")
    term.press("y")
    term.wait_for_gone("Start a new game?")
    term.wait_for("Score: 0 ")
    # The report's UX 10: nobody said so (at 80 columns, the shorter form).
    term.wait_for("2048 game not recorded: a game counts from its 10th move (9 played)")
    term.press("q")
    assert term.wait_exit() == 0
    assert _scores_of(tmp_path / "data", "2048") == []


def test_leaving_a_2048_game_before_it_counts_says_it_is_kept_to_come_back(
        tmp_path: Path, terminal: Start) -> None:
    """The report's UX 10: quit after 6 slides (score 20): no row, and a word; since
    unfinished games come back, the word is that it is saved (docs/saved-games.md)."""
    moves = _2048_moves(3, 6)
    env = {**base_environment(tmp_path), "TERMGAMES_HOME": str(tmp_path / "data")}
    term = terminal("2048", "--seed", "3", env=env)
    try:
        term.wait_for("Score: 0 ")
        term.press(*(key for key, _ in moves))
        term.wait_for(f"Score: {moves[-1][1]:,} ")
        term.press("q")
        assert term.wait_exit() == 0
        said = term.received.decode("utf-8", "replace")
        farewell = "termgames: Your 2048 game is saved: it comes back when you start 2048 again."
        assert farewell in said and len(farewell) <= 80
        assert _scores_of(tmp_path / "data", "2048") == []
    finally:
        term.close()


def test_a_2048_game_quit_after_its_tenth_move_is_recorded(
    terminal: Start, tmp_path: Path
) -> None:
    moves = _2048_moves(3, 10)
    term = terminal("2048", "--seed", "3")
    term.wait_for("Score: 0 ")
    term.press(*(key for key, _ in moves))
    score = moves[-1][1]
    term.wait_for(f"Score: {score:,} ")
    term.press("q")
    assert term.wait_exit() == 0
    assert _scores_of(tmp_path / "data", "2048") == [score]


@pytest.mark.parametrize("leave", ["q", "r"])
def test_a_reversi_game_quit_or_restarted_mid_game_is_not_recorded(
    terminal: Start, tmp_path: Path, leave: str
) -> None:
    """README, "Your results": Reversi records a finished game; one you quit (or give up
    for a new one) is not a result."""
    term = terminal("reversi", "--ascii", "--ai", "random", "--first", "you", "--seed", "1")
    term.wait_for("You move first.")
    term.press("5", "3")
    term.wait_for("You played 53")
    term.wait_for("Computer played")
    if leave == "r":
        term.press("r")
        term.wait_for("Start a new game?")
        term.press("y")
        term.wait_for("You move first.")
    term.wait_for("Reversi game not recorded: a game counts once it is finished"
                  if leave == "r" else "Computer played")
    term.press("q")
    assert term.wait_exit() == 0
    said = term.received.decode("utf-8", "replace")
    if leave == "r":  # given up for a new one: gone, and not a result
        assert "termgames: Reversi game not recorded: a game counts once it is finished." in said
    else:  # quit: kept, to come back (docs/saved-games.md), and not a result yet
        assert ("termgames: Your Reversi game is saved: it comes back when you start "
                "reversi again.") in said
    assert _scores_of(tmp_path / "data", "reversi") == []


def test_scores_creates_no_folder_and_no_database(tmp_path: Path) -> None:
    env = base_environment(tmp_path)
    home = tmp_path / "nowhere" / "data"
    env["TERMGAMES_HOME"] = str(home)
    result = subprocess.run([sys.executable, "-m", "termgames", "scores"], env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and "No scores yet." in result.stdout
    assert not (tmp_path / "nowhere").exists()


def test_scores_into_a_closed_pipe_exits_0(tmp_path: Path) -> None:
    env = base_environment(tmp_path)
    store = store_at(Path(env["TERMGAMES_HOME"]))
    for number in range(200):
        store.record_score(f"run{number}", "2048", f"{number % 6 + 3}x{number % 6 + 3}, goal 8",
                           number, player="tester")
    store.close()
    head = subprocess.run(f"{sys.executable} -m termgames scores --limit 1000 | head -1; "
                          "exit ${PIPESTATUS[0]}", shell=True, executable="/bin/bash",
                          capture_output=True, text=True, env=env, timeout=30)
    assert head.returncode == 0, head.stderr
    assert head.stderr == ""
    closed = subprocess.Popen([sys.executable, "-m", "termgames", "scores"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert closed.stdout is not None and closed.stderr is not None
    closed.stdout.close()  # gone before the first line is written
    assert closed.wait(timeout=30) == 0
    assert closed.stderr.read() == b""


def test_the_player_name_comes_from_the_password_database_without_login_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable in ("LOGNAME", "USER", "USERNAME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("TERMGAMES_PLAYER", raising=False)
    assert player_name() == pwd.getpwuid(os.getuid()).pw_name
    monkeypatch.setenv("USER", "someone")
    assert player_name() == "someone"
    monkeypatch.setenv("TERMGAMES_PLAYER", "guest")
    assert player_name() == "guest"


def test_a_file_name_with_invalid_utf8_is_shown_escaped(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/bad\xffname.txt"
    with open(name, "wb") as handle:
        handle.write(b"#####\n#@ $#\n#####\n")  # no goal
    env = base_environment(tmp_path)
    result = subprocess.run([sys.executable.encode(), b"-m", b"termgames", b"sokoban",
                             b"--check", name], capture_output=True, env=env, timeout=30)
    assert result.returncode == 2
    assert b"bad\\xffname.txt:1: level 1: no goal" in result.stdout, result.stdout
    missing = subprocess.run([sys.executable.encode(), b"-m", b"termgames", b"sokoban",
                              os.fsencode(tmp_path) + b"/gone\xfe.txt"], capture_output=True,
                             env=env, timeout=30)
    assert missing.returncode == 2
    assert b"gone\\xfe.txt: no such file" in missing.stderr, missing.stderr


@pytest.mark.parametrize(("args", "size"), [((), (10, 40)), (("2048",), (11, 40))])
def test_the_corrupt_database_warning_names_the_new_file_at_the_minimum_size(
    terminal: Start, tmp_path: Path, args: tuple[str, ...], size: tuple[int, int]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / DATABASE_NAME).write_bytes(b"\x00garbage" * 512)
    term = terminal(*args, rows=size[0], cols=size[1])

    def names_the_moved_file() -> bool:
        moved = list(data.glob(f"{DATABASE_NAME}.corrupt-*"))
        joined = "".join(line.strip() for line in term.lines())  # the warning may wrap
        return len(moved) == 1 and moved[0].name in joined

    # The warning comes in pieces: wait for the whole name, not its first word.
    term.wait_until(names_the_moved_file, "the warning to name the moved file")
    term.press("q")
    assert term.wait_exit() == 0


def test_old_variants_are_renamed_to_what_they_compare_with(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    old = sqlite3.connect(path)
    old.executescript(SQLITE.render(MIGRATIONS[0]))
    old.executemany(
        "INSERT INTO scores VALUES (?, ?, ?, ?, 0, 'p', 0)",
        [("a", "2048", "4x4", 100), ("b", "reversi", "level 1", 3),
         ("c", "reversi", "level 4", 5), ("d", "maze", "10x5", 999)])
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    store = store_at(tmp_path)
    try:
        assert sorted((score.game, score.variant) for score in store.top(limit=10)) == [
            ("2048", "4x4, goal not recorded"), ("maze", "10x5"),
            ("reversi", "level 1, opponent not recorded"),
            ("reversi", "level 4, opponent not recorded")]
    finally:
        store.close()


@pytest.mark.parametrize("args", [["sokoban", "--check"], ["reversi", "simulate", "--games",
                                                             "3", "--jobs", "1"]])
def test_other_commands_into_a_closed_pipe_exit_0(tmp_path: Path, args: list[str]) -> None:
    """The same kind: every command that prints, not only scores."""
    closed = subprocess.Popen([sys.executable, "-m", "termgames", *args],
                              env=base_environment(tmp_path), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    assert closed.stdout is not None and closed.stderr is not None
    closed.stdout.close()
    assert closed.wait(timeout=60) == 0
    errors = closed.stderr.read()  # simulate's progress bar goes to stderr
    assert b"Error" not in errors and b"Traceback" not in errors, errors


def test_export_solutions_creates_nothing_either(tmp_path: Path) -> None:
    levels = tmp_path / "one.txt"
    levels.write_text("#####\n#@$.#\n#####\n")
    env = base_environment(tmp_path)
    env["TERMGAMES_HOME"] = str(tmp_path / "nowhere")
    result = subprocess.run([sys.executable, "-m", "termgames", "sokoban",
                             "--export-solutions", str(levels)], env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and result.stdout == ""
    assert not (tmp_path / "nowhere").exists()


def test_scores_reads_an_old_database_without_writing_a_byte(tmp_path: Path) -> None:
    import hashlib

    path = tmp_path / DATABASE_NAME
    old = sqlite3.connect(path)
    old.executescript(SQLITE.render(MIGRATIONS[0]))
    old.execute("INSERT INTO scores VALUES ('a', '2048', '4x4', 512, 0, 'ann', 0)")
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    env = {**base_environment(tmp_path), "TERMGAMES_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "termgames", "scores"], env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "2048 · 4x4, goal not recorded" in result.stdout and "512" in result.stdout
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [DATABASE_NAME]


def test_text_output_follows_the_locale(isolated_home: Path) -> None:
    from termgames.runtime.terminal.environment import encode_for

    assert encode_for("日本 · é …", "iso8859-1") == b"?? - \xe9 ..."
    assert encode_for("日本 · é", "ascii") == b"?? - ?"
    assert encode_for("日本 · é", "utf-8") == "日本 · é".encode()
    store = store_at(isolated_home)
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, "1" * 32, Record(12, 3, "x", "mine", 4, "日本"))
    store.close()
    env = {**base_environment(isolated_home.parent), "TERMGAMES_HOME": str(isolated_home),
           "LANG": "C"}
    del env["LC_ALL"]
    result = subprocess.run([sys.executable, "-m", "termgames", "scores", "sokoban"],
                            env=env, capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert max(result.stdout) < 0x80 and b"Sokoban - levels solved" in result.stdout
    # The columns are measured on what is printed: '??' takes two cells, not four.
    lines = result.stdout.decode("ascii").splitlines()
    header = next(line for line in lines if line.split()[:2] == ["level", "title"])
    row = next(line for line in lines if "??" in line)
    for column in ("moves", "pushes"):
        end = header.index(column) + len(column)
        assert row[end - 1].isdigit() and row[end:end + 1] in ("", " "), (header, row)


def test_levels_from_files_of_the_same_name_are_recorded_apart(isolated_home: Path) -> None:
    store = store_at(isolated_home)
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, "a" * 32, Record(5, 1, "x", "lv", 1, "", "/tmp/x/lv.txt"))
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, "b" * 32, Record(6, 2, "x", "lv", 1, "", "/tmp/y/lv.txt"))
    store.close()
    lines = scores("sokoban")
    assert "Sokoban · /tmp/x/lv.txt · best solutions by tester" in lines
    assert "Sokoban · /tmp/y/lv.txt · best solutions by tester" in lines


def test_a_level_number_or_title_in_several_files_is_named_not_guessed(tmp_path: Path) -> None:
    level = "#####\n#@$.#\n#####\n"
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(level)
    second.write_text(level)
    result = CliRunner().invoke(cli, ["sokoban", str(first), str(second), "--level", "1"])
    assert result.exit_code == 2
    answers = tmp_path / "answers.txt"
    answers.write_text("; level 1\nSolution: R\n")
    verified = CliRunner().invoke(cli, ["sokoban", "--verify", str(first), str(second),
                                        "--solutions", str(answers)])
    assert verified.exit_code == 1
    assert f"level 1: 2 files have a level 1 ({first}, {second})" in verified.output


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_launcher_names_the_opponent_its_reversi_best_was_against(
    driver: str, tmp_path: Path
) -> None:
    store = store_at(tmp_path / "data")
    store.record_score("a", "reversi", "vs worst", 60, player="tester")
    store.record_score("b", "reversi", "vs search level 5", 2, player="tester")
    store.close()
    with program(driver, [], tmp_path) as run:
        run.wait_for("best: won by 2 (vs search level 5)")


def test_table_columns_line_up_with_wide_characters() -> None:
    from termgames.scoreboard import Table
    from termgames.text import text_width

    table = Table("t", ("level", "title", "moves"), [("1", "日本 ★", "12"), ("2", "ab", "3")],
                  frozenset({0, 2}))
    widths = [text_width(line) for line in table.lines()[1:]]
    assert len(set(widths)) == 1, table.lines()


def play_reversi_out(run: FakeDriver, screen: ReversiScreen) -> None:
    """The player's lowest legal square each turn, typed as the classic game did, until
    the game is over."""
    while not screen.match.over:
        run.wait_until(lambda: screen.match.over or not screen.turns.busy,
                       "the player's turn")
        legal = screen.match.legal()
        if screen.match.over or not legal:
            continue
        square = (legal & -legal).bit_length() - 1
        run.press(str(square % 8 + 1), str(square // 8 + 1))


def test_a_reversi_end_taken_back_and_played_again_is_a_second_result(
        tmp_path: Path) -> None:
    """One rule for every game, in the runtime: the end a game reached stays filed as it
    was earned; a take-back after it and a new end make a second, helped result."""
    args = ["reversi", "--ascii", "--ai", "random", "--first", "you", "--seed", "4"]
    with fake_program(args, tmp_path / "data") as run:
        screen = run.runner.stack[0]
        assert isinstance(screen, ReversiScreen)
        play_reversi_out(run, screen)
        run.wait_for("u undo")
        first = screen.outcome()
        assert first is not None and not first.marks
        run.press("u")
        run.wait_for("Took back your last move.")
        play_reversi_out(run, screen)
        again = screen.outcome()
        assert again is not None and again.marks == {Mark.UNDO}
        run.press("q", "q")
        run.finish()
        store = run.runner.visit.store
        kept = sorted((score.score, score.marks) for score in store.top("reversi", limit=9))
        assert kept == sorted([(first.score, frozenset()),
                               (again.score, frozenset({"undo"}))])
