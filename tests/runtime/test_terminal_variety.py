"""Every game starts, draws legibly and quits cleanly on each common terminal type,
without colour, and in a non-UTF-8 locale."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.terminal import Start, Terminal

LEVELS = str(Path(__file__).resolve().parents[2] / "levels" / "starPusherLevels.txt")
GAMES = {
    "2048": (["2048"], "Score: 0"),
    "sokoban": (["sokoban", LEVELS, "--level", "2"], "moves 0   pushes 0"),  # Sasquatch I 1
    "reversi": (["reversi", "--first", "you"], "You move first."),
    "maze": (["maze", "--size", "20x8"], "steps 0"),
}
TERMS = ["xterm-256color", "xterm", "screen", "tmux-256color", "vt100", "linux"]


def play_and_quit(term: Terminal, expected: str) -> None:
    term.wait_for(expected)
    term.press("?")
    term.wait_for("press any key to close")
    term.press("x")
    term.wait_for_gone("press any key to close")
    term.press("q")
    assert term.wait_exit() == 0
    assert b"Traceback" not in term.received


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("term_type", TERMS)
def test_each_game_on_each_terminal(terminal: Start, game: str, term_type: str) -> None:
    args, expected = GAMES[game]
    play_and_quit(terminal(*args, term=term_type), expected)


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_without_colour(terminal: Start, game: str) -> None:
    args, expected = GAMES[game]
    term = terminal(*args, env={"NO_COLOR": "1"})
    play_and_quit(term, expected)
    assert b"\x1b[38;5;" not in term.received and b"\x1b[48;5;" not in term.received


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_in_a_c_locale_uses_ascii(terminal: Start, game: str) -> None:
    args, expected = GAMES[game]
    term = terminal(*args, env={"LANG": "C", "LC_ALL": "C"})
    play_and_quit(term, expected)
    assert all(byte < 0x80 for byte in term.received), "non-ASCII bytes in a C locale"
