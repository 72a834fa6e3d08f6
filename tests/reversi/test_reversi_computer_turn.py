"""The bugs a demanding player found (issue 11), each held by a test that failed before its fix."""

from __future__ import annotations

import copy
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from termgames.g2048.board import Direction, Game2048, largest_possible
from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from termgames.reversi.board import Side, count, flips, square_name
from termgames.reversi.engine.players import worst
from termgames.reversi.match import Match, Passed
from termgames.reversi.screen import ReversiScreen
from termgames.reversi.thinking import THINK_SLICE_S
from tests.harness.drivers import fake_program
from tests.harness.screens import maze_keys, parse_square, reversi_cell
from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at
from tests.harness.terminal import Start, Terminal, base_environment


def flat_text(text: str) -> str:
    """A screen as one line of words: messages may wrap."""
    return " ".join(text.split())


def flat(term: Terminal) -> str:
    """The screen as one line of words: messages may wrap."""
    return flat_text(term.text())


def type_move(term: Terminal, name: str) -> None:
    """Type a square the classic way: column digit, then row digit."""
    term.press(name[0])
    term.wait_for(f"Column {name[0]}")
    term.press(name[1])


# 1. The highlight on the computer's last move keeps the owner's disc colour ----------

@pytest.mark.parametrize("term_name", ["xterm-256color", "xterm"])  # 256 and 8 colours
def test_the_computers_last_move_is_drawn_in_its_own_colour(
    terminal: Start, term_name: str
) -> None:
    term = terminal("reversi", "--first", "computer", "--seed", "1", term=term_name)
    term.wait_for("Computer played 34")
    term.wait_idle()  # the board, drawn with the message, whole
    last, plain_o, plain_x = (reversi_cell(term, parse_square(name))
                              for name in ("34", "54", "55"))
    assert plain_o.fg != plain_x.fg  # the discs' own colours
    assert last.fg == plain_o.fg, (last, plain_o)
    assert last.bg != plain_o.bg  # and it is still marked as the last move


# 2. Every event since the player's last key is reported ----------------------------------

def test_a_move_a_reply_a_pass_and_a_second_reply_are_all_reported(terminal: Start) -> None:
    term = terminal("reversi", "--ascii", "--level", "1", "--first", "you", "--seed", "55")
    term.wait_for("You move first")
    moves = ["64", "36", "33", "56", "34", "66", "26", "78", "76", "87", "85", "58", "12",
             "32", "47", "52", "14", "63", "41"]
    for move in moves:
        type_move(term, move)
        term.wait_for(f"You played {move}")
        term.wait_for("Computer played")
    type_move(term, "53")
    term.wait_until(lambda: all(event in flat(term) for event in (
        "You played 53", "Computer played 73", "You have no move",
        "Computer played 35")), "every event of the turn")
    term.wait_idle()
    text = flat(term)
    assert (text.index("You played 53") < text.index("Computer played 73")
            < text.index("You have no move") < text.index("Computer played 35"))
    # Both of the computer's moves are marked on the board.
    marked = reversi_cell(term, parse_square("73")).bg
    assert reversi_cell(term, parse_square("35")).bg == marked
    assert reversi_cell(term, parse_square("53")).bg != marked


def test_a_pass_after_the_players_move_keeps_the_move_in_view(tmp_path: Path) -> None:
    """The same kind: the computer passing straight after the player's move."""
    seed, moves = _game_where_the_computer_passes()
    args = ["reversi", "--ascii", "--ai", "random", "--first", "you", "--seed", str(seed)]
    with fake_program(args, tmp_path / "data") as run:
        run.wait_for("You move first")
        for move in moves[:-1]:
            run.press(*move)
            run.wait_for(f"You played {move}")
        run.press(*moves[-1])
        run.wait_until(lambda: f"You played {moves[-1]}" in flat_text(run.text())
                       and "Computer has no move" in flat_text(run.text()),
                       "the move and the pass")


