"""2048 played end to end through the real program on a pseudo-terminal."""

from __future__ import annotations

import random
import re
import signal
from pathlib import Path

import pyte
import pytest

from termgames.g2048.board import Direction, Game2048
from termgames.g2048.view import minimum_size
from termgames.runtime.runner import window_for
from tests.harness.drivers import DRIVERS, program
from tests.harness.screens import KEYS, moves_until, screen_grid, wait_for_game
from tests.harness.states import a_recorded_game
from tests.harness.stores import store_at
from tests.harness.terminal import Start, Terminal


@pytest.mark.parametrize("driver", DRIVERS)
def test_seeded_moves_change_the_screen_as_the_rules_say(driver: str, tmp_path: Path) -> None:
    with program(driver, ["2048", "--seed", "42"], tmp_path) as run:
        model = Game2048(4, 2048, random.Random(42))
        wait_for_game(run, model)
        # Every binding of every direction, one key at a time, checked after each.
        for round_ in range(3):
            for direction in Direction:
                model.slide(direction)
                run.press(KEYS[direction][round_])
                wait_for_game(run, model)
        assert f"Best: {model.score:,}" in run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_undo_takes_moves_back_and_marks_the_score(driver: str, tmp_path: Path) -> None:
    with program(driver, ["2048", "--seed", "7"], tmp_path) as run:
        model = Game2048(4, 2048, random.Random(7))
        wait_for_game(run, model)
        keys = moves_until(model, lambda game: game.score > 0 and game.moves >= 3)
        run.press(*keys)
        wait_for_game(run, model)
        for _ in range(2):
            model.undo()
            run.press("u")
            wait_for_game(run, model)
        assert "(undo)" in run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_restart_starts_a_new_game(driver: str, tmp_path: Path) -> None:
    with program(driver, ["2048", "--seed", "5"], tmp_path) as run:
        model = Game2048(4, 2048, random.Random(5))
        wait_for_game(run, model)
        run.press(*moves_until(model, lambda game: game.score > 0))
        wait_for_game(run, model)
        run.press("r")
        run.wait_for("Start a new game?")  # one key must not throw a game away
        run.press("n")
        run.wait_for_gone("Start a new game?")
        wait_for_game(run, model)
        run.press("r")
        run.wait_for("Start a new game?")
        run.press("y")
        # Each new game is dealt from a seed of its own, the first drawn from the
        # --seed's generator (so a saved game is its seed and its moves).
        fresh = Game2048(4, 2048, random.Random(random.Random(5).getrandbits(64)))
        wait_for_game(run, fresh)
        assert sum(1 for row in fresh.grid for value in row if value) == 2


@pytest.mark.parametrize("driver", DRIVERS)
def test_making_the_goal_shows_a_win_banner_and_play_can_go_on(driver: str, tmp_path: Path) -> None:
    with program(driver, ["2048", "--goal", "8", "--seed", "11"], tmp_path) as run:
        model = Game2048(4, 8, random.Random(11))
        wait_for_game(run, model)
        run.press(*moves_until(model, lambda game: game.won))
        run.wait_for("You made 8!")
        run.wait_for("keep going")
        run.press("?")  # the win panel's help names its own keys, Enter included
        run.wait_for("c Enter")
        run.press("x")
        run.wait_for_gone("c Enter")
        run.press("left")  # the panel is on top: a move does nothing until the player chooses
        run.press("c")
        run.wait_for_gone("You made 8!")
        wait_for_game(run, model)
        target = model.moves + 1
        keys = moves_until(model, lambda game: game.moves >= target)
        run.press(*keys)
        wait_for_game(run, model)


def test_game_over_shows_the_final_score_and_records_it(terminal: Start, tmp_path: Path) -> None:
    term = terminal("2048", "--size", "3", "--seed", "3")
    model = Game2048(3, 1024, random.Random(3))
    wait_for_game(term, model)
    term.press(*moves_until(model, lambda game: game.over))
    term.wait_for("Game over")
    term.wait_for(f"Final score: {model.score}")
    term.press("q")
    assert term.wait_exit() == 0
    best = store_at(tmp_path / "data").best("2048", "3x3, goal 1024")
    assert best is not None and best.score == model.score and not best.used_undo


@pytest.mark.parametrize("driver", DRIVERS)
def test_help_overlay_lists_every_key_and_closes(driver: str, tmp_path: Path) -> None:
    with program(driver, ["2048", "--seed", "1"], tmp_path) as run:
        run.wait_for("Score: 0")
        run.press("?")
        for text in ("Up k w", "Left h a", "undo a move", "new game", "quit"):
            run.wait_for(text)
        run.press("x")
        run.wait_for_gone("undo a move")


def test_a_too_small_terminal_waits_and_play_resumes(terminal: Start) -> None:
    term = terminal("2048", "--seed", "9", rows=8, cols=30)
    rows, cols = window_for(minimum_size(4))
    assert rows > 8 and cols > 30
    term.wait_for(f"enlarge to {cols}×{rows}")
    term.press("left")  # ignored while the game cannot be seen
    term.wait_idle()  # taken before the resize: else it may be read once the game shows
    term.resize(24, 80)
    model = Game2048(4, 2048, random.Random(9))
    wait_for_game(term, model)
    term.press(*moves_until(model, lambda game: game.moves >= 2))
    wait_for_game(term, model)
    term.resize(9, 50)
    term.wait_for("enlarge to")
    term.resize(24, 80)
    wait_for_game(term, model)
    term.press("q")
    assert term.wait_exit() == 0


