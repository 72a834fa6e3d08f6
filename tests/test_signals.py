"""SIGINT, SIGTERM and SIGHUP in every state: the terminal comes back, scores are kept."""

from __future__ import annotations

import random
import signal
import termios
from pathlib import Path

import pytest

from termgames.g2048.board import Game2048
from tests.stores import store_at
from tests.terminal import Start, Terminal
from tests.test_2048_terminal import moves_until, wait_for_game

SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]


def into_menu(start: Start, tmp_path: Path) -> Terminal:
    term = start()
    term.wait_for("Enter play")
    return term


def into_game(start: Start, tmp_path: Path) -> Terminal:
    term = start("2048", "--seed", "13")
    model = Game2048(4, 2048, random.Random(13))
    wait_for_game(term, model)
    # Past its first moves: a game left before its tenth move is not a result.
    term.press(*moves_until(model, lambda game: game.score >= 8 and game.moves >= 10))
    wait_for_game(term, model)
    return term


def into_not_game(start: Start, tmp_path: Path) -> Terminal:
    term = start("2048", "--goal", "8", "--seed", "11")
    model = Game2048(4, 8, random.Random(11))
    wait_for_game(term, model)
    term.press(*moves_until(model, lambda game: game.won))
    term.wait_for("You made 8!")
    return term


def into_help(start: Start, tmp_path: Path) -> Terminal:
    term = start("2048")
    term.wait_for("Score: 0")
    term.press("?")
    term.wait_for("press any key to close")
    return term


def into_thinking(start: Start, tmp_path: Path) -> Terminal:
    term = start("reversi", "--level", "5", "--first", "computer")
    term.wait_for("Computer is thinking")
    return term


def into_solver(start: Start, tmp_path: Path) -> Terminal:
    term = start("maze", "--size", "200x200", "--seed", "1")
    term.wait_for("steps 0")
    term.press(".")
    term.wait_until(lambda: ":" in term.text(), "the solver animating")
    return term


STATES = {"menu": into_menu, "game": into_game, "not_game": into_not_game,
          "help": into_help, "thinking": into_thinking, "solver": into_solver}


@pytest.mark.parametrize("signum", SIGNALS, ids=[s.name for s in SIGNALS])
@pytest.mark.parametrize("state", list(STATES))
def test_a_signal_in_any_state_restores_the_terminal(
    terminal: Start, tmp_path: Path, state: str, signum: signal.Signals
) -> None:
    term = STATES[state](terminal, tmp_path)
    term.signal(signum)
    assert term.wait_exit() == 128 + signum
    tail = bytes(term.received[-300:])
    assert b"\x1b[?1049l" in tail, tail  # the normal screen is back
    assert b"\x1b[?25h" in tail, tail  # the cursor is visible
    attributes = termios.tcgetattr(term.process.fd)
    assert attributes[3] & termios.ECHO and attributes[3] & termios.ICANON  # echo, lines
    assert b"Traceback" not in term.received
    if state in ("game", "not_game"):  # what was earned is kept
        best = store_at(tmp_path / "data").best("2048")
        assert best is not None and best.score >= 8