def _game_where_the_computer_passes() -> tuple[int, list[str]]:
    """A seed and the player's moves (lowest legal square each time) up to the first move
    after which the computer, playing 'random', must pass."""
    for seed in range(500):
        rng, match, moves = random.Random(seed), Match(Side.X), []
        while not match.over:
            if match.turn is Side.X:
                square = match.position.move_list()[0]
                moves.append(square_name(square))
                if Passed(Side.O) in match.play(square):
                    return seed, moves
                continue
            match.play(rng.choice(match.position.move_list()))
    raise AssertionError("no seed below 500 makes the computer pass")


# 3. 2048's Best is the best on record at all times -------------------------------------

def _slides_until(size: int, seed: int, done: Callable[[Game2048], bool]
                  ) -> tuple[list[str], int]:
    """The keys (left, down, right, up, round and round; a slide that changes nothing is
    still pressed) that bring the game ``--size SIZE --seed SEED`` to ``done``, and its
    score then: the model plays the same spawns as the program."""
    model = Game2048(size, min(2048, largest_possible(size)), random.Random(seed))
    cycle = [(Direction.LEFT, "left"), (Direction.DOWN, "down"),
             (Direction.RIGHT, "right"), (Direction.UP, "up")]
    keys: list[str] = []
    while not done(model):
        assert len(keys) < 2000, "the cycle never gets there"
        direction, key = cycle[len(keys) % 4]
        model.slide(direction)
        keys.append(key)
    return keys, model.score


@pytest.mark.parametrize("after", ["r", "game over"])
def test_best_stays_after_a_new_game(tmp_path: Path, after: str) -> None:
    # A run is recorded once it is past its first moves (or over): 100 points are. The
    # model says which keys get there, so the score waited for is the one the game has.
    size = 3 if after == "game over" else 4
    keys, score = _slides_until(size, 7, (lambda game: game.over) if after == "game over"
                                else (lambda game: game.score >= 100))
    assert score > 0
    with fake_program(["2048", "--seed", "7", "--size", str(size)], tmp_path / "data") as run:
        run.wait_for("Best: 0")
        run.press(*keys)
        run.wait_for(f"Score: {score:,}")
        if after == "game over":
            run.wait_for("Game over")
        else:
            assert "Game over" not in run.text()
        run.press("r")
        if after == "r":  # mid-game, a new game is asked for twice
            run.wait_for("Start a new game?")
            run.press("y")
        run.wait_for("Score: 0")
        run.wait_for(f"Best: {score:,}")


# 4. A locale that is not UTF-8 gets ASCII, whatever Python coerced it to ----------------

@pytest.mark.parametrize("locale_env", [
    {"LANG": "C"}, {"LC_CTYPE": "C", "LANG": "C.UTF-8"}, {"LC_ALL": "C"}, {"LANG": "POSIX"},
    {"LANG": "en_US.ISO-8859-1"}, {},
], ids=["LANG=C", "LC_CTYPE=C", "LC_ALL=C", "POSIX", "Latin-1 not installed", "nothing set"])
def test_a_locale_that_is_not_utf8_gets_only_ascii(
    terminal: Start, locale_env: dict[str, str]
) -> None:
    env: dict[str, str | None] = {"LANG": None, "LC_ALL": None, "LC_CTYPE": None}
    env.update(locale_env)
    term = terminal("maze", "--size", "10x5", "--seed", "1", env=env)
    term.wait_for("steps 0")
    term.press("?")
    term.wait_for("walk")
    term.press("q")
    term.press("q")
    assert term.wait_exit() == 0, term.text()
    assert max(term.received) < 0x80, bytes(b for b in term.received if b >= 0x80)[:40]
    assert "#" in term.text() or "unexpected" not in term.text()


def test_a_utf8_locale_still_gets_unicode(terminal: Start) -> None:
    term = terminal("maze", "--size", "10x5", "--seed", "1",
                    env={"LANG": "C.UTF-8", "LC_ALL": None})
    term.wait_for("steps 0")
    term.wait_for("█")