def test_quit_exits_zero_and_restores_the_terminal(terminal: Start) -> None:
    term = terminal("2048")
    term.wait_for("Score: 0")
    term.press("q")
    assert term.wait_exit() == 0
    assert_restored(term)


def assert_restored(term: Terminal) -> None:
    tail = bytes(term.received[-200:])
    assert b"\x1b[?1049l" in tail  # back to the normal screen
    assert b"\x1b[?25h" in tail or b"\x1b[?12l\x1b[?25h" in tail  # cursor visible
    assert b"Traceback" not in term.received


def test_sighup_saves_the_score_and_exits_cleanly(terminal: Start, tmp_path: Path) -> None:
    term, model = a_recorded_game(terminal)
    term.signal(signal.SIGHUP)
    assert term.wait_exit() == 128 + signal.SIGHUP
    assert_restored(term)
    best = store_at(tmp_path / "data").best("2048")
    assert best is not None and best.score == model.score


def test_sigterm_and_ctrl_c_exit_with_their_conventional_status(terminal: Start) -> None:
    term = terminal("2048")
    term.wait_for("Score: 0")
    term.signal(signal.SIGTERM)
    assert term.wait_exit() == 128 + signal.SIGTERM
    assert_restored(term)
    term = terminal("2048")
    term.wait_for("Score: 0")
    term.press("ctrl-c")
    assert term.wait_exit() == 130
    assert_restored(term)


def test_no_colour_still_shows_every_tile(terminal: Start) -> None:
    term = terminal("2048", "--seed", "4", "--ascii", env={"NO_COLOR": "1"})
    model = Game2048(4, 2048, random.Random(4))
    wait_for_game(term, model)
    assert "·" not in term.text()
    assert "\x1b[38;5" not in term.received.decode("latin-1")


def tile_cell(term: Terminal, label: str) -> pyte.screens.Char:
    """The screen cell holding the last character of the first tile labelled ``label``."""
    for y, line in enumerate(term.lines()):
        found = re.search(rf"(?<!\d){label}(?!\d)", line)
        if found and screen_grid(term, 4) is not None and y > 0:
            return term.screen.buffer[y][found.end() - 1]
    raise AssertionError(f"no tile {label!r} on screen:\n{term.text()}")


def play_to_an_eight(term: Terminal, seed: int) -> None:
    model = Game2048(4, 2048, random.Random(seed))
    wait_for_game(term, model)
    term.press(*moves_until(model, lambda game: any(8 in row for row in game.grid)))
    wait_for_game(term, model)


def test_tiles_use_256_colours_where_the_terminal_has_them(terminal: Start) -> None:
    term = terminal("2048", "--seed", "21")
    play_to_an_eight(term, 21)
    two, eight = tile_cell(term, "2"), tile_cell(term, "8")
    assert two.bg != "default" and eight.bg != "default" and two.bg != eight.bg
    assert b"\x1b[48;5;" in term.received


def test_tiles_use_eight_colours_on_an_eight_colour_terminal(terminal: Start) -> None:
    term = terminal("2048", "--seed", "21", term="xterm")
    play_to_an_eight(term, 21)
    two, eight = tile_cell(term, "2"), tile_cell(term, "8")
    basic = {"black", "red", "green", "brown", "blue", "magenta", "cyan", "white"}
    assert two.bg in basic and eight.bg in basic and two.bg != eight.bg
    assert b"\x1b[48;5;" not in term.received


@pytest.mark.parametrize("how", [["--no-color"], ["--no-colour"], "NO_COLOR"])
def test_monochrome_tiles_stay_readable(terminal: Start, how: list[str] | str) -> None:
    flags = how if isinstance(how, list) else []
    env = {"NO_COLOR": "1"} if how == "NO_COLOR" else None
    term = terminal("2048", "--seed", "21", *flags, env=env)
    play_to_an_eight(term, 21)
    two, eight = tile_cell(term, "2"), tile_cell(term, "8")
    assert two.bg == eight.bg == "default"
    assert not two.bold and eight.bold  # value classes differ by emphasis, not colour
    assert re.search(rb"\x1b\[(?:3|4)[0-7]m|\x1b\[(?:38|48);5;", bytes(term.received)) is None


def test_a_non_utf8_locale_gives_ascii_glyphs(terminal: Start) -> None:
    term = terminal("2048", "--seed", "4", env={"LANG": "C", "LC_ALL": "C"})
    model = Game2048(4, 2048, random.Random(4))
    wait_for_game(term, model)
    assert "·" not in term.text() and " . " in term.text()
    term.press("?")
    term.wait_for("+--")


def test_a_stray_byte_never_swallows_the_next_key(terminal: Start) -> None:
    for stray in (b"\xe6", b"\xc3", b"\xf0\x9f", b"\xff"):
        term = terminal("2048", "--seed", "2")
        term.wait_for("Score: 0")
        term.send(stray + b"q")  # a broken character, then quit: the q must still count
        assert term.wait_exit() == 0, stray


def test_multibyte_characters_are_read_whole(terminal: Start) -> None:
    term = terminal("2048", "--seed", "2")
    model = Game2048(4, 2048, random.Random(2))
    wait_for_game(term, model)
    term.send("é日😀".encode())
    term.press(*moves_until(model, lambda game: game.moves >= 2))
    wait_for_game(term, model)