def test_text_a_latin1_terminal_cannot_show_is_replaced_not_sent(
    terminal: Start, tmp_path: Path
) -> None:
    """The same kind: untrusted text (a level title) on a terminal that is not UTF-8."""
    level = tmp_path / "wide.txt"
    level.write_text("Title: 日本 café ★\n#####\n#@$.#\n#####\n", encoding="utf-8")
    term = terminal("sokoban", str(level), env={"LANG": "C", "LC_ALL": None})
    term.wait_for("moves 0")
    term.wait_for("caf")
    term.press("q")
    assert term.wait_exit() == 0
    assert max(term.received) < 0x80


@pytest.fixture(scope="module")
def latin1(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str | None]:
    """The environment of a real Latin-1 locale (en_US.ISO-8859-1), built with localedef
    into a temporary LOCPATH, since few machines install one; skipped where it cannot be
    built. The C library is asked whether it took, so no test runs on a fallback."""
    if shutil.which("localedef") is None:
        pytest.skip("localedef is not installed: cannot build a Latin-1 locale")
    folder = tmp_path_factory.mktemp("locales")
    built = subprocess.run(["localedef", "-i", "en_US", "-f", "ISO-8859-1",
                            str(folder / "en_US.ISO-8859-1")], capture_output=True, text=True)
    env: dict[str, str | None] = {"LOCPATH": str(folder), "LANG": "en_US.ISO-8859-1",
                                  "LC_ALL": None, "LC_CTYPE": None}
    probe = subprocess.run(
        [sys.executable, "-c", "import locale; locale.setlocale(locale.LC_CTYPE, ''); "
         "print(locale.nl_langinfo(locale.CODESET))"],
        env={key: value for key, value in {**os.environ, **env}.items() if value is not None},
        capture_output=True, text=True)
    if probe.stdout.strip() != "ISO-8859-1":
        pytest.skip(f"localedef could not build en_US.ISO-8859-1 (status {built.returncode}: "
                    f"{built.stderr.strip()[:200]}; the C library reads {probe.stdout.strip()!r}"
                    f"{probe.stderr.strip()[:200]})")
    return env


def test_a_real_latin1_locale_gets_a_maze_in_ascii(
    terminal: Start, latin1: dict[str, str | None]
) -> None:
    """The Latin-1 case of item 4 with the locale installed, not its fallback."""
    term = terminal("maze", "--size", "10x5", "--seed", "1", env=latin1)
    term.wait_for("steps 0")
    term.press("?")
    term.wait_for("walk")
    term.press("q")
    term.press("q")
    assert term.wait_exit() == 0, term.text()
    assert "#" in term.text()
    assert max(term.received) < 0x80, bytes(b for b in term.received if b >= 0x80)[:40]


def test_a_real_latin1_locale_gets_latin1_text_as_latin1_bytes(
    terminal: Start, tmp_path: Path, latin1: dict[str, str | None]
) -> None:
    """Text a Latin-1 terminal can show (é) is sent as its Latin-1 byte, 0xE9; what it
    cannot (日本, ★) is replaced, never sent as UTF-8."""
    level = tmp_path / "wide.txt"
    level.write_text("Title: 日本 café ★\n#####\n#@$.#\n#####\n", encoding="utf-8")
    term = terminal("sokoban", str(level), env=latin1)
    term.wait_for("moves 0")
    term.wait_until(lambda: b"caf\xe9" in term.received, "café sent in Latin-1")
    term.press("q")
    assert term.wait_exit() == 0
    assert {b for b in term.received if b >= 0x80} == {0xE9}, bytes(term.received)[-200:]


def test_scores_under_a_real_latin1_locale_are_written_in_latin1(
    tmp_path: Path, latin1: dict[str, str | None]
) -> None:
    """The same for plain-text output: `termgames scores`."""
    from termgames.sokoban.progress import Record, record_solution

    store = store_at(tmp_path / "data")
    try:
        record_solution(store, SOKOBAN_PROGRESS,
                        PLAYER, "1" * 32, Record(12, 3, "x", "mine", 4, "日本 café"))
    finally:
        store.close()
    env = {key: value for key, value in {**base_environment(tmp_path), **latin1}.items()
           if value is not None}
    result = subprocess.run([sys.executable, "-m", "termgames", "scores", "sokoban"],
                            env=env, capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert b"?? caf\xe9" in result.stdout, result.stdout
    # Latin-1 bytes only (é, and the · Latin-1 has), no UTF-8 sequence.
    assert {b for b in result.stdout if b >= 0x80} <= {0xE9, 0xB7}, result.stdout


# 5. --verify reads solutions the way files write them ----------------------------------

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


# 6. The opponent shown and recorded is the one played ----------------------------------

def _a_won_game_against_worst() -> tuple[int, list[tuple[str, int, int]]]:
    """A seed, and the player's moves (most flips, lowest square first) each with the discs
    (X, O) once the computer has answered, that beat 'worst' as the program plays it."""
    for seed in range(100):
        rng, match = random.Random(seed), Match(Side.X)
        moves: list[tuple[str, int, int]] = []
        while not match.over:
            position = match.position
            if match.turn is Side.X:
                square = max(position.move_list(),
                             key=lambda s: (count(flips(position.own, position.opp, s)), -s))
                moves.append((square_name(square), 0, 0))
            else:
                square = worst(position, rng)
            match.play(square)
            if moves:
                moves[-1] = (moves[-1][0], *match.position.score())
        x, o = match.position.score()
        if x > o:
            return seed, moves
    raise AssertionError("no seed below 100 loses to 'worst'")


def test_a_game_against_ai_worst_is_shown_and_filed_as_worst(tmp_path: Path) -> None:
    seed, moves = _a_won_game_against_worst()
    args = ["reversi", "--ascii", "--ai", "worst", "--level", "5", "--first", "you",
            "--seed", str(seed)]
    with fake_program(args, tmp_path / "data") as run:
        run.wait_for("You move first")
        header = run.text().splitlines()[0]
        assert "worst" in header and "level 5" not in header, header
        for move, x, o in moves:
            run.press(*move)
            run.wait_for(f"You played {move}")
            run.wait_for(f"You (X) {x}   Computer (O) {o}")  # the computer has answered
        run.wait_for("You beat the computer")
        run.press("q")
        assert run.finish() == 0
    scores = subprocess.run([sys.executable, "-m", "termgames", "scores", "reversi"],
                            capture_output=True, text=True,
                            env=base_environment(tmp_path), check=True).stdout
    assert "worst" in scores and "level 5" not in scores, scores
    store = store_at(tmp_path / "data")
    try:
        assert [score.variant for score in store.top("reversi")] == ["vs worst"]
    finally:
        store.close()


# 7. A maze whose path was shown stays helped, across replays ---------------------------

def test_showing_the_path_then_replaying_is_still_helped(tmp_path: Path) -> None:
    with fake_program(["maze", "--size", "6x4", "--seed", "3"], tmp_path / "data") as run:
        run.wait_for("steps 0")
        run.press("p")
        run.wait_for("Shortest path from here")
        run.press("r")  # nothing walked yet: no question
        run.wait_for_gone("Shortest path from here")
        maze = generate(6, 4, random.Random(3))
        run.press(*maze_keys(shortest_path(maze, maze.entrance)))
        run.wait_for("You made it out!")
        run.wait_for("with the solver's help")
        run.press("q")
        assert run.finish() == 0
    store = store_at(tmp_path / "data")
    try:
        assert store.count_scores("maze") == 0
    finally:
        store.close()


def test_a_solution_wrapped_in_a_level_file_is_read_whole() -> None:
    """The same kind as item 5: a level file's own Solution: metadata, wrapped."""
    from termgames.sokoban.format.parse import parse

    level, = parse(MICROBAN_1 + "Title: One\nSolution: dlUrrrdLullddrUluR\nuulDrddrruLdlUU\n"
                   ).levels
    assert level.solution == "dlUrrrdLullddrUluRuulDrddrruLdlUU"


def test_the_exit_stays_marked_under_the_shortest_path(tmp_path: Path) -> None:
    """The same kind as item 1: a highlight (the path) must not hide what it covers."""
    with fake_program(["maze", "--size", "6x4", "--seed", "3"], tmp_path / "data") as run:
        run.wait_for("steps 0")
        assert ">" in run.text(), run.text()
        run.press("p")
        run.wait_for("Shortest path from here")
        assert ">" in run.text(), run.text()


def _tenths(shown: str) -> int:
    """'1:02.3' as tenths of a second."""
    minutes, seconds = shown.split(":")
    return int(minutes) * 600 + round(float(seconds) * 10)


def test_the_maze_header_shows_the_best_time_after_a_result_a_replay_and_a_new_maze(
    tmp_path: Path
) -> None:
    """Item 3's kind, in the maze's header: the best on record is read again after a
    result, after `r` and after `n` (another session may have set a better time)."""
    with fake_program(["maze", "--size", "3x2", "--seed", "2"], tmp_path / "data") as run:

        def header() -> str:
            return run.text().splitlines()[0]

        run.wait_for("steps 0")
        assert "best" not in header()
        maze = generate(3, 2, random.Random(2))
        keys = maze_keys(shortest_path(maze, maze.entrance))
        run.press(keys[0])
        run.wait_for("steps 1")

        def clock_past_half_a_second() -> bool:
            found = re.search(r"time (\d+:\d\d\.\d)", header())
            return found is not None and _tenths(found.group(1)) >= 5

        # Slower than the times another session files below, so those are better.
        run.wait_until(clock_past_half_a_second, "the clock to pass 0:00.5")
        run.press(*keys[1:])
        run.wait_for("You made it out!")
        shown = re.search(r"time (\d+:\d\d\.\d), no help used", flat_text(run.text()))
        assert shown, run.text()
        run.wait_until(lambda: f"best {shown.group(1)}" in header(),
                       "the header to show the time just made as the best")

        def elsewhere(run_id: str, milliseconds: int) -> None:
            store = store_at(tmp_path / "data")
            try:
                store.record_score(run_id, "maze", "3x2", milliseconds, player="other")
            finally:
                store.close()

        elsewhere("elsewhere-1", 300)
        run.press("r")
        run.wait_for_gone("You made it out!")
        run.wait_until(lambda: "steps 0" in header() and "best 0:00.3" in header(),
                       "the replay to show best 0:00.3")
        elsewhere("elsewhere-2", 200)
        run.press("n")
        run.wait_until(lambda: "best 0:00.2" in header(), "the new maze to show 0:00.2")
        assert "Maze 3x2" in header(), header()


def _a_move_and_one_legal_after_any_reply(match: Match) -> tuple[int, int] | None:
    """X's move from here, and a next move legal whatever O answers, if there are such
    moves: typed before the answer is known, the next move must still be playable once
    it comes. O must have a choice, or the computer answers at once."""
    for move in match.position.move_list():
        after = copy.deepcopy(match)
        after.play(move)
        replies = after.position.move_list() if after.turn is Side.O else []
        legal = -1 if len(replies) >= 2 else 0
        for reply in replies:
            answered = copy.deepcopy(after)
            answered.play(reply)
            legal &= answered.legal() if answered.turn is Side.X else 0
        if legal:
            return move, (legal & -legal).bit_length() - 1
    return None


def test_moves_typed_while_the_computer_answers_are_all_played(
    tmp_path: Path
) -> None:
    """Item 2's kind: a whole move typed while the computer is still thinking is played
    once it has answered, not lost. Search thinks in slices of the clock between keys;
    here each reading of the fake clock costs half a slice, so an answer takes many
    slices and keys typed meanwhile really arrive while it thinks."""
    args = ["reversi", "--ascii", "--ai", "search", "--level", "5", "--first", "you",
            "--seed", "1"]
    with fake_program(args, tmp_path / "data") as run:
        run.wait_for("You move first")
        run.session.clock.tick_by(THINK_SLICE_S / 2)
        screen = run.runner.stack[0]
        assert isinstance(screen, ReversiScreen)
        for _ in range(30):  # play on until a move can be typed ahead whatever the answer
            found = _a_move_and_one_legal_after_any_reply(screen.match)
            move = square_name(found[0] if found else screen.match.position.move_list()[0])
            run.press(*move)
            run.wait_for(f"You played {move}")
            if found:
                break
            run.wait_until(lambda: "Computer is thinking" not in flat_text(run.text()),
                           "the answer")
        assert found, "no position where a move could be typed ahead"
        typed = square_name(found[1])
        run.press(*typed)  # both digits while the computer thinks
        text = flat_text(run.text())
        assert "Computer is thinking" in text and "Computer played" not in text, text
        # Played once the computer has answered (it is legal after any answer).
        run.wait_until(lambda: f"You played {typed}" in flat_text(run.text()),
                       f"the move typed while the computer thought ({typed}) to be played")


def test_a_burst_of_keys_while_the_computer_answers_at_once_is_all_read(
    terminal: Start,
) -> None:
    """Keys sent in one burst through the pty, none of them lost. (Level 1 answers within
    one slice, so no key here waits for the computer: the test above holds that.)"""
    term = terminal("reversi", "--ascii", "--level", "1", "--first", "you", "--seed", "55")
    term.wait_for("You move first")
    term.send(b"6436335634662678768785581232475214634153")
    term.wait_until(lambda: all(event in flat(term) for event in (
        "You played 53", "Computer played 73", "You have no move", "Computer played 35")),
        "every move of the burst to be played")


def test_a_helped_maze_stays_helped_in_the_next_session(tmp_path: Path) -> None:
    """Item 7's kind: quitting and starting the same maze again."""
    args = ["maze", "--size", "6x4", "--seed", "3"]
    with fake_program(args, tmp_path / "data") as first:
        first.wait_for("steps 0")
        first.press("p")
        first.wait_for("Shortest path from here")
        first.press("q")
        assert first.finish() == 0
    with fake_program(args, tmp_path / "data") as run:
        run.wait_for("steps 0")
        maze = generate(6, 4, random.Random(3))
        run.press(*maze_keys(shortest_path(maze, maze.entrance)))
        run.wait_for("with the solver's help")


def test_without_colour_the_last_move_and_the_turned_discs_look_different(
    terminal: Start,
) -> None:
    """Item 1's kind: a highlight must be visible in every theme."""
    term = terminal("reversi", "--first", "computer", "--seed", "1", env={"NO_COLOR": "1"})
    term.wait_for("Computer played 34")
    term.wait_idle()
    last, turned = reversi_cell(term, parse_square("34")), reversi_cell(term, parse_square("44"))
    assert (last.reverse, last.underscore) != (turned.reverse, turned.underscore)


def test_a_store_warning_names_the_folder_with_its_bytes_escaped(
    terminal: Start, tmp_path: Path
) -> None:
    """Item: file names with invalid UTF-8, in the store's warnings too."""
    blocker = os.fsencode(tmp_path) + b"/f\xffy"
    with open(blocker, "wb"):
        pass  # a file where the data folder's parent should be
    term = terminal("2048", env={"TERMGAMES_HOME": os.fsdecode(blocker + b"/sub")})
    term.wait_for("will not be saved")
    assert "f\\xffy" in "".join(line.strip() for line in term.lines()), term.text()
